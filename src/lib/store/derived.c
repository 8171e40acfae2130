/*
 * Derived data of Go execution traces (see derived.h and trace-store(5),
 * "Derived tables"): one accumulator, fed by the store writer as a Go
 * trace is imported, or from slice_run when a store is migrated or a
 * source is moved by trace-align; and the readers the queries use.
 */
#include "config.h"
#include "store/derived.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/names.h"
#include "base/util.h"
#include "store/writer.h"

const char *const tr_dk_names[TR_DK_COUNT] = {
	"running", "runnable", "chan", "sync", "syscall", "net", "sleep",
	"other", "gc", "stw", "assist", "sweep", "proc"
};

#define DK_COLS \
"  running_ns INTEGER NOT NULL,\n" \
"  runnable_ns INTEGER NOT NULL,\n" \
"  chan_ns INTEGER NOT NULL,\n" \
"  sync_ns INTEGER NOT NULL,\n" \
"  syscall_ns INTEGER NOT NULL,\n" \
"  net_ns INTEGER NOT NULL,\n" \
"  sleep_ns INTEGER NOT NULL,\n" \
"  other_ns INTEGER NOT NULL,\n"

/*
 * The table of schema version 4: go_span, a row per Go trace task and
 * region (the go_task and go_region views without the JSON).  Since
 * version 9 a table with a rowid, in the order the rows are written (by
 * slice id, as the import's writer thread gives the ids), where it was a
 * WITHOUT ROWID table keyed by (source_id, kind, name_id, ts, id): its
 * rows were then written in key order after the whole trace was read,
 * about a third of a Go import's time, by the importer's thread alone.
 * The spans of a name in time order are go_span_pack's.  Since version
 * 10 a view of the slices (store/db.c): this table is made only by the
 * migrations' steps from versions 3 to 9, and dropped by the last.
 */
#define DERIVED_V4 \
"CREATE TABLE go_span (\n" \
"  source_id INTEGER NOT NULL REFERENCES source,\n" \
"  kind TEXT NOT NULL,\n" \
"  name_id INTEGER NOT NULL REFERENCES str,\n" \
"  ts INTEGER NOT NULL,\n" \
"  id INTEGER NOT NULL,\n" \
"  dur INTEGER NOT NULL,\n" \
"  task_id INTEGER NOT NULL,\n" \
"  goid INTEGER,\n" \
"  depth INTEGER,\n" \
"  callsite_id INTEGER REFERENCES callsite,\n" \
"  start_unknown INTEGER NOT NULL,\n" \
"  unfinished INTEGER NOT NULL\n" \
");\n"

const char tr_derived_schema[] =
"CREATE TABLE go_bin (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  ts INTEGER NOT NULL,\n"
"  dur INTEGER NOT NULL,\n"
DK_COLS
"  gc_ns INTEGER NOT NULL,\n"
"  stw_ns INTEGER NOT NULL,\n"
"  assist_ns INTEGER NOT NULL,\n"
"  sweep_ns INTEGER NOT NULL,\n"
"  proc_ns INTEGER NOT NULL,\n"
"  idle_ns INTEGER NOT NULL,\n"
"  runnable_peak REAL NOT NULL,\n"
"  created INTEGER NOT NULL,\n"
"  ended INTEGER NOT NULL,\n"
"  cpu_samples INTEGER NOT NULL,\n"
"  PRIMARY KEY (source_id, ts)\n"
") WITHOUT ROWID;\n"
"CREATE TABLE go_summary (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  track_id INTEGER PRIMARY KEY REFERENCES track,\n"
"  goid INTEGER NOT NULL,\n"
"  first_ts INTEGER NOT NULL,\n"
"  last_ts INTEGER NOT NULL,\n"
"  exec_ns INTEGER NOT NULL,\n"
"  sched_wait_ns INTEGER NOT NULL,\n"
"  chan_ns INTEGER NOT NULL,\n"
"  sync_ns INTEGER NOT NULL,\n"
"  syscall_ns INTEGER NOT NULL,\n"
"  net_ns INTEGER NOT NULL,\n"
"  sleep_ns INTEGER NOT NULL,\n"
"  other_ns INTEGER NOT NULL,\n"
"  assist_ns INTEGER NOT NULL,\n"
"  states INTEGER NOT NULL,\n"
"  ended INTEGER NOT NULL\n"
");\n"
"CREATE INDEX go_summary_source ON go_summary (source_id, goid);\n"
"CREATE TABLE go_state_stack (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  state TEXT NOT NULL,\n"
"  reason TEXT,\n"
"  callsite_id INTEGER REFERENCES callsite,\n"
"  count INTEGER NOT NULL,\n"
"  total_ns INTEGER NOT NULL,\n"
"  max_ns INTEGER NOT NULL\n"
");\n"
"CREATE INDEX go_state_stack_source ON go_state_stack (source_id, state);\n";

const char tr_derived_schema_v4[] = DERIVED_V4;

/* --- names ----------------------------------------------------------- */

/* What a slice's name says, on the tracks we read. */
enum {
	N_NONE, N_RUNNING, N_RUNNABLE, N_BLOCKED, N_GC, N_SWEEP, N_ASSIST
};

struct name {
	char		*s;
	int		 cls;		/* N_* */
	int		 kind;		/* as a blocking reason: TR_DK_* */
	int		 span;		/* as a category: 1 region, 2 task */
};

static int
reason_kind(const char *s)
{
	static const struct {
		const char	*s;
		int		 kind;
	} r[] = {
		{ TR_GO_REASON_CHAN_RECV, TR_DK_CHAN },
		{ TR_GO_REASON_CHAN_SEND, TR_DK_CHAN },
		{ TR_GO_REASON_SELECT, TR_DK_CHAN },
		{ TR_GO_REASON_SYNC, TR_DK_SYNC },
		{ TR_GO_REASON_COND, TR_DK_SYNC },
		{ TR_GO_REASON_SYSCALL, TR_DK_SYSCALL },
		{ TR_GO_REASON_NET, TR_DK_NET },
		{ TR_GO_REASON_SLEEP, TR_DK_SLEEP },
	};
	size_t	i;

	for (i = 0; i < sizeof r / sizeof r[0]; i++)
		if (strcmp(s, r[i].s) == 0)
			return (r[i].kind);
	return (TR_DK_OTHER);
}

static int
name_cls(const char *s)
{
	if (strcmp(s, TR_GO_STATE_RUNNING) == 0)
		return (N_RUNNING);
	if (strcmp(s, TR_GO_STATE_RUNNABLE) == 0)
		return (N_RUNNABLE);
	if (strcmp(s, TR_GO_STATE_BLOCKED) == 0)
		return (N_BLOCKED);
	if (strcmp(s, TR_GO_GC) == 0)
		return (N_GC);
	if (strcmp(s, TR_GO_SWEEP) == 0)
		return (N_SWEEP);
	if (strcmp(s, TR_GO_ASSIST) == 0)
		return (N_ASSIST);
	return (N_NONE);
}

/*
 * The strings of str ids, read from the store as they are met; the ids
 * below NSMALL (the state names and reasons come early) in an array.
 */
#define NSMALL	4096

struct names {
	struct tr_db	*db;
	struct tr_imap	 map;
	sqlite3_stmt	*st;
	struct name	*small[NSMALL];
};

static void
names_init(struct names *n, struct tr_db *db)
{
	memset(n, 0, sizeof *n);
	n->db = db;
	tr_imap_init(&n->map);
}

static void
name_free(void *p)
{
	struct name	*nm = p;

	if (nm != NULL)
		free(nm->s);
	free(nm);
}

static void
names_release(struct names *n)
{
	tr_imap_free(&n->map, name_free);
	sqlite3_finalize(n->st);
	n->st = NULL;
}

static const struct name *
names_get(struct names *n, int64_t id, struct tr_error *err)
{
	static const struct name	none = { NULL, N_NONE, TR_DK_OTHER, 0 };
	struct name			*nm;
	const unsigned char		*s;
	int				 rc;

	if (id <= 0)
		return (&none);
	if (id < NSMALL && n->small[id] != NULL)
		return (n->small[id]);
	if ((nm = tr_imap_get(&n->map, (uint64_t)id)) != NULL)
		return (nm);
	if (n->st == NULL && (n->st = tr_db_prepare(n->db,
	    "SELECT s FROM str WHERE id = ?1", err)) == NULL)
		return (NULL);
	sqlite3_bind_int64(n->st, 1, id);
	rc = sqlite3_step(n->st);
	s = rc == SQLITE_ROW ? sqlite3_column_text(n->st, 0) : NULL;
	nm = tr_xcalloc(1, sizeof *nm);
	nm->s = tr_xstrdup(s ? (const char *)s : "");
	nm->cls = name_cls(nm->s);
	nm->kind = reason_kind(nm->s);
	nm->span = strcmp(nm->s, TR_GO_CAT_REGION) == 0 ? 1 :
	    strcmp(nm->s, TR_GO_CAT_TASK) == 0 ? 2 : 0;
	sqlite3_reset(n->st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		name_free(nm);
		tr_db_error(n->db, err, "cannot read strings");
		return (NULL);
	}
	tr_imap_put(&n->map, (uint64_t)id, nm);
	if (id < NSMALL)
		n->small[id] = nm;
	return (nm);
}

/* --- the accumulator ------------------------------------------------- */

enum { T_GOROUTINE = 1, T_GC, T_STW, T_PROC, T_TASK };

struct span;
struct spans;
/* A live span waiting for its slice's id (live_span(), live_run()). */
struct wspan {
	int64_t		 k;		/* the slice's place in its track */
	int64_t		 name_id, ts, dur, goid;
	unsigned char	 task, start_unknown, unfinished;
};
struct trk;
struct tr_derived;
static void	spans_free(struct spans *);
static int	live_finish(struct tr_derived *, struct tr_error *);
static int	summary_row(struct tr_derived *, const struct trk *,
		    struct tr_error *);
static int	json_true(const char *, size_t, const char *);
static int	live_span(struct tr_derived *, struct trk *, int64_t,
		    int64_t, int64_t, int64_t, const char *, size_t, int,
		    struct tr_error *);

struct gsum {
	int64_t		 goid;
	int64_t		 first, last;
	int64_t		 ns[TR_DK_GOROUTINE];
	int64_t		 assist;
	int64_t		 states;
	int		 unfinished;	/* its last state was */
};

struct trk {
	int		 type;		/* T_* */
	int64_t		 id;
	struct gsum	*g;		/* goroutines */
	/*
	 * A go-task track, with live spans (tr_derived_observe()): its ref
	 * and at_start, its slices seen and given ids (run hook), and its
	 * spans waiting for their ids, with their place among its slices.
	 */
	int64_t		 ref, seen, given;
	int		 at_start;
	struct wspan	*wait;
	size_t		 nwait, capwait;
};

/* A goroutine's track and its summary, allocated together. */
struct trk_g {
	struct trk	 t;
	struct gsum	 g;
};

/*
 * Goroutines running and runnable, per millisecond of a bin: for the
 * idle time, which the bin's totals cannot give.
 */
#define FINE		1000000
#define NFINE		(TR_DERIVED_BIN / FINE)

struct fine {
	int64_t		 ns[2];		/* running, runnable */
	int32_t		 cover[2];
};

struct bin {
	struct fine	 f[NFINE];
	int64_t		 ns[TR_DK_COUNT];
	int32_t		 cover[TR_DK_COUNT];	/* whole-bin slices, as a
						   difference array */
	int32_t		 created, ended, samples;
	/*
	 * The runnable states' edges in the bin, for the exact peak: the
	 * offset from the bin's start shifted left by one, | 1 for a
	 * start, so that at one instant the ends sort first.  An end on
	 * the next bin's start is kept here, at offset TR_DERIVED_BIN.
	 */
	uint32_t	*edge;
	uint32_t	 nedge, capedge;
	/* Once final (tr_derived_watermark()): its peak, the count after. */
	int		 final;
	int64_t		 peak, after;
};

