/*
 * The importer table and the import context: one transaction per input,
 * in-memory interning in front of the store's unique keys, and the source
 * row written in the same transaction as the data.
 */
#include "config.h"
#include "import/importer.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/util.h"

/* importer.c: keep sorted */
extern const struct tr_importer tr_importer_clock_json;
extern const struct tr_importer tr_importer_gotrace;
extern const struct tr_importer tr_importer_nvidia_smi_csv;
extern const struct tr_importer tr_importer_nvidia_smi_dmon;
extern const struct tr_importer tr_importer_nvidia_smi_pmon;
extern const struct tr_importer tr_importer_nvtop;
extern const struct tr_importer tr_importer_perf_script;
extern const struct tr_importer tr_importer_pprof;

const struct tr_importer *const tr_importer_table[] = {
	&tr_importer_clock_json,
	&tr_importer_gotrace,
	&tr_importer_nvidia_smi_csv,
	&tr_importer_nvidia_smi_dmon,
	&tr_importer_nvidia_smi_pmon,
	&tr_importer_nvtop,
	&tr_importer_perf_script,
	&tr_importer_pprof,
	NULL
};

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

struct tr_import {
	struct tr_db			*db;
	const struct tr_import_opts	*opts;
	const struct tr_importer	*imp;
	struct tr_input			*in;
	struct tr_import_result		*res;
	int64_t				 source_id;
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

	char				*version, *clock, *host;
	json_t				*meta;

	/* Rows waiting in each batched statement. */
	int				 pending[ST_COUNT];
	int				 ncols[ST_COUNT];

	/* Slices not yet written, a run per track (see flush_run()). */
	struct tr_imap			 runs;
	size_t				 run_slices;	/* in all */
	struct run_chunk		*free_chunks;
	int64_t				 next_slice_id;
	struct tr_buf			 json;
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

const struct tr_importer *
tr_importer_find(const char *name)
{
	size_t	i;

	for (i = 0; tr_importer_table[i] != NULL; i++)
		if (strcmp(tr_importer_table[i]->name, name) == 0)
			return (tr_importer_table[i]);
	return (NULL);
}

const struct tr_importer *
tr_importer_detect(const unsigned char *p, size_t len)
{
	const struct tr_importer	*best = NULL;
	int				 score, top = 0;
	size_t				 i;

	for (i = 0; tr_importer_table[i] != NULL; i++) {
		score = tr_importer_table[i]->probe(p, len);
		if (score > top) {
			top = score;
			best = tr_importer_table[i];
		}
	}
	return (best);
}

char *
tr_importer_names(void)
{
	struct tr_buf	b;
	size_t		i;

	tr_buf_init(&b);
	for (i = 0; tr_importer_table[i] != NULL; i++) {
		if (i > 0)
			tr_buf_adds(&b, ", ");
		tr_buf_adds(&b, tr_importer_table[i]->name);
	}
	return (b.data);
}

void
tr_import_opts_init(struct tr_import_opts *o)
{
	memset(o, 0, sizeof *o);
}

int
tr_import_opts_set(struct tr_import_opts *o, const char *key,
    const char *val)
{
	int	i;

	for (i = 0; i < o->nopts; i++)
		if (strcmp(o->keys[i], key) == 0) {
			o->vals[i] = val;
			return (0);
		}
	if (o->nopts == TR_IMPORT_MAXOPTS)
		return (-1);
	o->keys[o->nopts] = key;
	o->vals[o->nopts++] = val;
	return (0);
}

const char *
tr_import_opt(const struct tr_import *ctx, const char *key)
{
	int	i;

	for (i = 0; i < ctx->opts->nopts; i++)
		if (strcmp(ctx->opts->keys[i], key) == 0)
			return (ctx->opts->vals[i]);
	return (NULL);
}

const char *
tr_import_name(const struct tr_import *ctx)
{
	return (tr_input_name(ctx->in));
}

struct tr_db *
tr_import_db(struct tr_import *ctx)
{
	return (ctx->db);
}

int64_t
tr_import_source_id(const struct tr_import *ctx)
{
	return (ctx->source_id);
}

static void
set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? tr_xstrdup(s) : NULL;
}

