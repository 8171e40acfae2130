# Parity with FlameGraph's stackcollapse-perf.pl on perf 6.1 output:
# burn-kmono-default.perf.txt folded by trace-flame --folded (and
# --show-pid) equals the script's output with no option (and --pid).
trace-import -q data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz ||
    exit 1
trace-flame --folded >got || exit 1
cmp got data/perf/local-perf6.1/burn-kmono-default.collapsed-flamegraph-default.txt &&
    cat got
trace-flame --folded --show-pid >got || exit 1
cmp got data/perf/local-perf6.1/burn-kmono-default.collapsed-flamegraph-pid.txt &&
    cat got
