# The real bundle of tests/gen/align: a Go 1.19 program recorded by
# `perf record -k CLOCK_MONOTONIC`, whose runtime trace carries its own
# wall/monotonic pairs as tracekit.clock logs: the ground truth.  Without
# the logs, trace-align estimates the trace's offset from the program's
# activity (perf samples of its pid against running goroutines): every log
# must land within 1 ms of its monotonic time.  With them the fit is exact:
# every log within the stated uncertainty, the mean error under 1 ns.
trace-import -q data/align/real || exit 1
errors="WITH l AS (SELECT s.ts, json_extract(s.args, '\$.message') AS m
  FROM slice s JOIN str n ON n.id = s.name_id
  WHERE n.s = 'tracekit.clock'),
 e AS (SELECT ts - CAST(substr(m, 6, instr(m, ' ') - 6) AS INTEGER) AS err
  FROM l)
SELECT count(*) AS logs, max(abs(err)) < 1000000 AS within_1ms,
  max(abs(err)) <= (SELECT json_extract(meta, '\$.align.uncertainty_ns')
    FROM source WHERE format = 'gotrace') AS within_uncertainty,
  abs(avg(err)) < 1 AS mean_under_1ns
  FROM e"
sources="SELECT id, format, clock, align_method,
  align_confidence >= 0.5 AS trusted,
  round(clock_drift_ppm, 1) AS drift_ppm
  FROM source ORDER BY id"

echo "# estimated, the logs ignored"
trace-align --ignore go-log -F csv > /dev/null || exit 1
trace-query -F csv sql "$sources"
trace-query -F csv sql "$errors"
echo "# anchored on the logs"
trace-align -F csv > /dev/null || exit 1
trace-query -F csv sql "$sources"
trace-query -F csv sql "$errors"
