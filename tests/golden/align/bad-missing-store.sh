# trace-align never creates a store: the path and the reason, exit 1.
trace-align
rc=$?
trace-align -n
ls
exit $rc
