/*
 * go tool pprof's -top over the store.  The steps and their order follow
 * Go 1.19's vendored google/pprof (driver, report, graph, profile): the
 * total is taken before filtering; drop_frames prune first, then
 * focus/ignore; nodes are keyed by pprof's NodeInfo at the granularity;
 * the node cutoff is nodefraction of the graph's flat sum; nodes are
 * sorted by |flat|, name, |cum|, then NodeInfo's fmt.Sprint; nodecount
 * keeps the first N; inline marks come from the final graph's edges that
 * survive the edge cutoff.  Samples with the same stack are summed first:
 * every per-sample quantity pprof computes is additive over them.
 */
#include "config.h"
#include "query/pprof.h"

#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/util.h"

void
tr_pprof_opts_init(struct tr_pprof_opts *o)
{
	memset(o, 0, sizeof *o);
	o->gran = TR_GRAN_FUNCTIONS;
	o->nodefraction = 0.005;
	o->edgefraction = 0.001;
}

int
tr_pprof_parse_gran(const char *s, enum tr_pprof_gran *g)
{
	static const char *const names[] = { "functions", "filefunctions",
	    "lines", "files", "addresses" };
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i]) == 0) {
			*g = (enum tr_pprof_gran)i;
			return (0);
		}
	return (-1);
}

double
tr_pprof_percent(int64_t v, int64_t total)
{
	double	r = 0;
	char	buf[64];

	if (total != 0)
		r = fabs((double)v / (double)total) * 100;
	if (r >= 99.95 && r <= 100.05)
		return (100);
	/* Round as pprof prints: %5.2f, or %5.2g below 1%. */
	snprintf(buf, sizeof buf, r >= 1.0 ? "%.2f" : "%.2g", r);
	return (strtod(buf, NULL));
}

/* --- the engine ----------------------------------------------------------- */

/*
 * Store ids (call sites, frames) to indexes: a two-level table, since the
 * ids one profile touches are mostly a few dense runs, and hashing
 * hundreds of thousands of them was the engine's main cost.
 */
#define IDTAB_SHIFT	12
#define IDTAB_PAGE	((size_t)1 << IDTAB_SHIFT)

struct idtab {
	int32_t		**pages;
	size_t		  npages;
};

static void
idtab_release(struct idtab *t)
{
	size_t	i;

	for (i = 0; i < t->npages; i++)
		free(t->pages[i]);
	free(t->pages);
}

/* The index of 'id', or -1. */
static int32_t
idtab_get(const struct idtab *t, int64_t id)
{
	size_t	p = (size_t)id >> IDTAB_SHIFT;

	if (id < 0 || p >= t->npages || t->pages[p] == NULL)
		return (-1);
	return (t->pages[p][(size_t)id & (IDTAB_PAGE - 1)]);
}

static void
idtab_put(struct idtab *t, int64_t id, int32_t v)
{
	size_t	p = (size_t)id >> IDTAB_SHIFT, n, i;

	if (p >= t->npages) {
		n = t->npages ? t->npages : 16;
		while (n <= p)
			n *= 2;
		t->pages = tr_xrealloc(t->pages, n * sizeof *t->pages);
		memset(t->pages + t->npages, 0,
		    (n - t->npages) * sizeof *t->pages);
		t->npages = n;
	}
	if (t->pages[p] == NULL) {
		t->pages[p] = tr_xmalloc(IDTAB_PAGE * sizeof **t->pages);
		for (i = 0; i < IDTAB_PAGE; i++)
			t->pages[p][i] = -1;
	}
	t->pages[p][(size_t)id & (IDTAB_PAGE - 1)] = v;
}

struct frame {
	char		*name, *module, *file;
	int64_t		 line;
	uint64_t	 addr;
	int		 inlined;
	int		 known;		/* has function information */
	int		 node;		/* at the granularity */
	signed char	 focus, ignore, drop;	/* -1: unset */
};

struct node {
	char		*name, *file, *objfile;
	uint64_t	 addr;
	int64_t		 start_line, lineno;
	char		*printable;
	char		*sprint;	/* fmt.Sprint(NodeInfo) */
	int64_t		 flat, cum;
	int64_t		 stamp;
	int		 kept;
	int		 in_inline, in_noinline;
};

/* The samples of one stack, summed. */
struct group {
	int64_t		 callsite;	/* the leaf call site's id */
	int64_t		 w;		/* selection minus base */
	int64_t		 wbase;		/* the base, negated */
	int		 nonzero;	/* a sample was not 0 */
	int		 keep;		/* passed focus/ignore */
	int32_t		*nodes;		/* root first */
	unsigned char	*inl;
	size_t		 n;
};

struct edge {
	int64_t		 weight;
	int64_t		 stamp;
	int32_t		 from, to;
	int		 inl;
};

struct eng {
	struct tr_db			*db;
	const struct tr_pprof_opts	*o;
	regex_t				 focus, ignore, drop, keep;
	int				 has_focus, has_ignore;
	int				 has_drop, has_keep;
	sqlite3_stmt			*st_frame, *st_cs;

	struct idtab			 frame_idx;
	struct frame			*frames;
	size_t				 nframes, capframes;

	struct idtab			 cs_idx;
	int64_t				*cs_parent;	/* id */
	int32_t				*cs_frame;	/* index */
	size_t				 ncs, capcs;

	struct idtab			 grp_idx;
	struct group			*groups;
	size_t				 ngroups, capgroups;

	struct tr_map			*node_idx;
	struct node			*nodes;
	size_t				 nnodes, capnodes;

	struct tr_map			*edge_idx;
	struct edge			*edges;
	size_t				 nedges, capedges;

	struct tr_map			*start_lines;
	struct tr_map			*label_ok;
	struct {
		char	*key, *val;
	}				 labels[TR_PPROF_MAXLABELS];
	int				 nlabels;

	int64_t				 total, diff_total;
	int				 in_txn;	/* we began one */
	char				*sample_type, *unit;
	size_t				 nprofiles;
	struct tr_buf			 buf;
};

