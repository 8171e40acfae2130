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

/*
 * 'n' samples of key 'k', their values summing to 'value' and the first
 * 'id', into their aggregate.
 */
static int
aggs_add(struct aggs *a, const int64_t *k, int64_t n, int64_t value,
    int64_t id)
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
			g->n += n;
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
	g->n = n;
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

/* --- the folds (version 11) ------------------------------------------- */

const char tr_derived_fold_schema[] =
"CREATE TABLE fold_node (\n"
"  id INTEGER PRIMARY KEY,\n"
"  parent_id INTEGER REFERENCES fold_node,\n"
"  frame_id INTEGER NOT NULL REFERENCES frame,\n"
"  depth INTEGER NOT NULL\n"
");\n"
"CREATE TABLE sample_fold (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  event_id INTEGER NOT NULL REFERENCES str,\n"
"  profile_id INTEGER REFERENCES profile,\n"
"  thread_id INTEGER REFERENCES thread,\n"
"  node_id INTEGER REFERENCES fold_node,\n"
"  samples INTEGER NOT NULL,\n"
"  value INTEGER NOT NULL,\n"
"  first_id INTEGER NOT NULL\n"
");\n"
"CREATE INDEX sample_fold_source ON sample_fold (source_id, event_id);\n";

/*
 * The folds: the per-stack aggregates once more, by what a flame graph
 * names rather than by address.  A frame stands for every frame of its
 * name and module (the first of them, by id), a thread for every thread
 * of its name (the first), and the call sites whose frames so stand for
 * the same ones share a node of fold_node, a tree of the same shape as
 * callsite's.  A real recording has a frame per address of each unknown
 * symbol (stripped code: Debian's Go compiler), and as many call sites:
 * the 152 MB perf script of a Go build has 44k frames of 2.3k names and
 * modules, 445k call sites under 124k aggregates, which fold to 8.4k rows
 * (stackcollapse-perf.pl's lines) under 26k nodes, and trace-flame's
 * default graph reads those.  Ids stay: a frame or thread that stands for
 * others is the first of its kind, and later ones have larger ids.
 */
struct fold_ctx {
	struct tr_db	*db;
	struct tr_error	*err;
	/*
	 * The call sites from 'lo' (the input's new ones, when the caller
	 * knows) to 'ncs', the largest a sample names, by id - lo; older
	 * ones are read one by one ('get') and their nodes kept in 'old':
	 * memory goes with the input, not the store.
	 */
	uint32_t	*cs_parent, *cs_frame;	/* CS_BAD: not a frame */
	uint32_t	*cs_node;		/* node + 1 */
	int64_t		 lo, ncs;
	sqlite3_stmt	*get;
	struct tr_imap	 old;			/* call site -> node + 1 */
	uint32_t	*frame_rep;		/* by frame id (0: itself) */
	int64_t		 nframes;
	uint32_t	*thread_rep;		/* by thread id (0: itself) */
	int64_t		 nthreads;
	/*
	 * The nodes by id, and a table of their ids (0: free) by parent
	 * and frame: 12 bytes a node and 4 a slot, where a map of the keys
	 * took 16 a slot and twice that while it grew (a perf script of
	 * 979k distinct call sites made the import's peak RSS 133 MB).
	 */
	struct fnode {
		uint32_t	 parent, frame, depth;
	}		*node;
	size_t		 capnode;
	uint32_t	*kid;
	size_t		 capkid, nkid;	/* capkid: a power of two */
	int64_t		 next;	/* the next node's id */
	sqlite3_stmt	*ins;
	int64_t		*walk;			/* call site, frame pairs */
	size_t		 capwalk;
};

#define CS_BAD	UINT32_MAX

static size_t
kid_hash(uint32_t parent, uint32_t frame, size_t cap)
{
	uint64_t	h = ((uint64_t)parent << 32 | frame) *
	    0x9e3779b97f4a7c15ULL;

	return ((size_t)(h >> 32) & (cap - 1));
}

/* The slot of node (parent, frame), or the free one where it goes. */
static uint32_t *
kid_slot(const struct fold_ctx *c, uint32_t parent, uint32_t frame)
{
	size_t		 i = kid_hash(parent, frame, c->capkid);
	uint32_t	*k;

	for (;; i = (i + 1) & (c->capkid - 1)) {
		k = &c->kid[i];
		if (*k == 0 || (c->node[*k].parent == parent &&
		    c->node[*k].frame == frame))
			return (k);
	}
}

