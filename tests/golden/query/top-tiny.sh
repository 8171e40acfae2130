# trace-query top against go tool pprof -top on the hand-made tiny.pb.  Every
# sample type, every granularity and -nodecount=5 are compared with the
# goldens of Go 1.19's pprof (tests/gen/pprof/regen.sh); first the default
# report.
trace-import -q data/pprof/tiny.pb || exit 99
trace-query -F csv top
sh data/pprof/top-check tiny
# drop_frames 'main\.inl' prunes the inlined frame, as pprof does.
trace-import -q data/pprof/prune.pb || exit 99
sh data/pprof/top-check prune 2
