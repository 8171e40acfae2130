# A flame chart of one thread of the demo's perf samples (tid 14189, 20
# samples): the folded stacks in time order, a line per run of samples
# with the same stack; as SVG, valid XML, each frame's tooltip giving when
# it starts (seconds after the store's start), and the frames' places and
# widths those that flamegraph.pl --flamechart draws of the same folded
# lines (tests/gen/flame/flamegraph.sh).
trace-import -q data/demo/perf.txt.gz || exit
trace-flame -q --flamechart --tid 14189 --folded > chart.folded || exit
awk '{ n += $NF; l++ } END { print l " runs, " n " ns" }' chart.folded
trace-query -F csv sql "SELECT count(*), sum(value) FROM sample s JOIN
    thread t ON t.id = s.thread_id WHERE t.tid = 14189"
cut -c1-60 chart.folded | head -n 5
trace-flame --flamechart --tid 14189 > chart.svg || exit
xmllint --noout chart.svg && echo "valid XML"
grep -c '^<g><title>' chart.svg
grep -o ' id="title"[^<]*' chart.svg
grep -o '<title>[^<]*</title>' chart.svg | sed -n '1,3p;/runtime.usleep/p'
sed -n 's/^<g><title>\(.*\)<\/title><rect x="\([^"]*\)" y="[^"]*" width="\([^"]*\)" height="[^"]*" fill="\([^"]*\)".*/\1|\2|\3/p' chart.svg |
    sed 's/, from [0-9.]*s)|/)|/' |
    awk -F'|' '{ printf "%s|%.1f|%.1f\n", $1, $2, $3 }' | LC_ALL=C sort \
    > ours.frames
cut -d'|' -f1,3,4 data/flame/chart-perf.frames | cmp - ours.frames &&
    echo "= flamegraph.pl --flamechart"
