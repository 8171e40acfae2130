# summary of a store with two sources, in each format.
trace-import -q data/core/small.perf.txt data/core/small2.perf.txt || exit 99
trace-query -F csv summary
trace-query -F json summary
trace-query -F table summary
