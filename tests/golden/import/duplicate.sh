# The same content again, plain or compressed, is a no-op naming the
# source that already holds it; the store does not change.
trace-import data/core/small.perf.txt || exit 99
sha256sum trace.db > before
gzip -c < data/core/small.perf.txt > small.perf.txt.gz
trace-import data/core/small.perf.txt small.perf.txt.gz - \
    < data/core/small.perf.txt
rc=$?
sha256sum -c --quiet before
exit $rc
