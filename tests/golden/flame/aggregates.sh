# trace-flame folds from the per-stack aggregates (sample_stack) when the
# selection does not look at a sample's time or labels, and from the
# samples otherwise (or with TRACEKIT_NO_AGGREGATES=1): both ways must give
# the same graph and folded stacks byte for byte, notes included.  The
# aggregates of each source sum to its samples.  (perf-parity checks the
# aggregates' folded stacks against stackcollapse-perf.pl.)
trace-import -q data/perf/flamegraph/*.txt.gz data/core/small.perf.txt \
    data/pprof/sample.cpu.pb.gz data/pprof/large.cpu.pb.gz || exit 99
trace-query -F csv sql "SELECT count(*) AS sources, sum(s.n = a.n AND
    s.v = a.v AND s.first = a.first) AS equal FROM (SELECT source_id,
    count(*) AS n, sum(value) AS v, min(id) AS first FROM sample GROUP BY 1)
    s JOIN (SELECT source_id, sum(samples) AS n, sum(value) AS v,
    min(first_id) AS first FROM sample_stack GROUP BY 1) a USING
    (source_id)"
trace-query -F csv sql "SELECT (SELECT count(*) FROM sample) AS samples,
    (SELECT count(*) FROM sample_stack) AS stacks"
# They are summed in C (derived-stack.c): exactly the rows of SQL's GROUP
# BY, NULL profiles (perf) and threads (pprof) included, in its order.
trace-query -F csv sql "WITH g AS (SELECT source_id, event_id, profile_id,
    thread_id, callsite_id, count(*) AS samples, sum(value) AS value,
    min(id) AS first_id FROM sample GROUP BY 1, 2, 3, 4, 5)
    SELECT (SELECT count(*) FROM (SELECT * FROM sample_stack EXCEPT
    SELECT * FROM g)) AS not_grouped, (SELECT count(*) FROM (SELECT * FROM
    g EXCEPT SELECT * FROM sample_stack)) AS missing,
    (SELECT count(*) FROM sample_stack WHERE profile_id IS NULL) AS
    no_profile, (SELECT count(*) FROM sample_stack WHERE thread_id IS NULL)
    AS no_thread"
trace-query -F csv sql "SELECT count(*) AS out_of_order FROM sample_stack a
    JOIN sample_stack b ON b.rowid = a.rowid + 1 WHERE
    (a.source_id, a.event_id, coalesce(a.profile_id, -1),
    coalesce(a.thread_id, -1), coalesce(a.callsite_id, -1)) >=
    (b.source_id, b.event_id, coalesce(b.profile_id, -1),
    coalesce(b.thread_id, -1), coalesce(b.callsite_id, -1))"
both() {
	trace-flame "$@" > agg.out 2> agg.err
	echo $? >> agg.err
	TRACEKIT_NO_AGGREGATES=1 trace-flame "$@" > smp.out 2> smp.err
	echo $? >> smp.err
	if cmp -s agg.out smp.out && cmp -s agg.err smp.err; then
		echo "same $*: $(wc -c < agg.out) bytes"
	else
		echo "DIFFERENT $*"
	fi
}
both
both --folded
both --folded --show-pid --all
both --source 1
both --source 5 --folded --show-tid
both --source 1 --pid 963 --show-pid
both --source 15 --folded --show-tid
both --source 16 --event cpu
both --source 17 --event samples --folded
both --source 2 --title aggregates --colors hot
# a time window reads the samples: the same graph as their sum says
trace-flame --source 1 --from 0s --folded > from.out 2> /dev/null
TRACEKIT_NO_AGGREGATES=1 trace-flame --source 1 --folded > smp.out
cmp from.out smp.out && echo "--from 0s: $(wc -l < from.out) stacks"
