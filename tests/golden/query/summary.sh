# summary of a store with two sources, in each format; a series of pprof
# snapshots grouped into one row (count, sources "2-7"), --all a row each.
trace-import -q data/core/small.perf.txt data/core/small2.perf.txt || exit 99
trace-query -F csv summary
trace-query -F json summary
trace-query -F table summary
echo '--- six heap snapshots between two perf files: one row, --all: a row each'
trace-import -q -d s.db data/core/small.perf.txt \
    data/pprof/series/heap-000.pb.gz data/pprof/series/heap-001.pb.gz \
    data/pprof/series/heap-002.pb.gz data/pprof/series/heap-003.pb.gz \
    data/pprof/series/heap-004.pb.gz data/pprof/series/heap-005.pb.gz \
    data/core/small2.perf.txt || exit 99
trace-query -d s.db -F table summary
trace-query -d s.db -F csv summary --all
echo '--- heap snapshots alone: the wall clock is known, start and end'
trace-import -q -d w.db data/pprof/series/heap-000.pb.gz \
    data/pprof/series/heap-001.pb.gz data/pprof/series/heap-002.pb.gz \
    || exit 99
trace-query -d w.db -F table summary
trace-query -d w.db -F json summary
trace-query -d w.db -F json summary --all
