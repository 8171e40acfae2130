/*
 * Shared pieces of the Go runtime queries: which Go traces a selection
 * takes, percentiles, and the mutator utilisation behind gc's MMU.
 */
#include "config.h"
#include "query/goruntime.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/derived.h"

int
tr_gort_sources(struct tr_db *db, const struct tr_sel *sel,
    const char *query, const char *what, const char *pprof, int64_t **ids,
    struct tr_error *err)
{
	int64_t	*all = NULL;
	int	 n, i, k = 0;

	*ids = NULL;
	if ((n = tr_derived_sources(db, &all, err)) < 0)
		return (-1);
	for (i = 0; i < n; i++)
		if (tr_sel_has_source(sel, all[i]))
			all[k++] = all[i];
	if (k == 0) {
		free(all);
		return (tr_error_set(err, TR_EDATA, "%s: no Go execution "
		    "trace in the store%s; %s%s%s", query,
		    sel->nsources > 0 ? " selection" : "", what,
		    pprof != NULL ? "; from pprof alone: " : "",
		    pprof != NULL ? pprof : ""));
	}
	*ids = all;
	return (k);
}

int
tr_gort_span(struct tr_db *db, const struct tr_sel *sel, int64_t source_id,
    int64_t *lo, int64_t *hi, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 r;

	*lo = *hi = 0;
	if ((st = tr_db_prepare(db, "SELECT ts_min, ts_max FROM source "
	    "WHERE id = ?1", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, source_id);
	if ((r = sqlite3_step(st)) == SQLITE_ROW) {
		*lo = sqlite3_column_int64(st, 0);
		*hi = sqlite3_column_int64(st, 1) + 1;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read the source"));
	if (sel->has_from && sel->from > *lo)
		*lo = sel->from;
	if (sel->has_to && sel->to < *hi)
		*hi = sel->to;
	if (*hi < *lo)
		*hi = *lo;
	return (0);
}

char *
tr_gort_col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char	*t = sqlite3_column_text(st, i);

	return (t != NULL ? tr_xstrdup((const char *)t) : NULL);
}

const char *
tr_gort_name(const char *fn)
{
	return (fn != NULL && *fn ? fn : TR_GORT_NAMELESS);
}

static int
cmp_i64(const void *a, const void *b)
{
	const int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

void
tr_gort_sort(int64_t *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_i64);
}

int64_t
tr_gort_pct(const int64_t *v, size_t n, double p)
{
	size_t	k;

	if (n == 0)
		return (0);
	/* The rank ceil(p * n), computed without rounding 0.99 * 100 up. */
	k = (size_t)(p * (double)n - 1e-9);
	if ((double)k < p * (double)n - 1e-9)
		k++;
	if (k == 0)
		k = 1;
	if (k > n)
		k = n;
	return (v[k - 1]);
}

/* --- mutator utilisation ------------------------------------------- */

void
tr_gort_util_init(struct tr_gort_util *u)
{
	memset(u, 0, sizeof *u);
}

void
tr_gort_util_release(struct tr_gort_util *u)
{
	free(u->ts);
	free(u->u);
	free(u->f);
	free(u->ev);
	tr_gort_util_init(u);
}

static void
add_ev(struct tr_gort_util *u, int64_t ts, double dgc, int dstw,
    int64_t procs)
{
	struct tr_gort_ev	*e;

	if (u->nev == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 256;
		u->ev = tr_xrealloc(u->ev, u->cap * sizeof *u->ev);
	}
	e = &u->ev[u->nev++];
	e->ts = ts;
	e->dgc = dgc;
	e->dstw = dstw;
	e->procs = procs;
}

void
tr_gort_util_gc(struct tr_gort_util *u, int64_t ts, int64_t end)
{
	if (end <= ts)
		return;
	add_ev(u, ts, 1, 0, 0);
	add_ev(u, end, -1, 0, 0);
}

void
tr_gort_util_stw(struct tr_gort_util *u, int64_t ts, int64_t end)
{
	if (end <= ts)
		return;
	add_ev(u, ts, 0, 1, 0);
	add_ev(u, end, 0, -1, 0);
}

void
tr_gort_util_procs(struct tr_gort_util *u, int64_t ts, int64_t procs)
{
	if (procs > 0)
		add_ev(u, ts, 0, 0, procs);
}

static int
cmp_ev(const void *a, const void *b)
{
	const struct tr_gort_ev	*x = a, *y = b;

	return (x->ts < y->ts ? -1 : x->ts > y->ts);
}

static double
util_of(double gc, int stw, int64_t procs)
{
	double	v;

	if (stw > 0)
		return (0);
	v = 1 - gc / (double)(procs > 0 ? procs : 1);
	return (v < 0 ? 0 : v > 1 ? 1 : v);
}

void
tr_gort_util_build(struct tr_gort_util *u, int64_t lo, int64_t hi)
{
	double	gc = 0;
	int	stw = 0;
	int64_t	procs = 0;
	size_t	i, n = 0;

	u->lo = lo;
	u->hi = hi;
	if (u->nev > 1)
		qsort(u->ev, u->nev, sizeof *u->ev, cmp_ev);
	/* GOMAXPROCS before its first event is its first value. */
	for (i = 0; i < u->nev && procs == 0; i++)
		procs = u->ev[i].procs;
	u->ts = tr_xcalloc(u->nev + 2, sizeof *u->ts);
	u->u = tr_xcalloc(u->nev + 2, sizeof *u->u);
	u->f = tr_xcalloc(u->nev + 2, sizeof *u->f);
	i = 0;
	/* What is on at lo. */
	for (; i < u->nev && u->ev[i].ts <= lo; i++) {
		gc += u->ev[i].dgc;
		stw += u->ev[i].dstw;
		if (u->ev[i].procs > 0)
			procs = u->ev[i].procs;
	}
	u->ts[n] = lo;
	u->u[n] = util_of(gc, stw, procs);
	u->f[n] = 0;
	n++;
	while (i < u->nev && u->ev[i].ts < hi) {
		int64_t	t = u->ev[i].ts;

		for (; i < u->nev && u->ev[i].ts == t; i++) {
			gc += u->ev[i].dgc;
			stw += u->ev[i].dstw;
			if (u->ev[i].procs > 0)
				procs = u->ev[i].procs;
		}
		u->ts[n] = t;
		u->u[n] = util_of(gc, stw, procs);
		u->f[n] = u->f[n - 1] + u->u[n - 1] *
		    (double)(t - u->ts[n - 1]);
		n++;
	}
	u->ts[n] = hi;
	u->f[n] = u->f[n - 1] + u->u[n - 1] * (double)(hi - u->ts[n - 1]);
	u->n = n;
}

/* The mutator ns in [lo, t). */
static double
prefix(const struct tr_gort_util *u, int64_t t)
{
	size_t	a = 0, b = u->n, m;

	if (t <= u->lo)
		return (0);
	if (t >= u->hi)
		return (u->f[u->n]);
	/* The last step starting at or before t. */
	while (b - a > 1) {
		m = a + (b - a) / 2;
		if (u->ts[m] <= t)
			a = m;
		else
			b = m;
	}
	return (u->f[a] + u->u[a] * (double)(t - u->ts[a]));
}

double
tr_gort_util_mutator(const struct tr_gort_util *u, int64_t a, int64_t b)
{
	return (b > a ? prefix(u, b) - prefix(u, a) : 0);
}

/*
 * prefix() for times that only grow: the step found last is where the
 * next search starts (the same step, so the same value, as prefix()).
 */
struct cursor {
	const struct tr_gort_util	*u;
	size_t				 a;
};

static double
cursor_prefix(struct cursor *c, int64_t t)
{
	const struct tr_gort_util	*u = c->u;

	if (t <= u->lo)
		return (0);
	if (t >= u->hi)
		return (u->f[u->n]);
	while (c->a + 1 < u->n && u->ts[c->a + 1] <= t)
		c->a++;
	return (u->f[c->a] + u->u[c->a] * (double)(t - u->ts[c->a]));
}

double
tr_gort_mmu(const struct tr_gort_util *u, int64_t w, int64_t *worst)
{
	struct cursor	 c[2][2];
	double		 best, m;
	int64_t		 t, at = u->lo;
	size_t		 i;
	int		 k;

	*worst = u->lo;
	if (w <= 0 || w > u->hi - u->lo || u->n == 0)
		return (-1);
	best = (double)w + 1;
	/* Window starts at steps (k 0) and ends at steps (k 1): each grows. */
	for (k = 0; k < 2; k++) {
		c[k][0].u = c[k][1].u = u;
		c[k][0].a = c[k][1].a = 0;
	}
	/*
	 * The mutator time of [t, t + w) is piecewise linear in t, its
	 * breaks where t or t + w meets a step: its minimum is at one.
	 */
	for (i = 0; i <= u->n; i++)
		for (k = 0; k < 2; k++) {
			t = k == 0 ? u->ts[i] : u->ts[i] - w;
			if (t < u->lo || t > u->hi - w)
				continue;
			m = cursor_prefix(&c[k][1], t + w) -
			    cursor_prefix(&c[k][0], t);
			if (m < best - 1e-6) {
				best = m;
				at = t;
			} else if (m < best + 1e-6 && t < at)
				at = t;
		}
	*worst = at;
	m = best / (double)w;
	return (m < 0 ? 0 : m > 1 ? 1 : m);
}
