# The Go trace's user annotations (runtime/trace tasks, regions and logs)
# through the views go_task, go_region and go_log of schema version 3,
# from the Go 1.22 toolchain's annotation test trace (a region begun
# before its task, one left open at the end, one ended by its goroutine's
# exit) and a 1.25 trace; the views hold exactly the go-task track's
# slices of each category.
trace-import -q -d t.db data/gotrace/go122-annotations.trace \
    data/gotrace/rich125.trace || exit 1
trace-query -d t.db -F csv sql "SELECT source_id, task_id, name, parent_id,
    goid, end_goid, ts, dur, start_unknown, unfinished FROM go_task
    ORDER BY source_id, ts"
trace-query -d t.db -F csv sql "SELECT source_id, task_id, goid, name,
    depth, ts, dur, start_unknown, unfinished, ended_by FROM go_region
    ORDER BY source_id, ts"
trace-query -d t.db -F csv sql "SELECT source_id, task_id, goid, ts,
    category, message FROM go_log ORDER BY source_id, ts"
trace-query -d t.db -F csv sql "SELECT c.s AS category, count(*) AS n,
    (SELECT count(*) FROM go_task) + (SELECT count(*) FROM go_region) +
    (SELECT count(*) FROM go_log) AS in_views FROM slice s
    JOIN track t ON t.id = s.track_id JOIN str c ON c.id = s.category_id
    WHERE t.kind = 'go-task' GROUP BY 1 ORDER BY 1"
