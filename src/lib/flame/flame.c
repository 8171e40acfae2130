/*
 * Selecting and folding stacks.  SQL picks the samples; they are summed
 * here per (call site, thread), and each frame is named once, with the
 * rules of FlameGraph's stackcollapse-perf.pl: symbol
 * offsets are already gone at import, unknown symbols show their DSO,
 * arguments and quotes are tidied away, Java class names lose their "L",
 * and kernel, JIT and inlined frames can be annotated.
 */
#include "config.h"
#include "flame/flame.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/derived.h"

void
tr_flame_fold_opts_init(struct tr_flame_fold_opts *o)
{
	memset(o, 0, sizeof *o);
	o->pname = 1;
	o->tidy_java = 1;
	o->tidy_generic = 1;
}

/*
 * One (call site, thread) pair and its summed value; 'thread' becomes the
 * index of the thread's name once the threads are named.
 */
struct agg {
	int64_t	cs, thread, value;
};

struct thread_name {
	char	*pname;		/* root frame, or NULL for none */
	int	 java;		/* stackcollapse tidies Java names */
};

struct line {
	char	*s;
	int64_t	 n;
};

struct fold {
	struct tr_db			*db;
	const struct tr_flame_fold_opts	*o;
	struct tr_error			*err;
	sqlite3_stmt			*thread_st;

	/*
	 * The call site tree, by id: parent and frame; the tree of the
	 * folds' nodes instead when 'folds' (fold_ok()).
	 */
	int64_t		*parent, *frame;
	int64_t		 ncs;
	int		 folds;
	/*
	 * Folded frame names by frame id and Java-ness ("" = skipped),
	 * borrowed from fstr: the distinct names, owned, interned by their
	 * text in fids (a frame per address folds to a few names); fid by
	 * frame is the name's index in fstr + 1.
	 */
	const char	**fname[2];
	uint32_t	*fid[2];
	struct tr_map	*fids;
	char		**fstr;
	size_t		*flen;		/* strlen() of each */
	size_t		 nfstr, capfstr;
	unsigned char	*need;		/* by frame: 1 << java, wanted */
	int64_t		 nneed;		/* frames wanted */
	unsigned char	*walked;	/* by call site: the same, marked */
	int64_t		 nframes;

	struct tr_buf	 buf;
	int64_t		*walk;
	size_t		 nwalk, capwalk;

	/* The samples summed, and the threads' names. */
	struct agg		*ag;
	size_t			 nag;
	int64_t			 maxcs;
	struct thread_name	*tn;
	size_t			 ntn;
};

/* --- frame names ------------------------------------------------------ */

/* stackcollapse's tidy_generic on 'b' from offset 'start'. */
static void
tidy_generic(struct tr_buf *b, size_t start)
{
	char	*s = b->data + start, *p, *q, *go;

	for (p = s; *p != '\0'; p++)
		if (*p == ';')
			*p = ':';
	/*
	 * Cut the arguments at the first '(' that does not open
	 * "(anonymous namespace)", unless this looks like a Go method
	 * ("net/http.(*Client).Do").
	 */
	if ((go = strstr(s, ".(")) == NULL || strstr(go + 2, ").") == NULL)
		for (p = s; (p = strchr(p, '(')) != NULL; p++)
			if (strncmp(p + 1, "anonymous namespace)", 20) != 0) {
				*p = '\0';
				break;
			}
	for (p = q = s; *p != '\0'; p++)
		if (*p != '"' && *p != '\'')
			*q++ = *p;
	*q = '\0';
	b->len = (size_t)(q - b->data);
}

static int
is_jit_map(const char *m)
{
	const char	*p = m, *d;

	/* "/tmp/perf-PID.map" anywhere in the module. */
	while ((p = strstr(p, "/tmp/perf-")) != NULL) {
		p += 10;
		for (d = p; *d >= '0' && *d <= '9'; d++)
			;
		if (d > p && strncmp(d, ".map", 4) == 0)
			return (1);
	}
	return (0);
}

static int
is_kernel(const char *m)
{
	size_t	n = strlen(m);

	return ((m[0] == '[' || (n >= 7 && strcmp(m + n - 7, "vmlinux") ==
	    0)) && strstr(m, "unknown") == NULL);
}

/*
 * The folded name of one frame: "a->b" (inlined, as old perf printed it)
 * gives "a;b_[i]".  Returns a string owned by the caller; "" when the
 * frame is left out.
 */
static char *
name_frame(const struct tr_flame_fold_opts *o, const char *name,
    const char *module, int64_t addr, int java)
{
	struct tr_buf	 b;
	const char	*p, *arrow, *base;
	size_t		 n, start, k;

	/* Trailing empty pieces are dropped, as Perl's split does. */
	n = strlen(name);
	while (n >= 2 && memcmp(name + n - 2, "->", 2) == 0)
		n -= 2;
	/*
	 * perf printed no symbol ("ADDR  (DSO)"): stackcollapse's pattern
	 * takes the blank before the DSO as the name.
	 */
	if (*name == '\0')
		return (tr_xstrdup(" "));
	if (name[0] == '(' || n == 0)
		return (tr_xstrdup(""));
	tr_buf_init(&b);
	for (p = name, k = 0; p <= name + n; k++) {
		arrow = strstr(p, "->");
		if (arrow == NULL || arrow > name + n)
			arrow = name + n;
		if (k > 0)
			tr_buf_addc(&b, ';');
		start = b.len;
		if (arrow - p == 9 && memcmp(p, "[unknown]", 9) == 0) {
			if (module[0] != '\0' &&
			    strcmp(module, "[unknown]") != 0) {
				base = strrchr(module, '/');
				base = base ? base + 1 : module;
			} else
				base = "unknown";
			tr_buf_addc(&b, '[');
			tr_buf_adds(&b, base);
			if (o->addrs)
				tr_buf_printf(&b, " <%llx>",
				    (unsigned long long)addr);
			tr_buf_addc(&b, ']');
		} else
			tr_buf_add(&b, p, (size_t)(arrow - p));
		if (o->tidy_generic)
			tidy_generic(&b, start);
		if (o->tidy_java && java && b.data[start] == 'L' &&
		    strchr(b.data + start, '/') != NULL) {
			memmove(b.data + start, b.data + start + 1,
			    b.len - start);
			b.len--;
		}
		if (k > 0) {
			if (strstr(b.data + start, "_[i]") == NULL)
				tr_buf_adds(&b, "_[i]");
		} else if (o->kernel && is_kernel(module))
			tr_buf_adds(&b, "_[k]");
		else if (o->jit && is_jit_map(module) &&
		    strstr(b.data + start, "_[j]") == NULL)
			tr_buf_adds(&b, "_[j]");
		p = arrow + 2;
	}
	return (b.data);
}

static const char *
frame_name(struct fold *f, int64_t id, int java)
{
	if (id < 1 || id > f->nframes || f->fname[java][id] == NULL) {
		tr_error_set_line(f->err, TR_EDATA, f->db->path, 0, 0,
		    "store is inconsistent: call site names frame %lld, "
		    "which does not exist", (long long)id);
		return (NULL);
	}
	return (f->fname[java][id]);
}

/*
 * Mark the frames under leaf call site 'cs' as needed in their Java or
 * other form (bit 1 << java), stopping at call sites already walked.
 */
