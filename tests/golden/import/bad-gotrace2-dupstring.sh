# Go 1.22+ trace: a string id defined twice in a generation.  Located message,
# exit 1, the store byte-identical.
trace-import -q data/gotrace/min122.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace2-dupstring.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
