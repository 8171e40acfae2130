/*
 * trace-query timeline: one row per --step of the selected window, with
 * what every source says about it: GPU utilisation and memory per GPU,
 * CPU samples, goroutines running, runnable and blocked by kind, GC and
 * STW, Ps, heap.  The Go columns come from the derived go_bin table
 * (store/derived.h), the rest from counters and samples through their
 * indexes, so that a row costs the same on a store of 17M slices as on a
 * small one.
 */
#include "config.h"
#include "query/query.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "query/args.h"
#include "query/sel.h"
#include "store/counter.h"
#include "store/derived.h"

#define DEFAULT_STEP	100000000	/* 100 ms */
#define MAX_ROWS	10000000

/* A counter series read into steps: the last value at or before each
 * step's end, and the mean of the values inside it. */
struct series {
	double		*last;		/* NAN-free: has_last says */
	char		*has_last;
	double		*sum;
	int64_t		*n;
};

struct gpu {
	int64_t		 index;
	struct series	 util, mem;
};

struct tl {
	struct tr_db	*db;
	struct tr_sel	*sel;
	int64_t		 start, step, nrows, end;
	struct gpu	*gpus;
	size_t		 ngpus;
	int64_t		*cpu;
	struct series	 heap_alloc, heap_goal, procs;
	int		 has_heap, has_procs, has_cpu;
	struct tr_derived_totals *go;
	int		 ngo;
	int64_t		 unplaced;	/* sources left out (TR_SEL_UNPLACED) */
	int64_t		 clock_source;	/* whose clock the times are on */
	int64_t		 clock_origin;	/* and its start */
};

static void
series_init(struct series *s, int64_t n)
{
	s->last = tr_xcalloc((size_t)n, sizeof *s->last);
	s->has_last = tr_xcalloc((size_t)n, 1);
	s->sum = tr_xcalloc((size_t)n, sizeof *s->sum);
	s->n = tr_xcalloc((size_t)n, sizeof *s->n);
}

static void
series_release(struct series *s)
{
	free(s->last);
	free(s->has_last);
	free(s->sum);
	free(s->n);
}

/*
 * Read counter 'name' of the tracks of 'kind' (and GPU 'gpu' >= 0) of the
 * selected sources into 's': the values in the window, and the last one
 * before it (a level carried into the first steps).  Returns the values
 * seen (in or before the window), or -1 with 'err' set.
 */
static int64_t
read_series(struct tl *t, const char *kind, int64_t gpu, const char *name,
    struct series *s, struct tr_error *err)
{
	struct tr_counter_pts	 pts = { 0 };
	sqlite3_stmt		*st;
	int64_t			 seen = 0, i, ts, name_id;
	double			 v, carry = 0;
	size_t			 k, ntracks = 0;
	int			 rc, r = 0, has_carry = 0;

	if ((rc = tr_db_str_id(t->db, name, &name_id, err)) <= 0)
		return (rc);
	/* Each track's points through counter_run's index, then merged. */
	st = tr_db_prepare(t->db, "SELECT id, source_id FROM track "
	    "WHERE kind = ?1 AND (?2 < 0 OR ref = ?2) ORDER BY id", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, gpu);
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!tr_sel_has_source(t->sel, sqlite3_column_int64(st, 1)))
			continue;
		r = tr_counter_read(t->db, sqlite3_column_int64(st, 0),
		    name_id, t->start, t->end, 1, &pts, err);
		ntracks++;
	}
	sqlite3_finalize(st);
	if (r == 0 && rc != SQLITE_DONE)
		r = tr_db_error(t->db, err, "cannot read counters");
	if (r != 0) {
		tr_counter_pts_free(&pts);
		return (-1);
	}
	if (ntracks > 1)
		tr_counter_pts_sort(&pts, 0);
	for (k = 0; k < pts.n; k++) {
		ts = pts.ts[k];
		v = pts.v[k];
		seen++;
		if (ts < t->start) {
			carry = v;
			has_carry = 1;
			continue;
		}
		i = (ts - t->start) / t->step;
		s->sum[i] += v;
		s->n[i]++;
		s->last[i] = v;
		s->has_last[i] = 1;
	}
	tr_counter_pts_free(&pts);
	/* A level holds until the next value. */
	for (i = 0; i < t->nrows; i++) {
		if (s->has_last[i]) {
			carry = s->last[i];
			has_carry = 1;
		} else if (has_carry) {
			s->last[i] = carry;
			s->has_last[i] = 1;
		}
	}
	return (seen);
}

