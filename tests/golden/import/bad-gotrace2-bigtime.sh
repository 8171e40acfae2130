# Go 1.22+ trace: an event 2^63 ticks after its batch began: its time would overflow.  Located
# message, exit 1, the store byte-identical.
trace-import -q data/gotrace/min122.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace2-bigtime.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
