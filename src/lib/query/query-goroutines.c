/*
 * trace-query goroutines: how many goroutines a Go program had over time,
 * how fast it made them (bursts flagged), their lifetimes by start
 * function as Go's goroutine analysis sums them (go_summary), and leaks:
 * many goroutines blocked at one stack for long and still blocked at the
 * end, with how their count grew.  Without a Go trace, the series of
 * goroutine profiles answers the count and the stacks that grew.
 */
#include "config.h"
#include "query/query.h"

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "query/args.h"
#include "query/attr.h"
#include "query/goruntime.h"
#include "query/sel.h"
#include "store/derived.h"

#define GOR_SEL	(TR_SEL_SOURCE | TR_SEL_TIME)

/*
 * Each goroutine of a source with its summary and its last state (the
 * last slice of its last run: one run read per goroutine).
 */
static const char g_sql[] =
    "SELECT x.id, x.ref, x.name, x.created, x.first_ts, x.last_ts,\n"
    "       x.ended, x.exec_ns, x.sched_wait_ns, x.chan_ns, x.sync_ns,\n"
    "       x.syscall_ns, x.net_ns, x.sleep_ns, x.other_ns, x.assist_ns,\n"
    "       json_extract(x.l, '$[0]') + json_extract(x.l, '$[1][0]'),\n"
    "       n.s, c.s, json_extract(x.l, '$[1][4]')\n"
    "  FROM (SELECT t.id, t.ref, t.name,\n"
    "               json_extract(t.meta, '$.created') AS created,\n"
    "               g.first_ts, g.last_ts, g.ended, g.exec_ns,\n"
    "               g.sched_wait_ns, g.chan_ns, g.sync_ns, g.syscall_ns,\n"
    "               g.net_ns, g.sleep_ns, g.other_ns, g.assist_ns,\n"
    "               (SELECT json_array(r.ts, json_extract(r.slices,\n"
    "                       '$[#-1]')) FROM slice_run r\n"
    "                 WHERE r.track_id = t.id ORDER BY r.ts DESC LIMIT 1)\n"
    "                 AS l\n"
    "          FROM track t CROSS JOIN go_summary g ON g.track_id = t.id\n"
    "         WHERE t.source_id = ?1 AND t.kind = '" TR_TRACK_GOROUTINE
    "') x\n"
    "  LEFT JOIN str n ON n.id = json_extract(x.l, '$[1][2]')\n"
    "  LEFT JOIN str c ON c.id = json_extract(x.l, '$[1][3]')\n"
    " ORDER BY x.ref";
/* The goroutine profiles: a snapshot each, its goroutines per stack. */
static const char prof_sql[] =
    "SELECT p.id, p.source_id, p.ts, s.callsite_id, sum(s.value)\n"
    "  FROM profile p JOIN sample s ON s.profile_id = p.id\n"
    " WHERE p.type = '" TR_PROFILE_GOROUTINE "'\n"
    " GROUP BY p.id, s.callsite_id ORDER BY p.ts, p.id, s.callsite_id";

