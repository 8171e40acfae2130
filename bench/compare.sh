#!/bin/sh
# bench/compare.sh
#
# Every workload of issue 17 beside its peer, at 1x and 4x input size, in
# one table: perf script import and its SVG against FlameGraph's
# stackcollapse-perf.pl and flamegraph.pl (bench/perf-import.sh), Go
# traces against `go tool trace -pprof=sched` (bench/gotrace-import.sh),
# a GPU log against the sqlite3 shell's .import of the same CSV
# (bench/gpu-import.sh): medians of wall and CPU seconds and peak RSS,
# the ratios peer / tracekit, and how each one's peak RSS grows from 1x
# to 4x.  The scripts it runs print their own reports too (on standard
# error here).  Never part of make check.  See bench/README.
#
# Environment:
#   TR_BINDIR        directory of the tools (default: ./src/tools when run
#                    from a build tree, else PATH)
#   FLAMEGRAPH_DIR   FlameGraph's scripts (without it: no perf peers)
#   BENCH_RUNS       runs of each command (default 3)
#   BENCH_MB         the perf script input at 1x, MB (default 50)
#   BENCH_PERF_INPUT a perf script output to use as the 1x input instead
#                    of recording one (perf-import.sh's way)
#   BENCH_GPU_HOURS  hours of the 8-GPU, 100 ms nvidia-smi log at 1x
#                    (default 4: about 48 MB)
#   BENCH_SECS       seconds of the long (4x) Go trace; the short one (1x)
#                    is a quarter of it (default 8)
#   BENCH_DIR        scratch directory (default: a new one under $TMPDIR;
#                    removed at the end unless BENCH_KEEP=1)
set -u

here=$(cd "$(dirname "$0")" && pwd)
mb1=${BENCH_MB:-50}
hours=${BENCH_GPU_HOURS:-4}
secs=${BENCH_SECS:-8}

die() {
	echo "compare.sh: $*" >&2
	exit 1
}

for v in "$mb1" "$hours" "$secs"; do
	case $v in
	''|*[!0-9]*|0) die "BENCH_MB, BENCH_GPU_HOURS and BENCH_SECS must" \
	    "be positive numbers" ;;
	esac
done
if [ -z "${TR_BINDIR:-}" ] && [ -x src/tools/trace-import ]; then
	TR_BINDIR=$(pwd)/src/tools
fi
[ -n "${TR_BINDIR:-}" ] && export TR_BINDIR
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir" || exit 1
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/tr-compare.XXXXXX") || exit 1
fi
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
keep=${BENCH_KEEP:-0}
unset BENCH_DIR BENCH_KEEP
s1=$dir/summary-1x
s4=$dir/summary-4x
: > "$s1"
: > "$s4"

# ---- perf script: 1x, then the same text four times over ----------------

echo "== perf script, 1x" >&2
if [ -n "${BENCH_PERF_INPUT:-}" ]; then
	BENCH_SUMMARY=$s1 BENCH_DIR=$dir/perf1 \
	    sh "$here/perf-import.sh" "$BENCH_PERF_INPUT" >&2 ||
	    die "perf-import.sh failed"
	case $BENCH_PERF_INPUT in
	*.gz) gzip -dc "$BENCH_PERF_INPUT" ;;
	*.zst) zstd -qdc "$BENCH_PERF_INPUT" ;;
	*) cat "$BENCH_PERF_INPUT" ;;
	esac > "$dir/perf1.txt" || exit 1
else
	BENCH_SUMMARY=$s1 BENCH_DIR=$dir/perf1 BENCH_KEEP=1 BENCH_MB=$mb1 \
	    sh "$here/perf-import.sh" >&2 || die "perf-import.sh failed"
	mv "$dir/perf1/perf.txt" "$dir/perf1.txt" || exit 1
fi
rm -rf "$dir/perf1"
for i in 1 2 3 4; do cat "$dir/perf1.txt"; done > "$dir/perf4.txt"
rm -f "$dir/perf1.txt"
echo "== perf script, 4x" >&2
BENCH_SUMMARY=$s4 BENCH_DIR=$dir/perf4 sh "$here/perf-import.sh" \
    "$dir/perf4.txt" >&2 || die "perf-import.sh failed"
rm -rf "$dir/perf4" "$dir/perf4.txt"

# ---- Go traces: the short one is 1x, the long one 4x ----------------------

if command -v go >/dev/null; then
	echo "== Go traces" >&2
	BENCH_SUMMARY=$dir/summary-go BENCH_DIR=$dir/go BENCH_SECS=$secs \
	    BENCH_MANY=0 BENCH_BURST=0 sh "$here/gotrace-import.sh" >&2 ||
	    die "gotrace-import.sh failed"
	sed -n 's/^gotrace-short /gotrace /p' "$dir/summary-go" >> "$s1"
	sed -n 's/^gotrace-long /gotrace /p' "$dir/summary-go" >> "$s4"
	rm -rf "$dir/go"
