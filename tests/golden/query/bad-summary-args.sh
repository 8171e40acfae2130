# summary takes no operands: exit 2.
trace-import -q data/core/small.perf.txt || exit 99
trace-query summary extra
