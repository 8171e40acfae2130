# --evidence: the counter rows and profiles behind each row, by id, on
# the scenario's leak (the per-process row only); each id is checked
# against its view, and the counts against the row's samples and
# heap_profiles.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
set -- $(awk -f "${0%/*}/gpu-mem-phases.awk" data/scenario/truth.json |
    awk '$1 == "leak" { print $3, $4 }')
trace-query -F csv gpu-mem --evidence --pid 21272 --stacks 1 --steps 1 \
    --from "=$1" --to "=$2" > out.csv || exit 1
sed -n '/^row,what,view/,$p' out.csv > ev.csv
awk -F, 'NR > 1 { n[$2]++ } END { for (k in n) print k, n[k] }' ev.csv |
    sort
# Each memory.used row is in gpu_process with its value and time.
awk -F, 'NR > 1 && $2 == "memory.used" { print $4, $5, $6 }' ev.csv |
    while read -r id ts v; do
	trace-query -F csv sql "SELECT count(*) FROM gpu_process WHERE
	    id = $id AND ts = $ts AND value = $v" | sed 1d
done | sort | uniq -c
cat out.csv
