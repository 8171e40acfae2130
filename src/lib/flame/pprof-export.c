/*
 * The pprof exporter: selected sample rows become one Profile message,
 * packed with protobuf-c, gzipped with zlib and renamed into place.
 *
 * pprof samples keep all their values: the importer stores the k values
 * of a sample as k consecutive rows, so a row's place in its sample is
 * (id - first id of its profile) mod k.
 */
#include "config.h"
#include "flame/pprof-export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

#include "profile.pb-c.h"
#include "base/util.h"

typedef Perftools__Profiles__Profile	PProfile;
typedef Perftools__Profiles__Sample	PSample;
typedef Perftools__Profiles__Location	PLocation;
typedef Perftools__Profiles__Line	PLine;
typedef Perftools__Profiles__Function	PFunction;
typedef Perftools__Profiles__Mapping	PMapping;
typedef Perftools__Profiles__Label	PLabel;
typedef Perftools__Profiles__ValueType	PValueType;

/* A growable array of pointers. */
struct vec {
	void	**v;
	size_t	  n, cap;
};

static void
vec_push(struct vec *a, void *p)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->v = tr_xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = p;
}

/* What a profile of the selection contributes. */
struct eprof {
	int64_t		 id, source_id;
	int64_t		 first;		/* first sample row id */
	json_t		*types, *meta;
	int64_t		 ts, dur, period;
	char		*period_type, *period_unit, *dflt;
};

struct exp {
	struct tr_db		*db;
	struct tr_error		*err;
	PProfile		 pb;
	struct tr_map		*strs;
	struct vec		 strv;
	struct tr_map		*funcs, *maps, *locs, *frames_seen;
	struct vec		 funcv, mapv, locv, samplev, labelv;
	struct tr_map		*cs_idx;	/* callsite id -> chain */
	struct vec		 chains;	/* struct chain */
	struct tr_map		*label_idx;
	struct vec		 labelsets;
	sqlite3_stmt		*st_cs, *st_frame;
	struct eprof		*profs;
	size_t			 nprofs;
	struct tr_map		*prof_idx;
	struct tr_buf		 buf;
	int			 multi;		/* all pprof values */
	int			 perf;		/* add samples/count */
	size_t			 ntypes;
	int			 in_txn;	/* we began one */
	/* Store ns to wall ns, when the store knows its wall clock. */
	int			 has_wall;
	int64_t			 wall_offset;
	sqlite3_stmt		*st_clock;
};

struct chain {
	uint64_t	*ids;
	size_t		 n;
};

struct labelset {
	PLabel		**l;
	size_t		  n;
};

static int64_t
str_id(struct exp *e, const char *s)
{
	int64_t	id;
	size_t	n = strlen(s);

	if (tr_map_get(e->strs, s, n, &id))
		return (id);
	id = (int64_t)e->strv.n;
	vec_push(&e->strv, tr_xstrdup(s));
	tr_map_put(e->strs, s, n, id);
	return (id);
}

static const char *
or_empty(const char *s)
{
	return (s ? s : "");
}

static const char *
col(sqlite3_stmt *st, int i)
{
	const char	*s = (const char *)sqlite3_column_text(st, i);

	return (s ? s : "");
}

/* The mapping for a module: the first profile's record of it, if any. */
static uint64_t
mapping_id(struct exp *e, const char *module)
{
	PMapping	*m;
	json_t		*ms, *j;
	int64_t		 id;
	size_t		 i, k;

	if (*module == '\0')
		return (0);
	if (tr_map_get(e->maps, module, strlen(module), &id))
		return ((uint64_t)id);
	m = tr_xmalloc(sizeof *m);
	perftools__profiles__mapping__init(m);
	m->id = e->mapv.n + 1;
	m->filename = str_id(e, module);
	m->has_functions = 1;
	for (i = 0; i < e->nprofs; i++) {
		ms = json_object_get(e->profs[i].meta, "mappings");
		json_array_foreach(ms, k, j) {
			const char *f = json_string_value(json_object_get(j,
			    "file"));

			if (f == NULL || strcmp(f, module) != 0)
				continue;
			m->memory_start = (uint64_t)json_integer_value(
			    json_object_get(j, "start"));
			m->memory_limit = (uint64_t)json_integer_value(
			    json_object_get(j, "limit"));
			m->file_offset = (uint64_t)json_integer_value(
			    json_object_get(j, "offset"));
			m->build_id = str_id(e, or_empty(json_string_value(
			    json_object_get(j, "build_id"))));
			m->has_functions = json_is_true(json_object_get(j,
			    "has_functions"));
			m->has_filenames = json_is_true(json_object_get(j,
			    "has_filenames"));
			m->has_line_numbers = json_is_true(json_object_get(j,
			    "has_line_numbers"));
			m->has_inline_frames = json_is_true(json_object_get(j,
			    "has_inline_frames"));
			goto found;
		}
	}
found:
	vec_push(&e->mapv, m);
	tr_map_put(e->maps, module, strlen(module), (int64_t)m->id);
	return (m->id);
}