static const struct tr_out_col sum_cols[] = {
	{ "source", TR_UNIT_NONE }, { "start_ns", TR_UNIT_TS },
	{ "end_ns", TR_UNIT_TS }, { "goroutines", TR_UNIT_NONE },
	{ "at_start", TR_UNIT_NONE }, { "created", TR_UNIT_NONE },
	{ "ended", TR_UNIT_NONE }, { "alive_end", TR_UNIT_NONE },
	{ "peak", TR_UNIT_NONE }, { "peak_ts", TR_UNIT_TS },
	{ "created_per_s_max", TR_UNIT_NONE }, { "bursts", TR_UNIT_NONE },
	{ "leaks", TR_UNIT_NONE }, { "leaked", TR_UNIT_NONE }
};
static const struct tr_out_col ser_cols[] = {
	{ "source", TR_UNIT_NONE }, { "ts", TR_UNIT_TS },
	{ "dur_ns", TR_UNIT_NS }, { "alive", TR_UNIT_NONE },
	{ "created", TR_UNIT_NONE }, { "ended", TR_UNIT_NONE },
	{ "created_per_s", TR_UNIT_NONE }, { "burst", TR_UNIT_NONE }
};
static const struct tr_out_col grp_cols[] = {
	{ "source", TR_UNIT_NONE }, { "function", TR_UNIT_NONE },
	{ "goroutines", TR_UNIT_NONE }, { "ended", TR_UNIT_NONE },
	{ "alive_end", TR_UNIT_NONE }, { "exec_ns", TR_UNIT_NS },
	{ "sched_wait_ns", TR_UNIT_NS }, { "chan_ns", TR_UNIT_NS },
	{ "sync_ns", TR_UNIT_NS }, { "syscall_ns", TR_UNIT_NS },
	{ "net_ns", TR_UNIT_NS }, { "sleep_ns", TR_UNIT_NS },
	{ "other_ns", TR_UNIT_NS }, { "assist_ns", TR_UNIT_NS },
	{ "lifetime_p50_ns", TR_UNIT_NS }, { "lifetime_max_ns", TR_UNIT_NS }
};
static const struct tr_out_col leak_cols[] = {
	{ "source", TR_UNIT_NONE }, { "leak", TR_UNIT_NONE },
	{ "count", TR_UNIT_NONE }, { "state", TR_UNIT_NONE },
	{ "reason", TR_UNIT_NONE }, { "callsite_id", TR_UNIT_NONE },
	{ "function", TR_UNIT_NONE }, { "oldest_ts", TR_UNIT_TS },
	{ "newest_ts", TR_UNIT_TS }, { "min_age_ns", TR_UNIT_NS },
	{ "stack", TR_UNIT_NONE }
};
static const struct tr_out_col grow_cols[] = {
	{ "source", TR_UNIT_NONE }, { "leak", TR_UNIT_NONE },
	{ "ts", TR_UNIT_TS }, { "count", TR_UNIT_NONE }
};
static const struct tr_out_col prof_cols[] = {
	{ "profile", TR_UNIT_NONE }, { "source", TR_UNIT_NONE },
	{ "ts", TR_UNIT_TS }, { "goroutines", TR_UNIT_NONE }
};
static const struct tr_out_col pstk_cols[] = {
	{ "callsite_id", TR_UNIT_NONE }, { "first", TR_UNIT_NONE },
	{ "last", TR_UNIT_NONE }, { "growth", TR_UNIT_NONE },
	{ "profiles", TR_UNIT_NONE }, { "stack", TR_UNIT_NONE }
};
static const struct tr_out_col ev_cols[] = {
	{ "source", TR_UNIT_NONE }, { "leak", TR_UNIT_NONE },
	{ "goid", TR_UNIT_NONE }, { "track_id", TR_UNIT_NONE },
	{ "since_ts", TR_UNIT_TS }, { "view", TR_UNIT_NONE }
};

struct gor {
	int64_t	 track, goid, born, died;	/* died: -1 alive at end */
	int	 at_start, ended;
	int64_t	 ns[TR_DK_GOROUTINE], assist;
	int64_t	 first, last;
	char	*fn;
	int	 blocked;		/* last state blocked, not ended */
	int64_t	 since, cs;		/* last state's start and stack */
	char	*state, *reason;
	int	 leak;			/* 1-based leak rank, 0: none */
};

struct leak {
	size_t	 first;		/* index of a member in the sorted order */
	int64_t	 count, oldest, newest, cs;
	char	*state, *reason, *fn;
};

struct src {
	int64_t		 id, lo, hi;
	struct gor	*g;
	size_t		 n;
	struct leak	*lk;
	size_t		 nlk;
};

static void
src_release(struct src *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++) {
		free(s->g[i].fn);
		free(s->g[i].state);
		free(s->g[i].reason);
	}
	free(s->g);
	free(s->lk);
}

