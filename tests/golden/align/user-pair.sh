# --pair: the first tracekit.clock log of the Go trace (its native time)
# and the monotonic time it carries are the same instant.  The offset that
# follows puts that log exactly on its monotonic time.
trace-import -q data/align/real || exit 1
q="SELECT s.ts, json_extract(s.args, '\$.message') FROM slice s
  JOIN str n ON n.id = s.name_id WHERE n.s = 'tracekit.clock'
  ORDER BY s.ts LIMIT 1"
set -- $(trace-query -F csv sql "$q" | tail -n 1 | tr ',=' '  ')
native=$1 mono=$3
trace-align --ignore go-log --no-estimate \
    --pair "trace.out:${native}ns=perf.txt.gz:${mono}ns" -F csv |
    cut -d, -f1,7,8,10,11
trace-query -F csv sql "$q" | tail -n 1 | tr ',=' '  ' |
    awk '{ print ($1 == $3) ? "the log is on its monotonic time" : "off by " $1 - $3 }'
