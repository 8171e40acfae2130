/*
 * The store writer (store/writer.h): in-memory interning in front of the
 * store's unique keys, row ids assigned here, multi-row batches for
 * samples and counters, slice runs, the observers that derived tables
 * hang on the add path, and the writer thread that can run the inserts
 * while the importer parses on.
 */
#include "config.h"
#include "store/writer.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/counter.h"
#include "store/derived.h"

enum {
	ST_STR_GET, ST_STR_PUT,
	ST_FRAME_GET, ST_FRAME_PUT,
	ST_CS_GET, ST_CS_PUT,
	ST_PROC_GET, ST_PROC_PUT,
	ST_THREAD_GET, ST_THREAD_PUT,
	ST_SAMPLE, ST_PROFILE, ST_TRACK, ST_SLICE, ST_COUNTER,
	ST_TRACK_META, ST_TRACK_SET,
	ST_COUNT
};

/*
 * The rows of the big tables go in BATCH at a time: one INSERT of many
 * rows opens its cursors, checks its constraints and halts once, which
 * is most of what a one-row INSERT costs (callgrind: ~9,900 instructions
 * a counter row one by one; 18% fewer in all in batches of 32).  Row k
 * of a batch binds parameters k * ncols + 1...; parameters left unbound
 * are NULL, and the WHERE drops those rows, so a part-filled batch is
 * written by the same statement.  OR FAIL: a statement that may stop
 * half-way needs no statement journal (the import as a whole rolls back),
 * which for a many-row OR ABORT statement SQLite writes to a temp file.
 */
#define BATCH	32
static const struct batch {
	int		 st;
	const char	*table;
	const char	*cols;
	int		 ncols;
} batches[] = {
	{ ST_SAMPLE, "sample", "source_id, profile_id, ts, thread_id, cpu, "
	    "callsite_id, event_id, value, labels", 9 },
};
#define NBATCHES	(sizeof batches / sizeof *batches)

/*
 * The writer gives the rows whose ids it returns their ids itself: the
 * import holds the store's write lock (BEGIN IMMEDIATE) from before the
 * writer is made until after it is freed, so nothing else adds rows, and
 * the next id of a table is one more than its largest.  (SQLite would
 * give the same ids: a rowid table without AUTOINCREMENT takes the
 * largest plus one.)  That is what lets the inserts run in another thread:
 * no row id, and no error, has to come back from them at once.
 */
enum { ID_STR, ID_FRAME, ID_CS, ID_PROC, ID_THREAD, ID_PROFILE, ID_TRACK,
	ID_COUNT };
static const char *const id_sql[ID_COUNT] = {
	"SELECT max(id) FROM str",
	"SELECT max(id) FROM frame",
	"SELECT max(id) FROM callsite",
	"SELECT max(id) FROM process",
	"SELECT max(id) FROM thread",
	"SELECT max(id) FROM profile",
	"SELECT max(id) FROM track",
};

static const char *const stmt_sql[ST_COUNT] = {
	"SELECT id FROM str WHERE s = ?1",
	"INSERT INTO str (id, s) VALUES (?1, ?2)",
	"SELECT id FROM frame WHERE name = ?1 AND module = ?2 AND file = ?3 "
	    "AND line = ?4 AND addr = ?5 AND inlined = ?6",
	"INSERT INTO frame (id, line, addr, inlined, name, module, file) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	"SELECT id FROM callsite WHERE parent_id IS ?1 AND frame_id = ?2",
	"INSERT INTO callsite (id, parent_id, frame_id, depth) "
	    "VALUES (?1, ?2, ?3, ?4)",
	"SELECT id FROM process WHERE host = ?1 AND pid = ?2",
	"INSERT INTO process (id, pid, host, name) VALUES (?1, ?2, ?3, ?4)",
	"SELECT id FROM thread WHERE process_id IS ?1 AND tid IS ?2 "
	    "AND name = ?3",
	"INSERT INTO thread (id, process_id, tid, name) "
	    "VALUES (?1, ?2, ?3, ?4)",
	NULL,	/* ST_SAMPLE: batched, see batches[] */
	"INSERT INTO profile (id, ts, dur, period, type, period_type, "
	    "period_unit, sample_types, default_type, meta, source_id) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, coalesce(?8, '[]'), ?9, "
	    "coalesce(?10, '{}'), ?11)",
	"INSERT INTO track (id, ref, process_id, thread_id, parent_id, kind, "
	    "name, meta, source_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "coalesce(?8, '{}'), ?9)",
	"INSERT INTO slice_run (id, track_id, ts, end_ts, n, slices, "
	    "source_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	"INSERT INTO counter_run (id, track_id, name_id, ts, end_ts, n, "
	    "points, source_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	"UPDATE track SET meta = json_set(meta, ?2, ?3) WHERE id = ?1",
	/* ST_TRACK_SET: a held track (struct held) and its meta's update. */
	"INSERT INTO track (id, ref, process_id, thread_id, parent_id, kind, "
	    "name, meta, source_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "json_set(coalesce(?8, '{}'), ?10, ?11), ?9)",
};

/*
 * A row on its way to the store: the insert statement 'kind' (an ST_*
 * PUT), its numbers, and its texts (tlen -1: NULL).  The numbers bind
 * first, as parameters 1...nv, then the texts; what each op means is in
 * op_exec().  Through the writer thread an op is copied into a block,
 * its texts after it, each followed by a NUL (the observers' hooks get
 * C strings), and the thread also runs the observers' add hooks: after
 * the op of a track or a sample, and at the ops that are only for them
 * (a slice, as a struct sop below: its row waits in a run; a watermark).
 */
#define OP_NV		8
#define OP_NT		6
#define OP_FLUSH	ST_COUNT	/* write the batches as they stand */
#define OP_SLICE	(ST_COUNT + 1)	/* a slice: its run, its hooks */
#define OP_WATERMARK	(ST_COUNT + 2)	/* the watermark hooks, v[0] */
#define OP_HOLD		(ST_COUNT + 3)	/* hold tracks of the kind t[0] */
struct op {
	int32_t		 kind, nt;
	int64_t		 v[OP_NV];
	double		 d;
	int64_t		 tlen[OP_NT];
};

/*
 * A slice's op (OP_SLICE), the one op made per slice: through the thread
 * it is this, not a struct op, written in place in the block (its args
 * after it, with their NUL) and read back as the hooks' struct, so that
 * neither side fills or copies the 128 bytes of a struct op (op_init()
 * and op_put() were a third of tr_writer_add_slice()).  's.args' is set
 * by the reader.  The writer thread puts the slice in its track's run
 * (slice_add()) and runs its hooks: the runs are the writing side's.
 */
struct sop {
	int32_t		 kind, pad;
	struct tr_slice	 s;
};

/*
 * The writer thread's queue: the importer fills a block of ops and hands
 * it over when full; at most QMAX wait, so memory stays bounded (6 MB)
 * and the importer waits when SQLite is the slower side.  The writer is
 * the slower side in bursts: at RUN_PENDING a Go trace's runs are written
 * together, up to some 16 MB of ops that the writer turns into JSON and
 * rows while the importer would parse on.  With 8 blocks (1 MB) the
 * importer waited at a third of its blocks, 0.4 s of a 2.7 s import of
 * a 35 MB Go 1.19 trace; with 96 at one in sixteen, 0.1 s.  Once go_span
 * was written by the writer thread too (schema version 9), on that trace
 * and on a 152 MB one: 32 blocks 2.16 s and 9.08 s, peak RSS 90 and 97
 * MB; 48 blocks 2.06 s and 8.47 s, 93 and 99 MB; 64 blocks 1.97 s and
 * 8.66 s, 95 and 101 MB; 96 blocks 1.88 s and 8.68 s, 99 and 105 MB.
 * 48 keeps the peak under issue 17's 100 MB.  Since the runs are the
 * writer thread's (slice_add()), 16 blocks of 32 kB made a 29 MB trace's
 * import 1.66-1.80 s against 1.41-1.58 s with 48 of 128 kB: the two
 * sides still take turns being the slower.
 */
#define BLOCK	(128 * 1024)
#define RUN_CACHE	1024
#define QMAX	48
/*
 * Every this many blocks (8 MB of ops) the writer thread asks for what
 * SQLite has written of a store made whole to be synced as the import
 * goes (tr_db_writeback()), not all by the fsync() at the end.
 */
#define WRITEBACK_BLOCKS	64
struct blk {
	struct blk	*next;
	size_t		 len, cap;
	char		 data[];
};

struct tr_writer {
	struct tr_db			*db;
	int64_t				 source_id;
	size_t				 cache_cap, run_cap;
	/*
	 * The counts, which the importer's thread writes at each add, in
	 * cache lines of their own: beside the statements and run_cap that
	 * the writer thread reads at each row, each add moved a line from
	 * one core to the other (64 bytes either side, as the writer is
	 * calloc()ed only 16-aligned).
	 */
	char				 pad0[64];
	struct tr_writer_counts		 n;
	char				 pad1[64];
	sqlite3_stmt			*st[ST_COUNT];

	struct tr_map			*strs, *frames;
	struct cs_map			*callsites;
	/* The generation before (see gen_put()), or NULL. */
	struct tr_map			*frames_old;
	struct cs_map			*callsites_old;
	struct tr_map			*procs, *threads;
	struct tr_buf			 key;
	/*
	 * The largest ids before this import (old) and the last given
	 * (last).  A row whose key holds an id newer than old cannot be in
	 * the store before it, so its lookup is skipped; a table that had
	 * no row has nothing to look up until its cache is emptied.
	 */
	int64_t				 old[ID_COUNT], last[ID_COUNT];
	/* A cache was emptied: what it held must be looked up again. */
	int				 strs_evicted, frames_evicted;
	int				 cs_evicted, other_evicted;
	/*
	 * Every key this import added, as bits (see seen_add()), or while
	 * there are few (NULL), as their hashes in seen_log.
	 */
	uint64_t			*seen;
	uint64_t			*seen_log;
	size_t				 seen_nlog;

	char				*host;

	/* Rows waiting in each batched statement (the inserting side). */
	int				 pending[ST_COUNT];
	int				 ncols[ST_COUNT];

	/* Slices not yet written, a run per track (see flush_run()). */
	struct tr_imap			 runs;
	/*
	 * In front of 'runs', by the low bits of the track id: a Go trace's
	 * tracks interleave, and the map's lookup was a tenth of
	 * tr_writer_add_slice().
	 */
	struct run			*rcache[RUN_CACHE];
	size_t				 run_slices;	/* in all */
	struct run_chunk		*free_chunks;
	int64_t				 next_slice_id;
	struct tr_buf			 json;
	struct tr_buf			 rjson;	/* flush_run()'s: a run's JSON */

	/* Counters not yet written, a run per track and name (crun). */
	struct tr_imap			 cruns;
	size_t				 crun_points;	/* in all */
	uint64_t			 crun_seq;
	int64_t				 next_counter_id;

