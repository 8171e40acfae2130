# gpu-mem on GPU-only nvidia-smi logs of four processes on two GPUs, one
# of them leaking (tests/data/gpumem, SYNTHETIC, tests/gen/gpumem/gen.sh,
# with its truth.txt): the compute-apps CSV is imported first, so the
# processes get their GPU's index from the --query-gpu CSV after it.
# Each process has its verdict, the leak's slope is within 2% of the
# truth; no Go side, which the notes say.  Then the exact output.
trace-import --tz UTC data/gpumem/apps.csv data/gpumem/gpu.csv \
    2>/dev/null || exit 99
trace-query -F json gpu-mem > all.json || exit 1
bad=0
while read -r pid gpu verdict slope growth; do
	trace-query -F json gpu-mem --pid "$pid" > "$pid.json" 2>/dev/null ||
	    exit 1
	awk -v name="pid $pid" -v verdict="$verdict" -v slope="$slope" \
	    -f "${0%/*}/gpu-mem-truth.awk" "$pid.json" || bad=1
	grep -q "^{\"row\":1,\"gpu\":$gpu,\"pid\":$pid," "$pid.json" ||
	    { echo "pid $pid: not on GPU $gpu"; bad=1; }
done < data/gpumem/truth.txt
echo "truth: $bad"
trace-query -F csv gpu-mem
