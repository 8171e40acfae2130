/*
 * Unit tests for align: the integer mapping, statements, the clock-json
 * importer, every anchor kind on synthetic stores with known answers,
 * estimation by cross-correlation (found, refused for no overlap, flat
 * signals and two equal peaks), applying, --reset and --dry-run.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "align/align.h"
#include "store/db.h"
#include "import/importer.h"
#include "store/writer.h"
#include "base/input.h"
#include "base/out.h"
#include "base/wallclock.h"

#define SEC	INT64_C(1000000000)
#define MS	INT64_C(1000000)
#define US	INT64_C(1000)

/* --- a store built by a test importer -------------------------------- */

static char	g_notes[4096];

typedef int fill_fn(struct tr_import *, struct tr_error *);
static fill_fn	*fill;

static int
fake_probe(const unsigned char *p, size_t n)
{
	(void)p;
	(void)n;
	return (0);
}

static int
fake_run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	unsigned char	*buf;
	size_t		 len;

	/* Read it all: the content hash tells sources apart. */
	if (tr_input_slurp(in, 4096, &buf, &len, err) != 0)
		return (-1);
	free(buf);
	return (fill(ctx, err));
}

static const struct tr_importer fake = {
	.name = "test",
	.summary = "test",
	.probe = fake_probe,
	.run = fake_run,
};

static struct tr_db *
newdb(void)
{
	struct tr_error	 err;
	struct tr_db	*db;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	return (db);
}

/* Import through 'f'; returns the source id. */
static int64_t
add_src(struct tr_db *db, const char *name, fill_fn *f)
{
	struct tr_import_opts	 o;
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_input		*in;
	int			 rc;

	tr_import_opts_init(&o);
	o.format = &fake;
	fill = f;
	tr_error_init(&err);
	in = tr_input_mem(name, name, strlen(name));
	rc = tr_import_input(db, in, &o, &res, &err);
	tr_input_free(in);
	ck_assert_msg(rc == 0, "%s", err.msg);
	return (res.source_id);
}

static int64_t
add_text(struct tr_db *db, const char *name, const char *text,
    struct tr_error *err)
{
	struct tr_import_opts	 o;
	struct tr_import_result	 res;
	struct tr_input		*in;
	int			 rc;

	tr_import_opts_init(&o);
	in = tr_input_mem(name, text, strlen(text));
	rc = tr_import_input(db, in, &o, &res, err);
	tr_input_free(in);
	return (rc == 0 ? res.source_id : -1);
}

static int64_t
sql_int(struct tr_db *db, const char *sql)
{
	struct tr_error	err;
	int64_t		v = 0;

	tr_error_init(&err);
	ck_assert_msg(tr_db_int(db, sql, &v, &err) == 0, "%s: %s", sql,
	    err.msg);
	return (v);
}

/* Run alignment; the report as a JSON array owned by the caller. */
static json_t *
align(struct tr_db *db, const struct tr_align_opts *o, struct tr_error *err,
    int *rc)
{
	struct tr_out	*out;
	json_error_t	 je;
	json_t		*j;
	char		*buf = NULL, *nbuf = NULL;
	size_t		 len = 0, nlen = 0;
	FILE		*f = open_memstream(&buf, &len);
	FILE		*nf = open_memstream(&nbuf, &nlen);

	out = tr_out_new(f, TR_OUT_JSON);
	tr_out_set_notes(out, nf, NULL);
	*rc = tr_align_run(db, o, out, err);
	tr_out_free(out);
	fclose(f);
	fclose(nf);
	/* The notes (warnings) of the last run, for the tests to look at. */
	snprintf(g_notes, sizeof g_notes, "%s", nbuf);
	free(nbuf);
	j = json_loads(buf, 0, &je);
	free(buf);
	return (j);
}

