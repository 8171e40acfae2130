# Found by fuzzing (tests/fuzz/fuzz-perf-script, 2026-12-01): two sample
# headers in a row for the same thread without a command name made the
# thread cache call memcmp() with a NULL pointer (UBSan: null pointer
# passed as argument 2, which is declared to never be null).  The mangled
# input itself imports, as stackcollapse-perf.pl would read it.
trace-import --format perf-script data/bad/fuzz/perf-crash-ac1e7966.txt
echo "exit $?"
trace-query -F csv sql "SELECT p.pid, t.tid, t.name,
    (SELECT count(*) FROM sample s WHERE s.thread_id = t.id) AS samples
    FROM thread t LEFT JOIN process p ON p.id = t.process_id ORDER BY t.id"
