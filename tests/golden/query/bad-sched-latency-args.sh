# Bad arguments of sched-latency (exit 2), and a store without a Go trace
# (exit 1: no profile records scheduling delays).
trace-import data/gotrace/gen119.trace 2>/dev/null || exit 99
for o in "--starve x" "--step 0" "--step" "--top -2" "--evidence=yes" \
    "--strave 1ms" "extra"; do
	trace-query -F csv sched-latency $o
	echo "$o: $?"
done
trace-import -d prof.db data/scenario/block.pb.gz 2>/dev/null || exit 99
trace-query -d prof.db sched-latency
echo "block profile only: $?"
