# contention's "holders" set on the scenario (tests/gen/scenario,
# truth.json): who ended the mutex waits, from the goroutine that
# unblocked each one.  In the "sync" phase the driver (truth's
# driver_goid) waits on the parameter mutex that truth's waker_function
# (main.applyGradients, three goroutines) holds; in the "chan-sync" phase
# the loader (truth's waker_function there, waker_state sync) waits on the
# statistics' mutex, which the generator's main.updateStats goroutines
# hold.  Each phase's window is read from the states; the whole trace
# from go_mutex_waker, and the window of the whole trace from the states
# must give the same rows.  Then the exact output.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
holders() {
	trace-query -F csv contention "$@" | awk -F, '
	/^source,waker_goid/ { s = 1; next } NF < 2 { s = 0 } s'
}
# The top holder by function (blocked time summed over its goroutines).
top() {
	awk -F, '{ ns[$3] += $6 } END { for (f in ns) if (ns[f] > b) {
	    b = ns[f]; t = f } print t }'
}
for ph in sync chan-sync; do
	set -- $(awk -v ph="$ph" '
	/"name": "/ { split($0, d, "\""); p = d[4] }
	p == ph && /"inject_start_ns":/ { split($0, d, ":"); lo = d[2] + 0 }
	p == ph && /"inject_end_ns":/ { split($0, d, ":"); hi = d[2] + 0 }
	p == ph && /"waker_function":/ { split($0, d, "\""); wk = d[4] }
	END { printf "%.0f %.0f %s\n", lo, hi, wk }' data/scenario/truth.json)
	echo "$ph: waits ended by $(holders --from "=$1" --to "=$2" --top 100 |
	    top) (truth's waker_function $3)"
done
span=$(trace-query -F csv sql "SELECT ts_min, ts_max + 1 FROM source
    WHERE format = 'gotrace'" | tail -n 1)
holders --top 1000 > whole.csv
holders --top 1000 --from "=${span%,*}" --to "=${span#*,}" > window.csv
if cmp -s whole.csv window.csv; then
	echo "whole trace: go_mutex_waker equals the states" \
	    "($(wc -l < whole.csv) rows)"
else
	echo "whole trace: go_mutex_waker differs from the states"
	diff whole.csv window.csv | head
fi
trace-query -F table contention --top 5 --from "=$1" --to "=$2" |
    awk '/^source  waker_goid/ { s = 1 } /^$/ { s = 0 } s'