static int
load(struct tr_db *db, struct src *s, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 r, k;
	size_t		 cap = 0;

	if ((st = tr_db_prepare(db, g_sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct gor	*g;

		if (s->n == cap) {
			cap = cap ? 2 * cap : 256;
			s->g = tr_xrealloc(s->g, cap * sizeof *s->g);
		}
		g = &s->g[s->n++];
		memset(g, 0, sizeof *g);
		g->track = sqlite3_column_int64(st, 0);
		g->goid = sqlite3_column_int64(st, 1);
		g->fn = tr_gort_col_dup(st, 2);
		g->first = sqlite3_column_int64(st, 4);
		g->last = sqlite3_column_int64(st, 5);
		g->at_start = sqlite3_column_type(st, 3) == SQLITE_NULL;
		g->born = g->at_start ? s->lo : sqlite3_column_int64(st, 3);
		g->ended = sqlite3_column_int(st, 6) != 0;
		g->died = g->ended ? g->last : -1;
		for (k = 0; k < TR_DK_GOROUTINE; k++)
			g->ns[k] = sqlite3_column_int64(st, 7 + k);
		g->assist = sqlite3_column_int64(st, 15);
		g->since = sqlite3_column_int64(st, 16);
		g->state = tr_gort_col_dup(st, 17);
		g->reason = tr_gort_col_dup(st, 18);
		g->cs = sqlite3_column_type(st, 19) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 19);
		g->blocked = !g->ended && g->state != NULL &&
		    strcmp(g->state, TR_GO_STATE_BLOCKED) == 0;
	}
	sqlite3_finalize(st);
	if (r != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read the goroutines"));
	return (0);
}

static int
strcmp0(const char *a, const char *b)
{
	return (strcmp(a ? a : "", b ? b : ""));
}

/* Blocked goroutines grouped by (reason, stack), oldest first. */
static int
cmp_blocked(const void *pa, const void *pb)
{
	const struct gor *const	*a = pa, *const *b = pb;
	int			 c;

	if ((c = strcmp0((*a)->reason, (*b)->reason)) != 0)
		return (c);
	if ((*a)->cs != (*b)->cs)
		return ((*a)->cs < (*b)->cs ? -1 : 1);
	if ((*a)->since != (*b)->since)
		return ((*a)->since < (*b)->since ? -1 : 1);
	return ((*a)->goid < (*b)->goid ? -1 : (*a)->goid > (*b)->goid);
}

static int
cmp_leak(const void *pa, const void *pb)
{
	const struct leak	*a = pa, *b = pb;

	if (a->count != b->count)
		return (a->count > b->count ? -1 : 1);
	return (a->oldest < b->oldest ? -1 : a->oldest > b->oldest);
}

/*
 * Leaks: at least 'min' goroutines still blocked at the end of the trace
 * with the same reason and stack, each for longer than 'age'.  Their
 * members get the leak's rank; '*order' lists them grouped (owned by the
 * caller).
 */
static void
find_leaks(struct src *s, int64_t min, int64_t age, struct gor ***order,
    size_t *norder)
{
	struct gor	**v;
	size_t		  n = 0, i, j, k;

	v = tr_xcalloc(s->n + 1, sizeof *v);
	for (i = 0; i < s->n; i++)
		if (s->g[i].blocked && s->hi - s->g[i].since > age)
			v[n++] = &s->g[i];
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_blocked);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp0(v[j]->reason,
		    v[i]->reason) == 0 && v[j]->cs == v[i]->cs; j++)
			;
		if ((int64_t)(j - i) < min)
			continue;
		s->lk = tr_xrealloc(s->lk, (s->nlk + 1) * sizeof *s->lk);
		s->lk[s->nlk].first = i;
		s->lk[s->nlk].count = (int64_t)(j - i);
		s->lk[s->nlk].oldest = v[i]->since;
		s->lk[s->nlk].newest = v[j - 1]->since;
		s->lk[s->nlk].cs = v[i]->cs;
		s->lk[s->nlk].state = v[i]->state;
		s->lk[s->nlk].reason = v[i]->reason;
		s->lk[s->nlk].fn = v[i]->fn;
		s->nlk++;
	}
	if (s->nlk > 1)
		qsort(s->lk, s->nlk, sizeof *s->lk, cmp_leak);
	for (k = 0; k < s->nlk; k++)
		for (i = s->lk[k].first; i < s->lk[k].first +
		    (size_t)s->lk[k].count; i++)
			v[i]->leak = (int)k + 1;
	*order = v;
	*norder = n;
}

