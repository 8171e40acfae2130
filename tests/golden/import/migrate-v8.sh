# A store of schema version 8 (go_span a WITHOUT ROWID table keyed by
# name, go_span_pack without the spans' goroutines: two Go traces, made by
# the tracekit of that version) is migrated to version 9 by the first
# trace-import that writes to it (and on to version 10): go_span becomes a
# view of the slices, which gives the rows the table held (in slice id
# order, as version 9's table had them), go_span_pack is packed again
# with each span's goroutine (goid_list, 8 bytes a span), and steps says what it said of the
# version 8 store (the outputs below, from the first steps on, are byte
# for byte those of the tracekit of version 8 on it).
cp data/core/v8-gotrace.db old.db && chmod u+w old.db || exit 99
trace-query -d old.db -F csv steps --source 1 --region region0
trace-import -d old.db data/core/small.perf.txt
trace-query -d old.db -F csv sql "PRAGMA user_version"
trace-query -d old.db -F csv sql "SELECT source_id, kind, name_id, ts, id,
    dur, task_id, goid, depth, start_unknown, unfinished FROM go_span
    ORDER BY id"
trace-query -d old.db -F csv sql "SELECT p.source_id, p.kind, (SELECT s
    FROM str WHERE id = p.name_id) AS name, p.seq, p.n, hex(p.goid_list)
    AS goids, hex(p.cut_list) AS cut, p.ts = s.ts AND p.end_max =
    s.end_max AND p.n = s.n AS equal FROM go_span_pack p JOIN (SELECT
    source_id, kind, name_id, count(*) AS n, min(ts) AS ts, max(ts + dur)
    AS end_max FROM go_span GROUP BY 1, 2, 3) s USING (source_id, kind,
    name_id) ORDER BY 1, 2, 3"
trace-query -d old.db -F csv steps --source 1 --region region0
trace-query -d old.db -F csv steps --source 1 --region "unended region" --all
trace-query -d old.db -F csv steps --source 1 --task task0 --all
trace-query -d old.db -F csv steps --source 2 --region chan --all
trace-query -d old.db -F csv steps --source 2 --task gotracegen --driver chan
trace-query -d old.db -F csv steps --region mutex --goroutine 22 --all
trace-query -d old.db -F csv steps --source 1 --region "post-existing region"
