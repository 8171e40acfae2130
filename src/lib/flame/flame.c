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

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void
tr_flame_sel_init(struct tr_flame_sel *s)
{
	memset(s, 0, sizeof *s);
	s->pid = s->tid = -1;
}

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

	/* The call site tree, by id: parent and frame. */
	int64_t		*parent, *frame;
	int64_t		 ncs;
	/* Folded frame names by frame id and Java-ness; "" = skipped. */
	char		**fname[2];
	unsigned char	*need;		/* by frame: 1 << java, wanted */
	unsigned char	*walked;	/* by call site: the same, marked */
	int64_t		 nframes;

	struct tr_buf	 buf;
	int64_t		*walk;
	size_t		 nwalk, capwalk;
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
		if (f->frame[cs] >= 1 && f->frame[cs] <= f->nframes)
			f->need[f->frame[cs]] |= bit;
	}
}

/* Name every needed frame, in one pass over the frame table. */
static int
name_frames(struct fold *f)
{
	sqlite3_stmt	*st;
	const char	*name, *module;
	int64_t		 id;
	int		 rc, java;

	if ((st = tr_db_prepare(f->db, "SELECT id, name, module, addr FROM "
	    "frame WHERE id <= ?1", f->err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, f->nframes);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 1 || id > f->nframes || f->need[id] == 0)
			continue;
		name = (const char *)sqlite3_column_text(st, 1);
		module = (const char *)sqlite3_column_text(st, 2);
		for (java = 0; java < 2; java++)
			if (f->need[id] & (1 << java))
				f->fname[java][id] = name_frame(f->o,
				    name ? name : "", module ? module : "",
				    sqlite3_column_int64(st, 3), java);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(f->db, f->err, "cannot read frames"));
	return (0);
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
		if (f->nwalk == f->capwalk) {
			f->capwalk = f->capwalk ? f->capwalk * 2 : 128;
			f->walk = tr_xrealloc(f->walk,
			    f->capwalk * sizeof *f->walk);
		}
		f->walk[f->nwalk++] = f->frame[c];
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

/* --- selection -------------------------------------------------------- */

static int
bind_sel(sqlite3_stmt *st, const struct tr_flame_sel *sel, int64_t event,
    int64_t t0)
{
	if (sel->source_id > 0)
		sqlite3_bind_int64(st, 1, sel->source_id);
	if (event > 0)
		sqlite3_bind_int64(st, 2, event);
	if (sel->pid >= 0)
		sqlite3_bind_int64(st, 3, sel->pid);
	if (sel->tid >= 0)
		sqlite3_bind_int64(st, 4, sel->tid);
	if (sel->comm != NULL)
		sqlite3_bind_text(st, 5, sel->comm, -1, SQLITE_STATIC);
	if (sel->has_from)
		sqlite3_bind_int64(st, 6, t0 + sel->from);
	if (sel->has_to)
		sqlite3_bind_int64(st, 7, t0 + sel->to);
	if (sel->label != NULL) {
		const char	*eq = strchr(sel->label, '=');
		size_t		 n = eq ? (size_t)(eq - sel->label) :
				    strlen(sel->label);

		sqlite3_bind_text(st, 8, sel->label, (int)n, SQLITE_STATIC);
		sqlite3_bind_text(st, 9, eq ? eq + 1 : "", -1, SQLITE_STATIC);
	}
	return (0);
}

/* "FROM ... WHERE ..." for the selection; ?2 is the event when given. */
static void
sel_sql(struct tr_buf *b, const struct tr_flame_sel *sel, int event)
{
	tr_buf_adds(b, " FROM sample s");
	if (sel->pid >= 0 || sel->tid >= 0 || sel->comm != NULL)
		tr_buf_adds(b, " JOIN thread t ON t.id = s.thread_id");
	if (sel->pid >= 0)
		tr_buf_adds(b, " JOIN process p ON p.id = t.process_id");
	if (sel->has_from || sel->has_to)
		tr_buf_adds(b, " JOIN source so ON so.id = s.source_id");
	tr_buf_adds(b, " WHERE 1");
	if (sel->source_id > 0)
		tr_buf_adds(b, " AND s.source_id = ?1");
	if (event)
		tr_buf_adds(b, " AND s.event_id = ?2");
	if (sel->pid >= 0)
		tr_buf_adds(b, " AND p.pid = ?3");
	if (sel->tid >= 0)
		tr_buf_adds(b, " AND t.tid = ?4");
	if (sel->comm != NULL)
		tr_buf_adds(b, " AND t.name = ?5");
	if (sel->has_from)
		tr_buf_adds(b, " AND s.ts + so.clock_offset >= ?6");
	if (sel->has_to)
		tr_buf_adds(b, " AND s.ts + so.clock_offset < ?7");
	/* A pprof label: a string or number, or one in a list of them. */
	if (sel->label != NULL)
		tr_buf_adds(b, " AND EXISTS (SELECT 1 FROM json_each(s.labels)"
		    " j WHERE j.key = ?8 AND (CAST(j.value AS TEXT) = ?9 OR "
		    "(j.type = 'array' AND EXISTS (SELECT 1 FROM "
		    "json_each(j.value) k WHERE CAST(k.value AS TEXT) = ?9))))");
}

/* One integer from 'sql' with ?1 bound to 'arg'; *found says if a row. */
static int
query_int(struct tr_db *db, const char *sql, int64_t arg, const char *text,
    int64_t *v, int *found, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	*v = 0;
	*found = 0;
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	if (text != NULL)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, arg);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*v = sqlite3_column_int64(st, 0);
		*found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read store"));
	return (0);
}

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
	if ((st = tr_db_prepare(f->db, "SELECT id, parent_id, frame_id FROM "
	    "callsite WHERE id <= ?1", f->err)) == NULL)
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
	int64_t	i;
	int	j;

	sqlite3_finalize(f->thread_st);
	for (j = 0; j < 2; j++) {
		if (f->fname[j] != NULL)
			for (i = 0; i <= f->nframes; i++)
				free(f->fname[j][i]);
		free(f->fname[j]);
	}
	free(f->parent);
	free(f->frame);
	free(f->need);
	free(f->walked);
	free(f->walk);
	tr_buf_release(&f->buf);
}

