# Output that cannot be written: one message with the reason, exit 1.
trace-import -q data/core/small.perf.txt || exit 99
trace-query sql 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL
    SELECT x + 1 FROM n WHERE x < 100000) SELECT x FROM n' > /dev/full
