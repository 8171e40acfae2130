# perf script: a sample header cut short but ended by a newline is no
# cut file (perf ends every line with one, a cut file does not): it stays
# a malformed header with its location, exit 1, the store unchanged.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/perf/bad-perf-cut-newline.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
