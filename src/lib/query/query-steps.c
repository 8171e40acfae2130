/*
 * trace-query steps: training steps and their latency.  Step boundaries
 * come from a Go trace region or task (--region, --task), or else from
 * the GPU-driving goroutine's GPU waits (a step runs from the start of
 * one to the start of the next: the GPU's busy/idle cycle as the driver
 * sees it).  Latency p50/p90/p99/max, the stretches of slow steps and
 * the slowest steps, each attributed like a GPU-idle episode (attr.h).
 */
#include "config.h"
#include "query/query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "query/args.h"
#include "query/attr.h"
#include "query/sel.h"
#include "store/derived.h"

#define STEPS_SEL	(TR_SEL_SOURCE | TR_SEL_PID | TR_SEL_TID | \
			    TR_SEL_COMM | TR_SEL_GOID | TR_SEL_GPU | \
			    TR_SEL_TIME)

static const char *const sum_cols[] = {
	"boundaries", "steps", "mean_ns", "p50_ns", "p90_ns", "p99_ns",
	"max_ns", "slow_ns", "slow_steps", "stretches", "driver_goid"
};

static const char *const attr_cols[] = {
	"cause", "cause_share", "cpu_ns", "gc_ns", "sched_ns", "chan_ns",
	"sync_ns", "syscall_ns", "net_ns", "sleep_ns", "idle_ns",
	"unknown_ns", "gpu_wait_ns", "verdict"
};
#define NATTR	(int)(sizeof attr_cols / sizeof *attr_cols)

static const char *const slow_lead[] = {
	"stretch", "first_step", "last_step", "steps", "start_ns", "end_ns",
	"start", "end", "dur_ns", "p50_ns", "max_ns"
};
#define NSLOW	(int)(sizeof slow_lead / sizeof *slow_lead)

static const char *const top_lead[] = {
	"rank", "step", "start_ns", "end_ns", "start", "dur_ns"
};
#define NTOP	(int)(sizeof top_lead / sizeof *top_lead)

static const char *const all_cols[] = {
	"step", "start_ns", "end_ns", "dur_ns", "id"
};

/* The steps in time order: start, length, slice id (NULL: none). */
struct steps {
	int64_t	*ts, *dur, *id;
	size_t	 n, cap;
};

static void
steps_add(struct steps *s, int64_t ts, int64_t dur, int64_t id, int ids)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->ts = tr_xrealloc(s->ts, s->cap * sizeof *s->ts);
		s->dur = tr_xrealloc(s->dur, s->cap * sizeof *s->dur);
		if (ids)
			s->id = tr_xrealloc(s->id, s->cap * sizeof *s->id);
	}
	s->ts[s->n] = ts;
	s->dur[s->n] = dur;
	if (ids)
		s->id[s->n] = id;
	s->n++;
}

/* Room for 'more' steps (without the slice ids). */
static void
steps_reserve(struct steps *s, size_t more)
{
	if (s->n + more <= s->cap)
		return;
	s->cap = s->n + more;
	s->ts = tr_xrealloc(s->ts, s->cap * sizeof *s->ts);
	s->dur = tr_xrealloc(s->dur, s->cap * sizeof *s->dur);
}

static void
steps_release(struct steps *s)
{
	free(s->ts);
	free(s->dur);
	free(s->id);
	memset(s, 0, sizeof *s);
}

/* A step of the slowest: its time, length and index in time order. */
struct step {
	int64_t	ts, dur, id;
	size_t	idx;
};

/* The longest first; ties: the earlier. */
static int
dur_cmp(const void *x, const void *y)
{
	const struct step	*p = x, *q = y;

	if (p->dur != q->dur)
		return (p->dur > q->dur ? -1 : 1);
	return (p->idx < q->idx ? -1 : p->idx > q->idx);
}

/* A stretch of consecutive slow steps: steps first..last. */
struct stretch {
	size_t	first, last, no;
	int64_t	dur;
};

/* The longest first; ties: the earlier. */
static int
stretch_dur_cmp(const void *x, const void *y)
{
	const struct stretch	*p = x, *q = y;

	if (p->dur != q->dur)
		return (p->dur > q->dur ? -1 : 1);
	return (p->no < q->no ? -1 : p->no > q->no);
}

static int
stretch_no_cmp(const void *x, const void *y)
{
	const struct stretch	*p = x, *q = y;

	return (p->no < q->no ? -1 : p->no > q->no);
}

/*
 * The first 'cap' elements of a set in the order of 'cmp', without
 * sorting the set: a heap whose root is the last of them.
 */
struct best {
	char	*v;
	size_t	 n, cap, size;
	int	(*cmp)(const void *, const void *);
};

static void
best_init(struct best *b, size_t cap, size_t size,
    int (*cmp)(const void *, const void *))
{
	b->v = cap > 0 ? tr_xmalloc(cap * size) : NULL;
	b->n = 0;
	b->cap = cap;
	b->size = size;
	b->cmp = cmp;
}

static void
best_swap(struct best *b, size_t i, size_t j)
{
	char	 t[sizeof(struct step) > sizeof(struct stretch) ?
		    sizeof(struct step) : sizeof(struct stretch)];

	memcpy(t, b->v + i * b->size, b->size);
	memcpy(b->v + i * b->size, b->v + j * b->size, b->size);
	memcpy(b->v + j * b->size, t, b->size);
}

