/*
 * The attribution engine (see attr.h): GPU idle episodes, the GPU-driving
 * goroutine and the causes of any window.  Everything is read with plain
 * SQL over the views, slices through the run pre-filter (run_ts,
 * run_end_ts) with the slice on the left of every CROSS JOIN, and the
 * arithmetic on intervals is done here, in memory, one window at a time.
 */
#include "config.h"
#include "query/attr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/names.h"
#include "base/util.h"
#include "base/wallclock.h"
#include "store/counter.h"
#include "store/derived.h"

const char *const tr_cause_names[TR_NCAUSES] = {
	"cpu", "gc", "sched", "chan", "sync", "syscall", "net", "sleep",
	"idle", "unknown"
};

const char *const tr_cause_columns[TR_NCAUSES] = {
	"cpu_ns", "gc_ns", "sched_ns", "chan_ns", "sync_ns", "syscall_ns",
	"net_ns", "sleep_ns", "idle_ns", "unknown_ns"
};

/*
 * A blocked state whose reason says nothing (other, forever, unknown):
 * idle where the process had nothing running or runnable, else unknown.
 */
#define C_OTHER	TR_NCAUSES
#define NCLASS	(TR_NCAUSES + 1)

struct ivl {
	int64_t	a, b;
};

struct ivls {
	struct ivl	*v;
	size_t		 n, cap;
};

/* A goroutine state as the engine needs it. */
struct gstate {
	int64_t	id, track, ts, dur, cs, waker;
	int64_t	idle;		/* C_OTHER: of it, nothing runnable */
	int	cls;		/* a cause, C_OTHER, or -1: not a state */
};

struct gstates {
	struct gstate	*v;
	size_t		 n, cap;
};

struct tr_attr {
	struct tr_db		*db;
	const struct tr_sel	*sel;
	struct tr_attr_gpu	*gpus;
	size_t			 ngpus;
	int64_t			 go_source;	/* -1: none */
	int64_t			 go_apart;	/* a Go trace off the GPU's time */
	int64_t			 gpu_unplaced;	/* GPU source on its own wall
						   clock (TR_SEL_UNPLACED) */
	int64_t			*perf;		/* perf sources */
	size_t			 nperf;
	struct tr_imap		 threads;	/* allowed thread ids (perf) */
	int			 thread_filter;
	int64_t			 st_running, st_runnable, st_blocked,
				 st_syscall;
	struct tr_imap		 reasons;	/* category id -> class + 1 */
	struct tr_imap		 gcworkers;	/* track ids */
	int64_t			 gomaxprocs;
	int			 derived;	/* go_bin rows for go_source */
	int64_t			 origin, wall_offset;
	int			 has_wall;
	char			**warn;
	size_t			 nwarn;
	sqlite3_stmt		*st_track, *st_next, *st_frames;
};

/* --- small helpers ---------------------------------------------------- */

static int64_t
imax(int64_t a, int64_t b)
{
	return (a > b ? a : b);
}

static int64_t
imin(int64_t a, int64_t b)
{
	return (a < b ? a : b);
}

static void
ivls_add(struct ivls *l, int64_t a, int64_t b)
{
	if (b <= a)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = tr_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n].a = a;
	l->v[l->n].b = b;
	l->n++;
}

static int
ivl_cmp(const void *x, const void *y)
{
	const struct ivl	*p = x, *q = y;

	return (p->a < q->a ? -1 : p->a > q->a);
}

/* Sort and merge into disjoint intervals. */
static void
ivls_norm(struct ivls *l)
{
	size_t	i, o = 0;

	if (l->n == 0)
		return;
	qsort(l->v, l->n, sizeof *l->v, ivl_cmp);
	for (i = 1; i < l->n; i++) {
		if (l->v[i].a <= l->v[o].b) {
			if (l->v[i].b > l->v[o].b)
				l->v[o].b = l->v[i].b;
		} else
			l->v[++o] = l->v[i];
	}
	l->n = o + 1;
}

static void
ivls_cat(struct ivls *dst, const struct ivls *src)
{
	size_t	i;

	for (i = 0; i < src->n; i++)
		ivls_add(dst, src->v[i].a, src->v[i].b);
}

/* Overlap of normalised 'l' with [a, b). */
static int64_t
ivls_overlap(const struct ivls *l, int64_t a, int64_t b)
{
	size_t	lo = 0, hi = l->n, i;
	int64_t	s = 0;

	while (lo < hi) {
		size_t	m = (lo + hi) / 2;

		if (l->v[m].b <= a)
			lo = m + 1;
		else
			hi = m;
	}
	for (i = lo; i < l->n && l->v[i].a < b; i++)
		s += imin(b, l->v[i].b) - imax(a, l->v[i].a);
	return (s);
}

static void
ivls_release(struct ivls *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static struct gstate *
gstates_push(struct gstates *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = tr_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	memset(&l->v[l->n], 0, sizeof l->v[l->n]);
	return (&l->v[l->n++]);
}

/* Keep warning 'm' (taken). */
static void
warn(struct tr_attr *a, char *m)
{
	a->warn = tr_xrealloc(a->warn, (a->nwarn + 1) * sizeof *a->warn);
	a->warn[a->nwarn++] = m;
}

static int64_t
col_int(sqlite3_stmt *st, int i, int64_t dflt)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return (dflt);
	return (sqlite3_column_int64(st, i));
}

static int
step_error(struct tr_attr *a, sqlite3_stmt *st, struct tr_error *err)
{
	sqlite3_reset(st);
	return (tr_db_error(a->db, err, "query"));
}

/* --- opening: what the store holds ------------------------------------ */

static int
int64_cmp(const void *x, const void *y)
{
	const int64_t	*p = x, *q = y;

	return (*p < *q ? -1 : *p > *q);
}

/* A track of a GPU (load_gpus()). */
struct gpu_track {
	int64_t	 id, source_id;
	char	*name;
};

/*
 * One GPU's utilisation from its tracks t[0..n) (two logs of one GPU: two
 * tracks), merged in (ts, id) order, one sample per time stamp.  Its name
 * and source are those of the track with the first sample.
 */
static int
load_gpu(struct tr_attr *a, int64_t gpu, int64_t util_id,
    const struct gpu_track *t, size_t n, struct tr_error *err)
{
	struct tr_counter_pts	 pts = { 0 };
	struct tr_attr_gpu	*g;
	size_t			 i, k, first = 0, from;
	int64_t			 ts0 = INT64_MAX, id0 = INT64_MAX;

	for (k = 0; k < n; k++) {
		from = pts.n;
		if (tr_counter_read(a->db, t[k].id, util_id, INT64_MIN,
		    INT64_MAX, 0, &pts, err) != 0) {
			tr_counter_pts_free(&pts);
			return (-1);
		}
		if (pts.n > from && (pts.ts[from] < ts0 ||
		    (pts.ts[from] == ts0 && pts.id[from] < id0))) {
			ts0 = pts.ts[from];
			id0 = pts.id[from];
			first = k;
		}
	}
	if (pts.n == 0)
		return (0);
	if (n > 1)
		tr_counter_pts_sort(&pts, 0);
	a->gpus = tr_xrealloc(a->gpus, (a->ngpus + 1) * sizeof *a->gpus);
	g = &a->gpus[a->ngpus++];
	memset(g, 0, sizeof *g);
	g->gpu = gpu;
	g->name = tr_xstrdup(t[first].name);
	g->source_id = t[first].source_id;
	g->ts = tr_xmalloc(pts.n * sizeof *g->ts);
	g->util = tr_xmalloc(pts.n * sizeof *g->util);
	g->id = tr_xmalloc(pts.n * sizeof *g->id);
	for (i = 0; i < pts.n; i++) {
		if (g->n > 0 && g->ts[g->n - 1] == pts.ts[i])
			continue;
		g->ts[g->n] = pts.ts[i];
		g->util[g->n] = pts.v[i];
		g->id[g->n] = pts.id[i];
		g->n++;
	}
	tr_counter_pts_free(&pts);
	return (0);
}

static int
load_gpus(struct tr_attr *a, struct tr_error *err)
{
	const struct tr_sel	*sel = a->sel;
	sqlite3_stmt		*st;
	struct gpu_track	*t = NULL;
	int64_t			 util_id, gpu = 0;
	size_t			 i, n = 0, cap = 0;
	int			 rc, r = 0;

	if ((rc = tr_db_str_id(a->db, TR_METRIC_GPU_UTIL, &util_id, err)) < 0)
		return (-1);
	if (rc == 0)
		return (0);
	/*
	 * Every sample, in the window or not: the driver is found over all
	 * of them; the episodes keep to the window.
	 */
	st = tr_db_prepare(a->db, "SELECT id, ref, name, source_id FROM track "
	    "WHERE kind = '" TR_TRACK_GPU "' ORDER BY ref, id", err);
	if (st == NULL)
		return (-1);
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	 ref = sqlite3_column_int64(st, 1);
		int64_t	 src = sqlite3_column_int64(st, 3);

		if (!tr_sel_has_source(sel, src) ||
		    (sel->gpu >= 0 && ref != sel->gpu))
			continue;
		if (n > 0 && ref != gpu) {
			r = load_gpu(a, gpu, util_id, t, n, err);
			for (i = 0; i < n; i++)
				free(t[i].name);
			n = 0;
		}
		gpu = ref;
		if (n == cap) {
			cap = cap ? cap * 2 : 4;
			t = tr_xrealloc(t, cap * sizeof *t);
		}
		t[n].id = sqlite3_column_int64(st, 0);
		t[n].name = tr_xstrdup((const char *)sqlite3_column_text(st,
		    2));
		t[n++].source_id = src;
	}
	sqlite3_finalize(st);
	if (r == 0 && rc != SQLITE_DONE)
		r = tr_db_error(a->db, err, "reading GPU utilisation");
	if (r == 0 && n > 0)
		r = load_gpu(a, gpu, util_id, t, n, err);
	for (i = 0; i < n; i++)
		free(t[i].name);
	free(t);
	if (r != 0)
		return (-1);
	for (i = 0; i < a->ngpus; i++) {
		struct tr_attr_gpu	*q = &a->gpus[i];
		int64_t			*d;
		size_t			 k;

		if (q->n < 2) {
			q->interval = 1000000000;
			continue;
		}
		d = tr_xmalloc((q->n - 1) * sizeof *d);
		for (k = 1; k < q->n; k++)
			d[k - 1] = q->ts[k] - q->ts[k - 1];
		qsort(d, q->n - 1, sizeof *d, int64_cmp);
		q->interval = d[(q->n - 1) / 2];
		if (q->interval <= 0)
			q->interval = 1;
		free(d);
	}
	return (0);
}

static const struct {
	const char	*s;
	int		 cls;
} reason_map[] = {
	{ TR_GO_REASON_CHAN_SEND, TR_CAUSE_CHAN },
	{ TR_GO_REASON_CHAN_RECV, TR_CAUSE_CHAN },
	{ TR_GO_REASON_SELECT, TR_CAUSE_CHAN },
	{ TR_GO_REASON_SYNC, TR_CAUSE_SYNC },
	{ TR_GO_REASON_COND, TR_CAUSE_SYNC },
	{ TR_GO_REASON_NET, TR_CAUSE_NET },
	{ TR_GO_REASON_SYSCALL, TR_CAUSE_SYSCALL },
	{ TR_GO_REASON_SLEEP, TR_CAUSE_SLEEP },
	{ TR_GO_REASON_GC, TR_CAUSE_GC },
};

/* The id of string 's' (tr_db_str_id()), or -1 when the store has none. */
static int
str_id(struct tr_attr *a, const char *s, int64_t *id, struct tr_error *err)
{
	int	rc;

	if ((rc = tr_db_str_id(a->db, s, id, err)) < 0)
		return (-1);
	if (rc == 0)
		*id = -1;
	return (0);
}

