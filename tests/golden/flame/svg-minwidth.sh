# --minwidth as flamegraph.pl takes it: pixels, or a share of the total
# with '%'.  The demo's perf samples: every frame of at least 5% (of at
# least 59 px at the default width) is drawn, the same frames either way;
# a value that is neither is a usage error.
trace-import -q data/demo/perf.txt.gz || exit
trace-flame --minwidth 5% > pct.svg || exit
trace-flame --minwidth 59 > px.svg || exit
xmllint --noout pct.svg && echo "valid XML"
grep -c '^<g><title>' pct.svg
# The frames of at least 5%, counted from the folded stacks: every prefix
# of a stack is a frame, its count the sum of the stacks under it.
trace-flame -q --folded | awk '{
	c = $NF; sub(/ [0-9]+$/, ""); total += c
	k = split($0, fr, ";"); p = ""
	for (i = 1; i <= k; i++) { p = p ";" fr[i]; sum[p] += c }
} END {
	n = 1
	for (p in sum) if (sum[p] >= total * 5 / 100) n++
	print n " of " length(sum) + 1
}'
grep -c '^<g><title>' px.svg
trace-flame --minwidth 0 | grep -c '^<g><title>'
trace-flame --minwidth 5%% > /dev/null; echo "exit $?"
trace-flame --minwidth 101% > /dev/null; echo "exit $?"
