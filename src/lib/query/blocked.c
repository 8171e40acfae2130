/*
 * Per-stack blocking totals from the Go trace, replaying go tool trace's
 * pprof rules over the goroutine states of the store (blocked.h).
 */
#include "config.h"
#include "query/blocked.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "store/derived.h"

static const char *const kind_names[] = {
	"sync", "net", "syscall", "sched", "chan", "mutex", "sleep", "all",
	NULL
};

int
tr_blocked_parse_kind(const char *s, enum tr_blocked_kind *k)
{
	int	i;

	for (i = 0; kind_names[i] != NULL; i++)
		if (strcmp(s, kind_names[i]) == 0) {
			*k = (enum tr_blocked_kind)i;
			return (0);
		}
	return (-1);
}

const char *
tr_blocked_kind_name(enum tr_blocked_kind k)
{
	return (kind_names[k]);
}

const char *
tr_blocked_kind_names(void)
{
	return ("sync, net, syscall, sched, chan, mutex, sleep, all");
}

struct charge {
	int64_t	cs, ns, count;	/* count: intervals (1 for a replayed one) */
};

struct acc {
	struct charge	*v;
	size_t		 n, cap;
};

/* The nanoseconds of [b, e) that the selection's time takes. */
static int64_t
clip(const struct tr_sel *sel, int64_t b, int64_t e)
{
	int64_t	in = 0, lo, hi;
	size_t	i, j, k;

	if (sel->has_from && b < sel->from)
		b = sel->from;
	if (sel->has_to && e > sel->to)
		e = sel->to;
	if (e <= b)
		return (0);
	if (!sel->has_windows)
		return (e - b);
	/* The first window that ends after b (they are sorted, disjoint). */
	for (i = 0, j = sel->nwindows; i < j;) {
		k = i + (j - i) / 2;
		if (sel->windows[k].end <= b)
			i = k + 1;
		else
			j = k;
	}
	for (; i < sel->nwindows && sel->windows[i].start < e; i++) {
		lo = sel->windows[i].start > b ? sel->windows[i].start : b;
		hi = sel->windows[i].end < e ? sel->windows[i].end : e;
		if (hi > lo)
			in += hi - lo;
	}
	return (sel->windows_exclude ? (e - b) - in : in);
}

/* Go 1.22 and later write the generation format. */
static int
is_new_format(const char *version)
{
	int	major = 0, minor = 0;

	if (version == NULL || sscanf(version, "%d.%d", &major, &minor) != 2)
		return (0);
	return (major > 1 || (major == 1 && minor >= 22));
}

static int
charge_cmp(const void *va, const void *vb)
{
	const struct charge	*a = va, *b = vb;

	return (a->cs < b->cs ? -1 : a->cs > b->cs);
}

static void
acc_add(struct acc *a, int64_t cs, int64_t count, int64_t ns)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->v = tr_xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n].cs = cs;
	a->v[a->n].count = count;
	a->v[a->n++].ns = ns;
}

/*
 * Source 'src''s per-stack totals of 'kind' from go_blocked_stack's rows
 * (store/derived.h) into 'a'.  Returns 0, or -1 with 'err' set.
 */
