/*
 * trace-query sched-latency: how long goroutines waited for a P.  The
 * runnable -> running delay of every runnable state of a Go trace:
 * its distribution overall (the wake-up latency after a create or an
 * unblock, as go tool trace -pprof=sched counts it, and all runnable time
 * with preemptions and Gosched), by reason, by start function and over
 * time; the goroutines starved for longer than --starve; how evenly the
 * Ps were busy; and the wake-up latency by the waking stack.
 */
#include "config.h"
#include "query/query.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "query/args.h"
#include "query/attr.h"
#include "query/blocked.h"
#include "query/goruntime.h"
#include "query/sel.h"
#include "store/derived.h"

#define SL_SEL	(TR_SEL_SOURCE | TR_SEL_TIME)

static const char tracks_sql[] =
    "SELECT t.id, t.ref, t.name FROM track t\n"
    " WHERE t.source_id = ?1 AND t.kind = '" TR_TRACK_GOROUTINE "'\n"
    " ORDER BY t.ref";
static const char reason_sql[] =
    "SELECT id, s FROM str WHERE s IN ('" TR_GO_REASON_CREATED "', "
    "'unblocked')";
static const char str_sql[] = "SELECT s FROM str WHERE id = ?1";
/* Ps: their running slices (few runs: one track per P). */
static const char procs_sql[] =
    "SELECT t.ref, s.ts, s.dur FROM track t\n"
    "  CROSS JOIN slice s ON s.track_id = t.id\n"
    " WHERE t.source_id = ?1 AND t.kind = '" TR_TRACK_GO_PROC "'\n"
    "   AND s.run_end_ts >= ?2 AND s.run_ts < ?3\n"
    " ORDER BY t.ref";

static const char *const lat_cols[] = {
	"source", "kind", "count", "total_ns", "p50_ns", "p90_ns", "p99_ns",
	"max_ns", "starved", "verdict"
};
static const char *const rs_cols[] = {
	"source", "reason", "count", "total_ns", "p50_ns", "p99_ns", "max_ns"
};
static const char *const grp_cols[] = {
	"source", "function", "goroutines", "count", "total_ns", "p50_ns",
	"p90_ns", "p99_ns", "max_ns", "starved"
};
static const char *const ser_cols[] = {
	"source", "ts", "dur_ns", "count", "runnable_ns", "runnable_mean",
	"p99_ns", "max_ns", "starved"
};
static const char *const st_cols[] = {
	"source", "goid", "function", "starved", "longest_ns", "longest_ts",
	"reason", "total_ns"
};
static const char *const p_cols[] = {
	"source", "p", "busy_ns", "share"
};
static const char *const sk_cols[] = {
	"callsite_id", "count", "total_ns", "stack"
};
static const char *const ev_cols[] = {
	"source", "goid", "track_id", "ts", "dur_ns", "reason", "view"
};

/* One runnable state. */
struct rs {
	int64_t	 ts, dur;		/* whole state (clipped to the span) */
	int64_t	 reason;		/* category id */
	size_t	 g;			/* goroutine index */
};

struct gor {
	int64_t	 track, goid;
	char	*fn;
};

struct src {
	int64_t		 id, lo, hi;
	struct gor	*g;
	size_t		 ng;
	struct rs	*r;
	size_t		 nr, cap;
};

struct walkarg {
	struct src	*s;
	size_t		 g;
};

static int
on_state(void *arg, const struct tr_derived_state *ds, struct tr_error *err)
{
	struct walkarg	*w = arg;
	struct src	*s = w->s;
	struct rs	*r;

	(void)err;
	/* A state counts in the window where it starts. */
	if (ds->kind != TR_DK_RUNNABLE || ds->start < s->lo ||
	    ds->start >= s->hi)
		return (0);
	if (s->nr == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->r = tr_xrealloc(s->r, s->cap * sizeof *s->r);
	}
	r = &s->r[s->nr++];
	r->ts = ds->start;
	r->dur = ds->end - ds->start;
	r->reason = ds->category_id;
	r->g = w->g;
	return (0);
}

static void
src_release(struct src *s)
{
	size_t	i;

	for (i = 0; i < s->ng; i++)
		free(s->g[i].fn);
	free(s->g);
	free(s->r);
}

static int
load(struct tr_db *db, struct src *s, const struct tr_sel *sel,
    struct tr_error *err)
{
	sqlite3_stmt		*st;
	struct walkarg		 w;
	const unsigned char	*t;
	int			 r;
	size_t			 i;

