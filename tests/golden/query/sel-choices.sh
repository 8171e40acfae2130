# "no X; Xs: ..." lists what the store has: numbers as ranges, at most 20
# items, then how many there are in all; names in order, cut the same way.
trace-import -q data/perf/flamegraph/perf-numa-stacks-01.txt.gz \
    data/perf/flamegraph/example-perf-stacks.txt.gz \
    data/perf/flamegraph/perf-java-stacks-01.txt.gz \
    data/perf/flamegraph/perf-iperf-stacks-pidtid-01.txt.gz || exit 99
trace-flame --tid 1; echo "rc=$?"
trace-flame --pid 1; echo "rc=$?"
trace-flame --comm nosuch; echo "rc=$?"
trace-query gpu-idle --tid 1; echo "rc=$?"
# The Go trace of the scenario has 10468 goroutines.
trace-import -q -d go.db data/scenario/trace.out || exit 99
trace-flame -d go.db --goroutine 99999; echo "rc=$?"
