# Binary garbage: not a recognised format, the formats listed, exit 1, and
# a store that already held a source is byte-identical afterwards.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/bad/garbage.bin
rc=$?
sha256sum -c --quiet before
ls
exit $rc
