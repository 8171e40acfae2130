# Go 1.22+ trace: an event type that Go 1.22 does not have.  Located message,
# exit 1, the store byte-identical.
trace-import -q data/gotrace/min122.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace2-type.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
