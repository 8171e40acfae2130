# steps --region/--task read the steps from go_span_pack (trace-store(5))
# when they can; TRACEKIT_NO_PACK=1 reads them from go_span instead.  Both
# must print the same, byte for byte: on the scenario (818 steps, its GPU
# telemetry aligned), with windows, other thresholds, more slowest steps
# than a heap of 5, fewer stretches than there are, the steps of one
# goroutine (the pack's goroutines, schema version 9); with two Go traces
# holding regions of the same name (the merge in time order, from
# go_span); with the regions the trace cut (go122-annotations).
trace-import data/scenario data/gotrace/rich125.trace \
    data/gotrace/go122-annotations.trace 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
same() {
	trace-query -F csv steps "$@" > pack.out 2>&1
	TRACEKIT_NO_PACK=1 trace-query -F csv steps "$@" > span.out 2>&1
	if cmp -s pack.out span.out; then
		echo "$*: the same: $(grep -m 1 -E '^(region|task),' pack.out ||
		    grep -m 1 ': steps: ' pack.out)"
	else
		echo "$*: NOT the same"
		diff pack.out span.out | head -n 5
	fi
}
src=$(trace-query -F csv sql "SELECT source_id FROM go_span_pack WHERE
    n = 818 LIMIT 1" | tail -n 1)
same --source "$src" --region step
same --source "$src" --region step --top 40 --stretches 3 --slow 1.3
same --source "$src" --region step --from 3250s --to 3270s
same --source "$src" --region step --from 3280s
same --source "$src" --region step --to 3245s --slow 4
same --source "$src" --region step --to 3000s
same --source "$src" --region gpu --top 0 --stretches 0
same --source "$src" --task step --top 2
same --source "$src" --region step --evidence --top 1 --stretches 1
same --source "$src" --region step --goroutine 23
same --source "$src" --region step --goroutine 23 --from 3250s --to 3270s
same --source "$src" --task step --goroutine 1 --top 1
same --region step --top 3
same --region "task0 region"
same --region "unended region"
trace-query -F csv sql "SELECT kind, count(*) AS names, sum(n) AS spans,
    count(cut_list) AS cut_chunks FROM go_span_pack GROUP BY 1"
