# perf script quirks that real reports show and the peers tolerate
# (inferno's empty-line.txt and weird-stack-line.txt): a blank line inside
# a sample's stack (right after the header, and in the middle), a stack
# line that is no frame, and one whose address is not hex.  Each is
# imported with a note at its line:column and a count in the import line,
# and trace-flame --folded prints byte for byte what stackcollapse-perf.pl
# does (data/perf/quirks/NAME.collapsed-flamegraph.txt, written by
# tests/gen/perf-quirks/gen.sh).  The count is in the source's meta.
for n in empty-line weird-stack-line; do
	rm -f trace.db
	trace-import data/perf/quirks/$n.perf.txt || exit 1
	trace-flame --folded >got || exit 1
	if cmp -s data/perf/quirks/$n.collapsed-flamegraph.txt got; then
		echo "ok $n: $(wc -l <got) stacks, as stackcollapse-perf.pl"
	else
		echo "FAIL $n:"
		diff data/perf/quirks/$n.collapsed-flamegraph.txt got
	fi
	cat got
	trace-query sql "SELECT count(*) AS samples,
	    (SELECT json_extract(meta, '$.oddities') FROM source) AS oddities
	    FROM sample"
done
# -q: no notes, no import line.
rm -f trace.db
trace-import -q data/perf/quirks/empty-line.perf.txt || exit 1
