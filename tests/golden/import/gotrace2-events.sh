# Every generation-format trace Go 1.23's parser reads (Go's own test
# traces and the Go 1.22/1.23 recordings): the importer orders and counts
# exactly the events Go 1.23.5's `go tool trace -d=1` prints, less Go's
# per-generation Sync (data/gotrace/go123-events.txt, written by
# tests/gen/gotrace/counts.sh).
while read -r name want; do
	rm -f trace.db trace.db-wal trace.db-shm
	trace-import -q "data/gotrace/$name.trace" || exit 99
	got=$(trace-query -F csv sql "SELECT json_extract(meta, '\$.events')
	    FROM source" | tail -n 1)
	if [ "$got" = "$want" ]; then
		echo "$name: $got events, as Go 1.23"
	else
		echo "$name: $got events, Go 1.23 has $want"
	fi
done < data/gotrace/go123-events.txt
