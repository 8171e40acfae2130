# gpu-idle-truth.awk TRUTH FOUND: each phase of a scenario's truth.json
# against the windows a query found (FOUND: start_ns,end_ns,cause lines):
# every injected phase has exactly one, with edges within one sampling
# interval (smi_interval_ns) and the phase's cause; no window reaches
# into normal training by more than an interval.  With -v stalls=1 the
# third field is stalls' branch, which must be the one the phase's cause
# leads to.  Prints a line per phase; exits 1 when any is wrong.
BEGIN {
	br["gc"] = "gc-bound"; br["chan"] = "io-blocked"
	br["sync"] = "contention"; br["syscall"] = "io-blocked"
	br["cpu"] = "cpu-bound"; br["sched"] = "sched-imbalance"
	br["sleep"] = "starvation"; br["net"] = "io-blocked"
	# A phase whose branch is not its cause's: the loader behind the
	# channel waits for a mutex.
	nbr["chan-sync"] = "contention"
}
FNR == 1 { file++ }
file == 1 && /"smi_interval_ns":/ { iv = $2 + 0 }
file == 1 && /"phases": \[/ { inph = 1; next }
file == 1 && inph && /^  \]/ { inph = 0 }
file == 1 && inph && /"name":/ { n++; gsub(/[",]/, "", $2); name[n] = $2 }
file == 1 && inph && /"cause":/ { gsub(/[",]/, "", $2); cause[n] = $2 }
file == 1 && inph && /"episode":/ { ep[n] = ($2 ~ /true/) }
file == 1 && inph && /"start_ns":/ { ps[n] = $2 + 0 }
file == 1 && inph && /"end_ns":/ { pe[n] = $2 + 0 }
file == 2 { m++; split($0, f, ","); es[m] = f[1]; ee[m] = f[2]; ec[m] = f[3] }
function ms(x) { return sprintf("%+.1fms", x / 1e6) }
END {
	bad = 0
	for (i = 1; i <= n; i++) {
		hit = 0; line = ""
		for (k = 1; k <= m; k++) {
			lo = es[k] > ps[i] ? es[k] : ps[i]
			hi = ee[k] < pe[i] ? ee[k] : pe[i]
			if (hi - lo <= 0)
				continue
			if (!ep[i]) {
				# Edges may reach into normal training by up to
				# one interval: more is an episode during it.
				if (hi - lo > iv) {
					line = line sprintf(" episode %d " \
					    "overlaps it %.1fms", k, \
					    (hi - lo) / 1e6)
					bad++
				}
				continue
			}
			hit++
			want = cause[i]
			if (stalls)
				want = (name[i] in nbr) ? nbr[name[i]] : \
				    br[cause[i]]
			ok = (es[k] - ps[i] <= iv && ps[i] - es[k] <= iv &&
			    ee[k] - pe[i] <= iv && pe[i] - ee[k] <= iv &&
			    ec[k] == want)
			if (!ok)
				bad++
			line = line sprintf(" episode %d: start %s, " \
			    "end %s, cause %s: %s", k, ms(es[k] - ps[i]),
			    ms(ee[k] - pe[i]), ec[k], ok ? "ok" : "WRONG")
		}
		if (ep[i] && hit != 1) {
			bad++
			line = line sprintf(" %d episodes: WRONG", hit)
		}
		if (line == "")
			line = " no episode: ok"
		what = ep[i] ? cause[i] : "none"
		printf "%s %s (%.3fs):%s\n", name[i], what,
		    (pe[i] - ps[i]) / 1e9, line
	}
	printf "%d phases, %d wrong (tolerance %.0fms)\n", n, bad, iv / 1e6
	exit (bad > 0)
}
