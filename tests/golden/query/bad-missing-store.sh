# No store: the path and the reason, exit 1, and no store is created.
trace-query summary
rc=$?
ls
exit $rc
