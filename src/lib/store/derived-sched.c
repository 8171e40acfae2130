/*
 * The derived tables of the scheduler and blocking queries (derived.h,
 * trace-store(5) "Derived tables"): go_blocked_stack, the per-stack
 * intervals go tool trace -pprof counts, replayed as the state slices of
 * each goroutine come (in their order); go_sched_lat, histograms of the
 * runnable states per second, reason and creation stack; go_sched_long,
 * every runnable state of a millisecond or more.  Fed by the accumulator
 * of derived.c, which owns the names it passes.
 */
#include "config.h"
#include "store/derived.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/names.h"
#include "base/util.h"

const char tr_derived_sched_schema[] =
"CREATE TABLE go_blocked_stack (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  rules TEXT NOT NULL,\n"
"  kind TEXT NOT NULL,\n"
"  callsite_id INTEGER NOT NULL REFERENCES callsite,\n"
"  count INTEGER NOT NULL,\n"
"  total_ns INTEGER NOT NULL,\n"
"  PRIMARY KEY (source_id, rules, kind, callsite_id)\n"
") WITHOUT ROWID;\n"
"CREATE TABLE go_sched_lat (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  ts INTEGER NOT NULL,\n"
"  reason TEXT,\n"
"  callsite_id INTEGER REFERENCES callsite,\n"
"  bucket INTEGER NOT NULL,\n"
"  count INTEGER NOT NULL,\n"
"  total_ns INTEGER NOT NULL,\n"
"  min_ns INTEGER NOT NULL,\n"
"  max_ns INTEGER NOT NULL\n"
");\n"
"CREATE INDEX go_sched_lat_source ON go_sched_lat (source_id, ts);\n"
"CREATE TABLE go_sched_long (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  ts INTEGER NOT NULL,\n"
"  dur INTEGER NOT NULL,\n"
"  track_id INTEGER NOT NULL REFERENCES track,\n"
"  reason TEXT,\n"
"  PRIMARY KEY (source_id, dur, ts, track_id)\n"
") WITHOUT ROWID;\n"
"CREATE TABLE go_wait_sec (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  ts INTEGER NOT NULL,\n"
"  track_id INTEGER NOT NULL REFERENCES track,\n"
"  sync_ns INTEGER NOT NULL,\n"
"  chan_end_ns INTEGER NOT NULL,\n"
"  PRIMARY KEY (source_id, ts, track_id)\n"
") WITHOUT ROWID;\n"
"";

/*
 * Version 7: the per-second rows of go_blocked_stack and of
 * go_mutex_waker (which gains its ts), so that a window's answer reads
 * its whole seconds and replays only the states of its partial ones.
 */
const char tr_derived_sched_schema_v7[] =
"CREATE TABLE go_mutex_waker (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  ts INTEGER NOT NULL,\n"
"  waker_goid INTEGER,\n"
"  callsite_id INTEGER REFERENCES callsite,\n"
"  blocked_callsite_id INTEGER REFERENCES callsite,\n"
"  count INTEGER NOT NULL,\n"
"  total_ns INTEGER NOT NULL\n"
");\n"
"CREATE INDEX go_mutex_waker_source ON go_mutex_waker (source_id, ts);\n"
"CREATE TABLE go_blocked_bin (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  rules TEXT NOT NULL,\n"
"  kind TEXT NOT NULL,\n"
"  ts INTEGER NOT NULL,\n"
"  callsite_id INTEGER NOT NULL REFERENCES callsite,\n"
"  count INTEGER NOT NULL,\n"
"  total_ns INTEGER NOT NULL,\n"
"  PRIMARY KEY (source_id, rules, kind, ts, callsite_id)\n"
") WITHOUT ROWID;\n";

const char *const tr_blocked_kind_stems[TR_DB_NKIND] = {
	"sync", "net", "syscall", "sched", "chan", "mutex", "sleep", "all"
};

int
tr_derived_lat_bucket(int64_t v)
{
	int	e = 0;

	if (v < 64)
		return (v < 0 ? 0 : (int)v);
#if defined(__GNUC__)
	e = 63 - __builtin_clzll((unsigned long long)v);
#else
	while ((v >> e) > 1)
		e++;
#endif
	return (64 + (e - 6) * 32 + (int)((v >> (e - 5)) & 31));
}

int64_t
tr_derived_lat_bucket_lo(int b)
{
	int	e;

	if (b < 64)
		return (b);
	e = (b - 64) / 32 + 6;
	return ((INT64_C(1) << e) + ((int64_t)((b - 64) % 32) << (e - 5)));
}

/*
 * The replays of the generation format (blocked.h): a state into which
 * a transition opens an interval, and the test of its runtime reason.
 */
enum { G_RUNNING, G_RUNNABLE, G_SYSCALL, G_WAITING };
enum {
	M_SYNC, M_NET, M_CHAN, M_MUTEX, M_SLEEP, M_WAIT, M_SYSCALL,
	M_RUNNABLE, NM
};

/* The kind (TR_DB_KIND_*) each machine charges. */
static const int m_kind[NM][2] = {
	{ TR_DB_KIND_SYNC, -1 }, { TR_DB_KIND_NET, -1 },
	{ TR_DB_KIND_CHAN, -1 }, { TR_DB_KIND_MUTEX, -1 },
	{ TR_DB_KIND_SLEEP, -1 }, { TR_DB_KIND_ALL, -1 },
	{ TR_DB_KIND_SYSCALL, TR_DB_KIND_ALL },
	{ TR_DB_KIND_SCHED, TR_DB_KIND_ALL },
};

struct open {
	int64_t	 b, cs;			/* cs 0: none open */
};

struct pend {
	int64_t	 b, e, cs;
	int	 m;
};

struct dg {
	int64_t		 track, grp;
	int64_t		 fr;		/* first running state seen */
	struct open	 m[NM];
	unsigned	 open;		/* bit m: m[m] open (its cs > 0) */
	struct pend	*pend;		/* closed before fr was known */
	size_t		 npend;
	int64_t		 mu_end, mu_dur, mu_cs;	/* a mutex wait, its end */
	struct wsec	*w;		/* its go_wait_sec rows, by second */
	size_t		 nw, capw;
};

