# steps --all lists every step with its slice id, read from the go-task
# tracks' runs by the runs' own reader (tr_derived_spans()): it must give
# exactly the rows of the go_span view that SQL gives (trace-store(5)),
# in time order, without those the trace cut: regions and tasks, one Go
# trace's or merged from two (the scenario's and rich125's regions named
# step), with a window and a goroutine.
trace-import data/scenario data/gotrace/rich125.trace \
    data/gotrace/go122-annotations.trace 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
# The rows of set "steps": start_ns, dur_ns, id.
steps() {
	trace-query -F csv steps "$@" --all 2>/dev/null |
	    awk -F, '/^step,start_ns,/ { on = 1; next } on && NF == 5 {
		print $2 "," $4 "," $5 }'
}
view() {
	trace-query -F csv sql "SELECT g.ts, g.dur, g.id FROM go_span g
	    JOIN str n ON n.id = g.name_id
	    WHERE g.kind = '$1' AND n.s = '$2' AND $3
	      AND NOT (g.start_unknown OR g.unfinished)
	    ORDER BY g.ts, g.id" | tail -n +2
}
same() {
	steps "$@" > all.out
	view "$kind" "$name" "$where" > view.out
	if [ -s all.out ] && cmp -s all.out view.out; then
		echo "$*: the same: $(wc -l < all.out) steps"
	else
		echo "$*: NOT the same ($(wc -l < all.out) against" \
		    "$(wc -l < view.out))"
		diff all.out view.out | head -n 5
	fi
}
src=$(trace-query -F csv sql "SELECT source_id FROM go_span_pack WHERE
    n = 818 LIMIT 1" | tail -n 1)
kind=region name=step where="g.source_id = $src" \
    same --source "$src" --region step
kind=region name=step where=1 same --region step
kind=task name=step where=1 same --task step
kind=region name=data where="g.source_id = $src AND g.ts + g.dur >= \
3250000000000 AND g.ts < 3270000000000" \
    same --source "$src" --region data --from 3250s --to 3270s
kind=region name=step where="g.source_id = $src AND g.goid = 23" \
    same --source "$src" --region step --goroutine 23
kind=region name="region0" where=1 same --region region0
