# A bad clock.json (type): the located message, exit 1, the store as it was.
trace-import -q data/align/real/perf.txt.gz || exit 99
sha256sum trace.db > before
trace-import data/align/bad-clock-type.json
rc=$?
sha256sum -c --quiet before
exit $rc
