# perf script --header of a `perf record -k mono` recording: the source's
# clock is 'monotonic', the sample times are perf's seconds as integer
# nanoseconds (exactly: 445.312398 s is 445312398000 ns; with --ns,
# 445.312398676 s is 445312398676 ns), and the header's clockid, reference
# time (wall and perf clock at one instant, in ns), perf version, cmdline
# and event names are kept in the source's metadata.  Without the header
# the clock is perf's own ('perf').  (The second is another rendering of
# the same recording, imported with --keep-same-samples.)
cat data/perf/local-perf6.1/burn-kmono-header-clock-lines.txt >mono.txt
gzip -dc data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz >>mono.txt
trace-import -q mono.txt || exit 1
trace-import -q -H traced-host --keep-same-samples \
    data/perf/local-perf6.1/burn-kmono-ns-F-comm_pid_tid_cpu_time_event_period_ip_sym_dso.perf.txt.gz ||
    exit 1
trace-query sql "SELECT id, format_version, clock, host, ts_min, ts_max
  FROM source ORDER BY id"
trace-query sql "SELECT key, value FROM source, json_each(source.meta)
  WHERE source.id = 1 ORDER BY key"
trace-query sql "SELECT source_id, ts, cpu, value FROM sample
  WHERE id IN (1, 2, 219, 220, 221) ORDER BY id"
