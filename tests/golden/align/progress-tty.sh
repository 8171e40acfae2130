# Progress on a terminal: trace-align under a pseudo-terminal (script(1)
# of util-linux) draws "STORE: DONE of SIZE (P%, store pages read), RATE/s,
# T left" on standard error while SQLite works (TRACE_PROGRESS_INTERVAL=0:
# at every check, each 100000 SQLite steps), in place, and erases it when
# done; the report is written over it.  Sizes, shares, rates and times
# vary with SQLite's version and the machine: each drawing is shown once,
# normalised.  Without a terminal and with -q on one, nothing of it.
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	gzip -dc data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz
done >big.txt
trace-import -q big.txt || exit 1
TRACE_PROGRESS_INTERVAL=0 script -qec "stty cols 200; trace-align \
    -F csv --offset 1==+1s" /dev/null >tty.out </dev/null || exit 1
tr '\r' '\n' <tty.out | sed -e 's/\x1b\[K/<EL>/g' \
    -e 's/[0-9.]* [kMG]*B/SIZE/g' -e 's/([0-9]*%/(P%/' \
    -e 's/[0-9:]* left/T left/' | grep 'store pages' | sort -u
tr '\r' '\n' <tty.out | grep -c '^1,big.txt,perf-script,perf,,,user-offset,'
echo "not a terminal:"
TRACE_PROGRESS_INTERVAL=0 trace-align -F csv --offset 1==+2s 2>&1 \
    >/dev/null | od -c
echo "-q on a terminal:"
TRACE_PROGRESS_INTERVAL=0 script -qec "trace-align -q -F csv \
    --offset 1==+3s" /dev/null </dev/null | tr '\r' '\n' |
    grep -c 'store pages' || true
