/*
 * Unit tests for the derived tables (store/derived.h): on real Go traces
 * of the old and the generation format, every go_bin row, every
 * go_summary row and every go_state_stack row must equal what a plain
 * brute-force pass over the slice view (go_state, go_gc, go_stw, the P
 * tracks) gives; the tables computed during the import must equal those
 * rebuilt from slice_run; after trace-align moves a source by an offset
 * off the bin grid they must still equal the moved slices (this fails
 * when align does not move them); the window API must be exact on the
 * grid and say when it is not; a run whose JSON is broken is an error;
 * go_span must equal the go_region and go_task views, row for row, and
 * go_span_pack must hold go_span's times in its order, chunk by chunk;
 * with the writer thread running the accumulator's hooks, every table
 * must be the same as without it.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>

#include <check.h>

#include "base/out.h"
#include "base/util.h"
#include "import/importer.h"
#include "query/query.h"
#include "store/db.h"
#include "store/derived.h"
#include "store/writer.h"
#include "test-store.h"

#define W	TR_DERIVED_BIN
#define MS	INT64_C(1000000)

/* --- the oracle: brute force over the slice view ------------------------ */

struct st {
	int64_t	ts, dur;
	int	kind;		/* enum tr_dk */
};

struct oracle {
	struct st	*v;
	size_t		 n, cap;
	int64_t		 tmin, tmax;	/* goroutine states */
};

static void
oracle_add(struct oracle *o, int64_t ts, int64_t dur, int kind)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 4096;
		o->v = tr_xrealloc(o->v, o->cap * sizeof *o->v);
	}
	o->v[o->n].ts = ts;
	o->v[o->n].dur = dur;
	o->v[o->n++].kind = kind;
}

/* The kind of a blocking reason, spelled out again. */
static int
blocked_kind(const char *r)
{
	if (r == NULL)
		return (TR_DK_OTHER);
	if (!strcmp(r, "chan send") || !strcmp(r, "chan recv") ||
	    !strcmp(r, "select"))
		return (TR_DK_CHAN);
	if (!strcmp(r, "sync") || !strcmp(r, "cond"))
		return (TR_DK_SYNC);
	if (!strcmp(r, "syscall"))
		return (TR_DK_SYSCALL);
	if (!strcmp(r, "net"))
		return (TR_DK_NET);
	if (!strcmp(r, "sleep"))
		return (TR_DK_SLEEP);
	return (TR_DK_OTHER);
}

static void
oracle_load(struct tr_db *db, struct oracle *o)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	const char	*kind, *name, *reason;
	int64_t		 ts, dur;
	int		 k;

	memset(o, 0, sizeof *o);
	o->tmin = INT64_MAX;
	o->tmax = INT64_MIN;
	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT t.kind, s.ts, s.dur, n.s, c.s "
	    "FROM track t CROSS JOIN slice s ON s.track_id = t.id "
	    "CROSS JOIN str n ON n.id = s.name_id "
	    "LEFT JOIN str c ON c.id = s.category_id "
	    "WHERE t.source_id = 1", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	while (sqlite3_step(st) == SQLITE_ROW) {
		kind = (const char *)sqlite3_column_text(st, 0);
		ts = sqlite3_column_int64(st, 1);
		dur = sqlite3_column_int64(st, 2);
		name = (const char *)sqlite3_column_text(st, 3);
		reason = (const char *)sqlite3_column_text(st, 4);
		k = -1;
		if (!strcmp(kind, "goroutine")) {
			if (!strcmp(name, "running"))
				k = TR_DK_RUNNING;
			else if (!strcmp(name, "runnable"))
				k = TR_DK_RUNNABLE;
			else if (!strcmp(name, "blocked"))
				k = blocked_kind(reason);
			if (k >= 0 && ts < o->tmin)
				o->tmin = ts;
			if (k >= 0 && ts + dur > o->tmax)
				o->tmax = ts + dur;
		} else if (!strcmp(kind, "go-gc")) {
			if (!strcmp(name, "GC"))
				k = TR_DK_GC;
			else if (!strcmp(name, "sweep"))
				k = TR_DK_SWEEP;
			else if (!strcmp(name, "mark assist"))
				k = TR_DK_ASSIST;
		} else if (!strcmp(kind, "go-stw"))
			k = TR_DK_STW;
		else if (!strcmp(kind, "go-proc") && !strcmp(name, "running"))
			k = TR_DK_PROC;
		if (k >= 0)
			oracle_add(o, ts, dur, k);
	}
	sqlite3_finalize(st);
}

/*
 * The runnable states' starts and ends, each sorted: the number runnable
 * at instant t is the starts <= t less the ends <= t.
 */
struct edges {
	int64_t	*s, *e;
	size_t	 n;
};

static int
i64_cmp(const void *x, const void *y)
{
	int64_t	p = *(const int64_t *)x, q = *(const int64_t *)y;

	return (p < q ? -1 : p > q);
}

static void
edges_load(const struct oracle *o, struct edges *g)
{
	size_t	i;

	g->s = tr_xcalloc(o->n + 1, sizeof *g->s);
	g->e = tr_xcalloc(o->n + 1, sizeof *g->e);
	g->n = 0;
	for (i = 0; i < o->n; i++)
		if (o->v[i].kind == TR_DK_RUNNABLE && o->v[i].dur > 0) {
			g->s[g->n] = o->v[i].ts;
			g->e[g->n++] = o->v[i].ts + o->v[i].dur;
		}
	if (g->n > 1) {
		qsort(g->s, g->n, sizeof *g->s, i64_cmp);
		qsort(g->e, g->n, sizeof *g->e, i64_cmp);
	}
}

/* The values of v[0..n) <= t. */
static size_t
upto(const int64_t *v, size_t n, int64_t t)
{
	size_t	lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (v[m] <= t)
			lo = m + 1;
		else
			hi = m;
	}
	return (lo);
}

/*
 * The most goroutines runnable at one instant of [a, b): the count is
 * highest at a or at some runnable state's start.
 */
static int64_t
runnable_max(const struct edges *g, int64_t a, int64_t b)
{
	int64_t	best, c;
	size_t	i;

	best = (int64_t)upto(g->s, g->n, a) - (int64_t)upto(g->e, g->n, a);
	for (i = upto(g->s, g->n, a - 1); i < g->n && g->s[i] < b; i++) {
		c = (int64_t)upto(g->s, g->n, g->s[i]) -
		    (int64_t)upto(g->e, g->n, g->s[i]);
		if (c > best)
			best = c;
	}
	return (best);
}

/* ns of kind k in [a, b), and the same for each ms (running, runnable). */
static int64_t
overlap(const struct oracle *o, int k, int64_t a, int64_t b)
{
	int64_t	sum = 0, x, y;
	size_t	i;

	for (i = 0; i < o->n; i++) {
		if (o->v[i].kind != k)
			continue;
		x = o->v[i].ts > a ? o->v[i].ts : a;
		y = o->v[i].ts + o->v[i].dur < b ? o->v[i].ts + o->v[i].dur : b;
		if (y > x)
			sum += y - x;
	}
	return (sum);
}

