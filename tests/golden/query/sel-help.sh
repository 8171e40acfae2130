# Per-query help needs no store (trace-query top --help, trace-query help
# pprof-diff); an unknown query or option gets "did you mean" and the
# list (exit 2); store-dependent errors of the selection exit 1.
trace-query top --help
trace-query help pprof-diff; echo "rc=$?"
trace-query help summary
trace-query tpo; echo "rc=$?"
trace-query help nosuch; echo "rc=$?"
trace-import -q data/pprof/gen/heap.pb.gz || exit 99
trace-query top --nodecont 3; echo "rc=$?"
trace-query top --sample-index inuse_space --sample-index alloc_space
echo "rc=$?"
trace-query top -s 999; echo "rc=$?"
trace-query top -e nosuch; echo "rc=$?"
trace-query top --from 1s --to 0s; echo "rc=$?"