struct charge {
	int64_t	 rules, kind, cs;	/* rules: 0 old, 1 gen */
	int64_t	 sec;			/* go_blocked_bin's; 0 else */
	int64_t	 n, ns;		/* by second: n, intervals starting in it */
};

struct cell {
	int64_t		 bin, cat, grp;
	int		 bucket;
	const char	*reason;	/* borrowed */
	int64_t		 n, ns, min, max;
};

struct lng {
	int64_t		 ts, dur, track;
	const char	*reason;
};
/*
 * The go_sched_long rows go to the store so many at a time as the import
 * goes (tr_dsched_spill()), not all at the end: they are as many as the
 * trace has long runnable states (223k in 20 s of a busy program, 7 MB).
 */
#define LNG_CHUNK	(16 * 1024)

/* Mutex waits by the goroutine that ended them: go_mutex_waker. */
struct mwake {
	int64_t		 sec;			/* of the wait's end */
	int64_t		 waker, cs, bcs;	/* 0: none */
	int64_t		 n, ns;
};


/* A goroutine's waits in a second: go_wait_sec. */
struct wsec {
	int64_t		 sec, track;
	int64_t		 sync, chan;
};

/*
 * What a reason (the string of a state's category) is to the rules, as
 * bits: tested once per category (rflags()), not by strcmp() per state.
 */
enum {
	R_WAKE = 1 << 0,	/* created, unblocked (old: sched) */
	R_OSYNC = 1 << 1,	/* old sync: chan, select, sync, cond, GC */
	R_CHAN = 1 << 2,	/* chan send, chan recv, select */
	R_NET = 1 << 3,
	R_SYSCALL = 1 << 4,
	R_SYNC = 1 << 5,	/* sync (a mutex) */
	R_SLEEP = 1 << 6,
	R_UNBLOCKED = 1 << 7,
	R_WSYNC = 1 << 8	/* sync, cond (go_wait_sec) */
};
struct rcache {
	int64_t		 cat;
	const char	*r;
	unsigned	 f;
};
#define NRCACHE		256

/*
 * The records last used, in front of the maps (direct-mapped by a cheap
 * hash of the key): the map's own hash and probe are paid only when a key
 * is new to the cache, and the maps (their keys, so the rows' order) are
 * as they would be without it.  The charges go through groups: a
 * callsite's charges of one rules, by kind, and by kind in one second
 * (go_blocked_bin's), each made by charge_of() the first time.
 */
#define NCCACHE		1024
#define NDCACHE		4096
struct cgroup {
	int64_t		 cs;
	struct charge	*tot[TR_DB_NKIND];
	int64_t		 sec;			/* bc's, or INT64_MIN */
	int64_t		 slo;			/* its start, or INT64_MAX */
	struct charge	*bc[TR_DB_NKIND];
};

struct tr_dsched {
	int64_t		 source_id;
	tr_dsched_clip_fn *clip;	/* set: charges only, clipped */
	void		*clip_arg;
	sqlite3_stmt	*wst;		/* go_wait_sec's insert, once made */
	struct tr_imap	 wakers;	/* hash -> struct mwake */
	struct tr_imap	 gs;		/* track -> struct dg */
	struct dg	*last;		/* the one of the last state */
	struct tr_imap	 charges;	/* hash -> struct charge */
	struct tr_imap	 bcells;	/* hash -> struct charge, by second */
	struct tr_imap	 cells;		/* hash -> struct cell */
	/*
	 * The seconds of go_sched_lat below 'lat_fin' are written
	 * (tr_dsched_watermark()); 'late': a runnable state came into one
	 * after all, and the tables must be computed again.
	 */
	int64_t		 lat_fin;
	int		 late;
	struct lng	*l;
	size_t		 nl, capl;
	size_t		 lchunk;	/* tr_dsched_spill() at so many */
	struct tr_imap	 groups[2];	/* by rules: cs -> struct cgroup */
	struct cgroup	*gc[2][NCCACHE];	/* (a cache of them) */
	struct cell	*lc[NCCACHE];		/* cells */
	struct rcache	 rc[NRCACHE];
	/*
	 * Goroutines by the low bits of their track id (ids are dense): the
	 * states of many goroutines interleave, so 'last' alone missed 94%.
	 */
	struct dg	*dc[NDCACHE];
};

struct tr_dsched *
tr_dsched_new(int64_t source_id)
{
	struct tr_dsched	*s = tr_xcalloc(1, sizeof *s);
	const char		*e;

	s->source_id = source_id;
	s->lat_fin = INT64_MIN;
	s->lchunk = LNG_CHUNK;
	/* (TRACEKIT_LONG_CHUNK: fewer, for the tests.) */
	if ((e = getenv("TRACEKIT_LONG_CHUNK")) != NULL && atoi(e) > 0)
		s->lchunk = (size_t)atoi(e);
	tr_imap_init(&s->gs);
	tr_imap_init(&s->charges);
	tr_imap_init(&s->bcells);
	tr_imap_init(&s->cells);
	tr_imap_init(&s->wakers);
	tr_imap_init(&s->groups[0]);
	tr_imap_init(&s->groups[1]);
	return (s);
}

static void
dg_free(void *p)
{
	struct dg	*g = p;

	if (g != NULL) {
		free(g->pend);
		free(g->w);
	}
	free(g);
}

void
tr_dsched_free(struct tr_dsched *s)
{
	if (s == NULL)
		return;
	tr_imap_free(&s->gs, dg_free);
	tr_imap_free(&s->charges, free);
	tr_imap_free(&s->bcells, free);
	tr_imap_free(&s->cells, free);
	sqlite3_finalize(s->wst);
	tr_imap_free(&s->wakers, free);
	tr_imap_free(&s->groups[0], free);
	tr_imap_free(&s->groups[1], free);
	free(s->l);
	free(s);
}

