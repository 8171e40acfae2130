# Time blocked per stack, from the store, against what Go's own
# `go tool trace -pprof=KIND` computed from the same old-format trace (Go
# 1.19 and Go 1.21 recordings of tests/gen/gotrace/main.go): count and
# nanoseconds per stack must be identical for sync, net, syscall and sched
# (scheduler latency, by the creating or waking goroutine's stack).  Go
# 1.22+ computes these differently: gotrace2-pprof.sh.
. "${0%/*}/gotrace-pprof.inc"
state() {
	echo "picked AS (
  SELECT g.callsite_id AS cs, g.dur AS dur FROM go_state g
   WHERE g.callsite_id IS NOT NULL AND g.source_id = $1
     AND json_extract(g.args, '\$.unfinished') IS NULL
     AND (state, reason) IN (VALUES $2))"
}
n=0
for t in gen119 gen121; do
	trace-import -q "data/gotrace/$t.trace" || exit 99
	n=$((n + 1))
	check $t sync "$(state $n "('blocked','chan send'),
	    ('blocked','chan recv'), ('blocked','select'), ('blocked','sync'),
	    ('blocked','cond'), ('blocked','GC')")"
	check $t net "$(state $n "('blocked','net')")"
	check $t syscall "$(state $n "('blocked','syscall')")"
	check $t sched "$(state $n "('runnable','created'),
	    ('runnable','unblocked')")"
done
