# One perf 6.1 recording printed five ways (default; --ns -F ...; with
# tod; -F comm,tid,time,ip,sym,srcline; -G without callchains): each gives
# the same 219 samples at the same times, the threads its fields allow
# (a lone number is the tid), and the frames its fields carry (the DSO,
# symbol offsets stripped, file:line from srcline, the sampled frame only
# with -G).  With tod, the first and last wall times are kept next to
# their perf times.  Last, the first sample's stack in each.  (Each is
# imported with --keep-same-samples: they are one recording.)
for v in default ns-F-comm_pid_tid_cpu_time_event_period_ip_sym_dso \
    F-with-tod F-comm_tid_time_ip_sym_srcline G-nocallchain; do
	trace-import -q --keep-same-samples \
	    "data/perf/local-perf6.1/burn-kmono-$v.perf.txt.gz" || exit 1
done
trace-query sql "SELECT source_id, count(*) AS samples, sum(value) AS
    value, min(ts) AS first, max(ts) AS last, count(DISTINCT cpu) AS cpus,
    count(DISTINCT callsite_id) AS stacks, group_concat(DISTINCT e.s) AS
    events
  FROM sample s JOIN str e ON e.id = s.event_id GROUP BY source_id"
trace-query sql "SELECT DISTINCT s.source_id, p.pid, t.tid, t.name
  FROM sample s JOIN thread t ON t.id = s.thread_id
  LEFT JOIN process p ON p.id = t.process_id ORDER BY 1"
trace-query sql "SELECT s.source_id, st.depth, f.name, f.module, f.file,
    f.line, printf('%x', f.addr) AS addr
  FROM sample s JOIN stack st ON st.callsite_id = s.callsite_id
  JOIN frame f ON f.id = st.frame_id
  WHERE s.id IN (SELECT min(id) FROM sample GROUP BY source_id)
  ORDER BY s.source_id, st.depth"
trace-query sql "SELECT id, json_extract(meta, '$.tod') AS tod FROM source
  WHERE json_extract(meta, '$.tod') IS NOT NULL"
