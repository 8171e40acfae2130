/*
 * trace-query contention: time blocked on channels and select and on
 * sync primitives, by blocking stack, from the Go trace (go_state_stack,
 * what go tool trace -pprof=sync sums) and from block and mutex profiles
 * side by side; and the compound stalls: the intervals where mutex
 * contention and channel waits overlap, with the goroutines in them.
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

#define CT_SEL	(TR_SEL_SOURCE | TR_SEL_TIME)

/*
 * The block and mutex profiles, per stack: contentions and delay (the
 * profiles' two sample types), and the trace's blocked time (channels,
 * select, sync, cond) at the stack with the same functions, root to
 * leaf, when the trace saw it (profiles and traces intern their own
 * call sites).
 */
static const char prof_sql[] =
    "WITH ps AS (\n"
    "  SELECT p.type AS type, s.callsite_id AS cs,\n"
    "         sum(CASE WHEN e.s = 'contentions' THEN s.value END) AS c,\n"
    "         sum(CASE WHEN e.s = 'delay' THEN s.value END) AS d\n"
    "    FROM profile p JOIN sample s ON s.profile_id = p.id\n"
    "    JOIN str e ON e.id = s.event_id\n"
    "   WHERE p.type IN ('" TR_PROFILE_BLOCK "', '" TR_PROFILE_MUTEX "')\n"
    "   GROUP BY 1, 2),\n"
    "gs AS (\n"
    "  SELECT callsite_id AS cs, sum(total_ns) AS t FROM go_state_stack\n"
    "   WHERE state = '" TR_GO_STATE_BLOCKED "' AND reason IN ('"
    TR_GO_REASON_CHAN_SEND "', '" TR_GO_REASON_CHAN_RECV "', '"
    TR_GO_REASON_SELECT "', '" TR_GO_REASON_SYNC "', '"
    TR_GO_REASON_COND "')\n"
    "   GROUP BY 1),\n"
    "fs AS (\n"
    "  SELECT st.callsite_id AS cs, group_concat(f.name, ';') AS k\n"
    "    FROM (SELECT * FROM stack WHERE callsite_id IN\n"
    "            (SELECT cs FROM ps UNION SELECT cs FROM gs)\n"
    "          ORDER BY callsite_id, depth) st\n"
    "    JOIN frame f ON f.id = st.frame_id GROUP BY st.callsite_id)\n"
    "SELECT ps.type, ps.cs, ps.c, ps.d,\n"
    "       (SELECT sum(gs.t) FROM gs JOIN fs g ON g.cs = gs.cs\n"
    "         WHERE g.k = f.k)\n"
    "  FROM ps LEFT JOIN fs f ON f.cs = ps.cs\n"
    " ORDER BY ps.type, ps.d DESC, ps.cs";
static const char tracks_sql[] =
    "SELECT id, ref, name FROM track WHERE source_id = ?1 AND kind = '"
    TR_TRACK_GOROUTINE "' ORDER BY id";

static const struct tr_out_col tot_cols[] = {
	{ "kind", TR_UNIT_NONE }, { "count", TR_UNIT_NONE },
	{ "total_ns", TR_UNIT_NS }
};
static const struct tr_out_col st_cols[] = {
	{ "kind", TR_UNIT_NONE }, { "callsite_id", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "total_ns", TR_UNIT_NS },
	{ "stack", TR_UNIT_NONE }
};
static const struct tr_out_col pr_cols[] = {
	{ "profile", TR_UNIT_NONE }, { "callsite_id", TR_UNIT_NONE },
	{ "contentions", TR_UNIT_NONE }, { "delay_ns", TR_UNIT_NS },
	{ "trace_ns", TR_UNIT_NS }, { "stack", TR_UNIT_NONE }
};
static const struct tr_out_col ho_cols[] = {
	{ "source", TR_UNIT_NONE }, { "waker_goid", TR_UNIT_NONE },
	{ "function", TR_UNIT_NONE }, { "callsite_id", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "blocked_ns", TR_UNIT_NS },
	{ "share", TR_UNIT_SHARE }, { "stack", TR_UNIT_NONE }
};
static const struct tr_out_col cp_cols[] = {
	{ "source", TR_UNIT_NONE }, { "start_ns", TR_UNIT_TS },
	{ "end_ns", TR_UNIT_TS }, { "dur_ns", TR_UNIT_NS },
	{ "sync_ns", TR_UNIT_NS }, { "chan_ns", TR_UNIT_NS },
	{ "sync_goroutines", TR_UNIT_NONE },
	{ "chan_goroutines", TR_UNIT_NONE }, { "goroutines", TR_UNIT_NONE }
};

