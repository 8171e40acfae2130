# contention's blocking by stack from the trace against Go's own
# `go tool trace -pprof=sync` (data/gotrace/TAG-sync.txt, folded by
# tests/gen/gotrace/pprof-fold.py) on the recordings of Go 1.19 and 1.21
# (old format: Go counts blocking on the GC too) and Go 1.22 and 1.23
# (generation format), each by its own Go's rules: count and nanoseconds
# per stack, summed over the kinds of the 'stacks' set, must be identical.
. "${0%/*}/gotool-fold.inc"
for t in gen119 gen121 gen122 gen123; do
	rm -f t.db
	trace-import -q -d t.db "data/gotrace/$t.trace" || exit 99
	rows=$(trace-query -d t.db -F csv contention --top 100000 |
	    awk -F, '/^kind,callsite_id,count,total_ns/ { s = 1; next }
	    NF < 2 { s = 0 } s { printf "%s(%s,%s,%s)", n++ ? "," : "", $2,
	    $3, $4 }')
	gotool_check $t sync "$rows"
done