#define BEST_AT(b, i)	((const void *)((b)->v + (i) * (b)->size))

/* Offer *e (of b->size bytes) to the set. */
static void
best_offer(struct best *b, const void *e)
{
	size_t	i, c;

	if (b->n < b->cap) {
		i = b->n++;
		memcpy(b->v + i * b->size, e, b->size);
		for (; i > 0 && b->cmp(BEST_AT(b, (i - 1) / 2),
		    BEST_AT(b, i)) < 0; i = (i - 1) / 2)
			best_swap(b, i, (i - 1) / 2);
		return;
	}
	if (b->cap == 0 || b->cmp(e, BEST_AT(b, 0)) >= 0)
		return;
	memcpy(b->v, e, b->size);
	for (i = 0; (c = 2 * i + 1) < b->n; i = c) {
		if (c + 1 < b->n && b->cmp(BEST_AT(b, c + 1),
		    BEST_AT(b, c)) > 0)
			c++;
		if (b->cmp(BEST_AT(b, c), BEST_AT(b, i)) <= 0)
			break;
		best_swap(b, i, c);
	}
}

/* The set, sorted in 'cmp''s order. */
static void
best_sort(struct best *b, int (*cmp)(const void *, const void *))
{
	if (b->n > 1)
		qsort(b->v, b->n, b->size, cmp);
}

static int
i64_cmp(const void *x, const void *y)
{
	const int64_t	*p = x, *q = y;

	return (*p < *q ? -1 : *p > *q);
}

static void
swap64(int64_t *a, size_t i, size_t j)
{
	int64_t	t = a[i];

	a[i] = a[j];
	a[j] = t;
}

static int64_t
median3(int64_t x, int64_t y, int64_t z)
{
	if (x > y) {
		int64_t	t = x;

		x = y;
		y = t;
	}
	return (z < x ? x : z > y ? y : z);
}

/*
 * Quickselect: reorder a[0..n) so that a[k] is the (k+1)-th smallest, the
 * values before it no larger and those after no smaller (three-way
 * partitions, for the many equal lengths of a training loop's steps).
 */
