# gc against Go's own tools: for each trace of data/gotrace/gc-counts.txt
# (tests/gen/gotrace/gc-counts.sh: `go tool trace -d` of Go 1.19, 1.21 and
# 1.23 on old-format and generation-format traces), the GC cycles, the
# stop-the-world pauses and their total ns that trace-query gc finds must
# equal Go's, exactly.
while read -r name cycles stw stwns; do
	rm -f t.db
	trace-import -d t.db "data/gotrace/$name.trace" 2>/dev/null || exit 99
	got=$(trace-query -d t.db -F csv gc 2>/dev/null | sed -n 2p |
	    cut -d, -f6,11,12 | tr , ' ')
	if [ "$got" = "$cycles $stw $stwns" ]; then
		echo "$name: $cycles cycles, $stw pauses, $stwns ns: as go tool trace"
	else
		echo "$name: trace-query gc says '$got', go tool trace" \
		    "'$cycles $stw $stwns'"
	fi
done < data/gotrace/gc-counts.txt