static void
need_frames(struct fold *f, int64_t cs, int java)
{
	unsigned char	bit = (unsigned char)(1 << java);

	for (; cs > 0 && cs <= f->ncs && !(f->walked[cs] & bit);
	    cs = f->parent[cs]) {
		f->walked[cs] |= bit;
		if (f->frame[cs] >= 1 && f->frame[cs] <= f->nframes) {
			if (f->need[f->frame[cs]] == 0)
				f->nneed++;
			f->need[f->frame[cs]] |= bit;
		}
	}
}

/* The index in f->fstr of folded name 's' (owned: kept or freed). */
static uint32_t
intern_name(struct fold *f, char *s)
{
	int64_t	v;

	if (tr_map_get(f->fids, s, strlen(s), &v)) {
		free(s);
		return ((uint32_t)v);
	}
	if (f->nfstr == f->capfstr) {
		f->capfstr = f->capfstr ? f->capfstr * 2 : 1024;
		f->fstr = tr_xrealloc(f->fstr, f->capfstr * sizeof *f->fstr);
		f->flen = tr_xrealloc(f->flen, f->capfstr * sizeof *f->flen);
	}
	f->fstr[f->nfstr] = s;
	f->flen[f->nfstr] = strlen(s);
	tr_map_put(f->fids, s, f->flen[f->nfstr], (int64_t)f->nfstr);
	return ((uint32_t)f->nfstr++);
}

/* Name frame 'id' (needed), from the row at 'st'. */
static void
name_row(struct fold *f, sqlite3_stmt *st, int64_t id)
{
	const char	*name, *module;
	uint32_t	 k;
	int		 java;

	name = (const char *)sqlite3_column_text(st, 1);
	module = (const char *)sqlite3_column_text(st, 2);
	for (java = 0; java < 2; java++)
		if (f->need[id] & (1 << java)) {
			k = intern_name(f, name_frame(f->o, name ? name : "",
			    module ? module : "", sqlite3_column_int64(st, 3),
			    java));
			f->fname[java][id] = f->fstr[k];
			f->fid[java][id] = k + 1;
		}
}

/*
 * Name every needed frame: in one pass over the frame table, or, when few
 * of them are needed (a graph from the folds needs the frames that stand
 * for others: 1k of 32k in a perf recording of a Go build), one by one.
 */
static int
name_frames(struct fold *f)
{
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 rc, few = f->nneed < f->nframes / 8;

	/* Name 0 is "": a frame left out. */
	f->fids = tr_map_new();
	intern_name(f, tr_xstrdup(""));
	if ((st = tr_db_prepare(f->db, few ? "SELECT id, name, module, addr "
	    "FROM frame WHERE id = ?1" : "SELECT id, name, module, addr FROM "
	    "frame WHERE id <= ?1", f->err)) == NULL)
		return (-1);
	if (few) {
		rc = SQLITE_DONE;
		for (id = 1; id <= f->nframes && rc == SQLITE_DONE; id++) {
			if (f->need[id] == 0)
				continue;
			sqlite3_bind_int64(st, 1, id);
			if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				name_row(f, st, id);
				rc = SQLITE_DONE;
			}
			sqlite3_reset(st);
		}
	} else {
		sqlite3_bind_int64(st, 1, f->nframes);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			id = sqlite3_column_int64(st, 0);
			if (id >= 1 && id <= f->nframes && f->need[id] != 0)
				name_row(f, st, id);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(f->db, f->err, "cannot read frames"));
	return (0);
}

/* f->walk[i] = v, growing f->walk as needed. */
static void
walk_push(struct fold *f, size_t i, int64_t v)
{
	if (i >= f->capwalk) {
		f->capwalk = f->capwalk ? f->capwalk * 2 : 128;
		f->walk = tr_xrealloc(f->walk, f->capwalk * sizeof *f->walk);
	}
	f->walk[i] = v;
}

/*
 * The folded line of leaf call site 'cs' (0: empty) under root frame
 * 'root' (NULL: none), root first, built in f->buf.  NULL on error.
 */
static const char *
stack_name(struct fold *f, int64_t cs, int java, const char *root)
{
	const char	*s;
	int64_t		 c;
	size_t		 i;

	tr_buf_reset(&f->buf);
	if (root != NULL)
		tr_buf_adds(&f->buf, root);
	if (cs < 0 || cs > f->ncs) {
		tr_error_set_line(f->err, TR_EDATA, f->db->path, 0, 0,
		    "store is inconsistent: sample names call site %lld, "
		    "which does not exist", (long long)cs);
		return (NULL);
	}
	f->nwalk = 0;
	for (c = cs; c != 0; c = f->parent[c]) {
		if (c < 0 || c > f->ncs || f->nwalk > (size_t)f->ncs) {
			tr_error_set_line(f->err, TR_EDATA, f->db->path, 0, 0,
			    "store is inconsistent: call site %lld has a bad "
			    "parent", (long long)cs);
			return (NULL);
		}
		walk_push(f, f->nwalk++, f->frame[c]);
	}
	for (i = f->nwalk; i-- > 0; ) {
		if ((s = frame_name(f, f->walk[i], java)) == NULL)
			return (NULL);
		if (*s == '\0')
			continue;
		if (f->buf.len > 0 || root != NULL)
			tr_buf_addc(&f->buf, ';');
		tr_buf_adds(&f->buf, s);
	}
	return (f->buf.data);
}

/* --- threads ---------------------------------------------------------- */

/*
 * The root frame, as stackcollapse-perf.pl builds it from "COMM PID/TID"
 * or "COMM TID": a missing or zero tid makes the pid "?" and the first
 * number the tid.
 */
static int
name_thread(struct fold *f, int64_t id, struct thread_name *tn)
{
	sqlite3_stmt	*st = f->thread_st;
	const char	*comm;
	char		 pid[32], tid[32], *p;
	int64_t		 a, b;
	int		 rc, has_b;

	memset(tn, 0, sizeof *tn);
	if (id == 0)
		return (0);
	sqlite3_bind_int64(st, 1, id);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		sqlite3_reset(st);
		if (rc == SQLITE_DONE)
			return (0);
		return (tr_db_error(f->db, f->err, "cannot read threads"));
	}
	comm = (const char *)sqlite3_column_text(st, 0);
	if (comm == NULL)
		comm = "";
	tn->java = strncmp(comm, "java", 4) == 0;
	if (sqlite3_column_type(st, 2) != SQLITE_NULL) {
		a = sqlite3_column_int64(st, 2);
		has_b = sqlite3_column_type(st, 1) != SQLITE_NULL;
		b = sqlite3_column_int64(st, 1);
	} else {
		a = sqlite3_column_type(st, 1) != SQLITE_NULL ?
		    sqlite3_column_int64(st, 1) : -1;
		has_b = 0;
		b = 0;
	}
	if (!has_b || b == 0) {
		snprintf(pid, sizeof pid, "?");
		if (a >= 0)
			snprintf(tid, sizeof tid, "%lld", (long long)a);
		else
			snprintf(tid, sizeof tid, "?");
	} else {
		snprintf(pid, sizeof pid, "%lld", (long long)a);
		snprintf(tid, sizeof tid, "%lld", (long long)b);
	}
	if (f->o->tid)
		tn->pname = tr_xasprintf("%s-%s/%s", comm, pid, tid);
	else if (f->o->pid)
		tn->pname = tr_xasprintf("%s-%s", comm, pid);
	else if (f->o->pname)
		tn->pname = tr_xstrdup(comm);
	sqlite3_reset(st);
	if (tn->pname != NULL)
		for (p = tn->pname; *p != '\0'; p++)
			if (*p == ' ')
				*p = '_';
	return (0);
}

