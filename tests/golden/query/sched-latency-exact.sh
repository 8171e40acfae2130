# sched-latency's distributions against go_state itself, on the scenario
# (a minute of trace) over the whole trace (the derived histograms of
# whole seconds) and over a window that cuts seconds at both ends (those
# read from the states), and on the Go 1.19 recording: count, total_ns,
# max_ns and starved exact; each nearest-rank percentile exact when the
# row's pct_error is 0, else at most 1/32 above the exact value.
check() {	# DB LO HI STARVE [OPTIONS]: LO, HI absolute (0 0: all)
	db=$1 lo=$2 hi=$3 sv=$4
	shift 4
	set -- "$@" --starve "${sv}ns"
	if [ "$lo" = 0 ]; then
		w="1"
	else
		w="ts >= $lo AND ts < $hi"
		set -- "$@" --from "=$lo" --to "=$hi"
	fi
	for kind in wakeup all; do
		if [ $kind = wakeup ]; then
			k="AND reason IN ('created', 'unblocked')"
		else
			k=""
		fi
		trace-query -d "$db" -F csv sql "SELECT dur FROM go_state
		    WHERE state = 'runnable' AND $w $k ORDER BY dur" |
		    tail -n +2 > exact
		trace-query -d "$db" -F csv sched-latency "$@" |
		    awk -F, -v k=$kind '$2 == k' > got
		awk -F, -v k=$kind -v sv="$sv" '
		FNR == NR { v[++n] = $1; s += $1; if ($1 > sv + 0) st++; next }
		function rk(p,  r) {
			r = int(p * n - 1e-9); if (r < p * n - 1e-9) r++
			return v[r < 1 ? 1 : r] }
		function ok(e, g, err) {
			return err == 0 ? g == e : g >= e && g <= e + e / 32 }
		{ e50 = rk(0.5); e90 = rk(0.9); e99 = rk(0.99)
		  printf "%s: count %s total %s max %s starved %s: %s; ", k,
		      $3, $4, $8, $9, ($3 == n && $4 == s && $8 == v[n] &&
		      $9 == st + 0) ? "exact" : "WRONG (" n " " s " " v[n] ")"
		  printf "p50 p90 p99 %s\n", (ok(e50, $5, $11) &&
		      ok(e90, $6, $11) && ok(e99, $7, $11)) ? "within " \
		      ($11 == 0 ? "0" : "1/32") : "WRONG (" e50 " " e90 " " \
		      e99 ")" }' exact got
	done
}
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
t0=$(trace-query -F csv sql "SELECT ts_min FROM source
    WHERE format = 'gotrace'" | tail -n 1)
echo "scenario, whole trace:"
check trace.db 0 0 10000000
echo "scenario, from +5.5s to +20.25s of the trace:"
check trace.db $((t0 + 5500000000)) $((t0 + 20250000000)) 10000000
trace-import -q -d g.db data/gotrace/gen119.trace || exit 99
echo "gen119, whole trace, --starve 0.5ms (from the states):"
check g.db 0 0 500000
