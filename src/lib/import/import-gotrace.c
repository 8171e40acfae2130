/*
 * Go execution traces (runtime/trace, `go test -trace`): the importer
 * entry, which reads the header and hands the rest to the parser of the
 * old format (import-gotrace-old.c) or of the generation format
 * (import-gotrace-new.c), and the sink both parsers report to, which
 * writes goroutine, P, GC and annotation tracks into the store.
 */
#include "config.h"
#include "import/gotrace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "base/names.h"
#include "store/writer.h"

tr_gotrace_hook_fn	*tr_gotrace_hook;
void			*tr_gotrace_hook_arg;

/* --- JSON ------------------------------------------------------------ */

void
tr_gotrace_json_str(struct tr_buf *b, const char *s, size_t len)
{
	static const char	hex[] = "0123456789abcdef";
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;
	char			 esc[7];

	tr_buf_addc(b, '"');
	for (i = 0; i < len; i++) {
		if (p[i] == '"' || p[i] == '\\') {
			tr_buf_addc(b, '\\');
			tr_buf_addc(b, (char)p[i]);
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[p[i] >> 4];
			esc[5] = hex[p[i] & 15];
			tr_buf_add(b, esc, 6);
		} else
			tr_buf_addc(b, (char)p[i]);
	}
	tr_buf_addc(b, '"');
}

/* --- the sink -------------------------------------------------------- */

struct region {
	uint64_t	 task;
	int64_t		 track;		/* its task's, when it began */
	int64_t		 name_id;
	int64_t		 ts;
	int64_t		 cs;
};

/* One live goroutine. */
struct gor {
	int64_t		 track;
	int		 state;		/* enum tr_gotrace_state, 0: none */
	int64_t		 since;
	int64_t		 cat_id;
	int64_t		 cs;
	struct tr_buf	 args;		/* "{...}", or "" for none */
	int		 assist;
	int64_t		 assist_ts, assist_cs;
	struct region	*regions;
	size_t		 nregions, capregions;
};

struct proc {
	int64_t		 track;
	int		 running;
	int64_t		 since;
	int64_t		 m;
	int		 sweeping;
	int64_t		 sweep_ts, sweep_cs;
	int		 stw;
	int64_t		 stw_ts, stw_kind, stw_reason;
};

struct task {
	int64_t		 track;
	int		 open;
	int64_t		 ts;
	int64_t		 name_id;
	uint64_t	 parent, goid;
	int64_t		 cs;
};

enum {
	S_RUNNING, S_RUNNABLE, S_BLOCKED, S_GC, S_SWEEP, S_ASSIST, S_TASK,
	S_REGION, S_LOG, S_CPU, S_HEAPALLOC, S_HEAPGOAL, S_GOMAXPROCS,
	S_RUNNING_P, S_SYSCALL, S_COUNT
};

static const char *const sink_names[S_COUNT] = {
	TR_GO_STATE_RUNNING, TR_GO_STATE_RUNNABLE, TR_GO_STATE_BLOCKED,
	TR_GO_GC, TR_GO_SWEEP, TR_GO_ASSIST, TR_GO_CAT_TASK, TR_GO_CAT_REGION,
	TR_GO_CAT_LOG, TR_GO_EVENT_CPU, TR_GO_HEAP_ALLOC, TR_GO_HEAP_GOAL,
	TR_GO_GOMAXPROCS, TR_GO_STATE_RUNNING, TR_GO_STATE_SYSCALL
};

/*
 * The ids of the strings the sink was last given at each of a few
 * addresses: the parsers pass the same names (reasons, region names of
 * a string table) again and again, and a pointer and a strcmp() cost
 * less than the writer's hash of the text.  A slot is checked against
 * its copy, so a buffer reused for another string only misses.
 */
#define STR_SLOTS	64
struct strslot {
	const char	*at;
	char		*copy;
	int64_t		 id;
};

struct tr_gotrace_sink {
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_imap	 gs, ps, tasks;
	int64_t			 ids[S_COUNT];
	int64_t			 gc_track, stw_track, heap_track, rt_track;
	int			 gc_open;
	int64_t			 gc_ts, gc_seq, gc_cs;
	struct proc		 world;		/* the global STW */
	struct tr_buf		 b;
	int64_t			 nstates;	/* go_state() calls */
	int64_t			 wm_every, wm_skew;
	struct strslot		 strs[STR_SLOTS];
	int			 held;		/* tr_writer_hold_tracks() */
};

/*
 * Every this many state changes, the sink tells the writer's observers
 * when the earliest runnable state still to come can start.  For the
 * tests, TRACEKIT_WATERMARK="EVERY[,SKEW_NS]" tells them every EVERY
 * changes, SKEW_NS late (a promise broken on purpose).
 */
#define WATERMARK_EVERY	65536

