# Windows that cannot be: no query, an unknown one, one without windows,
# an unterminated quote, a query's own bad option, two sources of
# windows; a CSV with a bad time, an end before its start, a missing
# field, an unterminated quote, a header without start and end, a file
# that is not there; --where with bad SQL, several statements, a missing
# column, a non-integer time, a write.  Usage errors exit 2, bad data 1,
# each message with its place (FILE:LINE:COL, the row).  Windows that
# hold no sample: exit 1, "no samples".
trace-import -q data/scenario/perf.txt.gz data/scenario/clock.json \
    data/scenario/nvidia-smi.csv || exit 99
trace-align >/dev/null 2>&1 || exit 99
t() { trace-flame -q --folded "$@" > out.txt; echo "rc=$? $(wc -l < out.txt)"; }
t --during ''
t --during nosuch
t --during summary
t --during "gpu-idle --threshold 'x"
t --during 'gpu-idle --threshold x'
t --during gpu-idle --where 'SELECT 1 AS start_ns, 2 AS end_ns'
printf 'start,end\n1s,2s\n3s,later\n' > bad-time.csv
t --windows bad-time.csv
printf '# a comment\n\n1s,2s\n5s,4s\n' > backwards.csv
t --windows backwards.csv
printf '1s,2s\n3s\n' > short.csv
t --windows short.csv
printf '1s,"2s\n' > quote.csv
t --windows quote.csv
printf 'start\n1s\n' > header.csv
t --windows header.csv
t --windows nosuch.csv
t --where 'SELECT nonsense FROM'
t --where 'SELECT 1 AS start_ns, 2 AS end_ns; SELECT 3'
t --where 'SELECT 1 AS start_ns'
t --where "SELECT 1 AS start_ns, 'x' AS end_ns"
t --where 'SELECT 5 AS start_ns, 4 AS end_ns'
t --where 'DELETE FROM sample'
trace-query -F csv sql 'SELECT count(*) FROM sample'
printf 'start,end\n1000s,1001s\n' > empty.csv
trace-flame --folded --windows empty.csv; echo "rc=$?"