static int64_t
count_in(struct tr_db *db, const char *sql, int64_t a, int64_t b)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	int64_t		 v;

	tr_error_init(&err);
	st = tr_db_prepare(db, sql, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return (v);
}

/*
 * Every bin of go_bin against the oracle; the bins must be on the grid,
 * follow each other, and cover every state.  Returns the bins checked.
 */
static int64_t
check_bins(struct tr_db *db, const char *what)
{
	struct oracle	 o;
	struct tr_error	 err;
	sqlite3_stmt	*st;
	int64_t		 ts, dur, prev = INT64_MIN, nb = 0, first = 0, j;
	int64_t		 run, rbl, idle, peak, tot[TR_DK_COUNT], maxpeak = 0;
	struct edges	 g;
	int		 k;

	oracle_load(db, &o);
	edges_load(&o, &g);
	memset(tot, 0, sizeof tot);
	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT * FROM go_bin WHERE source_id = 1 "
	    "ORDER BY ts", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ts = sqlite3_column_int64(st, 1);
		dur = sqlite3_column_int64(st, 2);
		ck_assert_int_eq(dur, W);
		ck_assert_msg(ts % W == 0, "%s: bin at %lld is off the grid",
		    what, (long long)ts);
		if (nb == 0)
			first = ts;
		else
			ck_assert_int_eq(ts, prev + W);
		prev = ts;
		nb++;
		for (k = 0; k < TR_DK_COUNT; k++) {
			int64_t	want = overlap(&o, k, ts, ts + dur);

			tot[k] += sqlite3_column_int64(st, 3 + k);
			ck_assert_msg(sqlite3_column_int64(st, 3 + k) == want,
			    "%s: bin %lld: %s_ns %lld, the slices say %lld",
			    what, (long long)ts, tr_dk_names[k],
			    (long long)sqlite3_column_int64(st, 3 + k),
			    (long long)want);
		}
		/* Milliseconds with nothing running or runnable. */
		idle = 0;
		for (j = ts; j < ts + dur; j += MS) {
			run = overlap(&o, TR_DK_RUNNING, j, j + MS);
			rbl = overlap(&o, TR_DK_RUNNABLE, j, j + MS);
			if (run + rbl == 0 && j >= o.tmin && j + MS <= o.tmax)
				idle += MS;
		}
		ck_assert_int_eq(sqlite3_column_int64(st, 16), idle);
		/* The exact peak, at least the highest 1 ms mean. */
		peak = runnable_max(&g, ts, ts + dur);
		ck_assert_msg(sqlite3_column_double(st, 17) == (double)peak,
		    "%s: bin %lld: runnable_peak %g, the slices say %lld",
		    what, (long long)ts, sqlite3_column_double(st, 17),
		    (long long)peak);
		ck_assert(peak * W >= overlap(&o, TR_DK_RUNNABLE, ts, ts + W));
		maxpeak = peak > maxpeak ? peak : maxpeak;
		ck_assert_int_eq(sqlite3_column_int64(st, 18), count_in(db,
		    "SELECT count(*) FROM go_goroutine WHERE source_id = 1 "
		    "AND created >= ?1 AND created < ?2", ts, ts + dur));
		ck_assert_int_eq(sqlite3_column_int64(st, 19), count_in(db,
		    "SELECT count(*) FROM go_goroutine WHERE source_id = 1 "
		    "AND ended >= ?1 AND ended < ?2", ts, ts + dur));
		ck_assert_int_eq(sqlite3_column_int64(st, 20), count_in(db,
		    "SELECT count(*) FROM sample WHERE source_id = 1 "
		    "AND ts >= ?1 AND ts < ?2", ts, ts + dur));
	}
	sqlite3_finalize(st);
	/* Nothing outside the bins. */
	for (k = 0; k < TR_DK_COUNT; k++)
		ck_assert_int_eq(tot[k], overlap(&o, k, INT64_MIN / 2,
		    INT64_MAX / 2));
	ck_assert_msg(nb == 0 || first <= o.tmin, "%s", what);
	/* Some goroutine was runnable: the peaks are not all 0. */
	ck_assert_msg(nb == 0 || maxpeak > 0, "%s: no runnable peak", what);
	free(g.s);
	free(g.e);
	free(o.v);
	return (nb);
}

/* go_summary against GROUP BY over go_state. */
static void
check_summary(struct tr_db *db)
{
	ck_assert_int_eq(test_store_int(db, "SELECT count(*) FROM go_summary"),
	    test_store_int(db, "SELECT count(DISTINCT goid) FROM go_state WHERE "
	    "state IN ('running', 'runnable', 'blocked')"));
	ck_assert_int_eq(test_store_int(db,
	    "WITH e AS (SELECT goid, min(ts) AS f, max(ts + dur) AS l, "
	    "  sum(dur * (state = 'running')) AS ex, "
	    "  sum(dur * (state = 'runnable')) AS sw, "
	    "  sum(dur * (state = 'blocked' AND reason IN ('chan send', "
	    "    'chan recv', 'select'))) AS ch, "
	    "  sum(dur * (state = 'blocked' AND reason IN ('sync', 'cond'))) "
	    "    AS sy, "
	    "  sum(dur * (state = 'blocked' AND reason = 'syscall')) AS sc, "
	    "  sum(dur * (state = 'blocked' AND reason = 'net')) AS ne, "
	    "  sum(dur * (state = 'blocked' AND reason = 'sleep')) AS sl, "
	    "  sum(dur * (state = 'blocked' AND coalesce(reason, '') NOT IN "
	    "    ('chan send', 'chan recv', 'select', 'sync', 'cond', "
	    "    'syscall', 'net', 'sleep'))) AS ot, count(*) AS n "
	    "  FROM go_state WHERE state IN ('running', 'runnable', "
	    "  'blocked') GROUP BY goid) "
	    "SELECT count(*) FROM e JOIN go_summary g ON g.goid = e.goid "
	    "WHERE g.first_ts = e.f AND g.last_ts = e.l AND g.exec_ns = e.ex "
	    "AND g.sched_wait_ns = e.sw AND g.chan_ns = e.ch AND "
	    "g.sync_ns = e.sy AND g.syscall_ns = e.sc AND g.net_ns = e.ne "
	    "AND g.sleep_ns = e.sl AND g.other_ns = e.ot AND g.states = e.n"),
	    test_store_int(db, "SELECT count(*) FROM go_summary"));
	/* Ended: as the sink wrote it into the track. */
	ck_assert_int_eq(test_store_int(db, "SELECT count(*) FROM go_summary s "
	    "JOIN go_goroutine g ON g.track_id = s.track_id "
	    "WHERE s.ended = (g.ended IS NOT NULL)"),
	    test_store_int(db, "SELECT count(*) FROM go_summary"));
	/* Mark assists by goroutine. */
	ck_assert_int_eq(test_store_int(db, "SELECT coalesce(sum(assist_ns), 0) "
	    "FROM go_summary"), test_store_int(db, "SELECT coalesce(sum(dur), 0) FROM "
	    "go_gc WHERE name = 'mark assist' AND json_extract(args, "
	    "'$.goid') IN (SELECT goid FROM go_summary)"));
}

