/*
 * trace-query sched-latency: how long goroutines waited for a P.  The
 * runnable -> running delay of every runnable state of a Go trace:
 * its distribution overall (the wake-up latency after a create or an
 * unblock, as go tool trace -pprof=sched counts it, and all runnable time
 * with preemptions and Gosched), by reason, by goroutine group (creation
 * stack) and over time; the goroutines starved for longer than --starve;
 * how evenly the Ps were busy; and the wake-up latency by the waking
 * stack.
 *
 * It reads the derived tables (store/derived.h): go_sched_lat's
 * histograms for every second of store time that lies whole in the
 * window and in one step of the series, go_sched_long's states of a
 * millisecond or more (exact tails, the starved), and the states
 * themselves only for the seconds cut by the window or a step.
 */
#include "config.h"
#include "query/query.h"

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
#define BIN	TR_DERIVED_LAT_BIN
#define NB	TR_DERIVED_LAT_NBUCKET

static const char tracks_sql[] =
    "SELECT id, ref, name, json_extract(meta, '$.callsite_id') FROM track\n"
    " WHERE source_id = ?1 AND kind = '" TR_TRACK_GOROUTINE "'\n"
    " ORDER BY id";
static const char lat_sql[] =
    "SELECT ts, reason, callsite_id, bucket, count, total_ns, min_ns,\n"
    "       max_ns\n"
    "  FROM go_sched_lat WHERE source_id = ?1 AND ts >= ?2 AND ts < ?3";
static const char long_sql[] =
    "SELECT ts, dur, track_id, reason FROM go_sched_long\n"
    " WHERE source_id = ?1 AND ts >= ?2 AND ts < ?3 ORDER BY dur, ts,\n"
    "       track_id";
static const char str_sql[] = "SELECT s FROM str WHERE id = ?1";
/* Ps: their running slices (few runs: one track per P). */
static const char procs_sql[] =
    "SELECT t.ref, s.ts, s.dur FROM track t\n"
    "  CROSS JOIN slice s ON s.track_id = t.id\n"
    " WHERE t.source_id = ?1 AND t.kind = '" TR_TRACK_GO_PROC "'\n"
    "   AND s.run_end_ts >= ?2 AND s.run_ts < ?3\n"
    " ORDER BY t.ref";

static const struct tr_out_col lat_cols[] = {
	{ "source", TR_UNIT_NONE }, { "kind", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "total_ns", TR_UNIT_NS },
	{ "p50_ns", TR_UNIT_NS }, { "p90_ns", TR_UNIT_NS },
	{ "p99_ns", TR_UNIT_NS }, { "max_ns", TR_UNIT_NS },
	{ "starved", TR_UNIT_NONE }, { "verdict", TR_UNIT_NONE },
	{ "pct_error", TR_UNIT_NONE }
};
static const struct tr_out_col rs_cols[] = {
	{ "source", TR_UNIT_NONE }, { "reason", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "total_ns", TR_UNIT_NS },
	{ "p50_ns", TR_UNIT_NS }, { "p99_ns", TR_UNIT_NS },
	{ "max_ns", TR_UNIT_NS }, { "pct_error", TR_UNIT_NONE }
};
static const struct tr_out_col grp_cols[] = {
	{ "source", TR_UNIT_NONE }, { "callsite_id", TR_UNIT_NONE },
	{ "function", TR_UNIT_NONE }, { "goroutines", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "total_ns", TR_UNIT_NS },
	{ "p50_ns", TR_UNIT_NS }, { "p90_ns", TR_UNIT_NS },
	{ "p99_ns", TR_UNIT_NS }, { "max_ns", TR_UNIT_NS },
	{ "starved", TR_UNIT_NONE }, { "stack", TR_UNIT_NONE },
	{ "pct_error", TR_UNIT_NONE }
};
static const struct tr_out_col ser_cols[] = {
	{ "source", TR_UNIT_NONE }, { "ts", TR_UNIT_TS },
	{ "dur_ns", TR_UNIT_NS }, { "count", TR_UNIT_NONE },
	{ "runnable_ns", TR_UNIT_NS }, { "runnable_mean", TR_UNIT_NONE },
	{ "p99_ns", TR_UNIT_NS }, { "max_ns", TR_UNIT_NS },
	{ "starved", TR_UNIT_NONE }, { "pct_error", TR_UNIT_NONE }
};
static const struct tr_out_col st_cols[] = {
	{ "source", TR_UNIT_NONE }, { "goid", TR_UNIT_NONE },
	{ "function", TR_UNIT_NONE }, { "starved", TR_UNIT_NONE },
	{ "longest_ns", TR_UNIT_NS }, { "longest_ts", TR_UNIT_TS },
	{ "reason", TR_UNIT_NONE }, { "total_ns", TR_UNIT_NS }
};
static const struct tr_out_col p_cols[] = {
	{ "source", TR_UNIT_NONE }, { "p", TR_UNIT_NONE },
	{ "busy_ns", TR_UNIT_NS }, { "share", TR_UNIT_SHARE }
};
static const struct tr_out_col sk_cols[] = {
	{ "callsite_id", TR_UNIT_NONE }, { "count", TR_UNIT_NONE },
	{ "total_ns", TR_UNIT_NS }, { "stack", TR_UNIT_NONE }
};
static const struct tr_out_col ev_cols[] = {
	{ "source", TR_UNIT_NONE }, { "goid", TR_UNIT_NONE },
	{ "track_id", TR_UNIT_NONE }, { "ts", TR_UNIT_TS },
	{ "dur_ns", TR_UNIT_NS }, { "reason", TR_UNIT_NONE },
	{ "view", TR_UNIT_NONE }
};

