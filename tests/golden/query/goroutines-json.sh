# goroutines as one JSON document on the Go 1.22 trace: counts, the
# series at 50 ms, lifetimes by start function; a lower --leak-min and
# --leak-age find the generator's goroutines parked for good.
trace-import data/gotrace/gen122.trace 2>/dev/null || exit 99
trace-query -F json goroutines --step 50ms --leak-min 1 --leak-age 10ms \
    --top 3 --evidence