struct tr_gotrace_sink *
tr_gotrace_sink_new(struct tr_import *ctx)
{
	struct tr_gotrace_sink	*s = tr_xcalloc(1, sizeof *s);
	const char		*wm;

	s->ctx = ctx;
	s->wr = tr_import_writer(ctx);
	s->wm_every = WATERMARK_EVERY;
	if ((wm = getenv("TRACEKIT_WATERMARK")) != NULL) {
		long long	every = 0, skew = 0;

		if (sscanf(wm, "%lld,%lld", &every, &skew) >= 1 && every > 0) {
			s->wm_every = every;
			s->wm_skew = skew;
		}
	}
	tr_imap_init(&s->gs);
	tr_imap_init(&s->ps);
	tr_imap_init(&s->tasks);
	tr_buf_init(&s->b);
	return (s);
}

static void
gor_free(void *p)
{
	struct gor	*g = p;

	if (g == NULL)
		return;
	tr_buf_release(&g->args);
	free(g->regions);
	free(g);
}

void
tr_gotrace_sink_free(struct tr_gotrace_sink *s)
{
	size_t	i;

	if (s == NULL)
		return;
	tr_imap_free(&s->gs, gor_free);
	tr_imap_free(&s->ps, free);
	tr_imap_free(&s->tasks, free);
	tr_buf_release(&s->b);
	for (i = 0; i < STR_SLOTS; i++)
		free(s->strs[i].copy);
	free(s);
}

int64_t
tr_gotrace_str(struct tr_gotrace_sink *s, const char *str,
    struct tr_error *err)
{
	struct strslot	*e = &s->strs[((uintptr_t)str >> 3) % STR_SLOTS];
	int64_t		 id;

	if (e->at == str && strcmp(e->copy, str) == 0)
		return (e->id);
	if ((id = tr_writer_add_str(s->wr, str, strlen(str), err)) < 0)
		return (-1);
	/* A buffer that holds one string after another is not kept. */
	if (e->at == str)
		return (id);
	free(e->copy);
	e->at = str;
	e->copy = tr_xstrdup(str);
	e->id = id;
	return (id);
}

/* The id of one of the sink's fixed names. */
static int64_t
sid(struct tr_gotrace_sink *s, int which, struct tr_error *err)
{
	if (s->ids[which] == 0)
		s->ids[which] = tr_gotrace_str(s, sink_names[which], err);
	return (s->ids[which]);
}

/* Lazily made tracks of one per source. */
static int64_t
one_track(struct tr_gotrace_sink *s, int64_t *id, const char *kind,
    const char *name, struct tr_error *err)
{
	if (*id == 0)
		*id = tr_writer_add_track(s->wr, kind, name, 0, 0, 0, 0, NULL,
		    err);
	return (*id);
}

/* End the args object opened in b: [, "unfinished":true] "}". */
static const char *
close_args(struct tr_buf *b, int unfinished)
{
	if (unfinished)
		tr_buf_adds(b, b->len > 1 ? ",\"unfinished\":true" :
		    "\"unfinished\":true");
	tr_buf_addc(b, '}');
	return (b->data);
}

/* "{" args [, "unfinished":true] "}" in s->b, or NULL for none. */
static const char *
wrap_args(struct tr_gotrace_sink *s, const char *args, size_t len,
    int unfinished)
{
	if (len == 0 && !unfinished)
		return (NULL);
	tr_buf_reset(&s->b);
	tr_buf_addc(&s->b, '{');
	if (len > 0)
		tr_buf_add(&s->b, args, len);
	return (close_args(&s->b, unfinished));
}

static int
add_slice(struct tr_gotrace_sink *s, int64_t track, int64_t ts, int64_t end,
    int64_t name_id, int64_t cat_id, int64_t cs, const char *args,
    struct tr_error *err)
{
	if (name_id < 0 || cat_id < 0)
		return (-1);
	if (end < ts)
		end = ts;
	return (tr_writer_add_slice(s->wr, track, ts, end - ts, name_id,
	    cat_id, cs, args, err) < 0 ? -1 : 0);
}

static struct gor *
gor_new(struct tr_gotrace_sink *s, uint64_t goid)
{
	struct gor	*g = tr_xcalloc(1, sizeof *g);

	tr_buf_init(&g->args);
	gor_free(tr_imap_del(&s->gs, goid));
	tr_imap_put(&s->gs, goid, g);
	return (g);
}

static int
gor_track(struct tr_gotrace_sink *s, struct gor *g, uint64_t goid,
    const char *name, const char *meta, struct tr_error *err)
{
	/*
	 * Most goroutines end soon after they start, and each end sets the
	 * track's "$.ended" (tr_gotrace_go_end()): let the writer write the
	 * row once, ended, rather than write it and update it.  Nothing
	 * reads goroutine tracks before the flush.
	 */
	if (!s->held) {
		if (tr_writer_hold_tracks(s->wr, TR_TRACK_GOROUTINE, err) != 0)
			return (-1);
		s->held = 1;
	}
	g->track = tr_writer_add_track(s->wr, TR_TRACK_GOROUTINE, name,
	    (int64_t)goid, 0, 0, 0, meta, err);
	return (g->track < 0 ? -1 : 0);
}

