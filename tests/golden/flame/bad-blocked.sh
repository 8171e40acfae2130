# --blocked that cannot be: an unknown kind and --pprof are usage errors
# (exit 2); a store without a Go trace says so and exits 1 with an empty
# graph.
trace-import -q data/scenario/perf.txt.gz || exit 99
trace-flame --blocked nosuch --folded; echo "rc=$?"
trace-flame --blocked sync --pprof out.pb.gz; echo "rc=$?"
trace-flame --blocked sync --folded; echo "rc=$?"
