# Time blocked per stack, from the store, against what Go 1.19's own
# `go tool trace -pprof=KIND` computed from the same trace (folded by
# tests/gen/gotrace/pprof-fold.py): count and nanoseconds per stack must
# be identical for sync, net, syscall and sched (scheduler latency, by the
# creating or waking goroutine's stack).
trace-import -q data/gotrace/gen119.trace || exit 99
fold() {
	trace-query -F csv sql "
WITH fr AS (
  SELECT st.callsite_id AS cs, st.depth AS depth,
         f.name || ' ' || f.file || ':' || f.line AS txt
    FROM stack st JOIN frame f ON f.id = st.frame_id),
folded AS (
  SELECT cs, group_concat(txt, ';') AS stk
    FROM (SELECT cs, txt FROM fr ORDER BY cs, depth) GROUP BY cs),
picked AS (
  SELECT g.callsite_id AS cs, g.dur AS dur FROM go_state g
   WHERE g.callsite_id IS NOT NULL
     AND json_extract(g.args, '\$.unfinished') IS NULL
     AND (state, reason) IN (VALUES $1))
SELECT count(*) || ' ' || sum(dur) || ' ' || stk AS line
  FROM picked JOIN folded USING (cs) GROUP BY stk ORDER BY stk" |
	    tail -n +2 | tr -d '"'
}
check() {
	fold "$2" > "$1.mine"
	if cmp -s "$1.mine" "data/gotrace/gen119-$1.txt"; then
		awk -v k="$1" '{ n += $1; t += $2 } END {
		    printf "%s: %d stacks, %d intervals, %d ns: identical\n",
		    k, NR, n, t }' "$1.mine"
	else
		echo "$1: differs from go tool trace -pprof=$1"
		diff "data/gotrace/gen119-$1.txt" "$1.mine" | head -n 20
	fi
}
check sync "('blocked','chan send'),('blocked','chan recv'),
    ('blocked','select'),('blocked','sync'),('blocked','cond'),
    ('blocked','GC')"
check net "('blocked','net')"
check syscall "('blocked','syscall')"
check sched "('runnable','created'),('runnable','unblocked')"