/* Close the goroutine's open state slice at 'ts'. */
static int
gor_close(struct tr_gotrace_sink *s, struct gor *g, int64_t ts,
    int unfinished, struct tr_error *err)
{
	const char	*args;
	int64_t		 name;

	if (g->state == 0)
		return (0);
	name = sid(s, g->state == TR_GOTRACE_RUNNING ? S_RUNNING :
	    g->state == TR_GOTRACE_RUNNABLE ? S_RUNNABLE : S_BLOCKED, err);
	if (unfinished)
		args = wrap_args(s, g->args.data + 1, g->args.len > 0 ?
		    g->args.len - 2 : 0, 1);
	else
		args = g->args.len > 0 ? g->args.data : NULL;
	g->state = 0;
	return (add_slice(s, g->track, g->since, ts, name, g->cat_id, g->cs,
	    args, err));
}

/*
 * The args are kept wrapped, as gor_close() writes them: a state is
 * closed once, and most of them finished (wrapping them at the close was
 * a copy more of every state slice).
 */
static void
gor_set(struct gor *g, enum tr_gotrace_state state, int64_t cat_id,
    int64_t cs, const char *args)
{
	size_t	 n;
	char	*p;

	g->state = state;
	g->cat_id = cat_id;
	g->cs = cs;
	g->args.len = 0;
	g->args.data[0] = '\0';
	if (args != NULL && (n = strlen(args)) > 0) {
		p = tr_buf_reserve(&g->args, n + 2);
		p[0] = '{';
		memcpy(p + 1, args, n);
		p[n + 1] = '}';
		p[n + 2] = '\0';
		g->args.len = n + 2;
	}
}

int
tr_gotrace_go_create(struct tr_gotrace_sink *s, uint64_t goid, int64_t ts,
    uint64_t creator, int64_t create_cs, int64_t start_cs,
    const char *start_fn, int at_start, struct tr_error *err)
{
	struct gor	*g;
	char		 meta[256];
	int64_t		 cat;
	int		 n;

	if ((g = tr_imap_get(&s->gs, goid)) != NULL &&
	    gor_close(s, g, ts, 0, err) != 0)
		return (-1);
	g = gor_new(s, goid);
	n = snprintf(meta, sizeof meta, at_start ? "{\"at_start\":true,"
	    "\"seen\":%" PRId64 : "{\"created\":%" PRId64, ts);
	if (creator != 0)
		n += snprintf(meta + n, sizeof meta - n,
		    ",\"creator\":%" PRIu64, creator);
	if (create_cs > 0)
		n += snprintf(meta + n, sizeof meta - n,
		    ",\"callsite_id\":%" PRId64, create_cs);
	if (start_cs > 0)
		n += snprintf(meta + n, sizeof meta - n,
		    ",\"start_callsite_id\":%" PRId64, start_cs);
	snprintf(meta + n, sizeof meta - n, "}");
	if (gor_track(s, g, goid, start_fn ? start_fn : "", meta, err) != 0)
		return (-1);
	if ((cat = tr_gotrace_str(s, TR_GO_REASON_CREATED, err)) < 0)
		return (-1);
	g->since = ts;
	gor_set(g, TR_GOTRACE_RUNNABLE, cat, create_cs, NULL);
	return (0);
}

/* The goroutine, given a track if the sink has not seen it yet. */
static struct gor *
gor_get(struct tr_gotrace_sink *s, uint64_t goid, int64_t ts,
    struct tr_error *err)
{
	struct gor	*g;
	char		 meta[64];

	if ((g = tr_imap_get(&s->gs, goid)) != NULL)
		return (g);
	g = gor_new(s, goid);
	snprintf(meta, sizeof meta, "{\"at_start\":true,\"seen\":%" PRId64 "}",
	    ts);
	if (gor_track(s, g, goid, "", meta, err) != 0)
		return (NULL);
	g->since = ts;
	return (g);
}

/*
 * No runnable state to come starts before the earliest open one, or
 * before 'now' (events come in time order; restates never make a state
 * runnable).
 */
static int
watermark(struct tr_gotrace_sink *s, int64_t now, struct tr_error *err)
{
	uint64_t	*keys;
	struct gor	*g;
	size_t		 n, i;

	keys = tr_imap_keys(&s->gs, &n);
	for (i = 0; i < n; i++) {
		g = tr_imap_get(&s->gs, keys[i]);
		if (g->state == TR_GOTRACE_RUNNABLE && g->since < now)
			now = g->since;
	}
	free(keys);
	return (tr_writer_watermark(s->wr, now + s->wm_skew, err));
}

int
tr_gotrace_go_state(struct tr_gotrace_sink *s, uint64_t goid, int64_t ts,
    enum tr_gotrace_state state, const char *cat, int64_t cs,
    const char *args, struct tr_error *err)
{
	struct gor	*g;
	int64_t		 cat_id = 0;

	if ((g = gor_get(s, goid, ts, err)) == NULL)
		return (-1);
	if (cat != NULL && (cat_id = tr_gotrace_str(s, cat, err)) < 0)
		return (-1);
	if (gor_close(s, g, ts, 0, err) != 0)
		return (-1);
	g->since = ts;
	gor_set(g, state, cat_id, cs, args);
	if (++s->nstates % s->wm_every == 0)
		return (watermark(s, ts, err));
	return (0);
}

