# trace-flame --folded over a selection: one source (--source), a process
# (--pid) or a thread (--tid) of a pid/tid recording, a command name
# (--comm), a time window after the store's start (--from/--to: 49
# samples of 2004008 in 100 ms at 499 Hz), an event other than the first
# (--event), and no process name root (--no-pname).  A command name the
# store does not have is an error listing the names (exit 1).
trace-import -q data/perf/flamegraph/perf-iperf-stacks-pidtid-01.txt.gz \
    data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz \
    data/perf/flamegraph/perf-cycles-instructions-01.txt.gz || exit 1
echo "--- --source 2"
trace-flame --folded --source 2
echo "--- --pid 27409 --show-tid: threads and samples"
trace-flame --folded --pid 27409 --show-tid |
    sed 's/;.* / /' | awk '{ n[$1] += $2 } END { for (t in n) print t, n[t] }' |
    sort
echo "--- --tid 28744 --kernel: stacks, samples"
trace-flame --folded --tid 28744 --kernel | awk '{ n += $NF } END { print NR, n }'
echo "--- --comm run"
trace-flame --folded --comm run
echo "--- --source 2 --from 100ms --to 200ms"
trace-flame --folded --source 2 --from 100ms --to 200ms
echo "--- --source 3 --event cycles --show-tid"
trace-flame --folded --source 3 --event cycles --show-tid
echo "--- --source 3 --no-pname"
trace-flame --folded --source 3 --no-pname
echo "--- --comm nosuch"
trace-flame --folded --comm nosuch; echo "rc=$?"
