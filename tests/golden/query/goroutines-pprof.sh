# goroutines without a Go trace: the scenario's goroutine profiles give
# the count over time, and the stacks of the last profile with at least
# --leak-min goroutines, how they grew (the waitEvict leak); a note says
# what the profiles cannot tell.
for f in data/scenario/goroutine-*.pb.gz; do
	trace-import "$f" 2>/dev/null || exit 99
done
trace-query -F table goroutines
