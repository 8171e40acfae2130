# contention's blocking by stack from the trace against Go's own
# `go tool trace -pprof=sync` (data/gotrace/TAG-sync.txt, folded by
# tests/gen/gotrace/pprof-fold.py) on the old-format recordings of Go 1.19
# and Go 1.21 (Go counts channels, select, sync, cond and blocking on the
# GC there): count and nanoseconds per stack must be identical.
for t in gen119 gen121; do
	rm -f t.db
	trace-import -q -d t.db "data/gotrace/$t.trace" || exit 99
	rows=$(trace-query -d t.db -F csv contention --top 100000 |
	    awk -F, '/^source,kind,reason,callsite_id/ { s = 1; next }
	    NF < 2 { s = 0 } s { printf "%s(%s,%s,%s)", n++ ? "," : "", $4,
	    $5, $6 }')
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
	if cmp -s mine.txt "data/gotrace/$t-sync.txt"; then
		awk -v t="$t" '{ n += $1; d += $2 } END { printf "%s sync: " \
		    "%d stacks, %d intervals, %d ns: identical\n", t, NR, n, d
		}' mine.txt
	else
		echo "$t sync: differs from go tool trace -pprof=sync"
		diff "data/gotrace/$t-sync.txt" mine.txt | head -n 20
	fi
done
