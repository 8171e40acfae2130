#!/bin/sh
# Regenerate the expected folded stacks of the perf script quirk inputs
# (tests/data/perf/quirks/NAME.perf.txt, see tests/data/README): what
# FlameGraph's stackcollapse-perf.pl prints for each, which
# tests/golden/import/perf-quirks.sh compares trace-flame --folded with.
#
#   FLAMEGRAPH_DIR=/path/to/FlameGraph sh tests/gen/perf-quirks/gen.sh
#
# Run from the top of the source tree; the script's warnings about the
# odd lines are shown.
set -eu
: "${FLAMEGRAPH_DIR:?set FLAMEGRAPH_DIR to a FlameGraph checkout}"
cd "$(dirname "$0")/../../data/perf/quirks"
for f in *.perf.txt; do
	n=${f%.perf.txt}
	perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" "$f" \
	    >"$n.collapsed-flamegraph.txt"
	echo "$n: $(wc -l <"$n.collapsed-flamegraph.txt") stacks"
done