static void
eng_release(struct eng *e)
{
	size_t	i;

	if (e->has_focus)
		regfree(&e->focus);
	if (e->has_ignore)
		regfree(&e->ignore);
	if (e->has_drop)
		regfree(&e->drop);
	if (e->has_keep)
		regfree(&e->keep);
	sqlite3_finalize(e->st_frame);
	sqlite3_finalize(e->st_cs);
	tr_db_read_end(e->db, e->in_txn);
	for (i = 0; i < e->nframes; i++) {
		free(e->frames[i].name);
		free(e->frames[i].module);
		free(e->frames[i].file);
	}
	free(e->frames);
	idtab_release(&e->frame_idx);
	free(e->cs_parent);
	free(e->cs_frame);
	idtab_release(&e->cs_idx);
	for (i = 0; i < e->ngroups; i++) {
		free(e->groups[i].nodes);
		free(e->groups[i].inl);
	}
	free(e->groups);
	idtab_release(&e->grp_idx);
	for (i = 0; i < e->nnodes; i++) {
		free(e->nodes[i].name);
		free(e->nodes[i].file);
		free(e->nodes[i].objfile);
		free(e->nodes[i].printable);
		free(e->nodes[i].sprint);
	}
	free(e->nodes);
	tr_map_free(e->node_idx);
	free(e->edges);
	tr_map_free(e->edge_idx);
	tr_map_free(e->start_lines);
	tr_map_free(e->label_ok);
	for (i = 0; i < (size_t)e->nlabels; i++) {
		free(e->labels[i].key);
		free(e->labels[i].val);
	}
	free(e->sample_type);
	free(e->unit);
	tr_buf_release(&e->buf);
}

