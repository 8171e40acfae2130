#!/bin/sh
# Regenerate tests/data/align/real: run tests/gen/align for a few seconds
# under `perf record -k CLOCK_MONOTONIC -g` (as root; Debian's golang-go
# 1.19 and linux-perf) and keep the bundle: perf script output (the
# scratch directory taken out of the binary's path), the Go runtime trace
# (with its tracekit.clock logs, the ground truth) and clock.json.
# Usage (from the top of the tree): sh tests/gen/align/gen.sh [SECONDS]
set -eu
secs=${1:-2.5}
top=$(pwd)
out=$top/tests/data/align/real
work=$(mktemp -d "${TMPDIR:-/tmp}/tracekit-align.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/out"
(cd "$top/tests/gen/align" && go build -trimpath -o "$work/aligngen" .)
cd "$work"
perf record -q -k CLOCK_MONOTONIC -F 1999 -g -o perf.data -- \
	./aligngen out "$secs"
go version
perf script --header --ns -F +pid -i perf.data 2>/dev/null |
	sed "s|$work/||g" > out/perf.txt
rm -rf "$out"
mkdir -p "$out"
gzip -9n < out/perf.txt > "$out/perf.txt.gz"
cp out/trace.out out/clock.json "$out/"
ls -l "$out"
