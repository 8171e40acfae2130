# Degraded: the scenario's per-process GPU memory with a single heap
# profile and a single goroutine profile: "growth needs two", so no heap
# growth or stacks (null), and the rows keep their verdicts.
trace-import --tz UTC data/scenario/nvidia-smi-apps.csv \
    data/scenario/nvidia-smi.csv data/scenario/heap-050.pb.gz \
    data/scenario/goroutine-10.pb.gz 2>/dev/null || exit 99
trace-query -F csv gpu-mem --steps 0