	/* Observers, in the order attached. */
	int				 nobs;
	const struct tr_writer_hooks	*obs[TR_WRITER_MAXOBS];
	void				*obs_arg[TR_WRITER_MAXOBS];
	/* Any observer of this kind of row: the add path skips the loop. */
	int				 obs_track, obs_sample, obs_slice;
	int				 obs_counter, obs_run, obs_meta;

	/*
	 * The writer thread (tr_writer_thread()).  Under 'mu': the queue,
	 * the free blocks, busy (a block is being written), quit, failed
	 * and terr (the thread's first error).  'cur' is the importer's.
	 */
	int				 threaded;
	pthread_t			 thr;
	pthread_mutex_t			 mu;
	pthread_cond_t			 work, done;
	struct blk			*q[QMAX];
	int				 qhead, qn, busy, quit, failed;
	int64_t				 waits;	/* lookups that waited */
	struct blk			*cur, *free_blks;
	struct tr_error			 terr;

	/* The tracks held back (tr_writer_hold_tracks()): the writing side's. */
	char				*hold_kind;
	struct tr_imap			 held;	/* id -> struct held */
	struct tr_buf			 hjson;	/* a held one's meta, set */
	struct held			*hhead, *htail;
	size_t				 nheld;
};

/*
 * A track row of the kind held back, with its texts, and the member of
 * its meta set since (NULL: none), until HOLD_MAX newer ones are held or
 * the batches are flushed: a goroutine that ends while its row is held
 * is written once, not written and then updated (the update was a fifth
 * of the import of 400k goroutines that each run once).
 */
#define HOLD_MAX	4096
struct held {
	struct held	*next;
	struct op	 o;
	char		*text;		/* the op's texts, each NUL-ended, after it */
	char		*path;
	int64_t		 value;
};

/*
 * A track's slices waiting to go into one row of slice_run.  Their args
 * follow one another in run->args, in the order of the slices (so a
 * slice's are after those of the slices before it: no offset is kept,
 * which made the record, the pending runs and the thread's queue a
 * seventh larger).
 */
struct run_slice {
	int64_t	ts, dur, name_id, category_id, callsite_id;
	size_t	args_len;		/* in run->args; 0: none */
};
/* A run's slices, RUN_CHUNK at a time, from a pool (see add_slice). */
#define RUN_CHUNK	16
struct run_chunk {
	struct run_chunk	*next;
	struct run_slice	 s[RUN_CHUNK];
};
struct run {
	int64_t			 track_id;
	int			 n;
	struct run_chunk	*head, *tail;
	struct tr_buf		 args;
};

/*
 * No derived table yet: the derived-table module adds its attach
 * function here (one line), as importers go in tr_importer_table[].
 */
int (*const tr_writer_observers[])(struct tr_writer *, struct tr_error *) = {
	tr_derived_observe,
	NULL
};

static int	slice_add(struct tr_writer *, const struct tr_slice *,
		    struct tr_error *);

/* Step a statement that returns no row, then reset it. */
static int
step_done(struct tr_writer *w, sqlite3_stmt *st, struct tr_error *err)
{
	int	rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(w->db, err, "cannot write to store"));
	return (0);
}

static void
bind_text(sqlite3_stmt *st, int i, const char *s, size_t n)
{
	if (s == NULL)
		sqlite3_bind_text(st, i, "", 0, SQLITE_STATIC);
	else
		sqlite3_bind_text(st, i, s, (int)n, SQLITE_TRANSIENT);
}

static void
bind_id(sqlite3_stmt *st, int i, int64_t id)
{
	if (id > 0)
		sqlite3_bind_int64(st, i, id);
	else
		sqlite3_bind_null(st, i);
}

/* --- the inserting side: in the importer's thread or the writer's ---- */

/* INSERT INTO table (cols) SELECT * FROM (VALUES (?, ...) x BATCH) ... */
static char *
batch_sql(const struct batch *b)
{
	struct tr_buf	sql;
	int		i, k;

	tr_buf_init(&sql);
	tr_buf_printf(&sql, "INSERT OR FAIL INTO %s (%s) SELECT * FROM "
	    "(VALUES ", b->table, b->cols);
	for (k = 0; k < BATCH; k++) {
		tr_buf_adds(&sql, k ? ", (" : "(");
		for (i = 0; i < b->ncols; i++)
			tr_buf_printf(&sql, "%s?%d", i ? ", " : "",
			    k * b->ncols + i + 1);
		tr_buf_adds(&sql, ")");
	}
	tr_buf_adds(&sql, ") WHERE column1 IS NOT NULL");
	return (sql.data);
}

/* Write the rows batch 'st' holds. */
static int
batch_flush(struct tr_writer *w, int st, struct tr_error *err)
{
	if (w->pending[st] == 0)
		return (0);
	w->pending[st] = 0;
	if (step_done(w, w->st[st], err) != 0)
		return (-1);
	sqlite3_clear_bindings(w->st[st]);
	return (0);
}

/* Text 'i' of op 'o' as parameter 'p' (a batch's: copied by SQLite). */
static void
op_text(sqlite3_stmt *st, int p, const struct op *o, const char *const *t,
    int i, int batched)
{
	if (o->tlen[i] < 0)
		sqlite3_bind_null(st, p);
	else
		sqlite3_bind_text(st, p, o->tlen[i] ? t[i] : "",
		    (int)o->tlen[i], batched ? SQLITE_TRANSIENT :
		    SQLITE_STATIC);
}

/*
 * The numbers of a one-row op that bind NULL: an id of 0 (bit i: v[i]),
 * or a negative number (a thread's unknown tid).
 */
static const unsigned op_ids[ST_COUNT] = {
	[ST_CS_PUT] = 1 << 1,		/* parent_id */
	[ST_THREAD_PUT] = 1 << 1,	/* process_id */
	[ST_TRACK] = 1 << 2 | 1 << 3 | 1 << 4,
	[ST_TRACK_SET] = 1 << 2 | 1 << 3 | 1 << 4,
};
static const unsigned op_neg[ST_COUNT] = {
	[ST_THREAD_PUT] = 1 << 2,	/* tid */
};

static char *
put_null(char *o)
{
	memcpy(o, "null", 4);
	return (o + 4);
}

/*
 * The slices of run 'r' (at least one) as slice_run.slices (trace-store(5))
 * into 'j', from its chunks; *t0 and *end the run's (its times are from
 * *t0).
 */
static void
run_json(struct tr_buf *j, const struct run *r, int64_t *t0, int64_t *end)
{
	const struct run_chunk	*k;
	const struct run_slice	*s;
	const char		*args = r->args.data;
	size_t			 aoff = 0;
	int			 i, last;
	char			*o, *start;

	*t0 = INT64_MAX;
	*end = INT64_MIN;
	for (k = r->head, i = 0; i < r->n; i++) {
		s = &k->s[i % RUN_CHUNK];
		if (s->ts < *t0)
			*t0 = s->ts;
		if (s->ts + s->dur > *end)
			*end = s->ts + s->dur;
		if (i % RUN_CHUNK == RUN_CHUNK - 1)
			k = k->next;
	}
	/* Each slice: 5 numbers of 20 characters at most, 10 more, args. */
	tr_buf_reset(j);
	o = start = tr_buf_reserve(j, (size_t)r->n * 110 + r->args.len + 2);
	*o++ = '[';
	for (k = r->head, i = 0; i < r->n; i++) {
		s = &k->s[i % RUN_CHUNK];
		if (i % RUN_CHUNK == RUN_CHUNK - 1)
			k = k->next;
		if (i > 0)
			*o++ = ',';
		*o++ = '[';
		/* (Not negative: tr_put_uint() without tr_put_int()'s call.) */
		o = tr_put_uint(o, (uint64_t)(s->ts - *t0));
		*o++ = ',';
		o = tr_put_int(o, s->dur);
		*o++ = ',';
		o = tr_put_id(o, s->name_id);
		/* The last field present; the ones after it are left out. */
		last = s->args_len ? 5 : s->callsite_id > 0 ? 4 :
		    s->category_id > 0 ? 3 : 2;
		if (last >= 3) {
			*o++ = ',';
			o = s->category_id > 0 ? tr_put_id(o, s->category_id) :
			    put_null(o);
		}
		if (last >= 4) {
			*o++ = ',';
			o = s->callsite_id > 0 ? tr_put_id(o, s->callsite_id) :
			    put_null(o);
		}
		if (last == 5) {
			*o++ = ',';
			memcpy(o, args + aoff, s->args_len);
			o += s->args_len;
			aoff += s->args_len;
		}
		*o++ = ']';
	}
	*o++ = ']';
	*o = '\0';
	j->len = (size_t)(o - start);
}

/*
 * Write op 'o' with texts 't'.  One-row statements bind v[0], the row's
 * own id, and the other numbers as parameters 1..., then the texts, then
 * the source id when the table has one (profile, track, slice_run).
 */
/*
 * Bind op 'o' (texts 't') to one-row statement 'st' as statement 'kind'
 * takes it: v[0] and the other 'nv' - 1 numbers, the texts, the source.
 */
static void
op_bind(struct tr_writer *w, sqlite3_stmt *st, int kind, const struct op *o,
    const char *const *t, int nv)
{
	int	i;

	sqlite3_bind_int64(st, 1, o->v[0]);
	for (i = 1; i < nv; i++)
		if ((op_ids[kind] >> i & 1) && o->v[i] <= 0)
			sqlite3_bind_null(st, i + 1);
		else if ((op_neg[kind] >> i & 1) && o->v[i] < 0)
			sqlite3_bind_null(st, i + 1);
		else
			sqlite3_bind_int64(st, i + 1, o->v[i]);
	for (i = 0; i < o->nt; i++)
		op_text(st, nv + i + 1, o, t, i, 0);
	if (kind >= ST_PROFILE)
		sqlite3_bind_int64(st, nv + o->nt + 1, w->source_id);
}

static void
held_free(void *p)
{
	struct held	*h = p;

	if (h != NULL)
		free(h->path);
	free(h);
}

/*
 * Meta 'm' (n bytes) with member 'path' set to 'v', as json_set() writes
 * it, into 'b': when 'm' is an object with no white space, no escape and
 * no member of that name, and 'path' is "$.NAME" of letters, digits and
 * '_', the member goes last, which is what json_set() does for a new
 * member of such text (SQLite renders it again without white space,
 * values as they read).  Returns 1, or 0 for anything else (json_set()
 * then).
 */
