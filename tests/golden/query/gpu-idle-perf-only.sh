# Without a Go trace, gpu-idle still finds the episodes and says what perf
# can: the busiest thread's time on CPU, the rest not on CPU (unknown).
trace-import data/demo/clock.json data/demo/nvidia-smi.csv \
    data/demo/perf.txt.gz 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gpu-idle --threshold 50 --min 200ms
