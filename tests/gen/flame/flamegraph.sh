#!/bin/sh
# Regenerate the FlameGraph references of the differential, --hash, --cp
# and --flamechart golden cases (tests/golden/flame/diff-*.sh,
# colors-hash.sh, chart-*.sh):
#   FLAMEGRAPH=DIR sh tests/gen/flame/flamegraph.sh   (from the top)
# DIR is a checkout of https://github.com/brendangregg/FlameGraph (its
# difffolded.pl and flamegraph.pl are run, not copied); trace-import and
# trace-flame are taken from PATH.  Written into tests/data/flame:
# - diff.difffolded: difffolded.pl -n of the folded stacks of
#   diff-before.perf.txt and diff-after.perf.txt, sorted;
# - diff.frames, diff-negate.frames: the frames flamegraph.pl draws of it
#   (and of the files swapped, with --negate), one "title|fill|x|width"
#   line each, sorted (x and width in pixels to one decimal, as it writes
#   them);
# - hash-{hot,mem,io}.colors: the fill of each frame name of the demo's
#   perf samples under flamegraph.pl --hash --colors hot, mem and io, one
#   "name|fill" line each, sorted;
# - hash.palette: the palette.map flamegraph.pl --cp --hash writes for it;
# - chart-perf.frames: the frames flamegraph.pl --flamechart draws of the
#   time-ordered folded stacks of the demo's thread 14189 (as above, the
#   titles without our ", from Ns").
set -eu
fg=${FLAMEGRAPH:?set FLAMEGRAPH to a FlameGraph checkout}
top=$(pwd)
out=$top/tests/data/flame
work=$(mktemp -d "${TMPDIR:-/tmp}/diffgen.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
frames() {
	# flamegraph.pl writes "<title>T</title><rect x= y= width= ... fill=":
	sed -n 's/^<title>\(.*\)<\/title><rect x="\([^"]*\)" y="[^"]*" width="\([^"]*\)" height="[^"]*" fill="\([^"]*\)".*/\1|\4|\2|\3/p' |
	    LC_ALL=C sort
}
trace-import -q -d diff.db "$out/diff-before.perf.txt" \
    "$out/diff-after.perf.txt"
trace-flame -q -d diff.db -s 1 --folded > before.folded
trace-flame -q -d diff.db -s 2 --folded > after.folded
perl "$fg/difffolded.pl" -n before.folded after.folded |
    LC_ALL=C sort > "$out/diff.difffolded"
perl "$fg/difffolded.pl" -n before.folded after.folded |
    perl "$fg/flamegraph.pl" --countname nanoseconds | frames \
    > "$out/diff.frames"
perl "$fg/difffolded.pl" -n after.folded before.folded |
    perl "$fg/flamegraph.pl" --countname nanoseconds --negate | frames \
    > "$out/diff-negate.frames"
trace-import -q -d demo.db "$top/tests/data/demo/perf.txt.gz"
trace-flame -q -d demo.db --folded --all > demo.folded
for c in hot mem io; do
	perl "$fg/flamegraph.pl" --hash --colors $c --minwidth 0 \
	    demo.folded | frames | awk -F'|' '{
		t = $1; sub(/ \([0-9,]+ [a-z]+, [0-9.]+%\)$/, "", t)
		print t "|" $2
	}' | LC_ALL=C sort -u > "$out/hash-$c.colors"
done
perl "$fg/flamegraph.pl" --hash --cp demo.folded > /dev/null
cp palette.map "$out/hash.palette"
trace-flame -q -d demo.db --flamechart --tid 14189 --folded |
    perl "$fg/flamegraph.pl" --flamechart --countname nanoseconds |
    frames > "$out/chart-perf.frames"
