# stalls --evidence on the scenario: the rows behind each decision, by id,
# in the set evidence (keyed by window).  How many of each kind per
# window; every row of window 2 (the slow loader behind the channel: the
# driver's chan waits, and the states of goroutine 22, the loader that
# woke it, in syscall inside them, which decide io-blocked) and window 8
# exactly; and every id is a row of its view.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv stalls --evidence > out.csv 2>/dev/null || exit 1
cut -d, -f1,8 out.csv | sed -n '1,/^$/p'
sed -n '/^window,what,view,id,ts,dur_ns,detail/,/^$/p' out.csv |
    sed '/^$/d' > ev.csv
sed 1d ev.csv | cut -d, -f1-3 | sort -t, -k1,1n -k2,3 | uniq -c
head -n 1 ev.csv
awk -F, '$1 == 2 || $1 == 8' ev.csv
# The waker's rows of window 2, clipped to the window, by cause: nearly
# all syscall, the 100% of its decision.
set -- $(awk -F, '$1 == 2 { print $3, $4 }' out.csv)
awk -F, -v lo="$1" -v hi="$2" '$1 == 2 && $2 == "waker" {
	a = $5 > lo ? $5 : lo; b = $5 + $6 < hi ? $5 + $6 : hi
	if (b > a) n[$7] += b - a
    } END { for (k in n) printf "%s %.0f ns\n", k, n[k] }' ev.csv | sort
sed 1d ev.csv | awk -F, '{ print $3, $4 }' | sort -u |
    awk '{ ids[$1] = ids[$1] (ids[$1] == "" ? "" : ",") $2; n[$1]++ }
    END { for (v in ids) print v, n[v], ids[v] }' | sort |
while read view n ids; do
	m=$(trace-query -F csv sql "SELECT count(*) FROM $view WHERE id IN \
	    ($ids)" | tail -n 1)
	echo "$view: $n ids, $m rows"
done
