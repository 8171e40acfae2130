# Before trace-align, the scenario's nvidia-smi log is on its own wall
# clock while perf and the Go trace are on the traced host's monotonic
# clock.  timeline leaves the GPU source out of its window (it would
# span 56 years of rows) and says so; chosen alone with --source, its
# rows are on its own clock, their wall-clock times its own UTC.
# summary gives each source's start and end on its own clock too: the
# GPU log beside a Go trace that has no wall clock says its UTC times.
trace-import data/scenario/trace.out data/scenario/nvidia-smi.csv \
    data/scenario/clock.json data/scenario/perf.txt.gz 2>/dev/null ||
    exit 99
trace-query -F csv timeline > out.csv || exit 1
sed -n '1p;3p;$p' out.csv | cut -d, -f1-7
wc -l < out.csv
trace-query -F csv timeline --source 2 | sed -n '2p;$p' | cut -d, -f1-4
trace-query -F table timeline --source 2 | sed -n 2p | cut -c1-40
rm -f trace.db
trace-import data/scenario/trace.out data/scenario/nvidia-smi.csv \
    2>/dev/null || exit 99
trace-query -F csv summary | cut -d, -f1,3,5,6,19,20
