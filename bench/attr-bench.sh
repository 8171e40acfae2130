#!/bin/sh
# bench/attr-bench.sh [TRACE]
#
# The attribution queries of issue 13 (timeline, gpu-idle, stalls, steps;
# and issue 14's gc, goroutines, sched-latency, contention when
# trace-query lists them) on the long bench store: a Go trace of millions of states
# (bench/gotrace-import.sh's long trace) with GPU telemetry covering it, a
# SYNTHETIC nvidia-smi CSV made here to span the trace.  Prints the
# median wall and CPU seconds of each query against the 1 s goal, next to
# the peer way of answering the same question: the hand-written SQL over
# the go_state and gpu_metric views a user needed before (issue 13), and
# the ratios.  Then the import time with and without the derived tables
# (TRACEKIT_NO_DERIVED=1), and what moving the Go source with trace-align
# costs (its derived tables are computed again).  Never part of make
# check.  See bench/README.
#
# Environment:
#   TR_BINDIR   directory of the tools (default: ./src/tools when run from
#               a build tree, else PATH)
#   BENCH_RUNS  runs of each query; the median is shown (default 3)
#   BENCH_PEERS 0: time the queries only, not the peer SQL (which takes
#               tens of minutes on a store of tens of millions of states)
#   BENCH_PEER_RUNS  runs of each peer SQL statement (default 1: they are
#               slow)
#   BENCH_SECS  length of the recorded trace in seconds (default 20)
#   BENCH_G     goroutines of the recorded program (default 1000)
#   BENCH_DIR   scratch directory (default: a new one under $TMPDIR;
#               removed at the end unless BENCH_KEEP=1)
#   BENCH_REUSE 1: use the store BENCH_DIR/bench.db of an earlier run
#               (BENCH_KEEP=1) as it is; no import, no trace-align figures
set -u

runs=${BENCH_RUNS:-3}
pruns=${BENCH_PEER_RUNS:-1}
peers=${BENCH_PEERS:-1}
secs=${BENCH_SECS:-20}
ngo=${BENCH_G:-1000}
reuse=${BENCH_REUSE:-0}
srcdir=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "${TR_BINDIR:-}" ]; then
	PATH="$TR_BINDIR:$PATH"
elif [ -x ./src/tools/trace-import ]; then
	PATH="$(pwd)/src/tools:$PATH"
fi
for t in trace-import trace-align trace-query; do
	command -v $t >/dev/null || {
		echo "attr-bench.sh: no $t (set TR_BINDIR)" >&2
		exit 2
	}
done
[ -x /usr/bin/time ] || {
	echo "attr-bench.sh: no /usr/bin/time (Debian package time)" >&2
	exit 2
}
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 1
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/attr-bench.XXXXXX") || exit 1
fi
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
db=$dir/bench.db
if [ "$reuse" = 1 ] && [ ! -f "$db" ]; then
	echo "attr-bench.sh: BENCH_REUSE=1 but no $db" >&2
	exit 2
fi

# Run "$@" $n times; print the medians of wall and CPU (user + system)
# seconds, "WALL CPU".
measure() {
	n=$1
	shift
	i=0
	: > "$dir/times"
	while [ $i -lt "$n" ]; do
		[ -n "${fresh:-}" ] && rm -f "$fresh" "$fresh-wal" "$fresh-shm"
		/usr/bin/time -f '%e %U %S' -o "$dir/t1" "$@" > "$dir/out" \
		    2> "$dir/err" || {
			echo "failed: $*" >&2
			cat "$dir/err" >&2
			exit 1
		}
		awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$dir/t1" \
		    >> "$dir/times"
		i=$((i + 1))
	done
	w=$(cut -d' ' -f1 "$dir/times" | sort -n |
	    awk -v n="$n" 'NR == int((n + 1) / 2)')
	c=$(cut -d' ' -f2 "$dir/times" | sort -n |
	    awk -v n="$n" 'NR == int((n + 1) / 2)')
	echo "$w $c"
}