static void
check_stacks(struct tr_db *db)
{
	const char	*want = "SELECT state, reason, callsite_id, count(*), "
	    "sum(dur), max(dur) FROM go_state WHERE state IN ('running', "
	    "'runnable', 'blocked') GROUP BY 1, 2, 3";
	const char	*got = "SELECT state, reason, callsite_id, count, "
	    "total_ns, max_ns FROM go_state_stack";
	char		*sql;

	sql = tr_xasprintf("SELECT count(*) FROM (%s EXCEPT %s)", want, got);
	ck_assert_int_eq(test_store_int(db, sql), 0);
	free(sql);
	sql = tr_xasprintf("SELECT count(*) FROM (%s EXCEPT %s)", got, want);
	ck_assert_int_eq(test_store_int(db, sql), 0);
	free(sql);
	ck_assert_int_gt(test_store_int(db, "SELECT count(*) FROM go_state_stack"), 0);
}

/*
 * go_span equals the go_region and go_task views, row for row, both ways
 * (EXCEPT over every column the views share with it); returns its rows.
 */
static int64_t
check_spans(struct tr_db *db)
{
	static const char *const pairs[][2] = {
		{ "SELECT id, source_id, task_id, goid, name, depth, ts, dur, "
		    "callsite_id, start_unknown, unfinished FROM go_region",
		  "SELECT p.id, p.source_id, p.task_id, p.goid, n.s, "
		    "p.depth, p.ts, p.dur, p.callsite_id, p.start_unknown, "
		    "p.unfinished FROM go_span p JOIN str n ON n.id = "
		    "p.name_id WHERE p.kind = 'region'" },
		{ "SELECT id, source_id, task_id, goid, name, ts, dur, "
		    "callsite_id, start_unknown, unfinished FROM go_task",
		  "SELECT p.id, p.source_id, p.task_id, p.goid, n.s, p.ts, "
		    "p.dur, p.callsite_id, p.start_unknown, p.unfinished "
		    "FROM go_span p JOIN str n ON n.id = p.name_id WHERE "
		    "p.kind = 'task' AND p.depth IS NULL" },
	};
	char	*sql;
	size_t	 i;
	int	 j;

	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		for (j = 0; j < 2; j++) {
			sql = tr_xasprintf("SELECT count(*) FROM (%s EXCEPT "
			    "%s)", pairs[i][j], pairs[i][!j]);
			ck_assert_msg(test_store_int(db, sql) == 0, "%s", sql);
			free(sql);
		}
	ck_assert_int_eq(test_store_int(db, "SELECT count(*) FROM go_span"),
	    test_store_int(db, "SELECT (SELECT count(*) FROM go_region) + "
	    "(SELECT count(*) FROM go_task)"));
	return (test_store_int(db, "SELECT count(*) FROM go_span"));
}

/* go_span's rows of one name, in its key's order, as check_pack reads. */
struct packread {
	sqlite3_stmt	*st;
	int64_t		 n, chunks;
};

static int
pack_cmp(void *arg, const int64_t *ts, const int64_t *dur,
    const int64_t *goid, const unsigned char *cut, size_t n,
    struct tr_error *err)
{
	struct packread	*p = arg;
	size_t		 i;

	(void)err;
	ck_assert_int_le(n, TR_DERIVED_PACK_CHUNK);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(sqlite3_step(p->st), SQLITE_ROW);
		ck_assert_int_eq(ts[i], sqlite3_column_int64(p->st, 0));
		ck_assert_int_eq(dur[i], sqlite3_column_int64(p->st, 1));
		ck_assert_int_eq(cut != NULL && cut[i],
		    sqlite3_column_int(p->st, 2) != 0);
		ck_assert_int_eq(goid[i], sqlite3_column_int64(p->st, 3));
	}
	p->n += (int64_t)n;
	p->chunks++;
	return (0);
}

/*
 * go_span_pack holds go_span's rows, name by name, in the order (ts, id):
 * every start time, length, cut flag and goroutine (-1 for none; read
 * back through tr_derived_pack_read()); returns the spans read.
 */
static int64_t
check_pack(struct tr_db *db)
{
	struct tr_error	 err;
	struct packread	 p;
	sqlite3_stmt	*names;
	int64_t		 total = 0;

	tr_error_init(&err);
	names = tr_db_prepare(db, "SELECT DISTINCT source_id, kind, name_id "
	    "FROM go_span ORDER BY 1, 2, 3", &err);
	ck_assert_msg(names != NULL, "%s", err.msg);
	memset(&p, 0, sizeof p);
	p.st = tr_db_prepare(db, "SELECT ts, dur, start_unknown OR "
	    "unfinished, coalesce(goid, -1) FROM go_span WHERE source_id = ?1 "
	    "AND kind = ?2 AND name_id = ?3 ORDER BY ts, id", &err);
	ck_assert_msg(p.st != NULL, "%s", err.msg);
	while (sqlite3_step(names) == SQLITE_ROW) {
		const char	*kind = (const char *)sqlite3_column_text(names,
		    1);

		sqlite3_reset(p.st);
		sqlite3_bind_int64(p.st, 1, sqlite3_column_int64(names, 0));
		sqlite3_bind_text(p.st, 2, kind, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(p.st, 3, sqlite3_column_int64(names, 2));
		p.n = 0;
		ck_assert_int_eq(tr_derived_pack_read(db,
		    sqlite3_column_int64(names, 0), kind,
		    sqlite3_column_int64(names, 2), INT64_MIN, INT64_MAX,
		    pack_cmp, &p, &err), 1);
		ck_assert_int_eq(sqlite3_step(p.st), SQLITE_DONE);
		ck_assert_int_gt(p.n, 0);
		total += p.n;
	}
	sqlite3_finalize(names);
	sqlite3_finalize(p.st);
	ck_assert_int_eq(total, test_store_int(db, "SELECT count(*) FROM go_span"));
	ck_assert_int_eq(total, test_store_int(db, "SELECT coalesce(sum(n), 0) FROM "
	    "go_span_pack"));
	return (total);
}

/* The derived tables as text, for comparing two states of a store. */
static char *
dump(struct tr_db *db)
{
	static const char *const q[] = {
		"SELECT * FROM go_bin ORDER BY source_id, ts",
		"SELECT * FROM go_summary ORDER BY track_id",
		"SELECT * FROM go_state_stack ORDER BY source_id, state, "
		    "reason, callsite_id",
		"SELECT * FROM go_span ORDER BY source_id, kind, name_id, "
		    "ts, id",
		"SELECT source_id, kind, name_id, seq, ts, end_max, n, "
		    "hex(ts_list), hex(dur_list), hex(goid_list), "
		    "hex(cut_list) FROM go_span_pack ORDER BY source_id, kind, "
		    "name_id, seq",
	};
	struct tr_error	 err;
	struct tr_buf	 b;
	sqlite3_stmt	*st;
	size_t		 i;
	int		 c;

	tr_buf_init(&b);
	tr_error_init(&err);
	for (i = 0; i < sizeof q / sizeof q[0]; i++) {
		st = tr_db_prepare(db, q[i], &err);
		ck_assert_msg(st != NULL, "%s", err.msg);
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (c = 0; c < sqlite3_column_count(st); c++) {
				const unsigned char *t =
				    sqlite3_column_text(st, c);

				tr_buf_adds(&b, t ? (const char *)t : "NULL");
				tr_buf_addc(&b, '|');
			}
			tr_buf_addc(&b, '\n');
		}
		sqlite3_finalize(st);
	}
	return (b.data ? b.data : tr_xstrdup(""));
}