void
tr_dsched_goroutine(struct tr_dsched *s, int64_t track_id, int64_t grp)
{
	struct dg	*g = tr_xcalloc(1, sizeof *g), *old;
	int		 i;

	g->track = track_id;
	g->grp = grp > 0 ? grp : 0;
	g->fr = INT64_MAX;
	for (i = 0; i < NM; i++)
		g->m[i].cs = 0;
	s->last = NULL;
	/* (A track given again keeps its go_wait_sec rows, as it did.) */
	if ((old = tr_imap_del(&s->gs, (uint64_t)track_id)) != NULL) {
		g->w = old->w;
		g->nw = old->nw;
		g->capw = old->capw;
		old->w = NULL;
	}
	dg_free(old);
	tr_imap_put(&s->gs, (uint64_t)track_id, g);
	s->dc[(uint64_t)track_id & (NDCACHE - 1)] = g;
}

/* The second of the TR_DERIVED_LAT_BIN grid that holds 't'. */
static int64_t
sec_of(int64_t t)
{
	/* (Unsigned: a multiplication, where the remainder took more.) */
	if (t >= 0)
		return ((int64_t)((uint64_t)t / TR_DERIVED_LAT_BIN));
	return (t / TR_DERIVED_LAT_BIN - (t % TR_DERIVED_LAT_BIN < 0));
}

/* The charge of (rules, kind, cs, sec) in 'map', made when new. */
static struct charge *
charge_of(struct tr_imap *map, int rules, int kind, int64_t cs, int64_t sec)
{
	int64_t		 key[4];
	uint64_t	 h;
	struct charge	*c;

	key[0] = rules;
	key[1] = kind;
	key[2] = cs;
	key[3] = sec;
	h = tr_hash64(key, sizeof key);
	while ((c = tr_imap_get(map, h)) != NULL &&
	    (c->rules != rules || c->kind != kind || c->cs != cs ||
	    c->sec != sec))
		h++;
	if (c == NULL) {
		c = tr_xcalloc(1, sizeof *c);
		c->rules = rules;
		c->kind = kind;
		c->cs = cs;
		c->sec = sec;
		tr_imap_put(map, h, c);
	}
	return (c);
}

/* The slot of the caches for a key of two numbers and a small one. */
static size_t
cslot(int64_t a, int64_t b, int small)
{
	uint64_t	h = (uint64_t)a * 0x9e3779b97f4a7c15ULL ^
			    (uint64_t)b * 0xc2b2ae3d27d4eb4fULL;

	return ((size_t)((h >> 40) + (uint64_t)small) & (NCCACHE - 1));
}

/*
 * The group of the charges of (rules, cs): the state's charges share
 * them, so one lookup (the cache, then the map) finds all its kinds.
 */
static inline struct cgroup *
group_get(struct tr_dsched *s, int rules, int64_t cs)
{
	struct cgroup	**slot, *g;

	slot = &s->gc[rules][(uint64_t)cs & (NCCACHE - 1)];
	if ((g = *slot) != NULL && g->cs == cs)
		return (g);
	if ((g = tr_imap_get(&s->groups[rules], (uint64_t)cs)) == NULL) {
		g = tr_xcalloc(1, sizeof *g);
		g->cs = cs;
		g->sec = INT64_MIN;
		g->slo = INT64_MAX;
		tr_imap_put(&s->groups[rules], (uint64_t)cs, g);
	}
	*slot = g;
	return (g);
}

static void
charge(struct tr_dsched *s, int rules, int kind, int64_t cs, int64_t b,
    int64_t e)
{
	int64_t		 ns, sec, last, lo, hi;
	struct cgroup	*g = group_get(s, rules, cs);
	struct charge	*c;
	int		 count = 1;

	if (s->clip != NULL) {
		if ((ns = s->clip(s->clip_arg, b, e, &count)) <= 0) {
			ns = 0;
			if (!count)
				return;
		}
	} else {
		if ((ns = e - b) <= 0)
			return;
		/* Its seconds; counted in the one it starts in. */
		last = sec_of(e - 1);
		for (sec = sec_of(b); sec <= last; sec++) {
			lo = sec * TR_DERIVED_LAT_BIN;
			hi = lo + TR_DERIVED_LAT_BIN;
			if (g->sec != sec) {
				g->sec = sec;
				g->slo = lo;
				memset(g->bc, 0, sizeof g->bc);
			}
			if ((c = g->bc[kind]) == NULL)
				c = g->bc[kind] = charge_of(&s->bcells, rules,
				    kind, cs, sec);
			c->n += lo <= b;
			c->ns += (e < hi ? e : hi) - (b > lo ? b : lo);
		}
	}
	if ((c = g->tot[kind]) == NULL)
		c = g->tot[kind] = charge_of(&s->charges, rules, kind, cs, 0);
	c->n += count != 0;
	c->ns += ns;
}

/*
 * charge() of kinds[0..n) on one interval, in that order: a blocked state
 * charges up to four kinds, whose group and seconds are the same, so an
 * interval inside one second (nearly all) finds them once, where a call
 * per kind was 110 instructions (a Go trace's states: 1.3M calls).  The
 * charges are made in the order charge() makes them, so the maps, and
 * the rows, are the same.
 */
static void
charges(struct tr_dsched *s, int rules, const int *kinds, int n, int64_t cs,
    int64_t b, int64_t e)
{
	struct cgroup	*g;
	struct charge	*c;
	int64_t		 sec;
	int		 i, k;

	if (s->clip != NULL || e - b <= 0)
		goto each;
	g = group_get(s, rules, cs);
	/* (In the second of the group's last charge: no division.) */
	if (b >= g->slo && e <= g->slo + TR_DERIVED_LAT_BIN)
		sec = g->sec;
	else if ((sec = sec_of(b)) != sec_of(e - 1))
		goto each;
	else {
		g->sec = sec;
		g->slo = sec * TR_DERIVED_LAT_BIN;
		memset(g->bc, 0, sizeof g->bc);
	}
	for (i = 0; i < n; i++) {
		k = kinds[i];
		if ((c = g->bc[k]) == NULL)
			c = g->bc[k] = charge_of(&s->bcells, rules, k, cs,
			    sec);
		c->n++;
		c->ns += e - b;
		if ((c = g->tot[k]) == NULL)
			c = g->tot[k] = charge_of(&s->charges, rules, k, cs,
			    0);
		c->n++;
		c->ns += e - b;
	}
	return;
each:
	for (i = 0; i < n; i++)
		charge(s, rules, kinds[i], cs, b, e);
}

