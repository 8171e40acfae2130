# Degraded: only the device CSV (memory.used per GPU), no per-process
# memory and no Go side: whole-GPU rows with their verdicts, and notes
# that say what could not be seen; as the table people read.
trace-import --tz UTC data/gpumem/gpu.csv 2>/dev/null || exit 99
TZ=UTC trace-query -F table gpu-mem --steps 1
