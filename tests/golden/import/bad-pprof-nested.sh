# pprof: a sample message that does not decode (forced: the
# content probe refuses it).
# Located message, exit 1, and the store (holding tiny.pb) byte-identical.
trace-import -q data/pprof/tiny.pb || exit 99
sha256sum trace.db > before
trace-import -f pprof data/pprof/bad-pprof-nested.pb
rc=$?
sha256sum -c --quiet before
exit $rc
