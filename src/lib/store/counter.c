/*
 * Counters in runs (store/counter.h): a run's JSON written and walked,
 * a track's points read over a window, and the step from the counter
 * table of schema version 7.
 */
#include "config.h"
#include "store/counter.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
tr_counter_val_set(struct tr_counter_val *c, double v)
{
	c->i = 0;
	c->d = v;
	if (isnan(v))
		c->type = TR_COUNTER_NULL;
	else if (v == floor(v) && fabs(v) < 9e15) {
		/* As the writer bound them when counters were rows. */
		c->type = TR_COUNTER_INT;
		c->i = (int64_t)v;
	} else
		c->type = TR_COUNTER_REAL;
}

double
tr_counter_val_double(const struct tr_counter_val *c)
{
	switch (c->type) {
	case TR_COUNTER_INT:
		return ((double)c->i);
	case TR_COUNTER_REAL:
		return (c->d);
	}
	return (NAN);
}

/* A value as JSON: SQLite reads 9e999 back as an infinity. */
static void
put_val(struct tr_buf *b, const struct tr_counter_val *c)
{
	char	tmp[32];

	switch (c->type) {
	case TR_COUNTER_INT:
		tr_buf_addi(b, c->i);
		return;
	case TR_COUNTER_REAL:
		if (isinf(c->d)) {
			tr_buf_adds(b, c->d > 0 ? "9e999" : "-9e999");
			return;
		}
		snprintf(tmp, sizeof tmp, "%.17g", c->d);
		/* An integral real keeps a mark of its type. */
		if (strpbrk(tmp, ".eEn") == NULL)
			strcat(tmp, ".0");
		tr_buf_adds(b, tmp);
		return;
	}
	tr_buf_adds(b, "null");
}

void
tr_counter_run_json(struct tr_buf *b, const int64_t *ts,
    const struct tr_counter_val *val, int n, int64_t *t0p, int64_t *endp)
{
	int64_t	t0 = ts[0], end = ts[0];
	int	i;

	for (i = 1; i < n; i++) {
		if (ts[i] < t0)
			t0 = ts[i];
		if (ts[i] > end)
			end = ts[i];
	}
	*t0p = t0;
	*endp = end;
	tr_buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		tr_buf_adds(b, i > 0 ? ",[" : "[");
		tr_buf_addi(b, ts[i] - t0);
		tr_buf_addc(b, ',');
		put_val(b, &val[i]);
		tr_buf_addc(b, ']');
	}
	tr_buf_addc(b, ']');
}

/*
 * A JSON number or null at p (e its end): an integer when it is written
 * as one and fits, else a real.  The end of it, or NULL.
 */
static const char *
number(const char *p, const char *e, struct tr_counter_val *c)
{
	char		 tmp[64], *end;
	const char	*q = p;
	size_t		 n;
	int		 real = 0;

	if (e - p >= 4 && memcmp(p, "null", 4) == 0) {
		c->type = TR_COUNTER_NULL;
		return (p + 4);
	}
	while (q < e && (*q == '-' || *q == '+' || *q == '.' || *q == 'e' ||
	    *q == 'E' || (*q >= '0' && *q <= '9'))) {
		real |= *q == '.' || *q == 'e' || *q == 'E';
		q++;
	}
	n = (size_t)(q - p);
	if (n == 0 || n >= sizeof tmp)
		return (NULL);
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	errno = 0;
	if (!real) {
		c->i = strtoll(tmp, &end, 10);
		if (*end == '\0' && errno == 0) {
			c->type = TR_COUNTER_INT;
			return (q);
		}
	}
	c->d = strtod(tmp, &end);
	if (*end != '\0')
		return (NULL);
	c->type = TR_COUNTER_REAL;
	return (q);
}

int
tr_counter_walk(const char *p, size_t len, int64_t run_id, int64_t run_ts,
    tr_counter_fn *fn, void *arg, struct tr_error *err)
{
	const char		*e = p + len;
	struct tr_counter_val	 dt, v;
	int64_t			 k = 0;
	int			 rc, more;

	if (p == NULL)
		goto bad;
	p = tr_skip_ws(p, e);
	if (p >= e || *p++ != '[')
		goto bad;
	p = tr_skip_ws(p, e);
	if (p < e && *p == ']')
		return (0);
	for (;; k++) {
		p = tr_skip_ws(p, e);
		if (p >= e || *p++ != '[')
			goto bad;
		p = tr_skip_ws(p, e);
		if ((p = number(p, e, &dt)) == NULL ||
		    dt.type != TR_COUNTER_INT)
			goto bad;
		p = tr_skip_ws(p, e);
		if (p >= e || *p++ != ',')
			goto bad;
		p = tr_skip_ws(p, e);
		if ((p = number(p, e, &v)) == NULL)
			goto bad;
		p = tr_skip_ws(p, e);
		if (p >= e || *p++ != ']')
			goto bad;
		if ((rc = fn(arg, run_id + k, run_ts + dt.i, &v, err)) != 0)
			return (rc);
		if ((more = tr_json_array_next(&p, e)) == 0)
			return (0);
		if (more < 0)
			goto bad;
	}
bad:
	return (tr_error_set(err, TR_EDATA, "counter_run %lld: its points are "
	    "not a run's JSON", (long long)run_id));
}

