# Bad arguments of contention (exit 2), and a store with neither a Go
# trace nor a block or mutex profile (exit 1).
trace-import data/gotrace/gen119.trace 2>/dev/null || exit 99
for o in "--top x" "--min-sync -1" "--min-chan" "--gap 2q" "--min x" \
    "--mn 1s" "extra"; do
	trace-query -F csv contention $o
	echo "$o: $?"
done
trace-import -d cpu.db data/scenario/cpu.pb.gz 2>/dev/null || exit 99
trace-query -d cpu.db contention
echo "cpu profile only: $?"