int
tr_flame_fold(struct tr_db *db, const struct tr_flame_sel *sel,
    const struct tr_flame_fold_opts *opts, struct tr_folded *out,
    struct tr_error *err)
{
	struct fold		 f;
	struct tr_buf		 sql;
	struct tr_map		*aggs = NULL, *threads = NULL, *names = NULL;
	struct agg		*ag = NULL;
	struct thread_name	*tn = NULL;
	struct line		*lines = NULL;
	sqlite3_stmt		*st = NULL;
	const char		*stack;
	int64_t			 event = 0, t0 = 0, key[2], idx, maxcs = 0;
	int64_t			*seen = NULL, ev, v;
	size_t			 nag = 0, capag = 0, ntn = 0, captn = 0;
	size_t			 nseen = 0, i, nl = 0, capl = 0;
	int			 found, rc, ret = -1, began = 0;

	memset(out, 0, sizeof *out);
	memset(&f, 0, sizeof f);
	f.db = db;
	f.o = opts;
	f.err = err;
	tr_buf_init(&f.buf);
	tr_buf_init(&sql);
	/* One snapshot, and one lock for the many small reads below. */
	if (sqlite3_get_autocommit(db->sq)) {
		if (tr_db_exec(db, "BEGIN", err) != 0)
			goto out;
		began = 1;
	}

