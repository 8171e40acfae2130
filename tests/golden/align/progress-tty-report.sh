# On a terminal, trace-align's report and its notes are written over no
# progress line: the line (drawn as "\r TEXT <erase> \r", which leaves
# the cursor at its start) is erased before each.  Two sources 4 h
# apart: a warning note for each, then the report; every drawing must be
# followed by the erase ("\r<EL>"), never by other text, which would be
# written over the drawing and keep its tail on the screen.
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	gzip -dc data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz
done >big.txt
gzip -dc data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz >small.txt
trace-import -q big.txt small.txt || exit 1
TRACE_PROGRESS_INTERVAL=0 script -qec "stty cols 200; trace-align \
    -F csv --offset 2==+4h --offset 1==+4s" /dev/null >tty.out </dev/null ||
    exit 1
sed -e 's/\x1b\[K/<EL>/g' -e 's/\r/<CR>/g' tty.out >marked.out
echo "drawings: $(grep -o 'left<EL><CR>' marked.out | wc -l |
    awk '{ print ($1 > 0) ? "some" : "none" }')"
echo "drawings followed by other text: $(grep -o 'left<EL><CR>[^<]' \
    marked.out | wc -l)"
grep -o 'warning: source [0-9] ([a-z.]*) lies [0-9.]*s [a-z]*' marked.out
grep -c '^[12],[a-z]*\.txt,perf-script,' marked.out
