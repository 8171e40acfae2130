# Empty standard input is named <stdin>; no store is left behind.
trace-import - < data/bad/empty.txt
rc=$?
ls
exit $rc
