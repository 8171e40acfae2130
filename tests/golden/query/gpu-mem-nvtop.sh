# gpu-mem on the scenario's nvtop -l rendering (tests/data/scenario-nvtop,
# per-process gpu_mem_bytes_alloc and the device's mem_used every 500 ms,
# timed by truth.json's nvtop start and interval): each memory phase's
# window (in wall-clock ns, the nvtop source's timeline without an
# alignment) gives every row the phase's verdict, and the leak's slope is
# within 2% of the truth (no Go side: no heap stacks).
start=$(sed -n 's/.*"start": "\(@[0-9.]*\)".*/\1/p' data/scenario/truth.json)
iv=$(sed -n '/"nvtop"/,/}/s/.*"interval": "\([^"]*\)".*/\1/p' \
    data/scenario/truth.json)
trace-import --start "$start" --interval "$iv" \
    data/scenario-nvtop/nvtop.json 2>/dev/null || exit 99
awk -v wall=1 -f "${0%/*}/gpu-mem-phases.awk" data/scenario/truth.json > phases
bad=0
while read -r name verdict start end slope; do
	trace-query -F json gpu-mem --from "=$start" --to "=$end" \
	    > "$name.json" 2>/dev/null || exit 1
	awk -v name="$name" -v verdict="$verdict" -v slope="$slope" \
	    -f "${0%/*}/gpu-mem-truth.awk" "$name.json" || bad=1
done < phases
echo "truth: $bad"
set -- $(sed -n 3p phases)
trace-query -F csv gpu-mem --stacks 0 --from "=$3" --to "=$4"
