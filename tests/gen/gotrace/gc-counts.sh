#!/bin/sh
# Write tests/data/gotrace/gc-counts.txt (run from the top of the source
# tree): for the Go traces there that Go's own tools read, the number of GC
# cycles, of stop-the-world pauses and their total ns as `go tool trace -d`
# shows them.  Old format (Go 1.19, 1.21): GCStart events, and the pairs
# of GCSTWStart/GCSTWDone (Go 1.21: STWStart/STWDone).  Generation format
# (Go 1.22+, read with Go 1.23's tool at -d=1): the ranges "GC concurrent
# mark phase" and "stop-the-world (...)" that begin in the trace or are
# active at its start.  tests/golden/query/gc-gotool.sh compares trace-query
# gc with them.  GO121, GO123: those go commands (default
# /usr/lib/go-1.2x/bin/go, bookworm-backports' golang-1.2x-go); go on PATH
# is Go 1.19.
set -eu
go121=${GO121:-/usr/lib/go-1.21/bin/go}
go123=${GO123:-/usr/lib/go-1.23/bin/go}
cd tests/data/gotrace
old() {
	"$1" tool trace -d "$2" 2>/dev/null | awk -v name="${2%.trace}" '
	$2 == "GCStart" { c++ }
	$2 ~ /^(GC)?STWStart$/ { n++; s = $1 }
	$2 ~ /^(GC)?STWDone$/ { t += $1 - s }
	END { print name, c + 0, n + 0, t + 0 }'
}
new() {
	"$go123" tool trace -d=1 "$1" 2>/dev/null | awk -v name="${1%.trace}" '
	function time() {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^Time=/)
				return substr($i, 6)
	}
	/ Range(Begin|Active) .*Name="GC concurrent mark phase"/ { c++ }
	/ Range(Begin|Active) .*Name="stop-the-world/ { n++; s = time() }
	/ RangeEnd .*Name="stop-the-world/ { t += time() - s }
	END { print name, c + 0, n + 0, t + 0 }'
}
{
	old go go119-fixture.trace
	old go gen119.trace
	old "$go121" gen121.trace
	new gen122.trace
	new gen123.trace
	new go122-gc-stress.trace
} > gc-counts.txt
