# Progress on a terminal: trace-import under a pseudo-terminal (script(1)
# of util-linux) draws "NAME: DONE of TOTAL (P%), RATE/s, T left" on
# standard error after each read of the file (TRACE_PROGRESS_INTERVAL=0:
# every read; 256 kB each, the first while detecting compression), in
# place ("\r" ... erase to the end of the line), and erases it before the
# input's line; a gzip'd input counts its compressed bytes of the file
# size.  Rates and times left vary: shown as RATE and T.  Each drawing is
# on a line of its own here ("\r" made a newline, the erase <EL>); the
# terminal is 200 columns wide (lines are cut to its width).
# Without a terminal and with -q on one, nothing of it is printed.
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	gzip -dc data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz
done >big.txt
cp data/perf/local-perf6.1/burn-kmono-G-nocallchain.perf.txt.gz g.txt.gz
ls -l big.txt g.txt.gz | awk '{ print $9 ":", $5, "bytes" }'
TRACE_PROGRESS_INTERVAL=0 script -qec \
    "stty cols 200; trace-import big.txt g.txt.gz" /dev/null \
    >tty.out </dev/null || exit 1
sed -e 's/\x1b\[K/<EL>/g' \
    -e 's/[0-9.]* [kMG]*B\/s/RATE\/s/g' -e 's/[0-9:]* left/T left/g' \
    tty.out | tr '\r' '\n' | grep -v '^$'
echo "not a terminal:"
rm -f trace.db
TRACE_PROGRESS_INTERVAL=0 trace-import big.txt 2>&1 | od -c | grep -c '\\r'
echo "-q on a terminal:"
rm -f trace.db
TRACE_PROGRESS_INTERVAL=0 script -qec "trace-import -q big.txt" \
    /dev/null </dev/null | od -c
