# perf script: binary bytes in a stack line are damage, not a quirk: an
# error without --strict too.  Located message, exit 1, the store
# byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/perf/bad-perf-binary.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
