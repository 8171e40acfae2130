# The help of gpu-idle, stalls and steps: their options with the
# defaults, then the selection options they take.  (trace-query opens the
# store before a query reads its options, so there is one.)
trace-import data/core/small.perf.txt 2>/dev/null || exit 99
trace-query gpu-idle --help
trace-query stalls --help
trace-query steps --help
