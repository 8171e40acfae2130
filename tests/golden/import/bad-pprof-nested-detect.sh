# pprof: a sample message that does not decode, without --format: no
# probe takes the file, but it is a damaged profile (its other fields are
# whole), so it gets the located error of --format pprof (bad-pprof-
# nested), not "unrecognised format"; gzip'd as Go writes profiles, and
# raw.  Exit 1, and the store (holding tiny.pb) byte-identical.
trace-import -q data/pprof/tiny.pb || exit 99
sha256sum trace.db > before
trace-import data/pprof/bad-pprof-nested.pb.gz
rc=$?
trace-import data/pprof/bad-pprof-nested.pb
rc2=$?
sha256sum -c --quiet before || exit 98
[ $rc = $rc2 ] || exit 97
exit $rc
