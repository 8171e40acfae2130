#!/bin/sh
# bench/gpu-import.sh
#
# Generate the nvidia-smi log of a long capture -- by default 24 hours of
# 100 ms samples for 8 GPUs, as `nvidia-smi --query-gpu=timestamp,index,
# utilization.gpu,memory.used --format=csv -lms 100` prints it (about 7
# million rows) -- import it with trace-import, and print rows per second,
# counters per second and trace-import's peak RSS, beside the peer: the
# sqlite3 shell's `.import` of the same CSV into a table of a new
# database (text as it stands: no times parsed, no units, one row per
# line).  Never part of make check.  See bench/README.
#
# Environment:
#   TR_BINDIR    directory of trace-import (default: ./src/tools when run
#                from a build tree, else PATH)
#   BENCH_HOURS  hours of capture (default 24)
#   BENCH_GPUS   GPUs (default 8)
#   BENCH_MS     sampling interval in milliseconds (default 100)
#   BENCH_FIELDS extra metric fields after utilization.gpu and memory.used,
#                comma-separated nvidia-smi names (default none), e.g.
#                power.draw,temperature.gpu
#   BENCH_RUNS   runs of each command; the median is shown (default 3)
#   BENCH_DIR    scratch directory (default: a new one under $TMPDIR;
#                removed at the end unless BENCH_KEEP=1)
#   BENCH_SUMMARY  file to which a line per tool is appended:
#                "gpu INPUT_MB TOOL WALL_S CPU_S PEAK_RSS_KB"
set -u

hours=${BENCH_HOURS:-24}
gpus=${BENCH_GPUS:-8}
ms=${BENCH_MS:-100}
extra=${BENCH_FIELDS:-}
runs=${BENCH_RUNS:-3}

die() {
	echo "gpu-import.sh: $*" >&2
	exit 1
}

for v in "$hours" "$gpus" "$ms" "$runs"; do
	case $v in
	''|*[!0-9]*|0) die "BENCH_HOURS, BENCH_GPUS, BENCH_MS and BENCH_RUNS \
must be positive numbers" ;;
	esac
done

if [ -n "${TR_BINDIR:-}" ]; then
	bindir=$TR_BINDIR
elif [ -x src/tools/trace-import ]; then
	bindir=$(pwd)/src/tools
else
	bindir=$(dirname "$(command -v trace-import || echo .)")
fi
[ -x "$bindir/trace-import" ] ||
	die "no trace-import in '$bindir'; set TR_BINDIR"
[ -x /usr/bin/time ] || die "needs /usr/bin/time (Debian package 'time')"

if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 1
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/gpu-bench.XXXXXX") || exit 1
fi
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
csv=$dir/smi.csv
db=$dir/trace.db

# The CSV: one row per GPU per sample, timestamps from 2024/05/01 00:00,
# values that move so that nothing compresses into constants.
header="timestamp, index, utilization.gpu [%], memory.used [MiB]"
nextra=0
if [ -n "$extra" ]; then
	header="$header, $(echo "$extra" | sed 's/,/, /g')"
	nextra=$(echo "$extra" | awk -F, '{ print NF }')
