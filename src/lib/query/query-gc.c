/*
 * trace-query gc: the garbage collector of each Go trace in the
 * selection -- its cycles, stop-the-world pauses by kind and reason, mark
 * assists by goroutine and by stack, its share of wall time, the heap
 * against its goal and the allocation rate, the minimum mutator
 * utilisation (MMU) with its worst windows, and, next to GPU telemetry,
 * how GC lines up with GPU-idle episodes and the GPU's utilisation.
 */
#include "config.h"
#include "query/query.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "query/args.h"
#include "query/attr.h"
#include "query/goruntime.h"
#include "query/sel.h"
#include "store/derived.h"

#define GC_SEL	(TR_SEL_SOURCE | TR_SEL_GPU | TR_SEL_TIME)

/*
 * The GC track and the STW track of one source, and the labelled
 * running states of the background mark workers ("GC (dedicated)",
 * "GC (fractional)", "GC (idle)").  A worker runs only as a worker, each
 * time with its label, so the first run of a goroutine's states tells
 * whether it is one: only the runs of those are expanded (0.3 s rather
 * than 1.8 s for a scan of every run's text on the bench store).  Only
 * an assist needs its goroutine: the others' args are not parsed.
 */
static const char gc_sql[] =
    "SELECT s.id, s.ts, s.dur, n.s, c.s, s.callsite_id,\n"
    "       CASE n.s WHEN '" TR_GO_ASSIST "' THEN\n"
    "         json_extract(s.args, '$.goid') END, t.kind\n"
    "  FROM track t CROSS JOIN slice s ON s.track_id = t.id\n"
    "  CROSS JOIN str n ON n.id = s.name_id\n"
    "  LEFT JOIN str c ON c.id = s.category_id\n"
    " WHERE t.source_id = ?1 AND t.kind IN ('" TR_TRACK_GO_GC "', '"
    TR_TRACK_GO_STW "')\n"
    "   AND s.run_end_ts >= ?2 AND s.run_ts < ?3\n"
    " ORDER BY s.ts, s.id";
static const char worker_sql[] =
    "SELECT r.ts + json_extract(j.value, '$[0]'),\n"
    "       json_extract(j.value, '$[1]'),\n"
    "       json_extract(j.value, '$[5].label') = 'GC (idle)'\n"
    "  FROM track t CROSS JOIN slice_run r ON r.track_id = t.id\n"
    "  CROSS JOIN json_each(r.slices) j\n"
    " WHERE t.source_id = ?1 AND t.kind = '" TR_TRACK_GOROUTINE "'\n"
    "   AND instr((SELECT r0.slices FROM slice_run r0\n"
    "               WHERE r0.track_id = t.id ORDER BY r0.ts LIMIT 1),\n"
    "             '\"label\":\"GC (') > 0\n"
    "   AND r.end_ts >= ?2 AND r.ts < ?3\n"
    "   AND json_extract(j.value, '$[5].label') LIKE 'GC (%'";
static const char counter_sql[] =
    "SELECT c.ts, c.value, n.s FROM track t\n"
    "  CROSS JOIN counter c ON c.track_id = t.id\n"
    "  CROSS JOIN str n ON n.id = c.name_id\n"
    " WHERE t.source_id = ?1 AND t.kind IN ('" TR_TRACK_GO_HEAP "', '"
    TR_TRACK_GO_RUNTIME "')\n"
    " ORDER BY c.ts, c.id";