/* System name and start line the profiles recorded for a function. */
static void
function_extra(struct exp *e, const char *name, const char *file,
    const char **sys, int64_t *start)
{
	json_t	*fs, *f;
	size_t	 i, k;

	*sys = name;
	*start = 0;
	for (i = 0; i < e->nprofs; i++) {
		fs = json_object_get(e->profs[i].meta, "functions");
		json_array_foreach(fs, k, f) {
			const char *n = json_string_value(json_object_get(f,
			    "name"));
			const char *fl = json_string_value(json_object_get(f,
			    "file"));

			if (n && fl && strcmp(n, name) == 0 &&
			    strcmp(fl, file) == 0) {
				*sys = json_string_value(json_object_get(f,
				    "system_name"));
				if (*sys == NULL)
					*sys = name;
				*start = json_integer_value(json_object_get(f,
				    "start_line"));
				return;
			}
		}
	}
}

static uint64_t
function_id(struct exp *e, const char *name, const char *file)
{
	PFunction	*f;
	const char	*sys;
	int64_t		 id, start;

	tr_buf_reset(&e->buf);
	tr_buf_adds(&e->buf, name);
	tr_buf_addc(&e->buf, '\0');
	tr_buf_adds(&e->buf, file);
	if (tr_map_get(e->funcs, e->buf.data, e->buf.len, &id))
		return ((uint64_t)id);
	tr_map_put(e->funcs, e->buf.data, e->buf.len,
	    (int64_t)e->funcv.n + 1);
	f = tr_xmalloc(sizeof *f);
	perftools__profiles__function__init(f);
	f->id = e->funcv.n + 1;
	function_extra(e, name, file, &sys, &start);
	f->name = str_id(e, name);
	f->system_name = str_id(e, sys);
	f->filename = str_id(e, file);
	f->start_line = start;
	vec_push(&e->funcv, f);
	return (f->id);
}

struct xframe {
	int64_t		 id;
	char		*name, *module, *file;
	int64_t		 line;
	uint64_t	 addr;
	int		 inlined;
};

static void
xframe_release(struct xframe *f)
{
	free(f->name);
	free(f->module);
	free(f->file);
}

static int
load_frame(struct exp *e, int64_t id, struct xframe *f)
{
	memset(f, 0, sizeof *f);
	sqlite3_bind_int64(e->st_frame, 1, id);
	if (sqlite3_step(e->st_frame) != SQLITE_ROW) {
		sqlite3_reset(e->st_frame);
		return (tr_error_set(e->err, TR_EDB, "frame %" PRId64 " is "
		    "missing from the store", id));
	}
	f->id = id;
	f->name = tr_xstrdup(col(e->st_frame, 0));
	f->module = tr_xstrdup(col(e->st_frame, 1));
	f->file = tr_xstrdup(col(e->st_frame, 2));
	f->line = sqlite3_column_int64(e->st_frame, 3);
	f->addr = (uint64_t)sqlite3_column_int64(e->st_frame, 4);
	f->inlined = sqlite3_column_int(e->st_frame, 5);
	sqlite3_reset(e->st_frame);
	return (0);
}

/* The location of frames fr[0..n) (root first: outer line first). */
static uint64_t
location_id(struct exp *e, const struct xframe *fr, size_t n)
{
	PLocation	*l;
	int64_t		 id;
	size_t		 i;

	tr_buf_reset(&e->buf);
	for (i = 0; i < n; i++)
		tr_buf_add(&e->buf, &fr[i].id, sizeof fr[i].id);
	if (tr_map_get(e->locs, e->buf.data, e->buf.len, &id))
		return ((uint64_t)id);
	tr_map_put(e->locs, e->buf.data, e->buf.len, (int64_t)e->locv.n + 1);
	l = tr_xmalloc(sizeof *l);
	perftools__profiles__location__init(l);
	l->id = e->locv.n + 1;
	vec_push(&e->locv, l);
	l->address = fr[0].addr;
	l->mapping_id = mapping_id(e, fr[0].module);
	/* "[unknown]" with no file or line: a location without lines. */
	if (n == 1 && strcmp(fr[0].name, "[unknown]") == 0 &&
	    *fr[0].file == '\0' && fr[0].line == 0)
		return (l->id);
	l->n_line = n;
	l->line = tr_xcalloc(n, sizeof *l->line);
	for (i = 0; i < n; i++) {
		const struct xframe	*f = &fr[n - 1 - i];
		PLine			*ln = tr_xmalloc(sizeof *ln);

		perftools__profiles__line__init(ln);
		ln->function_id = function_id(e, f->name, f->file);
		ln->line = f->line;
		l->line[i] = ln;
	}
	return (l->id);
}

