# Bad option values of stalls (exit 2), and a store without GPU telemetry
# (exit 1).
trace-import data/demo/trace.out 2>/dev/null || exit 99
for o in "--share 200" "--threshold x" "--gap 1q" "--min" "extra"; do
	trace-query -F csv stalls $o
	echo "$o: $?"
done
trace-query -F csv stalls