static int
from_derived(struct tr_db *db, enum tr_blocked_kind kind, int64_t src,
    int gen, struct acc *a, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = tr_db_prepare(db, "SELECT callsite_id, count, total_ns "
	    "FROM go_blocked_stack WHERE source_id = ?1 AND rules = ?2 AND "
	    "kind = ?3", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, src);
	sqlite3_bind_text(st, 2, gen ? "gen" : "old", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, kind_names[kind], -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		acc_add(a, sqlite3_column_int64(st, 0),
		    sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read go_blocked_stack"));
	return (0);
}

static void
on_charge(void *arg, int64_t cs, int64_t count, int64_t ns)
{
	acc_add(arg, cs, count, ns);
}

static int64_t
on_clip(void *arg, int64_t b, int64_t e, int *count)
{
	int64_t	ns = clip(arg, b, e);

	*count = ns > 0;
	return (ns);
}

/*
 * A partial second of window [from, to) whose whole seconds [A, B)
 * go_blocked_bin gives: [lo, hi) is [from, A) or [B, to).  An interval
 * is charged its nanoseconds in [lo, hi), and counted by the first edge
 * when it starts before A and overlaps the window (the table counts the
 * intervals by the second they start in), by the last when it starts in
 * [B, to).
 */
struct edge {
	int64_t	 from, to, A, B, lo, hi;
	int	 first;
};

static int64_t
on_edge(void *arg, int64_t b, int64_t e, int *count)
{
	const struct edge	*x = arg;
	int64_t			 lo = b > x->lo ? b : x->lo;
	int64_t			 hi = e < x->hi ? e : x->hi;

	*count = x->first ? b < x->A && e > x->from : b >= x->B && b < x->to;
	return (hi > lo ? hi - lo : 0);
}

/*
 * Source 'src''s charges of the n kinds in the whole seconds [A, B),
 * from go_blocked_bin, into a[].
 */
static int
from_bins(struct tr_db *db, int64_t src, int gen,
    const enum tr_blocked_kind *kinds, size_t n, int64_t A, int64_t B,
    struct acc *a, struct tr_error *err)
{
	sqlite3_stmt	*st;
	size_t		 k;
	int		 rc = SQLITE_DONE;

	if ((st = tr_db_prepare(db, "SELECT callsite_id, sum(count), "
	    "sum(total_ns) FROM go_blocked_bin WHERE source_id = ?1 AND "
	    "rules = ?2 AND kind = ?3 AND ts >= ?4 AND ts < ?5 GROUP BY "
	    "callsite_id", err)) == NULL)
		return (-1);
	for (k = 0; k < n; k++) {
		sqlite3_bind_int64(st, 1, src);
		sqlite3_bind_text(st, 2, gen ? "gen" : "old", -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(st, 3, kind_names[kinds[k]], -1,
		    SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, A);
		sqlite3_bind_int64(st, 5, B);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			acc_add(&a[k], sqlite3_column_int64(st, 0),
			    sqlite3_column_int64(st, 1),
			    sqlite3_column_int64(st, 2));
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read go_blocked_bin"));
	return (0);
}

/*
 * Whether the selection is a window (--from/--to, no goroutine, no
 * window list) with whole seconds [*A, *B) and partial ones around, over
 * a source with derived rows (go_blocked_bin holds every second's).
 */
static int
binned(const struct tr_sel *sel, int derived, int64_t *A, int64_t *B)
{
	return (derived && sel->has_from && sel->has_to && !sel->has_windows &&
	    sel->goid < 0 && tr_derived_seconds(sel->from, sel->to, A, B));
}

/*
 * The time outside which clip() gives nothing: [*lo, *hi), the whole
 * line when it is not bounded.
 */
static void
clip_span(const struct tr_sel *sel, int64_t *lo, int64_t *hi)
{
	*lo = sel->has_from ? sel->from : INT64_MIN;
	*hi = sel->has_to ? sel->to : INT64_MAX;
	if (!sel->has_windows || sel->windows_exclude)
		return;
	if (sel->nwindows == 0) {
		*hi = *lo;
		return;
	}
	if (sel->windows[0].start > *lo)
		*lo = sel->windows[0].start;
	if (sel->windows[sel->nwindows - 1].end < *hi)
		*hi = sel->windows[sel->nwindows - 1].end;
}

/*
 * Source 'src''s intervals of each of the n kinds into a[], replayed
 * from its states in the selection's time (tr_derived_blocked()).
 */
static int
replay(struct tr_db *db, const struct tr_sel *sel, int64_t src, int gen,
    int derived, const enum tr_blocked_kind *kinds, size_t n, struct acc *a,
    struct tr_error *err)
{
	struct tr_dsched	*ds;
	struct edge		 x;
	int64_t			 lo, hi, A, B;
	size_t			 k;
	int			 r, i;

	clip_span(sel, &lo, &hi);
	if (hi <= lo)
		return (0);
	ds = tr_dsched_new(src);
	if (!binned(sel, derived, &A, &B)) {
		tr_dsched_set_clip(ds, on_clip, (void *)sel);
		r = tr_derived_blocked(db, src, sel->goid, lo, hi, ds, err);
	} else {
		/*
		 * The whole seconds from the table, the partial ones
		 * around them replayed (the first also when it is empty:
		 * it counts what is open at A).
		 */
		r = from_bins(db, src, gen, kinds, n, A, B, a, err);
		x.from = sel->from;
		x.to = sel->to;
		x.A = A;
		x.B = B;
		tr_dsched_set_clip(ds, on_edge, &x);
		for (i = 0; r == 0 && i < 2; i++) {
			x.first = i == 0;
			x.lo = i == 0 ? sel->from : B;
			x.hi = i == 0 ? A : sel->to;
			if (i == 1 && B == sel->to)
				break;
			r = tr_derived_blocked(db, src, -1, x.lo, x.hi, ds,
			    err);
		}
	}
	if (r != 0) {
		tr_dsched_free(ds);
		return (-1);
	}
	for (k = 0; k < n; k++)
		tr_dsched_charges(ds, gen, (int)kinds[k], on_charge, &a[k]);
	tr_dsched_free(ds);
	return (0);
}

static int
source_is_gen(sqlite3_stmt *st)
{
	return (is_new_format((const char *)sqlite3_column_text(st, 1)) ||
	    sqlite3_column_type(st, 2) != SQLITE_NULL);
}

/* One entry per stack, by call site. */
static void
fold(struct acc *a, struct tr_blocked *out)
{
	size_t	i;

	if (a->n > 0)
		qsort(a->v, a->n, sizeof *a->v, charge_cmp);
	out->stacks = tr_xcalloc(a->n + 1, sizeof *out->stacks);
	for (i = 0; i < a->n; i++) {
		if (out->n == 0 || out->stacks[out->n - 1].callsite_id !=
		    a->v[i].cs)
			out->stacks[out->n++].callsite_id = a->v[i].cs;
		out->stacks[out->n - 1].count += a->v[i].count;
		out->stacks[out->n - 1].ns += a->v[i].ns;
		out->count += a->v[i].count;
		out->ns += a->v[i].ns;
	}
}

int
tr_blocked_collect_n(struct tr_db *db, const struct tr_sel *sel,
    const enum tr_blocked_kind *kinds, size_t n, struct tr_blocked *out,
    struct tr_error *err)
{
	struct acc	*a = tr_xcalloc(n + 1, sizeof *a);
	sqlite3_stmt	*st;
	int64_t		 src;
	size_t		 k;
	int		 rc, r, began = 0, ret = -1, gen, sources = 0, derived;

	for (k = 0; k < n; k++)
		memset(&out[k], 0, sizeof out[k]);
	if (tr_db_read_begin(db, &began, err) != 0) {
		free(a);
		return (-1);
	}
	if ((st = tr_db_prepare(db, "SELECT id, json_extract(meta, "
	    "'$.go_version'), json_extract(meta, '$.generations') FROM source "
	    "WHERE format = 'gotrace' ORDER BY id", err)) == NULL)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		src = sqlite3_column_int64(st, 0);
		if (!tr_sel_has_source(sel, src))
			continue;
		sources++;
		gen = source_is_gen(st);
		if ((derived = tr_derived_present(db, src, err)) < 0) {
			sqlite3_finalize(st);
			goto out;
		}
		/*
		 * Without a time, goroutine or window restriction, from
		 * go_blocked_stack; else replayed.
		 */
		r = 0;
		if (derived && !sel->has_from && !sel->has_to &&
		    !sel->has_windows && sel->goid < 0)
			for (k = 0; k < n && r == 0; k++)
				r = from_derived(db, kinds[k], src, gen, &a[k],
				    err);
		else
			r = replay(db, sel, src, gen, derived, kinds, n, a,
			    err);
		if (r != 0) {
			sqlite3_finalize(st);
			goto out;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read sources");
		goto out;
	}
	for (k = 0; k < n; k++) {
		out[k].sources = sources;
		fold(&a[k], &out[k]);
	}
	ret = 0;
out:
	for (k = 0; k < n; k++)
		free(a[k].v);
	free(a);
	tr_db_read_end(db, began);
	if (ret != 0)
		for (k = 0; k < n; k++)
			tr_blocked_release(&out[k]);
	return (ret);
}

int
tr_blocked_collect(struct tr_db *db, const struct tr_sel *sel,
    enum tr_blocked_kind kind, struct tr_blocked *out, struct tr_error *err)
{
	return (tr_blocked_collect_n(db, sel, &kind, 1, out, err));
}

void
tr_blocked_release(struct tr_blocked *b)
{
	free(b->stacks);
	memset(b, 0, sizeof *b);
}