static const struct tr_out_col sum_cols[] = {
	{ "source", TR_UNIT_NONE }, { "start_ns", TR_UNIT_TS },
	{ "end_ns", TR_UNIT_TS }, { "span_ns", TR_UNIT_NS },
	{ "gomaxprocs", TR_UNIT_NONE }, { "cycles", TR_UNIT_NONE },
	{ "gc_ns", TR_UNIT_NS }, { "gc_share", TR_UNIT_SHARE },
	{ "cycle_p50_ns", TR_UNIT_NS }, { "cycle_max_ns", TR_UNIT_NS },
	{ "stw_count", TR_UNIT_NONE }, { "stw_ns", TR_UNIT_NS },
	{ "stw_share", TR_UNIT_SHARE }, { "stw_p50_ns", TR_UNIT_NS },
	{ "stw_p99_ns", TR_UNIT_NS }, { "stw_max_ns", TR_UNIT_NS },
	{ "assist_count", TR_UNIT_NONE }, { "assist_ns", TR_UNIT_NS },
	{ "sweep_ns", TR_UNIT_NS }, { "worker_ns", TR_UNIT_NS },
	{ "heap_max_bytes", TR_UNIT_BYTES },
	{ "heap_goal_max_bytes", TR_UNIT_BYTES },
	{ "alloc_bytes", TR_UNIT_BYTES },
	{ "alloc_bytes_per_s", TR_UNIT_BYTES }, { "mmu_10ms", TR_UNIT_SHARE }
};
static const struct tr_out_col stw_cols[] = {
	{ "source", TR_UNIT_NONE }, { "kind", TR_UNIT_NONE },
	{ "reason", TR_UNIT_NONE }, { "count", TR_UNIT_NONE },
	{ "total_ns", TR_UNIT_NS }, { "p50_ns", TR_UNIT_NS },
	{ "p99_ns", TR_UNIT_NS }, { "max_ns", TR_UNIT_NS }
};
static const struct tr_out_col ag_cols[] = {
	{ "source", TR_UNIT_NONE }, { "goid", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "assist_ns", TR_UNIT_NS },
	{ "share", TR_UNIT_SHARE }
};
static const struct tr_out_col as_cols[] = {
	{ "source", TR_UNIT_NONE }, { "callsite_id", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "assist_ns", TR_UNIT_NS },
	{ "share", TR_UNIT_SHARE }, { "stack", TR_UNIT_NONE }
};
static const struct tr_out_col mmu_cols[] = {
	{ "source", TR_UNIT_NONE }, { "window_ns", TR_UNIT_NS },
	{ "mmu", TR_UNIT_SHARE }, { "worst_start_ns", TR_UNIT_TS },
	{ "worst_end_ns", TR_UNIT_TS }, { "worst_gc_ns", TR_UNIT_NS }
};
static const struct tr_out_col gpu_cols[] = {
	{ "source", TR_UNIT_NONE }, { "gpu", TR_UNIT_NONE },
	{ "samples", TR_UNIT_NONE }, { "gc_samples", TR_UNIT_NONE },
	{ "util_gc", TR_UNIT_PERCENT }, { "util_no_gc", TR_UNIT_PERCENT },
	{ "stw_samples", TR_UNIT_NONE }, { "util_stw", TR_UNIT_PERCENT },
	{ "util_no_stw", TR_UNIT_PERCENT }, { "episodes", TR_UNIT_NONE },
	{ "episodes_gc", TR_UNIT_NONE }, { "episode_gc_ns", TR_UNIT_NS },
	{ "episode_stw_ns", TR_UNIT_NS }
};
static const struct tr_out_col slow_cols[] = {
	{ "source", TR_UNIT_NONE }, { "stretches", TR_UNIT_NONE },
	{ "slow_ns", TR_UNIT_NS }, { "stretches_gc", TR_UNIT_NONE },
	{ "slow_gc_ns", TR_UNIT_NS }, { "slow_gc_share", TR_UNIT_SHARE },
	{ "other_gc_share", TR_UNIT_SHARE }, { "slow_stw_count", TR_UNIT_NONE },
	{ "slow_stw_ns", TR_UNIT_NS }, { "slow_assist_ns", TR_UNIT_NS }
};
static const struct tr_out_col stretch_cols[] = {
	{ "source", TR_UNIT_NONE }, { "stretch", TR_UNIT_NONE },
	{ "start_ns", TR_UNIT_TS }, { "end_ns", TR_UNIT_TS },
	{ "dur_ns", TR_UNIT_NS }, { "gc_ns", TR_UNIT_NS },
	{ "gc_share", TR_UNIT_SHARE }, { "stw_count", TR_UNIT_NONE },
	{ "stw_ns", TR_UNIT_NS }, { "assist_ns", TR_UNIT_NS }
};
static const struct tr_out_col ev_cols[] = {
	{ "source", TR_UNIT_NONE }, { "what", TR_UNIT_NONE },
	{ "view", TR_UNIT_NONE }, { "id", TR_UNIT_NONE },
	{ "ts", TR_UNIT_TS }, { "dur_ns", TR_UNIT_NS },
	{ "detail", TR_UNIT_NONE }
};

/* The MMU windows: 1 ms to 1 s. */
static const int64_t mmu_windows[] = {
	1000000, 2000000, 5000000, 10000000, 20000000, 50000000,
	100000000, 200000000, 500000000, 1000000000
};
#define NMMU	(sizeof mmu_windows / sizeof *mmu_windows)

struct iv {
	int64_t	 id, ts, dur, cs, goid;
	char	*kind, *reason;		/* STW */
};

struct key {
	int64_t	 k;
	int64_t	 count, ns;
};

struct src {
	int64_t			 id, lo, hi;
	struct iv		*gc, *stw;
	size_t			 ngc, nstw;
	int64_t			 assist_n, assist_ns, sweep_ns, worker_ns;
	struct key		*by_g, *by_cs;
	size_t			 ng, ncs;
	int64_t			 procs, heap_max, goal_max, alloc;
	struct tr_gort_util	 util;
	struct iv		*as;		/* the assists */
	size_t			 nas;
};

static void
src_release(struct src *s)
{
	size_t	i;

	for (i = 0; i < s->nstw; i++) {
		free(s->stw[i].kind);
		free(s->stw[i].reason);
	}
	free(s->gc);
	free(s->stw);
	free(s->by_g);
	free(s->by_cs);
	free(s->as);
	tr_gort_util_release(&s->util);
}

static void
key_add(struct key **v, size_t *n, int64_t k, int64_t ns)
{
	size_t	i;

	/* Few goroutines assist and few stacks: a linear list will do. */
	for (i = 0; i < *n; i++)
		if ((*v)[i].k == k)
			break;
	if (i == *n) {
		*v = tr_xrealloc(*v, (*n + 1) * sizeof **v);
		(*v)[i].k = k;
		(*v)[i].count = 0;
		(*v)[i].ns = 0;
		(*n)++;
	}
	(*v)[i].count++;
	(*v)[i].ns += ns;
}

static int
cmp_key(const void *a, const void *b)
{
	const struct key	*x = a, *y = b;

	if (x->ns != y->ns)
		return (x->ns > y->ns ? -1 : 1);
	return (x->k < y->k ? -1 : x->k > y->k);
}

