# The store is -d FILE, else $TRACE_DB, else ./trace.db.
trace-import -q -d x.db data/core/small.perf.txt || exit 99
TRACE_DB=y.db trace-import -q data/core/small2.perf.txt || exit 99
ls
echo '-d:'
trace-query -d x.db sql 'SELECT path FROM source'
echo 'TRACE_DB:'
TRACE_DB=y.db trace-query sql 'SELECT path FROM source'
echo '-d over TRACE_DB:'
TRACE_DB=y.db trace-query -d x.db sql 'SELECT path FROM source'
echo 'empty TRACE_DB means trace.db:'
TRACE_DB= trace-query sql 'SELECT path FROM source'
echo "exit $?"
echo 'TRACE_DB naming a missing store:'
TRACE_DB=z.db trace-query summary
echo "exit $?"