static int
compile(regex_t *re, const char *what, const char *pat, struct tr_error *err)
{
	char	msg[256];
	int	rc;

	if ((rc = regcomp(re, pat, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(rc, re, msg, sizeof msg);
		regfree(re);
		return (tr_error_set(err, TR_EUSAGE, "bad %s regex '%s': %s",
		    what, pat, msg));
	}
	return (0);
}

static int
eng_init(struct eng *e, struct tr_db *db, const struct tr_pprof_opts *o,
    struct tr_error *err)
{
	const char	*eq;
	int		 i;

	memset(e, 0, sizeof *e);
	e->db = db;
	e->o = o;
	e->node_idx = tr_map_new();
	e->edge_idx = tr_map_new();
	e->start_lines = tr_map_new();
	e->label_ok = tr_map_new();
	tr_buf_init(&e->buf);
	if (o->focus != NULL) {
		if (compile(&e->focus, "--focus", o->focus, err) != 0)
			return (-1);
		e->has_focus = 1;
	}
	if (o->ignore != NULL) {
		if (compile(&e->ignore, "--ignore", o->ignore, err) != 0)
			return (-1);
		e->has_ignore = 1;
	}
	for (i = 0; i < o->nlabels; i++) {
		if ((eq = strchr(o->labels[i], '=')) == NULL ||
		    eq == o->labels[i])
			return (tr_error_set(err, TR_EUSAGE, "bad label '%s': "
			    "expected KEY=VALUE", o->labels[i]));
		e->labels[i].key = tr_xstrndup(o->labels[i],
		    (size_t)(eq - o->labels[i]));
		e->labels[i].val = tr_xstrdup(eq + 1);
		e->nlabels++;
	}
	/*
	 * One read transaction for the many small reads below: outside one,
	 * SQLite takes and drops its file lock for every statement.
	 */
	if (tr_db_read_begin(db, &e->in_txn, err) != 0)
		return (-1);
	if ((e->st_frame = tr_db_prepare(db, "SELECT name, module, file, "
	    "line, addr, inlined FROM frame WHERE id = ?1", err)) == NULL ||
	    (e->st_cs = tr_db_prepare(db, "SELECT parent_id, frame_id FROM "
	    "callsite WHERE id = ?1", err)) == NULL)
		return (-1);
	return (0);
}

/* Profile facts the engine needs. */
struct pinfo {
	int64_t		 id, source_id;
	json_t		*types;		/* [{type, unit}] */
	char		*dflt;		/* default type or NULL */
	json_t		*meta;
};

static void
pinfo_release(struct pinfo *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		json_decref(p[i].types);
		json_decref(p[i].meta);
		free(p[i].dflt);
	}
	free(p);
}

static int
load_pinfo(struct eng *e, const int64_t *ids, size_t n, struct pinfo **out,
    struct tr_error *err)
{
	struct pinfo	*p = tr_xcalloc(n + 1, sizeof *p);
	sqlite3_stmt	*st;
	size_t		 i;
	const char	*t;

	*out = p;
	if ((st = tr_db_prepare(e->db, "SELECT source_id, sample_types, "
	    "default_type, meta FROM profile WHERE id = ?1", err)) == NULL)
		return (-1);
	for (i = 0; i < n; i++) {
		p[i].id = ids[i];
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) != SQLITE_ROW) {
			sqlite3_finalize(st);
			return (tr_db_error(e->db, err, "cannot read profile"));
		}
		p[i].source_id = sqlite3_column_int64(st, 0);
		t = (const char *)sqlite3_column_text(st, 1);
		p[i].types = json_loads(t ? t : "[]", 0, NULL);
		if (!json_is_array(p[i].types)) {
			json_decref(p[i].types);
			p[i].types = json_array();
		}
		if ((t = (const char *)sqlite3_column_text(st, 2)) != NULL &&
		    *t != '\0')
			p[i].dflt = tr_xstrdup(t);
		t = (const char *)sqlite3_column_text(st, 3);
		p[i].meta = json_loads(t ? t : "{}", 0, NULL);
		if (!json_is_object(p[i].meta)) {
			json_decref(p[i].meta);
			p[i].meta = json_object();
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return (0);
}

static const char *
type_at(const struct pinfo *p, size_t i, const char *field)
{
	const char	*s = json_string_value(json_object_get(
	    json_array_get(p->types, i), field));

	return (s ? s : "");
}

static void
types_text(struct tr_buf *b, const struct pinfo *p)
{
	size_t	i;

	tr_buf_reset(b);
	for (i = 0; i < json_array_size(p->types); i++)
		tr_buf_printf(b, "%s%s/%s", i ? " " : "", type_at(p, i, "type"),
		    type_at(p, i, "unit"));
}

/*
 * The sample type to report, as pprof's SampleIndexByName() picks it in
 * the merged profile: the given name (or 0-based index, or a legacy
 * "inuse_" name), else the first default sample type, else the last type.
 * Every profile must have the first one's sample types.
 */
static int
pick_type(struct eng *e, const struct pinfo *p, size_t n,
    struct tr_error *err)
{
	const char	*si = e->o->sample_index, *dflt = NULL, *t;
	size_t		 nt, i, j, idx;
	char		*end, *first;
	long		 v;

	if (n == 0)
		return (0);
	nt = json_array_size(p[0].types);
	for (i = 1; i < n; i++) {
		int	same = json_array_size(p[i].types) == nt;

		for (j = 0; same && j < nt; j++)
			same = strcmp(type_at(&p[0], j, "type"),
			    type_at(&p[i], j, "type")) == 0 &&
			    strcmp(type_at(&p[0], j, "unit"),
			    type_at(&p[i], j, "unit")) == 0;
		if (!same) {
			types_text(&e->buf, &p[0]);
			first = tr_xstrdup(e->buf.data);
			types_text(&e->buf, &p[i]);
			tr_error_set(err, TR_EUSAGE, "profiles %" PRId64
			    " and %" PRId64 " have different sample types "
			    "(%s; %s); select profiles of one type (--type, "
			    "--profile)", p[0].id, p[i].id, first,
			    e->buf.data);
			free(first);
			return (-1);
		}
	}
	if (nt == 0)
		return (tr_error_set(err, TR_EDATA, "profile %" PRId64 " has "
		    "no samples", p[0].id));
	idx = nt - 1;
	if (si == NULL) {
		for (i = 0; i < n && dflt == NULL; i++)
			dflt = p[i].dflt;
		for (j = 0; dflt != NULL && j < nt; j++)
			if (strcmp(type_at(&p[0], j, "type"), dflt) == 0) {
				idx = j;
				break;
			}
	} else {
		v = strtol(si, &end, 10);
		if (*si != '\0' && *end == '\0') {
			if (v < 0 || (size_t)v >= nt)
				return (tr_error_set(err, TR_EUSAGE,
				    "sample index %s is outside the range "
				    "[0..%zu]", si, nt - 1));
			idx = (size_t)v;
		} else {
			const char	*noinuse = si;

			if (strncmp(si, "inuse_", 6) == 0)
				noinuse = si + 6;
			for (j = 0; j < nt; j++) {
				t = type_at(&p[0], j, "type");
				if (strcmp(t, si) == 0 ||
				    strcmp(t, noinuse) == 0)
					break;
			}
			if (j == nt) {
				tr_buf_reset(&e->buf);
				for (j = 0; j < nt; j++)
					tr_buf_printf(&e->buf, "%s%s",
					    j ? ", " : "",
					    type_at(&p[0], j, "type"));
				return (tr_error_set(err, TR_EUSAGE,
				    "unknown sample type '%s'; profile %"
				    PRId64 " has: %s", si, p[0].id,
				    e->buf.data));
			}
			idx = j;
		}
	}
	e->sample_type = tr_xstrdup(type_at(&p[0], idx, "type"));
	e->unit = tr_xstrdup(type_at(&p[0], idx, "unit"));
	return (0);
}

/* Function start lines the profiles recorded, by name and file. */
static void
load_start_lines(struct eng *e, const struct pinfo *p, size_t n)
{
	json_t	*fs, *f;
	size_t	 i, j;
	int64_t	 v;

	for (i = 0; i < n; i++) {
		fs = json_object_get(p[i].meta, "functions");
		json_array_foreach(fs, j, f) {
			v = json_integer_value(json_object_get(f,
			    "start_line"));
			if (v == 0)
				continue;
			tr_buf_reset(&e->buf);
			tr_buf_adds(&e->buf, json_string_value(
			    json_object_get(f, "name")));
			tr_buf_addc(&e->buf, '\0');
			tr_buf_adds(&e->buf, json_string_value(
			    json_object_get(f, "file")));
			if (!tr_map_get(e->start_lines, e->buf.data,
			    e->buf.len, &v))
				tr_map_put(e->start_lines, e->buf.data,
				    e->buf.len, json_integer_value(
				    json_object_get(f, "start_line")));
		}
	}
}

/* drop_frames and keep_frames of the first profile, as pprof merges. */
static void
load_drop(struct eng *e, const struct pinfo *p)
{
	const char	*d, *k;
	char		*re;

	d = json_string_value(json_object_get(p->meta, "drop_frames"));
	k = json_string_value(json_object_get(p->meta, "keep_frames"));
	if (d == NULL || *d == '\0')
		return;
	/* pprof ignores frame patterns it cannot compile; so do we. */
	re = tr_xasprintf("^(%s)$", d);
	e->has_drop = regcomp(&e->drop, re, REG_EXTENDED | REG_NOSUB) == 0;
	free(re);
	if (e->has_drop && k != NULL && *k != '\0') {
		re = tr_xasprintf("^(%s)$", k);
		e->has_keep = regcomp(&e->keep, re,
		    REG_EXTENDED | REG_NOSUB) == 0;
		free(re);
	}
}

/* Does a sample with these labels pass the --label filters? */
static int
labels_match(struct eng *e, const char *text)
{
	json_t	*obj, *v, *x;
	int64_t	 ok;
	size_t	 i, j;
	char	 num[32];
	int	 hit;

	if (e->nlabels == 0)
		return (1);
	if (text == NULL)
		return (0);
	if (tr_map_get(e->label_ok, text, strlen(text), &ok))
		return ((int)ok);
	obj = json_loads(text, 0, NULL);
	ok = 1;
	for (i = 0; ok && i < (size_t)e->nlabels; i++) {
		v = json_object_get(obj, e->labels[i].key);
		hit = 0;
		for (j = 0; v != NULL && !hit; j++) {
			x = json_is_array(v) ? json_array_get(v, j) :
			    (j == 0 ? v : NULL);
			if (x == NULL)
				break;
			if (json_is_string(x))
				hit = strcmp(json_string_value(x),
				    e->labels[i].val) == 0;
			else if (json_is_integer(x)) {
				snprintf(num, sizeof num, "%" PRId64,
				    (int64_t)json_integer_value(x));
				hit = strcmp(num, e->labels[i].val) == 0;
			}
		}
		ok = hit;
	}
	json_decref(obj);
	tr_map_put(e->label_ok, text, strlen(text), ok);
	return ((int)ok);
}

static struct group *
group_of(struct eng *e, int64_t callsite)
{
	int64_t	gi;

	if ((gi = idtab_get(&e->grp_idx, callsite)) >= 0)
		return (&e->groups[gi]);
	if (e->ngroups == e->capgroups) {
		e->capgroups = e->capgroups ? e->capgroups * 2 : 1024;
		e->groups = tr_xrealloc(e->groups,
		    e->capgroups * sizeof *e->groups);
	}
	gi = (int64_t)e->ngroups++;
	memset(&e->groups[gi], 0, sizeof e->groups[gi]);
	e->groups[gi].callsite = callsite;
	idtab_put(&e->grp_idx, callsite, (int32_t)gi);
	return (&e->groups[gi]);
}

/*
 * Add the samples of profiles 'p' ('base': negated, as -diff_base does),
 * and count pprof's totals over all of them before any filter.
 */
static int
load_samples(struct eng *e, const struct pinfo *p, size_t n, int base,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct group	*g;
	const char	*labels;
	int64_t		 v, cs;
	size_t		 i;
	int		 rc = SQLITE_DONE;

	st = tr_db_prepare(e->db, "SELECT s.callsite_id, s.value, s.labels "
	    "FROM sample s WHERE s.source_id = ?1 AND s.profile_id = ?2 "
	    "AND s.event_id = (SELECT id FROM str WHERE s = ?3)", err);
	if (st == NULL)
		return (-1);
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, p[i].source_id);
		sqlite3_bind_int64(st, 2, p[i].id);
		sqlite3_bind_text(st, 3, e->sample_type, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			cs = sqlite3_column_int64(st, 0);
			v = sqlite3_column_int64(st, 1);
			if (base)
				v = -v;
			e->total += v < 0 ? -v : v;
			if (base)
				e->diff_total += v < 0 ? -v : v;
			labels = (const char *)sqlite3_column_text(st, 2);
			if (v == 0 || cs == 0 || !labels_match(e, labels))
				continue;
			g = group_of(e, cs);
			g->w += v;
			if (base)
				g->wbase += v;
			g->nonzero = 1;
		}
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(e->db, err, "cannot read samples"));
	return (0);
}