void
tr_import_set_version(struct tr_import *ctx, const char *v)
{
	set_str(&ctx->version, v);
}

void
tr_import_set_clock(struct tr_import *ctx, const char *c)
{
	set_str(&ctx->clock, c);
}

void
tr_import_set_host(struct tr_import *ctx, const char *h)
{
	set_str(&ctx->host, h);
}

const char *
tr_import_host(const struct tr_import *ctx)
{
	return (ctx->host);
}

json_t *
tr_import_meta(struct tr_import *ctx)
{
	return (ctx->meta);
}

/* Step a statement that returns no row, then reset it. */
static int
step_done(struct tr_import *ctx, sqlite3_stmt *st, struct tr_error *err)
{
	int	rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(ctx->db, err, "cannot write to store"));
	return (0);
}

/* Step a lookup: 1 with *id set, 0 for no row, -1 on error. */
static int
step_get(struct tr_import *ctx, sqlite3_stmt *st, int64_t *id,
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
	return (tr_db_error(ctx->db, err, "cannot read store"));
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
cap(const struct tr_import *ctx, size_t dflt)
{
	return (ctx->opts->cache_cap > 0 ? ctx->opts->cache_cap : dflt);
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
tr_import_add_str(struct tr_import *ctx, const char *s, size_t n,
    struct tr_error *err)
{
	int64_t	id;
	int	r;

	if (tr_map_get(ctx->strs, s, n, &id))
		return (id);
	r = 0;
	bind_text(ctx->st[ST_STR_GET], 1, s, n);
	if ((ctx->old_str_max > 0 || ctx->strs_evicted) &&
	    (r = step_get(ctx, ctx->st[ST_STR_GET], &id, err)) < 0)
		return (-1);
	if (r == 0) {
		bind_text(ctx->st[ST_STR_PUT], 1, s, n);
		if (step_done(ctx, ctx->st[ST_STR_PUT], err) != 0)
			return (-1);
		id = sqlite3_last_insert_rowid(ctx->db->sq);
	}
	cache_put(&ctx->strs, cap(ctx, CACHE_CAP_STRS), &ctx->strs_evicted, s,
	    n, id);
	return (id);
}

int64_t
tr_import_add_frame(struct tr_import *ctx, const struct tr_frame *f,
    struct tr_error *err)
{
	struct tr_buf	*k = &ctx->key;
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
	if (tr_map_get(ctx->frames, k->data, k->len, &id))
		return (id);
	for (i = ST_FRAME_GET; i <= ST_FRAME_PUT; i++) {
		st = ctx->st[i];
		bind_text(st, 1, f->name, f->name_len);
		bind_text(st, 2, f->module, f->module_len);
		bind_text(st, 3, f->file, f->file_len);
		sqlite3_bind_int64(st, 4, f->line);
		sqlite3_bind_int64(st, 5, (int64_t)f->addr);
		sqlite3_bind_int(st, 6, f->inlined);
		if (i == ST_FRAME_GET) {
			if (ctx->old_frame_max == 0 && !ctx->frames_evicted)
				continue;
			if ((r = step_get(ctx, st, &id, err)) < 0)
				return (-1);
			if (r == 1)
				break;
		} else {
			if (step_done(ctx, st, err) != 0)
				return (-1);
			id = sqlite3_last_insert_rowid(ctx->db->sq);
			ctx->res->frames++;
		}
	}
	cache_put(&ctx->frames, cap(ctx, CACHE_CAP_FRAMES),
	    &ctx->frames_evicted, k->data, k->len, id);
	return (id);
}

int64_t
tr_import_add_callsite(struct tr_import *ctx, int64_t parent,
    int64_t frame_id, int64_t depth, struct tr_error *err)
{
	int64_t		 key[2], id;
	sqlite3_stmt	*st;
	int		 r;

	key[0] = parent;
	key[1] = frame_id;
	if (tr_map_get(ctx->callsites, key, sizeof key, &id))
		return (id);
	r = 0;
	if (ctx->cs_evicted ||
	    (parent <= ctx->old_cs_max && frame_id <= ctx->old_frame_max)) {
		st = ctx->st[ST_CS_GET];
		bind_id(st, 1, parent);
		sqlite3_bind_int64(st, 2, frame_id);
		if ((r = step_get(ctx, st, &id, err)) < 0)
			return (-1);
	}
	if (r == 0) {
		st = ctx->st[ST_CS_PUT];
		bind_id(st, 1, parent);
		sqlite3_bind_int64(st, 2, frame_id);
		sqlite3_bind_int64(st, 3, depth);
		if (step_done(ctx, st, err) != 0)
			return (-1);
		id = sqlite3_last_insert_rowid(ctx->db->sq);
		ctx->res->callsites++;
	}
	cache_put(&ctx->callsites, cap(ctx, CACHE_CAP_CALLSITES),
	    &ctx->cs_evicted, key, sizeof key, id);
	return (id);
}

int64_t
tr_import_add_stack(struct tr_import *ctx, const int64_t *frames, size_t n,
    struct tr_error *err)
{
	int64_t	cs = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		if ((cs = tr_import_add_callsite(ctx, cs, frames[i],
		    (int64_t)i, err)) < 0)
			return (-1);
	return (cs);
}

int64_t
tr_import_add_process(struct tr_import *ctx, int64_t pid, const char *name,
    size_t len, struct tr_error *err)
{
	sqlite3_stmt	*st;
	const char	*host = ctx->host ? ctx->host : "";
	int64_t		 id;
	int		 r;

	if (pid < 0)
		return (0);
	if (tr_map_get(ctx->procs, &pid, sizeof pid, &id))
		return (id);
	st = ctx->st[ST_PROC_GET];
	sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, pid);
	if ((r = step_get(ctx, st, &id, err)) < 0)
		return (-1);
	if (r == 0) {
		st = ctx->st[ST_PROC_PUT];
		sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, pid);
		if (name != NULL)
			bind_text(st, 3, name, len);
		else
			sqlite3_bind_null(st, 3);
		if (step_done(ctx, st, err) != 0)
			return (-1);
		id = sqlite3_last_insert_rowid(ctx->db->sq);
	}
	cache_put(&ctx->procs, cap(ctx, CACHE_CAP_THREADS),
	    &ctx->other_evicted, &pid, sizeof pid, id);
	return (id);
}