/* Alive at t: born at or before t, not yet ended. */
static int
alive_at(const struct gor *g, int64_t t)
{
	return (g->born <= t && (g->died < 0 || g->died > t));
}

struct evt {
	int64_t	ts;
	int	d;
};

static int
cmp_evt(const void *pa, const void *pb)
{
	const struct evt	*a = pa, *b = pb;

	if (a->ts != b->ts)
		return (a->ts < b->ts ? -1 : 1);
	/* Ends before starts at one instant: the peak is not inflated. */
	return (a->d - b->d);
}

/* The most goroutines alive at once in [lo, hi), and when first. */
static int64_t
peak(const struct src *s, int64_t lo, int64_t hi, int64_t *when)
{
	struct evt	*e;
	size_t		 n = 0, i;
	int64_t		 cur = 0, best = 0;

	e = tr_xcalloc(2 * s->n + 1, sizeof *e);
	for (i = 0; i < s->n; i++) {
		const struct gor	*g = &s->g[i];

		if (g->died >= 0 && g->died <= lo)
			continue;
		if (g->born >= hi)
			continue;
		e[n].ts = g->born < lo ? lo : g->born;
		e[n++].d = 1;
		if (g->died >= 0 && g->died < hi) {
			e[n].ts = g->died;
			e[n++].d = -1;
		}
	}
	if (n > 1)
		qsort(e, n, sizeof *e, cmp_evt);
	*when = lo;
	for (i = 0; i < n; i++) {
		cur += e[i].d;
		if (cur > best) {
			best = cur;
			*when = e[i].ts;
		}
	}
	free(e);
	return (best);
}

static int
cmp_fn(const void *pa, const void *pb)
{
	const struct gor *const	*a = pa, *const *b = pb;
	int			 c;

	if ((c = strcmp0((*a)->fn, (*b)->fn)) != 0)
		return (c);
	return ((*a)->goid < (*b)->goid ? -1 : (*a)->goid > (*b)->goid);
}

struct grp {
	size_t	 i, n;
	int64_t	 ended;
};

static int
cmp_grp(const void *pa, const void *pb)
{
	const struct grp	*a = pa, *b = pb;

	if (a->n != b->n)
		return (a->n > b->n ? -1 : 1);
	return (a->i < b->i ? -1 : a->i > b->i);
}

static int
emit_trace(struct tr_out *out, struct tr_attr *a, struct src *v, size_t n,
    int64_t step, double burst, int64_t top, int evidence,
    struct gor ***orders, const size_t *norders)
{
	size_t	i, k, j;

	tr_out_set_name(out, "goroutines");
	tr_out_columns_of(out, TR_OUT_NCOLS(sum_cols), sum_cols);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		int64_t		 nat = 0, ncr = 0, nend = 0, alive = 0, when;
		int64_t		 pk, nb = 0, leaked = 0, t;
		double		 rmax = 0;