/* --- what one graph adds up ------------------------------------------ */

/* The samples of one event of one source, and what their values count. */
struct group {
	int64_t	 source, event, first;
	char	*name, *format, *unit, *key, *dflt;
	int	 cpu;		/* rank as the CPU default: 1 best, 0 none */
};

static void
groups_free(struct group *g, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].format);
		free(g[i].unit);
		free(g[i].key);
		free(g[i].dflt);
	}
	free(g);
}

static const char *
format_name(const char *format)
{
	if (strcmp(format, "perf-script") == 0)
		return ("perf");
	if (strcmp(format, "gotrace") == 0)
		return ("Go trace");
	return (format);
}

/*
 * perf's unit: clocks count nanoseconds, other events themselves.  Every
 * perf event samples the CPU; the first one met is drawn, as
 * stackcollapse-perf.pl does.
 */
static int
perf_rank(const char *ev, char **unit)
{
	size_t	n = strcspn(ev, ":");	/* "cpu-clock:ppp" */

	if ((n == 9 && strncmp(ev, "cpu-clock", 9) == 0) ||
	    (n == 10 && strncmp(ev, "task-clock", 10) == 0))
		*unit = tr_xstrdup("nanoseconds");
	else
		*unit = tr_xstrndup(ev, n);
	return (1);
}

/* Unit, comparability key and CPU rank of a group. */
static int
classify(struct tr_db *db, struct group *g, struct tr_error *err)
{
	sqlite3_stmt	*st;
	const char	*t;
	char		*ptype = NULL;

	if (strcmp(g->format, "perf-script") == 0) {
		g->cpu = perf_rank(g->name, &g->unit);
		g->key = tr_xasprintf("perf %s", g->unit);
		return (0);
	}
	if (strcmp(g->format, "gotrace") == 0) {
		g->unit = tr_xstrdup("samples");
		g->key = tr_xstrdup("gotrace samples");
		g->cpu = strcmp(g->name, "cpu") == 0 ? 3 : 0;
		return (0);
	}
	if ((st = tr_db_prepare(db, "SELECT pr.type, (SELECT "
	    "json_extract(j.value, '$.unit') FROM json_each(pr.sample_types) "
	    "j WHERE json_extract(j.value, '$.type') = ?2), "
	    "coalesce(nullif(pr.default_type, ''), "
	    "json_extract(pr.sample_types, '$[#-1].type')) FROM profile pr "
	    "WHERE pr.source_id = ?1 ORDER BY pr.id LIMIT 1", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, g->source);
	sqlite3_bind_text(st, 2, g->name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if ((t = (const char *)sqlite3_column_text(st, 0)) != NULL)
			ptype = tr_xstrdup(t);
		if ((t = (const char *)sqlite3_column_text(st, 1)) != NULL &&
		    *t != '\0')
			g->unit = tr_xstrdup(t);
		if ((t = (const char *)sqlite3_column_text(st, 2)) != NULL)
			g->dflt = tr_xstrdup(t);
	}
	sqlite3_finalize(st);
	if (g->unit == NULL)
		g->unit = tr_xstrdup("count");
	/* Counts of different things (objects, contentions) never add. */
	if (strcmp(g->unit, "nanoseconds") == 0 ||
	    strcmp(g->unit, "bytes") == 0)
		g->key = tr_xstrdup(g->unit);
	else
		g->key = tr_xasprintf("%s %s", g->unit, g->name);
	g->cpu = ptype != NULL && strcmp(ptype, "cpu") == 0 &&
	    g->dflt != NULL && strcmp(g->dflt, g->name) == 0 ? 2 : 0;
	free(ptype);
	return (0);
}

/* The groups of the selection, by their first sample. */
static int	agg_ok(const struct tr_sel *);
static int	fold_sel_ok(struct tr_db *, const struct tr_sel *);

static int
load_groups(struct tr_db *db, const struct tr_sel *sel, struct group **out,
    size_t *nout, struct tr_error *err)
{
	struct tr_buf	 sql;
	sqlite3_stmt	*st;
	struct group	*g = NULL;
	size_t		 n = 0, i;
	int		 rc;

	*out = NULL;
	*nout = 0;
	tr_buf_init(&sql);
	tr_buf_printf(&sql, "SELECT s.source_id, s.event_id, min(s.%s), "
	    "(SELECT e.s FROM str e WHERE e.id = s.event_id), (SELECT "
	    "so.format FROM source so WHERE so.id = s.source_id) FROM %s "
	    "s WHERE 1", agg_ok(sel) ? "first_id" : "id", fold_sel_ok(db,
	    sel) ? "sample_fold" : agg_ok(sel) ? "sample_stack" : "sample");
	tr_sel_sample_where(sel, &sql);
	tr_buf_adds(&sql, " GROUP BY s.source_id, s.event_id ORDER BY 3");
	st = tr_db_prepare(db, sql.data, err);
	tr_buf_release(&sql);
	if (st == NULL)
		return (-1);
	tr_sel_bind(sel, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		g = tr_xrealloc(g, (n + 1) * sizeof *g);
		memset(&g[n], 0, sizeof *g);
		g[n].source = sqlite3_column_int64(st, 0);
		g[n].event = sqlite3_column_int64(st, 1);
		g[n].first = sqlite3_column_int64(st, 2);
		g[n].name = tr_xstrdup((const char *)
		    sqlite3_column_text(st, 3));
		g[n].format = tr_xstrdup((const char *)
		    sqlite3_column_text(st, 4));
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		groups_free(g, n);
		return (tr_db_error(db, err, "cannot read samples"));
	}
	for (i = 0; i < n; i++)
		if (classify(db, &g[i], err) != 0) {
			groups_free(g, n);
			return (-1);
		}
	*out = g;
	*nout = n;
	return (0);
}

/* "nanoseconds (pprof, source 2), samples (Go trace, source 11)". */
static void
describe_units(struct tr_buf *b, const struct group *g, size_t n,
    const unsigned char *in)
{
	size_t	i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (!in[i])
			continue;
		for (j = 0; j < i; j++)
			if (in[j] && strcmp(g[j].key, g[i].key) == 0)
				break;
		if (j < i)
			continue;
		tr_buf_printf(b, "%s%s (%s, source", k++ ? ", " : "",
		    g[i].unit, format_name(g[i].format));
		for (j = i; j < n; j++)
			if (in[j] && strcmp(g[j].key, g[i].key) == 0)
				tr_buf_printf(b, "%s %" PRId64, j > i ? "," : "",
				    g[j].source);
		tr_buf_adds(b, ")");
	}
}

/* "source 2 (pprof): samples, cpu; source 11 (Go trace): cpu". */
static void
describe_rest(struct tr_buf *b, const struct group *g, size_t n,
    const unsigned char *in)
{
	size_t	i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (in[i])
			continue;
		for (j = 0; j < i; j++)
			if (!in[j] && g[j].source == g[i].source)
				break;
		if (j < i)
			continue;
		tr_buf_printf(b, "%ssource %" PRId64 " (%s):", k++ ? "; " : "",
		    g[i].source, format_name(g[i].format));
		for (j = i; j < n; j++)
			if (!in[j] && g[j].source == g[i].source)
				tr_buf_printf(b, "%s %s", j > i ? "," : "",
				    g[j].name);
	}
}