static int
meta_set(struct tr_buf *b, const char *m, size_t n, const char *path,
    int64_t v)
{
	const char	*k = path + 2;
	size_t		 i, kn;

	if (strncmp(path, "$.", 2) != 0 || (kn = strlen(k)) == 0 || n < 2 ||
	    m[0] != '{' || m[n - 1] != '}')
		return (0);
	for (i = 0; i < kn; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' &&
		    k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
			return (0);
	for (i = 0; i < n; i++)
		if (m[i] == ' ' || m[i] == '\t' || m[i] == '\n' ||
		    m[i] == '\r' || m[i] == '\\' || (m[i] == '"' &&
		    i + kn + 2 <= n && memcmp(m + i + 1, k, kn) == 0 &&
		    m[i + kn + 1] == '"'))
			return (0);
	tr_buf_reset(b);
	tr_buf_add(b, m, n - 1);
	tr_buf_printf(b, "%s\"%s\":%lld}", n > 2 ? "," : "", k, (long long)v);
	return (1);
}

/* Write held track 'h' (with its meta's member, if set) and let it go. */
static int
unhold(struct tr_writer *w, struct held *h, struct tr_error *err)
{
	const char	*t[OP_NT];
	sqlite3_stmt	*st;
	struct held	*prev = NULL, *q;
	char		*p = h->text;
	int		 i, rc, set = h->path != NULL;

	for (i = 0; i < h->o.nt; i++) {
		t[i] = p;
		if (h->o.tlen[i] >= 0)
			p += h->o.tlen[i] + 1;
	}
	/* The meta is text 2 (kind, name, meta); NULL is '{}'. */
	if (set && meta_set(&w->hjson, h->o.tlen[2] >= 0 ? t[2] : "{}",
	    h->o.tlen[2] >= 0 ? (size_t)h->o.tlen[2] : 2, h->path,
	    h->value)) {
		t[2] = w->hjson.data;
		h->o.tlen[2] = (int64_t)w->hjson.len;
		set = 0;
	}
	st = w->st[set ? ST_TRACK_SET : ST_TRACK];
	op_bind(w, st, ST_TRACK, &h->o, t, 5);
	if (set) {
		sqlite3_bind_text(st, 10, h->path, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 11, h->value);
	}
	rc = step_done(w, st, err);
	/* (Most often the oldest; else found from the head.) */
	for (q = w->hhead; q != h; q = q->next)
		prev = q;
	if (prev != NULL)
		prev->next = h->next;
	else
		w->hhead = h->next;
	if (w->htail == h)
		w->htail = prev;
	tr_imap_del(&w->held, (uint64_t)h->o.v[0]);
	w->nheld--;
	held_free(h);
	return (rc);
}

/* Hold track op 'o' back (see struct held); the oldest goes past HOLD_MAX. */
static int
hold(struct tr_writer *w, const struct op *o, const char *const *t,
    struct tr_error *err)
{
	struct held	*h;
	size_t		 n = 0;
	char		*p;
	int		 i;

	if (w->nheld >= HOLD_MAX && unhold(w, w->hhead, err) != 0)
		return (-1);
	for (i = 0; i < o->nt; i++)
		n += o->tlen[i] >= 0 ? (size_t)o->tlen[i] + 1 : 0;
	h = tr_xcalloc(1, sizeof *h + n + 1);
	h->o = *o;
	p = h->text = (char *)(h + 1);
	for (i = 0; i < o->nt; i++)
		if (o->tlen[i] >= 0) {
			memcpy(p, o->tlen[i] ? t[i] : "", (size_t)o->tlen[i]);
			p[o->tlen[i]] = '\0';
			p += o->tlen[i] + 1;
		}
	if (w->htail != NULL)
		w->htail->next = h;
	else
		w->hhead = h;
	w->htail = h;
	tr_imap_put(&w->held, (uint64_t)o->v[0], h);
	w->nheld++;
	return (0);
}

static int
op_exec(struct tr_writer *w, const struct op *o, const char *const *t,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct held	*hp;
	int		 i, p;

	switch (o->kind) {
	case OP_FLUSH:
		for (i = 0; i < (int)NBATCHES; i++)
			if (batch_flush(w, batches[i].st, err) != 0)
				return (-1);
		while (w->hhead != NULL)
			if (unhold(w, w->hhead, err) != 0)
				return (-1);
		return (0);
	case OP_WATERMARK:
		return (0);
	case OP_HOLD:
		free(w->hold_kind);
		w->hold_kind = o->tlen[0] >= 0 ? tr_xstrndup(o->tlen[0] ?
		    t[0] : "", (size_t)o->tlen[0]) : NULL;
		return (0);
	case ST_TRACK_META:
		if (w->nheld > 0 && (hp = tr_imap_get(&w->held,
		    (uint64_t)o->v[0])) != NULL) {
			if (hp->path == NULL) {
				hp->path = tr_xstrndup(o->tlen[0] ? t[0] : "",
				    (size_t)o->tlen[0]);
				hp->value = o->v[1];
				return (0);
			}
			/* A second member: the row goes, then the update. */
			if (unhold(w, hp, err) != 0)
				return (-1);
		}
		st = w->st[ST_TRACK_META];
		sqlite3_bind_int64(st, 1, o->v[0]);
		op_text(st, 2, o, t, 0, 0);
		sqlite3_bind_int64(st, 3, o->v[1]);
		return (step_done(w, st, err));
	case ST_SAMPLE:
		st = w->st[ST_SAMPLE];
		p = w->pending[ST_SAMPLE] * w->ncols[ST_SAMPLE];
		sqlite3_bind_int64(st, p + 1, w->source_id);
		bind_id(st, p + 2, o->v[0]);
		if (o->v[1])
			sqlite3_bind_int64(st, p + 3, o->v[2]);
		else
			sqlite3_bind_null(st, p + 3);
		bind_id(st, p + 4, o->v[3]);
		if (o->v[4] >= 0)
			sqlite3_bind_int64(st, p + 5, o->v[4]);
		else
			sqlite3_bind_null(st, p + 5);
		bind_id(st, p + 6, o->v[5]);
		sqlite3_bind_int64(st, p + 7, o->v[6]);
		sqlite3_bind_int64(st, p + 8, o->v[7]);
		op_text(st, p + 9, o, t, 0, 1);
		break;
	case ST_TRACK:
		if (w->hold_kind != NULL && o->tlen[0] >= 0 &&
		    strcmp(o->tlen[0] ? t[0] : "", w->hold_kind) == 0)
			return (hold(w, o, t, err));
		/* FALLTHROUGH */
	default:
		st = w->st[o->kind];
		op_bind(w, st, o->kind, o, t, sqlite3_bind_parameter_count(st) -
		    o->nt - (o->kind >= ST_PROFILE));
		return (step_done(w, st, err));
	}
	if (++w->pending[o->kind] < BATCH)
		return (0);
	return (batch_flush(w, o->kind, err));
}

/* --- the observers' add hooks: in the importer's thread or the writer's */

enum { H_TRACK, H_SAMPLE, H_SLICE, H_WATERMARK, H_RUN, H_META };

/* What the meta hook is given (tr_writer_set_track_meta()). */
struct meta_row {
	int64_t		 track_id, value;
	const char	*path;
};

/*
 * Call hook 'h' of every observer that has it, on 'row' (a struct
 * tr_track, tr_sample or tr_slice; a run's track id, first slice id and
 * count; a struct meta_row) or 'ts' (a watermark).
 */
static int
obs_call(struct tr_writer *w, int h, const void *row, int64_t ts,
    struct tr_error *err)
{
	const struct tr_writer_hooks	*k;
	void				*a;
	int				 i, rc = 0;

	for (i = 0; i < w->nobs && rc == 0; i++) {
		k = w->obs[i];
		a = w->obs_arg[i];
		if (h == H_TRACK && k->track != NULL)
			rc = k->track(a, row, err);
		else if (h == H_SAMPLE && k->sample != NULL)
			rc = k->sample(a, row, err);
		else if (h == H_SLICE && k->slice != NULL)
			rc = k->slice(a, row, err);
		else if (h == H_WATERMARK && k->watermark != NULL)
			rc = k->watermark(a, ts, err);
		else if (h == H_RUN && k->run != NULL)
			rc = k->run(a, ((const int64_t *)row)[0],
			    ((const int64_t *)row)[1],
			    ((const int64_t *)row)[2], err);
		else if (h == H_META && k->meta != NULL)
			rc = k->meta(a, ((const struct meta_row *)row)->track_id,
			    ((const struct meta_row *)row)->path,
			    ((const struct meta_row *)row)->value, err);
	}
	return (rc != 0 ? -1 : 0);
}

/* Text i of op 'o' as a hook gets it: NULL, or a C string. */
static const char *
op_str(const struct op *o, const char *const *t, int i)
{
	return (o->tlen[i] < 0 ? NULL : o->tlen[i] ? t[i] : "");
}

/*
 * In the writer thread, after op 'o' is written: the observers' hooks of
 * its row, given what the importer's thread gave them without the thread
 * (the op holds all of it: see tr_writer_add_track(), _sample() and
 * tr_writer_watermark(); a slice's, struct sop, is blk_exec()'s).
 */
static int
op_obs(struct tr_writer *w, const struct op *o, const char *const *t,
    struct tr_error *err)
{
	struct tr_track		tk;
	struct tr_sample	sm;
	struct meta_row		mr;

	switch (o->kind) {
	case ST_TRACK:
		if (!w->obs_track)
			return (0);
		tk.id = o->v[0];
		tk.ref = o->v[1];
		tk.process_id = o->v[2] > 0 ? o->v[2] : 0;
		tk.thread_id = o->v[3] > 0 ? o->v[3] : 0;
		tk.parent_id = o->v[4] > 0 ? o->v[4] : 0;
		tk.kind = op_str(o, t, 0);
		tk.name = op_str(o, t, 1);
		tk.meta = op_str(o, t, 2);
		return (obs_call(w, H_TRACK, &tk, 0, err));
	case ST_SAMPLE:
		if (!w->obs_sample)
			return (0);
		sm.profile_id = o->v[0];
		sm.has_ts = (int)o->v[1];
		sm.ts = o->v[2];
		sm.thread_id = o->v[3];
		sm.cpu = (int)o->v[4];
		sm.callsite_id = o->v[5];
		sm.event_id = o->v[6];
		sm.value = o->v[7];
		sm.labels = op_str(o, t, 0);
		return (obs_call(w, H_SAMPLE, &sm, 0, err));
	case OP_WATERMARK:
		return (obs_call(w, H_WATERMARK, NULL, o->v[0], err));
	case ST_TRACK_META:
		if (!w->obs_meta)
			return (0);
		mr.track_id = o->v[0];
		mr.value = o->v[1];
		mr.path = op_str(o, t, 0);
		return (obs_call(w, H_META, &mr, 0, err));
	}
	return (0);
}

/* Write the ops of block 'b' (in the writer thread), and run the hooks. */
static int
blk_exec(struct tr_writer *w, const struct blk *b, struct tr_error *err)
{
	const char	*p = b->data, *end = p + b->len, *t[OP_NT];
	struct op	 o;
	struct sop	 so;
	int		 i;

	while (p < end) {
		memcpy(&so.kind, p, sizeof so.kind);
		if (so.kind == OP_SLICE) {
			memcpy(&so, p, sizeof so);
			p += sizeof so;
			so.s.args = so.s.args_len > 0 ? p : NULL;
			if (so.s.args_len > 0)
				p += so.s.args_len + 1;
			p = b->data + (((size_t)(p - b->data) + 7) &
			    ~(size_t)7);
			if (slice_add(w, &so.s, err) != 0)
				return (-1);
			continue;
		}
		memcpy(&o, p, sizeof o);
		p += sizeof o;
		for (i = 0; i < o.nt; i++) {
			t[i] = p;
			if (o.tlen[i] >= 0)
				p += o.tlen[i] + 1;
		}
		/* The next op starts aligned. */
		p = b->data + (((size_t)(p - b->data) + 7) & ~(size_t)7);
		if (op_exec(w, &o, t, err) != 0 || op_obs(w, &o, t, err) != 0)
			return (-1);
	}
	return (0);
}

static void
blk_release(struct tr_writer *w, struct blk *b)
{
	if (b->cap > BLOCK) {
		free(b);
		return;
	}
	b->next = w->free_blks;
	w->free_blks = b;
}

/*
 * The writer thread: write each block handed over, in order, and give
 * it back.  After the first error it only gives them back (the import
 * fails and rolls back); the importer sees 'failed' when it hands over
 * or waits.
 */
static void *
writer_main(void *arg)
{
	struct tr_writer	*w = arg;
	struct tr_error		 e;
	struct blk		*b;
	unsigned		 nblk = 0;
	int			 failed, rc;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->qn == 0 && !w->quit)
			pthread_cond_wait(&w->work, &w->mu);
		if (w->qn == 0)
			break;
		b = w->q[w->qhead];
		w->qhead = (w->qhead + 1) % QMAX;
		w->qn--;
		w->busy = 1;
		failed = w->failed;
		pthread_cond_signal(&w->done);
		pthread_mutex_unlock(&w->mu);
		rc = 0;
		if (!failed) {
			tr_error_init(&e);
			rc = blk_exec(w, b, &e);
		}
		if (rc == 0 && ++nblk % WRITEBACK_BLOCKS == 0)
			tr_db_writeback(w->db);
		pthread_mutex_lock(&w->mu);
		if (rc != 0 && !w->failed) {
			w->failed = 1;
			w->terr = e;
		}
		blk_release(w, b);
		w->busy = 0;
		pthread_cond_signal(&w->done);
	}
	pthread_mutex_unlock(&w->mu);
	return (NULL);
}