void
tr_counter_pts_free(struct tr_counter_pts *p)
{
	free(p->id);
	free(p->ts);
	free(p->v);
	memset(p, 0, sizeof *p);
}

struct rd {
	struct tr_counter_pts	*out;
	int64_t			 lo, hi;
	int			 sorted;
};

static int
rd_point(void *arg, int64_t id, int64_t ts, const struct tr_counter_val *v,
    struct tr_error *err)
{
	struct rd		*r = arg;
	struct tr_counter_pts	*o = r->out;

	(void)err;
	if (ts < r->lo || ts >= r->hi || v->type == TR_COUNTER_NULL)
		return (0);
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 256;
		o->id = tr_xrealloc(o->id, o->cap * sizeof *o->id);
		o->ts = tr_xrealloc(o->ts, o->cap * sizeof *o->ts);
		o->v = tr_xrealloc(o->v, o->cap * sizeof *o->v);
	}
	if (o->n > 0 && (ts < o->ts[o->n - 1] ||
	    (ts == o->ts[o->n - 1] && id < o->id[o->n - 1])))
		r->sorted = 0;
	o->id[o->n] = id;
	o->ts[o->n] = ts;
	o->v[o->n] = tr_counter_val_double(v);
	o->n++;
	return (0);
}

struct pt {
	int64_t	id, ts;
	double	v;
};

static int
pt_cmp(const void *a, const void *b)
{
	const struct pt	*x = a, *y = b;

	if (x->ts != y->ts)
		return (x->ts < y->ts ? -1 : 1);
	return ((x->id > y->id) - (x->id < y->id));
}

void
tr_counter_pts_sort(struct tr_counter_pts *o, size_t from)
{
	size_t		 n = o->n - from, i;
	struct pt	*p = tr_xcalloc(n, sizeof *p);

	for (i = 0; i < n; i++) {
		p[i].id = o->id[from + i];
		p[i].ts = o->ts[from + i];
		p[i].v = o->v[from + i];
	}
	qsort(p, n, sizeof *p, pt_cmp);
	for (i = 0; i < n; i++) {
		o->id[from + i] = p[i].id;
		o->ts[from + i] = p[i].ts;
		o->v[from + i] = p[i].v;
	}
	free(p);
}

/* A walk's error, said of the store: -1. */
static int
located(struct tr_db *db, struct tr_error *err)
{
	char	msg[sizeof err->msg];

	snprintf(msg, sizeof msg, "%s", err->msg);
	tr_error_init(err);
	return (tr_error_set_line(err, TR_EDATA, db->path, 0, 0, "%s", msg));
}

struct below {
	int64_t	lo, best;
	int	found;
};

/* The largest ts below b->lo, whatever the value. */
static int
max_below(void *arg, int64_t id, int64_t ts, const struct tr_counter_val *v,
    struct tr_error *err)
{
	struct below	*b = arg;

	(void)id;
	(void)v;
	(void)err;
	if (ts < b->lo && (!b->found || ts > b->best)) {
		b->best = ts;
		b->found = 1;
	}
	return (0);
}

/* The ts of the last point before 'lo' into *at: 1, 0 (none) or -1. */
static int
last_before(struct tr_db *db, int64_t track_id, int64_t name_id, int64_t lo,
    int64_t *at, struct tr_error *err)
{
	struct below	 b = { lo, 0, 0 };
	sqlite3_stmt	*st;
	int64_t		 end;
	int		 rc, r = 0;

	/*
	 * A run that ends before lo has its last point at end_ts; only one
	 * that straddles lo is read.
	 */
	st = tr_db_prepare(db, "SELECT id, ts, end_ts, points FROM counter_run "
	    "WHERE track_id = ?1 AND name_id = ?2 AND ts < ?3", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, track_id);
	sqlite3_bind_int64(st, 2, name_id);
	sqlite3_bind_int64(st, 3, lo);
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		end = sqlite3_column_int64(st, 2);
		if (end < lo)
			max_below(&b, 0, end, NULL, err);
		else
			r = tr_counter_walk((const char *)sqlite3_column_text(
			    st, 3), (size_t)sqlite3_column_bytes(st, 3),
			    sqlite3_column_int64(st, 0), sqlite3_column_int64(
			    st, 1), max_below, &b, err);
	}
	sqlite3_finalize(st);
	if (r != 0)
		return (located(db, err));
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read counters"));
	*at = b.best;
	return (b.found);
}

