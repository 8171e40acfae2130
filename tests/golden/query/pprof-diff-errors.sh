# pprof-diff usage errors exit 2; a base of another profile type is
# refused as go tool pprof refuses it.
trace-import -q data/pprof/gen/heap.pb.gz data/pprof/gen/cpu.pb.gz || exit 99
trace-query pprof-diff 1; echo "rc=$?"
trace-query pprof-diff 1 2; echo "rc=$?"
trace-query pprof-diff --series 1 2; echo "rc=$?"
trace-query pprof-diff --series --type cpu; echo "rc=$?"
trace-query pprof-diff 1 q2; echo "rc=$?"