/* The location ids of call site 'cs', leaf first (pprof's order). */
static struct chain *
chain_of(struct exp *e, int64_t cs)
{
	struct chain	*c;
	struct xframe	*fr = NULL;
	int64_t		 idx, id, fid;
	size_t		 n = 0, cap = 0, i, j, nloc = 0;

	if (tr_map_get(e->cs_idx, &cs, sizeof cs, &idx))
		return (e->chains.v[idx]);
	for (id = cs; id > 0; ) {
		sqlite3_bind_int64(e->st_cs, 1, id);
		if (sqlite3_step(e->st_cs) != SQLITE_ROW) {
			sqlite3_reset(e->st_cs);
			tr_error_set(e->err, TR_EDB, "call site %" PRId64
			    " is missing from the store", id);
			goto fail;
		}
		id = sqlite3_column_int64(e->st_cs, 0);
		fid = sqlite3_column_int64(e->st_cs, 1);
		sqlite3_reset(e->st_cs);
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			fr = tr_xrealloc(fr, cap * sizeof *fr);
		}
		if (load_frame(e, fid, &fr[n]) != 0)
			goto fail;
		n++;
	}
	/* fr[] is leaf first; reverse it to root first. */
	for (i = 0; i < n / 2; i++) {
		struct xframe	t = fr[i];

		fr[i] = fr[n - 1 - i];
		fr[n - 1 - i] = t;
	}
	c = tr_xcalloc(1, sizeof *c);
	c->ids = tr_xcalloc(n + 1, sizeof *c->ids);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && fr[j].inlined &&
		    fr[j].addr == fr[i].addr &&
		    strcmp(fr[j].module, fr[i].module) == 0; j++)
			;
		c->ids[nloc++] = location_id(e, fr + i, j - i);
	}
	/* Leaf first. */
	for (i = 0; i < nloc / 2; i++) {
		uint64_t	t = c->ids[i];

		c->ids[i] = c->ids[nloc - 1 - i];
		c->ids[nloc - 1 - i] = t;
	}
	c->n = nloc;
	for (i = 0; i < n; i++)
		xframe_release(&fr[i]);
	free(fr);
	tr_map_put(e->cs_idx, &cs, sizeof cs, (int64_t)e->chains.n);
	vec_push(&e->chains, c);
	return (c);
fail:
	for (i = 0; i < n; i++)
		xframe_release(&fr[i]);
	free(fr);
	return (NULL);
}

static void
add_label(struct exp *e, struct labelset *ls, const char *key, json_t *v,
    json_t *units)
{
	PLabel		*l;
	const char	*u;

	l = tr_xmalloc(sizeof *l);
	perftools__profiles__label__init(l);
	l->key = str_id(e, key);
	if (json_is_string(v))
		l->str = str_id(e, json_string_value(v));
	else {
		l->num = json_integer_value(v);
		if ((u = json_string_value(json_object_get(units, key))) !=
		    NULL)
			l->num_unit = str_id(e, u);
	}
	ls->l = tr_xrealloc(ls->l, (ls->n + 1) * sizeof *ls->l);
	ls->l[ls->n++] = l;
	vec_push(&e->labelv, l);
}

/* The labels of a JSON object, shared between samples with the same. */
static struct labelset *
labels_of(struct exp *e, const char *text, json_t *units)
{
	struct labelset	*ls;
	json_t		*obj, *v, *x;
	const char	*key;
	int64_t		 idx;
	size_t		 i;

	if (text == NULL)
		return (NULL);
	if (tr_map_get(e->label_idx, text, strlen(text), &idx))
		return (e->labelsets.v[idx]);
	ls = tr_xcalloc(1, sizeof *ls);
	obj = json_loads(text, 0, NULL);
	json_object_foreach(obj, key, v) {
		if (json_is_array(v)) {
			json_array_foreach(v, i, x)
				add_label(e, ls, key, x, units);
		} else
			add_label(e, ls, key, v, units);
	}
	json_decref(obj);
	tr_map_put(e->label_idx, text, strlen(text), (int64_t)e->labelsets.n);
	vec_push(&e->labelsets, ls);
	return (ls);
}

