/*
 * trace-query gpu-mem: is GPU memory leaking, and which Go heap stacks
 * grow with it.  For every series of GPU memory in the window (a process
 * on a GPU: nvidia-smi --query-compute-apps, pmon's fb, nvtop's
 * processes; a whole GPU: memory.used) its growth, a least-squares slope
 * with r2, the largest steps, what was released and a verdict (leak,
 * plateau, sawtooth, flat, or unknown when the data cannot say) with the
 * rule that fired; beside it the Go heap's growth by allocation stack
 * between the first and the last heap profile in the series' span, ranked
 * by how well each stack's inuse_space follows the GPU memory, and the
 * growth of the goroutine count.
 */
#include "config.h"
#include "query/query.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/names.h"
#include "base/util.h"
#include "query/args.h"
#include "query/sel.h"
#include "store/counter.h"

#define GPU_MEM_SEL	(TR_SEL_SOURCE | TR_SEL_PID | TR_SEL_GPU | \
			    TR_SEL_TIME)
#define MIB		1048576.0
#define STACK_FRAMES	4	/* frames of a stack's text */

/* One series of GPU memory: a process on a GPU, or a whole GPU. */
struct series {
	int64_t		 track, source, gpu, pid;	/* pid -1: the GPU */
	char		*process;
	size_t		 n;
	int64_t		*ts, *id;
	double		*v;
	/* What was found. */
	int64_t		 interval, peak, released, growth;
	int64_t		 step_ts;
	double		 step, slope, r2;	/* r2 NAN: no variance */
	const char	*verdict;
	char		*rule;
};

/* Snapshot profiles of one type (heap or goroutine), by time. */
struct snaps {
	size_t		 n, nst;
	int64_t		*id, *ts;
	int64_t		*cs;		/* nst call sites */
	double		*a, *b;		/* nst x n: the two sample types */
	double		*tot_a, *tot_b;	/* n: totals */
	struct tr_imap	 idx;		/* call site -> index + 1 */
};

struct opts {
	int64_t		 min_growth;	/* MiB */
	int64_t		 min_span;
	double		 late, release, min_share;
	int64_t		 nstacks, nsteps;
	int		 evidence;
};

/* One ranked heap stack of a row. */
struct rank {
	size_t		 st;
	double		 d_space, d_objs, r;
};

static const struct tr_out_col mem_cols[] = {
	{ "row", TR_UNIT_NONE }, { "gpu", TR_UNIT_NONE },
	{ "pid", TR_UNIT_NONE }, { "process", TR_UNIT_NONE },
	{ "source", TR_UNIT_NONE }, { "start_ns", TR_UNIT_TS },
	{ "end_ns", TR_UNIT_TS }, { "samples", TR_UNIT_NONE },
	{ "interval_ns", TR_UNIT_NS }, { "start_bytes", TR_UNIT_BYTES },
	{ "end_bytes", TR_UNIT_BYTES }, { "peak_bytes", TR_UNIT_BYTES },
	{ "growth_bytes", TR_UNIT_BYTES },
	{ "slope_bytes_per_min", TR_UNIT_BYTES }, { "r2", TR_UNIT_NONE },
	{ "released_bytes", TR_UNIT_BYTES },
	{ "largest_step_bytes", TR_UNIT_BYTES },
	{ "largest_step_ts", TR_UNIT_TS }, { "verdict", TR_UNIT_NONE },
	{ "rule", TR_UNIT_NONE }, { "heap_profiles", TR_UNIT_NONE },
	{ "heap_growth_bytes", TR_UNIT_BYTES },
	{ "heap_objects_growth", TR_UNIT_NONE },
	{ "goroutines_start", TR_UNIT_NONE },
	{ "goroutines_end", TR_UNIT_NONE },
	{ "goroutine_growth", TR_UNIT_NONE },
	{ "goroutine_stack", TR_UNIT_NONE }, { "heap_stacks", TR_UNIT_NONE }
};

static const struct tr_out_col step_cols[] = {
	{ "row", TR_UNIT_NONE }, { "rank", TR_UNIT_NONE }, { "ts", TR_UNIT_TS },
	{ "delta_bytes", TR_UNIT_BYTES }, { "before_bytes", TR_UNIT_BYTES },
	{ "after_bytes", TR_UNIT_BYTES }
};

static const struct tr_out_col stack_cols[] = {
	{ "row", TR_UNIT_NONE }, { "rank", TR_UNIT_NONE },
	{ "stack", TR_UNIT_NONE }, { "inuse_space_delta", TR_UNIT_BYTES },
	{ "inuse_objects_delta", TR_UNIT_NONE }, { "r", TR_UNIT_NONE },
	{ "cgo", TR_UNIT_NONE }, { "first_profile", TR_UNIT_NONE },
	{ "last_profile", TR_UNIT_NONE }
};

static const struct tr_out_col ev_cols[] = {
	{ "row", TR_UNIT_NONE }, { "what", TR_UNIT_NONE },
	{ "view", TR_UNIT_NONE }, { "id", TR_UNIT_NONE }, { "ts", TR_UNIT_TS },
	{ "value", TR_UNIT_NONE }
};

static void
series_release(struct series *s)
{
	free(s->process);
	free(s->ts);
	free(s->id);
	free(s->v);
	free(s->rule);
}

static void
series_free(struct series *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		series_release(&s[i]);
	free(s);
}

static void
snaps_release(struct snaps *p)
{
	free(p->id);
	free(p->ts);
	free(p->cs);
	free(p->a);
	free(p->b);
	free(p->tot_a);
	free(p->tot_b);
	tr_imap_release(&p->idx);
}