/* Clip [ts, ts + dur) to the source's window; 0 when nothing is left. */
static int
clip(const struct src *s, int64_t *ts, int64_t *dur)
{
	int64_t	a = *ts, b = *ts + *dur;

	if (a < s->lo)
		a = s->lo;
	if (b > s->hi)
		b = s->hi;
	if (b <= a && !(*dur == 0 && *ts >= s->lo && *ts < s->hi))
		return (0);
	*ts = a;
	*dur = b > a ? b - a : 0;
	return (1);
}

struct arun {
	struct src	*s;
	struct iv	*as;	/* one goroutine's assists, by start */
	size_t		 n, k;	/* how many; the first not behind yet */
};

/* An assist counts while its goroutine runs (Go's MMU), not parked. */
static int
on_running(void *arg, const struct tr_derived_state *ds,
    struct tr_error *err)
{
	struct arun	*a = arg;
	size_t		 i;

	(void)err;
	if (ds->kind != TR_DK_RUNNING)
		return (0);
	/*
	 * The states come in time order and one goroutine's assists do
	 * not overlap: those that ended before this state are done with.
	 */
	while (a->k < a->n && a->as[a->k].ts + a->as[a->k].dur <= ds->ts)
		a->k++;
	for (i = a->k; i < a->n && a->as[i].ts < ds->ts + ds->dur; i++) {
		const struct iv	*v = &a->as[i];
		int64_t		 x = v->ts > ds->ts ? v->ts : ds->ts;
		int64_t		 y = v->ts + v->dur < ds->ts + ds->dur ?
		    v->ts + v->dur : ds->ts + ds->dur;

		if (y > x)
			tr_gort_util_gc(&a->s->util, x, y);
	}
	return (0);
}

#define GAP_NS	100000000	/* 100 ms */

static int
assists_running(struct tr_db *db, struct src *s, struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct arun	 a;
	size_t		 i, k, e;
	int64_t		 goid, track;
	int		 r, rc = -1;

	if ((st = tr_db_prepare(db, "SELECT id FROM track WHERE source_id "
	    "= ?1 AND kind = '" TR_TRACK_GOROUTINE "' AND ref = ?2",
	    err)) == NULL)
		return (-1);
	a.s = s;
	a.as = tr_xcalloc(s->nas + 1, sizeof *a.as);
	for (i = 0; i < s->ng; i++) {
		goid = s->by_g[i].k;
		for (k = 0, a.n = 0; k < s->nas; k++)
			if (s->as[k].goid == goid)
				a.as[a.n++] = s->as[k];
		a.k = 0;
		sqlite3_bind_int64(st, 1, s->id);
		sqlite3_bind_int64(st, 2, goid);
		if ((r = tr_db_step_int(db, st, &track, err)) < 0)
			goto out;
		/*
		 * The runs around each stretch of assists only (runs are
		 * seconds long): assists closer than GAP_NS walk together.
		 */
		for (k = 0; r == 1 && k < a.n; k = e) {
			int64_t	end = a.as[k].ts + a.as[k].dur;

			for (e = k + 1; e < a.n && a.as[e].ts - end < GAP_NS;
			    e++)
				end = a.as[e].ts + a.as[e].dur;
			if (end > a.as[k].ts && tr_derived_track_states(db,
			    track, a.as[k].ts, end, on_running, &a, err) != 0)
				goto out;
		}
	}
	rc = 0;
out:
	free(a.as);
	sqlite3_finalize(st);
	return (rc);
}

