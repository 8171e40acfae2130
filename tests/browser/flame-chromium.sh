#!/bin/sh
# A 100,000-stack flame graph in a real browser: headless Chromium loads
# the SVG trace-flame draws, its script runs (a search given in the URL
# walks every frame and writes "Matched: ..."), and the time this takes
# is printed; it must stay under LIMIT seconds (default 20, on a loaded
# two-core machine it takes a few).  For scale, the same graph is timed
# with --minwidth 0 (every one of its 101,113 frames kept) and with
# --minwidth 50% (3 frames: the browser's own start).
#   make check-browser, or sh tests/browser/flame-chromium.sh [BINDIR]
# Skips (exit 77) when no chromium is installed (Debian: apt-get install
# chromium).  It is not part of make check (it takes a minute), and CI
# (.ci/run) neither runs it nor installs chromium; the element count it
# relies on is checked in make check (tests/unit/check-flame-svg,
# test_large_minwidth).
bindir=${1:-${TR_BINDIR:-}}
[ -n "$bindir" ] && PATH=$bindir:$PATH
limit=${LIMIT:-20}
browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	echo "no chromium: skipped"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/flamebrowser.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
# 100,000 samples, each its own stack main;mA;kB;jC;leafN (10 m, 100 k,
# 1,000 j): at 1180 px every leaf is 0.0118 px wide.
awk 'BEGIN {
	for (i = 0; i < 100000; i++) {
		printf "big 7 [000] %d.%06d: 1000 cpu-clock:\n", 1 + i / 1000,
		    i % 1000 * 1000
		printf "\t%x leaf%06d+0x1 (/opt/big)\n", 65536 + i, i
		printf "\t%x j%04d+0x1 (/opt/big)\n", 4096 + int(i / 100),
		    int(i / 100)
		printf "\t%x k%03d+0x1 (/opt/big)\n", 2048 + int(i / 1000),
		    int(i / 1000)
		printf "\t%x m%d+0x1 (/opt/big)\n", 1024 + int(i / 10000),
		    int(i / 10000)
		printf "\t400 main+0x1 (/opt/big)\n\n"
	}
}' > big.perf.txt
trace-import -q -d big.db big.perf.txt || exit 99
[ "$(trace-flame -q -d big.db --folded | wc -l)" -eq 100000 ] || exit 99
trace-flame -q -d big.db > big.svg || exit 99
trace-flame -q -d big.db --minwidth 0 > full.svg || exit 99
trace-flame -q -d big.db --minwidth 50% > tiny.svg || exit 99
status=0
for f in tiny big full; do
	frames=$(grep -c '^<g><title>' $f.svg)
	bytes=$(wc -c < $f.svg)
	start=$(date +%s.%N)
	timeout 300 "$browser" --headless --no-sandbox --disable-gpu \
	    --disable-dev-shm-usage --dump-dom \
	    "file://$work/$f.svg?s=%5Ej0" > $f.dom 2>/dev/null
	end=$(date +%s.%N)
	secs=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
	matched=$(grep -o '<text id="matched"[^>]*>[^<]*' $f.dom |
	    sed 's/.*>//')
	echo "$f.svg: $frames frames, $bytes bytes, loaded and searched" \
	    "in ${secs}s: $matched"
	case $f:$matched in
	tiny:"Matched: 0.0%"* | big:"Matched: 100%"* | full:"Matched: 100%"*)
		;;
	*)
		echo "$f.svg: the script did not run to the end" >&2
		status=1
		;;
	esac
	if [ $f = big ] && [ "$(echo "$secs $limit" |
	    awk '{ print ($1 > $2) }')" = 1 ]; then
		echo "$f.svg: slower than ${limit}s" >&2
		status=1
	fi
done
# all, big, main, 10 m, 100 k, 1,000 j: the leaves are left out.
[ "$(grep -c '^<g><title>' big.svg)" -eq 1113 ] || {
	echo "big.svg: expected 1113 frames" >&2
	status=1
}
exit $status
