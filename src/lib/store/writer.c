/*
 * The store writer (store/writer.h): in-memory interning in front of the
 * store's unique keys, multi-row batches for samples and counters, slice
 * runs, and the observers that derived tables hang on the add path.
 */
#include "config.h"
#include "store/writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/derived.h"

enum {
	ST_STR_GET, ST_STR_PUT,
	ST_FRAME_GET, ST_FRAME_PUT,
	ST_CS_GET, ST_CS_PUT,
	ST_PROC_GET, ST_PROC_PUT,
	ST_THREAD_GET, ST_THREAD_PUT,
	ST_SAMPLE, ST_PROFILE, ST_TRACK, ST_SLICE, ST_COUNTER,
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
	{ ST_COUNTER, "counter", "source_id, track_id, ts, name_id, value",
	    5 },
};
#define NBATCHES	(sizeof batches / sizeof *batches)

static const char *const stmt_sql[ST_COUNT] = {
	"SELECT id FROM str WHERE s = ?1",
	"INSERT INTO str (s) VALUES (?1)",
	"SELECT id FROM frame WHERE name = ?1 AND module = ?2 AND file = ?3 "
	    "AND line = ?4 AND addr = ?5 AND inlined = ?6",
	"INSERT INTO frame (name, module, file, line, addr, inlined) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	"SELECT id FROM callsite WHERE parent_id IS ?1 AND frame_id = ?2",
	"INSERT INTO callsite (parent_id, frame_id, depth) VALUES (?1, ?2, ?3)",
	"SELECT id FROM process WHERE host = ?1 AND pid = ?2",
	"INSERT INTO process (host, pid, name) VALUES (?1, ?2, ?3)",
	"SELECT id FROM thread WHERE process_id IS ?1 AND tid IS ?2 "
	    "AND name = ?3",
	"INSERT INTO thread (process_id, tid, name) VALUES (?1, ?2, ?3)",
	NULL,	/* ST_SAMPLE: batched, see batches[] */
	"INSERT INTO profile (source_id, type, ts, dur, period, period_type, "
	    "period_unit, sample_types, default_type, meta) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, coalesce(?8, '[]'), ?9, "
	    "coalesce(?10, '{}'))",
	"INSERT INTO track (source_id, kind, name, ref, process_id, thread_id, "
	    "parent_id, meta) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "coalesce(?8, '{}'))",
	"INSERT INTO slice_run (id, source_id, track_id, ts, end_ts, n, "
	    "slices) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	NULL,	/* ST_COUNTER */
};


struct tr_writer {
	struct tr_db			*db;
	int64_t				 source_id;
	size_t				 cache_cap, run_cap;
	struct tr_writer_counts		 n;
	sqlite3_stmt			*st[ST_COUNT];

	struct tr_map			*strs, *frames, *callsites;
	struct tr_map			*procs, *threads;
	struct tr_buf			 key;
	/*
	 * The largest frame and call site ids before this import: a call
	 * site whose parent or frame is newer cannot be in the store yet,
	 * so its lookup is skipped.
	 */
	int64_t				 old_frame_max, old_cs_max;
	int64_t				 old_str_max;
	/* A cache was emptied: what it held must be looked up again. */
	int				 strs_evicted, frames_evicted;
	int				 cs_evicted, other_evicted;

	char				*host;

	/* Rows waiting in each batched statement. */
	int				 pending[ST_COUNT];
	int				 ncols[ST_COUNT];

	/* Slices not yet written, a run per track (see flush_run()). */
	struct tr_imap			 runs;
	size_t				 run_slices;	/* in all */
	struct run_chunk		*free_chunks;
	int64_t				 next_slice_id;
	struct tr_buf			 json;

	/* Observers, in the order attached. */
	int				 nobs;
	const struct tr_writer_hooks	*obs[TR_WRITER_MAXOBS];
	void				*obs_arg[TR_WRITER_MAXOBS];
	/* Any observer of this kind of row: the add path skips the loop. */
	int				 obs_track, obs_sample, obs_slice;
	int				 obs_counter;
};