/* One sample, for sorting a series read out of order. */
struct point {
	int64_t	 ts, id;
	double	 v;
};

static int
cmp_point(const void *a, const void *b)
{
	const struct point	*x = a, *y = b;

	if (x->ts != y->ts)
		return (x->ts < y->ts ? -1 : 1);
	return (x->id < y->id ? -1 : x->id > y->id);
}

static void
series_add(struct series *x, int64_t id, int64_t ts, double v)
{
	size_t	cap;

	if ((x->n & (x->n - 1)) == 0 && x->n >= 256) {
		/* Doubling at powers of two from 256. */
		cap = x->n * 2;
		x->ts = tr_xrealloc(x->ts, cap * sizeof *x->ts);
		x->id = tr_xrealloc(x->id, cap * sizeof *x->id);
		x->v = tr_xrealloc(x->v, cap * sizeof *x->v);
	} else if (x->n == 0) {
		x->ts = tr_xmalloc(256 * sizeof *x->ts);
		x->id = tr_xmalloc(256 * sizeof *x->id);
		x->v = tr_xmalloc(256 * sizeof *x->v);
	}
	x->id[x->n] = id;
	x->ts[x->n] = ts;
	x->v[x->n] = v;
	x->n++;
}

/* In time order (then by id), whichever order the rows came in. */
static void
series_sort(struct series *x)
{
	struct point	*p;
	size_t		 i;

	for (i = 1; i < x->n; i++)
		if (x->ts[i] < x->ts[i - 1] || (x->ts[i] == x->ts[i - 1] &&
		    x->id[i] < x->id[i - 1]))
			break;
	if (i >= x->n)
		return;
	p = tr_xmalloc(x->n * sizeof *p);
	for (i = 0; i < x->n; i++) {
		p[i].ts = x->ts[i];
		p[i].id = x->id[i];
		p[i].v = x->v[i];
	}
	qsort(p, x->n, sizeof *p, cmp_point);
	for (i = 0; i < x->n; i++) {
		x->ts[i] = p[i].ts;
		x->id[i] = p[i].id;
		x->v[i] = p[i].v;
	}
	free(p);
}

/*
 * The memory.used series of the selected GPU and GPU-process tracks, each
 * track's points through counter_run's index (store/counter.h).
 */
static int
read_series(struct tr_db *db, const struct tr_sel *sel, struct series **out,
    size_t *nout, struct tr_error *err)
{
	struct tr_counter_pts	 pts = { 0 };
	sqlite3_stmt		*st;
	struct series		*s = NULL, *x;
	size_t			 n = 0, i, k;
	int64_t			 lo, hi, mem_id;
	int			 rc;

	*out = NULL;
	*nout = 0;
	lo = sel->has_from ? sel->from : INT64_MIN;
	hi = sel->has_to ? sel->to : INT64_MAX;
	st = tr_db_prepare(db, "SELECT t.id, t.source_id, t.ref, "
	    "t.kind = '" TR_TRACK_GPU_PROCESS "', p.pid, coalesce(p.name, "
	    "t.name) FROM track t LEFT JOIN process p ON p.id = t.process_id "
	    "WHERE t.kind IN ('" TR_TRACK_GPU "', '" TR_TRACK_GPU_PROCESS
	    "') ORDER BY t.ref, t.kind, p.pid, t.source_id, t.id", err);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	 pid = -1, gpu;

		gpu = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 2);
		if (sqlite3_column_int(st, 3))
			pid = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
			    sqlite3_column_int64(st, 4);
		if (!tr_sel_has_source(sel, sqlite3_column_int64(st, 1)) ||
		    (sel->gpu >= 0 && gpu != sel->gpu) ||
		    (sel->pid >= 0 && pid != sel->pid) ||
		    (sqlite3_column_int(st, 3) && pid < 0))
			continue;
		s = tr_xrealloc(s, (n + 1) * sizeof *s);
		x = &s[n++];
		memset(x, 0, sizeof *x);
		x->track = sqlite3_column_int64(st, 0);
		x->source = sqlite3_column_int64(st, 1);
		x->gpu = gpu;
		x->pid = pid;
		x->process = tr_xstrdup((const char *)
		    sqlite3_column_text(st, 5));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto fail;
	if ((rc = tr_db_str_id(db, TR_METRIC_MEM_USED, &mem_id, err)) < 0)
		goto fail_quiet;
	for (i = 0; rc == 1 && i < n; i++) {
		pts.n = 0;
		if (tr_counter_read(db, s[i].track, mem_id, lo, hi, 0, &pts,
		    err) != 0)
			goto fail_quiet;
		for (k = 0; k < pts.n; k++)
			series_add(&s[i], pts.id[k], pts.ts[k], pts.v[k]);
	}
	tr_counter_pts_free(&pts);
	/* Drop the series with nothing in the window. */
	for (i = k = 0; i < n; i++) {
		if (s[i].n == 0) {
			series_release(&s[i]);
			continue;
		}
		series_sort(&s[i]);
		s[k++] = s[i];
	}
	*out = s;
	*nout = k;
	return (0);
fail:
	tr_db_error(db, err, "cannot read GPU memory");
fail_quiet:
	tr_counter_pts_free(&pts);
	series_free(s, n);
	return (-1);
}

/*
 * The snapshot profiles of 'type' of the selected sources with a time in
 * [lo, hi], and the sums of sample types 'ta' and 'tb' (NULL: none) per
 * call site of each.
 */