int
tr_counter_read(struct tr_db *db, int64_t track_id, int64_t name_id,
    int64_t lo, int64_t hi, int prev, struct tr_counter_pts *out,
    struct tr_error *err)
{
	struct rd	 r;
	sqlite3_stmt	*st;
	size_t		 from = out->n;
	int64_t		 at = 0;
	int		 rc, f = 0;

	if (prev && lo > INT64_MIN) {
		if ((rc = last_before(db, track_id, name_id, lo, &at,
		    err)) < 0)
			return (-1);
		if (rc == 1)
			lo = at;
	}
	r.out = out;
	r.lo = lo;
	r.hi = hi;
	r.sorted = 1;
	st = tr_db_prepare(db, "SELECT id, ts, points FROM counter_run "
	    "WHERE track_id = ?1 AND name_id = ?2 AND ts < ?4 "
	    "AND end_ts >= ?3 ORDER BY ts, id", err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, track_id);
	sqlite3_bind_int64(st, 2, name_id);
	sqlite3_bind_int64(st, 3, lo);
	sqlite3_bind_int64(st, 4, hi);
	while (f == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW)
		f = tr_counter_walk((const char *)sqlite3_column_text(st, 2),
		    (size_t)sqlite3_column_bytes(st, 2),
		    sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
		    rd_point, &r, err);
	sqlite3_finalize(st);
	if (f != 0)
		return (located(db, err));
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read counters"));
	if (!r.sorted)
		tr_counter_pts_sort(out, from);
	return (0);
}

/* --- the step from version 7 ----------------------------------------- */

struct mig {
	sqlite3_stmt		*ins;
	int64_t			 next_id, source, track, name;
	int			 n;
	int64_t			 ts[TR_COUNTER_RUN];
	struct tr_counter_val	 val[TR_COUNTER_RUN];
	struct tr_buf		 json;
};

static int
mig_flush(struct tr_db *db, struct mig *m, struct tr_error *err)
{
	int64_t	t0, end;
	int	rc;

	if (m->n == 0)
		return (0);
	tr_buf_reset(&m->json);
	tr_counter_run_json(&m->json, m->ts, m->val, m->n, &t0, &end);
	sqlite3_bind_int64(m->ins, 1, m->next_id);
	sqlite3_bind_int64(m->ins, 2, m->source);
	sqlite3_bind_int64(m->ins, 3, m->track);
	sqlite3_bind_int64(m->ins, 4, m->name);
	sqlite3_bind_int64(m->ins, 5, t0);
	sqlite3_bind_int64(m->ins, 6, end);
	sqlite3_bind_int64(m->ins, 7, m->n);
	sqlite3_bind_text(m->ins, 8, m->json.data, (int)m->json.len,
	    SQLITE_STATIC);
	rc = sqlite3_step(m->ins);
	sqlite3_reset(m->ins);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot write counter runs"));
	m->next_id += m->n;
	m->n = 0;
	return (0);
}

int
tr_counter_migrate(struct tr_db *db, struct tr_error *err)
{
	struct mig	 m;
	sqlite3_stmt	*st;
	int64_t		 src, track, name;
	int		 rc, r = -1;

	memset(&m, 0, sizeof m);
	m.next_id = 1;
	tr_buf_init(&m.json);
	m.ins = tr_db_prepare(db, "INSERT INTO counter_run (id, source_id, "
	    "track_id, name_id, ts, end_ts, n, points) VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6, ?7, ?8)", err);
	st = tr_db_prepare(db, "SELECT source_id, track_id, name_id, ts, "
	    "value FROM counter_v7 ORDER BY track_id, name_id, ts, id", err);
	if (m.ins == NULL || st == NULL)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		src = sqlite3_column_int64(st, 0);
		track = sqlite3_column_int64(st, 1);
		name = sqlite3_column_int64(st, 2);
		if (m.n == TR_COUNTER_RUN || (m.n > 0 && (track != m.track ||
		    name != m.name || src != m.source)))
			if (mig_flush(db, &m, err) != 0)
				goto out;
		m.source = src;
		m.track = track;
		m.name = name;
		m.ts[m.n] = sqlite3_column_int64(st, 3);
		switch (sqlite3_column_type(st, 4)) {
		case SQLITE_INTEGER:
			m.val[m.n].type = TR_COUNTER_INT;
			m.val[m.n].i = sqlite3_column_int64(st, 4);
			break;
		case SQLITE_NULL:
			m.val[m.n].type = TR_COUNTER_NULL;
			break;
		default:
			m.val[m.n].type = TR_COUNTER_REAL;
			m.val[m.n].d = sqlite3_column_double(st, 4);
			break;
		}
		m.n++;
	}
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read counters");
		goto out;
	}
	r = mig_flush(db, &m, err);
out:
	sqlite3_finalize(st);
	sqlite3_finalize(m.ins);
	tr_buf_release(&m.json);
	return (r);
}
