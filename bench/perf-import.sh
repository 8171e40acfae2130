#!/bin/sh
# bench/perf-import.sh [PERF_SCRIPT_OUTPUT]
#
# Time trace-import and trace-flame on a large real `perf script` output and,
# when FlameGraph's scripts are at $FLAMEGRAPH_DIR, stackcollapse-perf.pl and
# flamegraph.pl on the same input; print medians and ratios.  Without an
# argument, record a compile of tracekit itself with `perf record -g` (or
# of Go's gofmt and its packages with BENCH_WORKLOAD=go: deep stacks, a
# kilobyte of text a sample; or, when perf cannot record, repeat the perf
# fixtures of tests/data) until the text reaches $BENCH_MB megabytes.
# Never part of make check.  See bench/README.
#
# Environment:
#   TR_BINDIR       directory of trace-import and trace-flame (default: PATH,
#                   or ./src/tools when run from a build tree)
#   FLAMEGRAPH_DIR  directory of stackcollapse-perf.pl and flamegraph.pl
#   BENCH_RUNS      runs of each command; the median is shown (default 3)
#   BENCH_MB        size of the generated input in MB (default 300)
#   BENCH_FREQ      perf record frequency in Hz (default 4999)
#   BENCH_WORKLOAD  what is recorded: tracekit (default: a build of it with
#                   gcc, whose stacks are short: no frame pointers) or go
#                   (`go build -a cmd/gofmt`: the Go compiler keeps frame
#                   pointers, so the stacks are deep, as in issue 17's
#                   374 MB recording of a compile)
#   BENCH_DIR       scratch directory (default: a new one under $TMPDIR;
#                   removed at the end unless BENCH_KEEP=1)
#   BENCH_SUMMARY   file to which a line per command is appended:
#                   "STEP INPUT_MB TOOL WALL_S CPU_S PEAK_RSS_KB"
#                   (bench/compare.sh reads them)
set -u

# One round of the recorded workload (the script runs itself for it):
# configure and build tracekit out of tree in $BENCH_DIR/build, or clean
# and rebuild it there.  Only the CPU work matters, not whether it builds.
if [ "${1:-}" = --workload-round ]; then
	if [ "${BENCH_WORKLOAD:-tracekit}" = go ]; then
		# -a: every package compiled again, in a cache of our own.
		mkdir -p "${BENCH_DIR:?}/gocache" || exit 1
		GOCACHE=$BENCH_DIR/gocache GOFLAGS= go build -a -o /dev/null \
		    cmd/gofmt >/dev/null 2>&1
		exit 0
	fi
	srcdir=$(cd "$(dirname "$0")/.." && pwd)
	mkdir -p "${BENCH_DIR:?}/build" && cd "$BENCH_DIR/build" || exit 1
	if [ -f Makefile ]; then
		make -s clean >/dev/null 2>&1
	else
		"$srcdir/configure" -q >/dev/null 2>&1
	fi
	make -k -s -j2 >/dev/null 2>&1
	exit 0
fi

runs=${BENCH_RUNS:-3}
target_mb=${BENCH_MB:-300}
freq=${BENCH_FREQ:-4999}
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(dirname "$here")

die() {
	echo "perf-import.sh: $*" >&2
	exit 1
}

case $runs in
''|*[!0-9]*|0) die "BENCH_RUNS must be a positive number, got '$runs'" ;;
esac
case $target_mb in
''|*[!0-9]*|0) die "BENCH_MB must be a positive number, got '$target_mb'" ;;
esac
workload=${BENCH_WORKLOAD:-tracekit}
case $workload in
tracekit) ;;
go) command -v go >/dev/null 2>&1 ||
	die "BENCH_WORKLOAD=go needs go on PATH (Debian: golang-go)" ;;
*) die "BENCH_WORKLOAD must be tracekit or go, got '$workload'" ;;
esac

# The tools: $TR_BINDIR, else a build tree we stand in, else PATH.
if [ -n "${TR_BINDIR:-}" ]; then
	bindir=$TR_BINDIR
elif [ -x src/tools/trace-import ]; then
	bindir=$(pwd)/src/tools
else
	bindir=$(dirname "$(command -v trace-import 2>/dev/null || echo .)")
fi
for t in trace-import trace-flame; do
	[ -x "$bindir/$t" ] || die "no $t in '$bindir'; set TR_BINDIR or PATH"
done
[ -x /usr/bin/time ] || die "needs GNU time as /usr/bin/time (Debian: time)"

