#!/bin/sh
# bench/gotrace-import.sh [TRACE ...]
#
# Import time and peak RSS of trace-import on Go execution traces, side by
# side with `go tool trace -pprof=sched` on the same files (which must
# parse the whole trace too).  Without arguments, build
# bench/gotrace-load.go with the installed Go (1.19 is what Debian 12 has)
# and record two traces of the same busy program, one BENCH_SECS seconds
# long and one a quarter of that, so that memory can be compared across
# trace lengths.  Never part of make check.  See bench/README.
#
# Environment:
#   TR_BINDIR   directory of trace-import (default: ./src/tools when run
#               from a build tree, else PATH)
#   BENCH_RUNS  runs of each command; the median is shown (default 3)
#   BENCH_SECS  length of the long generated trace in seconds (default 20)
#   BENCH_G     goroutines of the generated program (default 1000)
#   BENCH_MANY  goroutines of a third trace, where each runs once and
#               ends (default 400000; 0: no such trace)
#   BENCH_BURST goroutines started every 5 ms for 4 s in a fourth trace,
#               each waiting 1 ms on a channel and ending, as a server's
#               handlers do (default 500; 0: no such trace)
#   BENCH_DIR   scratch directory (default: a new one under $TMPDIR;
#               removed at the end unless BENCH_KEEP=1)
#   BENCH_SUMMARY  file to which a line per trace and tool is appended:
#               "gotrace-NAME INPUT_MB TOOL WALL_S CPU_S PEAK_RSS_KB"
set -u

runs=${BENCH_RUNS:-3}
secs=${BENCH_SECS:-20}
ngo=${BENCH_G:-1000}
many=${BENCH_MANY:-400000}
burst=${BENCH_BURST:-500}
srcdir=$(cd "$(dirname "$0")/.." && pwd)

. "$(dirname "$0")/lib.sh"
bench_path trace-import
[ -x /usr/bin/time ] || {
	echo "gotrace-import.sh: needs /usr/bin/time (Debian package time)" >&2
	exit 2
}
bench_scratch

if [ $# -eq 0 ]; then
	sh "$srcdir/bench/gotrace-build.sh" "$dir" || exit
	short=$(awk -v s="$secs" 'BEGIN { print s / 4 }')
	echo "recording $short s and $secs s of $ngo goroutines ($(go version))"
	"$dir/load/gotrace-load" "$dir/short.trace" "$short" "$ngo" || exit 1
	"$dir/load/gotrace-load" "$dir/long.trace" "$secs" "$ngo" || exit 1
	set -- "$dir/short.trace" "$dir/long.trace"
	if [ "$many" -gt 0 ]; then
		echo "recording $many goroutines that each run once"
		"$dir/load/gotrace-load" "$dir/many.trace" 0 "$many" || exit 1
		set -- "$@" "$dir/many.trace"
	fi
	if [ "$burst" -gt 0 ]; then
		echo "recording 4 s of $burst goroutines every 5 ms that" \
		    "each wait 1 ms"
		"$dir/load/gotrace-load" "$dir/burst.trace" 4 "$burst" burst ||
		    exit 1
		set -- "$@" "$dir/burst.trace"
	fi
fi

# Run "$@" $runs times; print the median "wall user+sys maxrss_kB".
measure() {
	i=0
	: > "$dir/times"
	while [ $i -lt "$runs" ]; do
		rm -f "$dir/t.db" "$dir/t.db-wal" "$dir/t.db-shm"
		/usr/bin/time -f '%e %U %S %M' -o "$dir/one" "$@" \
		    >/dev/null 2>"$dir/err" || {
			echo "failed: $*" >&2
			cat "$dir/err" >&2
			exit 1
		}
		tail -n 1 "$dir/one" >> "$dir/times"
		i=$((i + 1))
	done
	sort -n "$dir/times" | awk -v n="$runs" 'NR == int((n + 1) / 2) {
	    printf "%.2f %.2f %d\n", $1, $2 + $3, $4 }'
}

printf '%-12s %8s %8s | %8s %8s %7s | %8s %8s %7s | %6s %6s\n' \
    trace MB rows import cpu RSS-MB go-sched cpu RSS-MB wall cpu
for f in "$@"; do
	mb=$(du -k "$f" | awk '{ printf "%.1f", $1 / 1024 }')
	set -- $(measure trace-import -q -d "$dir/t.db" "$f")
	iw=$1 ic=$2 ir=$3
	rows=$(trace-query -d "$dir/t.db" -F csv sql \
	    "SELECT rows FROM source" 2>/dev/null | tail -n 1)
	if command -v go >/dev/null; then
		set -- $(measure go tool trace -pprof=sched "$f")
		gw=$1 gc=$2 gr=$3
	else
		gw=- gc=- gr=0
	fi
	if [ -n "${BENCH_SUMMARY:-}" ]; then
		n=$(basename "$f" .trace)
		echo "gotrace-$n $mb trace-import $iw $ic $ir" \
		    >>"$BENCH_SUMMARY"
		[ "$gw" = - ] ||
		    echo "gotrace-$n $mb go-tool-trace $gw $gc $gr" \
		    >>"$BENCH_SUMMARY"
	fi
	awk -v n="$(basename "$f")" -v mb="$mb" -v rows="$rows" \
	    -v iw="$iw" -v ic="$ic" -v ir="$ir" -v gw="$gw" -v gc="$gc" \
	    -v gr="$gr" 'BEGIN {
		printf "%-12s %8s %8s | %8s %8s %7.1f | %8s %8s %7.1f | ",
		    n, mb, rows, iw, ic, ir / 1024, gw, gc, gr / 1024
		if (gw != "-" && iw > 0 && ic > 0)
			printf "%5.1fx %5.1fx\n", gw / iw, gc / ic
		else
			printf "%6s %6s\n", "-", "-"
	}'
done
echo "(seconds; cpu = user + sys; RSS = peak resident;" \
    "ratios: go / trace-import)"
