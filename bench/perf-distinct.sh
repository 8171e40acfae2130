#!/bin/sh
# bench/perf-distinct.sh: the worst case for trace-import's memory, a
# `perf script` text whose frames and call sites are nearly all distinct
# (each sample 10-39 frames drawn from 2,000,000 symbols, each at its own
# address, in 3,000 threads), made with perl and given to perf-import.sh,
# which prints trace-import's peak RSS (goal: at most 100 MB, whatever
# the input) beside stackcollapse-perf.pl's.  SYNTHETIC: no program ran.
# Never part of make check.  See bench/README.
#
# Environment: BENCH_SAMPLES (default 40000: 79 MB, 774,866 frames,
# 979,231 call sites), and what perf-import.sh reads (TR_BINDIR,
# FLAMEGRAPH_DIR, BENCH_RUNS, BENCH_DIR, BENCH_KEEP, BENCH_SUMMARY).
set -u
here=$(cd "$(dirname "$0")" && pwd)
n=${BENCH_SAMPLES:-40000}
case $n in
''|*[!0-9]*|0) echo "perf-distinct.sh: BENCH_SAMPLES must be a positive" \
    "number, got '$n'" >&2; exit 1 ;;
esac
command -v perl >/dev/null || { echo "perf-distinct.sh: needs perl" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tr-distinct.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
perl -e '
	my ($n) = @ARGV;
	srand(7);
	my $t = 1000.0;
	for my $i (1 .. $n) {
		$t += 0.0002;
		my $tid = 1000 + int(rand(3000));
		printf "cc1 %d/%d %.6f: 200040 cpu-clock:ppp: \n", $tid, $tid, $t;
		for my $j (1 .. 10 + int(rand(30))) {
			my $s = int(rand(2000000));
			printf "\t%16x fn_%d_%x+0x%x " .
			    "(/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus)\n",
			    0x400000 + $s * 16, $s, $s * 7, $j;
		}
		print "\n";
	}' "$n" > "$tmp/distinct.txt" || exit 1
sh "$here/perf-import.sh" "$tmp/distinct.txt"
