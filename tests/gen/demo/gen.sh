#!/bin/sh
# Regenerate tests/data/demo: run the demo training job for a few seconds
# under `perf record -k CLOCK_MONOTONIC -g` (as root, Debian's golang-go and
# linux-perf) and keep what a postmortem bundle would hold.
# Usage (from the top of the tree): sh tests/gen/demo/gen.sh [SECONDS]
set -eu
secs=${1:-4}
top=$(pwd)
out=$top/tests/data/demo
work=/tmp/tracekit-demo
rm -rf "$work"
mkdir -p "$work/out"
(cd "$top/tests/gen/demo" && go build -trimpath -o "$work/demo" .)
cd "$work"
perf record -q -k CLOCK_MONOTONIC -F 499 -g -o perf.data -- ./demo out "$secs"
perf script --header -i perf.data > out/perf.txt 2>/dev/null
rm -rf "$out"
mkdir -p "$out"
gzip -9n < out/perf.txt > "$out/perf.txt.gz"
cp out/cpu.pprof "$out/cpu.pb.gz"  # runtime/pprof gzips already
for f in out/heap-*.pprof; do
	b=$(basename "$f" .pprof)
	cp "$f" "$out/$b.pb.gz"
done
cp out/trace.out out/nvidia-smi.csv out/clock.json "$out/"
ls -l "$out"