static struct eprof *
prof_of(struct exp *e, int64_t id)
{
	int64_t	idx;

	return (tr_map_get(e->prof_idx, &id, sizeof id, &idx) ?
	    &e->profs[idx] : NULL);
}

static char *
dup_or_null(sqlite3_stmt *st, int i)
{
	const char	*s = (const char *)sqlite3_column_text(st, i);

	return (s && *s ? tr_xstrdup(s) : NULL);
}

/* The pprof profiles the selection touches, with their facts. */
static int
load_profiles(struct exp *e, const struct tr_sel *sel,
    const struct tr_flame_pick *pick, struct tr_error *err)
{
	sqlite3_stmt	*st, *q;
	struct eprof	*p;
	const char	*t;
	int		 rc;
	size_t		 cap = 0;

	st = tr_flame_sel_prepare(e->db, sel, pick, "DISTINCT s.profile_id",
	    " AND s.profile_id IS NOT NULL ORDER BY s.profile_id", err);
	if (st == NULL)
		return (-1);
	if ((q = tr_db_prepare(e->db, "SELECT source_id, sample_types, meta, "
	    "ts, dur, period, period_type, period_unit, default_type, "
	    "(SELECT min(s.id) FROM sample s WHERE s.source_id = "
	    "profile.source_id AND s.profile_id = profile.id) FROM profile "
	    "WHERE id = ?1", err)) == NULL) {
		sqlite3_finalize(st);
		return (-1);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (e->nprofs == cap) {
			cap = cap ? cap * 2 : 16;
			e->profs = tr_xrealloc(e->profs,
			    cap * sizeof *e->profs);
		}
		p = &e->profs[e->nprofs];
		memset(p, 0, sizeof *p);
		p->id = sqlite3_column_int64(st, 0);
		sqlite3_bind_int64(q, 1, p->id);
		if (sqlite3_step(q) != SQLITE_ROW) {
			sqlite3_reset(q);
			continue;
		}
		p->source_id = sqlite3_column_int64(q, 0);
		t = col(q, 1);
		p->types = json_loads(*t ? t : "[]", 0, NULL);
		t = col(q, 2);
		p->meta = json_loads(*t ? t : "{}", 0, NULL);
		p->ts = sqlite3_column_int64(q, 3);
		p->dur = sqlite3_column_int64(q, 4);
		p->period = sqlite3_column_int64(q, 5);
		p->period_type = dup_or_null(q, 6);
		p->period_unit = dup_or_null(q, 7);
		p->dflt = dup_or_null(q, 8);
		p->first = sqlite3_column_int64(q, 9);
		sqlite3_reset(q);
		tr_map_put(e->prof_idx, &p->id, sizeof p->id,
		    (int64_t)e->nprofs);
		e->nprofs++;
	}
	sqlite3_finalize(q);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(e->db, err, "cannot read samples"));
	return (0);
}

static const char *
ptype(const struct eprof *p, size_t i, const char *field)
{
	return (or_empty(json_string_value(json_object_get(
	    json_array_get(p->types, i), field))));
}

/* Do all profiles have the first one's sample types? */
static int
same_types(struct exp *e)
{
	size_t	i, j, n = json_array_size(e->profs[0].types);

	for (i = 1; i < e->nprofs; i++) {
		if (json_array_size(e->profs[i].types) != n)
			return (0);
		for (j = 0; j < n; j++)
			if (strcmp(ptype(&e->profs[0], j, "type"),
			    ptype(&e->profs[i], j, "type")) != 0 ||
			    strcmp(ptype(&e->profs[0], j, "unit"),
			    ptype(&e->profs[i], j, "unit")) != 0)
				return (0);
	}
	return (1);
}

static PValueType *
value_type(struct exp *e, const char *type, const char *unit)
{
	PValueType	*v = tr_xmalloc(sizeof *v);

	perftools__profiles__value_type__init(v);
	v->type = str_id(e, type);
	v->unit = str_id(e, unit);
	return (v);
}

/* The unit of a non-pprof event's values, as perf counts them. */
static const char *
event_unit(const char *ev)
{
	size_t	n = strcspn(ev, ":");	/* "cpu-clock:ppp" */

	if ((n == 9 && strncmp(ev, "cpu-clock", 9) == 0) ||
	    (n == 10 && strncmp(ev, "task-clock", 10) == 0))
		return ("nanoseconds");
	return ("count");
}

/*
 * Wall-clock ns of store time 'ts' of source 'id': a wall-clock source
 * was moved by its clock offset; others go by the store's wall clock.
 * Returns 0 when not known.
 */
