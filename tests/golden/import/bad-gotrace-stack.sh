# Go trace: an event naming a stack the trace never defines.  Located message, exit 1, the store
# byte-identical.
trace-import -q data/gotrace/min119.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace-stack.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
