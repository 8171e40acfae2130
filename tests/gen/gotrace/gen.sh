#!/bin/sh
# Regenerate tests/data/gotrace/genNNN.* with a Go toolchain:
#   sh tests/gen/gotrace/gen.sh [GO]      (from the top of the source tree)
# GO is the go command to build, run and check with (default: go, Debian
# 12's Go 1.19; bookworm-backports has /usr/lib/go-1.21/bin/go, 1.22 and
# 1.23).  NNN is its version without the dot (gen119, gen122, ...).
# Builds main.go with -trimpath (no paths of this machine in the trace),
# runs it, and saves next to the trace what that toolchain says about it:
# for the old format (up to 1.21) the `go tool trace -d` event dump, and
# for every version the four pprof-like profiles of
# `go tool trace -pprof=KIND`, as profile.proto (KIND.pb) and folded by
# pprof-fold.py from `go tool pprof -raw` (KIND.txt).  A trace is a
# recording of one run: every run differs.
set -eu
go=${1:-go}
top=$(pwd)
out=$top/tests/data/gotrace
ver=$("$go" env GOVERSION)
tag=gen$(echo "$ver" | sed 's/^go\([0-9]*\)\.\([0-9]*\).*/\1\2/')
work=$(mktemp -d "${TMPDIR:-/tmp}/gotracegen.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$top/tests/gen/gotrace/main.go" "$work/"
printf 'module gotracegen\n\ngo 1.19\n' > "$work/go.mod"
(cd "$work" && GOFLAGS=-trimpath GOPATH="$work/gopath" GOTOOLCHAIN=local \
    GOCACHE="$work/cache" "$go" build -o gotracegen .)
"$work/gotracegen" "$out/$tag.trace"
"$go" version > "$out/$tag.version"
case $tag in
gen1[0-9]|gen11[0-9]|gen12[01])
	"$go" tool trace -d "$out/$tag.trace" > "$out/$tag.dump" 2>/dev/null ;;
esac
for k in sync net syscall sched; do
	GOCACHE="$work/cache" "$go" tool trace -pprof=$k "$out/$tag.trace" \
	    > "$out/$tag-$k.pb"
	"$go" tool pprof -raw "$out/$tag-$k.pb" > "$work/$k.raw" 2>/dev/null
	python3 "$top/tests/gen/gotrace/pprof-fold.py" "$work/$k.raw" \
	    > "$out/$tag-$k.txt"
done
