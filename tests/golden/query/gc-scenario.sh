# gc on the scenario finds its GC storm (tests/gen/scenario: the "gc"
# phase allocates with GOGC=10 and a large live heap): inside the phase's
# injected window (truth.json) GC cycles come at more than five times the
# rate of the rest of the run and GC is on more than five times as much
# of the time, the worst 10 ms of the MMU lie in it, the
# goroutine that assists most is the driver (truth's driver_goid) and the
# top assist stack is the storm's allocation (main.churn).  Then the exact
# output, with the GPU next to GC.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gc --evidence > out.csv || exit 1
awk -F, '
FNR == 1 { file++ }
file == 1 && /"driver_goid":/ && !drv { gsub(/[ ,]/, "", $0); split($0, d, ":")
	drv = d[2] }
file == 1 && /"name": "gc"/ { ingc = 1 }
file == 1 && ingc && /"inject_start_ns":/ { split($0, d, ":"); lo = d[2] + 0 }
file == 1 && ingc && /"inject_end_ns":/ { split($0, d, ":"); hi = d[2] + 0
	ingc = 0 }
file == 2 && /^source,start_ns,/ { set = "gc"; next }
file == 2 && /^source,kind,/ { set = "stw"; next }
file == 2 && /^source,goid,/ { set = "ag"; next }
file == 2 && /^source,callsite_id,/ { set = "as"; next }
file == 2 && /^source,window_ns,/ { set = "mmu"; next }
file == 2 && /^source,gpu,/ { set = "gpu"; next }
file == 2 && /^source,what,/ { set = "ev"; next }
file == 2 && set == "gc" && NF > 1 { s0 = $2; s1 = $3 }
file == 2 && set == "ag" && !topg { topg = $2 }
file == 2 && set == "as" && !tops { tops = $6 }
file == 2 && set == "mmu" && $2 == 10000000 { w0 = $4; w1 = $5 }
file == 2 && set == "ev" && $2 == "cycle" {
	if ($5 >= lo && $5 < hi) { nin++; gin += $6 } else { nout++; gout += $6 } }
END {
	rin = nin / ((hi - lo) / 1e9)
	rout = nout / ((s1 - s0 - (hi - lo)) / 1e9)
	shin = gin / (hi - lo); shout = gout / (s1 - s0 - (hi - lo))
	printf "cycles in the storm: %d (%.1f/s), elsewhere %d (%.2f/s): %s\n",
	    nin, rin, nout, rout, (rin > 5 * rout) ? "storm found" : "NOT FOUND"
	printf "GC on in the storm %.1f%%, elsewhere %.1f%%: %s\n", 100 * shin,
	    100 * shout, (shin > 5 * shout) ? "storm found" : "NOT FOUND"
	printf "worst 10ms of the MMU in the storm: %s\n",
	    (w0 >= lo && w1 <= hi) ? "yes" : "NO"
	printf "top assisting goroutine %s, the driver %s: %s\n", topg, drv,
	    (topg == drv) ? "yes" : "NO"
	printf "top assist stack %s: %s\n", tops,
	    (tops ~ /^main\.churn /) ? "the storm" : "NOT THE STORM"
}' data/scenario/truth.json out.csv
trace-query gc
