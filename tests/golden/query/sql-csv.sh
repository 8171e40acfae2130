# sql as CSV (the default when stdout is not a terminal): integers, reals,
# NULL, and text that needs quoting.
trace-import -q data/core/small.perf.txt || exit 99
trace-query sql "SELECT comm, pid, tid, cpu, event, count(*) AS n,
    sum(value) AS total, round(avg(value) / 1e6, 3) AS avg_ms,
    NULL AS missing, 'a,\"b\"' AS quoted
  FROM perf_sample GROUP BY comm, pid, tid, cpu, event"
trace-query -F csv sql 'SELECT leaf, count(*) AS n FROM perf_sample
  GROUP BY leaf ORDER BY leaf'
