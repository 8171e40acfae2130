# stalls on the scenario without its Go trace (the GPU log, the clock
# pairs and perf only): the degraded path.  The same nine episodes as
# with the trace; perf saw the process on CPU for at most 44% of any of
# them (cpu_share; the rest is unknown: off CPU for reasons perf cannot
# see), so each takes the unseen branch with its numbers, and never a
# cause perf cannot show; a note says there is no Go trace.
trace-import data/scenario/clock.json data/scenario/nvidia-smi.csv \
    data/scenario/perf.txt.gz 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv stalls | cut -d, -f1,3,4,8,9,11,12,18
