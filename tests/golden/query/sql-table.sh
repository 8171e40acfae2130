# sql as an aligned table: numbers right-aligned under their header, text
# left-aligned, no trailing blanks, control characters escaped.
trace-import -q data/core/small.perf.txt || exit 99
trace-query -F table sql "SELECT leaf, leaf_module AS module,
    count(*) AS n, sum(value) AS total, NULL AS missing
  FROM perf_sample GROUP BY leaf ORDER BY leaf"
trace-query -F table sql "SELECT 'two
lines' AS text, 1.5 AS x"
trace-query -F table sql 'SELECT 1 AS n WHERE 0'