/* An interval of machine m of the generation format, clipped. */
static void
gen_interval(struct tr_dsched *s, int m, int64_t b, int64_t e, int64_t cs,
    int64_t fr)
{
	int	k;

	if (fr != INT64_MAX && fr > b)
		b = fr;
	if (e <= b)
		return;
	for (k = 0; k < 2 && m_kind[m][k] >= 0; k++)
		;
	charges(s, 1, m_kind[m], k, cs, b, e);
}

/* The string member "reason" of JSON object text: [*p, *p + *n). */
static void
json_reason(const char *a, size_t len, const char **p, size_t *n)
{
	static const char	key[] = "\"reason\":\"";
	size_t			i, j;

	*p = "";
	*n = 0;
	for (i = 0; a != NULL && i + sizeof key - 1 <= len; i++) {
		if (memcmp(a + i, key, sizeof key - 1) != 0)
			continue;
		i += sizeof key - 1;
		for (j = i; j < len && a[j] != '"'; j++)
			if (a[j] == '\\')
				j++;
		*p = a + i;
		*n = (j < len ? j : len) - i;
		return;
	}
}

/* SQLite's LIKE '%w%' (ASCII case-insensitive) on [p, p + n). */
static int
has_word(const char *p, size_t n, const char *w)
{
	size_t	wl = strlen(w), i;

	for (i = 0; i + wl <= n; i++)
		if (strncasecmp(p + i, w, wl) == 0)
			return (1);
	return (0);
}

static int
is_eq(const char *p, size_t n, const char *w)
{
	return (strlen(w) == n && strncasecmp(p, w, n) == 0);
}

/* Whether a transition into machine m's state opens one (its reason). */
static int
m_passes(int m, const char *r, size_t n)
{
	switch (m) {
	case M_SYNC:
		return (has_word(r, n, "chan") || has_word(r, n, "sync") ||
		    has_word(r, n, "select"));
	case M_NET:
		return (is_eq(r, n, "network"));
	case M_CHAN:
		return (has_word(r, n, "chan") || has_word(r, n, "select"));
	case M_MUTEX:
		return (is_eq(r, n, "sync"));
	case M_SLEEP:
		return (is_eq(r, n, "sleep"));
	default:
		return (1);
	}
}

/* The machines (bit m) whose state is each G_*. */
static const unsigned m_in[4] = {
	[G_RUNNING] = 0,
	[G_RUNNABLE] = 1u << M_RUNNABLE,
	[G_SYSCALL] = 1u << M_SYSCALL,
	[G_WAITING] = (1u << M_SYNC) | (1u << M_NET) | (1u << M_CHAN) |
	    (1u << M_MUTEX) | (1u << M_SLEEP) | (1u << M_WAIT),
};

/* The lowest bit set of 'x' (not 0). */
static int
low_bit(unsigned x)
{
#if defined(__GNUC__)
	return (__builtin_ctz(x));
#else
	int	i;

	for (i = 0; !(x >> i & 1); i++)
		;
	return (i);
#endif
}

static int
in_set(const char *r, const char *const *set)
{
	for (; r != NULL && *set != NULL; set++)
		if (strcmp(r, *set) == 0)
			return (1);
	return (0);
}

/* A reason's R_* bits (NULL: none). */
static unsigned
reason_test(const char *r)
{
	static const char *const osync[] = {
		TR_GO_REASON_CHAN_SEND, TR_GO_REASON_CHAN_RECV,
		TR_GO_REASON_SELECT, TR_GO_REASON_SYNC, TR_GO_REASON_COND,
		TR_GO_REASON_GC, NULL
	};
	static const char *const chan[] = {
		TR_GO_REASON_CHAN_SEND, TR_GO_REASON_CHAN_RECV,
		TR_GO_REASON_SELECT, NULL
	};
	static const char *const wake[] = {
		TR_GO_REASON_CREATED, "unblocked", NULL
	};
	static const char *const wsync[] = {
		TR_GO_REASON_SYNC, TR_GO_REASON_COND, NULL
	};
	unsigned	f = 0;

	if (r == NULL)
		return (0);
	f |= in_set(r, wake) ? R_WAKE : 0;
	f |= in_set(r, osync) ? R_OSYNC : 0;
	f |= in_set(r, chan) ? R_CHAN : 0;
	f |= in_set(r, wsync) ? R_WSYNC : 0;
	f |= strcmp(r, TR_GO_REASON_NET) == 0 ? R_NET : 0;
	f |= strcmp(r, TR_GO_REASON_SYSCALL) == 0 ? R_SYSCALL : 0;
	f |= strcmp(r, TR_GO_REASON_SYNC) == 0 ? R_SYNC : 0;
	f |= strcmp(r, TR_GO_REASON_SLEEP) == 0 ? R_SLEEP : 0;
	f |= strcmp(r, "unblocked") == 0 ? R_UNBLOCKED : 0;
	return (f);
}

/*
 * The R_* bits of reason 'r', the string of category 'cat' (the same
 * string each time, borrowed until tr_dsched_write()).
 */
static unsigned
rflags(struct tr_dsched *s, int64_t cat, const char *r)
{
	struct rcache	*c = &s->rc[(uint64_t)cat % NRCACHE];

	if (c->cat != cat || c->r != r) {
		c->cat = cat;
		c->r = r;
		c->f = reason_test(r);
	}
	return (c->f);
}

/* The old format's rules: each state on its own (blocked.h). */
static void
old_state(struct tr_dsched *s, int cls, unsigned rf, int64_t cs,
    int64_t ts, int64_t dur)
{
	static const int	 wake[2] = { TR_DB_KIND_SCHED, TR_DB_KIND_ALL };
	int			 k[4], n = 0;

	if (cls == TR_DSCHED_RUNNABLE) {
		if (rf & R_WAKE)
			charges(s, 0, wake, 2, cs, ts, ts + dur);
		return;
	}
	if (cls != TR_DSCHED_BLOCKED)
		return;
	k[n++] = TR_DB_KIND_ALL;
	if (rf & R_OSYNC)
		k[n++] = TR_DB_KIND_SYNC;
	if (rf & R_CHAN)
		k[n++] = TR_DB_KIND_CHAN;
	if (rf & R_NET)
		k[n++] = TR_DB_KIND_NET;
	else if (rf & R_SYSCALL)
		k[n++] = TR_DB_KIND_SYSCALL;
	else if (rf & R_SYNC)
		k[n++] = TR_DB_KIND_MUTEX;
	else if (rf & R_SLEEP)
		k[n++] = TR_DB_KIND_SLEEP;
	charges(s, 0, k, n, cs, ts, ts + dur);
}

