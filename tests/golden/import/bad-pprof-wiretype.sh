# pprof: the first field is a sample sent as a varint (forced).
# Located message, exit 1, and the store (holding tiny.pb) byte-identical.
trace-import -q data/pprof/tiny.pb || exit 99
sha256sum trace.db > before
trace-import -f pprof data/pprof/bad-pprof-wiretype.pb
rc=$?
sha256sum -c --quiet before
exit $rc
