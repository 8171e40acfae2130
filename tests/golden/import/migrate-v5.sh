# A store of schema version 5 (no packed steps) is migrated to version 6
# by the first trace-import that writes to it: go_span_pack is packed from
# go_span, a chunk per name here, with the unfinished regions flagged; the
# read-only tools refuse the store until then, and steps then reads from
# go_span_pack what it reads from go_span (TRACEKIT_NO_PACK=1).
cp data/core/v5-gotrace.db old.db && chmod u+w old.db || exit 99
trace-query -d old.db -F csv steps --region region0
trace-import -d old.db data/core/small.perf.txt
trace-query -d old.db -F csv sql "PRAGMA user_version"
trace-query -d old.db -F csv sql "SELECT p.source_id, p.kind, (SELECT s
    FROM str WHERE id = p.name_id) AS name, p.seq, p.n, length(p.ts_list)
    AS ts_bytes, length(p.dur_list) AS dur_bytes, hex(p.cut_list) AS cut,
    p.ts = s.ts AND p.end_max = s.end_max AND p.n = s.n AS equal FROM
    go_span_pack p JOIN (SELECT source_id, kind, name_id, count(*) AS n,
    min(ts) AS ts, max(ts + dur) AS end_max FROM go_span GROUP BY 1, 2, 3)
    s USING (source_id, kind, name_id) ORDER BY 1, 2, 3"
same() {
	trace-query -d old.db -F csv steps "$@" > pack.out 2>&1
	TRACEKIT_NO_PACK=1 trace-query -d old.db -F csv steps "$@" > span.out \
	    2>&1
	cmp pack.out span.out && echo "$*: the same $(wc -l < pack.out) lines"
}
same --source 1 --region region0
same --source 1 --region "unended region"
same --source 1 --region "post-existing region"
same --source 1 --task task0
same --region chan
same --task gotracegen --top 1
trace-query -d old.db -F csv steps --source 1 --region "task0 region"
trace-query -d old.db -F csv steps --source 1 --region "unended region" |
    head -n 2