/* The writer thread's error into 'err' (the first error wins): -1. */
static int
thread_error(struct tr_writer *w, struct tr_error *err)
{
	if (err != NULL && err->code == 0)
		*err = w->terr;
	return (-1);
}

/* Hand the importer's block over, waiting while the queue is full. */
static int
blk_push(struct tr_writer *w, struct tr_error *err)
{
	struct blk	*b = w->cur;
	int		 failed;

	w->cur = NULL;
	pthread_mutex_lock(&w->mu);
	while (w->qn == QMAX && !w->failed)
		pthread_cond_wait(&w->done, &w->mu);
	if (!(failed = w->failed)) {
		w->q[(w->qhead + w->qn) % QMAX] = b;
		w->qn++;
		pthread_cond_signal(&w->work);
	} else
		blk_release(w, b);
	pthread_mutex_unlock(&w->mu);
	return (failed ? thread_error(w, err) : 0);
}

/*
 * Wait until every op handed over is written and the writer thread is
 * idle: then the importer's thread may use the connection itself (a
 * lookup, an observer's finish, COMMIT).  Returns 0, or -1 with the
 * writer thread's error.
 */
static int
wsync(struct tr_writer *w, struct tr_error *err)
{
	int	failed;

	if (!w->threaded)
		return (0);
	if (w->cur != NULL && w->cur->len > 0 && blk_push(w, err) != 0)
		return (-1);
	pthread_mutex_lock(&w->mu);
	while (w->qn > 0 || w->busy)
		pthread_cond_wait(&w->done, &w->mu);
	failed = w->failed;
	pthread_mutex_unlock(&w->mu);
	return (failed ? thread_error(w, err) : 0);
}

/*
 * Room for 'need' bytes (a multiple of 8) at the end of the importer's
 * block, handing it over first when full: where to write them, or NULL
 * with the writer thread's error.  blk_room() below when the block has
 * no room.
 */
static char *
blk_room_new(struct tr_writer *w, size_t need, struct tr_error *err)
{
	struct blk	*b;
	size_t		 sz;
	char		*p;

	if (w->cur != NULL && blk_push(w, err) != 0)
		return (NULL);
	if (w->cur == NULL) {
		pthread_mutex_lock(&w->mu);
		if ((b = w->free_blks) != NULL && b->cap >= need)
			w->free_blks = b->next;
		else
			b = NULL;
		pthread_mutex_unlock(&w->mu);
		if (b == NULL) {
			sz = need > BLOCK ? need : BLOCK;
			b = tr_xmalloc(sizeof *b + sz);
			b->cap = sz;
		}
		b->len = 0;
		w->cur = b;
	}
	p = w->cur->data + w->cur->len;
	w->cur->len += need;
	return (p);
}

/* (Inline: nearly every call has room in the block as it is.) */
static inline char *
blk_room(struct tr_writer *w, size_t need, struct tr_error *err)
{
	char	*p;

	if (w->cur == NULL || w->cur->len + need > w->cur->cap)
		return (blk_room_new(w, need, err));
	p = w->cur->data + w->cur->len;
	w->cur->len += need;
	return (p);
}

/*
 * Write op 'o' with texts 't' (o->tlen given; NULL texts -1): at once
 * without the writer thread, else copied into the importer's block.
 */
static int
op_put(struct tr_writer *w, struct op *o, const char *const *t,
    struct tr_error *err)
{
	size_t		 need = sizeof *o;
	char		*p;
	int		 i;

	if (!w->threaded)
		return (op_exec(w, o, t, err));
	for (i = 0; i < o->nt; i++)
		if (o->tlen[i] >= 0)
			need += (size_t)o->tlen[i] + 1;
	need = (need + 7) & ~(size_t)7;
	if ((p = blk_room(w, need, err)) == NULL)
		return (-1);
	memcpy(p, o, sizeof *o);
	p += sizeof *o;
	for (i = 0; i < o->nt; i++)
		if (o->tlen[i] >= 0) {
			memcpy(p, t[i], (size_t)o->tlen[i]);
			p += o->tlen[i];
			*p++ = '\0';
		}
	return (0);
}

/* Op 'kind' with no texts yet, numbers zero. */
static void
op_init(struct op *o, int kind)
{
	memset(o, 0, sizeof *o);
	o->kind = kind;
}

/* Add text 's' (NULL: NULL; 'empty': NULL binds as '') of 'n' bytes. */
static void
op_add_text(struct op *o, const char **t, const char *s, size_t n,
    int empty)
{
	if (s == NULL && empty) {
		s = "";
		n = 0;
	}
	t[o->nt] = s;
	o->tlen[o->nt++] = s == NULL ? -1 : (int64_t)n;
}

int64_t	tr_writer_threads_started;

int
tr_writer_thread(struct tr_writer *w, struct tr_error *err)
{
	const char	*no = getenv("TRACEKIT_WRITER_THREAD");
	int		 i;

	/*
	 * SQLite built without threads cannot share a connection between
	 * two.  An observer's add hooks run in the thread only when it says
	 * they may; counter hooks run in the importer's thread (at
	 * tr_writer_add_counter()), which would race with the others.
	 */
	if (w->threaded || !sqlite3_threadsafe() || w->obs_counter ||
	    (no != NULL && strcmp(no, "0") == 0))
		return (0);
	for (i = 0; i < w->nobs; i++)
		if (!w->obs[i]->on_thread)
			return (0);
	if (pthread_mutex_init(&w->mu, NULL) != 0)
		return (tr_error_set(err, TR_EIO, "cannot start the writer "
		    "thread"));
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	if (pthread_create(&w->thr, NULL, writer_main, w) != 0) {
		pthread_cond_destroy(&w->work);
		pthread_cond_destroy(&w->done);
		pthread_mutex_destroy(&w->mu);
		return (tr_error_set(err, TR_EIO, "cannot start the writer "
		    "thread"));
	}
	w->threaded = 1;
	tr_writer_threads_started++;
	return (0);
}

/* Stop the writer thread, dropping what waits (a failed import). */
static void
thread_stop(struct tr_writer *w)
{
	struct blk	*b;

	if (!w->threaded)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = 1;
	if (w->qn > 0 && !w->failed) {
		w->failed = 1;
		tr_error_set(&w->terr, TR_EIO, "the writer was stopped");
	}
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thr, NULL);
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->done);
	pthread_mutex_destroy(&w->mu);
	free(w->cur);
	w->cur = NULL;
	while ((b = w->free_blks) != NULL) {
		w->free_blks = b->next;
		free(b);
	}
	w->threaded = 0;
}

/* --- interning: the importer's side --------------------------------- */

#define SYNC_WAITS	20000

/*
 * Step a lookup: 1 with *id set, 0 for no row, -1 on error.  What the
 * writer thread still holds is written first, so the store has every row.
 */
static int
step_get(struct tr_writer *w, sqlite3_stmt *st, int64_t *id,
    struct tr_error *err)
{
	int	rc;

	if (wsync(w, err) != 0) {
		sqlite3_reset(st);
		return (-1);
	}
	/*
	 * Each lookup waited for the writer thread: when they are many (a
	 * store that has most of the rows, caches that keep emptying), the
	 * thread costs more than it saves, and the import goes on without.
	 */
	if (w->threaded && ++w->waits > SYNC_WAITS)
		thread_stop(w);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return (1);
	if (rc == SQLITE_DONE)
		return (0);
	return (tr_db_error(w->db, err, "cannot read store"));
}

/*
 * The interning maps are caches in front of the store's unique keys: one
 * that grows past its cap (entries or bytes) is emptied, so memory stays
 * bounded whatever the input (about 100 MB at most with SQLite's cache),
 * and later lookups fall back to the store.  The frames' cache is the
 * largest: a perf script of 3 builds of this tree (109 MB) has 326,830
 * frames (each address its own) and 719,197 call sites, and each lookup
 * after an eviction waited for the writer thread.
 */
/*
 * The frames and call sites caches keep two generations of half the cap
 * each: when the newer is full, the older is dropped and the newer takes
 * its place, and a key found in the older is put in the newer again.  The
 * keys that recur (the symbols of a program, against one frame per
 * address of its stripped parts) so stay cached across the evictions: a
 * perf script of 22 builds of this tree (349 MB, 1.1M frames, 2.3M call
 * sites) looked 280,000 of them up again in the store when the caches
 * were emptied whole, and those lookups stopped the writer thread.
 * A call site takes 16 bytes (cs_slot): with 384k of them, 288k call
 * sites of a perf record of a Go build (95 MB) did not fit in one
 * generation, and the same text four times over went through the
 * generations in a cycle, each call site looked up again in the store
 * until the writer thread stopped (2.4 s; with 768k, 1.4 s, the same
 * peak RSS).
 */
#define CACHE_CAP_STRS		(64 * 1024)
#define CACHE_CAP_FRAMES	(256 * 1024)
#define CACHE_CAP_CALLSITES	(768 * 1024)	/* 2 x 8 MB: see cs_put() */
#define CACHE_CAP_THREADS	(64 * 1024)
/*
 * The bytes are a bound, not a trigger: a cache is emptied (or a
 * generation dropped) before the put that would take it past them, and
 * an emptied map keeps its memory for the next keys rather than going
 * back to the heap, where (in huge pages, never trimmed: tool.c) the
 * pieces of freed maps stayed resident.  With a cap that the doubling of
 * slots or keys went past by half, and freed generations, a perf script
 * of nearly all distinct frames (bench/README, 2026-12-07) peaked at 140
 * MB, 6 real builds at 101-110 MB; now 95 and 85-91 MB (of 1024 kB), in
 * the same time.
 */
