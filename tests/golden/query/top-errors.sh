# Usage errors exit 2 with a message; a store without pprof profiles is a
# data error (exit 1).
trace-import -q data/pprof/tiny.pb data/pprof/gen/heap.pb.gz || exit 99
trace-query top --focus '('; echo "rc=$?"
trace-query top --granularity words; echo "rc=$?"
trace-query top --profile 1 --sample-index alloc_space; echo "rc=$?"
trace-query top --profile 1 --sample-index 7; echo "rc=$?"
trace-query top; echo "rc=$?"
trace-query top --profile 9; echo "rc=$?"
trace-query top --profile x1; echo "rc=$?"
trace-query top --nodecount -1; echo "rc=$?"
trace-query top --bogus; echo "rc=$?"
trace-query top extra; echo "rc=$?"
trace-query top --label nolabel; echo "rc=$?"
trace-query top --type block; echo "rc=$?"
