# A memory flame graph of inuse_space: the sample type's values, mem
# colours, a count name; the SVG's totals and frame titles are checked.
trace-import -q data/pprof/gen/heap.pb.gz || exit 99
trace-flame --sample-index inuse_space --colors mem --countname bytes \
    --title "inuse_space" > heap.svg || exit 1
grep -c '<svg' heap.svg
grep -o '<title>all ([0-9,]* bytes, 100%)</title>' heap.svg
grep -o '<title>main.allocLarge ([0-9,]* bytes, [0-9.]*%)</title>' heap.svg