static void
select_k(int64_t *a, size_t n, size_t k)
{
	size_t	lo = 0, hi = n, lt, gt, i;
	int64_t	p;

	while (hi - lo > 1) {
		p = median3(a[lo], a[lo + (hi - lo) / 2], a[hi - 1]);
		lt = lo;
		gt = hi;
		for (i = lo; i < gt;) {
			if (a[i] < p)
				swap64(a, lt++, i++);
			else if (a[i] > p)
				swap64(a, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

/* The rank of the nearest-rank percentile p of n values, from 1. */
static size_t
pctl_rank(size_t n, double p)
{
	size_t	k = (size_t)ceil(p * (double)n);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return (k);
}

/*
 * Nearest rank, the smallest value with at least p of the values: of
 * a[0..n), reordered, whose first 'done' values are the 'done' smallest
 * in order of size up to their last (a partial selection already made:
 * a rank not past it costs nothing).  Percentiles asked in increasing
 * order cost about one pass each over what is left above the last.
 */
static int64_t
pctl_sel(int64_t *a, size_t n, double p, size_t *done)
{
	size_t	k = pctl_rank(n, p);

	if (k > *done) {
		select_k(a + *done, n - *done, k - 1 - *done);
		*done = k;
	}
	return (a[k - 1]);
}

/*
 * The values of ranks k[0..nk) (from 1) of a[0..n), which is not changed
 * (nor copied, but for a fallback).  A sample of the values brackets
 * each rank between two of them; one pass counts the values below and at
 * each bracket's ends and keeps those strictly inside, where the rank is
 * then selected.  A bracket that misses its rank (or holds too many) is
 * answered by quickselect on a copy.
 */
#define RANK_SAMPLE	65536
#define RANK_MAX	3

static void
ranks(const int64_t *a, size_t n, const size_t *k, int nk, int64_t *val)
{
	int64_t	*smp, lo[RANK_MAX], hi[RANK_MAX], *in[RANK_MAX], *cp = NULL;
	size_t	 ns, i, j, m, lt[RANK_MAX], el[RANK_MAX], eh[RANK_MAX];
	size_t	 nin[RANK_MAX], cap, r, done = 0;
	int	 t, ok[RANK_MAX];

	if (n <= 4 * RANK_SAMPLE) {
		cp = tr_xmalloc(n * sizeof *cp);
		memcpy(cp, a, n * sizeof *cp);
		for (t = 0; t < nk; t++) {
			if (k[t] > done) {
				select_k(cp + done, n - done, k[t] - 1 - done);
				done = k[t];
			}
			val[t] = cp[k[t] - 1];
		}
		free(cp);
		return;
	}
	ns = RANK_SAMPLE;
	smp = tr_xmalloc(ns * sizeof *smp);
	for (i = 0; i < ns; i++)
		smp[i] = a[(size_t)((uint64_t)i * n / ns)];
	qsort(smp, ns, sizeof *smp, i64_cmp);
	/* About 8 standard deviations of a sample rank either side. */
	m = 1024;
	cap = n / 16;
	for (t = 0; t < nk; t++) {
		j = (size_t)((uint64_t)(k[t] - 1) * ns / n);
		lo[t] = j >= m ? smp[j - m] : INT64_MIN;
		hi[t] = j + m < ns ? smp[j + m] : INT64_MAX;
		lt[t] = el[t] = eh[t] = nin[t] = 0;
		in[t] = tr_xmalloc(cap * sizeof *in[t]);
		ok[t] = 1;
	}
	free(smp);
	for (i = 0; i < n; i++) {
		int64_t	x = a[i];

		for (t = 0; t < nk; t++) {
			if (x < lo[t])
				lt[t]++;
			else if (x == lo[t])
				el[t]++;
			else if (x < hi[t]) {
				if (nin[t] < cap)
					in[t][nin[t]++] = x;
				else
					ok[t] = 0;
			} else if (x == hi[t])
				eh[t]++;
		}
	}
	for (t = 0; t < nk; t++) {
		r = k[t] - 1;
		if (ok[t] && r >= lt[t] && r < lt[t] + el[t])
			val[t] = lo[t];
		else if (ok[t] && r >= lt[t] + el[t] &&
		    r < lt[t] + el[t] + nin[t]) {
			select_k(in[t], nin[t], r - lt[t] - el[t]);
			val[t] = in[t][r - lt[t] - el[t]];
		} else if (ok[t] && r >= lt[t] + el[t] + nin[t] &&
		    r < lt[t] + el[t] + nin[t] + eh[t])
			val[t] = hi[t];
		else {
			if (cp == NULL) {
				cp = tr_xmalloc(n * sizeof *cp);
				memcpy(cp, a, n * sizeof *cp);
			}
			select_k(cp, n, r);
			val[t] = cp[r];
		}
		free(in[t]);
	}
	free(cp);
}

/* Steps of several sources: in time order. */
static int
step_ts_cmp(const void *x, const void *y)
{
	const struct step	*p = x, *q = y;

	if (p->ts != q->ts)
		return (p->ts < q->ts ? -1 : 1);
	return (p->id < q->id ? -1 : p->id > q->id);
}

/*
 * The steps in time order (several sources, or the runs' order of
 * tr_derived_spans()).  The arrays are let go while qsort() sorts a copy
 * (with a copy of its own): 1.6 million steps peaked at 169 MB, 120
 * with them freed.
 */
static void
steps_sort(struct steps *s)
{
	struct step	*v = tr_xmalloc(s->n * sizeof *v);
	size_t		 i;

	for (i = 0; i < s->n; i++) {
		v[i].ts = s->ts[i];
		v[i].dur = s->dur[i];
		v[i].id = s->id[i];
	}
	free(s->ts);
	free(s->dur);
	free(s->id);
	qsort(v, s->n, sizeof *v, step_ts_cmp);
	s->cap = s->n;
	s->ts = tr_xmalloc(s->cap * sizeof *s->ts);
	s->dur = tr_xmalloc(s->cap * sizeof *s->dur);
	s->id = tr_xmalloc(s->cap * sizeof *s->id);
	for (i = 0; i < s->n; i++) {
		s->ts[i] = v[i].ts;
		s->dur[i] = v[i].dur;
		s->id[i] = v[i].id;
	}
	free(v);
}

/*
 * A span that load_spans() read of one source (tr_derived_spans(), or a
 * row of the go-task slices): a step if the selection has it, else left
 * out, counted when the trace cut it; the first in time order kept.
 */
struct lspan {
	const struct tr_sel	*sel;
	struct steps		*out;
	int64_t			*ncut;
	int64_t			 first_ts, first_id, first_goid;
};

static int
lspan_add(void *arg, const struct tr_derived_span *p, struct tr_error *err)
{
	struct lspan	*l = arg;
	/* (A span without a goroutine reads as 0, as SQL's NULL does.) */
	int64_t		 g = p->goid < 0 ? 0 : p->goid;

	(void)err;
	if ((l->sel->has_to && p->ts > l->sel->to) ||
	    !tr_sel_overlaps(l->sel, p->ts, p->ts + p->dur) ||
	    (l->sel->goid >= 0 && g != l->sel->goid))
		return (0);
	if (p->start_unknown || p->unfinished) {
		(*l->ncut)++;
		return (0);
	}
	steps_add(l->out, p->ts, p->dur, p->id, 1);
	if (l->first_id < 0 || p->ts < l->first_ts ||
	    (p->ts == l->first_ts && p->id < l->first_id)) {
		l->first_ts = p->ts;
		l->first_id = p->id;
		l->first_goid = g;
	}
	return (0);
}

/*
 * The regions or tasks named 'name' of the Go sources, in time order:
 * the go_span view's rows (trace-store(5)), read from the go-task tracks'
 * runs by tr_derived_spans() (the view, which expands every slice of them
 * with SQL's JSON functions, took 6.9 s for 1.6 million regions, where
 * the go_span table it replaced took 2.9 s), or through the go-task
 * slices for a source without derived rows (TRACEKIT_NO_DERIVED).  Those
 * the trace cut (begun before it, unfinished at its end) are left out and
 * counted in *ncut.
 */
static int
load_spans(struct tr_db *db, const struct tr_sel *sel, const char *name,
    int task, struct steps *out, int64_t *goid, int64_t *gsrc,
    int64_t *ncut, struct tr_error *err)
{
	static const char slices[] =
	    "SELECT s.id, s.ts, s.dur, json_extract(s.args, '$.goid'),\n"
	    "       coalesce(json_extract(s.args, '$.start_unknown'), 0) OR\n"
	    "       coalesce(json_extract(s.args, '$.unfinished'), 0)\n"
	    "  FROM track t CROSS JOIN slice s ON s.track_id = t.id\n"
	    " WHERE t.kind = '" TR_TRACK_GO_TASK "' AND t.source_id = ?2\n"
	    "   AND s.name_id = ?1 AND s.ts <= ?4\n"
	    "   AND s.category_id = (SELECT id FROM str WHERE s = ?3)\n"
	    " ORDER BY s.ts, s.id";
	struct lspan		 l;
	struct tr_derived_span	 q;
	sqlite3_stmt		*st = NULL;
	int64_t			*src = NULL, name_id = -1, has;
	int			 nsrc, k, rc = SQLITE_DONE, r = -1, found;
	int			 sorted = 1;

	*goid = -1;
	*ncut = 0;
	if ((nsrc = tr_derived_sources(db, &src, err)) < 0 ||
	    (found = tr_db_str_id(db, name, &name_id, err)) < 0)
		goto out;
	for (k = 0; k < nsrc && found > 0; k++) {
		if (sel->nsources > 0 && !tr_sel_has_source(sel, src[k]))
			continue;
		if ((has = tr_derived_present(db, src[k], err)) < 0)
			goto out;
		l.sel = sel;
		l.out = out;
		l.ncut = ncut;
		l.first_ts = 0;
		l.first_id = l.first_goid = -1;
		if (has) {
			if (tr_derived_spans(db, src[k], task, name_id,
			    lspan_add, &l, err) != 0)
				goto out;
			sorted = 0;
		} else {
			if ((st = tr_db_prepare(db, slices, err)) == NULL)
				goto out;
			sqlite3_bind_int64(st, 1, name_id);
			sqlite3_bind_int64(st, 2, src[k]);
			sqlite3_bind_text(st, 3, task ? TR_GO_CAT_TASK :
			    TR_GO_CAT_REGION, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 4, sel->has_to ? sel->to :
			    INT64_MAX);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				q.id = sqlite3_column_int64(st, 0);
				q.ts = sqlite3_column_int64(st, 1);
				q.dur = sqlite3_column_int64(st, 2);
				q.goid = sqlite3_column_int64(st, 3);
				q.start_unknown = sqlite3_column_int(st, 4);
				q.unfinished = 0;
				(void)lspan_add(&l, &q, err);
			}
			sqlite3_finalize(st);
			st = NULL;
			if (rc != SQLITE_DONE) {
				tr_db_error(db, err, "reading regions");
				goto out;
			}
		}
		if (*goid < 0 && l.first_id >= 0) {
			*goid = l.first_goid;
			*gsrc = src[k];
		}
	}
	if ((nsrc > 1 || !sorted) && out->n > 1)
		steps_sort(out);
	r = 0;
out:
	sqlite3_finalize(st);
	free(src);
	return (r);
}

/* The reading of go_span_pack: the selection, the steps, the first. */
struct packed {
	const struct tr_sel	*sel;
	struct steps		*out;
	int64_t			*ncut;
	int64_t			 first_dur;	/* -1: none yet */
	int64_t			 first_goid;	/* -1: none */
};

static int
pack_chunk(void *arg, const int64_t *ts, const int64_t *dur,
    const int64_t *goid, const unsigned char *cut, size_t n,
    struct tr_error *err)
{
	struct packed	*p = arg;
	size_t		 i;

	(void)err;
	/* A chunk the selection takes whole. */
	if (cut == NULL && !p->sel->has_from && !p->sel->has_to &&
	    p->sel->goid < 0) {
		if (p->first_dur < 0 && n > 0) {
			p->first_dur = dur[0];
			p->first_goid = goid[0];
		}
		steps_reserve(p->out, n);
		memcpy(p->out->ts + p->out->n, ts, n * sizeof *ts);
		memcpy(p->out->dur + p->out->n, dur, n * sizeof *dur);
		p->out->n += n;
		return (0);
	}
	for (i = 0; i < n; i++) {
		if ((p->sel->has_to && ts[i] > p->sel->to) ||
		    !tr_sel_overlaps(p->sel, ts[i], ts[i] + dur[i]))
			continue;
		/* (A NULL goid reads as 0 from go_span: load_spans().) */
		if (p->sel->goid >= 0 &&
		    (goid[i] < 0 ? 0 : goid[i]) != p->sel->goid)
			continue;
		if (cut != NULL && cut[i]) {
			(*p->ncut)++;
			continue;
		}
		if (p->first_dur < 0) {
			p->first_dur = dur[i];
			p->first_goid = goid[i];
		}
		steps_add(p->out, ts[i], dur[i], -1, 0);
	}
	return (0);
}

/*
 * The integer of 'sql' with ?1 'source_id', ?2 'kind', ?3 'name_id' and
 * ?4... the 'nmore' values of 'more' (tr_db_step_int()).
 */
static int
name_int(struct tr_db *db, const char *sql, int64_t source_id,
    const char *kind, int64_t name_id, const int64_t *more, int nmore,
    int64_t *val, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 r, i;

	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, source_id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, name_id);
	for (i = 0; i < nmore; i++)
		sqlite3_bind_int64(st, 4 + i, more[i]);
	r = tr_db_step_int(db, st, val, err);
	sqlite3_finalize(st);
	return (r);
}

/*
 * load_spans() from go_span_pack, without the slice ids (for all but
 * --all and steps of several sources, when every source selected has
 * derived rows; --goroutine from the pack's goroutines since schema
 * version 9): 1 when it read them, 0 when load_spans() must, or -1 with
 * 'err' set.  TRACEKIT_NO_PACK=1 in the environment: always 0 (for the
 * tests, which compare the two).
 */
static int
load_packed(struct tr_db *db, const struct tr_sel *sel, const char *name,
    int task, struct steps *out, int64_t *goid, int64_t *gsrc,
    int64_t *ncut, struct tr_error *err)
{
	const char	*kind = task ? TR_GO_CAT_TASK : TR_GO_CAT_REGION;
	const char	*e = getenv("TRACEKIT_NO_PACK");
	struct packed	 p;
	int64_t		*src = NULL, name_id = -1, has, one = -1;
	int		 nsrc, k, r = -1, found;

	*goid = -1;
	*ncut = 0;
	if (e != NULL && strcmp(e, "1") == 0)
		return (0);
	if ((nsrc = tr_derived_sources(db, &src, err)) < 0 ||
	    (found = tr_db_str_id(db, name, &name_id, err)) < 0)
		goto out;
	r = 0;
	if (found == 0)
		goto out;
	/* One source with the spans, the others without (and derived). */
	for (k = 0; k < nsrc; k++) {
		if (sel->nsources > 0 && !tr_sel_has_source(sel, src[k]))
			continue;
		r = -1;
		if ((has = tr_derived_present(db, src[k], err)) < 0)
			goto out;
		r = 0;
		if (!has)
			goto out;
		if ((r = name_int(db, "SELECT EXISTS (SELECT 1 FROM "
		    "go_span_pack WHERE source_id = ?1 AND kind = ?2 AND "
		    "name_id = ?3)", src[k], kind, name_id, NULL, 0, &has,
		    err)) < 0)
			goto out;
		r = 0;
		if (has && one >= 0)
			goto out;
		if (has)
			one = src[k];
	}
	if (one < 0)
		goto out;
	/* Room for them all at once. */
	if ((r = name_int(db, "SELECT sum(n) FROM go_span_pack WHERE "
	    "source_id = ?1 AND kind = ?2 AND name_id = ?3", one, kind,
	    name_id, NULL, 0, &has, err)) < 0)
		goto out;
	if (!sel->has_from && !sel->has_to && has > 0)
		steps_reserve(out, (size_t)has);
	memset(&p, 0, sizeof p);
	p.sel = sel;
	p.out = out;
	p.ncut = ncut;
	p.first_dur = -1;
	if ((r = tr_derived_pack_read(db, one, kind, name_id, sel->has_from ?
	    sel->from : INT64_MIN, sel->has_to ? sel->to : INT64_MAX,
	    pack_chunk, &p, err)) <= 0)
		goto out;
	/* The goroutine of the first (0 for none, as load_spans() has it). */
	if (p.first_dur >= 0)
		*goid = p.first_goid < 0 ? 0 : p.first_goid;
	*gsrc = one;
	r = 1;
out:
	free(src);
	return (r);
}

/* The results of a set, kept for its evidence. */
struct kept {
	struct tr_attr_result	*v;
	size_t			 n;
};

static void
kept_release(struct kept *k)
{
	size_t	i;

	for (i = 0; i < k->n; i++)
		tr_attr_result_release(&k->v[i]);
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

/* Keep *r (with 'evidence'; else release it); *r is then empty. */
static void
keep(struct kept *k, struct tr_attr_result *r, int evidence)
{
	if (!evidence) {
		tr_attr_result_release(r);
		return;
	}
	k->v = tr_xrealloc(k->v, (k->n + 1) * sizeof *k->v);
	k->v[k->n++] = *r;
	memset(r, 0, sizeof *r);
}

/* The set 'name' of the evidence of the kept results, keyed 1, 2... */
static int
put_evidence(struct tr_out *out, const char *name, const char *key,
    struct kept *k)
{
	size_t	i;

	tr_attr_evidence_columns(out, name, key);
	for (i = 0; i < k->n; i++)
		tr_attr_evidence_rows(out, (int64_t)i + 1, &k->v[i]);
	kept_release(k);
	return (tr_out_finish(out));
}

static void
put_attr(struct tr_out *out, const struct tr_attr_result *r)
{
	int	c;

	tr_out_text(out, tr_cause_names[r->cause]);
	tr_out_real(out, r->share);
	for (c = 0; c < TR_NCAUSES; c++)
		tr_out_int(out, r->cause_ns[c]);
	tr_out_int(out, r->gpu_wait_ns);
	tr_out_text(out, r->verdict);
}

static void
attr_units(struct tr_out *out, int first)
{
	int	c;

	tr_out_column_unit(out, first + 1, TR_UNIT_SHARE);
	for (c = 0; c <= TR_NCAUSES; c++)
		tr_out_column_unit(out, first + 2 + c, TR_UNIT_NS);
}

static void
iso(struct tr_out *out, struct tr_attr *a, int64_t ts)
{
	char	*t = tr_attr_iso(a, ts);

	if (t != NULL)
		tr_out_text(out, t);
	else
		tr_out_null(out);
	free(t);
}

static void
columns(struct tr_out *out, const char *const *lead, int nlead)
{
	const char	*names[32];
	int		 i;

	for (i = 0; i < nlead; i++)
		names[i] = lead[i];
	for (i = 0; i < NATTR; i++)
		names[nlead + i] = attr_cols[i];
	tr_out_columns(out, nlead + NATTR, names);
}

/* --region and --task: not both.  'arg': the two options' values. */
static int
check_bounds(void *arg, struct tr_error *err)
{
	const char	***v = arg;

	if (*v[0] != NULL && *v[1] != NULL)
		return (tr_error_set(err, TR_EUSAGE, "steps: give --region or "
		    "--task, not both"));
	return (0);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	const char		*region = NULL, *task = NULL, **bounds[2];
	struct tr_attr_episode_args ea;
	double			 slow = 2;
	int64_t			 top = 5, maxst = 20, goid = -1, gsrc = -1, dgoid, ncut;
	int			 all = 0;
	struct tr_arg		 opts[10] = {
		{ "region", 0, TR_ARG_STRING, &region, 0, 0, "NAME",
		    "a step is each Go trace region of this name", 0, 0 },
		{ "task", 0, TR_ARG_STRING, &task, 0, 0, "NAME",
		    "a step is each Go trace task of this name", 0, 0 },
		{ "top", 0, TR_ARG_INT, &top, 0, 1000, "N",
		    "attribute the N slowest steps (default 5)", 0, 0 },
		{ "stretches", 0, TR_ARG_INT, &maxst, 0, 100000, "N",
		    "attribute the N longest slow stretches (default 20)",
		    0, 0 },
		{ "slow", 0, TR_ARG_REAL, &slow, 1, 1000, "FACTOR",
		    "a step is slow above FACTOR times the median "
		    "(default 2)", 0, 0 },
		/*
		 * [5], [6], [7]: --threshold, --driver, --evidence
		 * (tr_attr_episode_opts())
		 */
		[8] = { "all", 0, TR_ARG_FLAG, &all, 0, 0, NULL,
		    "list every step too", 0, 0 },
	};
	struct tr_sel		 sel;
	struct tr_args		 args;
	struct tr_attr		*a = NULL;
	struct tr_attr_driver	 drv;
	struct tr_attr_result	 r;
	struct kept		 kept;
	struct steps		 v;
	struct best		 bst, btop;
	struct stretch		 cur;
	struct step		 one;
	int64_t			*ts = NULL, p50 = 0, limit, mx, pv[3];
	size_t			 n = 0, nts = 0, i, k, nslow = 0, nstretch = 0;
	size_t			 gi = (size_t)-1, rk[3];
	const char		*bound;
	int64_t			 origin, woff;
	int			 haswall, rc = -1;

	tr_attr_episode_args_init(&ea);
	tr_attr_episode_opts(&ea, TR_ATTR_EPISODE_THRESHOLD |
	    TR_ATTR_EPISODE_DRIVER | TR_ATTR_EPISODE_EVIDENCE, &opts[5]);
	memset(&drv, 0, sizeof drv);
	memset(&r, 0, sizeof r);
	memset(&kept, 0, sizeof kept);
	memset(&v, 0, sizeof v);
	memset(&bst, 0, sizeof bst);
	memset(&btop, 0, sizeof btop);
	tr_sel_init(&sel, STEPS_SEL);
	memset(&args, 0, sizeof args);
	args.name = "steps";
	args.synopsis = "[OPTION...]";
	args.about = "Training steps and their latency: p50, p90, p99 and "
	    "max, the stretches\nof slow steps and the slowest steps, each "
	    "attributed like a GPU-idle\nepisode (trace-query(1), steps).";
	args.args = opts;
	args.sel = &sel;
	args.max_pos = 0;
	bounds[0] = &region;
	bounds[1] = &task;
	args.check = check_bounds;
	args.check_arg = bounds;
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	if ((a = tr_attr_open(db, &sel, err)) == NULL)
		goto out;
	tr_attr_clock(a, &origin, &haswall, &woff);
	tr_out_set_clock(out, origin, haswall, woff);
	for (i = 0; i < tr_attr_nwarnings(a); i++)
		tr_out_note(out, "%s", tr_attr_warning(a, i));
	if (!tr_attr_has_go(a) && tr_attr_go_apart(a) >= 0) {
		tr_error_set(err, TR_EDATA, "steps: the Go trace (source "
		    "%lld) does not overlap the GPU telemetry: no step "
		    "boundaries", (long long)tr_attr_go_apart(a));
		goto out;
	}
	if (!tr_attr_has_go(a)) {
		tr_error_set(err, TR_EDATA, "steps: no Go trace in the store: "
		    "no step boundaries");
		goto out;
	}
	if (tr_attr_named_driver(a, &sel, &ea, out, &dgoid, err) != 0)
		goto out;
	if (tr_attr_ngpus(a) > 0) {
		gi = 0;
		if (tr_attr_find_driver(a, gi, dgoid, ea.threshold, &drv,
		    err) != 0)
			goto out;
	}
	if (region != NULL || task != NULL) {
		bound = region != NULL ? "region" : "task";
		if (!all && (rc = load_packed(db, &sel, region != NULL ?
		    region : task, task != NULL, &v, &goid, &gsrc, &ncut,
		    err)) < 0)
			goto out;
		if ((all || rc == 0) && load_spans(db, &sel, region != NULL ?
		    region : task, task != NULL, &v, &goid, &gsrc, &ncut,
		    err) != 0)
			goto out;
		rc = -1;
		n = v.n;
		if (ncut > 0)
			tr_out_note(out, "steps: %lld %s%s '%s' cut by the "
			    "trace's edges (begun before it or unfinished at "
			    "its end) left out", (long long)ncut, bound,
			    ncut > 1 ? "s" : "", region != NULL ? region :
			    task);
		if (n == 0) {
			tr_error_set(err, TR_EDATA, "steps: no %s '%s' in the "
			    "Go trace%s", bound, region != NULL ? region :
			    task, sel.has_from || sel.has_to || sel.goid >= 0 ?
			    " selection" : "");
			goto out;
		}
		/*
		 * Without GPU telemetry the regions' goroutine drives, in
		 * the Go trace of the regions.
		 */
		if (!drv.found && goid >= 0) {
			tr_attr_driver_release(&drv);
			if (tr_attr_use_go(a, gsrc, err) != 0)
				goto out;
			if (tr_attr_driver_given(a, dgoid >= 0 ? dgoid : goid,
			    &drv, err) != 0)
				goto out;
		}
	} else {
		bound = "gpu-wait";
		if (!drv.found) {
			tr_error_set(err, TR_EDATA, "steps: no step boundaries: "
			    "%s; give --region or --task",
			    tr_attr_ngpus(a) == 0 ? "no GPU telemetry to find "
			    "the GPU-driving goroutine" : "no GPU-driving "
			    "goroutine found");
			goto out;
		}
		if (tr_attr_gpu_waits(a, &drv, sel.has_from ? sel.from :
		    INT64_MIN / 2, sel.has_to ? sel.to : INT64_MAX / 2, &ts,
		    &nts, err) != 0)
			goto out;
		if (nts < 2) {
			tr_error_set(err, TR_EDATA, "steps: the driver, "
			    "goroutine %lld, waited on the GPU %zu times: "
			    "no steps", (long long)drv.goid, nts);
			goto out;
		}
		for (i = 0; i + 1 < nts; i++)
			steps_add(&v, ts[i], ts[i + 1] - ts[i], -1, 0);
		n = v.n;
		tr_out_note(out, "steps from the GPU waits of goroutine %lld "
		    "(%s): each from the start of one to the start of the "
		    "next", (long long)drv.goid, drv.wait_stack);
	}
	/* The percentiles: selections, not a sort (nor a copy). */
	rk[0] = pctl_rank(n, 0.5);
	rk[1] = pctl_rank(n, 0.9);
	rk[2] = pctl_rank(n, 0.99);
	ranks(v.dur, n, rk, 3, pv);
	p50 = pv[0];
	limit = (int64_t)((double)p50 * slow);

	/*
	 * One pass: the slow steps, their stretches (past --stretches only
	 * the longest are kept) and the slowest steps (--top).
	 */
	best_init(&bst, (size_t)maxst, sizeof(struct stretch),
	    stretch_dur_cmp);
	best_init(&btop, (size_t)top, sizeof(struct step), dur_cmp);
	memset(&one, 0, sizeof one);
	mx = v.dur[0];
	for (i = 0; i < n; i++) {
		if (v.dur[i] > mx)
			mx = v.dur[i];
		/* Past a full heap's last, only a longer step gets in. */
		if (btop.cap > 0 && (btop.n < btop.cap || v.dur[i] >
		    ((const struct step *)(const void *)btop.v)->dur)) {
			one.ts = v.ts[i];
			one.dur = v.dur[i];
			one.idx = i;
			best_offer(&btop, &one);
		}
		if (v.dur[i] <= limit)
			continue;
		nslow++;
		if (i == 0 || v.dur[i - 1] <= limit)
			cur.first = i;
		if (i + 1 == n || v.dur[i + 1] <= limit) {
			cur.last = i;
			cur.dur = v.ts[i] + v.dur[i] - v.ts[cur.first];
			cur.no = nstretch++;
			best_offer(&bst, &cur);
		}
	}

	/* The summary. */
	{
		double	mean = 0;

		for (i = 0; i < n; i++)
			mean += (double)v.dur[i];
		mean /= (double)n;
		tr_out_set_name(out, "summary");
		tr_out_columns(out, 11, sum_cols);
		for (k = 2; k <= 7; k++)
			tr_out_column_unit(out, (int)k, TR_UNIT_NS);
		tr_out_text(out, bound);
		tr_out_int(out, (int64_t)n);
		tr_out_int(out, (int64_t)llround(mean));
		tr_out_int(out, p50);
		tr_out_int(out, pv[1]);
		tr_out_int(out, pv[2]);
		tr_out_int(out, mx);
		tr_out_int(out, limit);
		tr_out_int(out, (int64_t)nslow);
		tr_out_int(out, (int64_t)nstretch);
		if (drv.found)
			tr_out_int(out, drv.goid);
		else
			tr_out_null(out);
		tr_out_end_row(out);
		if (tr_out_finish_err(out, err) != 0)
			goto out;
	}

	/* The stretches of slow steps, each attributed as a whole. */
	tr_out_set_name(out, "slow");
	columns(out, slow_lead, NSLOW);
	tr_out_column_unit(out, 4, TR_UNIT_TS);
	tr_out_column_unit(out, 5, TR_UNIT_TS);
	for (k = 8; k <= 10; k++)
		tr_out_column_unit(out, (int)k, TR_UNIT_NS);
	attr_units(out, NSLOW);
	/* The stretches; past --stretches, only the longest are shown. */
	best_sort(&bst, stretch_no_cmp);
	if ((int64_t)nstretch > maxst)
		tr_out_note(out, "steps: the %lld longest of %zu stretches of "
		    "slow steps (--stretches)", (long long)maxst, nstretch);
	for (k = 0; k < bst.n; k++) {
		const struct stretch	*sk = (const void *)(bst.v + k *
		    sizeof(struct stretch));
		size_t			 j = sk->last, m, dn = 0;
		int64_t			*d, lo, hi;

		i = sk->first;
		lo = v.ts[i];
		hi = v.ts[j] + v.dur[j];
		d = tr_xmalloc((j - i + 1) * sizeof *d);
		memcpy(d, v.dur + i, (j - i + 1) * sizeof *d);
		mx = 0;
		for (m = i; m <= j; m++)
			if (v.dur[m] > mx)
				mx = v.dur[m];
		/* Windows only (gc, trace-flame --during): no attribution. */
		if (!tr_out_windows_only(out) && tr_attr_window(a, &drv, gi,
		    lo, hi, ea.evidence, &r, err) != 0) {
			free(d);
			goto out;
		}
		tr_out_int(out, (int64_t)sk->no + 1);
		tr_out_int(out, (int64_t)i + 1);
		tr_out_int(out, (int64_t)j + 1);
		tr_out_int(out, (int64_t)(j - i + 1));
		tr_out_int(out, lo);
		tr_out_int(out, hi);
		iso(out, a, lo);
		iso(out, a, hi);
		tr_out_int(out, hi - lo);
		tr_out_int(out, pctl_sel(d, j - i + 1, 0.5, &dn));
		tr_out_int(out, mx);
		if (tr_out_windows_only(out)) {
			for (m = 0; m < (size_t)NATTR; m++)
				tr_out_null(out);
		} else {
			put_attr(out, &r);
			keep(&kept, &r, ea.evidence);
		}
		tr_out_end_row(out);
		free(d);
	}
	if (tr_out_finish(out) != 0 || (ea.evidence &&
	    put_evidence(out, "slow_evidence", "stretch", &kept) != 0)) {
		tr_out_write_error(err);
		goto out;
	}

	/* The slowest steps, one by one. */
	best_sort(&btop, dur_cmp);
	tr_out_set_name(out, "slowest");
	columns(out, top_lead, NTOP);
	tr_out_column_unit(out, 2, TR_UNIT_TS);
	tr_out_column_unit(out, 3, TR_UNIT_TS);
	tr_out_column_unit(out, 5, TR_UNIT_NS);
	attr_units(out, NTOP);
	for (i = 0; i < btop.n && !tr_out_windows_only(out); i++) {
		const struct step	*b = (const void *)(btop.v + i *
		    sizeof(struct step));

		if (tr_attr_window(a, &drv, gi, b->ts, b->ts + b->dur,
		    ea.evidence, &r, err) != 0)
			goto out;
		tr_out_int(out, (int64_t)i + 1);
		tr_out_int(out, (int64_t)b->idx + 1);
		tr_out_int(out, b->ts);
		tr_out_int(out, b->ts + b->dur);
		iso(out, a, b->ts);
		tr_out_int(out, b->dur);
		put_attr(out, &r);
		tr_out_end_row(out);
		keep(&kept, &r, ea.evidence);
	}
	if (tr_out_finish(out) != 0 || (ea.evidence &&
	    put_evidence(out, "slowest_evidence", "rank", &kept) != 0)) {
		tr_out_write_error(err);
		goto out;
	}

	if (all) {
		tr_out_set_name(out, "steps");
		tr_out_columns(out, 5, all_cols);
		tr_out_column_unit(out, 1, TR_UNIT_TS);
		tr_out_column_unit(out, 2, TR_UNIT_TS);
		tr_out_column_unit(out, 3, TR_UNIT_NS);
		for (i = 0; i < n; i++) {
			tr_out_int(out, (int64_t)i + 1);
			tr_out_int(out, v.ts[i]);
			tr_out_int(out, v.ts[i] + v.dur[i]);
			tr_out_int(out, v.dur[i]);
			if (v.id != NULL)
				tr_out_int(out, v.id[i]);
			else
				tr_out_null(out);
			tr_out_end_row(out);
		}
		if (tr_out_finish_err(out, err) != 0)
			goto out;
	}
	rc = 0;
out:
	tr_attr_result_release(&r);
	kept_release(&kept);
	steps_release(&v);
	free(bst.v);
	free(btop.v);
	free(ts);
	tr_attr_driver_release(&drv);
	tr_attr_free(a);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_steps = {
	.name = "steps",
	.usage = "[OPTION...]",
	.summary = "training steps: latency percentiles, slow steps, causes",
	.run = run,
	.windows = "slow",
};
