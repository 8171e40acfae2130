/*
 * Unit tests for the scheduler and blocking tables (store/derived.h,
 * derived-sched.c): on real Go traces of the old and the generation
 * format, every go_blocked_stack row must equal what the replay of the
 * goroutine states by an SQL oracle (the engine's rules of
 * query/blocked.h written in SQL) gives for that kind and that format,
 * and so must the engine's replay of the states around any window,
 * goroutine or window list (tr_derived_blocked()); every
 * go_sched_lat and go_sched_long row what a plain pass over the go_state
 * view gives, and every go_wait_sec row too; rebuilt from slice_run and after trace-align moved the
 * source off the second grid, they must still be so.  The buckets of
 * durations hold what they say.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "base/util.h"
#include "query/blocked.h"
#include "query/sel.h"
#include "store/db.h"
#include "store/derived.h"
#include "test-store.h"

static int
cmp_stack(const void *a, const void *b)
{
	const struct tr_blocked_stack	*x = a, *y = b;

	return (x->callsite_id < y->callsite_id ? -1 :
	    x->callsite_id > y->callsite_id);
}

/*
 * The oracle: the replay of blocked.h's rules in SQL that the blocking
 * engine used before it replayed in C (derived.c tr_derived_blocked()),
 * over every state of the source, each interval clipped to the
 * selection's time here.  It shares no code with the engine.
 */
#define GS_CTE \
"gs AS MATERIALIZED (" \
"  SELECT t.ref AS goid, s.id AS id, s.ts AS ts, s.dur AS dur," \
"         n.s AS state, c.s AS reason, s.callsite_id AS callsite_id," \
"         s.args AS args" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id" \
"    CROSS JOIN str n ON n.id = s.name_id" \
"    LEFT JOIN str c ON c.id = s.category_id" \
"   WHERE t.kind = 'goroutine' AND t.source_id = 1" \
"     AND (?1 < 0 OR t.ref = ?1))"

static const char *const old_sets[] = {
	/* sync */ "g.state = 'blocked' AND g.reason IN ('chan send', "
	    "'chan recv', 'select', 'sync', 'cond', 'GC')",
	/* net */ "g.state = 'blocked' AND g.reason = 'net'",
	/* syscall */ "g.state = 'blocked' AND g.reason = 'syscall'",
	/* sched */ "g.state = 'runnable' AND g.reason IN ('created', "
	    "'unblocked')",
	/* chan */ "g.state = 'blocked' AND g.reason IN ('chan send', "
	    "'chan recv', 'select')",
	/* mutex */ "g.state = 'blocked' AND g.reason = 'sync'",
	/* sleep */ "g.state = 'blocked' AND g.reason = 'sleep'",
	/* all */ "(g.state = 'blocked' OR (g.state = 'runnable' AND "
	    "g.reason IN ('created', 'unblocked')))",
};

static const char old_sql[] =
"WITH " GS_CTE
" SELECT g.callsite_id, g.ts, g.ts + g.dur FROM gs g"
" WHERE g.callsite_id IS NOT NULL"
"   AND json_extract(g.args, '$.unfinished') IS NULL AND %s";

static const char new_sql[] =
"WITH " GS_CTE ","
"st AS MATERIALIZED ("
"  SELECT g.goid AS goid, g.id AS id, g.ts AS ts, g.callsite_id AS cs,"
"         CASE WHEN g.state = 'running' THEN 'Running'"
"              WHEN g.state = 'runnable' THEN 'Runnable'"
"              WHEN g.reason = 'syscall' THEN 'Syscall'"
"              ELSE 'Waiting' END AS gst,"
"         coalesce(json_extract(g.args, '$.reason'), '') AS r"
"    FROM gs g WHERE g.callsite_id IS NOT NULL),"
"runs AS MATERIALIZED ("
"  SELECT *,"
"         sum(gst <> '%s') OVER (PARTITION BY goid ORDER BY ts, id) AS grp"
"    FROM st),"
"starts AS MATERIALIZED ("
"  SELECT goid, grp, cs, ts,"
"         row_number() OVER (PARTITION BY goid, grp ORDER BY ts, id) AS k"
"    FROM runs WHERE gst = '%s' AND (%s)),"
"ends AS MATERIALIZED ("
"  SELECT goid, grp - 1 AS grp, ts FROM runs WHERE gst <> '%s'),"
"firstrun AS MATERIALIZED ("
"  SELECT goid, min(ts) AS fr FROM gs"
"   WHERE state = 'running' GROUP BY goid)"
"SELECT cs, b, e FROM ("
"  SELECT s.goid AS goid, s.cs AS cs,"
"         max(s.ts, coalesce(f.fr, s.ts)) AS b, e.ts AS e"
"    FROM starts s JOIN ends e USING (goid, grp)"
"    LEFT JOIN firstrun f USING (goid) WHERE s.k = 1)"
" WHERE e > b";

