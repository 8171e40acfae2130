# An empty file: a located message, exit 1, and no store left behind.
trace-import data/bad/empty.txt
rc=$?
ls
exit $rc
