#!/bin/sh
# bench/goruntime-bench.sh STORE
#
# The Go runtime queries of trace-query(1) -- sched-latency, contention,
# gc and goroutines -- on a store with a long Go trace (attr-bench.sh's
# bench store, BENCH_KEEP=1; pass a copy: a store of an older schema is
# migrated when it is opened), against the 1 s goal: over the whole
# trace, which reads the derived tables of trace-store(5) (go_sched_lat,
# go_sched_long, go_blocked_stack, go_wait_sec, go_mutex_waker, go_bin),
# and over windows of one and ten seconds on the second grid (and ten
# off it by half a second), which read
# those of their whole seconds and replay the states around and inside
# the window for what the tables do not hold (the pprof intervals of the
# stacks sets, the mutex holders); then the blocking engine over every
# state (trace-flame --blocked with a window from 0), and the import's
# cost of all derived tables (TRACEKIT_NO_DERIVED=1) when BENCH_TRACE
# names the Go trace.  Prints the median wall and CPU seconds of
# BENCH_RUNS runs (default 3) and the load average.  Never part of make
# check.  See bench/README.
set -u
db=${1:?usage: goruntime-bench.sh STORE}
runs=${BENCH_RUNS:-3}
if [ -n "${TR_BINDIR:-}" ]; then
	PATH="$TR_BINDIR:$PATH"
elif [ -x ./src/tools/trace-query ]; then
	PATH="$(pwd)/src/tools:$PATH"
fi
[ -x /usr/bin/time ] || {
	echo "goruntime-bench.sh: no /usr/bin/time (Debian package time)" >&2
	exit 2
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/goruntime-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The median wall and CPU (user + system) seconds of $runs runs of "$@".
measure() {
	i=0
	: > "$tmp/times"
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f '%e %U %S' -o "$tmp/t1" "$@" > /dev/null \
		    2> "$tmp/err" || {
			echo "failed: $*" >&2
			cat "$tmp/err" >&2
			exit 1
		}
		awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$tmp/t1" \
		    >> "$tmp/times"
		i=$((i + 1))
	done
	for k in 1 2; do
		cut -d' ' -f$k "$tmp/times" | sort -n |
		    awk -v n="$runs" 'NR == int((n + 1) / 2)'
	done | paste -sd' '
}
q() {
	name=$1
	shift
	set -- $(measure "$@")
	printf '%-44s %6ss %6ss %s\n' "$name" "$1" "$2" "$(awk -v w="$1" \
	    'BEGIN { print (w < 1 ? "ok" : "SLOW") }')"
}
# The store's first whole second of the Go trace, plus 5 s (store ns).
t0=$(trace-query -d "$db" -F csv sql "SELECT (ts_min / 1000000000 + 5) *
    1000000000 FROM source WHERE format = 'gotrace' ORDER BY id LIMIT 1" |
    tail -n 1)
t1=$((t0 + 1000000000))
t10=$((t0 + 10000000000))
rows=$(trace-query -d "$db" -F csv sql "SELECT sum(n) FROM slice_run r
    JOIN track t ON t.id = r.track_id WHERE t.kind = 'goroutine'" |
    tail -n 1)
printf '%-44s %7s %7s\n' "" wall cpu
for query in sched-latency contention gc goroutines; do
	q "$query" trace-query -d "$db" -F csv $query
	q "$query --from/--to 1 s" trace-query -d "$db" -F csv $query \
	    --from "=$t0" --to "=$t1"
	q "$query --from/--to 10 s" trace-query -d "$db" -F csv $query \
	    --from "=$t0" --to "=$t10"
	q "$query 10 s, off the grid by 0.5 s" trace-query -d "$db" -F csv \
	    $query --from "=$((t0 + 500000000))" --to "=$((t10 + 500000000))"
done
q "trace-flame --blocked sync --folded" trace-flame -d "$db" \
    --blocked sync --folded
q "the same, every state replayed (--from =0)" trace-flame -d "$db" \
    --blocked sync --folded --from =0
if [ -n "${BENCH_TRACE:-}" ]; then
	rm -f "$tmp/a.db"
	q "import $(basename "$BENCH_TRACE")" sh -c "rm -f $tmp/a.db*;
	    trace-import -q -d $tmp/a.db $BENCH_TRACE"
	q "import, TRACEKIT_NO_DERIVED=1" sh -c "rm -f $tmp/a.db*;
	    TRACEKIT_NO_DERIVED=1 trace-import -q -d $tmp/a.db $BENCH_TRACE"
fi
echo "($rows goroutine states; medians of $runs runs; load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg))"
