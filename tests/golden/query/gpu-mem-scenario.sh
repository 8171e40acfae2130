# gpu-mem on the scenario (tests/data/scenario: its memory phases are a
# warm-up that plateaus, a sawtooth of activations and a leak driven from
# main.(*stepCache).add, with their truth in truth.json "memory"): over
# each phase's window every row (the trainer's per-process memory of
# nvidia-smi-apps.csv and GPU 0's memory.used) has the phase's verdict,
# the leak's slope is within 2% of the truth and its first heap stack is
# main.(*stepCache).add (gpu-mem-truth.awk); then the exact output of the
# leak phase.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
awk -f "${0%/*}/gpu-mem-phases.awk" data/scenario/truth.json > phases
bad=0
while read -r name verdict start end slope; do
	trace-query -F json gpu-mem --from "=$start" --to "=$end" \
	    > "$name.json" 2>/dev/null || exit 1
	stack=
	[ "$verdict" = leak ] && stack='main.(*stepCache).add'
	awk -v name="$name" -v verdict="$verdict" -v slope="$slope" \
	    -v stack="$stack" -f "${0%/*}/gpu-mem-truth.awk" "$name.json" ||
	    bad=1
done < phases
echo "truth: $bad"
set -- $(sed -n 3p phases)
trace-query -F csv gpu-mem --from "=$3" --to "=$4"
