# gc next to the slow steps on the scenario (tests/gen/scenario): the
# stretches of slow steps that 'trace-query steps' finds (its "slow" set)
# whose middle lies in the GC storm's injected window (truth.json's "gc"
# phase) have GC on most of their time, every other stretch (slowed by
# channels, mutexes, syscalls, CPU, the scheduler, sleeps, the network)
# little; over all slow stretches GC is on far more than in the rest of
# the run (gc-scenario has these sets exactly).  Then the exact sets for
# steps by the "step" regions (--steps), and what steps cannot answer.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gc > out.csv 2>/dev/null || exit 1
awk -F, '
FNR == 1 { file++ }
file == 1 && /"name": "gc"/ { ingc = 1 }
file == 1 && ingc && /"inject_start_ns":/ { split($0, d, ":"); lo = d[2] + 0 }
file == 1 && ingc && /"inject_end_ns":/ { split($0, d, ":"); hi = d[2] + 0
	ingc = 0 }
file == 2 && /^source,/ { set = $2; next }
file == 2 && set == "stretches" && NF > 1 { all = $6; rest = $7 }
file == 2 && set == "stretch" && NF > 1 {
	mid = ($3 + $4) / 2
	if (mid >= lo && mid < hi) { nin++; if (minin == "" || $7 < minin) minin = $7 }
	else { nout++; if ($7 > maxout) maxout = $7 } }
END {
	printf "slow stretches in the storm: %d, least GC share %.2f: %s\n",
	    nin, minin, (nin > 0 && minin > 0.5) ? "GC" : "NOT GC"
	printf "other slow stretches: %d, most GC share %.2f: %s\n", nout,
	    maxout, (nout > 0 && maxout < 0.1) ? "not GC" : "GC?"
	printf "GC share in slow stretches %.3f, in the rest %.4f: %s\n", all,
	    rest, (all > 5 * rest) ? "GC slows steps" : "NO"
}' data/scenario/truth.json out.csv
trace-query -F csv gc --steps '--region step' 2>/dev/null |
    sed -n '/^source,stretches,/,$p'
# steps' own errors: a usage error is gc's (exit 2); no steps is a note.
trace-query -F csv gc --steps '--slow 0.5' >/dev/null
echo "--steps '--slow 0.5': $?"
trace-query -F csv gc --steps '--region nosuch' 2>&1 >/dev/null | grep steps
echo "--steps '--region nosuch': $?"
