# Go 1.22 (generation format): Go's go122-annotations test trace, a real
# trace.  Times on CLOCK_MONOTONIC: ns since the first event here.
trace-import data/gotrace/go122-annotations.trace || exit 99
trace-query -F csv sql "SELECT format_version, clock, ts_max - ts_min AS span,
    json_extract(meta, '\$.events') AS events,
    json_extract(meta, '\$.generations') AS generations FROM source"
trace-query -F csv sql "SELECT goid, state, reason, ts - (SELECT ts_min FROM
    source) AS ts, dur, args FROM go_state ORDER BY goid, ts, id"
trace-query -F csv sql "SELECT goid, name, created - (SELECT ts_min FROM
    source) AS created, ended - (SELECT ts_min FROM source) AS ended, creator
    FROM go_goroutine ORDER BY goid"
trace-query -F csv sql "SELECT t.kind, t.name AS track, n.s AS name, c.s AS
    cat, s.ts - (SELECT ts_min FROM source) AS ts, s.dur, s.args FROM slice s
    JOIN track t ON t.id = s.track_id JOIN str n ON n.id = s.name_id
    LEFT JOIN str c ON c.id = s.category_id WHERE t.kind NOT IN
    ('goroutine') ORDER BY t.kind, s.ts, s.id"
