# gpu-mem-phases.awk [-v wall=1] TRUTH: the memory phases of a scenario's
# truth.json, a line each: name verdict start end slope_bytes_per_min,
# with start and end in store ns (start_ns, end_ns) or, with -v wall=1,
# wall-clock ns (start_wall_ns, end_wall_ns).
BEGIN {
	s = wall ? "start_wall_ns" : "start_ns"
	e = wall ? "end_wall_ns" : "end_ns"
}
/"memory": \[/ { m = 1 }
m && /^  \]/ { m = 0 }
m { k = $1; gsub(/[":]/, "", k); v = $2; gsub(/[",]/, "", v) }
m && k == "name" { name = v }
m && k == "verdict" { verdict = v }
m && k == s { start = v }
m && k == e { end = v }
m && k == "slope_bytes_per_min" { slope = v }
m && k == "note" { print name, verdict, start, end, slope }