/* The reasons met, interned: index -> string. */
struct reasons {
	char	**s;
	size_t	  n;
	size_t	  last;			/* the last one found */
};

static int
reason_of(struct reasons *r, const char *s)
{
	size_t	i;

	if (s == NULL)
		s = "";
	if (r->last < r->n && strcmp(r->s[r->last], s) == 0)
		return ((int)r->last);
	for (i = 0; i < r->n; i++)
		if (strcmp(r->s[i], s) == 0) {
			r->last = i;
			return ((int)i);
		}
	r->s = tr_xrealloc(r->s, (r->n + 1) * sizeof *r->s);
	r->s[r->n] = tr_xstrdup(s);
	return ((int)r->n++);
}

/* Runnable states of one bucket (a bin's row, or one state). */
struct cell {
	int64_t	 ts;		/* the bin's start, or the state's */
	int	 reason, grp, bucket;
	int64_t	 n, ns, min, max;
};

/* A state of the tail: go_sched_long's, or read. */
struct lng {
	int64_t	 ts, dur;
	size_t	 g;		/* goroutine index */
	int	 reason;
};

struct gor {
	int64_t	 track, goid, cs;
	char	*fn;
	int	 grp;
};

struct grp {
	int64_t	 cs;		/* creation stack, 0: unknown */
	int64_t	 n;		/* goroutines */
	char	*fn;		/* their start function(s) */
};

struct src {
	int64_t		 id, lo, hi;
	int64_t		 wlo, whi;	/* the window asked (or none) */
	int64_t		 g0, step;	/* the series' grid */
	int64_t		 nstep;
	int64_t		 tail;		/* longs: every state this long */
	struct gor	*g;
	size_t		 ng;
	struct grp	*gr;
	size_t		 ngr;
	struct cell	*c;
	size_t		 nc, capc;
	struct lng	*l;
	size_t		 nl, capl;
	int64_t		 read_ns;	/* of the window read from states */
};

static void
src_release(struct src *s)
{
	size_t	i;

	for (i = 0; i < s->ng; i++)
		free(s->g[i].fn);
	for (i = 0; i < s->ngr; i++)
		free(s->gr[i].fn);
	free(s->g);
	free(s->gr);
	free(s->c);
	free(s->l);
}

static struct cell *
cell_new(struct src *s)
{
	if (s->nc == s->capc) {
		s->capc = s->capc ? 2 * s->capc : 1024;
		s->c = tr_xrealloc(s->c, s->capc * sizeof *s->c);
	}
	return (&s->c[s->nc++]);
}

static void
lng_add(struct src *s, int64_t ts, int64_t dur, size_t g, int reason)
{
	if (s->nl == s->capl) {
		s->capl = s->capl ? 2 * s->capl : 1024;
		s->l = tr_xrealloc(s->l, s->capl * sizeof *s->l);
	}
	s->l[s->nl].ts = ts;
	s->l[s->nl].dur = dur;
	s->l[s->nl].g = g;
	s->l[s->nl++].reason = reason;
}

/* The goroutine of a track (they are sorted by track), or -1. */
static ssize_t
gor_of(const struct src *s, int64_t track)
{
	size_t	a = 0, b = s->ng, m;

	while (a < b) {
		m = a + (b - a) / 2;
		if (s->g[m].track < track)
			a = m + 1;
		else
			b = m;
	}
	return (a < s->ng && s->g[a].track == track ? (ssize_t)a : -1);
}

static int
grp_of(const struct src *s, int64_t cs)
{
	size_t	a = 0, b = s->ngr, m;

	while (a < b) {
		m = a + (b - a) / 2;
		if (s->gr[m].cs < cs)
			a = m + 1;
		else
			b = m;
	}
	return (a < s->ngr && s->gr[a].cs == cs ? (int)a : -1);
}

static int
cmp_gcs(const void *a, const void *b)
{
	const struct gor	*x = *(struct gor *const *)a;
	const struct gor	*y = *(struct gor *const *)b;
	int			 c;

	if (x->cs != y->cs)
		return (x->cs < y->cs ? -1 : 1);
	if ((c = strcmp(x->fn, y->fn)) != 0)
		return (c);
	return (x->track < y->track ? -1 : x->track > y->track);
}

/*
 * The groups: goroutines by creation stack, each with its start
 * function (the one most of them have; "F and N more" when they differ).
 */
