# -q/--quiet on every tool: notes print nothing, errors still print and
# keep their exit status.  (trace-import's -q is tested with the import
# cases.)  Two heap snapshots: trace-flame and trace-query note that they
# take the last one.
trace-import -q data/pprof/series/heap-000.pb.gz \
    data/pprof/series/heap-001.pb.gz || exit 99
echo "--- trace-flame: a note without -q, none with it"
trace-flame --folded --type heap --sample-index inuse_space 2>&1 >/dev/null
echo "exit $?"
trace-flame -q --folded --type heap --sample-index inuse_space 2>&1 \
    >/dev/null
echo "exit $?"
echo "--- trace-query: the same"
trace-query -F csv top --type heap --sample-index inuse_space \
    --nodecount 1 2>&1
trace-query --quiet -F csv top --type heap --sample-index inuse_space \
    --nodecount 1 2>&1
echo "--- trace-align -q -n"
trace-align -q -n -F csv 2>&1 >/dev/null; echo "exit $?"
echo "--- errors are not quiet"
trace-query -q -F xml summary 2>&1; echo "exit $?"
trace-align -q --search 0 2>&1; echo "exit $?"
trace-flame -q --width 1 2>&1; echo "exit $?"
trace-flame -q --comm nosuch 2>&1; echo "exit $?"