static const char *const traces[] = {
	"go119-fixture.trace",		/* Go 1.19, old format */
	"gen121.trace",			/* Go 1.21, old format */
	"gen122.trace",			/* Go 1.22, generations */
	"go122-gc-stress.trace",
	"rich125.trace",		/* Go 1.25 */
	"go122-annotations.trace",	/* unfinished regions */
};

/* The tasks and regions each trace holds: go_span's rows. */
static const int64_t trace_spans[] = { 5, 8, 8, 0, 2, 6 };

START_TEST(test_import_equals_slices)
{
	struct tr_db	*db = test_store_gotrace(traces[_i]);

	ck_assert_int_gt(check_bins(db, traces[_i]), 0);
	check_summary(db);
	check_stacks(db);
	ck_assert_int_eq(check_spans(db), trace_spans[_i]);
	ck_assert_int_eq(check_pack(db), trace_spans[_i]);
	tr_db_free(db);
}
END_TEST

/*
 * The importer's watermark (tr_derived_watermark()) at every state
 * change: the bins are final as soon as they can be, and the tables the
 * same as with the default; a promise broken on purpose (1 s late) is
 * noticed and the tables computed again from the store, the same too.
 */
START_TEST(test_watermark)
{
	struct tr_db	*db = test_store_gotrace(traces[_i]);
	char		*a, *b;
	int64_t		 late;

	a = dump(db);
	tr_db_free(db);
	late = tr_derived_late_rebuilds;
	ck_assert_int_eq(setenv("TRACEKIT_WATERMARK", "1", 1), 0);
	db = test_store_gotrace(traces[_i]);
	ck_assert_int_eq(tr_derived_late_rebuilds, late);
	ck_assert_int_gt(check_bins(db, traces[_i]), 0);
	b = dump(db);
	ck_assert_str_eq(a, b);
	free(b);
	tr_db_free(db);
	ck_assert_int_eq(setenv("TRACEKIT_WATERMARK", "1,1000000000", 1), 0);
	db = test_store_gotrace(traces[_i]);
	ck_assert_int_eq(tr_derived_late_rebuilds, late + 1);
	b = dump(db);
	ck_assert_str_eq(a, b);
	ck_assert_int_eq(unsetenv("TRACEKIT_WATERMARK"), 0);
	free(a);
	free(b);
	tr_db_free(db);
}
END_TEST

/*
 * Live go_span rows spilled in sorted runs of one and of three spans and
 * merged at the end: the same store as with the default chunk (where
 * these traces' spans never leave memory), from as many runs as it takes.
 */
START_TEST(test_spilled_spans)
{
	struct tr_db	*db = test_store_gotrace(traces[_i]);
	char		*a, *b;
	int64_t		 runs;
	int		 k;

	a = dump(db);
	tr_db_free(db);
	for (k = 1; k <= 3; k += 2) {
		ck_assert_int_eq(setenv("TRACEKIT_SPAN_CHUNK", k == 1 ? "1" :
		    "3", 1), 0);
		runs = tr_derived_span_runs;
		db = test_store_gotrace(traces[_i]);
		ck_assert_int_eq(unsetenv("TRACEKIT_SPAN_CHUNK"), 0);
		/* (No more than a chunk: no run, the chunk goes in.) */
		ck_assert_int_eq(tr_derived_span_runs - runs,
		    trace_spans[_i] > k ? (trace_spans[_i] + k - 1) / k : 0);
		ck_assert_int_eq(check_spans(db), trace_spans[_i]);
		ck_assert_int_eq(check_pack(db), trace_spans[_i]);
		b = dump(db);
		ck_assert_str_eq(a, b);
		free(b);
		tr_db_free(db);
	}
	free(a);
}
END_TEST

START_TEST(test_rebuild_equals_import)
{
	struct tr_db	*db = test_store_gotrace(traces[_i]);
	struct tr_error	 err;
	char		*a, *b;

	a = dump(db);
	ck_assert_int_gt(strlen(a), 0);
	tr_error_init(&err);
	ck_assert_msg(tr_derived_rebuild(db, 1, &err) == 0, "%s", err.msg);
	b = dump(db);
	ck_assert_str_eq(a, b);
	/* A store whose derived rows went: the same rows come back. */
	ck_assert_int_eq(tr_db_exec(db, "DELETE FROM go_bin; DELETE FROM "
	    "go_summary; DELETE FROM go_state_stack; "
	    "DELETE FROM go_span_pack",
	    &err), 0);
	ck_assert_msg(tr_derived_rebuild_all(db, &err) == 0, "%s", err.msg);
	free(b);
	b = dump(db);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	tr_db_free(db);
}
END_TEST

START_TEST(test_align_moves_bins)
{
	struct tr_db	*db = test_store_gotrace("go119-fixture.trace");
	int64_t		 before, after, spans_before;

	before = test_store_int(db, "SELECT min(ts) FROM go_state");
	spans_before = test_store_int(db, "SELECT min(ts) FROM go_span");
	/* Off the bin grid, so that the bins must be made again. */
	test_store_align_offset(db, "1==+1234567ns");
	after = test_store_int(db, "SELECT min(ts) FROM go_state");
	ck_assert_int_eq(after, before + 1234567);
	ck_assert_int_gt(check_bins(db, "moved by +1234567ns"), 0);
	check_summary(db);
	ck_assert_int_eq(check_spans(db), 5);
	ck_assert_int_eq(check_pack(db), 5);
	ck_assert_int_eq(test_store_int(db, "SELECT min(ts) FROM go_span"),
	    spans_before + 1234567);
	test_store_align_offset(db, "1==-25ms");
	ck_assert_int_eq(test_store_int(db, "SELECT min(ts) FROM go_state"),
	    before - 25 * MS);
	ck_assert_int_gt(check_bins(db, "moved by -25ms"), 0);
	check_summary(db);
	ck_assert_int_eq(check_spans(db), 5);
	ck_assert_int_eq(check_pack(db), 5);
	ck_assert_int_eq(test_store_int(db, "SELECT min(ts) FROM go_span"),
	    spans_before - 25 * MS);
	tr_db_free(db);
}
END_TEST

/*
 * More spans of a name than a chunk holds, some cut, two names and both
 * kinds: the chunks hold them all in order, and a window leaves out the
 * chunks wholly before or after it (their spans cannot overlap it).
 */
