#!/bin/sh
# bench/gpu-import.sh
#
# Generate the nvidia-smi log of a long capture -- by default 24 hours of
# 100 ms samples for 8 GPUs, as `nvidia-smi --query-gpu=timestamp,index,
# utilization.gpu,memory.used --format=csv -lms 100` prints it (about 7
# million rows) -- import it with trace-import, and print rows per second,
# counters per second and trace-import's peak RSS.  Never part of make
# check.  See bench/README.
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
#   BENCH_DIR    scratch directory (default: a new one under $TMPDIR;
#                removed at the end unless BENCH_KEEP=1)
set -u

hours=${BENCH_HOURS:-24}
gpus=${BENCH_GPUS:-8}
ms=${BENCH_MS:-100}
extra=${BENCH_FIELDS:-}

die() {
	echo "gpu-import.sh: $*" >&2
	exit 1
}

for v in "$hours" "$gpus" "$ms"; do
	case $v in
	''|*[!0-9]*|0) die "BENCH_HOURS, BENCH_GPUS and BENCH_MS must be \
positive numbers" ;;
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
mb=$(($(wc -c < "$csv") / 1048576))
echo "generated $rows rows ($mb MB) in $(($(date +%s) - start)) s: $csv"

rm -f "$db" "$db-wal" "$db-shm"
/usr/bin/time -f '%e %M %U %S' -o "$dir/time" "$bindir/trace-import" -q \
    -d "$db" --tz UTC "$csv" || die "trace-import failed"
read -r secs kb user sys < "$dir/time"
counters=$("$bindir/trace-query" -d "$db" sql \
    "SELECT count(*) FROM counter" 2>/dev/null | tail -n 1)
awk -v rows="$rows" -v counters="${counters:-0}" -v secs="$secs" \
    -v kb="$kb" -v mb="$mb" -v user="$user" -v sys="$sys" 'BEGIN {
	if (secs <= 0)
		secs = 0.01
	printf("trace-import: %.2f s (%.2f s user, %.2f s system), " \
	    "%d rows/s, %d counters/s, %.1f MB/s, peak RSS %.1f MB\n",
	    secs, user, sys, rows / secs, counters / secs, mb / secs,
	    kb / 1024)
}'
echo "store: $(($(wc -c < "$db") / 1048576)) MB, $counters counters"
