/*
 * Counters in runs (store/counter.h): what the writer puts in counter_run
 * comes back through the counter view point for point (values, types,
 * the order added), whatever the runs' sizes and how often they are cut;
 * tr_counter_read() gives what the view gives for any window; a run's
 * JSON that is not one is an error.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/counter.h"
#include "store/db.h"
#include "store/writer.h"

#define NTRACK	3
#define NNAME	2
#define NPT	1500

/* A point as added: its track and name (indexes), time and value. */
struct want {
	int	 t, n;
	int64_t	 ts;
	double	 v;
};

static struct want	 pts[NPT];
static int64_t		 tracks[NTRACK], names[NNAME];

/*
 * The value of point i: integers, reals, none, infinities, and integral
 * values at the edges of what an integer holds.
 */
static double
value_of(int i)
{
	switch (i % 11) {
	case 0:
		return (NAN);
	case 1:
		return (0.1 * i);
	case 2:
		return (-2.5);
	case 3:
		return (1e20);
	case 4:
		return (i % 3 ? INFINITY : -INFINITY);
	case 5:
		return (9007199254740992.0);	/* 2^53: a real as stored */
	case 6:
		return (-(double)i);
	}
	return ((double)(i * 7 % 101));
}

/*
 * A store in memory with NPT points over NTRACK tracks and NNAME names,
 * mostly in time order, some back in time and some at one time.  With
 * 'cap', the writer's pending runs are written every 'cap' points (and
 * every 'cap' runs open).
 */
