# The differential graph of diff-folded.sh as SVG: valid XML, one frame per
# node (all, app, main, idle, new_path, work, compute, io; old_path is gone
# from the after, width 0, not drawn), and each frame's tooltip (with the
# delta in % of the total), fill (red more, blue less, white the same, as
# deep as the delta against the largest), place and width equal to what
# FlameGraph's flamegraph.pl draws of difffolded.pl's output
# (tests/gen/flame/diff.sh).  --negate with the two swapped: the widths of
# the before, the hues switched.
trace-import -q data/flame/diff-before.perf.txt \
    data/flame/diff-after.perf.txt || exit
frames() {
	sed -n 's/^<g><title>\(.*\)<\/title><rect x="\([^"]*\)" y="[^"]*" width="\([^"]*\)" height="[^"]*" fill="\([^"]*\)".*/\1|\4|\2|\3/p' "$1" |
	    awk -F'|' '{ printf "%s|%s|%.1f|%.1f\n", $1, $2, $3, $4 }' |
	    LC_ALL=C sort
}
trace-flame -q -s 2 --diff-base '-s 1' > diff.svg || exit
xmllint --noout diff.svg && echo "valid XML"
grep -c '^<g><title>' diff.svg
frames diff.svg | tee diff.frames
cmp diff.frames data/flame/diff.frames && echo "= flamegraph.pl"
trace-flame -q -s 1 --diff-base '-s 2' --negate > negate.svg || exit
xmllint --noout negate.svg && echo "valid XML"
frames negate.svg | cmp - data/flame/diff-negate.frames &&
    echo "--negate = flamegraph.pl --negate"