static json_t *
align_ok(struct tr_db *db, const struct tr_align_opts *o)
{
	struct tr_error	 err;
	json_t		*j;
	int		 rc;

	tr_error_init(&err);
	j = align(db, o, &err, &rc);
	ck_assert_msg(rc == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(j);
	return (j);
}

static json_t *
row(json_t *rows, int64_t id)
{
	size_t	 i;
	json_t	*r;

	json_array_foreach(rows, i, r)
		if (json_integer_value(json_object_get(r, "source")) == id)
			return (r);
	ck_abort_msg("no row for source %lld", (long long)id);
	return (NULL);
}

static const char *
str(json_t *r, const char *k)
{
	json_t	*v = json_object_get(r, k);

	return (json_is_string(v) ? json_string_value(v) : "(null)");
}

static int64_t
num(json_t *r, const char *k)
{
	json_t	*v = json_object_get(r, k);

	/* Integers beyond 2^53 come as decimal strings (see out.h). */
	if (json_is_string(v))
		return (strtoll(json_string_value(v), NULL, 10));
	return (json_integer_value(v));
}

/* --- fills ------------------------------------------------------------ */

/* Knobs the fills read. */
static int64_t	g_off;		/* native = truth - g_off */
static int64_t	g_wall0;	/* wall time of the first counter */
static int64_t	g_shift;	/* where an activity pattern starts */
static int	g_pattern;	/* 0: random bursts, 1: twice, 2: flat */

/* A monotonic source with counters at 1000 s + k * 100 ms. */
static int
fill_mono(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	int64_t	tr, n;
	int	k;

	tr_import_set_clock(ctx, "monotonic");
	if ((tr = tr_writer_add_track(wr, "test", "m", 0, 0, 0, 0, NULL,
	    err)) < 0 || (n = tr_writer_add_str(wr, "v", 1, err)) < 0)
		return (-1);
	for (k = 0; k < 10; k++)
		if (tr_writer_add_counter(wr, tr, 1000 * SEC + k * 100 * MS, n,
		    k, err) < 0)
			return (-1);
	return (0);
}

static const char	*g_tz, *g_tz_from;	/* local times: the zone */

/* A wall-clock source: counters at g_wall0 + k * 100 ms. */
static int
fill_wall(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	int64_t	tr, n;
	int	k;

	tr_import_set_clock(ctx, "wall");
	if (g_tz != NULL) {
		json_object_set_new(tr_import_meta(ctx), "tz",
		    json_string(g_tz));
		json_object_set_new(tr_import_meta(ctx), "tz_from",
		    json_string(g_tz_from));
	}
	if ((tr = tr_writer_add_track(wr, "test", "w", 0, 0, 0, 0, NULL,
	    err)) < 0 || (n = tr_writer_add_str(wr, "v", 1, err)) < 0)
		return (-1);
	for (k = 0; k < 10; k++)
		if (tr_writer_add_counter(wr, tr, g_wall0 + k * 100 * MS, n,
		    k, err) < 0)
			return (-1);
	return (0);
}

/* perf on CLOCK_MONOTONIC with its reference time (wall 5000 s at 1000 s). */
static int
fill_perf_ref(struct tr_import *ctx, struct tr_error *err)
{
	json_t	*ref = json_object();

	json_object_set_new(ref, "tod_ns", json_integer(5000 * SEC));
	json_object_set_new(ref, "clock_ns", json_integer(1000 * SEC));
	json_object_set_new(ref, "clock", json_string("monotonic"));
	json_object_set_new(tr_import_meta(ctx), "reference_time", ref);
	return (fill_mono(ctx, err));
}

/*
 * A Go trace on ticks: goroutine 1 runs [k s, k s + 1 ms) natively for k
 * in 0..9, and logs "mono=..." at k = 0 and k = 9 when g_pattern is set.
 * Its native clock runs 20 ppm fast against monotonic: mono = 1000 s +
 * (native) * (1 - 20e-6)... expressed through the logs only.
 */
static int
fill_go_logs(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	int64_t	tr, task, run, key, cat;
	char	args[128];
	int	k;

	tr_import_set_clock(ctx, "go-ticks");
	if ((tr = tr_writer_add_track(wr, "goroutine", "g1", 1, 0, 0, 0,
	    "{\"created\":7000000000,\"ended\":16001000000}", err)) < 0 ||
	    (task = tr_writer_add_track(wr, "go-task",
	    "background", 0, 0, 0, 0, NULL, err)) < 0 ||
	    (run = tr_writer_add_str(wr, "running", 7, err)) < 0 ||
	    (key = tr_writer_add_str(wr, TR_ALIGN_LOG_KEY,
	    strlen(TR_ALIGN_LOG_KEY), err)) < 0 ||
	    (cat = tr_writer_add_str(wr, "log", 3, err)) < 0)
		return (-1);
	for (k = 0; k < 10; k++) {
		int64_t	nat = 7 * SEC + k * SEC;

		if (tr_writer_add_slice(wr, tr, nat, MS, run, 0, 0, k == 4 ?
		    "{\"handoff\":true,\"handoff_ts\":11000000000}" : NULL,
		    err) < 0)
			return (-1);
		/* A counter at each state's start, 0.5 k: a real or none. */
		if (tr_writer_add_counter(wr, tr, nat, run, k == 7 ? NAN :
		    k * 0.5, err) < 0)
			return (-1);
		if (k == 0 || k == 9) {
			/* 20 ppm: mono advances 9 s - 180 us over 9 native s */
			int64_t	mono = 1000 * SEC + k * SEC - k * 20 * US;

			snprintf(args, sizeof args, "{\"goid\":1,\"message\":"
			    "\"mono=%lld wall=1\"}", (long long)mono);
			if (tr_writer_add_slice(wr, task, nat, 0, key, cat, 0,
			    args, err) < 0)
				return (-1);
		}
	}
	return (0);
}

/* Go 1.25-style snapshots on a trace whose clock is not monotonic. */
static int
fill_go_snap(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	json_t	*a = json_array(), *p;
	int64_t	 tr, run;
	int	 k;

	tr_import_set_clock(ctx, "go-ticks");
	for (k = 0; k < 2; k++) {
		p = json_object();
		json_object_set_new(p, "trace_ns", json_integer(50 * SEC +
		    k * SEC));
		json_object_set_new(p, "mono_ns", json_integer(1000 * SEC +
		    k * SEC));
		json_object_set_new(p, "wall_ns", json_integer(6000 * SEC +
		    k * SEC));
		json_array_append_new(a, p);
	}
	json_object_set_new(tr_import_meta(ctx), "clock_snapshots", a);
	if ((tr = tr_writer_add_track(wr, "goroutine", "g1", 1, 0, 0, 0,
	    NULL, err)) < 0 ||
	    (run = tr_writer_add_str(wr, "running", 7, err)) < 0)
		return (-1);
	return (tr_writer_add_slice(wr, tr, 50 * SEC + 500 * MS, MS, run, 0,
	    0, NULL, err) < 0 ? -1 : 0);
}

/* Busy intervals: random bursts, or a pattern twice, or all busy. */
static int
pattern(int64_t (*iv)[2], int max)
{
	uint64_t	x = 0x9e3779b97f4a7c15ULL;
	int64_t		t = 0, len;
	int		n = 0, i, half;

	if (g_pattern == 2) {
		for (i = 0; i < 30 && i < max; i++) {
			iv[i][0] = i * 100 * MS;
			iv[i][1] = (i + 1) * 100 * MS;
		}
		return (i);
	}
	while (n < max && t < 3 * SEC) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = (int64_t)(2 + x % 29) * MS;
		iv[n][0] = t;
		iv[n][1] = t + len;
		n++;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		t += len + (int64_t)(1 + x % 40) * MS;
	}
	if (g_pattern == 1) {
		/* The same bursts again, 10 s later. */
		half = n;
		for (i = 0; i < half && n < max; i++, n++) {
			iv[n][0] = iv[i][0] + 10 * SEC;
			iv[n][1] = iv[i][1] + 10 * SEC;
		}
	}
	return (n);
}

static int64_t	g_iv[2048][2];
static int64_t	g_period = 250 * US;	/* perf's sampling period */

/* perf samples of pid 42 every 250 us while busy, at g_shift + pattern. */
static int
fill_perf_activity(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	struct tr_sample	s;
	int64_t			th, ev, t;
	int			n, i;

	tr_import_set_clock(ctx, "monotonic");
	if ((th = tr_writer_add_thread(wr, 42, 42, "app", 3, err)) < 0 ||
	    (ev = tr_writer_add_str(wr, "cpu-clock", 9, err)) < 0)
		return (-1);
	memset(&s, 0, sizeof s);
	s.has_ts = 1;
	s.thread_id = th;
	s.cpu = 0;
	s.event_id = ev;
	s.value = g_period;
	n = pattern(g_iv, 2048);
	for (i = 0; i < n; i++)
		for (t = g_iv[i][0]; t < g_iv[i][1]; t += g_period) {
			s.ts = g_shift + t;
			if (tr_writer_add_sample(wr, &s, err) < 0)
				return (-1);
		}
	return (0);
}

/* A Go trace (clock from g_clock) running while busy, native = mono - off. */
static const char	*g_clock = "go-ticks";