/* The hash of a cell's key, where it goes in 'map' (probed linearly). */
static uint64_t
cell_slot(const struct tr_imap *map, int64_t bin, int64_t cat, int64_t grp,
    int b, struct cell **found)
{
	int64_t		 key[4];
	uint64_t	 h;
	struct cell	*c;

	key[0] = bin;
	key[1] = cat;
	key[2] = grp;
	key[3] = b;
	h = tr_hash64(key, sizeof key);
	while ((c = tr_imap_get(map, h)) != NULL &&
	    (c->bin != bin || c->cat != cat || c->grp != grp ||
	    c->bucket != b))
		h++;
	*found = c;
	return (h);
}

/* The cell of (second, category, creation stack, bucket), made when new. */
static struct cell *
cell_get(struct tr_dsched *s, int64_t bin, int64_t cat, int64_t grp, int b,
    const char *reason, int64_t dur)
{
	uint64_t	 h;
	struct cell	*c, **slot;

	slot = &s->lc[cslot((int64_t)((uint64_t)cat ^ (uint64_t)grp << 20), bin,
	    b)];
	if ((c = *slot) != NULL && c->bin == bin && c->cat == cat &&
	    c->grp == grp && c->bucket == b)
		return (c);
	/* A second already written: the tables are computed again. */
	if (bin < s->lat_fin)
		s->late = 1;
	h = cell_slot(&s->cells, bin, cat, grp, b, &c);
	if (c == NULL) {
		c = tr_xcalloc(1, sizeof *c);
		c->bin = bin;
		c->cat = cat;
		c->grp = grp;
		c->bucket = b;
		c->reason = reason;
		c->min = dur;
		tr_imap_put(&s->cells, h, c);
	}
	*slot = c;
	return (c);
}

static void
lat_add(struct tr_dsched *s, struct dg *g, int64_t ts, int64_t dur,
    int64_t cat, const char *reason)
{
	struct cell	*c;

	c = cell_get(s, sec_of(ts), cat, g->grp, tr_derived_lat_bucket(dur),
	    reason, dur);
	if (dur < c->min)
		c->min = dur;
	c->n++;
	c->ns += dur;
	if (dur > c->max)
		c->max = dur;
	if (dur < TR_DERIVED_LAT_LONG)
		return;
	if (s->nl == s->capl) {
		s->capl = s->capl ? 2 * s->capl : 1024;
		s->l = tr_xrealloc(s->l, s->capl * sizeof *s->l);
	}
	s->l[s->nl].ts = ts;
	s->l[s->nl].dur = dur;
	s->l[s->nl].track = g->track;
	s->l[s->nl++].reason = reason;
}

/*
 * Goroutine g's record of second 'sec', made when new: its records are
 * in the order of their seconds, and its states come in theirs, so the
 * one wanted is most often the last.
 */
static struct wsec *
wsec_get(struct dg *g, int64_t sec)
{
	size_t	i = g->nw;

	while (i > 0 && g->w[i - 1].sec > sec)
		i--;
	if (i > 0 && g->w[i - 1].sec == sec)
		return (&g->w[i - 1]);
	if (g->nw == g->capw) {
		g->capw = g->capw ? 2 * g->capw : 4;
		g->w = tr_xrealloc(g->w, g->capw * sizeof *g->w);
	}
	memmove(&g->w[i + 1], &g->w[i], (g->nw - i) * sizeof *g->w);
	g->nw++;
	memset(&g->w[i], 0, sizeof g->w[i]);
	g->w[i].sec = sec;
	g->w[i].track = g->track;
	return (&g->w[i]);
}

/*
 * go_wait_sec: a sync wait's time in each second it spans, a channel
 * wait's whole length in the second where it ends.
 */
static void
wait_add(struct dg *g, unsigned rf, int64_t ts, int64_t dur)
{
	int64_t	e = ts + dur, k, a, b;

	if (dur <= 0)
		return;
	if (rf & R_CHAN) {
		wsec_get(g, sec_of(e))->chan += dur;
		return;
	}
	if (!(rf & R_WSYNC))
		return;
	for (k = sec_of(ts); k <= sec_of(e - 1); k++) {
		a = k * TR_DERIVED_LAT_BIN;
		b = a + TR_DERIVED_LAT_BIN;
		wsec_get(g, k)->sync += (e < b ? e : b) - (ts > a ? ts : a);
	}
}

static void
mwake_add(struct tr_dsched *s, int64_t end, int64_t waker, int64_t cs,
    int64_t bcs, int64_t dur)
{
	int64_t		 key[4];
	uint64_t	 h;
	struct mwake	*m;

	key[0] = waker;
	key[1] = cs;
	key[2] = bcs;
	key[3] = sec_of(end);
	h = tr_hash64(key, sizeof key);
	while ((m = tr_imap_get(&s->wakers, h)) != NULL &&
	    (m->waker != waker || m->cs != cs || m->bcs != bcs ||
	    m->sec != key[3]))
		h++;
	if (m == NULL) {
		m = tr_xcalloc(1, sizeof *m);
		m->sec = key[3];
		m->waker = waker;
		m->cs = cs;
		m->bcs = bcs;
		tr_imap_put(&s->wakers, h, m);
	}
	m->n++;
	m->ns += dur;
}

int
tr_derived_waker(const char *a, size_t len, int64_t *goid)
{
	static const char	key[] = "\"waker\":";
	size_t			i;

	for (i = 0; a != NULL && i + sizeof key - 1 < len; i++) {
		if (memcmp(a + i, key, sizeof key - 1) != 0)
			continue;
		i += sizeof key - 1;
		if (a[i] < '0' || a[i] > '9')
			return (0);
		*goid = 0;
		while (i < len && a[i] >= '0' && a[i] <= '9')
			*goid = *goid * 10 + (a[i++] - '0');
		return (1);
	}
	return (0);
}