	if (tr_gort_span(db, sel, s->id, &s->lo, &s->hi, err) != 0)
		return (-1);
	if (s->hi <= s->lo)
		s->hi = s->lo + 1;
	if ((st = tr_db_prepare(db, tracks_sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		s->g = tr_xrealloc(s->g, (s->ng + 1) * sizeof *s->g);
		s->g[s->ng].track = sqlite3_column_int64(st, 0);
		s->g[s->ng].goid = sqlite3_column_int64(st, 1);
		t = sqlite3_column_text(st, 2);
		s->g[s->ng].fn = tr_xstrdup(t != NULL && *t ?
		    (const char *)t : "(unknown)");
		s->ng++;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read the goroutines"));
	w.s = s;
	for (i = 0; i < s->ng; i++) {
		w.g = i;
		if (tr_derived_track_states(db, s->g[i].track, s->lo, s->hi,
		    on_state, &w, err) != 0)
			return (-1);
	}
	return (0);
}

/* Sort a copy of the durations of r[0..n) that 'keep' keeps. */
static int64_t *
durs(const struct rs *r, size_t n, size_t *m, int (*keep)(const struct rs *,
    const void *), const void *arg)
{
	int64_t	*d = tr_xcalloc(n + 1, sizeof *d);
	size_t	 i;

	*m = 0;
	for (i = 0; i < n; i++)
		if (keep == NULL || keep(&r[i], arg))
			d[(*m)++] = r[i].dur;
	tr_gort_sort(d, *m);
	return (d);
}

struct ids {
	int64_t	created, unblocked;
};

static int
is_wakeup(const struct rs *r, const void *arg)
{
	const struct ids	*k = arg;

	return (r->reason == k->created || r->reason == k->unblocked);
}

static int
is_reason(const struct rs *r, const void *arg)
{
	return (r->reason == *(const int64_t *)arg);
}

static int64_t
sum(const int64_t *d, size_t n)
{
	int64_t	t = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		t += d[i];
	return (t);
}

static int64_t
over(const int64_t *d, size_t n, int64_t lim)
{
	int64_t	c = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		c += d[i] > lim;
	return (c);
}

static void
dist(struct tr_out *out, const int64_t *d, size_t n, int p90)
{
	tr_out_int(out, (int64_t)n);
	tr_out_int(out, sum(d, n));
	tr_out_int(out, tr_gort_pct(d, n, 0.5));
	if (p90)
		tr_out_int(out, tr_gort_pct(d, n, 0.9));
	tr_out_int(out, tr_gort_pct(d, n, 0.99));
	tr_out_int(out, n ? d[n - 1] : 0);
}

static char *
str_of(struct tr_db *db, int64_t id)
{
	sqlite3_stmt		*st;
	const unsigned char	*t;
	char			*s = NULL;

	if (sqlite3_prepare_v2(db->sq, str_sql, -1, &st, NULL) != SQLITE_OK)
		return (tr_xstrdup(""));
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (t = sqlite3_column_text(st, 0)) != NULL)
		s = tr_xstrdup((const char *)t);
	sqlite3_finalize(st);
	return (s != NULL ? s : tr_xstrdup(""));
}

static int
cmp_i64v(const void *a, const void *b)
{
	const int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

struct gs {
	size_t	 g;
	int64_t	 starved, longest, longest_ts, longest_reason, total;
};

static int
cmp_gs(const void *a, const void *b)
{
	const struct gs	*x = a, *y = b;

	if (x->longest != y->longest)
		return (x->longest > y->longest ? -1 : 1);
	return (x->g < y->g ? -1 : x->g > y->g);
}

struct fg {
	const char	*fn;
	size_t		 i, n;		/* goroutine indexes, sorted by fn */
	int64_t		 tot;
};

static int
cmp_fg(const void *a, const void *b)
{
	const struct fg	*x = a, *y = b;

	if (x->tot != y->tot)
		return (x->tot > y->tot ? -1 : 1);
	return (strcmp(x->fn, y->fn));
}

static const struct src *fn_src;

static int
cmp_gfn(const void *a, const void *b)
{
	size_t	x = *(const size_t *)a, y = *(const size_t *)b;
	int	c = strcmp(fn_src->g[x].fn, fn_src->g[y].fn);

	return (c != 0 ? c : (x < y ? -1 : x > y));
}

static int
cmp_bstack(const void *pa, const void *pb)
{
	const struct tr_blocked_stack	*x = pa, *y = pb;

	if (x->ns != y->ns)
		return (x->ns > y->ns ? -1 : 1);
	return (x->callsite_id < y->callsite_id ? -1 :
	    x->callsite_id > y->callsite_id);
}

static int
emit(struct tr_db *db, const struct tr_sel *sel, struct tr_out *out, struct tr_attr *a,
    struct src *v, size_t n, const struct ids *k, int64_t starve,
    int64_t step, int64_t top, int evidence, struct tr_error *err)
{
	size_t	i, j, m;
	int	r;

	tr_out_set_name(out, "latency");
	tr_out_columns(out, 10, lat_cols);
	for (j = 3; j < 8; j++)
		tr_out_column_unit(out, (int)j, TR_UNIT_NS);
	for (i = 0; i < n; i++) {
		int	kind;

		for (kind = 0; kind < 2; kind++) {
			int64_t	*d = durs(v[i].r, v[i].nr, &m, kind == 0 ?
			    is_wakeup : NULL, k);
			int64_t	 ns = over(d, m, starve);
			char	*vd;

			tr_out_int(out, v[i].id);
			tr_out_text(out, kind == 0 ? "wakeup" : "all");
			dist(out, d, m, 1);
			tr_out_int(out, ns);
			vd = ns > 0 ? tr_xasprintf("starved: %lld runnable "
			    "for more than %.3g ms, the longest %.3g ms",
			    (long long)ns, (double)starve / 1e6,
			    (double)d[m - 1] / 1e6) : tr_xasprintf("no "
			    "runnable state longer than %.3g ms",
			    (double)starve / 1e6);
			tr_out_text(out, vd);
			free(vd);
			tr_out_end_row(out);
			free(d);
		}
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "reasons");
	tr_out_columns(out, 7, rs_cols);
	for (j = 3; j < 7; j++)
		tr_out_column_unit(out, (int)j, TR_UNIT_NS);
	for (i = 0; i < n; i++) {
		int64_t	*rid = tr_xcalloc(v[i].nr + 1, sizeof *rid);
		size_t	 nu = 0;

		for (j = 0; j < v[i].nr; j++)
			rid[j] = v[i].r[j].reason;
		if (v[i].nr > 1)
			qsort(rid, v[i].nr, sizeof *rid, cmp_i64v);
		for (j = 0; j < v[i].nr; j++)
			if (nu == 0 || rid[nu - 1] != rid[j])
				rid[nu++] = rid[j];
		for (j = 0; j < nu; j++) {
			int64_t	*d = durs(v[i].r, v[i].nr, &m, is_reason,
			    &rid[j]);
			char	*t = str_of(db, rid[j]);

			tr_out_int(out, v[i].id);
			tr_out_text(out, t);
			dist(out, d, m, 0);
			tr_out_end_row(out);
			free(t);
			free(d);
		}
		free(rid);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "groups");
	tr_out_columns(out, 10, grp_cols);
	for (j = 4; j < 9; j++)
		tr_out_column_unit(out, (int)j, TR_UNIT_NS);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		size_t		*ord, ng = 0, x, y;
		struct fg	*fg = NULL;
		int64_t		*gt = tr_xcalloc(s->ng + 1, sizeof *gt);
		size_t		*gi = tr_xcalloc(s->ng + 1, sizeof *gi);

		for (j = 0; j < s->nr; j++)
			gt[s->r[j].g] += s->r[j].dur;
		ord = tr_xcalloc(s->ng + 1, sizeof *ord);
		for (j = 0; j < s->ng; j++)
			ord[j] = j;
		fn_src = s;
		if (s->ng > 1)
			qsort(ord, s->ng, sizeof *ord, cmp_gfn);
		for (x = 0; x < s->ng; x = y) {
			int64_t	tot = 0;

			for (y = x; y < s->ng && strcmp(s->g[ord[y]].fn,
			    s->g[ord[x]].fn) == 0; y++) {
				tot += gt[ord[y]];
				gi[ord[y]] = ng;
			}
			fg = tr_xrealloc(fg, (ng + 1) * sizeof *fg);
			fg[ng].fn = s->g[ord[x]].fn;
			fg[ng].i = x;
			fg[ng].n = y - x;
			fg[ng].tot = tot;
			ng++;
		}
		/* Each group's durations: one pass, then sort each. */
		{
			int64_t	**gd = tr_xcalloc(ng + 1, sizeof *gd);
			size_t	 *gn = tr_xcalloc(ng + 1, sizeof *gn);
			size_t	 *gc = tr_xcalloc(ng + 1, sizeof *gc);
			struct fg *by = tr_xcalloc(ng + 1, sizeof *by);

			for (j = 0; j < s->nr; j++)
				gc[gi[s->r[j].g]]++;
			for (j = 0; j < ng; j++)
				gd[j] = tr_xcalloc(gc[j] + 1, sizeof **gd);
			for (j = 0; j < s->nr; j++) {
				size_t	q = gi[s->r[j].g];

				gd[q][gn[q]++] = s->r[j].dur;
			}
			for (j = 0; j < ng; j++) {
				tr_gort_sort(gd[j], gn[j]);
				by[j] = fg[j];
				by[j].i = j;	/* its arrays */
			}
			if (ng > 1)
				qsort(by, ng, sizeof *by, cmp_fg);
			for (j = 0; j < ng && (int64_t)j < top; j++) {
				size_t	q = by[j].i;

				tr_out_int(out, s->id);
				tr_out_text(out, by[j].fn);
				tr_out_int(out, (int64_t)by[j].n);
				dist(out, gd[q], gn[q], 1);
				tr_out_int(out, over(gd[q], gn[q], starve));
				tr_out_end_row(out);
			}
			for (j = 0; j < ng; j++)
				free(gd[j]);
			free(gd);
			free(gn);
			free(gc);
			free(by);
		}
		free(fg);
		free(ord);
		free(gt);
		free(gi);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "series");
	tr_out_columns(out, 9, ser_cols);
	tr_out_column_unit(out, 1, TR_UNIT_TS);
	tr_out_column_unit(out, 2, TR_UNIT_NS);
	tr_out_column_unit(out, 4, TR_UNIT_NS);
	tr_out_column_unit(out, 6, TR_UNIT_NS);
	tr_out_column_unit(out, 7, TR_UNIT_NS);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		int64_t		 t, nstep = (s->hi - s->lo + step - 1) / step;
		int64_t		**sd = tr_xcalloc((size_t)nstep + 1,
		    sizeof *sd);
		size_t		 *sn = tr_xcalloc((size_t)nstep + 1,
		    sizeof *sn), *sc = tr_xcalloc((size_t)nstep + 1,
		    sizeof *sc);
		int64_t		 *rns = tr_xcalloc((size_t)nstep + 1,
		    sizeof *rns);

		for (j = 0; j < s->nr; j++) {
			int64_t	a0 = s->r[j].ts, a1 = a0 + s->r[j].dur, q;

			sc[(a0 - s->lo) / step]++;
			/* The runnable time falls in every step it spans. */
			for (q = (a0 - s->lo) / step; q < nstep; q++) {
				int64_t	b0 = s->lo + q * step, b1 = b0 + step;
				int64_t	x = a0 > b0 ? a0 : b0;
				int64_t	y = a1 < b1 ? a1 : b1;

				if (y <= x)
					break;
				rns[q] += y - x;
			}
		}
		for (t = 0; t < nstep; t++)
			sd[t] = tr_xcalloc(sc[t] + 1, sizeof **sd);
		for (j = 0; j < s->nr; j++) {
			int64_t	q = (s->r[j].ts - s->lo) / step;

			sd[q][sn[q]++] = s->r[j].dur;
		}
		for (t = 0; t < nstep; t++) {
			int64_t	b0 = s->lo + t * step;
			int64_t	b1 = b0 + step < s->hi ? b0 + step : s->hi;

			tr_gort_sort(sd[t], sn[t]);
			tr_out_int(out, s->id);
			tr_out_int(out, b0);
			tr_out_int(out, b1 - b0);
			tr_out_int(out, (int64_t)sn[t]);
			tr_out_int(out, rns[t]);
			tr_out_real(out, (double)rns[t] / (double)(b1 - b0));
			tr_out_int(out, tr_gort_pct(sd[t], sn[t], 0.99));
			tr_out_int(out, sn[t] ? sd[t][sn[t] - 1] : 0);
			tr_out_int(out, over(sd[t], sn[t], starve));
			tr_out_end_row(out);
			free(sd[t]);
		}
		free(sd);
		free(sn);
		free(sc);
		free(rns);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "starved");
	tr_out_columns(out, 8, st_cols);
	tr_out_column_unit(out, 4, TR_UNIT_NS);
	tr_out_column_unit(out, 5, TR_UNIT_TS);
	tr_out_column_unit(out, 7, TR_UNIT_NS);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		struct gs	*g = tr_xcalloc(s->ng + 1, sizeof *g);
		size_t		 ns = 0;

		for (j = 0; j < s->ng; j++)
			g[j].g = j;
		for (j = 0; j < s->nr; j++) {
			struct gs	*p = &g[s->r[j].g];

			p->total += s->r[j].dur;
			if (s->r[j].dur > starve)
				p->starved++;
			if (s->r[j].dur > p->longest) {
				p->longest = s->r[j].dur;
				p->longest_ts = s->r[j].ts;
				p->longest_reason = s->r[j].reason;
			}
		}
		for (j = 0; j < s->ng; j++)
			if (g[j].starved > 0)
				g[ns++] = g[j];
		if (ns > 1)
			qsort(g, ns, sizeof *g, cmp_gs);
		for (j = 0; j < ns && (int64_t)j < top; j++) {
			char	*t = str_of(db, g[j].longest_reason);

			tr_out_int(out, s->id);
			tr_out_int(out, s->g[g[j].g].goid);
			tr_out_text(out, s->g[g[j].g].fn);
			tr_out_int(out, g[j].starved);
			tr_out_int(out, g[j].longest);
			tr_out_int(out, g[j].longest_ts);
			tr_out_text(out, t);
			tr_out_int(out, g[j].total);
			tr_out_end_row(out);
			free(t);
		}
		free(g);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "procs");
	tr_out_columns(out, 4, p_cols);
	tr_out_column_unit(out, 2, TR_UNIT_NS);
	tr_out_column_unit(out, 3, TR_UNIT_SHARE);
	for (i = 0; i < n; i++) {
		sqlite3_stmt	*st;
		int64_t		 p = -1, busy = 0;

		if ((st = tr_db_prepare(db, procs_sql, err)) == NULL)
			return (-2);
		sqlite3_bind_int64(st, 1, v[i].id);
		sqlite3_bind_int64(st, 2, v[i].lo);
		sqlite3_bind_int64(st, 3, v[i].hi);
		for (;;) {
			int64_t	q = -2, x, y;

			r = sqlite3_step(st);
			if (r == SQLITE_ROW)
				q = sqlite3_column_int64(st, 0);
			else if (r != SQLITE_DONE)
				break;
			if (q != p && p >= 0) {
				tr_out_int(out, v[i].id);
				tr_out_int(out, p);
				tr_out_int(out, busy);
				tr_out_real(out, (double)busy /
				    (double)(v[i].hi - v[i].lo));
				tr_out_end_row(out);
				busy = 0;
			}
			if (r == SQLITE_DONE)
				break;
			p = q;
			x = sqlite3_column_int64(st, 1);
			y = x + sqlite3_column_int64(st, 2);
			if (x < v[i].lo)
				x = v[i].lo;
			if (y > v[i].hi)
				y = v[i].hi;
			if (y > x)
				busy += y - x;
		}
		sqlite3_finalize(st);
		if (r != SQLITE_DONE) {
			tr_db_error(db, err, "cannot read the Ps");
			return (-2);
		}
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "stacks");
	tr_out_columns(out, 4, sk_cols);
	tr_out_column_unit(out, 2, TR_UNIT_NS);
	{
		struct tr_blocked	 b;
		struct tr_blocked_stack	*bs;

		memset(&b, 0, sizeof b);
		if (tr_blocked_collect(db, sel, TR_BLOCKED_SCHED, &b, err) != 0)
			return (-2);
		bs = b.stacks;
		if (b.n > 1)
			qsort(bs, b.n, sizeof *bs, cmp_bstack);
		for (j = 0; j < b.n && (int64_t)j < top; j++) {
			char	*t = tr_attr_stack_text(a, bs[j].callsite_id);

			tr_out_int(out, bs[j].callsite_id);
			tr_out_int(out, bs[j].count);
			tr_out_int(out, bs[j].ns);
			tr_out_text(out, t ? t : "");
			tr_out_end_row(out);
			free(t);
		}
		tr_blocked_release(&b);
	}
	if (tr_out_finish(out) != 0)
		return (-1);
	if (!evidence)
		return (0);
	tr_out_set_name(out, "evidence");
	tr_out_columns(out, 7, ev_cols);
	tr_out_column_unit(out, 3, TR_UNIT_TS);
	tr_out_column_unit(out, 4, TR_UNIT_NS);
	for (i = 0; i < n; i++)
		for (j = 0; j < v[i].nr; j++) {
			const struct rs	*p = &v[i].r[j];
			char		*t;

			if (p->dur <= starve)
				continue;
			t = str_of(db, p->reason);
			tr_out_int(out, v[i].id);
			tr_out_int(out, v[i].g[p->g].goid);
			tr_out_int(out, v[i].g[p->g].track);
			tr_out_int(out, p->ts);
			tr_out_int(out, p->dur);
			tr_out_text(out, t);
			tr_out_text(out, "go_state");
			tr_out_end_row(out);
			free(t);
		}
	return (tr_out_finish(out));
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	int64_t			 starve = 10000000, step = 1000000000, top = 10;
	int			 evidence = 0;
	struct tr_arg		 opts[] = {
		{ "starve", 0, TR_ARG_DURATION, &starve, 0, 0, "DURATION",
		    "starved: runnable for longer than this (default 10ms)",
		    0, 0 },
		{ "step", 0, TR_ARG_DURATION, &step, 0, 0, "DURATION",
		    "the series' step (default 1s)", 0, 0 },
		{ "top", 'n', TR_ARG_INT, &top, 0, 1e9, "N",
		    "groups, starved goroutines and stacks listed "
		    "(default 10)", 0, 0 },
		{ "evidence", 0, TR_ARG_FLAG, &evidence, 0, 0, NULL,
		    "add every runnable state longer than --starve", 0, 0 },
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_sel		 sel;
	struct tr_args		 args;
	struct tr_attr		*a = NULL;
	struct src		*v = NULL;
	struct ids		 k;
	sqlite3_stmt		*st = NULL;
	int64_t			*ids = NULL, origin, woff;
	int			 n = 0, i, haswall, rc = -1;

