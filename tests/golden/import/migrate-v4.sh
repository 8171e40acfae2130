# A store of schema version 4 (no per-stack aggregates) is migrated to
# version 5 by the first trace-import that writes to it: sample_stack is
# summed from the samples already stored, and trace-flame then draws the
# same graph from it as from the samples; the read-only tools refuse the
# store until then.
cp data/core/v4-perf.db old.db && chmod u+w old.db || exit 99
trace-flame -d old.db --folded > /dev/null
trace-import -d old.db data/core/small2.perf.txt
trace-query -d old.db -F csv sql "PRAGMA user_version"
trace-query -d old.db -F csv sql "SELECT a.source_id, a.event, a.stacks,
    a.n, a.v, s.n = a.n AND s.v = a.v AS equal FROM (SELECT source_id,
    (SELECT e.s FROM str e WHERE e.id = event_id) AS event, count(*) AS
    stacks, sum(samples) AS n, sum(value) AS v FROM sample_stack GROUP BY
    1, 2) a JOIN (SELECT source_id, (SELECT e.s FROM str e WHERE e.id =
    event_id) AS event, count(*) AS n, sum(value) AS v FROM sample GROUP BY
    1, 2) s USING (source_id, event) ORDER BY 1, 2"
for o in "--source 1" "--source 2 --show-pid" "--source 3 --event cpu" \
    "--source 4"; do
	trace-flame -d old.db --folded $o > agg.out 2> /dev/null
	TRACEKIT_NO_AGGREGATES=1 trace-flame -d old.db --folded $o > smp.out \
	    2> /dev/null
	cmp agg.out smp.out && echo "$o: the same $(wc -l < agg.out) stacks"
done