static char *
count_name(const struct group *g)
{
	if (strcmp(g->unit, "count") == 0)
		return (tr_xstrdup(g->name));
	return (tr_xstrdup(g->unit));
}

int
tr_flame_pick(struct tr_db *db, const struct tr_sel *sel,
    struct tr_flame_pick *p, struct tr_error *err)
{
	struct group	*g;
	struct tr_buf	 b;
	unsigned char	*in;
	size_t		 n, i, c;
	const char	*name;
	int		 best = 0;

	memset(p, 0, sizeof *p);
	if (load_groups(db, sel, &g, &n, err) != 0)
		return (-1);
	if (n == 0)
		return (0);
	in = tr_xcalloc(n, 1);
	/* Given an event: all of it, when its values add up. */
	c = 0;
	if (sel->event == NULL) {
		/* perf CPU samples, else pprof CPU, else the Go trace's. */
		for (i = 0; i < n; i++)
			if (g[i].cpu > 0 && (best == 0 || g[i].cpu <
			    g[c].cpu)) {
				best = 1;
				c = i;
			}
		/* No CPU samples: the first, pprof's default type. */
		if (!best && g[0].dflt != NULL)
			for (i = 0; i < n; i++)
				if (g[i].source == g[0].source &&
				    strcmp(g[i].name, g[0].dflt) == 0) {
					c = i;
					break;
				}
	}
	name = g[c].name;
	for (i = 0; i < n; i++)
		in[i] = strcmp(g[i].name, name) == 0 &&
		    (sel->event != NULL || strcmp(g[i].key, g[c].key) == 0);
	for (i = 0; i < n; i++)
		if (in[i] && strcmp(g[i].key, g[c].key) != 0)
			break;
	tr_buf_init(&b);
	if (i < n) {
		describe_units(&b, g, n, in);
		tr_error_set(err, TR_EDATA, "event '%s' holds values that do "
		    "not add up: %s; choose with --source", name, b.data);
		tr_buf_release(&b);
		free(in);
		groups_free(g, n);
		return (-1);
	}
	p->event = tr_xstrdup(name);
	p->event_id = g[c].event;
	p->unit = tr_xstrdup(g[c].unit);
	p->countname = count_name(&g[c]);
	p->format = tr_xstrdup(g[c].format);
	p->sources = tr_xcalloc(n, sizeof *p->sources);
	for (i = 0; i < n; i++)
		if (in[i])
			p->sources[p->nsources++] = g[i].source;
	for (i = 0; i < n && in[i]; i++)
		;
	if (i < n) {
		tr_buf_printf(&b, "drawing '%s' (%s, %s); also in the "
		    "selection: ", name, format_name(g[c].format), p->unit);
		describe_rest(&b, g, n, in);
		tr_buf_adds(&b, " (choose with --event and --source)");
		p->note = b.data;
	} else
		tr_buf_release(&b);
	free(in);
	groups_free(g, n);
	return (0);
}

char *
tr_flame_pick_notes(const struct tr_sel *sel, const struct tr_flame_pick *p)
{
	struct tr_buf	b;

	tr_buf_init(&b);
	/* Snapshots were reduced: say so when pprof samples are drawn. */
	if (p == NULL || (p->format != NULL && strcmp(p->format,
	    "pprof") == 0))
		tr_buf_adds(&b, sel->snapshot_notes.data);
	if (p != NULL && p->note != NULL)
		tr_buf_printf(&b, "%s\n", p->note);
	if (b.len == 0) {
		tr_buf_release(&b);
		return (NULL);
	}
	b.data[--b.len] = '\0';
	return (b.data);
}

void
tr_flame_pick_release(struct tr_flame_pick *p)
{
	free(p->event);
	free(p->unit);
	free(p->countname);
	free(p->format);
	free(p->sources);
	free(p->note);
	memset(p, 0, sizeof *p);
}

static sqlite3_stmt *sel_prepare(struct tr_db *, const char *,
		    const struct tr_sel *, const struct tr_flame_pick *,
		    const char *, const char *, struct tr_error *);

sqlite3_stmt *
tr_flame_sel_prepare(struct tr_db *db, const struct tr_sel *sel,
    const struct tr_flame_pick *pick, const char *cols, const char *tail,
    struct tr_error *err)
{
	return (sel_prepare(db, "sample", sel, pick, cols, tail, err));
}

/*
 * Whether the per-stack aggregates (sample_stack) hold what 'sel' picks:
 * it may choose sources, events, profiles and threads, which they keep,
 * but not by a sample's time or labels, which they do not.  With
 * TRACEKIT_NO_AGGREGATES=1 in the environment, never (the tests compare
 * the two ways).
 */
static int
agg_ok(const struct tr_sel *sel)
{
	const char	*e = getenv("TRACEKIT_NO_AGGREGATES");

	if (e != NULL && *e != '\0' && strcmp(e, "0") != 0)
		return (0);
	return (!sel->has_from && !sel->has_to && !sel->has_windows &&
	    sel->nlabels == 0 && sel->goid < 0);
}

/*
 * Whether the folds (sample_fold, by fold_node) hold what 'sel' picks:
 * what the per-stack aggregates hold, but a thread there stands for all
 * threads of its name, so not a choice of threads, processes or
 * commands.  (With TRACEKIT_NO_FOLDS=1, never: the tests compare.)  A
 * store of a schema before version 11 that could not be migrated (read
 * only) has none.
 */
static int
fold_sel_ok(struct tr_db *db, const struct tr_sel *sel)
{
	const char	*e = getenv("TRACEKIT_NO_FOLDS");

	if (e != NULL && *e != '\0' && strcmp(e, "0") != 0)
		return (0);
	if (!agg_ok(sel) || sel->pid >= 0 || sel->tid >= 0 ||
	    sel->comm != NULL || sel->gpu >= 0)
		return (0);
	return (tr_derived_has_folds(db, NULL) > 0);
}

/*
 * Whether the folds name the stacks as 'o' would: the root frame is the
 * command at most, and no frame shows its address.
 */
static int
fold_ok(struct tr_db *db, const struct tr_sel *sel,
    const struct tr_flame_fold_opts *o)
{
	return (!o->pid && !o->tid && !o->addrs && fold_sel_ok(db, sel));
}

static sqlite3_stmt *
sel_prepare(struct tr_db *db, const char *table, const struct tr_sel *sel,
    const struct tr_flame_pick *pick, const char *cols, const char *tail,
    struct tr_error *err)
{
	struct tr_buf	 sql;
	sqlite3_stmt	*st;
	size_t		 i;

	tr_buf_init(&sql);
	tr_buf_printf(&sql, "SELECT %s FROM %s s WHERE 1", cols, table);
	tr_sel_sample_where(sel, &sql);
	if (pick != NULL && pick->event != NULL) {
		tr_buf_printf(&sql, " AND s.event_id = %" PRId64
		    " AND s.source_id IN (", pick->event_id);
		for (i = 0; i < pick->nsources; i++)
			tr_buf_printf(&sql, "%s%" PRId64, i ? "," : "",
			    pick->sources[i]);
		tr_buf_adds(&sql, ")");
	}
	if (tail != NULL)
		tr_buf_adds(&sql, tail);
	if ((st = tr_db_prepare(db, sql.data, err)) != NULL)
		tr_sel_bind(sel, st);
	tr_buf_release(&sql);
	return (st);
}

