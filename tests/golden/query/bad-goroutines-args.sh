# Bad arguments of goroutines (exit 2), and a store with neither a Go
# trace nor a goroutine profile (exit 1).
trace-import data/gotrace/gen119.trace 2>/dev/null || exit 99
for o in "--step 0" "--step x" "--burst 0" "--leak-min 0" "--leak-age" \
    "--top x" "--evidence=1" "--leak-mn 3" "extra"; do
	trace-query -F csv goroutines $o
	echo "$o: $?"
done
trace-import -d cpu.db data/scenario/cpu.pb.gz 2>/dev/null || exit 99
trace-query -d cpu.db goroutines
echo "cpu profile only: $?"