static int
load(struct tr_db *db, struct src *s, struct tr_error *err)
{
	sqlite3_stmt	*st = NULL;
	int		 rc = -1, r;
	int64_t		 last_alloc = -1;

	if ((st = tr_db_prepare(db, gc_sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, s->lo);
	sqlite3_bind_int64(st, 3, s->hi);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct iv	 v;
		const char	*name = (const char *)sqlite3_column_text(st, 3);
		const char	*tk = (const char *)sqlite3_column_text(st, 7);

		memset(&v, 0, sizeof v);
		v.id = sqlite3_column_int64(st, 0);
		v.ts = sqlite3_column_int64(st, 1);
		v.dur = sqlite3_column_int64(st, 2);
		v.cs = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 5);
		v.goid = sqlite3_column_int64(st, 6);
		if (name == NULL || tk == NULL || !clip(s, &v.ts, &v.dur))
			continue;
		if (strcmp(tk, TR_TRACK_GO_STW) == 0) {
			v.kind = tr_gort_col_dup(st, 3);
			v.reason = tr_gort_col_dup(st, 4);
			s->stw = tr_xrealloc(s->stw, (s->nstw + 1) *
			    sizeof *s->stw);
			s->stw[s->nstw++] = v;
			tr_gort_util_stw(&s->util, v.ts, v.ts + v.dur);
		} else if (strcmp(name, TR_GO_GC) == 0) {
			s->gc = tr_xrealloc(s->gc, (s->ngc + 1) *
			    sizeof *s->gc);
			s->gc[s->ngc++] = v;
		} else if (strcmp(name, TR_GO_ASSIST) == 0) {
			s->assist_n++;
			s->assist_ns += v.dur;
			key_add(&s->by_g, &s->ng, v.goid, v.dur);
			key_add(&s->by_cs, &s->ncs, v.cs, v.dur);
			s->as = tr_xrealloc(s->as, (s->nas + 1) *
			    sizeof *s->as);
			s->as[s->nas++] = v;
		} else if (strcmp(name, TR_GO_SWEEP) == 0) {
			s->sweep_ns += v.dur;
			tr_gort_util_gc(&s->util, v.ts, v.ts + v.dur);
		}
	}
	if (r != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the GC slices");
		goto out;
	}
	sqlite3_finalize(st);
	if ((st = tr_db_prepare(db, worker_sql, err)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, s->lo);
	sqlite3_bind_int64(st, 3, s->hi);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	ts = sqlite3_column_int64(st, 0);
		int64_t	dur = sqlite3_column_int64(st, 1);

		if (!clip(s, &ts, &dur))
			continue;
		s->worker_ns += dur;
		/*
		 * An idle worker runs on a P with nothing else to run: it
		 * takes no time from the mutator (Go's MMU leaves it out).
		 */
		if (!sqlite3_column_int(st, 2))
			tr_gort_util_gc(&s->util, ts, ts + dur);
	}
	if (r != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the GC workers' states");
		goto out;
	}
	sqlite3_finalize(st);
	if ((st = tr_db_prepare(db, counter_sql, err)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, s->id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t		 ts = sqlite3_column_int64(st, 0);
		int64_t		 v = sqlite3_column_int64(st, 1);
		const char	*name = (const char *)sqlite3_column_text(st, 2);

		if (name == NULL)
			continue;
		if (strcmp(name, TR_GO_GOMAXPROCS) == 0) {
			tr_gort_util_procs(&s->util, ts, v);
			if (ts < s->hi && v > s->procs)
				s->procs = v;
			continue;
		}
		if (ts < s->lo || ts >= s->hi)
			continue;
		if (strcmp(name, TR_GO_HEAP_ALLOC) == 0) {
			if (v > s->heap_max)
				s->heap_max = v;
			if (last_alloc >= 0 && v > last_alloc)
				s->alloc += v - last_alloc;
			last_alloc = v;
		} else if (strcmp(name, TR_GO_HEAP_GOAL) == 0 &&
		    v > s->goal_max)
			s->goal_max = v;
	}
	if (r != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the heap counters");
		goto out;
	}
	if (assists_running(db, s, err) != 0)
		goto out;
	if (s->hi > s->lo)
		tr_gort_util_build(&s->util, s->lo, s->hi);
	if (s->ng > 1)
		qsort(s->by_g, s->ng, sizeof *s->by_g, cmp_key);
	if (s->ncs > 1)
		qsort(s->by_cs, s->ncs, sizeof *s->by_cs, cmp_key);
	rc = 0;
out:
	sqlite3_finalize(st);
	return (rc);
}

/* The union of the GC cycles (or pauses) over [a, b), ns. */
static int64_t
cover(const struct iv *v, size_t n, int64_t a, int64_t b)
{
	int64_t	tot = 0, hi = a, x, y;
	size_t	i;

	/* Sorted by start; cycles and pauses do not overlap each other. */
	for (i = 0; i < n; i++) {
		if (v[i].ts >= b)
			break;
		x = v[i].ts > hi ? v[i].ts : hi;
		y = v[i].ts + v[i].dur < b ? v[i].ts + v[i].dur : b;
		if (y > x) {
			tot += y - x;
			hi = y;
		}
	}
	return (tot);
}

/* How many of the cycles (or pauses) overlap [a, b). */
static int64_t
overlapping(const struct iv *v, size_t n, int64_t a, int64_t b)
{
	int64_t	c = 0;
	size_t	i;

	for (i = 0; i < n && v[i].ts < b; i++)
		if (v[i].ts + v[i].dur > a || (v[i].dur == 0 && v[i].ts >= a))
			c++;
	return (c);
}

/* The assists' time in [a, b), summed over goroutines. */
static int64_t
assist_in(const struct src *s, int64_t a, int64_t b)
{
	int64_t	tot = 0, x, y;
	size_t	i;

	for (i = 0; i < s->nas; i++) {
		x = s->as[i].ts > a ? s->as[i].ts : a;
		y = s->as[i].ts + s->as[i].dur < b ? s->as[i].ts +
		    s->as[i].dur : b;
		if (y > x)
			tot += y - x;
	}
	return (tot);
}

static void
out_real_or_null(struct tr_out *out, double v, int ok)
{
	if (ok)
		tr_out_real(out, v);
	else
		tr_out_null(out);
}

static void
emit_summary(struct tr_out *out, struct src *v, size_t n)
{
	size_t	i, k;

	tr_out_set_name(out, "gc");
	tr_out_columns_of(out, TR_OUT_NCOLS(sum_cols), sum_cols);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		int64_t		*d, span = s->hi - s->lo, gcns = 0, stwns = 0;
		int64_t		 w;
		double		 m;

		d = tr_xcalloc(s->ngc + s->nstw + 1, sizeof *d);
		for (k = 0; k < s->ngc; k++)
			gcns += (d[k] = s->gc[k].dur);
		tr_gort_sort(d, s->ngc);
		tr_out_int(out, s->id);
		tr_out_int(out, s->lo);
		tr_out_int(out, s->hi);
		tr_out_int(out, span);
		if (s->procs > 0)
			tr_out_int(out, s->procs);
		else
			tr_out_null(out);
		tr_out_int(out, (int64_t)s->ngc);
		tr_out_int(out, gcns);
		out_real_or_null(out, span > 0 ? (double)cover(s->gc, s->ngc,
		    s->lo, s->hi) / (double)span : 0, span > 0);
		tr_out_int(out, tr_gort_pct(d, s->ngc, 0.5));
		tr_out_int(out, s->ngc ? d[s->ngc - 1] : 0);
		for (k = 0; k < s->nstw; k++)
			stwns += (d[k] = s->stw[k].dur);
		tr_gort_sort(d, s->nstw);
		tr_out_int(out, (int64_t)s->nstw);
		tr_out_int(out, stwns);
		out_real_or_null(out, span > 0 ? (double)stwns / (double)span :
		    0, span > 0);
		tr_out_int(out, tr_gort_pct(d, s->nstw, 0.5));
		tr_out_int(out, tr_gort_pct(d, s->nstw, 0.99));
		tr_out_int(out, s->nstw ? d[s->nstw - 1] : 0);
		tr_out_int(out, s->assist_n);
		tr_out_int(out, s->assist_ns);
		tr_out_int(out, s->sweep_ns);
		tr_out_int(out, s->worker_ns);
		tr_out_int(out, s->heap_max);
		tr_out_int(out, s->goal_max);
		tr_out_int(out, s->alloc);
		out_real_or_null(out, span > 0 ? (double)s->alloc * 1e9 /
		    (double)span : 0, span > 0);
		m = span > 0 ? tr_gort_mmu(&s->util, 10000000, &w) : -1;
		out_real_or_null(out, m, m >= 0);
		tr_out_end_row(out);
		free(d);
	}
}