/*
 * A mutex wait (the runtime's "sync" reason) is ended by the goroutine
 * that unblocked it: the waker of the runnable state that follows it.
 */
static void
mutex_wait(struct tr_dsched *s, struct dg *g, int cls, unsigned rf,
    int64_t ts, int64_t dur, int64_t cs, const char *args, size_t args_len)
{
	int64_t	waker;

	if (g->mu_dur > 0) {
		if (cls == TR_DSCHED_RUNNABLE && ts == g->mu_end &&
		    (rf & R_UNBLOCKED) &&
		    tr_derived_waker(args, args_len, &waker) && waker > 0)
			mwake_add(s, g->mu_end, waker, cs > 0 ? cs : 0,
			    g->mu_cs, g->mu_dur);
		else
			mwake_add(s, g->mu_end, 0, 0, g->mu_cs, g->mu_dur);
		g->mu_dur = 0;
	}
	if (cls == TR_DSCHED_BLOCKED && dur > 0 && (rf & R_SYNC)) {
		g->mu_end = ts + dur;
		g->mu_dur = dur;
		g->mu_cs = cs > 0 ? cs : 0;
	}
}

int
tr_dsched_gen_state(int cls, const char *reason)
{
	return (cls == TR_DSCHED_RUNNING ? G_RUNNING :
	    cls == TR_DSCHED_RUNNABLE ? G_RUNNABLE : reason != NULL &&
	    strcmp(reason, TR_GO_REASON_SYSCALL) == 0 ? G_SYSCALL : G_WAITING);
}

void
tr_dsched_state(struct tr_dsched *s, int64_t track_id, int64_t ts,
    int64_t dur, int cls, int64_t cat, const char *reason, int64_t cs,
    const char *args, size_t args_len, int unfinished)
{
	struct dg	*g;
	const char	*r;
	size_t		 rn;
	unsigned	 rf;
	struct open	*o;
	unsigned	 todo;
	int		 gst, m;

	/* A goroutine's states come together. */
	if ((g = s->last) == NULL || g->track != track_id) {
		struct dg	**slot = &s->dc[(uint64_t)track_id &
				    (NDCACHE - 1)];

		if ((g = *slot) == NULL || g->track != track_id) {
			if ((g = tr_imap_get(&s->gs, (uint64_t)track_id)) ==
			    NULL)
				return;
			*slot = g;
		}
		s->last = g;
	}
	if (cls == TR_DSCHED_RUNNING && ts < g->fr)
		g->fr = ts;
	rf = rflags(s, cat, reason);
	if (s->clip == NULL) {
		if (cls == TR_DSCHED_RUNNABLE)
			lat_add(s, g, ts, dur, cat, reason);
		if (cls == TR_DSCHED_BLOCKED)
			wait_add(g, rf, ts, dur);
		if (cls != TR_DSCHED_OTHER)
			mutex_wait(s, g, cls, rf, ts, dur, cs, args,
			    args_len);
	}
	if (cs <= 0)
		return;
	/* The old format's intervals. */
	if (!unfinished && dur > 0)
		old_state(s, cls, rf, cs, ts, dur);
	/* The generation format's: a transition with a stack. */
	gst = cls == TR_DSCHED_RUNNING ? G_RUNNING :
	    cls == TR_DSCHED_RUNNABLE ? G_RUNNABLE :
	    rf & R_SYSCALL ? G_SYSCALL : G_WAITING;
	/*
	 * The machines whose state this is not close; the others open.  By
	 * the bits of the open ones and of each state's machines, not by a
	 * test of all NM per state (40M instructions on a 700k-state trace);
	 * the closes, which charge, go in the order of m as before.
	 */
	for (todo = g->open & ~m_in[gst]; todo != 0; todo &= todo - 1) {
		m = low_bit(todo);
		o = &g->m[m];
		if (g->fr != INT64_MAX && g->fr <= o->b)
			gen_interval(s, m, o->b, ts, o->cs, INT64_MAX);
		else {
			/* The first run may be fed later. */
			g->pend = tr_xrealloc(g->pend, (g->npend + 1) *
			    sizeof *g->pend);
			g->pend[g->npend].b = o->b;
			g->pend[g->npend].e = ts;
			g->pend[g->npend].cs = o->cs;
			g->pend[g->npend++].m = m;
		}
		o->cs = 0;
		g->open &= ~(1u << m);
	}
	if ((todo = m_in[gst] & ~g->open) == 0)
		return;
	json_reason(args, args_len, &r, &rn);
	for (; todo != 0; todo &= todo - 1) {
		m = low_bit(todo);
		if (!m_passes(m, r, rn))
			continue;
		/*
		 * Opens at the first passing transition of a run of
		 * transitions into the state: one still open stays.
		 */
		g->m[m].b = ts;
		g->m[m].cs = cs;
		g->open |= 1u << m;
	}
}

void
tr_dsched_set_clip(struct tr_dsched *s, tr_dsched_clip_fn *fn, void *arg)
{
	s->clip = fn;
	s->clip_arg = arg;
}

void
tr_dsched_first_run(struct tr_dsched *s, int64_t track_id, int64_t ts)
{
	struct dg	*g;

	if ((g = tr_imap_get(&s->gs, (uint64_t)track_id)) != NULL &&
	    ts < g->fr)
		g->fr = ts;
}

int
tr_dsched_open(struct tr_dsched *s, int64_t track_id, int64_t before)
{
	struct dg	*g;
	int		 m;

	if ((g = tr_imap_get(&s->gs, (uint64_t)track_id)) == NULL)
		return (0);
	for (m = 0; m < NM; m++)
		if (g->m[m].cs != 0 && g->m[m].b < before)
			return (1);
	return (0);
}

/* The intervals of g that waited for its first run, charged. */
static void
dg_pend(struct tr_dsched *s, struct dg *g)
{
	size_t	j;

	for (j = 0; j < g->npend; j++)
		gen_interval(s, g->pend[j].m, g->pend[j].b, g->pend[j].e,
		    g->pend[j].cs, g->fr);
	g->npend = 0;
}