/* A track's slices waiting to go into one row of slice_run. */
struct run_slice {
	int64_t	ts, dur, name_id, category_id, callsite_id;
	size_t	args_off, args_len;	/* in run->args; len 0: none */
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

/* Step a lookup: 1 with *id set, 0 for no row, -1 on error. */
static int
step_get(struct tr_writer *w, sqlite3_stmt *st, int64_t *id,
    struct tr_error *err)
{
	int	rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return (1);
	if (rc == SQLITE_DONE)
		return (0);
	return (tr_db_error(w->db, err, "cannot read store"));
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

static void
bind_opt_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

/*
 * The interning maps are caches in front of the store's unique keys: one
 * that grows past its cap (entries or bytes) is emptied, so memory stays
 * bounded whatever the input (about 70 MB at most with SQLite's cache), and
 * later lookups fall back to the store.
 */
#define CACHE_CAP_STRS		(64 * 1024)
#define CACHE_CAP_FRAMES	(96 * 1024)
#define CACHE_CAP_CALLSITES	(384 * 1024)
#define CACHE_CAP_THREADS	(64 * 1024)
#define CACHE_CAP_BYTES		(24 << 20)	/* and long keys: at most this */

static size_t
cap(const struct tr_writer *w, size_t dflt)
{
	return (w->cache_cap > 0 ? w->cache_cap : dflt);
}

static void
cache_put(struct tr_map **m, size_t cap, int *evicted, const void *key,
    size_t len, int64_t val)
{
	if (tr_map_count(*m) >= cap || tr_map_bytes(*m) > CACHE_CAP_BYTES) {
		tr_map_free(*m);
		*m = tr_map_new();
		*evicted = 1;
	}
	tr_map_put(*m, key, len, val);
}

int64_t
tr_writer_add_str(struct tr_writer *w, const char *s, size_t n,
    struct tr_error *err)
{
	int64_t	id;
	int	r;

	if (tr_map_get(w->strs, s, n, &id))
		return (id);
	r = 0;
	bind_text(w->st[ST_STR_GET], 1, s, n);
	if ((w->old_str_max > 0 || w->strs_evicted) &&
	    (r = step_get(w, w->st[ST_STR_GET], &id, err)) < 0)
		return (-1);
	if (r == 0) {
		bind_text(w->st[ST_STR_PUT], 1, s, n);
		if (step_done(w, w->st[ST_STR_PUT], err) != 0)
			return (-1);
		id = sqlite3_last_insert_rowid(w->db->sq);
	}
	cache_put(&w->strs, cap(w, CACHE_CAP_STRS), &w->strs_evicted, s,
	    n, id);
	return (id);
}

int64_t
tr_writer_add_frame(struct tr_writer *w, const struct tr_frame *f,
    struct tr_error *err)
{
	struct tr_buf	*k = &w->key;
	sqlite3_stmt	*st;
	int64_t		 id, nums[3];
	int		 r, i;

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
	for (i = ST_FRAME_GET; i <= ST_FRAME_PUT; i++) {
		st = w->st[i];
		bind_text(st, 1, f->name, f->name_len);
		bind_text(st, 2, f->module, f->module_len);
		bind_text(st, 3, f->file, f->file_len);
		sqlite3_bind_int64(st, 4, f->line);
		sqlite3_bind_int64(st, 5, (int64_t)f->addr);
		sqlite3_bind_int(st, 6, f->inlined);
		if (i == ST_FRAME_GET) {
			if (w->old_frame_max == 0 && !w->frames_evicted)
				continue;
			if ((r = step_get(w, st, &id, err)) < 0)
				return (-1);
			if (r == 1)
				break;
		} else {
			if (step_done(w, st, err) != 0)
				return (-1);
			id = sqlite3_last_insert_rowid(w->db->sq);
			w->n.frames++;
		}
	}
	cache_put(&w->frames, cap(w, CACHE_CAP_FRAMES),
	    &w->frames_evicted, k->data, k->len, id);
	return (id);
}

int64_t
tr_writer_add_callsite(struct tr_writer *w, int64_t parent,
    int64_t frame_id, int64_t depth, struct tr_error *err)
{
	int64_t		 key[2], id;
	sqlite3_stmt	*st;
	int		 r;

	key[0] = parent;
	key[1] = frame_id;
	if (tr_map_get(w->callsites, key, sizeof key, &id))
		return (id);
	r = 0;
	if (w->cs_evicted ||
	    (parent <= w->old_cs_max && frame_id <= w->old_frame_max)) {
		st = w->st[ST_CS_GET];
		bind_id(st, 1, parent);
		sqlite3_bind_int64(st, 2, frame_id);
		if ((r = step_get(w, st, &id, err)) < 0)
			return (-1);
	}
	if (r == 0) {
		st = w->st[ST_CS_PUT];
		bind_id(st, 1, parent);
		sqlite3_bind_int64(st, 2, frame_id);
		sqlite3_bind_int64(st, 3, depth);
		if (step_done(w, st, err) != 0)
			return (-1);
		id = sqlite3_last_insert_rowid(w->db->sq);
		w->n.callsites++;
	}
	cache_put(&w->callsites, cap(w, CACHE_CAP_CALLSITES),
	    &w->cs_evicted, key, sizeof key, id);
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
	sqlite3_stmt	*st;
	const char	*host = w->host ? w->host : "";
	int64_t		 id;
	int		 r;

	if (pid < 0)
		return (0);
	if (tr_map_get(w->procs, &pid, sizeof pid, &id))
		return (id);
	st = w->st[ST_PROC_GET];
	sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, pid);
	if ((r = step_get(w, st, &id, err)) < 0)
		return (-1);
	if (r == 0) {
		st = w->st[ST_PROC_PUT];
		sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, pid);
		if (name != NULL)
			bind_text(st, 3, name, len);
		else
			sqlite3_bind_null(st, 3);
		if (step_done(w, st, err) != 0)
			return (-1);
		id = sqlite3_last_insert_rowid(w->db->sq);
	}
	cache_put(&w->procs, cap(w, CACHE_CAP_THREADS),
	    &w->other_evicted, &pid, sizeof pid, id);
	return (id);
}

