# Before trace-align, the scenario's nvidia-smi log is on its own wall
# clock while perf and the Go trace are on the traced host's monotonic
# clock.  gpu-idle says so (the GPU source is not on the timeline, the Go
# trace does not overlap it: not "no Go trace"), every episode is
# unknown, and its start and end are the GPU's own UTC times, not that
# clock shifted a second time by the host's wall offset.  steps, which
# needs the Go trace, refuses with the same reason.
trace-import data/scenario/trace.out data/scenario/nvidia-smi.csv \
    data/scenario/clock.json data/scenario/perf.txt.gz 2>/dev/null ||
    exit 99
trace-query -F csv gpu-idle > out.csv || exit 1
sed -n '/^episode,gpu,start_ns/,/^$/p' out.csv | cut -d, -f1,5,6,10,24 |
    sed 3q
trace-query -F csv steps
echo "steps: exit $?"
