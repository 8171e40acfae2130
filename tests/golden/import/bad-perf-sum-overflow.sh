# perf script: periods each in range whose sum for one stack is not (the
# per-stack aggregates, sample_stack).  Named input, exit 1, and the store
# is byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/perf/bad-perf-sum-overflow.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
