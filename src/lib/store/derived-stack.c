/*
 * Per-stack aggregates of the samples (table sample_stack, schema version
 * 5): a row per source, event, profile, thread and leaf call site with the
 * number of samples, the sum of their values and the smallest sample id.
 * Written in one pass over the samples at the end of each import (not per
 * sample) and by the migration to version 5, so that trace-flame folds a
 * few thousand rows instead of every sample when the selection does not
 * look at a sample's time or labels.
 */
#include "config.h"
#include "store/db.h"
#include "store/derived.h"
#include "base/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

const char tr_derived_stack_schema[] =
"CREATE TABLE sample_stack (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  event_id INTEGER NOT NULL REFERENCES str,\n"
"  profile_id INTEGER REFERENCES profile,\n"
"  thread_id INTEGER REFERENCES thread,\n"
"  callsite_id INTEGER REFERENCES callsite,\n"
"  samples INTEGER NOT NULL,\n"
"  value INTEGER NOT NULL,\n"
"  first_id INTEGER NOT NULL\n"
");\n"
"CREATE INDEX sample_stack_source ON sample_stack (source_id, event_id);\n";

/* Run 'head' 'where' 'tail' (where's ?1 is 'source_id'). */
static int
run(struct tr_db *db, const char *head, const char *where, const char *tail,
    int64_t source_id, const char *what, struct tr_error *err)
{
	sqlite3_stmt	*st;
	char		 sql[512];
	int		 rc;

	snprintf(sql, sizeof sql, "%s%s%s", head, where, tail);
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	if (source_id >= 0)
		sqlite3_bind_int64(st, 1, source_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, what));
	return (0);
}

/*
 * The aggregates are summed here, not by SQLite's GROUP BY: its sorter
 * took 0.97 s of a 3.9 s import of 780k perf samples (153k aggregates),
 * where reading the samples takes 0.29 s.  An aggregate by its key, the
 * key's NULLs as INT64_MIN (SQLite's GROUP BY puts them first too), in an
 * open-addressed table of indexes (0: empty) into the array, which is
 * sorted by the key before it is written: the rows are the statement's,
 * in its order.  Memory: 64 bytes an aggregate and 4 a slot (at most half
 * of them used), at the end of the import, once the writer's caches are
 * gone.  Not a tr_map: it keeps a copy of each key beside the array, and
 * with it the 232 MB perf script's import peaked at 96.9-98.6 MB against
 * 90.9-96.5 (three runs each; issue 17's limit is 100 MB).
 */
struct agg {
	int64_t	key[5];		/* source, event, profile, thread, callsite */
	int64_t	n, sum, first;
};
struct aggs {
	struct agg	*v;
	size_t		 n, cap;
	uint32_t	*slot;
	size_t		 nslots;	/* a power of 2 */
};

static uint64_t
agg_hash(const int64_t *k)
{
	uint64_t	h = 0x9e3779b97f4a7c15ULL;
	int		i;

	for (i = 0; i < 5; i++) {
		h ^= (uint64_t)k[i] + 0x9e3779b97f4a7c15ULL + (h << 6) +
		    (h >> 2);
		h *= 0xff51afd7ed558ccdULL;
	}
	return (h ^ (h >> 33));
}

static void
aggs_grow(struct aggs *a)
{
	size_t	i, j, mask;

	free(a->slot);
	a->nslots = a->nslots ? a->nslots * 2 : 4096;
	a->slot = tr_xcalloc(a->nslots, sizeof *a->slot);
	mask = a->nslots - 1;
	for (i = 0; i < a->n; i++) {
		for (j = agg_hash(a->v[i].key) & mask; a->slot[j] != 0;
		    j = (j + 1) & mask)
			;
		a->slot[j] = (uint32_t)(i + 1);
	}
}

/* Sample 'id' of key 'k' and value 'value' into its aggregate. */
static int
aggs_add(struct aggs *a, const int64_t *k, int64_t value, int64_t id)
{
	struct agg	*g;
	size_t		 j, mask;

	if (a->n >= UINT32_MAX - 1)
		return (-1);
	if ((a->n + 1) * 2 > a->nslots)
		aggs_grow(a);
	mask = a->nslots - 1;
	for (j = agg_hash(k) & mask; a->slot[j] != 0; j = (j + 1) & mask) {
		g = &a->v[a->slot[j] - 1];
		if (memcmp(g->key, k, sizeof g->key) == 0) {
			g->n++;
			if (__builtin_add_overflow(g->sum, value, &g->sum))
				return (-1);
			if (id < g->first)
				g->first = id;
			return (0);
		}
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 4096;
		a->v = tr_xrealloc(a->v, a->cap * sizeof *a->v);
	}
	g = &a->v[a->n];
	memcpy(g->key, k, sizeof g->key);
	g->n = 1;
	g->sum = value;
	g->first = id;
	a->slot[j] = (uint32_t)++a->n;
	return (0);
}

static int
agg_cmp(const void *x, const void *y)
{
	const struct agg	*p = x, *q = y;
	int			 i;

	for (i = 0; i < 5; i++)
		if (p->key[i] != q->key[i])
			return (p->key[i] < q->key[i] ? -1 : 1);
	return (0);
}

static void
bind_key(sqlite3_stmt *st, int i, int64_t v)
{
	if (v == INT64_MIN)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

static int64_t
column_key(sqlite3_stmt *st, int i)
{
	return (sqlite3_column_type(st, i) == SQLITE_NULL ? INT64_MIN :
	    sqlite3_column_int64(st, i));
}

int
tr_derived_stack_rebuild(struct tr_db *db, int64_t source_id,
    struct tr_error *err)
{
	const char	*where = source_id >= 0 ? " WHERE source_id = ?1" : "";
	struct aggs	 a;
	sqlite3_stmt	*st = NULL;
	char		 sql[512];
	int64_t		 k[5];
	size_t		 i;
	int		 c, rc, r = -1;

	memset(&a, 0, sizeof a);
	if (run(db, "DELETE FROM sample_stack", where, "", source_id,
	    "cannot delete per-stack aggregates", err) != 0)
		return (-1);
	snprintf(sql, sizeof sql, "SELECT source_id, event_id, profile_id, "
	    "thread_id, callsite_id, value, id FROM sample%s", where);
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		goto out;
	if (source_id >= 0)
		sqlite3_bind_int64(st, 1, source_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (c = 0; c < 5; c++)
			k[c] = column_key(st, c);
		if (aggs_add(&a, k, sqlite3_column_int64(st, 5),
		    sqlite3_column_int64(st, 6)) != 0) {
			tr_error_set(err, TR_EDATA, "the values of one "
			    "stack's samples sum past 2^63-1 (sample_stack)");
			goto out;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read the samples");
		goto out;
	}
	free(a.slot);
	a.slot = NULL;
	if (a.n > 1)
		qsort(a.v, a.n, sizeof *a.v, agg_cmp);
	st = tr_db_prepare(db, "INSERT INTO sample_stack VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6, ?7, ?8)", err);
	if (st == NULL)
		goto out;
	for (i = 0; i < a.n; i++) {
		for (c = 0; c < 5; c++)
			bind_key(st, c + 1, a.v[i].key[c]);
		sqlite3_bind_int64(st, 6, a.v[i].n);
		sqlite3_bind_int64(st, 7, a.v[i].sum);
		sqlite3_bind_int64(st, 8, a.v[i].first);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE) {
			tr_db_error(db, err, "cannot write per-stack "
			    "aggregates");
			goto out;
		}
	}
	r = 0;
out:
	sqlite3_finalize(st);
	free(a.slot);
	free(a.v);
	return (r);
}
