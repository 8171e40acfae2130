# --diff-base errors: usage (exit 2) for a bad base option, a quote left
# open, two window options, --help inside and modes that do not combine;
# exit 1 for an empty base, a base store that is missing, and a base that
# counts other units than the graph (heap bytes against CPU time).
trace-import -q data/flame/diff-before.perf.txt \
    data/flame/diff-after.perf.txt data/pprof/gen/heap.pb.gz || exit
trace-flame -s 2 --diff-base '-s 1 --bogus' --folded; echo "exit $?"
trace-flame -s 2 --diff-base "-s '1" --folded; echo "exit $?"
trace-flame -s 2 --diff-base '--during gpu-idle --where "SELECT 1"' \
    --folded; echo "exit $?"
trace-flame -s 2 --diff-base '-s 1' --diff-base '-s 2'; echo "exit $?"
trace-flame -s 2 --diff-base '--help'; echo "exit $?"
trace-flame -s 2 --diff-base '-s 1' --pprof x.pb; echo "exit $?"
trace-flame -s 2 --diff-base '-s 1' --flamechart; echo "exit $?"
trace-flame -s 2 --diff-base '-s 1 --from 100s' --folded; echo "exit $?"
trace-flame -s 2 --diff-base '-d missing.db' --folded; echo "exit $?"
trace-flame -q -s 2 --diff-base '-s 3 -e inuse_space' --folded
echo "exit $?"
# The graph empty, the base not: "no samples", exit 1, the lines printed.
trace-flame -s 2 --from 100s --diff-base '-s 1' --folded | head -n 2
trace-flame -q -s 2 --from 100s --diff-base '-s 1' > /dev/null
echo "exit $?"