static int
read_snaps(struct tr_db *db, const struct tr_sel *sel, const char *type,
    const char *ta, const char *tb, int64_t lo, int64_t hi,
    struct snaps *p, struct tr_error *err)
{
	sqlite3_stmt	*st, *q;
	size_t		 k, i, j;
	int		 rc;

	memset(p, 0, sizeof *p);
	tr_imap_init(&p->idx);
	st = tr_db_prepare(db, "SELECT id, source_id, ts FROM profile "
	    "WHERE type = ?1 AND ts IS NOT NULL AND ts >= ?2 AND ts <= ?3 "
	    "ORDER BY ts, id", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_text(st, 1, type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!tr_sel_has_source(sel, sqlite3_column_int64(st, 1)))
			continue;
		p->id = tr_xrealloc(p->id, (p->n + 1) * sizeof *p->id);
		p->ts = tr_xrealloc(p->ts, (p->n + 1) * sizeof *p->ts);
		p->id[p->n] = sqlite3_column_int64(st, 0);
		p->ts[p->n] = sqlite3_column_int64(st, 2);
		p->n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read profiles"));
	if (p->n == 0)
		return (0);
	p->tot_a = tr_xcalloc(p->n, sizeof *p->tot_a);
	p->tot_b = tr_xcalloc(p->n, sizeof *p->tot_b);
	q = tr_db_prepare(db, "SELECT s.callsite_id, e.s = ?2, sum(s.value) "
	    "FROM sample s JOIN str e ON e.id = s.event_id WHERE "
	    "s.profile_id = ?1 AND s.callsite_id IS NOT NULL AND (e.s = ?2 "
	    "OR e.s = ?3) GROUP BY 1, 2", err);
	if (q == NULL)
		return (-1);
	sqlite3_bind_text(q, 2, ta, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, tb ? tb : "", -1, SQLITE_STATIC);
	for (k = 0; k < p->n; k++) {
		sqlite3_bind_int64(q, 1, p->id[k]);
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			int64_t	 cs = sqlite3_column_int64(q, 0);
			double	 v = sqlite3_column_double(q, 2);
			void	*hit = tr_imap_get(&p->idx, (uint64_t)cs);

			if (hit == NULL) {
				/* A new stack: one more row of n values. */
				p->cs = tr_xrealloc(p->cs, (p->nst + 1) *
				    sizeof *p->cs);
				p->a = tr_xrealloc(p->a, (p->nst + 1) * p->n *
				    sizeof *p->a);
				p->b = tr_xrealloc(p->b, (p->nst + 1) * p->n *
				    sizeof *p->b);
				for (j = 0; j < p->n; j++) {
					p->a[p->nst * p->n + j] = 0;
					p->b[p->nst * p->n + j] = 0;
				}
				p->cs[p->nst++] = cs;
				i = p->nst - 1;
				tr_imap_put(&p->idx, (uint64_t)cs,
				    (void *)(uintptr_t)(i + 1));
			} else
				i = (size_t)(uintptr_t)hit - 1;
			if (sqlite3_column_int(q, 1)) {
				p->a[i * p->n + k] += v;
				p->tot_a[k] += v;
			} else {
				p->b[i * p->n + k] += v;
				p->tot_b[k] += v;
			}
		}
		sqlite3_reset(q);
		if (rc != SQLITE_DONE) {
			sqlite3_finalize(q);
			return (tr_db_error(db, err, "cannot read samples"));
		}
	}
	sqlite3_finalize(q);
	return (0);
}

/* Whether a frame is the way into C (cgo). */
static int
cgo_frame(const char *f)
{
	return (strcmp(f, "runtime.cgocall") == 0 ||
	    strcmp(f, "runtime.asmcgocall") == 0 ||
	    strncmp(f, "runtime.cgocallback", 19) == 0 ||
	    strncmp(f, "_Cfunc_", 7) == 0 || strncmp(f, "_cgo_", 5) == 0 ||
	    strncmp(f, "_cgoexp_", 8) == 0 ||
	    strstr(f, "._Cfunc_") != NULL || strncmp(f, "C.", 2) == 0);
}

/*
 * A call site's stack as "leaf < caller < ..." (STACK_FRAMES frames),
 * without its leading runtime frames when 'skip', and whether any of its
 * frames goes through cgo.  Owned by the caller.
 */
static char *
stack_text(sqlite3_stmt *fr, int64_t cs, int skip, int *cgo)
{
	struct tr_buf	 b;
	int		 n = 0, depth = 0;
	char		*first = NULL;

	*cgo = 0;
	tr_buf_init(&b);
	while (cs > 0 && depth++ < 4096) {
		const char	*f;

		sqlite3_bind_int64(fr, 1, cs);
		if (sqlite3_step(fr) != SQLITE_ROW)
			break;
		cs = sqlite3_column_type(fr, 0) == SQLITE_NULL ? 0 :
		    sqlite3_column_int64(fr, 0);
		f = (const char *)sqlite3_column_text(fr, 1);
		if (cgo_frame(f))
			*cgo = 1;
		/* A goroutine's leading runtime frames: where it parked. */
		if (skip && n == 0 && strncmp(f, "runtime.", 8) == 0) {
			if (first == NULL)
				first = tr_xstrdup(f);
			sqlite3_reset(fr);
			continue;
		}
		if (n < STACK_FRAMES)
			tr_buf_printf(&b, "%s%s", n ? " < " : "", f);
		else if (n == STACK_FRAMES)
			tr_buf_adds(&b, " < ...");
		n++;
		sqlite3_reset(fr);
	}
	sqlite3_reset(fr);
	if (b.len == 0)
		tr_buf_adds(&b, first ? first : "(no frames)");
	free(first);
	return (b.data);
}