START_TEST(test_pack_chunks)
{
	struct tr_db	*db = test_store_new();
	struct tr_error	 err;
	struct packread	 p;
	int64_t		 n = 2 * TR_DERIVED_PACK_CHUNK + 1000, i;
	sqlite3_stmt	*st;

	tr_error_init(&err);
	ck_assert_int_eq(tr_db_exec(db, "BEGIN; INSERT INTO source (id, "
	    "format, path, hash, size, imported_at) VALUES (1, 'gotrace', 'x', "
	    "'h', 0, 'now'); INSERT INTO str (id, "
	    "s) VALUES (1, 'step'), (2, 'other')", &err), 0);
	/*
	 * The spans, in go_span as the table of versions 4 to 9 that the
	 * migrations pack from (a view of the slices since version 10).
	 */
	ck_assert_int_eq(tr_db_exec(db, "DROP VIEW go_span", &err), 0);
	ck_assert_int_eq(tr_db_exec(db, tr_derived_schema_v4, &err), 0);
	st = tr_db_prepare(db, "INSERT INTO go_span VALUES (1, ?1, ?2, ?3, "
	    "?4, ?5, 0, ?8, 0, NULL, ?6, ?7)", &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	/* Inserted out of order: times fall as the ids rise. */
	for (i = 0; i < n; i++) {
		sqlite3_bind_text(st, 1, i % 7 == 3 ? "task" : "region", -1,
		    SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, i % 5 == 0 ? 2 : 1);
		sqlite3_bind_int64(st, 3, 1000 * (n - i / 2));
		sqlite3_bind_int64(st, 4, i);
		sqlite3_bind_int64(st, 5, 10 + i % 997);
		sqlite3_bind_int(st, 6, i == 5);
		sqlite3_bind_int(st, 7, i % 40001 == 7);
		/* (A task's goroutine may be unknown: NULL, -1 packed.) */
		if (i % 3 == 0)
			sqlite3_bind_null(st, 8);
		else
			sqlite3_bind_int64(st, 8, i % 11);
		ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	ck_assert_msg(tr_derived_pack_rebuild(db, 1, &err) == 0, "%s",
	    err.msg);
	ck_assert_int_eq(check_pack(db), n);
	ck_assert_int_eq(test_store_int(db, "SELECT count(*) FROM go_span_pack WHERE "
	    "kind = 'region' AND name_id = 1"), 2);
	ck_assert_int_eq(test_store_int(db, "SELECT max(n) FROM go_span_pack"),
	    TR_DERIVED_PACK_CHUNK);
	ck_assert_int_eq(test_store_int(db, "SELECT count(*) FROM go_span_pack WHERE "
	    "cut_list IS NOT NULL"), 4);
	/* Packing again gives the same rows. */
	ck_assert_msg(tr_derived_pack_rebuild(db, 1, &err) == 0, "%s",
	    err.msg);
	ck_assert_int_eq(check_pack(db), n);
	/* A window on the second chunk of (region, 1) reads it alone. */
	memset(&p, 0, sizeof p);
	p.st = tr_db_prepare(db, "SELECT ts, dur, start_unknown OR "
	    "unfinished, coalesce(goid, -1) FROM go_span WHERE kind = "
	    "'region' AND name_id = 1 ORDER BY ts, id LIMIT -1 OFFSET ?1",
	    &err);
	ck_assert_msg(p.st != NULL, "%s", err.msg);
	sqlite3_bind_int64(p.st, 1, TR_DERIVED_PACK_CHUNK);
	ck_assert_int_eq(tr_derived_pack_read(db, 1, "region", 1,
	    test_store_int(db, "SELECT end_max + 1 FROM go_span_pack WHERE kind = "
	    "'region' AND name_id = 1 AND seq = 0"), INT64_MAX, pack_cmp, &p,
	    &err), 1);
	ck_assert_int_eq(p.chunks, 1);
	ck_assert_int_eq(sqlite3_step(p.st), SQLITE_DONE);
	sqlite3_finalize(p.st);
	/* ... and one before its start, none. */
	memset(&p, 0, sizeof p);
	ck_assert_int_eq(tr_derived_pack_read(db, 1, "region", 1,
	    INT64_MIN, test_store_int(db, "SELECT min(ts) - 1 FROM go_span"), pack_cmp,
	    &p, &err), 0);
	ck_assert_int_eq(p.chunks, 0);
	ck_assert_int_eq(tr_derived_pack_read(db, 1, "region", 3,
	    INT64_MIN, INT64_MAX, pack_cmp, &p, &err), 0);
	ck_assert_int_eq(tr_db_exec(db, "COMMIT", &err), 0);
	tr_db_free(db);
}
END_TEST

/* trace-query steps ARGS... on 'db': its CSV and notes, or the error. */
static char *
steps(struct tr_db *db, int pack, ...)
{
	const struct tr_query	*q = tr_query_find("steps");
	struct tr_error		 err;
	struct tr_out		*out;
	char			*argv[16], *buf = NULL;
	size_t			 len = 0;
	FILE			*f = open_memstream(&buf, &len);
	va_list			 ap;
	int			 argc = 0, rc;

	ck_assert_ptr_nonnull(q);
	argv[argc++] = (char *)"steps";
	va_start(ap, pack);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	if (pack)
		unsetenv("TRACEKIT_NO_PACK");
	else
		setenv("TRACEKIT_NO_PACK", "1", 1);
	tr_error_init(&err);
	out = tr_out_new(f, TR_OUT_CSV);
	tr_out_set_notes(out, f, NULL);
	rc = q->run(db, argc, argv, out, &err);
	tr_out_free(out);
	if (rc != 0)
		fprintf(f, "error: %s\n", err.msg);
	fclose(f);
	unsetenv("TRACEKIT_NO_PACK");
	return (buf);
}

/*
 * steps reads go_span_pack when it can: what it prints from it equals
 * what it prints from go_span (TRACEKIT_NO_PACK=1), on the scenario's 818
 * steps, with and without a window; a pack that says otherwise than
 * go_span changes the answer (so the pack is what was read), and packing
 * again mends it.
 */
START_TEST(test_steps_pack)
{
	static const char *const args[][9] = {
		{ "--region", "step", "--top", "4", NULL },
		{ "--region", "step", "--slow", "1.2", "--stretches", "4",
		    NULL },
		{ "--task", "step", "--top", "0", NULL },
		{ "--region", "gpu", "--from", NULL, "--to", NULL, NULL },
	};
	char		 from[32], to[32];
	struct tr_db	*db = test_store_gotrace("../scenario/trace.out");
	struct tr_error	 err;
	char		*a, *b;
	size_t		 i;

	tr_error_init(&err);
	/* A window of 20 s, 10 s in: the steps that overlap it. */
	snprintf(from, sizeof from, "10s");
	snprintf(to, sizeof to, "30s");
	for (i = 0; i < sizeof args / sizeof args[0]; i++) {
		const char	*v[7];
		size_t		 j;

		for (j = 0; j < 7; j++)
			v[j] = args[i][j];
		if (i == 3) {
			v[3] = from;
			v[5] = to;
		}
		a = steps(db, 1, v[0], v[1], v[2], v[3], v[4], v[5], v[6],
		    NULL);
		b = steps(db, 0, v[0], v[1], v[2], v[3], v[4], v[5], v[6],
		    NULL);
		ck_assert_msg(strstr(a, "\nregion,") != NULL ||
		    strstr(a, "\ntask,") != NULL, "%s", a);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
	}
	a = steps(db, 1, "--region", "step", NULL);
	ck_assert_msg(strstr(a, "\nregion,818,65508423,41043425,") != NULL,
	    "%s", a);
	free(a);
	/* Every length of the pack is now a start time. */
	ck_assert_int_eq(tr_db_exec(db, "UPDATE go_span_pack SET dur_list = "
	    "ts_list", &err), 0);
	a = steps(db, 1, "--region", "step", NULL);
	b = steps(db, 0, "--region", "step", NULL);
	ck_assert_str_ne(a, b);
	ck_assert_ptr_nonnull(strstr(b, "\nregion,818,65508423,41043425,"));
	free(a);
	free(b);
	ck_assert_msg(tr_derived_pack_rebuild(db, 1, &err) == 0, "%s",
	    err.msg);
	a = steps(db, 1, "--region", "step", NULL);
	b = steps(db, 0, "--region", "step", NULL);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	tr_db_free(db);
}
END_TEST

START_TEST(test_totals_window)
{
	struct tr_db			*db = test_store_gotrace("gen122.trace");
	struct tr_derived_totals	 t, s[4];
	struct oracle			 o;
	struct tr_error			 err;
	int64_t				 lo, hi, a, b;
	int				 k, i;

	tr_error_init(&err);
	oracle_load(db, &o);
	lo = test_store_int(db, "SELECT min(ts) FROM go_bin");
	hi = test_store_int(db, "SELECT max(ts + dur) FROM go_bin");
	/* On the grid: exact. */
	a = lo + W;
	b = hi - W > a ? hi - W : hi;
	ck_assert_int_eq(tr_derived_totals(db, 0, a, b, &t, &err), 0);
	ck_assert_int_eq(t.exact, 1);
	ck_assert_int_eq(t.sources, 1);
	ck_assert_int_eq(t.covered_ns, b - a);
	for (k = 0; k < TR_DK_COUNT; k++)
		ck_assert_int_eq(t.ns[k], overlap(&o, k, a, b));
	/* Off the grid: pro rata, and said so. */
	ck_assert_int_eq(tr_derived_totals(db, 1, a + 1, b, &t, &err), 0);
	ck_assert_int_eq(t.exact, 0);
	ck_assert_int_eq(t.covered_ns, b - a - 1);
	/* A series of four steps adds up to the whole. */
	ck_assert_int_eq(tr_derived_series(db, 1, lo, (hi - lo) / 4 / W * W +
	    W, 4, s, &err), 0);
	for (k = 0; k < TR_DK_COUNT; k++) {
		int64_t	sum = 0;

		for (i = 0; i < 4; i++) {
			ck_assert_int_eq(s[i].exact, 1);
			sum += s[i].ns[k];
		}
		ck_assert_int_eq(sum, overlap(&o, k, lo, hi));
	}
	/* No Go source at all: says so. */
	ck_assert_int_eq(tr_derived_totals(db, 99, a, b, &t, &err), 0);
	ck_assert_int_eq(t.bins, 0);
	free(o.v);
	tr_db_free(db);
}
END_TEST

struct collect {
	int64_t	n, ns[TR_DK_GOROUTINE], last;
	int	ordered;
};

static int
collect_state(void *arg, const struct tr_derived_state *s,
    struct tr_error *err)
{
	struct collect	*c = arg;

	(void)err;
	c->n++;
	c->ns[s->kind] += s->dur;
	if (s->start < c->last)
		c->ordered = 0;
	c->last = s->start;
	return (0);
}

START_TEST(test_track_states)
{
	struct tr_db	*db = test_store_gotrace("go119-fixture.trace");
	struct tr_error	 err;
	struct collect	 c;
	int64_t		 track, lo, hi, want;
	char		*sql;
	int		 k;

	tr_error_init(&err);
	/* The goroutine with the most states, over the middle of its life. */
	track = test_store_int(db, "SELECT track_id FROM go_summary ORDER BY states "
	    "DESC, track_id LIMIT 1");
	sql = tr_xasprintf("SELECT (first_ts * 3 + last_ts) / 4 FROM "
	    "go_summary WHERE track_id = %lld", (long long)track);
	lo = test_store_int(db, sql);
	free(sql);
	sql = tr_xasprintf("SELECT (first_ts + last_ts * 3) / 4 FROM "
	    "go_summary WHERE track_id = %lld", (long long)track);
	hi = test_store_int(db, sql);
	free(sql);
	memset(&c, 0, sizeof c);
	c.ordered = 1;
	c.last = INT64_MIN;
	ck_assert_int_eq(tr_derived_track_states(db, track, lo, hi,
	    collect_state, &c, &err), 0);
	sql = tr_xasprintf("SELECT count(*) FROM go_state g JOIN "
	    "go_goroutine t ON t.goid = g.goid WHERE t.track_id = %lld AND "
	    "g.state IN ('running', 'runnable', 'blocked') AND g.ts < %lld "
	    "AND g.ts + g.dur > %lld", (long long)track, (long long)hi,
	    (long long)lo);
	want = test_store_int(db, sql);
	free(sql);
	ck_assert_int_gt(want, 2);
	ck_assert_int_eq(c.n, want);
	ck_assert_int_eq(c.ordered, 1);
	for (k = 0; k < TR_DK_GOROUTINE; k++) {
		sql = tr_xasprintf("SELECT coalesce(sum(min(g.ts + g.dur, "
		    "%lld) - max(g.ts, %lld)), 0) FROM go_state g JOIN "
		    "go_goroutine t ON t.goid = g.goid WHERE t.track_id = "
		    "%lld AND g.ts < %lld AND g.ts + g.dur > %lld AND "
		    "CASE g.state WHEN 'running' THEN 0 WHEN 'runnable' "
		    "THEN 1 WHEN 'blocked' THEN CASE WHEN g.reason IN "
		    "('chan send', 'chan recv', 'select') THEN 2 WHEN "
		    "g.reason IN ('sync', 'cond') THEN 3 WHEN g.reason = "
		    "'syscall' THEN 4 WHEN g.reason = 'net' THEN 5 WHEN "
		    "g.reason = 'sleep' THEN 6 ELSE 7 END ELSE -1 END = %d",
		    (long long)hi, (long long)lo, (long long)track,
		    (long long)hi, (long long)lo, k);
		ck_assert_int_eq(c.ns[k], test_store_int(db, sql));
		free(sql);
	}
	tr_db_free(db);
}
END_TEST

START_TEST(test_bad_run)
{
	struct tr_db	*db = test_store_gotrace("go119-fixture.trace");
	struct tr_error	 err;
	char		*before, *after;

	before = dump(db);
	tr_error_init(&err);
	ck_assert_int_eq(tr_db_exec(db, "BEGIN; UPDATE slice_run SET slices "
	    "= '[[0,5,1],[3' WHERE id = (SELECT min(r.id) FROM slice_run r "
	    "JOIN track t ON t.id = r.track_id WHERE t.kind = 'goroutine')",
	    &err), 0);
	ck_assert_int_eq(tr_derived_rebuild(db, 1, &err), -1);
	ck_assert_msg(strstr(err.msg, "its slices are not a run's JSON") !=
	    NULL, "%s", err.msg);
	ck_assert_int_eq(tr_db_exec(db, "ROLLBACK", &err), 0);
	after = dump(db);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	tr_db_free(db);
}
END_TEST

/*
 * Every table of the store as text, rows in the order of all their
 * columns, blobs in hex; the source's imported_at (the clock) is blanked
 * first.  For comparing two imports of one input.
 */
static char *
dump_all(struct tr_db *db)
{
	struct tr_error	 err;
	struct tr_buf	 b, q;
	sqlite3_stmt	*names, *st;
	const char	*name;
	int		 c, n;

	tr_buf_init(&b);
	tr_buf_init(&q);
	tr_error_init(&err);
	ck_assert_int_eq(tr_db_exec(db, "UPDATE source SET imported_at = ''",
	    &err), 0);
	names = tr_db_prepare(db, "SELECT name FROM sqlite_schema WHERE "
	    "type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", &err);
	ck_assert_msg(names != NULL, "%s", err.msg);
	while (sqlite3_step(names) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(names, 0);
		tr_buf_reset(&q);
		tr_buf_printf(&q, "SELECT * FROM \"%s\"", name);
		st = tr_db_prepare(db, q.data, &err);
		ck_assert_msg(st != NULL, "%s", err.msg);
		n = sqlite3_column_count(st);
		sqlite3_finalize(st);
		for (c = 0; c < n; c++)
			tr_buf_printf(&q, "%s%d", c ? ", " : " ORDER BY ",
			    c + 1);
		st = tr_db_prepare(db, q.data, &err);
		ck_assert_msg(st != NULL, "%s", err.msg);
		tr_buf_printf(&b, "%s:\n", name);
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (c = 0; c < n; c++) {
				const unsigned char *t =
				    sqlite3_column_text(st, c);
				const unsigned char *p = sqlite3_column_blob(st,
				    c);
				int	 k;

				if (sqlite3_column_type(st, c) == SQLITE_BLOB)
					for (k = 0; k < sqlite3_column_bytes(st,
					    c); k++)
						tr_buf_printf(&b, "%02x",
						    p[k]);
				else
					tr_buf_adds(&b, t ? (const char *)t :
					    "NULL");
				tr_buf_addc(&b, '|');
			}
			tr_buf_addc(&b, '\n');
		}
		sqlite3_finalize(st);
	}
	sqlite3_finalize(names);
	tr_buf_release(&q);
	return (b.data ? b.data : tr_xstrdup(""));
}

/* How an import of tests/data/gotrace/'name' into a new store went. */
struct imported {
	int	 rc;
	char	*msg;		/* its error, "" when none */
	char	*rows;		/* dump_all() */
	int64_t	 threads;	/* writer threads started */
	int64_t	 late;		/* tables computed again (broken promises) */
};

static void
import_one(const char *name, struct imported *r)
{
	struct tr_import_opts	 o;
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;
	const char		*dir = getenv("TR_DATA");
	char			*path;
	int64_t			 threads = tr_writer_threads_started;
	int64_t			 late = tr_derived_late_rebuilds;

	path = tr_xasprintf("%s/gotrace/%s", dir ? dir : "tests/data", name);
	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	tr_import_opts_init(&o);
	r->rc = tr_import_file(db, path, NULL, &o, &res, &err);
	r->msg = tr_xstrdup(r->rc != 0 ? err.msg : "");
	r->threads = tr_writer_threads_started - threads;
	r->late = tr_derived_late_rebuilds - late;
	r->rows = dump_all(db);
	tr_db_free(db);
	free(path);
}

/*
 * The writer thread runs the inserts and the accumulator's hooks
 * (store/writer.h, on_thread) while the importer parses: for every Go
 * trace of tests/data/gotrace, bad ones too, the import must give the
 * same result, the same error, and every table, derived ones included,
 * the same rows as without the thread (TRACEKIT_WRITER_THREAD=0, the
 * oracle).  Then once more with a watermark at every state change: a
 * hook run out of the adds' order (a watermark before the slices added
 * ahead of it) breaks the promise, and the tables are computed again,
 * which must not happen.
 */
START_TEST(test_thread_equals_single)
{
	const char	*dir = getenv("TR_DATA");
	char		*path;
	DIR		*d;
	struct dirent	*e;
	struct imported	 r[3];
	int		 k, n = 0, good = 0;

	path = tr_xasprintf("%s/gotrace", dir ? dir : "tests/data");
	d = opendir(path);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		size_t	len = strlen(e->d_name);

		if (len < 7 || strcmp(e->d_name + len - 6, ".trace") != 0)
			continue;
		for (k = 0; k < 3; k++) {
			ck_assert_int_eq(setenv("TRACEKIT_WRITER_THREAD",
			    k ? "1" : "0", 1), 0);
			if (k == 2)
				ck_assert_int_eq(setenv("TRACEKIT_WATERMARK",
				    "1", 1), 0);
			import_one(e->d_name, &r[k]);
		}
		ck_assert_int_eq(unsetenv("TRACEKIT_WATERMARK"), 0);
		ck_assert_int_eq(unsetenv("TRACEKIT_WRITER_THREAD"), 0);
		ck_assert_int_eq(r[0].threads, 0);
		for (k = 1; k < 3; k++) {
			ck_assert_msg(r[k].rc == r[0].rc, "%s: %d, %d",
			    e->d_name, r[0].rc, r[k].rc);
			ck_assert_msg(strcmp(r[k].msg, r[0].msg) == 0,
			    "%s: '%s' without the thread, '%s' with it",
			    e->d_name, r[0].msg, r[k].msg);
			ck_assert_msg(strcmp(r[k].rows, r[0].rows) == 0,
			    "%s: the tables differ with the thread (%d)",
			    e->d_name, k);
			ck_assert_msg(r[k].late == 0, "%s: a watermark out "
			    "of order (%d)", e->d_name, k);
			/* A good trace was written by the thread. */
			if (r[0].rc == 0)
				ck_assert_int_eq(r[k].threads, 1);
		}
		if (r[0].rc == 0 && strstr(r[0].rows, "go_bin:\n1|") != NULL)
			good++;
		n++;
		for (k = 0; k < 3; k++) {
			free(r[k].msg);
			free(r[k].rows);
		}
	}
	closedir(d);
	free(path);
	ck_assert_int_ge(n, 50);
	ck_assert_int_ge(good, 10);
}
END_TEST

