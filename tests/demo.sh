#!/bin/sh
# tests/demo.sh BUNDLE [STORE]: the demo postmortem of the README, with the
# tools on PATH.  Import the bundle (tests/data/scenario), put every
# source on one clock, draw a CPU flame graph to flame.svg, print the
# summary and the top functions, and last why the GPU was idle.  'make
# demo' runs it, and so does the golden test help/demo, so the README's
# first command is tested.
set -e
bundle=${1:?usage: demo.sh BUNDLE [STORE]}
db=${2:-demo.db}
rm -f "$db" "$db-wal" "$db-shm"
set -x
trace-import -d "$db" "$bundle"
trace-align -d "$db" -F table
trace-flame -d "$db" --colors go --title "demo: CPU (perf)" > flame.svg
{ set +x; } 2>/dev/null
echo "wrote flame.svg"
set -x
trace-query -d "$db" -F table summary
trace-query -d "$db" -F table top --type cpu --nodecount 10
trace-query -d "$db" -F table gpu-idle