struct stwgroup {
	const char	*kind, *reason;
	int64_t		*d;
	size_t		 n;
	int64_t		 tot;
};

static int
cmp_group(const void *a, const void *b)
{
	const struct stwgroup	*x = a, *y = b;

	if (x->tot != y->tot)
		return (x->tot > y->tot ? -1 : 1);
	return (strcmp(x->reason, y->reason));
}

static void
emit_stw(struct tr_out *out, struct src *v, size_t n)
{
	size_t	i, k, j;

	tr_out_set_name(out, "stw");
	tr_out_columns_of(out, TR_OUT_NCOLS(stw_cols), stw_cols);
	for (i = 0; i < n; i++) {
		struct stwgroup	*g = NULL;
		size_t		 ng = 0;

		for (k = 0; k < v[i].nstw; k++) {
			const struct iv	*p = &v[i].stw[k];
			const char	*kd = p->kind ? p->kind : "";
			const char	*rs = p->reason ? p->reason : "";

			for (j = 0; j < ng; j++)
				if (strcmp(g[j].kind, kd) == 0 &&
				    strcmp(g[j].reason, rs) == 0)
					break;
			if (j == ng) {
				g = tr_xrealloc(g, (ng + 1) * sizeof *g);
				memset(&g[j], 0, sizeof *g);
				g[j].kind = kd;
				g[j].reason = rs;
				g[j].d = tr_xcalloc(v[i].nstw, sizeof *g[j].d);
				ng++;
			}
			g[j].d[g[j].n++] = p->dur;
			g[j].tot += p->dur;
		}
		if (ng > 1)
			qsort(g, ng, sizeof *g, cmp_group);
		for (j = 0; j < ng; j++) {
			tr_gort_sort(g[j].d, g[j].n);
			tr_out_int(out, v[i].id);
			tr_out_text(out, g[j].kind);
			tr_out_text(out, g[j].reason);
			tr_out_int(out, (int64_t)g[j].n);
			tr_out_int(out, g[j].tot);
			tr_out_int(out, tr_gort_pct(g[j].d, g[j].n, 0.5));
			tr_out_int(out, tr_gort_pct(g[j].d, g[j].n, 0.99));
			tr_out_int(out, g[j].d[g[j].n - 1]);
			tr_out_end_row(out);
			free(g[j].d);
		}
		free(g);
	}
}

static int
emit_assists(struct tr_out *out, struct tr_attr *a, struct src *v,
    size_t n, int64_t top)
{
	size_t	i, k;

	tr_out_set_name(out, "assist_goroutines");
	tr_out_columns_of(out, TR_OUT_NCOLS(ag_cols), ag_cols);
	for (i = 0; i < n; i++)
		for (k = 0; k < v[i].ng && (int64_t)k < top; k++) {
			tr_out_int(out, v[i].id);
			tr_out_int(out, v[i].by_g[k].k);
			tr_out_int(out, v[i].by_g[k].count);
			tr_out_int(out, v[i].by_g[k].ns);
			tr_out_real(out, v[i].assist_ns > 0 ?
			    (double)v[i].by_g[k].ns / (double)v[i].assist_ns :
			    0);
			tr_out_end_row(out);
		}
	if (tr_out_finish(out) != 0)
		return (-1);
	tr_out_set_name(out, "assist_stacks");
	tr_out_columns_of(out, TR_OUT_NCOLS(as_cols), as_cols);
	for (i = 0; i < n; i++)
		for (k = 0; k < v[i].ncs && (int64_t)k < top; k++) {
			char	*t;

			tr_out_int(out, v[i].id);
			if (v[i].by_cs[k].k >= 0)
				tr_out_int(out, v[i].by_cs[k].k);
			else
				tr_out_null(out);
			tr_out_int(out, v[i].by_cs[k].count);
			tr_out_int(out, v[i].by_cs[k].ns);
			tr_out_real(out, v[i].assist_ns > 0 ?
			    (double)v[i].by_cs[k].ns /
			    (double)v[i].assist_ns : 0);
			t = v[i].by_cs[k].k >= 0 ?
			    tr_attr_stack_text(a, v[i].by_cs[k].k) : NULL;
			tr_out_text(out, t != NULL ? t : "");
			free(t);
			tr_out_end_row(out);
		}
	return (0);
}