static char *
col_dup(sqlite3_stmt *st, int i)
{
	const char	*s = (const char *)sqlite3_column_text(st, i);

	return (tr_xstrdup(s ? s : ""));
}

static int64_t
frame_of(struct eng *e, int64_t id, struct tr_error *err)
{
	struct frame	*f;
	int64_t		 fi;

	if ((fi = idtab_get(&e->frame_idx, id)) >= 0)
		return (fi);
	sqlite3_bind_int64(e->st_frame, 1, id);
	if (sqlite3_step(e->st_frame) != SQLITE_ROW) {
		sqlite3_reset(e->st_frame);
		return (tr_error_set(err, TR_EDB, "frame %" PRId64 " is "
		    "missing from the store", id));
	}
	if (e->nframes == e->capframes) {
		e->capframes = e->capframes ? e->capframes * 2 : 1024;
		e->frames = tr_xrealloc(e->frames,
		    e->capframes * sizeof *e->frames);
	}
	fi = (int64_t)e->nframes++;
	f = &e->frames[fi];
	f->name = col_dup(e->st_frame, 0);
	f->module = col_dup(e->st_frame, 1);
	f->file = col_dup(e->st_frame, 2);
	f->line = sqlite3_column_int64(e->st_frame, 3);
	f->addr = (uint64_t)sqlite3_column_int64(e->st_frame, 4);
	f->inlined = sqlite3_column_int(e->st_frame, 5);
	sqlite3_reset(e->st_frame);
	f->known = !(strcmp(f->name, "[unknown]") == 0 && *f->file == '\0' &&
	    f->line == 0);
	f->node = -1;
	f->focus = f->ignore = f->drop = -1;
	idtab_put(&e->frame_idx, id, (int32_t)fi);
	return (fi);
}

/* The callsite cache index of 'id', loading it (and its frame). */
static int64_t
callsite_of(struct eng *e, int64_t id, struct tr_error *err)
{
	int64_t	ci, fi;

	if ((ci = idtab_get(&e->cs_idx, id)) >= 0)
		return (ci);
	sqlite3_bind_int64(e->st_cs, 1, id);
	if (sqlite3_step(e->st_cs) != SQLITE_ROW) {
		sqlite3_reset(e->st_cs);
		return (tr_error_set(err, TR_EDB, "call site %" PRId64 " is "
		    "missing from the store", id));
	}
	if (e->ncs == e->capcs) {
		e->capcs = e->capcs ? e->capcs * 2 : 4096;
		e->cs_parent = tr_xrealloc(e->cs_parent,
		    e->capcs * sizeof *e->cs_parent);
		e->cs_frame = tr_xrealloc(e->cs_frame,
		    e->capcs * sizeof *e->cs_frame);
	}
	ci = (int64_t)e->ncs++;
	e->cs_parent[ci] = sqlite3_column_int64(e->st_cs, 0);
	fi = sqlite3_column_int64(e->st_cs, 1);
	sqlite3_reset(e->st_cs);
	if ((fi = frame_of(e, fi, err)) < 0)
		return (-1);
	e->cs_frame[ci] = (int32_t)fi;
	idtab_put(&e->cs_idx, id, (int32_t)ci);
	return (ci);
}

/* Go's filepath.Clean, for '/'-separated paths. */
static char *
clean_path(const char *p)
{
	size_t	n = strlen(p), r = 0, w = 0, dotdot = 0;
	int	rooted = p[0] == '/';
	char	*out;

	if (n == 0)
		return (tr_xstrdup("."));
	out = tr_xmalloc(n + 2);
	if (rooted) {
		out[w++] = '/';
		r = dotdot = 1;
	}
	while (r < n) {
		if (p[r] == '/')
			r++;
		else if (p[r] == '.' && (r + 1 == n || p[r + 1] == '/'))
			r++;
		else if (p[r] == '.' && p[r + 1] == '.' &&
		    (r + 2 == n || p[r + 2] == '/')) {
			r += 2;
			if (w > dotdot) {
				w--;
				while (w > dotdot && out[w] != '/')
					w--;
			} else if (!rooted) {
				if (w > 0)
					out[w++] = '/';
				out[w++] = '.';
				out[w++] = '.';
				dotdot = w;
			}
		} else {
			if ((rooted && w != 1) || (!rooted && w != 0))
				out[w++] = '/';
			for (; r < n && p[r] != '/'; r++)
				out[w++] = p[r];
		}
	}
	if (w == 0)
		out[w++] = '.';
	out[w] = '\0';
	return (out);
}

/* pprof's trimPath() with no -trim_path or -source_path: two prefixes. */
static const char *
trim_path(const char *p)
{
	if (strncmp(p, "/proc/self/cwd/./", 17) == 0)
		return (p + 17);
	if (strncmp(p, "/proc/self/cwd/", 15) == 0)
		return (p + 15);
	return (p);
}

/* Go's filepath.Base. */
static void
base_name(struct tr_buf *b, const char *p)
{
	size_t	n = strlen(p);
	const char *s;

	if (n == 0) {
		tr_buf_adds(b, ".");
		return;
	}
	while (n > 0 && p[n - 1] == '/')
		n--;
	if (n == 0) {
		tr_buf_adds(b, "/");
		return;
	}
	for (s = p + n; s > p && s[-1] != '/'; s--)
		;
	tr_buf_add(b, s, (size_t)(p + n - s));
}