#define CACHE_CAP_BYTES		(8 << 20)	/* and long keys: at most this */
#define CACHE_CAP_FRAME_BYTES	(20 << 20)	/* 2 x 10 MB */

static size_t
cap(const struct tr_writer *w, size_t dflt)
{
	return (w->cache_cap > 0 ? w->cache_cap : dflt);
}

static void
cache_put(struct tr_map **m, size_t cap, size_t bytes, int *evicted,
    const void *key, size_t len, int64_t val)
{
	if (tr_map_count(*m) >= cap || tr_map_bytes_after(*m, len) > bytes) {
		tr_map_clear(*m);
		*evicted = 1;
	}
	tr_map_put(*m, key, len, val);
}

/* The half of 'cap' (at least 1) that a generation holds. */
static size_t
half(size_t cap)
{
	return (cap > 1 ? cap / 2 : 1);
}

/* cache_put() for the two generations *m and *old. */
static void
gen_put(struct tr_map **m, struct tr_map **old, size_t cap, size_t bytes,
    int *evicted, const void *key, size_t len, int64_t val)
{
	struct tr_map	*t;

	if (tr_map_count(*m) >= half(cap) ||
	    tr_map_bytes_after(*m, len) > bytes / 2) {
		if (*old != NULL) {
			*evicted = 1;
			tr_map_clear(*old);
			t = *old;
		} else
			t = tr_map_new();
		*old = *m;
		*m = t;
	}
	tr_map_put(*m, key, len, val);
}

/*
 * What this import added, in a Bloom filter (SEEN_BITS bits, SEEN_K a
 * key): a key that is in no cache and not in it was not added by this
 * import, so once a cache has been emptied only the keys it may hold are
 * looked up in the store (one in several thousand with 10^6 keys, where
 * every new frame and call site was looked up before, and waited for the
 * writer thread).  4 MB, whatever the input; more keys only make more
 * lookups.  'tag' keeps the tables apart.
 */
#define SEEN_BITS	(1u << 25)
#define SEEN_K		3
/*
 * The filter is made when first asked (a cache was emptied) or at the
 * SEEN_LOG-th key: before that the keys' hashes are only logged, on pages
 * written in turn, where the bits touch all 4 MB at random from the first
 * few thousand keys on, a page fault each (a thousand on perf50).
 */
#define SEEN_LOG	(64 * 1024)

static uint64_t
seen_hash(int tag, const void *key, size_t len)
{
	return (tr_hash64(key, len) ^ ((uint64_t)tag * 0x9e3779b97f4a7c15ULL));
}

static void
seen_set(struct tr_writer *w, uint64_t h)
{
	uint32_t	a = (uint32_t)h, b = (uint32_t)(h >> 32) | 1, bit;
	int		i;

	for (i = 0; i < SEEN_K; i++) {
		bit = (a + (uint32_t)i * b) & (SEEN_BITS - 1);
		w->seen[bit / 64] |= (uint64_t)1 << (bit % 64);
	}
}

/* The filter, of the hashes logged so far. */
static void
seen_make(struct tr_writer *w)
{
	size_t	i;

	w->seen = tr_xcalloc(SEEN_BITS / 64, sizeof *w->seen);
	for (i = 0; i < w->seen_nlog; i++)
		seen_set(w, w->seen_log[i]);
	free(w->seen_log);
	w->seen_log = NULL;
	w->seen_nlog = 0;
}

static void
seen_add(struct tr_writer *w, uint64_t h)
{
	if (w->seen == NULL) {
		if (w->seen_log == NULL)
			w->seen_log = tr_xmalloc(SEEN_LOG *
			    sizeof *w->seen_log);
		if (w->seen_nlog < SEEN_LOG) {
			w->seen_log[w->seen_nlog++] = h;
			return;
		}
		seen_make(w);
	}
	seen_set(w, h);
}

static int
seen_maybe(struct tr_writer *w, uint64_t h)
{
	uint32_t	a = (uint32_t)h, b = (uint32_t)(h >> 32) | 1, bit;
	int		i;

	if (w->seen == NULL)
		seen_make(w);

	for (i = 0; i < SEEN_K; i++) {
		bit = (a + (uint32_t)i * b) & (SEEN_BITS - 1);
		if (!(w->seen[bit / 64] & (uint64_t)1 << (bit % 64)))
			return (0);
	}
	return (1);
}

enum { SEEN_STR, SEEN_FRAME, SEEN_CS, SEEN_PROC, SEEN_THREAD };

int64_t
tr_writer_add_str(struct tr_writer *w, const char *s, size_t n,
    struct tr_error *err)
{
	const char	*t[OP_NT];
	struct op	 o;
	uint64_t	 h;
	int64_t		 id;
	int		 r;

	if (tr_map_get(w->strs, s, n, &id))
		return (id);
	r = 0;
	h = seen_hash(SEEN_STR, s, n);
	if (w->old[ID_STR] > 0 || (w->strs_evicted && seen_maybe(w, h))) {
		bind_text(w->st[ST_STR_GET], 1, s, n);
		if ((r = step_get(w, w->st[ST_STR_GET], &id, err)) < 0)
			return (-1);
	}
	if (r == 0) {
		op_init(&o, ST_STR_PUT);
		o.v[0] = id = ++w->last[ID_STR];
		op_add_text(&o, t, s, n, 1);
		if (op_put(w, &o, t, err) != 0)
			return (-1);
		seen_add(w, h);
	}
	cache_put(&w->strs, cap(w, CACHE_CAP_STRS), CACHE_CAP_BYTES,
	    &w->strs_evicted, s,
	    n, id);
	return (id);
}

int64_t
tr_writer_add_frame(struct tr_writer *w, const struct tr_frame *f,
    struct tr_error *err)
{
	struct tr_buf	*k = &w->key;
	const char	*t[OP_NT];
	sqlite3_stmt	*st;
	struct op	 o;
	uint64_t	 h;
	int64_t		 id, nums[3];
	int		 r = 0;

	nums[0] = f->line;
	nums[1] = (int64_t)f->addr;
	nums[2] = f->inlined;
	tr_buf_reset(k);
	tr_buf_add(k, nums, sizeof nums);
	tr_buf_add(k, f->name, f->name_len);
	tr_buf_addc(k, '\0');
	if (f->module != NULL)
		tr_buf_add(k, f->module, f->module_len);
	tr_buf_addc(k, '\0');
	if (f->file != NULL)
		tr_buf_add(k, f->file, f->file_len);
	if (tr_map_get(w->frames, k->data, k->len, &id))
		return (id);
	if (w->frames_old != NULL &&
	    tr_map_get(w->frames_old, k->data, k->len, &id)) {
		gen_put(&w->frames, &w->frames_old, cap(w, CACHE_CAP_FRAMES),
		    CACHE_CAP_FRAME_BYTES, &w->frames_evicted, k->data, k->len,
		    id);
		return (id);
	}
	h = seen_hash(SEEN_FRAME, k->data, k->len);
	if (w->old[ID_FRAME] > 0 || (w->frames_evicted && seen_maybe(w, h))) {
		st = w->st[ST_FRAME_GET];
		bind_text(st, 1, f->name, f->name_len);
		bind_text(st, 2, f->module, f->module_len);
		bind_text(st, 3, f->file, f->file_len);
		sqlite3_bind_int64(st, 4, f->line);
		sqlite3_bind_int64(st, 5, (int64_t)f->addr);
		sqlite3_bind_int(st, 6, f->inlined);
		if ((r = step_get(w, st, &id, err)) < 0)
			return (-1);
	}
	if (r == 0) {
		op_init(&o, ST_FRAME_PUT);
		o.v[0] = id = ++w->last[ID_FRAME];
		o.v[1] = f->line;
		o.v[2] = (int64_t)f->addr;
		o.v[3] = f->inlined;
		op_add_text(&o, t, f->name, f->name_len, 1);
		op_add_text(&o, t, f->module, f->module_len, 1);
		op_add_text(&o, t, f->file, f->file_len, 1);
		if (op_put(w, &o, t, err) != 0)
			return (-1);
		seen_add(w, h);
		w->n.frames++;
	}
	gen_put(&w->frames, &w->frames_old, cap(w, CACHE_CAP_FRAMES),
	    CACHE_CAP_FRAME_BYTES, &w->frames_evicted, k->data, k->len, id);
	return (id);
}

/*
 * The call sites' cache, (parent, frame) -> id, in a table of its own:
 * 16 bytes a slot and no key to compare byte by byte, where tr_map took
 * 32 and a copy of the key (a third of the import's interning time went
 * to the call sites, and their cache was the first to be emptied).  A slot
 * packs the three ids, 40 bits for the parent and the frame, 48 for the
 * call site (cs_fits()): k = parent | the frame's low 24 bits << 40, v =
 * the frame's high 16 bits | id << 16.  Larger ids are never cached; their
 * call sites are looked up in the store.  Linear probing; the table
 * doubles up to 4/3 of half the cap, and takes the older generation's
 * place when that is reached.
 */
struct cs_slot {
	uint64_t	k, v;		/* v >> 16, the id, 0: free */
};
struct cs_map {
	struct cs_slot	*slots;
	size_t		 nslots, count;	/* nslots: a power of two */
};

#define CS_ID_BITS	40
#define CS_ID_MAX	((1LL << CS_ID_BITS) - 1)

static int
cs_fits(int64_t parent, int64_t frame, int64_t id)
{
	return (parent >= 0 && parent <= CS_ID_MAX && frame >= 0 &&
	    frame <= CS_ID_MAX && id >= 0 && id < (1LL << 48));
}

static struct cs_map *
cs_new(void)
{
	struct cs_map	*m = tr_xcalloc(1, sizeof *m);

	m->nslots = 4096;
	m->slots = tr_xcalloc(m->nslots, sizeof *m->slots);
	return (m);
}

static void
cs_free(struct cs_map *m)
{
	if (m != NULL)
		free(m->slots);
	free(m);
}

static size_t
cs_hash(uint64_t k, uint64_t fhi)
{
	uint64_t	h = k * 0x9e3779b97f4a7c15ULL ^
	    fhi * 0xc2b2ae3d27d4eb4fULL;

	return ((size_t)(h ^ h >> 29));
}

/* The slot of (parent, frame), which cs_fits(), or the free one to use. */
static struct cs_slot *
cs_slot_of(const struct cs_map *m, uint64_t k, uint64_t fhi)
{
	size_t		 i = cs_hash(k, fhi) & (m->nslots - 1);
	struct cs_slot	*s;

	for (;; i = (i + 1) & (m->nslots - 1)) {
		s = &m->slots[i];
		if (s->v >> 16 == 0 || (s->k == k && (s->v & 0xffff) == fhi))
			return (s);
	}
}

