# Selecting profiles: two heap snapshots named by --profile merged equal
# go tool pprof A B; so does --type heap with --snapshots all, where
# --type heap alone takes the last snapshot (the second: its inuse_space
# only); --label keeps samples with a label;
# --cum sorts by cumulative value; a time window relative to the start.
trace-import -q data/pprof/series/heap-000.pb.gz \
    data/pprof/series/heap-001.pb.gz data/pprof/gen/cpu.pb.gz || exit 99
trace-query -F csv top --profile 1,2 --sample-index inuse_space |
    sh data/pprof/top-parity data/pprof/golden/series-merge01.top.txt
trace-query -F csv top --type heap --sample-index inuse_space \
    --snapshots all | sh data/pprof/top-parity \
    data/pprof/golden/series-merge01.top.txt
trace-query -F csv top --type heap --sample-index inuse_space --nodecount 3
trace-query -F csv top --profile p1-2 --sample-index inuse_space \
    --nodecount 3
trace-query -F csv top --type cpu --label worker=hash --nodecount 3
trace-query -F csv top --type cpu --label worker=sort --cum --nodecount 3
# Times count from the store's start: heap-000's; heap-001 is 15 ms later.
trace-import -q -d two.db data/pprof/series/heap-000.pb.gz \
    data/pprof/series/heap-001.pb.gz || exit 99
trace-query -d two.db -F csv top --sample-index 3 --from 0s --to 5ms \
    --nodecount 2
trace-query -d two.db -F csv top --sample-index 3 --from 10ms --nodecount 2
