#!/bin/sh
# Write tests/data/gotrace/mmu.txt (run from the top of the source tree):
# the minimum mutator utilisation that `go tool trace`'s MMU view computes
# (internal/trace's MutatorUtilization, MutatorUtilizationV2 for the
# generation format, with the view's flags stw|background|assist|sweep,
# all Ps together) for windows of 1 ms to 200 ms, read from its details
# endpoint on the loopback address.  A line per trace and window:
#
#	TRACE WINDOW_NS MMU WORST_NS FIXED
#
# WORST_NS the start of the first worst window the view lists (ns from
# the trace's start for the old format, trace ns for the generation
# format), FIXED "-" for the old format; for the generation format the
# MMU of the same code with the goroutine's mark-worker mark dropped when
# it stops running (Go 1.23's MutatorUtilizationV2 keeps it, so each
# later run of a worker counts twice on start and once on stop: see
# trace-query(1), gc).  FIXED is computed by a copy of Go 1.23's
# internal/trace built in a temporary directory with that one line added.
# Old format with Go 1.19 (go on PATH) and 1.21, generation format with
# Go 1.23.  tests/golden/query/gc-mmu-gotool.sh compares trace-query gc
# with them.  GO121, GO123: those go commands (default
# /usr/lib/go-1.2x/bin/go); PORT: the loopback port (38714).
set -eu
go121=${GO121:-/usr/lib/go-1.21/bin/go}
go123=${GO123:-/usr/lib/go-1.23/bin/go}
port=${PORT:-38714}
windows="1000000 2000000 5000000 10000000 20000000 50000000 100000000
200000000"
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd tests/data/gotrace
view() {
	# $1 go, $2 trace, $3 the details path
	# The tool itself, not 'go tool', so that kill ends the server.
	BROWSER=true "$("$1" env GOTOOLDIR)/trace" -http="127.0.0.1:$port" \
	    "$2" >/dev/null 2>&1 &
	pid=$!
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		curl -sf "http://127.0.0.1:$port/" >/dev/null 2>&1 && break
		sleep 1
	done
	for w in $windows; do
		curl -sf "http://127.0.0.1:$port$3window=$w&flags=stw|background|assist|sweep" |
		    python3 -c '
import json, sys
v = json.load(sys.stdin)
print(sys.argv[1], sys.argv[2], repr(v[0]["MutatorUtil"]), v[0]["Time"])
' "${2%.trace}" "$w"
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
}
# Go 1.23's internal/trace as module "gomu", with the mark-worker mark
# dropped at the end of a run, and a main printing the MMU of each window.
mkfixed() {
	root=$("$go123" env GOROOT)
	mkdir -p "$tmp/gomu/tr" "$tmp/gomu/cmd"
	cp -r "$root/src/internal/trace/"*.go "$root/src/internal/trace/event" \
	    "$root/src/internal/trace/internal" \
	    "$root/src/internal/trace/version" "$tmp/gomu/tr"
	find "$tmp/gomu/tr" -name '*_test.go' -delete
	find "$tmp/gomu/tr" -name '*.go' |
	    xargs sed -i 's#"internal/trace#"gomu/tr#'
	python3 - "$tmp/gomu/tr/gc.go" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "\t\t\t\t\tps[ev.Proc()].gc--\n\t\t\t\t}\n\t\t\t}\n\t\t\tstates[g] = new\n"
assert s.count(old) == 1
s = s.replace(old, "\t\t\t\t\tps[ev.Proc()].gc--\n\t\t\t\t\tdelete(bgMark, g)\n"
    "\t\t\t\t}\n\t\t\t}\n\t\t\tstates[g] = new\n")
open(p, "w").write(s)
PY
	printf 'module gomu\n\ngo 1.23\n' > "$tmp/gomu/go.mod"
	cat > "$tmp/gomu/cmd/main.go" <<'GO'
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	trace "gomu/tr"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	r, err := trace.NewReader(f)
	if err != nil {
		panic(err)
	}
	var evs []trace.Event
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		evs = append(evs, ev)
	}
	c := trace.NewMMUCurve(trace.MutatorUtilizationV2(evs,
		trace.UtilSTW|trace.UtilBackground|trace.UtilAssist|
			trace.UtilSweep))
	for _, a := range os.Args[2:] {
		w, _ := strconv.ParseInt(a, 10, 64)
		fmt.Println(w, c.MMU(time.Duration(w)))
	}
}
GO
	(cd "$tmp/gomu" && GOTOOLCHAIN=local GOFLAGS=-mod=mod \
	    "$go123" build -o "$tmp/mmu" ./cmd)
}
fixed() {
	# $1 trace: "WINDOW MMU" lines
	"$tmp/mmu" "$1" $windows
}
mkfixed
{
	view go gen119.trace '/mmuDetails?' | sed 's/$/ -/'
	view "$go121" gen121.trace '/mmuDetails?' | sed 's/$/ -/'
	for t in gen122 gen123; do
		fixed "$t.trace" > "$tmp/fixed"
		view "$go123" "$t.trace" '/mmu?mode=details&' |
		    awk 'NR == FNR { f[$1] = $2; next } { print $0, f[$2] }' \
		    "$tmp/fixed" -
	done
} > mmu.txt
cd "$top"