static const struct {
	const char	*state, *reason;
} new_sets[][3] = {
	/* sync */ { { "Waiting", "r LIKE '%chan%' OR r LIKE '%sync%' OR "
	    "r LIKE '%select%'" } },
	/* net */ { { "Waiting", "r = 'network'" } },
	/* syscall */ { { "Syscall", "1" } },
	/* sched */ { { "Runnable", "1" } },
	/* chan */ { { "Waiting", "r LIKE '%chan%' OR r LIKE '%select%'" } },
	/* mutex */ { { "Waiting", "r = 'sync'" } },
	/* sleep */ { { "Waiting", "r = 'sleep'" } },
	/* all */ { { "Waiting", "1" }, { "Syscall", "1" },
	    { "Runnable", "1" } },
};

/* [b, e) clipped to the selection's time, by a plain loop. */
static int64_t
oracle_clip(const struct tr_sel *sel, int64_t b, int64_t e)
{
	int64_t	in = 0, lo, hi;
	size_t	i;

	if (sel->has_from && b < sel->from)
		b = sel->from;
	if (sel->has_to && e > sel->to)
		e = sel->to;
	if (e <= b)
		return (0);
	if (!sel->has_windows)
		return (e - b);
	for (i = 0; i < sel->nwindows; i++) {
		lo = sel->windows[i].start > b ? sel->windows[i].start : b;
		hi = sel->windows[i].end < e ? sel->windows[i].end : e;
		if (hi > lo)
			in += hi - lo;
	}
	return (sel->windows_exclude ? (e - b) - in : in);
}

static void
oracle_read(struct tr_db *db, const struct tr_sel *sel, const char *sql,
    struct tr_blocked *out, size_t *cap)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	int64_t		 ns, cs;
	size_t		 i;

	tr_error_init(&err);
	st = tr_db_prepare(db, sql, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	sqlite3_bind_int64(st, 1, sel->goid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ns = oracle_clip(sel, sqlite3_column_int64(st, 1),
		    sqlite3_column_int64(st, 2));
		if (ns <= 0)
			continue;
		cs = sqlite3_column_int64(st, 0);
		for (i = 0; i < out->n && out->stacks[i].callsite_id != cs; i++)
			;
		if (i == out->n) {
			if (out->n == *cap) {
				*cap = *cap ? 2 * *cap : 64;
				out->stacks = tr_xrealloc(out->stacks, *cap *
				    sizeof *out->stacks);
			}
			out->stacks[out->n].callsite_id = cs;
			out->stacks[out->n].count = 0;
			out->stacks[out->n++].ns = 0;
		}
		out->stacks[i].count++;
		out->stacks[i].ns += ns;
		out->count++;
		out->ns += ns;
	}
	ck_assert_int_eq(sqlite3_finalize(st), SQLITE_OK);
}

/* Source 1's intervals of 'kind' in the selection, by the oracle. */
static void
oracle(struct tr_db *db, const struct tr_sel *sel, int kind, int gen,
    struct tr_blocked *out)
{
	size_t	 cap = 0;
	int	 k;
	char	*sql;

	memset(out, 0, sizeof *out);
	if (!gen) {
		sql = tr_xasprintf(old_sql, old_sets[kind]);
		oracle_read(db, sel, sql, out, &cap);
		free(sql);
	}
	for (k = 0; gen && k < 3 && new_sets[kind][k].state != NULL; k++) {
		sql = tr_xasprintf(new_sql, new_sets[kind][k].state,
		    new_sets[kind][k].state, new_sets[kind][k].reason,
		    new_sets[kind][k].state);
		oracle_read(db, sel, sql, out, &cap);
		free(sql);
	}
	if (out->n > 1)
		qsort(out->stacks, out->n, sizeof *out->stacks, cmp_stack);
}

/* Whether source 1 is of the generation format. */
static int
is_gen(struct tr_db *db)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	const char	*v;
	int		 major = 0, minor = 0, gen;

	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT json_extract(meta, '$.go_version'), "
	    "json_extract(meta, '$.generations') FROM source WHERE id = 1",
	    &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = (const char *)sqlite3_column_text(st, 0);
	gen = sqlite3_column_type(st, 1) != SQLITE_NULL || (v != NULL &&
	    sscanf(v, "%d.%d", &major, &minor) == 2 && (major > 1 ||
	    (major == 1 && minor >= 22)));
	sqlite3_finalize(st);
	return (gen);
}

