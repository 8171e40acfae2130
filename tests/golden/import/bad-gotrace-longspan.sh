# Go trace: a goroutine that runs for 11,000 s, more than the derived tables'
# bins hold.  The accumulator runs in the writer thread, so its error comes
# from there: the message, exit 1, the store byte-identical.
trace-import -q data/gotrace/min119.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace-longspan.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
