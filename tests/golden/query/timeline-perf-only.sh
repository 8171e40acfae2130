# timeline without a Go trace or GPU telemetry: the CPU samples per step
# (9 ms of perf samples), the other columns empty, and notes that say why;
# a window outside the store has no rows, and says so.
trace-import data/core/small.perf.txt 2>/dev/null || exit 99
trace-query -F csv timeline --step 1ms
trace-query -F csv timeline --from 1h --to 2h
