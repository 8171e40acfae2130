# sched-latency on the scenario finds its scheduler-starved phase
# (tests/gen/scenario: "sched", sixteen CPU-bound goroutines on
# GOMAXPROCS=2): the 1 s step with the most runnable goroutines on average
# lies in the phase's injected window (truth.json), and so does the
# longest wait of the most starved goroutine, whose start function is the
# busy loop's (main.metricsWorker, preempted).  Then the exact output.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv sched-latency > out.csv || exit 1
awk -F, '
FNR == 1 { file++ }
file == 1 && /"name": "sched"/ { ins = 1 }
file == 1 && ins && /"inject_start_ns":/ { split($0, d, ":"); lo = d[2] + 0 }
file == 1 && ins && /"inject_end_ns":/ { split($0, d, ":"); hi = d[2] + 0
	ins = 0 }
file == 2 && /^source,/ { set = $2 "/" $3; next }
file == 2 && NF < 2 { next }
file == 2 && set == "ts/dur_ns" && $6 > best { best = $6; bt = $2; be = $2 + $3 }
file == 2 && set == "goid/function" && !fn { fn = $3; lt = $6; why = $7 }
END {
	printf "busiest step (%.1f runnable on average) in the phase: %s\n",
	    best, (bt < hi && be > lo) ? "yes" : "NO"
	printf "most starved: %s, %s, its longest wait in the phase: %s\n",
	    fn, why, (lt >= lo && lt < hi) ? "yes" : "NO"
}' data/scenario/truth.json out.csv
trace-query -F table sched-latency --step 5s --top 5