/* --- folding ---------------------------------------------------------- */

static int
cmp_line(const void *a, const void *b)
{
	return (strcmp(((const struct line *)a)->s,
	    ((const struct line *)b)->s));
}

/* Load the call site tree up to id 'max' (parents come before children). */
static int
load_callsites(struct fold *f, int64_t max)
{
	sqlite3_stmt	*st;
	int64_t		 id;
	int		 rc;

	f->ncs = max;
	f->parent = tr_xcalloc((size_t)max + 1, sizeof *f->parent);
	f->frame = tr_xcalloc((size_t)max + 1, sizeof *f->frame);
	if ((st = tr_db_prepare(f->db, f->folds ? "SELECT id, parent_id, "
	    "frame_id FROM fold_node WHERE id <= ?1" : "SELECT id, "
	    "parent_id, frame_id FROM callsite WHERE id <= ?1",
	    f->err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 1)
			continue;
		f->parent[id] = sqlite3_column_int64(st, 1);
		f->frame[id] = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(f->db, f->err, "cannot read call sites"));
	return (0);
}

static void
fold_release(struct fold *f)
{
	size_t	k;
	int	j;

	sqlite3_finalize(f->thread_st);
	for (j = 0; j < 2; j++) {
		free(f->fname[j]);
		free(f->fid[j]);
	}
	for (k = 0; k < f->nfstr; k++)
		free(f->fstr[k]);
	free(f->fstr);
	free(f->flen);
	tr_map_free(f->fids);
	free(f->parent);
	free(f->frame);
	free(f->need);
	free(f->walked);
	free(f->walk);
	free(f->ag);
	for (k = 0; k < f->ntn; k++)
		free(f->tn[k].pname);
	free(f->tn);
	tr_buf_release(&f->buf);
}

/*
 * Sum the picked samples' values per (call site, thread): ids that fit 32
 * bits each (all of them, in practice) are one integer key, others a key
 * of bytes.  The per-stack aggregates are already one row per call site
 * and thread of an event: they are taken as they come (merge_stacks()
 * adds up what is left), without a map as large as they are.
 */
static int
sum_samples(struct fold *f, const struct tr_sel *sel,
    const struct tr_flame_pick *pick)
{
	sqlite3_stmt	*st;
	struct tr_map	*aggs;
	struct tr_imap	 small;
	int64_t		 key[2], idx;
	uint64_t	 k = 0;
	size_t		 cap = 0;
	void		*v;
	int		 rc, fits, agg = agg_ok(sel);

	f->folds = fold_ok(f->db, sel, f->o);
	if ((st = sel_prepare(f->db, f->folds ? "sample_fold" : agg ?
	    "sample_stack" : "sample", sel, pick, f->folds ? "s.node_id, "
	    "s.thread_id, s.value" : "s.callsite_id, s.thread_id, s.value",
	    NULL, f->err)) == NULL)
		return (-1);
	aggs = tr_map_new();
	tr_imap_init(&small);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		key[0] = sqlite3_column_int64(st, 0);
		key[1] = sqlite3_column_int64(st, 1);
		fits = key[0] >= 0 && key[0] <= (int64_t)UINT32_MAX &&
		    key[1] >= 0 && key[1] <= (int64_t)UINT32_MAX;
		if (agg)
			;
		else if (fits) {
			k = (uint64_t)key[0] << 32 | (uint64_t)key[1];
			if ((v = tr_imap_get(&small, k)) != NULL) {
				f->ag[(uintptr_t)v - 1].value +=
				    sqlite3_column_int64(st, 2);
				continue;
			}
		} else if (tr_map_get(aggs, key, sizeof key, &idx)) {
			f->ag[idx].value += sqlite3_column_int64(st, 2);
			continue;
		}
		if (f->nag == cap) {
			cap = cap ? cap * 2 : 1024;
			f->ag = tr_xrealloc(f->ag, cap * sizeof *f->ag);
		}
		f->ag[f->nag].cs = key[0];
		f->ag[f->nag].thread = key[1];
		f->ag[f->nag].value = sqlite3_column_int64(st, 2);
		if (key[0] > f->maxcs)
			f->maxcs = key[0];
		if (agg)
			;
		else if (fits)
			tr_imap_put(&small, k, (void *)(uintptr_t)(f->nag + 1));
		else
			tr_map_put(aggs, key, sizeof key, (int64_t)f->nag);
		f->nag++;
	}
	sqlite3_finalize(st);
	tr_map_free(aggs);
	tr_imap_release(&small);
	if (rc != SQLITE_DONE)
		return (tr_db_error(f->db, f->err, "cannot read samples"));
	return (0);
}

/*
 * Name each thread once, point each (call site, thread) at its name,
 * and mark the frames each stack needs.
 */
static int
name_threads(struct fold *f)
{
	struct tr_map	*threads;
	size_t		 i, cap = 0;
	int64_t		 idx = 0, last = 0;
	int		 rc = -1;

	if ((f->thread_st = tr_db_prepare(f->db, "SELECT t.name, t.tid, "
	    "p.pid FROM thread t LEFT JOIN process p ON p.id = t.process_id "
	    "WHERE t.id = ?1", f->err)) == NULL)
		return (-1);
	threads = tr_map_new();
	for (i = 0; i < f->nag; i++) {
		/* Runs of one thread are common: its index is at hand. */
		if (i == 0 || f->ag[i].thread != last) {
			last = f->ag[i].thread;
			if (!tr_map_get(threads, &last, sizeof last, &idx)) {
				if (f->ntn == cap) {
					cap = cap ? cap * 2 : 64;
					f->tn = tr_xrealloc(f->tn,
					    cap * sizeof *f->tn);
				}
				if (name_thread(f, last, &f->tn[f->ntn]) != 0)
					goto out;
				idx = (int64_t)f->ntn++;
				tr_map_put(threads, &last, sizeof last, idx);
			}
		}
		f->ag[i].thread = idx;
		need_frames(f, f->ag[i].cs, f->tn[idx].java);
	}
	rc = 0;
out:
	tr_map_free(threads);
	return (rc);
}

/*
 * The names of the stacks as a tree of nodes, (parent node, name) each,
 * so that call sites whose frames fold to the same names share a node
 * and a folded line is built once per (thread, node), not once per
 * (call site, thread): a perf recording of stripped code has a frame per
 * address ("[unknown]"), and as many call sites, that all fold to a few
 * names (f->fstr, by index).  Node 0 is the empty stack.
 */
struct ntree {
	struct tr_imap	 kids;		/* parent << 32 | name id -> node + 1 */
	uint32_t	*nparent, *nid;	/* by node: parent node, name id */
	size_t		 nnode, capnode;
	uint32_t	*node[2];	/* by call site: node + 1 (0: not yet) */
};

static void
ntree_release(struct ntree *t)
{
	int	j;

	tr_imap_release(&t->kids);
	free(t->nparent);
	free(t->nid);
	for (j = 0; j < 2; j++)
		free(t->node[j]);
}

