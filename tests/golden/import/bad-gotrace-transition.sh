# Go trace: an impossible transition: a P stops while running a goroutine.  Located message, exit 1, the store
# byte-identical.
trace-import -q data/gotrace/min119.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace-transition.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
