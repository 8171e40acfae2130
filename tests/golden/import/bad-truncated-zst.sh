# A .zst cut short: the compressed offset where it ends, exit 1, and the
# store that already held a source is byte-identical afterwards.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/bad/truncated.perf.txt.zst
rc=$?
sha256sum -c --quiet before
ls
exit $rc
