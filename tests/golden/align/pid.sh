# --source-pid: the Go trace was recorded in this process, so it is
# estimated against that process's samples only; a process with no
# samples leaves nothing to estimate against.
trace-import -q data/align/real || exit 1
pid=$(trace-query -F csv sql "SELECT DISTINCT p.pid FROM perf_sample p" |
    tail -n 1)
trace-align -n --ignore go-log --source-pid "trace.out=$pid" -F csv |
    cut -d, -f1,7 | tail -n 1
trace-align -n --ignore go-log --source-pid trace.out=1 -F csv | tail -n 1
