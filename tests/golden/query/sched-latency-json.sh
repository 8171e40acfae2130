# sched-latency as one JSON document on the Go 1.22 trace, with the runnable
# states longer than --starve as evidence; the note says that its stacks
# are not go tool trace's replay for a generation-format trace.
trace-import data/gotrace/gen122.trace 2>/dev/null || exit 99
trace-query -F json sched-latency --starve 5ms --step 50ms --top 3 --evidence
