# pprof forced on an empty file: a located message, exit 1, no store left.
: > empty.pb
trace-import -f pprof empty.pb
rc=$?
ls
exit $rc