/* The node child of 'parent' by 'frame', or 0. */
static uint32_t
kid_get(const struct fold_ctx *c, uint32_t parent, uint32_t frame)
{
	return (c->capkid == 0 ? 0 : *kid_slot(c, parent, frame));
}

/*
 * Room for nodes 0 to 'n' - 1: in the nodes, made once for what a fold
 * can make (fold_load()) and left untouched until used (a node is read
 * only once written), so that the array is not copied as it grows; and
 * in the table, which grows with the nodes made (its slots are spread
 * over all of it).
 */
static void
node_room(struct fold_ctx *c, size_t n, size_t nodes)
{
	size_t		 cap = c->capnode, i, old;
	uint32_t	*was;

	if (nodes > cap) {
		while (nodes > cap)
			cap = cap ? cap * 2 : 4096;
		c->node = tr_xrealloc(c->node, cap * sizeof *c->node);
		c->capnode = cap;
	}
	if (n * 4 > c->capkid * 3) {
		was = c->kid;
		old = c->capkid;
		c->capkid = old ? old : 4096;
		while (n * 4 > c->capkid * 3)
			c->capkid *= 2;
		c->kid = tr_xcalloc(c->capkid, sizeof *c->kid);
		for (i = 0; i < old; i++)
			if (was[i] != 0)
				*kid_slot(c, c->node[was[i]].parent,
				    c->node[was[i]].frame) = was[i];
		free(was);
	}
}

/* Node 'nd' (1 <= nd < UINT32_MAX - 1), child of 'parent' by 'frame'. */
static void
node_add(struct fold_ctx *c, int64_t nd, uint32_t parent, uint32_t frame,
    int64_t depth)
{
	uint32_t	*k;

	if ((size_t)nd >= c->capnode || c->nkid + 2 > c->capkid * 3 / 4)
		node_room(c, c->nkid * 2 + 2, (size_t)nd >= c->capnode ?
		    (size_t)nd * 2 + 2 : 0);
	c->node[nd].parent = parent;
	c->node[nd].frame = frame;
	c->node[nd].depth = depth < 0 ? 0 : depth >= (int64_t)UINT32_MAX ?
	    UINT32_MAX : (uint32_t)depth;
	k = kid_slot(c, parent, frame);
	if (*k == 0)
		c->nkid++;
	*k = (uint32_t)nd;
}

static int
fold_bad(struct fold_ctx *c, const char *what, int64_t id)
{
	return (tr_error_set_line(c->err, TR_EDATA, c->db->path, 0, 0,
	    "store is inconsistent: %s %lld (fold_node)", what,
	    (long long)id));
}

/* The largest id of 'table' (frame, thread), which must fit 32 bits. */
static int
fold_max_id(struct fold_ctx *c, const char *table, int64_t *v)
{
	char	sql[64];

	snprintf(sql, sizeof sql, "SELECT coalesce(max(id), 0) FROM %s",
	    table);
	if (tr_db_int(c->db, sql, v, c->err) != 0)
		return (-1);
	if (*v >= (int64_t)UINT32_MAX - 1)
		return (fold_bad(c, table, *v));
	return (0);
}