static int
fill_go_activity(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	int64_t	tr, run;
	int	n, i;

	tr_import_set_clock(ctx, g_clock);
	if ((tr = tr_writer_add_track(wr, "goroutine", "g1", 1, 0, 0, 0,
	    NULL, err)) < 0 ||
	    (run = tr_writer_add_str(wr, "running", 7, err)) < 0)
		return (-1);
	/* Only the first copy of a doubled pattern. */
	n = pattern(g_iv, 2048);
	if (g_pattern == 1)
		n /= 2;
	for (i = 0; i < n; i++)
		if (tr_writer_add_slice(wr, tr, 1000 * SEC + g_iv[i][0] -
		    g_off, g_iv[i][1] - g_iv[i][0], run, 0, 0, NULL, err) < 0)
			return (-1);
	return (0);
}

/* --- the mapping ------------------------------------------------------ */

START_TEST(test_map_exact)
{
	static const double	drifts[] = { 0, 20e-6, -35e-6, 1e-3, -1e-3,
	    0.25 };
	struct tr_align_map	m;
	int64_t			n, s;
	size_t			i;
	int			k;

	for (i = 0; i < sizeof drifts / sizeof drifts[0]; i++) {
		m.offset = -1795958908705514000LL;
		m.drift = drifts[i];
		m.ref = 1795959651180255000LL;
		for (k = -2000; k <= 2000; k++) {
			n = m.ref + (int64_t)k * 7777777 + k % 3;
			s = tr_align_forward(&m, n);
			/*
			 * A slow clock maps two native ns to one now and
			 * then: exact within 1 ns, exact when it runs fast.
			 */
			if (m.drift >= 0)
				ck_assert_int_eq(tr_align_inverse(&m, s), n);
			else
				ck_assert_int_le(llabs(tr_align_inverse(&m, s) -
				    n), 1);
		}
	}
	m.offset = 5;
	m.drift = 0;
	m.ref = 0;
	ck_assert_int_eq(tr_align_forward(&m, 10), 15);
	ck_assert_int_eq(tr_align_inverse(&m, 15), 10);
	/* Drift: 20 ppm of 1 s from the reference is 20 us. */
	m.offset = 0;
	m.drift = 20e-6;
	m.ref = 100 * SEC;
	ck_assert_int_eq(tr_align_forward(&m, 101 * SEC), 101 * SEC +
	    20 * US);
	ck_assert_int_eq(tr_align_forward(&m, 99 * SEC), 99 * SEC - 20 * US);
}
END_TEST

START_TEST(test_remap_sql)
{
	struct tr_db	*db = newdb();
	struct tr_error	 err;

	tr_error_init(&err);
	ck_assert_int_eq(tr_align_register(db, &err), 0);
	/* 1 s + 5 under +5, moved to +1000 with 1000 ppm around 0. */
	ck_assert_int_eq(sql_int(db, "SELECT tr_align_remap(1000000005, 5, 0, "
	    "0, 1000, 0.001, 0)"), 1000000000 + 1000 + 1000000);
	ck_assert_int_eq(sql_int(db, "SELECT tr_align_remap(NULL, 5, 0, 0, "
	    "1000, 0.001, 0) IS NULL"), 1);
	tr_db_free(db);
}
END_TEST

/* --- dates: the one calendar of base/wallclock ------------------------ */

START_TEST(test_dates)
{
	static const struct {
		int	y, m, d;
		int64_t	days;
	} days[] = {
		{ 1970, 1, 1, 0 }, { 1969, 12, 31, -1 }, { 2000, 3, 1, 11017 },
		{ 2000, 2, 29, 11016 }, { 2026, 11, 29, 20786 },
		{ 1900, 3, 1, -25508 }, { 1600, 1, 1, -135140 },
	};
	struct tr_civil	c;
	int64_t		ns;
	size_t		i;
	char		iso[TR_ISO_MAX];

	for (i = 0; i < sizeof days / sizeof days[0]; i++)
		ck_assert_int_eq(tr_days_from_civil(days[i].y, days[i].m,
		    days[i].d), days[i].days);
	/* UTC both ways, before the epoch too. */
	tr_civil_from_utc(1795959651180255123LL, &c);
	ck_assert_int_eq(c.year, 2026);
	ck_assert_int_eq(c.mon, 11);
	ck_assert_int_eq(c.day, 29);
	ck_assert_int_eq(c.hour, 13);
	ck_assert_int_eq(c.min, 40);
	ck_assert_int_eq(c.sec, 51);
	ck_assert_int_eq(c.nsec, 180255123);
	ck_assert_int_eq(tr_civil_utc(&c), 1795959651180255123LL);
	/* ISO 8601 to the nearest ms: up at half a ms, before 1970 too. */
	ck_assert_str_eq(tr_iso_utc(1795959651180255123LL, iso),
	    "2026-11-29T13:40:51.180Z");
	ck_assert_str_eq(tr_iso_utc(1795959651999500000LL, iso),
	    "2026-11-29T13:40:52.000Z");
	ck_assert_str_eq(tr_iso_utc(-1, iso), "1970-01-01T00:00:00.000Z");
	ck_assert_str_eq(tr_iso_utc(-500001, iso),
	    "1969-12-31T23:59:59.999Z");
	tr_civil_from_utc(-1, &c);
	ck_assert_int_eq(c.year, 1969);
	ck_assert_int_eq(c.sec, 59);
	ck_assert_int_eq(c.nsec, 999999999);
	ck_assert_int_eq(tr_civil_utc(&c), -1);
	/* With no zone object, a date with no zone is UTC. */
	ck_assert_int_eq(tr_wallclock_parse(NULL,
	    "2026-11-29T13:40:51.180255123", &ns), 0);
	ck_assert_int_eq(ns, 1795959651180255123LL);
	ck_assert_int_eq(tr_wallclock_parse(NULL,
	    "2026-11-29 14:40:51.18+01:00", &ns), 0);
	ck_assert_int_eq(ns, 1795959651180000000LL);
	ck_assert_int_eq(tr_wallclock_parse(NULL, "2026-11-29T13:40:51Z", &ns),
	    0);
	ck_assert_int_eq(ns, 1795959651000000000LL);
	ck_assert_int_eq(tr_wallclock_parse(NULL, "@1795959651.18", &ns), 0);
	ck_assert_int_eq(ns, 1795959651180000000LL);
	ck_assert_int_eq(tr_wallclock_parse(NULL, "2026-02-30T00:00:00", &ns),
	    -1);
	ck_assert_int_eq(tr_wallclock_parse(NULL, "742.5", &ns), -1);
}
END_TEST

/* --- statements ------------------------------------------------------- */

