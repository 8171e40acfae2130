# gpu-mem-truth.awk -v name=N -v verdict=V -v slope=S [-v stack=F] FOUND:
# one memory phase of a truth (its name, verdict, slope_bytes_per_min)
# against the rows gpu-mem found for its window (FOUND: its -F json
# document, a row a line).  Every row of the "memory" set must have the
# phase's verdict; for a leak the slope (unless -v slope= is empty) must
# be within 2% of the truth's and, with -v stack, the first heap stack
# must start with that function.
# Prints a line per row; exits 1 when any is wrong.
function field(k,    s) {
	if (!match($0, "\"" k "\":(\"[^\"]*\"|[^,}]*)"))
		return ""
	s = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
	gsub(/"/, "", s)
	return s
}
BEGIN { bad = 0 }
/^"memory":/ { inmem = 1; next }
/^\]/ { inmem = 0 }
inmem && /^,?\{"row":/ {
	v = field("verdict")
	sl = field("slope_bytes_per_min") + 0
	pid = field("pid")
	who = pid == "null" ? "gpu " field("gpu") : "pid " pid
	ok = v == verdict
	msg = sprintf("%s: %s %s", name, who, v)
	if (verdict == "leak" && slope != "") {
		err = (sl - slope) / slope
		msg = msg sprintf(", slope %+.2f%% of the truth", 100 * err)
		if (err > 0.02 || err < -0.02)
			ok = 0
	}
	if (stack != "") {
		hs = field("stack")
		sub(/ <.*/, "", hs)
		msg = msg ", first heap stack " hs
		if (hs != stack)
			ok = 0
	}
	print msg (ok ? "" : " WRONG")
	if (!ok)
		bad = 1
	n++
}
END {
	if (n == 0) {
		print name ": no rows WRONG"
		bad = 1
	}
	exit bad
}