/*
 * A goroutine that ends ("$.ended" in its track's meta) is let go as it
 * ends, its go_summary row written then (tr_derived_ended()), so that
 * the import holds only the goroutines alive at once.  For every good Go
 * trace of tests/data/gotrace: every ended goroutine track is let go,
 * one by one, and every table is the same as when the tables are
 * computed again from the store (tr_derived_rebuild()), which keeps
 * every goroutine to the end.
 */
START_TEST(test_ended_equals_rebuild)
{
	const char	*dir = getenv("TR_DATA");
	char		*path, *a, *b;
	DIR		*d;
	struct dirent	*e;
	struct tr_import_opts	 o;
	struct tr_import_result	 res;
	struct tr_error	 err;
	struct tr_db	*db;
	int64_t		 before, ended, total = 0;
	int		 n = 0;

	path = tr_xasprintf("%s/gotrace", dir ? dir : "tests/data");
	d = opendir(path);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		size_t	len = strlen(e->d_name);
		char	*f;

		if (len < 7 || strcmp(e->d_name + len - 6, ".trace") != 0)
			continue;
		f = tr_xasprintf("%s/%s", path, e->d_name);
		tr_error_init(&err);
		db = tr_db_open(":memory:", 0, &err);
		ck_assert_msg(db != NULL, "%s", err.msg);
		tr_import_opts_init(&o);
		before = tr_derived_ended_goroutines;
		if (tr_import_file(db, f, NULL, &o, &res, &err) != 0 ||
		    test_store_int(db, "SELECT count(*) FROM go_bin") == 0) {
			tr_db_free(db);
			free(f);
			continue;
		}
		ended = test_store_int(db, "SELECT count(*) FROM track WHERE "
		    "kind = 'goroutine' AND json_extract(meta, '$.ended') "
		    "IS NOT NULL");
		ck_assert_msg(tr_derived_ended_goroutines - before == ended,
		    "%s: %lld goroutines let go of %lld ended", e->d_name,
		    (long long)(tr_derived_ended_goroutines - before),
		    (long long)ended);
		total += ended;
		a = dump_all(db);
		ck_assert_msg(tr_derived_rebuild(db, 1, &err) == 0, "%s",
		    err.msg);
		ck_assert_int_eq(tr_derived_ended_goroutines - before, ended);
		b = dump_all(db);
		ck_assert_msg(strcmp(a, b) == 0, "%s: the tables differ from "
		    "those computed again", e->d_name);
		free(a);
		free(b);
		tr_db_free(db);
		free(f);
		n++;
	}
	closedir(d);
	free(path);
	ck_assert_int_ge(n, 10);
	/* (143 goroutines end in these traces.) */
	ck_assert_int_ge(total, 100);
}
END_TEST

