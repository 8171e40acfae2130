# pprof: the first field is a sample sent as a varint, without --format:
# the located error of --format pprof (bad-pprof-wiretype), not
# "unrecognised format".  Exit 1, and the store byte-identical.
trace-import -q data/pprof/tiny.pb || exit 99
sha256sum trace.db > before
trace-import data/pprof/bad-pprof-wiretype.pb
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
