# Bad arguments of gc (exit 2), a store with no Go trace (exit 1, saying
# what pprof alone still answers), an unknown source and a window after
# the trace (a note, no cycles).
trace-import data/gotrace/gen119.trace 2>/dev/null || exit 99
for o in "--top -1" "--top x" "--threshold 101" "--gap 1q" "--min" \
    "--evidence=1" "--tresh 3" "extra" "--from 1q"; do
	trace-query -F csv gc $o
	echo "$o: $?"
done
trace-query -F csv gc --source 9
echo "--source 9: $?"
trace-query -F csv gc --from 10s | head -2
trace-import -d pprof.db data/scenario/block.pb.gz 2>/dev/null || exit 99
trace-query -d pprof.db gc
echo "pprof only: $?"