/* The GPUs of the selected sources (and --gpu). */
static int
read_gpus(struct tl *t, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 g;
	int		 rc;

	st = tr_db_prepare(t->db, "SELECT DISTINCT ref, source_id FROM track "
	    "WHERE kind = '" TR_TRACK_GPU "' ORDER BY ref", err);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		g = sqlite3_column_int64(st, 0);
		if (!tr_sel_has_source(t->sel, sqlite3_column_int64(st, 1)) ||
		    (t->sel->gpu >= 0 && g != t->sel->gpu) ||
		    (t->ngpus > 0 && t->gpus[t->ngpus - 1].index == g))
			continue;
		t->gpus = tr_xrealloc(t->gpus, (t->ngpus + 1) *
		    sizeof *t->gpus);
		memset(&t->gpus[t->ngpus], 0, sizeof *t->gpus);
		t->gpus[t->ngpus++].index = g;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(t->db, err, "cannot read GPUs"));
	return (0);
}

/*
 * CPU samples per step: perf samples (of --pid's threads when given) and
 * the Go trace's CPU samples (without --pid: they name no process).
 */
static int
read_cpu(struct tl *t, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	st = tr_db_prepare(t->db, "SELECT s.id, s.format, "
	    "(SELECT count(*) FROM sample x WHERE x.source_id = s.id "
	    "AND x.ts IS NOT NULL) FROM source s "
	    "WHERE s.format IN ('perf-script', 'gotrace') ORDER BY s.id", err);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_stmt	*q;
		int64_t		 id = sqlite3_column_int64(st, 0);
		int		 go = strcmp((const char *)
				    sqlite3_column_text(st, 1), "gotrace") == 0;
		int		 r;

		if (!tr_sel_has_source(t->sel, id) ||
		    sqlite3_column_int64(st, 2) == 0 ||
		    (go && t->sel->pid >= 0))
			continue;
		t->has_cpu = 1;
		q = tr_db_prepare(t->db, "SELECT (x.ts - ?2) / ?3, count(*) "
		    "FROM sample x WHERE x.source_id = ?1 AND x.ts >= ?2 "
		    "AND x.ts < ?4 AND (?5 < 0 OR x.thread_id IN (SELECT "
		    "th.id FROM thread th JOIN process p ON p.id = "
		    "th.process_id WHERE p.pid = ?5)) GROUP BY 1", err);
		if (q == NULL) {
			sqlite3_finalize(st);
			return (-1);
		}
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_int64(q, 2, t->start);
		sqlite3_bind_int64(q, 3, t->step);
		sqlite3_bind_int64(q, 4, t->end);
		sqlite3_bind_int64(q, 5, t->sel->pid);
		while ((r = sqlite3_step(q)) == SQLITE_ROW)
			t->cpu[sqlite3_column_int64(q, 0)] +=
			    sqlite3_column_int64(q, 1);
		sqlite3_finalize(q);
		if (r != SQLITE_DONE) {
			sqlite3_finalize(st);
			return (tr_db_error(t->db, err, "cannot read samples"));
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(t->db, err, "cannot read sources"));
	return (0);
}