int64_t
tr_writer_add_thread(struct tr_writer *w, int64_t pid, int64_t tid,
    const char *name, size_t len, struct tr_error *err)
{
	struct tr_buf	*k = &w->key;
	sqlite3_stmt	*st;
	int64_t		 id, proc, ids[2];
	int		 r, i;

	ids[0] = pid;
	ids[1] = tid;
	tr_buf_reset(k);
	tr_buf_add(k, ids, sizeof ids);
	if (name != NULL)
		tr_buf_add(k, name, len);
	if (tr_map_get(w->threads, k->data, k->len, &id))
		return (id);
	if ((proc = tr_writer_add_process(w, pid, name, len, err)) < 0)
		return (-1);
	for (i = ST_THREAD_GET; i <= ST_THREAD_PUT; i++) {
		st = w->st[i];
		bind_id(st, 1, proc);
		if (tid >= 0)
			sqlite3_bind_int64(st, 2, tid);
		else
			sqlite3_bind_null(st, 2);
		bind_text(st, 3, name, len);
		if (i == ST_THREAD_GET) {
			if ((r = step_get(w, st, &id, err)) < 0)
				return (-1);
			if (r == 1)
				break;
		} else {
			if (step_done(w, st, err) != 0)
				return (-1);
			id = sqlite3_last_insert_rowid(w->db->sq);
		}
	}
	/* Rebuild the key: tr_writer_add_process() may have reused it. */
	tr_buf_reset(k);
	tr_buf_add(k, ids, sizeof ids);
	if (name != NULL)
		tr_buf_add(k, name, len);
	cache_put(&w->threads, cap(w, CACHE_CAP_THREADS),
	    &w->other_evicted, k->data, k->len, id);
	return (id);
}

static void
see_ts(struct tr_writer *w, int64_t ts)
{
	if (ts < w->n.ts_min)
		w->n.ts_min = ts;
	if (ts > w->n.ts_max)
		w->n.ts_max = ts;
}

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