int
tr_gotrace_go_restate(struct tr_gotrace_sink *s, uint64_t goid,
    enum tr_gotrace_state state, const char *cat, int64_t cs,
    const char *args, struct tr_error *err)
{
	struct gor	*g;
	int64_t		 cat_id = 0;

	if ((g = tr_imap_get(&s->gs, goid)) == NULL)
		return (0);
	if (cat != NULL && (cat_id = tr_gotrace_str(s, cat, err)) < 0)
		return (-1);
	gor_set(g, state, cat_id, cs, args);
	return (0);
}

enum tr_gotrace_state
tr_gotrace_go_current(struct tr_gotrace_sink *s, uint64_t goid)
{
	struct gor	*g = tr_imap_get(&s->gs, goid);

	return (g ? (enum tr_gotrace_state)g->state : 0);
}

/* End the goroutine's regions at 'ts'. */
static int
gor_end_regions(struct tr_gotrace_sink *s, struct gor *g, uint64_t goid,
    int64_t ts, int unfinished, struct tr_error *err);

int
tr_gotrace_go_end(struct tr_gotrace_sink *s, uint64_t goid, int64_t ts,
    struct tr_error *err)
{
	struct gor	*g;

	if ((g = gor_get(s, goid, ts, err)) == NULL)
		return (-1);
	if (gor_close(s, g, ts, 0, err) != 0 ||
	    gor_end_regions(s, g, goid, ts, 0, err) != 0)
		return (-1);
	if (g->assist && tr_gotrace_assist_end(s, goid, ts, err) != 0)
		return (-1);
	/* Through the writer: in order with the rows, in its thread. */
	if (tr_writer_set_track_meta(s->wr, g->track, "$.ended", ts,
	    err) != 0)
		return (-1);
	gor_free(tr_imap_del(&s->gs, goid));
	return (0);
}

int
tr_gotrace_go_slice(struct tr_gotrace_sink *s, uint64_t goid, int64_t ts,
    int64_t dur, const char *name, const char *cat, int64_t cs,
    const char *args, struct tr_error *err)
{
	struct gor	*g;
	int64_t		 n, c = 0;

	if ((g = gor_get(s, goid, ts, err)) == NULL)
		return (-1);
	if ((n = tr_gotrace_str(s, name, err)) < 0 ||
	    (cat != NULL && (c = tr_gotrace_str(s, cat, err)) < 0))
		return (-1);
	return (add_slice(s, g->track, ts, ts + dur, n, c, cs,
	    wrap_args(s, args, args ? strlen(args) : 0, 0), err));
}

/* --- Ps -------------------------------------------------------------- */

static struct proc *
proc_get(struct tr_gotrace_sink *s, int64_t p, struct tr_error *err)
{
	struct proc	*pp;
	char		 name[32];

	if ((pp = tr_imap_get(&s->ps, (uint64_t)p)) != NULL)
		return (pp);
	pp = tr_xcalloc(1, sizeof *pp);
	pp->m = -1;
	tr_imap_put(&s->ps, (uint64_t)p, pp);
	snprintf(name, sizeof name, "P%" PRId64, p);
	pp->track = tr_writer_add_track(s->wr, TR_TRACK_GO_PROC, name, p, 0, 0,
	    0, NULL, err);
	return (pp->track < 0 ? NULL : pp);
}

int
tr_gotrace_proc_start(struct tr_gotrace_sink *s, int64_t p, int64_t ts,
    int64_t m, struct tr_error *err)
{
	struct proc	*pp;

	if ((pp = proc_get(s, p, err)) == NULL)
		return (-1);
	if (pp->running && tr_gotrace_proc_stop(s, p, ts, err) != 0)
		return (-1);
	pp->running = 1;
	pp->since = ts;
	pp->m = m;
	return (0);
}

static int
proc_close(struct tr_gotrace_sink *s, struct proc *pp, int64_t ts,
    int unfinished, struct tr_error *err)
{
	char	args[48];
	int	n = 0;

	if (!pp->running)
		return (0);
	pp->running = 0;
	if (pp->m >= 0)
		n = snprintf(args, sizeof args, "\"m\":%" PRId64, pp->m);
	return (add_slice(s, pp->track, pp->since, ts,
	    sid(s, S_RUNNING_P, err), 0, 0, wrap_args(s, args, n, unfinished),
	    err));
}

int
tr_gotrace_proc_stop(struct tr_gotrace_sink *s, int64_t p, int64_t ts,
    struct tr_error *err)
{
	struct proc	*pp;

	if ((pp = proc_get(s, p, err)) == NULL)
		return (-1);
	return (proc_close(s, pp, ts, 0, err));
}

int64_t
tr_gotrace_proc_m(struct tr_gotrace_sink *s, int64_t p)
{
	struct proc	*pp = tr_imap_get(&s->ps, (uint64_t)p);

	return (pp && pp->running ? pp->m : -1);
}

