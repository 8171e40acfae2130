# Queries open the store read-only: a write fails (exit 1), nothing changes.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-query sql 'DELETE FROM sample'
rc=$?
sha256sum -c --quiet before
exit $rc
