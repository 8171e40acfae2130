# gc as one JSON document (base units: ns, bytes, shares 0-1) on the Go
# 1.22 trace, with every cycle and pause as evidence; no GPU telemetry is
# a note in the document.
trace-import data/gotrace/gen122.trace 2>/dev/null || exit 99
trace-query -F json gc --evidence --top 3
