# Go's own canned traces, Go 1.7 to 1.19 (src/internal/trace/testdata):
# every one imports (check-import-gotrace compares their events with go
# tool trace -d); one store holds them all.
for f in data/gotrace/http_1_*_good data/gotrace/stress_*_good \
    data/gotrace/user_task_region_*_good; do
	case $f in *_1_5_good) continue ;; esac
	trace-import "$f" || exit 99
done
trace-query -F csv sql "SELECT path, format_version,
    json_extract(meta, '\$.events') AS events, rows,
    (SELECT count(*) FROM track t WHERE t.source_id = s.id AND
    t.kind = 'goroutine') AS goroutines FROM source s ORDER BY id"