/* The Go columns: go_bin of every selected Go trace, summed. */
static int
read_go(struct tl *t, struct tr_error *err)
{
	struct tr_derived_totals	*one;
	int64_t				*ids, i;
	int				 n, s, k;

	if ((n = tr_derived_sources(t->db, &ids, err)) < 0)
		return (-1);
	t->go = tr_xcalloc((size_t)t->nrows, sizeof *t->go);
	one = tr_xcalloc((size_t)t->nrows, sizeof *one);
	for (i = 0; i < t->nrows; i++)
		t->go[i].exact = 1;
	for (s = 0; s < n; s++) {
		if (!tr_sel_has_source(t->sel, ids[s]))
			continue;
		if (tr_derived_series(t->db, ids[s], t->start, t->step,
		    t->nrows, one, err) != 0) {
			free(one);
			free(ids);
			return (-1);
		}
		t->ngo++;
		for (i = 0; i < t->nrows; i++) {
			for (k = 0; k < TR_DK_COUNT; k++)
				t->go[i].ns[k] += one[i].ns[k];
			t->go[i].covered_ns += one[i].covered_ns;
			t->go[i].idle_ns += one[i].idle_ns;
			if (one[i].runnable_peak > t->go[i].runnable_peak)
				t->go[i].runnable_peak = one[i].runnable_peak;
			t->go[i].created += one[i].created;
			t->go[i].ended += one[i].ended;
			t->go[i].bins += one[i].bins;
			if (!one[i].exact)
				t->go[i].exact = 0;
		}
	}
	free(one);
	free(ids);
	return (0);
}

/*
 * The window: the selected sources' time range, cut to --from/--to, its
 * start rounded down to the 10 ms grid of go_bin.  A wall-clock source
 * not yet placed by trace-align (TR_SEL_UNPLACED) is on another clock than
 * the rest: it is left out (t->unplaced counts it) unless it is all the
 * selection holds (t->clock_source then names it).
 */
static int
window(struct tl *t, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 lo = INT64_MAX, hi = INT64_MIN, a, b;
	int64_t		 ulo = INT64_MAX, uhi = INT64_MIN, first = -1;
	int		 rc;

	st = tr_db_prepare(t->db, "SELECT s.id, s.ts_min, s.ts_max, "
	    TR_SEL_UNPLACED("s") " FROM source s WHERE s.ts_min IS NOT NULL "
	    "ORDER BY s.id", err);
	if (st == NULL)
		return (-1);
	t->unplaced = 0;
	t->clock_source = -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!tr_sel_has_source(t->sel, sqlite3_column_int64(st, 0)))
			continue;
		a = sqlite3_column_int64(st, 1);
		b = sqlite3_column_int64(st, 2);
		if (sqlite3_column_int(st, 3)) {
			if (first < 0)
				first = sqlite3_column_int64(st, 0);
			t->unplaced++;
			if (a < ulo)
				ulo = a;
			if (b > uhi)
				uhi = b;
			continue;
		}
		if (a < lo)
			lo = a;
		if (b > hi)
			hi = b;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(t->db, err, "cannot read sources"));
	if (lo == INT64_MAX && t->unplaced > 0) {
		lo = ulo;
		hi = uhi;
		t->unplaced = 0;
		t->clock_source = first;
		t->clock_origin = ulo;
	}
	if (hi != INT64_MIN)
		hi++;	/* the last time stamp is inside */
	/* Within the selected sources' span: rows hold something. */
	if (t->sel->has_from && t->sel->from > lo)
		lo = t->sel->from;
	/* Down to the grid of go_bin: rows then hold whole bins. */
	if (lo != INT64_MAX) {
		a = lo % TR_DERIVED_BIN;
		lo -= a < 0 ? a + TR_DERIVED_BIN : a;
	}
	if (t->sel->has_to && t->sel->to < hi)
		hi = t->sel->to;
	if (lo == INT64_MAX || hi == INT64_MIN || hi <= lo) {
		t->start = t->end = 0;
		t->nrows = 0;
		return (0);
	}
	t->start = lo;
	t->nrows = (hi - lo + t->step - 1) / t->step;
	if (t->nrows > MAX_ROWS)
		return (tr_error_set(err, TR_EUSAGE, "timeline: %" PRId64
		    " rows of --step %" PRId64 " ns; give a longer --step or a "
		    "shorter window (at most %d rows)", t->nrows, t->step,
		    MAX_ROWS));
	t->end = hi;
	return (0);
}

