#!/bin/sh
# Regenerate tests/data/gotrace/gen119.* with Debian's Go 1.19:
#   sh tests/gen/gotrace/gen.sh      (from the top of the source tree)
# Builds main.go with -trimpath (no paths of this machine in the trace),
# runs it, and saves next to the trace what the Go toolchain says about
# it: the `go tool trace -d` event dump and the four pprof-like profiles
# of `go tool trace -pprof=KIND`, as profile.proto (KIND.pb) and folded
# by pprof-fold.py from `go tool pprof -raw` (KIND.txt).  A trace is a
# recording of one run: every run differs.
set -eu
top=$(pwd)
out=$top/tests/data/gotrace
work=$(mktemp -d "${TMPDIR:-/tmp}/gotracegen.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$top/tests/gen/gotrace/main.go" "$work/"
printf 'module gotracegen\n\ngo 1.19\n' > "$work/go.mod"
(cd "$work" && GOFLAGS=-trimpath GOPATH="$work/gopath" \
    GOCACHE="$work/cache" go build -o gotracegen .)
"$work/gotracegen" "$out/gen119.trace"
go version > "$out/gen119.version"
go tool trace -d "$out/gen119.trace" > "$out/gen119.dump" 2>/dev/null
for k in sync net syscall sched; do
	go tool trace -pprof=$k "$out/gen119.trace" > "$out/gen119-$k.pb"
	go tool pprof -raw "$out/gen119-$k.pb" > "$work/$k.raw" 2>/dev/null
	python3 "$top/tests/gen/gotrace/pprof-fold.py" "$work/$k.raw" \
	    > "$out/gen119-$k.txt"
done
