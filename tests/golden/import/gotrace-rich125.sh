# Go 1.25, SYNTHETIC (tests/gen/gotrace/mkbad.py): two threads, coroutine
# switches, a syscall whose P is stolen, GC, assist, sweep, STW, a label,
# a task with a region and a log, heap counters, a CPU sample and a clock
# snapshot.  Times in ticks of 64 ns (ns / 64; ties moved 1 ns by Go's
# rule show as the same tick).
trace-import -q data/gotrace/rich125.trace || exit 99
trace-query -F csv sql "SELECT goid, state, reason, ts / 64 AS tick,
    (ts + dur) / 64 AS end_tick, args FROM go_state ORDER BY goid, ts, id"
trace-query -F csv sql "SELECT goid, name, created / 64 AS created,
    ended / 64 AS ended, creator FROM go_goroutine ORDER BY goid"
trace-query -F csv sql "SELECT t.kind, t.ref, n.s AS name, c.s AS cat,
    s.ts / 64 AS tick, (s.ts + s.dur) / 64 AS end_tick, s.args FROM slice s
    JOIN track t ON t.id = s.track_id JOIN str n ON n.id = s.name_id
    LEFT JOIN str c ON c.id = s.category_id WHERE t.kind != 'goroutine'
    ORDER BY t.kind, t.ref, s.ts"
trace-query -F csv sql "SELECT n.s AS counter, c.ts / 64 AS tick, c.value
    FROM counter c JOIN str n ON n.id = c.name_id ORDER BY c.ts"
trace-query -F csv sql "SELECT ts / 64 AS tick, labels, value FROM sample"
trace-query -F csv sql "SELECT clock, json_extract(meta,
    '\$.clock_snapshots') AS snapshots FROM source"
