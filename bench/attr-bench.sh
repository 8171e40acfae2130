#!/bin/sh
# bench/attr-bench.sh [TRACE]
#
# The attribution queries of issues 13 and 14 (timeline, gpu-idle, stalls,
# steps; gc, goroutines, sched-latency, contention:
# those trace-query lists) on the long bench store: a Go trace of 17M
# states (bench/gotrace-import.sh's long trace) with GPU telemetry
# covering it, a SYNTHETIC nvidia-smi CSV made here to span the trace.
# Prints the median of BENCH_RUNS wall times of each query against the
# 1 s goal, the import time with and without the derived tables
# (TRACEKIT_NO_DERIVED=1), and what moving the Go source with
# trace-align costs (its derived tables are computed again).  Never part
# of make check.  See bench/README.
#
# Environment:
#   TR_BINDIR   directory of the tools (default: ./src/tools when run from
#               a build tree, else PATH)
#   BENCH_RUNS  runs of each command; the median is shown (default 3)
#   BENCH_SECS  length of the recorded trace in seconds (default 20)
#   BENCH_G     goroutines of the recorded program (default 1000)
#   BENCH_RAW   1: also time the same totals from the go_state view
#   BENCH_DIR   scratch directory (default: a new one under $TMPDIR;
#               removed at the end unless BENCH_KEEP=1)
set -u

runs=${BENCH_RUNS:-3}
secs=${BENCH_SECS:-20}
ngo=${BENCH_G:-1000}
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
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 1
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/attr-bench.XXXXXX") || exit 1
fi
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT

if [ $# -gt 0 ]; then
	trace=$1
else
	command -v go >/dev/null || {
		echo "attr-bench.sh: no go to make a trace with" >&2
		exit 2
	}
	mkdir -p "$dir/load" && cp "$srcdir/bench/gotrace-load.go" \
	    "$dir/load/main.go" || exit 1
	printf 'module gotraceload\n\ngo 1.19\n' > "$dir/load/go.mod"
	(cd "$dir/load" && GOFLAGS=-trimpath GOCACHE="$dir/gocache" \
	    go build -o gotrace-load .) || exit 1
	echo "recording $secs s of $ngo goroutines ($(go version))"
	trace=$dir/long.trace
	"$dir/load/gotrace-load" "$trace" "$secs" "$ngo" || exit 1
fi

now() { date +%s%N; }

# Run "$@" $runs times; print the median wall seconds (3 decimals).
median() {
	i=0
	: > "$dir/times"
	while [ $i -lt "$runs" ]; do
		[ -n "${fresh:-}" ] && rm -f "$fresh" "$fresh-wal" "$fresh-shm"
		t0=$(now)
		"$@" > "$dir/out" 2> "$dir/err" || {
			echo "failed: $*" >&2
			cat "$dir/err" >&2
			exit 1
		}
		t1=$(now)
		echo $(( (t1 - t0) / 1000000 )) >> "$dir/times"
		i=$((i + 1))
	done
	sort -n "$dir/times" | awk -v n="$runs" 'NR == int((n + 1) / 2) {
	    printf "%.3f\n", $1 / 1000 }'
}

db=$dir/bench.db
echo "trace: $(du -k "$trace" | awk '{ printf "%.1f MB", $1 / 1024 }')"

# The import, with and without the derived tables.
fresh=$dir/nd.db
imp_nd=$(TRACEKIT_NO_DERIVED=1 median trace-import -q -d "$fresh" "$trace")
fresh=$db
imp=$(median trace-import -q -d "$db" "$trace")
fresh=
rows=$(trace-query -d "$db" -F csv sql "SELECT rows FROM source" | tail -n 1)
set -- $(trace-query -d "$db" -F csv sql \
    "SELECT ts_min, ts_max FROM source WHERE id = 1" | tail -n 1 | tr , ' ')
lo=$1 hi=$2

# A SYNTHETIC nvidia-smi log over the trace's span: 100 ms samples of 2
# GPUs, busy 800 ms then idle 200 ms, memory growing; put on the trace's
# clock with an offset (the trace has no wall clock).
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
			u = (i + g * 3) % 10 < 8 ? 90 + (i % 7) : 3
			printf "%s.%03d, %d, SYNTHETIC GPU, %d %%, %d MiB\n",
			    t, ms, g, u, 20000 + i
		}
	}
}' > "$dir/nvidia-smi.csv" || exit 1
trace-import -q -d "$db" --tz UTC "$dir/nvidia-smi.csv" || exit 1
off=$(( lo - start * 1000000000 ))
trace-align -d "$db" --offset "2==${off}ns" > /dev/null || exit 1
gpus=$(trace-query -d "$db" -F csv sql "SELECT count(*) FROM gpu_metric" |
    tail -n 1)

printf '\n%-44s %9s %6s\n' query median goal
q() {
	name=$1
	shift
	m=$(median trace-query -d "$db" -F csv "$@")
	printf '%-44s %8ss %6s\n' "$name" "$m" \
	    "$(awk -v m="$m" 'BEGIN { print m < 1 ? "ok" : "SLOW" }')"
}
q "timeline" timeline
q "timeline --step 10ms" timeline --step 10ms
q "timeline --from 5s --to 6s --step 10ms" timeline --from 5s --to 6s \
    --step 10ms
for name in gpu-idle stalls steps gc goroutines sched-latency contention; do
	if trace-query -l 2>/dev/null | awk '{ print $1 }' | grep -qx "$name"
	then
		q "$name" "$name"
	else
		printf '%-44s %9s %6s\n' "$name" "-" "(not in this build)"
	fi
done
if [ "${BENCH_RAW:-0}" = 1 ]; then
	q "go_state GROUP BY state (raw)" sql \
	    "SELECT state, count(*), sum(dur) FROM go_state GROUP BY 1"
	q "go_bin totals (derived)" sql "SELECT sum(running_ns), \
	    sum(runnable_ns), sum(chan_ns + sync_ns + syscall_ns + net_ns + \
	    sleep_ns + other_ns) FROM go_bin"
fi

# Moving the Go source: its derived tables are computed again.
i=0
: > "$dir/times"
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	t0=$(now)
	trace-align -d "$db" --offset "1==+${i}ms" > /dev/null || exit 1
	t1=$(now)
	echo $(( (t1 - t0) / 1000000 )) >> "$dir/times"
done
al=$(sort -n "$dir/times" | awk -v n="$runs" 'NR == int((n + 1) / 2) {
    printf "%.3f\n", $1 / 1000 }')

printf '\n%-44s %8ss\n' "import, with the derived tables" "$imp"
printf '%-44s %8ss\n' "import, without (TRACEKIT_NO_DERIVED=1)" "$imp_nd"
printf '%-44s %8ss\n' "trace-align moving the Go source" "$al"
echo "($rows rows, $gpus GPU counters; medians of $runs wall times)"
