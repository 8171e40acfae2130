# The scenario without its Go trace (the GPU log, the clock pairs and
# perf only): the same nine episodes, each with what perf can say, the
# share of the window the process (the command with the most samples,
# trainer) was on CPU, the rest not on CPU for reasons perf cannot see.
trace-import data/scenario/clock.json data/scenario/nvidia-smi.csv \
    data/scenario/perf.txt.gz 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gpu-idle | sed -n '/^episode,gpu,start_ns/,/^$/p' |
    cut -d, -f1,3,4,10,11,24
