# --pprof of a heap selection: the period type and units are the heap
# profile's (space bytes, inuse_space/bytes), time_nanos is the wall time
# of the snapshot (from the source's alignment, not 1970), and go tool
# pprof's totals equal the folded stacks'; a perf export gets the wall
# time of its first sample from the store's wall clock.
command -v go > /dev/null || exit 77
trace-import -q data/demo || exit 99
trace-align > /dev/null 2>&1 || exit 99
trace-flame --type heap -e inuse_space --pprof heap.pb.gz || exit 1
go tool pprof -raw heap.pb.gz 2> /dev/null | sed -n '1,3p;5p'
raw() {
	go tool pprof -raw "$1" 2> /dev/null | awk '/^Samples:/ { s = 1; next }
	    /^Locations/ { s = 0 } s && /^ *[0-9]+:/ { n += $1 } END { print n }'
}
raw heap.pb.gz
trace-flame --folded --type heap -e inuse_space 2> /dev/null |
    awk '{ n += $NF } END { print n }'
trace-flame -s 10 --pprof perf.pb.gz 2> /dev/null || exit 1
go tool pprof -raw perf.pb.gz 2> /dev/null | sed -n '1,3p'
trace-flame --folded -s 10 | awk '{ n += $NF } END { print n }'
go tool pprof -raw -sample_index=cpu-clock:ppp perf.pb.gz 2> /dev/null |
    awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
    s && /^ *[0-9]+ +[0-9]+:/ { n += $2 } END { print n }'
