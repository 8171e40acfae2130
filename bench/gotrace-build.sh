#!/bin/sh
# bench/gotrace-build.sh DIR: build bench/gotrace-load.go with the
# installed Go into DIR/load/gotrace-load (its build cache in DIR), for
# gotrace-import.sh and attr-bench.sh.  Exits 2 without Go.
dir=${1:?usage: gotrace-build.sh DIR}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
command -v go >/dev/null || {
	echo "gotrace-build.sh: no go to make a trace with" >&2
	exit 2
}
mkdir -p "$dir/load" && cp "$srcdir/bench/gotrace-load.go" \
    "$dir/load/main.go" || exit 1
printf 'module gotraceload\n\ngo 1.19\n' > "$dir/load/go.mod"
(cd "$dir/load" && GOFLAGS=-trimpath GOCACHE="$dir/gocache" \
    go build -o gotrace-load .) || exit 1
