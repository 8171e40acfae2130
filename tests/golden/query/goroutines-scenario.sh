# goroutines on the scenario finds its burst and its leak
# (tests/gen/scenario, truth.json): every step flagged as a burst lies in
# the "burst" phase, the largest group (by start function) is the
# burst's with the phase's goroutines_created, all ended; the one leak is of goroutines blocked on a channel in truth's
# leak goroutine_function, thousands of them, whose count only grows.
# Then the exact output at 5 s steps.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv goroutines > out.csv || exit 1
awk -F, '
FNR == 1 { file++ }
file == 1 && /"goroutine_function":/ { split($0, d, "\""); lfn = d[4] }
file == 1 && /"name": "burst"/ { inb = 1 }
file == 1 && inb && /"inject_start_ns":/ { split($0, d, ":"); lo = d[2] + 0 }
file == 1 && inb && /"inject_end_ns":/ { split($0, d, ":"); hi = d[2] + 0 }
file == 1 && inb && /"goroutines_created":/ { split($0, d, ":")
	want = d[2] + 0; inb = 0 }
file == 2 && /^source,/ { set = $2 "/" $3; next }
file == 2 && NF < 2 { next }
file == 2 && set == "ts/dur_ns" && $8 == 1 { nb++; cr += $5
	if ($2 < lo - 1e9 || $2 + $3 > hi + 1e9) out++ }
file == 2 && set == "function/goroutines" && !topfn { topfn = $2; topn = $3
	topend = $4 }
file == 2 && set == "leak/count" { nl++; lf = $7; lc = $3; lr = $5 }
END {
	printf "burst steps: %d, outside the burst phase: %d, created in " \
	    "them %d\n", nb, out + 0, cr
	printf "largest group %s: %d created, %d ended, truth %d: %s\n",
	    topfn, topn, topend, want, (nb > 0 && out == 0 && topn == want &&
	    topend == want && cr >= want) ? "burst found" : "NOT FOUND"
	printf "leaks: %d, %d goroutines blocked on %s in %s: %s\n", nl, lc,
	    lr, lf, (nl == 1 && lf == lfn && lc >= 1000 && lr == "chan recv") \
	    ? "leak found" : "NOT FOUND"
}' data/scenario/truth.json out.csv
awk -F, '/^source,leak,ts,count/ { g = 1; next } NF < 2 { g = 0 } g && NF == 4 {
	if ($4 < last) bad++; last = $4; n++ }
END { printf "leak growth: %d steps, %s\n", n,
	(n > 0 && !bad) ? "never shrinks" : "SHRINKS" }' out.csv
trace-query -F table goroutines --step 5s