int64_t
tr_import_add_thread(struct tr_import *ctx, int64_t pid, int64_t tid,
    const char *name, size_t len, struct tr_error *err)
{
	struct tr_buf	*k = &ctx->key;
	sqlite3_stmt	*st;
	int64_t		 id, proc, ids[2];
	int		 r, i;

	ids[0] = pid;
	ids[1] = tid;
	tr_buf_reset(k);
	tr_buf_add(k, ids, sizeof ids);
	if (name != NULL)
		tr_buf_add(k, name, len);
	if (tr_map_get(ctx->threads, k->data, k->len, &id))
		return (id);
	if ((proc = tr_import_add_process(ctx, pid, name, len, err)) < 0)
		return (-1);
	for (i = ST_THREAD_GET; i <= ST_THREAD_PUT; i++) {
		st = ctx->st[i];
		bind_id(st, 1, proc);
		if (tid >= 0)
			sqlite3_bind_int64(st, 2, tid);
		else
			sqlite3_bind_null(st, 2);
		bind_text(st, 3, name, len);
		if (i == ST_THREAD_GET) {
			if ((r = step_get(ctx, st, &id, err)) < 0)
				return (-1);
			if (r == 1)
				break;
		} else {
			if (step_done(ctx, st, err) != 0)
				return (-1);
			id = sqlite3_last_insert_rowid(ctx->db->sq);
		}
	}
	/* Rebuild the key: tr_import_add_process() may have reused it. */
	tr_buf_reset(k);
	tr_buf_add(k, ids, sizeof ids);
	if (name != NULL)
		tr_buf_add(k, name, len);
	cache_put(&ctx->threads, cap(ctx, CACHE_CAP_THREADS),
	    &ctx->other_evicted, k->data, k->len, id);
	return (id);
}

