/*
 * Unit tests for the scheduler and blocking tables (store/derived.h,
 * derived-sched.c): on real Go traces of the old and the generation
 * format, every go_blocked_stack row must equal what the replay of the
 * goroutine states by the blocking engine (query/blocked.h, forced onto
 * its SQL path) gives for that kind and that format, and every
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

/* go_blocked_stack against the replay, kind by kind; rows compared. */
static int64_t
check_blocked(struct tr_db *db, const char *what)
{
	struct tr_blocked	 slow, fast;
	struct tr_sel		 sel;
	struct tr_error		 err;
	int64_t			 rows = 0;
	size_t			 i;
	int			 k;

	tr_error_init(&err);
	for (k = 0; k < TR_DB_NKIND; k++) {
		/* A window over all time: the engine replays the states. */
		tr_sel_init(&sel, TR_SEL_SOURCE | TR_SEL_TIME);
		ck_assert_int_eq(tr_sel_resolve(&sel, db, &err), 0);
		sel.has_from = 1;
		sel.from = INT64_MIN / 2;
		ck_assert_msg(tr_blocked_collect(db, &sel,
		    (enum tr_blocked_kind)k, &slow, &err) == 0, "%s", err.msg);
		sel.has_from = 0;
		ck_assert_msg(tr_blocked_collect(db, &sel,
		    (enum tr_blocked_kind)k, &fast, &err) == 0, "%s", err.msg);
		tr_sel_release(&sel);
		ck_assert_msg(slow.n == fast.n, "%s %s: %zu stacks replayed, "
		    "%zu derived", what, tr_blocked_kind_stems[k], slow.n,
		    fast.n);
		if (slow.n > 1)
			qsort(slow.stacks, slow.n, sizeof *slow.stacks,
			    cmp_stack);
		for (i = 0; i < slow.n; i++) {
			ck_assert_int_eq(slow.stacks[i].callsite_id,
			    fast.stacks[i].callsite_id);
			ck_assert_msg(slow.stacks[i].count ==
			    fast.stacks[i].count && slow.stacks[i].ns ==
			    fast.stacks[i].ns, "%s %s stack %lld: replayed "
			    "%lld %lld ns, derived %lld %lld ns", what,
			    tr_blocked_kind_stems[k],
			    (long long)slow.stacks[i].callsite_id,
			    (long long)slow.stacks[i].count,
			    (long long)slow.stacks[i].ns,
			    (long long)fast.stacks[i].count,
			    (long long)fast.stacks[i].ns);
		}
		rows += (int64_t)slow.n;
		tr_blocked_release(&slow);
		tr_blocked_release(&fast);
	}
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

START_TEST(test_align_moves_lat)
{
	struct tr_db	*db = test_store_gotrace("gen122.trace");

	/* Across a second of the grid: states change bins. */
	test_store_align_offset(db, "1==+987654321ns");
	ck_assert_int_gt(check_lat(db, "moved by +987654321ns"), 0);
	ck_assert_int_gt(check_blocked(db, "moved"), 0);
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
	tcase_add_test(tc, test_align_moves_lat);
	tcase_add_test(tc, test_buckets);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
