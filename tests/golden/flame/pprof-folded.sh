# pprof samples fold like perf's: without --event or --sample-index the
# profile's default sample type (inuse_space for a heap profile, cpu for a
# CPU profile) as go tool pprof picks it; --label keeps one worker's
# samples; inlined frames are frames of their own; a location without
# lines shows its mapping.
trace-import -q data/pprof/gen/heap.pb.gz data/pprof/gen/cpu.pb.gz \
    data/pprof/tiny.pb || exit 99
trace-flame --folded -s 1
trace-flame --folded -s 1 --sample-index alloc_objects
trace-flame --folded -s 2 --label worker=sort
trace-flame --folded -s 2 --label stage=nothing
trace-flame --folded -s 3
trace-flame --folded -s 3 --label size=64 --sample-index samples
trace-flame --folded -s 1 --label bad; echo "rc=$?"