/* --- GC -------------------------------------------------------------- */

static int64_t
gc_track(struct tr_gotrace_sink *s, struct tr_error *err)
{
	return (one_track(s, &s->gc_track, TR_TRACK_GO_GC, "GC", err));
}

int
tr_gotrace_gc_begin(struct tr_gotrace_sink *s, int64_t ts, int64_t seq,
    int64_t cs, struct tr_error *err)
{
	if (s->gc_open && tr_gotrace_gc_end(s, ts, err) != 0)
		return (-1);
	s->gc_open = 1;
	s->gc_ts = ts;
	s->gc_seq = seq;
	s->gc_cs = cs;
	return (0);
}

static int
gc_close(struct tr_gotrace_sink *s, int64_t ts, int unfinished,
    struct tr_error *err)
{
	char	args[48];
	int	n = 0;

	if (!s->gc_open)
		return (0);
	s->gc_open = 0;
	if (s->gc_seq >= 0)
		n = snprintf(args, sizeof args, "\"seq\":%" PRId64, s->gc_seq);
	if (gc_track(s, err) < 0)
		return (-1);
	return (add_slice(s, s->gc_track, s->gc_ts, ts, sid(s, S_GC, err), 0,
	    s->gc_cs, wrap_args(s, args, n, unfinished), err));
}

int
tr_gotrace_gc_end(struct tr_gotrace_sink *s, int64_t ts, struct tr_error *err)
{
	return (gc_close(s, ts, 0, err));
}

static struct proc *
stw_owner(struct tr_gotrace_sink *s, int64_t p, struct tr_error *err)
{
	return (p < 0 ? &s->world : proc_get(s, p, err));
}

int
tr_gotrace_stw_begin(struct tr_gotrace_sink *s, int64_t p, int64_t ts,
    const char *kind, const char *reason, struct tr_error *err)
{
	struct proc	*pp;

	if ((pp = stw_owner(s, p, err)) == NULL)
		return (-1);
	if (pp->stw && tr_gotrace_stw_end(s, p, ts, err) != 0)
		return (-1);
	if ((pp->stw_kind = tr_gotrace_str(s, kind, err)) < 0 ||
	    (pp->stw_reason = tr_gotrace_str(s, reason, err)) < 0)
		return (-1);
	pp->stw = 1;
	pp->stw_ts = ts;
	return (0);
}

static int
stw_close(struct tr_gotrace_sink *s, struct proc *pp, int64_t p, int64_t ts,
    int unfinished, struct tr_error *err)
{
	char	args[48];
	int	n = 0;

	if (!pp->stw)
		return (0);
	pp->stw = 0;
	if (one_track(s, &s->stw_track, TR_TRACK_GO_STW, "STW", err) < 0)
		return (-1);
	if (p >= 0)
		n = snprintf(args, sizeof args, "\"p\":%" PRId64, p);
	return (add_slice(s, s->stw_track, pp->stw_ts, ts, pp->stw_kind,
	    pp->stw_reason, 0, wrap_args(s, args, n, unfinished), err));
}

int
tr_gotrace_stw_end(struct tr_gotrace_sink *s, int64_t p, int64_t ts,
    struct tr_error *err)
{
	struct proc	*pp;

	if ((pp = stw_owner(s, p, err)) == NULL)
		return (-1);
	return (stw_close(s, pp, p, ts, 0, err));
}

int
tr_gotrace_sweep_begin(struct tr_gotrace_sink *s, int64_t p, int64_t ts,
    int64_t cs, struct tr_error *err)
{
	struct proc	*pp;

	if ((pp = proc_get(s, p, err)) == NULL)
		return (-1);
	pp->sweeping = 1;
	pp->sweep_ts = ts;
	pp->sweep_cs = cs;
	return (0);
}

static int
sweep_close(struct tr_gotrace_sink *s, struct proc *pp, int64_t p,
    int64_t ts, const char *more, int unfinished, struct tr_error *err)
{
	char	args[128];
	int	n;

	if (!pp->sweeping)
		return (0);
	pp->sweeping = 0;
	n = snprintf(args, sizeof args, "\"p\":%" PRId64 "%s%s", p,
	    more ? "," : "", more ? more : "");
	if (gc_track(s, err) < 0)
		return (-1);
	return (add_slice(s, s->gc_track, pp->sweep_ts, ts,
	    sid(s, S_SWEEP, err), 0, pp->sweep_cs,
	    wrap_args(s, args, n, unfinished), err));
}

int
tr_gotrace_sweep_end(struct tr_gotrace_sink *s, int64_t p, int64_t ts,
    const char *args, struct tr_error *err)
{
	struct proc	*pp;

	if ((pp = proc_get(s, p, err)) == NULL)
		return (-1);
	return (sweep_close(s, pp, p, ts, args, 0, err));
}

int
tr_gotrace_assist_begin(struct tr_gotrace_sink *s, uint64_t goid, int64_t ts,
    int64_t cs, struct tr_error *err)
{
	struct gor	*g;

	if ((g = gor_get(s, goid, ts, err)) == NULL)
		return (-1);
	g->assist = 1;
	g->assist_ts = ts;
	g->assist_cs = cs;
	return (0);
}

