# Importing a second rendering of one recording does not double what a
# flame graph adds up: after the default and the --ns -F renderings, the
# folded stacks and their total are those of the default one alone.
# With --keep-same-samples the user asked for both, and gets both.
p=data/perf/local-perf6.1/burn-kmono
trace-import -q -d one.db $p-default.perf.txt.gz || exit 1
trace-import -q -d two.db $p-default.perf.txt.gz \
    $p-ns-F-comm_pid_tid_cpu_time_event_period_ip_sym_dso.perf.txt.gz ||
    exit 1
trace-import -q -d kept.db $p-default.perf.txt.gz || exit 1
trace-import -q -d kept.db --keep-same-samples \
    $p-ns-F-comm_pid_tid_cpu_time_event_period_ip_sym_dso.perf.txt.gz ||
    exit 1
for db in one two kept; do
	trace-flame -q -d $db.db --folded >$db.folded || exit 1
	awk -v db=$db '{ n += $NF } END { print db, NR, "stacks", n }' \
	    $db.folded
done
cmp one.folded two.folded && echo "one.db and two.db: the same stacks"