	if (sel->has_from || sel->has_to) {
		if (query_int(db, "SELECT min(ts_min + clock_offset) FROM "
		    "source WHERE ?1 = 0 OR id = ?1", sel->source_id, NULL,
		    &t0, &found, err) != 0)
			goto out;
		if (!found)
			goto done;
	}
	if (sel->event != NULL) {
		out->event = tr_xstrdup(sel->event);
		if (query_int(db, "SELECT id FROM str WHERE s = ?1", 0,
		    sel->event, &event, &found, err) != 0)
			goto out;
		if (!found)
			goto done;
	} else {
		/*
		 * stackcollapse-perf.pl keeps the first event it meets; for
		 * pprof samples, the profile's default sample type (or its
		 * last), as go tool pprof does.
		 */
		tr_buf_adds(&sql, "SELECT coalesce((SELECT e.id FROM profile "
		    "pr JOIN str e ON e.s = coalesce(nullif(pr.default_type, "
		    "''), json_extract(pr.sample_types, '$[#-1].type')) WHERE "
		    "pr.id = s.profile_id), s.event_id)");
		sel_sql(&sql, sel, 0);
		tr_buf_adds(&sql, " ORDER BY s.id LIMIT 1");
		if ((st = tr_db_prepare(db, sql.data, err)) == NULL)
			goto out;
		bind_sel(st, sel, 0, t0);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			event = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		st = NULL;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			tr_db_error(db, err, "cannot read samples");
			goto out;
		}
		if (rc == SQLITE_DONE)
			goto done;
		if ((st = tr_db_prepare(db, "SELECT s FROM str WHERE id = ?1",
		    err)) == NULL)
			goto out;
		sqlite3_bind_int64(st, 1, event);
		if (sqlite3_step(st) == SQLITE_ROW)
			out->event = tr_xstrdup((const char *)
			    sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		st = NULL;
	}

	/* Sum the values per (call site, thread). */
	tr_buf_reset(&sql);
	tr_buf_adds(&sql, "SELECT s.event_id, s.callsite_id, s.thread_id, "
	    "s.value");
	sel_sql(&sql, sel, sel->event != NULL);
	if ((st = tr_db_prepare(db, sql.data, err)) == NULL)
		goto out;
	bind_sel(st, sel, sel->event != NULL ? event : 0, t0);
	aggs = tr_map_new();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ev = sqlite3_column_int64(st, 0);
		if (ev != event) {
			for (i = 0; i < nseen && seen[i] != ev; i++)
				;
			if (i == nseen) {
				seen = tr_xrealloc(seen, (nseen + 1) *
				    sizeof *seen);
				seen[nseen++] = ev;
			}
			continue;
		}
		key[0] = sqlite3_column_int64(st, 1);
		key[1] = sqlite3_column_int64(st, 2);
		v = sqlite3_column_int64(st, 3);
		if (tr_map_get(aggs, key, sizeof key, &idx)) {
			ag[idx].value += v;
			continue;
		}
		if (nag == capag) {
			capag = capag ? capag * 2 : 1024;
			ag = tr_xrealloc(ag, capag * sizeof *ag);
		}
		ag[nag].cs = key[0];
		ag[nag].thread = key[1];
		ag[nag].value = v;
		if (key[0] > maxcs)
			maxcs = key[0];
		tr_map_put(aggs, key, sizeof key, (int64_t)nag++);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read samples");
		goto out;
	}
	out->events = (int)nseen + (nag > 0);
	if (nag == 0)
		goto done;

	/* Name the stacks and the threads, then merge equal names. */
	if (load_callsites(&f, maxcs) != 0 ||
	    query_int(db, "SELECT max(id) FROM frame WHERE id >= ?1", 0, NULL,
	    &f.nframes, &found, err) != 0)
		goto out;
	f.fname[0] = tr_xcalloc((size_t)f.nframes + 1, sizeof *f.fname[0]);
	f.fname[1] = tr_xcalloc((size_t)f.nframes + 1, sizeof *f.fname[1]);
	f.need = tr_xcalloc((size_t)f.nframes + 1, 1);
	f.walked = tr_xcalloc((size_t)f.ncs + 1, 1);
	if ((f.thread_st = tr_db_prepare(db, "SELECT t.name, t.tid, p.pid "
	    "FROM thread t LEFT JOIN process p ON p.id = t.process_id "
	    "WHERE t.id = ?1", err)) == NULL)
		goto out;
	/* Name the threads, and mark the frames each stack needs. */
	threads = tr_map_new();
	for (i = 0; i < nag; i++) {
		if (!tr_map_get(threads, &ag[i].thread, sizeof ag[i].thread,
		    &idx)) {
			if (ntn == captn) {
				captn = captn ? captn * 2 : 64;
				tn = tr_xrealloc(tn, captn * sizeof *tn);
			}
			if (name_thread(&f, ag[i].thread, &tn[ntn]) != 0)
				goto out;
			idx = (int64_t)ntn++;
			tr_map_put(threads, &ag[i].thread,
			    sizeof ag[i].thread, idx);
		}
		ag[i].thread = idx;
		need_frames(&f, ag[i].cs, tn[idx].java);
	}
	if (name_frames(&f) != 0)
		goto out;
	/* Many call sites fold to one name: sum by name, then sort those. */
	names = tr_map_new();
	for (i = 0; i < nag; i++) {
		idx = ag[i].thread;
		if ((stack = stack_name(&f, ag[i].cs, tn[idx].java,
		    tn[idx].pname)) == NULL)
			goto out;
		if (*stack == '\0' && tn[idx].pname == NULL)
			continue;
		if (tr_map_get(names, stack, f.buf.len, &idx)) {
			lines[idx].n += ag[i].value;
			continue;
		}
		if (nl == capl) {
			capl = capl ? capl * 2 : 1024;
			lines = tr_xrealloc(lines, capl * sizeof *lines);
		}
		lines[nl].s = tr_xstrndup(stack, f.buf.len);
		lines[nl].n = ag[i].value;
		tr_map_put(names, stack, f.buf.len, (int64_t)nl++);
	}
	qsort(lines, nl, sizeof *lines, cmp_line);
	out->stacks = tr_xcalloc(nl ? nl : 1, sizeof *out->stacks);
	out->counts = tr_xcalloc(nl ? nl : 1, sizeof *out->counts);
	for (i = 0; i < nl; i++) {
		out->stacks[i] = lines[i].s;
		out->counts[i] = lines[i].n;
	}
	out->n = nl;
	nl = 0;
