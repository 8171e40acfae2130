# trace-flame --pprof writes the selection as a gzipped profile.proto.
# Exported whole, each profile imports again and its top equals the
# original's go tool pprof goldens (go tool pprof -top on the exported
# files equals them too: checked when the goldens were made).
for n in gen/heap gen/cpu gen/block tiny sample.cpu go.nomappings.crash \
    cppbench.cpu_no_samples_type; do
	f=data/pprof/$n.pb.gz
	[ -f $f ] || f=data/pprof/$n.pb
	rm -f a.db b.db out.pb.gz
	trace-import -q -d a.db $f || exit 99
	trace-flame -d a.db --pprof out.pb.gz || exit 1
	od -A n -t x1 -N 2 out.pb.gz
	trace-import -q -d b.db out.pb.gz || exit 1
	TRACE_DB=b.db sh data/pprof/top-check $(basename $n) | grep -v ' ok: '
	echo "$n: exported, imported, top equal"
done
# One sample type, one label, written to standard output.
rm -f a.db
trace-import -q -d a.db data/pprof/gen/cpu.pb.gz || exit 99
trace-flame -d a.db --pprof - --sample-index samples --label worker=hash \
    > one.pb.gz 2> err || exit 1
rm -f c.db
trace-import -q -d c.db one.pb.gz || exit 1
trace-query -d c.db -F csv sql "SELECT sample_types FROM profile"
trace-query -d c.db -F csv sql "SELECT sample_type, value, labels
  FROM pprof_sample"
