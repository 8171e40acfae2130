# gpu-idle --evidence: the rows behind an episode, by id (the GPU samples,
# the driver's states, the CPU samples in it), for the demo's second dip;
# and its cause columns against the driver's states summed with plain SQL
# over go_state (the same window, clipped): they must agree to the ns.
trace-import data/demo 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gpu-idle --threshold 50 --min 200ms --evidence \
    --from =746600000000 --to =746900000000 2>/dev/null |
    sed -n '/^episode,what/,/^$/p'
trace-query -F csv gpu-idle --threshold 50 --min 200ms \
    --from =746600000000 --to =746900000000 2>/dev/null |
    sed -n '/^episode,gpu,start_ns/,/^$/p' | cut -d, -f3,4,12-22 > ep.csv
cat ep.csv
set -- $(sed -n 2p ep.csv | tr , ' ')
lo=$1 hi=$2
trace-query -F csv sql "SELECT state, coalesce(reason, '') AS reason,
    sum(min(ts + dur, $hi) - max(ts, $lo)) AS ns
    FROM go_state WHERE goid = 1 AND run_ts < $hi AND run_end_ts > $lo
    AND ts < $hi AND ts + dur > $lo AND dur > 0 GROUP BY 1, 2
    ORDER BY 1, 2"
