# --offset on an estimated source (the Go trace, its logs ignored) counts
# from the estimate: +1ms moves it by exactly 1 ms from where the estimate
# put it, the result is kept on later runs, and nudges add up.
# SOURCE==OFFSET counts from the native clock.  A relative offset on a
# source nothing aligns is a usage error (exit 2, the store unchanged).
trace-import -q data/align/real || exit 1
off() { trace-align --ignore go-log -F csv "$@" | tail -n 1 | cut -d, -f8; }
e=$(off) || exit 1
echo "estimate $e"
trace-align --ignore go-log --offset trace.out=+1ms -F csv | tail -n 1 |
    cut -d, -f1,7,8,11,14-
n=$(off)
echo "moved by $((n - e)) ns"
n=$(off --offset trace.out=+1ms)
echo "again +1ms: moved by $((n - e)) ns"
n=$(off)
echo "kept: moved by $((n - e)) ns"
# Exact anchors (the logs, not ignored) are trusted over a kept statement.
trace-align -F csv | tail -n 1 | cut -d, -f1,7,8
trace-align --offset 3==+5s -F csv | tail -n 1 | cut -d, -f1,7,8,14-
trace-align --reset -F csv > /dev/null
sha256sum trace.db > before
trace-align --ignore go-log --no-estimate --offset trace.out=+1ms
echo "exit $?"
trace-align --ignore go-log --min-confidence 1 --offset trace.out=+1ms
echo "exit $?"
trace-align --offset 3=+1ms --offset trace.out==2s
echo "exit $?"
sha256sum -c --quiet before