/* The slot that holds (parent, frame) -> id, packed as said above. */
static struct cs_slot
cs_pack(int64_t parent, int64_t frame, int64_t id)
{
	struct cs_slot	s;

	s.k = (uint64_t)parent | (uint64_t)frame << 40;
	s.v = (uint64_t)frame >> 24 | (uint64_t)id << 16;
	return (s);
}

static struct cs_slot *
cs_find(const struct cs_map *m, int64_t parent, int64_t frame)
{
	struct cs_slot	key = cs_pack(parent, frame, 0);

	return (cs_slot_of(m, key.k, key.v));
}

/* The cached id of (parent, frame), which cs_fits(), or 0. */
static int64_t
cs_get(const struct cs_map *m, int64_t parent, int64_t frame)
{
	return ((int64_t)(cs_find(m, parent, frame)->v >> 16));
}

static void
cs_put(struct tr_writer *w, int64_t parent, int64_t frame, int64_t id)
{
	struct cs_map	*m = w->callsites;
	struct cs_slot	*old, *s;
	size_t		 n, i, cap = half(w->cache_cap > 0 ? w->cache_cap :
			    CACHE_CAP_CALLSITES);

	if (!cs_fits(parent, frame, id))
		return;
	if (m->count >= cap) {
		/* The newer generation becomes the older (see gen_put()). */
		if (w->callsites_old != NULL) {
			w->cs_evicted = 1;
			m = w->callsites_old;
			memset(m->slots, 0, m->nslots * sizeof *m->slots);
			m->count = 0;
		} else
			m = cs_new();
		w->callsites_old = w->callsites;
		w->callsites = m;
	} else if ((m->count + 1) * 4 > m->nslots * 3) {
		old = m->slots;
		n = m->nslots;
		m->nslots *= 2;
		m->slots = tr_xcalloc(m->nslots, sizeof *m->slots);
		for (i = 0; i < n; i++)
			if (old[i].v >> 16 != 0)
				*cs_slot_of(m, old[i].k, old[i].v & 0xffff) =
				    old[i];
		free(old);
	}
	s = cs_find(m, parent, frame);
	if (s->v >> 16 == 0)
		m->count++;
	*s = cs_pack(parent, frame, id);
}

int64_t
tr_writer_add_callsite(struct tr_writer *w, int64_t parent,
    int64_t frame_id, int64_t depth, struct tr_error *err)
{
	int64_t		 key[2], id;
	sqlite3_stmt	*st;
	struct op	 o;
	uint64_t	 h;
	int		 r, fits;

	key[0] = parent;
	key[1] = frame_id;
	fits = cs_fits(parent, frame_id, 0);
	if (fits && (id = cs_get(w->callsites, parent, frame_id)) != 0)
		return (id);
	if (fits && w->callsites_old != NULL &&
	    (id = cs_get(w->callsites_old, parent, frame_id)) != 0) {
		cs_put(w, parent, frame_id, id);
		return (id);
	}
	r = 0;
	h = seen_hash(SEEN_CS, key, sizeof key);
	if ((parent <= w->old[ID_CS] && frame_id <= w->old[ID_FRAME]) ||
	    !fits || (w->cs_evicted && seen_maybe(w, h))) {
		st = w->st[ST_CS_GET];
		bind_id(st, 1, parent);
		sqlite3_bind_int64(st, 2, frame_id);
		if ((r = step_get(w, st, &id, err)) < 0)
			return (-1);
	}
	if (r == 0) {
		op_init(&o, ST_CS_PUT);
		o.v[0] = id = ++w->last[ID_CS];
		o.v[1] = parent;
		o.v[2] = frame_id;
		o.v[3] = depth;
		if (op_put(w, &o, NULL, err) != 0)
			return (-1);
		seen_add(w, h);
		w->n.callsites++;
	}
	cs_put(w, parent, frame_id, id);
	return (id);
}

int64_t
tr_writer_add_stack(struct tr_writer *w, const int64_t *frames, size_t n,
    struct tr_error *err)
{
	int64_t	cs = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		if ((cs = tr_writer_add_callsite(w, cs, frames[i],
		    (int64_t)i, err)) < 0)
			return (-1);
	return (cs);
}

int64_t
tr_writer_add_process(struct tr_writer *w, int64_t pid, const char *name,
    size_t len, struct tr_error *err)
{
	const char	*host = w->host ? w->host : "", *t[OP_NT];
	sqlite3_stmt	*st;
	struct op	 o;
	uint64_t	 h;
	int64_t		 id;
	int		 r = 0;

	if (pid < 0)
		return (0);
	if (tr_map_get(w->procs, &pid, sizeof pid, &id))
		return (id);
	h = seen_hash(SEEN_PROC, &pid, sizeof pid);
	if (w->old[ID_PROC] > 0 || (w->other_evicted && seen_maybe(w, h))) {
		st = w->st[ST_PROC_GET];
		sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, pid);
		if ((r = step_get(w, st, &id, err)) < 0)
			return (-1);
	}
	if (r == 0) {
		op_init(&o, ST_PROC_PUT);
		o.v[0] = id = ++w->last[ID_PROC];
		o.v[1] = pid;
		op_add_text(&o, t, host, strlen(host), 1);
		op_add_text(&o, t, name, len, 0);
		if (op_put(w, &o, t, err) != 0)
			return (-1);
		seen_add(w, h);
	}
	cache_put(&w->procs, cap(w, CACHE_CAP_THREADS), CACHE_CAP_BYTES,
	    &w->other_evicted, &pid, sizeof pid, id);
	return (id);
}

int64_t
tr_writer_add_thread(struct tr_writer *w, int64_t pid, int64_t tid,
    const char *name, size_t len, struct tr_error *err)
{
	struct tr_buf	*k = &w->key;
	const char	*t[OP_NT];
	sqlite3_stmt	*st;
	struct op	 o;
	uint64_t	 h;
	int64_t		 id, proc, ids[2];
	int		 r = 0;

	ids[0] = pid;
	ids[1] = tid;
	tr_buf_reset(k);
	tr_buf_add(k, ids, sizeof ids);
	if (name != NULL)
		tr_buf_add(k, name, len);
	if (tr_map_get(w->threads, k->data, k->len, &id))
		return (id);
	h = seen_hash(SEEN_THREAD, k->data, k->len);
	if ((proc = tr_writer_add_process(w, pid, name, len, err)) < 0)
		return (-1);
	if (w->old[ID_THREAD] > 0 || (w->other_evicted && seen_maybe(w, h))) {
		st = w->st[ST_THREAD_GET];
		bind_id(st, 1, proc);
		if (tid >= 0)
			sqlite3_bind_int64(st, 2, tid);
		else
			sqlite3_bind_null(st, 2);
		bind_text(st, 3, name, len);
		if ((r = step_get(w, st, &id, err)) < 0)
			return (-1);
	}
	if (r == 0) {
		op_init(&o, ST_THREAD_PUT);
		o.v[0] = id = ++w->last[ID_THREAD];
		o.v[1] = proc;
		o.v[2] = tid >= 0 ? tid : -1;
		op_add_text(&o, t, name, len, 1);
		if (op_put(w, &o, t, err) != 0)
			return (-1);
		seen_add(w, h);
	}
	/* Rebuild the key: tr_writer_add_process() may have reused it. */
	tr_buf_reset(k);
	tr_buf_add(k, ids, sizeof ids);
	if (name != NULL)
		tr_buf_add(k, name, len);
	cache_put(&w->threads, cap(w, CACHE_CAP_THREADS), CACHE_CAP_BYTES,
	    &w->other_evicted, k->data, k->len, id);
	return (id);
}

/* --- samples, profiles, tracks, counters ---------------------------- */

static void
see_ts(struct tr_writer *w, int64_t ts)
{
	if (ts < w->n.ts_min)
		w->n.ts_min = ts;
	if (ts > w->n.ts_max)
		w->n.ts_max = ts;
}

int64_t
tr_writer_add_sample(struct tr_writer *w, const struct tr_sample *s,
    struct tr_error *err)
{
	const char	*t[OP_NT];
	struct op	 o;

	op_init(&o, ST_SAMPLE);
	o.v[0] = s->profile_id;
	o.v[1] = s->has_ts;
	o.v[2] = s->ts;
	o.v[3] = s->thread_id;
	o.v[4] = s->cpu >= 0 ? s->cpu : -1;
	o.v[5] = s->callsite_id;
	o.v[6] = s->event_id;
	o.v[7] = s->value;
	op_add_text(&o, t, s->labels, s->labels ? strlen(s->labels) : 0, 0);
	if (op_put(w, &o, t, err) != 0)
		return (-1);
	if (s->has_ts)
		see_ts(w, s->ts);
	w->n.samples++;
	/* With the thread, the hooks run there after the op (op_obs()). */
	if (w->obs_sample && !w->threaded)
		return (obs_call(w, H_SAMPLE, s, 0, err));
	return (0);
}

/* Text 's' (NULL: NULL) of a one-row op. */
static void
op_add_opt(struct op *o, const char **t, const char *s)
{
	op_add_text(o, t, s, s ? strlen(s) : 0, 0);
}

int64_t
tr_writer_add_profile(struct tr_writer *w, const char *type, int64_t ts,
    int64_t dur, int64_t period, const char *period_type,
    const char *period_unit, const char *sample_types,
    const char *default_type, const char *meta, struct tr_error *err)
{
	const char	*t[OP_NT];
	struct op	 o;

	op_init(&o, ST_PROFILE);
	o.v[0] = ++w->last[ID_PROFILE];
	o.v[1] = ts;
	o.v[2] = dur;
	o.v[3] = period;
	op_add_opt(&o, t, type);
	op_add_opt(&o, t, period_type);
	op_add_opt(&o, t, period_unit);
	op_add_opt(&o, t, sample_types);
	op_add_opt(&o, t, default_type);
	op_add_opt(&o, t, meta);
	if (op_put(w, &o, t, err) != 0)
		return (-1);
	if (ts != 0) {
		see_ts(w, ts);
		see_ts(w, ts + dur);
	}
	w->n.profiles++;
	return (o.v[0]);
}

int64_t
tr_writer_add_track(struct tr_writer *w, const char *kind,
    const char *name, int64_t ref, int64_t process_id, int64_t thread_id,
    int64_t parent_id, const char *meta, struct tr_error *err)
{
	const char	*tx[OP_NT];
	struct tr_track	 t;
	struct op	 o;

	op_init(&o, ST_TRACK);
	o.v[0] = t.id = ++w->last[ID_TRACK];
	o.v[1] = ref;
	o.v[2] = process_id;
	o.v[3] = thread_id;
	o.v[4] = parent_id;
	op_add_opt(&o, tx, kind);
	op_add_opt(&o, tx, name ? name : "");
	op_add_opt(&o, tx, meta);
	if (op_put(w, &o, tx, err) != 0)
		return (-1);
	/* With the thread, the hooks run there after the op (op_obs()). */
	if (w->obs_track && !w->threaded) {
		t.kind = kind;
		t.name = name ? name : "";
		t.ref = ref;
		t.process_id = process_id > 0 ? process_id : 0;
		t.thread_id = thread_id > 0 ? thread_id : 0;
		t.parent_id = parent_id > 0 ? parent_id : 0;
		t.meta = meta;
		if (obs_call(w, H_TRACK, &t, 0, err) != 0)
			return (-1);
	}
	return (t.id);
}