/* The GC ns (workers, assists, sweeps: P-ns; STW: all Ps) in [a, b). */
static int64_t
gc_pns(const struct src *s, int64_t a, int64_t b)
{
	double	m = tr_gort_util_mutator(&s->util, a, b);
	int64_t	p = s->procs > 0 ? s->procs : 1;

	return ((int64_t)((double)(b - a) * (double)p - m * (double)p + 0.5));
}

static void
emit_mmu(struct tr_out *out, struct src *v, size_t n)
{
	size_t	i, k;

	tr_out_set_name(out, "mmu");
	tr_out_columns_of(out, TR_OUT_NCOLS(mmu_cols), mmu_cols);
	for (i = 0; i < n; i++)
		for (k = 0; k < NMMU; k++) {
			int64_t	w = mmu_windows[k], at;
			double	m;

			if (v[i].hi <= v[i].lo || (m = tr_gort_mmu(&v[i].util,
			    w, &at)) < 0)
				break;
			tr_out_int(out, v[i].id);
			tr_out_int(out, w);
			tr_out_real(out, m);
			tr_out_int(out, at);
			tr_out_int(out, at + w);
			tr_out_int(out, gc_pns(&v[i], at, at + w));
			tr_out_end_row(out);
		}
}

/*
 * The GPU next to GC: each utilisation sample stands for its period
 * (ts[i-1], ts[i]]; its weight with GC is the share of that period under
 * a GC cycle (or a pause), so that a 3 ms pause is neither rounded up to
 * a whole sample nor lost.
 */
static void
emit_gpu(struct tr_out *out, struct tr_attr *a, struct src *v, size_t n,
    double threshold, int64_t gap, int64_t min)
{
	size_t	i, gi, k;

	tr_out_set_name(out, "gpu");
	tr_out_columns_of(out, TR_OUT_NCOLS(gpu_cols), gpu_cols);
	for (i = 0; i < n; i++)
		for (gi = 0; gi < tr_attr_ngpus(a); gi++) {
			const struct tr_attr_gpu	*g = tr_attr_gpu(a, gi);
			const struct src		*s = &v[i];
			struct tr_attr_episode		*eps = NULL;
			size_t				 ne = 0, nin = 0,
							 negc = 0;
			double	wg = 0, ug = 0, wn = 0, un = 0;
			double	ws = 0, us = 0, wsn = 0, usn = 0;
			int64_t	egc = 0, estw = 0;

			for (k = 1; k < g->n; k++) {
				int64_t	x = g->ts[k - 1], y = g->ts[k];
				double	len = (double)(y - x), fg, fs;

				if (y <= s->lo || x >= s->hi || len <= 0)
					continue;
				nin++;
				fg = (double)cover(s->gc, s->ngc, x, y) / len;
				fs = (double)cover(s->stw, s->nstw, x, y) / len;
				wg += fg;
				ug += fg * g->util[k];
				wn += 1 - fg;
				un += (1 - fg) * g->util[k];
				ws += fs;
				us += fs * g->util[k];
				wsn += 1 - fs;
				usn += (1 - fs) * g->util[k];
			}
			tr_attr_episodes(a, gi, threshold, gap, min, &eps, &ne);
			for (k = 0; k < ne; k++) {
				int64_t	x = eps[k].start, y = eps[k].end, c;

				if (y <= s->lo || x >= s->hi)
					continue;
				if ((c = cover(s->gc, s->ngc, x, y)) > 0)
					negc++;
				egc += c;
				estw += cover(s->stw, s->nstw, x, y);
			}
			tr_out_int(out, s->id);
			tr_out_int(out, g->gpu);
			tr_out_int(out, (int64_t)nin);
			tr_out_real(out, wg);
			out_real_or_null(out, wg > 0 ? ug / wg : 0, wg > 0);
			out_real_or_null(out, wn > 0 ? un / wn : 0, wn > 0);
			tr_out_real(out, ws);
			out_real_or_null(out, ws > 0 ? us / ws : 0, ws > 0);
			out_real_or_null(out, wsn > 0 ? usn / wsn : 0,
			    wsn > 0);
			tr_out_int(out, (int64_t)ne);
			tr_out_int(out, (int64_t)negc);
			tr_out_int(out, egc);
			tr_out_int(out, estw);
			tr_out_end_row(out);
			free(eps);
		}
}

/*
 * GC next to the slow steps: the stretches of slow steps of 'steps'
 * (its "slow" set, w[0..nw)), each clipped to a source's window, with
 * the GC cycles, pauses and assists inside them; then the same per
 * stretch.
 */
