# Go 1.22+ trace: a batch larger than 64 KiB.  Located message,
# exit 1, the store byte-identical.
trace-import -q data/gotrace/min122.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace2-size.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