/* Mean counts to 4 decimals: more would be noise. */
static double
round4(double x)
{
	return (round(x * 1e4) / 1e4);
}

static void
put_real_or_null(struct tr_out *out, int has, double v)
{
	if (has)
		tr_out_real(out, v);
	else
		tr_out_null(out);
}

/* Goroutines and Ps, as mean counts over the covered part of a step. */
static const struct {
	const char	*col;
	int		 kind;
} go_counts[] = {
	{ "running", TR_DK_RUNNING }, { "runnable", TR_DK_RUNNABLE },
	{ "chan", TR_DK_CHAN }, { "sync", TR_DK_SYNC },
	{ "syscall", TR_DK_SYSCALL }, { "net", TR_DK_NET },
	{ "sleep", TR_DK_SLEEP }, { "other", TR_DK_OTHER },
	{ "procs_running", TR_DK_PROC },
};
#define NGO_COUNTS	(sizeof go_counts / sizeof go_counts[0])

static int
print(struct tl *t, struct tr_out *out, struct tr_error *err)
{
	char		**names;
	size_t		  ncol = 0, i, g, c;
	int64_t		  r, ts, dur, cov;
	int		  cut = 0, partial = 0;
	const struct tr_derived_totals *go;

	(void)err;
	names = tr_xcalloc(8 + t->ngpus * 2 + NGO_COUNTS + 12,
	    sizeof *names);
	names[ncol++] = tr_xstrdup("ts");
	names[ncol++] = tr_xstrdup("dur_ns");
	for (g = 0; g < t->ngpus; g++) {
		names[ncol++] = tr_xasprintf("gpu%" PRId64 "_util",
		    t->gpus[g].index);
		names[ncol++] = tr_xasprintf("gpu%" PRId64 "_mem_bytes",
		    t->gpus[g].index);
	}
	names[ncol++] = tr_xstrdup("cpu_samples");
	for (c = 0; c < NGO_COUNTS; c++)
		names[ncol++] = tr_xstrdup(go_counts[c].col);
	names[ncol++] = tr_xstrdup("runnable_peak");
	names[ncol++] = tr_xstrdup("idle_ns");
	names[ncol++] = tr_xstrdup("gc_ns");
	names[ncol++] = tr_xstrdup("stw_ns");
	names[ncol++] = tr_xstrdup("assist_ns");
	names[ncol++] = tr_xstrdup("gomaxprocs");
	names[ncol++] = tr_xstrdup("heap_alloc_bytes");
	names[ncol++] = tr_xstrdup("heap_goal_bytes");
	tr_out_columns(out, (int)ncol, (const char *const *)names);
	c = 0;
	tr_out_column_unit(out, (int)c++, TR_UNIT_TS);
	tr_out_column_unit(out, (int)c++, TR_UNIT_NS);
	for (g = 0; g < t->ngpus; g++) {
		tr_out_column_unit(out, (int)c++, TR_UNIT_PERCENT);
		tr_out_column_unit(out, (int)c++, TR_UNIT_BYTES);
	}
	c++;
	while (c < 2 + 2 * t->ngpus + 1 + NGO_COUNTS + 1)
		tr_out_column_unit(out, (int)c++, TR_UNIT_REAL);
	tr_out_column_unit(out, (int)c++, TR_UNIT_NS);
	tr_out_column_unit(out, (int)c++, TR_UNIT_NS);
	tr_out_column_unit(out, (int)c++, TR_UNIT_NS);
	tr_out_column_unit(out, (int)c++, TR_UNIT_NS);
	c++;
	tr_out_column_unit(out, (int)c++, TR_UNIT_BYTES);
	tr_out_column_unit(out, (int)c++, TR_UNIT_BYTES);
	for (r = 0; r < t->nrows; r++) {
		ts = t->start + r * t->step;
		dur = ts + t->step <= t->end ? t->step : t->end - ts;
		tr_out_int(out, ts);
		tr_out_int(out, dur);
		for (g = 0; g < t->ngpus; g++) {
			const struct gpu	*gp = &t->gpus[g];

			put_real_or_null(out, gp->util.n[r] > 0,
			    gp->util.n[r] ? round4(gp->util.sum[r] /
			    (double)gp->util.n[r]) : 0);
			if (gp->mem.has_last[r])
				tr_out_int(out, (int64_t)gp->mem.last[r]);
			else
				tr_out_null(out);
		}
		if (t->has_cpu)
			tr_out_int(out, t->cpu[r]);
		else
			tr_out_null(out);
		go = &t->go[r];
		cov = go->covered_ns;
		if (t->ngo > 0 && cov > 0) {
			if (!go->exact)
				cut = 1;
			if (cov < dur * t->ngo)
				partial = 1;
			for (c = 0; c < NGO_COUNTS; c++)
				tr_out_real(out, round4((double)go->ns[
				    go_counts[c].kind] / (double)cov *
				    t->ngo));
			tr_out_real(out, round4(go->runnable_peak));
			tr_out_int(out, go->idle_ns);
			tr_out_int(out, go->ns[TR_DK_GC]);
			tr_out_int(out, go->ns[TR_DK_STW]);
			tr_out_int(out, go->ns[TR_DK_ASSIST]);
		} else
			for (c = 0; c < NGO_COUNTS + 6; c++)
				tr_out_null(out);
		if (t->has_procs && t->procs.has_last[r])
			tr_out_int(out, (int64_t)t->procs.last[r]);
		else
			tr_out_null(out);
		if (t->has_heap && t->heap_alloc.has_last[r])
			tr_out_int(out, (int64_t)t->heap_alloc.last[r]);
		else
			tr_out_null(out);
		if (t->has_heap && t->heap_goal.has_last[r])
			tr_out_int(out, (int64_t)t->heap_goal.last[r]);
		else
			tr_out_null(out);
		tr_out_end_row(out);
	}
	if (t->unplaced > 0)
		tr_out_note(out, "%" PRId64 " wall-clock source%s not yet on "
		    "the store's timeline left out of the window (trace-align "
		    "places %s; --source chooses %s alone): %s columns are "
		    "empty", t->unplaced, t->unplaced == 1 ? "" : "s",
		    t->unplaced == 1 ? "it" : "them",
		    t->unplaced == 1 ? "it" : "them",
		    t->unplaced == 1 ? "its" : "their");
	if (t->nrows == 0)
		tr_out_note(out, "no time of the selected sources in the "
		    "window: no rows");
	if (t->ngpus == 0)
		tr_out_note(out, "no GPU telemetry in the selection: no GPU "
		    "columns");
	if (t->ngo == 0)
		tr_out_note(out, "no Go trace in the selection: the goroutine, "
		    "GC and heap columns are empty");
	if (cut)
		tr_out_note(out, "steps that cut a %d ms bin of go_bin share "
		    "it pro rata: give a --step of whole multiples of %d ms "
		    "for exact goroutine and GC columns",
		    TR_DERIVED_BIN / 1000000, TR_DERIVED_BIN / 1000000);
	if (partial)
		tr_out_note(out, "some steps are only partly covered by the "
		    "Go trace: their goroutine counts are means over the "
		    "covered part, their ns totals over that part only");
	for (i = 0; i < ncol; i++)
		free(names[i]);
	free(names);
	return (0);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_sel	 sel;
	struct tl	 t;
	int64_t		 step = DEFAULT_STEP, origin, woff;
	int		 has_wall, rc = -1;
	size_t		 g;
	struct tr_arg	 opts[] = {
		{ "step", 0, TR_ARG_DURATION, &step, 1000, 0, "DURATION",
		  "one row per DURATION of time (default 100ms)", 0, 0 },
		{ NULL, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_args	 a;

	memset(&t, 0, sizeof t);
	memset(&a, 0, sizeof a);
	tr_sel_init(&sel, TR_SEL_SOURCE | TR_SEL_PID | TR_SEL_GPU |
	    TR_SEL_TIME);
	a.name = "timeline";
	a.synopsis = "[--step DURATION] [SELECTION]";
	a.about = "One row per step of time: GPU utilisation and memory per "
	    "GPU, CPU\nsamples, goroutines running, runnable and blocked by "
	    "kind, GC and STW\ntime, GOMAXPROCS and the heap (trace-query(1), "
	    "timeline).";
	a.args = opts;
	a.sel = &sel;
	a.max_pos = 0;
	if (tr_args_parse(&a, argc, argv, err) != 0)
		goto out;
	if (a.help) {
		rc = 0;
		goto out;
	}
	if (step <= 0) {
		tr_error_set(err, TR_EUSAGE, "timeline: --step must be more "
		    "than 0");
		goto out;
	}
	if (tr_sel_resolve(&sel, db, err) != 0)
		goto out;
	t.db = db;
	t.sel = &sel;
	t.step = step;
	if (window(&t, err) != 0)
		goto out;
	if (tr_sel_store_origin(db, &origin, &has_wall, &woff, err) != 0 ||
	    (t.clock_source >= 0 && tr_sel_source_clock(db, t.clock_source,
	    &has_wall, &woff, err) != 0))
		goto out;
	if (t.clock_source >= 0)
		origin = t.clock_origin;
	tr_out_set_clock(out, origin, has_wall, woff);
	if (read_gpus(&t, err) != 0)
		goto out;
	for (g = 0; g < t.ngpus; g++) {
		series_init(&t.gpus[g].util, t.nrows ? t.nrows : 1);
		series_init(&t.gpus[g].mem, t.nrows ? t.nrows : 1);
		if (t.nrows > 0 && (read_series(&t, TR_TRACK_GPU,
		    t.gpus[g].index, TR_METRIC_GPU_UTIL, &t.gpus[g].util,
		    err) < 0 ||
		    read_series(&t, TR_TRACK_GPU, t.gpus[g].index,
		    TR_METRIC_MEM_USED, &t.gpus[g].mem, err) < 0))
			goto out;
	}
	t.cpu = tr_xcalloc(t.nrows ? (size_t)t.nrows : 1, sizeof *t.cpu);
	series_init(&t.heap_alloc, t.nrows ? t.nrows : 1);
	series_init(&t.heap_goal, t.nrows ? t.nrows : 1);
	series_init(&t.procs, t.nrows ? t.nrows : 1);
	if (t.nrows > 0) {
		int64_t	n1, n2, n3;

		if ((n1 = read_series(&t, TR_TRACK_GO_HEAP, -1,
		    TR_GO_HEAP_ALLOC, &t.heap_alloc, err)) < 0 ||
		    (n2 = read_series(&t, TR_TRACK_GO_HEAP, -1,
		    TR_GO_HEAP_GOAL, &t.heap_goal, err)) < 0 ||
		    (n3 = read_series(&t, TR_TRACK_GO_RUNTIME, -1,
		    TR_GO_GOMAXPROCS, &t.procs, err)) < 0)
			goto out;
		t.has_heap = n1 + n2 > 0;
		t.has_procs = n3 > 0;
		if (read_cpu(&t, err) != 0)
			goto out;
	}
	if (read_go(&t, err) != 0)
		goto out;
	if (print(&t, out, err) != 0)
		goto out;
	rc = tr_out_finish(out);
out:
	for (g = 0; g < t.ngpus; g++) {
		if (t.gpus[g].util.last == NULL)
			continue;
		series_release(&t.gpus[g].util);
		series_release(&t.gpus[g].mem);
	}
	free(t.gpus);
	free(t.cpu);
	if (t.heap_alloc.last != NULL) {
		series_release(&t.heap_alloc);
		series_release(&t.heap_goal);
		series_release(&t.procs);
	}
	free(t.go);
	tr_args_release(&a);
	tr_sel_release(&sel);
	return (rc);
}

const struct tr_query tr_query_timeline = {
	.name = "timeline",
	.usage = "[OPTION...]",
	.summary = "one row per step: GPU, CPU, goroutines by state, GC, heap",
	.run = run,
};