/* The engine's answer for 'sel' against the oracle's, stack by stack. */
static int64_t
check_sel(struct tr_db *db, const struct tr_sel *sel, const char *what)
{
	struct tr_blocked	 slow, fast;
	struct tr_error		 err;
	int64_t			 rows = 0;
	size_t			 i;
	int			 k, gen = is_gen(db);

	tr_error_init(&err);
	for (k = 0; k < TR_DB_NKIND; k++) {
		oracle(db, sel, k, gen, &slow);
		ck_assert_msg(tr_blocked_collect(db, sel,
		    (enum tr_blocked_kind)k, &fast, &err) == 0, "%s", err.msg);
		ck_assert_msg(slow.n == fast.n, "%s %s: %zu stacks replayed, "
		    "%zu by the engine", what, tr_blocked_kind_stems[k],
		    slow.n, fast.n);
		for (i = 0; i < slow.n; i++) {
			ck_assert_int_eq(slow.stacks[i].callsite_id,
			    fast.stacks[i].callsite_id);
			ck_assert_msg(slow.stacks[i].count ==
			    fast.stacks[i].count && slow.stacks[i].ns ==
			    fast.stacks[i].ns, "%s %s stack %lld: replayed "
			    "%lld %lld ns, engine %lld %lld ns", what,
			    tr_blocked_kind_stems[k],
			    (long long)slow.stacks[i].callsite_id,
			    (long long)slow.stacks[i].count,
			    (long long)slow.stacks[i].ns,
			    (long long)fast.stacks[i].count,
			    (long long)fast.stacks[i].ns);
		}
		ck_assert_int_eq(slow.count, fast.count);
		ck_assert_int_eq(slow.ns, fast.ns);
		rows += (int64_t)slow.n;
		free(slow.stacks);
		tr_blocked_release(&fast);
	}
	return (rows);
}

/* go_blocked_stack (no restriction) against the oracle over all time. */
static int64_t
check_blocked(struct tr_db *db, const char *what)
{
	struct tr_sel	 sel;
	struct tr_error	 err;
	int64_t		 rows;

	tr_error_init(&err);
	tr_sel_init(&sel, TR_SEL_SOURCE | TR_SEL_TIME);
	ck_assert_int_eq(tr_sel_resolve(&sel, db, &err), 0);
	rows = check_sel(db, &sel, what);
	tr_sel_release(&sel);
	return (rows);
}

/* A runnable state as go_state and go_goroutine give it. */
struct rs {
	int64_t	 bin, grp, ts, dur, track;
	char	*reason;
	int	 bucket;
};

static int
cmp_rs(const void *a, const void *b)
{
	const struct rs	*x = a, *y = b;
	int		 c;

	if (x->bin != y->bin)
		return (x->bin < y->bin ? -1 : 1);
	if ((c = strcmp(x->reason, y->reason)) != 0)
		return (c);
	if (x->grp != y->grp)
		return (x->grp < y->grp ? -1 : 1);
	return (x->bucket - y->bucket);
}

static int64_t
fdiv(int64_t a, int64_t b)
{
	return (a / b - (a % b < 0));
}