		for (k = 0; k < s->n; k++) {
			const struct gor	*g = &s->g[k];

			if (g->born >= s->hi || (g->died >= 0 &&
			    g->died < s->lo))
				continue;
			if (g->at_start)
				nat++;
			else if (g->born >= s->lo)
				ncr++;
			if (g->died >= 0 && g->died < s->hi)
				nend++;
			if (alive_at(g, s->hi - 1))
				alive++;
		}
		for (t = s->lo; t < s->hi; t += step) {
			int64_t	e = t + step < s->hi ? t + step : s->hi, c = 0;
			double	r;

			for (k = 0; k < s->n; k++)
				if (!s->g[k].at_start && s->g[k].born >= t &&
				    s->g[k].born < e)
					c++;
			r = (double)c * 1e9 / (double)(e - t);
			if (r > rmax)
				rmax = r;
			if (r >= burst && c > 0)
				nb++;
		}
		for (k = 0; k < s->nlk; k++)
			leaked += s->lk[k].count;
		pk = peak(s, s->lo, s->hi, &when);
		tr_out_int(out, s->id);
		tr_out_int(out, s->lo);
		tr_out_int(out, s->hi);
		tr_out_int(out, nat + ncr);
		tr_out_int(out, nat);
		tr_out_int(out, ncr);
		tr_out_int(out, nend);
		tr_out_int(out, alive);
		tr_out_int(out, pk);
		tr_out_int(out, when);
		tr_out_real(out, rmax);
		tr_out_int(out, nb);
		tr_out_int(out, (int64_t)s->nlk);
		tr_out_int(out, leaked);
		tr_out_end_row(out);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "series");
	tr_out_columns_of(out, TR_OUT_NCOLS(ser_cols), ser_cols);
	for (i = 0; i < n; i++) {
		struct src	*s = &v[i];
		int64_t		 t;

		for (t = s->lo; t < s->hi; t += step) {
			int64_t	e = t + step < s->hi ? t + step : s->hi;
			int64_t	c = 0, d = 0, al = 0;
			double	r;

			for (k = 0; k < s->n; k++) {
				const struct gor	*g = &s->g[k];

				if (!g->at_start && g->born >= t && g->born < e)
					c++;
				if (g->died >= t && g->died < e)
					d++;
				if (alive_at(g, e - 1))
					al++;
			}
			r = (double)c * 1e9 / (double)(e - t);
			tr_out_int(out, s->id);
			tr_out_int(out, t);
			tr_out_int(out, e - t);
			tr_out_int(out, al);
			tr_out_int(out, c);
			tr_out_int(out, d);
			tr_out_real(out, r);
			tr_out_int(out, r >= burst && c > 0);
			tr_out_end_row(out);
		}
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "groups");
	tr_out_columns_of(out, TR_OUT_NCOLS(grp_cols), grp_cols);
	for (i = 0; i < n; i++) {
		struct src	 *s = &v[i];
		struct gor	**p;
		struct grp	 *gr = NULL;
		size_t		  ng = 0, m = 0;

		p = tr_xcalloc(s->n + 1, sizeof *p);
		for (k = 0; k < s->n; k++)
			if (s->g[k].born < s->hi && (s->g[k].died < 0 ||
			    s->g[k].died >= s->lo))
				p[m++] = &s->g[k];
		if (m > 1)
			qsort(p, m, sizeof *p, cmp_fn);
		for (k = 0; k < m; k = j) {
			for (j = k + 1; j < m && strcmp0(p[j]->fn, p[k]->fn) ==
			    0; j++)
				;
			gr = tr_xrealloc(gr, (ng + 1) * sizeof *gr);
			gr[ng].i = k;
			gr[ng].n = j - k;
			ng++;
		}
		if (ng > 1)
			qsort(gr, ng, sizeof *gr, cmp_grp);
		for (k = 0; k < ng && (int64_t)k < top; k++) {
			int64_t	 sum[TR_DK_GOROUTINE], as = 0, ne = 0, *life;
			int	 d;

			memset(sum, 0, sizeof sum);
			life = tr_xcalloc(gr[k].n, sizeof *life);
			for (j = 0; j < gr[k].n; j++) {
				const struct gor	*g = p[gr[k].i + j];

				for (d = 0; d < TR_DK_GOROUTINE; d++)
					sum[d] += g->ns[d];
				as += g->assist;
				ne += g->ended;
				life[j] = g->last - g->first;
			}
			tr_gort_sort(life, gr[k].n);
			tr_out_int(out, s->id);
			tr_out_text(out, tr_gort_name(p[gr[k].i]->fn));
			tr_out_int(out, (int64_t)gr[k].n);
			tr_out_int(out, ne);
			tr_out_int(out, (int64_t)gr[k].n - ne);
			for (d = 0; d < TR_DK_GOROUTINE; d++)
				tr_out_int(out, sum[d]);
			tr_out_int(out, as);
			tr_out_int(out, tr_gort_pct(life, gr[k].n, 0.5));
			tr_out_int(out, life[gr[k].n - 1]);
			tr_out_end_row(out);
			free(life);
		}
		free(gr);
		free(p);
	}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "leaks");
	tr_out_columns_of(out, TR_OUT_NCOLS(leak_cols), leak_cols);
	for (i = 0; i < n; i++)
		for (k = 0; k < v[i].nlk; k++) {
			const struct leak	*l = &v[i].lk[k];
			char			*t;

			tr_out_int(out, v[i].id);
			tr_out_int(out, (int64_t)k + 1);
			tr_out_int(out, l->count);
			tr_out_text(out, l->state ? l->state : "");
			tr_out_text(out, l->reason ? l->reason : "");
			if (l->cs >= 0)
				tr_out_int(out, l->cs);
			else
				tr_out_null(out);
			tr_out_text(out, tr_gort_name(l->fn));
			tr_out_int(out, l->oldest);
			tr_out_int(out, l->newest);
			tr_out_int(out, v[i].hi - l->newest);
			t = l->cs >= 0 ? tr_attr_stack_text(a, l->cs) : NULL;
			tr_out_text(out, t ? t : "");
			free(t);
			tr_out_end_row(out);
		}
	if (tr_out_finish(out) != 0)
		return (-1);

	tr_out_set_name(out, "leak_growth");
	tr_out_columns_of(out, TR_OUT_NCOLS(grow_cols), grow_cols);
	for (i = 0; i < n; i++)
		for (k = 0; k < v[i].nlk; k++) {
			const struct leak	*l = &v[i].lk[k];
			struct gor *const	*m = orders[i] + l->first;
			int64_t			 t, e, c = 0;

			/* Members sorted by 'since': a running count. */
			for (t = v[i].lo; t < v[i].hi; t += step) {
				e = t + step < v[i].hi ? t + step : v[i].hi;
				while (c < l->count && m[c]->since < e)
					c++;
				tr_out_int(out, v[i].id);
				tr_out_int(out, (int64_t)k + 1);
				tr_out_int(out, e);
				tr_out_int(out, c);
				tr_out_end_row(out);
			}
		}
	if (tr_out_finish(out) != 0)
		return (-1);
	if (!evidence)
		return (0);
	tr_out_set_name(out, "evidence");
	tr_out_columns_of(out, TR_OUT_NCOLS(ev_cols), ev_cols);
	for (i = 0; i < n; i++)
		for (k = 0; k < norders[i]; k++) {
			const struct gor	*g = orders[i][k];

			if (g->leak == 0)
				continue;
			tr_out_int(out, v[i].id);
			tr_out_int(out, g->leak);
			tr_out_int(out, g->goid);
			tr_out_int(out, g->track);
			tr_out_int(out, g->since);
			tr_out_text(out, "go_state");
			tr_out_end_row(out);
		}
	return (tr_out_finish(out));
}

