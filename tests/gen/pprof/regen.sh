#!/bin/sh
# Regenerate tracekit's pprof test data with Debian's Go (golang-go, 1.19):
#   sh tests/gen/pprof/regen.sh [FIXTURE_DIR]
# from the top of the source tree.
#
# 1. Builds main.go (-trimpath, so no path of this machine is recorded)
#    and runs it from ${TMPDIR:-/tmp}/pprofgen/pprofgen, the mapping file
#    name the profiles record.  Writes tests/data/pprof/gen/*.pb.gz (one
#    profile of each kind) and tests/data/pprof/series/heap-*.pb.gz.
# 2. Copies the google/pprof fixtures from FIXTURE_DIR if given (they are
#    committed; see tests/data/README), and runs mkbad.py for the small
#    hand-made inputs (tiny.pb, prune.pb, legacy.pb, bad-pprof-*).
# 3. Writes the goldens under tests/data/pprof/golden/: for every profile
#    and every sample type, go tool pprof -top in base units (-unit=the
#    sample type's unit, so values print exactly), -top at each
#    granularity, with -focus/-ignore and -nodecount, -diff_base for the
#    series; and -raw and -traces of every profile but large.cpu.
#
# The outputs are committed: tests never need Go.  Profiles differ from
# run to run (timing), so regenerate the goldens with the profiles.
set -eu
top=$(pwd)
[ -f "$top/tests/gen/pprof/main.go" ] || {
	echo "regen.sh: run from the top of the source tree" >&2
	exit 2
}
data=$top/tests/data/pprof
bin=${TMPDIR:-/tmp}/pprofgen
PPROF="go tool pprof -symbolize=none"

mkdir -p "$data"
if [ "${1:-}" != "" ]; then
	for f in sample.cpu go.nomappings.crash cppbench.cpu_no_samples_type \
	    large.cpu; do
		cp "$1/$f.pb.gz" "$data/$f.pb.gz"
		chmod u+w "$data/$f.pb.gz"
	done
fi

mkdir -p "$bin" "$data/gen" "$data/series" "$data/golden"
python3 "$top/tests/gen/pprof/mkbad.py"
(cd "$top/tests/gen/pprof" && go build -trimpath -o "$bin/pprofgen" main.go)
rm -f "$data"/gen/*.pb.gz "$data"/series/*.pb.gz "$data"/golden/*.txt
(cd "$bin" && ./pprofgen -o "$data/gen" && \
    ./pprofgen -series 6 -o "$data/series")

# The sample types of a profile, "type/unit" each, from -raw's header.
types() {
	$PPROF -raw "$1" | awk '!f && /^Samples:/ { getline; print; f = 1 }' |
	    tr ' ' '\n' | sed -e 's/\[dflt\]$//' -e '/^$/d'
}

# top NAME FILE [pprof options]: one -top golden per sample type.
top() {
	name=$1 file=$2
	shift 2
	for t in $(types "$file"); do
		$PPROF -top -sample_index="${t%/*}" -unit="${t#*/}" "$@" \
		    "$file" > "$data/golden/$name.${t%/*}.top.txt" 2>&1
	done
}

fixtures="sample.cpu go.nomappings.crash cppbench.cpu_no_samples_type large.cpu"
for f in $(for n in $fixtures; do echo "$data/$n.pb.gz"; done) \
    "$data"/gen/*.pb.gz "$data"/tiny.pb "$data"/prune.pb; do
	n=$(basename "$f")
	n=${n%.gz}
	n=${n%.pb}
	# large.cpu's -raw and -traces are 20 MB: not kept.
	if [ "$n" != large.cpu ]; then
		$PPROF -raw "$f" > "$data/golden/$n.raw.txt"
		$PPROF -traces "$f" > "$data/golden/$n.traces.txt"
	fi
	top "$n" "$f"
	for g in lines files addresses; do
		top "$n-$g" "$f" -$g
	done
	top "$n-n5" "$f" -nodecount=5
done
top cpu-focus "$data/gen/cpu.pb.gz" -focus='crunch|sort' -ignore=Loop1
top cpu-focus-main "$data/gen/cpu.pb.gz" -focus=main
top heap-ignore "$data/gen/heap.pb.gz" -ignore=allocLarge
top sample-focus "$data/sample.cpu.pb.gz" -focus=mapassign -nodecount=8
top large-focus "$data/large.cpu.pb.gz" -focus=time -ignore=runtime

# The series: top of the last snapshot, and each step as -diff_base.
set -- "$data"/series/heap-*.pb.gz
prev=
for f; do
	n=$(basename "$f" .pb.gz)
	if [ -n "$prev" ]; then
		$PPROF -top -sample_index=inuse_space -unit=bytes \
		    -diff_base="$prev" "$f" > "$data/golden/diff-$n.top.txt"
		$PPROF -top -sample_index=inuse_space -unit=bytes \
		    -lines -diff_base="$prev" "$f" \
		    > "$data/golden/diff-$n-lines.top.txt"
	fi
	prev=$f
done
# Whole-series diff: the first snapshot against the last.
$PPROF -top -sample_index=inuse_space -unit=bytes -diff_base="$1" "$prev" \
    > "$data/golden/diff-first-last.top.txt"
# Two profiles merged, as go tool pprof A B does.
$PPROF -top -sample_index=inuse_space -unit=bytes "$data"/series/heap-000.pb.gz \
    "$data"/series/heap-001.pb.gz > "$data/golden/series-merge01.top.txt"

# Names of this machine must not leak into the data.
if grep -rl "$top" "$data" >/dev/null 2>&1; then
	echo "regen.sh: $top appears in $data" >&2
	exit 1
fi
echo "regen.sh: wrote $(ls "$data"/golden | wc -l) goldens"