static void
make_groups(struct src *s)
{
	struct gor	**o = tr_xcalloc(s->ng + 1, sizeof *o);
	size_t		  i, j, k, best, bn, nf;

	for (i = 0; i < s->ng; i++)
		o[i] = &s->g[i];
	if (s->ng > 1)
		qsort(o, s->ng, sizeof *o, cmp_gcs);
	for (i = 0; i < s->ng; i = j) {
		for (j = i; j < s->ng && o[j]->cs == o[i]->cs; j++)
			;
		best = i;
		bn = 0;
		nf = 0;
		for (k = i; k < j; ) {
			size_t	e;

			for (e = k; e < j && strcmp(o[e]->fn, o[k]->fn) == 0;
			    e++)
				;
			if (e - k > bn) {
				bn = e - k;
				best = k;
			}
			nf++;
			k = e;
		}
		s->gr = tr_xrealloc(s->gr, (s->ngr + 1) * sizeof *s->gr);
		s->gr[s->ngr].cs = o[i]->cs;
		s->gr[s->ngr].n = (int64_t)(j - i);
		s->gr[s->ngr].fn = nf > 1 ? tr_xasprintf("%s and %zu more",
		    o[best]->fn, nf - 1) : tr_xstrdup(o[best]->fn);
		for (k = i; k < j; k++)
			o[k]->grp = (int)s->ngr;
		s->ngr++;
	}
	free(o);
}

