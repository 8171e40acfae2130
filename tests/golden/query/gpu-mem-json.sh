# The JSON contract of gpu-mem: one document, "memory" rows with pid (null
# for a whole GPU), gpu, start_ns, end_ns, growth_bytes,
# slope_bytes_per_min, r2, released_bytes, verdict and heap_stacks as an
# array, then "steps", "heap_stacks", "notes"; on the scenario's leak.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
set -- $(awk -f "${0%/*}/gpu-mem-phases.awk" data/scenario/truth.json |
    awk '$1 == "leak" { print $3, $4 }')
trace-query -F json gpu-mem --stacks 2 --steps 1 --from "=$1" --to "=$2"
