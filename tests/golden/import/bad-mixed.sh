# One transaction per input: the good inputs around a bad one are kept,
# the bad one leaves nothing, and the exit status says something failed.
trace-import data/core/small.perf.txt data/bad/truncated.perf.txt.zst \
    data/core/small2.perf.txt
rc=$?
trace-query -F csv sql 'SELECT id, path, format, size, rows FROM source'
trace-query -F csv sql 'SELECT source_id, count(*) AS samples
    FROM sample GROUP BY source_id'
exit $rc
