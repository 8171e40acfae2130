# Go's own text test traces (src/internal/trace/testdata/tests), turned
# into binary: those Go expects to parse import, those it expects to fail
# fail with the reason it names (see each txtar/NAME.test).
for t in data/gotrace/txtar/*.test; do
	n=$(basename "$t" .test)
	want=$(sed -n '/^-- expect --$/{n;p;}' "$t")
	echo "$n: Go expects $want"
	trace-import -q "data/gotrace/$n.trace" 2>&1
	echo "$n: exit $?"
done
trace-query -F csv sql "SELECT path, format_version, clock, rows,
    json_extract(meta, '\$.events') AS events FROM source ORDER BY id"
