# The real Go 1.19 fixture: what lands in the store.  Times are ns since
# the trace's first event (the store keeps ticks * 1e9 / frequency).
trace-import data/gotrace/go119-fixture.trace || exit 99
trace-query -F csv sql "SELECT format, format_version, clock, ts_max - ts_min
    AS span, json_extract(meta, '\$.ticks_per_second') AS freq,
    json_extract(meta, '\$.events') AS events FROM source"
trace-query -F csv sql "SELECT state, reason, count(*) AS n, sum(dur) AS ns
    FROM go_state GROUP BY 1, 2 ORDER BY 1, 2"
trace-query -F csv sql "SELECT goid, name, created - (SELECT ts_min FROM
    source) AS created, ended - (SELECT ts_min FROM source) AS ended, creator
    FROM go_goroutine ORDER BY goid"
trace-query -F csv sql "SELECT name, ts - (SELECT ts_min FROM source) AS ts,
    dur, args FROM go_gc ORDER BY ts, name"
trace-query -F csv sql "SELECT kind, reason, ts - (SELECT ts_min FROM
    source) AS ts, dur FROM go_stw ORDER BY ts"
trace-query -F csv sql "SELECT t.kind, t.name, n.s AS name, c.s AS cat,
    s.ts - (SELECT ts_min FROM source) AS ts, s.dur, s.args FROM slice s
    JOIN track t ON t.id = s.track_id JOIN str n ON n.id = s.name_id
    LEFT JOIN str c ON c.id = s.category_id WHERE t.kind = 'go-task'
    ORDER BY s.ts, s.id"
trace-query -F csv sql "SELECT n.s AS counter, count(*) AS n, min(value),
    max(value) FROM counter c JOIN str n ON n.id = c.name_id GROUP BY 1
    ORDER BY 1"
trace-query -F csv sql "SELECT count(*) AS samples, count(DISTINCT
    callsite_id) AS stacks, sum(value) AS value FROM sample"
