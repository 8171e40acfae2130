# steps --evidence on the scenario: the rows behind the verdict of each
# stretch of slow steps and of each slowest step, by id, in the sets
# slow_evidence (keyed by stretch) and slowest_evidence (by rank): how
# many of each kind per key, and the first rows; every id is a row of
# its view.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv steps --region step --top 2 --evidence > out.csv ||
    exit 1
for set in stretch rank; do
	sed -n "/^$set,what,view,id,ts,dur_ns,detail/,/^\$/p" out.csv |
	    sed '/^$/d' > $set.csv
	head -n 4 $set.csv
	sed 1d $set.csv | cut -d, -f1-3 | sort | uniq -c | sort -k2,2n -k3
done
# Every id is a row of its view: one count per view over both sets.
cat stretch.csv rank.csv |
    grep -v '^[a-z]' | awk -F, '{ print $3, $4 }' | sort -u |
    awk '{ ids[$1] = ids[$1] (ids[$1] == "" ? "" : ",") $2; n[$1]++ }
    END { for (v in ids) print v, n[v], ids[v] }' | sort |
while read view n ids; do
	m=$(trace-query -F csv sql "SELECT count(*) FROM $view WHERE id IN \
	    ($ids)" | tail -n 1)
	echo "$view: $n ids, $m rows"
done
