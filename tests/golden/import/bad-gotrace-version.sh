# Go trace: a Go 1.5 trace, which carries no symbols.  Located message, exit 1, the store
# byte-identical.
trace-import -q data/gotrace/min119.trace || exit 99
sha256sum trace.db > before
trace-import data/gotrace/bad-gotrace-version.trace
rc=$?
sha256sum -c --quiet before
ls
exit $rc
