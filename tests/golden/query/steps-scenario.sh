# steps on the scenario, from its Go trace region "step": the latency
# percentiles, and one stretch of slow steps per injected phase with that
# phase's cause (checked against the truth), none in normal training.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv steps --region step --top 3 > out.csv || exit 1
sed -n '/^stretch,/,/^$/p' out.csv | sed '1d;/^$/d' | cut -d, -f5,6,12 \
    > found.csv
awk -f "${0%/*}/gpu-idle-truth.awk" data/scenario/truth.json found.csv
echo "truth: $?"
cat out.csv