static int
assist_close(struct tr_gotrace_sink *s, struct gor *g, uint64_t goid,
    int64_t ts, int unfinished, struct tr_error *err)
{
	char	args[48];
	int	n;

	if (!g->assist)
		return (0);
	g->assist = 0;
	n = snprintf(args, sizeof args, "\"goid\":%" PRIu64, goid);
	if (gc_track(s, err) < 0)
		return (-1);
	return (add_slice(s, s->gc_track, g->assist_ts, ts,
	    sid(s, S_ASSIST, err), 0, g->assist_cs,
	    wrap_args(s, args, n, unfinished), err));
}

int
tr_gotrace_assist_end(struct tr_gotrace_sink *s, uint64_t goid, int64_t ts,
    struct tr_error *err)
{
	struct gor	*g;

	if ((g = tr_imap_get(&s->gs, goid)) == NULL)
		return (0);
	return (assist_close(s, g, goid, ts, 0, err));
}

/* --- counters -------------------------------------------------------- */

int
tr_gotrace_heap(struct tr_gotrace_sink *s, int64_t ts, const char *name,
    uint64_t value, struct tr_error *err)
{
	int64_t	n;

	n = sid(s, strcmp(name, TR_GO_HEAP_GOAL) == 0 ? S_HEAPGOAL :
	    S_HEAPALLOC, err);
	if (n < 0 || one_track(s, &s->heap_track, TR_TRACK_GO_HEAP, "heap",
	    err) < 0)
		return (-1);
	return (tr_writer_add_counter(s->wr, s->heap_track, ts, n,
	    (double)value, err) < 0 ? -1 : 0);
}

int
tr_gotrace_gomaxprocs(struct tr_gotrace_sink *s, int64_t ts, uint64_t procs,
    struct tr_error *err)
{
	int64_t	n;

	if ((n = sid(s, S_GOMAXPROCS, err)) < 0 ||
	    one_track(s, &s->rt_track, TR_TRACK_GO_RUNTIME, "runtime", err) < 0)
		return (-1);
	return (tr_writer_add_counter(s->wr, s->rt_track, ts, n,
	    (double)procs, err) < 0 ? -1 : 0);
}

/* --- annotations ----------------------------------------------------- */

static struct task *
task_get(struct tr_gotrace_sink *s, uint64_t id, const char *name,
    const char *meta, struct tr_error *err)
{
	struct task	*t;
	char		 buf[32];

	if ((t = tr_imap_get(&s->tasks, id)) != NULL)
		return (t);
	t = tr_xcalloc(1, sizeof *t);
	tr_imap_put(&s->tasks, id, t);
	if (name == NULL) {
		if (id == 0)
			name = "background";
		else {
			snprintf(buf, sizeof buf, "task %" PRIu64, id);
			name = buf;
		}
	}
	t->track = tr_writer_add_track(s->wr, TR_TRACK_GO_TASK, name,
	    (int64_t)id, 0, 0, 0, meta, err);
	return (t->track < 0 ? NULL : t);
}

int
tr_gotrace_task_begin(struct tr_gotrace_sink *s, uint64_t id,
    uint64_t parent, const char *name, uint64_t goid, int64_t ts, int64_t cs,
    struct tr_error *err)
{
	struct task	*t;
	char		 meta[128];

	free(tr_imap_del(&s->tasks, id));
	snprintf(meta, sizeof meta, "{\"parent\":%" PRIu64 ",\"goid\":%" PRIu64
	    ",\"created\":%" PRId64 "}", parent, goid, ts);
	if ((t = task_get(s, id, name, meta, err)) == NULL)
		return (-1);
	if ((t->name_id = tr_gotrace_str(s, name, err)) < 0)
		return (-1);
	t->open = 1;
	t->ts = ts;
	t->parent = parent;
	t->goid = goid;
	t->cs = cs;
	return (0);
}

static int
task_close(struct tr_gotrace_sink *s, struct task *t, uint64_t goid,
    int64_t ts, int unfinished, struct tr_error *err)
{
	char	args[96];
	int	n;

	if (!t->open)
		return (0);
	t->open = 0;
	n = snprintf(args, sizeof args, "\"parent\":%" PRIu64 ",\"goid\":%"
	    PRIu64, t->parent, t->goid);
	if (!unfinished)
		n += snprintf(args + n, sizeof args - n, ",\"end_goid\":%"
		    PRIu64, goid);
	return (add_slice(s, t->track, t->ts, ts, t->name_id,
	    sid(s, S_TASK, err), t->cs, wrap_args(s, args, n, unfinished),
	    err));
}

