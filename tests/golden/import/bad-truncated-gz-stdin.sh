# A truncated gzip stream on standard input; no store is left behind.
trace-import - < data/bad/truncated.perf.txt.gz
rc=$?
ls
exit $rc
