# A Go trace spills to a temporary file in $TMPDIR: one that cannot be
# made fails the import with the directory named, exit 1, and the store
# is byte-identical (with the go_span runs spilled there too:
# TRACEKIT_SPAN_CHUNK=1).
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
TMPDIR=./no-such-dir TRACEKIT_SPAN_CHUNK=1 trace-import \
    data/gotrace/go119-fixture.trace
rc=$?
sha256sum -c --quiet before
# The same for the format of Go 1.22 on.
TMPDIR=./no-such-dir trace-import data/gotrace/go122-annotations.trace
echo "exit $?"
sha256sum -c --quiet before
ls
exit $rc
