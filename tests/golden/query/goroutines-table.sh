# goroutines as a table on the Go 1.19 trace, the example of
# trace-query(1).
trace-import data/gotrace/gen119.trace 2>/dev/null || exit 99
trace-query -F table goroutines --step 100ms --top 5
