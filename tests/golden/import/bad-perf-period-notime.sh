# perf script: a period that overflows int64, in a header without a time.
# Located message, exit 1, and the store is byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/perf/bad-perf-period-notime.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
