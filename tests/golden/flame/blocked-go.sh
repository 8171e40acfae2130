# --blocked KIND on the committed real Go traces (tests/gen/gotrace/main.go
# recorded by Go 1.19 and 1.21, old format, and 1.22 and 1.23, generation
# format): for sync, net, syscall and sched the folded graph equals, stack
# by stack and in total, what go tool trace -pprof=KIND of the toolchain
# that recorded the trace computes (data/gotrace/TAG-KIND.folded, made by
# tests/gen/flame/blocked.sh).  The other kinds' totals follow; a graph
# cut at a time adds up to the whole, stack by stack (each interval split
# where it crosses); the SVG is valid XML, one frame per stack prefix.
LC_ALL=C
export LC_ALL
tot() { awk '{ n += $NF } END { printf "%d stacks, %.0f ns\n", NR, n }' "$@"; }
n=0
for t in gen119 gen121 gen122 gen123; do
	trace-import -q "data/gotrace/$t.trace" || exit 99
	n=$((n + 1))
	for k in sync net syscall sched; do
		trace-flame -q --blocked $k -s $n --folded > $t-$k.txt
		if cmp -s $t-$k.txt "data/gotrace/$t-$k.folded"; then
			echo "$t $k: $(tot $t-$k.txt): go tool trace's"
		else
			echo "$t $k: differs from go tool trace -pprof=$k"
			diff "data/gotrace/$t-$k.folded" $t-$k.txt | head
		fi
	done
	for k in chan mutex sleep all; do
		trace-flame -q --blocked $k -s $n --folded > $t-$k.txt
		echo "$t $k: $(tot $t-$k.txt)"
	done
done
echo "--- the notes"
trace-flame --blocked sync -s 1 --folded > /dev/null
trace-flame --blocked sync --folded | tot
echo "--- cut in the middle of gen122: before + after = the whole"
mid=$(trace-query -F csv sql "SELECT (min(ts) + max(ts + dur)) / 2
    FROM go_state WHERE source_id = 3" | tail -n 1)
for k in sync all; do
	trace-flame -q --blocked $k -s 3 --to "=$mid" --folded > before.txt
	trace-flame -q --blocked $k -s 3 --from "=$mid" --folded > after.txt
	echo "$k: before $(tot before.txt), after $(tot after.txt)"
	cat before.txt after.txt | awk '{ c = $NF; sub(/ [0-9]+$/, "")
	    s[$0] += c } END { for (k in s) printf "%s %.0f\n", k, s[k] }' |
	    sort | diff gen122-$k.txt - && echo "$k: equal to the whole"
done
echo "--- the SVG"
trace-flame -q --blocked sync -s 4 --minwidth 0 > sync.svg || exit 1
xmllint --noout sync.svg && echo "valid XML"
echo "frames: $(grep -c '^<g><title>' sync.svg)"
awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); p = ""
    for (i = 1; i <= n; i++) { p = p ";" f[i]; seen[p] = 1 } }
    END { for (k in seen) c++; print "expected: " c + 1 }' gen123-sync.txt
sed -n 's/.*<title>all (\([^)]*\)).*/all: \1/p' sync.svg