if [ "$reuse" != 1 ]; then
	if [ $# -gt 0 ]; then
		trace=$1
	else
		sh "$srcdir/bench/gotrace-build.sh" "$dir" || exit
		echo "recording $secs s of $ngo goroutines ($(go version))"
		trace=$dir/long.trace
		"$dir/load/gotrace-load" "$trace" "$secs" "$ngo" || exit 1
	fi
	echo "trace: $(du -k "$trace" |
	    awk '{ printf "%.1f MB", $1 / 1024 }')"

	# The import, with and without the derived tables.
	fresh=$dir/nd.db
	imp_nd=$(TRACEKIT_NO_DERIVED=1 measure 1 trace-import -q \
	    -d "$fresh" "$trace")
	rm -f "$fresh" "$fresh-wal" "$fresh-shm"
	fresh=$db
	imp=$(measure 1 trace-import -q -d "$db" "$trace")
	fresh=
	set -- $(trace-query -d "$db" -F csv sql \
	    "SELECT ts_min, ts_max FROM source WHERE id = 1" | tail -n 1 |
	    tr , ' ')
	lo=$1 hi=$2

	# A SYNTHETIC nvidia-smi log over the trace's span: 100 ms samples
	# of 2 GPUs, each busy 4 s then idle 1 s (GPU 1 half a period
	# later), so that gpu-idle finds an episode every 5 s on each;
	# memory growing.  Put on the trace's clock with an offset (the
	# trace has no wall clock).
	start=1764590400	# 2025-12-01T12:00:00Z
	awk -v lo="$lo" -v hi="$hi" -v start="$start" 'BEGIN {
		print "timestamp, index, name, utilization.gpu [%], " \
		    "memory.used [MiB]"
		n = int((hi - lo) / 100000000) + 2
		for (i = 0; i < n; i++) {
			s = start + i / 10
			t = strftime("%Y/%m/%d %H:%M:%S", int(s), 1)
			ms = int((s - int(s)) * 1000 + 0.5)
			for (g = 0; g < 2; g++) {
				u = (i + g * 25) % 50 < 40 ? 90 + (i % 7) : 3
				printf "%s.%03d, %d, SYNTHETIC GPU, %d %%, " \
				    "%d MiB\n", t, ms, g, u, 20000 + i
			}
		}
	}' > "$dir/nvidia-smi.csv" || exit 1
	trace-import -q -d "$db" --tz UTC "$dir/nvidia-smi.csv" || exit 1
	off=$(( lo - start * 1000000000 ))
	trace-align -d "$db" --offset "2==${off}ns" > /dev/null || exit 1
fi
rows=$(trace-query -d "$db" -F csv sql \
    "SELECT sum(rows) FROM source WHERE format = 'gotrace'" | tail -n 1)
gpus=$(trace-query -d "$db" -F csv sql "SELECT count(*) FROM gpu_metric" |
    tail -n 1)
regions=$(trace-query -d "$db" -F csv sql "SELECT count(*) FROM track t
    CROSS JOIN slice s ON s.track_id = t.id WHERE t.kind = 'go-task'
    AND s.name_id = (SELECT id FROM str WHERE s = 'step')" | tail -n 1)

# The driver gpu-idle finds on GPU 0 and the kind of its wait: the peer
# SQL takes them as given (the user guessed them; finding them is part of
# what the query does and the peer does not).
trace-query -d "$db" -F csv gpu-idle > "$dir/gi.csv" 2> /dev/null || exit 1
set -- $(sed -n '/^gpu,driver_goid/{n;p;}' "$dir/gi.csv" | cut -d, -f2,5 |
    tr , ' ')
drv=${1:-1} wait=${2:-syscall}
neps=$(sed -n '/^episode,gpu,start_ns/,/^$/p' "$dir/gi.csv" | grep -c '^[0-9]')
case $wait in
syscall) wcond="(state = 'syscall' OR reason = 'syscall')" ;;
idle) wcond="reason IN ('other', 'forever', 'unknown')" ;;
*) wcond="reason = '$wait'" ;;
esac

# The peers: what a user wrote by hand before these queries existed.
# Idle episodes by window functions over gpu_metric (below 30%, at least
# 500 ms), the driver's states clipped to each with the run pre-filter.
EPS="WITH u AS (SELECT gpu, ts, value < 30 AS idle FROM gpu_metric
    WHERE metric = 'utilization.gpu'),
  g AS (SELECT gpu, ts, idle, sum(NOT idle) OVER (PARTITION BY gpu
    ORDER BY ts) AS grp FROM u),
  ep AS (SELECT gpu, min(ts) - 100000000 AS lo, max(ts) AS hi FROM g
    WHERE idle GROUP BY gpu, grp HAVING max(ts) - min(ts) + 100000000
    >= 500000000)"
P_GPU="$EPS SELECT ep.gpu, ep.lo, s.state, s.reason,
    sum(min(s.ts + s.dur, ep.hi) - max(s.ts, ep.lo)) AS ns
  FROM ep JOIN go_state s ON s.goid = $drv AND s.run_ts < ep.hi
   AND s.run_end_ts > ep.lo AND s.ts < ep.hi AND s.ts + s.dur > ep.lo
 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 5 DESC"
