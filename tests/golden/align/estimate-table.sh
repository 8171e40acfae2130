# The whole table for the real bundle when the Go trace's offset is
# estimated (its tracekit.clock logs ignored): the evidence names both
# signals, the peak, its width and the second-best peak.
trace-import -q data/align/real || exit 1
trace-align --ignore go-log -F csv
