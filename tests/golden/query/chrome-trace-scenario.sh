# trace-query chrome-trace on the scenario bundle.  chrome-check
# (tests/tools) checks the JSON as the trace-event format defines it: ph,
# ts, pid, tid and name of every event present and typed, X with dur, C
# with numbers, tasks paired b/e, every sf a stack frame, and the slices
# of every thread nested as the viewers need.  It counts the events per
# track, and the store must say the same, track by track, to the
# nanosecond of duration: goroutine states counted in go_state and
# timed in go_summary (the derived table, not the slices the export
# reads), Ps, GC, sweeps, assists, STW,
# regions, tasks and logs from the views, the perf and Go CPU samples,
# the GPU and Go counters and the pprof profiles.  Then the time stamps:
# microseconds from the store's start with every nanosecond kept.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query chrome-trace > t.json || exit 1
chrome-check t.json > got.txt || exit 1
tail -n 1 got.txt
sed '$d' got.txt > got.tracks
trace-query -F csv sql "
WITH go AS (SELECT id, 'Go ' || replace(path, rtrim(path,
    replace(path, '/', '')), '') || ' (source ' || id || ')' AS p
    FROM source WHERE format = 'gotrace'),
gname AS (SELECT source_id, goid, 'G' || goid || ' ' || name AS n
    FROM go_goroutine),
gs AS (SELECT source_id, goid, count(*) AS n FROM go_state GROUP BY 1, 2),
rows(p, t, ph, what, n, ns) AS (
  SELECT go.p, g.n, 'X', 'goroutine', gs.n, s.exec_ns +
      s.sched_wait_ns + s.chan_ns + s.sync_ns + s.syscall_ns + s.net_ns +
      s.sleep_ns + s.other_ns
    FROM go_summary s JOIN go ON go.id = s.source_id
    JOIN gname g ON g.source_id = s.source_id AND g.goid = s.goid
    JOIN gs ON gs.source_id = s.source_id AND gs.goid = s.goid
  UNION ALL
  SELECT go.p, 'P' || t.ref, 'X', 'go-proc', count(*), sum(s.dur)
    FROM track t JOIN go ON go.id = t.source_id
    CROSS JOIN slice s ON s.track_id = t.id
   WHERE t.kind = 'go-proc' GROUP BY t.id
  UNION ALL
  SELECT go.p, CASE g.name WHEN 'GC' THEN 'GC'
      WHEN 'sweep' THEN 'P' || json_extract(g.args, '$.p') || ' sweep'
      ELSE 'G' || json_extract(g.args, '$.goid') || ' mark assist' END,
      'X', 'go-gc', count(*), sum(g.dur)
    FROM go_gc g JOIN go ON go.id = g.source_id GROUP BY 1, 2
  UNION ALL
  SELECT go.p, 'STW', 'X', w.reason, count(*), sum(w.dur)
    FROM go_stw w JOIN go ON go.id = w.source_id GROUP BY 1, 4
  UNION ALL
  SELECT go.p, 'G' || r.goid || ' regions', 'X', 'region', count(*),
      sum(r.dur)
    FROM go_region r JOIN go ON go.id = r.source_id GROUP BY 1, 2
  UNION ALL
  SELECT go.p, '', ph.v, 'task', count(*), 0
    FROM go_task k JOIN go ON go.id = k.source_id,
      (SELECT 'b' AS v UNION ALL SELECT 'e') ph GROUP BY 1, 3
  UNION ALL
  SELECT go.p, coalesce(g.n, 'G' || l.goid), 'i', 'log', count(*), 0
    FROM go_log l JOIN go ON go.id = l.source_id
    LEFT JOIN gname g ON g.source_id = l.source_id AND g.goid = l.goid
   GROUP BY 1, 2
  UNION ALL
  SELECT go.p, CASE WHEN json_extract(s.labels, '$.goid') IS NOT NULL
      THEN coalesce(g.n, 'G' || json_extract(s.labels, '$.goid'))
      WHEN json_extract(s.labels, '$.p') IS NOT NULL
      THEN 'P' || json_extract(s.labels, '$.p') ELSE '' END,
      'i', 'cpu', count(*), 0
    FROM sample s JOIN go ON go.id = s.source_id
    LEFT JOIN gname g ON g.source_id = s.source_id
     AND g.goid = json_extract(s.labels, '$.goid')
   WHERE s.ts IS NOT NULL GROUP BY 1, 2
  UNION ALL
  SELECT coalesce(p.name, (SELECT q.name FROM process q WHERE q.pid = t.tid),
      (SELECT q.name FROM thread m JOIN process q ON q.pid = m.tid
        WHERE m.name = t.name AND m.process_id IS NULL),
      'host ' || so.host), t.name || ' ' || t.tid, 'i', e.s, count(*), 0
    FROM sample s JOIN source so ON so.id = s.source_id
    JOIN str e ON e.id = s.event_id JOIN thread t ON t.id = s.thread_id
    LEFT JOIN process p ON p.id = t.process_id
   WHERE s.ts IS NOT NULL GROUP BY 1, 2, 4
  UNION ALL
  SELECT 'GPU ' || gpu || ' ' || gpu_name, '', 'C', metric, count(*), 0
    FROM gpu_metric GROUP BY 1, 4
  UNION ALL
  SELECT process, '', 'C', 'GPU ' || gpu || ' ' || metric, count(*), 0
    FROM gpu_process GROUP BY 1, 4
  UNION ALL
  SELECT coalesce(go.p, 'host (unknown)'), '', 'C',
      CASE t.kind WHEN 'clock' THEN 'clock ' ELSE '' END || n.s, count(*), 0
    FROM counter c JOIN track t ON t.id = c.track_id
    JOIN str n ON n.id = c.name_id LEFT JOIN go ON go.id = t.source_id
   WHERE t.kind IN ('go-heap', 'go-runtime', 'clock') GROUP BY 1, 4
  UNION ALL
  SELECT 'pprof profiles', type || ' profiles', 'i', 'pprof', count(*), 0
    FROM profile GROUP BY type)