# stalls: the same, plus the process around it: every goroutine's states
# in each episode (runnable against GOMAXPROCS, syscalls, idle).
P_STALLS="$EPS SELECT ep.gpu, ep.lo, s.state, s.reason,
    count(DISTINCT s.goid), sum(min(s.ts + s.dur, ep.hi) -
    max(s.ts, ep.lo)) AS ns
  FROM ep JOIN go_state s ON s.run_ts < ep.hi AND s.run_end_ts > ep.lo
   AND s.ts < ep.hi AND s.ts + s.dur > ep.lo
 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 6 DESC"
# steps: the driver's waits of that kind, a step from the start of one to
# the start of the next, and the nearest-rank percentiles.
PCTL="o AS (SELECT d, row_number() OVER (ORDER BY d) AS k,
    count(*) OVER () AS n FROM st WHERE d IS NOT NULL)
SELECT max(n), min(CASE WHEN k >= 0.5 * n THEN d END),
    min(CASE WHEN k >= 0.9 * n THEN d END),
    min(CASE WHEN k >= 0.99 * n THEN d END), max(d) FROM o"
P_STEPS="WITH w AS (SELECT ts FROM go_state WHERE goid = $drv AND $wcond),
  st AS (SELECT lead(ts) OVER (ORDER BY ts) - ts AS d FROM w), $PCTL"
P_REGION="WITH st AS (SELECT s.dur AS d FROM track t CROSS JOIN slice s
    ON s.track_id = t.id WHERE t.kind = 'go-task'
   AND s.name_id = (SELECT id FROM str WHERE s = 'step')
   AND json_extract(s.args, '$.depth') IS NOT NULL), $PCTL"
# timeline: goroutine-ns per state in each 100 ms step (the store has one
# Go trace; "WHERE source_id = 1" would make SQLite's plan 300 times
# slower).
P_TL="SELECT ts / 100000000, state, reason, sum(dur) FROM go_state
 GROUP BY 1, 2, 3"

printf '\n%-34s %7s %6s %4s | %-24s %8s %8s | %7s %7s\n' query wall cpu \
    goal "peer (hand-written SQL)" wall cpu "x wall" "x cpu"
# a / b to 2 significant digits ("-" when b is 0).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
	    if (b > 0) printf "%.2g\n", a / b; else print "-" }'
}
q() {
	name=$1 peer=$2 psql=$3
	shift 3
	set -- $(measure "$runs" trace-query -d "$db" -F csv "$@")
	w=$1 c=$2
	ok=$(awk -v w="$w" -v c="$c" 'BEGIN {
	    print (w < 1 ? "ok" : c < 1 ? "cpu" : "SLOW") }')
	if [ -n "$psql" ] && [ "$peers" != 0 ]; then
		set -- $(measure "$pruns" trace-query -d "$db" -F csv sql \
		    "$psql")
		printf '%-34s %6ss %5ss %4s | %-24s %7ss %7ss | %6s %6s\n' \
		    "$name" "$w" "$c" "$ok" "$peer" "$1" "$2" \
		    "$(ratio "$1" "$w")" "$(ratio "$2" "$c")"
	else
		printf '%-34s %6ss %5ss %4s |\n' "$name" "$w" "$c" "$ok"
	fi
}
q "gpu-idle" "driver states per episode" "$P_GPU" gpu-idle
q "stalls" "all states per episode" "$P_STALLS" stalls
q "steps (from the GPU waits)" "driver waits, percentiles" "$P_STEPS" \
    steps
q "steps --region step" "region percentiles" "$P_REGION" \
    steps --region step
q "timeline (100 ms steps)" "go_state per 100 ms" "$P_TL" timeline
q "timeline --step 10ms" "" "" timeline --step 10ms
q "timeline --from 5s --to 6s --step 10ms" "" "" timeline --from 5s \
    --to 6s --step 10ms
for name in gc goroutines sched-latency contention; do
	if trace-query -l 2>/dev/null | awk '{ print $1 }' | grep -qx "$name"
	then
		q "$name" "" "" "$name"
	fi
done

if [ "$reuse" != 1 ]; then
	# Moving the Go source: its derived tables are computed again.
	i=0
	: > "$dir/al"
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		measure 1 trace-align -d "$db" --offset "1==+${i}ms" \
		    >> "$dir/al"
	done
	al=$(sort -n "$dir/al" | awk -v n="$runs" 'NR == int((n + 1) / 2)')
	printf '\n%-44s %14s\n' "" "wall cpu"
	printf '%-44s %14s\n' "import, with the derived tables" "$imp"
	printf '%-44s %14s\n' "import, without (TRACEKIT_NO_DERIVED=1)" \
	    "$imp_nd"
	printf '%-44s %14s\n' "trace-align moving the Go source" "$al"
fi
echo "($rows Go trace rows, $regions 'step' regions, $gpus GPU counters," \
    "$neps episodes on GPU 0, driver goroutine $drv ($wait);" \
    "medians of $runs runs, peers of $pruns)"
