# contention as one JSON document on the Go 1.22 trace.
trace-import data/gotrace/gen122.trace 2>/dev/null || exit 99
trace-query -F json contention --top 3
