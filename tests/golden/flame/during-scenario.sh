# --during on the scenario (tests/data/scenario; gpu-idle's nine episodes
# are known: tests/golden/query/gpu-idle-scenario*): the windows are
# gpu-idle's episodes, the graph is exactly the perf samples inside them
# (SQL over the same windows: count and sum), the same graph as
# --windows with gpu-idle's CSV and --where with the same windows, and
# --during plus --not-during is the whole graph, per stack and in total.
# The SVG is valid XML with one frame per distinct stack prefix and the
# root (--minwidth 0 keeps every frame).
LC_ALL=C
export LC_ALL
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
tot() { awk '{ n += $NF } END { printf "%d stacks, %.0f\n", NR, n }' "$@"; }
trace-query -F csv gpu-idle | sed -n '/^episode,gpu,start_ns/,/^$/p' |
    sed '1d;/^$/d' | cut -d, -f3,4 > win.csv
echo "--- gpu-idle's episodes (start_ns,end_ns)"
cat win.csv
echo "--- --during gpu-idle"
trace-flame --folded --during gpu-idle > during.txt || exit 1
tot during.txt
echo "--- --not-during gpu-idle"
trace-flame -q --folded --not-during gpu-idle > not.txt || exit 1
tot not.txt
echo "--- everything"
trace-flame -q --folded > all.txt || exit 1
tot all.txt
echo "--- during + not-during, per stack"
cat during.txt not.txt | awk '{ c = $NF; sub(/ [0-9]+$/, ""); s[$0] += c }
    END { for (k in s) printf "%s %.0f\n", k, s[k] }' | sort > sum.txt
sort all.txt | diff - sum.txt && echo "equal to everything"
echo "--- the perf samples inside the windows (SQL)"
vals=$(awk -F, '{ printf "%s(%s,%s)", (NR > 1 ? "," : ""), $1, $2 }' win.csv)
trace-query -F csv sql "SELECT count(*) AS samples, sum(s.value) AS ns
    FROM sample s JOIN str e ON e.id = s.event_id
    JOIN source src ON src.id = s.source_id
    WHERE src.format = 'perf-script' AND e.s = 'cpu-clock:pppH' AND EXISTS
    (SELECT 1 FROM (VALUES $vals) w WHERE s.ts >= w.column1 AND
    s.ts < w.column2)"
echo "--- --windows win.csv, --where (the same windows)"
(echo start_ns,end_ns; cat win.csv) > win-h.csv
trace-flame -q --folded --windows win-h.csv | cmp - during.txt &&
    echo "--windows: the same graph"
trace-flame -q --folded --where "SELECT column1 AS start_ns,
    column2 AS end_ns FROM (VALUES $vals)" | cmp - during.txt &&
    echo "--where: the same graph"
echo "--- the SVG"
trace-flame -q --minwidth 0 --during gpu-idle > during.svg || exit 1
xmllint --noout during.svg && echo "valid XML"
echo "frames: $(grep -c '^<g><title>' during.svg)"
awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); p = ""
    for (i = 1; i <= n; i++) { p = p ";" f[i]; seen[p] = 1 } }
    END { for (k in seen) c++; print "expected: " c + 1 }' during.txt
echo "--- edges: a window [ts, ts + 1) holds the sample at ts, [ts - 1, ts) not"
one="FROM sample s JOIN source src ON src.id = s.source_id
    WHERE src.format = 'perf-script' ORDER BY s.ts LIMIT 1 OFFSET 100"
trace-query -F csv sql "SELECT value $one"
trace-flame -q --folded --where "SELECT s.ts AS start_ns,
    s.ts + 1 AS end_ns $one" | tot
trace-flame -q --folded --where "SELECT s.ts - 1 AS start_ns,
    s.ts AS end_ns $one" | tot
