# --blocked with --during on the scenario: each blocked interval is cut
# at the windows' edges (gpu-idle's episodes), the part inside charged to
# --during and the rest to --not-during, so the two add up to the whole,
# stack by stack, for every kind.
LC_ALL=C
export LC_ALL
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
tot() { awk '{ n += $NF } END { printf "%d stacks, %.0f ns\n", NR, n }' "$@"; }
for k in sync sched all; do
	trace-flame -q --blocked $k --folded > all.txt
	trace-flame -q --blocked $k --during gpu-idle --folded > in.txt
	trace-flame -q --blocked $k --not-during gpu-idle --folded > out.txt
	echo "$k: whole $(tot all.txt); during $(tot in.txt); not $(tot out.txt)"
	cat in.txt out.txt | awk '{ c = $NF; sub(/ [0-9]+$/, "")
	    s[$0] += c } END { for (k in s) printf "%s %.0f\n", k, s[k] }' |
	    sort | diff all.txt - && echo "$k: equal to the whole"
done