static int64_t
start_line(struct eng *e, const struct frame *f)
{
	int64_t	v;

	tr_buf_reset(&e->buf);
	tr_buf_adds(&e->buf, f->name);
	tr_buf_addc(&e->buf, '\0');
	tr_buf_adds(&e->buf, f->file);
	return (tr_map_get(e->start_lines, e->buf.data, e->buf.len, &v) ?
	    v : 0);
}

/* The node of frame 'fi' at the granularity: pprof's NodeInfo. */
static int32_t
node_of(struct eng *e, int64_t fi)
{
	struct frame		*f = &e->frames[fi];
	enum tr_pprof_gran	 g = e->o->gran;
	struct node		*nd;
	const char		*name = "", *obj = "";
	char			*file = NULL;
	uint64_t		 addr = 0;
	int64_t			 line = 0, start = 0, ni;
	char			 num[64];

	if (f->node >= 0)
		return (f->node);
	if (!f->known) {
		obj = f->module;
		if (g == TR_GRAN_ADDRESSES)
			addr = f->addr;
	} else {
		if (g != TR_GRAN_FILES)
			name = f->name;
		if (g != TR_GRAN_FUNCTIONS && *f->file != '\0')
			file = clean_path(trim_path(f->file));
		if (g == TR_GRAN_LINES || g == TR_GRAN_ADDRESSES)
			line = f->line;
		if (g == TR_GRAN_ADDRESSES)
			addr = f->addr;
		if (*name == '\0') {
			obj = f->module;
			start = start_line(e, f);
		}
	}
	tr_buf_reset(&e->buf);
	tr_buf_printf(&e->buf, "{%s  %" PRIu64 " %s %" PRId64 " %" PRId64
	    " %s}", name, addr, file ? file : "", start, line, obj);
	if (tr_map_get(e->node_idx, e->buf.data, e->buf.len, &ni)) {
		free(file);
		f->node = (int)ni;
		return ((int32_t)ni);
	}
	if (e->nnodes == e->capnodes) {
		e->capnodes = e->capnodes ? e->capnodes * 2 : 1024;
		e->nodes = tr_xrealloc(e->nodes,
		    e->capnodes * sizeof *e->nodes);
	}
	ni = (int64_t)e->nnodes++;
	tr_map_put(e->node_idx, e->buf.data, e->buf.len, ni);
	nd = &e->nodes[ni];
	memset(nd, 0, sizeof *nd);
	nd->sprint = tr_xstrdup(e->buf.data);
	nd->name = tr_xstrdup(name);
	nd->file = file ? file : tr_xstrdup("");
	nd->objfile = tr_xstrdup(obj);
	nd->addr = addr;
	nd->start_line = start;
	nd->lineno = line;
	nd->stamp = -1;
	nd->kept = 1;
	/* NodeInfo.PrintableName() */
	tr_buf_reset(&e->buf);
	if (addr != 0) {
		snprintf(num, sizeof num, "%016" PRIx64, addr);
		tr_buf_adds(&e->buf, num);
	}
	if (*name != '\0')
		tr_buf_printf(&e->buf, "%s%s", e->buf.len ? " " : "", name);
	if (line != 0)
		tr_buf_printf(&e->buf, "%s%s:%" PRId64, e->buf.len ? " " : "",
		    nd->file, line);
	else if (*nd->file != '\0')
		tr_buf_printf(&e->buf, "%s%s", e->buf.len ? " " : "",
		    nd->file);
	else if (*name != '\0')
		;
	else if (*obj != '\0') {
		tr_buf_adds(&e->buf, e->buf.len ? " [" : "[");
		base_name(&e->buf, obj);
		tr_buf_addc(&e->buf, ']');
	} else
		tr_buf_adds(&e->buf, e->buf.len ? " <unknown>" : "<unknown>");
	nd->printable = tr_xstrdup(e->buf.data);
	f->node = (int)ni;
	return ((int32_t)ni);
}

static int
rmatch(regex_t *re, const char *s)
{
	return (regexec(re, s, 0, NULL, 0) == 0);
}

/* pprof's Location.matchesName(), one line at a time. */
static int
frame_matches(const struct frame *f, regex_t *re)
{
	if (f->known && (rmatch(re, f->name) || rmatch(re, f->file)))
		return (1);
	return (rmatch(re, f->module));
}

/* pprof's simplifyFunc(): drop a leading '.' and the argument list. */
static void
simplify(struct tr_buf *b, const char *name)
{
	const char	*p;

	if (*name == '.')
		name++;
	for (p = name; *p != '\0'; p++) {
		if (strncmp(p, "(anonymous namespace)", 21) == 0)
			p += 20;
		else if (strncmp(p, "operator()", 10) == 0)
			p += 9;
		else if (*p == '(')
			break;
	}
	tr_buf_reset(b);
	tr_buf_add(b, name, (size_t)(p - name));
}

static int
frame_drops(struct eng *e, struct frame *f)
{
	if (f->drop < 0) {
		f->drop = 0;
		if (f->known && *f->name != '\0') {
			simplify(&e->buf, f->name);
			f->drop = rmatch(&e->drop, e->buf.data) &&
			    !(e->has_keep && rmatch(&e->keep, e->buf.data));
		}
	}
	return (f->drop);
}

/*
 * pprof's Profile.Prune() on one stack (frame indexes, root first): a
 * location is a frame that is not inlined and the inlined frames after
 * it.  Returns the new length; lines are removed in place.
 */
static size_t
prune(struct eng *e, int64_t *fr, size_t n)
{
	size_t	 i, j, end, k, w = 0;
	int	 found_user = 0, pr, beneath;

	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && e->frames[fr[end]].inlined &&
		    e->frames[fr[end]].addr == e->frames[fr[i]].addr; end++)
			;
		/* First line from the outermost that must go. */
		for (k = i; k < end && !frame_drops(e, &e->frames[fr[k]]); k++)
			;
		beneath = k < end;
		pr = k == i;
		if (!beneath) {
			found_user = 1;
			k = end;
		} else if (found_user && pr)
			break;
		/* A pruned location keeps all its lines (none are cut). */
		if (pr)
			k = end;
		for (j = i; j < k; j++)
			fr[w++] = fr[j];
		if (beneath && found_user)
			break;
	}
	return (w);
}