else
	echo "(no go: no Go traces)" >&2
fi

# ---- the GPU log ------------------------------------------------------------

echo "== GPU log, 1x" >&2
BENCH_SUMMARY=$s1 BENCH_DIR=$dir/gpu1 BENCH_HOURS=$hours \
    sh "$here/gpu-import.sh" >&2 || die "gpu-import.sh failed"
echo "== GPU log, 4x" >&2
BENCH_SUMMARY=$s4 BENCH_DIR=$dir/gpu4 BENCH_HOURS=$((hours * 4)) \
    sh "$here/gpu-import.sh" >&2 || die "gpu-import.sh failed"

# ---- the table --------------------------------------------------------------

echo
echo "runs: ${BENCH_RUNS:-3} each (medians); seconds; cpu = user + system;" \
    "RSS = peak resident MB"
awk -v s1="$s1" -v s4="$s4" '
function load(file, scale,    line, f) {
	while ((getline line < file) > 0) {
		split(line, f, " ")
		if (f[1] == "perf-folded") {
			folded[scale] = f[3]
			continue
		}
		if (f[3] ~ /^trace-/) {
			mine[f[1], scale] = f[4] " " f[5] " " f[6]
			size[f[1], scale] = f[2]
		} else {
			peer[f[1], scale] = f[4] " " f[5] " " f[6]
			pname[f[1]] = f[3]
		}
	}
	close(file)
}
function ratio(a, b) {
	return b > 0 ? sprintf("%5.1fx", a / b) : "    -"
}
BEGIN {
	load(s1, "1x")
	load(s4, "4x")
	n = split("perf-import perf-svg gotrace gpu", w, " ")
	label["perf-import"] = "perf import"
	label["perf-svg"] = "perf SVG"
	label["gotrace"] = "Go trace"
	label["gpu"] = "GPU log"
	mname["perf-import"] = "trace-import"
	mname["perf-svg"] = "trace-flame"
	mname["gotrace"] = "trace-import"
	mname["gpu"] = "trace-import"
	printf "%-12s %-3s %7s | %-12s %7s %7s %7s | %-21s %7s %7s %7s " \
	    "| %6s %6s\n", "workload", "", "in MB", "tracekit", "wall",
	    "cpu", "RSS", "peer", "wall", "cpu", "RSS", "wall", "cpu"
	for (i = 1; i <= n; i++)
		for (k = 1; k <= 2; k++) {
			sc = k == 1 ? "1x" : "4x"
			if (!((w[i], sc) in mine))
				continue
			split(mine[w[i], sc], m, " ")
			printf "%-12s %-3s %7s | %-12s %7.3f %7.2f %7.1f | ",
			    label[w[i]], sc, size[w[i], sc], mname[w[i]],
			    m[1], m[2], m[3] / 1024
			if ((w[i], sc) in peer) {
				split(peer[w[i], sc], p, " ")
				printf "%-21s %7.3f %7.2f %7.1f | %s %s\n",
				    pname[w[i]], p[1], p[2], p[3] / 1024,
				    ratio(p[1], m[1]), ratio(p[2], m[2])
			} else
				printf "%-21s %7s %7s %7s | %6s %6s\n", "-",
				    "-", "-", "-", "-", "-"
		}
	print ""
	print "peak RSS from 1x to 4x (memory must stay flat):"
	for (i = 1; i <= n; i++) {
		if (!((w[i], "1x") in mine) || !((w[i], "4x") in mine))
			continue
		split(mine[w[i], "1x"], a, " ")
		split(mine[w[i], "4x"], b, " ")
		line = sprintf("  %-12s %s %.1f -> %.1f MB (%.2fx)",
		    label[w[i]], mname[w[i]], a[3] / 1024, b[3] / 1024,
		    b[3] / a[3])
		if ((w[i], "1x") in peer && (w[i], "4x") in peer) {
			split(peer[w[i], "1x"], a, " ")
			split(peer[w[i], "4x"], b, " ")
			line = line sprintf("; %s %.1f -> %.1f MB (%.2fx)",
			    pname[w[i]], a[3] / 1024, b[3] / 1024, b[3] / a[3])
		}
		print line
	}
	for (k = 1; k <= 2; k++)
		if ((sc = k == 1 ? "1x" : "4x") in folded)
			printf "folded stacks at %s: %s to %s\n", sc,
			    folded[sc], "stackcollapse-perf.pl'"'"'s"
	print "(ratios: peer / tracekit; goals of issue 17: perf import and" \
	    " SVG 15x,"
	print " Go traces 5x wall with flat RSS <= 100 MB, GPU log 1x or more)"
}'
[ "$keep" = 1 ] && echo "files kept in $dir"
exit 0
