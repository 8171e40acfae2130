# The same report as a table and as JSON: raw integers in the sample
# type's unit, percentages as numbers, the inline mark in its own column.
trace-import -q data/pprof/tiny.pb || exit 99
trace-query -F table top
trace-query -F json top --sample-index samples --granularity lines
