# The README's first command ends with 'make demo', which runs
# tests/demo.sh on the scenario bundle: every step must succeed, flame.svg
# must be well-formed SVG, and the answer must be there -- the nine
# episodes of gpu-idle with their verdicts (the causes the scenario
# injected: tests/data/scenario/truth.json), then the totals.
sh "${0%/*}/../../demo.sh" data/scenario demo.db >out.txt 2>err.txt
echo "demo: exit $?"
grep '^+ ' err.txt
grep -v '^+ ' err.txt | grep -c . | sed 's/^/other stderr lines: /'
grep '^wrote ' out.txt
xmllint --noout flame.svg && echo "flame.svg: well-formed"
# The episodes table: each episode's verdict (the column under the
# header's "verdict"), then the totals' verdict.
awk '/^episode  gpu/ { at = index($0, "verdict"); on = 1; next }
    on && /^$/ { on = 0 }
    on { print $1 ": " substr($0, at) }
    /^gpu  episodes/ { at = index($0, "verdict"); tot = 1; next }
    tot && NF { print "totals: " substr($0, at) }' out.txt