/* The name id of frame 'id' (0: left out), or -1 when it has no name. */
static int64_t
ntree_name(const struct fold *f, int64_t id, int java)
{
	if (id < 1 || id > f->nframes || f->fid[java][id] == 0)
		return (-1);
	return ((int64_t)f->fid[java][id] - 1);
}

/*
 * The node of call site 'cs', or -1 when the store is inconsistent there
 * (stack_name() then says how).
 */
static int64_t
ntree_node(struct fold *f, struct ntree *t, int64_t cs, int java)
{
	int64_t		 c, nm, nd;
	size_t		 n = 0;
	uint64_t	 key;
	void		*v;

	if (cs < 0 || cs > f->ncs)
		return (-1);
	if (t->node[java] == NULL)
		t->node[java] = tr_xcalloc((size_t)f->ncs + 1,
		    sizeof *t->node[java]);
	/* Up to a call site with a node (or the root), then down. */
	for (c = cs; c != 0 && t->node[java][c] == 0; c = f->parent[c]) {
		if (c < 0 || c > f->ncs || n > (size_t)f->ncs)
			return (-1);
		walk_push(f, n++, c);
	}
	nd = c == 0 ? 0 : (int64_t)t->node[java][c] - 1;
	while (n-- > 0) {
		c = f->walk[n];
		if ((nm = ntree_name(f, f->frame[c], java)) < 0)
			return (-1);
		if (nm > 0) {
			key = (uint64_t)nd << 32 | (uint64_t)nm;
			if ((v = tr_imap_get(&t->kids, key)) != NULL)
				nd = (int64_t)((uintptr_t)v - 1);
			else {
				if (t->nnode == t->capnode) {
					t->capnode = t->capnode ?
					    t->capnode * 2 : 1024;
					t->nparent = tr_xrealloc(t->nparent,
					    t->capnode * sizeof *t->nparent);
					t->nid = tr_xrealloc(t->nid,
					    t->capnode * sizeof *t->nid);
				}
				if (t->nnode == 0) {
					t->nparent[0] = t->nid[0] = 0;
					t->nnode = 1;
				}
				t->nparent[t->nnode] = (uint32_t)nd;
				t->nid[t->nnode] = (uint32_t)nm;
				nd = (int64_t)t->nnode++;
				tr_imap_put(&t->kids, key,
				    (void *)(uintptr_t)(nd + 1));
			}
		}
		t->node[java][c] = (uint32_t)nd + 1;
	}
	return (nd);
}

/* The folded line of node 'nd' under 'root' (as stack_name()), in f->buf. */
static const char *
ntree_line(struct fold *f, const struct ntree *t, int64_t nd,
    const char *root)
{
	size_t	n = 0, i;

	tr_buf_reset(&f->buf);
	if (root != NULL)
		tr_buf_adds(&f->buf, root);
	for (; nd != 0; nd = t->nparent[nd]) {
		walk_push(f, n++, t->nid[nd]);
	}
	for (i = n; i-- > 0; ) {
		if (f->buf.len > 0 || root != NULL)
			tr_buf_addc(&f->buf, ';');
		tr_buf_add(&f->buf, f->fstr[f->walk[i]], f->flen[f->walk[i]]);
	}
	return (f->buf.data);
}

/*
 * Many call sites fold to one name: sum by name, then sort those.  Each
 * (thread, node) is named once and remembers its line (+ 2; 1: left
 * out); different nodes can still fold to one text (a name with a ';',
 * threads of one name), which a map of the texts joins.  From the folds
 * (f->folds), a thread stands for those of its name and so the lines are
 * at most the folds: there they are joined once sorted, side by side,
 * instead (the map took a tenth of the graph's time).
 */
static int
merge_stacks(struct fold *f, struct tr_folded *out)
{
	struct tr_map		*names = tr_map_new();
	struct tr_imap		 seen;
	struct ntree		 t;
	struct line		*lines = NULL;
	const struct thread_name *tn;
	const char		*stack;
	size_t			 i, j, nl = 0, cap = 0;
	int64_t			 idx, nd;
	uint64_t		 key = 0;
	void			*v;
	int			 ok, rc = -1;

	memset(&t, 0, sizeof t);
	tr_imap_init(&seen);
	for (i = 0; i < f->nag; i++) {
		tn = &f->tn[f->ag[i].thread];
		/* Dense ids: both fit 32 bits well before memory runs out. */
		nd = ntree_node(f, &t, f->ag[i].cs, tn->java);
		ok = nd >= 0 && f->ag[i].thread < (int64_t)UINT32_MAX &&
		    nd < (int64_t)UINT32_MAX;
		if (ok) {
			key = (uint64_t)f->ag[i].thread << 32 | (uint64_t)nd;
			if ((v = tr_imap_get(&seen, key)) != NULL) {
				if ((uintptr_t)v >= 2)
					lines[(uintptr_t)v - 2].n +=
					    f->ag[i].value;
				continue;
			}
			stack = ntree_line(f, &t, nd, tn->pname);
		} else if ((stack = stack_name(f, f->ag[i].cs, tn->java,
		    tn->pname)) == NULL)
			goto out;
		if (*stack == '\0' && tn->pname == NULL) {
			if (ok)
				tr_imap_put(&seen, key, (void *)(uintptr_t)1);
			continue;
		}
		if (!f->folds && tr_map_get(names, stack, f->buf.len, &idx))
			lines[idx].n += f->ag[i].value;
		else {
			if (nl == cap) {
				cap = cap ? cap * 2 : 1024;
				lines = tr_xrealloc(lines, cap * sizeof *lines);
			}
			lines[nl].s = tr_xstrndup(stack, f->buf.len);
			lines[nl].n = f->ag[i].value;
			idx = (int64_t)nl++;
			if (!f->folds)
				tr_map_put(names, stack, f->buf.len, idx);
		}
		if (ok)
			tr_imap_put(&seen, key, (void *)(uintptr_t)(idx + 2));
	}
	qsort(lines, nl, sizeof *lines, cmp_line);
	out->stacks = tr_xcalloc(nl ? nl : 1, sizeof *out->stacks);
	out->counts = tr_xcalloc(nl ? nl : 1, sizeof *out->counts);
	for (i = 0, j = 0; i < nl; i++) {
		if (j > 0 && strcmp(out->stacks[j - 1], lines[i].s) == 0) {
			out->counts[j - 1] += lines[i].n;
			free(lines[i].s);
			continue;
		}
		out->stacks[j] = lines[i].s;
		out->counts[j++] = lines[i].n;
	}
	out->n = j;
	nl = 0;
	rc = 0;
out:
	for (i = 0; i < nl; i++)
		free(lines[i].s);
	free(lines);
	tr_map_free(names);
	tr_imap_release(&seen);
	ntree_release(&t);
	return (rc);
}

/* Load what naming the stacks of f->ag takes. */
static int
name_prepare(struct fold *f)
{
	int64_t	v;

	if (load_callsites(f, f->maxcs) != 0 || tr_db_int(f->db, "SELECT "
	    "max(id) FROM frame", &v, f->err) != 0)
		return (-1);
	f->nframes = v;
	f->fname[0] = tr_xcalloc((size_t)f->nframes + 1, sizeof *f->fname[0]);
	f->fname[1] = tr_xcalloc((size_t)f->nframes + 1, sizeof *f->fname[1]);
	f->fid[0] = tr_xcalloc((size_t)f->nframes + 1, sizeof *f->fid[0]);
	f->fid[1] = tr_xcalloc((size_t)f->nframes + 1, sizeof *f->fid[1]);
	f->need = tr_xcalloc((size_t)f->nframes + 1, 1);
	f->walked = tr_xcalloc((size_t)f->ncs + 1, 1);
	return (name_threads(f) != 0 || name_frames(f) != 0 ? -1 : 0);
}

