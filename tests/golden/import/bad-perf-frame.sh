# perf script with --strict: a stack line whose address is not
# hexadecimal ("11cg"); without --strict it is kept as a frame with no
# address, as stackcollapse-perf.pl does (perf-quirks).
# Located message, exit 1, and the store is byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import --strict data/perf/bad-perf-frame.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