/* go_sched_lat and go_sched_long against go_state, row by row. */
static int64_t
check_lat(struct tr_db *db, const char *what)
{
	struct tr_error	 err;
	sqlite3_stmt	*st, *tb;
	struct rs	*v = NULL;
	size_t		 n = 0, cap = 0, i, j;
	int64_t		 rows = 0, c, ns, min, max, nl;
	const char	*t;

	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT s.ts, s.dur, coalesce(s.reason, ''), "
	    "coalesce(g.callsite_id, 0), g.track_id FROM go_state s "
	    "JOIN go_goroutine g ON g.source_id = s.source_id AND "
	    "g.goid = s.goid WHERE s.state = 'runnable'", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			v = tr_xrealloc(v, cap * sizeof *v);
		}
		v[n].ts = sqlite3_column_int64(st, 0);
		v[n].dur = sqlite3_column_int64(st, 1);
		v[n].reason = tr_xstrdup((const char *)
		    sqlite3_column_text(st, 2));
		v[n].grp = sqlite3_column_int64(st, 3);
		v[n].track = sqlite3_column_int64(st, 4);
		v[n].bin = fdiv(v[n].ts, TR_DERIVED_LAT_BIN);
		v[n].bucket = tr_derived_lat_bucket(v[n].dur);
		n++;
	}
	sqlite3_finalize(st);
	ck_assert_int_gt(n, 0);
	qsort(v, n, sizeof *v, cmp_rs);
	tb = tr_db_prepare(db, "SELECT ts, coalesce(reason, ''), "
	    "coalesce(callsite_id, 0), bucket, count, total_ns, min_ns, max_ns "
	    "FROM "
	    "go_sched_lat WHERE source_id = 1 ORDER BY ts, 2, 3, bucket",
	    &err);
	ck_assert_msg(tb != NULL, "%s", err.msg);
	for (i = 0; i < n; i = j) {
		c = ns = max = 0;
		min = INT64_MAX;
		for (j = i; j < n && cmp_rs(&v[i], &v[j]) == 0; j++) {
			c++;
			ns += v[j].dur;
			if (v[j].dur < min)
				min = v[j].dur;
			if (v[j].dur > max)
				max = v[j].dur;
		}
		ck_assert_msg(sqlite3_step(tb) == SQLITE_ROW, "%s: go_sched_lat "
		    "has fewer rows than the states give", what);
		t = (const char *)sqlite3_column_text(tb, 1);
		ck_assert_msg(sqlite3_column_int64(tb, 0) == v[i].bin *
		    TR_DERIVED_LAT_BIN && strcmp(t, v[i].reason) == 0 &&
		    sqlite3_column_int64(tb, 2) == v[i].grp &&
		    sqlite3_column_int(tb, 3) == v[i].bucket, "%s: go_sched_lat "
		    "row %lld: (%lld, %s, %lld, %d), the states (%lld, %s, "
		    "%lld, %d)", what, (long long)rows,
		    (long long)sqlite3_column_int64(tb, 0), t,
		    (long long)sqlite3_column_int64(tb, 2),
		    sqlite3_column_int(tb, 3), (long long)(v[i].bin *
		    TR_DERIVED_LAT_BIN), v[i].reason, (long long)v[i].grp,
		    v[i].bucket);
		ck_assert_int_eq(sqlite3_column_int64(tb, 4), c);
		ck_assert_int_eq(sqlite3_column_int64(tb, 5), ns);
		ck_assert_int_eq(sqlite3_column_int64(tb, 6), min);
		ck_assert_int_eq(sqlite3_column_int64(tb, 7), max);
		rows++;
	}
	ck_assert_msg(sqlite3_step(tb) == SQLITE_DONE, "%s: go_sched_lat has "
	    "more rows than the states give", what);
	sqlite3_finalize(tb);
	/* The long states, one by one. */
	tb = tr_db_prepare(db, "SELECT ts, dur, track_id, coalesce(reason, "
	    "'') FROM go_sched_long WHERE source_id = 1 ORDER BY track_id, "
	    "ts, dur", &err);
	ck_assert_msg(tb != NULL, "%s", err.msg);
	st = tr_db_prepare(db, "SELECT s.ts, s.dur, g.track_id, "
	    "coalesce(s.reason, '') FROM go_state s JOIN go_goroutine g ON "
	    "g.source_id = s.source_id AND g.goid = s.goid WHERE s.state = "
	    "'runnable' AND s.dur >= 1000000 ORDER BY 3, 1, 2", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	nl = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		ck_assert_msg(sqlite3_step(tb) == SQLITE_ROW, "%s: "
		    "go_sched_long lacks a state", what);
		for (i = 0; i < 3; i++)
			ck_assert_int_eq(sqlite3_column_int64(tb, (int)i),
			    sqlite3_column_int64(st, (int)i));
		ck_assert_str_eq((const char *)sqlite3_column_text(tb, 3),
		    (const char *)sqlite3_column_text(st, 3));
		nl++;
	}
	ck_assert_msg(sqlite3_step(tb) == SQLITE_DONE, "%s: go_sched_long "
	    "has a state too many", what);
	sqlite3_finalize(st);
	sqlite3_finalize(tb);
	for (i = 0; i < n; i++)
		free(v[i].reason);
	free(v);
	return (rows + nl);
}

/* A goroutine's waits in a second, as go_state gives them. */
struct ws {
	int64_t	 sec, track, sync, chan;
};

static int
cmp_ws(const void *a, const void *b)
{
	const struct ws	*x = a, *y = b;

	if (x->sec != y->sec)
		return (x->sec < y->sec ? -1 : 1);
	return (x->track < y->track ? -1 : x->track > y->track);
}

static struct ws *
ws_add(struct ws **v, size_t *n, size_t *cap, int64_t sec, int64_t track)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		*v = tr_xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[*n].sec = sec;
	(*v)[*n].track = track;
	(*v)[*n].sync = (*v)[*n].chan = 0;
	return (&(*v)[(*n)++]);
}

