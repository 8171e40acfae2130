# gpu-idle on the scenario (tests/data/scenario: a Go training loop with
# nine injected phases and their truth): the driver found is main.driver,
# every injected phase is one episode with edges within one sampling
# interval of the truth and the right dominant cause, and none reaches
# into normal training (gpu-idle-truth.awk checks it, then the exact
# output follows).
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gpu-idle > out.csv || exit 1
sed -n '/^episode,gpu,start_ns/,/^$/p' out.csv | sed '1d;/^$/d' |
    cut -d, -f3,4,10 > found.csv
awk -f "${0%/*}/gpu-idle-truth.awk" data/scenario/truth.json found.csv
echo "truth: $?"
cat out.csv
