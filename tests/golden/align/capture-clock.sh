# share/tracekit/capture.sh with every part but the clock skipped: a
# clock.json of three bracketed pairs (start, after 1 s, end) that
# trace-import reads; and a usage error.
cap=${TR_SRCDIR:?}/share/tracekit/capture.sh
sh "$cap" -o b -d 2 -i 1 -x perf -x gpu -x nvtop -x go
echo "exit $?"
cat b/bundle.txt
trace-import -q b || exit 1
trace-query -F csv sql "SELECT format, clock,
  json_array_length(meta, '\$.pairs') >= 3 AS pairs,
  json_extract(meta, '\$.pairs[0].uncertainty_ns') BETWEEN 0 AND 1000000
    AS bracketed,
  json_extract(meta, '\$.tz') GLOB '[+-][0-9][0-9]:[0-9][0-9]' AS zone
  FROM source"
sh "$cap" -x everything
echo "exit $?"
sh "$cap" -d soon
echo "exit $?"
