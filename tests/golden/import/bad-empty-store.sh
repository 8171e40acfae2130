# An empty file named as the store is not a store: every tool but
# trace-import refuses it (exit 1) and leaves it empty; trace-align used
# to turn it into an empty store.
: > e.db
trace-align -d e.db
echo "trace-align: exit $?"
trace-align -d e.db -n
echo "trace-align -n: exit $?"
trace-flame -d e.db --folded
echo "trace-flame: exit $?"
trace-query -d e.db summary
echo "trace-query: exit $?"
echo "e.db: $(wc -c < e.db) bytes"
ls
