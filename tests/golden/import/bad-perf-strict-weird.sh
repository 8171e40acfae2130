# perf script with --strict: a stack line that is no frame, tolerated
# without it (perf-quirks), is an error.  Located message, exit 1, the
# store byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import --strict data/perf/quirks/weird-stack-line.perf.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