/* A mutex wait of g still open (no one ended it), charged to no waker. */
static void
dg_mutex_open(struct tr_dsched *s, struct dg *g)
{
	if (g->mu_dur > 0)
		mwake_add(s, g->mu_end, 0, 0, g->mu_cs, g->mu_dur);
	g->mu_dur = 0;
}

void
tr_dsched_finish(struct tr_dsched *s)
{
	uint64_t	*keys;
	size_t		 n, i;

	keys = tr_imap_keys(&s->gs, &n);
	for (i = 0; i < n; i++)
		dg_pend(s, tr_imap_get(&s->gs, keys[i]));
	free(keys);
}

static int	wsec_row(struct tr_dsched *, struct tr_db *,
		    const struct wsec *, struct tr_error *);

int
tr_dsched_ended(struct tr_dsched *s, struct tr_db *db, int64_t track_id,
    struct tr_error *err)
{
	struct dg	**slot = &s->dc[(uint64_t)track_id & (NDCACHE - 1)];
	struct dg	*g;
	size_t		 j;
	int		 rc = 0;

	if ((g = tr_imap_del(&s->gs, (uint64_t)track_id)) == NULL)
		return (0);
	/* What tr_dsched_finish() and write_wakers() would do at the end. */
	dg_pend(s, g);
	dg_mutex_open(s, g);
	/* Its go_wait_sec rows: no wait of it is to come. */
	for (j = 0; j < g->nw && rc == 0; j++)
		rc = wsec_row(s, db, &g->w[j], err);
	if (s->last == g)
		s->last = NULL;
	if (*slot == g)
		*slot = NULL;
	dg_free(g);
	return (rc);
}

void
tr_dsched_charges(struct tr_dsched *s, int gen, int kind,
    void (*fn)(void *, int64_t, int64_t, int64_t), void *arg)
{
	uint64_t	*keys;
	struct charge	*c;
	size_t		 n, i;

	keys = tr_imap_keys(&s->charges, &n);
	for (i = 0; i < n; i++) {
		c = tr_imap_get(&s->charges, keys[i]);
		if (c->rules == (gen != 0) && c->kind == kind)
			fn(arg, c->cs, c->n, c->ns);
	}
	free(keys);
}

/* --- writing --------------------------------------------------------- */

/* The charges of 'map' into 'table' (go_blocked_bin when 'binned'). */
static int
write_kinds(struct tr_dsched *s, struct tr_db *db, struct tr_imap *map,
    const char *table, int binned, struct tr_error *err)
{
	sqlite3_stmt	*st;
	uint64_t	*keys;
	struct charge	*c;
	char		*sql;
	size_t		 n, i;
	int		 rc = SQLITE_DONE, k;

	sql = tr_xasprintf("INSERT INTO %s VALUES (?1, ?2, ?3, ?4, ?5, ?6%s)",
	    table, binned ? ", ?7" : "");
	st = tr_db_prepare(db, sql, err);
	free(sql);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->source_id);
	keys = tr_imap_keys(map, &n);
	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		c = tr_imap_get(map, keys[i]);
		sqlite3_bind_text(st, 2, c->rules ? "gen" : "old", -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(st, 3, tr_blocked_kind_stems[c->kind], -1,
		    SQLITE_STATIC);
		k = 4;
		if (binned)
			sqlite3_bind_int64(st, k++, c->sec *
			    TR_DERIVED_LAT_BIN);
		sqlite3_bind_int64(st, k++, c->cs);
		sqlite3_bind_int64(st, k++, c->n);
		sqlite3_bind_int64(st, k, c->ns);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	free(keys);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, binned ? "cannot write "
		    "go_blocked_bin" : "cannot write go_blocked_stack"));
	return (0);
}

static int
write_charges(struct tr_dsched *s, struct tr_db *db, struct tr_error *err)
{
	tr_dsched_finish(s);
	if (write_kinds(s, db, &s->charges, "go_blocked_stack", 0, err) != 0)
		return (-1);
	return (write_kinds(s, db, &s->bcells, "go_blocked_bin", 1, err));
}

static void
bind_reason(sqlite3_stmt *st, int col, const char *r)
{
	if (r != NULL)
		sqlite3_bind_text(st, col, r, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, col);
}

/* The key's order of go_sched_long: length, start, track. */
static int
cmp_lng(const void *a, const void *b)
{
	const struct lng	*x = a, *y = b;

	if (x->dur != y->dur)
		return (x->dur < y->dur ? -1 : 1);
	if (x->ts != y->ts)
		return (x->ts < y->ts ? -1 : 1);
	return (x->track < y->track ? -1 : x->track > y->track);
}

