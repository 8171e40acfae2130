# sched-latency's wake-up latency by stack against Go's own
# `go tool trace -pprof=sched` (data/gotrace/TAG-sched.txt, folded by
# tests/gen/gotrace/pprof-fold.py) on the old-format recordings of Go 1.19
# and Go 1.21: count and nanoseconds per stack must be identical.  The
# 'stacks' set's rows are folded into Go's text form by the store's stack
# view, as gotrace-pprof.inc folds the states.
for t in gen119 gen121; do
	rm -f t.db
	trace-import -q -d t.db "data/gotrace/$t.trace" || exit 99
	rows=$(trace-query -d t.db -F csv sched-latency --top 100000 |
	    awk -F, '/^source,callsite_id,count,total_ns/ { s = 1; next }
	    NF < 2 { s = 0 } s { printf "%s(%s,%s,%s)", n++ ? "," : "", $2,
	    $3, $4 }')
	trace-query -d t.db -F csv sql "
WITH picked(cs, n, dur) AS (VALUES $rows),
fr AS (
  SELECT st.callsite_id AS cs, st.depth AS depth,
         CASE WHEN f.name = '?' AND f.file = '' THEN '' ELSE f.name END
         || ' ' || f.file || ':' || f.line AS txt
    FROM stack st JOIN frame f ON f.id = st.frame_id),
folded AS (
  SELECT cs, group_concat(txt, ';') AS stk
    FROM (SELECT cs, txt FROM fr ORDER BY cs, depth) GROUP BY cs)
SELECT sum(n) || ' ' || sum(dur) || ' ' || stk AS line
  FROM picked JOIN folded USING (cs) GROUP BY stk ORDER BY stk" |
	    tail -n +2 | tr -d '"' > mine.txt
	if cmp -s mine.txt "data/gotrace/$t-sched.txt"; then
		awk -v t="$t" '{ n += $1; d += $2 } END { printf "%s sched: " \
		    "%d stacks, %d intervals, %d ns: identical\n", t, NR, n, d
		}' mine.txt
	else
		echo "$t sched: differs from go tool trace -pprof=sched"
		diff "data/gotrace/$t-sched.txt" mine.txt | head -n 20
	fi
done