/* The call sites up to the largest one, and the nodes already made. */
static int
fold_load(struct fold_ctx *c, int64_t maxcs)
{
	sqlite3_stmt	*st;
	int64_t		 id, p, fr;
	size_t		 n;
	int		 rc;

	if (maxcs >= (int64_t)UINT32_MAX - 1)
		return (fold_bad(c, "a sample names call site", maxcs));
	c->ncs = maxcs;
	if (c->lo < 1)
		c->lo = 1;
	else if (c->lo > maxcs + 1)
		c->lo = maxcs + 1;
	n = (size_t)(maxcs - c->lo + 1);
	c->cs_parent = tr_xcalloc(n + 1, sizeof *c->cs_parent);
	c->cs_frame = tr_xcalloc(n + 1, sizeof *c->cs_frame);
	c->cs_node = tr_xcalloc(n + 1, sizeof *c->cs_node);
	if ((st = tr_db_prepare(c->db, "SELECT id, parent_id, frame_id FROM "
	    "callsite WHERE id BETWEEN ?1 AND ?2", c->err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, c->lo);
	sqlite3_bind_int64(st, 2, maxcs);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((id = sqlite3_column_int64(st, 0)) < c->lo || id > maxcs)
			continue;
		id -= c->lo;
		p = sqlite3_column_int64(st, 1);
		fr = sqlite3_column_int64(st, 2);
		/* (CS_BAD: a row; its parent and frame are checked in use.) */
		if (p < 0 || p >= (int64_t)CS_BAD || fr < 1 ||
		    fr >= (int64_t)CS_BAD)
			p = 0, fr = CS_BAD;
		c->cs_parent[id] = (uint32_t)p;
		c->cs_frame[id] = (uint32_t)fr;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(c->db, c->err, "cannot read call sites"));
	/* At most a node a call site read, beside those there are. */
	if (tr_db_int(c->db, "SELECT coalesce(max(id), 0) FROM fold_node",
	    &id, c->err) != 0)
		return (-1);
	if (id >= 0 && id < (int64_t)UINT32_MAX - 1)
		node_room(c, 0, (size_t)id + n + 2);
	if ((st = tr_db_prepare(c->db, "SELECT id, coalesce(parent_id, 0), "
	    "frame_id, depth FROM fold_node", c->err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		p = sqlite3_column_int64(st, 1);
		fr = sqlite3_column_int64(st, 2);
		if (id < 1 || id >= (int64_t)UINT32_MAX - 1 || p < 0 ||
		    p >= (int64_t)UINT32_MAX || fr < 0 ||
		    fr >= (int64_t)UINT32_MAX) {
			sqlite3_finalize(st);
			return (fold_bad(c, "node", id));
		}
		node_add(c, id, (uint32_t)p, (uint32_t)fr,
		    sqlite3_column_int64(st, 3));
		if (id >= c->next)
			c->next = id + 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(c->db, c->err, "cannot read fold nodes"));
	if (c->next == 0)
		c->next = 1;
	if ((c->get = tr_db_prepare(c->db, "SELECT parent_id, frame_id FROM "
	    "callsite WHERE id = ?1", c->err)) == NULL)
		return (-1);
	return (fold_max_id(c, "frame", &c->nframes));
}

/*
 * Which frame stands for each: the first of its name and module, read in
 * the order of the frames' unique index (name, module, ...), where the
 * frames of one name and module are next to each other.
 */
static int
fold_frames(struct fold_ctx *c)
{
	sqlite3_stmt	*st;
	struct tr_buf	 name, module;
	const char	*n, *m;
	int64_t		 id, *grp = NULL, min = 0;
	size_t		 ng = 0, cap = 0, i, nl, ml;
	int		 rc, same;

	c->frame_rep = tr_xcalloc((size_t)c->nframes + 1,
	    sizeof *c->frame_rep);
	if ((st = tr_db_prepare(c->db, "SELECT id, name, module FROM frame "
	    "ORDER BY name, module", c->err)) == NULL)
		return (-1);
	tr_buf_init(&name);
	tr_buf_init(&module);
	for (;;) {
		rc = sqlite3_step(st);
		same = 0;
		n = m = NULL;
		nl = ml = 0;
		if (rc == SQLITE_ROW) {
			n = (const char *)sqlite3_column_text(st, 1);
			nl = (size_t)sqlite3_column_bytes(st, 1);
			m = (const char *)sqlite3_column_text(st, 2);
			ml = (size_t)sqlite3_column_bytes(st, 2);
			same = ng > 0 && nl == name.len && ml == module.len &&
			    (nl == 0 || memcmp(n, name.data, nl) == 0) &&
			    (ml == 0 || memcmp(m, module.data, ml) == 0);
		}
		if (!same && ng > 0) {
			for (i = 0; i < ng; i++)
				if (grp[i] <= c->nframes)
					c->frame_rep[grp[i]] = (uint32_t)min;
			ng = 0;
		}
		if (rc != SQLITE_ROW)
			break;
		if ((id = sqlite3_column_int64(st, 0)) < 1 || id > c->nframes)
			continue;
		if (ng == 0) {
			tr_buf_reset(&name);
			tr_buf_reset(&module);
			if (nl > 0)
				tr_buf_add(&name, n, nl);
			if (ml > 0)
				tr_buf_add(&module, m, ml);
			min = id;
		}
		if (ng == cap) {
			cap = cap ? cap * 2 : 64;
			grp = tr_xrealloc(grp, cap * sizeof *grp);
		}
		grp[ng++] = id;
		if (id < min)
			min = id;
	}
	sqlite3_finalize(st);
	tr_buf_release(&name);
	tr_buf_release(&module);
	free(grp);
	if (rc != SQLITE_DONE)
		return (tr_db_error(c->db, c->err, "cannot read frames"));
	return (0);
}

/*
 * Call site 'x''s parent and frame: 1, 0 when there is no such call site,
 * -1 on error.
 */
static int
cs_get(struct fold_ctx *c, int64_t x, int64_t *parent, int64_t *frame)
{
	int	rc;

	if (x < 1 || x > c->ncs)
		return (0);
	if (x >= c->lo) {
		*parent = c->cs_parent[x - c->lo];
		*frame = c->cs_frame[x - c->lo];
		if (*frame == CS_BAD)
			*frame = -1;
		return (*frame != 0);
	}
	sqlite3_bind_int64(c->get, 1, x);
	if ((rc = sqlite3_step(c->get)) == SQLITE_ROW) {
		*parent = sqlite3_column_int64(c->get, 0);
		*frame = sqlite3_column_int64(c->get, 1);
		if (*frame == 0)
			*frame = -1;
	}
	sqlite3_reset(c->get);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return (tr_db_error(c->db, c->err, "cannot read call sites"));
	return (rc == SQLITE_ROW);
}

/* The node + 1 of call site 'x' (1 <= x <= ncs), 0 when not yet known. */
static uint32_t
cs_node(const struct fold_ctx *c, int64_t x)
{
	if (x >= c->lo)
		return (c->cs_node[x - c->lo]);
	return ((uint32_t)(uintptr_t)tr_imap_get(&c->old, (uint64_t)x));
}

static void
cs_node_set(struct fold_ctx *c, int64_t x, int64_t nd)
{
	if (x >= c->lo)
		c->cs_node[x - c->lo] = (uint32_t)nd + 1;
	else
		tr_imap_put(&c->old, (uint64_t)x, (void *)(uintptr_t)(nd + 1));
}

/* The node of call site 'cs' (0: none), making what is new; -1 on error. */
static int64_t
fold_node(struct fold_ctx *c, int64_t cs)
{
	int64_t		 x, p = 0, nd, fr = 0, depth;
	size_t		 n = 0;
	uint32_t	 known = 0, k;
	int		 rc;

	if (cs == 0)
		return (0);
	/* Up to a call site with a node (or the root), then down. */
	for (x = cs; x != 0; x = p) {
		if (n / 2 > (size_t)c->ncs)
			return (fold_bad(c, "call site", x));
		if (x >= 1 && x <= c->ncs && (known = cs_node(c, x)) != 0)
			break;
		if ((rc = cs_get(c, x, &p, &fr)) <= 0)
			return (rc < 0 ? -1 : fold_bad(c, "call site", x));
		if (n + 2 > c->capwalk) {
			c->capwalk = c->capwalk ? c->capwalk * 2 : 128;
			c->walk = tr_xrealloc(c->walk,
			    c->capwalk * sizeof *c->walk);
		}
		c->walk[n++] = x;
		c->walk[n++] = fr;
	}
	nd = x == 0 ? 0 : (int64_t)known - 1;
	/* A node's depth is its call site's: a frame a level, root 0. */
	depth = nd == 0 ? -1 : (int64_t)c->node[nd].depth;
	while (n > 0) {
		fr = c->walk[--n];
		x = c->walk[--n];
		if (fr >= 1 && fr <= c->nframes && c->frame_rep[fr] != 0)
			fr = c->frame_rep[fr];
		if (fr < 0 || fr >= (int64_t)UINT32_MAX)
			return (fold_bad(c, "call site", x));
		if ((k = kid_get(c, (uint32_t)nd, (uint32_t)fr)) != 0)
			nd = k;
		else {
			if (c->next >= (int64_t)UINT32_MAX - 1)
				return (fold_bad(c, "node", c->next));
			sqlite3_bind_int64(c->ins, 1, c->next);
			if (nd == 0)
				sqlite3_bind_null(c->ins, 2);
			else
				sqlite3_bind_int64(c->ins, 2, nd);
			sqlite3_bind_int64(c->ins, 3, fr);
			sqlite3_bind_int64(c->ins, 4, depth + 1);
			rc = sqlite3_step(c->ins);
			sqlite3_reset(c->ins);
			if (rc != SQLITE_DONE)
				return (tr_db_error(c->db, c->err,
				    "cannot write fold nodes"));
			node_add(c, c->next, (uint32_t)nd, (uint32_t)fr,
			    depth + 1);
			nd = c->next++;
		}
		depth = c->node[nd].depth;
		cs_node_set(c, x, nd);
	}
	return (nd);
}

/* Which thread stands for each: the first of its name. */
static int
fold_threads(struct fold_ctx *c)
{
	sqlite3_stmt	*st;
	const char	*n;
	char		*last = NULL;
	int64_t		 id, rep = 0;
	int		 rc;

	if (fold_max_id(c, "thread", &c->nthreads) != 0)
		return (-1);
	c->thread_rep = tr_xcalloc((size_t)c->nthreads + 1,
	    sizeof *c->thread_rep);
	if ((st = tr_db_prepare(c->db, "SELECT id, name FROM thread "
	    "ORDER BY name, id", c->err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((id = sqlite3_column_int64(st, 0)) < 1 || id > c->nthreads)
			continue;
		if ((n = (const char *)sqlite3_column_text(st, 1)) == NULL)
			n = "";
		if (last == NULL || strcmp(last, n) != 0) {
			free(last);
			last = tr_xstrdup(n);
			rep = id;
		}
		c->thread_rep[id] = (uint32_t)rep;
	}
	sqlite3_finalize(st);
	free(last);
	if (rc != SQLITE_DONE)
		return (tr_db_error(c->db, c->err, "cannot read threads"));
	return (0);
}

/* Write the aggregates of 'a' (sorted) into 'table'. */
static int
aggs_write(struct tr_db *db, const struct aggs *a, const char *table,
    const char *what, struct tr_error *err)
{
	sqlite3_stmt	*st;
	char		 sql[128];
	size_t		 i;
	int		 c, rc;

	snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (?1, ?2, ?3, ?4, "
	    "?5, ?6, ?7, ?8)", table);
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	for (i = 0; i < a->n; i++) {
		for (c = 0; c < 5; c++)
			bind_key(st, c + 1, a->v[i].key[c]);
		sqlite3_bind_int64(st, 6, a->v[i].n);
		sqlite3_bind_int64(st, 7, a->v[i].sum);
		sqlite3_bind_int64(st, 8, a->v[i].first);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE) {
			sqlite3_finalize(st);
			return (tr_db_error(db, err, what));
		}
	}
	sqlite3_finalize(st);
	return (0);
}

static void
fold_release(struct fold_ctx *c)
{
	sqlite3_finalize(c->ins);
	sqlite3_finalize(c->get);
	tr_imap_release(&c->old);
	free(c->cs_parent);
	free(c->cs_frame);
	free(c->cs_node);
	free(c->frame_rep);
	free(c->thread_rep);
	free(c->node);
	free(c->kid);
	free(c->walk);
}

/*
 * The folds of the per-stack aggregates 'a' (sorted, of source
 * 'source_id', or of every source when it is -1), written.
 */
static int
fold_write(struct tr_db *db, const struct aggs *a, int64_t source_id,
    int64_t new_callsites, struct tr_error *err)
{
	const char	*where = source_id >= 0 ? " WHERE source_id = ?1" : "";
	struct fold_ctx	 c;
	struct aggs	 f;
	int64_t		 k[5], maxcs = 0, t, nd;
	size_t		 i;
	int		 r = -1;

	memset(&c, 0, sizeof c);
	memset(&f, 0, sizeof f);
	c.db = db;
	c.err = err;
	tr_imap_init(&c.old);
	if (run(db, "DELETE FROM sample_fold", where, "", source_id,
	    "cannot delete the folds", err) != 0)
		return (-1);
	for (i = 0; i < a->n; i++)
		if (a->v[i].key[4] > maxcs)
			maxcs = a->v[i].key[4];
	/* The input's new call sites are the last ids. */
	if (new_callsites >= 0) {
		if (tr_db_int(db, "SELECT coalesce(max(id), 0) FROM callsite",
		    &c.lo, err) != 0)
			goto out;
		c.lo -= new_callsites - 1;
	}
	if (fold_load(&c, maxcs) != 0 || fold_frames(&c) != 0 ||
	    fold_threads(&c) != 0)
		goto out;
	if ((c.ins = tr_db_prepare(db, "INSERT INTO fold_node VALUES (?1, "
	    "?2, ?3, ?4)", err)) == NULL)
		goto out;
	for (i = 0; i < a->n; i++) {
		memcpy(k, a->v[i].key, sizeof k);
		t = k[3];
		if (t >= 1 && t <= c.nthreads && c.thread_rep[t] != 0)
			k[3] = c.thread_rep[t];
		if (k[4] != INT64_MIN) {
			if ((nd = fold_node(&c, k[4])) < 0)
				goto out;
			k[4] = nd;
		}
		if (aggs_add(&f, k, a->v[i].n, a->v[i].sum,
		    a->v[i].first) != 0) {
			tr_error_set(err, TR_EDATA, "the values of one "
			    "stack's samples sum past 2^63-1 (sample_fold)");
			goto out;
		}
	}
	free(f.slot);
	f.slot = NULL;
	if (f.n > 1)
		qsort(f.v, f.n, sizeof *f.v, agg_cmp);
	r = aggs_write(db, &f, "sample_fold", "cannot write the folds", err);
out:
	fold_release(&c);
	free(f.slot);
	free(f.v);
	return (r);
}

int
tr_derived_has_folds(struct tr_db *db, struct tr_error *err)
{
	int64_t	v;

	if (tr_db_int(db, "SELECT count(*) FROM sqlite_master WHERE type = "
	    "'table' AND name = 'sample_fold'", &v, err) != 0)
		return (-1);
	return (v > 0);
}

int
tr_derived_stack_rebuild(struct tr_db *db, int64_t source_id,
    int64_t new_callsites, struct tr_error *err)
{
	const char	*where = source_id >= 0 ? " WHERE source_id = ?1" : "";
	struct aggs	 a;
	sqlite3_stmt	*st = NULL;
	char		 sql[512];
	int64_t		 k[5];
	int		 c, rc, r = -1, folds;

	memset(&a, 0, sizeof a);
	if ((folds = tr_derived_has_folds(db, err)) < 0)
		return (-1);
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
		if (aggs_add(&a, k, 1, sqlite3_column_int64(st, 5),
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
	if (aggs_write(db, &a, "sample_stack", "cannot write per-stack "
	    "aggregates", err) != 0 ||
	    (folds && fold_write(db, &a, source_id, new_callsites,
	    err) != 0))
		goto out;
	r = 0;
out:
	sqlite3_finalize(st);
	free(a.slot);
	free(a.v);
	return (r);
}

int
tr_derived_fold_rebuild(struct tr_db *db, int64_t source_id,
    struct tr_error *err)
{
	const char	*where = source_id >= 0 ? " WHERE source_id = ?1" : "";
	struct aggs	 a;
	sqlite3_stmt	*st;
	char		 sql[512];
	size_t		 c;
	int		 rc, r = -1;

	/*
	 * Every source: one after the other, in the order they were
	 * imported (the nodes are those the imports made), each in memory
	 * alone.
	 */
	if (source_id < 0) {
		if (run(db, "DELETE FROM sample_fold", "", "", -1,
		    "cannot delete the folds", err) != 0 ||
		    (st = tr_db_prepare(db, "SELECT DISTINCT source_id FROM "
		    "sample_stack ORDER BY 1", err)) == NULL)
			return (-1);
		r = 0;
		while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW)
			r = tr_derived_fold_rebuild(db,
			    sqlite3_column_int64(st, 0), err);
		sqlite3_finalize(st);
		if (r == 0 && rc != SQLITE_DONE)
			r = tr_db_error(db, err, "cannot read the per-stack "
			    "aggregates");
		return (r);
	}
	memset(&a, 0, sizeof a);
	snprintf(sql, sizeof sql, "SELECT source_id, event_id, profile_id, "
	    "thread_id, callsite_id, samples, value, first_id FROM "
	    "sample_stack%s ORDER BY rowid", where);
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	if (source_id >= 0)
		sqlite3_bind_int64(st, 1, source_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (a.n == a.cap) {
			a.cap = a.cap ? a.cap * 2 : 4096;
			a.v = tr_xrealloc(a.v, a.cap * sizeof *a.v);
		}
		for (c = 0; c < 5; c++)
			a.v[a.n].key[c] = column_key(st, (int)c);
		a.v[a.n].n = sqlite3_column_int64(st, 5);
		a.v[a.n].sum = sqlite3_column_int64(st, 6);
		a.v[a.n].first = sqlite3_column_int64(st, 7);
		a.n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		tr_db_error(db, err, "cannot read the per-stack aggregates");
	else
		r = fold_write(db, &a, source_id, -1, err);
	free(a.v);
	return (r);
}