/*
 * The go_sched_long rows written as the import goes, a few at a time
 * (TRACEKIT_LONG_CHUNK 1 and 3, where these traces' rows would wait for
 * the end with the default): every table the same, from as many writes
 * as the rows take.
 */
START_TEST(test_spilled_long)
{
	struct tr_db	*db = test_store_gotrace(traces[_i]);
	char		*a, *b;
	int64_t		 spills, rows;
	int		 k;

	a = dump_all(db);
	rows = test_store_int(db, "SELECT count(*) FROM go_sched_long");
	tr_db_free(db);
	for (k = 1; k <= 3; k += 2) {
		ck_assert_int_eq(setenv("TRACEKIT_LONG_CHUNK", k == 1 ? "1" :
		    "3", 1), 0);
		spills = tr_dsched_long_spills;
		db = test_store_gotrace(traces[_i]);
		ck_assert_int_eq(unsetenv("TRACEKIT_LONG_CHUNK"), 0);
		ck_assert_int_eq(tr_dsched_long_spills - spills, rows / k);
		b = dump_all(db);
		ck_assert_str_eq(a, b);
		free(b);
		tr_db_free(db);
	}
	free(a);
}
END_TEST

/*
 * go_sched_lat's seconds written as the watermark passes them
 * (tr_dsched_watermark()), on 1.2 s of bench/gotrace-load.go whose
 * runnable states span three seconds: with a watermark at every state
 * change, the rows of the seconds before the last go early, and every
 * table is as with the default (no watermark in so short a trace, so
 * all at the end); a promise broken on purpose (1 s late) is noticed,
 * and the tables computed again, the same.
 */