/* Resolve each group's stack to nodes, pruned and filtered. */
static int
build_groups(struct eng *e, struct tr_error *err)
{
	int64_t	*fr = NULL, ci, id;
	size_t	 cap = 0, n, i, j;
	int	 focused, ignored;

	for (i = 0; i < e->ngroups; i++) {
		struct group	*g = &e->groups[i];

		n = 0;
		for (id = g->callsite; id > 0; id = e->cs_parent[ci]) {
			if ((ci = callsite_of(e, id, err)) < 0) {
				free(fr);
				return (-1);
			}
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				fr = tr_xrealloc(fr, cap * sizeof *fr);
			}
			fr[n++] = e->cs_frame[ci];
		}
		for (j = 0; j < n / 2; j++) {
			int64_t	t = fr[j];

			fr[j] = fr[n - 1 - j];
			fr[n - 1 - j] = t;
		}
		if (e->has_drop)
			n = prune(e, fr, n);
		focused = !e->has_focus;
		ignored = 0;
		for (j = 0; j < n && !ignored; j++) {
			struct frame	*f = &e->frames[fr[j]];

			if (e->has_ignore) {
				if (f->ignore < 0)
					f->ignore = (signed char)frame_matches(
					    f, &e->ignore);
				ignored = f->ignore;
			}
			if (e->has_focus && !focused) {
				if (f->focus < 0)
					f->focus = (signed char)frame_matches(
					    f, &e->focus);
				focused = f->focus;
			}
		}
		/* pprof drops samples without locations here too. */
		g->keep = n > 0 && focused && !ignored;
		if (!g->keep)
			continue;
		g->n = n;
		g->nodes = tr_xcalloc(n, sizeof *g->nodes);
		g->inl = tr_xcalloc(n, sizeof *g->inl);
		for (j = 0; j < n; j++) {
			g->nodes[j] = node_of(e, fr[j]);
			g->inl[j] = (unsigned char)e->frames[fr[j]].inlined;
		}
	}
	free(fr);
	return (0);
}

/* pprof's newGraph() values: flat and cum of the kept nodes. */
static void
graph_values(struct eng *e)
{
	size_t	i, j;
	int32_t	n, parent;
	int	residual;

	for (i = 0; i < e->nnodes; i++) {
		e->nodes[i].flat = e->nodes[i].cum = 0;
		e->nodes[i].stamp = -1;
	}
	for (i = 0; i < e->ngroups; i++) {
		const struct group	*g = &e->groups[i];

		if (!g->keep || !g->nonzero)
			continue;
		parent = -1;
		residual = 0;
		for (j = 0; j < g->n; j++) {
			n = g->nodes[j];
			if (!e->nodes[n].kept) {
				residual = 1;
				continue;
			}
			if (e->nodes[n].stamp != (int64_t)i) {
				e->nodes[n].stamp = (int64_t)i;
				e->nodes[n].cum += g->w;
			}
			parent = n;
			residual = 0;
		}
		if (parent >= 0 && !residual)
			e->nodes[parent].flat += g->w;
	}
}

/* The final graph's edges, for the inline marks. */
static void
graph_edges(struct eng *e, int64_t cutoff)
{
	struct edge	*ed;
	int32_t		 key[2], n, parent;
	int64_t		 ei;
	size_t		 i, j;

	for (i = 0; i < e->ngroups; i++) {
		const struct group	*g = &e->groups[i];

		if (!g->keep || !g->nonzero)
			continue;
		parent = -1;
		for (j = 0; j < g->n; j++) {
			n = g->nodes[j];
			if (!e->nodes[n].kept)
				continue;
			if (parent >= 0 && n != parent) {
				key[0] = parent;
				key[1] = n;
				if (!tr_map_get(e->edge_idx, key, sizeof key,
				    &ei)) {
					if (e->nedges == e->capedges) {
						e->capedges = e->capedges ?
						    e->capedges * 2 : 1024;
						e->edges = tr_xrealloc(e->edges,
						    e->capedges *
						    sizeof *e->edges);
					}
					ei = (int64_t)e->nedges++;
					ed = &e->edges[ei];
					ed->weight = 0;
					ed->stamp = -1;
					ed->from = parent;
					ed->to = n;
					ed->inl = 1;
					tr_map_put(e->edge_idx, key, sizeof key,
					    ei);
				}
				ed = &e->edges[ei];
				if (ed->stamp != (int64_t)i) {
					ed->stamp = (int64_t)i;
					ed->weight += g->w;
					if (!g->inl[j])
						ed->inl = 0;
				}
			}
			parent = n;
		}
	}
	for (i = 0; i < e->nedges; i++) {
		ed = &e->edges[i];
		if (llabs(ed->weight) < cutoff)
			continue;
		if (ed->inl)
			e->nodes[ed->to].in_inline = 1;
		else
			e->nodes[ed->to].in_noinline = 1;
	}
}

static const struct eng *sort_eng;

static int
cmp_nodes(const void *a, const void *b)
{
	const struct node	*l = &sort_eng->nodes[*(const int32_t *)a];
	const struct node	*r = &sort_eng->nodes[*(const int32_t *)b];
	int64_t			 lv, rv;
	int			 c;

	if (sort_eng->o->cum) {
		lv = llabs(l->cum);
		rv = llabs(r->cum);
	} else {
		lv = llabs(l->flat);
		rv = llabs(r->flat);
	}
	if (lv != rv)
		return (lv > rv ? -1 : 1);
	if ((c = strcmp(l->printable, r->printable)) != 0)
		return (c);
	if (sort_eng->o->cum) {
		lv = llabs(l->flat);
		rv = llabs(r->flat);
	} else {
		lv = llabs(l->cum);
		rv = llabs(r->cum);
	}
	if (lv != rv)
		return (lv > rv ? -1 : 1);
	return (strcmp(l->sprint, r->sprint));
}

static void
sort_nodes(struct eng *e, int32_t *v, size_t n)
{
	sort_eng = e;
	qsort(v, n, sizeof *v, cmp_nodes);
	sort_eng = NULL;
}

/*
 * A rebuilt graph: only these nodes exist; stacks skip the others (and
 * lose the flat value of a skipped leaf), as in pprof.  The values of the
 * kept nodes do not change, so only the edges are recomputed, once.
 */
static void
keep_only(struct eng *e, const int32_t *v, size_t n)
{
	size_t	i;

	for (i = 0; i < e->nnodes; i++)
		e->nodes[i].kept = 0;
	for (i = 0; i < n; i++)
		e->nodes[v[i]].kept = 1;
}

