# The MMU of gc against go tool trace's MMU view (its flags stw,
# background, assist, sweep; data/gotrace/mmu.txt from
# tests/gen/gotrace/mmu.sh).  Old format (Go 1.19, 1.21 view): equal to
# the last digit, and the same first worst window where the view's is
# the only one (WORST_NS from the trace's start).  Generation format (Go
# 1.23 view): Go's MutatorUtilizationV2 counts a mark worker's later runs
# twice (trace-query(1), gc), so its MMU is lower; with that one line
# fixed ("fixed") it agrees with ours within 3e-5 (so does the view
# where it happens not to err).  Windows longer than
# the trace have no row here (the view shrinks them to the trace).
for t in gen119 gen121 gen122 gen123; do
	trace-import -d "$t.db" "data/gotrace/$t.trace" 2>/dev/null || exit 99
	lo=$(trace-query -d "$t.db" -F csv sql 'SELECT ts_min FROM source' |
	    sed -n 2p)
	trace-query -d "$t.db" -F csv gc 2>/dev/null |
	    sed -n '/^source,window_ns/,/^$/p' | grep '^[0-9]' |
	    sed "s/^/$t $lo /" | tr , " "
done > ours.txt
awk '
NR == FNR { mmu[$1, $4] = $5; at[$1, $4] = $6 - $2; next }
{
	k = $1 SUBSEP $2; w = $2 / 1e6 "ms"
	if (!(k in mmu)) {
		printf "%s %s: longer than the trace, no row\n", $1, w
		next
	}
	d = mmu[k] - $3
	if ($5 == "-") {
		printf "%s %s: %s, go tool trace %s: %s, worst window %s\n", \
		    $1, w, mmu[k], $3, (d < 1e-9 && d > -1e-9) ? "equal" : \
		    "DIFFERENT", at[k] == $4 ? "the same" : "another (a tie)"
		next
	}
	f = mmu[k] - $5
	printf "%s %s: %s, go tool trace %s, fixed %s: %s\n", $1, w, \
	    mmu[k], $3, $5, (f < 3e-5 && f > -3e-5 && d > -3e-5) ? \
	    "as fixed, not below the view" : "DIFFERENT"
}' ours.txt data/gotrace/mmu.txt