START_TEST(test_lat_watermark)
{
	static const char *const wm[3] = { NULL, "1", "1,1000000000" };
	struct imported	 r[3];
	struct tr_db	*db;
	int64_t		 early[3], before, secs;
	int		 k;

	for (k = 0; k < 3; k++) {
		if (wm[k] != NULL)
			ck_assert_int_eq(setenv("TRACEKIT_WATERMARK", wm[k],
			    1), 0);
		before = tr_dsched_lat_early;
		import_one("load119.trace.zst", &r[k]);
		early[k] = tr_dsched_lat_early - before;
		ck_assert_msg(r[k].rc == 0, "%s", r[k].msg);
	}
	ck_assert_int_eq(unsetenv("TRACEKIT_WATERMARK"), 0);
	/* The trace is what the test needs: rows in three seconds. */
	db = test_store_gotrace("load119.trace.zst");
	secs = test_store_int(db, "SELECT count(DISTINCT ts) FROM "
	    "go_sched_lat");
	ck_assert_int_eq(secs, 3);
	before = test_store_int(db, "SELECT count(*) FROM go_sched_lat "
	    "WHERE ts < (SELECT max(ts) FROM go_sched_lat)");
	ck_assert_int_gt(before, 0);
	tr_db_free(db);
	ck_assert_int_eq(early[0], 0);
	ck_assert_int_eq(early[1], before);
	ck_assert_int_eq(r[0].late, 0);
	ck_assert_int_eq(r[1].late, 0);
	ck_assert_int_eq(r[2].late, 1);
	for (k = 1; k < 3; k++)
		ck_assert_msg(strcmp(r[k].rows, r[0].rows) == 0, "the tables "
		    "differ with the watermark %s", wm[k]);
	for (k = 0; k < 3; k++) {
		free(r[k].msg);
		free(r[k].rows);
	}
}
END_TEST

/* A store of schema version 1: the migration computes the tables. */
START_TEST(test_migrate_v1)
{
	struct tr_error	 err;
	struct tr_db	*db;
	const char	*dir = getenv("TR_DATA");
	char		*src, *dst, *cmd;

	src = tr_xasprintf("%s/core/v1-go119.db", dir ? dir : "tests/data");
	dst = tr_xasprintf("check-derived-v1.%ld.db", (long)getpid());
	cmd = tr_xasprintf("cp '%s' '%s'", src, dst);
	ck_assert_int_eq(system(cmd), 0);
	tr_error_init(&err);
	db = tr_db_open(dst, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_gt(check_bins(db, "migrated from v1"), 0);
	check_summary(db);
	check_stacks(db);
	ck_assert_int_gt(check_spans(db), 0);
	tr_db_free(db);
	free(cmd);
	cmd = tr_xasprintf("rm -f '%s' '%s-wal' '%s-shm'", dst, dst, dst);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(src);
	free(dst);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("derived");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed, n = (int)(sizeof traces / sizeof traces[0]);

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_import_equals_slices, 0, n);
	tcase_add_loop_test(tc, test_rebuild_equals_import, 0, n);
	tcase_add_loop_test(tc, test_spilled_spans, 0, n);
	tcase_add_loop_test(tc, test_watermark, 0, n);
	tcase_add_test(tc, test_thread_equals_single);
	tcase_add_test(tc, test_ended_equals_rebuild);
	tcase_add_test(tc, test_lat_watermark);
	tcase_add_loop_test(tc, test_spilled_long, 0, n);
	tcase_add_test(tc, test_align_moves_bins);
	tcase_add_test(tc, test_pack_chunks);
	tcase_add_test(tc, test_steps_pack);
	tcase_add_test(tc, test_totals_window);
	tcase_add_test(tc, test_track_states);
	tcase_add_test(tc, test_bad_run);
	tcase_add_test(tc, test_migrate_v1);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