/* Every profile of the store, by time then id. */
static int
every_profile(struct tr_db *db, int64_t **ids, size_t *n,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	*ids = NULL;
	*n = 0;
	if ((st = tr_db_prepare(db, "SELECT id FROM profile ORDER BY "
	    "coalesce(ts, 0), id", err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = tr_xrealloc(*ids, (*n + 1) * sizeof **ids);
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		return (tr_db_error(db, err, "cannot read profiles"));
	}
	return (0);
}

/* Load and resolve a selection (and base) into the engine. */
static int
eng_load(struct eng *e, const struct tr_pprof_sel *sel,
    const struct tr_pprof_sel *base, struct tr_error *err)
{
	struct pinfo	*p = NULL, *pb = NULL, *all = NULL;
	const int64_t	*ids = sel->profile_ids, *bids = NULL;
	int64_t		*every = NULL;
	size_t		 n = sel->nprofile_ids, nb = 0;
	int		 rc = -1;

	if (ids == NULL) {
		if (every_profile(e->db, &every, &n, err) != 0)
			return (-1);
		ids = every;
	}
	if (n == 0) {
		tr_error_set(err, TR_EDATA, "no pprof profile matches the "
		    "selection");
		goto out;
	}
	if (base != NULL) {
		bids = base->profile_ids;
		nb = base->nprofile_ids;
		if (nb == 0) {
			tr_error_set(err, TR_EDATA, "no pprof profile matches "
			    "the base selection");
			goto out;
		}
	}
	e->nprofiles = n;
	if (load_pinfo(e, ids, n, &p, err) != 0 ||
	    load_pinfo(e, bids, nb, &pb, err) != 0)
		goto out;
	/* pprof merges the selection, then the base, and checks both. */
	all = tr_xcalloc(n + nb + 1, sizeof *all);
	memcpy(all, p, n * sizeof *p);
	if (nb > 0)
		memcpy(all + n, pb, nb * sizeof *pb);
	if (pick_type(e, all, n + nb, err) != 0)
		goto out;
	load_start_lines(e, all, n + nb);
	load_drop(e, &p[0]);
	if (load_samples(e, p, n, 0, err) != 0 ||
	    load_samples(e, pb, nb, 1, err) != 0)
		goto out;
	if (e->diff_total > 0)
		e->total = e->diff_total;
	rc = build_groups(e, err);
out:
	free(all);
	pinfo_release(p, n);
	pinfo_release(pb, nb);
	free(every);
	return (rc);
}

int
tr_pprof_top(struct tr_db *db, const struct tr_pprof_sel *sel,
    const struct tr_pprof_sel *base, const struct tr_pprof_opts *o,
    struct tr_pprof_report *rep, struct tr_error *err)
{
	struct eng	 e;
	int32_t		*order = NULL;
	int64_t		 total_value = 0, node_cutoff, edge_cutoff;
	size_t		 i, n = 0, kept;
	int		 rc = -1;

	memset(rep, 0, sizeof *rep);
	if (eng_init(&e, db, o, err) != 0 || eng_load(&e, sel, base, err) != 0)
		goto out;
	rep->total = e.total;
	rep->profiles = e.nprofiles;
	graph_values(&e);
	order = tr_xcalloc(e.nnodes + 1, sizeof *order);
	for (i = 0; i < e.nnodes; i++)
		if (e.nodes[i].flat != 0 || e.nodes[i].cum != 0) {
			order[n++] = (int32_t)i;
			total_value += e.nodes[i].flat;
		}
	node_cutoff = llabs((int64_t)((double)total_value * o->nodefraction));
	edge_cutoff = llabs((int64_t)((double)total_value * o->edgefraction));
	rep->cutoff = node_cutoff;
	if (node_cutoff > 0) {
		for (i = kept = 0; i < n; i++)
			if (llabs(e.nodes[order[i]].cum) >= node_cutoff)
				order[kept++] = order[i];
		if (kept != n) {
			/* pprof rebuilds the graph from the kept nodes. */
			rep->dropped = n - kept;
			n = kept;
			keep_only(&e, order, n);
		}
	}
	rep->nodes = n;
	sort_nodes(&e, order, n);
	if (o->nodecount > 0 && (size_t)o->nodecount < n) {
		n = (size_t)o->nodecount;
		keep_only(&e, order, n);
	}
	graph_edges(&e, edge_cutoff);
	rep->rows = tr_xcalloc(n + 1, sizeof *rep->rows);
	for (i = 0; i < n; i++) {
		const struct node	*nd = &e.nodes[order[i]];

		rep->rows[i].name = tr_xstrdup(nd->printable);
		rep->rows[i].inl = nd->in_inline ? (nd->in_noinline ?
		    "partial-inline" : "inline") : "";
		rep->rows[i].flat = nd->flat;
		rep->rows[i].cum = nd->cum;
		rep->shown += nd->flat;
	}
	rep->n = n;
	rep->sample_type = e.sample_type;
	rep->unit = e.unit;
	e.sample_type = e.unit = NULL;
	rc = 0;
out:
	free(order);
	eng_release(&e);
	if (rc != 0)
		tr_pprof_report_release(rep);
	return (rc);
}

void
tr_pprof_report_release(struct tr_pprof_report *rep)
{
	size_t	i;

	for (i = 0; i < rep->n; i++)
		free(rep->rows[i].name);
	free(rep->rows);
	free(rep->sample_type);
	free(rep->unit);
	memset(rep, 0, sizeof *rep);
}

static int
cmp_stacks(const void *a, const void *b)
{
	const struct tr_pprof_stack	*l = a, *r = b;
	int64_t				 ld = l->value - l->base;
	int64_t				 rd = r->value - r->base;

	if (ld != rd)
		return (ld > rd ? -1 : 1);
	return (strcmp(l->stack, r->stack));
}

int
tr_pprof_stacks(struct tr_db *db, const struct tr_pprof_sel *sel,
    const struct tr_pprof_sel *base, const struct tr_pprof_opts *o,
    struct tr_pprof_stack **out, size_t *nout, char **sample_type,
    char **unit, struct tr_error *err)
{
	struct eng		 e;
	struct tr_pprof_stack	*s = NULL;
	struct tr_map		*idx = tr_map_new();
	struct tr_buf		 key;
	int64_t			 si;
	size_t			 n = 0, cap = 0, i, j;
	int			 rc = -1;

	*out = NULL;
	*nout = 0;
	*sample_type = *unit = NULL;
	tr_buf_init(&key);
	if (eng_init(&e, db, o, err) != 0 || eng_load(&e, sel, base, err) != 0)
		goto out;
	for (i = 0; i < e.ngroups; i++) {
		const struct group	*g = &e.groups[i];

		if (!g->keep || !g->nonzero)
			continue;
		tr_buf_reset(&key);
		for (j = 0; j < g->n; j++) {
			if (j > 0)
				tr_buf_addc(&key, ';');
			tr_buf_adds(&key, e.nodes[g->nodes[j]].printable);
		}
		if (!tr_map_get(idx, key.data, key.len, &si)) {
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				s = tr_xrealloc(s, cap * sizeof *s);
			}
			si = (int64_t)n++;
			s[si].stack = tr_xstrdup(key.data);
			s[si].base = s[si].value = 0;
			tr_map_put(idx, key.data, key.len, si);
		}
		s[si].base -= g->wbase;
		s[si].value += g->w - g->wbase;
	}
	if (n > 0)
		qsort(s, n, sizeof *s, cmp_stacks);
	*out = s;
	*nout = n;
	*sample_type = e.sample_type;
	*unit = e.unit;
	e.sample_type = e.unit = NULL;
	s = NULL;
	rc = 0;
out:
	tr_pprof_stacks_free(s, n);
	tr_map_free(idx);
	tr_buf_release(&key);
	eng_release(&e);
	return (rc);
}

void
tr_pprof_stacks_free(struct tr_pprof_stack *s, size_t n)
{
	size_t	i;

	for (i = 0; s != NULL && i < n; i++)
		free(s[i].stack);
	free(s);
}

/* --- arguments ------------------------------------------------------------ */

#define PPROF_SEL	(TR_SEL_SOURCE | TR_SEL_TYPE | TR_SEL_EVENT | \
	TR_SEL_TIME | TR_SEL_LABEL | TR_SEL_PROFILE | TR_SEL_SNAP)

