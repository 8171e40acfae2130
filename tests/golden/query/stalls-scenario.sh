# stalls on the scenario: each injected phase's episode takes the branch
# its cause leads to (gc-bound; io-blocked for the loader's slow reads
# behind the channel and for the synchronous checkpoint; contention;
# cpu-bound; sched-imbalance), checked against the truth, then the exact
# decisions with their numbers.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv stalls > out.csv || exit 1
sed '1d' out.csv | cut -d, -f3,4,8 > found.csv
awk -v stalls=1 -f "${0%/*}/gpu-idle-truth.awk" data/scenario/truth.json \
    found.csv
echo "truth: $?"
cut -d, -f1,8,9 out.csv
