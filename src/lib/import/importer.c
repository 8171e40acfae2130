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
#include "store/derived.h"
#include "store/writer.h"

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

struct tr_import {
	struct tr_db			*db;
	const struct tr_import_opts	*opts;
	const struct tr_importer	*imp;
	struct tr_input			*in;
	struct tr_import_result		*res;
	int64_t				 source_id;
	struct tr_writer		*w;	/* the source's rows */
	char				*version, *clock, *host;
	char				*fingerprint;
	json_t				*meta;
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

const struct tr_importer *
tr_importer_damaged(const unsigned char *p, size_t len)
{
	size_t	i;

	for (i = 0; tr_importer_table[i] != NULL; i++)
		if (tr_importer_table[i]->damaged != NULL &&
		    tr_importer_table[i]->damaged(p, len))
			return (tr_importer_table[i]);
	return (NULL);
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
	return (ctx->w != NULL ? tr_writer_db(ctx->w) : ctx->db);
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
	if (ctx->w != NULL)
		tr_writer_set_host(ctx->w, h);
}

const char *
tr_import_host(const struct tr_import *ctx)
{
	return (ctx->host);
}

void
tr_import_set_cut(struct tr_import *ctx, int64_t line)
{
	ctx->res->cut_line = line;
}

int
tr_import_oddity(struct tr_import *ctx, struct tr_error *err,
    const char *done)
{
	struct tr_import_result	*res = ctx->res;
	char			 msg[2048], *o;
	size_t			 n;

	if (ctx->opts->strict)
		return (-1);
	if (res->nodd < TR_IMPORT_ODD_SHOWN) {
		tr_error_format(err, msg, sizeof msg);
		n = strlen(msg);
		snprintf(msg + n, sizeof msg - n, ": %s", done);
		/* Cut long messages (a long file name) to the room kept. */
		o = res->odd[res->nodd++];
		n = strlen(msg);
		if (n >= TR_IMPORT_ODD_LEN)
			n = TR_IMPORT_ODD_LEN - 1;
		memcpy(o, msg, n);
		o[n] = '\0';
	}
	res->oddities++;
	json_object_set_new(ctx->meta, "oddities",
	    json_integer(res->oddities));
	tr_error_init(err);
	return (0);
}

void
tr_import_set_fingerprint(struct tr_import *ctx, const char *fp)
{
	set_str(&ctx->fingerprint, fp);
	json_object_set_new(ctx->meta, "samples_fingerprint",
	    json_string(fp));
}

json_t *
tr_import_meta(struct tr_import *ctx)
{
	return (ctx->meta);
}


struct tr_writer *
tr_import_writer(struct tr_import *ctx)
{
	return (ctx->w);
}

/* --- the transaction ------------------------------------------------ */

static void
bind_opt_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

static void
ctx_release(struct tr_import *ctx)
{
	tr_writer_free(ctx->w);
	ctx->w = NULL;
	free(ctx->version);
	free(ctx->clock);
	free(ctx->host);
	free(ctx->fingerprint);
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
 * the content is already in the store, 2 when its samples are (another
 * rendering of a recording imported before, not to be kept): the caller
 * rolls back.
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
	rc = tr_db_step_int(ctx->db, st, &dup, err);
	sqlite3_finalize(st);
	if (rc < 0)
		return (-1);
	if (rc == 1) {
		res->source_id = dup;
		res->duplicate = 1;
		return (1);
	}
	if (ctx->fingerprint != NULL) {
		/* This source's own row has no fingerprint yet. */
		if (tr_db_int_arg(ctx->db, "SELECT min(id) FROM source WHERE "
		    "json_extract(meta, '$.samples_fingerprint') = ?1",
		    ctx->fingerprint, 0, &dup, err) < 0)
			return (-1);
		if (dup > 0) {
			res->same_as = dup;
			if (!ctx->opts->keep_same) {
				res->source_id = dup;
				res->same_skipped = 1;
				return (2);
			}
			json_object_set_new(ctx->meta, "same_samples_as",
			    json_integer(dup));
		}
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
	struct tr_import		 ctx;
	const struct tr_writer_counts	*n;
	const unsigned char		*p;
	size_t				 len;
	int				 i, rc = -1, r;

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
		if ((ctx.imp = tr_importer_detect(p, len)) == NULL &&
		    (ctx.imp = tr_importer_damaged(p, len)) == NULL) {
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
	if (insert_source(&ctx, err) != 0)
		goto rollback;
	if ((ctx.w = tr_writer_new(db, ctx.source_id, opts->cache_cap,
	    opts->run_cap, err)) == NULL)
		goto rollback;
	tr_writer_set_host(ctx.w, ctx.host);
	if (ctx.imp->writer_thread && tr_writer_thread(ctx.w, err) != 0)
		goto rollback;
	if (ctx.imp->run(&ctx, in, err) != 0)
		goto rollback;
	if (tr_writer_flush(ctx.w, err) != 0)
		goto rollback;
	n = tr_writer_counts(ctx.w);
	res->samples = n->samples;
	res->slices = n->slices;
	res->counters = n->counters;
	res->profiles = n->profiles;
	res->frames = n->frames;
	res->callsites = n->callsites;
	res->ts_min = n->ts_min;
	res->ts_max = n->ts_max;
	/* The per-stack aggregates, once for the whole input. */
	if (n->samples > 0 && tr_derived_stack_rebuild(db, ctx.source_id,
	    n->callsites, err) != 0) {
		/* (Its sums overflow: the input's fault, said as such.) */
		if (err->code == TR_EDATA && err->source[0] == '\0')
			snprintf(err->source, sizeof err->source, "%s",
			    tr_input_name(in));
		goto rollback;
	}
	if ((r = finish_source(&ctx, err)) < 0)
		goto rollback;
	if (r > 0) {
		/* Already imported, or its samples: nothing changes. */
		tr_writer_free(ctx.w);
		ctx.w = NULL;
		tr_db_exec(db, "ROLLBACK", NULL);
		res->samples = res->slices = res->counters = 0;
		res->profiles = res->frames = res->callsites = 0;
		rc = 0;
		goto out;
	}
	/* No statement may be left open across the COMMIT. */
	tr_writer_free(ctx.w);
	ctx.w = NULL;
	rc = tr_db_exec(db, "COMMIT", err);
	if (rc == 0)
		goto out;
rollback:
	/*
	 * The writer thread stops before the connection is used here; an
	 * error it met on rows added before the importer's error is the
	 * import's, as without the thread.
	 */
	tr_writer_settle(ctx.w, err);
	tr_writer_free(ctx.w);
	ctx.w = NULL;
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
	tr_input_set_progress(in, opts->progress, opts->progress_arg);
	rc = tr_import_input(db, in, opts, res, err);
	tr_input_free(in);
	return (rc);
}

static int
cmp_str(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Append 's' (taken) to the list *v of *n strings. */
static void
push_str(char ***v, size_t *n, char *s)
{
	*v = tr_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

static int
list_dir(const char *dir, char ***paths, size_t *n, size_t *cap,
    char ***notes, size_t *nnotes, int depth, struct tr_error *err)
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
			/* A link to nothing is no input: skip it, say so. */
			if (errno == ENOENT && lstat(p, &st) == 0 &&
			    S_ISLNK(st.st_mode)) {
				push_str(notes, nnotes, tr_xasprintf("%s: "
				    "dangling symbolic link, skipped", p));
				free(p);
				continue;
			}
			rc = tr_error_set_line(err, TR_EIO, p, 0, 0,
			    "cannot stat: %s", strerror(errno));
			free(p);
		} else if (S_ISDIR(st.st_mode)) {
			rc = list_dir(p, paths, n, cap, notes, nnotes,
			    depth + 1, err);
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
    char ***notes, size_t *nnotes, struct tr_error *err)
{
	size_t	cap = 0, i, nn = 0;
	char	**nv = NULL;

	*paths = NULL;
	*n = 0;
	if (list_dir(dir, paths, n, &cap, &nv, &nn, 0, err) != 0) {
		for (i = 0; i < *n; i++)
			free((*paths)[i]);
		free(*paths);
		*paths = NULL;
		*n = 0;
		for (i = 0; i < nn; i++)
			free(nv[i]);
		free(nv);
		return (-1);
	}
	if (nn > 0)
		qsort(nv, nn, sizeof *nv, cmp_str);
	if (notes != NULL) {
		*notes = nv;
		*nnotes = nn;
	} else {
		for (i = 0; i < nn; i++)
			free(nv[i]);
		free(nv);
	}
	if (*n > 0)
		qsort(*paths, *n, sizeof **paths, cmp_str);
	return (0);
}