static int
wall_of(struct exp *e, int64_t id, int64_t ts, int64_t *wall)
{
	sqlite3_stmt	*st = e->st_clock;
	int		 ok = 0;

	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    strcmp(col(st, 0), "wall") == 0) {
		*wall = ts - sqlite3_column_int64(st, 1);
		ok = 1;
	} else if (e->has_wall) {
		*wall = ts + e->wall_offset;
		ok = 1;
	}
	sqlite3_reset(st);
	return (ok);
}

/*
 * Header fields, as pprof's combineHeaders() merges profiles: earliest
 * time (on the wall clock, as pprof writes it), summed durations,
 * largest period, the first period type, default sample type, drop and
 * keep frames, and every distinct comment.
 */
static void
fill_header(struct exp *e)
{
	PProfile	*pb = &e->pb;
	json_t		*cs, *c;
	struct tr_map	*seen = tr_map_new();
	int64_t		 v, wall;
	size_t		 i, k;
	const char	*s;

	for (i = 0; i < e->nprofs; i++) {
		const struct eprof	*p = &e->profs[i];

		if (p->ts != 0 && wall_of(e, p->source_id, p->ts, &wall) &&
		    wall > 0 && (pb->time_nanos == 0 ||
		    wall < pb->time_nanos))
			pb->time_nanos = wall;
		pb->duration_nanos += p->dur;
		if (p->period > pb->period)
			pb->period = p->period;
		if (pb->default_sample_type == 0 && p->dflt != NULL)
			pb->default_sample_type = str_id(e, p->dflt);
		cs = json_object_get(p->meta, "comments");
		json_array_foreach(cs, k, c) {
			s = json_string_value(c);
			if (s == NULL || tr_map_get(seen, s, strlen(s), &v))
				continue;
			tr_map_put(seen, s, strlen(s), 1);
			pb->comment = tr_xrealloc(pb->comment,
			    (pb->n_comment + 1) * sizeof *pb->comment);
			pb->comment[pb->n_comment++] = str_id(e, s);
		}
	}
	tr_map_free(seen);
	if (e->nprofs > 0) {
		const struct eprof	*p = &e->profs[0];

		if (p->period_type != NULL)
			pb->period_type = value_type(e, p->period_type,
			    p->period_unit ? p->period_unit : "");
		if ((s = json_string_value(json_object_get(p->meta,
		    "drop_frames"))) != NULL)
			pb->drop_frames = str_id(e, s);
		if ((s = json_string_value(json_object_get(p->meta,
		    "keep_frames"))) != NULL)
			pb->keep_frames = str_id(e, s);
	}
}

static PSample *
new_sample(struct exp *e, struct chain *c, struct labelset *ls)
{
	PSample	*s = tr_xmalloc(sizeof *s);

	perftools__profiles__sample__init(s);
	s->n_location_id = c->n;
	s->location_id = c->ids;	/* shared with the chain */
	s->n_value = e->ntypes;
	s->value = tr_xcalloc(e->ntypes, sizeof *s->value);
	if (ls != NULL) {
		s->n_label = ls->n;
		s->label = ls->l;	/* shared with the label set */
	}
	vec_push(&e->samplev, s);
	return (s);
}

/* Read the rows and build the samples. */
/*
 * The period of samples that are not pprof's (perf, a Go trace's CPU
 * samples): the event's value of most samples, which is the sampling
 * period perf recorded each with (cpu-clock at -F 499: 2004008 ns; one
 * for a Go trace's CPU samples, which count); the smallest on a tie.
 */
static int64_t
common_value(const struct exp *e)
{
	struct tr_imap	 n;
	int64_t		 best = 0, v;
	uintptr_t	 c, bestc = 0;
	size_t		 i;

	tr_imap_init(&n);
	for (i = 0; i < e->samplev.n; i++) {
		const PSample	*sm = e->samplev.v[i];

		v = sm->value[sm->n_value - 1];
		c = (uintptr_t)tr_imap_get(&n, (uint64_t)v) + 1;
		tr_imap_put(&n, (uint64_t)v, (void *)c);
		if (c > bestc || (c == bestc && v < best)) {
			best = v;
			bestc = c;
		}
	}
	tr_imap_release(&n);
	return (best);
}

