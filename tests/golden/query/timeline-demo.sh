# timeline on the demo bundle: one row per 500 ms (GPU, CPU samples,
# goroutines by state, GC, heap); then, over twelve 250 ms steps inside the
# Go trace, its goroutine and GC columns against the raw views: the mean
# counts against go_state, the GC and STW time against go_gc and go_stw,
# and go_bin's nanoseconds against go_state's, summed per step.  Any drift
# of the derived data shows as a diff here.
trace-import data/demo 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv timeline --step 500ms
lo=742600000000 step=250000000 n=12
hi=$((lo + step * n))
trace-query -F csv timeline --from =$lo --to =$hi --step 250ms |
    awk -F, 'NR > 1 { print $1, $6, $7, $8, $9, $10, $11, $12, $13, \
	$17, $18 }' > tl.txt
# The same from the views, with the same kinds of reasons.
trace-query -F csv sql "WITH RECURSIVE w(i, a, b) AS (
      SELECT 0, $lo, $lo + $step UNION ALL
      SELECT i + 1, b, b + $step FROM w WHERE i + 1 < $n),
    k AS (SELECT ts, dur, CASE state WHEN 'running' THEN 0
        WHEN 'runnable' THEN 1 WHEN 'blocked' THEN
        CASE WHEN reason IN ('chan send', 'chan recv', 'select') THEN 2
        WHEN reason IN ('sync', 'cond') THEN 3 WHEN reason = 'syscall'
        THEN 4 WHEN reason = 'net' THEN 5 WHEN reason = 'sleep' THEN 6
        ELSE 7 END END AS kind, run_ts, run_end_ts FROM go_state),
    s AS (SELECT w.i, w.a, k.kind,
        sum(min(k.ts + k.dur, w.b) - max(k.ts, w.a)) AS ns
        FROM w JOIN k ON k.run_ts < w.b AND k.run_end_ts > w.a
        AND k.ts < w.b AND k.ts + k.dur > w.a GROUP BY 1, 2, 3),
    g AS (SELECT w.i, sum(min(x.ts + x.dur, w.b) - max(x.ts, w.a)) AS ns
        FROM w JOIN go_gc x ON x.name = 'GC' AND x.ts < w.b
        AND x.ts + x.dur > w.a GROUP BY 1),
    t AS (SELECT w.i, sum(min(x.ts + x.dur, w.b) - max(x.ts, w.a)) AS ns
        FROM w JOIN go_stw x ON x.ts < w.b AND x.ts + x.dur > w.a
        GROUP BY 1)
    SELECT w.a, $(for k in 0 1 2 3 4 5 6 7; do
        printf "round(coalesce((SELECT ns FROM s WHERE s.i = w.i AND "
        printf "s.kind = $k), 0) * 1.0 / $step, 4), "; done)
      coalesce((SELECT ns FROM g WHERE g.i = w.i), 0),
      coalesce((SELECT ns FROM t WHERE t.i = w.i), 0)
    FROM w ORDER BY w.i" | awk -F, 'NR > 1 { $1 = $1; print }' > views.txt
if diff tl.txt views.txt; then
	echo "timeline = go_state, go_gc, go_stw over $n steps"
fi
# The derived bins themselves, to the nanosecond, per step.
trace-query -F csv sql "WITH RECURSIVE w(i, a, b) AS (
      SELECT 0, $lo, $lo + $step UNION ALL
      SELECT i + 1, b, b + $step FROM w WHERE i + 1 < $n),
    d AS (SELECT w.i, sum(running_ns) AS r, sum(runnable_ns) AS q,
        sum(chan_ns + sync_ns + syscall_ns + net_ns + sleep_ns + other_ns)
        AS b FROM w JOIN go_bin x ON x.ts >= w.a AND x.ts < w.b
        GROUP BY 1),
    v AS (SELECT w.i,
        sum((state = 'running') * (min(ts + dur, w.b) - max(ts, w.a))) AS r,
        sum((state = 'runnable') * (min(ts + dur, w.b) - max(ts, w.a)))
        AS q,
        sum((state = 'blocked') * (min(ts + dur, w.b) - max(ts, w.a))) AS b
        FROM w JOIN go_state g ON g.run_ts < w.b AND g.run_end_ts > w.a
        AND g.ts < w.b AND g.ts + g.dur > w.a GROUP BY 1)
    SELECT count(*) AS steps, sum(d.r = v.r AND d.q = v.q AND d.b = v.b)
        AS equal, sum(d.r) AS running_ns, sum(d.b) AS blocked_ns
    FROM d JOIN v ON v.i = d.i"
