# contention on the scenario (tests/gen/scenario, truth.json): a compound
# stall covers the "chan-sync" phase, the driver (truth's driver_goid)
# waiting on a channel while the loader (truth's waker_function) waits on
# a mutex; another covers the "sync" phase, where the driver itself waits
# on the mutex; none lies elsewhere.  The block profile's stacks carry the
# trace's own blocked time beside their delay.  Then the exact output.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv contention > out.csv || exit 1
awk -F, '
FNR == 1 { file++ }
file == 1 && /"driver_goid":/ && !drv { gsub(/[ ,]/, "", $0); split($0, d, ":")
	drv = d[2] }
file == 1 && /"name": "/ { split($0, d, "\""); ph = d[4] }
file == 1 && /"inject_start_ns":/ { split($0, d, ":"); lo[ph] = d[2] + 0 }
file == 1 && /"inject_end_ns":/ { split($0, d, ":"); hi[ph] = d[2] + 0 }
file == 1 && /"waker_function":/ { split($0, d, "\""); wk[ph] = d[4] }
file == 2 && /^source,/ { set = $2; next }
file == 2 && NF < 2 { next }
file == 2 && set == "start_ns" {
	n++; where = "elsewhere"
	for (p in lo)
		if ($2 < hi[p] && $3 > lo[p] && (p == "sync" || p == "chan-sync"))
			where = p
	found[where]++
	if (where == "chan-sync") who = $9
}
END {
	printf "compound stalls: %d; in chan-sync %d, in sync %d, elsewhere %d\n",
	    n, found["chan-sync"], found["sync"], found["elsewhere"]
	ok = index(who, drv " main.driver chan") > 0 &&
	    index(who, wk["chan-sync"] " sync") > 0
	printf "chan-sync: driver %s on a channel, %s on a mutex: %s\n", drv,
	    wk["chan-sync"], ok ? "yes" : "NO"
}' data/scenario/truth.json out.csv
trace-query -F table contention --top 5
