# perf script with --strict: a blank line inside a sample's stack, which
# is tolerated without it (perf-quirks), is an error at the first stack
# line after it.  Located message, exit 1, the store byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import --strict data/perf/quirks/empty-line.perf.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
