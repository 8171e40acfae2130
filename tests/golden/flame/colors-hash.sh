# Consistent colours: --hash gives each frame name flamegraph.pl --hash's
# colour (its namehash() of the name and of it reversed), for the hot, mem
# and io palettes, on the demo's 306 frame names (the references are what
# flamegraph.pl draws, tests/gen/flame/diff.sh); the colours do not depend
# on the rest of the graph, so two graphs of the same code match.
trace-import -q data/demo/perf.txt.gz || exit
colors() {
	sed -n 's/^<g><title>\(.*\)<\/title><rect.* fill="\([^"]*\)".*/\1|\2/p' \
	    "$1" | awk -F'|' '{
		t = $1; sub(/ \([0-9,]+ [a-z]+, [0-9.]+%\)$/, "", t)
		print t "|" $2
	}' | LC_ALL=C sort -u
}
for c in hot mem io; do
	trace-flame -q --all --hash --colors $c --minwidth 0 > $c.svg || exit
	xmllint --noout $c.svg || exit
	colors $c.svg > $c.colors
	wc -l < $c.colors
	cmp $c.colors data/flame/hash-$c.colors && echo "$c = flamegraph.pl"
done
# Another graph of the same code (one second of it): its names, its
# colours the same.
trace-flame -q --all --hash --minwidth 0 --to 1s > part.svg || exit
colors part.svg > part.colors
wc -l < part.colors
LC_ALL=C comm -23 part.colors hot.colors | wc -l
# --cp: flamegraph.pl's palette.map, written byte for byte as it writes it
# (tests/gen/flame/diff.sh); then read back: a colour set there wins, new
# names are added, the file stays sorted.
trace-flame -q --all --hash --cp > cp.svg || exit
cmp palette.map data/flame/hash.palette && echo "palette.map = flamegraph.pl"
grep -v '^main\.' palette.map > pal.txt
printf 'main.main->rgb(1,2,3)\n' >> pal.txt
trace-flame -q --all --palette pal.txt > pal.svg || exit
grep -o '<title>main.main ([^)]*)</title><rect [^>]*' pal.svg |
    sed 's/.*fill="\([^"]*\)".*/main.main \1/'
grep '^main\.' pal.txt
LC_ALL=C sort -c pal.txt && echo "sorted"
wc -l < pal.txt
