# Differential graphs of the moments that matter: on the scenario
# (tests/data/scenario), what the host did while the GPU waited against
# while it was busy (--during gpu-idle against --not-during gpu-idle), and
# on a real Go trace (Go 1.23) where the goroutines blocked in the second
# half of the trace against the first (--blocked all).  Without
# normalising, the two count columns are exactly the two graphs drawn
# alone, stack by stack; normalised, the base adds up to the graph's
# total (less what truncating each stack loses, under one a stack).
LC_ALL=C
export LC_ALL
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
cols() {	# FILE: the stacks of column 2 and 3 as two folded files
	awk '$(NF - 1) > 0 { l = $0; sub(/ [0-9]+ [0-9]+$/, "", l)
	    print l, $(NF - 1) }' "$1" > "$1.base"
	awk '$NF > 0 { l = $0; sub(/ [0-9]+ [0-9]+$/, "", l)
	    print l, $NF }' "$1" > "$1.graph"
}
sums() { awk '{ b += $(NF - 1); g += $NF } END {
    printf "%d stacks, base %.0f, graph %.0f\n", NR, b, g }' "$1"; }
trace-flame --during gpu-idle --diff-base '--not-during gpu-idle' \
    --no-normalize --folded > idle.txt || exit 1
sums idle.txt
cols idle.txt
trace-flame -q --during gpu-idle --folded | cmp - idle.txt.graph &&
    echo "graph = --during gpu-idle"
trace-flame -q --not-during gpu-idle --folded | cmp - idle.txt.base &&
    echo "base = --not-during gpu-idle"
trace-flame -q --during gpu-idle --diff-base '--not-during gpu-idle' \
    --folded > norm.txt || exit 1
sums norm.txt
trace-flame -q --during gpu-idle --diff-base '--not-during gpu-idle' \
    > idle.svg || exit 1
xmllint --noout idle.svg && echo "valid XML"
trace-import -q -d go.db data/gotrace/gen123.trace || exit 99
trace-flame -d go.db --blocked all --from 60ms \
    --diff-base '--to 60ms' --no-normalize --folded > go.txt || exit 1
sums go.txt
cols go.txt
trace-flame -q -d go.db --blocked all --from 60ms --folded |
    cmp - go.txt.graph && echo "graph = --blocked all --from 60ms"
trace-flame -q -d go.db --blocked all --to 60ms --folded |
    cmp - go.txt.base && echo "base = --blocked all --to 60ms"
