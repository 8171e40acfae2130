# -q/--quiet on every tool: notes print nothing, errors still print and
# keep their exit status.  (trace-import's -q is tested with the import
# cases.)
trace-import -q data/core/small.perf.txt || exit 99
echo "--- trace-flame: a note without -q, none with it"
trace-flame --folded --comm nosuch 2>&1; echo "exit $?"
trace-flame -q --folded --comm nosuch 2>&1; echo "exit $?"
echo "--- trace-align -q -n"
trace-align -q -n -F csv 2>&1 >/dev/null; echo "exit $?"
echo "--- trace-query -q"
trace-query --quiet -F csv sql "SELECT count(*) AS n FROM sample" 2>&1
echo "--- errors are not quiet"
trace-query -q -F xml summary 2>&1; echo "exit $?"
trace-align -q --search 0 2>&1; echo "exit $?"
trace-flame -q --width 1 2>&1; echo "exit $?"