START_TEST(test_statements)
{
	struct tr_align_opts	o;
	struct tr_error		err;

	tr_align_opts_init(&o);
	tr_error_init(&err);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, "2=+12.5ms",
	    &err), 0);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_PAIR,
	    "trace.out:+1.5s=perf.txt:742.474741497", &err), 0);
	ck_assert_str_eq(o.stmts[1].src[0], "trace.out");
	ck_assert_str_eq(o.stmts[1].val[0], "+1.5s");
	ck_assert_str_eq(o.stmts[1].src[1], "perf.txt");
	ck_assert_str_eq(o.stmts[1].val[1], "742.474741497");
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_TZ, "+01:00", &err),
	    0);
	ck_assert_ptr_null(o.stmts[2].src[0]);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_PID, "3=4242", &err),
	    0);
	ck_assert_int_eq(o.nstmts, 4);

	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, "+12ms", &err),
	    -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	ck_assert_str_eq(err.msg, "--offset '+12ms': expected SOURCE=OFFSET "
	    "(from its alignment, as in 2=+12.5ms) or SOURCE==OFFSET (from "
	    "its native clock)");
	tr_error_init(&err);
	/* "==" is the absolute form; the value must still be a duration. */
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, "2==-3s",
	    &err), 0);
	ck_assert_int_eq(o.stmts[4].kind, TR_ALIGN_OFFSET_ABS);
	ck_assert_str_eq(o.stmts[4].src[0], "2");
	ck_assert_str_eq(o.stmts[4].val[0], "-3s");
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, "2===3s",
	    &err), -1);
	tr_error_init(&err);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, "2=soon",
	    &err), -1);
	tr_error_init(&err);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_PAIR, "1:2", &err), -1);
	ck_assert_str_eq(err.msg, "--pair '1:2': expected "
	    "SOURCE:TIME=SOURCE:TIME, as in 3:+1.5s=1:742.1");
	tr_error_init(&err);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_PID, "x", &err), -1);
	ck_assert_str_eq(err.msg,
	    "--source-pid 'x': expected a process id, got 'x'");
	ck_assert_int_eq(o.nstmts, 5);
	ck_assert_uint_eq(tr_align_anchor_kind("go-log"), TR_ANCHOR_GO_LOG);
	ck_assert_uint_eq(tr_align_anchor_kind("perf-ref"),
	    TR_ANCHOR_PERF_REF);
	ck_assert_uint_eq(tr_align_anchor_kind("nope"), 0);
	tr_align_opts_release(&o);
}
END_TEST

/* --- clock-json ------------------------------------------------------- */

static const char demo_clock[] =
"{\"pairs\": [\n"
"  {\"wall_ns\": 1795959651226464071, \"mono_ns\": 742520949745},\n"
"  {\"wall_ns\": 1795959657358344263, \"mono_ns\": 748652829325}\n"
"]}\n";

START_TEST(test_clock_json)
{
	struct tr_db	*db = newdb();
	struct tr_error	 err;
	int64_t		 id;

	tr_error_init(&err);
	id = add_text(db, "clock.json", demo_clock, &err);
	ck_assert_msg(id > 0, "%s", err.msg);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM source WHERE "
	    "format = 'clock-json' AND clock = 'monotonic' AND "
	    "ts_min = 742520949745 AND ts_max = 748652829325"), 1);
	ck_assert_int_eq(sql_int(db, "SELECT json_extract(meta, "
	    "'$.pairs[1].wall_ns') FROM source"), 1795959657358344263LL);
	ck_assert_int_eq(sql_int(db, "SELECT json_type(meta, "
	    "'$.pairs[0].uncertainty_ns') IS NULL FROM source"), 1);

	/* A bracket: the midpoint and half the width. */
	id = add_text(db, "c2.json", "{\"tracekit_clock\": 1, \"host\": \"h\","
	    " \"tz\": \"+01:00\", \"pairs\": [{\"wall_ns\": 10, "
	    "\"mono_before_ns\": 1000, \"mono_after_ns\": 1301}]}", &err);
	ck_assert_msg(id > 0, "%s", err.msg);
	ck_assert_int_eq(sql_int(db, "SELECT json_extract(meta, "
	    "'$.pairs[0].mono_ns') + 1000 * json_extract(meta, "
	    "'$.pairs[0].uncertainty_ns') FROM source WHERE path = 'c2.json'"),
	    1150 + 1000 * 151);
	ck_assert_int_eq(sql_int(db, "SELECT host = 'h' AND json_extract(meta, "
	    "'$.tz') = '+01:00' FROM source WHERE path = 'c2.json'"), 1);

	/* Errors say where. */
	ck_assert_int_eq(add_text(db, "bad.json", "{\"pairs\": [\n"
	    "  {\"wall_ns\": 1, \"mono_ns\": 5},\n"
	    "  {\"mono_ns\": 6}\n]}", &err), -1);
	ck_assert_int_eq(err.line, 3);
	ck_assert_int_eq(err.column, 3);
	ck_assert_str_eq(err.msg, "pair 2: missing 'wall_ns'");
	tr_error_init(&err);
	ck_assert_int_eq(add_text(db, "bad2.json", "{\"pairs\": [{\"wall_ns\": "
	    "1, \"mono_ns\": 5}, {\"wall_ns\": 2, \"mono_ns\": 4}]}", &err),
	    -1);
	ck_assert_str_eq(err.msg, "pair 2: monotonic time goes backwards at "
	    "'mono_ns'");
	ck_assert_int_eq(err.column, 42);
	tr_error_init(&err);
	ck_assert_int_eq(add_text(db, "bad3.json", "{\"pairs\": [{\"wall_ns\": "
	    "1.5, \"mono_ns\": 5}]}", &err), -1);
	ck_assert_str_eq(err.msg, "pair 1: expected an integer number of "
	    "nanoseconds for 'wall_ns'");
	tr_error_init(&err);
	ck_assert_int_eq(add_text(db, "bad4.json", "{\"tracekit_clock\": 1, "
	    "\"pairs\": [}", &err), -1);
	ck_assert_int_eq(err.line, 1);
	ck_assert_int_eq(err.column, 33);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM source"), 2);
	tr_db_free(db);
}
END_TEST

/* --- exact anchors ---------------------------------------------------- */

