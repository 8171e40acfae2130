# sched-latency's wake-up latency by stack against Go's own
# `go tool trace -pprof=sched` (data/gotrace/TAG-sched.txt, folded by
# tests/gen/gotrace/pprof-fold.py) on the recordings of Go 1.19 and 1.21
# (old format) and Go 1.22 and 1.23 (generation format), each by its own
# Go's rules: count and nanoseconds per stack must be identical.  The
# 'stacks' set's rows are folded into Go's text form by the store's stack
# view, as gotrace-pprof.inc folds the states.
. "${0%/*}/gotool-fold.inc"
for t in gen119 gen121 gen122 gen123; do
	rm -f t.db
	trace-import -q -d t.db "data/gotrace/$t.trace" || exit 99
	rows=$(trace-query -d t.db -F csv sched-latency --top 100000 |
	    awk -F, '/^callsite_id,count,total_ns/ { s = 1; next }
	    NF < 2 { s = 0 } s { printf "%s(%s,%s,%s)", n++ ? "," : "", $1,
	    $2, $3 }')
	gotool_check $t sched "$rows"
done