static int
build(struct exp *e, const struct tr_sel *sel,
    const struct tr_flame_pick *pick, struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct eprof	*p, *lastp = NULL;
	struct chain	*c;
	struct labelset	*ls;
	PSample		*cur = NULL;
	int64_t		 pid, id, slot, lastslot = -1, v, cs;
	int		 rc;
	size_t		 pos;

	st = tr_flame_sel_prepare(e->db, sel, pick, "s.id, s.profile_id, "
	    "s.callsite_id, s.value, s.labels", " ORDER BY s.id", err);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		pid = sqlite3_column_int64(st, 1);
		cs = sqlite3_column_int64(st, 2);
		v = sqlite3_column_int64(st, 3);
		p = pid > 0 ? prof_of(e, pid) : NULL;
		if ((c = chain_of(e, cs)) == NULL) {
			sqlite3_finalize(st);
			return (-1);
		}
		ls = labels_of(e, (const char *)sqlite3_column_text(st, 4),
		    p ? json_object_get(p->meta, "units") : NULL);
		if (e->multi) {
			slot = (id - p->first) / (int64_t)e->ntypes;
			pos = (size_t)((id - p->first) % (int64_t)e->ntypes);
			if (cur == NULL || p != lastp || slot != lastslot)
				cur = new_sample(e, c, ls);
			cur->value[pos] = v;
			lastp = p;
			lastslot = slot;
		} else {
			cur = new_sample(e, c, ls);
			if (e->perf) {
				cur->value[0] = 1;
				cur->value[1] = v;
			} else
				cur->value[0] = v;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(e->db, err, "cannot read samples"));
	return (0);
}

/* The events of the selection: their ids and names. */
static int
events_of(struct exp *e, const struct tr_sel *sel, int64_t **ids,
    char ***names, size_t *n, int *nonpprof, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	*ids = NULL;
	*names = NULL;
	*n = 0;
	*nonpprof = 0;
	st = tr_flame_sel_prepare(e->db, sel, NULL, "s.event_id, (SELECT e.s "
	    "FROM str e WHERE e.id = s.event_id), max(s.profile_id IS NULL)",
	    " GROUP BY s.event_id ORDER BY min(s.id)", err);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = tr_xrealloc(*ids, (*n + 1) * sizeof **ids);
		*names = tr_xrealloc(*names, (*n + 1) * sizeof **names);
		(*ids)[*n] = sqlite3_column_int64(st, 0);
		(*names)[*n] = tr_xstrdup(col(st, 1));
		if (sqlite3_column_int(st, 2))
			*nonpprof = 1;
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(e->db, err, "cannot read samples"));
	return (0);
}

/*
 * Samples with times (perf): the profile starts at the first, on the
 * wall clock when the store knows it, and lasts to the last.
 */
static int
sample_span(struct exp *e, const struct tr_sel *sel,
    const struct tr_flame_pick *pick, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 lo, hi, wall;

	if ((st = tr_flame_sel_prepare(e->db, sel, pick, "min(s.ts), "
	    "max(s.ts), min(s.source_id)", " AND s.ts IS NOT NULL", err)) ==
	    NULL)
		return (-1);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL) {
		lo = sqlite3_column_int64(st, 0);
		hi = sqlite3_column_int64(st, 1);
		if (e->pb.time_nanos == 0 && wall_of(e,
		    sqlite3_column_int64(st, 2), lo, &wall) && wall > 0)
			e->pb.time_nanos = wall;
		if (e->pb.duration_nanos == 0)
			e->pb.duration_nanos = hi - lo;
	}
	sqlite3_finalize(st);
	return (0);
}

static int
write_all(int fd, const void *p, size_t n)
{
	const char	*c = p;
	ssize_t		 w;

	while (n > 0) {
		if ((w = write(fd, c, n)) < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		c += w;
		n -= (size_t)w;
	}
	return (0);
}

/* gzip 'len' bytes at 'buf' into 'fd'. */
static int
gzip_to(int fd, const unsigned char *buf, size_t len)
{
	z_stream	zs;
	unsigned char	out[65536];
	int		rc;

	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return (-1);
	zs.next_in = (unsigned char *)buf;
	zs.avail_in = 0;
	do {
		if (zs.avail_in == 0 && len > 0) {
			zs.avail_in = len > (1u << 30) ? (1u << 30) :
			    (unsigned)len;
			len -= zs.avail_in;
		}
		zs.next_out = out;
		zs.avail_out = sizeof out;
		rc = deflate(&zs, len == 0 && zs.avail_in == 0 ? Z_FINISH :
		    Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR || write_all(fd, out,
		    sizeof out - zs.avail_out) != 0) {
			deflateEnd(&zs);
			return (-1);
		}
	} while (rc != Z_STREAM_END);
	deflateEnd(&zs);
	return (0);
}

static int
write_file(const char *path, const unsigned char *buf, size_t len,
    struct tr_error *err)
{
	char	*tmp;
	mode_t	 mask;
	int	 fd;

	if (strcmp(path, "-") == 0) {
		if (gzip_to(STDOUT_FILENO, buf, len) != 0)
			return (tr_error_set(err, TR_EIO, "cannot write the "
			    "profile to standard output: %s", strerror(errno)));
		return (0);
	}
	tmp = tr_xasprintf("%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		tr_error_set_line(err, TR_EIO, path, 0, 0, "cannot create: %s",
		    strerror(errno));
		free(tmp);
		return (-1);
	}
	/* mkstemp() makes it 0600; give it the mode a new file gets. */
	mask = umask(0);
	umask(mask);
	if (gzip_to(fd, buf, len) != 0 || fchmod(fd, 0666 & ~mask) != 0) {
		tr_error_set_line(err, TR_EIO, path, 0, 0, "cannot write: %s",
		    strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return (-1);
	}
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		tr_error_set_line(err, TR_EIO, path, 0, 0, "cannot write: %s",
		    strerror(errno));
		unlink(tmp);
		free(tmp);
		return (-1);
	}
	free(tmp);
	return (0);
}

