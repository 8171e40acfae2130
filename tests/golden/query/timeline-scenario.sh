# timeline on the scenario (tests/data/scenario: normal training and its
# injected phases, tests/gen/scenario/README): one row per second, where
# the phases show (GC time in the gc phase, goroutines blocked on chan and
# sync, syscall time, runnable goroutines in the sched phase, the GPU's
# utilisation falling in each).  Then go_bin against go_state, to the
# nanosecond, for each of those seconds.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv timeline --step 1s
set -- $(trace-query -F csv sql "SELECT min(ts), (max(ts + dur) - min(ts))
    / 1000000000 + 1 FROM go_bin" | tail -n 1 | tr , ' ')
lo=$1 n=$2 step=1000000000
trace-query -F csv sql "WITH RECURSIVE w(i, a, b) AS (
      SELECT 0, $lo, $lo + $step UNION ALL
      SELECT i + 1, b, b + $step FROM w WHERE i + 1 < $n),
    d AS (SELECT w.i, sum(running_ns) AS r, sum(runnable_ns) AS q,
        sum(chan_ns) AS c, sum(sync_ns) AS s, sum(syscall_ns) AS y,
        sum(chan_ns + sync_ns + syscall_ns + net_ns + sleep_ns + other_ns)
        AS b FROM w JOIN go_bin x ON x.ts >= w.a AND x.ts < w.b
        GROUP BY 1),
    v AS (SELECT w.i,
        sum((state = 'running') * (min(ts + dur, w.b) - max(ts, w.a))) AS r,
        sum((state = 'runnable') * (min(ts + dur, w.b) - max(ts, w.a)))
        AS q,
        sum((reason IN ('chan send', 'chan recv', 'select')) *
        (min(ts + dur, w.b) - max(ts, w.a))) AS c,
        sum((reason IN ('sync', 'cond')) *
        (min(ts + dur, w.b) - max(ts, w.a))) AS s,
        sum((state = 'blocked' AND reason = 'syscall') *
        (min(ts + dur, w.b) - max(ts, w.a))) AS y,
        sum((state = 'blocked') * (min(ts + dur, w.b) - max(ts, w.a))) AS b
        FROM w JOIN go_state g ON g.run_ts < w.b AND g.run_end_ts > w.a
        AND g.ts < w.b AND g.ts + g.dur > w.a GROUP BY 1)
    SELECT count(*) AS steps, sum(d.r = v.r AND d.q = v.q AND d.c = v.c
        AND d.s = v.s AND d.y = v.y AND d.b = v.b) AS equal,
        sum(d.r) AS running_ns, sum(d.c) AS chan_ns, sum(d.s) AS sync_ns,
        sum(d.y) AS syscall_ns
    FROM d JOIN v ON v.i = d.i"