if [ -n "${BENCH_DIR:-}" ]; then
	work=$BENCH_DIR
	mkdir -p "$work" || exit 1
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/tr-bench.XXXXXX") || exit 1
	[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
fi
trap 'exit 130' INT TERM

mb() {
	# bytes of file $1 in MB, one decimal
	awk -v b="$(wc -c < "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'
}

# ---- the input -------------------------------------------------------------

# record N: record N rounds of the workload into $work/perf.txt
record() {
	(
		cd "$work" &&
		    perf record -q -F "$freq" -g -o "$work/perf.data" -- \
		    sh -c 'i=0; while [ $i -lt "$1" ]; do
			sh "$2" --workload-round || exit 1; i=$((i + 1)); done' \
		    sh "$1" "$here/perf-import.sh" >/dev/null 2>&1
	) || return 1
	perf script -i "$work/perf.data" > "$work/perf.txt" 2>/dev/null
	rc=$?
	rm -f "$work/perf.data"
	return $rc
}

if [ $# -gt 0 ]; then
	[ -r "$1" ] || die "cannot read '$1'"
	input=$1
	case $input in
	*.gz) gzip -dc "$input" > "$work/perf.txt" || exit 1
	      input=$work/perf.txt ;;
	*.zst) zstd -qdc "$input" > "$work/perf.txt" || exit 1
	       input=$work/perf.txt ;;
	esac
	how="given"
else
	input=$work/perf.txt
	export BENCH_DIR="$work"
	if command -v perf >/dev/null 2>&1 &&
	    perf record -q -F "$freq" -g -o "$work/probe.data" -- true \
	    >/dev/null 2>&1 && [ -x "$srcdir/configure" ]; then
		rm -f "$work/probe.data"
		what="tracekit"
		[ "$workload" = go ] && what="gofmt (go build -a)"
		echo "recording one build of $what to size the input..." >&2
		record 1 || die "perf record or perf script failed"
		per=$(wc -c < "$input")
		[ "$per" -gt 0 ] || die "perf script printed nothing"
		rounds=$(( (target_mb * 1048576 + per - 1) / per ))
		if [ "$rounds" -gt 1 ]; then
			echo "recording $rounds builds ($(mb "$input") MB" \
			    "each)..." >&2
			record "$rounds" || die "perf record or perf script failed"
		fi
		how="perf record -F $freq -g of $rounds build(s) of $what"
	else
		rm -f "$work/probe.data"
		echo "perf cannot record here: repeating the perf fixtures" >&2
		find "$srcdir/tests/data/perf" -type f -name '*.txt' \
		    ! -name 'bad-*' \
		    2>/dev/null | LC_ALL=C sort > "$work/fixtures"
		[ -s "$work/fixtures" ] ||
		    die "no perf fixtures under tests/data/perf"
		: > "$input"
		while [ "$(wc -c < "$input")" -lt $((target_mb * 1048576)) ]; do
			while IFS= read -r f; do
				cat "$f"
			done < "$work/fixtures" >> "$input"
		done
		how="the perf fixtures of tests/data/perf, repeated"
	fi
	unset BENCH_DIR
fi

# ---- measuring -------------------------------------------------------------

# measure NAME OUT CMD...: run CMD BENCH_RUNS times with stdout to OUT; keep
# "wall_seconds maxrss_kb cpu_seconds" per run in $work/NAME.runs.  The
# wall time is date's, to the millisecond (GNU time's is to 10 ms, and a
# graph from the folds takes 20-30 ms); the CPU time GNU time's.
measure() {
	name=$1 out=$2
	shift 2
	: > "$work/$name.runs"
	i=0
	while [ $i -lt "$runs" ]; do
		[ "$name" = import ] && rm -f "$work/trace.db" \
		    "$work/trace.db-wal" "$work/trace.db-shm"
		t0=$(date +%s%N)
		if ! /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" "$@" \
		    > "$out" 2> "$work/$name.err"; then
			echo "perf-import.sh: $name failed:" >&2
			tail -n 5 "$work/$name.err" >&2
			return 1
		fi
		t1=$(date +%s%N)
		tail -n 1 "$work/time.out" | awk -v ns=$((t1 - t0)) \
		    '{ printf "%.3f %s %.2f\n", ns / 1e9, $2, $3 + $4 }' \
		    >> "$work/$name.runs"
		i=$((i + 1))
	done
}

# median COLUMN NAME (columns: 1 wall seconds, 2 peak RSS KB, 3 CPU seconds)
median() {
	awk -v c="$1" '{ print $c }' "$work/$2.runs" | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# ratio SLOW FAST
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b > 0) printf "%.1fx", a / b; else print "n/a" }'
}

sum() {
	awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'
}

row() {
	printf '%-24s %8s %8s %10s  %s\n' "$@"
}

# line NAME LABEL NOTE
line() {
	row "$2" "$(median 1 "$1")" "$(median 3 "$1")" \
	    "$(median 2 "$1") KB" "$3"
}

