# chrome-trace's errors: an unknown option (did you mean), an operand,
# a bad time (exit 2); an unknown source (exit 1); a full disk (exit 1,
# said once).  Each writes nothing to standard output.
trace-import -q data/core/small.perf.txt || exit 99
for o in "--form 1s" "extra" "--from 1q" "--to 1s --from 2s"; do
	trace-query chrome-trace $o
	echo "$o: $?"
done
trace-query chrome-trace --source 9
echo "--source 9: $?"
trace-query chrome-trace > /dev/full
echo "/dev/full: $?"
