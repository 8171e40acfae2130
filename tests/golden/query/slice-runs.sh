# Slices are stored in runs (slice_run) and read through the slice view:
# every slice lies within its run's bounds, a run's ids follow each other,
# and a window tested against the run bounds too (which the run index
# answers) finds exactly the slices of the plain test.
trace-import data/gotrace/gen119.trace 2>/dev/null || exit 99
trace-query -F csv sql "SELECT count(*) AS runs, sum(n) AS slices,
    max(n) AS most, (SELECT count(*) FROM slice) AS view_rows,
    (SELECT count(DISTINCT id) FROM slice) AS ids FROM slice_run"
trace-query -F csv sql "SELECT count(*) AS outside FROM slice
    WHERE ts < run_ts OR ts + dur > run_end_ts"
trace-query -F csv sql "SELECT count(*) AS bad_ids FROM slice_run r
    WHERE (SELECT min(id) FROM slice s WHERE s.track_id = r.track_id
    AND s.run_ts = r.ts AND s.run_end_ts = r.end_ts) <> r.id"
for w in '0 1000000' '100000000 200000000' '250000000 250000001' \
    '0 99999999999'; do
	set -- $w
	lo="(SELECT ts_min FROM source) + $1"
	hi="(SELECT ts_min FROM source) + $2"
	trace-query -F csv sql "SELECT '$1-$2' AS window, count(*) AS n,
	    sum(dur) AS ns FROM go_state WHERE ts < $hi AND ts + dur > $lo" |
	    tail -n 1
	trace-query -F csv sql "SELECT '$1-$2' AS window, count(*) AS n,
	    sum(dur) AS ns FROM go_state WHERE run_ts < $hi AND
	    run_end_ts > $lo AND ts < $hi AND ts + dur > $lo" | tail -n 1
done