int
tr_writer_hold_tracks(struct tr_writer *w, const char *kind,
    struct tr_error *err)
{
	const char	*t[OP_NT];
	struct op	 o;

	/* Through the queue: the kind is the writing side's. */
	op_init(&o, OP_HOLD);
	op_add_opt(&o, t, kind);
	return (op_put(w, &o, t, err));
}

int
tr_writer_set_track_meta(struct tr_writer *w, int64_t track_id,
    const char *path, int64_t value, struct tr_error *err)
{
	const char	*t[OP_NT];
	struct op	 o;
	struct meta_row	 mr;

	op_init(&o, ST_TRACK_META);
	o.v[0] = track_id;
	o.v[1] = value;
	op_add_text(&o, t, path, strlen(path), 1);
	if (op_put(w, &o, t, err) != 0)
		return (-1);
	/* With the thread, the hooks run there after the op (op_obs()). */
	if (w->obs_meta && !w->threaded) {
		mr.track_id = track_id;
		mr.value = value;
		mr.path = path;
		return (obs_call(w, H_META, &mr, 0, err));
	}
	return (0);
}

/*
 * Counters go to the store TR_COUNTER_RUN points at a time per track and
 * metric, as a row of counter_run (store/counter.h), in the order added:
 * a point's id is its run's plus its place in it.  What waits is bounded
 * as the slices' runs are: at CRUN_PENDING points in all, or a new run
 * when CRUN_OPEN wait, every run is written as it stands.
 */
#define CRUN_PENDING	(256 * 1024)
#define CRUN_OPEN	(4 * 1024)
static size_t	run_cap(const struct tr_writer *, size_t);
struct crun {
	int64_t			 track_id, name_id;
	uint64_t		 seq;	/* the order the runs began in */
	int			 n, cap;
	int64_t			*ts;
	struct tr_counter_val	*val;
};

static void
crun_free(void *p)
{
	struct crun	*c = p;

	free(c->ts);
	free(c->val);
	free(c);
}

/* Write run 'c' as one row and empty it. */
static int
flush_crun(struct tr_writer *w, struct crun *c, struct tr_error *err)
{
	const char	*t[OP_NT];
	struct op	 op;
	int64_t		 t0, end;

	if (c->n == 0)
		return (0);
	tr_buf_reset(&w->json);
	tr_counter_run_json(&w->json, c->ts, c->val, c->n, &t0, &end);
	op_init(&op, ST_COUNTER);
	op.v[0] = w->next_counter_id;
	op.v[1] = c->track_id;
	op.v[2] = c->name_id;
	op.v[3] = t0;
	op.v[4] = end;
	op.v[5] = c->n;
	op_add_text(&op, t, w->json.data, w->json.len, 1);
	w->next_counter_id += c->n;
	w->crun_points -= (size_t)c->n;
	c->n = 0;
	return (op_put(w, &op, t, err));
}

static int
crun_cmp(const void *a, const void *b)
{
	const struct crun	*x = *(struct crun *const *)a;
	const struct crun	*y = *(struct crun *const *)b;

	return ((x->seq > y->seq) - (x->seq < y->seq));
}

/*
 * Write every waiting counter run, in the order they began (so that the
 * ids of a small input follow its columns), and forget the runs.
 */
static int
flush_cruns(struct tr_writer *w, struct tr_error *err)
{
	struct crun	**v;
	size_t		  i, n = 0;
	int		  rc = 0;

	v = tr_xcalloc(w->cruns.count + 1, sizeof *v);
	for (i = 0; i < w->cruns.cap; i++)
		if (w->cruns.slots[i].val != NULL)
			v[n++] = w->cruns.slots[i].val;
	qsort(v, n, sizeof *v, crun_cmp);
	for (i = 0; i < n; i++) {
		if (rc == 0 && flush_crun(w, v[i], err) != 0)
			rc = -1;
		crun_free(v[i]);
	}
	free(v);
	tr_imap_release(&w->cruns);
	w->crun_points = 0;
	return (rc);
}

int64_t
tr_writer_add_counter(struct tr_writer *w, int64_t track_id, int64_t ts,
    int64_t name_id, double value, struct tr_error *err)
{
	struct crun	*c;
	uint64_t	 key;
	int		 i;

	if (w->crun_points >= run_cap(w, CRUN_PENDING) &&
	    flush_cruns(w, err) != 0)
		return (-1);
	/* One key for the pair; another pair under it takes its place. */
	key = (uint64_t)track_id * 0x9e3779b97f4a7c15ULL ^ (uint64_t)name_id;
	if ((c = tr_imap_get(&w->cruns, key)) == NULL) {
		if (w->cruns.count >= run_cap(w, CRUN_OPEN) &&
		    flush_cruns(w, err) != 0)
			return (-1);
		c = tr_xcalloc(1, sizeof *c);
		c->seq = w->crun_seq++;
		tr_imap_put(&w->cruns, key, c);
	} else if ((c->track_id != track_id || c->name_id != name_id) &&
	    flush_crun(w, c, err) != 0)
		return (-1);
	c->track_id = track_id;
	c->name_id = name_id;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 4 : 16;
		if (c->cap > TR_COUNTER_RUN)
			c->cap = TR_COUNTER_RUN;
		c->ts = tr_xrealloc(c->ts, (size_t)c->cap * sizeof *c->ts);
		c->val = tr_xrealloc(c->val, (size_t)c->cap *
		    sizeof *c->val);
	}
	c->ts[c->n] = ts;
	tr_counter_val_set(&c->val[c->n], value);
	c->n++;
	w->crun_points++;
	if (c->n == TR_COUNTER_RUN && flush_crun(w, c, err) != 0)
		return (-1);
	see_ts(w, ts);
	w->n.counters++;
	if (w->obs_counter)
		for (i = 0; i < w->nobs; i++)
			if (w->obs[i]->counter != NULL &&
			    w->obs[i]->counter(w->obs_arg[i], track_id, ts,
			    name_id, value, err) != 0)
				return (-1);
	return (0);
}

/*
 * Slices go to the store TR_SLICE_RUN at a time per track, as one row of
 * slice_run (db.c: TR_DB_SLICE_VIEW).  What waits is bounded: at
 * RUN_PENDING slices in all, or a slice for a new track when RUN_TRACKS
 * tracks wait (many goroutines that each had a few states), every run is
 * written as it stands; a run with RUN_ARGS bytes of args is written at
 * once.  Slices wait in chunks from a pool, so that a run neither grows
 * by realloc() nor keeps memory once written (realloc() was 5% of a Go
 * trace's import).  A run of 256 slices
 * is about 10 kB of JSON: SQLite keeps such a row in full overflow pages
 * and a part on a shared leaf, where 64 (2.3 kB) left most of a page
 * empty (a 4 kB page fits one such row: a 280 MB store against 180 MB).
 * At RUN_PENDING, the runs at least half full go first (flush_full_runs()):
 * 384k slices (21 MB waiting) keep a Go trace of 2000 tracks under 100 MB
 * of peak RSS, where 512k took 104 MB, for 3% more store.
 */
#define RUN_PENDING	(384 * 1024)
#define RUN_ARGS	(16 * 1024)
#define RUN_TRACKS	(16 * 1024)

static size_t
run_cap(const struct tr_writer *w, size_t dflt)
{
	return (w->run_cap > 0 ? w->run_cap : dflt);
}

static void
chunks_free(struct run_chunk *k)
{
	struct run_chunk	*next;

	for (; k != NULL; k = next) {
		next = k->next;
		free(k);
	}
}

static void
run_free(void *p)
{
	struct run	*r = p;

	tr_buf_release(&r->args);
	chunks_free(r->head);
	free(r);
}

/*
 * Write run 'r' as one row and empty it: on the writing side (the writer
 * thread, or the importer's without it), as the runs are its own.  Its
 * slices are written from its chunks as the row's JSON (run_json()).
 */
static int
flush_run(struct tr_writer *w, struct run *r, struct tr_error *err)
{
	sqlite3_stmt	*st = w->st[ST_SLICE];
	int64_t		 run[3], t0, end;

	if (r->n == 0)
		return (0);
	run[0] = r->track_id;
	run[1] = w->next_slice_id;
	run[2] = r->n;
	w->next_slice_id += r->n;
	w->run_slices -= (size_t)r->n;
	run_json(&w->rjson, r, &t0, &end);
	sqlite3_bind_int64(st, 1, run[1]);
	sqlite3_bind_int64(st, 2, run[0]);
	sqlite3_bind_int64(st, 3, t0);
	sqlite3_bind_int64(st, 4, end);
	sqlite3_bind_int64(st, 5, run[2]);
	sqlite3_bind_text(st, 6, w->rjson.data, (int)w->rjson.len,
	    SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, w->source_id);
	if (step_done(w, st, err) != 0)
		return (-1);
	/* The chunks go back to the pool; a big args buffer goes. */
	r->tail->next = w->free_chunks;
	w->free_chunks = r->head;
	r->head = r->tail = NULL;
	r->n = 0;
	if (r->args.cap > 4096) {
		tr_buf_release(&r->args);
		tr_buf_init(&r->args);
	} else
		tr_buf_reset(&r->args);
	return (w->obs_run ? obs_call(w, H_RUN, run, 0, err) : 0);
}

/* Write every waiting run, and forget the runs. */
static int
flush_runs(struct tr_writer *w, struct tr_error *err)
{
	struct tr_imap_slot	*sl;
	size_t			 i;
	int			 rc = 0;

	for (i = 0; i < w->runs.cap; i++) {
		sl = &w->runs.slots[i];
		if (sl->val == NULL)
			continue;
		if (rc == 0 && flush_run(w, sl->val, err) != 0)
			rc = -1;
		run_free(sl->val);
	}
	tr_imap_release(&w->runs);
	memset(w->rcache, 0, sizeof w->rcache);
	w->run_slices = 0;
	return (rc);
}

/*
 * At RUN_PENDING slices: the runs at least half full, so that the rows
 * stay long; every run when that leaves more than half the cap waiting.
 */
static int
flush_full_runs(struct tr_writer *w, struct tr_error *err)
{
	struct run	*r;
	size_t		 i;

	for (i = 0; i < w->runs.cap; i++)
		if ((r = w->runs.slots[i].val) != NULL &&
		    r->n >= TR_SLICE_RUN / 2 && flush_run(w, r, err) != 0)
			return (-1);
	if (w->run_slices > run_cap(w, RUN_PENDING) / 2)
		return (flush_runs(w, err));
	return (0);
}

/*
 * On the writing side: slice 's' into its track's run, its hooks, and the
 * run written when full.  With the thread, the importer's thread only
 * copies the slice into its block (tr_writer_add_slice()): finding the
 * run, its chunks and the copy into the run's row were a third of the
 * importer's thread on a Go trace, the busier of the two.
 */