/* Name the stacks of f->ag into 'out'. */
static int
name_stacks(struct fold *f, struct tr_folded *out)
{
	return (name_prepare(f) != 0 ? -1 : merge_stacks(f, out));
}

/*
 * Set up a fold of 'db' into 'out' (both emptied), and take one snapshot,
 * one lock, for the many small reads that follow (tr_db_read_end()).
 */
static int
fold_begin(struct fold *f, struct tr_db *db,
    const struct tr_flame_fold_opts *opts, struct tr_folded *out,
    int *began, struct tr_error *err)
{
	memset(out, 0, sizeof *out);
	memset(f, 0, sizeof *f);
	f->db = db;
	f->o = opts;
	f->err = err;
	tr_buf_init(&f->buf);
	return (tr_db_read_begin(db, began, err));
}

static int	chart_samples(struct fold *, const struct tr_sel *,
		    const struct tr_flame_pick *, int64_t **ts,
		    int64_t *untimed);
static int	chart_lines(struct fold *, const int64_t *,
		    struct tr_folded *);

/* Fold the pick of 'sel': summed by stack, or as a flame chart. */
static int
fold_picked(struct tr_db *db, const struct tr_sel *sel,
    const struct tr_flame_fold_opts *opts, int chart, struct tr_folded *out,
    struct tr_error *err)
{
	struct tr_flame_pick	 pick;
	struct fold		 f;
	int64_t			*ts = NULL, untimed = 0;
	char			*note;
	int			 ret = -1, began = 0;

	memset(&pick, 0, sizeof pick);
	if (fold_begin(&f, db, opts, out, &began, err) != 0)
		goto out;
	if (tr_flame_pick(db, sel, &pick, err) != 0)
		goto out;
	if (pick.event != NULL) {
		if (chart ? (chart_samples(&f, sel, &pick, &ts,
		    &untimed) != 0 || (f.nag > 0 && (name_prepare(&f) != 0 ||
		    chart_lines(&f, ts, out) != 0))) :
		    (sum_samples(&f, sel, &pick) != 0 ||
		    (f.nag > 0 && name_stacks(&f, out) != 0)))
			goto out;
		out->note = tr_flame_pick_notes(sel, &pick);
		if (untimed > 0) {
			note = tr_xasprintf("%s%s--flamechart: %lld samples "
			    "without a time stamp (pprof profiles) cannot be "
			    "placed in time: left out", out->note ? out->note :
			    "", out->note ? "\n" : "", (long long)untimed);
			free(out->note);
			out->note = note;
		}
		out->event = pick.event;
		out->unit = pick.unit;
		out->countname = pick.countname;
		pick.event = pick.unit = pick.countname = NULL;
	}
	ret = 0;
out:
	free(ts);
	tr_flame_pick_release(&pick);
	fold_release(&f);
	tr_db_read_end(db, began);
	if (ret != 0)
		tr_folded_release(out);
	return (ret);
}

int
tr_flame_fold(struct tr_db *db, const struct tr_sel *sel,
    const struct tr_flame_fold_opts *opts, struct tr_folded *out,
    struct tr_error *err)
{
	return (fold_picked(db, sel, opts, 0, out, err));
}

int
tr_flame_fold_blocked(struct tr_db *db, const struct tr_sel *sel,
    enum tr_blocked_kind kind, const struct tr_flame_fold_opts *opts,
    struct tr_folded *out, struct tr_error *err)
{
	struct tr_blocked	 b;
	struct fold		 f;
	size_t			 i;
	int			 ret = -1, began = 0;

	if (fold_begin(&f, db, opts, out, &began, err) != 0)
		goto out;
	if (tr_blocked_collect(db, sel, kind, &b, err) != 0)
		goto out;
	/* No thread: the stacks have no root frame, as in go tool pprof. */
	f.ag = tr_xcalloc(b.n + 1, sizeof *f.ag);
	for (i = 0; i < b.n; i++) {
		f.ag[i].cs = b.stacks[i].callsite_id;
		f.ag[i].value = b.stacks[i].ns;
		if (f.ag[i].cs > f.maxcs)
			f.maxcs = f.ag[i].cs;
	}
	f.nag = b.n;
	if (b.sources == 0)
		out->note = tr_xstrdup("--blocked: the selection has no Go "
		    "trace");
	else
		out->note = tr_xasprintf("--blocked %s: %lld intervals, "
		    "%lld ns, on %zu stacks, from %d Go trace source%s",
		    tr_blocked_kind_name(kind), (long long)b.count,
		    (long long)b.ns, b.n, b.sources,
		    b.sources == 1 ? "" : "s");
	tr_blocked_release(&b);
	if (f.nag > 0 && name_stacks(&f, out) != 0)
		goto out;
	out->event = tr_xasprintf("blocked %s", tr_blocked_kind_name(kind));
	out->unit = tr_xstrdup("nanoseconds");
	out->countname = tr_xstrdup("nanoseconds");
	ret = 0;
out:
	fold_release(&f);
	tr_db_read_end(db, began);
	if (ret != 0)
		tr_folded_release(out);
	return (ret);
}

void
tr_folded_release(struct tr_folded *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		free(f->stacks[i]);
	free(f->stacks);
	free(f->counts);
	free(f->base);
	free(f->ts);
	free(f->event);
	free(f->unit);
	free(f->countname);
	free(f->note);
	memset(f, 0, sizeof *f);
}

int
tr_folded_write(const struct tr_folded *f, FILE *fp)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		if (f->base != NULL)
			fprintf(fp, "%s %lld %lld\n", f->stacks[i],
			    (long long)f->base[i], (long long)f->counts[i]);
		else
			fprintf(fp, "%s %lld\n", f->stacks[i],
			    (long long)f->counts[i]);
	return (ferror(fp) ? -1 : 0);
}

/* --- differential graphs ---------------------------------------------- */

static int64_t
folded_total(const struct tr_folded *f)
{
	int64_t	t = 0;
	size_t	i;

	for (i = 0; i < f->n; i++)
		t += f->counts[i];
	return (t);
}

