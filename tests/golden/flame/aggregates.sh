# trace-flame folds from the folds (sample_fold, schema version 11) when
# the selection picks no threads and the naming shows no pid, tid or
# address, else from the per-stack aggregates (sample_stack) when the
# selection does not look at a sample's time or labels, and from the
# samples otherwise (or with TRACEKIT_NO_AGGREGATES=1; TRACEKIT_NO_FOLDS=1
# skips the folds alone): all three ways must give the same graph and
# folded stacks byte for byte, notes included.  The aggregates of each
# source sum to its samples, the folds to the aggregates.  (perf-parity
# checks the folded stacks against stackcollapse-perf.pl.)
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
# in_order TABLE STACK: rows in key order, STACK the key's last column
in_order() {
	trace-query -F csv sql "SELECT count(*) AS out_of_order FROM $1 a
	    JOIN $1 b ON b.rowid = a.rowid + 1 WHERE
	    (a.source_id, a.event_id, coalesce(a.profile_id, -1),
	    coalesce(a.thread_id, -1), coalesce(a.$2, -1)) >=
	    (b.source_id, b.event_id, coalesce(b.profile_id, -1),
	    coalesce(b.thread_id, -1), coalesce(b.$2, -1))"
}
in_order sample_stack callsite_id
# The folds: a frame stands for those of its name and module, a thread for
# those of its name, each the first of them; the call sites whose frames
# so stand for the same ones share a node.  Checked against the same
# computed in SQL: each call site's and node's path of standing frames.
trace-query -F csv sql "SELECT (SELECT count(*) FROM sample_fold) AS folds,
    (SELECT count(*) FROM fold_node) AS nodes, (SELECT count(*) FROM
    (SELECT DISTINCT parent_id, frame_id FROM fold_node)) AS distinct_nodes,
    (SELECT count(*) FROM fold_node n LEFT JOIN fold_node p ON p.id =
    n.parent_id WHERE n.depth != coalesce(p.depth + 1, 0)) AS bad_depth"
trace-query -F csv sql "WITH RECURSIVE
    rep(id, r) AS (SELECT f.id, (SELECT min(g.id) FROM frame g WHERE
      g.name = f.name AND g.module = f.module) FROM frame f),
    cp(id, path) AS (SELECT c.id, '/' || r.r FROM callsite c JOIN rep r ON
      r.id = c.frame_id WHERE c.parent_id IS NULL UNION ALL SELECT c.id,
      cp.path || '/' || r.r FROM callsite c JOIN cp ON c.parent_id = cp.id
      JOIN rep r ON r.id = c.frame_id),
    np(id, path) AS (SELECT id, '/' || frame_id FROM fold_node WHERE
      parent_id IS NULL UNION ALL SELECT n.id, np.path || '/' || n.frame_id
      FROM fold_node n JOIN np ON n.parent_id = np.id),
    tr(id, r) AS (SELECT t.id, (SELECT min(u.id) FROM thread u WHERE
      u.name = t.name) FROM thread t),
    want AS (SELECT s.source_id, s.event_id, s.profile_id, coalesce((SELECT
      r FROM tr WHERE tr.id = s.thread_id), s.thread_id), cp.path,
      sum(s.samples), sum(s.value), min(s.first_id) FROM sample_stack s
      LEFT JOIN cp ON cp.id = s.callsite_id GROUP BY 1, 2, 3, 4, 5),
    got AS (SELECT f.source_id, f.event_id, f.profile_id, f.thread_id,
      np.path, f.samples, f.value, f.first_id FROM sample_fold f LEFT JOIN
      np ON np.id = f.node_id)
    SELECT (SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT * FROM
      got)) AS missing, (SELECT count(*) FROM (SELECT * FROM got EXCEPT
      SELECT * FROM want)) AS not_folded, (SELECT count(*) FROM sample_fold f
      LEFT JOIN np ON np.id = f.node_id WHERE f.node_id IS NOT NULL AND
      np.id IS NULL) AS lost_nodes"
in_order sample_fold node_id
both() {
	trace-flame "$@" > fld.out 2> fld.err
	echo $? >> fld.err
	TRACEKIT_NO_FOLDS=1 trace-flame "$@" > agg.out 2> agg.err
	echo $? >> agg.err
	TRACEKIT_NO_AGGREGATES=1 trace-flame "$@" > smp.out 2> smp.err
	echo $? >> smp.err
	if cmp -s agg.out smp.out && cmp -s agg.err smp.err &&
	    cmp -s fld.out smp.out && cmp -s fld.err smp.err; then
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
both --folded --no-pname --kernel
both --folded --addrs
both --comm java --folded
both --folded --type cpu
# a time window reads the samples: the same graph as their sum says
trace-flame --source 1 --from 0s --folded > from.out 2> /dev/null
TRACEKIT_NO_AGGREGATES=1 trace-flame --source 1 --folded > smp.out
cmp from.out smp.out && echo "--from 0s: $(wc -l < from.out) stacks"
