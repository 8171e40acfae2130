# contention's blocking by stack from the trace against Go's own
# `go tool trace -pprof=sync` (data/gotrace/TAG-sync.txt, folded by
# tests/gen/gotrace/pprof-fold.py) on the old-format recordings of Go 1.19
# and Go 1.21 (Go counts channels, select, sync, cond and blocking on the
# GC there): count and nanoseconds per stack must be identical.
. "${0%/*}/gotool-fold.inc"
for t in gen119 gen121; do
	rm -f t.db
	trace-import -q -d t.db "data/gotrace/$t.trace" || exit 99
	rows=$(trace-query -d t.db -F csv contention --top 100000 |
	    awk -F, '/^source,kind,reason,callsite_id/ { s = 1; next }
	    NF < 2 { s = 0 } s { printf "%s(%s,%s,%s)", n++ ? "," : "", $4,
	    $5, $6 }')
	gotool_check $t sync "$rows"
done