static void
see_ts(struct tr_import *ctx, int64_t ts)
{
	if (ts < ctx->res->ts_min)
		ctx->res->ts_min = ts;
	if (ts > ctx->res->ts_max)
		ctx->res->ts_max = ts;
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
batch_base(const struct tr_import *ctx, int st)
{
	return (ctx->pending[st] * ctx->ncols[st]);
}

/* Write the rows batch 'st' holds. */
static int
batch_flush(struct tr_import *ctx, int st, struct tr_error *err)
{
	if (ctx->pending[st] == 0)
		return (0);
	ctx->pending[st] = 0;
	if (step_done(ctx, ctx->st[st], err) != 0)
		return (-1);
	sqlite3_clear_bindings(ctx->st[st]);
	return (0);
}

/* One more row in batch 'st': written when the batch is full. */
static int
batch_add(struct tr_import *ctx, int st, struct tr_error *err)
{
	if (++ctx->pending[st] < BATCH)
		return (0);
	return (batch_flush(ctx, st, err));
}

int64_t
tr_import_add_sample(struct tr_import *ctx, const struct tr_sample *s,
    struct tr_error *err)
{
	sqlite3_stmt	*st = ctx->st[ST_SAMPLE];
	const int	 p = batch_base(ctx, ST_SAMPLE);

	sqlite3_bind_int64(st, p + 1, ctx->source_id);
	bind_id(st, p + 2, s->profile_id);
	if (s->has_ts) {
		sqlite3_bind_int64(st, p + 3, s->ts);
		see_ts(ctx, s->ts);
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
	if (batch_add(ctx, ST_SAMPLE, err) != 0)
		return (-1);
	ctx->res->samples++;
	return (0);
}

int64_t
tr_import_add_profile(struct tr_import *ctx, const char *type, int64_t ts,
    int64_t dur, int64_t period, const char *period_type,
    const char *period_unit, const char *sample_types,
    const char *default_type, const char *meta, struct tr_error *err)
{
	sqlite3_stmt	*st = ctx->st[ST_PROFILE];

	sqlite3_bind_int64(st, 1, ctx->source_id);
	sqlite3_bind_text(st, 2, type, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, ts);
	sqlite3_bind_int64(st, 4, dur);
	sqlite3_bind_int64(st, 5, period);
	bind_opt_text(st, 6, period_type);
	bind_opt_text(st, 7, period_unit);
	bind_opt_text(st, 8, sample_types);
	bind_opt_text(st, 9, default_type);
	bind_opt_text(st, 10, meta);
	if (step_done(ctx, st, err) != 0)
		return (-1);
	if (ts != 0) {
		see_ts(ctx, ts);
		see_ts(ctx, ts + dur);
	}
	ctx->res->profiles++;
	return (sqlite3_last_insert_rowid(ctx->db->sq));
}

int64_t
tr_import_add_track(struct tr_import *ctx, const char *kind,
    const char *name, int64_t ref, int64_t process_id, int64_t thread_id,
    int64_t parent_id, const char *meta, struct tr_error *err)
{
	sqlite3_stmt	*st = ctx->st[ST_TRACK];

	sqlite3_bind_int64(st, 1, ctx->source_id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, name ? name : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, ref);
	bind_id(st, 5, process_id);
	bind_id(st, 6, thread_id);
	bind_id(st, 7, parent_id);
	bind_opt_text(st, 8, meta);
	if (step_done(ctx, st, err) != 0)
		return (-1);
	return (sqlite3_last_insert_rowid(ctx->db->sq));
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
run_cap(const struct tr_import *ctx, size_t dflt)
{
	return (ctx->opts->run_cap > 0 ? ctx->opts->run_cap : dflt);
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
flush_run(struct tr_import *ctx, struct run *r, struct tr_error *err)
{
	sqlite3_stmt		*st = ctx->st[ST_SLICE];
	struct tr_buf		*j = &ctx->json;
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
	sqlite3_bind_int64(st, 1, ctx->next_slice_id);
	sqlite3_bind_int64(st, 2, ctx->source_id);
	sqlite3_bind_int64(st, 3, r->track_id);
	sqlite3_bind_int64(st, 4, t0);
	sqlite3_bind_int64(st, 5, end);
	sqlite3_bind_int(st, 6, r->n);
	sqlite3_bind_text(st, 7, j->data, (int)j->len, SQLITE_STATIC);
	ctx->next_slice_id += r->n;
	ctx->run_slices -= (size_t)r->n;
	/* The chunks go back to the pool; a big args buffer goes. */
	r->tail->next = ctx->free_chunks;
	ctx->free_chunks = r->head;
	r->head = r->tail = NULL;
	r->n = 0;
	if (r->args.cap > 4096) {
		tr_buf_release(&r->args);
		tr_buf_init(&r->args);
	} else
		tr_buf_reset(&r->args);
	return (step_done(ctx, st, err));
}

/* Write every waiting run, and forget the runs. */
static int
flush_runs(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_imap_slot	*sl;
	size_t			 i;
	int			 rc = 0;

	for (i = 0; i < ctx->runs.cap; i++) {
		sl = &ctx->runs.slots[i];
		if (sl->val == NULL)
			continue;
		if (rc == 0 && flush_run(ctx, sl->val, err) != 0)
			rc = -1;
		run_free(sl->val);
	}
	tr_imap_release(&ctx->runs);
	ctx->run_slices = 0;
	return (rc);
}

int64_t
tr_import_add_slice(struct tr_import *ctx, int64_t track_id, int64_t ts,
    int64_t dur, int64_t name_id, int64_t category_id, int64_t callsite_id,
    const char *args, struct tr_error *err)
{
	struct run		*r;
	struct run_slice	*s;
	struct run_chunk	*k;

	if (ctx->run_slices >= run_cap(ctx, RUN_PENDING) &&
	    flush_runs(ctx, err) != 0)
		return (-1);
	if ((r = tr_imap_get(&ctx->runs, (uint64_t)track_id)) == NULL) {
		if (ctx->runs.count >= run_cap(ctx, RUN_TRACKS) &&
		    flush_runs(ctx, err) != 0)
			return (-1);
		r = tr_xcalloc(1, sizeof *r);
		r->track_id = track_id;
		tr_buf_init(&r->args);
		tr_imap_put(&ctx->runs, (uint64_t)track_id, r);
	}
	if (r->n % RUN_CHUNK == 0) {
		if ((k = ctx->free_chunks) != NULL)
			ctx->free_chunks = k->next;
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
	ctx->run_slices++;
	see_ts(ctx, ts);
	see_ts(ctx, ts + dur);
	ctx->res->slices++;
	if ((r->n == TR_SLICE_RUN || r->args.len >= RUN_ARGS) &&
	    flush_run(ctx, r, err) != 0)
		return (-1);
	return (0);
}

int64_t
tr_import_add_counter(struct tr_import *ctx, int64_t track_id, int64_t ts,
    int64_t name_id, double value, struct tr_error *err)
{
	sqlite3_stmt	*st = ctx->st[ST_COUNTER];
	const int	 p = batch_base(ctx, ST_COUNTER);

	sqlite3_bind_int64(st, p + 1, ctx->source_id);
	sqlite3_bind_int64(st, p + 2, track_id);
	sqlite3_bind_int64(st, p + 3, ts);
	sqlite3_bind_int64(st, p + 4, name_id);
	if (isnan(value))
		sqlite3_bind_null(st, p + 5);
	else if (value == floor(value) && fabs(value) < 9e15)
		sqlite3_bind_int64(st, p + 5, (int64_t)value);
	else
		sqlite3_bind_double(st, p + 5, value);
	if (batch_add(ctx, ST_COUNTER, err) != 0)
		return (-1);
	see_ts(ctx, ts);
	ctx->res->counters++;
	return (0);
}

/* --- the transaction ------------------------------------------------ */

static void
flush_runs_free(struct tr_import *ctx)
{
	tr_imap_free(&ctx->runs, run_free);
	chunks_free(ctx->free_chunks);
	ctx->free_chunks = NULL;
}

static void
ctx_release(struct tr_import *ctx)
{
	int	i;

	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(ctx->st[i]);
	tr_map_free(ctx->strs);
	tr_map_free(ctx->frames);
	tr_map_free(ctx->callsites);
	tr_map_free(ctx->procs);
	tr_map_free(ctx->threads);
	tr_buf_release(&ctx->key);
	flush_runs_free(ctx);
	tr_buf_release(&ctx->json);
	free(ctx->version);
	free(ctx->clock);
	free(ctx->host);
	json_decref(ctx->meta);
}

static int
insert_source(struct tr_import *ctx, struct tr_error *err)
{
	sqlite3_stmt	*st;
	char		 pending[64];
	int		 rc;

	st = tr_db_prepare(ctx->db, "INSERT INTO source (path, format, hash, "
	    "size, compression, imported_at) VALUES (?1, ?2, ?3, 0, ?4, "
	    "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))", err);
	if (st == NULL)
		return (-1);
	/* A placeholder until the whole content has been hashed. */
	snprintf(pending, sizeof pending, "pending-%p", (void *)ctx);
	sqlite3_bind_text(st, 1, tr_input_name(ctx->in), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ctx->imp->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, pending, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, tr_input_compression(ctx->in), -1,
	    SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(ctx->db, err, "cannot write to store"));
	ctx->source_id = sqlite3_last_insert_rowid(ctx->db->sq);
	return (0);
}

/*
 * Fill in the source row now that everything is known.  Returns 1 when
 * the content is already in the store (the caller rolls back).
 */
static int
finish_source(struct tr_import *ctx, struct tr_error *err)
{
	struct tr_import_result	*res = ctx->res;
	sqlite3_stmt		*st;
	char			 digest[64], *meta = NULL;
	int64_t			 dup = 0, n;
	int			 rc;
	char			 skip[16384];

	/*
	 * The hash covers the whole content, also what an importer that
	 * stops early left unread: inputs sharing a prefix are different
	 * sources, and a broken tail is still an error.
	 */
	while ((n = tr_input_read(ctx->in, skip, sizeof skip, err)) > 0)
		;
	if (n < 0)
		return (-1);
	tr_input_digest(ctx->in, digest);
	res->bytes = tr_input_decoded(ctx->in);
	st = tr_db_prepare(ctx->db, "SELECT id FROM source WHERE hash = ?1",
	    err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_text(st, 1, digest, -1, SQLITE_STATIC);
	rc = step_get(ctx, st, &dup, err);
	sqlite3_finalize(st);
	if (rc < 0)
		return (-1);
	if (rc == 1) {
		res->source_id = dup;
		res->duplicate = 1;
		return (1);
	}
	st = tr_db_prepare(ctx->db, "UPDATE source SET hash = ?2, size = ?3, "
	    "format_version = ?4, clock = coalesce(?5, 'none'), host = ?6, "
	    "ts_min = ?7, ts_max = ?8, rows = ?9, meta = ?10 WHERE id = ?1",
	    err);
	if (st == NULL)
		return (-1);
	meta = json_dumps(ctx->meta, JSON_COMPACT | JSON_SORT_KEYS);
	sqlite3_bind_int64(st, 1, ctx->source_id);
	sqlite3_bind_text(st, 2, digest, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, res->bytes);
	bind_opt_text(st, 4, ctx->version);
	bind_opt_text(st, 5, ctx->clock);
	bind_opt_text(st, 6, ctx->host);
	if (res->ts_min <= res->ts_max) {
		sqlite3_bind_int64(st, 7, res->ts_min);
		sqlite3_bind_int64(st, 8, res->ts_max);
	}
	sqlite3_bind_int64(st, 9, res->samples + res->slices + res->counters +
	    res->profiles);
	bind_opt_text(st, 10, meta ? meta : "{}");
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(meta);
	if (rc != SQLITE_DONE)
		return (tr_db_error(ctx->db, err, "cannot write to store"));
	res->source_id = ctx->source_id;
	return (0);
}

int
tr_import_input(struct tr_db *db, struct tr_input *in,
    const struct tr_import_opts *opts, struct tr_import_result *res,
    struct tr_error *err)
{
	struct tr_import	 ctx;
	const unsigned char	*p;
	char			*sql;
	size_t			 len;
	int			 i, rc = -1, r;

	memset(res, 0, sizeof *res);
	res->ts_min = INT64_MAX;
	res->ts_max = INT64_MIN;
	memset(&ctx, 0, sizeof ctx);
	ctx.db = db;
	ctx.opts = opts;
	ctx.in = in;
	ctx.res = res;
	ctx.imp = opts->format;
	if (ctx.imp == NULL) {
		if (tr_input_peek(in, &p, &len, err) != 0)
			return (-1);
		if (len == 0) {
			if (opts->skip_unknown) {
				res->skipped = 1;
				return (0);
			}
			return (tr_error_set_line(err, TR_EDATA,
			    tr_input_name(in), 0, 0, "empty input"));
		}
		if ((ctx.imp = tr_importer_detect(p, len)) == NULL) {
			char	*names;

			if (opts->skip_unknown) {
				res->skipped = 1;
				return (0);
			}
			names = tr_importer_names();
			tr_error_set_line(err, TR_EDATA, tr_input_name(in), 0,
			    0, "unrecognised format; use --format with one "
			    "of: %s", names);
			free(names);
			return (-1);
		}
	}
	res->format = ctx.imp->name;
	ctx.strs = tr_map_new();
	ctx.frames = tr_map_new();
	ctx.callsites = tr_map_new();
	ctx.procs = tr_map_new();
	ctx.threads = tr_map_new();
	tr_buf_init(&ctx.key);
	tr_buf_init(&ctx.json);
	tr_imap_init(&ctx.runs);
	ctx.meta = json_object();
	if (opts->host != NULL)
		tr_import_set_host(&ctx, opts->host);

	if (tr_db_exec(db, "BEGIN IMMEDIATE", err) != 0)
		goto out;
	/*
	 * Another trace-import may have created the store, found none of
	 * its inputs good and removed it (as it must leave no store behind)
	 * while this one waited for the lock: writing on would go into the
	 * removed file.  Open the path again, which makes a new store.
	 */
	for (i = 0; tr_db_replaced(db); i++) {
		tr_db_exec(db, "ROLLBACK", NULL);
		if (i == 3) {
			tr_error_set_line(err, TR_EIO, db->path, 0, 0,
			    "the store keeps being removed while importing "
			    "into it");
			goto out;
		}
		if (tr_db_reopen(db, err) != 0 ||
		    tr_db_exec(db, "BEGIN IMMEDIATE", err) != 0)
			goto out;
	}
	for (i = 0; i < ST_COUNT; i++)
		if (stmt_sql[i] != NULL &&
		    (ctx.st[i] = tr_db_prepare(db, stmt_sql[i], err)) == NULL)
			goto rollback;
	for (i = 0; i < (int)NBATCHES; i++) {
		sql = batch_sql(&batches[i]);
		ctx.st[batches[i].st] = tr_db_prepare(db, sql, err);
		ctx.ncols[batches[i].st] = batches[i].ncols;
		free(sql);
		if (ctx.st[batches[i].st] == NULL)
			goto rollback;
	}
	if (tr_db_int(db, "SELECT max(id) FROM frame", &ctx.old_frame_max,
	    err) != 0 || tr_db_int(db, "SELECT max(id) FROM callsite",
	    &ctx.old_cs_max, err) != 0 || tr_db_int(db,
	    "SELECT max(id) FROM str", &ctx.old_str_max, err) != 0 ||
	    tr_db_int(db, "SELECT coalesce((SELECT id + n FROM slice_run "
	    "ORDER BY id DESC LIMIT 1), 1)", &ctx.next_slice_id, err) != 0)
		goto rollback;
	if (insert_source(&ctx, err) != 0)
		goto rollback;
	if (ctx.imp->run(&ctx, in, err) != 0)
		goto rollback;
	for (i = 0; i < (int)NBATCHES; i++)
		if (batch_flush(&ctx, batches[i].st, err) != 0)
			goto rollback;
	if (flush_runs(&ctx, err) != 0)
		goto rollback;
	if ((r = finish_source(&ctx, err)) < 0)
		goto rollback;
	if (r == 1) {
		/* Already imported: nothing changes. */
		tr_db_exec(db, "ROLLBACK", NULL);
		res->samples = res->slices = res->counters = 0;
		res->profiles = res->frames = res->callsites = 0;
		rc = 0;
		goto out;
	}
	for (i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(ctx.st[i]);
		ctx.st[i] = NULL;
	}
	rc = tr_db_exec(db, "COMMIT", err);
	if (rc == 0)
		goto out;
rollback:
	tr_db_exec(db, "ROLLBACK", NULL);
	rc = -1;
out:
	ctx_release(&ctx);
	return (rc);
}

int
tr_import_file(struct tr_db *db, const char *path, const char *display,
    const struct tr_import_opts *opts, struct tr_import_result *res,
    struct tr_error *err)
{
	struct tr_input	*in;
	int		 rc;

	memset(res, 0, sizeof *res);
	if ((in = tr_input_open(path, display, err)) == NULL)
		return (-1);
	rc = tr_import_input(db, in, opts, res, err);
	tr_input_free(in);
	return (rc);
}

static int
cmp_str(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

static int
list_dir(const char *dir, char ***paths, size_t *n, size_t *cap,
    int depth, struct tr_error *err)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*p;
	int		 rc = 0;

	if (depth > 32)
		return (tr_error_set_line(err, TR_EDATA, dir, 0, 0,
		    "directories nested too deeply"));
	if ((d = opendir(dir)) == NULL)
		return (tr_error_set_line(err, TR_EIO, dir, 0, 0,
		    "cannot open directory: %s", strerror(errno)));
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = tr_xasprintf("%s%s%s", dir,
		    dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		if (stat(p, &st) != 0) {
			rc = tr_error_set_line(err, TR_EIO, p, 0, 0,
			    "cannot stat: %s", strerror(errno));
			free(p);
		} else if (S_ISDIR(st.st_mode)) {
			rc = list_dir(p, paths, n, cap, depth + 1, err);
			free(p);
		} else if (S_ISREG(st.st_mode)) {
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 16;
				*paths = tr_xrealloc(*paths,
				    *cap * sizeof **paths);
			}
			(*paths)[(*n)++] = p;
		} else
			free(p);
	}
	closedir(d);
	return (rc);
}

int
tr_import_list_dir(const char *dir, char ***paths, size_t *n,
    struct tr_error *err)
{
	size_t	cap = 0, i;

	*paths = NULL;
	*n = 0;
	if (list_dir(dir, paths, n, &cap, 0, err) != 0) {
		for (i = 0; i < *n; i++)
			free((*paths)[i]);
		free(*paths);
		*paths = NULL;
		*n = 0;
		return (-1);
	}
	if (*n > 0)
		qsort(*paths, *n, sizeof **paths, cmp_str);
	return (0);
}