	tr_sel_init(&sel, SL_SEL);
	memset(&args, 0, sizeof args);
	args.name = "sched-latency";
	args.synopsis = "[OPTION...]";
	args.about = "How long goroutines waited for a P: the runnable -> "
	    "running delay overall,\nby reason, by start function and over "
	    "time, the starved goroutines, the\nPs' balance, and the "
	    "wake-up latency by stack (trace-query(1),\nsched-latency).";
	args.args = opts;
	args.sel = &sel;
	args.max_pos = 0;
	if (tr_args_parse(&args, argc, argv, err) != 0)
		goto out;
	if (args.help) {
		rc = 0;
		goto out;
	}
	if (step <= 0) {
		tr_error_set(err, TR_EUSAGE, "sched-latency: --step must be "
		    "more than 0");
		goto out;
	}
	if (tr_sel_resolve(&sel, db, err) != 0)
		goto out;
	if ((n = tr_gort_sources(db, &sel, "sched-latency", "scheduling "
	    "delays are only in one (runtime/trace)", "none (no profile "
	    "records scheduling delays)", &ids, err)) < 0) {
		n = 0;
		goto out;
	}
	if ((a = tr_attr_open(db, &sel, err)) == NULL)
		goto out;
	tr_attr_clock(a, &origin, &haswall, &woff);
	tr_out_set_clock(out, origin, haswall, woff);
	k.created = k.unblocked = -1;
	if ((st = tr_db_prepare(db, reason_sql, err)) == NULL)
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char	*t = sqlite3_column_text(st, 1);

		if (t != NULL && strcmp((const char *)t,
		    TR_GO_REASON_CREATED) == 0)
			k.created = sqlite3_column_int64(st, 0);
		else
			k.unblocked = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	v = tr_xcalloc((size_t)n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].id = ids[i];
		if (load(db, &v[i], &sel, err) != 0)
			goto out;
	}
	switch (emit(db, &sel, out, a, v, (size_t)n, &k, starve, step, top,
	    evidence, err)) {
	case 0:
		rc = 0;
		break;
	case -1:
		tr_error_set(err, TR_EIO, "error writing output: %s",
		    errno != 0 ? strerror(errno) : "write failed");
		break;
	default:
		break;
	}
out:
	if (v != NULL)
		for (i = 0; i < n; i++)
			src_release(&v[i]);
	free(v);
	free(ids);
	tr_attr_free(a);
	tr_args_release(&args);
	tr_sel_release(&sel);
	return (rc);
}

const struct tr_query tr_query_sched_latency = {
	.name = "sched-latency",
	.usage = "[OPTION...]",
	.summary = "runnable-to-running delays, starvation, Ps' balance",
	.run = run,
};
