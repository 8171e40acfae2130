# Go trace: a batch for a P number beyond 32 bits.  Located message, exit 1, the store
# byte-identical.
trace-import -q data/gotrace/min119.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace-proc.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
