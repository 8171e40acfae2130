# steps on the scenario without its GPU log (the Go trace, perf and the
# clock pairs): the degraded path, where the goroutine of the regions
# "step" drives.  One stretch of slow steps per injected phase with that
# phase's cause (checked against the truth), none in normal training;
# then the exact output.
trace-import data/scenario/trace.out data/scenario/clock.json \
    data/scenario/perf.txt.gz 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv steps --region step --top 3 > out.csv || exit 1
sed -n '/^stretch,/,/^$/p' out.csv | sed '1d;/^$/d' | cut -d, -f5,6,12 \
    > found.csv
awk -f "${0%/*}/gpu-idle-truth.awk" data/scenario/truth.json found.csv
echo "truth: $?"
cat out.csv