static int
load_tracks(struct tr_db *db, struct src *s, struct tr_error *err)
{
	sqlite3_stmt		*st;
	const unsigned char	*t;
	int			 r;

	if ((st = tr_db_prepare(db, tracks_sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct gor	*g;

		s->g = tr_xrealloc(s->g, (s->ng + 1) * sizeof *s->g);
		g = &s->g[s->ng++];
		g->track = sqlite3_column_int64(st, 0);
		g->goid = sqlite3_column_int64(st, 1);
		t = sqlite3_column_text(st, 2);
		g->fn = tr_xstrdup(tr_gort_name((const char *)t));
		g->cs = sqlite3_column_int64(st, 3);
		g->grp = -1;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read the goroutines"));
	make_groups(s);
	return (0);
}

/* The step of the series that time t falls in. */
static int64_t
step_of(const struct src *s, int64_t t)
{
	return ((t - s->g0) / s->step);
}

/*
 * Whether second bin b (its start) can be read from the histograms: it
 * lies whole in the window asked (no state starts outside the source's
 * span) and in one step.
 */
static int
bin_whole(const struct src *s, int64_t b)
{
	int64_t	next;

	if (b < s->wlo || b > s->whi - BIN)
		return (0);
	next = s->g0 + (step_of(s, b) + 1) * s->step;
	return (next >= b + BIN);
}

/* Read from the states: the runnable ones starting in [a, b). */
struct rd {
	struct src	*s;
	struct reasons	*r;
	struct tr_db	*db;
	int64_t		 a, b;
	struct tr_imap	*cats;		/* category id -> reason + 1 */
	struct tr_imap	*cells;		/* hash -> cell index + 1 */
};

static int
on_state(void *arg, const struct tr_derived_state *ds, struct tr_error *err)
{
	struct rd	*w = arg;
	struct src	*s = w->s;
	struct cell	*c;
	ssize_t		 g;
	int		 reason;
	void		*v;
	int64_t		 dur = ds->end - ds->start, key[4];
	uint64_t	 h;

	if (ds->kind != TR_DK_RUNNABLE || ds->start < w->a ||
	    ds->start >= w->b)
		return (0);
	if ((g = gor_of(s, ds->track_id)) < 0)
		return (0);
	if ((v = tr_imap_get(w->cats, (uint64_t)ds->category_id)) != NULL)
		reason = (int)((uintptr_t)v - 1);
	else {
		sqlite3_stmt		*st;
		const unsigned char	*t = NULL;

		if ((st = tr_db_prepare(w->db, str_sql, err)) == NULL)
			return (-1);
		sqlite3_bind_int64(st, 1, ds->category_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			t = sqlite3_column_text(st, 0);
		reason = reason_of(w->r, (const char *)t);
		sqlite3_finalize(st);
		tr_imap_put(w->cats, (uint64_t)ds->category_id,
		    (void *)(uintptr_t)(reason + 1));
	}
	/* One cell per step, reason, group and bucket. */
	key[0] = step_of(s, ds->start);
	key[1] = reason;
	key[2] = s->g[g].grp;
	key[3] = tr_derived_lat_bucket(dur);
	h = tr_hash64(key, sizeof key);
	for (;;) {
		if ((v = tr_imap_get(w->cells, h)) == NULL) {
			c = cell_new(s);
			c->ts = s->g0 + key[0] * s->step;
			if (c->ts < s->lo)
				c->ts = s->lo;
			c->reason = reason;
			c->grp = s->g[g].grp;
			c->bucket = (int)key[3];
			c->n = c->ns = c->max = 0;
			c->min = dur;
			tr_imap_put(w->cells, h, (void *)(uintptr_t)s->nc);
			break;
		}
		c = &s->c[(uintptr_t)v - 1];
		if (step_of(s, c->ts) == key[0] && c->reason == reason &&
		    c->grp == key[2] && c->bucket == key[3])
			break;
		h++;
	}
	c->n++;
	c->ns += dur;
	if (dur > c->max)
		c->max = dur;
	if (dur < c->min)
		c->min = dur;
	if (dur >= s->tail)
		lng_add(s, ds->start, dur, (size_t)g, reason);
	return (0);
}

static int
read_states(struct tr_db *db, struct src *s, struct reasons *r, int64_t a,
    int64_t b, struct tr_error *err)
{
	struct rd	w;
	struct tr_imap	cats, cells;
	int		rc;

	tr_imap_init(&cats);
	tr_imap_init(&cells);
	w.cells = &cells;
	w.s = s;
	w.r = r;
	w.db = db;
	w.a = a;
	w.b = b;
	w.cats = &cats;
	s->read_ns += b - a;
	rc = tr_derived_source_states(db, s->id, a, b, on_state, &w, err);
	tr_imap_release(&cats);
	tr_imap_release(&cells);
	return (rc);
}

/* The histogram rows and long states of the whole bins. */
static int
read_bins(struct tr_db *db, struct src *s, struct reasons *r,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = tr_db_prepare(db, lat_sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, s->lo - BIN);
	sqlite3_bind_int64(st, 3, s->hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t		 ts = sqlite3_column_int64(st, 0);
		struct cell	*c;
		int		 g;

		if (!bin_whole(s, ts))
			continue;
		g = grp_of(s, sqlite3_column_int64(st, 2));
		c = cell_new(s);
		c->ts = ts;
		c->reason = reason_of(r, (const char *)
		    sqlite3_column_text(st, 1));
		c->grp = g;
		c->bucket = sqlite3_column_int(st, 3);
		c->n = sqlite3_column_int64(st, 4);
		c->ns = sqlite3_column_int64(st, 5);
		c->min = sqlite3_column_int64(st, 6);
		c->max = sqlite3_column_int64(st, 7);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read go_sched_lat"));
	if ((st = tr_db_prepare(db, long_sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, s->lo);
	sqlite3_bind_int64(st, 3, s->hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	ts = sqlite3_column_int64(st, 0), b = ts / BIN * BIN;
		ssize_t	g;

		if (ts % BIN < 0)
			b -= BIN;
		if (!bin_whole(s, b) ||
		    (g = gor_of(s, sqlite3_column_int64(st, 2))) < 0)
			continue;
		lng_add(s, ts, sqlite3_column_int64(st, 1), (size_t)g,
		    reason_of(r, (const char *)sqlite3_column_text(st, 3)));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read go_sched_long"));
	return (0);
}

static int
cmp_lng_dur(const void *a, const void *b)
{
	const struct lng	*x = a, *y = b;

	if (x->dur != y->dur)
		return (x->dur < y->dur ? -1 : 1);
	if (x->ts != y->ts)
		return (x->ts < y->ts ? -1 : 1);
	return (x->g < y->g ? -1 : x->g > y->g);
}

static int
load(struct tr_db *db, struct src *s, const struct tr_sel *sel,
    struct reasons *r, int64_t starve, int64_t step, struct tr_error *err)
{
	int64_t	b, a, first, last, derived = 0;
	int	whole;

	if (tr_gort_span(db, sel, s->id, &s->lo, &s->hi, err) != 0)
		return (-1);
	if (s->hi <= s->lo)
		s->hi = s->lo + 1;
	s->wlo = sel->has_from ? sel->from : INT64_MIN;
	s->whi = sel->has_to ? sel->to : INT64_MAX;
	/* Steps of whole seconds lie on the grid of the bins. */
	s->step = step;
	s->g0 = step % BIN == 0 ? s->lo - ((s->lo % BIN) + BIN) % BIN : s->lo;
	s->nstep = (s->hi - s->g0 + step - 1) / step;
	if (load_tracks(db, s, err) != 0)
		return (-1);
	if ((derived = tr_derived_present(db, s->id, err)) < 0)
		return (-1);
	/*
	 * The long states are a tail of the distribution: those of a
	 * millisecond or more; those longer than --starve when it is
	 * shorter (then every state is read).
	 */
	whole = derived && starve >= TR_DERIVED_LAT_LONG;
	s->tail = starve >= TR_DERIVED_LAT_LONG ? TR_DERIVED_LAT_LONG :
	    starve + 1;
	if (s->tail < 1)
		s->tail = 1;
	if (whole && read_bins(db, s, r, err) != 0)
		return (-1);
	/* The rest, in runs of bins that are not whole. */
	first = s->lo - ((s->lo % BIN) + BIN) % BIN;
	last = s->hi;
	a = -1;
	for (b = first; b < last + BIN; b += BIN) {
		int	rd = b < last && !(whole && bin_whole(s, b));

		if (rd && a < 0)
			a = b;
		if (!rd && a >= 0) {
			if (read_states(db, s, r, a > s->lo ? a : s->lo,
			    b < s->hi ? b : s->hi, err) != 0)
				return (-1);
			a = -1;
		}
	}
	/* By length, for dists(): go_sched_long's order, unless read. */
	if (s->read_ns > 0 && s->nl > 1)
		qsort(s->l, s->nl, sizeof *s->l, cmp_lng_dur);
	return (0);
}

/* --- distributions --------------------------------------------------- */

/* One distribution's result. */
struct dres {
	int64_t	 n, ns, max, starved, p50, p90, p99;
	int	 approx;		/* a percentile from a bucket */
};

struct ent {
	int64_t	 d;
	int	 bucket;
	int64_t	 n, min, max;
};

struct lent {
	int64_t	 d, dur;
};

static int
cmp_ent(const void *a, const void *b)
{
	const struct ent	*x = a, *y = b;

	if (x->d != y->d)
		return (x->d < y->d ? -1 : 1);
	return (x->bucket - y->bucket);
}

/* Nearest rank of p in n (as tr_gort_pct()). */
static int64_t
rank(double p, int64_t n)
{
	int64_t	k = (int64_t)(p * (double)n - 1e-9);

	if ((double)k < p * (double)n - 1e-9)
		k++;
	if (k < 1)
		k = 1;
	return (k > n ? n : k);
}

typedef int64_t dim_fn(const struct src *, const void *x, int cell,
    const void *arg);

/*
 * The distributions of dimension 'dim' (d in [0, nd) of each cell and
 * long state; -1: in none): res[0..nd).  Percentiles in the tail (the
 * long states) are exact; below it, the largest value of the bucket
 * that holds the rank (at most 1/32 above the exact value).
 */
static void
dists(const struct src *s, dim_fn *dim, const void *arg, int64_t nd,
    int64_t starve, struct dres *res)
{
	struct ent	*e = tr_xcalloc(s->nc + 1, sizeof *e);
	struct lent	*l = tr_xcalloc(s->nl + 1, sizeof *l);
	size_t		*at = tr_xcalloc((size_t)nd + 1, sizeof *at);
	size_t		 ne = 0, nl = 0, i, j, li;
	int64_t		 d;
	static const double	ps[3] = { 0.5, 0.9, 0.99 };

	memset(res, 0, (size_t)nd * sizeof *res);
	for (i = 0; i < s->nc; i++) {
		if ((d = dim(s, &s->c[i], 1, arg)) < 0 || d >= nd)
			continue;
		e[ne].d = d;
		e[ne].bucket = s->c[i].bucket;
		e[ne].n = s->c[i].n;
		e[ne].min = s->c[i].min;
		e[ne++].max = s->c[i].max;
		res[d].n += s->c[i].n;
		res[d].ns += s->c[i].ns;
		if (s->c[i].max > res[d].max)
			res[d].max = s->c[i].max;
	}
	/*
	 * The long states are sorted by length (load()): counted by d,
	 * then placed in that order, they are sorted by (d, length).
	 */
	for (i = 0; i < s->nl; i++) {
		if ((d = dim(s, &s->l[i], 0, arg)) < 0 || d >= nd)
			continue;
		at[d + 1]++;
		nl++;
		if (s->l[i].dur > starve)
			res[d].starved++;
	}
	for (d = 0; d < nd; d++)
		at[d + 1] += at[d];
	for (i = 0; i < s->nl; i++) {
		if ((d = dim(s, &s->l[i], 0, arg)) < 0 || d >= nd)
			continue;
		l[at[d]].d = d;
		l[at[d]++].dur = s->l[i].dur;
	}
	free(at);
	if (ne > 1)
		qsort(e, ne, sizeof *e, cmp_ent);
	for (i = 0, li = 0; i < ne; i = j) {
		int64_t	nlong = 0, k, cum, v[3];
		size_t	l0, q;
		int	p;

		d = e[i].d;
		for (j = i; j < ne && e[j].d == d; j++)
			;
		/* Merge the rows of one bucket: they are adjacent. */
		while (li < nl && l[li].d < d)
			li++;
		l0 = li;
		while (li < nl && l[li].d == d) {
			li++;
			nlong++;
		}
		for (p = 0; p < 3; p++) {
			k = rank(ps[p], res[d].n);
			if (k > res[d].n - nlong) {
				v[p] = l[l0 + (size_t)(k - (res[d].n - nlong)) -
				    1].dur;
				continue;
			}
			cum = 0;
			v[p] = 0;
			for (q = i; q < j; q++) {
				int64_t	bm = e[q].max, bn = e[q].min;

				cum += e[q].n;
				while (q + 1 < j && e[q + 1].bucket ==
				    e[q].bucket) {
					q++;
					cum += e[q].n;
					if (e[q].max > bm)
						bm = e[q].max;
					if (e[q].min < bn)
						bn = e[q].min;
				}
				if (cum >= k) {
					/* Exact when the bucket holds one
					   value. */
					v[p] = bm;
					if (bn != bm)
						res[d].approx = 1;
					break;
				}
			}
		}
		res[d].p50 = v[0];
		res[d].p90 = v[1];
		res[d].p99 = v[2];
	}
	free(e);
	free(l);
}

static int
is_wake(const struct src *s, const void *x, int cell, const void *arg)
{
	const int	*w = arg;
	int		 r = cell ? ((const struct cell *)x)->reason :
	    ((const struct lng *)x)->reason;

	(void)s;
	return (r == w[0] || r == w[1] ? 0 : -1);
}

static int64_t
dim_wake(const struct src *s, const void *x, int cell, const void *arg)
{
	return (is_wake(s, x, cell, arg));
}

static int64_t
dim_all(const struct src *s, const void *x, int cell, const void *arg)
{
	(void)s;
	(void)x;
	(void)cell;
	(void)arg;
	return (0);
}

static int64_t
dim_reason(const struct src *s, const void *x, int cell, const void *arg)
{
	(void)s;
	(void)arg;
	return (cell ? ((const struct cell *)x)->reason :
	    ((const struct lng *)x)->reason);
}

static int64_t
dim_grp(const struct src *s, const void *x, int cell, const void *arg)
{
	(void)arg;
	return (cell ? ((const struct cell *)x)->grp :
	    s->g[((const struct lng *)x)->g].grp);
}

static int64_t
dim_step(const struct src *s, const void *x, int cell, const void *arg)
{
	int64_t	t = cell ? ((const struct cell *)x)->ts :
	    ((const struct lng *)x)->ts;

	(void)arg;
	/* A whole bin may start before the source's first state. */
	if (cell && t < s->lo && t + BIN > s->lo)
		t = s->lo;
	return (t < s->lo || t >= s->hi ? -1 : step_of(s, t));
}

static void
dist_out(struct tr_out *out, const struct dres *d, int p90)
{
	tr_out_int(out, d->n);
	tr_out_int(out, d->ns);
	tr_out_int(out, d->p50);
	if (p90)
		tr_out_int(out, d->p90);
	tr_out_int(out, d->p99);
	tr_out_int(out, d->max);
}

/* --- the sets -------------------------------------------------------- */

/*
 * How far above the exact nearest-rank values a row's percentiles may
 * lie, as a share: 0, or 1/32 when one came from a bucket.
 */
static void
pct_error(struct tr_out *out, const struct dres *d)
{
	tr_out_real(out, d->approx ? 1.0 / 32 : 0);
}

struct ord {
	int64_t		 ns;
	size_t		 i;
	const char	*name;
};

static int
cmp_ord(const void *a, const void *b)
{
	const struct ord	*x = a, *y = b;
	int			 c;

	if (x->ns != y->ns)
		return (x->ns > y->ns ? -1 : 1);
	if (x->name != NULL && y->name != NULL &&
	    (c = strcmp(x->name, y->name)) != 0)
		return (c);
	return (x->i < y->i ? -1 : x->i > y->i);
}

struct gs {
	size_t	 g;
	int64_t	 starved, longest, longest_ts, total;
	int	 longest_reason;
};

static int
cmp_gs(const void *a, const void *b)
{
	const struct gs	*x = a, *y = b;

	if (x->longest != y->longest)
		return (x->longest > y->longest ? -1 : 1);
	return (x->g < y->g ? -1 : x->g > y->g);
}

static int
cmp_lng_ev(const void *a, const void *b)
{
	const struct lng	*x = a, *y = b;

	if (x->g != y->g)
		return (x->g < y->g ? -1 : 1);
	return (x->ts < y->ts ? -1 : x->ts > y->ts);
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

/* A goroutine's runnable time in the window (states starting in it). */
struct tot {
	int64_t	lo, hi, ns;
};

static int
on_total(void *arg, const struct tr_derived_state *ds, struct tr_error *err)
{
	struct tot	*t = arg;

	(void)err;
	if (ds->kind == TR_DK_RUNNABLE && ds->start >= t->lo &&
	    ds->start < t->hi)
		t->ns += ds->end - ds->start;
	return (0);
}

static int
gor_total(struct tr_db *db, const struct src *s, size_t g, int64_t *ns,
    struct tr_error *err)
{
	struct tot	t;

	t.lo = s->lo;
	t.hi = s->hi;
	t.ns = 0;
	if (tr_derived_track_states(db, s->g[g].track, s->lo, s->hi,
	    on_total, &t, err) != 0)
		return (-1);
	*ns = t.ns;
	return (0);
}

static int
emit(struct tr_db *db, const struct tr_sel *sel, struct tr_out *out,
    struct tr_attr *a, struct src *v, size_t n, struct reasons *rs,
    int64_t starve, int64_t top, int evidence, struct tr_error *err)
{
	size_t	i, j;
	int	r, pro = 0;
	int	wake[2];

	wake[0] = reason_of(rs, TR_GO_REASON_CREATED);
	wake[1] = reason_of(rs, "unblocked");

	tr_out_set_name(out, "latency");
	tr_out_columns_of(out, TR_OUT_NCOLS(lat_cols), lat_cols);
	for (i = 0; i < n; i++) {
		int	kind;

		for (kind = 0; kind < 2; kind++) {
			struct dres	d;
			char		*vd;

			dists(&v[i], kind == 0 ? dim_wake : dim_all, wake, 1,
			    starve, &d);
						tr_out_int(out, v[i].id);
			tr_out_text(out, kind == 0 ? "wakeup" : "all");
			dist_out(out, &d, 1);
			tr_out_int(out, d.starved);
			vd = d.starved > 0 ? tr_xasprintf("starved: %lld "
			    "runnable for more than %.3g ms, the longest %.3g "
			    "ms", (long long)d.starved, (double)starve / 1e6,
			    (double)d.max / 1e6) : tr_xasprintf("no "
			    "runnable state longer than %.3g ms",
			    (double)starve / 1e6);
			tr_out_text(out, vd);
			free(vd);
			pct_error(out, &d);
			tr_out_end_row(out);
		}
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "reasons");
	tr_out_columns_of(out, TR_OUT_NCOLS(rs_cols), rs_cols);
	for (i = 0; i < n; i++) {
		struct dres	*d = tr_xcalloc(rs->n + 1, sizeof *d);
		struct ord	*o = tr_xcalloc(rs->n + 1, sizeof *o);
		size_t		 no = 0;

		dists(&v[i], dim_reason, NULL, (int64_t)rs->n, starve, d);
		for (j = 0; j < rs->n; j++)
			if (d[j].n > 0) {
				o[no].ns = d[j].ns;
				o[no].name = rs->s[j];
				o[no++].i = j;
			}
		if (no > 1)
			qsort(o, no, sizeof *o, cmp_ord);
		for (j = 0; j < no; j++) {
			tr_out_int(out, v[i].id);
			tr_out_text(out, rs->s[o[j].i]);
			dist_out(out, &d[o[j].i], 0);
			pct_error(out, &d[o[j].i]);
			tr_out_end_row(out);
		}
		free(o);
		free(d);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "groups");
	tr_out_columns_of(out, TR_OUT_NCOLS(grp_cols), grp_cols);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		struct dres	*d = tr_xcalloc(s->ngr + 1, sizeof *d);
		struct ord	*o = tr_xcalloc(s->ngr + 1, sizeof *o);
		size_t		 no = 0;

		dists(s, dim_grp, NULL, (int64_t)s->ngr, starve, d);
		for (j = 0; j < s->ngr; j++)
			if (d[j].n > 0) {
				o[no].ns = d[j].ns;
				o[no].name = NULL;
				o[no++].i = j;
			}
		if (no > 1)
			qsort(o, no, sizeof *o, cmp_ord);
		for (j = 0; j < no && (int64_t)j < top; j++) {
			const struct grp	*g = &s->gr[o[j].i];
			char			*t = g->cs > 0 ?
			    tr_attr_stack_text(a, g->cs) : NULL;

			tr_out_int(out, s->id);
			if (g->cs > 0)
				tr_out_int(out, g->cs);
			else
				tr_out_null(out);
			tr_out_text(out, g->fn);
			tr_out_int(out, g->n);
			dist_out(out, &d[o[j].i], 1);
			tr_out_int(out, d[o[j].i].starved);
			tr_out_text(out, t != NULL ? t : g->cs > 0 ? "" :
			    "(unknown: created before the trace)");
			pct_error(out, &d[o[j].i]);
			tr_out_end_row(out);
			free(t);
		}
		free(o);
		free(d);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "series");
	tr_out_columns_of(out, TR_OUT_NCOLS(ser_cols), ser_cols);
	for (i = 0; i < n; i++) {
		struct src			*s = &v[i];
		struct dres			*d = tr_xcalloc((size_t)s->nstep +
		    1, sizeof *d);
		struct tr_derived_totals	*t = tr_xcalloc((size_t)s->nstep +
		    1, sizeof *t);
		int64_t				 k;

		dists(s, dim_step, NULL, s->nstep, starve, d);
		if (tr_derived_series(db, s->id, s->g0, s->step, s->nstep, t,
		    err) != 0) {
			free(d);
			free(t);
			return (-2);
		}
		for (k = 0; k < s->nstep; k++) {
			int64_t	b0 = s->g0 + k * s->step, b1 = b0 + s->step;

			if (b0 < s->lo)
				b0 = s->lo;
			if (b1 > s->hi)
				b1 = s->hi;
			/* A step cut by the window asked: its own part. */
			if (s->g0 + k * s->step < s->wlo || s->g0 + (k + 1) *
			    s->step > s->whi) {
				if (tr_derived_totals(db, s->id, b0 > s->wlo ?
				    b0 : s->wlo, b1 < s->whi ? b1 : s->whi,
				    &t[k], err) != 0) {
					free(d);
					free(t);
					return (-2);
				}
			}
			pro |= !t[k].exact;
			tr_out_int(out, s->id);
			tr_out_int(out, b0);
			tr_out_int(out, b1 - b0);
			tr_out_int(out, d[k].n);
			tr_out_int(out, t[k].ns[TR_DK_RUNNABLE]);
			tr_out_real(out, (double)t[k].ns[TR_DK_RUNNABLE] /
			    (double)(b1 - b0));
			tr_out_int(out, d[k].p99);
			tr_out_int(out, d[k].max);
			tr_out_int(out, d[k].starved);
			pct_error(out, &d[k]);
			tr_out_end_row(out);
		}
		free(d);
		free(t);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "starved");
	tr_out_columns_of(out, TR_OUT_NCOLS(st_cols), st_cols);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		struct gs	*g = tr_xcalloc(s->ng + 1, sizeof *g);
		size_t		 ns = 0;

		for (j = 0; j < s->ng; j++)
			g[j].g = j;
		for (j = 0; j < s->nl; j++) {
			struct gs	*p = &g[s->l[j].g];

			if (s->l[j].dur <= starve)
				continue;
			p->starved++;
			if (s->l[j].dur > p->longest || (s->l[j].dur ==
			    p->longest && s->l[j].ts < p->longest_ts)) {
				p->longest = s->l[j].dur;
				p->longest_ts = s->l[j].ts;
				p->longest_reason = s->l[j].reason;
			}
		}
		for (j = 0; j < s->ng; j++)
			if (g[j].starved > 0)
				g[ns++] = g[j];
		if (ns > 1)
			qsort(g, ns, sizeof *g, cmp_gs);
		for (j = 0; j < ns && (int64_t)j < top; j++) {
			if (gor_total(db, s, g[j].g, &g[j].total, err) != 0) {
				free(g);
				return (-2);
			}
			tr_out_int(out, s->id);
			tr_out_int(out, s->g[g[j].g].goid);
			tr_out_text(out, s->g[g[j].g].fn);
			tr_out_int(out, g[j].starved);
			tr_out_int(out, g[j].longest);
			tr_out_int(out, g[j].longest_ts);
			tr_out_text(out, rs->s[g[j].longest_reason]);
			tr_out_int(out, g[j].total);
			tr_out_end_row(out);
		}
		free(g);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "procs");
	tr_out_columns_of(out, TR_OUT_NCOLS(p_cols), p_cols);
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
	tr_out_columns_of(out, TR_OUT_NCOLS(sk_cols), sk_cols);
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
	if (pro)
		tr_out_note(out, "series: runnable_ns of a step that cuts a "
		    "10 ms bin of go_bin shares it pro rata");
	if (!evidence)
		return (0);
	tr_out_set_name(out, "evidence");
	tr_out_columns_of(out, TR_OUT_NCOLS(ev_cols), ev_cols);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];

		if (s->nl > 1)
			qsort(s->l, s->nl, sizeof *s->l, cmp_lng_ev);
		for (j = 0; j < s->nl; j++) {
			const struct lng	*p = &s->l[j];

			if (p->dur <= starve)
				continue;
			tr_out_int(out, s->id);
			tr_out_int(out, s->g[p->g].goid);
			tr_out_int(out, s->g[p->g].track);
			tr_out_int(out, p->ts);
			tr_out_int(out, p->dur);
			tr_out_text(out, rs->s[p->reason]);
			tr_out_text(out, "go_state");
			tr_out_end_row(out);
		}
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
	struct reasons		 rs = { NULL, 0, 0 };
	int64_t			*ids = NULL, origin, woff;
	int			 n = 0, i, haswall, rc = -1;

	tr_sel_init(&sel, SL_SEL);
	memset(&args, 0, sizeof args);
	args.name = "sched-latency";
	args.synopsis = "[OPTION...]";
	args.about = "How long goroutines waited for a P: the runnable -> "
	    "running delay overall,\nby reason, by creation stack and over "
	    "time, the starved goroutines, the\nPs' balance, and the "
	    "wake-up latency by stack (trace-query(1),\nsched-latency).";
	args.args = opts;
	args.sel = &sel;
	args.max_pos = 0;
	args.step = &step;
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
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
	v = tr_xcalloc((size_t)n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].id = ids[i];
		if (load(db, &v[i], &sel, &rs, starve, step, err) != 0)
			goto out;
	}
	switch (emit(db, &sel, out, a, v, (size_t)n, &rs, starve, top,
	    evidence, err)) {
	case 0:
		rc = 0;
		break;
	case -1:
		tr_out_write_error(err);
		break;
	default:
		break;
	}
out:
	if (v != NULL)
		for (i = 0; i < n; i++)
			src_release(&v[i]);
	free(v);
	for (i = 0; i < (int)rs.n; i++)
		free(rs.s[i]);
	free(rs.s);
	free(ids);
	tr_attr_free(a);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_sched_latency = {
	.name = "sched-latency",
	.usage = "[OPTION...]",
	.summary = "runnable-to-running delays, starvation, Ps' balance",
	.run = run,
};
