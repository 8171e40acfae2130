#!/bin/sh
# Regenerate the seed corpora tests/fuzz/corpus/NAME from tests/data: small
# real inputs of each format (decompressed, cut to a few KB where large)
# and its bad-* inputs.  Run from the top of the source tree; needs gzip
# and zstd.  Seeds are named after the file they come from.
set -e
d=tests/data
c=tests/fuzz/corpus
rm -rf "$c"
mkdir -p "$c"

# seed NAME FILE [BYTES]: FILE (decompressed if .gz), cut to BYTES.
seed() {
	mkdir -p "$c/$1"
	out="$c/$1/$(basename "$2" .gz)"
	case "$2" in
	*.gz) gzip -dc "$2" ;;
	*) cat "$2" ;;
	esac | head -c "${3:-65536}" > "$out"
}

for f in "$d"/core/small.perf.txt "$d"/core/small2.perf.txt \
    "$d"/perf/bad-perf-*.txt "$d"/perf/local-perf6.1/*.perf.txt.gz \
    "$d"/perf/local-perf6.1/burn-kmono-header-clock-lines.txt \
    "$d"/perf/flamegraph/perf-*-01.txt.gz; do
	seed perf-script "$f" 3000
done
for f in "$d"/pprof/*.pb "$d"/pprof/gen/*.pb.gz \
    "$d"/pprof/series/heap-00[01].pb.gz \
    "$d"/pprof/sample.cpu.pb.gz "$d"/pprof/go.nomappings.crash.pb.gz \
    "$d"/pprof/cppbench.cpu_no_samples_type.pb.gz; do
	seed pprof "$f"
done
cp "$d"/pprof/tiny.pb.zst "$d"/pprof/bad-pprof-truncated.pb.gz "$c/pprof/"
for f in "$d"/gotrace/bad-gotrace-*.trace "$d"/gotrace/min119.trace \
    "$d"/gotrace/*_1_[0-9]_good "$d"/gotrace/*_1_1[019]_good; do
	case "$(basename "$f")" in
	*_1_5_good) continue ;;
	esac
	[ "$(wc -c < "$f")" -le 16384 ] || continue
	seed gotrace-old "$f"
done
seed gotrace-old "$d"/gotrace/go119-fixture.trace
seed gotrace-old "$d"/gotrace/gen121.trace
for f in "$d"/gotrace/bad-gotrace2-*.trace "$d"/gotrace/go12*.trace \
    "$d"/gotrace/gen12[2-9].trace "$d"/gotrace/min122.trace; do
	seed gotrace-new "$f"
done
for f in "$d"/nvidia-smi/*.csv "$d"/demo/nvidia-smi.csv; do
	seed nvidia-smi-csv "$f" 4096
done
for f in "$d"/nvidia-smi/*dmon*.txt; do
	seed nvidia-smi-dmon "$f"
done
for f in "$d"/nvidia-smi/*pmon*.txt; do
	seed nvidia-smi-pmon "$f"
done
for f in "$d"/nvtop/*.json; do
	seed nvtop "$f"
done
for f in "$d"/demo/clock.json "$d"/align/bad-clock-*.json \
    "$d"/align/real/clock.json; do
	seed clock-json "$f"
done

# The input layer: gzip and zstd streams, whole, cut, corrupt, several
# members or frames, a skippable frame first, and plain text.
i=$c/input
mkdir -p "$i"
cp "$d"/bad/*.gz "$d"/bad/*.zst "$d"/pprof/tiny.pb.zst "$i/"
cp "$d"/core/small.perf.txt "$i/plain.txt"
gzip -9 -n -c "$d"/core/small.perf.txt > "$i/small.gz"
zstd -q -19 -c "$d"/core/small.perf.txt > "$i/small.zst"
zstd -q -1 --no-check -c "$d"/core/small2.perf.txt > "$i/small2-nocheck.zst"
cat "$i/small.gz" "$i/small.gz" > "$i/two-members.gz"
cat "$i/small.zst" "$i/small2-nocheck.zst" > "$i/two-frames.zst"
# A skippable frame (magic 0x184D2A50, 4 bytes of data) as pzstd writes.
printf '\120\052\115\030\004\000\000\000abcd' | cat - "$i/small.zst" \
    > "$i/skippable.zst"
printf 'a\r\nb\n\nno newline at the end' > "$i/crlf.txt"