int
tr_gotrace_task_end(struct tr_gotrace_sink *s, uint64_t id, uint64_t goid,
    int64_t ts, struct tr_error *err)
{
	struct task	*t;
	int		 rc;

	if ((t = tr_imap_get(&s->tasks, id)) == NULL) {
		/* Created before the trace began: an instant on its track. */
		if ((t = task_get(s, id, NULL, "{\"at_start\":true}", err)) ==
		    NULL)
			return (-1);
		t->open = 1;
		t->ts = ts;
		t->goid = goid;
		if ((t->name_id = tr_gotrace_str(s, "task end", err)) < 0)
			return (-1);
	}
	rc = task_close(s, t, goid, ts, 0, err);
	free(tr_imap_del(&s->tasks, id));
	return (rc);
}

int
tr_gotrace_region_begin(struct tr_gotrace_sink *s, uint64_t goid,
    uint64_t task, const char *name, int64_t ts, int64_t cs,
    struct tr_error *err)
{
	struct gor	*g;
	struct region	*r;
	struct task	*t;

	if ((g = gor_get(s, goid, ts, err)) == NULL)
		return (-1);
	if (g->nregions == g->capregions) {
		g->capregions = g->capregions ? g->capregions * 2 : 4;
		g->regions = tr_xrealloc(g->regions,
		    g->capregions * sizeof *g->regions);
	}
	r = &g->regions[g->nregions];
	if ((r->name_id = tr_gotrace_str(s, name, err)) < 0)
		return (-1);
	if ((t = task_get(s, task, NULL, task ? "{\"at_start\":true}" : NULL,
	    err)) == NULL)
		return (-1);
	r->track = t->track;
	r->task = task;
	r->ts = ts;
	r->cs = cs;
	g->nregions++;
	return (0);
}

static int
region_emit(struct tr_gotrace_sink *s, uint64_t goid, int64_t track,
    int64_t name_id, int64_t ts, int64_t end, int64_t cs, size_t depth,
    const char *more, int unfinished, struct tr_error *err)
{
	struct tr_buf	*b = &s->b;
	char		 a[64], *q = a;

	/* Most regions end as they should: their args made at once. */
	memcpy(q, "{\"goid\":", 8);
	q = tr_put_uint(q + 8, goid);
	memcpy(q, ",\"depth\":", 9);
	q = tr_put_uint(q + 9, depth);
	if (more == NULL && !unfinished) {
		q[0] = '}';
		q[1] = '\0';
		return (add_slice(s, track, ts, end, name_id,
		    sid(s, S_REGION, err), cs, a, err));
	}
	tr_buf_reset(b);
	tr_buf_add(b, a, (size_t)(q - a));
	if (more != NULL)
		tr_buf_adds(b, more);
	return (add_slice(s, track, ts, end, name_id, sid(s, S_REGION, err),
	    cs, close_args(b, unfinished), err));
}

int
tr_gotrace_region_end(struct tr_gotrace_sink *s, uint64_t goid,
    uint64_t task, const char *name, int64_t ts, int64_t cs,
    struct tr_error *err)
{
	struct gor	*g;
	struct region	*r;
	struct task	*t;
	int64_t		 n;

	if ((g = gor_get(s, goid, ts, err)) == NULL)
		return (-1);
	if (g->nregions == 0) {
		/* Begun before the trace: a zero-length mark where it ends. */
		if ((n = tr_gotrace_str(s, name, err)) < 0 ||
		    (t = task_get(s, task, NULL, task ? "{\"at_start\":true}" :
		    NULL, err)) == NULL)
			return (-1);
		return (region_emit(s, goid, t->track, n, ts, ts, cs, 0,
		    ",\"start_unknown\":true", 0, err));
	}
	r = &g->regions[--g->nregions];
	return (region_emit(s, goid, r->track, r->name_id, r->ts, ts, r->cs,
	    g->nregions, NULL, 0, err));
}

static int
gor_end_regions(struct tr_gotrace_sink *s, struct gor *g, uint64_t goid,
    int64_t ts, int unfinished, struct tr_error *err)
{
	struct region	*r;

	while (g->nregions > 0) {
		r = &g->regions[--g->nregions];
		if (region_emit(s, goid, r->track, r->name_id, r->ts, ts, r->cs,
		    g->nregions, unfinished ? NULL :
		    ",\"ended_by\":\"goroutine end\"", unfinished, err) != 0)
			return (-1);
	}
	return (0);
}

int
tr_gotrace_log(struct tr_gotrace_sink *s, uint64_t goid, uint64_t task,
    const char *key, const char *msg, size_t msglen, int64_t ts, int64_t cs,
    struct tr_error *err)
{
	struct task	*t;
	struct tr_buf	 a;
	int64_t		 n;
	int		 rc;

	if ((t = task_get(s, task, NULL, task ? "{\"at_start\":true}" : NULL,
	    err)) == NULL)
		return (-1);
	if ((n = tr_gotrace_str(s, key, err)) < 0)
		return (-1);
	tr_buf_init(&a);
	tr_buf_printf(&a, "{\"goid\":%" PRIu64 ",\"message\":", goid);
	tr_gotrace_json_str(&a, msg, msglen);
	tr_buf_addc(&a, '}');
	rc = add_slice(s, t->track, ts, ts, n, sid(s, S_LOG, err), cs, a.data,
	    err);
	tr_buf_release(&a);
	return (rc);
}