struct stack {
	int64_t		 name_id, cat_id, cs;
	int64_t		 n, ns, max;
};

/*
 * At most this many bins (about 3 hours at 10 ms, 400 MB to 800 MB while
 * it is imported): a longer span is refused rather than allocated.
 */
#define MAX_BINS	(1024 * 1024)

#define NCACHE		1024

struct tr_derived {
	struct tr_db	*db;
	int64_t		 source_id;
	struct names	 names;
	struct tr_imap	 tracks;	/* track id -> struct trk */
	struct tr_imap	 goids;		/* goid -> struct trk (goroutines) */
	struct bin	*bins;
	int64_t		 base;		/* bin index of bins[0] */
	size_t		 nbins;
	int64_t		 lo, hi;	/* bin indexes used: [lo, hi] */
	int64_t		 tmin, tmax;	/* goroutine states: first, last */
	int		 any;		/* a Go track was seen */
	struct tr_imap	 stack_map;	/* hash of (name, cat, cs) -> it */
	struct tr_dsched *sched;	/* derived-sched.c's tables */
	/*
	 * Bins below 'fin' are final: their runnable peak is computed and
	 * their edges freed; 'nrbl' is the count runnable at fin's start.
	 * 'late': a runnable state came into a final bin after all (the
	 * watermark was wrong): the tables are then computed again from
	 * the store.
	 */
	int64_t		 fin, nrbl;
	int		 late;
	/*
	 * The spans for go_span_pack from the slice and run hooks as the
	 * import goes, rather than from slice_run at the end (live; NULL:
	 * from slice_run); ntasks: go-task tracks seen.
	 */
	struct spans	*live;
	int64_t		 ntasks;
	/* go_summary's insert, for the goroutines that end as they come. */
	sqlite3_stmt	*sum;
	/*
	 * In front of 'tracks' and 'stack_map' (direct-mapped, by a cheap
	 * hash): the map's lookup is paid when a key is new to the cache.
	 */
	struct trk	*tc[NCACHE];
	struct stack	*sc[NCACHE];
};

struct tr_derived *
tr_derived_new(struct tr_db *db, int64_t source_id)
{
	struct tr_derived	*d = tr_xcalloc(1, sizeof *d);

	d->db = db;
	d->source_id = source_id;
	names_init(&d->names, db);
	tr_imap_init(&d->tracks);
	tr_imap_init(&d->goids);
	tr_imap_init(&d->stack_map);
	d->sched = tr_dsched_new(source_id);
	d->lo = d->tmin = INT64_MAX;
	d->hi = d->tmax = INT64_MIN;
	d->fin = INT64_MIN;
	return (d);
}

static void
trk_free(void *p)
{
	struct trk	*t = p;

	/* (A goroutine's gsum is in its block: struct trk_g.) */
	if (t != NULL)
		free(t->wait);
	free(t);
}

void
tr_derived_free(struct tr_derived *d)
{
	if (d == NULL)
		return;
	names_release(&d->names);
	tr_imap_free(&d->tracks, trk_free);
	tr_imap_release(&d->goids);
	tr_imap_free(&d->stack_map, free);
	if (d->bins != NULL) {
		size_t	i;

		for (i = 0; i < d->nbins; i++)
			free(d->bins[i].edge);
	}
	tr_dsched_free(d->sched);
	free(d->bins);
	spans_free(d->live);
	sqlite3_finalize(d->sum);
	free(d);
}

/* Floor division (times may be negative). */
static int64_t
fdiv(int64_t a, int64_t b)
{
	int64_t	q;

	if (a >= 0 && b > 0)
		return ((int64_t)((uint64_t)a / (uint64_t)b));
	q = a / b;
	return (a % b < 0 ? q - 1 : q);
}

static int64_t
bin_of(int64_t ts)
{
	return (fdiv(ts, TR_DERIVED_BIN));
}

/* The millisecond 'j' (of the store's time) of the bins. */
static struct fine *
fine_at(struct tr_derived *d, int64_t j)
{
	int64_t	b = fdiv(j, NFINE);

	return (&d->bins[b - d->base].f[j - b * NFINE]);
}

/*
 * Add [ts, e) to the milliseconds, for running (0) or runnable (1); 'ia'
 * is the bin of ts.
 */
static void
fine_add(struct tr_derived *d, int k, int64_t ts, int64_t e, int64_t ia)
{
	int64_t	ja = fdiv(ts, FINE), je;

	/* (Most states are inside a millisecond: its bin is ts's.) */
	if (e <= (ja + 1) * FINE) {
		d->bins[ia - d->base].f[ja - ia * NFINE].ns[k] += e - ts;
		return;
	}
	je = fdiv(e - 1, FINE);
	fine_at(d, ja)->ns[k] += (ja + 1) * FINE - ts;
	fine_at(d, je)->ns[k] += e - je * FINE;
	if (je > ja + 1) {
		fine_at(d, ja + 1)->cover[k]++;
		fine_at(d, je)->cover[k]--;
	}
}

static void
edge_grow(struct bin *b)
{
	b->capedge = b->capedge ? b->capedge * 2 : 16;
	b->edge = tr_xrealloc(b->edge, b->capedge * sizeof *b->edge);
}

/* (Inline, two per runnable state; the growth is not.) */
static inline void
edge_add(struct bin *b, uint32_t e)
{
	if (b->nedge == b->capedge)
		edge_grow(b);
	b->edge[b->nedge++] = e;
}

/*
 * Sort v[0..n) ascending: by insertion when short, else by a radix sort
 * of as many 11-bit digits as the largest value has (a bin's edges are
 * below 2^25: three), where qsort() took most of the watermark's time.
 * The digits' counts are made in one pass, before the passes that move
 * the values (four passes of bytes, each counting first, took twice as
 * many instructions).
 */
