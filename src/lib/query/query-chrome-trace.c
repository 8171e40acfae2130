/*
 * trace-query chrome-trace: the aligned timeline as Chrome trace-event
 * JSON (the JSON object format that Perfetto's UI, chrome://tracing and
 * speedscope open).  A process per traced process, per host (the threads
 * whose process the store does not know), per Go trace, per GPU and one
 * for the pprof profiles; perf threads, goroutines, Ps, GC and STW as
 * threads; goroutine states, GC phases, Ps and regions as complete (X)
 * slices, tasks as async (b/e) pairs, samples, logs and profiles as
 * instants (i), counters (C) of the GPUs and of the Go heap; metadata (M)
 * naming every process and thread; the stacks in "stackFrames".
 *
 * It streams: the events are written track by track as SQLite steps
 * through them, and what is kept is bounded by the store's strings, call
 * sites, processes and threads, never by its events.
 */
#include "config.h"
#include "query/query.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/names.h"
#include "base/util.h"
#include "query/args.h"
#include "query/sel.h"

#define CT_SEL		(TR_SEL_SOURCE | TR_SEL_TIME | TR_SEL_PID | TR_SEL_TID | \
			    TR_SEL_COMM | TR_SEL_GOID | TR_SEL_GPU)

/*
 * Synthetic ids.  Linux pids stay below 2^22, so the processes tracekit
 * makes up (hosts, Go programs, GPUs, profiles) count from PID_SYNTH.  In
 * a Go program's process a goroutine's tid is its goid, its regions'
 * thread TID_REGION + goid, its mark assists' TID_ASSIST + goid, and the
 * Ps, their sweeps, GC and STW lie above those.
 */
#define PID_SYNTH	10000000
#define TID_REGION	1000000000
#define TID_ASSIST	1500000000
#define TID_P		2000000000
#define TID_SWEEP	2050000000
#define TID_GC		2100000000
#define TID_STW		2100000001
#define TID_MISC	2100000002	/* slices of any other track */

#define FLUSH_AT	65536

/* A process of the output. */
struct proc {
	int64_t		 pid;		/* the JSON pid */
	char		*name;
	char		*host;		/* NULL: not known */
	int		 sort;
	int		 named;		/* its M events written */
	struct tr_imap	 threads;	/* tid + 1 -> (void *)1: named */
};

struct ct {
	struct tr_db		*db;
	const struct tr_sel	*sel;
	FILE			*f;
	struct tr_buf		 b;
	int64_t			 origin, lo, hi;
	int64_t			 nev;
	struct tr_imap		 strs;		/* str id -> JSON text */
	struct tr_imap		 frames;	/* frame id -> JSON text */
	struct tr_imap		 threads;	/* thread.id -> struct thr */
	struct tr_map		*pkeys;		/* key -> index in pv */
	struct proc		*pv;
	size_t			 np, capp;
	int64_t			 nsynth;
	unsigned char		*used;		/* callsite bitmap */
	int64_t			 maxcs;
	sqlite3_stmt		*thread_st;
	int			 werr;
};

/* Where the samples of one thread row go. */
struct thr {
	size_t	 proc;
	int64_t	 tid;
	int	 skip;		/* not in --pid, --tid, --comm */
};

/* The source being written. */
struct src {
	int64_t		 id;
	const char	*format, *host, *path;
	size_t		 goproc;	/* its Go program's process */
	int		 hasgo;
};

/* --- output ---------------------------------------------------------- */

static void
flush(struct ct *c)
{
	if (c->b.len > 0 && fwrite(c->b.data, 1, c->b.len, c->f) != c->b.len)
		c->werr = 1;
	tr_buf_reset(&c->b);
}

static void
maybe_flush(struct ct *c)
{
	if (c->b.len >= FLUSH_AT)
		flush(c);
}

/*
 * 's' as a JSON string, quotes included, in a new string: jansson
 * encodes it; bytes that are not UTF-8 become '?'.
 */
