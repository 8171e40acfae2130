# trace-query top against go tool pprof -top on google/pprof's large.cpu
# (20431 samples, 23000 functions dropped by the node fraction).  Every sample
# type, every granularity and -nodecount=5 are compared with the goldens of Go
# 1.19's pprof (tests/gen/pprof/regen.sh); first the default report.
trace-import -q data/pprof/large.cpu.pb.gz || exit 99
trace-query -F csv top
sh data/pprof/top-check large.cpu