#define RDIGIT	11
#define RSIZE	(1 << RDIGIT)
static void
u32_sort(uint32_t *v, uint32_t n)
{
	uint32_t	*tmp, *a, *b, *t, max = 0, i, j, x;
	uint32_t	(*cnt)[RSIZE], sum, c;
	int		 sh, d, nd;

	if (n <= 32) {
		for (i = 1; i < n; i++) {
			x = v[i];
			for (j = i; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	for (i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	for (nd = 0; nd * RDIGIT < 32 && (max >> nd * RDIGIT) != 0; nd++)
		;
	/* (Three digits hold any value: all three counted, unrolled.) */
	cnt = tr_xcalloc(3, sizeof *cnt);
	for (i = 0; i < n; i++) {
		cnt[0][v[i] & (RSIZE - 1)]++;
		cnt[1][(v[i] >> RDIGIT) & (RSIZE - 1)]++;
		cnt[2][v[i] >> 2 * RDIGIT]++;
	}
	tmp = tr_xmalloc((size_t)n * sizeof *tmp);
	a = v;
	b = tmp;
	for (d = 0; d < nd; d++) {
		sh = d * RDIGIT;
		for (sum = 0, j = 0; j < RSIZE; j++) {
			c = cnt[d][j];
			cnt[d][j] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[d][(a[i] >> sh) & (RSIZE - 1)]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	if (a != v)
		memcpy(v, a, (size_t)n * sizeof *v);
	free(tmp);
	free(cnt);
}

/*
 * The most goroutines runnable at one instant of bin 'b', which begins
 * with 'n' of them runnable; *n becomes the number at its end.
 */
static int64_t
edge_peak(struct bin *b, int64_t *n)
{
	int64_t		peak = 0, c = *n;
	uint32_t	i, t;

	u32_sort(b->edge, b->nedge);
	if (b->nedge == 0 || b->edge[0] >> 1 > 0)
		peak = c;
	for (i = 0; i < b->nedge; ) {
		t = b->edge[i] >> 1;
		for (; i < b->nedge && b->edge[i] >> 1 == t; i++)
			c += b->edge[i] & 1 ? 1 : -1;
		if (t < TR_DERIVED_BIN && c > peak)
			peak = c;
	}
	*n = c;
	return (peak);
}

/* Make bins [a, b] exist; 0, or -1 with 'err' set for a span too long. */
static int
bins_reach(struct tr_derived *d, int64_t a, int64_t b, struct tr_error *err)
{
	struct bin	*nb;
	int64_t		 lo = a < d->lo ? a : d->lo, hi = b > d->hi ? b : d->hi;
	int64_t		 span, slack, nlo;
	size_t		 n;

	if (d->nbins > 0 && lo >= d->base &&
	    hi < d->base + (int64_t)d->nbins) {
		d->lo = lo;
		d->hi = hi;
		return (0);
	}
	span = hi - lo + 1;
	if (span > MAX_BINS)
		return (tr_error_set(err, TR_EDATA, "%s: the Go trace spans "
		    "more than %d bins of %d ms (from %lld to %lld ns): too "
		    "long for its derived tables", d->db->path, MAX_BINS,
		    TR_DERIVED_BIN / 1000000, (long long)(lo *
		    TR_DERIVED_BIN), (long long)((hi + 1) * TR_DERIVED_BIN)));
	/* Room on both sides: the span grows as slices come. */
	slack = span / 2 + 64;
	if (slack > (MAX_BINS - span) / 2 + 64)
		slack = (MAX_BINS - span) / 2 + 64;
	n = (size_t)(span + 2 * slack);
	nlo = lo - slack;
	nb = tr_xcalloc(n, sizeof *nb);
	if (d->lo <= d->hi)
		memcpy(nb + (d->lo - nlo), d->bins + (d->lo - d->base),
		    (size_t)(d->hi - d->lo + 1) * sizeof *nb);
	free(d->bins);
	d->bins = nb;
	d->base = nlo;
	d->nbins = n;
	d->lo = lo;
	d->hi = hi;
	return (0);
}

/* Add [ts, ts + dur) of kind k to the bins. */
static int
bins_add(struct tr_derived *d, int k, int64_t ts, int64_t dur,
    struct tr_error *err)
{
	int64_t		 e = ts + dur, ia, ie;
	struct bin	*b;

	if (dur <= 0)
		return (0);
	ia = bin_of(ts);
	ie = bin_of(e - 1);
	/* (Inside the bins used so far, as most are: nothing to reach.) */
	if ((ia < d->lo || ie > d->hi) && bins_reach(d, ia, ie, err) != 0)
		return (-1);
	if (k == TR_DK_RUNNING || k == TR_DK_RUNNABLE)
		fine_add(d, k == TR_DK_RUNNABLE, ts, e, ia);
	b = d->bins - d->base;
	if (k == TR_DK_RUNNABLE && ia < d->fin)
		d->late = 1;
	else if (k == TR_DK_RUNNABLE) {
		edge_add(&b[ia], (uint32_t)(ts - ia * TR_DERIVED_BIN) << 1 | 1);
		edge_add(&b[ie], (uint32_t)(e - ie * TR_DERIVED_BIN) << 1);
	}
	if (ia == ie) {
		b[ia].ns[k] += dur;
		return (0);
	}
	b[ia].ns[k] += (ia + 1) * TR_DERIVED_BIN - ts;
	b[ie].ns[k] += e - ie * TR_DERIVED_BIN;
	if (ie > ia + 1) {
		b[ia + 1].cover[k]++;
		b[ie].cover[k]--;
	}
	return (0);
}

static int
bins_count(struct tr_derived *d, int64_t ts, int which, struct tr_error *err)
{
	int64_t		 i = bin_of(ts);
	struct bin	*b;

	if (bins_reach(d, i, i, err) != 0)
		return (-1);
	b = &d->bins[i - d->base];
	if (which == 0)
		b->created++;
	else if (which == 1)
		b->ended++;
	else
		b->samples++;
	return (0);
}

/*
 * An integer at *pp (before 'e'): an optional '-' and digits.  Returns 1
 * with *v, *pp past it, or 0 when no digit follows.
 */
static int
json_num(const char **pp, const char *e, int64_t *v)
{
	const char	*p = *pp;
	int		 neg = 0;

	if (p < e && *p == '-') {
		neg = 1;
		p++;
	}
	if (p >= e || *p < '0' || *p > '9')
		return (0);
	*v = 0;
	while (p < e && *p >= '0' && *p <= '9')
		*v = *v * 10 + (*p++ - '0');
	if (neg)
		*v = -*v;
	*pp = p;
	return (1);
}

/* An integer member "key": in JSON object text, or 0 when absent. */
static int
json_int(const char *s, size_t len, const char *key, int64_t *v)
{
	size_t		 kl = strlen(key), i;
	const char	*p;

	if (s == NULL)
		return (0);
	for (i = 0; i + kl + 3 <= len; i++) {
		if (s[i] != '"' || memcmp(s + i + 1, key, kl) != 0 ||
		    s[i + 1 + kl] != '"' || s[i + 2 + kl] != ':')
			continue;
		p = s + i + 3 + kl;
		return (json_num(&p, s + len, v));
	}
	return (0);
}

/*
 * The args the Go trace sink gives most regions, {"goid":N,"depth":M},
 * read in one pass: 1 with *goid and *depth (what json_int() finds in
 * them; no "start_unknown" or "unfinished" is there), or 0 for any other
 * text, which the member scans read.
 */
static int
region_args(const char *s, size_t len, int64_t *goid, int64_t *depth)
{
	static const char	 g[] = "{\"goid\":", dp[] = ",\"depth\":";
	const char		*p = s, *e = s + len;

	if (s == NULL || len < sizeof g - 1 || memcmp(p, g, sizeof g - 1) != 0)
		return (0);
	p += sizeof g - 1;
	if (!json_num(&p, e, goid) || (size_t)(e - p) < sizeof dp - 1 ||
	    memcmp(p, dp, sizeof dp - 1) != 0)
		return (0);
	p += sizeof dp - 1;
	if (!json_num(&p, e, depth))
		return (0);
	return (p + 1 == e && *p == '}');
}

/*
 * Whether a state's args say "unfinished": the sink writes it last
 * (import-gotrace.c: close_args), and SQLite keeps the order of members.
 */
static int
has_unfinished(const char *s, size_t len)
{
	static const char	u[] = "\"unfinished\":true}";

	return (s != NULL && len >= sizeof u - 1 &&
	    memcmp(s + len - (sizeof u - 1), u, sizeof u - 1) == 0);
}

int64_t	tr_derived_late_rebuilds;
int64_t	tr_derived_ended_goroutines;
int64_t	tr_derived_span_runs;

int
tr_derived_present(struct tr_db *db, int64_t source_id, struct tr_error *err)
{
	int64_t	has = 0;

	if (tr_db_int_arg(db, "SELECT EXISTS (SELECT 1 FROM go_bin WHERE "
	    "source_id = ?1)", NULL, source_id, &has, err) < 0)
		return (-1);
	return (has != 0);
}

int
tr_derived_seconds(int64_t lo, int64_t hi, int64_t *a, int64_t *b)
{
	const int64_t	S = TR_DERIVED_LAT_BIN;

	*a = fdiv(lo, S) * S;
	if (*a < lo)
		*a += S;
	*b = fdiv(hi, S) * S;
	return (*b > *a);
}

int
tr_derived_watermark(struct tr_derived *d, int64_t ts)
{
	struct bin	*b;
	int64_t		 i;

	if (d->late || d->lo > d->hi)
		return (0);
	i = d->fin == INT64_MIN ? d->lo : d->fin;
	for (; i <= d->hi && (i + 1) * TR_DERIVED_BIN <= ts; i++) {
		b = &d->bins[i - d->base];
		b->peak = edge_peak(b, &d->nrbl);
		b->after = d->nrbl;
		b->final = 1;
		free(b->edge);
		b->edge = NULL;
		b->nedge = b->capedge = 0;
	}
	d->fin = i;
	return (0);
}

/* The slot of the caches for a key. */
static size_t
cslot(uint64_t h)
{
	h *= 0x9e3779b97f4a7c15ULL;
	return ((size_t)(h >> 40) & (NCACHE - 1));
}

/* Track 'id' of d->tracks, or NULL. */
static struct trk *
trk_get(struct tr_derived *d, int64_t id)
{
	struct trk	**slot = &d->tc[cslot((uint64_t)id)];

	if (*slot == NULL || (*slot)->id != id)
		*slot = tr_imap_get(&d->tracks, (uint64_t)id);
	return (*slot);
}

/* Track t into d->tracks (and the cache), in place of one of its id. */
static void
trk_put(struct tr_derived *d, struct trk *t)
{
	trk_free(tr_imap_del(&d->tracks, (uint64_t)t->id));
	tr_imap_put(&d->tracks, (uint64_t)t->id, t);
	d->tc[cslot((uint64_t)t->id)] = t;
}

int
tr_derived_track(struct tr_derived *d, int64_t track_id, const char *kind,
    int64_t ref, const char *meta, struct tr_error *err)
{
	struct trk	*t;
	int		 type;
	int64_t		 created;

	if (d->live != NULL && strcmp(kind, TR_TRACK_GO_TASK) == 0) {
		t = tr_xcalloc(1, sizeof *t);
		t->type = T_TASK;
		t->id = track_id;
		t->ref = ref;
		t->at_start = meta != NULL && json_true(meta, strlen(meta),
		    "at_start");
		trk_put(d, t);
		d->ntasks++;
		return (0);
	}
	if (strcmp(kind, TR_TRACK_GOROUTINE) == 0)
		type = T_GOROUTINE;
	else if (strcmp(kind, TR_TRACK_GO_GC) == 0)
		type = T_GC;
	else if (strcmp(kind, TR_TRACK_GO_STW) == 0)
		type = T_STW;
	else if (strcmp(kind, TR_TRACK_GO_PROC) == 0)
		type = T_PROC;
	else
		return (0);
	d->any = 1;
	/* A goroutine's summary in the same block (one malloc() a track). */
	if (type == T_GOROUTINE) {
		t = &((struct trk_g *)tr_xcalloc(1, sizeof (struct trk_g)))->t;
		t->g = &((struct trk_g *)t)->g;
	} else
		t = tr_xcalloc(1, sizeof *t);
	t->type = type;
	t->id = track_id;
	trk_put(d, t);
	if (type != T_GOROUTINE)
		return (0);
	t->g->goid = ref;
	t->g->first = INT64_MAX;
	t->g->last = INT64_MIN;
	tr_imap_put(&d->goids, (uint64_t)ref, t);
	if (meta == NULL || !json_int(meta, strlen(meta), "callsite_id",
	    &created))
		created = 0;
	tr_dsched_goroutine(d->sched, track_id, created);
	if (meta != NULL && json_int(meta, strlen(meta), "created", &created))
		return (bins_count(d, created, 0, err));
	return (0);
}

/*
 * (state, reason, stack) -> its record, by a hash probed linearly (and
 * the cache in front), made when new.
 */
static struct stack *
stack_get(struct tr_derived *d, int64_t name_id, int64_t cat_id, int64_t cs)
{
	int64_t		 key[3];
	uint64_t	 h;
	struct stack	*s, **slot;

	slot = &d->sc[cslot((uint64_t)cs * 31 + (uint64_t)cat_id * 7 +
	    (uint64_t)name_id)];
	if ((s = *slot) != NULL && s->name_id == name_id &&
	    s->cat_id == cat_id && s->cs == cs)
		return (s);
	key[0] = name_id;
	key[1] = cat_id;
	key[2] = cs;
	h = tr_hash64(key, sizeof key);
	while ((s = tr_imap_get(&d->stack_map, h)) != NULL &&
	    (s->name_id != name_id || s->cat_id != cat_id || s->cs != cs))
		h++;
	if (s == NULL) {
		s = tr_xcalloc(1, sizeof *s);
		s->name_id = name_id;
		s->cat_id = cat_id;
		s->cs = cs;
		tr_imap_put(&d->stack_map, h, s);
	}
	*slot = s;
	return (s);
}

static void
stack_add(struct tr_derived *d, int64_t name_id, int64_t cat_id, int64_t cs,
    int64_t dur)
{
	struct stack	*s = stack_get(d, name_id, cat_id, cs);

	s->n++;
	s->ns += dur;
	if (dur > s->max)
		s->max = dur;
}

int
tr_derived_slice(struct tr_derived *d, int64_t track_id, int64_t ts,
    int64_t dur, int64_t name_id, int64_t category_id, int64_t callsite_id,
    const char *args, size_t args_len, struct tr_error *err)
{
	const struct name	*nm, *cat;
	struct trk		*t, *gt;
	struct gsum		*g;
	int64_t			 goid;
	int			 k, u;

	if ((t = trk_get(d, track_id)) == NULL)
		return (0);
	if (t->type == T_TASK) {
		/* A region or a task (not a log): a span to pack. */
		t->seen++;
		if ((cat = names_get(&d->names, category_id, err)) == NULL)
			return (-1);
		if (cat->span == 0)
			return (0);
		return (live_span(d, t, t->seen - 1, name_id, ts, dur, args,
		    args_len, cat->span == 2, err));
	}
	if ((nm = names_get(&d->names, name_id, err)) == NULL)
		return (-1);
	switch (t->type) {
	case T_GOROUTINE:
		if ((cat = names_get(&d->names, category_id, err)) == NULL)
			return (-1);
		u = has_unfinished(args, args_len);
		tr_dsched_state(d->sched, track_id, ts, dur,
		    nm->cls == N_RUNNING ? TR_DSCHED_RUNNING :
		    nm->cls == N_RUNNABLE ? TR_DSCHED_RUNNABLE :
		    nm->cls == N_BLOCKED ? TR_DSCHED_BLOCKED : TR_DSCHED_OTHER,
		    category_id, cat->s, callsite_id, args, args_len, u);
		if (tr_dsched_spill(d->sched, d->db, err) != 0)
			return (-1);
		if (nm->cls == N_RUNNING)
			k = TR_DK_RUNNING;
		else if (nm->cls == N_RUNNABLE)
			k = TR_DK_RUNNABLE;
		else if (nm->cls == N_BLOCKED)
			k = cat->kind;
		else
			return (0);	/* an instant ("syscall") */
		g = t->g;
		g->ns[k] += dur;
		g->states++;
		if (ts < g->first)
			g->first = ts;
		if (ts + dur >= g->last) {
			if (ts + dur > g->last || u) {
				g->last = ts + dur;
				g->unfinished = u;
			}
		}
		stack_add(d, name_id, category_id, callsite_id, dur);
		if (ts < d->tmin)
			d->tmin = ts;
		if (ts + dur > d->tmax)
			d->tmax = ts + dur;
		return (bins_add(d, k, ts, dur, err));
	case T_GC:
		if (nm->cls == N_GC)
			return (bins_add(d, TR_DK_GC, ts, dur, err));
		if (nm->cls == N_SWEEP)
			return (bins_add(d, TR_DK_SWEEP, ts, dur, err));
		if (nm->cls != N_ASSIST)
			return (0);
		if (json_int(args, args_len, "goid", &goid) &&
		    (gt = tr_imap_get(&d->goids, (uint64_t)goid)) != NULL)
			gt->g->assist += dur;
		return (bins_add(d, TR_DK_ASSIST, ts, dur, err));
	case T_STW:
		return (bins_add(d, TR_DK_STW, ts, dur, err));
	case T_PROC:
		if (nm->cls == N_RUNNING)
			return (bins_add(d, TR_DK_PROC, ts, dur, err));
		return (0);
	}
	return (0);
}

int
tr_derived_sample(struct tr_derived *d, int64_t ts, struct tr_error *err)
{
	return (bins_count(d, ts, 2, err));
}

/* A goroutine whose last state closed before the trace ended: its end. */
static int
end_count(struct tr_derived *d, const struct trk *t, struct tr_error *err)
{
	if (t->g->states == 0 || t->g->unfinished)
		return (0);
	return (bins_count(d, t->g->last, 1, err));
}

int
tr_derived_ended(struct tr_derived *d, int64_t track_id,
    struct tr_error *err)
{
	struct trk	*t;

	if ((t = trk_get(d, track_id)) == NULL || t->type != T_GOROUTINE)
		return (0);
	/* What tr_derived_write() would do for it at the end. */
	if (end_count(d, t, err) != 0 || summary_row(d, t, err) != 0)
		return (-1);
	if (tr_dsched_ended(d->sched, d->db, track_id, err) != 0)
		return (-1);
	if (tr_imap_get(&d->goids, (uint64_t)t->g->goid) == t)
		tr_imap_del(&d->goids, (uint64_t)t->g->goid);
	tr_imap_del(&d->tracks, (uint64_t)track_id);
	d->tc[cslot((uint64_t)track_id)] = NULL;
	trk_free(t);
	tr_derived_ended_goroutines++;
	return (0);
}

/* --- writing --------------------------------------------------------- */

static int
write_bins(struct tr_derived *d, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int32_t		 c[TR_DK_COUNT], fc[2] = { 0, 0 };
	struct bin	*b;
	int64_t		 i, j, idle, peak, ns[2], t, nrbl = 0;
	int		 k, rc = 0;

	if (d->lo > d->hi)
		return (0);
	st = tr_db_prepare(d->db, "INSERT INTO go_bin VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
	    "?18, ?19, ?20, ?21)", err);
	if (st == NULL)
		return (-1);
	memset(c, 0, sizeof c);
	sqlite3_bind_int64(st, 1, d->source_id);
	sqlite3_bind_int64(st, 3, TR_DERIVED_BIN);
	for (i = d->lo; i <= d->hi; i++) {
		b = &d->bins[i - d->base];
		sqlite3_bind_int64(st, 2, i * TR_DERIVED_BIN);
		for (k = 0; k < TR_DK_COUNT; k++) {
			c[k] += b->cover[k];
			sqlite3_bind_int64(st, 4 + k, b->ns[k] +
			    (int64_t)c[k] * TR_DERIVED_BIN);
		}
		/*
		 * A millisecond is idle when no goroutine ran or was
		 * runnable in it, inside the span of the goroutine states.
		 */
		idle = 0;
		for (j = 0; j < NFINE; j++) {
			t = i * TR_DERIVED_BIN + j * FINE;
			for (k = 0; k < 2; k++) {
				fc[k] += b->f[j].cover[k];
				ns[k] = b->f[j].ns[k] + (int64_t)fc[k] * FINE;
			}
			if (ns[0] + ns[1] == 0 && t >= d->tmin &&
			    t + FINE <= d->tmax)
				idle += FINE;
		}
		/* In time order: the runnable count carries over. */
		if (b->final) {
			peak = b->peak;
			nrbl = b->after;
		} else
			peak = edge_peak(b, &nrbl);
		sqlite3_bind_int64(st, 17, idle);
		sqlite3_bind_double(st, 18, (double)peak);
		sqlite3_bind_int64(st, 19, b->created);
		sqlite3_bind_int64(st, 20, b->ended);
		sqlite3_bind_int64(st, 21, b->samples);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(d->db, err, "cannot write go_bin"));
	return (0);
}

/* go_summary's insert (d->sum), prepared the first time. */
static sqlite3_stmt *
summary_stmt(struct tr_derived *d, struct tr_error *err)
{
	if (d->sum != NULL)
		return (d->sum);
	d->sum = tr_db_prepare(d->db, "INSERT INTO go_summary VALUES (?1, "
	    "?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
	    "?16)", err);
	if (d->sum != NULL)
		sqlite3_bind_int64(d->sum, 1, d->source_id);
	return (d->sum);
}

/* Goroutine t's go_summary row, if it had a state. */
static int
summary_row(struct tr_derived *d, const struct trk *t, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 k, rc;

	if (t->g->states == 0)
		return (0);
	if ((st = summary_stmt(d, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 2, t->id);
	sqlite3_bind_int64(st, 3, t->g->goid);
	sqlite3_bind_int64(st, 4, t->g->first);
	sqlite3_bind_int64(st, 5, t->g->last);
	for (k = 0; k < TR_DK_GOROUTINE; k++)
		sqlite3_bind_int64(st, 6 + k, t->g->ns[k]);
	sqlite3_bind_int64(st, 14, t->g->assist);
	sqlite3_bind_int64(st, 15, t->g->states);
	sqlite3_bind_int(st, 16, !t->g->unfinished);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(d->db, err, "cannot write go_summary"));
	return (0);
}

static int
write_summary(struct tr_derived *d, struct tr_error *err)
{
	uint64_t	*keys;
	struct trk	*t;
	size_t		 n, i;
	int		 rc = 0;

	keys = tr_imap_keys(&d->tracks, &n);
	for (i = 0; i < n && rc == 0; i++) {
		t = tr_imap_get(&d->tracks, keys[i]);
		if (t->type == T_GOROUTINE)
			rc = summary_row(d, t, err);
	}
	free(keys);
	return (rc);
}

static int
write_stacks(struct tr_derived *d, struct tr_error *err)
{
	const struct name	*nm, *cat;
	sqlite3_stmt		*st;
	struct stack		*s;
	uint64_t		*keys;
	size_t			 i, n;
	int			 rc = SQLITE_DONE;

	st = tr_db_prepare(d->db, "INSERT INTO go_state_stack VALUES (?1, "
	    "?2, ?3, ?4, ?5, ?6, ?7)", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, d->source_id);
	keys = tr_imap_keys(&d->stack_map, &n);
	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		s = tr_imap_get(&d->stack_map, keys[i]);
		if ((nm = names_get(&d->names, s->name_id, err)) == NULL ||
		    (cat = names_get(&d->names, s->cat_id, err)) == NULL) {
			free(keys);
			sqlite3_finalize(st);
			return (-1);
		}
		sqlite3_bind_text(st, 2, nm->s ? nm->s : "", -1,
		    SQLITE_TRANSIENT);
		if (cat->s != NULL)
			sqlite3_bind_text(st, 3, cat->s, -1,
			    SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, 3);
		if (s->cs > 0)
			sqlite3_bind_int64(st, 4, s->cs);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_int64(st, 5, s->n);
		sqlite3_bind_int64(st, 6, s->ns);
		sqlite3_bind_int64(st, 7, s->max);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	free(keys);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(d->db, err, "cannot write go_state_stack"));
	return (0);
}

static int	write_spans(struct tr_db *, int64_t, struct tr_error *);

int
tr_derived_write(struct tr_derived *d, struct tr_error *err)
{
	uint64_t	*keys;
	struct trk	*t;
	size_t		 n, i;

	/* What the watermark let go is read again from the store. */
	if (d->late || tr_dsched_late(d->sched)) {
		tr_derived_late_rebuilds++;
		return (tr_derived_rebuild(d->db, d->source_id, err));
	}
	if (d->live != NULL) {
		if (live_finish(d, err) != 0)
			return (-1);
	} else if (write_spans(d->db, d->source_id, err) != 0)
		return (-1);
	if (!d->any)
		return (0);
	keys = tr_imap_keys(&d->tracks, &n);
	for (i = 0; i < n; i++) {
		t = tr_imap_get(&d->tracks, keys[i]);
		if (t->type == T_GOROUTINE && end_count(d, t, err) != 0) {
			free(keys);
			return (-1);
		}
	}
	free(keys);
	if (write_bins(d, err) != 0 || write_summary(d, err) != 0 ||
	    write_stacks(d, err) != 0 || tr_dsched_write(d->sched, d->db,
	    err) != 0)
		return (-1);
	return (0);
}

/* --- reading runs ---------------------------------------------------- */

/* One slice of a run's JSON, as parsed. */
struct rslice {
	int64_t		 ts, dur, name_id, cat_id, cs;
	const char	*args;
	size_t		 args_len;
};

/* An integer or null (0); NULL on anything else. */
static const char *
parse_int(const char *p, const char *e, int64_t *v)
{
	const char	*start;
	int		 neg = 0;

	p = tr_skip_ws(p, e);
	start = p;
	if (e - p >= 4 && memcmp(p, "null", 4) == 0) {
		*v = 0;
		return (p + 4);
	}
	if (p < e && *p == '-') {
		neg = 1;
		p++;
	}
	if (p >= e || *p < '0' || *p > '9')
		return (NULL);
	*v = 0;
	while (p < e && *p >= '0' && *p <= '9')
		*v = *v * 10 + (*p++ - '0');
	/* A real (SQLite wrote one): its integer part. */
	if (p < e && (*p == '.' || *p == 'e' || *p == 'E')) {
		*v = (int64_t)strtod(start, NULL);
		neg = 0;
		while (p < e && (*p == '.' || *p == 'e' || *p == 'E' ||
		    *p == '+' || *p == '-' || (*p >= '0' && *p <= '9')))
			p++;
	}
	if (neg)
		*v = -*v;
	return (p);
}

/* Skip one JSON value (object, array, string, number, literal). */
static const char *
skip_value(const char *p, const char *e)
{
	int	depth = 0, instr = 0;

	p = tr_skip_ws(p, e);
	if (p < e && *p != '{' && *p != '[' && *p != '"') {
		while (p < e && *p != ',' && *p != ']' && *p != '}')
			p++;
		return (p);
	}
	for (; p < e; p++) {
		if (instr) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				instr = 0;
			if (instr == 0 && depth == 0)
				return (p + 1);
			continue;
		}
		if (*p == '"')
			instr = 1;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return (p + 1);
		}
	}
	return (NULL);
}

typedef int rslice_fn(void *, const struct rslice *, struct tr_error *);

/*
 * Walk the slices of a run (db.c: TR_DB_SLICE_VIEW's JSON) starting at
 * 'run_ts'.  Returns 0, fn's non-zero return, or -1 with 'err' set for
 * JSON that is not a run.
 */
static int
walk_run(const char *p, size_t len, int64_t run_ts, int64_t run_id,
    rslice_fn *fn, void *arg, struct tr_error *err)
{
	const char	*e = p + len, *q;
	struct rslice	 s;
	int64_t		*f[5];
	int		 i, rc, more;

	f[0] = &s.ts;
	f[1] = &s.dur;
	f[2] = &s.name_id;
	f[3] = &s.cat_id;
	f[4] = &s.cs;
	p = tr_skip_ws(p, e);
	if (p >= e || *p++ != '[')
		goto bad;
	p = tr_skip_ws(p, e);
	if (p < e && *p == ']')
		return (0);
	for (;;) {
		p = tr_skip_ws(p, e);
		if (p >= e || *p++ != '[')
			goto bad;
		memset(&s, 0, sizeof s);
		for (i = 0; i < 6; i++) {
			p = tr_skip_ws(p, e);
			if (p < e && *p == ']')
				break;
			if (i > 0) {
				if (p >= e || *p++ != ',')
					goto bad;
				p = tr_skip_ws(p, e);
			}
			if (i < 5) {
				if ((p = parse_int(p, e, f[i])) == NULL)
					goto bad;
			} else {
				q = p;
				if ((p = skip_value(p, e)) == NULL)
					goto bad;
				if (*q == '{') {
					s.args = q;
					s.args_len = (size_t)(p - q);
				}
			}
		}
		p = tr_skip_ws(p, e);
		if (i < 2 || p >= e || *p++ != ']')
			goto bad;
		s.ts += run_ts;
		if ((rc = fn(arg, &s, err)) != 0)
			return (rc);
		if ((more = tr_json_array_next(&p, e)) == 0)
			return (0);
		if (more < 0)
			goto bad;
	}
bad:
	return (tr_error_set(err, TR_EDATA, "slice_run %lld: its slices are "
	    "not a run's JSON", (long long)run_id));
}

/*
 * walk_run() on the row of 'st' whose columns 0, 1 and 2 are a run's
 * ts, slices and id.
 */
static int
walk_row(sqlite3_stmt *st, rslice_fn *fn, void *arg, struct tr_error *err)
{
	return (walk_run((const char *)sqlite3_column_text(st, 1),
	    (size_t)sqlite3_column_bytes(st, 1), sqlite3_column_int64(st, 0),
	    sqlite3_column_int64(st, 2), fn, arg, err));
}

/* --- go_span_pack: the tasks and regions ---------------------------- */


/* A go-task track: whether it began before the trace. */
struct task {
	int		 at_start;
};

struct span {
	int64_t		 name_id, ts, id, dur, goid;
	unsigned char	 kind;		/* 0: region, 1: task (sorted so) */
	unsigned char	 start_unknown, unfinished;
};

/*
 * Each span goes, as it is made, into a chunk of the spans: sorted by
 * (kind, name_id, ts, id) when full (SPAN_CHUNK, 1.5 MB), spilled to a
 * temporary file as a sorted run, and the runs merged into go_span_pack
 * at the end.  Live spans (made as the import goes, in the writer thread)
 * thus cost the importer's thread nothing but the merge.  The merge reads
 * the runs SPAN_MERGE_BYTES in all at a time.  (go_span, a table written
 * a row per span here until schema version 10, is a view of the slices.)
 */
#define SPAN_CHUNK	(32 * 1024)
#define SPAN_MERGE_BYTES	(4 * 1024 * 1024)
#define SPAN_BATCH	256

struct spans {
	struct tr_db	*db;
	struct span	*v;		/* the chunk being filled */
	size_t		 n;
	int64_t		 source_id;
	size_t		 chunk;		/* spans a run (SPAN_CHUNK) */
	int		 spill_fd;	/* the sorted runs, or -1 */
	size_t		*runs;		/* how many spans each has */
	size_t		 nruns, capruns;
};

/* Whether "key":true is in JSON object text. */
static int
json_true(const char *s, size_t len, const char *key)
{
	size_t	kl = strlen(key), i;

	for (i = 0; s != NULL && i + kl + 7 <= len; i++)
		if (s[i] == '"' && memcmp(s + i + 1, key, kl) == 0 &&
		    memcmp(s + i + 1 + kl, "\":true", 6) == 0)
			return (1);
	return (0);
}

/*
 * A task's or region's goroutine (-1: none), and whether the trace cut it,
 * from its slice's args, as go_task and go_region give them (a task's
 * start_unknown is its track's at_start).
 */
static void
span_args(const char *args, size_t len, int task, int at_start,
    int64_t *goid, unsigned char *start_unknown, unsigned char *unfinished)
{
	int64_t	depth;

	if (!task && region_args(args, len, goid, &depth)) {
		*start_unknown = *unfinished = 0;
		return;
	}
	if (!json_int(args, len, "goid", goid))
		*goid = -1;
	*start_unknown = (unsigned char)(task ? at_start :
	    json_true(args, len, "start_unknown"));
	*unfinished = (unsigned char)json_true(args, len, "unfinished");
}

/* The primary key's order: kind ('region' < 'task'), name, ts, id. */
static int
span_cmp(const void *x, const void *y)
{
	const struct span	*p = x, *q = y;

	if (p->kind != q->kind)
		return (p->kind - q->kind);
	if (p->name_id != q->name_id)
		return (p->name_id < q->name_id ? -1 : 1);
	if (p->ts != q->ts)
		return (p->ts < q->ts ? -1 : 1);
	return (p->id < q->id ? -1 : p->id > q->id);
}

/*
 * The order of v[0..n) by span_cmp(), as a new array of indexes: a merge
 * sort (runs of 16 by insertion, merges skipped where two runs are
 * already in order, as the live spans mostly are), in place of qsort(),
 * which called span_cmp() through a pointer.  Indexes, so that the sort
 * takes 8 bytes a span where a copy of the spans took 80.
 */
static uint32_t *
spans_order(const struct span *v, size_t n)
{
	uint32_t	*a, *b, *t, x;
	size_t		 w, lo, mid, hi, i, j, k;

	a = tr_xmalloc((n + 1) * sizeof *a);
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (lo = 0; lo < n; lo += 16) {
		hi = lo + 16 < n ? lo + 16 : n;
		for (i = lo + 1; i < hi; i++) {
			x = a[i];
			for (j = i; j > lo && span_cmp(&v[a[j - 1]], &v[x]) > 0;
			    j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
	}
	if (n <= 16)
		return (a);
	b = tr_xmalloc(n * sizeof *b);
	for (w = 16; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			if (mid == hi ||
			    span_cmp(&v[a[mid - 1]], &v[a[mid]]) <= 0) {
				memcpy(b + lo, a + lo, (hi - lo) * sizeof *a);
				continue;
			}
			for (i = lo, j = mid, k = lo; i < mid && j < hi;)
				b[k++] = span_cmp(&v[a[j]], &v[a[i]]) < 0 ?
				    a[j++] : a[i++];
			memcpy(b + k, a + i, (mid - i) * sizeof *a);
			k += mid - i;
			memcpy(b + k, a + j, (hi - j) * sizeof *a);
		}
		t = a;
		a = b;
		b = t;
	}
	free(b);
	return (a);
}

static int	spans_spill(struct spans *, struct tr_error *);

/* Span 'p' (its id given) to the chunk for go_span_pack. */
static int
spans_add(struct spans *sp, const struct span *p, struct tr_error *err)
{
	if (sp->n == sp->chunk && spans_spill(sp, err) != 0)
		return (-1);
	sp->v[sp->n++] = *p;
	return (0);
}

/* Span 'p' to the packer. */
static int
pack_add(struct tr_derived_packer *k, const struct span *p,
    struct tr_error *err)
{
	return (tr_derived_packer_add(k, p->kind ? TR_GO_CAT_TASK :
	    TR_GO_CAT_REGION, p->name_id, p->ts, p->dur, p->goid,
	    p->start_unknown || p->unfinished, err));
}

/* The chunk, sorted, to the packer (nothing was spilled). */
static int
spans_flush(struct spans *sp, struct tr_derived_packer *k,
    struct tr_error *err)
{
	uint32_t	*ord;
	size_t		 i;

	ord = spans_order(sp->v, sp->n);
	for (i = 0; i < sp->n; i++)
		if (pack_add(k, &sp->v[ord[i]], err) != 0) {
			free(ord);
			return (-1);
		}
	free(ord);
	sp->n = 0;
	return (0);
}

/* The chunk, sorted, to the end of the temporary file as a run. */
static int
spans_spill(struct spans *sp, struct tr_error *err)
{
	struct span		 buf[SPAN_BATCH];
	const unsigned char	*p;
	uint32_t		*ord;
	size_t			 len, i, nb;
	ssize_t			 w;

	if (sp->n == 0)
		return (0);
	if (sp->spill_fd < 0 &&
	    (sp->spill_fd = tr_spill_fd("go_span", NULL, err)) < 0)
		return (-1);
	/* In order, through buf. */
	ord = spans_order(sp->v, sp->n);
	for (i = 0; i < sp->n; i += nb) {
		for (nb = 0; nb < SPAN_BATCH && i + nb < sp->n; nb++)
			buf[nb] = sp->v[ord[i + nb]];
		p = (const unsigned char *)buf;
		len = nb * sizeof *buf;
		while (len > 0) {
			if ((w = write(sp->spill_fd, p, len)) < 0 &&
			    errno == EINTR)
				continue;
			if (w <= 0) {
				free(ord);
				return (tr_error_set(err, TR_EIO, "cannot "
				    "write a temporary file: %s", w < 0 ?
				    strerror(errno) : "nothing written"));
			}
			p += w;
			len -= (size_t)w;
		}
	}
	free(ord);
	if (sp->nruns == sp->capruns) {
		sp->capruns = sp->capruns ? sp->capruns * 2 : 16;
		sp->runs = tr_xrealloc(sp->runs, sp->capruns *
		    sizeof *sp->runs);
	}
	sp->runs[sp->nruns++] = sp->n;
	sp->n = 0;
	tr_derived_span_runs++;
	return (0);
}

/* A spilled run being merged: its next spans in 'buf'. */
struct mrun {
	off_t		 off;		/* of the next span not in buf */
	size_t		 left;		/* spans of it not yet in buf */
	struct span	*buf;
	size_t		 pos, len;
};

static int
mrun_fill(int fd, struct mrun *r, size_t cap, struct tr_error *err)
{
	size_t	want = r->left < cap ? r->left : cap, got = 0;
	ssize_t	n;

	while (got < want * sizeof *r->buf) {
		n = pread(fd, (char *)r->buf + got, want * sizeof *r->buf -
		    got, r->off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (tr_error_set(err, TR_EIO, "cannot read a "
			    "temporary file: %s", n < 0 ? strerror(errno) :
			    "it is shorter than written"));
		got += (size_t)n;
	}
	r->off += (off_t)got;
	r->left -= want;
	r->pos = 0;
	r->len = want;
	return (0);
}

static int
mrun_less(const struct mrun *a, const struct mrun *b)
{
	return (span_cmp(&a->buf[a->pos], &b->buf[b->pos]) < 0);
}

static void
heap_down(struct mrun **h, size_t n, size_t i)
{
	struct mrun	*t;
	size_t		 c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && mrun_less(h[c + 1], h[c]))
			c++;
		if (!mrun_less(h[c], h[i]))
			break;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

/*
 * The spilled runs and the chunk left, merged into the packer in the
 * order (kind, name_id, ts, id) (a heap of the runs by their next span).
 */
static int
spans_merge(struct spans *sp, struct tr_derived_packer *k,
    struct tr_error *err)
{
	struct mrun	*r, **h;
	size_t		 cap, i, n = 0;
	off_t		 off = 0;
	int		 ret = -1;

	if (spans_spill(sp, err) != 0)
		return (-1);
	cap = SPAN_MERGE_BYTES / sizeof *sp->v / sp->nruns;
	if (cap < 16)
		cap = 16;
	r = tr_xcalloc(sp->nruns, sizeof *r);
	h = tr_xcalloc(sp->nruns, sizeof *h);
	for (i = 0; i < sp->nruns; i++) {
		r[i].off = off;
		r[i].left = sp->runs[i];
		off += (off_t)(sp->runs[i] * sizeof *sp->v);
		r[i].buf = tr_xcalloc(cap, sizeof *r[i].buf);
		if (mrun_fill(sp->spill_fd, &r[i], cap, err) != 0)
			goto out;
		h[n++] = &r[i];
	}
	for (i = n / 2; i-- > 0;)
		heap_down(h, n, i);
	while (n > 0) {
		if (pack_add(k, &h[0]->buf[h[0]->pos++], err) != 0)
			goto out;
		if (h[0]->pos == h[0]->len) {
			if (h[0]->left == 0)
				h[0] = h[--n];
			else if (mrun_fill(sp->spill_fd, h[0], cap, err) != 0)
				goto out;
		}
		heap_down(h, n, 0);
	}
	ret = 0;
out:
	for (i = 0; i < sp->nruns; i++)
		free(r[i].buf);
	free(r);
	free(h);
	sp->nruns = 0;
	return (ret);
}

static void
spans_free(struct spans *sp)
{
	if (sp == NULL)
		return;
	if (sp->spill_fd >= 0)
		close(sp->spill_fd);
	free(sp->runs);
	free(sp->v);
	free(sp);
}

/*
 * The spans of source 'source_id', chunked as they come (an import's live
 * ones, tr_derived_observe(), or a rebuild's, write_spans()).
 */
static struct spans *
spans_new(struct tr_db *db, int64_t source_id)
{
	struct spans	*sp = tr_xcalloc(1, sizeof *sp);
	const char	*e;

	sp->db = db;
	sp->source_id = source_id;
	/* (TRACEKIT_SPAN_CHUNK: fewer, for the tests of the merge.) */
	sp->chunk = SPAN_CHUNK;
	if ((e = getenv("TRACEKIT_SPAN_CHUNK")) != NULL && atoi(e) > 0 &&
	    atoi(e) < SPAN_CHUNK)
		sp->chunk = (size_t)atoi(e);
	sp->v = tr_xcalloc(sp->chunk, sizeof *sp->v);
	sp->spill_fd = -1;
	return (sp);
}

/*
 * A region or task: slice 'k' of go-task track 't', whose span
 * waits for the slice's id (live_run()), as span_slice() would make it.
 */
static int
live_span(struct tr_derived *d, struct trk *t, int64_t k, int64_t name_id,
    int64_t ts, int64_t dur, const char *args, size_t args_len, int task,
    struct tr_error *err)
{
	struct wspan	*p;

	(void)d;
	(void)err;
	if (t->nwait == t->capwait) {
		t->capwait = t->capwait ? t->capwait * 2 : 16;
		t->wait = tr_xrealloc(t->wait, t->capwait * sizeof *t->wait);
	}
	p = &t->wait[t->nwait++];
	p->k = k;
	p->task = (unsigned char)task;
	p->name_id = name_id;
	p->ts = ts;
	p->dur = dur;
	span_args(args, args_len, task, t->at_start, &p->goid,
	    &p->start_unknown, &p->unfinished);
	return (0);
}

/*
 * The slices of track 'track_id' since its last run got ids 'first' on
 * ('n' of them): its waiting spans among them take theirs and go to
 * the chunk (spans_add(), in the writer thread during the
 * import).
 */
static int
live_run(struct tr_derived *d, int64_t track_id, int64_t first, int64_t n,
    struct tr_error *err)
{
	const struct wspan	*q;
	struct span		 p;
	struct trk		*t;
	size_t			 i;

	if (d->live == NULL || (t = trk_get(d, track_id)) == NULL ||
	    t->type != T_TASK)
		return (0);
	for (i = 0; i < t->nwait && t->wait[i].k < t->given + n; i++) {
		q = &t->wait[i];
		p.kind = q->task;
		p.name_id = q->name_id;
		p.ts = q->ts;
		p.id = first + (q->k - t->given);
		p.dur = q->dur;
		p.goid = q->goid;
		p.start_unknown = q->start_unknown;
		p.unfinished = q->unfinished;
		if (spans_add(d->live, &p, err) != 0)
			return (-1);
	}
	/* (A track with no span waiting may have no array at all.) */
	if (i > 0 && i < t->nwait)
		memmove(t->wait, t->wait + i, (t->nwait - i) *
		    sizeof *t->wait);
	t->nwait -= i;
	t->given += n;
	/*
	 * An array emptied gives its memory back: a thousand task tracks
	 * that each once had a run's spans waiting kept 12 MB of a 90 MB
	 * import's peak (11 MB Go trace).
	 */
	if (t->nwait == 0 && t->capwait > 64) {
		free(t->wait);
		t->wait = NULL;
		t->capwait = 0;
	}
	return (0);
}

/*
 * The last rows of go_span, then go_span_pack from the sorted runs and
 * the chunk left.
 */
static int
spans_finish(struct spans *sp, struct tr_error *err)
{
	struct tr_derived_packer	*k;
	int				 r;

	if ((k = tr_derived_packer_new(sp->db, sp->source_id, err)) == NULL)
		return (-1);
	r = sp->nruns > 0 ? spans_merge(sp, k, err) : spans_flush(sp, k, err);
	if (r == 0)
		r = tr_derived_packer_finish(k, err);
	tr_derived_packer_free(k);
	return (r);
}

/* At tr_derived_write(), every run written: the live spans' end. */
static int
live_finish(struct tr_derived *d, struct tr_error *err)
{
	if (d->ntasks == 0)
		return (0);
	return (spans_finish(d->live, err));
}

/* The go-task slices of a source as spans (walk_spans()). */
typedef int span_fn(void *, const struct span *, struct tr_error *);
struct swalk {
	int64_t		 cat[2];	/* str ids of "region", "task" */
	int64_t		 run_id;	/* the run being read */
	const struct task *task;	/* its track's */
	int64_t		 k;		/* the slice's index in its run */
	int		 kind;		/* only this kind and name; -1: all */
	int64_t		 name_id;
	span_fn		*fn;
	void		*arg;
};

/* A task or region slice of the run being read: its span, to 'fn'. */
static int
span_slice(void *arg, const struct rslice *s, struct tr_error *err)
{
	struct swalk	*w = arg;
	struct span	 p;
	int		 kind;

	w->k++;
	if (s->cat_id == w->cat[0] && s->cat_id > 0)
		kind = 0;
	else if (s->cat_id == w->cat[1] && s->cat_id > 0)
		kind = 1;
	else
		return (0);	/* a log */
	if (w->kind >= 0 && (kind != w->kind || s->name_id != w->name_id))
		return (0);
	p.kind = (unsigned char)kind;
	p.name_id = s->name_id;
	p.ts = s->ts;
	p.id = w->run_id + w->k - 1;
	p.dur = s->dur;
	span_args(s->args, s->args_len, kind, w->task->at_start, &p.goid,
	    &p.start_unknown, &p.unfinished);
	return (w->fn(w->arg, &p, err));
}

/*
 * The spans of source 'source_id' (only those of 'kind', 0 region or 1
 * task, and 'name_id' when kind is not -1), from the slices of its go-task
 * tracks (what the go_span view gives), to 'fn' in the order of the runs
 * read:
 * with 'by_track', through slice_run's track index, only the go-task
 * tracks' runs; else one pass over all its runs (without the run indexes,
 * which trace-align drops while it moves a source).  Returns how many
 * go-task tracks it has, or -1 with 'err' set.
 */
static int
walk_spans(struct tr_db *db, int64_t source_id, int by_track, int kind,
    int64_t name_id, span_fn *fn, void *arg, struct tr_error *err)
{
	struct swalk	 w;
	struct tr_imap	 tasks;		/* track id -> struct task */
	struct task	*t;
	sqlite3_stmt	*st = NULL;
	const char	*meta;
	int		 rc, r = -1, ntasks = 0;

	memset(&w, 0, sizeof w);
	w.kind = kind;
	w.name_id = name_id;
	w.fn = fn;
	w.arg = arg;
	tr_imap_init(&tasks);
	st = tr_db_prepare(db, "SELECT id, meta FROM track WHERE "
	    "source_id = ?1 AND kind = '" TR_TRACK_GO_TASK "'", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, source_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		t = tr_xcalloc(1, sizeof *t);
		meta = (const char *)sqlite3_column_text(st, 1);
		t->at_start = meta != NULL && json_true(meta, strlen(meta),
		    "at_start");
		tr_imap_put(&tasks, (uint64_t)sqlite3_column_int64(st, 0), t);
		ntasks++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the source's tracks");
		goto out;
	}
	if (ntasks == 0 ||
	    tr_db_str_id(db, TR_GO_CAT_REGION, &w.cat[0], err) < 0 ||
	    tr_db_str_id(db, TR_GO_CAT_TASK, &w.cat[1], err) < 0) {
		r = ntasks == 0 ? 0 : -1;
		goto out;
	}
	st = tr_db_prepare(db, by_track ? "SELECT r.track_id, r.id, r.ts, "
	    "r.slices FROM track t CROSS JOIN slice_run r ON r.track_id = "
	    "t.id WHERE t.source_id = ?1 AND t.kind = '" TR_TRACK_GO_TASK "'" :
	    "SELECT track_id, id, ts, slices FROM slice_run WHERE "
	    "source_id = ?1", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, source_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		t = tr_imap_get(&tasks, (uint64_t)sqlite3_column_int64(st, 0));
		if (t == NULL)
			continue;
		w.task = t;
		w.run_id = sqlite3_column_int64(st, 1);
		w.k = 0;
		if (walk_run((const char *)sqlite3_column_text(st, 3),
		    (size_t)sqlite3_column_bytes(st, 3),
		    sqlite3_column_int64(st, 2), w.run_id, span_slice, &w,
		    err) != 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the source's slices");
		goto out;
	}
	r = ntasks;
out:
	sqlite3_finalize(st);
	tr_imap_free(&tasks, free);
	return (r);
}

static int
span_chunk(void *arg, const struct span *p, struct tr_error *err)
{
	return (spans_add(arg, p, err));
}

/*
 * go_span_pack for source 'source_id': one pass over its runs, each span
 * chunked as it comes (spans_add()) and packed from the sorted runs at
 * the end.  Memory stays flat (sorting all the spans in memory took 80
 * bytes a span: 733 MB for 9.2M regions).
 */
static int
write_spans(struct tr_db *db, int64_t source_id, struct tr_error *err)
{
	struct spans	*sp = spans_new(db, source_id);
	int		 r;

	if ((r = walk_spans(db, source_id, 0, -1, 0, span_chunk, sp,
	    err)) > 0)
		r = spans_finish(sp, err);
	spans_free(sp);
	return (r < 0 ? -1 : 0);
}

/* tr_derived_spans()'s: a span as its caller takes it. */
struct sone {
	tr_derived_span_fn	*fn;
	void			*arg;
};

static int
span_one(void *arg, const struct span *p, struct tr_error *err)
{
	struct sone		*o = arg;
	struct tr_derived_span	 q;

	q.id = p->id;
	q.ts = p->ts;
	q.dur = p->dur;
	q.goid = p->goid;
	q.start_unknown = p->start_unknown;
	q.unfinished = p->unfinished;
	return (o->fn(o->arg, &q, err));
}

int
tr_derived_spans(struct tr_db *db, int64_t source_id, int task,
    int64_t name_id, tr_derived_span_fn *fn, void *arg,
    struct tr_error *err)
{
	struct sone	o;

	o.fn = fn;
	o.arg = arg;
	return (walk_spans(db, source_id, 1, task ? 1 : 0, name_id, span_one,
	    &o, err) < 0 ? -1 : 0);
}

/* --- rebuilding ------------------------------------------------------ */

struct feed {
	struct tr_derived	*d;
	int64_t			 track;
};

static int
feed_slice(void *arg, const struct rslice *s, struct tr_error *err)
{
	struct feed	*f = arg;

	return (tr_derived_slice(f->d, f->track, s->ts, s->dur, s->name_id,
	    s->cat_id, s->cs, s->args, s->args_len, err));
}

static int
delete_rows(struct tr_db *db, int64_t source_id, struct tr_error *err)
{
	static const char *const tables[] = {
		"go_bin", "go_summary", "go_state_stack", "go_blocked_stack",
		"go_sched_lat", "go_sched_long", "go_wait_sec",
		"go_mutex_waker", "go_blocked_bin", "go_span_pack"
	};
	sqlite3_stmt	*st;
	char		*sql;
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		sql = tr_xasprintf("DELETE FROM %s WHERE source_id = ?1",
		    tables[i]);
		st = tr_db_prepare(db, sql, err);
		free(sql);
		if (st == NULL)
			return (-1);
		sqlite3_bind_int64(st, 1, source_id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return (tr_db_error(db, err, "cannot delete derived "
			    "rows"));
	}
	return (0);
}

int
tr_derived_rebuild(struct tr_db *db, int64_t source_id, struct tr_error *err)
{
	struct tr_derived	*d;
	struct feed		 f;
	sqlite3_stmt		*st = NULL;
	int			 rc;

	if (delete_rows(db, source_id, err) != 0)
		return (-1);
	d = tr_derived_new(db, source_id);
	f.d = d;
	st = tr_db_prepare(db, "SELECT id, kind, ref, meta FROM track "
	    "WHERE source_id = ?1 AND kind IN ('" TR_TRACK_GOROUTINE "', '"
	    TR_TRACK_GO_GC "', '" TR_TRACK_GO_STW "', '" TR_TRACK_GO_PROC
	    "') ORDER BY id", err);
	if (st == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, source_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (tr_derived_track(d, sqlite3_column_int64(st, 0),
		    (const char *)sqlite3_column_text(st, 1),
		    sqlite3_column_int64(st, 2),
		    (const char *)sqlite3_column_text(st, 3), err) != 0)
			goto fail;
	if (rc != SQLITE_DONE)
		goto dberr;
	sqlite3_finalize(st);
	st = NULL;
	if (!d->any) {
		tr_derived_free(d);
		return (write_spans(db, source_id, err));
	}
	/*
	 * One pass over the source's runs, without the run indexes:
	 * trace-align drops them while it moves a big source.
	 */
	st = tr_db_prepare(db, "SELECT track_id, ts, slices, id FROM "
	    "slice_run WHERE source_id = ?1", err);
	if (st == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, source_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		f.track = sqlite3_column_int64(st, 0);
		if (tr_imap_get(&d->tracks, (uint64_t)f.track) == NULL)
			continue;
		if (walk_run((const char *)sqlite3_column_text(st, 2),
		    (size_t)sqlite3_column_bytes(st, 2),
		    sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 3),
		    feed_slice, &f, err) != 0)
			goto fail;
	}
	if (rc != SQLITE_DONE)
		goto dberr;
	sqlite3_finalize(st);
	st = NULL;
	if (d->any) {
		st = tr_db_prepare(db, "SELECT ts FROM sample WHERE "
		    "source_id = ?1 AND ts IS NOT NULL", err);
		if (st == NULL)
			goto fail;
		sqlite3_bind_int64(st, 1, source_id);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			if (tr_derived_sample(d, sqlite3_column_int64(st, 0),
			    err) != 0)
				goto fail;
		if (rc != SQLITE_DONE)
			goto dberr;
		sqlite3_finalize(st);
		st = NULL;
	}
	rc = tr_derived_write(d, err);
	tr_derived_free(d);
	return (rc);
dberr:
	tr_db_error(db, err, "cannot read the source's slices");
fail:
	sqlite3_finalize(st);
	tr_derived_free(d);
	return (-1);
}

int
tr_derived_sources(struct tr_db *db, int64_t **ids, struct tr_error *err)
{
	sqlite3_stmt	*st;
	size_t		 n = 0, cap = 0;
	int		 rc;

	*ids = NULL;
	st = tr_db_prepare(db, "SELECT id FROM source WHERE format = "
	    "'gotrace' ORDER BY id", err);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*ids = tr_xrealloc(*ids, cap * sizeof **ids);
		}
		(*ids)[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		return (tr_db_error(db, err, "cannot read sources"));
	}
	return ((int)n);
}

int
tr_derived_rebuild_all(struct tr_db *db, struct tr_error *err)
{
	int64_t	*ids;
	int	 n, i;

	if ((n = tr_derived_sources(db, &ids, err)) < 0)
		return (-1);
	for (i = 0; i < n; i++)
		if (tr_derived_rebuild(db, ids[i], err) != 0) {
			free(ids);
			return (-1);
		}
	free(ids);
	return (0);
}

/* --- the writer's observer ------------------------------------------ */

static int
obs_track(void *arg, const struct tr_track *t, struct tr_error *err)
{
	return (tr_derived_track(arg, t->id, t->kind, t->ref, t->meta, err));
}

static int
obs_sample(void *arg, const struct tr_sample *s, struct tr_error *err)
{
	return (s->has_ts ? tr_derived_sample(arg, s->ts, err) : 0);
}

static int
obs_slice(void *arg, const struct tr_slice *s, struct tr_error *err)
{
	return (tr_derived_slice(arg, s->track_id, s->ts, s->dur, s->name_id,
	    s->category_id, s->callsite_id, s->args, s->args_len, err));
}

static int
obs_run(void *arg, int64_t track_id, int64_t first, int64_t n,
    struct tr_error *err)
{
	return (live_run(arg, track_id, first, n, err));
}

static int
obs_meta(void *arg, int64_t track_id, const char *path, int64_t value,
    struct tr_error *err)
{
	(void)value;
	if (strcmp(path, "$.ended") != 0)
		return (0);
	return (tr_derived_ended(arg, track_id, err));
}

static int
obs_finish(void *arg, struct tr_writer *w, struct tr_error *err)
{
	(void)w;
	return (tr_derived_write(arg, err));
}

static void
obs_free(void *arg)
{
	tr_derived_free(arg);
}

static int
obs_watermark(void *arg, int64_t ts, struct tr_error *err)
{
	struct tr_derived	*d = arg;

	if (tr_derived_watermark(d, ts) != 0)
		return (-1);
	if (d->late)
		return (0);
	return (tr_dsched_watermark(d->sched, d->db, ts, err));
}

/*
 * The add hooks touch only the accumulator, read the store only for the
 * strings of str ids (names_get(), whose rows the writer wrote before
 * the slice that names them) and write nothing (the run hook):
 * they may run in the writer's thread.  The store is read again when a
 * broken promise makes the tables be rebuilt, in tr_derived_write(),
 * which the finish hook calls in the importer's thread once the writer
 * thread is drained.
 */
static const struct tr_writer_hooks obs_hooks = {
	.watermark = obs_watermark,
	.track = obs_track,
	.sample = obs_sample,
	.slice = obs_slice,
	.finish = obs_finish,
	.free = obs_free,
	.on_thread = 1,
	.run = obs_run,
	.meta = obs_meta,
};

int
tr_derived_observe(struct tr_writer *w, struct tr_error *err)
{
	struct tr_db		*db = tr_writer_db(w);
	struct tr_derived	*d;
	sqlite3_stmt		*st;
	const char		*no = getenv("TRACEKIT_NO_DERIVED");
	int			 rc, go;

	/* For bench/attr-bench.sh: the import's cost without them. */
	if (no != NULL && strcmp(no, "1") == 0)
		return (0);
	st = tr_db_prepare(db, "SELECT format = 'gotrace' FROM source "
	    "WHERE id = ?1", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, tr_writer_source_id(w));
	rc = sqlite3_step(st);
	go = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read the source"));
	if (!go)
		return (0);
	d = tr_derived_new(db, tr_writer_source_id(w));
	d->live = spans_new(db, tr_writer_source_id(w));
	/* On failure the writer has released 'd' through the free hook. */
	if (tr_writer_observe(w, &obs_hooks, d, err) != 0)
		return (-1);
	return (0);
}

/* --- reading --------------------------------------------------------- */

/* Add bin 'b' ([ts, ts + dur), its values) to window [lo, hi) in 't'. */
static void
add_bin(struct tr_derived_totals *t, int64_t lo, int64_t hi, int64_t ts,
    int64_t dur, const int64_t *ns, const int64_t *cnt, int64_t idle,
    double peak)
{
	int64_t	a = ts > lo ? ts : lo, e = ts + dur < hi ? ts + dur : hi;
	int64_t	mid = ts + dur / 2;
	int	k;

	if (e <= a || dur <= 0)
		return;
	t->bins++;
	t->covered_ns += e - a;
	if (peak > t->runnable_peak)
		t->runnable_peak = peak;
	if (a == ts && e == ts + dur) {
		for (k = 0; k < TR_DK_COUNT; k++)
			t->ns[k] += ns[k];
		t->idle_ns += idle;
		t->created += cnt[0];
		t->ended += cnt[1];
		t->cpu_samples += cnt[2];
		return;
	}
	t->exact = 0;
	for (k = 0; k < TR_DK_COUNT; k++)
		t->ns[k] += (int64_t)((double)ns[k] * (double)(e - a) /
		    (double)dur + 0.5);
	t->idle_ns += (int64_t)((double)idle * (double)(e - a) /
	    (double)dur + 0.5);
	/* Counts go to the window that holds the bin's middle. */
	if (mid >= lo && mid < hi) {
		t->created += cnt[0];
		t->ended += cnt[1];
		t->cpu_samples += cnt[2];
	}
}

static void
totals_init(struct tr_derived_totals *t)
{
	memset(t, 0, sizeof *t);
	t->exact = 1;
}

int
tr_derived_series(struct tr_db *db, int64_t source_id, int64_t lo,
    int64_t step, int64_t n, struct tr_derived_totals *t,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		*ids = NULL, one, ns[TR_DK_COUNT], cnt[3], ts, dur, i,
			 i0, i1, hi = lo + step * n;
	int		 nids, s, k, rc;

	for (i = 0; i < n; i++)
		totals_init(&t[i]);
	if (n <= 0 || step <= 0)
		return (0);
	if (source_id > 0) {
		one = source_id;
		ids = &one;
		nids = 1;
	} else if ((nids = tr_derived_sources(db, &ids, err)) < 0)
		return (-1);
	st = tr_db_prepare(db, "SELECT ts, dur, running_ns, runnable_ns, "
	    "chan_ns, sync_ns, syscall_ns, net_ns, sleep_ns, other_ns, gc_ns, "
	    "stw_ns, assist_ns, sweep_ns, proc_ns, created, ended, "
	    "cpu_samples, idle_ns, runnable_peak FROM go_bin WHERE source_id = ?1 AND ts > ?2 AND "
	    "ts < ?3 ORDER BY ts", err);
	if (st == NULL)
		goto fail;
	for (s = 0; s < nids; s++) {
		sqlite3_bind_int64(st, 1, ids[s]);
		/* A bin moved with drift is a little wider than the grid. */
		sqlite3_bind_int64(st, 2, lo - 2 * TR_DERIVED_BIN);
		sqlite3_bind_int64(st, 3, hi);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			ts = sqlite3_column_int64(st, 0);
			dur = sqlite3_column_int64(st, 1);
			for (k = 0; k < TR_DK_COUNT; k++)
				ns[k] = sqlite3_column_int64(st, 2 + k);
			for (k = 0; k < 3; k++)
				cnt[k] = sqlite3_column_int64(st, 15 + k);
			i0 = ts > lo ? (ts - lo) / step : 0;
			i1 = (ts + dur - 1 - lo) / step;
			if (ts + dur <= lo)
				continue;
			if (i1 >= n)
				i1 = n - 1;
			for (i = i0; i <= i1; i++)
				add_bin(&t[i], lo + i * step,
				    lo + (i + 1) * step, ts, dur, ns, cnt,
				    sqlite3_column_int64(st, 18),
				    sqlite3_column_double(st, 19));
		}
		sqlite3_reset(st);
		if (rc != SQLITE_DONE) {
			tr_db_error(db, err, "cannot read go_bin");
			goto fail;
		}
		for (i = 0; i < n; i++)
			t[i].sources++;
	}
	sqlite3_finalize(st);
	if (ids != &one)
		free(ids);
	return (0);
fail:
	sqlite3_finalize(st);
	if (ids != &one)
		free(ids);
	return (-1);
}

int
tr_derived_totals(struct tr_db *db, int64_t source_id, int64_t lo,
    int64_t hi, struct tr_derived_totals *t, struct tr_error *err)
{
	if (hi <= lo) {
		totals_init(t);
		return (0);
	}
	return (tr_derived_series(db, source_id, lo, hi - lo, 1, t, err));
}

/* --- one goroutine's states ------------------------------------------ */

struct walk {
	struct names		*names;
	int64_t			 lo, hi, track;
	tr_derived_state_fn	*fn;
	void			*arg;
};

static int
walk_state(void *arg, const struct rslice *s, struct tr_error *err)
{
	struct walk		*w = arg;
	struct tr_derived_state	 ds;
	const struct name	*nm, *cat;

	if (s->ts >= w->hi || s->ts + s->dur <= w->lo ||
	    (s->dur == 0 && s->ts < w->lo))
		return (0);
	if ((nm = names_get(w->names, s->name_id, err)) == NULL)
		return (-1);
	if (nm->cls == N_RUNNING)
		ds.kind = TR_DK_RUNNING;
	else if (nm->cls == N_RUNNABLE)
		ds.kind = TR_DK_RUNNABLE;
	else if (nm->cls == N_BLOCKED) {
		if ((cat = names_get(w->names, s->cat_id, err)) == NULL)
			return (-1);
		ds.kind = (enum tr_dk)cat->kind;
	} else
		return (0);
	ds.start = s->ts;
	ds.end = s->ts + s->dur;
	ds.ts = ds.start > w->lo ? ds.start : w->lo;
	ds.dur = (ds.end < w->hi ? ds.end : w->hi) - ds.ts;
	ds.name_id = s->name_id;
	ds.category_id = s->cat_id;
	ds.callsite_id = s->cs;
	ds.track_id = w->track;
	ds.args = s->args;
	ds.args_len = s->args_len;
	return (w->fn(w->arg, &ds, err));
}

/*
 * Walk the states of the runs that 'sql' selects (columns ts, slices,
 * id, track_id; parameters ?1 key, ?2 lo, ?3 hi), clipped to [lo, hi)
 * when 'clip'.
 */
static int
walk_runs(struct tr_db *db, const char *sql, int64_t key, int64_t lo,
    int64_t hi, int clip, tr_derived_state_fn *fn, void *arg,
    struct tr_error *err)
{
	struct names	 names;
	struct walk	 w;
	sqlite3_stmt	*st;
	int		 rc, r = 0;

	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	names_init(&names, db);
	w.names = &names;
	w.lo = clip ? lo : INT64_MIN;
	w.hi = clip ? hi : INT64_MAX;
	w.fn = fn;
	w.arg = arg;
	sqlite3_bind_int64(st, 1, key);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		w.track = sqlite3_column_int64(st, 3);
		if ((r = walk_row(st, walk_state, &w, err)) != 0)
			break;
	}
	sqlite3_finalize(st);
	names_release(&names);
	if (r != 0)
		return (r);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read slice_run"));
	return (0);
}

int
tr_derived_track_states(struct tr_db *db, int64_t track_id, int64_t lo,
    int64_t hi, tr_derived_state_fn *fn, void *arg, struct tr_error *err)
{
	return (walk_runs(db, "SELECT ts, slices, id, track_id FROM slice_run "
	    "WHERE track_id = ?1 AND ts < ?3 AND end_ts > ?2 ORDER BY ts, id",
	    track_id, lo, hi, 1, fn, arg, err));
}

int
tr_derived_source_states(struct tr_db *db, int64_t source_id, int64_t lo,
    int64_t hi, tr_derived_state_fn *fn, void *arg, struct tr_error *err)
{
	/* Every state of the runs: the caller picks. */
	return (walk_runs(db, "SELECT r.ts, r.slices, r.id, r.track_id FROM "
	    "slice_run r WHERE r.source_id = ?1 AND r.ts <= ?3 AND "
	    "r.end_ts >= ?2 AND r.track_id IN (SELECT id FROM track WHERE "
	    "source_id = ?1 AND kind = '" TR_TRACK_GOROUTINE "') ORDER BY r.ts, "
	    "r.id", source_id,
	    lo, hi, 0, fn, arg, err));
}

/* --- the blocking intervals of a window ------------------------------ */

struct bwalk {
	struct names		*names;
	struct tr_dsched	*ds;
	int64_t			 track, lo;
	int			*gst;		/* the backward search's */
	size_t			 n, cap;
	int64_t			 fr;		/* first running state */
};

/* A goroutine state's class and reason, as tr_derived_slice() passes. */
static int
state_cls(struct names *names, const struct rslice *s, int *cls,
    const char **reason, struct tr_error *err)
{
	const struct name	*nm, *cat;

	if ((nm = names_get(names, s->name_id, err)) == NULL ||
	    (cat = names_get(names, s->cat_id, err)) == NULL)
		return (-1);
	*cls = nm->cls == N_RUNNING ? TR_DSCHED_RUNNING :
	    nm->cls == N_RUNNABLE ? TR_DSCHED_RUNNABLE :
	    nm->cls == N_BLOCKED ? TR_DSCHED_BLOCKED : TR_DSCHED_OTHER;
	*reason = cat->s;
	return (0);
}

/* The states of a run before lo that carry a stack: their states. */
static int
back_slice(void *arg, const struct rslice *s, struct tr_error *err)
{
	struct bwalk	*w = arg;
	const char	*reason;
	int		 cls;

	if (s->cs <= 0 || s->ts >= w->lo)
		return (0);
	if (state_cls(w->names, s, &cls, &reason, err) != 0)
		return (-1);
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->gst = tr_xrealloc(w->gst, w->cap * sizeof *w->gst);
	}
	w->gst[w->n++] = tr_dsched_gen_state(cls, reason);
	return (0);
}

static int
first_running(void *arg, const struct rslice *s, struct tr_error *err)
{
	struct bwalk	*w = arg;
	const char	*reason;
	int		 cls;

	if (state_cls(w->names, s, &cls, &reason, err) != 0)
		return (-1);
	if (cls != TR_DSCHED_RUNNING)
		return (0);
	w->fr = s->ts;
	return (1);
}

static int
replay_slice(void *arg, const struct rslice *s, struct tr_error *err)
{
	struct bwalk	*w = arg;
	const char	*reason;
	int		 cls;

	if (state_cls(w->names, s, &cls, &reason, err) != 0)
		return (-1);
	tr_dsched_state(w->ds, w->track, s->ts, s->dur, cls, s->cat_id,
	    reason, s->cs, s->args, s->args_len,
	    has_unfinished(s->args, s->args_len));
	return (0);
}

/*
 * Where the replay of a goroutine must start for the intervals around
 * lo: the run of the last transition with a stack before lo into
 * another state than the ones that follow it up to lo (what is open at
 * lo opened after it, and what opens at it closes before lo).  INT64_MIN:
 * from the start.  Returns 0, or -1 with 'err' set.
 */
static int
replay_start(sqlite3_stmt *back, struct bwalk *w, int64_t *start,
    struct tr_error *err)
{
	int	g = -1, rc, r = 0;
	size_t	i;

	*start = INT64_MIN;
	sqlite3_bind_int64(back, 1, w->track);
	sqlite3_bind_int64(back, 2, w->lo);
	while ((rc = sqlite3_step(back)) == SQLITE_ROW) {
		w->n = 0;
		if ((r = walk_row(back, back_slice, w, err)) != 0)
			break;
		for (i = w->n; i-- > 0;) {
			if (g < 0)
				g = w->gst[i];
			else if (w->gst[i] != g) {
				*start = sqlite3_column_int64(back, 0);
				break;
			}
		}
		if (*start != INT64_MIN)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE && r == 0)
		r = tr_db_error(w->names->db, err, "cannot read slice_run");
	sqlite3_reset(back);
	return (r < 0 ? -1 : 0);
}

int
tr_derived_blocked(struct tr_db *db, int64_t source_id, int64_t goid,
    int64_t lo, int64_t hi, struct tr_dsched *ds, struct tr_error *err)
{
	struct names	 names;
	struct bwalk	 w;
	sqlite3_stmt	*tracks, *back = NULL, *first = NULL, *fwd = NULL;
	int64_t		 start;
	int		 rc, r = 0;

	memset(&w, 0, sizeof w);
	names_init(&names, db);
	w.names = &names;
	w.ds = ds;
	w.lo = lo;
	if ((tracks = tr_db_prepare(db, "SELECT id FROM track WHERE "
	    "source_id = ?1 AND kind = '" TR_TRACK_GOROUTINE "' AND (?2 < 0 "
	    "OR ref = ?2) ORDER BY id", err)) == NULL ||
	    (back = tr_db_prepare(db, "SELECT ts, slices, id FROM slice_run "
	    "WHERE track_id = ?1 AND ts < ?2 ORDER BY ts DESC, id DESC",
	    err)) == NULL ||
	    (first = tr_db_prepare(db, "SELECT ts, slices, id FROM slice_run "
	    "WHERE track_id = ?1 ORDER BY ts, id", err)) == NULL ||
	    (fwd = tr_db_prepare(db, "SELECT ts, slices, id FROM slice_run "
	    "WHERE track_id = ?1 AND ts >= ?2 ORDER BY ts, id", err)) == NULL) {
		r = -1;
		goto out;
	}
	sqlite3_bind_int64(tracks, 1, source_id);
	sqlite3_bind_int64(tracks, 2, goid);
	while (r == 0 && (rc = sqlite3_step(tracks)) == SQLITE_ROW) {
		w.track = sqlite3_column_int64(tracks, 0);
		tr_dsched_goroutine(ds, w.track, 0);
		if ((r = replay_start(back, &w, &start, err)) != 0)
			break;
		/* Fed from later on, it is told its first run. */
		if (start != INT64_MIN) {
			w.fr = INT64_MAX;
			sqlite3_bind_int64(first, 1, w.track);
			while ((rc = sqlite3_step(first)) == SQLITE_ROW &&
			    (r = walk_row(first, first_running, &w, err)) == 0)
				;
			sqlite3_reset(first);
			if (r < 0)
				break;
			if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
				r = tr_db_error(db, err, "cannot read "
				    "slice_run");
				break;
			}
			r = 0;
			tr_dsched_first_run(ds, w.track, w.fr);
		}
		sqlite3_bind_int64(fwd, 1, w.track);
		sqlite3_bind_int64(fwd, 2, start);
		while ((rc = sqlite3_step(fwd)) == SQLITE_ROW) {
			/* Past hi, until what was open at hi closes. */
			if (sqlite3_column_int64(fwd, 0) >= hi &&
			    !tr_dsched_open(ds, w.track, hi))
				break;
			if ((r = walk_row(fwd, replay_slice, &w, err)) != 0)
				break;
		}
		sqlite3_reset(fwd);
		if (r == 0 && rc != SQLITE_ROW && rc != SQLITE_DONE)
			r = tr_db_error(db, err, "cannot read slice_run");
	}
	if (r == 0 && rc != SQLITE_DONE)
		r = tr_db_error(db, err, "cannot read tracks");
	if (r == 0)
		tr_dsched_finish(ds);
out:
	sqlite3_finalize(tracks);
	sqlite3_finalize(back);
	sqlite3_finalize(first);
	sqlite3_finalize(fwd);
	names_release(&names);
	free(w.gst);
	return (r < 0 ? -1 : 0);
}