START_TEST(test_clock_json_anchor)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	struct tr_error		 err;
	json_t			*rows, *r;
	int64_t			 w;
	char			 text[256];

	tr_error_init(&err);
	/* wall 5000 s <-> mono 1000 s +- 150 ns. */
	snprintf(text, sizeof text, "{\"tracekit_clock\": 1, \"pairs\": "
	    "[{\"wall_ns\": %lld, \"mono_before_ns\": %lld, "
	    "\"mono_after_ns\": %lld}]}", (long long)(5000 * SEC),
	    (long long)(1000 * SEC - 150), (long long)(1000 * SEC + 150));
	ck_assert_int_gt(add_text(db, "clock.json", text, &err), 0);
	g_wall0 = 5003 * SEC;
	w = add_src(db, "wall", fill_wall);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	r = row(rows, w);
	ck_assert_str_eq(str(r, "method"), "clock-json");
	ck_assert_int_eq(num(r, "offset"), 1000 * SEC - 5000 * SEC);
	/*
	 * The pair is known to 150 ns, but the source's times all fall on
	 * 100 ms: that is all its data can vouch for.
	 */
	ck_assert_int_eq(num(r, "uncertainty"), 100 * MS);
	ck_assert_ptr_nonnull(strstr(str(r, "evidence"), "uncertainty no "
	    "finer than its time stamps (100.000ms)"));
	ck_assert_int_eq(num(r, "start"), 1003 * SEC);
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM counter WHERE "
	    "source_id = 2"), 1003 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT ts_max FROM source WHERE id = 2"),
	    1003 * SEC + 900 * MS);
	ck_assert_int_eq(sql_int(db, "SELECT clock_offset = -4000000000000 AND "
	    "align_method = 'clock-json' AND align_confidence = 1 FROM source "
	    "WHERE id = 2"), 1);

	/* Again: nothing to change, same answer. */
	rows = align_ok(db, &o);
	ck_assert_int_eq(num(row(rows, w), "offset"), -4000 * SEC);
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM counter WHERE "
	    "source_id = 2"), 1003 * SEC);

	/* --ignore clock-json: nothing anchors it, it goes back. */
	o.ignore = TR_ANCHOR_CLOCK_JSON;
	o.no_estimate = 1;
	rows = align_ok(db, &o);
	ck_assert_str_eq(str(row(rows, w), "method"), "none");
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM counter WHERE "
	    "source_id = 2"), 5003 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT align_method IS NULL AND "
	    "clock_offset = 0 FROM source WHERE id = 2"), 1);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

START_TEST(test_perf_ref_anchor)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 p, w;

	p = add_src(db, "perf", fill_perf_ref);
	/* Times to the ns, so that the pair's 500 ns is what it is known to. */
	g_wall0 = 5002 * SEC + 1;
	w = add_src(db, "wall", fill_wall);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	ck_assert_str_eq(str(row(rows, p), "method"), "native");
	r = row(rows, w);
	ck_assert_str_eq(str(r, "method"), "perf-ref");
	/* perf prints the wall time truncated to the us: +500 ns. */
	ck_assert_int_eq(num(r, "offset"), -4000 * SEC - 500);
	ck_assert_int_eq(num(r, "uncertainty"), 500);
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM counter WHERE "
	    "source_id = 2"), 1002 * SEC - 500 + 1);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

START_TEST(test_go_snapshot_anchor)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 g, w;

	g = add_src(db, "go", fill_go_snap);
	g_wall0 = 6000 * SEC + 250 * MS;
	w = add_src(db, "wall", fill_wall);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "go-snapshot");
	ck_assert_int_eq(num(r, "offset"), 950 * SEC);
	r = row(rows, w);
	ck_assert_str_eq(str(r, "method"), "go-snapshot");
	ck_assert_int_eq(num(r, "offset"), -5000 * SEC);
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT ts FROM slice WHERE source_id = "
	    "1"), 1000 * SEC + 500 * MS);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM counter WHERE "
	    "source_id = 2"), 1000 * SEC + 250 * MS);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

/* Runs (slice_run) whose bounds are not those of their slices. */
#define RUNS_OFF	"SELECT count(*) FROM slice_run r WHERE ts <> " \
	"(SELECT min(ts) FROM slice s WHERE s.id BETWEEN r.id AND " \
	"r.id + r.n - 1) OR end_ts <> (SELECT max(ts + dur) FROM slice s " \
	"WHERE s.id BETWEEN r.id AND r.id + r.n - 1)"

START_TEST(test_go_log_drift)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 g;

	g = add_src(db, "go", fill_go_logs);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "go-log");
	ck_assert_double_eq_tol(json_real_value(json_object_get(r,
	    "drift_ppm")), -20, 1e-6);
	json_decref(rows);
	/* Both logs land on their monotonic times exactly, and between. */
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM slice WHERE "
	    "name_id = (SELECT id FROM str WHERE s = 'running')"), 1000 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT max(ts) FROM slice WHERE "
	    "name_id = (SELECT id FROM str WHERE s = 'running')"),
	    1009 * SEC - 180 * US);
	ck_assert_int_eq(sql_int(db, "SELECT ts FROM slice WHERE "
	    "name_id = (SELECT id FROM str WHERE s = 'running') ORDER BY "
	    "ts LIMIT 1 OFFSET 4"), 1004 * SEC - 80 * US);
	/* Times inside JSON move too. */
	ck_assert_int_eq(sql_int(db, "SELECT json_extract(meta, '$.created') "
	    "FROM track WHERE kind = 'goroutine'"), 1000 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT json_extract(meta, '$.ended') "
	    "FROM track WHERE kind = 'goroutine'"), 1009 * SEC - 180 * US +
	    MS - 20);
	ck_assert_int_eq(sql_int(db, "SELECT json_extract(args, "
	    "'$.handoff_ts') FROM slice WHERE args LIKE '%handoff%'"),
	    1004 * SEC - 80 * US);
	/* Durations stretch with the drift: 1 ms is 999.98 us. */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM slice WHERE "
	    "dur = 999980"), 10);
	/* The runs' bounds move with their slices. */
	ck_assert_int_eq(sql_int(db, RUNS_OFF), 0);
	/* Counters move as the slices do, their values kept. */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM counter c JOIN "
	    "slice s ON s.ts = c.ts AND s.track_id = c.track_id AND "
	    "s.name_id = c.name_id"), 10);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM counter WHERE "
	    "value IS NULL"), 1);
	ck_assert_int_eq(sql_int(db, "SELECT sum(value) * 2 FROM counter"),
	    45 - 7);
	ck_assert_int_eq(sql_int(db, "SELECT ts FROM counter WHERE value = 2"),
	    1004 * SEC - 80 * US);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM counter_run r "
	    "WHERE ts <> (SELECT min(ts) FROM counter c WHERE c.id BETWEEN "
	    "r.id AND r.id + r.n - 1) OR end_ts <> (SELECT max(ts) FROM "
	    "counter c WHERE c.id BETWEEN r.id AND r.id + r.n - 1)"), 0);

	/* --reset brings every time back to the ns. */
	o.reset = 1;
	rows = align_ok(db, &o);
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM slice"), 7 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT max(ts) FROM slice"), 16 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM slice WHERE "
	    "dur = 1000000"), 10);
	ck_assert_int_eq(sql_int(db, "SELECT ts FROM counter WHERE value = 2"),
	    11 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT json_extract(meta, '$.ended') "
	    "FROM track WHERE kind = 'goroutine'"), 16001000000LL);
	ck_assert_int_eq(sql_int(db, "SELECT json_extract(args, "
	    "'$.handoff_ts') FROM slice WHERE args LIKE '%handoff%'"),
	    11 * SEC);
	ck_assert_int_eq(sql_int(db, "SELECT clock_offset = 0 AND "
	    "clock_drift_ppm = 0 AND align_method IS NULL AND "
	    "json_type(meta, '$.align') IS NULL FROM source"), 1);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