struct win {
	int64_t	 lo, hi, sync_ns, chan_ns;
	int64_t	 nsync, nchan;
	char	*who;
};

/* The goroutines of a source, by track. */
struct gor {
	int64_t	 track, goid;
	char	*fn;
	int64_t	 chan, sync;	/* in the window being summed */
};

struct gors {
	struct gor	*v;
	size_t		 n;
};

static void
gors_release(struct gors *g)
{
	size_t	i;

	for (i = 0; i < g->n; i++)
		free(g->v[i].fn);
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

static int
gors_load(struct tr_db *db, int64_t src, struct gors *g, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 r;

	if ((st = tr_db_prepare(db, tracks_sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, src);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char	*t = sqlite3_column_text(st, 2);
		struct gor		*p;

		g->v = tr_xrealloc(g->v, (g->n + 1) * sizeof *g->v);
		p = &g->v[g->n++];
		p->track = sqlite3_column_int64(st, 0);
		p->goid = sqlite3_column_int64(st, 1);
		p->fn = tr_xstrdup(tr_gort_name((const char *)t));
		p->chan = p->sync = 0;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read the goroutines"));
	return (0);
}

static struct gor *
gor_of(const struct gors *g, int64_t track)
{
	size_t	a = 0, b = g->n, m;

	while (a < b) {
		m = a + (b - a) / 2;
		if (g->v[m].track < track)
			a = m + 1;
		else
			b = m;
	}
	return (a < g->n && g->v[a].track == track ? &g->v[a] : NULL);
}

/*
 * A read of the states of [a, b), a part of window [lo, hi) whose whole
 * seconds [A, B) go_wait_sec gives.  A goroutine's part in the window:
 * its sync waits there, and its channel waits that end inside (a
 * goroutine parked on a channel for good is not in the stall), the time
 * of each inside the window.
 */
struct walk {
	struct gors	*g;
	int64_t		 lo, hi, a, b, A, B;
	int		 first;
};

static int
on_state(void *arg, const struct tr_derived_state *s, struct tr_error *err)
{
	struct walk	*w = arg;
	struct gor	*g;
	int64_t		 x, y;

	(void)err;
	if ((s->kind != TR_DK_SYNC && s->kind != TR_DK_CHAN) ||
	    s->end <= s->start || (g = gor_of(w->g, s->track_id)) == NULL)
		return (0);
	if (s->kind == TR_DK_SYNC) {
		x = s->start > w->a ? s->start : w->a;
		y = s->end < w->b ? s->end : w->b;
		if (y > x)
			g->sync += y - x;
		return (0);
	}
	if (s->end >= w->a && s->end < w->b)
		g->chan += s->end - (s->start > w->lo ? s->start : w->lo);
	/* go_wait_sec counted it whole: its part before the window goes. */
	else if (w->first && s->start < w->lo && s->end >= w->A &&
	    s->end < w->B)
		g->chan -= w->lo - s->start;
	return (0);
}

static int
cmp_gb(const void *a, const void *b)
{
	const struct gor	*x = *(struct gor *const *)a;
	const struct gor	*y = *(struct gor *const *)b;
	int64_t			 p = x->chan + x->sync, q = y->chan + y->sync;

	if (p != q)
		return (p > q ? -1 : 1);
	return (x->goid < y->goid ? -1 : x->goid > y->goid);
}

/* The goroutines in window 'w' of source 'src'. */
static int
involved(struct tr_db *db, int64_t src, struct gors *gs, struct win *w,
    struct tr_error *err)
{
	sqlite3_stmt	 *st;
	struct gor	**o = NULL;
	struct walk	  k;
	size_t		  n = 0, i;
	struct tr_buf	  b;
	int		  r;

	for (i = 0; i < gs->n; i++)
		gs->v[i].chan = gs->v[i].sync = 0;
	memset(&k, 0, sizeof k);
	k.g = gs;
	k.lo = w->lo;
	k.hi = w->hi;
	/* The whole seconds inside. */
	if (!tr_derived_seconds(w->lo, w->hi, &k.A, &k.B))
		k.A = k.B = w->hi;
	k.a = w->lo;
	k.b = k.A;
	k.first = 1;
	if (tr_derived_source_states(db, src, k.a, k.b, on_state, &k,
	    err) != 0)
		return (-1);
	if (k.B > k.A) {
		if ((st = tr_db_prepare(db, "SELECT track_id, sum(sync_ns), "
		    "sum(chan_end_ns) FROM go_wait_sec WHERE source_id = ?1 "
		    "AND ts >= ?2 AND ts < ?3 GROUP BY track_id", err)) == NULL)
			return (-1);
		sqlite3_bind_int64(st, 1, src);
		sqlite3_bind_int64(st, 2, k.A);
		sqlite3_bind_int64(st, 3, k.B);
		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			struct gor	*g = gor_of(gs,
			    sqlite3_column_int64(st, 0));

			if (g == NULL)
				continue;
			g->sync += sqlite3_column_int64(st, 1);
			g->chan += sqlite3_column_int64(st, 2);
		}
		sqlite3_finalize(st);
		if (r != SQLITE_DONE)
			return (tr_db_error(db, err, "cannot read go_wait_sec"));
		if (k.B < w->hi) {
			k.a = k.B;
			k.b = w->hi;
			k.first = 0;
			if (tr_derived_source_states(db, src, k.a, k.b,
			    on_state, &k, err) != 0)
				return (-1);
		}
	}
	o = tr_xcalloc(gs->n + 1, sizeof *o);
	for (i = 0; i < gs->n; i++)
		if (gs->v[i].chan != 0 || gs->v[i].sync != 0)
			o[n++] = &gs->v[i];
	if (n > 1)
		qsort(o, n, sizeof *o, cmp_gb);
	tr_buf_init(&b);
	for (i = 0; i < n; i++) {
		w->chan_ns += o[i]->chan;
		w->sync_ns += o[i]->sync;
		w->nchan += o[i]->chan > 0;
		w->nsync += o[i]->sync > 0;
		if (i < 5)
			tr_buf_printf(&b, "%s%lld %s %s %.0fms", i ? "; " : "",
			    (long long)o[i]->goid, o[i]->fn, o[i]->sync >=
			    o[i]->chan ? "sync" : "chan", (double)(o[i]->sync +
			    o[i]->chan) / 1e6);
	}
	w->who = b.data != NULL ? b.data : tr_xstrdup("");
	free(o);
	return (0);
}

/* --- who held the mutexes ------------------------------------------ */

/* One holder: a goroutine and the stack where it woke the waiters. */
struct holder {
	int64_t	 waker, cs, n, ns;
};

/* A mutex wait that ended in the window, until the state after it. */
struct mw {
	int64_t	 t, dur;		/* its end and length */
};

/*
 * The holders of a window, as its states come (each goroutine's in
 * their order): a wait is charged to the waker of the runnable state
 * that starts where it ends, with that state's stack, or to nobody (0)
 * when the goroutine's next state is another.
 */
struct mws {
	struct tr_imap	 pend;		/* track -> struct mw */
	struct tr_imap	 index;		/* hash of (waker, cs) -> h + 1 */
	struct holder	*h;
	size_t		 n, cap;
	int64_t		 lo, hi;
	int64_t		 sync, unblocked;	/* str ids */
};

static void
hold_n(struct mws *m, int64_t waker, int64_t cs, int64_t count, int64_t dur)
{
	int64_t		 key[2];
	uint64_t	 h;
	uintptr_t	 i;

	key[0] = waker;
	key[1] = cs;
	h = tr_hash64(key, sizeof key);
	while ((i = (uintptr_t)tr_imap_get(&m->index, h)) != 0 &&
	    (m->h[i - 1].waker != waker || m->h[i - 1].cs != cs))
		h++;
	if (i == 0) {
		if (m->n == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 64;
			m->h = tr_xrealloc(m->h, m->cap * sizeof *m->h);
		}
		m->h[m->n].waker = waker;
		m->h[m->n].cs = cs;
		m->h[m->n].n = m->h[m->n].ns = 0;
		i = ++m->n;
		tr_imap_put(&m->index, h, (void *)i);
	}
	m->h[i - 1].n += count;
	m->h[i - 1].ns += dur;
}

static void
hold(struct mws *m, int64_t waker, int64_t cs, int64_t dur)
{
	hold_n(m, waker, cs, 1, dur);
}

static int
on_mutex(void *arg, const struct tr_derived_state *s, struct tr_error *err)
{
	struct mws	*m = arg;
	struct mw	*p;
	int64_t		 waker = 0;

	(void)err;
	if ((p = tr_imap_get(&m->pend, (uint64_t)s->track_id)) != NULL) {
		if (s->kind == TR_DK_RUNNABLE && s->start == p->t &&
		    s->category_id == m->unblocked && s->start <= m->hi &&
		    tr_derived_waker(s->args, s->args_len, &waker) &&
		    waker > 0) {
			hold(m, waker, s->callsite_id, p->dur);
			free(tr_imap_del(&m->pend, (uint64_t)s->track_id));
			return (0);
		}
		if (s->start > p->t) {
			hold(m, 0, 0, p->dur);
			free(tr_imap_del(&m->pend, (uint64_t)s->track_id));
		}
	}
	if (s->kind == TR_DK_SYNC && s->category_id == m->sync &&
	    s->end > s->start && s->end >= m->lo && s->end < m->hi) {
		if ((p = tr_imap_get(&m->pend, (uint64_t)s->track_id)) ==
		    NULL) {
			p = tr_xcalloc(1, sizeof *p);
			tr_imap_put(&m->pend, (uint64_t)s->track_id, p);
		} else
			hold(m, 0, 0, p->dur);
		p->t = s->end;
		p->dur = s->end - s->start;
	}
	return (0);
}

static int
cmp_holder(const void *a, const void *b)
{
	const struct holder	*x = a, *y = b;

	if (x->ns != y->ns)
		return (x->ns > y->ns ? -1 : 1);
	if (x->waker != y->waker)
		return (x->waker < y->waker ? -1 : 1);
	return (x->cs < y->cs ? -1 : x->cs > y->cs);
}

/*
 * The waits that end in [m->lo, m->hi), into m: those of its whole
 * seconds from go_mutex_waker (when the source has derived rows), those
 * of the partial ones around from the states.
 */
static int
window_waits(struct tr_db *db, int64_t src, struct mws *m,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 lo = m->lo, hi = m->hi, A, B;
	int		 r = 0;

	if (tr_derived_seconds(lo, hi, &A, &B) &&
	    (r = tr_derived_present(db, src, err)) < 0)
		return (-1);
	if (r == 0)
		return (tr_derived_source_states(db, src, lo, hi, on_mutex, m,
		    err));
	if ((st = tr_db_prepare(db, "SELECT coalesce(waker_goid, 0), "
	    "coalesce(callsite_id, 0), sum(count), sum(total_ns) FROM "
	    "go_mutex_waker WHERE source_id = ?1 AND ts >= ?2 AND ts < ?3 "
	    "GROUP BY 1, 2", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, src);
	sqlite3_bind_int64(st, 2, A);
	sqlite3_bind_int64(st, 3, B);
	while ((r = sqlite3_step(st)) == SQLITE_ROW)
		hold_n(m, sqlite3_column_int64(st, 0),
		    sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
		    sqlite3_column_int64(st, 3));
	sqlite3_finalize(st);
	if (r != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read go_mutex_waker"));
	if (A > lo) {
		m->lo = lo;
		m->hi = A;
		if (tr_derived_source_states(db, src, lo, A, on_mutex, m,
		    err) != 0)
			return (-1);
	}
	if (hi > B) {
		m->lo = B;
		m->hi = hi;
		if (tr_derived_source_states(db, src, B, hi, on_mutex, m,
		    err) != 0)
			return (-1);
	}
	m->lo = lo;
	m->hi = hi;
	return (0);
}

/*
 * The holders of source 'src' over [lo, hi): from go_mutex_waker for
 * the whole source, else from the states of the window (the waits that
 * end in it, each with the runnable state that starts where it ends).
 */
static int
holders_of(struct tr_db *db, int64_t src, const struct tr_sel *sel,
    int64_t lo, int64_t hi, struct holder **out, size_t *nout,
    struct tr_error *err)
{
	struct holder	*h = NULL;
	size_t		 n = 0, i;
	sqlite3_stmt	*st;
	int		 r;

	*out = NULL;
	*nout = 0;
	if (!sel->has_from && !sel->has_to) {
		if ((st = tr_db_prepare(db, "SELECT coalesce(waker_goid, 0), "
		    "coalesce(callsite_id, 0), sum(count), sum(total_ns) FROM "
		    "go_mutex_waker WHERE source_id = ?1 GROUP BY 1, 2", err))
		    == NULL)
			return (-1);
		sqlite3_bind_int64(st, 1, src);
		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			h = tr_xrealloc(h, (n + 1) * sizeof *h);
			h[n].waker = sqlite3_column_int64(st, 0);
			h[n].cs = sqlite3_column_int64(st, 1);
			h[n].n = sqlite3_column_int64(st, 2);
			h[n++].ns = sqlite3_column_int64(st, 3);
		}
		sqlite3_finalize(st);
		if (r != SQLITE_DONE) {
			free(h);
			return (tr_db_error(db, err, "cannot read "
			    "go_mutex_waker"));
		}
	} else {
		struct mws	 m;
		uint64_t	*keys;
		size_t		 nk;

		memset(&m, 0, sizeof m);
		tr_imap_init(&m.pend);
		tr_imap_init(&m.index);
		m.lo = lo;
		m.hi = hi;
		if (tr_db_int(db, "SELECT coalesce((SELECT id FROM str WHERE "
		    "s = '" TR_GO_REASON_SYNC "'), -1)", &m.sync, err) != 0 ||
		    tr_db_int(db, "SELECT coalesce((SELECT id FROM str WHERE "
		    "s = 'unblocked'), -1)", &m.unblocked, err) != 0 ||
		    window_waits(db, src, &m, err) != 0) {
			tr_imap_free(&m.pend, free);
			tr_imap_release(&m.index);
			free(m.h);
			return (-1);
		}
		/* The waits the trace's end or the window left unmatched. */
		keys = tr_imap_keys(&m.pend, &nk);
		for (i = 0; i < nk; i++)
			hold(&m, 0, 0, ((struct mw *)tr_imap_get(&m.pend,
			    keys[i]))->dur);
		free(keys);
		tr_imap_free(&m.pend, free);
		tr_imap_release(&m.index);
		h = m.h;
		n = m.n;
	}
	if (n > 1)
		qsort(h, n, sizeof *h, cmp_holder);
	*out = h;
	*nout = n;
	return (0);
}

/*
 * The "holders" set: for each source, the --top goroutines that ended
 * mutex waits (the runtime's "sync" reason), by the stack where they
 * did, with the blocked time they account for.
 */
static int
emit_holders(struct tr_db *db, const struct tr_sel *sel, struct tr_attr *a,
    struct tr_out *out, const int64_t *ids, int n, int64_t top,
    struct tr_error *err)
{
	int	i;
	size_t	j, k;

	tr_out_set_name(out, "holders");
	tr_out_columns_of(out, TR_OUT_NCOLS(ho_cols), ho_cols);
	for (i = 0; i < n; i++) {
		struct holder	*h;
		struct gors	 gs = { NULL, 0 };
		size_t		 nh;
		int64_t		 lo, hi, tot = 0;

		if (tr_gort_span(db, sel, ids[i], &lo, &hi, err) != 0 ||
		    holders_of(db, ids[i], sel, lo, hi, &h, &nh, err) != 0)
			return (-2);
		if (gors_load(db, ids[i], &gs, err) != 0) {
			free(h);
			return (-2);
		}
		for (j = 0; j < nh; j++)
			tot += h[j].ns;
		for (j = 0; j < nh && (int64_t)j < top; j++) {
			const char	*fn = "(none: not unblocked in the trace)";
			char		*t = h[j].cs > 0 ?
			    tr_attr_stack_text(a, h[j].cs) : NULL;

			for (k = 0; h[j].waker > 0 && k < gs.n; k++)
				if (gs.v[k].goid == h[j].waker) {
					fn = gs.v[k].fn;
					break;
				}
			if (h[j].waker > 0 && k == gs.n)
				fn = TR_GORT_NAMELESS;
			tr_out_int(out, ids[i]);
			if (h[j].waker > 0)
				tr_out_int(out, h[j].waker);
			else
				tr_out_null(out);
			tr_out_text(out, fn);
			if (h[j].cs > 0)
				tr_out_int(out, h[j].cs);
			else
				tr_out_null(out);
			tr_out_int(out, h[j].n);
			tr_out_int(out, h[j].ns);
			tr_out_real(out, tot > 0 ? (double)h[j].ns /
			    (double)tot : 0);
			tr_out_text(out, t != NULL ? t : "");
			tr_out_end_row(out);
			free(t);
		}
		free(h);
		gors_release(&gs);
	}
	return (tr_out_finish(out) != 0 ? -1 : 0);
}

/*
 * The compound stalls of a source: runs of 10 ms bins with mutex
 * contention (goroutines blocked on sync for at least 'minsync' of the
 * bin on average) merged across gaps up to 'gap', at least 'min' long,
 * in which goroutines woke from channel waits for at least 'minchan' of
 * the window.
 */
static int
compound(struct tr_db *db, int64_t src, int64_t lo, int64_t hi,
    double minsync, double minchan, int64_t gap, int64_t min,
    struct win **out, size_t *nout, struct tr_error *err)
{
	struct gors			 gs = { NULL, 0 };
	struct tr_derived_totals	*t;
	int64_t				 nb, i, a = -1, e = -1;
	struct win			*v = NULL;
	size_t				 n = 0, k;

	*out = NULL;
	*nout = 0;
	lo -= lo % TR_DERIVED_BIN;
	nb = (hi - lo + TR_DERIVED_BIN - 1) / TR_DERIVED_BIN;
	if (nb <= 0)
		return (0);
	t = tr_xcalloc((size_t)nb, sizeof *t);
	if (tr_derived_series(db, src, lo, TR_DERIVED_BIN, nb, t, err) != 0) {
		free(t);
		return (-1);
	}
	for (i = 0; i <= nb; i++) {
		int	on = i < nb && (double)t[i].ns[TR_DK_SYNC] >=
		    minsync * TR_DERIVED_BIN;
		int64_t	b0 = lo + i * TR_DERIVED_BIN;

		if (on) {
			if (a >= 0 && b0 - e > gap) {
				v = tr_xrealloc(v, (n + 1) * sizeof *v);
				v[n].lo = a;
				v[n++].hi = e;
				a = -1;
			}
			if (a < 0)
				a = b0;
			e = b0 + TR_DERIVED_BIN;
		}
	}
	if (a >= 0) {
		v = tr_xrealloc(v, (n + 1) * sizeof *v);
		v[n].lo = a;
		v[n++].hi = e;
	}
	free(t);
	for (k = 0; k < n; k++)
		if (v[k].hi - v[k].lo >= min) {
			struct win	w = v[k];

			w.sync_ns = w.chan_ns = w.nsync = w.nchan = 0;
			w.who = NULL;
			if (gs.v == NULL && gors_load(db, src, &gs, err) != 0) {
				free(v);
				gors_release(&gs);
				return (-1);
			}
			if (involved(db, src, &gs, &w, err) != 0) {
				free(v);
				gors_release(&gs);
				return (-1);
			}
			if ((double)w.chan_ns < minchan *
			    (double)(w.hi - w.lo)) {
				free(w.who);
				continue;
			}
			(*out) = tr_xrealloc(*out, (*nout + 1) * sizeof **out);
			(*out)[(*nout)++] = w;
		}
	free(v);
	gors_release(&gs);
	return (0);
}

/* One stack's blocking in each kind. */
struct kst {
	int64_t	 cs;
	int64_t	 count[3], ns[3];	/* chan, mutex, other */
};

static int
cmp_kst(const void *pa, const void *pb)
{
	const struct kst	*x = pa, *y = pb;
	int64_t			 p = x->ns[0] + x->ns[1] + x->ns[2];
	int64_t			 q = y->ns[0] + y->ns[1] + y->ns[2];

	if (p != q)
		return (p > q ? -1 : 1);
	return (x->cs < y->cs ? -1 : x->cs > y->cs);
}

/*
 * The trace's part, from the blocking engine (blocked.h): go tool trace
 * -pprof=sync's intervals by stack, split into channels (chan), the
 * runtime's "sync" reason (mutex) and the rest (other: cond, and in old
 * traces GC-assist blocks).  Returns 0, -1 with 'err' set (also when
 * writing failed: TR_EIO).
 */
static int
emit_trace(struct tr_db *db, const struct tr_sel *sel, struct tr_attr *a,
    struct tr_out *out, int64_t top, struct tr_error *err)
{
	static const enum tr_blocked_kind kinds[3] = {
		TR_BLOCKED_CHAN, TR_BLOCKED_MUTEX, TR_BLOCKED_SYNC
	};
	static const char *const kn[3] = { "chan", "mutex", "other" };
	struct tr_blocked	 b[3];
	struct kst		*v = NULL;
	size_t			 n = 0, i, j;
	int			 k, rc = -1;
	int64_t			 row;

	memset(b, 0, sizeof b);
	if (tr_blocked_collect_n(db, sel, kinds, 3, b, err) != 0)
		goto out;
	/* Every stack of sync; chan and mutex are parts of it. */
	v = tr_xcalloc(b[2].n + 1, sizeof *v);
	for (i = 0; i < b[2].n; i++) {
		v[n].cs = b[2].stacks[i].callsite_id;
		v[n].count[2] = b[2].stacks[i].count;
		v[n].ns[2] = b[2].stacks[i].ns;
		for (k = 0; k < 2; k++)
			for (j = 0; j < b[k].n; j++)
				if (b[k].stacks[j].callsite_id == v[n].cs) {
					v[n].count[k] = b[k].stacks[j].count;
					v[n].ns[k] = b[k].stacks[j].ns;
					v[n].count[2] -= v[n].count[k];
					v[n].ns[2] -= v[n].ns[k];
				}
		n++;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_kst);
	tr_out_set_name(out, "totals");
	tr_out_columns_of(out, TR_OUT_NCOLS(tot_cols), tot_cols);
	for (k = 0; k < 3; k++) {
		int64_t	c = 0, t = 0;

		for (i = 0; i < n; i++) {
			c += v[i].count[k];
			t += v[i].ns[k];
		}
		tr_out_text(out, kn[k]);
		tr_out_int(out, c);
		tr_out_int(out, t);
		tr_out_end_row(out);
	}
	if (tr_out_finish_err(out, err) != 0)
		goto out;
	tr_out_set_name(out, "stacks");
	tr_out_columns_of(out, TR_OUT_NCOLS(st_cols), st_cols);
	row = 0;
	for (i = 0; i < n && row < top; i++) {
		char	*t = tr_attr_stack_text(a, v[i].cs);

		for (k = 0; k < 3; k++) {
			if (v[i].count[k] == 0 && v[i].ns[k] == 0)
				continue;
			tr_out_text(out, kn[k]);
			tr_out_int(out, v[i].cs);
			tr_out_int(out, v[i].count[k]);
			tr_out_int(out, v[i].ns[k]);
			tr_out_text(out, t ? t : "");
			tr_out_end_row(out);
		}
		free(t);
		row++;
	}
	if (tr_out_finish_err(out, err) != 0)
		goto out;
	rc = 0;
out:
	for (k = 0; k < 3; k++)
		tr_blocked_release(&b[k]);
	free(v);
	return (rc);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	double			 minsync = 50, minchan = 30;
	int64_t			 gap = 100000000, min = 100000000, top = 10;
	struct tr_arg		 opts[] = {
		{ "top", 'n', TR_ARG_INT, &top, 0, 1e9, "N",
		    "stacks listed of each profile and of the trace "
		    "(default 10)", 0, 0 },
		{ "min-sync", 0, TR_ARG_PERCENT, &minsync, 0, 10000, "PCT",
		    "compound stalls: goroutines blocked on sync, as a share "
		    "of wall time (default 50%)", 0, 0 },
		{ "min-chan", 0, TR_ARG_PERCENT, &minchan, 0, 10000, "PCT",
		    "compound stalls: channel waits ended inside, as a share "
		    "of the window (default 30%)", 0, 0 },
		{ "gap", 0, TR_ARG_DURATION, &gap, 0, 0, "DURATION",
		    "compound stalls: merged across gaps this short "
		    "(default 100ms)", 0, 0 },
		{ "min", 0, TR_ARG_DURATION, &min, 0, 0, "DURATION",
		    "compound stalls: at least this long (default 100ms)",
		    0, 0 },
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_sel		 sel;
	struct tr_args		 args;
	struct tr_attr		*a = NULL;
	sqlite3_stmt		*st = NULL;
	int64_t			*ids = NULL, origin, woff, nprof = 0;
	int			 n = 0, i, haswall, rc = -1, r;
	struct tr_error		 e2;
	size_t			 k;

	tr_sel_init(&sel, CT_SEL);
	memset(&args, 0, sizeof args);
	args.name = "contention";
	args.synopsis = "[OPTION...]";
	args.about = "Time blocked on channels and on sync primitives by "
	    "stack, from the Go\ntrace and from block and mutex profiles, "
	    "and the compound stalls where\nboth overlap (trace-query(1), "
	    "contention).";
	args.args = opts;
	args.sel = &sel;
	args.max_pos = 0;
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	if ((a = tr_attr_open(db, &sel, err)) == NULL)
		goto out;
	tr_attr_clock(a, &origin, &haswall, &woff);
	tr_out_set_clock(out, origin, haswall, woff);
	if (tr_db_int(db, "SELECT count(*) FROM profile WHERE type IN ('"
	    TR_PROFILE_BLOCK "', '" TR_PROFILE_MUTEX "')", &nprof, err) != 0)
		goto out;
	tr_error_init(&e2);
	if ((n = tr_gort_sources(db, &sel, "contention", "", NULL, &ids,
	    &e2)) < 0) {
		n = 0;
		if (nprof == 0) {
			tr_error_set(err, TR_EDATA, "contention: no Go "
			    "execution trace and no block or mutex profile in "
			    "the store%s", sel.nsources > 0 ? " selection" :
			    "");
			goto out;
		}
		tr_out_note(out, "no Go execution trace: blocking by stack "
		    "from the block and mutex profiles only (no times, no "
		    "compound stalls)");
	}

	if (n > 0 && emit_trace(db, &sel, a, out, top, err) != 0)
		goto out;

	tr_out_set_name(out, "profiles");
	tr_out_columns_of(out, TR_OUT_NCOLS(pr_cols), pr_cols);
	if ((st = tr_db_prepare(db, prof_sql, err)) == NULL)
		goto out;
	{
		char	last[16] = "";
		int64_t	row = 0;

		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			const char	*ty = (const char *)
			    sqlite3_column_text(st, 0);
			char		*t;

			if (strcmp(ty, last) != 0) {
				snprintf(last, sizeof last, "%s", ty);
				row = 0;
			}
			if (row++ >= top)
				continue;
			t = sqlite3_column_type(st, 1) == SQLITE_NULL ? NULL :
			    tr_attr_stack_text(a, sqlite3_column_int64(st, 1));
			tr_out_text(out, ty);
			tr_out_int(out, sqlite3_column_int64(st, 1));
			tr_out_int(out, sqlite3_column_int64(st, 2));
			tr_out_int(out, sqlite3_column_int64(st, 3));
			if (sqlite3_column_type(st, 4) == SQLITE_NULL)
				tr_out_null(out);
			else
				tr_out_int(out, sqlite3_column_int64(st, 4));
			tr_out_text(out, t ? t : "");
			tr_out_end_row(out);
			free(t);
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (r != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the profiles");
		goto out;
	}
	if (tr_out_finish_err(out, err) != 0)
		goto out;

	if (n > 0 && (r = emit_holders(db, &sel, a, out, ids, n, top,
	    err)) != 0) {
		if (r == -1)
			tr_out_write_error(err);
		goto out;
	}

	tr_out_set_name(out, "compound");
	tr_out_columns_of(out, TR_OUT_NCOLS(cp_cols), cp_cols);
	for (i = 0; i < n; i++) {
		struct win	*w = NULL;
		size_t		 nw = 0;
		int64_t		 lo = 0, hi = 0;

		if (tr_gort_span(db, &sel, ids[i], &lo, &hi, err) != 0)
			goto out;
		if (compound(db, ids[i], lo, hi, minsync / 100,
		    minchan / 100, gap, min, &w, &nw, err) != 0)
			goto out;
		for (k = 0; k < nw; k++) {
			tr_out_int(out, ids[i]);
			tr_out_int(out, w[k].lo);
			tr_out_int(out, w[k].hi);
			tr_out_int(out, w[k].hi - w[k].lo);
			tr_out_int(out, w[k].sync_ns);
			tr_out_int(out, w[k].chan_ns);
			tr_out_int(out, w[k].nsync);
			tr_out_int(out, w[k].nchan);
			tr_out_text(out, w[k].who);
			tr_out_end_row(out);
			free(w[k].who);
		}
		free(w);
	}
	if (tr_out_finish_err(out, err) != 0)
		goto out;
	rc = 0;
out:
	sqlite3_finalize(st);
	free(ids);
	tr_attr_free(a);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_contention = {
	.name = "contention",
	.usage = "[OPTION...]",
	.summary = "channel and mutex blocking by stack, compound stalls",
	.run = run,
};
