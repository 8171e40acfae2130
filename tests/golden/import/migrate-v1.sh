# A store of schema version 1 (a row per slice) is migrated to slices in
# runs by the first trace-import that writes to it; the read-only tools
# refuse it until then.  Its slices then read as a fresh import's do
# (only their ids are new), and imports into it go on as into any store.
cp data/core/v1-go119.db old.db && chmod u+w old.db || exit 99
trace-query -d old.db -F csv sql "SELECT count(*) FROM source"
trace-import -d old.db data/gotrace/go119-fixture.trace
trace-import -d new.db data/gotrace/go119-fixture.trace 2>/dev/null ||
    exit 99
trace-query -d old.db -F csv sql "PRAGMA user_version"
q="SELECT t.kind, t.ref, n.s AS name, c.s AS cat, s.ts, s.dur,
    s.callsite_id, s.args FROM slice s JOIN track t ON t.id = s.track_id
    JOIN str n ON n.id = s.name_id LEFT JOIN str c ON c.id = s.category_id
    ORDER BY t.kind, t.ref, s.ts, s.dur, n.s"
trace-query -d old.db -F csv sql "$q" > old.csv || exit 1
trace-query -d new.db -F csv sql "$q" > new.csv || exit 1
cmp old.csv new.csv && echo "slices: the same $(($(wc -l < old.csv) - 1))"
# The annotation views of version 3 read the migrated slices as new ones.
for v in go_task go_region go_log; do
	q="SELECT * FROM $v ORDER BY ts, name"
	[ $v = go_log ] && q="SELECT * FROM $v ORDER BY ts, category"
	trace-query -d old.db -F csv sql "$q" | cut -d, -f3- > old.csv
	trace-query -d new.db -F csv sql "$q" | cut -d, -f3- > new.csv
	cmp old.csv new.csv && echo "$v: the same $(($(wc -l < old.csv) - 1))"
done
# Ids: a run's slices are numbered in a row, from 1.
trace-query -d old.db -F csv sql "SELECT min(id), max(id), count(*),
    count(DISTINCT id) FROM slice"
trace-query -d old.db -F csv sql "SELECT count(*) AS runs, sum(n) AS
    slices, sum(ts <= (SELECT min(ts) FROM slice s WHERE s.id BETWEEN
    r.id AND r.id + r.n - 1)) AS ts_ok FROM slice_run r"
trace-query -d old.db -F csv sql "SELECT state, reason, count(*) AS n,
    sum(dur) AS ns FROM go_state GROUP BY 1, 2 ORDER BY 1, 2"
trace-import -d old.db data/gotrace/gen119.trace
trace-query -d old.db -F csv sql "SELECT source_id, count(*) FROM slice
    GROUP BY 1 ORDER BY 1"