/* --- statements on a store -------------------------------------------- */

START_TEST(test_user_statements)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	struct tr_error		 err;
	json_t			*rows;
	int64_t			 m, w, w2;
	int			 rc;

	m = add_src(db, "mono", fill_mono);
	g_wall0 = 5000 * SEC;
	w = add_src(db, "wall", fill_wall);
	g_wall0 = 7000 * SEC;
	w2 = add_src(db, "wall2", fill_wall);
	tr_align_opts_init(&o);
	o.no_estimate = 1;
	tr_error_init(&err);
	/* w's first counter is m's third; w2 is moved by hand. */
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_PAIR,
	    "wall:+0s=1:1000.2", &err), 0);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, "3==-6000s",
	    &err), 0);
	rows = align_ok(db, &o);
	ck_assert_str_eq(str(row(rows, w), "method"), "user-pair");
	ck_assert_int_eq(num(row(rows, w), "offset"), 1000 * SEC + 200 * MS -
	    5000 * SEC);
	ck_assert_str_eq(str(row(rows, w2), "method"), "user-offset");
	ck_assert_int_eq(num(row(rows, w2), "offset"), -6000 * SEC);
	ck_assert_str_eq(str(row(rows, m), "method"), "native");
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM counter WHERE "
	    "source_id = 3"), 1000 * SEC);

	/* Statements stick on later runs until --reset. */
	tr_align_opts_release(&o);
	tr_align_opts_init(&o);
	o.no_estimate = 1;
	rows = align_ok(db, &o);
	ck_assert_str_eq(str(row(rows, w2), "method"), "user-offset");
	ck_assert_int_eq(num(row(rows, w2), "offset"), -6000 * SEC);
	json_decref(rows);

	/* A date for a wall-clock source, and an unknown source. */
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_PAIR,
	    "2:1970-01-01T01:23:20.5Z=1:1000", &err), 0);
	rows = align_ok(db, &o);
	ck_assert_int_eq(num(row(rows, w), "offset"), 1000 * SEC - 5000 * SEC -
	    500 * MS);
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_align_opts_init(&o);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, "nope=+1s",
	    &err), 0);
	sql_int(db, "SELECT 1");
	rows = align(db, &o, &err, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	ck_assert_str_eq(err.msg, "--offset 'nope=+1s': no source 'nope' in "
	    "the store (give its number, path, file name or format)");
	json_decref(rows);
	tr_error_init(&err);
	tr_align_opts_release(&o);
	tr_align_opts_init(&o);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_PAIR,
	    "1:2026-01-01T00:00:00Z=2:+0", &err), 0);
	rows = align(db, &o, &err, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(err.msg, "--pair '1:2026-01-01T00:00:00Z=2:+0': "
	    "source 1 does not run on a wall clock; give its time in seconds "
	    "or as +DURATION");
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

START_TEST(test_tz)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	struct tr_error		 err;
	json_t			*rows;
	char			 text[256];
	int64_t			 w;
	int			 rc;

	tr_error_init(&err);
	snprintf(text, sizeof text, "{\"pairs\": [{\"wall_ns\": %lld, "
	    "\"mono_ns\": %lld, \"uncertainty_ns\": 0}]}",
	    (long long)(5000 * SEC), (long long)(1000 * SEC));
	ck_assert_int_gt(add_text(db, "clock.json", text, &err), 0);
	/* Local times of UTC+01:00 read as UTC: an hour late. */
	g_wall0 = 5000 * SEC + 3600 * SEC;
	w = add_src(db, "smi", fill_wall);
	tr_align_opts_init(&o);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_TZ, "smi=+01:00",
	    &err), 0);
	rows = align_ok(db, &o);
	ck_assert_int_eq(num(row(rows, w), "offset"), -4000 * SEC -
	    3600 * SEC);
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM counter WHERE "
	    "source_id = 2"), 1000 * SEC);
	tr_align_opts_release(&o);
	tr_align_opts_init(&o);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_TZ, "+25:00", &err),
	    0);
	rows = align(db, &o, &err, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

/* 2026-01-15 12:00:00 UTC, in s: winter in Paris (+01:00). */
#define JAN15	INT64_C(1768478400)

START_TEST(test_tz_named)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	struct tr_error		 err;
	json_t			*rows;
	char			 text[256];
	int64_t			 smi, pp;
	int			 rc;

	tr_error_init(&err);
	/* The traced host in Paris: its clock.json says so. */
	snprintf(text, sizeof text, "{\"tz\": \"+01:00\", \"tz_name\": "
	    "\"Europe/Paris\", \"pairs\": [{\"wall_ns\": %lld, "
	    "\"mono_ns\": %lld, \"uncertainty_ns\": 0}]}",
	    (long long)(JAN15 * SEC), (long long)(1000 * SEC));
	ck_assert_int_gt(add_text(db, "clock.json", text, &err), 0);
	/* nvidia-smi's 12:00:00 local, imported on a UTC laptop. */
	g_tz = "UTC";
	g_tz_from = "system";
	g_wall0 = (JAN15 + 3600) * SEC;
	smi = add_src(db, "smi", fill_wall);
	/* A profile: UTC already, zones do not apply. */
	g_tz = NULL;
	g_wall0 = JAN15 * SEC + 5 * SEC;
	pp = add_src(db, "pprof", fill_wall);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	ck_assert_int_eq(num(row(rows, smi), "start"), 1000 * SEC);
	ck_assert_msg(strstr(str(row(rows, smi), "evidence"), "local times "
	    "read in Europe/Paris (clock.json; imported as UTC): -1.000h") ||
	    strstr(str(row(rows, smi), "evidence"), "Europe/Paris"), "%s",
	    str(row(rows, smi), "evidence"));
	ck_assert_int_eq(num(row(rows, pp), "start"), 1005 * SEC);
	json_decref(rows);

	/*
	 * A global --source-tz wins over clock.json, and leaves UTC sources
	 * be.
	 */
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_TZ, "America/New_York",
	    &err), 0);
	rows = align_ok(db, &o);
	ck_assert_int_eq(num(row(rows, smi), "start"), 1000 * SEC + 6 * 3600 *
	    SEC);
	ck_assert_int_eq(num(row(rows, pp), "start"), 1005 * SEC);
	json_decref(rows);
	tr_align_opts_release(&o);

	/* A zone nobody knows; a zone for a monotonic source. */
	tr_align_opts_init(&o);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_TZ, "Mars/Olympus",
	    &err), 0);
	rows = align(db, &o, &err, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_align_opts_init(&o);
	tr_error_init(&err);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_TZ, "1=UTC", &err), 0);
	rows = align(db, &o, &err, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(err.msg, "--source-tz '1=UTC': source 1 does not run "
	    "on a wall clock");
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

/* --- estimation ------------------------------------------------------- */

START_TEST(test_estimate)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 p, g, off;

	g_pattern = 0;
	g_shift = 1000 * SEC;
	g_off = 123456789012345LL;
	g_clock = "go-ticks";
	p = add_src(db, "perf", fill_perf_activity);
	g = add_src(db, "go", fill_go_activity);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "estimate");
	off = num(r, "offset");
	/* Within the 250 us sampling interval, which it says. */
	ck_assert_int_le(llabs(off - g_off), 250 * US);
	ck_assert_int_ge(num(r, "uncertainty"), 250 * US);
	ck_assert_double_ge(json_real_value(json_object_get(r, "confidence")),
	    0.5);
	ck_assert_msg(strstr(str(r, "evidence"), "running goroutines") &&
	    strstr(str(r, "evidence"), "samples of pid 42"), "%s",
	    str(r, "evidence"));
	(void)p;
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM slice WHERE "
	    "source_id = 2 AND ts < 1000000000000 - 250000"), 0);
	ck_assert_int_eq(sql_int(db, "SELECT abs(min(ts) - 1000000000000) <= "
	    "250000 FROM slice WHERE source_id = 2"), 1);
	ck_assert_int_eq(sql_int(db, RUNS_OFF), 0);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

