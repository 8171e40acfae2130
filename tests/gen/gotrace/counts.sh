#!/bin/sh
# Write tests/data/gotrace/go123-events.txt (run from the top of the source
# tree): for every generation-format trace there that Go 1.23's parser
# reads, its name and the number of events `go tool trace -d=1` prints,
# less the Sync event Go adds per generation, and how many of them are CPU
# profile samples (StackSample).  gotrace2-events.sh compares the
# importer's counts with them.  GO123: Go 1.23's go command
# (default /usr/lib/go-1.23/bin/go, bookworm-backports' golang-1.23-go).
set -eu
go=${GO123:-/usr/lib/go-1.23/bin/go}
cd tests/data/gotrace
tmp=$(mktemp)
for f in go12*.trace gen12[2-9].trace; do
	"$go" tool trace -d=1 "$f" > "$tmp" 2>/dev/null || continue
	n=$(grep -c '^M=' "$tmp" || true)
	s=$(grep -c '^M=.* Sync Time=' "$tmp" || true)
	c=$(grep -c '^M=.* StackSample Time=' "$tmp" || true)
	echo "${f%.trace} $((n - s)) $c"
done > go123-events.txt
rm -f "$tmp"