int
tr_gotrace_cpu_sample(struct tr_gotrace_sink *s, int64_t ts, uint64_t goid,
    int64_t p, int64_t m, int64_t cs, struct tr_error *err)
{
	struct tr_sample	smp;
	char			labels[128];
	int			n;

	n = snprintf(labels, sizeof labels, "{");
	if (goid != 0)
		n += snprintf(labels + n, sizeof labels - n, "\"goid\":%"
		    PRIu64, goid);
	if (p >= 0)
		n += snprintf(labels + n, sizeof labels - n, "%s\"p\":%" PRId64,
		    n > 1 ? "," : "", p);
	if (m >= 0)
		n += snprintf(labels + n, sizeof labels - n, "%s\"m\":%" PRId64,
		    n > 1 ? "," : "", m);
	snprintf(labels + n, sizeof labels - n, "}");
	memset(&smp, 0, sizeof smp);
	smp.ts = ts;
	smp.has_ts = 1;
	smp.cpu = -1;
	smp.callsite_id = cs;
	if ((smp.event_id = sid(s, S_CPU, err)) < 0)
		return (-1);
	smp.value = 1;
	smp.labels = labels;
	return (tr_writer_add_sample(s->wr, &smp, err) < 0 ? -1 : 0);
}

int
tr_gotrace_sink_finish(struct tr_gotrace_sink *s, int64_t ts,
    struct tr_error *err)
{
	struct gor	*g;
	struct proc	*pp;
	struct task	*t;
	uint64_t	*keys;
	size_t		 n, i;
	int		 rc = 0;

	/* Sorted keys: rows come out in the same order on every run. */
	keys = tr_imap_keys(&s->gs, &n);
	for (i = 0; rc == 0 && i < n; i++) {
		g = tr_imap_get(&s->gs, keys[i]);
		if (gor_close(s, g, ts, 1, err) != 0 ||
		    gor_end_regions(s, g, keys[i], ts, 1, err) != 0 ||
		    assist_close(s, g, keys[i], ts, 1, err) != 0)
			rc = -1;
	}
	free(keys);
	keys = tr_imap_keys(&s->ps, &n);
	for (i = 0; rc == 0 && i < n; i++) {
		pp = tr_imap_get(&s->ps, keys[i]);
		if (proc_close(s, pp, ts, 1, err) != 0 ||
		    sweep_close(s, pp, (int64_t)keys[i], ts, NULL, 1,
		    err) != 0 || stw_close(s, pp, (int64_t)keys[i], ts, 1,
		    err) != 0)
			rc = -1;
	}
	free(keys);
	if (rc == 0 && (stw_close(s, &s->world, -1, ts, 1, err) != 0 ||
	    gc_close(s, ts, 1, err) != 0))
		rc = -1;
	keys = tr_imap_keys(&s->tasks, &n);
	for (i = 0; rc == 0 && i < n; i++) {
		t = tr_imap_get(&s->tasks, keys[i]);
		if (task_close(s, t, 0, ts, 1, err) != 0)
			rc = -1;
	}
	free(keys);
	return (rc);
}

/* --- the importer ---------------------------------------------------- */

int
tr_gotrace_header_version(const unsigned char *p, size_t len)
{
	int	major, minor = 0, i = 5;

	/* "go 1.N trace\0\0\0\0" or "go 1.NN trace\0\0\0", 16 bytes. */
	if (len < 16 || memcmp(p, "go ", 3) != 0 || p[3] < '1' ||
	    p[3] > '9' || p[4] != '.')
		return (0);
	major = p[3] - '0';
	while (i < 8 && p[i] >= '0' && p[i] <= '9')
		minor = minor * 10 + (p[i++] - '0');
	if (i == 5 || memcmp(p + i, " trace", 6) != 0)
		return (0);
	for (i += 6; i < 16; i++)
		if (p[i] != '\0')
			return (0);
	return (major * 1000 + minor);
}

static int
probe(const unsigned char *p, size_t len)
{
	return (tr_gotrace_header_version(p, len) > 0 ? 100 : 0);
}

static int
run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	unsigned char	hdr[16];
	int64_t		n;
	int		ver;

	if ((n = tr_input_read(in, hdr, sizeof hdr, err)) < 0)
		return (-1);
	if ((ver = tr_gotrace_header_version(hdr, (size_t)n)) == 0)
		return (tr_input_error_at(in, err, 0,
		    "not a Go execution trace (no 'go 1.N trace' header)"));
	if (ver >= 1022)
		return (tr_gotrace_new_run(ctx, in, ver, err));
	if (ver < 1007)
		return (tr_input_error_at(in, err, 0, "unsupported Go trace "
		    "version %d.%d: traces before Go 1.7 carry no symbols",
		    ver / 1000, ver % 1000));
	return (tr_gotrace_old_run(ctx, in, ver, err));
}

const struct tr_importer tr_importer_gotrace = {
	.name = "gotrace",
	.summary = "Go execution trace (runtime/trace), Go 1.7 to 1.26",
	.probe = probe,
	.run = run,
	.writer_thread = 1,
};