/* go_wait_sec against go_state, row by row. */
static int64_t
check_waits(struct tr_db *db, const char *what)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	struct ws	*v = NULL;
	size_t		 n = 0, cap = 0, i, j, m = 0;
	int64_t		 ts, e, k, a, b, S = TR_DERIVED_LAT_BIN;

	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT s.ts, s.dur, s.reason IN ('sync', "
	    "'cond'), g.track_id FROM go_state s JOIN go_goroutine g ON "
	    "g.source_id = s.source_id AND g.goid = s.goid WHERE s.state = "
	    "'blocked' AND s.dur > 0 AND s.reason IN ('sync', 'cond', "
	    "'chan send', 'chan recv', 'select')", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ts = sqlite3_column_int64(st, 0);
		e = ts + sqlite3_column_int64(st, 1);
		if (!sqlite3_column_int(st, 2)) {
			ws_add(&v, &n, &cap, fdiv(e, S),
			    sqlite3_column_int64(st, 3))->chan = e - ts;
			continue;
		}
		for (k = fdiv(ts, S); k <= fdiv(e - 1, S); k++) {
			a = k * S;
			b = a + S;
			ws_add(&v, &n, &cap, k, sqlite3_column_int64(st, 3))->
			    sync = (e < b ? e : b) - (ts > a ? ts : a);
		}
	}
	sqlite3_finalize(st);
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_ws);
	/* Sum each (second, track). */
	for (i = 0; i < n; i = j) {
		struct ws	t = v[i];

		for (j = i + 1; j < n && cmp_ws(&v[i], &v[j]) == 0; j++) {
			t.sync += v[j].sync;
			t.chan += v[j].chan;
		}
		v[m++] = t;
	}
	st = tr_db_prepare(db, "SELECT ts, track_id, sync_ns, chan_end_ns "
	    "FROM go_wait_sec WHERE source_id = 1 ORDER BY ts, track_id",
	    &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	for (i = 0; i < m; i++) {
		ck_assert_msg(sqlite3_step(st) == SQLITE_ROW, "%s: go_wait_sec "
		    "lacks rows", what);
		ck_assert_int_eq(sqlite3_column_int64(st, 0), v[i].sec * S);
		ck_assert_int_eq(sqlite3_column_int64(st, 1), v[i].track);
		ck_assert_int_eq(sqlite3_column_int64(st, 2), v[i].sync);
		ck_assert_int_eq(sqlite3_column_int64(st, 3), v[i].chan);
	}
	ck_assert_msg(sqlite3_step(st) == SQLITE_DONE, "%s: go_wait_sec has "
	    "rows too many", what);
	sqlite3_finalize(st);
	free(v);
	return ((int64_t)m);
}

/*
 * go_mutex_waker against go_state: each mutex wait and the runnable
 * state that starts where it ends, if its waker is known.
 */
