# A bad clock.json (empty): the located message, exit 1, the store as it was.
trace-import -q data/align/real/perf.txt.gz || exit 99
sha256sum trace.db > before
trace-import data/align/bad-clock-empty.json
rc=$?
sha256sum -c --quiet before
exit $rc