done:
	ret = 0;
out:
	sqlite3_finalize(st);
	for (i = 0; i < nl; i++)
		free(lines[i].s);
	free(lines);
	for (i = 0; i < ntn; i++)
		free(tn[i].pname);
	free(tn);
	free(ag);
	free(seen);
	tr_map_free(aggs);
	tr_map_free(threads);
	tr_map_free(names);
	tr_buf_release(&sql);
	fold_release(&f);
	if (began)
		tr_db_exec(db, "COMMIT", NULL);
	if (ret != 0)
		tr_folded_release(out);
	return (ret);
}

sqlite3_stmt *
tr_flame_sel_prepare(struct tr_db *db, const struct tr_flame_sel *sel,
    const char *cols, int64_t event, const char *tail, int *none,
    struct tr_error *err)
{
	struct tr_buf	 sql;
	sqlite3_stmt	*st;
	int64_t		 t0 = 0;
	int		 found;

	*none = 0;
	if (sel->has_from || sel->has_to) {
		if (query_int(db, "SELECT min(ts_min + clock_offset) FROM "
		    "source WHERE ?1 = 0 OR id = ?1", sel->source_id, NULL,
		    &t0, &found, err) != 0)
			return (NULL);
		if (!found) {
			*none = 1;
			return (NULL);
		}
	}
	tr_buf_init(&sql);
	tr_buf_printf(&sql, "SELECT %s", cols);
	sel_sql(&sql, sel, event > 0);
	if (tail != NULL)
		tr_buf_adds(&sql, tail);
	if ((st = tr_db_prepare(db, sql.data, err)) != NULL)
		bind_sel(st, sel, event, t0);
	tr_buf_release(&sql);
	return (st);
}

void
tr_folded_release(struct tr_folded *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		free(f->stacks[i]);
	free(f->stacks);
	free(f->counts);
	free(f->event);
	memset(f, 0, sizeof *f);
}

int
tr_folded_write(const struct tr_folded *f, FILE *fp)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		fprintf(fp, "%s %lld\n", f->stacks[i], (long long)f->counts[i]);
	return (ferror(fp) ? -1 : 0);
}
