# perf script: a lone tid out of range.
# Located message, exit 1, and the store is byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/perf/bad-perf-tid.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