struct pstack {
	int64_t	 cs, first, last;
	int64_t	 nprof;
};

static int
cmp_pstack(const void *pa, const void *pb)
{
	const struct pstack	*a = pa, *b = pb;

	if (a->last - a->first != b->last - b->first)
		return (a->last - a->first > b->last - b->first ? -1 : 1);
	return (a->cs < b->cs ? -1 : a->cs > b->cs);
}

/*
 * The goroutine profiles of the selection: the count of each, and
 * without a Go trace the stacks of the last one with at least 'min'
 * goroutines and how they grew from the first.  Returns the number of
 * profiles, or -1.
 */
static int
emit_profiles(struct tr_db *db, struct tr_out *out, struct tr_attr *a,
    const struct tr_sel *sel, int stacks, int64_t min, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 pid = -1, src = 0, ts = 0, tot = 0, firstp = -1;
	struct pstack	*ps = NULL;
	size_t		 nps = 0, i;
	int		 r, np = 0, rc = -1;

	if ((st = tr_db_prepare(db, prof_sql, err)) == NULL)
		return (-1);
	tr_out_set_name(out, "profiles");
	tr_out_columns_of(out, TR_OUT_NCOLS(prof_cols), prof_cols);
	for (;;) {
		int64_t	p, cs, val;

		r = sqlite3_step(st);
		if (r != SQLITE_ROW && r != SQLITE_DONE)
			break;
		p = r == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -2;
		if (r == SQLITE_ROW && (!tr_sel_has_source(sel,
		    sqlite3_column_int64(st, 1)) || !tr_sel_has_ts(sel,
		    sqlite3_column_int64(st, 2))))
			continue;
		if (p != pid && pid >= 0) {
			tr_out_int(out, pid);
			tr_out_int(out, src);
			tr_out_int(out, ts);
			tr_out_int(out, tot);
			tr_out_end_row(out);
			np++;
		}
		if (r == SQLITE_DONE)
			break;
		if (p != pid) {
			pid = p;
			src = sqlite3_column_int64(st, 1);
			ts = sqlite3_column_int64(st, 2);
			tot = 0;
			if (firstp < 0)
				firstp = p;
			/* Stacks absent now count 0 from here on. */
			for (i = 0; i < nps; i++)
				ps[i].last = 0;
		}
		cs = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 3);
		val = sqlite3_column_int64(st, 4);
		tot += val;
		for (i = 0; i < nps; i++)
			if (ps[i].cs == cs)
				break;
		if (i == nps) {
			ps = tr_xrealloc(ps, (nps + 1) * sizeof *ps);
			ps[i].cs = cs;
			ps[i].first = p == firstp ? val : 0;
			ps[i].nprof = 0;
			nps++;
		}
		ps[i].last = val;
		ps[i].nprof++;
	}
	if (r != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the goroutine profiles");
		goto out;
	}
	if (tr_out_finish(out) != 0)
		goto out;
	if (stacks) {
		if (nps > 1)
			qsort(ps, nps, sizeof *ps, cmp_pstack);
		tr_out_set_name(out, "profile_stacks");
		tr_out_columns_of(out, TR_OUT_NCOLS(pstk_cols), pstk_cols);
		for (i = 0; i < nps; i++) {
			char	*t;

			if (ps[i].last < min)
				continue;
			if (ps[i].cs >= 0)
				tr_out_int(out, ps[i].cs);
			else
				tr_out_null(out);
			tr_out_int(out, ps[i].first);
			tr_out_int(out, ps[i].last);
			tr_out_int(out, ps[i].last - ps[i].first);
			tr_out_int(out, ps[i].nprof);
			t = ps[i].cs >= 0 ? tr_attr_stack_text(a, ps[i].cs) :
			    NULL;
			tr_out_text(out, t ? t : "");
			free(t);
			tr_out_end_row(out);
		}
		if (tr_out_finish(out) != 0)
			goto out;
	}
	rc = np;