/* The series' value at 'ts': its last sample at or before (or its first). */
static double
level_at(const struct series *s, int64_t ts)
{
	size_t	lo = 0, hi = s->n, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (s->ts[mid] <= ts)
			lo = mid;
		else
			hi = mid;
	}
	return (s->v[lo]);
}

/* Pearson's r of x and y (n values); NAN when either is constant. */
static double
pearson(const double *x, const double *y, size_t n)
{
	double	mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	size_t	i;

	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx <= 0 || syy <= 0)
		return (NAN);
	return (sxy / sqrt(sxx * syy));
}

static int
cmp_int64(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

static char *
bytes(double v)
{
	return (tr_out_unit_text(TR_UNIT_BYTES, v));
}

static char *
dur(double v)
{
	return (tr_out_unit_text(TR_UNIT_NS, v));
}

/*
 * Growth, slope, steps, release and the verdict of one series.  The rules
 * in order (trace-query(1), gpu-mem): unknown (fewer than 3 samples),
 * flat (it never moved by --min-growth), sawtooth (it gave back at least
 * --release of what it took and ends within one cycle of its start),
 * flat (no net growth), unknown (growth over less than --min-span), leak
 * (at least --late-share of the growth in the second half of the span),
 * plateau (the growth came early and levelled off).
 */
static void
analyse(struct series *s, const struct opts *o)
{
	double	 mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0, x, y, d;
	double	 lo, hi, rises = 0, drops = 0, amp = 0, minb, late, mid;
	int64_t	*gaps, span, ndrops = 0;
	size_t	 i;
	char	*t1 = NULL, *t2 = NULL, *t3 = NULL, *t4 = NULL;

	s->growth = (int64_t)(s->v[s->n - 1] - s->v[0]);
	lo = hi = s->v[0];
	s->step = 0;
	s->step_ts = -1;
	for (i = 0; i < s->n; i++) {
		if (s->v[i] > hi)
			hi = s->v[i];
		if (s->v[i] < lo)
			lo = s->v[i];
		if (i == 0)
			continue;
		d = s->v[i] - s->v[i - 1];
		if (d > 0)
			rises += d;
		else if (d < 0) {
			drops -= d;
			if (-d > amp)
				amp = -d;
		}
		if (fabs(d) > fabs(s->step)) {
			s->step = d;
			s->step_ts = s->ts[i];
		}
	}
	s->peak = (int64_t)hi;
	s->released = (int64_t)(hi - s->v[s->n - 1]);
	span = s->ts[s->n - 1] - s->ts[0];
	/* The sampling interval: the median spacing. */
	s->interval = 0;
	if (s->n > 1) {
		gaps = tr_xmalloc((s->n - 1) * sizeof *gaps);
		for (i = 1; i < s->n; i++)
			gaps[i - 1] = s->ts[i] - s->ts[i - 1];
		qsort(gaps, s->n - 1, sizeof *gaps, cmp_int64);
		s->interval = gaps[(s->n - 1) / 2];
		free(gaps);
	}
	/* Least squares in minutes, about the means for precision. */
	for (i = 0; i < s->n; i++) {
		mx += (double)(s->ts[i] - s->ts[0]) / 60e9;
		my += s->v[i];
	}
	mx /= (double)s->n;
	my /= (double)s->n;
	for (i = 0; i < s->n; i++) {
		x = (double)(s->ts[i] - s->ts[0]) / 60e9 - mx;
		y = s->v[i] - my;
		sxy += x * y;
		sxx += x * x;
		syy += y * y;
	}
	s->slope = sxx > 0 ? sxy / sxx : 0;
	s->r2 = sxx > 0 && syy > 0 ? sxy * sxy / (sxx * syy) : NAN;
	minb = (double)o->min_growth * MIB;
	for (i = 1; i < s->n; i++)
		if (s->v[i - 1] - s->v[i] >= minb)
			ndrops++;
	if (s->n < 3) {
		s->verdict = "unknown";
		s->rule = tr_xasprintf("%zu sample%s: a fit needs 3", s->n,
		    s->n == 1 ? "" : "s");
		return;
	}
	if (hi - lo < minb) {
		t1 = bytes(hi - lo);
		t2 = bytes(minb);
		s->verdict = "flat";
		s->rule = tr_xasprintf("it moved within %s < --min-growth %s",
		    t1, t2);
		goto out;
	}
	if (rises >= minb && drops >= o->release / 100 * rises &&
	    (double)s->growth <= amp) {
		t1 = bytes(drops);
		t2 = bytes(rises);
		t3 = bytes(amp);
		s->verdict = "sawtooth";
		s->rule = tr_xasprintf("gave back %s of %s taken (%.0f%% >= "
		    "--release %.0f%%) in %" PRId64 " drops of --min-growth "
		    "or more, ending within one cycle (%s) of its start", t1,
		    t2, 100 * drops / rises, o->release, ndrops, t3);
		goto out;
	}
	if ((double)s->growth < minb) {
		t1 = bytes((double)s->growth);
		t2 = bytes(minb);
		s->verdict = "flat";
		s->rule = tr_xasprintf("net %s%s < --min-growth %s",
		    s->growth > 0 ? "+" : "", t1, t2);
		goto out;
	}
	t1 = bytes((double)s->growth);
	t2 = dur((double)span);
	if (span < o->min_span) {
		t3 = dur((double)o->min_span);
		s->verdict = "unknown";
		s->rule = tr_xasprintf("grew %s over %s < --min-span %s: too "
		    "short to tell a leak from a warm-up", t1, t2, t3);
		goto out;
	}
	/*
	 * The growth of the floor in the second half: from its lowest
	 * level to the end, so that a sawtooth's peak at the middle does
	 * not hide a leak under it.
	 */
	mid = s->v[s->n - 1];
	for (i = s->n; i-- > 0 && s->ts[i] >= s->ts[0] + span / 2; )
		if (s->v[i] < mid)
			mid = s->v[i];
	late = (s->v[s->n - 1] - mid) / (double)s->growth;
	t3 = bytes((double)s->released);
	if (late * 100 >= o->late) {
		t4 = dur((double)o->min_span);
		s->verdict = "leak";
		s->rule = tr_xasprintf("grew %s over %s (>= --min-span %s), "
		    "%.0f%% of it in the second half (>= --late-share %.0f%%), %s "
		    "released", t1, t2, t4, 100 * late, o->late, t3);
	} else {
		s->verdict = "plateau";
		s->rule = tr_xasprintf("grew %s over %s, only %.0f%% of it in "
		    "the second half (< --late-share %.0f%%): it levels off, "
		    "%s released", t1, t2, late > 0 ? 100 * late : 0, o->late,
		    t3);
	}
out:
	free(t1);
	free(t2);
	free(t3);
	free(t4);
}

static int
cmp_rank(const void *a, const void *b)
{
	const struct rank	*x = a, *y = b;
	double			 rx = isnan(x->r) ? -2 : x->r;
	double			 ry = isnan(y->r) ? -2 : y->r;

	if (rx != ry)
		return (rx > ry ? -1 : 1);
	if (x->d_space != y->d_space)
		return (x->d_space > y->d_space ? -1 : 1);
	return (x->st < y->st ? -1 : x->st > y->st);
}

/* The snapshots of 'p' in the series' span: [*a, *b), 0 when none. */
static size_t
span_of(const struct snaps *p, const struct series *s, size_t *a, size_t *b)
{
	size_t	i;

	*a = *b = 0;
	for (i = 0; i < p->n && p->ts[i] < s->ts[0]; i++)
		;
	*a = i;
	for (; i < p->n && p->ts[i] <= s->ts[s->n - 1]; i++)
		;
	*b = i;
	return (*b - *a);
}

/*
 * The growing heap stacks of series 's' between the first and last heap
 * profile in its span, ranked (see cmp_rank()): those that grew by at
 * least --min-share of the heap's growth, by Pearson's r of their
 * inuse_space against the GPU memory at the profiles' times.  *out is
 * owned by the caller.
 */
static size_t
rank_stacks(const struct snaps *h, const struct series *s,
    const struct opts *o, size_t a, size_t b, struct rank **out)
{
	struct rank	*r = NULL;
	double		*gpu, growth = 0, d;
	size_t		 n = 0, st, k, m = b - a;

	*out = NULL;
	gpu = tr_xmalloc(m * sizeof *gpu);
	for (k = 0; k < m; k++)
		gpu[k] = level_at(s, h->ts[a + k]);
	for (st = 0; st < h->nst; st++)
		if ((d = h->a[st * h->n + b - 1] - h->a[st * h->n + a]) > 0)
			growth += d;
	for (st = 0; st < h->nst; st++) {
		d = h->a[st * h->n + b - 1] - h->a[st * h->n + a];
		if (d <= 0 || d < o->min_share / 100 * growth)
			continue;
		r = tr_xrealloc(r, (n + 1) * sizeof *r);
		r[n].st = st;
		r[n].d_space = d;
		r[n].d_objs = h->b[st * h->n + b - 1] - h->b[st * h->n + a];
		r[n].r = pearson(&h->a[st * h->n + a], gpu, m);
		n++;
	}
	free(gpu);
	if (n > 0)
		qsort(r, n, sizeof *r, cmp_rank);
	*out = r;
	return (n);
}

static void
put_real_or_null(struct tr_out *out, double v)
{
	if (isnan(v))
		tr_out_null(out);
	else
		tr_out_real(out, v);
}

/* Round for output: r and r2 to 4 decimals, slopes to the byte. */
static double
round4(double v)
{
	return (isnan(v) ? v : round(v * 1e4) / 1e4);
}

struct ctx {
	struct tr_db	*db;
	struct tr_out	*out;
	struct opts	*o;
	struct series	*s;
	size_t		 ns;
	struct snaps	 heap, gor;
	sqlite3_stmt	*frames;
	int		 cgo_seen, heap_one, gor_one;
	int64_t		 one_id;	/* the single heap profile */
};

/* The heap_stacks cell of row 'row': JSON and its flat text. */
static void
put_heap_stacks(struct ctx *c, const struct rank *r, size_t n, size_t a,
    size_t b)
{
	json_t		*arr = json_array(), *e;
	struct tr_buf	 t;
	char		*js, *txt, *d;
	size_t		 i;
	int		 cgo;

	tr_buf_init(&t);
	for (i = 0; i < n && (int64_t)i < c->o->nstacks; i++) {
		txt = stack_text(c->frames, c->heap.cs[r[i].st], 0,
		    &cgo);
		e = json_object();
		json_object_set_new(e, "rank", json_integer((json_int_t)i + 1));
		json_object_set_new(e, "stack", json_string(txt));
		json_object_set_new(e, "inuse_space_delta",
		    json_integer((json_int_t)r[i].d_space));
		json_object_set_new(e, "inuse_objects_delta",
		    json_integer((json_int_t)r[i].d_objs));
		json_object_set_new(e, "r", isnan(r[i].r) ? json_null() :
		    json_real(round4(r[i].r)));
		json_object_set_new(e, "cgo", json_boolean(cgo));
		json_object_set_new(e, "first_profile",
		    json_integer(c->heap.id[a]));
		json_object_set_new(e, "last_profile",
		    json_integer(c->heap.id[b - 1]));
		json_array_append_new(arr, e);
		d = bytes(r[i].d_space);
		/* The flat text: the leaf, its growth and r. */
		if (strstr(txt, " < ") != NULL)
			*strstr(txt, " < ") = '\0';
		if (isnan(r[i].r))
			tr_buf_printf(&t, "%s%s +%s%s", i ? "; " : "", txt, d,
			    cgo ? " cgo" : "");
		else
			tr_buf_printf(&t, "%s%s +%s r=%.2f%s", i ? "; " : "",
			    txt, d, r[i].r, cgo ? " cgo" : "");
		free(d);
		free(txt);
	}
	js = json_dumps(arr, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(6));
	tr_out_json(c->out, js, t.data);
	free(js);
	json_decref(arr);
	tr_buf_release(&t);
}

static int
emit_rows(struct ctx *c)
{
	struct tr_out	*out = c->out;
	struct rank	*r;
	size_t		 i, a, b, nr, k, best;
	double		 d, bd;
	char		*txt, *t;
	int		 cgo;

	tr_out_set_name(out, "memory");
	tr_out_columns_of(out, TR_OUT_NCOLS(mem_cols), mem_cols);
	for (i = 0; i < c->ns; i++) {
		const struct series	*s = &c->s[i];

		tr_out_int(out, (int64_t)i + 1);
		tr_out_int(out, s->gpu);
		if (s->pid >= 0) {
			tr_out_int(out, s->pid);
			tr_out_text(out, s->process);
		} else {
			tr_out_null(out);
			tr_out_null(out);
		}
		tr_out_int(out, s->source);
		tr_out_int(out, s->ts[0]);
		tr_out_int(out, s->ts[s->n - 1]);
		tr_out_int(out, (int64_t)s->n);
		tr_out_int(out, s->interval);
		tr_out_int(out, (int64_t)s->v[0]);
		tr_out_int(out, (int64_t)s->v[s->n - 1]);
		tr_out_int(out, s->peak);
		tr_out_int(out, s->growth);
		tr_out_real(out, round(s->slope));
		put_real_or_null(out, round4(s->r2));
		tr_out_int(out, s->released);
		if (s->step_ts >= 0) {
			tr_out_int(out, (int64_t)s->step);
			tr_out_int(out, s->step_ts);
		} else {
			tr_out_null(out);
			tr_out_null(out);
		}
		tr_out_text(out, s->verdict);
		tr_out_text(out, s->rule);
		/* The Go heap over the same span. */
		tr_out_int(out, (int64_t)span_of(&c->heap, s, &a, &b));
		if (b - a >= 2) {
			tr_out_int(out, (int64_t)(c->heap.tot_a[b - 1] -
			    c->heap.tot_a[a]));
			tr_out_int(out, (int64_t)(c->heap.tot_b[b - 1] -
			    c->heap.tot_b[a]));
		} else {
			if (b - a == 1 && !c->heap_one) {
				c->heap_one = 1;
				c->one_id = c->heap.id[a];
			}
			tr_out_null(out);
			tr_out_null(out);
		}
		if (span_of(&c->gor, s, &a, &b) >= 2) {
			tr_out_int(out, (int64_t)c->gor.tot_a[a]);
			tr_out_int(out, (int64_t)c->gor.tot_a[b - 1]);
			tr_out_int(out, (int64_t)(c->gor.tot_a[b - 1] -
			    c->gor.tot_a[a]));
			/* The stack whose goroutines grew most. */
			best = 0;
			bd = 0;
			for (k = 0; k < c->gor.nst; k++) {
				d = c->gor.a[k * c->gor.n + b - 1] -
				    c->gor.a[k * c->gor.n + a];
				if (d > bd) {
					bd = d;
					best = k;
				}
			}
			if (bd > 0) {
				txt = stack_text(c->frames, c->gor.cs[best],
				    1, &cgo);
				t = tr_xasprintf("%s +%.0f", txt, bd);
				tr_out_text(out, t);
				free(t);
				free(txt);
			} else
				tr_out_null(out);
		} else {
			if (b - a == 1)
				c->gor_one = 1;
			tr_out_null(out);
			tr_out_null(out);
			tr_out_null(out);
			tr_out_null(out);
		}
		if (span_of(&c->heap, s, &a, &b) >= 2) {
			nr = rank_stacks(&c->heap, s, c->o, a, b, &r);
			put_heap_stacks(c, r, nr, a, b);
			free(r);
		} else
			tr_out_null(out);
		tr_out_end_row(out);
	}
	return (tr_out_finish(out));
}

static int
emit_steps(struct ctx *c)
{
	struct tr_out	*out = c->out;
	size_t		 i, j, k, *top;
	int64_t		 nk;

	tr_out_set_name(out, "steps");
	tr_out_columns_of(out, TR_OUT_NCOLS(step_cols), step_cols);
	for (i = 0; i < c->ns; i++) {
		const struct series	*s = &c->s[i];

		if (s->n < 2 || c->o->nsteps == 0)
			continue;
		/* The largest changes, by selection: nsteps is small. */
		nk = 0;
		top = tr_xmalloc((size_t)c->o->nsteps * sizeof *top);
		for (j = 1; j < s->n; j++) {
			double	d = fabs(s->v[j] - s->v[j - 1]);
			int64_t	p;

			if (d == 0)
				continue;
			if (nk < c->o->nsteps)
				p = nk++;
			else if (d > fabs(s->v[top[nk - 1]] -
			    s->v[top[nk - 1] - 1]))
				p = nk - 1;
			else
				continue;
			while (p > 0 && d > fabs(s->v[top[p - 1]] -
			    s->v[top[p - 1] - 1])) {
				top[p] = top[p - 1];
				p--;
			}
			top[p] = j;
		}
		for (k = 0; k < (size_t)nk; k++) {
			j = top[k];
			tr_out_int(out, (int64_t)i + 1);
			tr_out_int(out, (int64_t)k + 1);
			tr_out_int(out, s->ts[j]);
			tr_out_int(out, (int64_t)(s->v[j] - s->v[j - 1]));
			tr_out_int(out, (int64_t)s->v[j - 1]);
			tr_out_int(out, (int64_t)s->v[j]);
			tr_out_end_row(out);
		}
		free(top);
	}
	return (tr_out_finish(out));
}

static int
emit_stacks(struct ctx *c)
{
	struct tr_out	*out = c->out;
	struct rank	*r;
	size_t		 i, a, b, nr, k;
	char		*txt;
	int		 cgo;

	tr_out_set_name(out, "heap_stacks");
	tr_out_columns_of(out, TR_OUT_NCOLS(stack_cols), stack_cols);
	for (i = 0; i < c->ns; i++) {
		if (span_of(&c->heap, &c->s[i], &a, &b) < 2)
			continue;
		nr = rank_stacks(&c->heap, &c->s[i], c->o, a, b, &r);
		for (k = 0; k < nr && (int64_t)k < c->o->nstacks; k++) {
			txt = stack_text(c->frames, c->heap.cs[r[k].st], 0,
			    &cgo);
			if (cgo)
				c->cgo_seen = 1;
			tr_out_int(out, (int64_t)i + 1);
			tr_out_int(out, (int64_t)k + 1);
			tr_out_text(out, txt);
			tr_out_int(out, (int64_t)r[k].d_space);
			tr_out_int(out, (int64_t)r[k].d_objs);
			put_real_or_null(out, round4(r[k].r));
			tr_out_int(out, cgo);
			tr_out_int(out, c->heap.id[a]);
			tr_out_int(out, c->heap.id[b - 1]);
			tr_out_end_row(out);
			free(txt);
		}
		free(r);
	}
	return (tr_out_finish(out));
}

static void
ev_snaps(struct ctx *c, size_t row, const char *what,
    const struct snaps *p, const struct series *s)
{
	size_t	a, b, k;

	span_of(p, s, &a, &b);
	for (k = a; k < b; k++) {
		tr_out_int(c->out, (int64_t)row);
		tr_out_text(c->out, what);
		tr_out_text(c->out, "profile");
		tr_out_int(c->out, p->id[k]);
		tr_out_int(c->out, p->ts[k]);
		tr_out_int(c->out, (int64_t)p->tot_a[k]);
		tr_out_end_row(c->out);
	}
}

static int
emit_evidence(struct ctx *c)
{
	struct tr_out	*out = c->out;
	size_t		 i, j;

	tr_out_set_name(out, "evidence");
	tr_out_columns_of(out, TR_OUT_NCOLS(ev_cols), ev_cols);
	for (i = 0; i < c->ns; i++) {
		const struct series	*s = &c->s[i];

		for (j = 0; j < s->n; j++) {
			tr_out_int(out, (int64_t)i + 1);
			tr_out_text(out, "memory.used");
			tr_out_text(out, s->pid >= 0 ? "gpu_process" :
			    "gpu_metric");
			tr_out_int(out, s->id[j]);
			tr_out_int(out, s->ts[j]);
			tr_out_int(out, (int64_t)s->v[j]);
			tr_out_end_row(out);
		}
		ev_snaps(c, i + 1, "heap inuse_space", &c->heap, s);
		ev_snaps(c, i + 1, "goroutines", &c->gor, s);
	}
	return (tr_out_finish(out));
}

static void
notes(struct ctx *c, const struct tr_sel *sel)
{
	struct tr_buf	 b;
	size_t		 i, procs = 0, gpus = 0;
	int64_t		 pid = -1;
	int		 many = 0;

	for (i = 0; i < c->ns; i++) {
		if (c->s[i].pid < 0) {
			gpus++;
			continue;
		}
		if (procs > 0 && c->s[i].pid != pid)
			many = 1;
		pid = c->s[i].pid;
		procs++;
	}
	if (procs == 0 && sel->pid < 0)
		tr_out_note(c->out, "no per-process GPU memory (nvidia-smi "
		    "--query-compute-apps, pmon's fb, nvtop's processes): "
		    "whole-GPU rows only (memory.used), which no process or "
		    "heap stack can be held to");
	tr_buf_init(&b);
	for (i = 0; i < c->ns; i++)
		if (c->s[i].gpu < 0)
			tr_buf_printf(&b, "%s%zu", b.len ? ", " : "", i + 1);
	if (b.len > 0)
		tr_out_note(c->out, "row%s %s: on a GPU of unknown index "
		    "(gpu -1: a compute-apps log names it by uuid only; "
		    "import the GPU's --query-gpu log too)",
		    strchr(b.data, ',') ? "s" : "", b.data);
	tr_buf_release(&b);
	if (c->heap.n == 0)
		tr_out_note(c->out, "no heap profiles in the window: no heap "
		    "stacks (heap_stacks null)");
	else if (c->heap_one)
		tr_out_note(c->out, "one heap profile in a row's span "
		    "(profile %" PRId64 "): growth needs two", c->one_id);
	if (c->gor.n == 0)
		tr_out_note(c->out, "no goroutine profiles in the window: no "
		    "goroutine growth");
	else if (c->gor_one)
		tr_out_note(c->out, "one goroutine profile in a row's span: "
		    "goroutine growth needs two");
	if (c->heap.n > 0 && (many || gpus > 0))
		tr_out_note(c->out, "heap profiles name no process: the same "
		    "Go heap stands beside every row (choose with --source "
		    "and --pid)");
	if (c->cgo_seen)
		tr_out_note(c->out, "stacks marked cgo call into C: memory "
		    "the C side allocates (CUDA, Torch) is not in the Go "
		    "heap, only what Go allocates on the way");
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct opts	 o = { 64, 5000000000LL, 25, 50, 1, 5, 3, 0 };
	struct tr_arg	 opts[] = {
		{ "min-growth", 0, TR_ARG_INT, &o.min_growth, 0, 1e9, "MIB",
		    "growth below this is flat (default 64 MiB)", 0, 0 },
		{ "min-span", 0, TR_ARG_DURATION, &o.min_span, 0, 0,
		    "DURATION", "a leak grows over at least this long "
		    "(default 5s)", 0, 0 },
		{ "late-share", 0, TR_ARG_PERCENT, &o.late, 0, 100, "PCT",
		    "a leak grows this share in the second half, a plateau "
		    "less (default 25%)", 0, 0 },
		{ "release", 0, TR_ARG_PERCENT, &o.release, 0, 100, "PCT",
		    "a sawtooth gives back this share of what it takes "
		    "(default 50%)", 0, 0 },
		{ "stacks", 0, TR_ARG_INT, &o.nstacks, 0, 1000, "N",
		    "heap stacks per row (default 5)", 0, 0 },
		{ "min-share", 0, TR_ARG_PERCENT, &o.min_share, 0, 100, "PCT",
		    "rank heap stacks that grew this share of the heap's "
		    "growth (default 1%)", 0, 0 },
		{ "steps", 0, TR_ARG_INT, &o.nsteps, 0, 1000, "N",
		    "largest step changes per row (default 3)", 0, 0 },
		{ "evidence", 0, TR_ARG_FLAG, &o.evidence, 0, 0, NULL,
		    "add the counter rows and profiles behind each row",
		    0, 0 },
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_sel	 sel;
	struct tr_args	 args = {
		.name = "gpu-mem", .synopsis = "[OPTION...]",
		.about = "GPU memory per process and per GPU over the "
		    "window: growth, slope\n(bytes per minute, least squares) "
		    "with r2, the largest steps, what was\nreleased and a "
		    "verdict (leak, plateau, sawtooth, flat, unknown) with\n"
		    "the rule that fired; beside it the Go heap's growth by "
		    "allocation stack\nand the goroutine count's "
		    "(trace-query(1), gpu-mem).",
		.args = opts, .sel = &sel
	};
	struct ctx	 c;
	int64_t		 origin, woff, lo = INT64_MAX, hi = INT64_MIN;
	int		 haswall, rc;
	size_t		 i;

	memset(&c, 0, sizeof c);	/* the snaps' maps too */
	tr_sel_init(&sel, GPU_MEM_SEL);
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	if (read_series(db, &sel, &c.s, &c.ns, err) != 0)
		goto out;
	if (c.ns == 0) {
		tr_error_set(err, TR_EDATA, "gpu-mem: no GPU memory in the "
		    "store%s (memory.used of nvidia-smi, dmon, pmon or nvtop)",
		    sel.has_from || sel.has_to || sel.gpu >= 0 ||
		    sel.pid >= 0 || sel.nsources > 0 ? " selection" : "");
		goto out;
	}
	if (tr_sel_store_origin(db, &origin, &haswall, &woff, err) != 0)
		goto out;
	tr_out_set_clock(out, origin, haswall, woff);
	for (i = 0; i < c.ns; i++) {
		analyse(&c.s[i], &o);
		if (c.s[i].ts[0] < lo)
			lo = c.s[i].ts[0];
		if (c.s[i].ts[c.s[i].n - 1] > hi)
			hi = c.s[i].ts[c.s[i].n - 1];
	}
	if (read_snaps(db, &sel, TR_PROFILE_HEAP, "inuse_space",
	    "inuse_objects", lo, hi, &c.heap, err) != 0 ||
	    read_snaps(db, &sel, TR_PROFILE_GOROUTINE, "goroutine", NULL,
	    lo, hi, &c.gor, err) != 0)
		goto out;
	if ((c.frames = tr_db_prepare(db, "SELECT c.parent_id, f.name FROM "
	    "callsite c JOIN frame f ON f.id = c.frame_id WHERE c.id = ?1",
	    err)) == NULL)
		goto out;
	c.db = db;
	c.out = out;
	c.o = &o;
	if (emit_rows(&c) != 0 || emit_steps(&c) != 0 ||
	    emit_stacks(&c) != 0 || (o.evidence && emit_evidence(&c) != 0)) {
		tr_out_write_error(err);
		goto out;
	}
	notes(&c, &sel);
	rc = 0;
out:
	sqlite3_finalize(c.frames);
	series_free(c.s, c.ns);
	snaps_release(&c.heap);
	snaps_release(&c.gor);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_gpu_mem = {
	.name = "gpu-mem",
	.usage = "[OPTION...]",
	.summary = "is GPU memory leaking: verdicts, slopes, heap stacks",
	.run = run,
};