START_TEST(test_estimate_near_clock)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 g;

	/* A since-boot clock 3.2 s off: found within the 10 s window. */
	g_pattern = 0;
	g_shift = 1000 * SEC;
	g_off = 3200 * MS;
	g_clock = "perf";
	add_src(db, "perf", fill_perf_activity);
	g = add_src(db, "go", fill_go_activity);
	tr_align_opts_init(&o);
	o.dry_run = 1;
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_msg(strcmp(str(r, "method"), "estimate") == 0, "%s",
	    str(r, "evidence"));
	ck_assert_int_le(llabs(num(r, "offset") - g_off), 250 * US);
	json_decref(rows);
	/* A dry run changes nothing. */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM source WHERE "
	    "align_method IS NOT NULL"), 0);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM slice"), 1000 * SEC -
	    3200 * MS);

	/* 1 hour off is out of reach of +-10 s: no overlap, refused. */
	tr_db_free(db);
	db = newdb();
	g_off = 3600 * SEC;
	add_src(db, "perf", fill_perf_activity);
	g = add_src(db, "go", fill_go_activity);
	o.dry_run = 0;
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "none");
	ck_assert_str_eq(str(r, "evidence"), "no estimate: no overlap within "
	    "the search window");
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM slice"), 1000 * SEC -
	    3600 * SEC);
	/* --search 2h reaches it. */
	o.search_ns = 7200 * SEC;
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "estimate");
	ck_assert_int_le(llabs(num(r, "offset") - g_off), 2 * MS);
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_db_free(db);
	g_clock = "go-ticks";
}
END_TEST

START_TEST(test_refuse_flat)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 g;

	g_pattern = 2;
	g_shift = 1000 * SEC;
	g_off = 5 * SEC;
	add_src(db, "perf", fill_perf_activity);
	g = add_src(db, "go", fill_go_activity);
	tr_align_opts_init(&o);
	o.force = 1;
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "none");
	ck_assert_str_eq(str(r, "evidence"), "no estimate: an activity signal "
	    "is flat");
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_db_free(db);
	g_pattern = 0;
}
END_TEST

START_TEST(test_refuse_two_peaks)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 g;

	g_pattern = 1;
	g_shift = 1000 * SEC;
	g_off = 777 * SEC;
	add_src(db, "perf", fill_perf_activity);
	g = add_src(db, "go", fill_go_activity);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "refused");
	ck_assert_double_lt(json_real_value(json_object_get(r, "confidence")),
	    0.05);
	ck_assert_msg(strstr(str(r, "evidence"), "not applied: confidence") !=
	    NULL, "%s", str(r, "evidence"));
	ck_assert(json_is_null(json_object_get(r, "offset")));
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT min(ts) FROM slice"), 1000 * SEC -
	    777 * SEC);

	/* --force applies one of the two, and says so. */
	o.force = 1;
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "forced");
	ck_assert(llabs(num(r, "offset") - 777 * SEC) < MS ||
	    llabs(num(r, "offset") - 787 * SEC) < MS);
	json_decref(rows);
	ck_assert_int_eq(sql_int(db, "SELECT align_method = 'forced' FROM "
	    "source WHERE id = 2"), 1);
	tr_align_opts_release(&o);
	tr_db_free(db);
	g_pattern = 0;
}
END_TEST

/*
 * Host activity against GPU utilisation sampled every second: the GPU is
 * busy while the host waits (anti-correlated), its clock is a wall clock
 * with no pair.  The estimate is found, but never claimed better than 1 s.
 */
static int
fill_host(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	struct tr_sample	s;
	int64_t			th, ev, t;
	int			i, n;

	tr_import_set_clock(ctx, "monotonic");
	if ((th = tr_writer_add_thread(wr, 7, 7, "host", 4, err)) < 0 ||
	    (ev = tr_writer_add_str(wr, "cpu-clock", 9, err)) < 0)
		return (-1);
	memset(&s, 0, sizeof s);
	s.has_ts = 1;
	s.thread_id = th;
	s.cpu = 0;
	s.event_id = ev;
	s.value = 1;
	n = pattern(g_iv, 2048);
	for (i = 0; i < n; i++)
		for (t = g_iv[i][0] * 20; t < g_iv[i][1] * 20; t += MS) {
			s.ts = 1000 * SEC + t;
			if (tr_writer_add_sample(wr, &s, err) < 0)
				return (-1);
		}
	return (0);
}

static int64_t	g_scale = 20, g_step = SEC, g_nsteps = 62;

