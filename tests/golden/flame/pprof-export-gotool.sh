# What go tool pprof reads in trace-flame --pprof's files: for each pprof
# fixture exported whole, the same period type, period, time, duration,
# sample types and totals of every sample type as in the original; for a
# window of perf samples (the demo's source 10, 2 s to 4 s), the period
# perf sampled at (the value of its samples), the wall time of the first
# sample in the window, and totals equal to trace-flame --folded's.
command -v go > /dev/null || exit 77
raw() {
	go tool pprof -raw "$1" 2> /dev/null | awk '
	/^Samples:/ { s = 1; getline; print "types: " $0; next }
	/^Locations/ { s = 0 }
	s && /^ *[0-9][0-9 ]*:/ { sub(/:.*/, "")
		for (i = 1; i <= NF; i++) t[i] += $i; if (NF > n) n = NF }
	!s && /^(PeriodType|Period|Time|Duration):/ { print }
	END { printf "totals:"; for (i = 1; i <= n; i++) printf " %.0f", t[i]
		print "" }'
}
for n in gen/heap gen/cpu gen/block tiny sample.cpu go.nomappings.crash \
    cppbench.cpu_no_samples_type; do
	f=data/pprof/$n.pb.gz
	[ -f $f ] || f=data/pprof/$n.pb
	rm -f a.db
	trace-import -q -d a.db $f || exit 99
	trace-flame -q -d a.db --pprof out.pb.gz || exit 1
	raw $f > want
	raw out.pb.gz > got
	if cmp -s want got; then
		echo "$n: $(grep -c . got) lines equal: $(grep totals got)"
	else
		diff want got
	fi
done
trace-import -q -d demo.db data/demo || exit 99
trace-align -d demo.db > /dev/null 2>&1 || exit 99
trace-flame -q -d demo.db -s 10 --from 2s --to 4s --pprof w.pb.gz || exit 1
raw w.pb.gz
trace-flame -q -d demo.db -s 10 --from 2s --to 4s --folded |
    awk '{ n++; v += $NF } END { print "folded: " v }'
trace-query -d demo.db -F csv sql "SELECT count(*), sum(value)
  FROM perf_sample WHERE source_id = 10 AND ts >= (SELECT min(ts_min)
  FROM source WHERE ts_min IS NOT NULL AND (align_method IS NOT NULL OR
  clock IN ('monotonic', 'perf'))) + 2000000000 AND ts < (SELECT min(ts_min)
  FROM source WHERE ts_min IS NOT NULL AND (align_method IS NOT NULL OR
  clock IN ('monotonic', 'perf'))) + 4000000000"
