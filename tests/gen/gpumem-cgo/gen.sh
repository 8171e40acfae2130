#!/bin/sh
# tests/gen/gpumem-cgo/gen.sh [OUTDIR]: build main.go (Go with cgo: gcc)
# and run it for about 6 s, writing OUTDIR (default tests/data/gpumem-cgo)
# with its heap profiles and its SYNTHETIC compute-apps CSV (local times
# in UTC), the binary's directory left out of the profiles (strip-path.py).
# Every run differs; the tests are written against the
# committed run.
out=${1:-tests/data/gpumem-cgo}
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpumem-cgo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$src/main.go" "$tmp/" || exit 1
printf 'module gpumemcgo\n\ngo 1.19\n' > "$tmp/go.mod"
(cd "$tmp" && CGO_ENABLED=1 GOFLAGS=-trimpath GOCACHE="$tmp/cache" \
    go build -o gpumemcgo .) || exit 1
mkdir -p "$out" && rm -f "$out"/heap-*.pb.gz "$out"/apps.csv || exit 1
TZ=UTC "$tmp/gpumemcgo" "$out" || exit 1
# The profiles name the binary by its path in $tmp: keep only its name.
python3 "$src/strip-path.py" "$out"/heap-*.pb.gz || exit 1
go version > "$out/go.version"