static int
fill_gpu(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	int64_t	tr, name, t, busy, lo, hi, k;
	int	i, n;

	tr_import_set_clock(ctx, "wall");
	if ((tr = tr_writer_add_track(wr, "gpu", "GPU 0", 0, 0, 0, 0, NULL,
	    err)) < 0 || (name = tr_writer_add_str(wr, "utilization.gpu", 15,
	    err)) < 0)
		return (-1);
	n = pattern(g_iv, 2048);
	/* Each sample: the share of the past second the host was idle. */
	for (k = 1; k <= g_nsteps; k++) {
		t = k * g_step;
		busy = 0;
		for (i = 0; i < n; i++) {
			lo = g_iv[i][0] * g_scale > t - g_step ?
			    g_iv[i][0] * g_scale : t - g_step;
			hi = g_iv[i][1] * g_scale < t ?
			    g_iv[i][1] * g_scale : t;
			if (hi > lo)
				busy += hi - lo;
		}
		if (tr_writer_add_counter(wr, tr, g_wall0 + t, name,
		    100 - (double)(busy * 100 / g_step), err) < 0)
			return (-1);
	}
	return (0);
}

START_TEST(test_estimate_gpu)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	json_t			*rows, *r;
	int64_t			 g;

	g_pattern = 0;
	g_tz = NULL;
	add_src(db, "host", fill_host);
	/* Wall time 1.7e9 s when the host's monotonic clock read 1000 s. */
	g_wall0 = INT64_C(1700000000) * SEC;
	g = add_src(db, "gpu", fill_gpu);
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	r = row(rows, g);
	ck_assert_msg(strcmp(str(r, "method"), "estimate") == 0, "%s",
	    str(r, "evidence"));
	ck_assert_int_le(llabs(num(r, "offset") - (1000 * SEC - g_wall0)),
	    SEC);
	ck_assert_int_ge(num(r, "uncertainty"), SEC);
	ck_assert_msg(strstr(str(r, "evidence"), "GPU utilisation") &&
	    strstr(str(r, "evidence"), "peak -0."), "%s", str(r, "evidence"));
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

/*
 * A Go trace that could be placed against perf's samples of its process
 * or against a GPU anchored by clock.json: the same process wins.
 */
START_TEST(test_estimate_prefers_same_process)
{
	struct tr_align_opts	 o;
	struct tr_db		*db = newdb();
	struct tr_error		 err;
	json_t			*rows, *r;
	char			 text[256];
	int64_t			 g, gpu;

	tr_error_init(&err);
	g_pattern = 0;
	g_shift = 1000 * SEC;
	g_off = 4242 * SEC;
	g_clock = "go-ticks";
	/* Sparse samples: a weaker peak than the GPU's, yet trusted. */
	g_period = 7 * MS;
	add_src(db, "perf", fill_perf_activity);
	g_period = 250 * US;
	g = add_src(db, "go", fill_go_activity);
	/* The GPU: wall = mono + 1.7e9 s, sampled every 10 ms. */
	snprintf(text, sizeof text, "{\"pairs\": [{\"wall_ns\": %lld, "
	    "\"mono_ns\": %lld, \"uncertainty_ns\": 0}]}",
	    (long long)(INT64_C(1700000000) * SEC), (long long)(1000 * SEC));
	ck_assert_int_gt(add_text(db, "clock.json", text, &err), 0);
	g_scale = 1;
	g_step = 10 * MS;
	g_nsteps = 300;
	g_wall0 = INT64_C(1700000000) * SEC;
	gpu = add_src(db, "gpu", fill_gpu);
	g_scale = 20;
	g_step = SEC;
	g_nsteps = 62;
	tr_align_opts_init(&o);
	rows = align_ok(db, &o);
	ck_assert_str_eq(str(row(rows, gpu), "method"), "clock-json");
	r = row(rows, g);
	ck_assert_str_eq(str(r, "method"), "estimate");
	ck_assert_msg(strstr(str(r, "evidence"), "samples of pid 42") != NULL,
	    "%s", str(r, "evidence"));
	ck_assert_int_le(llabs(num(r, "offset") - g_off), 7 * MS);
	json_decref(rows);
	tr_align_opts_release(&o);
	tr_db_free(db);
}
END_TEST

/* --- correlation alone ------------------------------------------------ */

START_TEST(test_correlate)
{
	struct tr_align_sig	a, b;
	struct tr_align_xcorr	x;
	uint64_t		x64 = 88172645463325252ULL;
	int64_t			t;
	int			i;

	/* Impulses at irregular times, and the same 1.234567 s later. */
	tr_align_sig_init(&a, TR_SIG_POINTS);
	tr_align_sig_init(&b, TR_SIG_POINTS);
	for (i = 0, t = 0; i < 200; i++) {
		x64 ^= x64 << 13, x64 ^= x64 >> 7, x64 ^= x64 << 17;
		t += (int64_t)(1 + x64 % 40) * MS;
		tr_align_sig_add(&a, t, 0, 0);
		tr_align_sig_add(&b, t + 1234567000, 0, 0);
	}
	tr_align_sig_finish(&a);
	tr_align_sig_finish(&b);
	memset(&x, 0, sizeof x);
	x.lag_lo = -10 * SEC;
	x.lag_hi = 10 * SEC;
	ck_assert_int_eq(tr_align_correlate(&a, &b, &x), 0);
	ck_assert_msg(x.ok, "%s", x.why ? x.why : "");
	ck_assert_int_le(llabs(x.lag - 1234567000), x.uncertainty);
	ck_assert_double_gt(x.confidence, 0.5);
	/* Outside the window: refused. */
	x.lag_lo = 20 * SEC;
	x.lag_hi = 30 * SEC;
	ck_assert_int_eq(tr_align_correlate(&a, &b, &x), 0);
	ck_assert(!x.ok);
	ck_assert_str_eq(x.why, "no overlap within the search window");
	/* Too few events. */
	a.n = 5;
	x.lag_lo = -10 * SEC;
	x.lag_hi = 10 * SEC;
	ck_assert_int_eq(tr_align_correlate(&a, &b, &x), 0);
	ck_assert_str_eq(x.why, "too little activity to correlate");
	tr_align_sig_release(&a);
	tr_align_sig_release(&b);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("align");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_map_exact);
	tcase_add_test(tc, test_remap_sql);
	tcase_add_test(tc, test_dates);
	tcase_add_test(tc, test_statements);
	tcase_add_test(tc, test_clock_json);
	tcase_add_test(tc, test_clock_json_anchor);
	tcase_add_test(tc, test_perf_ref_anchor);
	tcase_add_test(tc, test_go_snapshot_anchor);
	tcase_add_test(tc, test_go_log_drift);
	tcase_add_test(tc, test_user_statements);
	tcase_add_test(tc, test_tz);
	tcase_add_test(tc, test_tz_named);
	tcase_add_test(tc, test_estimate);
	tcase_add_test(tc, test_estimate_near_clock);
	tcase_add_test(tc, test_refuse_flat);
	tcase_add_test(tc, test_refuse_two_peaks);
	tcase_add_test(tc, test_estimate_gpu);
	tcase_add_test(tc, test_estimate_prefers_same_process);
	tcase_add_test(tc, test_correlate);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