static struct tr_db *
counter_store(size_t cap)
{
	struct tr_error		 err;
	struct tr_db		*db;
	struct tr_writer	*w;
	char			 name[16];
	int			 i;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(tr_db_exec(db, "BEGIN; INSERT INTO source (path, "
	    "format, hash, size, imported_at) VALUES ('x', 'test', 'h', 0, "
	    "'now')", &err), 0);
	w = tr_writer_new(db, 1, 0, cap, &err);
	ck_assert_msg(w != NULL, "%s", err.msg);
	for (i = 0; i < NTRACK; i++) {
		snprintf(name, sizeof name, "%d", i);
		tracks[i] = tr_writer_add_track(w, "gpu", name, i, 0, 0, 0,
		    NULL, &err);
		ck_assert_int_gt(tracks[i], 0);
	}
	for (i = 0; i < NNAME; i++) {
		snprintf(name, sizeof name, "m%d", i);
		names[i] = tr_writer_add_str(w, name, strlen(name), &err);
		ck_assert_int_gt(names[i], 0);
	}
	for (i = 0; i < NPT; i++) {
		pts[i].t = i % 7 % NTRACK;
		pts[i].n = i % 5 % NNAME;
		pts[i].ts = 1000000 + (int64_t)i * 1000;
		if (i % 97 == 13)
			pts[i].ts -= 450000;	/* back in time */
		if (i % 89 == 5)
			pts[i].ts = pts[i - 1].ts;	/* a time twice */
		pts[i].v = value_of(i);
		ck_assert_int_eq(tr_writer_add_counter(w, tracks[pts[i].t],
		    pts[i].ts, names[pts[i].n], pts[i].v, &err), 0);
	}
	ck_assert_msg(tr_writer_flush(w, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(tr_writer_counts(w)->counters, NPT);
	tr_writer_free(w);
	ck_assert_int_eq(tr_db_exec(db, "COMMIT", &err), 0);
	return (db);
}

/* The one text 'sql' gives (a static buffer). */
static const char *
rows(struct tr_db *db, const char *sql)
{
	static char	 buf[256];
	struct tr_error	 err;
	sqlite3_stmt	*st;

	tr_error_init(&err);
	st = tr_db_prepare(db, sql, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	snprintf(buf, sizeof buf, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return (buf);
}

/* The text of value v as the view gives it: "type value". */
static void
want_text(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "null");
	else if (v == floor(v) && fabs(v) < 9e15)
		snprintf(buf, len, "integer %lld", (long long)v);
	else
		snprintf(buf, len, "real %.17g", v);
}

/* Every point through the view, in each track and name's added order. */
static void
check_view(struct tr_db *db)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	char		 have[64], want[64];
	int		 t, n, i, k = 0;

	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT ts, typeof(value), value FROM counter "
	    "WHERE track_id = ?1 AND name_id = ?2 ORDER BY id", &err);
	ck_assert_ptr_nonnull(st);
	for (t = 0; t < NTRACK; t++)
		for (n = 0; n < NNAME; n++) {
			sqlite3_bind_int64(st, 1, tracks[t]);
			sqlite3_bind_int64(st, 2, names[n]);
			for (i = 0; i < NPT; i++) {
				if (pts[i].t != t || pts[i].n != n)
					continue;
				ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
				ck_assert_int_eq(sqlite3_column_int64(st, 0),
				    pts[i].ts);
				if (sqlite3_column_type(st, 2) == SQLITE_NULL)
					snprintf(have, sizeof have, "null");
				else if (sqlite3_column_type(st, 2) ==
				    SQLITE_INTEGER)
					snprintf(have, sizeof have, "%s %lld",
					    sqlite3_column_text(st, 1),
					    (long long)sqlite3_column_int64(st,
					    2));
				else
					snprintf(have, sizeof have, "%s %.17g",
					    sqlite3_column_text(st, 1),
					    sqlite3_column_double(st, 2));
				want_text(pts[i].v, want, sizeof want);
				ck_assert_str_eq(have, want);
				k++;
			}
			ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
			sqlite3_reset(st);
		}
	sqlite3_finalize(st);
	ck_assert_int_eq(k, NPT);
	/* The ids are those of the runs: id .. id + n - 1, none twice. */
	ck_assert_str_eq(rows(db, "SELECT count(DISTINCT id) || ' ' || "
	    "count(*) || ' ' || (SELECT sum(n) FROM counter_run) FROM "
	    "counter"), "1500 1500 1500");
}

/* tr_counter_read() against the view for window [lo, hi). */
static void
check_read(struct tr_db *db, int t, int n, int64_t lo, int64_t hi, int prev)
{
	struct tr_counter_pts	 got = { 0 };
	struct tr_error		 err;
	sqlite3_stmt		*st;
	size_t			 i = 0;
	int64_t			 from = lo;

	tr_error_init(&err);
	if (prev) {
		st = tr_db_prepare(db, "SELECT max(ts) FROM counter WHERE "
		    "track_id = ?1 AND name_id = ?2 AND ts < ?3", &err);
		sqlite3_bind_int64(st, 1, tracks[t]);
		sqlite3_bind_int64(st, 2, names[n]);
		sqlite3_bind_int64(st, 3, lo);
		ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			from = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	ck_assert_msg(tr_counter_read(db, tracks[t], names[n], lo, hi, prev,
	    &got, &err) == 0, "%s", err.msg);
	st = tr_db_prepare(db, "SELECT id, ts, value FROM counter WHERE "
	    "track_id = ?1 AND name_id = ?2 AND ts >= ?3 AND ts < ?4 AND "
	    "value IS NOT NULL ORDER BY ts, id", &err);
	ck_assert_ptr_nonnull(st);
	sqlite3_bind_int64(st, 1, tracks[t]);
	sqlite3_bind_int64(st, 2, names[n]);
	sqlite3_bind_int64(st, 3, from);
	sqlite3_bind_int64(st, 4, hi);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ck_assert_msg(i < got.n, "window [%lld, %lld): %zu points",
		    (long long)lo, (long long)hi, got.n);
		ck_assert_int_eq(got.id[i], sqlite3_column_int64(st, 0));
		ck_assert_int_eq(got.ts[i], sqlite3_column_int64(st, 1));
		ck_assert(got.v[i] == sqlite3_column_double(st, 2));
		i++;
	}
	sqlite3_finalize(st);
	ck_assert_int_eq(i, got.n);
	tr_counter_pts_free(&got);
}

static const size_t caps[] = { 0, 1, 3, 40 };

START_TEST(test_runs)
{
	static const int64_t	lo[] = { INT64_MIN, 0, 1000000, 1250500,
	    1300000, 2000000, 2499000 };
	static const int64_t	span[] = { 1, 1000, 77777, 400000, INT64_MAX };
	struct tr_db		*db = counter_store(caps[_i]);
	size_t			 a, b;
	int			 t, n;

	check_view(db);
	/*
	 * 386, 257, 257, 257, 172 and 171 points in the six series: four
	 * runs of 256 and six more; one a run when every point is cut.
	 */
	if (caps[_i] == 0)
		ck_assert_str_eq(rows(db, "SELECT group_concat(n, ' ') FROM "
		    "(SELECT n FROM counter_run ORDER BY n DESC)"), "256 256 256 "
		    "256 172 171 130 1 1 1");
	if (caps[_i] == 1)
		ck_assert_str_eq(rows(db, "SELECT count(*) || ' ' || max(n) FROM "
		    "counter_run"), "1500 1");
	for (t = 0; t < NTRACK; t++)
		for (n = 0; n < NNAME; n++)
			for (a = 0; a < sizeof lo / sizeof lo[0]; a++)
				for (b = 0; b < sizeof span / sizeof span[0];
				    b++) {
					int64_t	hi = span[b] == INT64_MAX ||
					    lo[a] == INT64_MIN ? INT64_MAX :
					    lo[a] + span[b];

					check_read(db, t, n, lo[a], hi, 0);
					check_read(db, t, n, lo[a], hi, 1);
				}
	tr_db_free(db);
}
END_TEST

static int
no_point(void *arg, int64_t id, int64_t ts, const struct tr_counter_val *v,
    struct tr_error *err)
{
	(void)arg;
	(void)id;
	(void)ts;
	(void)v;
	(void)err;
	return (0);
}

/* A run's JSON that is not one: an error naming the run. */
START_TEST(test_bad_runs)
{
	static const char *const bad[] = {
		"", "[", "[[1]]", "[[1,2]", "[[1,2],]", "[[a,1]]", "[[1.5,2]]",
		"[[1,2,3]]", "{}", "[[1,nul]]", "[1,2]",
	};
	struct tr_error		 err;
	size_t			 i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tr_error_init(&err);
		ck_assert_msg(tr_counter_walk(bad[i], strlen(bad[i]), 5, 0,
		    no_point, NULL, &err) == -1, "'%s'", bad[i]);
		ck_assert_str_eq(err.msg, "counter_run 5: its points are not "
		    "a run's JSON");
	}
	tr_error_init(&err);
	ck_assert_int_eq(tr_counter_walk(" [ ] ", 5, 5, 0, no_point, NULL,
	    &err),
	    0);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("counter");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_runs, 0, (int)(sizeof caps /
	    sizeof caps[0]));
	tcase_add_test(tc, test_bad_runs);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