static int64_t
check_wakers(struct tr_db *db, const char *what)
{
	struct tr_error	 err;
	sqlite3_stmt	*a, *b;
	int64_t		 rows = 0;
	int		 i, ra, rb;

	tr_error_init(&err);
	a = tr_db_prepare(db, "WITH m AS MATERIALIZED (SELECT goid, ts, dur, "
	    "callsite_id FROM go_state WHERE state = 'blocked' AND reason = "
	    "'sync' AND dur > 0), r AS MATERIALIZED (SELECT goid, ts, "
	    "callsite_id, json_extract(args, '$.waker') AS w FROM go_state "
	    "WHERE state = 'runnable' AND reason = 'unblocked') "
	    "SELECT coalesce(r.w, 0), coalesce(CASE WHEN r.w > 0 THEN "
	    "r.callsite_id END, 0), coalesce(m.callsite_id, 0), count(*), "
	    "sum(m.dur) FROM m LEFT JOIN r ON r.goid = m.goid AND "
	    "r.ts = m.ts + m.dur AND r.w > 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
	    &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	b = tr_db_prepare(db, "SELECT coalesce(waker_goid, 0), "
	    "coalesce(callsite_id, 0), coalesce(blocked_callsite_id, 0), "
	    "sum(count), sum(total_ns) FROM go_mutex_waker WHERE source_id = 1 "
	    "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3", &err);
	ck_assert_msg(b != NULL, "%s", err.msg);
	for (;;) {
		ra = sqlite3_step(a);
		rb = sqlite3_step(b);
		ck_assert_msg(ra == rb, "%s: go_mutex_waker has %s rows",
		    what, ra == SQLITE_ROW ? "fewer" : "more");
		if (ra != SQLITE_ROW)
			break;
		for (i = 0; i < 5; i++)
			ck_assert_msg(sqlite3_column_int64(a, i) ==
			    sqlite3_column_int64(b, i), "%s: go_mutex_waker "
			    "row %lld column %d: %lld, go_state %lld", what,
			    (long long)rows, i,
			    (long long)sqlite3_column_int64(b, i),
			    (long long)sqlite3_column_int64(a, i));
		rows++;
	}
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	return (rows);
}

static const char *const traces[] = {
	"go119-fixture.trace",		/* Go 1.19, old format */
	"gen119.trace",
	"gen121.trace",			/* Go 1.21, old format */
	"gen122.trace",			/* Go 1.22, generations */
	"gen123.trace",
	"go122-gc-stress.trace",
	"rich125.trace",		/* Go 1.25 */
};

START_TEST(test_blocked_equals_replay)
{
	struct tr_db	*db = test_store_gotrace(traces[_i]);
	struct tr_error	 err;

	ck_assert_int_gt(check_blocked(db, traces[_i]), 0);
	ck_assert_int_gt(check_lat(db, traces[_i]), 0);
	ck_assert_int_gt(check_waits(db, traces[_i]), 0);
	check_wakers(db, traces[_i]);
	/* Rebuilt from slice_run: the same. */
	tr_error_init(&err);
	ck_assert_msg(tr_derived_rebuild(db, 1, &err) == 0, "%s", err.msg);
	ck_assert_int_gt(check_blocked(db, traces[_i]), 0);
	ck_assert_int_gt(check_lat(db, traces[_i]), 0);
	ck_assert_int_gt(check_waits(db, traces[_i]), 0);
	check_wakers(db, traces[_i]);
	tr_db_free(db);
}
END_TEST

/*
 * Windows cut anywhere in the trace, one goroutine, and window lists
 * taken and left out: the engine's replay of part of the states equals
 * the oracle's replay of them all, clipped.
 */
static int64_t
check_windows(struct tr_db *db, const char *what)
{
	struct tr_sel		 sel;
	struct tr_error		 err;
	struct tr_window	 w[3];
	sqlite3_stmt		*st;
	int64_t			 lo, hi, span, goid, rows = 0;
	char			 buf[128];
	int			 i, ex;

	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT ts_min, ts_max FROM source WHERE id = 1",
	    &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	lo = sqlite3_column_int64(st, 0);
	hi = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	span = hi - lo;
	ck_assert_int_gt(span, 1000);
	/* The goroutine with the most states. */
	st = tr_db_prepare(db, "SELECT goid FROM go_summary WHERE source_id = "
	    "1 ORDER BY states DESC, goid LIMIT 1", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	goid = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (i = 0; i < 12; i++) {
		tr_sel_init(&sel, TR_SEL_SOURCE | TR_SEL_TIME);
		ck_assert_int_eq(tr_sel_resolve(&sel, db, &err), 0);
		if (i < 6) {		/* a quarter of the span, six places */
			sel.has_from = sel.has_to = 1;
			sel.from = lo + span * i / 6 + 7;
			sel.to = sel.from + span / 4;
		} else if (i == 6) {	/* a microsecond */
			sel.has_from = sel.has_to = 1;
			sel.from = lo + span / 2;
			sel.to = sel.from + 1000;
		} else if (i == 7) {	/* from, to the end */
			sel.has_from = 1;
			sel.from = lo + span / 3;
		} else if (i == 8) {	/* from the start, to */
			sel.has_to = 1;
			sel.to = lo + span / 3;
		} else if (i == 9) {	/* one goroutine, in a window */
			sel.goid = goid;
			sel.has_from = sel.has_to = 1;
			sel.from = lo + span / 5;
			sel.to = lo + span / 2;
		} else {		/* windows, taken or left out */
			ex = i == 11;
			w[0].start = lo + span / 10;
			w[0].end = lo + span / 5;
			w[1].start = lo + span * 4 / 10;
			w[1].end = lo + span / 2;
			w[2].start = lo + span * 7 / 10;
			w[2].end = lo + span * 9 / 10;
			ck_assert_int_eq(tr_sel_set_windows(&sel, db, w, 3, ex,
			    &err), 0);
			if (ex) {
				sel.has_from = sel.has_to = 1;
				sel.from = lo + span / 20;
				sel.to = lo + span * 8 / 10;
			}
		}
		snprintf(buf, sizeof buf, "%s window %d", what, i);
		rows += check_sel(db, &sel, buf);
		tr_sel_release(&sel);
	}
	return (rows);
}

START_TEST(test_blocked_windows)
{
	struct tr_db	*db = test_store_gotrace(traces[_i]);

	ck_assert_int_gt(check_windows(db, traces[_i]), 0);
	tr_db_free(db);
}
END_TEST

/*
 * Cut every run of slice_run into runs of at most 'per' slices (the ids
 * of the slices kept), so that the engine's search for where to start
 * and its reading past the window cross runs, as on big stores.
 */
static void
rechunk(struct tr_db *db, int per)
{
	struct tr_error	 err;
	sqlite3_stmt	*rd, *ins, *sl;
	struct tr_buf	 b;
	int64_t		 rid, id = 0, k, run = -1, ts0 = 0, end = 0, n = 0;
	int64_t		 src = 0, trk = 0, ts, e;

	tr_error_init(&err);
	tr_buf_init(&b);
	ck_assert_int_eq(tr_db_exec(db, "CREATE TEMP TABLE old_run AS SELECT "
	    "* FROM slice_run; DELETE FROM slice_run", &err), 0);
	rd = tr_db_prepare(db, "SELECT r.id, j.key, r.source_id, r.track_id, "
	    "r.ts + json_extract(j.value, '$[0]'), json_extract(j.value, "
	    "'$[1]'), j.value FROM old_run r, json_each(r.slices) j "
	    "ORDER BY r.id, j.key", &err);
	ck_assert_msg(rd != NULL, "%s", err.msg);
	ins = tr_db_prepare(db, "INSERT INTO slice_run VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6, ?7)", &err);
	ck_assert_msg(ins != NULL, "%s", err.msg);
	sl = tr_db_prepare(db, "SELECT json_set(?1, '$[0]', ?2)", &err);
	ck_assert_msg(sl != NULL, "%s", err.msg);
	for (;;) {
		int	row = sqlite3_step(rd) == SQLITE_ROW;

		rid = row ? sqlite3_column_int64(rd, 0) : -1;
		k = row ? sqlite3_column_int64(rd, 1) : 0;
		if (n > 0 && (!row || rid != run || n == per)) {
			tr_buf_add(&b, "]", 1);
			sqlite3_bind_int64(ins, 1, id);
			sqlite3_bind_int64(ins, 2, src);
			sqlite3_bind_int64(ins, 3, trk);
			sqlite3_bind_int64(ins, 4, ts0);
			sqlite3_bind_int64(ins, 5, end);
			sqlite3_bind_int64(ins, 6, n);
			sqlite3_bind_text(ins, 7, b.data, (int)b.len,
			    SQLITE_TRANSIENT);
			ck_assert_int_eq(sqlite3_step(ins), SQLITE_DONE);
			sqlite3_reset(ins);
			n = 0;
		}
		if (!row)
			break;
		ts = sqlite3_column_int64(rd, 4);
		e = ts + sqlite3_column_int64(rd, 5);
		if (n == 0) {
			id = rid + k;
			run = rid;
			src = sqlite3_column_int64(rd, 2);
			trk = sqlite3_column_int64(rd, 3);
			ts0 = ts;
			end = e;
			tr_buf_reset(&b);
			tr_buf_add(&b, "[", 1);
		} else
			tr_buf_add(&b, ",", 1);
		if (e > end)
			end = e;
		sqlite3_bind_value(sl, 1, sqlite3_column_value(rd, 6));
		sqlite3_bind_int64(sl, 2, ts - ts0);
		ck_assert_int_eq(sqlite3_step(sl), SQLITE_ROW);
		tr_buf_add(&b, (const char *)sqlite3_column_text(sl, 0),
		    (size_t)sqlite3_column_bytes(sl, 0));
		sqlite3_reset(sl);
		n++;
	}
	sqlite3_finalize(rd);
	sqlite3_finalize(ins);
	sqlite3_finalize(sl);
	tr_buf_release(&b);
	ck_assert_int_eq(tr_db_exec(db, "DROP TABLE old_run", &err), 0);
}

START_TEST(test_blocked_windows_short_runs)
{
	static const char *const t[] = {
		"go119-fixture.trace", "gen122.trace", "rich125.trace"
	};
	struct tr_db	*db = test_store_gotrace(t[_i]);
	char		 buf[64];

	rechunk(db, 2);
	snprintf(buf, sizeof buf, "%s in runs of 2", t[_i]);
	ck_assert_int_gt(check_blocked(db, buf), 0);
	ck_assert_int_gt(check_windows(db, buf), 0);
	tr_db_free(db);
}
END_TEST

/*
 * go_blocked_bin by second: over each (rules, kind, stack) its counts and
 * nanoseconds sum to go_blocked_stack's row.
 */
static void
check_bins_sum(struct tr_db *db, const char *what)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	int64_t		 rows = 0;

	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT s.rules, s.kind, s.callsite_id, "
	    "s.count, s.total_ns, (SELECT sum(count) FROM go_blocked_bin b "
	    "WHERE b.source_id = s.source_id AND b.rules = s.rules AND "
	    "b.kind = s.kind AND b.callsite_id = s.callsite_id), (SELECT "
	    "sum(total_ns) FROM go_blocked_bin b WHERE b.source_id = "
	    "s.source_id AND b.rules = s.rules AND b.kind = s.kind AND "
	    "b.callsite_id = s.callsite_id) FROM go_blocked_stack s", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ck_assert_msg(sqlite3_column_int64(st, 3) ==
		    sqlite3_column_int64(st, 5) && sqlite3_column_int64(st, 4)
		    == sqlite3_column_int64(st, 6), "%s: %s %s stack %lld: "
		    "%lld %lld ns, its seconds %lld %lld ns", what,
		    sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		    (long long)sqlite3_column_int64(st, 2),
		    (long long)sqlite3_column_int64(st, 3),
		    (long long)sqlite3_column_int64(st, 4),
		    (long long)sqlite3_column_int64(st, 5),
		    (long long)sqlite3_column_int64(st, 6));
		rows++;
	}
	sqlite3_finalize(st);
	ck_assert_int_gt(rows, 0);
	ck_assert_int_eq(test_store_int(db, "SELECT count(*) FROM go_blocked_bin "
	    "WHERE ts % 1000000000 <> 0"), 0);
}