fi
start=$(date +%s)
awk -v hours="$hours" -v gpus="$gpus" -v ms="$ms" -v nextra="$nextra" \
    -v header="$header" 'BEGIN {
	print header
	n = int(hours * 3600 * 1000 / ms)
	for (i = 0; i < n; i++) {
		t = i * ms
		msec = t % 1000
		s = int(t / 1000)
		day = 1 + int(s / 86400)
		s %= 86400
		stamp = sprintf("2024/05/%02d %02d:%02d:%02d.%03d", day,
		    int(s / 3600), int(s / 60) % 60, s % 60, msec)
		for (g = 0; g < gpus; g++) {
			line = sprintf("%s, %d, %d %%, %d MiB", stamp, g,
			    (i * 7 + g * 13) % 101, 30000 + (i + g) % 5000)
			for (e = 0; e < nextra; e++)
				line = line sprintf(", %d", (i + e) % 300)
			print line
		}
	}
}' > "$csv" || die "cannot write $csv"
rows=$(($(wc -l < "$csv") - 1))
mb=$(awk -v b="$(wc -c < "$csv")" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "generated $rows rows ($mb MB) in $(($(date +%s) - start)) s: $csv"

peer=$dir/peer.db
# measure NAME CMD...: run CMD $runs times into fresh stores; keep "wall
# cpu peak_rss_kb" per run in $dir/NAME.runs.
measure() {
	name=$1
	shift
	: > "$dir/$name.runs"
	i=0
	while [ $i -lt "$runs" ]; do
		rm -f "$db" "$db-wal" "$db-shm" "$peer" "$peer-journal"
		/usr/bin/time -f '%e %M %U %S' -o "$dir/time" "$@" \
		    >/dev/null 2>"$dir/err" || {
			cat "$dir/err" >&2
			die "$name failed"
		}
		tail -n 1 "$dir/time" |
		    awk '{ printf "%s %.2f %s\n", $1, $3 + $4, $2 }' \
		    >> "$dir/$name.runs"
		i=$((i + 1))
	done
}
# median COLUMN NAME (1 wall s, 2 cpu s, 3 peak RSS kB)
median() {
	awk -v c="$1" '{ print $c }' "$dir/$2.runs" | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

measure import "$bindir/trace-import" -q -d "$db" --tz UTC "$csv"
counters=$("$bindir/trace-query" -d "$db" sql \
    "SELECT count(*) FROM counter" 2>/dev/null | tail -n 1)
store_mb=$(($(wc -c < "$db") / 1048576))
peer_ok=0
if command -v sqlite3 >/dev/null; then
	measure sqlite3 sqlite3 -batch "$peer" ".mode csv" ".import $csv gpu" &&
	    peer_ok=1
fi
echo "runs: $runs (medians; cpu = user + system)"
awk -v rows="$rows" -v counters="${counters:-0}" -v secs="$(median 1 import)" \
    -v cpu="$(median 2 import)" -v kb="$(median 3 import)" -v mb="$mb" 'BEGIN {
	if (secs <= 0)
		secs = 0.01
	printf("trace-import: %.2f s wall, %.2f s cpu, " \
	    "%d rows/s, %d counters/s, %.1f MB/s, peak RSS %.1f MB\n",
	    secs, cpu, rows / secs, counters / secs, mb / secs, kb / 1024)
}'
echo "store: $store_mb MB, $counters counters"
if [ $peer_ok = 1 ]; then
	awk -v w="$(median 1 sqlite3)" -v c="$(median 2 sqlite3)" \
	    -v kb="$(median 3 sqlite3)" -v iw="$(median 1 import)" \
	    -v ic="$(median 2 import)" -v rows="$rows" 'BEGIN {
		printf("sqlite3 .import: %.2f s wall, %.2f s cpu, " \
		    "%d rows/s, peak RSS %.1f MB\n", w, c,
		    w > 0 ? rows / w : 0, kb / 1024)
		printf("ratio sqlite3 .import / trace-import: %.2fx wall, " \
		    "%.2fx cpu (goal: 1 or more)\n", iw > 0 ? w / iw : 0,
		    ic > 0 ? c / ic : 0)
	}'
else
	echo "(no sqlite3 shell: no peer)"
fi
if [ -n "${BENCH_SUMMARY:-}" ]; then
	echo "gpu $mb trace-import $(median 1 import) $(median 2 import)" \
	    "$(median 3 import)" >> "$BENCH_SUMMARY"
	[ $peer_ok = 1 ] && echo "gpu $mb sqlite3-.import" \
	    "$(median 1 sqlite3) $(median 2 sqlite3) $(median 3 sqlite3)" \
	    >> "$BENCH_SUMMARY"
fi
exit 0