static char *
json_str(const char *s)
{
	json_t	*j;
	char	*t, *copy = NULL, *p;

	if ((j = json_string(s)) == NULL) {
		copy = tr_xstrdup(s);
		for (p = copy; *p != '\0'; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		j = json_string(copy);
	}
	t = j != NULL ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	json_decref(j);
	free(copy);
	if (t == NULL)
		return (tr_xstrdup("\"\""));
	p = tr_xstrdup(t);
	free(t);
	return (p);
}

static void
put_str(struct ct *c, const char *s)
{
	char	*t = json_str(s != NULL ? s : "");

	tr_buf_adds(&c->b, t);
	free(t);
}

/* Nanoseconds as microseconds, every digit kept: "12.000345". */
static void
put_us(struct ct *c, int64_t ns)
{
	uint64_t	a;
	char		frac[8];

	if (ns < 0) {
		tr_buf_addc(&c->b, '-');
		a = (uint64_t)0 - (uint64_t)ns;
	} else
		a = (uint64_t)ns;
	tr_buf_addu(&c->b, a / 1000);
	snprintf(frac, sizeof frac, ".%03u", (unsigned)(a % 1000));
	tr_buf_adds(&c->b, frac);
}

/* The start of an event: its separator, ph, pid, tid and ts. */
static void
begin(struct ct *c, const char *ph, int64_t pid, int64_t tid, int64_t ns)
{
	maybe_flush(c);
	tr_buf_adds(&c->b, c->nev++ > 0 ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
	tr_buf_adds(&c->b, ph);
	tr_buf_adds(&c->b, "\",\"pid\":");
	tr_buf_addi(&c->b, pid);
	tr_buf_adds(&c->b, ",\"tid\":");
	tr_buf_addi(&c->b, tid);
	tr_buf_adds(&c->b, ",\"ts\":");
	if (ph[0] == 'M')
		tr_buf_addc(&c->b, '0');
	else
		put_us(c, ns - c->origin);
}

/* A metadata event: ',"name":"NAME","args":{"KEY":VALUE}}'. */
static void
meta(struct ct *c, int64_t pid, int64_t tid, const char *name,
    const char *key, const char *text, int64_t num)
{
	begin(c, "M", pid, tid, 0);
	tr_buf_adds(&c->b, ",\"name\":\"");
	tr_buf_adds(&c->b, name);
	tr_buf_adds(&c->b, "\",\"args\":{\"");
	tr_buf_adds(&c->b, key);
	tr_buf_adds(&c->b, "\":");
	if (text != NULL)
		put_str(c, text);
	else
		tr_buf_addi(&c->b, num);
	tr_buf_adds(&c->b, "}}");
}

/* --- strings, frames and stacks -------------------------------------- */

static const char *
cached(struct ct *c, struct tr_imap *m, const char *sql, int64_t id)
{
	sqlite3_stmt	*st;
	char		*t;

	if ((t = tr_imap_get(m, (uint64_t)id)) != NULL)
		return (t);
	t = NULL;
	if ((st = tr_db_prepare(c->db, sql, NULL)) != NULL) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW)
			t = json_str((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (t == NULL)
		t = tr_xasprintf("\"#%" PRId64 "\"", id);
	tr_imap_put(m, (uint64_t)id, t);
	return (t);
}

/* The JSON text of string 'id' of table str. */
static const char *
str_json(struct ct *c, int64_t id)
{
	return (cached(c, &c->strs, "SELECT s FROM str WHERE id = ?1", id));
}

/* The name of the leaf frame of call site 'cs', as JSON text. */
static const char *
leaf_json(struct ct *c, int64_t frame)
{
	return (cached(c, &c->frames, "SELECT name FROM frame WHERE id = ?1",
	    frame));
}

static void
use_stack(struct ct *c, int64_t cs)
{
	if (cs <= 0)
		return;
	if (cs > c->maxcs) {
		size_t	old = (size_t)(c->maxcs / 8 + 1);
		size_t	n = (size_t)(cs / 8 + 1);

		if (c->used == NULL)
			old = 0;
		c->used = tr_xrealloc(c->used, n);
		memset(c->used + old, 0, n - old);
		c->maxcs = (int64_t)n * 8 - 1;
	}
	c->used[cs / 8] |= (unsigned char)(1u << (cs % 8));
}

static int
is_used(const struct ct *c, int64_t cs)
{
	return (cs > 0 && cs <= c->maxcs &&
	    (c->used[cs / 8] & (1u << (cs % 8))) != 0);
}

static void
put_sf(struct ct *c, int64_t cs)
{
	tr_buf_adds(&c->b, ",\"sf\":\"");
	tr_buf_addi(&c->b, cs);
	tr_buf_addc(&c->b, '"');
	use_stack(c, cs);
}

/*
 * "stackFrames": every call site an event names, and its callers, each
 * with its function and its parent, so that a viewer shows the stack.
 */
static int
write_stacks(struct ct *c, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc, changed, first = 1;

	tr_buf_adds(&c->b, "\n],\n\"stackFrames\":{");
	if (c->used == NULL)
		goto done;
	/* Callers first get their own mark, whatever the order of ids. */
	do {
		changed = 0;
		if ((st = tr_db_prepare(c->db, "SELECT id, parent_id FROM "
		    "callsite WHERE id <= ?1 AND parent_id IS NOT NULL "
		    "ORDER BY id DESC", err)) == NULL)
			return (-1);
		sqlite3_bind_int64(st, 1, c->maxcs);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t	id = sqlite3_column_int64(st, 0);
			int64_t	p = sqlite3_column_int64(st, 1);

			if (is_used(c, id) && !is_used(c, p)) {
				use_stack(c, p);
				if (p > id)
					changed = 1;
			}
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return (tr_db_error(c->db, err, "cannot read stacks"));
	} while (changed);
	if ((st = tr_db_prepare(c->db, "SELECT c.id, c.parent_id, f.name, "
	    "f.module FROM callsite c JOIN frame f ON f.id = c.frame_id "
	    "WHERE c.id <= ?1 ORDER BY c.id", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, c->maxcs);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t		 id = sqlite3_column_int64(st, 0);
		const char	*mod;

		if (!is_used(c, id))
			continue;
		maybe_flush(c);
		tr_buf_adds(&c->b, first ? "\n\"" : ",\n\"");
		first = 0;
		tr_buf_addi(&c->b, id);
		tr_buf_adds(&c->b, "\":{\"name\":");
		put_str(c, (const char *)sqlite3_column_text(st, 2));
		mod = (const char *)sqlite3_column_text(st, 3);
		if (mod != NULL && *mod != '\0') {
			tr_buf_adds(&c->b, ",\"category\":");
			put_str(c, mod);
		}
		if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
			tr_buf_adds(&c->b, ",\"parent\":\"");
			tr_buf_addi(&c->b, sqlite3_column_int64(st, 1));
			tr_buf_addc(&c->b, '"');
		}
		tr_buf_addc(&c->b, '}');
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(c->db, err, "cannot read stacks"));
done:
	tr_buf_adds(&c->b, "\n},\n");
	return (0);
}

/* --- processes and threads ------------------------------------------- */

/*
 * The process of key 'key', made with 'name' (and 'host', 'pid': -1 for
 * a synthetic one) the first time.
 */
static size_t
proc_get(struct ct *c, const char *key, const char *name, const char *host,
    int64_t pid, int sort)
{
	struct proc	*p;
	int64_t		 i;

	if (tr_map_get(c->pkeys, key, strlen(key), &i))
		return ((size_t)i);
	if (c->np == c->capp) {
		c->capp = c->capp ? 2 * c->capp : 16;
		c->pv = tr_xrealloc(c->pv, c->capp * sizeof *c->pv);
	}
	p = &c->pv[c->np];
	memset(p, 0, sizeof *p);
	p->pid = pid >= 0 ? pid : PID_SYNTH + c->nsynth++;
	p->name = tr_xstrdup(name);
	p->host = host != NULL && *host != '\0' ? tr_xstrdup(host) : NULL;
	p->sort = sort;
	tr_imap_init(&p->threads);
	tr_map_put(c->pkeys, key, strlen(key), (int64_t)c->np);
	return (c->np++);
}

/* The process of the host 'host' (NULL or "": unknown). */
static size_t
host_proc(struct ct *c, const char *host)
{
	char	*key, *name;
	size_t	 i;

	if (host == NULL)
		host = "";
	key = tr_xasprintf("h:%s", host);
	name = *host ? tr_xasprintf("host %s", host) :
	    tr_xstrdup("host (unknown)");
	i = proc_get(c, key, name, host, -1, 0);
	free(key);
	free(name);
	return (i);
}

/*
 * The process of row 'id' of table process: its own pid, unless another
 * row (another host) has the same one.
 */
static size_t
process_proc(struct ct *c, int64_t id)
{
	sqlite3_stmt	*st;
	char		 key[32], *name = NULL, *host = NULL;
	int64_t		 pid = -1, i;
	size_t		 r;

	snprintf(key, sizeof key, "p:%" PRId64, id);
	if (tr_map_get(c->pkeys, key, strlen(key), &i))
		return ((size_t)i);
	if ((st = tr_db_prepare(c->db, "SELECT p.pid, p.name, p.host, "
	    "(SELECT count(*) FROM process q WHERE q.pid = p.pid) "
	    "FROM process p WHERE p.id = ?1", NULL)) != NULL) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			pid = sqlite3_column_int64(st, 0);
			if (sqlite3_column_type(st, 1) != SQLITE_NULL)
				name = tr_xstrdup((const char *)
				    sqlite3_column_text(st, 1));
			host = tr_xstrdup((const char *)
			    sqlite3_column_text(st, 2));
			if (sqlite3_column_int64(st, 3) > 1 || pid < 0 ||
			    pid >= PID_SYNTH) {
				char	*n = tr_xasprintf("%s (pid %" PRId64
				    ")", name ? name : "process", pid);

				free(name);
				name = n;
				pid = -1;
			}
		}
		sqlite3_finalize(st);
	}
	if (name == NULL)
		name = tr_xasprintf("pid %" PRId64, pid);
	r = proc_get(c, key, name, host, pid, 10);
	free(name);
	free(host);
	return (r);
}

/* Name process 'i' and thread 'tid' of it (once each). */
static void
name_thread(struct ct *c, size_t i, int64_t tid, const char *tname,
    int sort)
{
	struct proc	*p = &c->pv[i];

	if (!p->named) {
		p->named = 1;
		meta(c, p->pid, 0, "process_name", "name", p->name, 0);
		if (p->host != NULL)
			meta(c, p->pid, 0, "process_labels", "labels",
			    p->host, 0);
		meta(c, p->pid, 0, "process_sort_index", "sort_index", NULL,
		    p->sort);
	}
	if (tid < 0 || tr_imap_get(&p->threads, (uint64_t)tid + 1) != NULL)
		return;
	tr_imap_put(&p->threads, (uint64_t)tid + 1, (void *)1);
	if (tname != NULL)
		meta(c, p->pid, tid, "thread_name", "name", tname, 0);
	if (sort >= 0)
		meta(c, p->pid, tid, "thread_sort_index", "sort_index", NULL,
		    sort);
}

static int
cmp_id(const void *a, const void *b)
{
	const int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Whether --pid, --tid and --comm take thread row 'id'. */
static int
thread_wanted(const struct tr_sel *sel, int64_t id, int64_t tid,
    const char *name)
{
	if (sel->pid >= 0 && (sel->npid_threads == 0 ||
	    bsearch(&id, sel->pid_threads, sel->npid_threads,
	    sizeof *sel->pid_threads, cmp_id) == NULL))
		return (0);
	if (sel->tid >= 0 && tid != sel->tid)
		return (0);
	if (sel->comm != NULL && (name == NULL ||
	    strcmp(name, sel->comm) != 0))
		return (0);
	return (1);
}

/*
 * Where the samples of thread row 'id' go: its process when the store
 * knows it; else the process whose pid is its tid (the main thread), or
 * that of the main thread with its command name (perf script prints no
 * pid by default); else its host's.
 */
static const struct thr *
thread_of(struct ct *c, const struct src *s, int64_t id)
{
	struct thr	*t;
	char		*name = NULL;

	if ((t = tr_imap_get(&c->threads, (uint64_t)id)) != NULL)
		return (t);
	t = tr_xcalloc(1, sizeof *t);
	t->tid = 0;
	t->proc = SIZE_MAX;
	if (c->thread_st == NULL)
		c->thread_st = tr_db_prepare(c->db,
		    "SELECT t.tid, t.name, coalesce(t.process_id,"
		    " (SELECT p.id FROM process p WHERE p.pid = t.tid"
		    "   AND (p.host = '' OR p.host = ?2) ORDER BY p.id LIMIT 1),"
		    " (SELECT p.id FROM thread m JOIN process p ON p.pid = m.tid"
		    "   WHERE m.name = t.name AND m.name <> '' AND"
		    "   m.process_id IS NULL AND (p.host = '' OR p.host = ?2)"
		    "   ORDER BY p.id LIMIT 1))"
		    " FROM thread t WHERE t.id = ?1", NULL);
	if (c->thread_st != NULL) {
		sqlite3_bind_int64(c->thread_st, 1, id);
		sqlite3_bind_text(c->thread_st, 2, s->host ? s->host : "", -1,
		    SQLITE_STATIC);
		if (sqlite3_step(c->thread_st) == SQLITE_ROW) {
			t->tid = sqlite3_column_int64(c->thread_st, 0);
			name = tr_xstrdup((const char *)
			    sqlite3_column_text(c->thread_st, 1));
			if (sqlite3_column_type(c->thread_st, 2) !=
			    SQLITE_NULL)
				t->proc = process_proc(c, sqlite3_column_int64(
				    c->thread_st, 2));
		}
		sqlite3_reset(c->thread_st);
	}
	if (t->proc == SIZE_MAX)
		t->proc = host_proc(c, s->host);
	tr_imap_put(&c->threads, (uint64_t)id, t);
	t->skip = !thread_wanted(c->sel, id, t->tid, name);
	if (t->skip)
		;
	else if (name != NULL && *name != '\0') {
		char	*n = tr_xasprintf("%s %" PRId64, name, t->tid);

		name_thread(c, t->proc, t->tid, n, -1);
		free(n);
	} else
		name_thread(c, t->proc, t->tid, NULL, -1);
	free(name);
	return (t);
}

/* The process of the Go program a Go trace source recorded. */
static size_t
go_proc(struct ct *c, struct src *s)
{
	char		 key[32], *name;
	const char	*base;

	if (s->hasgo)
		return (s->goproc);
	base = strrchr(s->path, '/');
	base = base != NULL ? base + 1 : s->path;
	snprintf(key, sizeof key, "g:%" PRId64, s->id);
	name = tr_xasprintf("Go %s (source %" PRId64 ")", base, s->id);
	s->goproc = proc_get(c, key, name, s->host, -1, 20);
	s->hasgo = 1;
	free(name);
	return (s->goproc);
}

/* --- slices and counters of a track ---------------------------------- */

struct track {
	int64_t		 id, ref, process_id, pid;
	const char	*kind, *name;
};

/* Where a track's slices and counters go, and how they read. */
struct place {
	size_t		 proc;
	int64_t		 tid;		/* -1: counters only, no thread */
	char		*tname;
	int		 sort;
	int		 states;	/* goroutine states: "state (reason)" */
	int		 annot;		/* go-task: tasks, regions, logs */
	int		 gc;		/* go-gc: cycles, assists, sweeps */
	char		*cprefix;	/* counter name prefix, or NULL */
};

static void
place_of(struct ct *c, struct src *s, const struct track *t,
    struct place *pl)
{
	char	key[64], *name;

	memset(pl, 0, sizeof *pl);
	pl->tid = -1;
	pl->sort = -1;
	if (strcmp(t->kind, TR_TRACK_GOROUTINE) == 0) {
		pl->proc = go_proc(c, s);
		pl->tid = t->ref;
		pl->tname = tr_xasprintf("G%" PRId64 " %s", t->ref, t->name);
		pl->sort = 1000;
		pl->states = 1;
	} else if (strcmp(t->kind, TR_TRACK_GO_PROC) == 0) {
		pl->proc = go_proc(c, s);
		pl->tid = TID_P + t->ref;
		pl->tname = tr_xasprintf("P%" PRId64, t->ref);
		pl->sort = 10;
	} else if (strcmp(t->kind, TR_TRACK_GO_GC) == 0) {
		pl->proc = go_proc(c, s);
		pl->tid = TID_GC;
		pl->tname = tr_xstrdup("GC");
		pl->sort = 1;
		pl->gc = 1;
	} else if (strcmp(t->kind, TR_TRACK_GO_STW) == 0) {
		pl->proc = go_proc(c, s);
		pl->tid = TID_STW;
		pl->tname = tr_xstrdup("STW");
		pl->sort = 2;
	} else if (strcmp(t->kind, TR_TRACK_GO_TASK) == 0) {
		pl->proc = go_proc(c, s);
		pl->annot = 1;
	} else if (strcmp(t->kind, TR_TRACK_GO_HEAP) == 0 ||
	    strcmp(t->kind, TR_TRACK_GO_RUNTIME) == 0) {
		pl->proc = go_proc(c, s);
	} else if (strcmp(t->kind, TR_TRACK_GPU) == 0 ||
	    (strcmp(t->kind, TR_TRACK_GPU_PROCESS) == 0 &&
	    t->process_id <= 0)) {
		snprintf(key, sizeof key, "gpu:%" PRId64 ":", t->ref);
		name = tr_xasprintf("%s:%s", key, s->host ? s->host : "");
		if (strcmp(t->kind, TR_TRACK_GPU) == 0) {
			char	*n = tr_xasprintf("GPU %" PRId64 " %s", t->ref,
			    t->name);

			pl->proc = proc_get(c, name, n, s->host, -1, 5);
			free(n);
		} else {
			char	*n = tr_xasprintf("GPU %" PRId64, t->ref);

			pl->proc = proc_get(c, name, n, s->host, -1, 5);
			free(n);
			pl->cprefix = tr_xasprintf("%s ", t->name);
		}
		free(name);
	} else if (strcmp(t->kind, TR_TRACK_GPU_PROCESS) == 0) {
		pl->proc = process_proc(c, t->process_id);
		pl->cprefix = tr_xasprintf("GPU %" PRId64 " ", t->ref);
	} else {
		pl->proc = host_proc(c, s->host);
		pl->tid = TID_MISC;
		pl->tname = tr_xasprintf("%s %s", t->kind, t->name);
		pl->cprefix = tr_xasprintf("%s ", t->kind);
	}
}

static void
place_release(struct place *pl)
{
	free(pl->tname);
	free(pl->cprefix);
}

/* Whether [ts, ts + dur) is in the window, and clipped to it. */
static int
clip(const struct ct *c, int64_t *ts, int64_t *dur)
{
	int64_t	b = *ts, e = *ts + *dur;

	if (*dur == 0)
		return (b >= c->lo && b < c->hi);
	if (b >= c->hi || e <= c->lo)
		return (0);
	if (b < c->lo)
		b = c->lo;
	if (e > c->hi)
		e = c->hi;
	*ts = b;
	*dur = e - b;
	return (1);
}

/* The "name" and "cat" of a slice: from strings, or a goroutine state. */
static void
put_name(struct ct *c, const struct place *pl, const struct track *t,
    sqlite3_stmt *st)
{
	int64_t	nid = sqlite3_column_int64(st, 2);

	tr_buf_adds(&c->b, ",\"name\":");
	if (pl->states && sqlite3_column_type(st, 3) != SQLITE_NULL) {
		/* "blocked (chan recv)": the state and its reason. */
		const char	*n = str_json(c, nid);
		const char	*r = str_json(c, sqlite3_column_int64(st, 3));

		tr_buf_add(&c->b, n, strlen(n) - 1);
		tr_buf_adds(&c->b, " (");
		tr_buf_add(&c->b, r + 1, strlen(r) - 2);
		tr_buf_adds(&c->b, ")\"");
	} else
		tr_buf_adds(&c->b, str_json(c, nid));
	tr_buf_adds(&c->b, ",\"cat\":");
	if (!pl->states && sqlite3_column_type(st, 3) != SQLITE_NULL)
		tr_buf_adds(&c->b, str_json(c, sqlite3_column_int64(st, 3)));
	else
		put_str(c, t->kind);
}

static void
put_args(struct ct *c, sqlite3_stmt *st, int col)
{
	/* SQLite's JSON functions wrote it: valid, compact JSON text. */
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return;
	tr_buf_adds(&c->b, ",\"args\":");
	tr_buf_adds(&c->b, (const char *)sqlite3_column_text(st, col));
}

/*
 * A Go trace annotation (go-task track): a task as a b/e pair on the
 * process, a region as a slice on its goroutine's region thread, a log
 * as an instant on its goroutine.
 */
static void
put_annot(struct ct *c, struct src *s, const struct track *t,
    sqlite3_stmt *st, int64_t ts, int64_t dur)
{
	const char	*cat = sqlite3_column_type(st, 3) != SQLITE_NULL ?
	    (const char *)sqlite3_column_text(st, 7) : "";
	size_t		 gp = go_proc(c, s);
	int64_t		 pid = c->pv[gp].pid, goid;
	char		*tn;

	goid = sqlite3_column_int64(st, 8);
	if (strcmp(cat, TR_GO_CAT_TASK) == 0) {
		name_thread(c, gp, -1, NULL, -1);
		begin(c, "b", pid, 0, ts);
		tr_buf_adds(&c->b, ",\"cat\":\"task\",\"id\":");
		tr_buf_addi(&c->b, t->ref);
		tr_buf_adds(&c->b, ",\"name\":");
		tr_buf_adds(&c->b, str_json(c, sqlite3_column_int64(st, 2)));
		put_args(c, st, 5);
		tr_buf_addc(&c->b, '}');
		begin(c, "e", pid, 0, ts + dur);
		tr_buf_adds(&c->b, ",\"cat\":\"task\",\"id\":");
		tr_buf_addi(&c->b, t->ref);
		tr_buf_adds(&c->b, ",\"name\":");
		tr_buf_adds(&c->b, str_json(c, sqlite3_column_int64(st, 2)));
		tr_buf_addc(&c->b, '}');
	} else if (strcmp(cat, TR_GO_CAT_REGION) == 0) {
		tn = tr_xasprintf("G%" PRId64 " regions", goid);
		name_thread(c, gp, TID_REGION + goid, tn, 1000);
		free(tn);
		begin(c, "X", pid, TID_REGION + goid, ts);
		tr_buf_adds(&c->b, ",\"dur\":");
		put_us(c, dur);
		tr_buf_adds(&c->b, ",\"name\":");
		tr_buf_adds(&c->b, str_json(c, sqlite3_column_int64(st, 2)));
		tr_buf_adds(&c->b, ",\"cat\":\"region\"");
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			put_sf(c, sqlite3_column_int64(st, 4));
		put_args(c, st, 5);
		tr_buf_addc(&c->b, '}');
	} else {
		/* A log, or any other annotation: an instant. */
		tn = tr_xasprintf("G%" PRId64, goid);
		name_thread(c, gp, goid, tn, 1000);
		free(tn);
		begin(c, "i", pid, goid, ts);
		tr_buf_adds(&c->b, ",\"s\":\"t\",\"name\":");
		tr_buf_adds(&c->b, str_json(c, sqlite3_column_int64(st, 2)));
		tr_buf_adds(&c->b, ",\"cat\":");
		put_str(c, *cat ? cat : "annotation");
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			put_sf(c, sqlite3_column_int64(st, 4));
		put_args(c, st, 5);
		tr_buf_addc(&c->b, '}');
	}
}

/*
 * Reached through the run index of the track: filtering the slice view
 * by anything else expands every run.
 */
static const char slices_sql[] =
    "SELECT s.ts, s.dur, s.name_id, s.category_id, s.callsite_id, s.args,"
    "       NULL, c.s, coalesce(json_extract(s.args, '$.goid'), 0),"
    "       json_extract(s.args, '$.p'), n.s"
    "  FROM slice s LEFT JOIN str c ON c.id = s.category_id"
    "  LEFT JOIN str n ON n.id = s.name_id"
    " WHERE s.track_id = ?1 AND s.run_ts < ?3 AND s.run_end_ts >= ?2";
static const char slices_plain_sql[] =
    "SELECT s.ts, s.dur, s.name_id, s.category_id, s.callsite_id, s.args"
    "  FROM slice s"
    " WHERE s.track_id = ?1 AND s.run_ts < ?3 AND s.run_end_ts >= ?2";
static const char counters_sql[] =
    "SELECT c.ts, c.name_id, c.value FROM counter c"
    " WHERE c.track_id = ?1 AND c.run_ts < ?3 AND c.run_end_ts >= ?2"
    "   AND c.ts >= ?2 AND c.ts < ?3 AND c.value IS NOT NULL";

/*
 * The go-gc track holds GC cycles, mark assists (of each goroutine) and
 * sweeps (of each P), which overlap: the two others get threads of their
 * own, named here (a new string), so that every thread's slices nest.
 */
static char *
gc_thread(sqlite3_stmt *st, int64_t *tid)
{
	const char	*n = (const char *)sqlite3_column_text(st, 10);
	int64_t		 id;

	if (n == NULL)
		return (NULL);
	if (strcmp(n, TR_GO_ASSIST) == 0) {
		id = sqlite3_column_int64(st, 8);
		*tid = TID_ASSIST + id;
		return (tr_xasprintf("G%" PRId64 " mark assist", id));
	}
	if (strcmp(n, TR_GO_SWEEP) == 0 &&
	    sqlite3_column_type(st, 9) != SQLITE_NULL) {
		id = sqlite3_column_int64(st, 9);
		*tid = TID_SWEEP + id;
		return (tr_xasprintf("P%" PRId64 " sweep", id));
	}
	return (NULL);
}

static int
write_track(struct ct *c, struct src *s, const struct track *t,
    sqlite3_stmt *sl, sqlite3_stmt *sa, sqlite3_stmt *cn,
    struct tr_error *err)
{
	struct place	 pl;
	sqlite3_stmt	*st;
	int64_t		 pid, ts, dur, tid, goid;
	int		 rc;
	char		*tn = NULL;

	place_of(c, s, t, &pl);
	pid = c->pv[pl.proc].pid;
	st = pl.annot || pl.gc ? sa : sl;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_int64(st, 2, c->lo);
	sqlite3_bind_int64(st, 3, c->hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ts = sqlite3_column_int64(st, 0);
		dur = sqlite3_column_int64(st, 1);
		if (!clip(c, &ts, &dur))
			continue;
		/* --goroutine: its annotations and assists only. */
		goid = pl.annot || pl.gc ? sqlite3_column_int64(st, 8) : 0;
		if (c->sel->goid >= 0 && goid != c->sel->goid &&
		    (pl.annot || goid != 0))
			continue;
		if (pl.annot) {
			put_annot(c, s, t, st, ts, dur);
			continue;
		}
		tid = pl.tid >= 0 ? pl.tid : TID_MISC;
		if (pl.gc && (tn = gc_thread(st, &tid)) != NULL) {
			name_thread(c, pl.proc, tid, tn, 3);
			free(tn);
		} else
			name_thread(c, pl.proc, tid, pl.tname, pl.sort);
		begin(c, "X", pid, tid, ts);
		tr_buf_adds(&c->b, ",\"dur\":");
		put_us(c, dur);
		put_name(c, &pl, t, st);
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			put_sf(c, sqlite3_column_int64(st, 4));
		put_args(c, st, 5);
		tr_buf_addc(&c->b, '}');
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		place_release(&pl);
		return (tr_db_error(c->db, err, "cannot read slices"));
	}
	sqlite3_bind_int64(cn, 1, t->id);
	sqlite3_bind_int64(cn, 2, c->lo);
	sqlite3_bind_int64(cn, 3, c->hi);
	while ((rc = sqlite3_step(cn)) == SQLITE_ROW) {
		const char	*n = str_json(c, sqlite3_column_int64(cn, 1));

		name_thread(c, pl.proc, -1, NULL, -1);
		begin(c, "C", pid, 0, sqlite3_column_int64(cn, 0));
		tr_buf_adds(&c->b, ",\"name\":");
		if (pl.cprefix != NULL) {
			char	*p = json_str(pl.cprefix);

			tr_buf_add(&c->b, p, strlen(p) - 1);
			tr_buf_adds(&c->b, n + 1);
			free(p);
		} else
			tr_buf_adds(&c->b, n);
		tr_buf_adds(&c->b, ",\"args\":{\"value\":");
		if (sqlite3_column_type(cn, 2) == SQLITE_INTEGER)
			tr_buf_addi(&c->b, sqlite3_column_int64(cn, 2));
		else {
			char	num[32];

			snprintf(num, sizeof num, "%.17g",
			    sqlite3_column_double(cn, 2));
			tr_buf_adds(&c->b, num);
		}
		tr_buf_adds(&c->b, "}}");
	}
	sqlite3_reset(cn);
	place_release(&pl);
	if (rc != SQLITE_DONE)
		return (tr_db_error(c->db, err, "cannot read counters"));
	return (0);
}

/*
 * Whether the selection takes a track: --goroutine one goroutine's, --gpu
 * one GPU's, --pid one process's GPU telemetry; the tracks of the rest
 * (Ps, GC, the heap) stay as the context.
 */
static int
track_wanted(const struct tr_sel *sel, const struct track *t)
{
	int	gpu = strcmp(t->kind, TR_TRACK_GPU) == 0;
	int	gproc = strcmp(t->kind, TR_TRACK_GPU_PROCESS) == 0;

	if (sel->goid >= 0 && strcmp(t->kind, TR_TRACK_GOROUTINE) == 0 &&
	    t->ref != sel->goid)
		return (0);
	if (sel->gpu >= 0 && (gpu || gproc) && t->ref != sel->gpu)
		return (0);
	if ((sel->pid >= 0 || sel->tid >= 0 || sel->comm != NULL) && gproc &&
	    (sel->pid < 0 || t->pid != sel->pid))
		return (0);
	return (1);
}

static int
write_tracks(struct ct *c, struct src *s, struct tr_error *err)
{
	sqlite3_stmt	*tr = NULL, *sl = NULL, *sa = NULL, *cn = NULL;
	struct track	 t;
	int		 rc = -1, r;

	if ((tr = tr_db_prepare(c->db, "SELECT t.id, t.kind, t.name, "
	    "coalesce(t.ref, 0), coalesce(t.process_id, 0), p.pid FROM track t "
	    "LEFT JOIN process p ON p.id = t.process_id "
	    "WHERE t.source_id = ?1 ORDER BY t.id", err)) == NULL ||
	    (sl = tr_db_prepare(c->db, slices_plain_sql, err)) == NULL ||
	    (sa = tr_db_prepare(c->db, slices_sql, err)) == NULL ||
	    (cn = tr_db_prepare(c->db, counters_sql, err)) == NULL)
		goto out;
	sqlite3_bind_int64(tr, 1, s->id);
	while ((r = sqlite3_step(tr)) == SQLITE_ROW) {
		t.id = sqlite3_column_int64(tr, 0);
		t.kind = (const char *)sqlite3_column_text(tr, 1);
		t.name = (const char *)sqlite3_column_text(tr, 2);
		t.ref = sqlite3_column_int64(tr, 3);
		t.process_id = sqlite3_column_int64(tr, 4);
		t.pid = sqlite3_column_type(tr, 5) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(tr, 5);
		if (!track_wanted(c->sel, &t))
			continue;
		if (write_track(c, s, &t, sl, sa, cn, err) != 0)
			goto out;
		if (c->werr)
			break;
	}
	if (r != SQLITE_DONE && r != SQLITE_ROW) {
		tr_db_error(c->db, err, "cannot read tracks");
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(tr);
	sqlite3_finalize(sl);
	sqlite3_finalize(sa);
	sqlite3_finalize(cn);
	return (rc);
}

/* --- samples and profiles -------------------------------------------- */

/*
 * Samples with a time: perf's on their threads, a Go trace's CPU samples
 * on their goroutines (or their P, or the program when neither is known).
 */
static int
write_samples(struct ct *c, struct src *s, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 pid, tid;
	size_t		 pi;
	int		 rc;

	if ((st = tr_db_prepare(c->db, "SELECT s.ts, s.thread_id, "
	    "s.callsite_id, s.event_id, s.value, c.frame_id, "
	    "json_extract(s.labels, '$.goid'), json_extract(s.labels, '$.p') "
	    "FROM sample s LEFT JOIN callsite c ON c.id = s.callsite_id "
	    "WHERE s.source_id = ?1 AND s.ts >= ?2 AND s.ts < ?3", err)) ==
	    NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, c->lo);
	sqlite3_bind_int64(st, 3, c->hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !c->werr) {
		if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
			const struct thr	*t = thread_of(c, s,
			    sqlite3_column_int64(st, 1));

			if (t->skip)
				continue;
			pi = t->proc;
			tid = t->tid;
		} else if (c->sel->goid >= 0 && (sqlite3_column_type(st, 6) ==
		    SQLITE_NULL || sqlite3_column_int64(st, 6) !=
		    c->sel->goid)) {
			continue;
		} else if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			char	*n;

			pi = go_proc(c, s);
			tid = sqlite3_column_int64(st, 6);
			n = tr_xasprintf("G%lld", (long long)tid);
			name_thread(c, pi, tid, n, 1000);
			free(n);
		} else if (sqlite3_column_type(st, 7) != SQLITE_NULL) {
			char	*n;

			pi = go_proc(c, s);
			tid = TID_P + sqlite3_column_int64(st, 7);
			n = tr_xasprintf("P%lld", (long long)(tid - TID_P));
			name_thread(c, pi, tid, n, 10);
			free(n);
		} else {
			pi = strcmp(s->format, "gotrace") == 0 ?
			    go_proc(c, s) : host_proc(c, s->host);
			tid = 0;
			name_thread(c, pi, tid, NULL, -1);
		}
		pid = c->pv[pi].pid;
		begin(c, "i", pid, tid, sqlite3_column_int64(st, 0));
		tr_buf_adds(&c->b, ",\"s\":\"t\",\"name\":");
		if (sqlite3_column_type(st, 5) != SQLITE_NULL)
			tr_buf_adds(&c->b, leaf_json(c,
			    sqlite3_column_int64(st, 5)));
		else
			tr_buf_adds(&c->b, "\"(no stack)\"");
		tr_buf_adds(&c->b, ",\"cat\":");
		tr_buf_adds(&c->b, str_json(c, sqlite3_column_int64(st, 3)));
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			put_sf(c, sqlite3_column_int64(st, 2));
		tr_buf_adds(&c->b, ",\"args\":{\"value\":");
		tr_buf_addi(&c->b, sqlite3_column_int64(st, 4));
		tr_buf_adds(&c->b, "}}");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return (tr_db_error(c->db, err, "cannot read samples"));
	return (0);
}

/* pprof profiles: an instant each, on a thread per type. */
static int
write_profiles(struct ct *c, struct src *s, struct tr_error *err)
{
	sqlite3_stmt	*st;
	size_t		 pi;
	int64_t		 tid;
	int		 rc;
	char		*tn;

	if ((st = tr_db_prepare(c->db, "SELECT id, type, ts, dur, "
	    "period_type, period_unit, period, "
	    "CASE type WHEN 'cpu' THEN 1 WHEN 'heap' THEN 2 "
	    "WHEN 'allocs' THEN 3 WHEN 'goroutine' THEN 4 WHEN 'block' THEN 5 "
	    "WHEN 'mutex' THEN 6 WHEN 'threadcreate' THEN 7 ELSE 8 END "
	    "FROM profile WHERE source_id = ?1 AND ts >= ?2 AND ts < ?3",
	    err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, c->lo);
	sqlite3_bind_int64(st, 3, c->hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char	*type = (const char *)sqlite3_column_text(st,
		    1);

		pi = proc_get(c, "pprof", "pprof profiles", NULL, -1, 30);
		tid = sqlite3_column_int64(st, 7);
		tn = tr_xasprintf("%s profiles", tid < 8 ? type : "other");
		name_thread(c, pi, tid, tn, (int)tid);
		free(tn);
		begin(c, "i", c->pv[pi].pid, tid, sqlite3_column_int64(st, 2));
		tr_buf_adds(&c->b, ",\"s\":\"t\",\"name\":");
		tn = tr_xasprintf("%s profile %lld", type,
		    (long long)sqlite3_column_int64(st, 0));
		put_str(c, tn);
		free(tn);
		tr_buf_adds(&c->b, ",\"cat\":\"pprof\",\"args\":{"
		    "\"profile_id\":");
		tr_buf_addi(&c->b, sqlite3_column_int64(st, 0));
		tr_buf_adds(&c->b, ",\"source_id\":");
		tr_buf_addi(&c->b, s->id);
		tr_buf_adds(&c->b, ",\"type\":");
		put_str(c, type);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
			tr_buf_adds(&c->b, ",\"dur_ns\":");
			tr_buf_addi(&c->b, sqlite3_column_int64(st, 3));
		}
		if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
			tr_buf_adds(&c->b, ",\"period_type\":");
			put_str(c, (const char *)sqlite3_column_text(st, 4));
		}
		if (sqlite3_column_type(st, 5) != SQLITE_NULL) {
			tr_buf_adds(&c->b, ",\"period_unit\":");
			put_str(c, (const char *)sqlite3_column_text(st, 5));
		}
		if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			tr_buf_adds(&c->b, ",\"period\":");
			tr_buf_addi(&c->b, sqlite3_column_int64(st, 6));
		}
		tr_buf_adds(&c->b, ",\"path\":");
		put_str(c, s->path);
		tr_buf_adds(&c->b, "}}");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(c->db, err, "cannot read profiles"));
	return (0);
}

/* --- the document ---------------------------------------------------- */

static int
write_source(struct ct *c, struct src *s, struct tr_error *err)
{
	if (write_tracks(c, s, err) != 0 || write_samples(c, s, err) != 0 ||
	    write_profiles(c, s, err) != 0)
		return (-1);
	return (0);
}

static int
write_sources(struct ct *c, struct tr_out *out, struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct src	 s;
	int		 rc;

	if ((st = tr_db_prepare(c->db, "SELECT id, format, host, path, "
	    "clock = 'go-ticks' AND align_method IS NULL OR "
	    "clock IN ('wall', 'none') AND align_method IS NULL "
	    "FROM source ORDER BY id", err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&s, 0, sizeof s);
		s.id = sqlite3_column_int64(st, 0);
		if (!tr_sel_has_source(c->sel, s.id))
			continue;
		s.format = (const char *)sqlite3_column_text(st, 1);
		s.host = (const char *)sqlite3_column_text(st, 2);
		s.path = (const char *)sqlite3_column_text(st, 3);
		if (sqlite3_column_int(st, 4) && strcmp(s.format, "pprof") != 0)
			tr_out_note(out, "source %lld (%s) is not aligned: its "
			    "events are on its own clock (trace-align)",
			    (long long)s.id, s.format);
		if (write_source(c, &s, err) != 0) {
			sqlite3_finalize(st);
			return (-1);
		}
		if (c->werr)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return (tr_db_error(c->db, err, "cannot read sources"));
	return (0);
}

static void
ct_release(struct ct *c)
{
	size_t	i;

	for (i = 0; i < c->np; i++) {
		free(c->pv[i].name);
		free(c->pv[i].host);
		tr_imap_release(&c->pv[i].threads);
	}
	free(c->pv);
	tr_imap_free(&c->strs, free);
	tr_imap_free(&c->frames, free);
	tr_imap_free(&c->threads, free);
	tr_map_free(c->pkeys);
	free(c->used);
	sqlite3_finalize(c->thread_st);
	tr_buf_release(&c->b);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_arg	 opts[] = {
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_sel	 sel;
	struct tr_args	 args;
	struct ct	 c;
	int64_t		 woff = 0, origin;
	int		 haswall = 0, rc = -1;

	memset(&c, 0, sizeof c);
	tr_sel_init(&sel, CT_SEL);
	memset(&args, 0, sizeof args);
	args.name = "chrome-trace";
	args.synopsis = "[SELECTION...]";
	args.about = "The aligned timeline as Chrome trace-event JSON for "
	    "Perfetto's UI,\nchrome://tracing and speedscope "
	    "(trace-query(1), chrome-trace).";
	args.args = opts;
	args.sel = &sel;
	args.max_pos = 0;
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	if (tr_sel_store_origin(db, &origin, &haswall, &woff, err) != 0)
		goto out;
	tr_query_notes(out, sel.notes.data);
	c.db = db;
	c.sel = &sel;
	c.f = tr_out_stream(out);
	c.origin = sel.origin;
	c.lo = sel.has_from ? sel.from : INT64_MIN;
	c.hi = sel.has_to ? sel.to : INT64_MAX;
	c.pkeys = tr_map_new();
	tr_buf_init(&c.b);
	tr_imap_init(&c.strs);
	tr_imap_init(&c.frames);
	tr_imap_init(&c.threads);
	tr_buf_adds(&c.b, "{\"traceEvents\":[");
	if (write_sources(&c, out, err) != 0 || write_stacks(&c, err) != 0)
		goto out;
	tr_buf_adds(&c.b, "\"displayTimeUnit\":\"ns\",\n\"otherData\":{"
	    "\"generator\":\"tracekit\",\"ts_origin_ns\":");
	tr_buf_addi(&c.b, c.origin);
	if (haswall) {
		tr_buf_adds(&c.b, ",\"ts_origin_wall_ns\":");
		tr_buf_addi(&c.b, c.origin + woff);
	}
	tr_buf_adds(&c.b, "}\n}\n");
	flush(&c);
	if (c.werr || ferror(c.f)) {
		tr_out_write_error(err);
		goto out;
	}
	rc = 0;
out:
	ct_release(&c);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_chrome_trace = {
	.name = "chrome-trace",
	.usage = "[SELECTION...]",
	.summary = "the timeline as Chrome trace-event JSON (Perfetto, "
	    "chrome://tracing)",
	.run = run,
};
