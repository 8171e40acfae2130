/*
 * The start times, lengths and goroutines of each task and region name of
 * a Go trace in time order, packed (table go_span_pack, schema version 6;
 * the goroutines since version 9): chunks of TR_DERIVED_PACK_CHUNK spans
 * as little-endian 64-bit integer arrays, so that trace-query steps reads
 * the millions of steps of one name as a few hundred blobs instead of a
 * row each.  Since version 9 go_span is in the order its rows were
 * written, not by name, so this is how the spans of a name are read in
 * time order.  Written as go_span is (the import's and the rebuild's
 * merge of their sorted runs, derived.c) and, from go_span, by the
 * migrations to versions 6 and 9.
 */
#include "config.h"
#include "store/db.h"
#include "store/derived.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/util.h"

const char tr_derived_pack_schema[] =
"CREATE TABLE go_span_pack (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  kind TEXT NOT NULL,\n"
"  name_id INTEGER NOT NULL REFERENCES str,\n"
"  seq INTEGER NOT NULL,\n"
"  ts INTEGER NOT NULL,\n"
"  end_max INTEGER NOT NULL,\n"
"  n INTEGER NOT NULL,\n"
"  ts_list BLOB NOT NULL,\n"
"  dur_list BLOB NOT NULL,\n"
"  goid_list BLOB NOT NULL,\n"
"  cut_list BLOB\n"
");\n"
"CREATE UNIQUE INDEX go_span_pack_key ON go_span_pack "
"(source_id, kind, name_id, seq);\n";

/* One chunk being filled. */
struct pack {
	sqlite3_stmt	*ins;
	char		*kind;
	int64_t		 name_id, seq, end_max;
	unsigned char	*ts, *dur, *goid, *cut;
	size_t		 n;
	int		 ncut;
};

static void
put_le64(unsigned char *p, int64_t v)
{
	uint64_t	u = (uint64_t)v;
	int		i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(u >> (8 * i));
}

static int64_t
get_le64(const unsigned char *p)
{
	uint64_t	u = 0;
	int		i;

	for (i = 7; i >= 0; i--)
		u = u << 8 | p[i];
	return ((int64_t)u);
}

static int
pack_flush(struct tr_db *db, int64_t source_id, struct pack *p,
    struct tr_error *err)
{
	sqlite3_stmt	*st = p->ins;
	int		 rc;

	if (p->n == 0)
		return (0);
	sqlite3_bind_int64(st, 1, source_id);
	sqlite3_bind_text(st, 2, p->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, p->name_id);
	sqlite3_bind_int64(st, 4, p->seq);
	sqlite3_bind_int64(st, 5, get_le64(p->ts));
	sqlite3_bind_int64(st, 6, p->end_max);
	sqlite3_bind_int64(st, 7, (int64_t)p->n);
	sqlite3_bind_blob(st, 8, p->ts, (int)(p->n * 8), SQLITE_STATIC);
	sqlite3_bind_blob(st, 9, p->dur, (int)(p->n * 8), SQLITE_STATIC);
	sqlite3_bind_blob(st, 10, p->goid, (int)(p->n * 8), SQLITE_STATIC);
	if (p->ncut > 0)
		sqlite3_bind_blob(st, 11, p->cut, (int)p->n, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 11);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	p->n = 0;
	p->ncut = 0;
	p->seq++;
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot write go_span_pack"));
	return (0);
}

struct tr_derived_packer {
	struct tr_db	*db;
	int64_t		 source_id;
	struct pack	 p;
};

struct tr_derived_packer *
tr_derived_packer_new(struct tr_db *db, int64_t source_id,
    struct tr_error *err)
{
	struct tr_derived_packer	*k;
	int64_t				 none;

	if (tr_db_int_arg(db, "DELETE FROM go_span_pack WHERE source_id = ?1",
	    NULL, source_id, &none, err) < 0)
		return (NULL);
	k = tr_xcalloc(1, sizeof *k);
	k->db = db;
	k->source_id = source_id;
	k->p.ins = tr_db_prepare(db, "INSERT INTO go_span_pack VALUES (?1, "
	    "?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", err);
	if (k->p.ins == NULL) {
		free(k);
		return (NULL);
	}
	k->p.ts = tr_xmalloc(TR_DERIVED_PACK_CHUNK * 8);
	k->p.dur = tr_xmalloc(TR_DERIVED_PACK_CHUNK * 8);
	k->p.goid = tr_xmalloc(TR_DERIVED_PACK_CHUNK * 8);
	k->p.cut = tr_xmalloc(TR_DERIVED_PACK_CHUNK);
	return (k);
}

int
tr_derived_packer_add(struct tr_derived_packer *k, const char *kind,
    int64_t name_id, int64_t ts, int64_t dur, int64_t goid, int cut,
    struct tr_error *err)
{
	struct pack	*p = &k->p;