/* Parameter i (1-based) of the next row of batch 'st' is base + i. */
static int
batch_base(const struct tr_writer *w, int st)
{
	return (w->pending[st] * w->ncols[st]);
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

/* One more row in batch 'st': written when the batch is full. */
static int
batch_add(struct tr_writer *w, int st, struct tr_error *err)
{
	if (++w->pending[st] < BATCH)
		return (0);
	return (batch_flush(w, st, err));
}

int64_t
tr_writer_add_sample(struct tr_writer *w, const struct tr_sample *s,
    struct tr_error *err)
{
	sqlite3_stmt	*st = w->st[ST_SAMPLE];
	const int	 p = batch_base(w, ST_SAMPLE);
	int		 i;

	sqlite3_bind_int64(st, p + 1, w->source_id);
	bind_id(st, p + 2, s->profile_id);
	if (s->has_ts) {
		sqlite3_bind_int64(st, p + 3, s->ts);
		see_ts(w, s->ts);
	} else
		sqlite3_bind_null(st, p + 3);
	bind_id(st, p + 4, s->thread_id);
	if (s->cpu >= 0)
		sqlite3_bind_int(st, p + 5, s->cpu);
	else
		sqlite3_bind_null(st, p + 5);
	bind_id(st, p + 6, s->callsite_id);
	sqlite3_bind_int64(st, p + 7, s->event_id);
	sqlite3_bind_int64(st, p + 8, s->value);
	bind_opt_text(st, p + 9, s->labels);
	if (batch_add(w, ST_SAMPLE, err) != 0)
		return (-1);
	w->n.samples++;
	if (w->obs_sample)
		for (i = 0; i < w->nobs; i++)
			if (w->obs[i]->sample != NULL &&
			    w->obs[i]->sample(w->obs_arg[i], s, err) != 0)
				return (-1);
	return (0);
}

int64_t
tr_writer_add_profile(struct tr_writer *w, const char *type, int64_t ts,
    int64_t dur, int64_t period, const char *period_type,
    const char *period_unit, const char *sample_types,
    const char *default_type, const char *meta, struct tr_error *err)
{
	sqlite3_stmt	*st = w->st[ST_PROFILE];

	sqlite3_bind_int64(st, 1, w->source_id);
	sqlite3_bind_text(st, 2, type, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, ts);
	sqlite3_bind_int64(st, 4, dur);
	sqlite3_bind_int64(st, 5, period);
	bind_opt_text(st, 6, period_type);
	bind_opt_text(st, 7, period_unit);
	bind_opt_text(st, 8, sample_types);
	bind_opt_text(st, 9, default_type);
	bind_opt_text(st, 10, meta);
	if (step_done(w, st, err) != 0)
		return (-1);
	if (ts != 0) {
		see_ts(w, ts);
		see_ts(w, ts + dur);
	}
	w->n.profiles++;
	return (sqlite3_last_insert_rowid(w->db->sq));
}

int64_t
tr_writer_add_track(struct tr_writer *w, const char *kind,
    const char *name, int64_t ref, int64_t process_id, int64_t thread_id,
    int64_t parent_id, const char *meta, struct tr_error *err)
{
	sqlite3_stmt	*st = w->st[ST_TRACK];
	struct tr_track	 t;
	int		 i;

	sqlite3_bind_int64(st, 1, w->source_id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, name ? name : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, ref);
	bind_id(st, 5, process_id);
	bind_id(st, 6, thread_id);
	bind_id(st, 7, parent_id);
	bind_opt_text(st, 8, meta);
	if (step_done(w, st, err) != 0)
		return (-1);
	t.id = sqlite3_last_insert_rowid(w->db->sq);
	if (w->obs_track) {
		t.kind = kind;
		t.name = name ? name : "";
		t.ref = ref;
		t.process_id = process_id > 0 ? process_id : 0;
		t.thread_id = thread_id > 0 ? thread_id : 0;
		t.parent_id = parent_id > 0 ? parent_id : 0;
		t.meta = meta;
		for (i = 0; i < w->nobs; i++)
			if (w->obs[i]->track != NULL &&
			    w->obs[i]->track(w->obs_arg[i], &t, err) != 0)
				return (-1);
	}
	return (t.id);
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
 */
#define RUN_PENDING	(512 * 1024)
#define RUN_ARGS	(16 * 1024)
#define RUN_TRACKS	(16 * 1024)

static size_t
run_cap(const struct tr_writer *w, size_t dflt)
{
	return (w->run_cap > 0 ? w->run_cap : dflt);
}

static char *
put_null(char *o)
{
	memcpy(o, "null", 4);
	return (o + 4);
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

/* Slice i of run r (chunk k holds it; k advances as i does). */
#define RUN_SLICE(k, i)	(&(k)->s[(i) % RUN_CHUNK])
#define RUN_NEXT(k, i)	\
	((i) % RUN_CHUNK == RUN_CHUNK - 1 ? (k)->next : (k))

/* Write run 'r' as one row and empty it. */
static int
flush_run(struct tr_writer *w, struct run *r, struct tr_error *err)
{
	sqlite3_stmt		*st = w->st[ST_SLICE];
	struct tr_buf		*j = &w->json;
	const struct run_slice	*s;
	const struct run_chunk	*k;
	int64_t			 t0, end;
	int			 i, last;
	char			*o, *start;

	if (r->n == 0)
		return (0);
	t0 = r->head->s[0].ts;
	end = t0 + r->head->s[0].dur;
	for (k = r->head, i = 0; i < r->n; k = RUN_NEXT(k, i), i++) {
		s = RUN_SLICE(k, i);
		if (s->ts < t0)
			t0 = s->ts;
		if (s->ts + s->dur > end)
			end = s->ts + s->dur;
	}
	/* Each slice: 5 numbers of 20 characters at most, 10 more, args. */
	tr_buf_reset(j);
	o = start = tr_buf_reserve(j, (size_t)r->n * 110 + r->args.len + 2);
	*o++ = '[';
	for (k = r->head, i = 0; i < r->n; k = RUN_NEXT(k, i), i++) {
		s = RUN_SLICE(k, i);
		if (i > 0)
			*o++ = ',';
		*o++ = '[';
		o = tr_put_int(o, s->ts - t0);
		*o++ = ',';
		o = tr_put_int(o, s->dur);
		*o++ = ',';
		o = tr_put_int(o, s->name_id);
		/* The last field present; the ones after it are left out. */
		last = s->args_len ? 5 : s->callsite_id > 0 ? 4 :
		    s->category_id > 0 ? 3 : 2;
		if (last >= 3) {
			*o++ = ',';
			o = s->category_id > 0 ? tr_put_int(o, s->category_id) :
			    put_null(o);
		}
		if (last >= 4) {
			*o++ = ',';
			o = s->callsite_id > 0 ? tr_put_int(o, s->callsite_id) :
			    put_null(o);
		}
		if (last == 5) {
			*o++ = ',';
			memcpy(o, r->args.data + s->args_off, s->args_len);
			o += s->args_len;
		}
		*o++ = ']';
	}
	*o++ = ']';
	*o = '\0';
	j->len = (size_t)(o - start);
	sqlite3_bind_int64(st, 1, w->next_slice_id);
	sqlite3_bind_int64(st, 2, w->source_id);
	sqlite3_bind_int64(st, 3, r->track_id);
	sqlite3_bind_int64(st, 4, t0);
	sqlite3_bind_int64(st, 5, end);
	sqlite3_bind_int(st, 6, r->n);
	sqlite3_bind_text(st, 7, j->data, (int)j->len, SQLITE_STATIC);
	w->next_slice_id += r->n;
	w->run_slices -= (size_t)r->n;
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
	return (step_done(w, st, err));
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
	w->run_slices = 0;
	return (rc);
}

int64_t
tr_writer_add_slice(struct tr_writer *w, int64_t track_id, int64_t ts,
    int64_t dur, int64_t name_id, int64_t category_id, int64_t callsite_id,
    const char *args, struct tr_error *err)
{
	struct run		*r;
	struct run_slice	*s;
	struct run_chunk	*k;
	struct tr_slice		 o;
	int			 i;

	if (w->run_slices >= run_cap(w, RUN_PENDING) &&
	    flush_runs(w, err) != 0)
		return (-1);
	if ((r = tr_imap_get(&w->runs, (uint64_t)track_id)) == NULL) {
		if (w->runs.count >= run_cap(w, RUN_TRACKS) &&
		    flush_runs(w, err) != 0)
			return (-1);
		r = tr_xcalloc(1, sizeof *r);
		r->track_id = track_id;
		tr_buf_init(&r->args);
		tr_imap_put(&w->runs, (uint64_t)track_id, r);
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
	s->ts = ts;
	s->dur = dur;
	s->name_id = name_id;
	s->category_id = category_id;
	s->callsite_id = callsite_id;
	s->args_off = r->args.len;
	s->args_len = 0;
	if (args != NULL && *args != '\0') {
		s->args_len = strlen(args);
		tr_buf_add(&r->args, args, s->args_len);
	}
	w->run_slices++;
	see_ts(w, ts);
	see_ts(w, ts + dur);
	w->n.slices++;
	if ((r->n == TR_SLICE_RUN || r->args.len >= RUN_ARGS) &&
	    flush_run(w, r, err) != 0)
		return (-1);
	if (w->obs_slice) {
		o.track_id = track_id;
		o.ts = ts;
		o.dur = dur;
		o.name_id = name_id;
		o.category_id = category_id;
		o.callsite_id = callsite_id;
		o.args = args != NULL && *args != '\0' ? args : NULL;
		for (i = 0; i < w->nobs; i++)
			if (w->obs[i]->slice != NULL &&
			    w->obs[i]->slice(w->obs_arg[i], &o, err) != 0)
				return (-1);
	}
	return (0);
}

int64_t
tr_writer_add_counter(struct tr_writer *w, int64_t track_id, int64_t ts,
    int64_t name_id, double value, struct tr_error *err)
{
	sqlite3_stmt	*st = w->st[ST_COUNTER];
	const int	 p = batch_base(w, ST_COUNTER);
	int		 i;

	sqlite3_bind_int64(st, p + 1, w->source_id);
	sqlite3_bind_int64(st, p + 2, track_id);
	sqlite3_bind_int64(st, p + 3, ts);
	sqlite3_bind_int64(st, p + 4, name_id);
	if (isnan(value))
		sqlite3_bind_null(st, p + 5);
	else if (value == floor(value) && fabs(value) < 9e15)
		sqlite3_bind_int64(st, p + 5, (int64_t)value);
	else
		sqlite3_bind_double(st, p + 5, value);
	if (batch_add(w, ST_COUNTER, err) != 0)
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
	w->callsites = tr_map_new();
	w->procs = tr_map_new();
	w->threads = tr_map_new();
	tr_buf_init(&w->key);
	tr_buf_init(&w->json);
	tr_imap_init(&w->runs);
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
	if (tr_db_int(db, "SELECT max(id) FROM frame", &w->old_frame_max,
	    err) != 0 || tr_db_int(db, "SELECT max(id) FROM callsite",
	    &w->old_cs_max, err) != 0 || tr_db_int(db,
	    "SELECT max(id) FROM str", &w->old_str_max, err) != 0 ||
	    tr_db_int(db, "SELECT coalesce((SELECT id + n FROM slice_run "
	    "ORDER BY id DESC LIMIT 1), 1)", &w->next_slice_id, err) != 0)
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
tr_writer_observe(struct tr_writer *w, const struct tr_writer_hooks *h,
    void *arg, struct tr_error *err)
{
	if (w->nobs == TR_WRITER_MAXOBS) {
		if (h->free != NULL)
			h->free(arg);
		return (tr_error_set(err, TR_EIO, "more than %d observers of "
		    "the store writer", TR_WRITER_MAXOBS));
	}
	w->obs[w->nobs] = h;
	w->obs_arg[w->nobs++] = arg;
	w->obs_track |= h->track != NULL;
	w->obs_sample |= h->sample != NULL;
	w->obs_slice |= h->slice != NULL;
	w->obs_counter |= h->counter != NULL;
	return (0);
}

int
tr_writer_flush(struct tr_writer *w, struct tr_error *err)
{
	int	i;

	for (i = 0; i < (int)NBATCHES; i++)
		if (batch_flush(w, batches[i].st, err) != 0)
			return (-1);
	if (flush_runs(w, err) != 0)
		return (-1);
	for (i = 0; i < w->nobs; i++)
		if (w->obs[i]->finish != NULL &&
		    w->obs[i]->finish(w->obs_arg[i], w, err) != 0)
			return (-1);
	return (0);
}

void
tr_writer_free(struct tr_writer *w)
{
	int	i;

	if (w == NULL)
		return;
	for (i = 0; i < w->nobs; i++)
		if (w->obs[i]->free != NULL)
			w->obs[i]->free(w->obs_arg[i]);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(w->st[i]);
	tr_map_free(w->strs);
	tr_map_free(w->frames);
	tr_map_free(w->callsites);
	tr_map_free(w->procs);
	tr_map_free(w->threads);
	tr_buf_release(&w->key);
	tr_imap_free(&w->runs, run_free);
	chunks_free(w->free_chunks);
	tr_buf_release(&w->json);
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
