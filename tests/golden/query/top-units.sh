# The table of top and pprof-diff is for people: flat and cum (and the
# delta, base and new of --stacks) in the sample type's unit, as go tool
# pprof -top prints them -- durations for nanoseconds, sizes in units of
# 1024 for bytes, counts plain; CSV keeps the integers.
trace-import -q data/pprof/gen/cpu.pb.gz data/pprof/gen/heap.pb.gz \
    data/pprof/gen/goroutine.pb.gz data/pprof/gen/block.pb.gz || exit 99
for t in cpu heap goroutine block; do
	trace-query -F table top --type $t --nodecount 3
	trace-query -F csv top --type $t --nodecount 3
done
trace-query -F table top --type block --sample-index contentions \
    --nodecount 2
trace-import -q -d series.db data/pprof/series || exit 99
trace-query -d series.db -F table pprof-diff --sample-index inuse_space \
    --nodecount 3 1 6
trace-query -d series.db -F table pprof-diff --sample-index inuse_space \
    --stacks --nodecount 2 1 6
trace-query -d series.db -F csv pprof-diff --sample-index inuse_space \
    --stacks --nodecount 2 1 6
trace-query -d series.db -F table pprof-diff --series --type heap \
    --sample-index inuse_objects --nodecount 1
