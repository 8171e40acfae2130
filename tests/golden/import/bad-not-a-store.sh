# A store path holding some other file: refused, and the file untouched.
printf 'my notes\n' > trace.db
trace-import data/core/small.perf.txt
rc=$?
cat trace.db
ls
exit $rc
