#!/bin/sh
# bench/gpu-mem-bench.sh
#
# trace-query gpu-mem (issue 15) on a day of per-process GPU memory: a
# SYNTHETIC nvidia-smi --query-compute-apps CSV made here, 8 processes on
# 2 GPUs sampled every 500 ms for BENCH_HOURS hours (default 24: 1382400
# rows), one of them leaking.  Prints the import time, the median of
# BENCH_RUNS wall times of gpu-mem against the 1 s goal, and the median of
# the plain-SQL way over the same rows (one sqlite3 statement: the
# least-squares slope and r2 of each process's memory.used from the
# gpu_process view) with the ratio, and checks that both give the same
# slopes.  Never part of make check.  See bench/README.
#
# Environment:
#   TR_BINDIR    directory of the tools (default: ./src/tools when run
#                from a build tree, else PATH)
#   BENCH_RUNS   runs of each command; the median is shown (default 5)
#   BENCH_HOURS  hours of samples (default 24)
#   BENCH_DIR    scratch directory (default: a new one under $TMPDIR;
#                removed at the end unless BENCH_KEEP=1)
set -u

runs=${BENCH_RUNS:-5}
hours=${BENCH_HOURS:-24}

. "$(dirname "$0")/lib.sh"
bench_path trace-import trace-query sqlite3
bench_scratch

now() { date +%s%N; }

# Run "$@" $runs times; print the median wall seconds (3 decimals) and,
# with /usr/bin/time, the median CPU seconds (user + system): on a busy
# machine the steadier figure.
median() {
	i=0
	: > "$dir/times"
	: > "$dir/cpu"
	while [ $i -lt "$runs" ]; do
		t0=$(now)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -o "$dir/cpu1" -f "%U %S" "$@" \
			    > "$dir/out" 2> "$dir/err"
		else
			"$@" > "$dir/out" 2> "$dir/err"
		fi || {
			echo "failed: $*" >&2
			cat "$dir/err" >&2
			exit 1
		}
		t1=$(now)
		echo $(( (t1 - t0) / 1000000 )) >> "$dir/times"
		[ -f "$dir/cpu1" ] && awk '{ print $1 + $2 }' "$dir/cpu1" \
		    >> "$dir/cpu"
		i=$((i + 1))
	done
	w=$(sort -n "$dir/times" | awk -v n="$runs" \
	    'NR == int((n + 1) / 2) { printf "%.3f", $1 / 1000 }')
	c=$(sort -n "$dir/cpu" | awk -v n="$runs" \
	    'NR == int((n + 1) / 2) { printf "%.3f", $1 }')
	echo "$w ${c:--}"
}

# 8 processes, 4 per GPU: pid 2003 leaks 1 MiB every 10 s, the others
# wander by a few MiB (a Park-Miller generator, so every run is the same).
csv="$dir/apps.csv"
awk -v n=$((hours * 7200)) 'BEGIN {
	x = 7
	print "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]"
	for (i = 0; i < n; i++) {
		t = i * 0.5
		ts = sprintf("2026/12/01 %02d:%02d:%06.3f", int(t / 3600) % 24,
		    int(t / 60) % 60, t - 60 * int(t / 60))
		if (t >= 86400)
			ts = sprintf("2026/12/%02d %s", 1 + int(t / 86400),
			    substr(ts, 12))
		for (p = 0; p < 8; p++) {
			x = (x * 16807) % 2147483647
			v = 1000 + 500 * p + x % 5
			if (p == 3)
				v += int(t / 10)
			printf "%s, GPU-00000000-0000-4000-8000-" \
			    "00000000000%d, %d, worker%d, %d MiB\n", ts,
			    p % 2, 2000 + p, p, v
		}
	}
}' > "$csv" || exit 1
rows=$(($(wc -l < "$csv") - 1))

db="$dir/bench.db"
t0=$(now)
trace-import -q -d "$db" --tz UTC "$csv" || exit 1
t1=$(now)
imp=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f", d / 1e9 }')

set -- $(median trace-query -d "$db" -F csv gpu-mem)
gm=$1 gmc=$2
cp "$dir/out" "$dir/gpu-mem.csv"
sql="SELECT pid, (n * sxy - sx * sy) / (n * sxx - sx * sx) AS slope,
    (n * sxy - sx * sy) * (n * sxy - sx * sy) /
    ((n * sxx - sx * sx) * (n * syy - sy * sy)) AS r2
    FROM (SELECT pid, count(*) AS n, sum(x) AS sx, sum(y) AS sy,
    sum(x * x) AS sxx, sum(x * y) AS sxy, sum(y * y) AS syy
    FROM (SELECT pid, (ts - (SELECT min(ts) FROM gpu_process)) / 60e9 AS x,
    value * 1.0 AS y FROM gpu_process WHERE metric = 'memory.used')
    GROUP BY pid) ORDER BY pid"
set -- $(median sqlite3 -csv "$db" "$sql")
sq=$1 sqc=$2
cp "$dir/out" "$dir/sql.csv"

echo "gpu-mem on $rows per-process samples ($hours h at 500 ms, 8 processes)"
printf '%-36s %9s %9s\n' "" "wall" "cpu"
printf '%-36s %9s\n' "trace-import" "${imp}s"
printf '%-36s %9s %9s   goal 1s\n' "trace-query gpu-mem (median)" "${gm}s" \
    "${gmc}s"
printf '%-36s %9s %9s\n' "sqlite3 least squares (median)" "${sq}s" \
    "${sqc}s"
awk -v a="$gm" -v b="$sq" -v c="$gmc" -v d="$sqc" 'BEGIN {
    printf "%-36s %9.2f", "ratio gpu-mem / sqlite3", a / b
    if (d + 0 > 0) printf " %9.2f", c / d
    printf "\n" }'
# The same slopes (within 1e-6: the two sum in different orders).
awk -F, 'NR == FNR { s[$1] = $2; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    /^$/ { exit }
    $(c["pid"]) != "" {
	p = $(c["pid"]); d = $(c["slope_bytes_per_min"]) - s[p]
	if (d < 0) d = -d
	if (d > 1e-6 * (s[p] < 0 ? -s[p] : s[p]) + 1) bad++
	n++ }
    END { printf "slopes compared: %d, differing: %d\n", n, bad + 0 }' \
    "$dir/sql.csv" "$dir/gpu-mem.csv"
