# trace-query top against go tool pprof -top on a Go allocs profile (default
# sample type alloc_space).  Every sample type, every granularity and
# -nodecount=5 are compared with the goldens of Go 1.19's pprof
# (tests/gen/pprof/regen.sh); first the default report.
trace-import -q data/pprof/gen/allocs.pb.gz || exit 99
trace-query -F csv top
sh data/pprof/top-check allocs
