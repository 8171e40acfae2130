# Go 1.22+ trace: a batch cut short by the end of the file.  Located message,
# exit 1, the store byte-identical.
trace-import -q data/gotrace/min122.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace2-truncated.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
