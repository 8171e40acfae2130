# sql takes exactly one argument: exit 2.
trace-import -q data/core/small.perf.txt || exit 99
trace-query sql 'SELECT 1' 'SELECT 2'
