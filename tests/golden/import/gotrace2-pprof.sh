# Go 1.22+'s `go tool trace -pprof=KIND` (cmd/trace/pprof.go), replayed
# over the store for Go 1.22 and Go 1.23 recordings of
# tests/gen/gotrace/main.go: count and nanoseconds per stack must be
# identical.  Go's rules, which the SQL below follows:
#  - only goroutine state transitions that carry a stack count; the
#    others (GoStart, a GoUnblock from the netpoller, GoSyscallEnd) are
#    skipped, so an interval runs on through them;
#  - an interval opens at a transition into the state (Waiting whose
#    reason contains chan, sync or select for sync; Waiting for "network"
#    for net; Syscall; Runnable for sched), keeps the opening stack, and
#    closes at the next such transition into another state; one still
#    open when the trace ends is dropped;
#  - it is clipped to the goroutine's life from its first run, and empty
#    ones are dropped.
# The store keeps each state's slice with the stack of the transition
# into it (none where the transition had none) and the runtime's reason in
# args, so the replay needs nothing else.
. "${0%/*}/gotrace-pprof.inc"
replay() {
	echo "st AS (
  SELECT s.track_id AS tr, s.id AS id, s.ts AS ts, s.callsite_id AS cs,
         CASE WHEN g.state = 'running' THEN 'Running'
              WHEN g.state = 'runnable' THEN 'Runnable'
              WHEN g.reason = 'syscall' THEN 'Syscall'
              ELSE 'Waiting' END AS gst,
         coalesce(json_extract(s.args, '\$.reason'), '') AS r
    FROM go_state g JOIN slice s ON s.id = g.id
   WHERE s.callsite_id IS NOT NULL AND s.source_id = $1),
runs AS (
  SELECT *, sum(gst <> '$2') OVER (PARTITION BY tr ORDER BY ts, id) AS grp
    FROM st),
starts AS (
  SELECT tr, grp, cs, ts,
         row_number() OVER (PARTITION BY tr, grp ORDER BY ts, id) AS k
    FROM runs WHERE gst = '$2' AND ($3)),
ends AS (
  SELECT tr, grp - 1 AS grp, ts FROM runs WHERE gst <> '$2'),
firstrun AS (
  SELECT s.track_id AS tr, min(s.ts) AS fr
    FROM slice s JOIN str n ON n.id = s.name_id
   WHERE n.s = 'running' AND s.source_id = $1 GROUP BY s.track_id),
picked AS (
  SELECT * FROM (
    SELECT s.cs AS cs, e.ts - max(s.ts, coalesce(f.fr, s.ts)) AS dur
      FROM starts s JOIN ends e USING (tr, grp)
      LEFT JOIN firstrun f USING (tr) WHERE s.k = 1)
   WHERE dur > 0)"
}
n=0
for t in gen122 gen123; do
	trace-import -q "data/gotrace/$t.trace" || exit 99
	n=$((n + 1))
	check $t sync "$(replay $n Waiting \
	    "r LIKE '%chan%' OR r LIKE '%sync%' OR r LIKE '%select%'")"
	check $t net "$(replay $n Waiting "r = 'network'")"
	check $t syscall "$(replay $n Syscall 1)"
	check $t sched "$(replay $n Runnable 1)"
done
