# sql as JSON: numbers stay numbers (reals stay reals), NULL is null.
trace-import -q data/core/small.perf.txt || exit 99
trace-query -F json sql "SELECT comm, pid, cpu, count(*) AS n,
    sum(value) AS total, round(avg(value) / 1e6, 3) AS avg_ms,
    2.0 AS two, NULL AS missing, 'tab	\"q\"' AS text
  FROM perf_sample GROUP BY comm, pid, cpu"
trace-query -F json sql 'SELECT leaf FROM perf_sample WHERE 0'