/*
 * The scenario's 53 s trace: windows with whole seconds read them from
 * go_blocked_bin and replay the partial ones around; aligned on the
 * grid, or not, across one second boundary, or several: the oracle's
 * answer every time, and the holders' of contention likewise (golden
 * contention-holders).
 */
START_TEST(test_blocked_seconds)
{
	static const int64_t w[][2] = {
		{ 10000000000, 20000000000 },	/* on the grid */
		{ 10300000000, 20700000000 },	/* off it */
		{ 9999999999, 11000000001 },	/* one second, 2 ns more */
		{ 30000000000, 31500000000 },	/* aligned start */
		{ 30500000000, 32000000000 },	/* aligned end */
		{ 1000000, 52000000000 },	/* most of it */
	};
	struct tr_db	*db = test_store_gotrace("../scenario/trace.out");
	struct tr_sel	 sel;
	struct tr_error	 err;
	int64_t		 lo;
	char		 buf[96];
	size_t		 i;

	tr_error_init(&err);
	check_bins_sum(db, "scenario");
	lo = test_store_int(db, "SELECT ts_min FROM source WHERE id = 1");
	lo = lo / 1000000000 * 1000000000;
	for (i = 0; i < sizeof w / sizeof w[0]; i++) {
		tr_sel_init(&sel, TR_SEL_SOURCE | TR_SEL_TIME);
		ck_assert_int_eq(tr_sel_resolve(&sel, db, &err), 0);
		sel.has_from = sel.has_to = 1;
		sel.from = lo + w[i][0];
		sel.to = lo + w[i][1];
		snprintf(buf, sizeof buf, "scenario window %zu", i);
		ck_assert_int_gt(check_sel(db, &sel, buf), 0);
		tr_sel_release(&sel);
	}
	tr_db_free(db);
}
END_TEST

