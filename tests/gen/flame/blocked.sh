#!/bin/sh
# Regenerate tests/data/gotrace/TAG-KIND.folded, the expected output of
# `trace-flame --blocked KIND --folded` for the Go traces TAG.trace:
#   sh tests/gen/flame/blocked.sh        (from the top of the source tree)
# For each trace, the toolchain that recorded it (TAG.version: Debian's Go
# 1.19 as go, bookworm-backports' 1.21, 1.22 and 1.23 under
# /usr/lib/go-1.2x/bin) computes `go tool trace -pprof=KIND` (KIND = sync,
# net, syscall, sched); `go tool pprof -raw` prints it and
# tests/gen/gotrace/pprof-fold.py folds it by stack ("COUNT NS
# func file:line;..."), and the frames lose their file:line here, stacks
# that then read the same merged, as trace-flame names frames by function.
set -eu
top=$(pwd)
out=$top/tests/data/gotrace
work=$(mktemp -d "${TMPDIR:-/tmp}/blockedgen.XXXXXX")
trap 'rm -rf "$work"' EXIT
for tag in gen119 gen121 gen122 gen123; do
	case $tag in
	gen119) go=go ;;
	*) go=/usr/lib/go-1.$(echo $tag | cut -c5-)/bin/go ;;
	esac
	"$go" version | cmp -s - "$out/$tag.version" || {
		echo "$tag: $go is not $(cat "$out/$tag.version")" >&2
		exit 1
	}
	for k in sync net syscall sched; do
		GOCACHE="$work/cache" "$go" tool trace -pprof=$k \
		    "$out/$tag.trace" > "$work/$k.pb"
		"$go" tool pprof -raw "$work/$k.pb" > "$work/$k.raw" \
		    2>/dev/null
		python3 "$top/tests/gen/gotrace/pprof-fold.py" \
		    "$work/$k.raw" > "$work/$k.txt"
		LC_ALL=C awk '{
			ns = $2; sub(/^[0-9]+ [0-9]+ /, "")
			n = split($0, fr, ";"); s = ""
			for (i = 1; i <= n; i++) {
				sub(/ [^ ]*$/, "", fr[i])
				if (fr[i] == "") fr[i] = "?"
				s = s (i > 1 ? ";" : "") fr[i]
			}
			t[s] += ns
		} END { for (s in t) printf "%s %.0f\n", s, t[s] }' \
		    "$work/$k.txt" | LC_ALL=C sort > "$out/$tag-$k.folded"
	done
done