size=$(mb "$input")
echo "input: $input ($size MB, $(grep -c '^[^[:space:]#]' "$input")" \
    "samples; $how)"
echo "runs: $runs (medians); tools: $bindir"
echo

db=$work/trace.db
measure import /dev/null "$bindir/trace-import" -q -d "$db" "$input" || exit 1
measure folded "$work/tr.folded" "$bindir/trace-flame" -d "$db" --folded ||
    exit 1
measure svg "$work/tr.svg" "$bindir/trace-flame" -d "$db" || exit 1

row "step" "wall s" "cpu s" "peak RSS" "note"
line import trace-import "$(awk -v m="$size" -v s="$(median 1 import)" \
    'BEGIN { if (s > 0) printf "%.0f MB/s", m / s }'); store $(mb "$db") MB"
line folded "trace-flame --folded" "$(wc -l < "$work/tr.folded") stacks"
line svg "trace-flame (SVG)" \
    "$(grep -c '^<g><title>' "$work/tr.svg") frames"

if [ -n "${FLAMEGRAPH_DIR:-}" ]; then
	sc=$FLAMEGRAPH_DIR/stackcollapse-perf.pl
	fg=$FLAMEGRAPH_DIR/flamegraph.pl
	if [ ! -r "$sc" ] || [ ! -r "$fg" ]; then
		die "no stackcollapse-perf.pl and flamegraph.pl in" \
		    "'$FLAMEGRAPH_DIR'"
	fi
	measure collapse "$work/fg.folded" perl "$sc" "$input" || exit 1
	measure flamegraph "$work/fg.svg" perl "$fg" "$work/fg.folded" ||
	    exit 1
	line collapse stackcollapse-perf.pl "$(awk -v m="$size" \
	    -v s="$(median 1 collapse)" \
	    'BEGIN { if (s > 0) printf "%.0f MB/s", m / s }')"
	line flamegraph flamegraph.pl \
	    "$(grep -c '<title>' "$work/fg.svg") frames"
	echo
	echo "speed-up (wall, cpu):"
	# both: median column $1 of the pair of steps $2 + $3
	both() {
		sum "$(median "$1" "$2")" "$(median "$1" "$3")"
	}
	r1=$(ratio "$(median 1 collapse)" "$(median 1 import)")
	r3=$(ratio "$(median 3 collapse)" "$(median 3 import)")
	s1=$(ratio "$(median 1 flamegraph)" "$(median 1 svg)")
	s3=$(ratio "$(median 3 flamegraph)" "$(median 3 svg)")
	b1=$(ratio "$(both 1 collapse flamegraph)" "$(both 1 import svg)")
	b3=$(ratio "$(both 3 collapse flamegraph)" "$(both 3 import svg)")
	printf '  %-44s %7s %7s\n' \
	    "trace-import vs stackcollapse-perf.pl" "$r1" "$r3" \
	    "trace-flame (SVG) vs flamegraph.pl" "$s1" "$s3" \
	    "import + SVG vs the two scripts" "$b1" "$b3"
	echo "  goals: 15x for each of the first two"
	if cmp -s "$work/tr.folded" "$work/fg.folded"; then
		echo "folded stacks: identical to stackcollapse-perf.pl's"
	else
		echo "folded stacks: DIFFER from stackcollapse-perf.pl's" \
		    "($(diff "$work/tr.folded" "$work/fg.folded" |
		    grep -c '^[<>]') lines differ)"
	fi
else
	echo
	echo "(set FLAMEGRAPH_DIR to FlameGraph's scripts for the comparison)"
fi
echo "trace-import peak RSS: $(awk -v k="$(median 2 import)" \
    'BEGIN { printf "%.0f MB", k / 1024 }') (goal: at most 100 MB)"
# summary STEP TOOL NAME: the medians of NAME as a line of $BENCH_SUMMARY
summary() {
	[ -n "${BENCH_SUMMARY:-}" ] || return 0
	echo "$1 $size $2 $(median 1 "$3") $(median 3 "$3") $(median 2 "$3")" \
	    >> "$BENCH_SUMMARY"
}
summary perf-import trace-import import
summary perf-svg trace-flame svg
if [ -n "${FLAMEGRAPH_DIR:-}" ]; then
	summary perf-import stackcollapse-perf.pl collapse
	summary perf-svg flamegraph.pl flamegraph
	if [ -n "${BENCH_SUMMARY:-}" ]; then
		cmp -s "$work/tr.folded" "$work/fg.folded" && same=identical ||
		    same=differ
		echo "perf-folded $size $same" >> "$BENCH_SUMMARY"
	fi
fi
[ -n "${BENCH_KEEP:-}" ] && echo "files kept in $work"
exit 0