SELECT p || char(9) || t || char(9) || ph || char(9) || what || char(9) ||
    n || char(9) || ns AS line FROM rows ORDER BY 1" | sed 1d > want.tracks
LC_ALL=C sort want.tracks > want.sorted
if cmp -s want.sorted got.tracks; then
	echo "tracks: $(wc -l < got.tracks), each as many events as rows"
else
	diff want.sorted got.tracks | head -20
fi
grep -c '^.*	G[0-9]* [^	]*	X	goroutine	' got.tracks
awk -F '\t' '{ n[$3] += $5 } END { for (p in n) print p, n[p] }' \
    got.tracks | sort
# The first CPU sample of the trainer's main thread, and its store time
# less the store's start: the same digits, in microseconds.
grep -m 1 '"ph":"i","pid":21272,"tid":21272,' t.json | cut -c 1-60
trace-query -F csv sql "SELECT min(s.ts) - (SELECT min(ts_min) FROM source
  WHERE ts_min IS NOT NULL AND (align_method IS NOT NULL OR clock IN
  ('monotonic', 'perf'))) AS ns FROM perf_sample s WHERE tid = 21272"
# A selection: sources 139-141 (nvidia-smi, perf, the Go trace) from 10 s
# to 12 s.  The goroutine states that overlap the window are clipped to
# it; samples and counters are those inside it.  The store's counts by
# the same rules (through the source's goroutine tracks: a filter of the
# go_state view by source expands every run), then the export's; the
# processes in it (no pprof, no GPU process from source 138).
trace-query chrome-trace --source 139-141 --from 10s --to 12s > w.json ||
    exit 1
chrome-check w.json | sed '$d' > w.tracks || exit 1
trace-query -F csv sql "
WITH o AS (SELECT min(ts_min) AS o FROM source WHERE ts_min IS NOT NULL
    AND (align_method IS NOT NULL OR clock IN ('monotonic', 'perf'))),
w AS MATERIALIZED (SELECT o + 10000000000 AS lo, o + 12000000000 AS hi
    FROM o)
SELECT 'X goroutine', count(*), sum(min(s.ts + s.dur, w.hi) - max(s.ts, w.lo))
  FROM w CROSS JOIN track t CROSS JOIN slice s ON s.track_id = t.id
 WHERE t.source_id = 141 AND t.kind = 'goroutine'
   AND s.run_ts < w.hi AND s.run_end_ts >= w.lo
   AND (s.ts < w.hi AND s.ts + s.dur > w.lo OR
        s.dur = 0 AND s.ts >= w.lo AND s.ts < w.hi)
UNION ALL
SELECT 'i perf', count(*), 0 FROM perf_sample s, w
 WHERE s.ts >= w.lo AND s.ts < w.hi
UNION ALL
SELECT 'C gpu', count(*), 0 FROM gpu_metric m, w
 WHERE m.source_id = 139 AND m.ts >= w.lo AND m.ts < w.hi" | sed 1d
awk -F '\t' '$3 == "X" && $4 == "goroutine" { n += $5; ns += $6 }
    $3 == "i" && $4 ~ /^cpu-clock/ { p += $5 }
    $1 ~ /^GPU/ && $3 == "C" { c += $5 }
    END { printf "X goroutine,%d,%.0f\ni perf,%d,0\nC gpu,%d,0\n", n, ns,
    p, c }' \
    w.tracks
cut -f 1 w.tracks | sort -u
# Narrowed: --goroutine 23 (the driver), --pid 21272 (the trainer), --gpu
# 0.  Every track of it is a track of the whole export, with the same
# events; what is gone: the other goroutines and their logs, the other
# processes' samples.
trace-query -q chrome-trace --goroutine 23 --pid 21272 --gpu 0 > n.json ||
    exit 1
chrome-check n.json | sed '$d' > n.tracks || exit 1
grep -v -F -x -f got.tracks n.tracks
echo "narrowed: $(wc -l < n.tracks) tracks, all in the whole export"
cut -f 1,2 n.tracks | grep 'G[0-9]\|trainer' | sort -u | tr '\t' ' '