START_TEST(test_align_moves_lat)
{
	struct tr_db	*db = test_store_gotrace("gen122.trace");

	/* Across a second of the grid: states change bins. */
	test_store_align_offset(db, "1==+987654321ns");
	ck_assert_int_gt(check_lat(db, "moved by +987654321ns"), 0);
	ck_assert_int_gt(check_blocked(db, "moved"), 0);
	ck_assert_int_gt(check_windows(db, "moved"), 0);
	ck_assert_int_gt(check_waits(db, "moved"), 0);
	ck_assert_int_gt(check_wakers(db, "moved"), 0);
	tr_db_free(db);
}
END_TEST

START_TEST(test_buckets)
{
	int64_t	v, lo, next;
	int	b;

	for (v = 0; v < 64; v++)
		ck_assert_int_eq(tr_derived_lat_bucket(v), v);
	for (v = 64; v < INT64_C(1) << 50; v += v / 7 + 1) {
		b = tr_derived_lat_bucket(v);
		lo = tr_derived_lat_bucket_lo(b);
		next = tr_derived_lat_bucket_lo(b + 1);
		ck_assert_msg(lo <= v && v < next, "%lld in bucket %d: "
		    "[%lld, %lld)", (long long)v, b, (long long)lo,
		    (long long)next);
		/* At most 1/32 wide. */
		ck_assert((next - lo) * 32 <= lo);
		ck_assert_int_lt(b, TR_DERIVED_LAT_NBUCKET);
	}
	ck_assert_int_eq(tr_derived_lat_bucket(1000000), tr_derived_lat_bucket(
	    tr_derived_lat_bucket_lo(tr_derived_lat_bucket(1000000))));
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("derived-sched");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed, n = (int)(sizeof traces / sizeof traces[0]);

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_blocked_equals_replay, 0, n);
	tcase_add_loop_test(tc, test_blocked_windows, 0, n);
	tcase_add_loop_test(tc, test_blocked_windows_short_runs, 0, 3);
	tcase_add_test(tc, test_blocked_seconds);
	tcase_add_test(tc, test_align_moves_lat);
	tcase_add_test(tc, test_buckets);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
