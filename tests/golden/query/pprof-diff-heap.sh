# pprof-diff BASE NEW equals go tool pprof -top -diff_base=BASE NEW for
# each step of a heap series (functions and lines) and for its first and
# last snapshots: values are NEW minus BASE, percentages of BASE's total.
trace-import -q data/pprof/series || exit 99
g=data/pprof/golden
for i in 1 2 3 4 5; do
	trace-query -F csv pprof-diff --sample-index inuse_space \
	    $i $((i + 1)) | sh data/pprof/top-parity $g/diff-heap-00$i.top.txt
	trace-query -F csv pprof-diff --sample-index inuse_space \
	    --granularity lines p$i p$((i + 1)) |
	    sh data/pprof/top-parity $g/diff-heap-00$i-lines.top.txt
done
trace-query -F csv pprof-diff --sample-index inuse_space s1 s6 |
    sh data/pprof/top-parity $g/diff-first-last.top.txt
trace-query -F csv pprof-diff --sample-index inuse_space 1 6
