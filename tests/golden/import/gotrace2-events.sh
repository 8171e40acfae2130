# Every generation-format trace Go 1.23's parser reads (Go's own test
# traces and the Go 1.22/1.23 recordings): the importer orders and counts
# exactly the events Go 1.23.5's `go tool trace -d=1` prints, less Go's
# per-generation Sync, and stores as many CPU samples as it prints
# StackSample events (data/gotrace/go123-events.txt, written by
# tests/gen/gotrace/counts.sh).
while read -r name want wantcpu; do
	rm -f trace.db trace.db-wal trace.db-shm
	trace-import -q "data/gotrace/$name.trace" || exit 99
	got=$(trace-query -F csv sql "SELECT json_extract(meta, '\$.events')
	    || ' ' || (SELECT count(*) FROM sample) FROM source" |
	    tail -n 1 | tr -d '"')
	if [ "$got" = "$want $wantcpu" ]; then
		echo "$name: $want events, $wantcpu CPU samples, as Go 1.23"
	else
		echo "$name: events and CPU samples $got, Go 1.23 has" \
		    "$want $wantcpu"
	fi
done < data/gotrace/go123-events.txt