static int
emit_slow(struct tr_out *out, struct src *v, size_t n,
    const struct tr_window *w, size_t nw)
{
	size_t	i, k;

	tr_out_set_name(out, "slow_steps");
	tr_out_columns_of(out, TR_OUT_NCOLS(slow_cols), slow_cols);
	for (i = 0; i < n; i++) {
		const struct src	*s = &v[i];
		int64_t			 nst = 0, ngc = 0, slow = 0, gc = 0;
		int64_t			 nstw = 0, stw = 0, as = 0, span, all;

		for (k = 0; k < nw; k++) {
			int64_t	a = w[k].start > s->lo ? w[k].start : s->lo;
			int64_t	b = w[k].end < s->hi ? w[k].end : s->hi;
			int64_t	c;

			if (b <= a)
				continue;
			nst++;
			slow += b - a;
			if ((c = cover(s->gc, s->ngc, a, b)) > 0)
				ngc++;
			gc += c;
			nstw += overlapping(s->stw, s->nstw, a, b);
			stw += cover(s->stw, s->nstw, a, b);
			as += assist_in(s, a, b);
		}
		span = s->hi - s->lo;
		all = span > 0 ? cover(s->gc, s->ngc, s->lo, s->hi) : 0;
		tr_out_int(out, s->id);
		tr_out_int(out, nst);
		tr_out_int(out, slow);
		tr_out_int(out, ngc);
		tr_out_int(out, gc);
		out_real_or_null(out, slow > 0 ? (double)gc / (double)slow : 0,
		    slow > 0);
		out_real_or_null(out, span > slow ? (double)(all - gc) /
		    (double)(span - slow) : 0, span > slow);
		tr_out_int(out, nstw);
		tr_out_int(out, stw);
		tr_out_int(out, as);
		tr_out_end_row(out);
	}
	if (tr_out_finish(out) != 0)
		return (-1);
	tr_out_set_name(out, "slow_stretches");
	tr_out_columns_of(out, TR_OUT_NCOLS(stretch_cols), stretch_cols);
	for (i = 0; i < n; i++)
		for (k = 0; k < nw; k++) {
			const struct src	*s = &v[i];
			int64_t	a = w[k].start > s->lo ? w[k].start : s->lo;
			int64_t	b = w[k].end < s->hi ? w[k].end : s->hi;
			int64_t	gc;

			if (b <= a)
				continue;
			gc = cover(s->gc, s->ngc, a, b);
			tr_out_int(out, s->id);
			tr_out_int(out, (int64_t)k + 1);
			tr_out_int(out, a);
			tr_out_int(out, b);
			tr_out_int(out, b - a);
			tr_out_int(out, gc);
			tr_out_real(out, (double)gc / (double)(b - a));
			tr_out_int(out, overlapping(s->stw, s->nstw, a, b));
			tr_out_int(out, cover(s->stw, s->nstw, a, b));
			tr_out_int(out, assist_in(s, a, b));
			tr_out_end_row(out);
		}
	return (0);
}

/*
 * The slow steps as 'trace-query steps' finds them: its windows (the
 * "slow" set) for the selection's window and GPU, with 'args' (--steps)
 * after them.  Returns 0 with the windows, 1 when steps could not tell
 * (the reason in a note), -1 with 'err' set.
 */
static int
slow_steps(struct tr_db *db, const struct tr_sel *sel, const char *args,
    struct tr_out *out, struct tr_window **w, size_t *nw,
    struct tr_error *err)
{
	struct tr_buf	 q;
	struct tr_error	 e2;
	char		*notes = NULL;
	int		 rc;

	tr_buf_init(&q);
	tr_buf_adds(&q, "steps --top 0");
	if (sel->has_from)
		tr_buf_printf(&q, " --from =%lld", (long long)sel->from);
	if (sel->has_to)
		tr_buf_printf(&q, " --to =%lld", (long long)sel->to);
	if (sel->gpu >= 0)
		tr_buf_printf(&q, " --gpu %lld", (long long)sel->gpu);
	if (args != NULL)
		tr_buf_printf(&q, " %s", args);
	tr_error_init(&e2);
	rc = tr_query_windows(db, q.data, w, nw, &notes, &e2);
	free(notes);
	if (rc != 0 && e2.code == TR_EDATA) {
		/* No steps to tell slow ones by: say so, answer the rest. */
		tr_out_note(out, "no slow_steps set: %s (gc --steps "
		    "'--region NAME')", e2.msg);
		rc = 1;
	} else if (rc != 0) {
		tr_error_set(err, e2.code, "gc --steps: %s", e2.msg);
		rc = -1;
	}
	tr_buf_release(&q);
	return (rc);
}

