#!/bin/sh
# Regenerate tests/data/scenario and tests/data/scenario-nvtop: run the
# scenario training job (main.go) under `perf record -k CLOCK_MONOTONIC -g`
# and keep what a postmortem bundle would hold, with the ground truth.
# Needs root (perf), Debian's golang-go (Go 1.19) and linux-perf.
# Usage (from the top of the tree): sh tests/gen/scenario/gen.sh [GO]
#
# The job runs in /opt/trainer, a stand-in deployment directory that gen.sh
# creates and removes: its path is what perf's DSOs, the pprof mappings
# and the compute-apps process name show.  A run takes about 45 s; every
# run differs (the figures in tests/data/README are of the committed one).
set -eu
go=${1:-go}
freq=${FREQ:-499}
top=$(pwd)
out=$top/tests/data/scenario
nvt=$top/tests/data/scenario-nvtop
run=/opt/trainer
work=$(mktemp -d "${TMPDIR:-/tmp}/scenario.XXXXXX")
trap 'rm -rf "$work" "$run"' EXIT
(cd "$top/tests/gen/scenario" && GOFLAGS=-trimpath GOTOOLCHAIN=local \
    GOCACHE="$work/cache" "$go" build -o "$work/trainer" .)
rm -rf "$run"
mkdir -p "$run/out"
cp "$work/trainer" "$run/trainer"
cd "$run"
perf record -q -k CLOCK_MONOTONIC -F "$freq" -g -o perf.data -- \
    ./trainer out
perf script --header -i perf.data > out/perf.txt 2>/dev/null
rm -rf "$out" "$nvt"
mkdir -p "$out" "$nvt"
gzip -9n < out/perf.txt > "$out/perf.txt.gz"
mv out/nvtop.json "$nvt/"
rm out/perf.txt
cp out/* "$out/"
"$go" version > "$out/go.version"
ls -l "$out" "$nvt"
du -sh "$out" "$nvt"