int
tr_folded_diff(const struct tr_folded *base, const struct tr_folded *cur,
    int normalize, struct tr_folded *out, struct tr_error *err)
{
	int64_t		 t1 = folded_total(base), t2 = folded_total(cur), c1;
	size_t		 i = 0, j = 0, n = 0, cap = base->n + cur->n + 1;
	int		 r;

	memset(out, 0, sizeof *out);
	if (t1 == 0)
		return (tr_error_set(err, TR_EDATA, "--diff-base: no samples "
		    "match the base selection"));
	if (base->unit != NULL && cur->unit != NULL &&
	    strcmp(base->unit, cur->unit) != 0)
		return (tr_error_set(err, TR_EDATA, "--diff-base: the base "
		    "counts %s (%s), the graph %s (%s): they do not compare",
		    base->unit, base->event ? base->event : "?", cur->unit,
		    cur->event ? cur->event : "?"));
	out->stacks = tr_xcalloc(cap, sizeof *out->stacks);
	out->counts = tr_xcalloc(cap, sizeof *out->counts);
	out->base = tr_xcalloc(cap, sizeof *out->base);
	while (i < base->n || j < cur->n) {
		if (i == base->n)
			r = 1;
		else if (j == cur->n)
			r = -1;
		else
			r = strcmp(base->stacks[i], cur->stacks[j]);
		c1 = 0;
		if (r <= 0) {
			c1 = base->counts[i];
			out->stacks[n] = tr_xstrdup(base->stacks[i++]);
		}
		if (r >= 0) {
			out->counts[n] = cur->counts[j];
			if (r > 0)
				out->stacks[n] = tr_xstrdup(cur->stacks[j]);
			j++;
		}
		/* difffolded.pl -n: int(c1 * total2 / total1). */
		if (normalize && t1 != t2)
			c1 = (int64_t)((long double)c1 * (long double)t2 /
			    (long double)t1);
		out->base[n++] = c1;
	}
	out->n = n;
	if (cur->event != NULL)
		out->event = tr_xstrdup(cur->event);
	if (cur->unit != NULL)
		out->unit = tr_xstrdup(cur->unit);
	if (cur->countname != NULL)
		out->countname = tr_xstrdup(cur->countname);
	return (0);
}

/* --- flame charts ----------------------------------------------------- */

/*
 * The samples' threads (the Go trace's: goroutines), when there are more
 * than one: an error naming the busiest.  Returns 0 or -1.
 */
#define CHART_WHO	"coalesce(s.thread_id, 0) || ':' || " \
	"coalesce(json_extract(s.labels, '$.goid'), '')"
static int
chart_one_thread(struct tr_db *db, const struct tr_sel *sel,
    const struct tr_flame_pick *pick, struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct tr_buf	 b;
	int64_t		 n = 0;
	int		 rc, k = 0;

	/* One goroutine's samples may run on several threads. */
	if (sel->goid >= 0)
		return (0);
	if ((st = tr_flame_sel_prepare(db, sel, pick, "count(DISTINCT "
	    CHART_WHO ")", " AND s.ts IS NOT NULL", err)) == NULL)
		return (-1);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n <= 1)
		return (0);
	if ((st = tr_flame_sel_prepare(db, sel, pick, "(SELECT t.tid FROM "
	    "thread t WHERE t.id = s.thread_id), (SELECT t.name FROM thread t "
	    "WHERE t.id = s.thread_id), json_extract(s.labels, '$.goid'), "
	    "count(*)", " AND s.ts IS NOT NULL GROUP BY " CHART_WHO
	    " ORDER BY 4 DESC, 1, 3 LIMIT 5", err)) == NULL)
		return (-1);
	tr_buf_init(&b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		tr_buf_adds(&b, k++ ? ", " : "");
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			tr_buf_printf(&b, "goroutine %lld",
			    (long long)sqlite3_column_int64(st, 2));
		else if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			tr_buf_printf(&b, "tid %lld %s",
			    (long long)sqlite3_column_int64(st, 0),
			    sqlite3_column_text(st, 1) ?
			    (const char *)sqlite3_column_text(st, 1) : "?");
		else
			tr_buf_adds(&b, "no thread");
		tr_buf_printf(&b, " (%lld)",
		    (long long)sqlite3_column_int64(st, 3));
	}
	sqlite3_finalize(st);
	tr_error_set(err, TR_EDATA, "--flamechart: the selection has samples "
	    "of %lld threads or goroutines; choose one with --tid or "
	    "--goroutine (samples: %s%s)", (long long)n,
	    b.data ? b.data : "", n > k ? ", ..." : "");
	tr_buf_release(&b);
	return (-1);
}

/* Runs of the same stack, in time order, into 'out'. */
static int
chart_lines(struct fold *f, const int64_t *ts, struct tr_folded *out)
{
	const struct thread_name *tn;
	const char		*stack;
	size_t			 i, n = 0;

	out->stacks = tr_xcalloc(f->nag + 1, sizeof *out->stacks);
	out->counts = tr_xcalloc(f->nag + 1, sizeof *out->counts);
	out->ts = tr_xcalloc(f->nag + 1, sizeof *out->ts);
	for (i = 0; i < f->nag; i++) {
		tn = &f->tn[f->ag[i].thread];
		if ((stack = stack_name(f, f->ag[i].cs, tn->java,
		    tn->pname)) == NULL) {
			out->n = n;
			return (-1);
		}
		if (*stack == '\0' && tn->pname == NULL)
			continue;
		if (n > 0 && strlen(out->stacks[n - 1]) == f->buf.len &&
		    memcmp(out->stacks[n - 1], stack, f->buf.len) == 0) {
			out->counts[n - 1] += f->ag[i].value;
			continue;
		}
		out->stacks[n] = tr_xstrndup(stack, f->buf.len);
		out->counts[n] = f->ag[i].value;
		out->ts[n] = ts[i];
		n++;
	}
	out->n = n;
	return (0);
}

/*
 * Read the picked samples with a time stamp in time order into f->ag, a
 * run of consecutive samples of one call site and thread in one, and
 * the time stamp of each run's first into '*ts'; count those without in
 * '*untimed'.  Returns 0 or -1.
 */
static int
chart_samples(struct fold *f, const struct tr_sel *sel,
    const struct tr_flame_pick *pick, int64_t **ts, int64_t *untimed)
{
	sqlite3_stmt	*st;
	int64_t		 cs, th;
	size_t		 cap = 0;
	int		 rc;

	if (chart_one_thread(f->db, sel, pick, f->err) != 0)
		return (-1);
	if ((st = tr_flame_sel_prepare(f->db, sel, pick, "count(*)",
	    " AND s.ts IS NULL", f->err)) == NULL)
		return (-1);
	if (sqlite3_step(st) == SQLITE_ROW)
		*untimed = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if ((st = tr_flame_sel_prepare(f->db, sel, pick, "s.callsite_id, "
	    "s.thread_id, s.value, s.ts", " AND s.ts IS NOT NULL ORDER BY "
	    "s.ts, s.id", f->err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cs = sqlite3_column_int64(st, 0);
		th = sqlite3_column_int64(st, 1);
		if (f->nag > 0 && f->ag[f->nag - 1].cs == cs &&
		    f->ag[f->nag - 1].thread == th) {
			f->ag[f->nag - 1].value += sqlite3_column_int64(st, 2);
			continue;
		}
		if (f->nag == cap) {
			cap = cap ? cap * 2 : 1024;
			f->ag = tr_xrealloc(f->ag, cap * sizeof *f->ag);
			*ts = tr_xrealloc(*ts, cap * sizeof **ts);
		}
		f->ag[f->nag].cs = cs;
		f->ag[f->nag].thread = th;
		f->ag[f->nag].value = sqlite3_column_int64(st, 2);
		(*ts)[f->nag] = sqlite3_column_int64(st, 3);
		if (cs > f->maxcs)
			f->maxcs = cs;
		f->nag++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(f->db, f->err, "cannot read samples"));
	return (0);
}

int
tr_flame_fold_chart(struct tr_db *db, const struct tr_sel *sel,
    const struct tr_flame_fold_opts *opts, struct tr_folded *out,
    struct tr_error *err)
{
	return (fold_picked(db, sel, opts, 1, out, err));
}