static void
emit_evidence(struct tr_out *out, struct src *v, size_t n)
{
	size_t	i;

	tr_out_set_name(out, "evidence");
	tr_out_columns_of(out, TR_OUT_NCOLS(ev_cols), ev_cols);
	for (i = 0; i < n; i++) {
		size_t	a = 0, b = 0;

		/* Cycles and pauses in time order. */
		while (a < v[i].ngc || b < v[i].nstw) {
			const struct iv	*p;
			int		 isgc = b >= v[i].nstw ||
			    (a < v[i].ngc && v[i].gc[a].ts <= v[i].stw[b].ts);
			char		*d;

			p = isgc ? &v[i].gc[a++] : &v[i].stw[b++];
			tr_out_int(out, v[i].id);
			tr_out_text(out, isgc ? "cycle" : "stw");
			tr_out_text(out, isgc ? "go_gc" : "go_stw");
			tr_out_int(out, p->id);
			tr_out_int(out, p->ts);
			tr_out_int(out, p->dur);
			d = isgc ? tr_xstrdup("GC") : tr_xasprintf("%s: %s",
			    p->kind ? p->kind : "", p->reason ? p->reason : "");
			tr_out_text(out, d);
			free(d);
			tr_out_end_row(out);
		}
	}
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	double			 threshold = 30;
	int64_t			 gap = 300000000, min = 500000000, top = 10;
	int			 evidence = 0;
	const char		*steps = NULL;
	struct tr_arg		 opts[] = {
		{ "top", 'n', TR_ARG_INT, &top, 0, 1e9, "N",
		    "assists: the N goroutines and stacks with the most "
		    "(default 10)", 0, 0 },
		{ "threshold", 0, TR_ARG_PERCENT, &threshold, 0, 100, "PCT",
		    "GPU-idle episodes below this utilization (default 30%)",
		    0, 0 },
		{ "gap", 0, TR_ARG_DURATION, &gap, 0, 0, "DURATION",
		    "episodes: merged across spikes this short "
		    "(default 300ms)", 0, 0 },
		{ "min", 0, TR_ARG_DURATION, &min, 0, 0, "DURATION",
		    "episodes: at least this long (default 500ms)", 0, 0 },
		{ "steps", 0, TR_ARG_STRING, &steps, 0, 0, "ARGS",
		    "slow steps: found by 'steps ARGS' (default: its "
		    "defaults)", 0, 0 },
		{ "evidence", 0, TR_ARG_FLAG, &evidence, 0, 0, NULL,
		    "add every GC cycle and pause (by id)", 0, 0 },
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_sel		 sel;
	struct tr_args		 args = {
		.name = "gc", .synopsis = "[OPTION...]",
		.about = "GC cycles and stop-the-world pauses, mark assists "
		    "by goroutine and stack,\nGC's share of wall time, heap "
		    "and allocation rate, the minimum mutator\nutilisation, "
		    "and GC next to the GPU (trace-query(1), gc).",
		.args = opts, .sel = &sel
	};
	struct tr_attr		*a = NULL;
	struct src		*v = NULL;
	struct tr_window	*w = NULL;
	size_t			 nw = 0;
	int64_t			*ids = NULL, origin, woff;
	int			 n = 0, i, haswall, rc, slow;

	tr_sel_init(&sel, GC_SEL);
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	if ((n = tr_gort_sources(db, &sel, "gc", "GC cycles, pauses, "
	    "assists and the MMU come from one (runtime/trace)",
	    "heap and allocs profiles ('trace-query top --type allocs')",
	    &ids, err)) < 0) {
		n = 0;
		goto out;
	}
	if ((a = tr_attr_open(db, &sel, err)) == NULL)
		goto out;
	tr_attr_clock(a, &origin, &haswall, &woff);
	tr_out_set_clock(out, origin, haswall, woff);
	v = tr_xcalloc((size_t)n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].id = ids[i];
		tr_gort_util_init(&v[i].util);
		if (tr_gort_span(db, &sel, v[i].id, &v[i].lo, &v[i].hi,
		    err) != 0 ||
		    load(db, &v[i], err) != 0)
			goto out;
		if (v[i].ngc == 0)
			tr_out_note(out, "source %lld: no GC cycle in the "
			    "window", (long long)v[i].id);
		if (v[i].procs == 0)
			tr_out_note(out, "source %lld: GOMAXPROCS unknown; "
			    "the MMU counts 1 P", (long long)v[i].id);
	}
	if (tr_attr_ngpus(a) == 0)
		tr_out_note(out, "no GPU telemetry: no GC-next-to-GPU set");
	if ((slow = slow_steps(db, &sel, steps, out, &w, &nw, err)) < 0)
		goto out;
	emit_summary(out, v, (size_t)n);
	if (tr_out_finish_err(out, err) != 0)
		goto out;
	emit_stw(out, v, (size_t)n);
	if (tr_out_finish_err(out, err) != 0)
		goto out;
	if (emit_assists(out, a, v, (size_t)n, top) != 0 ||
	    tr_out_finish_err(out, err) != 0) {
		tr_out_write_error(err);
		goto out;
	}
	emit_mmu(out, v, (size_t)n);
	if (tr_out_finish_err(out, err) != 0)
		goto out;
	if (tr_attr_ngpus(a) > 0) {
		emit_gpu(out, a, v, (size_t)n, threshold, gap, min);
		if (tr_out_finish_err(out, err) != 0)
			goto out;
	}
	if (slow == 0 && (emit_slow(out, v, (size_t)n, w, nw) != 0 ||
	    tr_out_finish_err(out, err) != 0)) {
		tr_out_write_error(err);
		goto out;
	}
	if (evidence) {
		emit_evidence(out, v, (size_t)n);
		if (tr_out_finish_err(out, err) != 0)
			goto out;
	}
	rc = 0;
out:
	if (v != NULL)
		for (i = 0; i < n; i++)
			src_release(&v[i]);
	free(v);
	free(w);
	free(ids);
	tr_attr_free(a);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_gc = {
	.name = "gc",
	.usage = "[OPTION...]",
	.summary = "GC cycles, STW pauses, assists, MMU, GC next to the GPU",
	.run = run,
};