	if (p->kind == NULL || strcmp(kind, p->kind) != 0 ||
	    name_id != p->name_id) {
		if (pack_flush(k->db, k->source_id, p, err) != 0)
			return (-1);
		free(p->kind);
		p->kind = tr_xstrdup(kind);
		p->name_id = name_id;
		p->seq = 0;
	} else if (p->n == TR_DERIVED_PACK_CHUNK &&
	    pack_flush(k->db, k->source_id, p, err) != 0)
		return (-1);
	if (p->n == 0 || ts + dur > p->end_max)
		p->end_max = ts + dur;
	put_le64(p->ts + p->n * 8, ts);
	put_le64(p->dur + p->n * 8, dur);
	put_le64(p->goid + p->n * 8, goid);
	p->cut[p->n] = (unsigned char)(cut != 0);
	p->ncut += cut != 0;
	p->n++;
	return (0);
}

int
tr_derived_packer_finish(struct tr_derived_packer *k, struct tr_error *err)
{
	return (pack_flush(k->db, k->source_id, &k->p, err));
}

void
tr_derived_packer_free(struct tr_derived_packer *k)
{
	if (k == NULL)
		return;
	sqlite3_finalize(k->p.ins);
	free(k->p.kind);
	free(k->p.ts);
	free(k->p.dur);
	free(k->p.goid);
	free(k->p.cut);
	free(k);
}

int
tr_derived_pack_rebuild(struct tr_db *db, int64_t source_id,
    struct tr_error *err)
{
	struct tr_derived_packer	*k;
	sqlite3_stmt			*st;
	int				 rc, r = -1;

	if ((k = tr_derived_packer_new(db, source_id, err)) == NULL)
		return (-1);
	st = tr_db_prepare(db, "SELECT kind, name_id, ts, dur, "
	    "coalesce(goid, -1), start_unknown OR unfinished FROM go_span "
	    "WHERE source_id = ?1 ORDER BY kind, name_id, ts, id", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, source_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (tr_derived_packer_add(k, (const char *)
		    sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1),
		    sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
		    sqlite3_column_int64(st, 4), sqlite3_column_int(st, 5),
		    err) != 0)
			goto out;
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read go_span");
		goto out;
	}
	if (tr_derived_packer_finish(k, err) != 0)
		goto out;
	r = 0;
out:
	sqlite3_finalize(st);
	tr_derived_packer_free(k);
	return (r);
}

int
tr_derived_pack_read(struct tr_db *db, int64_t source_id, const char *kind,
    int64_t name_id, int64_t from, int64_t to, tr_derived_pack_fn *fn,
    void *arg, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		*ts = NULL, *dur = NULL, *goid = NULL;
	size_t		 n, i;
	int		 rc, r = -1, found = 0;

	st = tr_db_prepare(db, "SELECT n, ts_list, dur_list, cut_list, "
	    "end_max, goid_list, rowid FROM go_span_pack WHERE source_id = ?1 "
	    "AND kind = ?2 AND name_id = ?3 AND ts <= ?4 ORDER BY seq", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, source_id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, name_id);
	sqlite3_bind_int64(st, 4, to);
	ts = tr_xmalloc(TR_DERIVED_PACK_CHUNK * sizeof *ts);
	dur = tr_xmalloc(TR_DERIVED_PACK_CHUNK * sizeof *dur);
	goid = tr_xmalloc(TR_DERIVED_PACK_CHUNK * sizeof *goid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char	*t, *d, *c, *g;

		found = 1;
		n = (size_t)sqlite3_column_int64(st, 0);
		/* None of it reaches the window (tr_sel_overlaps()). */
		if (sqlite3_column_int64(st, 4) < from)
			continue;
		t = sqlite3_column_blob(st, 1);
		d = sqlite3_column_blob(st, 2);
		c = sqlite3_column_blob(st, 3);
		g = sqlite3_column_blob(st, 5);
		if (n > TR_DERIVED_PACK_CHUNK ||
		    (size_t)sqlite3_column_bytes(st, 1) != n * 8 ||
		    (size_t)sqlite3_column_bytes(st, 2) != n * 8 ||
		    (size_t)sqlite3_column_bytes(st, 5) != n * 8 ||
		    (c != NULL && (size_t)sqlite3_column_bytes(st, 3) != n)) {
			/* (Said of the store, as a damaged run is.) */
			tr_error_set_line(err, TR_EDATA, db->path, 0, 0,
			    "go_span_pack %lld: its lists do not hold its %zu "
			    "spans", (long long)sqlite3_column_int64(st, 6), n);
			goto out;
		}
		for (i = 0; i < n; i++) {
			ts[i] = get_le64(t + i * 8);
			dur[i] = get_le64(d + i * 8);
			goid[i] = get_le64(g + i * 8);
		}
		if (fn(arg, ts, dur, goid, c, n, err) != 0)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read go_span_pack");
		goto out;
	}
	r = found;
out:
	sqlite3_finalize(st);
	free(ts);
	free(dur);
	free(goid);
	return (r);
}