static void
exp_release(struct exp *e)
{
	size_t	i, j;

	for (i = 0; i < e->strv.n; i++)
		free(e->strv.v[i]);
	free(e->strv.v);
	for (i = 0; i < e->funcv.n; i++)
		free(e->funcv.v[i]);
	free(e->funcv.v);
	for (i = 0; i < e->mapv.n; i++)
		free(e->mapv.v[i]);
	free(e->mapv.v);
	for (i = 0; i < e->locv.n; i++) {
		PLocation	*l = e->locv.v[i];

		for (j = 0; j < l->n_line; j++)
			free(l->line[j]);
		free(l->line);
		free(l);
	}
	free(e->locv.v);
	for (i = 0; i < e->samplev.n; i++) {
		PSample	*s = e->samplev.v[i];

		free(s->value);
		free(s);
	}
	free(e->samplev.v);
	for (i = 0; i < e->labelv.n; i++)
		free(e->labelv.v[i]);
	free(e->labelv.v);
	for (i = 0; i < e->labelsets.n; i++) {
		struct labelset	*ls = e->labelsets.v[i];

		free(ls->l);
		free(ls);
	}
	free(e->labelsets.v);
	for (i = 0; i < e->chains.n; i++) {
		struct chain	*c = e->chains.v[i];

		free(c->ids);
		free(c);
	}
	free(e->chains.v);
	for (i = 0; i < e->pb.n_sample_type; i++)
		free(e->pb.sample_type[i]);
	free(e->pb.sample_type);
	free(e->pb.period_type);
	free(e->pb.comment);
	for (i = 0; i < e->nprofs; i++) {
		json_decref(e->profs[i].types);
		json_decref(e->profs[i].meta);
		free(e->profs[i].period_type);
		free(e->profs[i].period_unit);
		free(e->profs[i].dflt);
	}
	free(e->profs);
	tr_map_free(e->strs);
	tr_map_free(e->funcs);
	tr_map_free(e->maps);
	tr_map_free(e->locs);
	tr_map_free(e->cs_idx);
	tr_map_free(e->label_idx);
	tr_map_free(e->prof_idx);
	sqlite3_finalize(e->st_cs);
	sqlite3_finalize(e->st_frame);
	sqlite3_finalize(e->st_clock);
	tr_db_read_end(e->db, e->in_txn);
	tr_buf_release(&e->buf);
}

int
tr_pprof_export(struct tr_db *db, const struct tr_sel *sel,
    const char *path, struct tr_pprof_export_stats *stats,
    struct tr_error *err)
{
	struct exp		  e;
	struct tr_flame_pick	  pick;
	int64_t			 *evids = NULL;
	char			**evnames = NULL;
	unsigned char		 *buf = NULL;
	size_t			  nev = 0, i, len;
	int			  nonpprof, rc = -1;
	int64_t			  origin;

	memset(stats, 0, sizeof *stats);
	memset(&e, 0, sizeof e);
	memset(&pick, 0, sizeof pick);
	e.db = db;
	e.err = err;
	perftools__profiles__profile__init(&e.pb);
	e.strs = tr_map_new();
	e.funcs = tr_map_new();
	e.maps = tr_map_new();
	e.locs = tr_map_new();
	e.cs_idx = tr_map_new();
	e.label_idx = tr_map_new();
	e.prof_idx = tr_map_new();
	tr_buf_init(&e.buf);
	str_id(&e, "");
	/* One read transaction: no file lock per statement. */
	if (tr_db_read_begin(db, &e.in_txn, err) != 0)
		goto out;
	if ((e.st_cs = tr_db_prepare(db, "SELECT parent_id, frame_id FROM "
	    "callsite WHERE id = ?1", err)) == NULL ||
	    (e.st_frame = tr_db_prepare(db, "SELECT name, module, file, line, "
	    "addr, inlined FROM frame WHERE id = ?1", err)) == NULL ||
	    (e.st_clock = tr_db_prepare(db, "SELECT clock, clock_offset FROM "
	    "source WHERE id = ?1", err)) == NULL ||
	    tr_sel_store_origin(db, &origin, &e.has_wall, &e.wall_offset,
	    err) != 0)
		goto out;