out:
	sqlite3_finalize(st);
	free(ps);
	return (rc);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	int64_t			 step = 1000000000, leak_age = 1000000000;
	int64_t			 leak_min = 50, top = 10;
	double			 burst = 1000;
	int			 evidence = 0;
	struct tr_arg		 opts[] = {
		{ "step", 0, TR_ARG_DURATION, &step, 0, 0, "DURATION",
		    "the series' step (default 1s)", 0, 0 },
		{ "burst", 0, TR_ARG_REAL, &burst, 1, 1e12, "N",
		    "a step creating at least N goroutines per second is a "
		    "burst (default 1000)", 0, 0 },
		{ "leak-min", 0, TR_ARG_INT, &leak_min, 1, 1e12, "N",
		    "a leak: at least N goroutines blocked at one stack "
		    "(default 50)", 0, 0 },
		{ "leak-age", 0, TR_ARG_DURATION, &leak_age, 0, 0,
		    "DURATION", "a leak: each blocked longer than this and "
		    "still at the end (default 1s)", 0, 0 },
		{ "top", 'n', TR_ARG_INT, &top, 0, 1e9, "N",
		    "groups: the N start functions with the most goroutines "
		    "(default 10)", 0, 0 },
		{ "evidence", 0, TR_ARG_FLAG, &evidence, 0, 0, NULL,
		    "add the leaked goroutines (by goid)", 0, 0 },
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_sel		 sel;
	struct tr_args		 args = {
		.name = "goroutines", .synopsis = "[OPTION...]",
		.about = "Goroutines over time, their creation rate with "
		    "bursts, lifetimes by start\nfunction, and leaks: many "
		    "goroutines blocked at one stack to the end\n"
		    "(trace-query(1), goroutines).",
		.args = opts, .sel = &sel, .step = &step
	};
	struct tr_attr		*a = NULL;
	struct src		*v = NULL;
	struct gor		***orders = NULL;
	size_t			*norders = NULL;
	int64_t			*ids = NULL, origin, woff;
	int			 n = 0, i, haswall, rc, np = 0;
	struct tr_error		 e2;

	tr_sel_init(&sel, GOR_SEL);
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	if ((a = tr_attr_open(db, &sel, err)) == NULL)
		goto out;
	tr_attr_clock(a, &origin, &haswall, &woff);
	tr_out_set_clock(out, origin, haswall, woff);
	tr_error_init(&e2);
	if ((n = tr_gort_sources(db, &sel, "goroutines", "lifetimes and "
	    "leaks come from one (runtime/trace)", NULL, &ids, &e2)) < 0) {
		/* The goroutine profiles, when there are some. */
		int64_t	nprof = 0;

		n = 0;
		if (tr_db_int(db, "SELECT count(*) FROM profile WHERE type = '"
		    TR_PROFILE_GOROUTINE "'", &nprof, err) != 0)
			goto out;
		if (nprof == 0 || (np = emit_profiles(db, out, a, &sel, 1,
		    leak_min, err)) == 0) {
			tr_error_set(err, TR_EDATA, "goroutines: no Go "
			    "execution trace and no goroutine profile in the "
			    "store%s", sel.nsources > 0 || sel.has_from ||
			    sel.has_to ? " selection" : "");
			goto out;
		}
		if (np < 0)
			goto out;
		tr_out_note(out, "no Go execution trace: goroutine counts "
		    "from %d goroutine profile%s; leaks are the stacks of the "
		    "last with at least %lld (no blocking times in "
		    "profiles)", np, np == 1 ? "" : "s", (long long)leak_min);
		rc = 0;
		goto out;
	}
	v = tr_xcalloc((size_t)n, sizeof *v);
	orders = tr_xcalloc((size_t)n, sizeof *orders);
	norders = tr_xcalloc((size_t)n, sizeof *norders);
	for (i = 0; i < n; i++) {
		v[i].id = ids[i];
		if (tr_gort_span(db, &sel, v[i].id, &v[i].lo, &v[i].hi,
		    err) != 0 || load(db, &v[i], err) != 0)
			goto out;
		if (v[i].hi <= v[i].lo)
			v[i].hi = v[i].lo + 1;
		find_leaks(&v[i], leak_min, leak_age, &orders[i],
		    &norders[i]);
	}
	if (sel.has_to)
		tr_out_note(out, "leaks are goroutines blocked at the end of "
		    "the trace, whatever --to");
	if (emit_trace(out, a, v, (size_t)n, step, burst, top, evidence,
	    orders, norders) != 0 || emit_profiles(db, out, a, &sel, 0,
	    leak_min, err) < 0) {
		/* A store error of emit_profiles() comes first. */
		tr_out_write_error(err);
		goto out;
	}
	rc = 0;
out:
	if (v != NULL)
		for (i = 0; i < n; i++) {
			src_release(&v[i]);
			free(orders[i]);
		}
	free(v);
	free(orders);
	free(norders);
	free(ids);
	tr_attr_free(a);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_goroutines = {
	.name = "goroutines",
	.usage = "[OPTION...]",
	.summary = "goroutine counts, creation bursts, lifetimes, leaks",
	.run = run,
};
