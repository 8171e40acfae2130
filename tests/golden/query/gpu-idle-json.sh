# gpu-idle -F json: one document, an array per named set and the notes
# (the JSON contract of trace-query(1)); and the same as a table for
# people (durations, shares and time stamps in their units).
trace-import data/demo 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F json gpu-idle --threshold 50 --min 200ms
trace-query -F table gpu-idle --threshold 50 --min 200ms --to 5.5s
