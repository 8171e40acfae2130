# pprof: a sample has fewer values than there are sample types.
# Located message, exit 1, and the store (holding tiny.pb) byte-identical.
trace-import -q data/pprof/tiny.pb || exit 99
sha256sum trace.db > before
trace-import  data/pprof/bad-pprof-values.pb
rc=$?
sha256sum -c --quiet before
exit $rc
