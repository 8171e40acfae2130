# perf script: a timestamp with 10 decimal places.
# Located message, exit 1, and the store is byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/perf/bad-perf-decimals.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
