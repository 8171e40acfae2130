# Never add up what does not add up (trace-flame(1), SELECTION): the
# default graph of a store is a CPU graph (perf), the other events listed
# on stderr; the event 'cpu' of pprof (nanoseconds) and of the Go trace
# (samples) is refused, and each source alone is drawn; heap snapshots
# default to the last one (70.6 MB there, not the sum of all six), and
# --snapshots all sums them, with the count name of the unit.
trace-import -q data/demo || exit 99
sum() { awk '{ n += $NF } END { print NR " stacks, " n }'; }
echo "--- default"
trace-flame --folded | sum
echo "--- -e cpu"
trace-flame --folded -e cpu; echo "rc=$?"
trace-flame --folded -e cpu -s 2 | sum
trace-flame --folded -e cpu -s 11 | sum
echo "--- heap"
trace-flame --folded --type heap | sum
trace-flame --folded --type heap -e inuse_space --snapshots all | sum
trace-flame --folded --type heap -e inuse_space --snapshots last | sum
echo "--- count names"
for s in "" "--type heap" "-e cpu -s 11" "--type heap -e inuse_objects"; do
	trace-flame $s 2>/dev/null | grep -o '<title>all ([0-9,]* [a-z_]*' |
	    sed 's/.*(//'
done