void
tr_pprof_args_init(struct tr_pprof_args *a, const char *name, int flags)
{
	struct tr_pprof_opts	*o = &a->opts;
	struct tr_arg		 t[] = {
		{ "granularity", 0, TR_ARG_STRING, &a->gran, 0, 0, "G",
		  "functions (default), filefunctions, lines, files\n"
		  "or addresses", 0, 0 },
		{ "focus", 0, TR_ARG_STRING, &o->focus, 0, 0, "RE",
		  "only stacks through a function matching RE", 0, 0 },
		{ "ignore", 0, TR_ARG_STRING, &o->ignore, 0, 0, "RE",
		  "drop stacks through a function matching RE", 0, 0 },
		{ "nodecount", 0, TR_ARG_INT, &o->nodecount, 0, 9.3e18, "N",
		  "at most N rows (default: all above the cutoff)", 0, 0 },
		{ "nodefraction", 0, TR_ARG_REAL, &o->nodefraction, 0, 1, "F",
		  "hide nodes below F of the total (default 0.005)", 0, 0 },
		{ "edgefraction", 0, TR_ARG_REAL, &o->edgefraction, 0, 1, "F",
		  "hide edges below F of the total (default 0.001)", 0, 0 },
		{ "cum", 0, TR_ARG_FLAG, &o->cum, 0, 0, NULL,
		  "sort by cumulative value", 0, 0 },
		{ "stacks", 0, TR_ARG_FLAG, &a->stacks, 0, 0, NULL,
		  "compare whole stacks instead of functions", 0, 0 },
		{ "series", 0, TR_ARG_FLAG, &a->series, 0, 0, NULL,
		  "compare each profile with the one before it", 0, 0 },
		{ NULL, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	size_t			 n = sizeof t / sizeof t[0];

	memset(a, 0, sizeof *a);
	tr_pprof_opts_init(&a->opts);
	tr_sel_init(&a->sel, PPROF_SEL);
	if (!(flags & TR_PPROF_ARGS_DIFF)) {
		/* No --stacks and --series: end the table before them. */
		t[n - 3] = t[n - 1];
		n -= 2;
	}
	a->table = tr_xcalloc(n, sizeof *a->table);
	memcpy(a->table, t, n * sizeof *t);
	a->args.name = name;
	a->args.args = a->table;
	a->args.sel = &a->sel;
	if (flags & TR_PPROF_ARGS_DIFF) {
		a->args.synopsis = "[OPTION...] BASE NEW, or --series "
		    "[OPTION...]";
		a->args.about = "What grew from the pprof profiles BASE to "
		    "NEW (go tool pprof -top\n-diff_base=BASE NEW), by "
		    "function or --stacks; BASE and NEW are profile\n"
		    "groups as --profile takes them.  --series compares each "
		    "profile of the\nselection with the one before it.";
		a->args.max_pos = -1;
	} else {
		a->args.synopsis = "[OPTION...]";
		a->args.about = "Top functions by flat and cumulative value "
		    "over the selected pprof\nprofiles, exactly as go tool "
		    "pprof -top prints them.  --sample-index\n(--event) "
		    "chooses the sample type.";
		a->args.max_pos = 0;
	}
}

/* The report options, once parsed (tr_args' check). */
static int
args_check(void *arg, struct tr_error *err)
{
	struct tr_pprof_args	*a = arg;
	int			 i;

	if (a->gran != NULL && tr_pprof_parse_gran(a->gran,
	    &a->opts.gran) != 0)
		return (tr_error_set(err, TR_EUSAGE, "unknown granularity "
		    "'%s'; use functions, filefunctions, lines, files or "
		    "addresses", a->gran));
	a->opts.sample_index = a->sel.event;
	for (i = 0; i < a->sel.nlabels; i++)
		a->opts.labels[i] = a->sel.labels[i];
	a->opts.nlabels = a->sel.nlabels;
	return (0);
}

int
tr_pprof_args_begin(struct tr_pprof_args *a, int argc, char **argv,
    struct tr_db *db, struct tr_error *err)
{
	int	i;

	/*
	 * --gpu N takes the processes seen on GPU N; a pprof profile does
	 * not say which process it sampled, so no sample can be chosen so.
	 */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--gpu") == 0 ||
		    strncmp(argv[i], "--gpu=", 6) == 0)
			return (tr_error_set(err, TR_EUSAGE, "%s: --gpu: pprof "
			    "profiles do not record which process they "
			    "sampled, so the processes seen on a GPU cannot be "
			    "picked out of them; choose profiles with "
			    "--source or --profile (trace-flame --gpu draws "
			    "the perf and Go trace samples of those processes)",
			    a->args.name));
	a->args.check = args_check;
	a->args.check_arg = a;
	return (tr_args_begin(&a->args, argc, argv, db, err));
}

void
tr_pprof_args_release(struct tr_pprof_args *a)
{
	tr_args_release(&a->args);
	tr_sel_release(&a->sel);
	free(a->table);
	memset(a, 0, sizeof *a);
}

void
tr_pprof_sel_init(struct tr_pprof_sel *p)
{
	memset(p, 0, sizeof *p);
}

void
tr_pprof_sel_of(struct tr_pprof_sel *p, const struct tr_sel *s)
{
	p->profile_ids = s->profiles;
	p->nprofile_ids = s->nprofiles;
}