static int
slice_add(struct tr_writer *w, const struct tr_slice *sl,
    struct tr_error *err)
{
	struct run		*r, **rs;
	struct run_slice	*s;
	struct run_chunk	*k;
	size_t			 alen = sl->args_len;

	if (w->run_slices >= run_cap(w, RUN_PENDING) &&
	    flush_full_runs(w, err) != 0)
		return (-1);
	rs = &w->rcache[(uint64_t)sl->track_id & (RUN_CACHE - 1)];
	if ((r = *rs) != NULL && r->track_id == sl->track_id)
		;
	else if ((r = tr_imap_get(&w->runs, (uint64_t)sl->track_id)) != NULL)
		*rs = r;
	else {
		if (w->runs.count >= run_cap(w, RUN_TRACKS) &&
		    flush_runs(w, err) != 0)
			return (-1);
		r = tr_xcalloc(1, sizeof *r);
		r->track_id = sl->track_id;
		tr_buf_init(&r->args);
		tr_imap_put(&w->runs, (uint64_t)sl->track_id, r);
		*rs = r;
	}
	if (r->n % RUN_CHUNK == 0) {
		if ((k = w->free_chunks) != NULL)
			w->free_chunks = k->next;
		else
			k = tr_xmalloc(sizeof *k);
		k->next = NULL;
		if (r->tail != NULL)
			r->tail->next = k;
		else
			r->head = k;
		r->tail = k;
	}
	s = &r->tail->s[r->n++ % RUN_CHUNK];
	s->ts = sl->ts;
	s->dur = sl->dur;
	s->name_id = sl->name_id;
	s->category_id = sl->category_id;
	s->callsite_id = sl->callsite_id;
	s->args_len = alen;
	if (alen > 0) {
		/* (No NUL: the run's args go by their lengths.) */
		if (r->args.len + alen >= r->args.cap)
			tr_buf_reserve(&r->args, alen);
		memcpy(r->args.data + r->args.len, sl->args, alen);
		r->args.len += alen;
	}
	w->run_slices++;
	if (w->obs_slice && obs_call(w, H_SLICE, sl, 0, err) != 0)
		return (-1);
	if ((r->n == TR_SLICE_RUN || r->args.len >= RUN_ARGS) &&
	    flush_run(w, r, err) != 0)
		return (-1);
	return (0);
}

int64_t
tr_writer_add_slice(struct tr_writer *w, int64_t track_id, int64_t ts,
    int64_t dur, int64_t name_id, int64_t category_id, int64_t callsite_id,
    const char *args, struct tr_error *err)
{
	struct sop	*q;
	struct tr_slice	 so, *sl;
	size_t		 alen, need;
	char		*p = NULL;

	if (args != NULL && *args == '\0')
		args = NULL;
	alen = args != NULL ? strlen(args) : 0;
	see_ts(w, ts);
	see_ts(w, ts + dur);
	w->n.slices++;
	/*
	 * With the thread, a struct sop filled in the block (the op
	 * 8-aligned), not copied; its args follow it.  The thread puts
	 * it in its run and runs its hooks (blk_exec()).
	 */
	if (w->threaded) {
		need = (sizeof *q + (alen > 0 ? alen + 1 : 0) + 7) &
		    ~(size_t)7;
		if ((p = blk_room(w, need, err)) == NULL)
			return (-1);
		q = (struct sop *)(void *)p;
		q->kind = OP_SLICE;
		q->pad = 0;
		sl = &q->s;
	} else
		sl = &so;
	sl->track_id = track_id;
	sl->ts = ts;
	sl->dur = dur;
	sl->name_id = name_id;
	sl->category_id = category_id;
	sl->callsite_id = callsite_id;
	sl->args = w->threaded ? NULL : args;
	sl->args_len = alen;
	if (!w->threaded)
		return (slice_add(w, sl, err));
	if (alen > 0) {
		memcpy(p + sizeof *q, args, alen);
		p[sizeof *q + alen] = '\0';
	}
	return (0);
}

/* --- the writer's life --------------------------------------------- */

struct tr_writer *
tr_writer_new(struct tr_db *db, int64_t source_id, size_t cache_cap,
    size_t run_cap, struct tr_error *err)
{
	struct tr_writer	*w;
	char			*sql;
	int			 i;

	w = tr_xcalloc(1, sizeof *w);
	w->db = db;
	w->source_id = source_id;
	w->cache_cap = cache_cap;
	w->run_cap = run_cap;
	w->n.ts_min = INT64_MAX;
	w->n.ts_max = INT64_MIN;
	w->strs = tr_map_new();
	w->frames = tr_map_new();
	w->callsites = cs_new();
	w->procs = tr_map_new();
	w->threads = tr_map_new();
	tr_buf_init(&w->key);
	tr_buf_init(&w->json);
	tr_buf_init(&w->rjson);
	tr_imap_init(&w->runs);
	tr_imap_init(&w->held);
	tr_buf_init(&w->hjson);
	tr_imap_init(&w->cruns);
	tr_error_init(&w->terr);
	for (i = 0; i < ST_COUNT; i++)
		if (stmt_sql[i] != NULL &&
		    (w->st[i] = tr_db_prepare(db, stmt_sql[i], err)) == NULL)
			goto fail;
	for (i = 0; i < (int)NBATCHES; i++) {
		sql = batch_sql(&batches[i]);
		w->st[batches[i].st] = tr_db_prepare(db, sql, err);
		w->ncols[batches[i].st] = batches[i].ncols;
		free(sql);
		if (w->st[batches[i].st] == NULL)
			goto fail;
	}
	for (i = 0; i < ID_COUNT; i++) {
		if (tr_db_int(db, id_sql[i], &w->old[i], err) != 0)
			goto fail;
		w->last[i] = w->old[i];
	}
	if (tr_db_int(db, "SELECT coalesce((SELECT id + n FROM slice_run "
	    "ORDER BY id DESC LIMIT 1), 1)", &w->next_slice_id, err) != 0 ||
	    tr_db_int(db, "SELECT coalesce((SELECT id + n FROM counter_run "
	    "ORDER BY id DESC LIMIT 1), 1)", &w->next_counter_id, err) != 0)
		goto fail;
	for (i = 0; tr_writer_observers[i] != NULL; i++)
		if (tr_writer_observers[i](w, err) != 0)
			goto fail;
	return (w);
fail:
	tr_writer_free(w);
	return (NULL);
}

int
tr_writer_watermark(struct tr_writer *w, int64_t ts, struct tr_error *err)
{
	struct op	o;

	if (!w->threaded)
		return (obs_call(w, H_WATERMARK, NULL, ts, err));
	/* In order with the slices: in the thread too (op_obs()). */
	op_init(&o, OP_WATERMARK);
	o.v[0] = ts;
	return (op_put(w, &o, NULL, err));
}

int
tr_writer_observe(struct tr_writer *w, const struct tr_writer_hooks *h,
    void *arg, struct tr_error *err)
{
	if (w->nobs == TR_WRITER_MAXOBS || w->threaded) {
		if (h->free != NULL)
			h->free(arg);
		if (w->threaded)
			return (tr_error_set(err, TR_EIO, "an observer of "
			    "the store writer after its thread started"));
		return (tr_error_set(err, TR_EIO, "more than %d observers of "
		    "the store writer", TR_WRITER_MAXOBS));
	}
	w->obs[w->nobs] = h;
	w->obs_arg[w->nobs++] = arg;
	w->obs_track |= h->track != NULL;
	w->obs_sample |= h->sample != NULL;
	w->obs_slice |= h->slice != NULL;
	w->obs_counter |= h->counter != NULL;
	w->obs_run |= h->run != NULL;
	w->obs_meta |= h->meta != NULL;
	return (0);
}

/*
 * Empty the interning caches (tens of MB on a large input) once every
 * row is written: what follows the flush (the per-stack aggregates, the
 * checkpoint) needs memory of its own, and the peak RSS is the sum.  A
 * later add finds its key in the store, as after any eviction.
 */
static void
caches_free(struct tr_writer *w)
{
	tr_map_free(w->strs);
	tr_map_free(w->frames);
	tr_map_free(w->frames_old);
	cs_free(w->callsites);
	cs_free(w->callsites_old);
	tr_map_free(w->procs);
	tr_map_free(w->threads);
}

static void
drop_caches(struct tr_writer *w)
{
	caches_free(w);
	w->frames_old = NULL;
	w->callsites_old = NULL;
	w->strs = tr_map_new();
	w->frames = tr_map_new();
	w->callsites = cs_new();
	w->procs = tr_map_new();
	w->threads = tr_map_new();
	w->strs_evicted = w->frames_evicted = 1;
	w->cs_evicted = w->other_evicted = 1;
}

int
tr_writer_flush(struct tr_writer *w, struct tr_error *err)
{
	struct op	o;
	int		i;

	/* The runs are the writer thread's until it is idle. */
	if (wsync(w, err) != 0 || flush_runs(w, err) != 0 ||
	    flush_cruns(w, err) != 0)
		return (-1);
	op_init(&o, OP_FLUSH);
	if (op_put(w, &o, NULL, err) != 0 || wsync(w, err) != 0)
		return (-1);
	for (i = 0; i < w->nobs; i++)
		if (w->obs[i]->finish != NULL &&
		    w->obs[i]->finish(w->obs_arg[i], w, err) != 0)
			return (-1);
	drop_caches(w);
	return (0);
}

void
tr_writer_settle(struct tr_writer *w, struct tr_error *err)
{
	struct tr_error	e;

	if (w == NULL || !w->threaded)
		return;
	tr_error_init(&e);
	if (wsync(w, &e) != 0 && err != NULL)
		*err = e;
}

void
tr_writer_free(struct tr_writer *w)
{
	int	i;

	if (w == NULL)
		return;
	thread_stop(w);
	for (i = 0; i < w->nobs; i++)
		if (w->obs[i]->free != NULL)
			w->obs[i]->free(w->obs_arg[i]);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(w->st[i]);
	caches_free(w);
	tr_buf_release(&w->key);
	tr_imap_free(&w->runs, run_free);
	tr_imap_free(&w->cruns, crun_free);
	tr_imap_free(&w->held, held_free);
	tr_buf_release(&w->hjson);
	free(w->hold_kind);
	chunks_free(w->free_chunks);
	tr_buf_release(&w->json);
	tr_buf_release(&w->rjson);
	free(w->seen);
	free(w->seen_log);
	free(w->host);
	free(w);
}

const struct tr_writer_counts *
tr_writer_counts(const struct tr_writer *w)
{
	return (&w->n);
}

struct tr_db *
tr_writer_db(struct tr_writer *w)
{
	/* An error surfaces at the next add or at tr_writer_flush(). */
	wsync(w, NULL);
	return (w->db);
}

int64_t
tr_writer_source_id(const struct tr_writer *w)
{
	return (w->source_id);
}

void
tr_writer_set_host(struct tr_writer *w, const char *host)
{
	free(w->host);
	w->host = host != NULL ? tr_xstrdup(host) : NULL;
}
