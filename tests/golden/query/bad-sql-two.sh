# Two statements are a usage error (exit 2); neither runs.
trace-import -q data/core/small.perf.txt || exit 99
trace-query sql 'SELECT 1; SELECT 2'
