# SQL that does not parse: SQLite's message, exit 1.
trace-import -q data/core/small.perf.txt || exit 99
trace-query sql 'SELEC count(*) FROM sample'
