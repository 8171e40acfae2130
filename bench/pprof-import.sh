#!/bin/sh
# bench/pprof-import.sh
#
# Time trace-import on pprof profiles against `go tool pprof -raw` (which
# decodes, checks and prints the whole profile) on the same inputs, and
# trace-query top against `go tool pprof -top`; print medians and ratios.
# Inputs: google/pprof's large.cpu (tests/data/pprof/large.cpu.pb.gz,
# 1.2 MB gzipped, 20431 samples, 23355 locations) and a series of 100 heap
# profiles of one growing process, generated with tests/gen/pprof/main.go
# (needs Go; or give one in BENCH_SERIES).  Never part of make check.
#
# Environment:
#   TR_BINDIR     directory of trace-import and trace-query (default: PATH,
#                 or ./src/tools when run from a build tree)
#   BENCH_RUNS    runs of each command; the median is shown (default 3)
#   BENCH_SERIES  a directory of heap profiles to use instead of generating
#   BENCH_DIR     scratch directory (default: a new one under $TMPDIR;
#                 removed at the end unless BENCH_KEEP=1)
set -u

runs=${BENCH_RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(dirname "$here")

die() {
	echo "pprof-import.sh: $*" >&2
	exit 1
}

case $runs in
''|*[!0-9]*|0) die "BENCH_RUNS must be a positive number, got '$runs'" ;;
esac
if [ -n "${TR_BINDIR:-}" ]; then
	bindir=$TR_BINDIR
elif [ -x src/tools/trace-import ]; then
	bindir=$(pwd)/src/tools
else
	bindir=$(dirname "$(command -v trace-import || echo ./x)")
fi
[ -x "$bindir/trace-import" ] || die "no trace-import (set TR_BINDIR)"
[ -x /usr/bin/time ] || die "needs GNU time as /usr/bin/time (Debian: time)"
command -v go >/dev/null 2>&1 || die "needs Go for go tool pprof (Debian: golang-go)"

if [ -n "${BENCH_DIR:-}" ]; then
	work=$BENCH_DIR
	mkdir -p "$work" || exit 1
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/pprof-bench.XXXXXX") || exit 1
fi
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

large=$srcdir/tests/data/pprof/large.cpu.pb.gz
[ -r "$large" ] || die "no $large"
if [ -n "${BENCH_SERIES:-}" ]; then
	series=$BENCH_SERIES
else
	series=$work/series
	echo "generating 100 heap profiles with tests/gen/pprof/main.go..."
	(cd "$srcdir/tests/gen/pprof" &&
	    go build -trimpath -o "$work/pprofgen" main.go) ||
	    die "cannot build the generator"
	"$work/pprofgen" -series 100 -o "$series" || die "generator failed"
fi
nseries=$(ls "$series" | wc -l)

# measure NAME CMD...: run CMD BENCH_RUNS times (stdout discarded); keep
# "wall_seconds maxrss_kb cpu_seconds" per run in $work/NAME.runs.  A
# fresh store for every run.
measure() {
	name=$1
	shift
	: > "$work/$name.runs"
	i=0
	while [ $i -lt "$runs" ]; do
		rm -f "$work/t.db" "$work/t.db-wal" "$work/t.db-shm"
		[ "$name" = top ] && "$bindir/trace-import" -q -d "$work/t.db" \
		    "$large"
		if ! /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" "$@" \
		    > /dev/null 2> "$work/$name.err"; then
			echo "pprof-import.sh: $name failed:" >&2
			tail -n 5 "$work/$name.err" >&2
			return 1
		fi
		tail -n 1 "$work/time.out" |
		    awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' \
		    >> "$work/$name.runs"
		i=$((i + 1))
	done
}

median() {
	awk -v c="$1" '{ print $c }' "$work/$2.runs" | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# go tool pprof -raw on every file of the series, one process each.
raw_each() {
	for f in "$series"/*; do
		go tool pprof -raw -symbolize=none "$f" || return 1
	done
}

measure import_large "$bindir/trace-import" -q -d "$work/t.db" "$large" ||
    exit 1
measure raw_large go tool pprof -raw -symbolize=none "$large" || exit 1
measure import_series "$bindir/trace-import" -q -d "$work/t.db" "$series" ||
    exit 1
export series
measure raw_series sh -c "$(sed -n '/^raw_each()/,/^}/p' "$0"); raw_each" ||
    exit 1
measure raw_merged sh -c 'go tool pprof -raw -symbolize=none "$series"/*' ||
    exit 1
measure top "$bindir/trace-query" -d "$work/t.db" top || exit 1
measure pprof_top go tool pprof -top -symbolize=none "$large" || exit 1

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b;
	    else print "-" }'
}
row() {
	printf '%-44s %8s %8s %10s\n' "$@"
}
line() {
	row "$2" "$(median 1 "$1")" "$(median 3 "$1")" \
	    "$(awk -v k="$(median 2 "$1")" 'BEGIN { printf "%.0f MB", k / 1024 }')"
}

echo "runs: $runs (medians); tools: $bindir; $(go version)"
row "step" "wall s" "cpu s" "peak RSS"
line import_large "trace-import large.cpu.pb.gz"
line raw_large "go tool pprof -raw large.cpu.pb.gz"
line import_series "trace-import of $nseries heap profiles (a dir)"
line raw_series "go tool pprof -raw, each of $nseries"
line raw_merged "go tool pprof -raw, all $nseries merged"
line top "trace-query top (large.cpu)"
line pprof_top "go tool pprof -top (large.cpu)"
echo
echo "ratio go tool pprof / tracekit (above 1: tracekit is faster), wall and cpu:"
printf '  %-44s %7s %7s\n' \
    "import large.cpu vs -raw" \
    "$(ratio "$(median 1 raw_large)" "$(median 1 import_large)")" \
    "$(ratio "$(median 3 raw_large)" "$(median 3 import_large)")" \
    "import series vs -raw of each" \
    "$(ratio "$(median 1 raw_series)" "$(median 1 import_series)")" \
    "$(ratio "$(median 3 raw_series)" "$(median 3 import_series)")" \
    "import series vs -raw of all merged" \
    "$(ratio "$(median 1 raw_merged)" "$(median 1 import_series)")" \
    "$(ratio "$(median 3 raw_merged)" "$(median 3 import_series)")" \
    "top vs -top" \
    "$(ratio "$(median 1 pprof_top)" "$(median 1 top)")" \
    "$(ratio "$(median 3 pprof_top)" "$(median 3 top)")"
[ -n "${BENCH_KEEP:-}" ] && echo "files kept in $work"
exit 0
