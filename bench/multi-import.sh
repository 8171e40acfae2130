#!/bin/sh
# bench/multi-import.sh INPUT INPUT...
#
# What parsing several inputs of one invocation concurrently could give
# on this machine, measured before it is built (issue 17: "where that
# helps").  For the same inputs, the medians of BENCH_RUNS runs of:
#
#   one run       trace-import -d NEW.db INPUT...: what a user runs, its
#                 inputs one after the other into one new store
#   each alone    one trace-import per input, each into a new store of
#                 its own, one after the other (the sum)
#   all at once   the same processes started together: no lock, no
#                 shared store, nothing serial between them -- more than
#                 any concurrency inside one trace-import can give,
#                 since its inputs share one store and one write lock
#
# and the ratios.  "one run / each alone" is what sharing one store
# costs (the WAL, when only the first input of a run was written whole
# into a new store; now about 1); "each alone / all at once" bounds what
# parsing the inputs concurrently could save.  Wall and CPU (user + sys) seconds, peak RSS of
# the largest process.  Never part of make check.  See bench/README.
#
# Environment:
#   TR_BINDIR   directory of trace-import (default: ./src/tools when run
#               from a build tree, else PATH)
#   BENCH_RUNS  runs of each (default 3)
#   BENCH_DIR   scratch directory (default: a new one under $TMPDIR;
#               removed at the end unless BENCH_KEEP=1)
set -u

runs=${BENCH_RUNS:-3}
[ $# -ge 2 ] || {
	echo "usage: multi-import.sh INPUT INPUT..." >&2
	exit 2
}
. "$(dirname "$0")/lib.sh"
bench_path trace-import
[ -x /usr/bin/time ] || {
	echo "multi-import.sh: needs /usr/bin/time (Debian package time)" >&2
	exit 2
}
for f in "$@"; do
	[ -f "$f" ] || {
		echo "multi-import.sh: '$f' is not a file" >&2
		exit 2
	}
done
bench_scratch

clean() {
	rm -f "$dir"/s*.db "$dir"/s*.db-wal "$dir"/s*.db-shm
}

# One timed trace-import: appends "wall cpu rss_kB" to file $1.
timed() {
	out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$out.one" trace-import -q "$@" \
	    >/dev/null 2>"$out.err" || {
		echo "multi-import.sh: failed: trace-import $*" >&2
		cat "$out.err" >&2
		exit 1
	}
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$out.one" >> "$out"
}

# The sums (wall, cpu) and the largest RSS of the lines of file $1.
sums() {
	awk '{ w += $1; c += $2; if ($3 > r) r = $3 }
	    END { printf "%.2f %.2f %d\n", w, c, r }' "$1"
}

: > "$dir/one-run"
: > "$dir/alone"
: > "$dir/at-once"
i=0
while [ $i -lt "$runs" ]; do
	# one run
	clean
	: > "$dir/t"
	timed "$dir/t" -d "$dir/s.db" "$@"
	cat "$dir/t" >> "$dir/one-run"

	# each alone, one after the other
	clean
	: > "$dir/t"
	k=0
	for f in "$@"; do
		timed "$dir/t" -d "$dir/s$k.db" "$f"
		k=$((k + 1))
	done
	sums "$dir/t" >> "$dir/alone"

	# all at once: wall from the start of the first to the end of the
	# last, cpu summed
	clean
	k=0
	start=$(date +%s.%N)
	for f in "$@"; do
		: > "$dir/p$k"
		timed "$dir/p$k" -d "$dir/s$k.db" "$f" &
		k=$((k + 1))
	done
	wait
	end=$(date +%s.%N)
	cat "$dir"/p[0-9]* > "$dir/t"
	set -- "$@"
	awk -v s="$start" -v e="$end" '{ c += $2; if ($3 > r) r = $3 }
	    END { printf "%.2f %.2f %d\n", e - s, c, r }' "$dir/t" \
	    >> "$dir/at-once"
	rm -f "$dir"/p[0-9]*
	i=$((i + 1))
done

# The median line of a file by its first field (wall); and by cpu.
median() {
	sort -n -k"$2" "$1" | awk -v n="$runs" -v k="$2" \
	    'NR == int((n + 1) / 2) { print $k }'
}

mb=$(du -ck "$@" | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }')
echo "$# inputs, $mb MB: $*"
printf '%-12s %8s %8s %8s\n' "" wall cpu RSS-MB
for m in one-run alone at-once; do
	printf '%-12s %8s %8s %8.1f\n' "$m" "$(median "$dir/$m" 1)" \
	    "$(median "$dir/$m" 2)" \
	    "$(median "$dir/$m" 3 | awk '{ print $1 / 1024 }')"
done
ow=$(median "$dir/one-run" 1)
oc=$(median "$dir/one-run" 2)
aw=$(median "$dir/alone" 1)
ac=$(median "$dir/alone" 2)
pw=$(median "$dir/at-once" 1)
awk -v ow="$ow" -v oc="$oc" -v aw="$aw" -v ac="$ac" -v pw="$pw" 'BEGIN {
	printf "one run / each alone: %.2fx wall, %.2fx cpu" \
	    " (what sharing one store costs)\n", ow / aw, oc / ac
	printf "each alone / all at once: %.2fx wall" \
	    " (the most concurrent parsing could save)\n", aw / pw
}'
echo "(medians of $runs; seconds; cpu = user + sys)"
