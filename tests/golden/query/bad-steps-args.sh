# Bad option values of steps (exit 2); a region the trace does not have,
# and a store without a Go trace or without GPU telemetry to find the
# steps from (exit 1).
trace-import data/demo/trace.out 2>/dev/null || exit 99
for o in "--top -1" "--slow 0.5" "--region a --task b" "--region" \
    "--region nosuch" "extra"; do
	trace-query -F csv steps $o
	echo "$o: $?"
done
trace-query -F csv steps
trace-import -d nogo.db data/demo/nvidia-smi.csv 2>/dev/null || exit 99
trace-query -d nogo.db -F csv steps --region gpu
