#!/bin/sh
# check.sh TRUTH.json: check a scenario store against its truth.  For every
# phase of truth.json: the mean utilization.gpu of the samples in the
# phase's window; the driver goroutine's longest state in it (go_state,
# clipped to the window, as state/reason) apart from its wait for the GPU
# (blocked in a syscall under main.(*device).kernel, shown as gpu_wait_s),
# with its mark assists (part of its running time); and for the phases
# that name one, the goroutine that woke the driver most often and its
# longest state in the window.  A phase is ok when an injected phase's
# utilisation is below 30% and its state the one its cause implies (and
# its waker the one named), and when normal training is above 70%.
# The store is TRACE_DB (or trace.db), made with
#   trace-import tests/data/scenario && trace-align
# trace-query must be on PATH.  Exit status 1 when a phase is wrong.
set -eu
truth=$1
# name cause start_ns end_ns waker_function waker_state, one phase a line
awk '
/"driver_goid":/ && !inph { g = $2 + 0 }
/"phases": \[/ { inph = 1; next }
inph && /^  \]/ { inph = 0 }
inph && /^    {/ { n = c = s = e = w = ws = "-" }
inph && /"name":/ { gsub(/[",]/, "", $2); n = $2 }
inph && /"cause":/ { gsub(/[",]/, "", $2); c = $2 == "null" ? "-" : $2 }
inph && /"start_ns":/ { s = $2 + 0 }
inph && /"end_ns":/ { e = $2 + 0 }
inph && /"waker_function":/ { gsub(/[",]/, "", $2); w = $2 }
inph && /"waker_state":/ { gsub(/[",]/, "", $2); ws = $2 }
inph && /^    }/ { printf "%d %s %s %s %s %s %s\n", g, n, c, s, e, w, ws }
' "$truth" > phases.$$
trap 'rm -f phases.$$' EXIT

bad=0
echo "phase,cause,window_s,util,gpu_wait_s,state,state_s,assist_s,waker,\
waker_state,ok"
while read -r g name cause a b w ws; do
	row=$(trace-query -F csv sql "
WITH st AS (
  SELECT goid, state || coalesce('/' || reason, '') AS s,
         min(ts + dur, $b) - max(ts, $a) AS ns,
         state = 'blocked' AND reason = 'syscall' AND EXISTS (
           SELECT 1 FROM stack k JOIN frame f ON f.id = k.frame_id
            WHERE k.callsite_id = go_state.callsite_id
              AND f.name = 'main.(*device).kernel') AS gpu
    FROM go_state
   WHERE goid = $g AND run_ts < $b AND run_end_ts > $a
     AND ts < $b AND ts + dur > $a),
top AS (SELECT s, sum(ns) AS ns FROM st WHERE NOT gpu
         GROUP BY s ORDER BY 2 DESC LIMIT 1),
waker AS (SELECT json_extract(args, '$.waker') AS w FROM go_state
           WHERE goid = $g AND state = 'runnable' AND reason = 'unblocked'
             AND run_ts < $b AND run_end_ts > $a AND ts >= $a AND ts < $b
           GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1),
wtop AS (SELECT state || coalesce('/' || reason, '') AS s FROM go_state
          WHERE goid = (SELECT w FROM waker)
            AND run_ts < $b AND run_end_ts > $a AND ts < $b AND ts + dur > $a
          GROUP BY 1 ORDER BY sum(min(ts + dur, $b) - max(ts, $a)) DESC
          LIMIT 1)
SELECT printf('%.1f', (SELECT avg(value) FROM gpu_metric
                        WHERE metric = 'utilization.gpu'
                          AND ts > $a AND ts <= $b)) AS u,
       printf('%.2f', (SELECT coalesce(sum(ns), 0) FROM st WHERE gpu) / 1e9)
         AS gw,
       (SELECT s FROM top) AS s,
       printf('%.2f', (SELECT ns FROM top) / 1e9) AS sn,
       printf('%.2f', (SELECT coalesce(sum(min(ts + dur, $b) - max(ts, $a)), 0)
                         FROM go_gc WHERE name = 'mark assist'
                          AND json_extract(args, '$.goid') = $g
                          AND run_ts < $b AND run_end_ts > $a
                          AND ts < $b AND ts + dur > $a) / 1e9) AS an,
       coalesce((SELECT name FROM go_goroutine
                  WHERE goid = (SELECT w FROM waker)), '-') AS w,
       coalesce((SELECT s FROM wtop), '-') AS ws" | sed -n 2p)
	ok=$(echo "$row" | awk -F, -v c="$cause" -v w="$w" -v ws="$ws" '{
		u = $1 + 0; st = $3; split(st, p, "/")
		if (c == "-")
			ok = u > 70
		else {
			want["gc"] = "running"; want["chan"] = "blocked/chan recv"
			want["sync"] = "blocked/sync"
			want["syscall"] = "blocked/syscall"
			want["cpu"] = "running"; want["sched"] = "runnable"
			want["sleep"] = "blocked/sleep"; want["net"] = "blocked/net"
			ok = u < 30 && (st == want[c] || p[1] == want[c])
			if (c == "gc")
				ok = ok && $5 * 2 > $4
			if (w != "-")
				ok = ok && $6 == w
			if (ws != "-") {
				split($7, q, "/")
				ok = ok && q[2] == ws
			}
		}
		print ok ? "ok" : "WRONG"
	}')
	[ "$ok" = ok ] || bad=1
	echo "$name,$cause,$(awk -v a="$a" -v b="$b" \
	    'BEGIN { printf "%.2f", (b - a) / 1e9 }'),$row,$ok"
done < phases.$$
exit $bad