/* The Go source: the selected Go trace that overlaps the GPU data most. */
static int
load_go(struct tr_attr *a, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 best = -1, glo = INT64_MAX, ghi = INT64_MIN, id;
	int64_t		 gsrc_lo = INT64_MAX, gsrc_hi = INT64_MIN;
	double		 bestov = -1;
	size_t		 i;
	int		 rc;

	for (i = 0; i < a->ngpus; i++)
		if (a->gpus[i].n > 0) {
			glo = imin(glo, a->gpus[i].ts[0] - a->gpus[i].interval);
			ghi = imax(ghi, a->gpus[i].ts[a->gpus[i].n - 1]);
		}
	if ((st = tr_db_prepare(a->db, "SELECT id, ts_min, ts_max, "
	    "coalesce(align_method, ''), align_confidence FROM source "
	    "WHERE format = 'gotrace' ORDER BY id", err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	lo = col_int(st, 1, 0), hi = col_int(st, 2, 0);
		double	ov;

		id = sqlite3_column_int64(st, 0);
		if (!tr_sel_has_source(a->sel, id))
			continue;
		if (a->go_apart < 0)
			a->go_apart = id;
		ov = glo < ghi ? (double)(imin(hi, ghi) - imax(lo, glo)) :
		    (double)(hi - lo);
		if (ov > bestov) {
			bestov = ov;
			best = id;
			gsrc_lo = lo;
			gsrc_hi = hi;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading sources"));
	a->go_source = best;
	if (best >= 0)
		a->go_apart = -1;
	if (best >= 0 && glo < ghi) {
		double	share = (double)(imin(gsrc_hi, ghi) -
		    imax(gsrc_lo, glo)) / (double)(ghi - glo);

		if (share < 0.5)
			warn(a, tr_xasprintf("the Go trace (source %lld) "
			    "covers only %.0f%% of the GPU telemetry: "
			    "episodes outside it are unknown",
			    (long long)best, 100 * (share < 0 ? 0 : share)));
	}
	return (0);
}

static int
load_align_warnings(struct tr_attr *a, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = tr_db_prepare(a->db, "SELECT s.id, s.format, "
	    "coalesce(s.align_method, 'none'), "
	    "coalesce(s.align_confidence, 0), " TR_SEL_UNPLACED("s")
	    " FROM source s ORDER BY s.id", err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t		 id = sqlite3_column_int64(st, 0);
		const char	*m = (const char *)sqlite3_column_text(st, 2);
		double		 c = sqlite3_column_double(st, 3);
		int		 used = id == a->go_source, gpu = 0;
		size_t		 i;

		for (i = 0; i < a->ngpus; i++)
			gpu |= a->gpus[i].source_id == id;
		/*
		 * GPU telemetry on its own wall clock while the host sources
		 * are on the traced host's: nothing can be matched to it,
		 * and its times are UTC already.
		 */
		if (gpu && sqlite3_column_int(st, 4)) {
			a->gpu_unplaced = id;
			warn(a, tr_xasprintf("source %lld (%s) is on its own "
			    "wall clock, not yet on the store's timeline: no "
			    "host data can be matched to its episodes "
			    "(trace-align places it)", (long long)id,
			    (const char *)sqlite3_column_text(st, 1)));
			continue;
		}
		used |= gpu;
		if (!used || strcmp(m, "estimate") != 0 || c >= 0.8)
			continue;
		warn(a, tr_xasprintf("source %lld (%s) is aligned by an "
		    "estimate of confidence %.2f: edges and causes may be "
		    "shifted", (long long)id,
		    (const char *)sqlite3_column_text(st, 1), c));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading sources"));
	return (0);
}

static int
load_strings(struct tr_attr *a, struct tr_error *err)
{
	size_t	i;
	int64_t	id;

	if (str_id(a, TR_GO_STATE_RUNNING, &a->st_running, err) != 0 ||
	    str_id(a, TR_GO_STATE_RUNNABLE, &a->st_runnable, err) != 0 ||
	    str_id(a, TR_GO_STATE_BLOCKED, &a->st_blocked, err) != 0 ||
	    str_id(a, TR_GO_STATE_SYSCALL, &a->st_syscall, err) != 0)
		return (-1);
	for (i = 0; i < sizeof reason_map / sizeof *reason_map; i++) {
		if (str_id(a, reason_map[i].s, &id, err) != 0)
			return (-1);
		if (id >= 0)
			tr_imap_put(&a->reasons, (uint64_t)id,
			    (void *)(intptr_t)(reason_map[i].cls + 1));
	}
	return (0);
}

static int
load_go_meta(struct tr_attr *a, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (a->go_source < 0)
		return (0);
	if ((st = tr_db_prepare(a->db, "SELECT id FROM track WHERE "
	    "source_id = ? AND kind = '" TR_TRACK_GOROUTINE "' AND "
	    "name = 'runtime.gcBgMarkWorker'", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, a->go_source);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		tr_imap_put(&a->gcworkers,
		    (uint64_t)sqlite3_column_int64(st, 0), (void *)1);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading goroutines"));
	if ((st = tr_db_prepare(a->db, "SELECT c.value FROM track t\n"
	    "  JOIN counter c ON c.track_id = t.id\n"
	    "  JOIN str n ON n.id = c.name_id\n"
	    " WHERE t.source_id = ? AND n.s = '" TR_GO_GOMAXPROCS "'\n"
	    " ORDER BY c.ts DESC LIMIT 1", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, a->go_source);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		a->gomaxprocs = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading GOMAXPROCS"));
	if (a->gomaxprocs <= 0 && tr_db_int(a->db, "SELECT count(*) FROM "
	    "track WHERE kind = '" TR_TRACK_GO_PROC "'", &a->gomaxprocs,
	    err) != 0)
		return (-1);
	/*
	 * The derived tables (trace-store(5)) answer the process-wide
	 * questions without reading every goroutine's states.
	 */
	if ((a->derived = tr_derived_present(a->db, a->go_source, err)) < 0)
		return (-1);
	return (0);
}

/*
 * Without --pid, --tid or --comm, the command with the most perf samples
 * stands for the process (perf may have recorded its children, or the
 * whole system, too).
 */
static int
perf_busiest(struct tr_attr *a, struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct tr_buf	 q;
	char		*name = NULL;
	int64_t		 n = 0, tot = 0;
	size_t		 i;
	int		 rc;

	if (a->nperf == 0)
		return (0);
	tr_buf_init(&q);
	tr_buf_adds(&q, "SELECT t.name, count(*) FROM sample s "
	    "JOIN thread t ON t.id = s.thread_id WHERE s.source_id IN (");
	for (i = 0; i < a->nperf; i++) {
		if (i > 0)
			tr_buf_addc(&q, ',');
		tr_buf_addi(&q, a->perf[i]);
	}
	tr_buf_adds(&q, ") GROUP BY t.name ORDER BY 2 DESC, 1");
	st = tr_db_prepare(a->db, q.data, err);
	tr_buf_release(&q);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (name == NULL) {
			name = tr_xstrdup((const char *)
			    sqlite3_column_text(st, 0));
			n = sqlite3_column_int64(st, 1);
		}
		tot += sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(name);
		return (tr_db_error(a->db, err, "reading perf samples"));
	}
	if (name == NULL || n == tot) {
		free(name);
		return (0);
	}
	warn(a, tr_xasprintf("perf: command '%s' stands for the process "
	    "(%lld of %lld samples; --comm or --pid to choose)", name,
	    (long long)n, (long long)tot));
	a->thread_filter = 1;
	if ((st = tr_db_prepare(a->db, "SELECT id FROM thread WHERE name = ?",
	    err)) == NULL) {
		free(name);
		return (-1);
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		tr_imap_put(&a->threads, (uint64_t)sqlite3_column_int64(st,
		    0), (void *)1);
	sqlite3_finalize(st);
	free(name);
	if (rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading threads"));
	return (0);
}

static int
load_perf(struct tr_attr *a, struct tr_error *err)
{
	const struct tr_sel	*sel = a->sel;
	sqlite3_stmt		*st;
	int			 rc;

	if ((st = tr_db_prepare(a->db, "SELECT id FROM source WHERE "
	    "format = 'perf-script' ORDER BY id", err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	id = sqlite3_column_int64(st, 0);

		if (!tr_sel_has_source(sel, id))
			continue;
		a->perf = tr_xrealloc(a->perf, (a->nperf + 1) *
		    sizeof *a->perf);
		a->perf[a->nperf++] = id;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading sources"));
	if (sel->pid < 0 && sel->tid < 0 && sel->comm == NULL)
		return (perf_busiest(a, err));
	a->thread_filter = 1;
	if ((st = tr_db_prepare(a->db, "SELECT t.id FROM thread t\n"
	    "  LEFT JOIN process p ON p.id = t.process_id\n"
	    " WHERE (?1 < 0 OR p.pid = ?1) AND (?2 < 0 OR t.tid = ?2)\n"
	    "   AND (?3 IS NULL OR t.name = ?3)", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, sel->pid);
	sqlite3_bind_int64(st, 2, sel->tid);
	if (sel->comm != NULL)
		sqlite3_bind_text(st, 3, sel->comm, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		tr_imap_put(&a->threads, (uint64_t)sqlite3_column_int64(st,
		    0), (void *)1);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading threads"));
	/* --pid of a perf recording without pids: its threads. */
	{
		size_t	i;

		for (i = 0; i < sel->npid_threads; i++)
			tr_imap_put(&a->threads, (uint64_t)sel->pid_threads[i],
			    (void *)1);
	}
	return (0);
}

struct tr_attr *
tr_attr_open(struct tr_db *db, const struct tr_sel *sel,
    struct tr_error *err)
{
	struct tr_attr	*a = tr_xcalloc(1, sizeof *a);

	a->db = db;
	a->sel = sel;
	a->go_source = a->go_apart = -1;
	tr_imap_init(&a->threads);
	tr_imap_init(&a->reasons);
	tr_imap_init(&a->gcworkers);
	if (load_gpus(a, err) != 0 || load_go(a, err) != 0 ||
	    load_align_warnings(a, err) != 0 || load_strings(a, err) != 0 ||
	    load_go_meta(a, err) != 0 || load_perf(a, err) != 0 ||
	    tr_sel_store_origin(db, &a->origin, &a->has_wall,
	    &a->wall_offset, err) != 0) {
		tr_attr_free(a);
		return (NULL);
	}
	/* The episodes are on the GPU's clock: its own UTC. */
	if (a->gpu_unplaced > 0 && tr_sel_source_clock(db, a->gpu_unplaced,
	    &a->has_wall, &a->wall_offset, err) != 0) {
		tr_attr_free(a);
		return (NULL);
	}
	if ((a->st_track = tr_db_prepare(db, "SELECT id, name, "
	    "json_extract(meta, '$.callsite_id') FROM track "
	    "WHERE source_id = ? AND kind = '" TR_TRACK_GOROUTINE "' AND "
	    "ref = ?",
	    err)) == NULL ||
	    (a->st_next = tr_db_prepare(db, "SELECT json_extract(s.args, "
	    "'$.waker') FROM slice s WHERE s.track_id = ?1 AND "
	    "s.run_ts <= ?2 AND s.run_end_ts >= ?2 AND s.ts = ?2 AND "
	    "s.name_id = ?3 LIMIT 1", err)) == NULL ||
	    (a->st_frames = tr_db_prepare(db, "SELECT c.parent_id, f.name "
	    "FROM callsite c JOIN frame f ON f.id = c.frame_id "
	    "WHERE c.id = ?", err)) == NULL) {
		tr_attr_free(a);
		return (NULL);
	}
	return (a);
}

void
tr_attr_free(struct tr_attr *a)
{
	size_t	i;

	if (a == NULL)
		return;
	for (i = 0; i < a->ngpus; i++) {
		free(a->gpus[i].name);
		free(a->gpus[i].ts);
		free(a->gpus[i].util);
		free(a->gpus[i].id);
	}
	free(a->gpus);
	free(a->perf);
	for (i = 0; i < a->nwarn; i++)
		free(a->warn[i]);
	free(a->warn);
	tr_imap_release(&a->threads);
	tr_imap_release(&a->reasons);
	tr_imap_release(&a->gcworkers);
	sqlite3_finalize(a->st_track);
	sqlite3_finalize(a->st_next);
	sqlite3_finalize(a->st_frames);
	free(a);
}

size_t
tr_attr_ngpus(const struct tr_attr *a)
{
	return (a->ngpus);
}

const struct tr_attr_gpu *
tr_attr_gpu(const struct tr_attr *a, size_t i)
{
	return (&a->gpus[i]);
}

int
tr_attr_has_go(const struct tr_attr *a)
{
	return (a->go_source >= 0);
}

/* A Go trace of the selection that no GPU sample overlaps; -1: none. */
int
tr_attr_use_go(struct tr_attr *a, int64_t src, struct tr_error *err)
{
	if (src < 0 || src == a->go_source)
		return (0);
	a->go_source = src;
	a->go_apart = -1;
	a->gomaxprocs = 0;
	tr_imap_release(&a->gcworkers);
	tr_imap_init(&a->gcworkers);
	return (load_go_meta(a, err));
}

int64_t
tr_attr_go_apart(const struct tr_attr *a)
{
	return (a->go_apart);
}

int
tr_attr_has_perf(const struct tr_attr *a)
{
	return (a->nperf > 0);
}

size_t
tr_attr_nwarnings(const struct tr_attr *a)
{
	return (a->nwarn);
}

const char *
tr_attr_warning(const struct tr_attr *a, size_t i)
{
	return (a->warn[i]);
}

void
tr_attr_clock(const struct tr_attr *a, int64_t *origin, int *has_wall,
    int64_t *wall_offset)
{
	*origin = a->origin;
	*has_wall = a->has_wall;
	*wall_offset = a->wall_offset;
}

char *
tr_attr_iso(const struct tr_attr *a, int64_t ts)
{
	char	buf[TR_ISO_MAX];

	if (!a->has_wall)
		return (NULL);
	return (tr_xstrdup(tr_iso_utc(ts + a->wall_offset, buf)));
}

char *
tr_attr_stack_text(struct tr_attr *a, int64_t cs)
{
	struct tr_buf	 b;
	char		*first = NULL;
	int		 n = 0, lead = 1, depth = 0;

	if (cs < 0)
		return (tr_xstrdup("(no stack)"));
	tr_buf_init(&b);
	/*
	 * From the leaf up the parent links, a row each (the stack view
	 * expands every call site's stack to answer for one).
	 */
	while (n < 3 && cs >= 0 && depth++ < 4096) {
		const char	*f;

		sqlite3_reset(a->st_frames);
		sqlite3_bind_int64(a->st_frames, 1, cs);
		if (sqlite3_step(a->st_frames) != SQLITE_ROW)
			break;
		cs = col_int(a->st_frames, 0, -1);
		f = (const char *)sqlite3_column_text(a->st_frames, 1);
		/*
		 * Leading runtime frames (chanrecv, gopark, the assist) say
		 * less than the code that called them: the cause says that.
		 */
		if (lead && (strncmp(f, "runtime.", 8) == 0 ||
		    strncmp(f, "runtime/", 8) == 0)) {
			if (first == NULL)
				first = tr_xstrdup(f);
			continue;
		}
		lead = 0;
		if (n++ > 0)
			tr_buf_adds(&b, " < ");
		tr_buf_adds(&b, f);
	}
	sqlite3_reset(a->st_frames);
	if (b.len == 0)
		tr_buf_adds(&b, first ? first : "(no frames)");
	free(first);
	return (b.data);
}

/* --- episodes --------------------------------------------------------- */

/* Where sample i's period starts: the previous sample, unless a hole. */
static int64_t
period_start(const struct tr_attr_gpu *g, size_t i)
{
	if (i == 0 || g->ts[i] - g->ts[i - 1] > g->interval * 5 / 2)
		return (g->ts[i] - g->interval);
	return (g->ts[i - 1]);
}

int64_t
tr_attr_span(const struct tr_attr *a, size_t gi)
{
	const struct tr_attr_gpu	*g = &a->gpus[gi];
	int64_t				 s = 0;
	size_t				 i;

	for (i = 0; i < g->n; i++)
		if (tr_sel_has_ts(a->sel, g->ts[i]))
			s += g->ts[i] - period_start(g, i);
	return (s);
}

void
tr_attr_episodes(const struct tr_attr *a, size_t gi, double threshold,
    int64_t gap, int64_t min, struct tr_attr_episode **eps, size_t *neps)
{
	const struct tr_attr_gpu	*g = &a->gpus[gi];
	struct tr_attr_episode		*v = NULL, *e;
	size_t				 n = 0, i, k, o;

	/* Runs of samples below the threshold, in the window. */
	for (i = 0; i < g->n; i++) {
		if (g->util[i] >= threshold || !tr_sel_has_ts(a->sel, g->ts[i]))
			continue;
		k = i;
		while (k + 1 < g->n && g->util[k + 1] < threshold &&
		    period_start(g, k + 1) == g->ts[k] &&
		    tr_sel_has_ts(a->sel, g->ts[k + 1]))
			k++;
		v = tr_xrealloc(v, (n + 1) * sizeof *v);
		e = &v[n++];
		e->gi = gi;
		e->first = i;
		e->last = k;
		e->start = period_start(g, i);
		e->end = g->ts[k];
		i = k;
	}
	/* Merge across short spikes (not across holes in the telemetry). */
	for (i = 1, o = 0; i < n; i++) {
		int	hole = 0;

		for (k = v[o].last + 1; k <= v[i].first; k++)
			if (period_start(g, k) != g->ts[k - 1])
				hole = 1;
		if (!hole && v[i].start - v[o].end <= gap) {
			v[o].last = v[i].last;
			v[o].end = v[i].end;
		} else
			v[++o] = v[i];
	}
	if (n > 0)
		n = o + 1;
	for (i = 0, o = 0; i < n; i++) {
		double	s = 0;

		if (v[i].end - v[i].start < min)
			continue;
		for (k = v[i].first; k <= v[i].last; k++)
			s += g->util[k];
		v[i].util_mean = s / (double)(v[i].last - v[i].first + 1);
		/*
		 * The samples on either side were busy above the threshold
		 * but idle for the rest of their period: that rest is taken
		 * to touch the episode (an idle stretch starts late in the
		 * sample before it and ends early in the one after), which
		 * puts each edge inside the sample where it happened.
		 */
		k = v[i].first;
		if (k > 0 && period_start(g, k) == g->ts[k - 1]) {
			double	u = g->util[k - 1] / 100;

			v[i].start -= llround((1 - (u > 1 ? 1 : u)) *
			    (double)(g->ts[k - 1] - period_start(g, k - 1)));
		}
		k = v[i].last;
		if (k + 1 < g->n && period_start(g, k + 1) == g->ts[k]) {
			double	u = g->util[k + 1] / 100;

			v[i].end += llround((1 - (u > 1 ? 1 : u)) *
			    (double)(g->ts[k + 1] - g->ts[k]));
		}
		v[o++] = v[i];
	}
	*eps = v;
	*neps = o;
}

/* --- goroutine states ------------------------------------------------- */

/* The class of a state: a cause, C_OTHER, or -1 (not a state). */
static int
classify(const struct tr_attr *a, int64_t name, int64_t cat)
{
	void	*p;

	if (name == a->st_running)
		return (TR_CAUSE_CPU);
	if (name == a->st_runnable)
		return (TR_CAUSE_SCHED);
	if (name == a->st_syscall)
		return (TR_CAUSE_SYSCALL);
	if (name != a->st_blocked)
		return (-1);
	if (cat >= 0 && (p = tr_imap_get(&a->reasons, (uint64_t)cat)) !=
	    NULL)
		return ((int)(intptr_t)p - 1);
	return (C_OTHER);
}

static const char track_states_sql[] =
    "SELECT s.id, s.track_id, s.ts, s.dur, s.name_id, s.category_id,\n"
    "       s.callsite_id, NULL\n"
    "  FROM slice s\n"
    " WHERE s.track_id = ?1 AND s.run_ts < ?3 AND s.run_end_ts > ?2\n"
    "   AND s.ts < ?3 AND s.ts + s.dur > ?2\n"
    " ORDER BY s.ts";
static const char all_states_sql[] =
    "SELECT s.id, s.track_id, s.ts, s.dur, s.name_id, s.category_id,\n"
    "       s.callsite_id, NULL\n"
    "  FROM track t CROSS JOIN slice s ON s.track_id = t.id\n"
    " WHERE t.kind = '" TR_TRACK_GOROUTINE "' AND t.source_id = ?1\n"
    "   AND s.run_ts < ?3 AND s.run_end_ts > ?2\n"
    "   AND s.ts < ?3 AND s.ts + s.dur > ?2";

/*
 * The states of track 'track' (or, with track < 0, of every goroutine of
 * the Go source) that overlap [lo, hi), appended to 'out'.  With every
 * goroutine, the CROSS JOIN keeps the tracks outside, so the rows come a
 * track at a time (find_candidate() relies on it) without a sort.
 */
static int
load_states(struct tr_attr *a, int64_t track, int64_t lo, int64_t hi,
    struct gstates *out, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	st = tr_db_prepare(a->db, track >= 0 ? track_states_sql :
	    all_states_sql, err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, track >= 0 ? track : a->go_source);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int	cls = classify(a, col_int(st, 4, -1),
		    col_int(st, 5, -1));
		struct gstate	*s;

		if (cls < 0 || col_int(st, 3, 0) <= 0)
			continue;
		s = gstates_push(out);
		s->id = sqlite3_column_int64(st, 0);
		s->track = sqlite3_column_int64(st, 1);
		s->ts = sqlite3_column_int64(st, 2);
		s->dur = sqlite3_column_int64(st, 3);
		s->cs = col_int(st, 6, -1);
		s->waker = -1;
		s->cls = cls;
	}
	if (rc != SQLITE_DONE) {
		step_error(a, st, err);
		sqlite3_finalize(st);
		return (-1);
	}
	sqlite3_finalize(st);
	return (0);
}

/* Goroutine 'goid' of the Go source: its track, name, creation stack. */
static int64_t
goroutine_track(struct tr_attr *a, int64_t goid, char **name, int64_t *cs)
{
	int64_t	track = -1;

	sqlite3_reset(a->st_track);
	sqlite3_bind_int64(a->st_track, 1, a->go_source);
	sqlite3_bind_int64(a->st_track, 2, goid);
	if (sqlite3_step(a->st_track) == SQLITE_ROW) {
		track = sqlite3_column_int64(a->st_track, 0);
		if (name != NULL)
			*name = tr_xstrdup((const char *)
			    sqlite3_column_text(a->st_track, 1));
		if (cs != NULL)
			*cs = col_int(a->st_track, 2, -1);
	}
	sqlite3_reset(a->st_track);
	return (track);
}

/* The goroutine that made 'track' runnable at 'ts' (-1: unknown). */
static int64_t
waker_at(struct tr_attr *a, int64_t track, int64_t ts)
{
	int64_t	w = -1;

	sqlite3_reset(a->st_next);
	sqlite3_bind_int64(a->st_next, 1, track);
	sqlite3_bind_int64(a->st_next, 2, ts);
	sqlite3_bind_int64(a->st_next, 3, a->st_runnable);
	if (sqlite3_step(a->st_next) == SQLITE_ROW)
		w = col_int(a->st_next, 0, -1);
	sqlite3_reset(a->st_next);
	return (w);
}

/* --- the driver ------------------------------------------------------- */

/* The bins of a GPU: sample periods, as [start, end) with utilisation. */
struct bins {
	size_t	 n;
	int64_t	*a, *b;
	double	*u;		/* 0..1 */
};

static void
bins_init(struct bins *bn, const struct tr_attr_gpu *g)
{
	size_t	i;

	bn->n = g->n;
	bn->a = tr_xmalloc((g->n + 1) * sizeof *bn->a);
	bn->b = tr_xmalloc((g->n + 1) * sizeof *bn->b);
	bn->u = tr_xmalloc((g->n + 1) * sizeof *bn->u);
	for (i = 0; i < g->n; i++) {
		bn->a[i] = period_start(g, i);
		bn->b[i] = g->ts[i];
		bn->u[i] = g->util[i] / 100;
		if (bn->u[i] > 1)
			bn->u[i] = 1;
		if (bn->u[i] < 0)
			bn->u[i] = 0;
	}
}

static void
bins_release(struct bins *bn)
{
	free(bn->a);
	free(bn->b);
	free(bn->u);
}

/* The first bin that ends after 'ts'. */
static size_t
bins_find(const struct bins *bn, int64_t ts)
{
	size_t	lo = 0, hi = bn->n;

	while (lo < hi) {
		size_t	m = (lo + hi) / 2;

		if (bn->b[m] <= ts)
			lo = m + 1;
		else
			hi = m;
	}
	return (lo);
}

struct cand {
	int64_t	track;
	int	cls;
	double	corr, cover;
};

/* Per-track accumulation of wait time per class and bin. */
struct acc {
	double	*w[NCLASS];	/* ns per bin */
	size_t	*touched;
	size_t	 ntouched;
	char	*mark;
	int	 any[NCLASS];
};

static void
acc_flush(struct acc *ac, const struct bins *bn, int64_t track,
    struct cand *best)
{
	double	N = (double)bn->n, U = 0, U2 = 0;
	size_t	i, k;
	int	c;

	for (i = 0; i < bn->n; i++) {
		U += bn->u[i];
		U2 += bn->u[i] * bn->u[i];
	}
	for (c = 0; c < NCLASS; c++) {
		double	W = 0, W2 = 0, WU = 0, cov = 0, busy = 0, den, r;

		/*
		 * A goroutine waits for a device in a syscall or cgo call,
		 * on the netpoller (a pipe, a device server), a timer (a
		 * simulated device) or for no stated reason; one blocked on
		 * a channel or a lock waits for another goroutine, which is
		 * then the driver.
		 */
		if (!ac->any[c] || (c != TR_CAUSE_SYSCALL &&
		    c != TR_CAUSE_NET && c != TR_CAUSE_SLEEP && c != C_OTHER))
			continue;
		for (k = 0; k < ac->ntouched; k++) {
			double	len, w;

			i = ac->touched[k];
			len = (double)(bn->b[i] - bn->a[i]);
			w = ac->w[c][i] / len;
			if (w > 1)
				w = 1;
			W += w;
			W2 += w * w;
			WU += w * bn->u[i];
			cov += (w < bn->u[i] ? w : bn->u[i]) * len;
		}
		for (i = 0; i < bn->n; i++)
			busy += bn->u[i] * (double)(bn->b[i] - bn->a[i]);
		den = (N * W2 - W * W) * (N * U2 - U * U);
		if (den <= 0)
			continue;
		r = (N * WU - W * U) / sqrt(den);
		if (r > best->corr) {
			best->corr = r;
			best->track = track;
			best->cls = c;
			best->cover = busy > 0 ? cov / busy : 0;
		}
	}
	for (k = 0; k < ac->ntouched; k++) {
		i = ac->touched[k];
		for (c = 0; c < NCLASS; c++)
			ac->w[c][i] = 0;
		ac->mark[i] = 0;
	}
	ac->ntouched = 0;
	memset(ac->any, 0, sizeof ac->any);
}

/*
 * The goroutines worth correlating, from go_summary (derived): the 16 that
 * waited longest in a syscall, on the netpoller, a timer or for another
 * reason, since the driver waits for the device most of the time.  0
 * (and none) without derived rows, where every goroutine is read.
 */
#define NCAND	16

static int
summary_candidates(struct tr_attr *a, int64_t *tracks, size_t *n,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	*n = 0;
	if (!a->derived)
		return (0);
	if ((st = tr_db_prepare(a->db, "SELECT track_id FROM go_summary "
	    "WHERE source_id = ? ORDER BY syscall_ns + net_ns + sleep_ns + "
	    "other_ns DESC, track_id LIMIT " TR_DB_STRINGIFY(NCAND),
	    err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, a->go_source);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < NCAND)
		tracks[(*n)++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return (tr_db_error(a->db, err, "reading go_summary"));
	return (0);
}

/* Feed the rows of 'st' (a state query) to the accumulator. */
static int
feed(struct tr_attr *a, sqlite3_stmt *st, const struct bins *bn,
    struct acc *ac, int64_t *cur, struct cand *best)
{
	int	rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	track = sqlite3_column_int64(st, 1);
		int64_t	ts = sqlite3_column_int64(st, 2);
		int64_t	end = ts + sqlite3_column_int64(st, 3);
		int	cls = classify(a, col_int(st, 4, -1),
		    col_int(st, 5, -1));
		size_t	i;

		if (track != *cur) {
			if (*cur >= 0)
				acc_flush(ac, bn, *cur, best);
			*cur = track;
		}
		if (cls < 0 || end <= ts)
			continue;
		ac->any[cls] = 1;
		for (i = bins_find(bn, ts); i < bn->n && bn->a[i] < end;
		    i++) {
			int64_t	ov = imin(end, bn->b[i]) - imax(ts, bn->a[i]);

			if (ov <= 0)
				continue;
			ac->w[cls][i] += (double)ov;
			if (!ac->mark[i]) {
				ac->mark[i] = 1;
				ac->touched[ac->ntouched++] = i;
			}
		}
	}
	return (rc);
}

/* One state, from tr_derived_track_states(), into the accumulator. */
struct feedarg {
	struct tr_attr		*a;
	const struct bins	*bn;
	struct acc		*ac;
};

static int
feed_state(void *arg, const struct tr_derived_state *ds,
    struct tr_error *err)
{
	struct feedarg	*f = arg;
	int		 cls = classify(f->a, ds->name_id, ds->category_id);
	int64_t		 ts = ds->ts, end = ds->ts + ds->dur;
	size_t		 i;

	(void)err;
	if (cls < 0 || end <= ts)
		return (0);
	f->ac->any[cls] = 1;
	for (i = bins_find(f->bn, ts); i < f->bn->n && f->bn->a[i] < end;
	    i++) {
		int64_t	ov = imin(end, f->bn->b[i]) - imax(ts, f->bn->a[i]);

		if (ov <= 0)
			continue;
		f->ac->w[cls][i] += (double)ov;
		if (!f->ac->mark[i]) {
			f->ac->mark[i] = 1;
			f->ac->touched[f->ac->ntouched++] = i;
		}
	}
	return (0);
}

static int
find_candidate(struct tr_attr *a, const struct bins *bn, int64_t only,
    int64_t lo, int64_t hi, struct cand *best, struct tr_error *err)
{
	struct acc	 ac;
	sqlite3_stmt	*st;
	int64_t		 cur = -1, tracks[NCAND];
	size_t		 ntracks = 0, k;
	int		 rc = SQLITE_ERROR, c;

	memset(&ac, 0, sizeof ac);
	for (c = 0; c < NCLASS; c++)
		ac.w[c] = tr_xcalloc(bn->n + 1, sizeof *ac.w[c]);
	ac.touched = tr_xmalloc((bn->n + 1) * sizeof *ac.touched);
	ac.mark = tr_xcalloc(bn->n + 1, 1);
	best->track = -1;
	best->corr = 0;
	if (only >= 0) {
		tracks[0] = only;
		ntracks = 1;
	} else if (summary_candidates(a, tracks, &ntracks, err) != 0)
		goto out;
	/*
	 * With derived rows the candidates' runs are read without the
	 * slice view (its JSON functions cost most of a long track's scan).
	 */
	if (a->derived && ntracks > 0) {
		struct feedarg	f;

		f.a = a;
		f.bn = bn;
		f.ac = &ac;
		for (k = 0; k < ntracks; k++) {
			if (tr_derived_track_states(a->db, tracks[k], lo, hi,
			    feed_state, &f, err) != 0)
				goto out;
			acc_flush(&ac, bn, tracks[k], best);
		}
		rc = SQLITE_DONE;
		goto out;
	}
	st = tr_db_prepare(a->db, ntracks > 0 ? track_states_sql :
	    all_states_sql, err);
	if (st == NULL)
		goto out;
	for (k = 0; k < (ntracks > 0 ? ntracks : 1); k++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ntracks > 0 ? tracks[k] :
		    a->go_source);
		sqlite3_bind_int64(st, 2, lo);
		sqlite3_bind_int64(st, 3, hi);
		if ((rc = feed(a, st, bn, &ac, &cur, best)) != SQLITE_DONE)
			break;
	}
	if (cur >= 0)
		acc_flush(&ac, bn, cur, best);
	if (rc != SQLITE_DONE)
		step_error(a, st, err);
	sqlite3_finalize(st);
out:
	for (c = 0; c < NCLASS; c++)
		free(ac.w[c]);
	free(ac.touched);
	free(ac.mark);
	return (rc == SQLITE_DONE ? 0 : -1);
}

struct csacc {
	int64_t	cs;
	double	ns, busy;
};

static int
csacc_cmp(const void *x, const void *y)
{
	const struct csacc	*p = x, *q = y;

	return (p->cs < q->cs ? -1 : p->cs > q->cs);
}

int
tr_attr_find_driver(struct tr_attr *a, size_t gi, int64_t goid,
    double threshold, struct tr_attr_driver *d, struct tr_error *err)
{
	const struct tr_attr_gpu	*g = &a->gpus[gi];
	struct gstates			 sts;
	struct bins			 bn;
	struct cand			 best;
	struct csacc			*cv = NULL;
	size_t				 ncv = 0, i, k;
	int64_t				 only = -1, lo, hi, cs = -1;
	double				 longest = -1;
	int				 rc = -1;

	memset(d, 0, sizeof *d);
	memset(&sts, 0, sizeof sts);
	d->goid = goid;
	d->track_id = -1;
	d->given = goid >= 0;
	if (a->go_source < 0 || g->n < 2)
		return (0);
	if (goid >= 0 && (only = goroutine_track(a, goid, NULL, NULL)) < 0)
		return (tr_error_set(err, TR_EUSAGE, "no goroutine %lld in "
		    "the Go trace (source %lld)", (long long)goid,
		    (long long)a->go_source));
	bins_init(&bn, g);
	lo = bn.a[0];
	hi = bn.b[bn.n - 1];
	if (find_candidate(a, &bn, only, lo, hi, &best, err) != 0)
		goto out;
	if (best.track < 0) {
		rc = 0;
		goto out;
	}
	d->found = 1;
	d->track_id = best.track;
	d->wait = best.cls == C_OTHER ? TR_CAUSE_IDLE : best.cls;
	d->score = best.corr;
	d->coverage = best.cover;
	{
		sqlite3_stmt	*st;

		if ((st = tr_db_prepare(a->db, "SELECT ref, name, "
		    "json_extract(meta, '$.callsite_id') FROM track "
		    "WHERE id = ?", err)) == NULL)
			goto out;
		sqlite3_bind_int64(st, 1, best.track);
		if (sqlite3_step(st) == SQLITE_ROW) {
			d->goid = sqlite3_column_int64(st, 0);
			d->name = tr_xstrdup((const char *)
			    sqlite3_column_text(st, 1));
			cs = col_int(st, 2, -1);
		}
		sqlite3_finalize(st);
	}
	d->created = cs >= 0 ? tr_attr_stack_text(a, cs) :
	    tr_xstrdup("(no stack)");
	/*
	 * Which call sites of that wait are the GPU wait: those during
	 * which the GPU was busy (the same wait elsewhere, a checkpoint's
	 * write among GPU syncs, is a cause).
	 */
	if (load_states(a, best.track, lo, hi, &sts, err) != 0)
		goto out;
	for (k = 0; k < sts.n; k++) {
		const struct gstate	*s = &sts.v[k];
		struct csacc		*c = NULL;
		int64_t			 end = s->ts + s->dur;

		if (s->cls != best.cls)
			continue;
		for (i = 0; i < ncv; i++)
			if (cv[i].cs == s->cs)
				c = &cv[i];
		if (c == NULL) {
			cv = tr_xrealloc(cv, (ncv + 1) * sizeof *cv);
			c = &cv[ncv++];
			c->cs = s->cs;
			c->ns = c->busy = 0;
		}
		for (i = bins_find(&bn, s->ts); i < bn.n && bn.a[i] < end;
		    i++) {
			int64_t	ov = imin(end, bn.b[i]) -
			    imax(s->ts, bn.a[i]);

			if (ov <= 0)
				continue;
			c->ns += (double)ov;
			c->busy += (double)ov * bn.u[i];
		}
	}
	qsort(cv, ncv, sizeof *cv, csacc_cmp);
	for (i = 0; i < ncv; i++) {
		if (cv[i].ns <= 0 || cv[i].busy / cv[i].ns * 100 < threshold)
			continue;
		d->wait_cs = tr_xrealloc(d->wait_cs, (d->nwait_cs + 1) *
		    sizeof *d->wait_cs);
		d->wait_cs[d->nwait_cs++] = cv[i].cs;
		if (cv[i].ns > longest) {
			longest = cv[i].ns;
			cs = cv[i].cs;
		}
	}
	d->wait_stack = longest >= 0 ? tr_attr_stack_text(a, cs) :
	    tr_xstrdup("(none)");
	rc = 0;
out:
	free(cv);
	free(sts.v);
	bins_release(&bn);
	return (rc);
}

void
tr_attr_driver_release(struct tr_attr_driver *d)
{
	free(d->name);
	free(d->created);
	free(d->wait_stack);
	free(d->wait_cs);
	memset(d, 0, sizeof *d);
}

static int
is_gpu_wait(const struct tr_attr_driver *d, const struct gstate *s)
{
	int	cls = s->cls == C_OTHER ? TR_CAUSE_IDLE : s->cls;

	if (!d->found || cls != (int)d->wait)
		return (0);
	return (bsearch(&s->cs, d->wait_cs, d->nwait_cs, sizeof s->cs,
	    int64_cmp) != NULL);
}

/* --- a window --------------------------------------------------------- */

enum tr_cause
tr_attr_dominant(const int64_t ns[TR_NCAUSES], double *share)
{
	int64_t	tot = 0;
	int	c, best = TR_CAUSE_UNKNOWN;

	for (c = 0; c < TR_NCAUSES; c++) {
		tot += ns[c];
		if (ns[c] > ns[best] || (ns[c] == ns[best] && c < best &&
		    ns[c] > 0))
			best = c;
	}
	*share = tot > 0 ? (double)ns[best] / (double)tot : 0;
	return ((enum tr_cause)best);
}

static void
add_ev(struct tr_attr_result *r, const char *what, const char *table,
    int64_t id, int64_t ts, int64_t dur, char *detail)
{
	struct tr_attr_evidence	*e;

	r->ev = tr_xrealloc(r->ev, (r->nev + 1) * sizeof *r->ev);
	e = &r->ev[r->nev++];
	e->what = what;
	e->table = table;
	e->id = id;
	e->ts = ts;
	e->dur = dur;
	e->detail = detail;
}

/* GC cycles, STW pauses and mark assists overlapping [lo, hi). */
struct gcinfo {
	struct ivls	cycles, stw, assists, driver_assists;
	int64_t		stw_ns, assist_ns;
};

static int
load_gc(struct tr_attr *a, const struct tr_attr_driver *d, int64_t lo,
    int64_t hi, struct gcinfo *gi, struct tr_attr_result *r, int ev,
    struct tr_error *err)
{
	static const char sql[] =
	    "SELECT s.id, s.ts, s.dur, n.s, json_extract(s.args, '$.goid'),\n"
	    "       t.kind\n"
	    "  FROM track t CROSS JOIN slice s ON s.track_id = t.id\n"
	    "  CROSS JOIN str n ON n.id = s.name_id\n"
	    " WHERE t.kind IN ('" TR_TRACK_GO_GC "', '" TR_TRACK_GO_STW "')\n"
	    "   AND t.source_id = ?1\n"
	    "   AND s.run_ts < ?3 AND s.run_end_ts > ?2\n"
	    "   AND s.ts < ?3 AND s.ts + s.dur > ?2";
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = tr_db_prepare(a->db, sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, a->go_source);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t		 id = sqlite3_column_int64(st, 0);
		int64_t		 ts = sqlite3_column_int64(st, 1);
		int64_t		 end = ts + sqlite3_column_int64(st, 2);
		const char	*name = (const char *)sqlite3_column_text(st,
		    3);
		const char	*kind = (const char *)sqlite3_column_text(st,
		    5);
		int64_t		 ca = imax(ts, lo), cb = imin(end, hi);
		int		 stw = strcmp(kind, TR_TRACK_GO_STW) == 0;

		if (stw) {
			ivls_add(&gi->stw, ca, cb);
			gi->stw_ns += cb - ca;
		} else if (strcmp(name, TR_GO_GC) == 0)
			ivls_add(&gi->cycles, ca, cb);
		else if (strcmp(name, TR_GO_ASSIST) == 0) {
			ivls_add(&gi->assists, ca, cb);
			gi->assist_ns += cb - ca;
			if (d != NULL && d->found &&
			    col_int(st, 4, -1) == d->goid)
				ivls_add(&gi->driver_assists, ca, cb);
		} else
			continue;
		if (ev)
			add_ev(r, stw ? "stw" : "gc", stw ? "go_stw" :
			    "go_gc", id, ts, end - ts, tr_xstrdup(name));
	}
	if (rc != SQLITE_DONE)
		step_error(a, st, err);
	sqlite3_finalize(st);
	ivls_norm(&gi->cycles);
	ivls_norm(&gi->stw);
	ivls_norm(&gi->assists);
	ivls_norm(&gi->driver_assists);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static void
gcinfo_release(struct gcinfo *gi)
{
	ivls_release(&gi->cycles);
	ivls_release(&gi->stw);
	ivls_release(&gi->assists);
	ivls_release(&gi->driver_assists);
}

struct sweep_ev {
	int64_t	ts;
	int	run, rbl, gcw, sys;
};

static int
sweep_cmp(const void *x, const void *y)
{
	const struct sweep_ev	*p = x, *q = y;

	return (p->ts < q->ts ? -1 : p->ts > q->ts);
}

/*
 * The process in [lo, hi): running and runnable goroutines over time,
 * the stretches with nothing running or runnable ('idle'), and those with
 * a GC worker running ('gcw').
 */
static int
sweep(struct tr_attr *a, int64_t lo, int64_t hi, struct tr_attr_context *c,
    struct ivls *idle, struct ivls *gcw, struct tr_error *err)
{
	struct gstates	 all;
	struct sweep_ev	*ev;
	size_t		 n = 0, i;
	int64_t		 t, run = 0, rbl = 0, gw = 0, sys = 0;
	double		 irun = 0, irbl = 0, isys = 0;

	memset(&all, 0, sizeof all);
	if (load_states(a, -1, lo, hi, &all, err) != 0)
		return (-1);
	ev = tr_xmalloc((2 * all.n + 1) * sizeof *ev);
	for (i = 0; i < all.n; i++) {
		const struct gstate	*s = &all.v[i];
		int64_t			 ca = imax(s->ts, lo);
		int64_t			 cb = imin(s->ts + s->dur, hi);
		int			 r = s->cls == TR_CAUSE_CPU;
		int			 q = s->cls == TR_CAUSE_SCHED;
		int			 w = r && tr_imap_get(&a->gcworkers,
		    (uint64_t)s->track) != NULL;
		int			 y = s->cls == TR_CAUSE_SYSCALL;

		if (cb <= ca || !(r || q || y))
			continue;
		ev[n].ts = ca;
		ev[n].run = r;
		ev[n].rbl = q;
		ev[n].gcw = w;
		ev[n].sys = y;
		n++;
		ev[n].ts = cb;
		ev[n].run = -r;
		ev[n].rbl = -q;
		ev[n].gcw = -w;
		ev[n].sys = -y;
		n++;
	}
	free(all.v);
	qsort(ev, n, sizeof *ev, sweep_cmp);
	t = lo;
	for (i = 0; i <= n; i++) {
		int64_t	next = i < n ? ev[i].ts : hi;

		if (next > t) {
			irun += (double)run * (double)(next - t);
			irbl += (double)rbl * (double)(next - t);
			isys += (double)sys * (double)(next - t);
			if (run + rbl == 0)
				ivls_add(idle, t, next);
			if (gw > 0)
				ivls_add(gcw, t, next);
			t = next;
		}
		if (i == n)
			break;
		run += ev[i].run;
		rbl += ev[i].rbl;
		gw += ev[i].gcw;
		sys += ev[i].sys;
		if (rbl > c->runnable_max)
			c->runnable_max = rbl;
	}
	free(ev);
	ivls_norm(idle);
	ivls_norm(gcw);
	c->running_mean = irun / (double)(hi - lo);
	c->runnable_mean = irbl / (double)(hi - lo);
	c->syscall_ns = (int64_t)isys;
	{
		int64_t	s = 0;

		for (i = 0; i < idle->n; i++)
			s += idle->v[i].b - idle->v[i].a;
		c->idle_share = (double)s / (double)(hi - lo);
	}
	return (0);
}

/*
 * The process in [lo, hi) from the derived 10 ms bins (pro rata where an
 * edge cuts a bin), and the GC workers' running stretches from their own
 * tracks: what sweep() computes, without reading every goroutine.
 */
static int
from_derived(struct tr_attr *a, int64_t lo, int64_t hi,
    struct tr_attr_context *c, struct ivls *gcw, struct tr_error *err)
{
	struct tr_derived_totals	 t;
	uint64_t			*keys;
	size_t				 n = 0, i, k;
	double				 w = (double)(hi - lo);

	if (tr_derived_totals(a->db, a->go_source, lo, hi, &t, err) != 0)
		return (-1);
	c->running_mean = (double)t.ns[TR_DK_RUNNING] / w;
	c->runnable_mean = (double)t.ns[TR_DK_RUNNABLE] / w;
	c->runnable_max = (int64_t)ceil(t.runnable_peak);
	c->syscall_ns = t.ns[TR_DK_SYSCALL];
	c->idle_share = (double)t.idle_ns / w;
	keys = tr_imap_keys(&a->gcworkers, &n);
	for (k = 0; k < n; k++) {
		struct gstates	sts;

		memset(&sts, 0, sizeof sts);
		if (load_states(a, (int64_t)keys[k], lo, hi, &sts,
		    err) != 0) {
			free(keys);
			return (-1);
		}
		for (i = 0; i < sts.n; i++)
			if (sts.v[i].cls == TR_CAUSE_CPU)
				ivls_add(gcw, imax(sts.v[i].ts, lo),
				    imin(sts.v[i].ts + sts.v[i].dur, hi));
		free(sts.v);
	}
	free(keys);
	ivls_norm(gcw);
	return (0);
}

/* CPU samples in [lo, hi): perf (selected threads) and the Go trace. */
struct samp {
	int64_t	id, ts, cs, thread, value, goid, tid;
	int	go;
};

static int
load_samples(struct tr_attr *a, int64_t lo, int64_t hi, struct samp **out,
    size_t *nout, struct tr_error *err)
{
	sqlite3_stmt	*st;
	size_t		 k, n = 0, cap = 0;
	struct samp	*v = NULL;
	int		 rc = SQLITE_DONE;

	if ((st = tr_db_prepare(a->db, "SELECT s.id, s.ts, s.callsite_id, "
	    "s.thread_id, s.value, json_extract(s.labels, '$.goid'), t.tid "
	    "FROM sample s LEFT JOIN thread t ON t.id = s.thread_id "
	    "WHERE s.source_id = ? AND s.ts >= ? AND s.ts < ?", err)) == NULL)
		return (-1);
	for (k = 0; k <= a->nperf; k++) {
		int	go = k == a->nperf;

		if (go && a->go_source < 0)
			break;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, go ? a->go_source : a->perf[k]);
		sqlite3_bind_int64(st, 2, lo);
		sqlite3_bind_int64(st, 3, hi);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t	th = col_int(st, 3, -1);

			if (!go && a->thread_filter &&
			    tr_imap_get(&a->threads, (uint64_t)th) == NULL)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				v = tr_xrealloc(v, cap * sizeof *v);
			}
			v[n].id = sqlite3_column_int64(st, 0);
			v[n].ts = sqlite3_column_int64(st, 1);
			v[n].cs = col_int(st, 2, -1);
			v[n].thread = th;
			v[n].value = col_int(st, 4, 0);
			v[n].goid = col_int(st, 5, -1);
			v[n].tid = col_int(st, 6, -1);
			v[n].go = go;
			n++;
		}
		if (rc != SQLITE_DONE)
			break;
	}
	if (rc != SQLITE_DONE)
		step_error(a, st, err);
	sqlite3_finalize(st);
	*out = v;
	*nout = n;
	return (rc == SQLITE_DONE ? 0 : -1);
}

struct stk {
	int64_t	cs, ns;
};

static void
stk_add(struct stk **v, size_t *n, int64_t cs, int64_t ns)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].cs == cs) {
			(*v)[i].ns += ns;
			return;
		}
	*v = tr_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[*n].cs = cs;
	(*v)[*n].ns = ns;
	(*n)++;
}

static int
stk_cmp(const void *x, const void *y)
{
	const struct stk	*p = x, *q = y;

	if (p->ns != q->ns)
		return (p->ns > q->ns ? -1 : 1);
	return (p->cs < q->cs ? -1 : p->cs > q->cs);
}

static void
top_stacks(struct tr_attr *a, struct stk *v, size_t n,
    struct tr_attr_result *r)
{
	struct {
		char	*text;
		int64_t	 cs, ns;
	}	top[16];
	size_t	i, k, nt = 0, best;

	/*
	 * Call sites whose first frames read the same are one stack to the
	 * reader: merge them (of the 16 largest) before ranking.
	 */
	if (n > 0)
		qsort(v, n, sizeof *v, stk_cmp);
	for (i = 0; i < n && i < 16; i++) {
		char	*t = tr_attr_stack_text(a, v[i].cs);

		for (k = 0; k < nt; k++)
			if (strcmp(top[k].text, t) == 0)
				break;
		if (k < nt) {
			top[k].ns += v[i].ns;
			free(t);
			continue;
		}
		top[nt].text = t;
		top[nt].cs = v[i].cs;
		top[nt].ns = v[i].ns;
		nt++;
	}
	while (r->nstacks < 3 && nt > 0) {
		struct tr_attr_stack	*s = &r->stacks[r->nstacks++];

		for (best = 0, k = 1; k < nt; k++)
			if (top[k].ns > top[best].ns)
				best = k;
		s->callsite_id = top[best].cs;
		s->ns = top[best].ns;
		s->text = top[best].text;
		top[best] = top[--nt];
	}
	for (k = 0; k < nt; k++)
		free(top[k].text);
}

/*
 * What goroutine 'track' did within the intervals 'in' (its causes, the
 * time covered); with 'chain', its own chan/sync waits there.
 */
static int
breakdown(struct tr_attr *a, int64_t track, const struct ivls *in,
    int64_t ns[TR_NCAUSES], struct ivls *chain, struct tr_attr_result *ev,
    const char *what, int64_t goid, struct tr_error *err)
{
	struct gstates	sts;
	size_t		i;

	memset(&sts, 0, sizeof sts);
	if (in->n == 0)
		return (0);
	if (load_states(a, track, in->v[0].a, in->v[in->n - 1].b, &sts,
	    err) != 0)
		return (-1);
	for (i = 0; i < sts.n; i++) {
		const struct gstate	*s = &sts.v[i];
		int64_t			 ov = ivls_overlap(in, s->ts,
		    s->ts + s->dur);
		int			 c = s->cls == C_OTHER ?
		    TR_CAUSE_UNKNOWN : s->cls;

		if (ov <= 0)
			continue;
		ns[c] += ov;
		if (ev != NULL)
			add_ev(ev, what, "go_state", s->id, s->ts, s->dur,
			    tr_xasprintf("goroutine %lld %s", (long long)goid,
			    tr_cause_names[c]));
		if (chain != NULL && (c == TR_CAUSE_CHAN ||
		    c == TR_CAUSE_SYNC)) {
			size_t	k;

			for (k = 0; k < in->n; k++)
				ivls_add(chain, imax(s->ts, in->v[k].a),
				    imin(s->ts + s->dur, in->v[k].b));
		}
	}
	free(sts.v);
	if (chain != NULL)
		ivls_norm(chain);
	return (0);
}

struct wk {
	int64_t		goid;
	int64_t		ns;
	struct ivls	in;
};

/*
 * The top waker of the chan/sync waits 'waits' of 'track' (each state
 * with its end), its cause over them, and one level deeper; with 'ev',
 * the waker's states in those waits as evidence ("waker", "waker2").
 */
static int
top_waker(struct tr_attr *a, int64_t track, const struct gstate *waits,
    size_t nwaits, int64_t lo, int64_t hi, int depth,
    struct tr_attr_waker *w, int *found, struct tr_attr_result *ev,
    struct tr_error *err)
{
	struct wk	*v = NULL;
	size_t		 n = 0, i, k, best = 0;
	int64_t		 ns[TR_NCAUSES], tot = 0, wtrack;
	struct ivls	 chain;
	int		 rc = -1;

	memset(&chain, 0, sizeof chain);
	*found = 0;
	for (i = 0; i < nwaits; i++) {
		const struct gstate	*s = &waits[i];
		int64_t			 g = s->waker;

		if (g < 0)
			g = waker_at(a, track, s->ts + s->dur);
		if (g < 0)
			continue;
		for (k = 0; k < n; k++)
			if (v[k].goid == g)
				break;
		if (k == n) {
			v = tr_xrealloc(v, (n + 1) * sizeof *v);
			memset(&v[n], 0, sizeof v[n]);
			v[n++].goid = g;
		}
		v[k].ns += imin(s->ts + s->dur, hi) - imax(s->ts, lo);
		ivls_add(&v[k].in, imax(s->ts, lo), imin(s->ts + s->dur, hi));
	}
	if (n == 0) {
		rc = 0;
		goto out;
	}
	for (k = 1; k < n; k++)
		if (v[k].ns > v[best].ns)
			best = k;
	ivls_norm(&v[best].in);
	memset(ns, 0, sizeof ns);
	if (depth == 0) {
		w->goid = v[best].goid;
		w->wait_ns = v[best].ns;
		wtrack = goroutine_track(a, w->goid, &w->name, NULL);
	} else {
		w->goid2 = v[best].goid;
		wtrack = goroutine_track(a, w->goid2, &w->name2, NULL);
	}
	if (wtrack < 0) {
		rc = 0;
		goto out;
	}
	if (breakdown(a, wtrack, &v[best].in, ns, depth == 0 ? &chain : NULL,
	    ev, depth == 0 ? "waker" : "waker2", v[best].goid, err) != 0)
		goto out;
	for (k = 0; k < TR_NCAUSES; k++)
		tot += ns[k];
	*found = 1;
	if (depth == 0) {
		w->cause = tr_attr_dominant(ns, &w->share);
		if (tot == 0)
			w->cause = TR_CAUSE_UNKNOWN;
	} else {
		w->cause2 = tr_attr_dominant(ns, &w->share2);
		if (tot == 0)
			w->cause2 = TR_CAUSE_UNKNOWN;
	}
	if (depth == 0 && (w->cause == TR_CAUSE_CHAN ||
	    w->cause == TR_CAUSE_SYNC) && chain.n > 0) {
		struct gstates	sts;
		struct gstate	*sub = NULL;
		size_t		nsub = 0;
		int		f2;

		memset(&sts, 0, sizeof sts);
		if (load_states(a, wtrack, chain.v[0].a,
		    chain.v[chain.n - 1].b, &sts, err) != 0)
			goto out;
		for (i = 0; i < sts.n; i++) {
			int64_t	ov = ivls_overlap(&chain, sts.v[i].ts,
			    sts.v[i].ts + sts.v[i].dur);

			if (ov <= 0 || (sts.v[i].cls != TR_CAUSE_CHAN &&
			    sts.v[i].cls != TR_CAUSE_SYNC))
				continue;
			sub = tr_xrealloc(sub, (nsub + 1) * sizeof *sub);
			sub[nsub++] = sts.v[i];
		}
		free(sts.v);
		if (top_waker(a, wtrack, sub, nsub, lo, hi, 1, w, &f2, ev,
		    err) != 0) {
			free(sub);
			goto out;
		}
		w->deeper = f2;
		free(sub);
	}
	rc = 0;
out:
	for (k = 0; k < n; k++)
		ivls_release(&v[k].in);
	free(v);
	ivls_release(&chain);
	return (rc);
}

static const char *
pct(char *buf, size_t len, double share)
{
	snprintf(buf, len, "%.0f%%", 100 * share);
	return (buf);
}

static void
make_verdict(struct tr_attr *a, const struct tr_attr_driver *d,
    struct tr_attr_result *r, int64_t window)
{
	const struct tr_attr_context	*c = &r->ctx;
	struct tr_buf			 b;
	char				 p1[16], p2[16];
	const char			*at = r->nstacks > 0 ?
	    r->stacks[0].text : NULL;
	int64_t				 tot = 0;
	int				 k;

	(void)a;
	for (k = 0; k < TR_NCAUSES; k++)
		tot += r->cause_ns[k];
	tr_buf_init(&b);
	if (d == NULL || !d->found) {
		if (!c->have_go && r->cause_ns[TR_CAUSE_CPU] > 0)
			tr_buf_printf(&b, "no Go trace: the process on CPU "
			    "%s of the window (%.2f CPUs), not on CPU %s "
			    "(perf cannot say why)", pct(p1, sizeof p1, (double)r->cause_ns[
			    TR_CAUSE_CPU] / (double)window),
			    (double)r->cpu_time_ns / (double)window,
			    pct(p2, sizeof p2, 1 - (double)r->cause_ns[
			    TR_CAUSE_CPU] / (double)window));
		else if (!c->have_go)
			tr_buf_adds(&b, "no host data covers the window");
		else
			tr_buf_adds(&b, "no GPU-driving goroutine found: "
			    "see the process context");
		r->verdict = b.data;
		return;
	}
	if (tot == 0) {
		if (r->gpu_wait_ns > 0)
			tr_buf_adds(&b, "the driver waited on the GPU "
			    "throughout: the idleness is on the device side");
		else
			tr_buf_adds(&b, "no host data covers the window");
		r->verdict = b.data;
		return;
	}
	pct(p1, sizeof p1, r->share);
	switch (r->cause) {
	case TR_CAUSE_CPU:
		tr_buf_printf(&b, "cpu %s: the driver computes on the host",
		    p1);
		break;
	case TR_CAUSE_GC:
		tr_buf_printf(&b, "gc %s: GC on %s of the window, STW %.1fms, "
		    "mark assists %.1fms", p1, pct(p2, sizeof p2,
		    c->gc_share), (double)c->stw_ns / 1e6,
		    (double)c->assist_ns / 1e6);
		at = NULL;
		break;
	case TR_CAUSE_SCHED:
		tr_buf_printf(&b, "sched %s: the driver waits for a P, "
		    "%.1f goroutines runnable on %lld Ps", p1,
		    c->runnable_mean, (long long)c->gomaxprocs);
		at = NULL;
		break;
	case TR_CAUSE_CHAN:
	case TR_CAUSE_SYNC:
		tr_buf_printf(&b, "%s %s: the driver blocked on %s",
		    tr_cause_names[r->cause], p1, r->cause ==
		    TR_CAUSE_CHAN ? "a channel" : "a lock");
		break;
	case TR_CAUSE_SYSCALL:
		tr_buf_printf(&b, "syscall %s: the driver in syscalls", p1);
		break;
	case TR_CAUSE_NET:
		tr_buf_printf(&b, "net %s: the driver waits on the network",
		    p1);
		break;
	case TR_CAUSE_SLEEP:
		tr_buf_printf(&b, "sleep %s: the driver sleeps", p1);
		break;
	case TR_CAUSE_IDLE:
		tr_buf_printf(&b, "idle %s: nothing runnable in the process "
		    "(upstream starvation)", p1);
		at = NULL;
		break;
	case TR_CAUSE_UNKNOWN:
	default:
		tr_buf_printf(&b, "unknown %s: no host data covers it", p1);
		at = NULL;
		break;
	}
	if (at != NULL)
		tr_buf_printf(&b, " at %s", at);
	if (r->has_waker && (r->cause == TR_CAUSE_CHAN ||
	    r->cause == TR_CAUSE_SYNC)) {
		const struct tr_attr_waker	*w = &r->waker;

		tr_buf_printf(&b, " (woken by goroutine %lld %s, which was "
		    "in %s %s of the wait", (long long)w->goid,
		    w->name ? w->name : "?", tr_cause_names[w->cause],
		    pct(p2, sizeof p2, w->share));
		if (w->deeper)
			tr_buf_printf(&b, "; it was woken by goroutine %lld "
			    "%s, in %s %s", (long long)w->goid2,
			    w->name2 ? w->name2 : "?",
			    tr_cause_names[w->cause2],
			    pct(p2, sizeof p2, w->share2));
		tr_buf_adds(&b, ")");
	}
	r->verdict = b.data;
}

/*
 * Without a driver: what the CPU samples can say.  The process's time on
 * CPU over the window (its threads' periods summed, at most the window:
 * the driver may run on any of its threads) is cpu, the rest unknown.
 */
static void
attr_samples(struct tr_attr *a, const struct samp *sm, size_t nsm,
    int64_t lo, int64_t hi, struct tr_attr_result *r)
{
	struct stk	*cs = NULL;
	size_t		 ncs = 0, i;
	int64_t		 on = 0;

	for (i = 0; i < nsm; i++)
		if (!sm[i].go) {
			on += sm[i].value;
			stk_add(&cs, &ncs, sm[i].cs, sm[i].value);
		}
	r->cpu_time_ns = on;
	r->cause_ns[TR_CAUSE_CPU] = imin(on, hi - lo);
	r->cause_ns[TR_CAUSE_UNKNOWN] = hi - lo - r->cause_ns[TR_CAUSE_CPU];
	top_stacks(a, cs, ncs, r);
	free(cs);
}

int
tr_attr_window(struct tr_attr *a, const struct tr_attr_driver *d,
    size_t gpu, int64_t lo, int64_t hi, int evidence,
    struct tr_attr_result *r, struct tr_error *err)
{
	struct gcinfo	 gi;
	struct ivls	 idle, gcw, busyonly;
	struct gstates	 sts, waits;
	struct samp	*sm = NULL;
	struct stk	*stv = NULL;
	size_t		 nsm = 0, nst = 0, i;
	int64_t		 covered = 0;
	int		 rc = -1, k, found;

	memset(r, 0, sizeof *r);
	memset(&gi, 0, sizeof gi);
	memset(&idle, 0, sizeof idle);
	memset(&gcw, 0, sizeof gcw);
	memset(&busyonly, 0, sizeof busyonly);
	memset(&sts, 0, sizeof sts);
	memset(&waits, 0, sizeof waits);
	r->lo = lo;
	r->hi = hi;
	r->ctx.gomaxprocs = a->gomaxprocs;
	if (hi <= lo)
		hi = lo + 1;
	if (evidence && gpu != (size_t)-1) {
		const struct tr_attr_gpu	*g = &a->gpus[gpu];

		for (i = 0; i < g->n; i++)
			if (g->ts[i] > lo && g->ts[i] <= hi)
				add_ev(r, "gpu", "gpu_metric", g->id[i],
				    g->ts[i], 0, tr_xasprintf(
				    "utilization.gpu %g%%", g->util[i]));
	}
	if (load_samples(a, lo, hi, &sm, &nsm, err) != 0)
		goto out;
	for (i = 0; i < nsm; i++) {
		r->ctx.cpu_samples++;
		if (!sm[i].go)
			r->ctx.cpu_sample_ns += sm[i].value;
	}
	if (a->go_source >= 0) {
		r->ctx.have_go = 1;
		if (load_gc(a, d, lo, hi, &gi, r, evidence, err) != 0 ||
		    (a->derived ? from_derived(a, lo, hi, &r->ctx, &gcw,
		    err) : sweep(a, lo, hi, &r->ctx, &idle, &gcw, err)) != 0)
			goto out;
		r->ctx.stw_ns = gi.stw_ns;
		r->ctx.assist_ns = gi.assist_ns;
		{
			int64_t	s = 0;

			for (i = 0; i < gi.cycles.n; i++)
				s += gi.cycles.v[i].b - gi.cycles.v[i].a;
			r->ctx.gc_share = (double)s / (double)(hi - lo);
		}
	}
	if (d == NULL || !d->found) {
		if (a->go_source < 0 && a->nperf > 0)
			attr_samples(a, sm, nsm, lo, hi, r);
		else
			r->cause_ns[TR_CAUSE_UNKNOWN] = hi - lo;
		goto verdict;
	}
	if (load_states(a, d->track_id, lo, hi, &sts, err) != 0)
		goto out;
	/* How much of each unexplained block had nothing runnable. */
	for (i = 0; i < sts.n; i++) {
		struct gstate	*s = &sts.v[i];
		int64_t		 ca = imax(s->ts, lo);
		int64_t		 cb = imin(s->ts + s->dur, hi);

		if (s->cls != C_OTHER)
			continue;
		if (!a->derived)
			s->idle = ivls_overlap(&idle, ca, cb);
		else {
			struct tr_derived_totals	t;

			if (tr_derived_totals(a->db, a->go_source, ca, cb, &t,
			    err) != 0)
				goto out;
			s->idle = imin(t.idle_ns, cb - ca);
		}
	}
	{
		struct ivls	gcrun, gcq;

		memset(&gcrun, 0, sizeof gcrun);
		memset(&gcq, 0, sizeof gcq);
		ivls_cat(&gcrun, &gi.stw);
		ivls_cat(&gcrun, &gi.driver_assists);
		ivls_norm(&gcrun);
		ivls_cat(&gcq, &gi.stw);
		ivls_cat(&gcq, &gcw);
		ivls_norm(&gcq);
		for (i = 0; i < sts.n; i++) {
			struct gstate	*s = &sts.v[i];
			int64_t		 ca = imax(s->ts, lo);
			int64_t		 cb = imin(s->ts + s->dur, hi);
			int64_t		 len = cb - ca, part;
			int		 c = s->cls;

			covered += len;
			if (is_gpu_wait(d, s)) {
				r->gpu_wait_ns += len;
				continue;
			}
			switch (c) {
			case TR_CAUSE_CPU:
				part = ivls_overlap(&gcrun, ca, cb);
				r->cause_ns[TR_CAUSE_GC] += part;
				r->cause_ns[TR_CAUSE_CPU] += len - part;
				break;
			case TR_CAUSE_SCHED:
				part = ivls_overlap(&gcq, ca, cb);
				r->cause_ns[TR_CAUSE_GC] += part;
				r->cause_ns[TR_CAUSE_SCHED] += len - part;
				break;
			case C_OTHER:
				part = s->idle;
				r->cause_ns[TR_CAUSE_IDLE] += part;
				r->cause_ns[TR_CAUSE_UNKNOWN] += len - part;
				c = part * 2 >= len ? TR_CAUSE_IDLE :
				    TR_CAUSE_UNKNOWN;
				break;
			default:
				r->cause_ns[c] += len;
				break;
			}
			if (c == TR_CAUSE_CHAN || c == TR_CAUSE_SYNC)
				*gstates_push(&waits) = *s;
		}
		ivls_release(&gcrun);
		ivls_release(&gcq);
	}
	if (covered < hi - lo)
		r->cause_ns[TR_CAUSE_UNKNOWN] += hi - lo - covered;
	r->cause = tr_attr_dominant(r->cause_ns, &r->share);
	/* The top stacks of the dominant cause. */
	if (r->cause == TR_CAUSE_CPU || r->cause == TR_CAUSE_GC) {
		for (i = 0; i < nsm; i++)
			if (sm[i].go && sm[i].goid == d->goid)
				stk_add(&stv, &nst, sm[i].cs, 1);
		/* A sample stands for the period it was taken over. */
		for (i = 0; i < nst; i++)
			stv[i].ns *= 10000000;
	}
	if (nst == 0)
		for (i = 0; i < sts.n; i++) {
			struct gstate	*s = &sts.v[i];
			int		 c = s->cls == C_OTHER ?
			    (s->idle * 2 >= imin(s->ts + s->dur, hi) -
			    imax(s->ts, lo) ? TR_CAUSE_IDLE :
			    TR_CAUSE_UNKNOWN) : s->cls;

			if (c != (int)r->cause || is_gpu_wait(d, s) ||
			    c == TR_CAUSE_CPU)
				continue;
			stk_add(&stv, &nst, s->cs, imin(s->ts + s->dur, hi) -
			    imax(s->ts, lo));
		}
	top_stacks(a, stv, nst, r);
	/* Who woke the driver. */
	{
		int	wc = r->cause_ns[TR_CAUSE_CHAN] >=
		    r->cause_ns[TR_CAUSE_SYNC] ? TR_CAUSE_CHAN :
		    TR_CAUSE_SYNC;
		size_t	o = 0;

		for (i = 0; i < waits.n; i++)
			if (waits.v[i].cls == wc)
				waits.v[o++] = waits.v[i];
		waits.n = o;
		if (waits.n > 0) {
			if (top_waker(a, d->track_id, waits.v, waits.n, lo,
			    hi, 0, &r->waker, &found, evidence ? r : NULL,
			    err) != 0)
				goto out;
			r->has_waker = found;
		}
	}
	if (evidence) {
		for (i = 0; i < sts.n; i++) {
			const struct gstate	*s = &sts.v[i];

			add_ev(r, is_gpu_wait(d, s) ? "gpu-wait" :
			    tr_cause_names[s->cls == C_OTHER ?
			    TR_CAUSE_UNKNOWN : s->cls], "go_state", s->id,
			    s->ts, s->dur, tr_xasprintf("goroutine %lld",
			    (long long)d->goid));
		}
	}
verdict:
	if (evidence)
		for (i = 0; i < nsm; i++)
			if (!sm[i].go || d == NULL || !d->found ||
			    sm[i].goid == d->goid)
				add_ev(r, "cpu-sample", sm[i].go ?
				    "sample" : "perf_sample", sm[i].id,
				    sm[i].ts, 0, sm[i].go ? tr_xasprintf(
				    "goroutine %lld", (long long)sm[i].goid) :
				    tr_xasprintf("tid %lld",
				    (long long)sm[i].tid));
	r->cause = tr_attr_dominant(r->cause_ns, &r->share);
	make_verdict(a, d, r, hi - lo);
	rc = 0;
	(void)k;
out:
	gcinfo_release(&gi);
	ivls_release(&idle);
	ivls_release(&gcw);
	ivls_release(&busyonly);
	free(sts.v);
	free(waits.v);
	free(sm);
	free(stv);
	return (rc);
}

void
tr_attr_result_release(struct tr_attr_result *r)
{
	size_t	i;
	int	k;

	for (k = 0; k < r->nstacks; k++)
		free(r->stacks[k].text);
	free(r->waker.name);
	free(r->waker.name2);
	free(r->verdict);
	for (i = 0; i < r->nev; i++)
		free(r->ev[i].detail);
	free(r->ev);
	memset(r, 0, sizeof *r);
}

int
tr_attr_procs(struct tr_attr *a, int64_t lo, int64_t hi, double *pmin,
    double *pmax, int64_t *nprocs, struct tr_error *err)
{
	static const char sql[] =
	    "SELECT t.ref, sum(min(s.ts + s.dur, ?3) - max(s.ts, ?2))\n"
	    "  FROM track t CROSS JOIN slice s ON s.track_id = t.id\n"
	    " WHERE t.kind = '" TR_TRACK_GO_PROC "' AND t.source_id = ?1\n"
	    "   AND s.run_ts < ?3 AND s.run_end_ts > ?2\n"
	    "   AND s.ts < ?3 AND s.ts + s.dur > ?2\n"
	    " GROUP BY t.ref";
	sqlite3_stmt	*st;
	int64_t		 n = 0;
	int		 rc;

	*pmin = *pmax = 0;
	*nprocs = 0;
	if (a->go_source < 0 || hi <= lo)
		return (0);
	if ((st = tr_db_prepare(a->db, sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, a->go_source);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, hi);
	*pmin = 1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double	b = (double)sqlite3_column_int64(st, 1) /
		    (double)(hi - lo);

		if (b < *pmin)
			*pmin = b;
		if (b > *pmax)
			*pmax = b;
		n++;
	}
	if (rc != SQLITE_DONE)
		step_error(a, st, err);
	sqlite3_finalize(st);
	/* A P that never ran in the window was idle all of it. */
	if (n < a->gomaxprocs || n == 0)
		*pmin = 0;
	*nprocs = n;
	return (rc == SQLITE_DONE ? 0 : -1);
}

int
tr_attr_driver_given(struct tr_attr *a, int64_t goid,
    struct tr_attr_driver *d, struct tr_error *err)
{
	int64_t	cs = -1;

	memset(d, 0, sizeof *d);
	d->goid = goid;
	d->track_id = -1;
	d->given = 1;
	if (a->go_source < 0)
		return (0);
	if ((d->track_id = goroutine_track(a, goid, &d->name, &cs)) < 0)
		return (tr_error_set(err, TR_EUSAGE, "no goroutine %lld in "
		    "the Go trace (source %lld)", (long long)goid,
		    (long long)a->go_source));
	d->found = 1;
	d->wait = TR_CAUSE_UNKNOWN;
	d->created = cs >= 0 ? tr_attr_stack_text(a, cs) :
	    tr_xstrdup("(no stack)");
	d->wait_stack = tr_xstrdup("(none)");
	return (0);
}

int
tr_attr_gpu_waits(struct tr_attr *a, const struct tr_attr_driver *d,
    int64_t lo, int64_t hi, int64_t **ts, size_t *n, struct tr_error *err)
{
	struct gstates	sts;
	size_t		i;

	*ts = NULL;
	*n = 0;
	if (!d->found || d->nwait_cs == 0)
		return (0);
	memset(&sts, 0, sizeof sts);
	if (load_states(a, d->track_id, lo, hi, &sts, err) != 0)
		return (-1);
	*ts = tr_xmalloc((sts.n + 1) * sizeof **ts);
	for (i = 0; i < sts.n; i++)
		if (sts.v[i].ts >= lo && is_gpu_wait(d, &sts.v[i]))
			(*ts)[(*n)++] = sts.v[i].ts;
	free(sts.v);
	return (0);
}

void
tr_attr_episode_args_init(struct tr_attr_episode_args *ea)
{
	ea->threshold = 30;
	ea->gap = 300000000;
	ea->min = 500000000;
	ea->evidence = 0;
	ea->driver = NULL;
}

int
tr_attr_episode_opts(struct tr_attr_episode_args *ea, unsigned what,
    struct tr_arg *opts)
{
	const struct tr_arg	all[] = {
		{ "threshold", 0, TR_ARG_PERCENT, &ea->threshold, 0, 100,
		    "PCT", "idle below this utilization.gpu (default 30%)",
		    0, 0 },
		{ "gap", 0, TR_ARG_DURATION, &ea->gap, 0, 0, "DURATION",
		    "merge episodes across spikes this short "
		    "(default 300ms)", 0, 0 },
		{ "min", 0, TR_ARG_DURATION, &ea->min, 0, 0, "DURATION",
		    "keep episodes at least this long (default 500ms)",
		    0, 0 },
		{ "driver", 0, TR_ARG_STRING, &ea->driver, 0, 0, "NAME",
		    "the driver: the goroutine in regions or tasks NAME",
		    0, 0 },
		{ "evidence", 0, TR_ARG_FLAG, &ea->evidence, 0, 0, NULL,
		    "add the rows behind each verdict (by id)", 0, 0 }
	};
	static const unsigned	flag[] = {
		TR_ATTR_EPISODE_THRESHOLD, TR_ATTR_EPISODE_GAPMIN,
		TR_ATTR_EPISODE_GAPMIN, TR_ATTR_EPISODE_DRIVER,
		TR_ATTR_EPISODE_EVIDENCE
	};
	size_t			i;
	int			n = 0;

	for (i = 0; i < sizeof flag / sizeof *flag; i++)
		if (what & flag[i])
			opts[n++] = all[i];
	return (n);
}

void
tr_attr_episodes_by(const struct tr_attr *a, size_t gi,
    const struct tr_attr_episode_args *ea, struct tr_attr_episode **eps,
    size_t *n)
{
	tr_attr_episodes(a, gi, ea->threshold, ea->gap, ea->min, eps, n);
}

struct tr_attr *
tr_attr_open_gpu(struct tr_db *db, struct tr_sel *sel, const char *query,
    struct tr_out *out, struct tr_error *err)
{
	struct tr_attr	*a;
	int64_t		 origin, woff;
	size_t		 i;
	int		 haswall;

	if (tr_sel_resolve(sel, db, err) != 0 ||
	    (a = tr_attr_open(db, sel, err)) == NULL)
		return (NULL);
	if (tr_attr_ngpus(a) == 0) {
		tr_error_set(err, TR_EDATA, "%s: no GPU telemetry in the "
		    "store%s (utilization.gpu of an nvidia-smi log)", query,
		    sel->has_from || sel->has_to || sel->gpu >= 0 ||
		    sel->nsources > 0 ? " selection" : "");
		tr_attr_free(a);
		return (NULL);
	}
	tr_attr_clock(a, &origin, &haswall, &woff);
	tr_out_set_clock(out, origin, haswall, woff);
	if (!tr_attr_has_go(a) && a->go_apart >= 0)
		tr_out_note(out, "the Go trace (source %lld) does not overlap "
		    "the GPU telemetry: causes from CPU samples only%s",
		    (long long)a->go_apart,
		    tr_attr_has_perf(a) ? "" : " (and there are none)");
	else if (!tr_attr_has_go(a))
		tr_out_note(out, "no Go trace: causes from CPU samples only%s",
		    tr_attr_has_perf(a) ? "" : " (and there are none)");
	for (i = 0; i < tr_attr_nwarnings(a); i++)
		tr_out_note(out, "%s", tr_attr_warning(a, i));
	return (a);
}

/* The time in spans of a name, by goroutine (go_span_pack). */
struct driver_sums {
	struct tr_imap	 idx;		/* goid -> index + 1 */
	int64_t		*goid, *ns;
	size_t		 n, cap;
};

static int
driver_add(void *arg, const int64_t *ts, const int64_t *dur,
    const int64_t *goid, const unsigned char *cut, size_t n,
    struct tr_error *err)
{
	struct driver_sums	*d = arg;
	void			*v;
	size_t			 i;

	(void)ts;
	(void)cut;
	(void)err;
	for (i = 0; i < n; i++) {
		if (goid[i] < 0)
			continue;	/* none */
		if ((v = tr_imap_get(&d->idx, (uint64_t)goid[i])) != NULL) {
			d->ns[(uintptr_t)v - 1] += dur[i];
			continue;
		}
		if (d->n == d->cap) {
			d->cap = d->cap ? d->cap * 2 : 64;
			d->goid = tr_xrealloc(d->goid, d->cap * sizeof *d->goid);
			d->ns = tr_xrealloc(d->ns, d->cap * sizeof *d->ns);
		}
		d->goid[d->n] = goid[i];
		d->ns[d->n] = dur[i];
		tr_imap_put(&d->idx, (uint64_t)goid[i],
		    (void *)(uintptr_t)(++d->n));
	}
	return (0);
}

/*
 * The goroutines in regions or tasks named 'name_id' of the Go source
 * with derived rows: how many, and the one longest in them (the smallest
 * goid of a tie), read from go_span_pack.  Returns 0, or -1 with 'err'
 * set.
 */
static int
driver_packed(struct tr_attr *a, int64_t name_id, int64_t *goid,
    int64_t *n, struct tr_error *err)
{
	struct driver_sums	 d;
	size_t			 i, best = 0;
	int			 r = -1;

	memset(&d, 0, sizeof d);
	tr_imap_init(&d.idx);
	if (tr_derived_pack_read(a->db, a->go_source, TR_GO_CAT_REGION,
	    name_id, INT64_MIN, INT64_MAX, driver_add, &d, err) < 0 ||
	    tr_derived_pack_read(a->db, a->go_source, TR_GO_CAT_TASK,
	    name_id, INT64_MIN, INT64_MAX, driver_add, &d, err) < 0)
		goto out;
	for (i = 1; i < d.n; i++)
		if (d.ns[i] > d.ns[best] || (d.ns[i] == d.ns[best] &&
		    d.goid[i] < d.goid[best]))
			best = i;
	*n = (int64_t)d.n;
	if (d.n > 0)
		*goid = d.goid[best];
	r = 0;
out:
	tr_imap_release(&d.idx);
	free(d.goid);
	free(d.ns);
	return (r);
}

int
tr_attr_named_driver(struct tr_attr *a, const struct tr_sel *sel,
    const struct tr_attr_episode_args *ea, struct tr_out *out,
    int64_t *goid, struct tr_error *err)
{
	static const char sql[] =
	    "SELECT json_extract(s.args, '$.goid') AS g, sum(s.dur)\n"
	    "  FROM track t CROSS JOIN slice s ON s.track_id = t.id\n"
	    " WHERE t.kind = '" TR_TRACK_GO_TASK "' AND t.source_id = ?2\n"
	    "   AND s.name_id = ?1 AND g IS NOT NULL\n"
	    " GROUP BY g ORDER BY 2 DESC, g";
	sqlite3_stmt	*st;
	int64_t		 name_id, n = 0;
	int		 rc;

	*goid = sel->goid;
	if (ea->driver == NULL)
		return (0);
	if (sel->goid >= 0)
		return (tr_error_set(err, TR_EUSAGE, "give --goroutine or "
		    "--driver, not both"));
	if (a->go_source < 0)
		return (tr_error_set(err, TR_EDATA, "--driver %s: no Go "
		    "trace in the store%s", ea->driver, sel->nsources > 0 ?
		    " selection" : ""));
	if ((rc = tr_db_str_id(a->db, ea->driver, &name_id, err)) < 0)
		return (-1);
	if (a->derived) {
		if (rc > 0 && driver_packed(a, name_id, goid, &n, err) != 0)
			return (-1);
	} else {
		if ((st = tr_db_prepare(a->db, sql, err)) == NULL)
			return (-1);
		sqlite3_bind_int64(st, 1, rc == 0 ? -1 : name_id);
		sqlite3_bind_int64(st, 2, a->go_source);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			if (n++ == 0)
				*goid = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return (tr_db_error(a->db, err, "reading regions"));
	}
	if (n == 0)
		return (tr_error_set(err, TR_EDATA, "--driver %s: no region "
		    "or task of that name in the Go trace (source %lld)",
		    ea->driver, (long long)a->go_source));
	if (n > 1)
		tr_out_note(out, "--driver %s: goroutine %lld, of the %lld "
		    "goroutines in regions or tasks of that name the one "
		    "longest in them", ea->driver, (long long)*goid,
		    (long long)n);
	return (0);
}

const char *
tr_attr_driver_chosen(const struct tr_attr_driver *d,
    const struct tr_attr_episode_args *ea)
{
	if (!d->given)
		return ("correlation");
	return (ea->driver != NULL ? "--driver" : "--goroutine");
}

void
tr_attr_evidence_columns(struct tr_out *out, const char *name,
    const char *key)
{
	const char	*cols[] = {
		key, "what", "view", "id", "ts", "dur_ns", "detail"
	};

	tr_out_set_name(out, name);
	tr_out_columns(out, 7, cols);
	tr_out_column_unit(out, 4, TR_UNIT_TS);
	tr_out_column_unit(out, 5, TR_UNIT_NS);
}

void
tr_attr_evidence_rows(struct tr_out *out, int64_t k,
    const struct tr_attr_result *r)
{
	size_t	i;

	for (i = 0; i < r->nev; i++) {
		const struct tr_attr_evidence	*e = &r->ev[i];

		tr_out_int(out, k);
		tr_out_text(out, e->what);
		tr_out_text(out, e->table);
		tr_out_int(out, e->id);
		tr_out_int(out, e->ts);
		tr_out_int(out, e->dur);
		tr_out_text(out, e->detail ? e->detail : "");
		tr_out_end_row(out);
	}
}