/* The go_sched_long rows that wait (in their key's order), and no more. */
static int
write_long(struct tr_dsched *s, struct tr_db *db, struct tr_error *err)
{
	sqlite3_stmt	*st;
	size_t		 i;
	int		 rc = SQLITE_DONE;

	if (s->nl == 0)
		return (0);
	if (s->nl > 1)
		qsort(s->l, s->nl, sizeof *s->l, cmp_lng);
	st = tr_db_prepare(db, "INSERT INTO go_sched_long VALUES (?1, ?2, ?3, "
	    "?4, ?5)", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->source_id);
	for (i = 0; i < s->nl && rc == SQLITE_DONE; i++) {
		sqlite3_bind_int64(st, 2, s->l[i].ts);
		sqlite3_bind_int64(st, 3, s->l[i].dur);
		sqlite3_bind_int64(st, 4, s->l[i].track);
		bind_reason(st, 5, s->l[i].reason);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot write go_sched_long"));
	s->nl = 0;
	return (0);
}

int64_t	tr_dsched_long_spills;

int
tr_dsched_spill(struct tr_dsched *s, struct tr_db *db, struct tr_error *err)
{
	if (s->nl < s->lchunk)
		return (0);
	tr_dsched_long_spills++;
	return (write_long(s, db, err));
}

int64_t	tr_dsched_lat_early;

/*
 * The go_sched_lat rows of the cells of seconds below 'sec' (all:
 * INT64_MAX), which are freed; the others stay, in a map made again
 * (a cell's place in it depends on those before it in its probe).
 */
static int
write_cells(struct tr_dsched *s, struct tr_db *db, int64_t sec,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	uint64_t	*keys;
	struct tr_imap	 keep;
	struct cell	*c, *o;
	size_t		 n, i;
	int		 rc = SQLITE_DONE;

	st = tr_db_prepare(db, "INSERT INTO go_sched_lat VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6, ?7, ?8, ?9)", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->source_id);
	tr_imap_init(&keep);
	keys = tr_imap_keys(&s->cells, &n);
	for (i = 0; i < n; i++) {
		c = tr_imap_get(&s->cells, keys[i]);
		if (c->bin >= sec || rc != SQLITE_DONE) {
			tr_imap_put(&keep, cell_slot(&keep, c->bin, c->cat,
			    c->grp, c->bucket, &o), c);
			continue;
		}
		sqlite3_bind_int64(st, 2, c->bin * TR_DERIVED_LAT_BIN);
		bind_reason(st, 3, c->reason);
		if (c->grp > 0)
			sqlite3_bind_int64(st, 4, c->grp);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_int(st, 5, c->bucket);
		sqlite3_bind_int64(st, 6, c->n);
		sqlite3_bind_int64(st, 7, c->ns);
		sqlite3_bind_int64(st, 8, c->min);
		sqlite3_bind_int64(st, 9, c->max);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		free(c);
		if (sec != INT64_MAX)
			tr_dsched_lat_early++;
	}
	free(keys);
	tr_imap_release(&s->cells);
	s->cells = keep;
	memset(s->lc, 0, sizeof s->lc);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot write go_sched_lat"));
	return (0);
}

int
tr_dsched_watermark(struct tr_dsched *s, struct tr_db *db, int64_t ts,
    struct tr_error *err)
{
	int64_t	sec = sec_of(ts);

	/* No runnable state to come starts before ts: its second's cells. */
	if (s->late || s->clip != NULL || sec <= s->lat_fin)
		return (0);
	s->lat_fin = sec;
	if (s->cells.count == 0)
		return (0);
	return (write_cells(s, db, sec, err));
}

int
tr_dsched_late(const struct tr_dsched *s)
{
	return (s->late);
}

static int
write_lat(struct tr_dsched *s, struct tr_db *db, struct tr_error *err)
{
	if (write_cells(s, db, INT64_MAX, err) != 0)
		return (-1);
	return (write_long(s, db, err));
}

static int
cmp_wsec(const void *a, const void *b)
{
	const struct wsec	*x = *(struct wsec *const *)a;
	const struct wsec	*y = *(struct wsec *const *)b;

	if (x->sec != y->sec)
		return (x->sec < y->sec ? -1 : 1);
	return (x->track < y->track ? -1 : x->track > y->track);
}

/* The go_wait_sec row of 'w' (the insert prepared the first time). */
static int
wsec_row(struct tr_dsched *s, struct tr_db *db, const struct wsec *w,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (s->wst == NULL) {
		s->wst = tr_db_prepare(db, "INSERT INTO go_wait_sec VALUES "
		    "(?1, ?2, ?3, ?4, ?5)", err);
		if (s->wst == NULL)
			return (-1);
		sqlite3_bind_int64(s->wst, 1, s->source_id);
	}
	st = s->wst;
	sqlite3_bind_int64(st, 2, w->sec * TR_DERIVED_LAT_BIN);
	sqlite3_bind_int64(st, 3, w->track);
	sqlite3_bind_int64(st, 4, w->sync);
	sqlite3_bind_int64(st, 5, w->chan);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot write go_wait_sec"));
	return (0);
}

/* The rows of the goroutines still held (the others went as they ended). */
static int
write_waits(struct tr_dsched *s, struct tr_db *db, struct tr_error *err)
{
	uint64_t	 *keys;
	struct wsec	**v;
	struct dg	 *g;
	size_t		  n, i, j, nv = 0;
	int		  rc = 0;

	keys = tr_imap_keys(&s->gs, &n);
	for (i = 0; i < n; i++)
		nv += ((struct dg *)tr_imap_get(&s->gs, keys[i]))->nw;
	v = tr_xcalloc(nv + 1, sizeof *v);
	for (i = 0, nv = 0; i < n; i++) {
		g = tr_imap_get(&s->gs, keys[i]);
		for (j = 0; j < g->nw; j++)
			v[nv++] = &g->w[j];
	}
	free(keys);
	/* In the key's order. */
	if (nv > 1)
		qsort(v, nv, sizeof *v, cmp_wsec);
	for (i = 0; i < nv && rc == 0; i++)
		rc = wsec_row(s, db, v[i], err);
	free(v);
	return (rc);
}

static void
bind_id(sqlite3_stmt *st, int col, int64_t v)
{
	if (v > 0)
		sqlite3_bind_int64(st, col, v);
	else
		sqlite3_bind_null(st, col);
}

static int
write_wakers(struct tr_dsched *s, struct tr_db *db, struct tr_error *err)
{
	sqlite3_stmt	*st;
	uint64_t	*keys;
	struct mwake	*m;
	size_t		 n, i;
	int		 rc = SQLITE_DONE;

	/* A wait still open at the end: no one ended it. */
	keys = tr_imap_keys(&s->gs, &n);
	for (i = 0; i < n; i++)
		dg_mutex_open(s, tr_imap_get(&s->gs, keys[i]));
	free(keys);
	st = tr_db_prepare(db, "INSERT INTO go_mutex_waker VALUES (?1, ?2, "
	    "?3, ?4, ?5, ?6, ?7)", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->source_id);
	keys = tr_imap_keys(&s->wakers, &n);
	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		m = tr_imap_get(&s->wakers, keys[i]);
		sqlite3_bind_int64(st, 2, m->sec * TR_DERIVED_LAT_BIN);
		bind_id(st, 3, m->waker);
		bind_id(st, 4, m->cs);
		bind_id(st, 5, m->bcs);
		sqlite3_bind_int64(st, 6, m->n);
		sqlite3_bind_int64(st, 7, m->ns);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	free(keys);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot write go_mutex_waker"));
	return (0);
}

int
tr_dsched_write(struct tr_dsched *s, struct tr_db *db, struct tr_error *err)
{
	if (write_charges(s, db, err) != 0 || write_lat(s, db, err) != 0 ||
	    write_waits(s, db, err) != 0 || write_wakers(s, db, err) != 0)
		return (-1);
	return (0);
}
