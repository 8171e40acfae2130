# Sampling honesty: when the Go trace covers the GPU telemetry poorly
# (the scenario's Go trace moved 40 s later: it overlaps 25% of the GPU
# log), gpu-idle warns so, finds a driver that correlates poorly (and
# says so), and the episodes the Go trace does not cover are unknown,
# not a guess.
trace-import data/scenario/trace.out data/scenario/nvidia-smi.csv \
    data/scenario/clock.json 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-align --offset "1==+40s" >/dev/null || exit 99
trace-query -F csv gpu-idle > out.csv || exit 1
sed -n '/^episode,gpu,start_ns/,/^$/p' out.csv | cut -d, -f1,3,4,10,11
# Aligned as it was recorded, with every dip below 60% an episode: those
# shorter than two samples are said to be rough.
trace-import -d d2.db data/scenario/trace.out data/scenario/nvidia-smi.csv \
    data/scenario/clock.json 2>/dev/null || exit 99
trace-align -d d2.db >/dev/null 2>&1 || exit 99
trace-query -d d2.db -F csv gpu-idle --threshold 60 --min 0 --gap 0 \
    2>&1 >/dev/null | grep -c "lasts under two samples"
