# A .zst with one byte flipped: zstd's own words, at the compressed offset
# of the checksum that caught it; exit 1; the store is byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/bad/corrupt.perf.txt.zst
rc=$?
sha256sum -c --quiet before
ls
exit $rc