	if (events_of(&e, sel, &evids, &evnames, &nev, &nonpprof, err) != 0)
		goto out;
	if (nev == 0) {
		tr_error_set(err, TR_EDATA, "no samples match the selection");
		goto out;
	}
	if (sel->event == NULL && !nonpprof) {
		/* pprof profiles alone: every sample type they have. */
		if (load_profiles(&e, sel, NULL, err) != 0)
			goto out;
		if (!same_types(&e)) {
			tr_error_set(err, TR_EDATA, "the selected profiles "
			    "have different sample types; select one with "
			    "--sample-index or profiles of one type");
			goto out;
		}
		e.multi = 1;
		e.ntypes = json_array_size(e.profs[0].types);
		e.pb.n_sample_type = e.ntypes;
		e.pb.sample_type = tr_xcalloc(e.ntypes,
		    sizeof *e.pb.sample_type);
		for (i = 0; i < e.ntypes; i++)
			e.pb.sample_type[i] = value_type(&e,
			    ptype(&e.profs[0], i, "type"),
			    ptype(&e.profs[0], i, "unit"));
	} else {
		/*
		 * One event, of the sources whose values of it add up; the
		 * header (period type, times) from those profiles only.
		 */
		if (tr_flame_pick(db, sel, &pick, err) != 0)
			goto out;
		if (load_profiles(&e, sel, &pick, err) != 0)
			goto out;
		e.perf = strcmp(pick.format, "pprof") != 0;
		e.ntypes = e.perf ? 2 : 1;
		e.pb.n_sample_type = e.ntypes;
		e.pb.sample_type = tr_xcalloc(e.ntypes,
		    sizeof *e.pb.sample_type);
		if (e.perf) {
			e.pb.sample_type[0] = value_type(&e, "samples",
			    "count");
			e.pb.sample_type[1] = value_type(&e, pick.event,
			    event_unit(pick.event));
		} else
			e.pb.sample_type[0] = value_type(&e, pick.event,
			    pick.unit);
		stats->note = tr_flame_pick_notes(sel, &pick);
	}
	if (e.multi)
		stats->note = tr_flame_pick_notes(sel, NULL);
	if (build(&e, sel, e.multi ? NULL : &pick, err) != 0)
		goto out;
	fill_header(&e);
	if (e.perf) {
		if (e.pb.period_type == NULL)
			e.pb.period_type = value_type(&e, pick.event,
			    event_unit(pick.event));
		if (e.pb.period == 0)
			e.pb.period = common_value(&e);
		if (sample_span(&e, sel, &pick, err) != 0)
			goto out;
	}
	stats->no_wall = e.pb.time_nanos == 0;

	/* The message borrows the arrays; exp_release() frees them. */
	e.pb.n_sample = e.samplev.n;
	e.pb.sample = (PSample **)e.samplev.v;
	e.pb.n_location = e.locv.n;
	e.pb.location = (PLocation **)e.locv.v;
	e.pb.n_function = e.funcv.n;
	e.pb.function = (PFunction **)e.funcv.v;
	e.pb.n_mapping = e.mapv.n;
	e.pb.mapping = (PMapping **)e.mapv.v;
	e.pb.n_string_table = e.strv.n;
	e.pb.string_table = (char **)e.strv.v;

	len = perftools__profiles__profile__get_packed_size(&e.pb);
	buf = tr_xmalloc(len + 1);
	perftools__profiles__profile__pack(&e.pb, buf);
	if (write_file(path, buf, len, err) != 0)
		goto out;
	stats->samples = (int64_t)e.samplev.n;
	stats->locations = (int64_t)e.locv.n;
	stats->functions = (int64_t)e.funcv.n;
	stats->mappings = (int64_t)e.mapv.n;
	stats->types = (int)e.ntypes;
	stats->profiles = (int64_t)e.nprofs;
	rc = 0;
out:
	if (rc != 0) {
		free(stats->note);
		stats->note = NULL;
	}
	free(buf);
	for (i = 0; i < nev; i++)
		free(evnames[i]);
	free(evnames);
	free(evids);
	tr_flame_pick_release(&pick);
	exp_release(&e);
	return (rc);
}
