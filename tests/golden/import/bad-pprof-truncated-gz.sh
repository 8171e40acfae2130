# pprof: the gzip stream ends early (compressed offset).
# Located message, exit 1, and the store (holding tiny.pb) byte-identical.
trace-import -q data/pprof/tiny.pb || exit 99
sha256sum trace.db > before
trace-import  data/pprof/bad-pprof-truncated.pb.gz
rc=$?
sha256sum -c --quiet before
exit $rc
