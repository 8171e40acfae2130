/*
 * Alignment: decide every source's mapping onto the store's timeline
 * (CLOCK_MONOTONIC of the traced host), apply what changed in one
 * transaction, and report each source with its evidence.
 *
 * Order of trust: a native monotonic clock; exact anchors in the data
 * (perf's reference time, Go clock snapshots, clock.json pairs,
 * tracekit.clock logs in a Go trace); statements on the command line; and
 * last, estimates by cross-correlation, applied only above the confidence
 * threshold (or with --force).
 */
#include "config.h"
#include "align/align.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/names.h"
#include "base/util.h"
#include "base/wallclock.h"
#include "store/counter.h"
#include "store/derived.h"

#define UNKNOWN		(-1)		/* an uncertainty nobody knows */
#define PERF_REF_UNC	500		/* perf prints the wall time in us */
#define SNAPSHOT_UNC	1000		/* Go reads the clocks in turn */
#define MAX_CAND	4		/* processes or GPUs tried per source */
#define MAX_POINTS	INT64_C(4000000)	/* samples read per signal */
#define PERIOD_ROWS	200000		/* samples read for the period */

enum cls {
	C_MONO,		/* CLOCK_MONOTONIC of the host: aligned as it is */
	C_WALL,		/* wall clock (UTC ns): needs a wall/mono pair */
	C_NEAR,		/* a since-boot clock close to monotonic */
	C_UNKNOWN	/* origin unknown (Go ticks, none) */
};

/* Where a kept --offset counts from ("user_offset_from" in its meta). */
enum {
	FROM_LEGACY,	/* not said: anchors when there are any, else native */
	FROM_NATIVE,
	FROM_ANCHORS
};

enum sig_use {
	U_CPU,		/* CPU activity: samples, running goroutines */
	U_GPU		/* GPU utilisation */
};

struct anchor {
	int64_t		 native, mono, unc;
	const char	*kind;
};

struct wpair {
	int64_t		 wall, mono, unc;
	unsigned	 kind;
	int64_t		 src;
	const char	*host;
};

struct cand {
	struct tr_align_sig	 sig;	/* native times */
	enum sig_use		 use;
	int64_t			 pid;	/* samples of this process, or 0 */
	char			 what[96];
};

struct src {
	int64_t			 id;
	char			*path, *format, *clock, *host;
	enum cls		 cls;
	struct tr_align_map	 cur;
	char			*cur_method;
	double			 cur_conf;
	int			 has_range;
	int64_t			 ts_min, ts_max;	/* stored */
	json_t			*meta;

	struct anchor		*anc;		/* exact: native -> mono */
	size_t			 nanc;
	struct anchor		*uanc;		/* from --pair */
	size_t			 nuanc;
	const char		*anc_kinds;
	/* --offset: this run's statement, and the one kept in the store */
	int			 has_new_uoff, new_abs;
	int64_t			 new_uoff;
	int			 has_saved_uoff, saved_from;
	int64_t			 saved_uoff;
	int			 rel_pending;	/* waits for an alignment */
	int			 has_uoff;	/* one to keep, counted from */
	int			 uoff_abs;	/* native (1) or anchors (0) */
	int64_t			 uoff;
	int64_t			 pid;		/* --source-pid, 0: any */
	int			 stated;	/* a statement names it */
	int			 selected;	/* by --source (or all) */
	int64_t			 res;		/* time stamp resolution */
	int64_t			 interval;	/* sampling interval, or 0 */
	const char		*zone;		/* local times read in */
	const char		*zone_from;	/* who said so */
	const char		*kept_zone;	/* kept --source-tz */
	int64_t			 kept_ref;	/* an earlier estimate's */
	int64_t			 est_ref;	/* estimated against, or 0 */
	int64_t			 apart;		/* gap to the others, or 0 */
	int			 cands_loaded;
	struct cand		*cands;
	size_t			 ncands;

	size_t			 tried;		/* decided sources then */
	size_t			 ev_base;	/* evidence before estimating */
	int			 done;
	struct tr_align_map	 map;
	char			 method[32];
	double			 conf;		/* NAN: none */
	double			 est_conf;	/* a refused estimate's */
	int64_t			 unc;		/* UNKNOWN */
	struct tr_buf		 ev;		/* evidence, refusals */
};

/* The zone a clock.json recorded for its host. */
struct hostzone {
	const char	*host;
	const char	*zone;
};

struct run {
	struct tr_db			*db;
	struct hostzone			*hz;
	size_t				 nhz;
	const struct tr_align_opts	*o;
	struct src			*s;
	size_t				 n;
	struct wpair			*wp;
	size_t				 nwp;
	struct tr_error			*err;
};

/* --- options --------------------------------------------------------- */

void
tr_align_opts_init(struct tr_align_opts *o)
{
	memset(o, 0, sizeof *o);
	o->min_confidence = TR_ALIGN_MIN_CONFIDENCE;
	o->search_ns = TR_ALIGN_SEARCH_NS;
}

void
tr_align_opts_release(struct tr_align_opts *o)
{
	size_t	i;

	for (i = 0; i < o->nstmts; i++) {
		free(o->stmts[i].text);
		free(o->stmts[i].src[0]);
		free(o->stmts[i].src[1]);
		free(o->stmts[i].val[0]);
		free(o->stmts[i].val[1]);
	}
	free(o->stmts);
	tr_align_opts_init(o);
}

static const struct {
	const char	*name;
	unsigned	 bit;
} anchor_names[] = {
	{ "perf-ref", TR_ANCHOR_PERF_REF },
	{ "go-snapshot", TR_ANCHOR_GO_SNAPSHOT },
	{ "clock-json", TR_ANCHOR_CLOCK_JSON },
	{ "go-log", TR_ANCHOR_GO_LOG },
};

unsigned
tr_align_anchor_kind(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof anchor_names / sizeof anchor_names[0]; i++)
		if (strcmp(anchor_names[i].name, name) == 0)
			return (anchor_names[i].bit);
	return (0);
}

static const char *
anchor_name(unsigned bit)
{
	size_t	i;

	for (i = 0; i < sizeof anchor_names / sizeof anchor_names[0]; i++)
		if (anchor_names[i].bit == bit)
			return (anchor_names[i].name);
	return ("?");
}

/*
 * Split "LEFT=RIGHT" at the '=' (the last one for a pair, whose times
 * hold none).  *left is NULL when there is no '='.
 */
static void
split_eq(const char *t, char **left, char **right)
{
	const char	*eq = strchr(t, '=');

	if (eq == NULL) {
		*left = NULL;
		*right = tr_xstrdup(t);
		return;
	}
	*left = tr_xstrndup(t, (size_t)(eq - t));
	*right = tr_xstrdup(eq + 1);
}

/* "SOURCE:TIME" -> source, time; the source has no ':' of its own. */
static int
split_colon(const char *t, char **src, char **time)
{
	const char	*c = strchr(t, ':');

	if (c == NULL || c == t || c[1] == '\0')
		return (-1);
	*src = tr_xstrndup(t, (size_t)(c - t));
	*time = tr_xstrdup(c + 1);
	return (0);
}

int
tr_align_opts_add(struct tr_align_opts *o, enum tr_align_stmt_kind kind,
    const char *text, struct tr_error *err)
{
	struct tr_align_stmt	st;
	char			*l = NULL, *r = NULL;
	int64_t			 v;

	memset(&st, 0, sizeof st);
	st.kind = kind;
	split_eq(text, &l, &r);
	switch (kind) {
	case TR_ALIGN_OFFSET:
	case TR_ALIGN_OFFSET_ABS:
		/* SOURCE==OFFSET counts from the native clock. */
		if (r[0] == '=')
			st.kind = TR_ALIGN_OFFSET_ABS;
		if (l == NULL || *l == '\0' || tr_parse_duration(r +
		    (st.kind == TR_ALIGN_OFFSET_ABS), &v) != 0) {
			tr_error_set(err, TR_EUSAGE, "--offset '%s': expected "
			    "SOURCE=OFFSET (from its alignment, as in "
			    "2=+12.5ms) or SOURCE==OFFSET (from its native "
			    "clock)", text);
			goto bad;
		}
		st.src[0] = l;
		st.val[0] = tr_xstrdup(r + (st.kind == TR_ALIGN_OFFSET_ABS));
		free(r);
		break;
	case TR_ALIGN_PAIR:
		if (l == NULL || split_colon(l, &st.src[0], &st.val[0]) != 0 ||
		    split_colon(r, &st.src[1], &st.val[1]) != 0) {
			free(st.src[0]);
			free(st.val[0]);
			tr_error_set(err, TR_EUSAGE, "--pair '%s': expected "
			    "SOURCE:TIME=SOURCE:TIME, as in 3:+1.5s=1:742.1",
			    text);
			goto bad;
		}
		free(l);
		free(r);
		break;
	case TR_ALIGN_TZ:
	case TR_ALIGN_PID:
		if ((l != NULL && *l == '\0') || *r == '\0') {
			tr_error_set(err, TR_EUSAGE, "--%s '%s': expected "
			    "[SOURCE=]%s", kind == TR_ALIGN_TZ ? "source-tz" :
			    "source-pid",
			    text, kind == TR_ALIGN_TZ ? "ZONE" : "PID");
			goto bad;
		}
		if (kind == TR_ALIGN_PID) {
			char	*end;
			long long p;

			errno = 0;
			p = strtoll(r, &end, 10);
			if (*end != '\0' || errno != 0 || p <= 0) {
				tr_error_set(err, TR_EUSAGE,
				    "--source-pid '%s': "
				    "expected a process id, got '%s'", text, r);
				goto bad;
			}
		}
		st.src[0] = l;
		st.val[0] = r;
		break;
	}
	st.text = tr_xstrdup(text);
	o->stmts = tr_xrealloc(o->stmts, (o->nstmts + 1) * sizeof *o->stmts);
	o->stmts[o->nstmts++] = st;
	return (0);
bad:
	free(l);
	free(r);
	return (-1);
}

/* --- loading the sources --------------------------------------------- */

static enum cls
clock_class(const char *clock)
{
	if (strcmp(clock, "monotonic") == 0)
		return (C_MONO);
	if (strcmp(clock, "wall") == 0 || strcmp(clock, "realtime") == 0)
		return (C_WALL);
	if (strcmp(clock, "perf") == 0 || strcmp(clock, "boottime") == 0 ||
	    strcmp(clock, "monotonic_raw") == 0)
		return (C_NEAR);
	return (C_UNKNOWN);
}

static char *
col_text(sqlite3_stmt *st, int i)
{
	const unsigned char	*t = sqlite3_column_text(st, i);

	return (t ? tr_xstrdup((const char *)t) : NULL);
}

static int64_t
json_int(json_t *o, const char *key, int *ok)
{
	json_t	*v = o ? json_object_get(o, key) : NULL;

	if (v != NULL && json_is_integer(v)) {
		*ok = 1;
		return (json_integer_value(v));
	}
	*ok = 0;
	return (0);
}

/* Whether --source selects source 'id' (every source without it). */
static int
selected(const struct tr_align_opts *o, int64_t id)
{
	size_t	i;

	if (o->nsources == 0)
		return (1);
	for (i = 0; i < o->nsources; i++)
		if (o->sources[i] == id)
			return (1);
	return (0);
}

/*
 * The zone a source's local times were read in at import, and where
 * that zone came from: trace-import's --tz, or a guess from the TZ
 * variable or the system's zone of the machine that imported it.
 */
static void
import_zone(struct src *s)
{
	json_t		*tz = json_object_get(s->meta, "tz");
	json_t		*from = json_object_get(s->meta, "tz_from");
	const char	*f;

	if (s->cls != C_WALL || !json_is_string(tz))
		return;
	s->zone = json_string_value(tz);
	f = json_is_string(from) ? json_string_value(from) : "";
	s->zone_from = strcmp(f, "option") == 0 ? "trace-import --tz" :
	    strcmp(f, "TZ") == 0 ? "TZ" : strcmp(f, "system") == 0 ?
	    "system" : "unknown";
}

/*
 * The sampling interval a GPU importer measured (the median gap of its
 * series) or was given (--interval), or 0.
 */
static int64_t
sampling_interval(json_t *meta)
{
	json_t	*sm = json_object_get(meta, "sampling");
	int	 ok;
	int64_t	 v = json_int(sm, "median_gap_ns", &ok);

	if (!ok || v <= 0)
		v = json_int(sm, "interval_ns", &ok);
	return (ok && v > 0 ? v : 0);
}

static int
offset_from(json_t *al)
{
	json_t	*f = json_object_get(al, "user_offset_from");

	if (!json_is_string(f))
		return (FROM_LEGACY);
	return (strcmp(json_string_value(f), "native") == 0 ? FROM_NATIVE :
	    FROM_ANCHORS);
}

static void
src_release(struct src *s)
{
	size_t	i;

	free(s->path);
	free(s->format);
	free(s->clock);
	free(s->host);
	free(s->cur_method);
	json_decref(s->meta);
	free(s->anc);
	free(s->uanc);
	for (i = 0; i < s->ncands; i++)
		tr_align_sig_release(&s->cands[i].sig);
	free(s->cands);
	tr_buf_release(&s->ev);
}

static int
load_sources(struct run *r)
{
	sqlite3_stmt	*st;
	struct src	*s;
	json_t		*al;
	json_error_t	 je;
	size_t		 cap = 0;
	int		 rc, ok;

	st = tr_db_prepare(r->db, "SELECT id, path, format, clock, "
	    "clock_offset, clock_drift_ppm, align_method, align_confidence, "
	    "ts_min, ts_max, meta, host FROM source ORDER BY id", r->err);
	if (st == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (r->n == cap) {
			cap = cap ? cap * 2 : 16;
			r->s = tr_xrealloc(r->s, cap * sizeof *r->s);
		}
		s = &r->s[r->n++];
		memset(s, 0, sizeof *s);
		tr_buf_init(&s->ev);
		s->id = sqlite3_column_int64(st, 0);
		s->path = col_text(st, 1);
		s->format = col_text(st, 2);
		s->clock = col_text(st, 3);
		s->cls = clock_class(s->clock);
		s->cur.offset = sqlite3_column_int64(st, 4);
		s->cur.drift = sqlite3_column_double(st, 5) / 1e6;
		s->cur_method = col_text(st, 6);
		s->cur_conf = sqlite3_column_type(st, 7) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(st, 7);
		s->has_range = sqlite3_column_type(st, 8) != SQLITE_NULL &&
		    sqlite3_column_type(st, 9) != SQLITE_NULL;
		s->ts_min = sqlite3_column_int64(st, 8);
		s->ts_max = sqlite3_column_int64(st, 9);
		s->meta = json_loads((const char *)sqlite3_column_text(st, 10),
		    0, &je);
		if (s->meta == NULL || !json_is_object(s->meta)) {
			json_decref(s->meta);
			s->meta = json_object();
		}
		s->host = col_text(st, 11);
		al = json_object_get(s->meta, "align");
		s->cur.ref = json_int(al, "ref_ns", &ok);
		s->saved_uoff = json_int(al, "user_offset_ns",
		    &s->has_saved_uoff);
		s->saved_from = offset_from(al);
		s->kept_ref = json_int(al, "estimated_against", &ok);
		if (json_is_string(json_object_get(al, "stated_zone")))
			s->kept_zone = json_string_value(json_object_get(al,
			    "stated_zone"));
		s->conf = NAN;
		s->est_conf = NAN;
		s->unc = UNKNOWN;
		s->selected = selected(r->o, s->id);
		import_zone(s);
		s->interval = sampling_interval(s->meta);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(r->db, r->err, "cannot read sources"));
	return (0);
}

static int
same_host(const char *a, const char *b)
{
	if (a == NULL || b == NULL || *a == '\0' || *b == '\0')
		return (1);
	return (strcmp(a, b) == 0);
}

/* --- anchors in the store -------------------------------------------- */

static void
add_anchor(struct anchor **a, size_t *n, int64_t native, int64_t mono,
    int64_t unc, const char *kind)
{
	*a = tr_xrealloc(*a, (*n + 1) * sizeof **a);
	(*a)[*n].native = native;
	(*a)[*n].mono = mono;
	(*a)[*n].unc = unc;
	(*a)[*n].kind = kind;
	(*n)++;
}

static void
add_wpair(struct run *r, const struct src *s, int64_t wall, int64_t mono,
    int64_t unc, unsigned kind)
{
	if (r->o->ignore & kind)
		return;
	r->wp = tr_xrealloc(r->wp, (r->nwp + 1) * sizeof *r->wp);
	r->wp[r->nwp].wall = wall;
	r->wp[r->nwp].mono = mono;
	r->wp[r->nwp].unc = unc;
	r->wp[r->nwp].kind = kind;
	r->wp[r->nwp].src = s->id;
	r->wp[r->nwp].host = s->host;
	r->nwp++;
}

/*
 * Wall/monotonic pairs: clock.json pairs, perf's reference time when perf
 * ran on CLOCK_MONOTONIC, Go clock snapshots.  Sources whose own clock is
 * neither get native/monotonic anchors from their snapshots here too.
 */
static void
collect_pairs(struct run *r)
{
	struct src	*s;
	json_t		*a, *p, *ref;
	size_t		 i, j;
	int64_t		 w, m, u, t;
	int		 ok1, ok2, ok3;

	for (i = 0; i < r->n; i++) {
		s = &r->s[i];
		if (strcmp(s->format, "clock-json") == 0 &&
		    (json_is_string(json_object_get(s->meta, "tz_name")) ||
		    json_is_string(json_object_get(s->meta, "tz")))) {
			p = json_object_get(s->meta, "tz_name");
			if (!json_is_string(p))
				p = json_object_get(s->meta, "tz");
			r->hz = tr_xrealloc(r->hz, (r->nhz + 1) *
			    sizeof *r->hz);
			r->hz[r->nhz].host = s->host;
			r->hz[r->nhz++].zone = json_string_value(p);
		}
		if (strcmp(s->format, "clock-json") == 0 &&
		    (a = json_object_get(s->meta, "pairs")) != NULL &&
		    json_is_array(a))
			json_array_foreach(a, j, p) {
				w = json_int(p, "wall_ns", &ok1);
				m = json_int(p, "mono_ns", &ok2);
				u = json_int(p, "uncertainty_ns", &ok3);
				if (ok1 && ok2)
					add_wpair(r, s, w, m, ok3 ? u : UNKNOWN,
					    TR_ANCHOR_CLOCK_JSON);
			}
		if ((ref = json_object_get(s->meta, "reference_time")) !=
		    NULL && json_is_object(ref)) {
			w = json_int(ref, "tod_ns", &ok1);
			m = json_int(ref, "clock_ns", &ok2);
			/* perf prints the wall time truncated to the us. */
			if (ok1 && ok2 && s->cls == C_MONO)
				add_wpair(r, s, w + PERF_REF_UNC, m,
				    PERF_REF_UNC, TR_ANCHOR_PERF_REF);
		}
		if ((a = json_object_get(s->meta, "clock_snapshots")) !=
		    NULL && json_is_array(a))
			json_array_foreach(a, j, p) {
				t = json_int(p, "trace_ns", &ok3);
				w = json_int(p, "wall_ns", &ok1);
				m = json_int(p, "mono_ns", &ok2);
				if (!ok2)
					continue;
				if (ok1)
					add_wpair(r, s, w, m, SNAPSHOT_UNC,
					    TR_ANCHOR_GO_SNAPSHOT);
				if (ok3 && s->cls != C_MONO &&
				    !(r->o->ignore & TR_ANCHOR_GO_SNAPSHOT))
					add_anchor(&s->anc, &s->nanc, t, m,
					    SNAPSHOT_UNC, "go-snapshot");
			}
	}
}

/* "mono=N wall=N unc=N" (any order, wall and unc optional). */
static int
parse_log(const char *msg, int64_t *mono, int64_t *unc)
{
	const char	*p = msg;
	char		*end;
	int		 have = 0;
	long long	 v;

	*unc = UNKNOWN;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (strncmp(p, "mono=", 5) == 0 ||
		    strncmp(p, "wall=", 5) == 0 ||
		    strncmp(p, "unc=", 4) == 0) {
			const char	*k = p;

			p = strchr(p, '=') + 1;
			errno = 0;
			v = strtoll(p, &end, 10);
			if (end == p || errno != 0 || (*end != ' ' &&
			    *end != '\0'))
				return (-1);
			if (*k == 'm') {
				*mono = v;
				have = 1;
			} else if (*k == 'u')
				*unc = v;
			p = end;
		} else if (*p != '\0')
			return (-1);
	}
	return (have ? 0 : -1);
}

/* tracekit.clock logs of Go traces: trace time -> monotonic. */
static int
collect_logs(struct run *r)
{
	sqlite3_stmt	*st;
	struct src	*s;
	json_t		*args, *msg;
	json_error_t	 je;
	int64_t		 mono = 0, unc;
	size_t		 i;
	int		 rc = 0;

	if (r->o->ignore & TR_ANCHOR_GO_LOG)
		return (0);
	st = tr_db_prepare(r->db, "SELECT s.ts, s.args FROM slice s "
	    "JOIN str n ON n.id = s.name_id JOIN str c ON c.id = s.category_id "
	    "WHERE s.source_id = ?1 AND n.s = '" TR_ALIGN_LOG_KEY "' "
	    "AND c.s = 'log' ORDER BY s.ts", r->err);
	if (st == NULL)
		return (-1);
	for (i = 0; i < r->n && rc == 0; i++) {
		s = &r->s[i];
		if (s->cls == C_MONO || s->cls == C_WALL)
			continue;
		sqlite3_bind_int64(st, 1, s->id);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char	*a = (const char *)
			    sqlite3_column_text(st, 1);

			if (a == NULL || (args = json_loads(a, 0, &je)) ==
			    NULL)
				continue;
			msg = json_object_get(args, "message");
			if (json_is_string(msg) &&
			    parse_log(json_string_value(msg), &mono, &unc) == 0)
				add_anchor(&s->anc, &s->nanc, tr_align_inverse(
				    &s->cur, sqlite3_column_int64(st, 0)), mono,
				    unc, "go-log");
			json_decref(args);
		}
		sqlite3_reset(st);
		rc = rc == SQLITE_DONE ? 0 : tr_db_error(r->db, r->err,
		    "cannot read logs");
	}
	sqlite3_finalize(st);
	return (rc);
}

/* --- fitting anchors ------------------------------------------------- */

static int64_t
max_unc(const struct anchor *a, size_t n)
{
	int64_t	u = 0;
	size_t	i;

	for (i = 0; i < n; i++) {
		if (a[i].unc == UNKNOWN)
			return (UNKNOWN);
		if (a[i].unc > u)
			u = a[i].unc;
	}
	return (u);
}

/*
 * Fit native -> mono through 'n' anchors.  With 'drift' and two anchors
 * or more a millisecond apart, a least-squares line (offset and drift);
 * otherwise one offset, the weighted mean, unless the anchors disagree by
 * more than their uncertainty (a wall clock that was stepped): then the
 * anchor nearest to 'near'.  Sets the mapping, the uncertainty and a note.
 */
static void
fit(struct src *s, const struct anchor *a, size_t n, int drift,
    int64_t near)
{
	int64_t	 y0 = a[0].mono - a[0].native, lo, hi, u = max_unc(a, n);
	int64_t	 spread, best;
	double	 sx = 0, sy = 0, sxx = 0, sxy = 0, mx, my, d, o, res = 0, e;
	double	 wsum = 0, wy = 0, wt;
	size_t	 i, k = 0;
	char	 buf[32];

	lo = hi = a[0].native;
	for (i = 0; i < n; i++) {
		if (a[i].native < lo)
			lo = a[i].native;
		if (a[i].native > hi)
			hi = a[i].native;
	}
	s->map.drift = 0;
	s->map.ref = 0;
	if (drift && n >= 2 && hi - lo >= 1000000) {
		s->map.ref = lo + (hi - lo) / 2;
		for (i = 0; i < n; i++) {
			double	x = (double)(a[i].native - s->map.ref);
			double	y = (double)(a[i].mono - a[i].native - y0);

			sx += x, sy += y, sxx += x * x, sxy += x * y;
		}
		mx = sx / (double)n;
		my = sy / (double)n;
		d = (sxy - (double)n * mx * my) / (sxx - (double)n * mx * mx);
		o = my - d * mx;
		for (i = 0; i < n; i++) {
			e = fabs((double)(a[i].mono - a[i].native - y0) -
			    (o + d * (double)(a[i].native - s->map.ref)));
			if (e > res)
				res = e;
		}
		s->map.offset = y0 + (int64_t)llround(o);
		s->map.drift = d;
		tr_format_duration((int64_t)ceil(res), buf, sizeof buf);
		tr_buf_printf(&s->ev, ", drift fitted, residual %s", buf);
		s->unc = u == UNKNOWN ? (int64_t)ceil(res) :
		    (u > (int64_t)ceil(res) ? u : (int64_t)ceil(res));
		return;
	}
	lo = hi = y0;
	for (i = 0; i < n; i++) {
		int64_t	y = a[i].mono - a[i].native;

		if (y < lo)
			lo = y;
		if (y > hi)
			hi = y;
		/* Unknown uncertainties weigh as 100 us. */
		wt = (double)(a[i].unc == UNKNOWN ? 100000 :
		    (a[i].unc < 1 ? 1 : a[i].unc));
		wt = 1 / (wt * wt);
		wsum += wt;
		wy += wt * (double)(y - y0);
	}
	spread = hi - lo;
	if (n > 1 && spread > 2 * ((u == UNKNOWN ? 100000 : u) + 1000)) {
		best = 0;
		for (i = 1; i < n; i++)
			if (llabs(a[i].native - near) <
			    llabs(a[best].native - near))
				best = (int64_t)i;
		k = (size_t)best;
		s->map.offset = a[k].mono - a[k].native;
		s->unc = a[k].unc;
		tr_format_duration(spread, buf, sizeof buf);
		tr_buf_printf(&s->ev, ", pairs disagree by %s (clock "
		    "stepped?): used the nearest", buf);
		return;
	}
	s->map.offset = y0 + (int64_t)llround(wy / wsum);
	s->unc = u;
	if (n > 1) {
		tr_format_duration(spread, buf, sizeof buf);
		tr_buf_printf(&s->ev, ", spread %s", buf);
		if (u == UNKNOWN || spread / 2 > u)
			s->unc = (spread + 1) / 2;
	}
}

/* "3 go-log", "2 clock-json + 1 perf-ref". */
static void
describe(struct tr_buf *b, const struct anchor *a, size_t n)
{
	const char	*kinds[8];
	size_t		 counts[8], nk = 0, i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < nk && strcmp(kinds[j], a[i].kind) != 0; j++)
			;
		if (j == nk && nk < 8) {
			kinds[nk] = a[i].kind;
			counts[nk++] = 0;
		}
		if (j < nk)
			counts[j]++;
	}
	for (j = 0; j < nk; j++)
		tr_buf_printf(b, "%s%zu %s", j ? " + " : "", counts[j],
		    kinds[j]);
	tr_buf_printf(b, " pair%s", n == 1 ? "" : "s");
}

static void
set_method(struct src *s, const char *m, double conf)
{
	snprintf(s->method, sizeof s->method, "%s", m);
	s->conf = conf;
	s->done = 1;
}

static int64_t
native_mid(const struct src *s)
{
	int64_t	a, b;

	if (!s->has_range)
		return (0);
	a = tr_align_inverse(&s->cur, s->ts_min);
	b = tr_align_inverse(&s->cur, s->ts_max);
	return (a + (b - a) / 2);
}

/*
 * Wall pairs of this source's host, as native (wall) -> mono anchors, the
 * most trusted kind first.
 */
static size_t
wall_anchors(struct run *r, const struct src *s, struct anchor **out)
{
	static const unsigned	order[] = { TR_ANCHOR_PERF_REF,
	    TR_ANCHOR_GO_SNAPSHOT, TR_ANCHOR_CLOCK_JSON };
	size_t			i, k, n = 0;

	*out = NULL;
	for (k = 0; k < sizeof order / sizeof order[0]; k++)
		for (i = 0; i < r->nwp; i++)
			if (r->wp[i].kind == order[k] &&
			    same_host(r->wp[i].host, s->host))
				add_anchor(out, &n, r->wp[i].wall,
				    r->wp[i].mono, r->wp[i].unc,
				    anchor_name(r->wp[i].kind));
	return (n);
}

/* A monotonic offset for wall times of this host (mono - wall), if any. */
static int
wall_to_mono(struct run *r, const struct src *s, int64_t near, int64_t *off,
    int64_t *unc)
{
	struct src	 tmp;
	struct anchor	*a;
	size_t		 n;

	if ((n = wall_anchors(r, s, &a)) == 0)
		return (0);
	memset(&tmp, 0, sizeof tmp);
	tr_buf_init(&tmp.ev);
	fit(&tmp, a, n, 0, near);
	*off = tmp.map.offset;
	*unc = tmp.unc;
	tr_buf_release(&tmp.ev);
	free(a);
	return (1);
}

/* --- statements ------------------------------------------------------ */

static const char *
base_name(const char *p)
{
	const char	*b = strrchr(p, '/');

	return (b ? b + 1 : p);
}

/* A statement may name only a source that --source selects. */
static struct src *
selected_src(struct run *r, struct src *s, const char *opt, const char *text)
{
	if (s->selected)
		return (s);
	tr_error_set(r->err, TR_EUSAGE, "%s '%s': source %" PRId64 " is not "
	    "selected (--source)", opt, text, s->id);
	return (NULL);
}

/* The source 'spec' names: its id, its path, its file name, its format. */
static struct src *
find_src(struct run *r, const char *spec, const char *opt,
    const char *text)
{
	struct src	*hit = NULL;
	char		*end;
	long long	 id;
	size_t		 i, pass, nhit;

	errno = 0;
	id = strtoll(spec, &end, 10);
	if (*end == '\0' && errno == 0) {
		for (i = 0; i < r->n; i++)
			if (r->s[i].id == id)
				return (selected_src(r, &r->s[i], opt, text));
		tr_error_set(r->err, TR_EUSAGE, "%s '%s': no source %lld in "
		    "the store", opt, text, id);
		return (NULL);
	}
	for (pass = 0; pass < 3; pass++) {
		nhit = 0;
		for (i = 0; i < r->n; i++) {
			const struct src	*s = &r->s[i];
			const char		*v = pass == 0 ? s->path :
			    pass == 1 ? base_name(s->path) : s->format;

			if (strcmp(v, spec) == 0) {
				hit = &r->s[i];
				nhit++;
			}
		}
		if (nhit == 1)
			return (selected_src(r, hit, opt, text));
		if (nhit > 1) {
			tr_error_set(r->err, TR_EUSAGE, "%s '%s': '%s' names "
			    "%zu sources; use the source number", opt, text,
			    spec, nhit);
			return (NULL);
		}
	}
	tr_error_set(r->err, TR_EUSAGE, "%s '%s': no source '%s' in the store "
	    "(give its number, path, file name or format)", opt, text, spec);
	return (NULL);
}

/*
 * A time on source 's''s native clock: seconds or a duration with a unit
 * ("742.474741497", "12.5ms"), "+DURATION" from the source's first event,
 * or for a wall-clock source a date ("2026-11-29T13:40:51.18Z",
 * "@1795959651.18").
 */
static int
native_time(struct run *r, const struct src *s, const char *t,
    const char *text, int64_t *out)
{
	if (t[0] == '+') {
		if (!s->has_range)
			return (tr_error_set(r->err, TR_EUSAGE, "--pair '%s': "
			    "source %" PRId64 " has no times to count '%s' "
			    "from", text, s->id, t));
		if (tr_parse_duration(t + 1, out) != 0)
			goto bad;
		*out += tr_align_inverse(&s->cur, s->ts_min);
		return (0);
	}
	/* A date with no zone is UTC, as wall-clock sources are stored. */
	if (tr_wallclock_parse(NULL, t, out) == 0) {
		if (s->cls != C_WALL)
			return (tr_error_set(r->err, TR_EUSAGE, "--pair '%s': "
			    "source %" PRId64 " does not run on a wall clock; "
			    "give its time in seconds or as +DURATION", text,
			    s->id));
		return (0);
	}
	if (tr_parse_duration(t, out) == 0)
		return (0);
bad:
	return (tr_error_set(r->err, TR_EUSAGE, "--pair '%s': cannot read "
	    "time '%s' (seconds, a duration such as 12.5ms, +DURATION, or a "
	    "date)", text, t));
}

/*
 * "+01:00", "-0530", "UTC", "Z": the zone's offset from UTC in ns.
 * Returns 0, or -1 for a zone given by name.
 */
static int
tz_offset(const char *z, int64_t *off)
{
	int	h = 0, m = 0, n = 0, neg;

	if (strcmp(z, "UTC") == 0 || strcmp(z, "Z") == 0 ||
	    strcmp(z, "GMT") == 0) {
		*off = 0;
		return (0);
	}
	if (*z != '+' && *z != '-')
		return (-1);
	neg = *z == '-';
	if (sscanf(z + 1, "%2d%n", &h, &n) != 1 || n != 2)
		return (-1);
	z += 3;
	if (*z == ':')
		z++;
	if (*z != '\0' && (sscanf(z, "%2d%n", &m, &n) != 1 || n != 2 ||
	    z[2] != '\0'))
		return (-1);
	if (h > 14 || m > 59)
		return (-1);
	*off = ((int64_t)h * 3600 + m * 60) * INT64_C(1000000000);
	if (neg)
		*off = -*off;
	return (0);
}

static int
apply_statements(struct run *r)
{
	const struct tr_align_stmt	*st;
	struct src			*s, *t;
	size_t				 i, j;
	int64_t				 v;

	for (i = 0; i < r->o->nstmts; i++) {
		st = &r->o->stmts[i];
		switch (st->kind) {
		case TR_ALIGN_OFFSET:
		case TR_ALIGN_OFFSET_ABS:
			if ((s = find_src(r, st->src[0], "--offset",
			    st->text)) == NULL)
				return (-1);
			if (s->has_new_uoff)
				return (tr_error_set(r->err, TR_EUSAGE,
				    "--offset '%s': source %" PRId64 " has an "
				    "--offset already", st->text, s->id));
			/* Read when the statement was added. */
			(void)tr_parse_duration(st->val[0], &v);
			s->has_new_uoff = 1;
			s->new_abs = st->kind == TR_ALIGN_OFFSET_ABS;
			s->new_uoff = v;
			/* Only an absolute one replaces what was kept. */
			if (s->new_abs)
				s->stated = 1;
			break;
		case TR_ALIGN_PAIR:
			if ((s = find_src(r, st->src[0], "--pair",
			    st->text)) == NULL || (t = find_src(r, st->src[1],
			    "--pair", st->text)) == NULL)
				return (-1);
			/* Read both times now: a bad one is an error. */
			if (native_time(r, s, st->val[0], st->text, &v) != 0 ||
			    native_time(r, t, st->val[1], st->text, &v) != 0)
				return (-1);
			s->stated = t->stated = 1;
			break;
		case TR_ALIGN_PID:
			if (st->src[0] != NULL) {
				if ((s = find_src(r, st->src[0], "--source-pid",
				    st->text)) == NULL)
					return (-1);
				s->pid = strtoll(st->val[0], NULL, 10);
			} else
				for (j = 0; j < r->n; j++)
					r->s[j].pid = strtoll(st->val[0], NULL,
					    10);
			break;
		case TR_ALIGN_TZ:
			if (tz_offset(st->val[0], &v) != 0) {
				struct tr_wallclock	*wc;

				struct tr_error		 e;

				tr_error_init(&e);
				if ((wc = tr_wallclock_new(st->val[0],
				    &e)) == NULL)
					return (tr_error_set(r->err, TR_EUSAGE,
					    "--source-tz '%s': %s", st->text,
					    e.msg));
				tr_wallclock_free(wc);
			}
			if (st->src[0] == NULL)
				break;
			if ((s = find_src(r, st->src[0], "--source-tz",
			    st->text)) ==
			    NULL)
				return (-1);
			if (s->cls != C_WALL)
				return (tr_error_set(r->err, TR_EUSAGE,
				    "--source-tz "
				    "'%s': source %" PRId64 " does not run on "
				    "a wall clock", st->text, s->id));
			s->stated = 1;
			break;
		}
	}
	return (0);
}

/*
 * The zone a --source-tz statement gives for 's' (*all set when it is
 * the --source-tz for every source), or NULL.
 */
static const char *
tz_for(struct run *r, const struct src *s, int *all)
{
	const struct tr_align_stmt	*st;
	const char			*z = NULL;
	size_t				 i;

	*all = 0;
	for (i = 0; i < r->o->nstmts; i++) {
		st = &r->o->stmts[i];
		if (st->kind != TR_ALIGN_TZ)
			continue;
		if (st->src[0] == NULL && z == NULL) {
			z = st->val[0];
			*all = 1;
		} else if (st->src[0] != NULL && find_src(r, st->src[0],
		    "--source-tz", st->text) == s) {
			*all = 0;
			return (st->val[0]);
		}
	}
	return (z);
}


/*
 * Read instant 'ns' as a local time in 'from' and that local time back in
 * 'to': the instant the same clock reading means in the other zone.
 * Zones are UTC, fixed offsets (+01:00) or names the C library knows.
 * Returns 0, or -1 with 'err' set (an unknown zone, a time that does not
 * exist in 'to').
 */
static int
rezone(const char *from, const char *to, int64_t ns, int64_t *out,
    struct tr_error *err)
{
	struct tr_wallclock	*wc;
	struct tr_civil		 c;
	int64_t			 off;

	if (tz_offset(from, &off) == 0)
		tr_civil_from_utc(ns + off, &c);
	else {
		if ((wc = tr_wallclock_new(from, err)) == NULL)
			return (-1);
		tr_wallclock_to_civil(wc, ns, &c);
		tr_wallclock_free(wc);
	}
	if (tz_offset(to, &off) == 0) {
		*out = tr_civil_utc(&c) - off;
		return (0);
	}
	if ((wc = tr_wallclock_new(to, err)) == NULL)
		return (-1);
	if (tr_wallclock_to_utc(wc, &c, INT64_MIN, out) != 0) {
		tr_wallclock_free(wc);
		return (tr_error_set(err, TR_EUSAGE, "--source-tz '%s': local "
		    "time "
		    "%04d-%02d-%02d %02d:%02d:%02d does not exist in that zone",
		    to, c.year, c.mon, c.day, c.hour, c.min, c.sec));
	}
	tr_wallclock_free(wc);
	return (0);
}

/*
 * The zone to read a wall-clock source's local times in, if not the one
 * it was imported with: a --source-tz statement naming it, a
 * --source-tz for all (for sources with local times), or the zone a
 * clock.json recorded for its host when the importer only guessed.
 * NULL when none.
 */
static const char *
zone_for(struct run *r, const struct src *s, const char **why)
{
	json_t		*from = json_object_get(s->meta, "tz_from");
	const char	*z;
	size_t		 i;
	int		 all, local;

	/* Only sources that came with local times have a zone to change. */
	local = json_is_string(json_object_get(s->meta, "tz"));
	if ((z = tz_for(r, s, &all)) != NULL && (!all || local)) {
		*why = "--source-tz";
		return (z);
	}
	if (local && s->kept_zone != NULL) {
		*why = "--source-tz, kept from an earlier run";
		return (s->kept_zone);
	}
	if (!local || (json_is_string(from) &&
	    strcmp(json_string_value(from), "option") == 0))
		return (NULL);
	for (i = 0; i < r->nhz; i++)
		if (same_host(r->hz[i].host, s->host)) {
			*why = "clock.json";
			return (r->hz[i].zone);
		}
	return (NULL);
}

/* The shift that re-reads source 's''s local times in zone 'z'. */
static int
zone_shift(struct run *r, struct src *s, const char *z, const char *why,
    int64_t *shift)
{
	json_t		*tz = json_object_get(s->meta, "tz");
	const char	*old = json_is_string(tz) ? json_string_value(tz) :
			    "UTC";
	int64_t		 n0, n1, e0, e1;
	char		 buf[40];

	*shift = 0;
	if (!s->has_range)
		return (0);
	n0 = tr_align_inverse(&s->cur, s->ts_min);
	e0 = tr_align_inverse(&s->cur, s->ts_max);
	if (rezone(old, z, n0, &n1, r->err) != 0 ||
	    rezone(old, z, e0, &e1, r->err) != 0)
		return (-1);
	*shift = n1 - n0;
	tr_format_duration(*shift, buf, sizeof buf);
	tr_buf_printf(&s->ev, "%slocal times read in %s (%s; imported as "
	    "%s): %s%s", s->ev.len ? ", " : "", z, why, old,
	    *shift >= 0 ? "+" : "", buf);
	if (e1 - e0 != *shift)
		tr_buf_adds(&s->ev, " (the zone changes offset during the "
		    "capture: its offset at the start is used)");
	return (0);
}

/* --- what the data can vouch for ----------------------------------- */

/* How many time stamps of a source are looked at for their resolution. */
#define RES_ROWS	1000
#define RES_MIN		8

/*
 * The resolution of a source's time stamps: the largest power of ten up
 * to 1 s that divides every native time looked at (nvidia-smi prints
 * milliseconds, dmon whole seconds, perf script microseconds without
 * --ns); 1 for nanoseconds, 0 when too few times say.  A source moved
 * with a drift is not looked at: its native times are rounded back.
 */
static int
time_resolution(struct run *r, struct src *s)
{
	static const char *const q[] = {
		"SELECT c.ts FROM track t JOIN counter c ON c.track_id = t.id "
		    "WHERE t.source_id = ?1 LIMIT ?2",
		"SELECT ts FROM sample WHERE source_id = ?1 AND ts IS NOT NULL "
		    "LIMIT ?2",
		"SELECT ts FROM slice_run WHERE source_id = ?1 LIMIT ?2",
		"SELECT ts FROM profile WHERE source_id = ?1 "
		    "AND ts IS NOT NULL AND ts <> 0 LIMIT ?2",
	};
	sqlite3_stmt	*st;
	int64_t		 res = INT64_C(1000000000), t, n = 0;
	size_t		 i;
	int		 rc;

	s->res = 0;
	if (s->cur.drift != 0)
		return (0);
	for (i = 0; i < sizeof q / sizeof q[0] && res > 1; i++) {
		if ((st = tr_db_prepare(r->db, q[i], r->err)) == NULL)
			return (-1);
		sqlite3_bind_int64(st, 1, s->id);
		sqlite3_bind_int(st, 2, RES_ROWS);
		while (res > 1 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			t = tr_align_inverse(&s->cur,
			    sqlite3_column_int64(st, 0));
			while (res > 1 && t % res != 0)
				res /= 10;
			n++;
		}
		sqlite3_finalize(st);
		if (res > 1 && rc != SQLITE_DONE)
			return (tr_db_error(r->db, r->err,
			    "cannot read times"));
	}
	if (n >= RES_MIN)
		s->res = res;
	return (0);
}

/*
 * Never state an uncertainty finer than the data's time stamps or its
 * sampling interval: the mapping may be exact to the ns, the times it
 * maps are not (100 ms samples with ms time stamps are not known to
 * 500 ns).
 */
static void
floor_unc(struct src *s)
{
	int64_t	f = s->res > s->interval ? s->res : s->interval;
	char	buf[32];

	if (!s->done || s->unc == UNKNOWN || f <= 1 || s->unc >= f)
		return;
	s->unc = f;
	tr_format_duration(f, buf, sizeof buf);
	tr_buf_printf(&s->ev, "%suncertainty no finer than its %s (%s)",
	    s->ev.len ? "; " : "", f == s->interval ? "sampling interval" :
	    "time stamps", buf);
}

/* A decided source's range on the timeline, in its new mapping. */
static void
new_range(const struct src *s, int64_t *lo, int64_t *hi)
{
	*lo = tr_align_forward(&s->map, tr_align_inverse(&s->cur, s->ts_min));
	*hi = tr_align_forward(&s->map, tr_align_inverse(&s->cur, s->ts_max));
}

/*
 * A source that lies apart from every other source of its host by more
 * than its own span (and its uncertainty) is suspect: a wrong zone (an
 * hour), a wrong offset.  It is said in its evidence and as a note.  The
 * sources estimated against it do not count as others, since they follow
 * it; their evidence names it.
 */
static void
check_apart(struct run *r, struct tr_out *out)
{
	struct src	*s, *o;
	int64_t		 lo, hi, olo, ohi, gap, best, span, lim;
	size_t		 i, j;
	int		 before = 0, others;
	char		 b1[32], b2[32];

	for (i = 0; i < r->n; i++) {
		s = &r->s[i];
		if (!s->done || !s->selected || !s->has_range)
			continue;
		new_range(s, &lo, &hi);
		best = INT64_MAX;
		others = 0;
		for (j = 0; j < r->n; j++) {
			o = &r->s[j];
			if (o == s || !o->done || !o->has_range ||
			    o->est_ref == s->id || !same_host(o->host, s->host))
				continue;
			others++;
			new_range(o, &olo, &ohi);
			gap = olo > hi ? olo - hi : lo > ohi ? lo - ohi : 0;
			if (gap < best) {
				best = gap;
				before = olo > hi;
			}
		}
		span = hi - lo;
		lim = s->unc != UNKNOWN && s->unc > span ? s->unc : span;
		if (others == 0 || best <= lim)
			continue;
		s->apart = best;
		tr_format_duration(best, b1, sizeof b1);
		tr_format_duration(span, b2, sizeof b2);
		tr_buf_printf(&s->ev, "%swarning: %s %s the other sources, "
		    "more than its own span (%s)", s->ev.len ? "; " : "", b1,
		    before ? "before" : "after", b2);
		if (s->zone != NULL)
			tr_out_note(out, "warning: source %" PRId64 " (%s) "
			    "lies %s %s every other source, more than its own "
			    "span (%s): a wrong time zone or offset? (its local "
			    "times are read in %s, from %s)", s->id,
			    base_name(s->path), b1, before ? "before" : "after",
			    b2, s->zone, s->zone_from);
		else
			tr_out_note(out, "warning: source %" PRId64 " (%s) "
			    "lies %s %s every other source, more than its own "
			    "span (%s): a wrong offset?", s->id,
			    base_name(s->path), b1, before ? "before" : "after",
			    b2);
	}
	for (i = 0; i < r->n; i++) {
		s = &r->s[i];
		for (j = 0; j < r->n && s->est_ref != 0 && s->selected; j++)
			if (r->s[j].id == s->est_ref && r->s[j].apart > 0)
				tr_buf_printf(&s->ev, "; estimated against "
				    "source %" PRId64 ", which lies apart",
				    s->est_ref);
	}
}

/* --- deciding -------------------------------------------------------- */

static int
sticky(const struct src *s)
{
	return (s->cur_method != NULL &&
	    (strncmp(s->cur_method, "user", 4) == 0 ||
	    strcmp(s->cur_method, "forced") == 0));
}

static void
offset_note(struct src *s, const char *sep, int abs, int64_t v,
    const char *tail)
{
	char	buf[40];

	tr_format_duration(v, buf, sizeof buf);
	tr_buf_printf(&s->ev, "%s--offset %s%s%s%s", s->ev.len ? sep : "",
	    abs ? "==" : "", v >= 0 ? "+" : "", buf, tail);
}

/*
 * An --offset kept from an earlier run is part of the source's current
 * alignment: one that counted from the native clock replaces what else
 * would align the source; one that counted from exact anchors is added
 * to them again.  (Without "user_offset_from", from before the
 * distinction, it counted from anchors when there were any.)  One that
 * counted from anchors there are not now (--ignore) is left to the
 * kept mapping, and kept for later.
 */
static void
keep_offset(struct src *s)
{
	int	abs;

	if (s->stated || !s->has_saved_uoff)
		return;
	abs = s->saved_from == FROM_NATIVE || (s->saved_from == FROM_LEGACY &&
	    !s->done);
	s->has_uoff = 1;
	s->uoff_abs = abs;
	s->uoff = s->saved_uoff;
	if (!abs && !s->done)
		return;
	if (abs) {
		memset(&s->map, 0, sizeof s->map);
		s->ev.len = 0;
		s->ev.data[0] = '\0';
	}
	s->map.offset += s->saved_uoff;
	offset_note(s, ", ", abs, s->saved_uoff, " (kept from an earlier run)");
	s->unc = UNKNOWN;
	set_method(s, "user-offset", 1);
}

/*
 * This run's --offset: SOURCE==OFFSET from the native clock, whatever
 * else would align the source; SOURCE=OFFSET from its current alignment
 * (anchors, a kept statement or mapping), or, for a source not aligned
 * yet, from the pair or estimate that aligns it later (on_aligned()).
 * 'by_anchors': the source is aligned by exact anchors in this run.
 */
static void
new_offset(struct src *s, int by_anchors)
{
	if (!s->has_new_uoff)
		return;
	if (s->new_abs) {
		memset(&s->map, 0, sizeof s->map);
		s->map.offset = s->new_uoff;
		offset_note(s, "; ", 1, s->new_uoff, s->done ? " from its "
		    "native clock, not from the above" : " from its native "
		    "clock");
		s->has_uoff = 1;
		s->uoff_abs = 1;
		s->uoff = s->new_uoff;
	} else if (!s->done) {
		s->rel_pending = 1;
		return;
	} else {
		s->map.offset += s->new_uoff;
		offset_note(s, ", ", 0, s->new_uoff, "");
		/*
		 * A kept offset grows by it; over anchors it is kept as an
		 * offset from them; over a kept mapping the mapping is kept.
		 */
		if (s->has_uoff)
			s->uoff += s->new_uoff;
		else if (by_anchors) {
			s->has_uoff = 1;
			s->uoff_abs = 0;
			s->uoff = s->new_uoff;
		}
	}
	s->unc = UNKNOWN;
	set_method(s, "user-offset", 1);
}

/*
 * A source just aligned by a pair or an estimate: a relative --offset
 * waiting for it is added now, before other sources are estimated
 * against it.  On later runs the mapping is kept as a whole.
 */
static void
on_aligned(struct src *s)
{
	if (!s->rel_pending)
		return;
	s->rel_pending = 0;
	s->map.offset += s->new_uoff;
	offset_note(s, "; ", 0, s->new_uoff, "");
	s->unc = UNKNOWN;
	set_method(s, "user-offset", 1);
}

/* Exact anchors, zones and offsets: everything but pairs and estimates. */
static int
decide_exact(struct run *r, struct src *s)
{
	struct anchor	*a = NULL;
	const char	*z, *why = NULL;
	int64_t		 zoff = 0;
	size_t		 n;
	int		 by_anchors;

	if (s->cls == C_MONO) {
		tr_buf_adds(&s->ev, "native CLOCK_MONOTONIC");
		set_method(s, "native", 1);
		s->map.offset = 0;
		s->unc = 0;
	} else if (s->cls == C_WALL) {
		if ((z = zone_for(r, s, &why)) != NULL) {
			if (zone_shift(r, s, z, why, &zoff) != 0)
				return (-1);
			s->zone = z;
			s->zone_from = strncmp(why, "--source-tz", 11) == 0 ?
			    "trace-align --source-tz" : why;
		} else if (s->zone != NULL && (strcmp(s->zone_from, "TZ") ==
		    0 || strcmp(s->zone_from, "system") == 0))
			tr_buf_printf(&s->ev, "local times read in %s, the %s "
			    "zone at import (a guess: --source-tz states it)",
			    s->zone, strcmp(s->zone_from, "TZ") == 0 ?
			    "TZ variable's" : "system's");
		if ((n = wall_anchors(r, s, &a)) > 0) {
			if (s->ev.len > 0)
				tr_buf_adds(&s->ev, "; ");
			describe(&s->ev, a, n);
			fit(s, a, n, 0, native_mid(s));
			s->map.offset += zoff;
			/* A mix of kinds is named for the most trusted. */
			set_method(s, a[0].kind, 1);
			free(a);
		}
	} else if (s->nanc > 0) {
		describe(&s->ev, s->anc, s->nanc);
		fit(s, s->anc, s->nanc, 1, native_mid(s));
		set_method(s, s->anc[0].kind, 1);
	} else if (s->cls != C_WALL && json_object_get(s->meta,
	    "reference_time") != NULL && !(r->o->ignore & TR_ANCHOR_PERF_REF)) {
		/* perf on another clock: its wall pair, through the host's. */
		json_t	*ref = json_object_get(s->meta, "reference_time");
		int	 ok1, ok2;
		int64_t	 tod = json_int(ref, "tod_ns", &ok1);
		int64_t	 clk = json_int(ref, "clock_ns", &ok2), off, u;

		if (ok1 && ok2 && wall_to_mono(r, s, tod, &off, &u)) {
			s->map.offset = tod + PERF_REF_UNC + off - clk;
			s->unc = u == UNKNOWN ? UNKNOWN : u + PERF_REF_UNC;
			tr_buf_adds(&s->ev, "reference time through the "
			    "host's wall/monotonic pairs");
			set_method(s, "perf-ref", 1);
		}
	}
	by_anchors = s->done;
	keep_offset(s);
	if (!s->done && sticky(s) && !s->stated && s->cls != C_MONO) {
		s->map = s->cur;
		tr_buf_printf(&s->ev, "%skept from an earlier run (--reset "
		    "undoes it)", s->ev.len ? "; " : "");
		set_method(s, s->cur_method, s->cur_conf);
		s->unc = UNKNOWN;
		s->est_ref = s->kept_ref;
		{
			json_t	*al = json_object_get(s->meta, "align");
			int	 ok;
			int64_t	 u = json_int(al, "uncertainty_ns", &ok);

			if (ok)
				s->unc = u;
		}
	}
	new_offset(s, by_anchors);
	floor_unc(s);
	return (0);
}

/*
 * --pair statements with one side decided: the other side gets an anchor
 * (a pair says nothing about direction).
 */
static int
decide_pairs(struct run *r, int *progress)
{
	const struct tr_align_stmt	*st;
	struct src			*a, *b, *to;
	int64_t				 ta, tb, mono;
	size_t				 i, k;

	for (i = 0; i < r->n; i++)
		if (!r->s[i].done) {
			free(r->s[i].uanc);
			r->s[i].uanc = NULL;
			r->s[i].nuanc = 0;
		}
	for (k = 0; k < r->o->nstmts; k++) {
		st = &r->o->stmts[k];
		if (st->kind != TR_ALIGN_PAIR)
			continue;
		if ((a = find_src(r, st->src[0], "--pair", st->text)) == NULL ||
		    (b = find_src(r, st->src[1], "--pair", st->text)) == NULL)
			return (-1);
		if (a->done == b->done || a == b)
			continue;
		if (native_time(r, a, st->val[0], st->text, &ta) != 0 ||
		    native_time(r, b, st->val[1], st->text, &tb) != 0)
			return (-1);
		/* How simultaneous the times are only the user knows. */
		if (b->done) {
			to = a;
			mono = tr_align_forward(&b->map, tb);
			add_anchor(&to->uanc, &to->nuanc, ta, mono, UNKNOWN,
			    "user-pair");
		} else {
			to = b;
			mono = tr_align_forward(&a->map, ta);
			add_anchor(&to->uanc, &to->nuanc, tb, mono, UNKNOWN,
			    "user-pair");
		}
	}
	for (i = 0; i < r->n; i++) {
		a = &r->s[i];
		if (a->done || !a->selected || a->nuanc == 0)
			continue;
		describe(&a->ev, a->uanc, a->nuanc);
		fit(a, a->uanc, a->nuanc, a->cls != C_WALL, native_mid(a));
		set_method(a, "user-pair", 1);
		floor_unc(a);
		on_aligned(a);
		*progress = 1;
	}
	return (0);
}

/* --- activity signals ------------------------------------------------ */

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return ((x > y) - (x < y));
}

static struct cand *
new_cand(struct src *s, enum tr_align_sig_kind kind, enum sig_use use)
{
	struct cand	*c;

	s->cands = tr_xrealloc(s->cands, (s->ncands + 1) * sizeof *s->cands);
	c = &s->cands[s->ncands++];
	memset(c, 0, sizeof *c);
	tr_align_sig_init(&c->sig, kind);
	c->use = use;
	return (c);
}

/* Drop the last candidate if it has nothing in it. */
static void
keep_cand(struct src *s)
{
	struct cand	*c = &s->cands[s->ncands - 1];

	if (c->sig.n == 0) {
		tr_align_sig_release(&c->sig);
		s->ncands--;
		return;
	}
	tr_align_sig_finish(&c->sig);
}

/*
 * The sampling interval of point events: the 10th percentile of the gaps
 * between samples of the same thread (a thread on CPU is sampled every
 * period), or the median gap when threads are unknown.
 */
static int64_t
thread_period(const int64_t *t, const int64_t *th, size_t n)
{
	struct tr_map	*last = tr_map_new();
	int64_t		*g = tr_xmalloc((n + 1) * sizeof *g), prev, res = 0;
	size_t		 i, k = 0;

	for (i = 0; i < n; i++) {
		if (th[i] <= 0)
			continue;
		if (tr_map_get(last, &th[i], sizeof th[i], &prev) &&
		    t[i] > prev)
			g[k++] = t[i] - prev;
		tr_map_put(last, &th[i], sizeof th[i], t[i]);
	}
	if (k >= 10) {
		qsort(g, k, sizeof *g, cmp_i64);
		res = g[k / 10];
	}
	free(g);
	tr_map_free(last);
	return (res);
}

/*
 * Samples of one process (pid > 0), of the threads called 'comm' whose
 * process is unknown (perf script without pids), or all of them.
 */
static int
load_points(struct run *r, struct src *s, int64_t pid, const char *comm,
    int64_t count)
{
	const char	*from;
	sqlite3_stmt	*st = NULL;
	struct cand	*c;
	int64_t		*th = NULL, *tt = NULL, stride;
	size_t		 n = 0, cap = 0;
	char		*sql;
	int		 rc, k;

	from = pid > 0 ? "FROM sample s JOIN thread t ON t.id = s.thread_id "
	    "JOIN process p ON p.id = t.process_id "
	    "WHERE s.source_id = ?1 AND p.pid = ?2 AND s.ts IS NOT NULL" :
	    comm != NULL ? "FROM sample s JOIN thread t ON t.id = s.thread_id "
	    "WHERE s.source_id = ?1 AND t.process_id IS NULL "
	    "AND t.name = ?3 AND s.ts IS NOT NULL" :
	    "FROM sample s WHERE s.source_id = ?1 AND s.ts IS NOT NULL";
	c = new_cand(s, TR_SIG_POINTS, U_CPU);
	if (pid > 0) {
		c->pid = pid;
		snprintf(c->what, sizeof c->what, "samples of pid %" PRId64
		    " (%" PRId64 ")", pid, count);
	} else if (comm != NULL)
		snprintf(c->what, sizeof c->what, "samples of '%.40s' (%" PRId64
		    ")", comm, count);
	else
		snprintf(c->what, sizeof c->what, "samples (%" PRId64 ")",
		    count);
	/*
	 * Two reads: the first PERIOD_ROWS in time order, with their
	 * threads, for the sampling period; then every sample, or every
	 * stride-th one (by id) beyond MAX_POINTS, which changes nothing but
	 * the scale of a signal that is normalised anyway.
	 */
	stride = count > MAX_POINTS ? (count + MAX_POINTS - 1) / MAX_POINTS :
	    1;
	for (k = 0; k < 2; k++) {
		sql = k == 0 ? tr_xasprintf("SELECT s.ts, s.thread_id %s "
		    "ORDER BY s.ts LIMIT %d", from, PERIOD_ROWS) :
		    tr_xasprintf("SELECT s.ts %s "
		    "AND (?4 = 1 OR s.id %% ?4 = 0)", from);
		st = tr_db_prepare(r->db, sql, r->err);
		free(sql);
		if (st == NULL)
			goto fail;
		sqlite3_bind_int64(st, 1, s->id);
		if (pid > 0)
			sqlite3_bind_int64(st, 2, pid);
		if (comm != NULL)
			sqlite3_bind_text(st, 3, comm, -1, SQLITE_STATIC);
		if (k == 1)
			sqlite3_bind_int64(st, 4, stride);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t	t = tr_align_inverse(&s->cur,
			    sqlite3_column_int64(st, 0));

			if (k == 1) {
				tr_align_sig_add(&c->sig, t, 0, 0);
				continue;
			}
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				th = tr_xrealloc(th, cap * sizeof *th);
				tt = tr_xrealloc(tt, cap * sizeof *tt);
			}
			tt[n] = t;
			th[n++] = sqlite3_column_int64(st, 1);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			tr_db_error(r->db, r->err, "cannot read samples");
			goto fail;
		}
	}
	if (n > 0)
		c->sig.res = thread_period(tt, th, n);
	free(th);
	free(tt);
	keep_cand(s);
	return (0);
fail:
	free(th);
	free(tt);
	return (-1);
}

static const char gpu_util_sql[] =
    "(n.s = '" TR_METRIC_GPU_UTIL "' OR n.s = 'sm' "
    "OR n.s LIKE '%gpu_util%' "
    "OR n.s LIKE 'gpu util%')";

/* Whether a --source-pid names this process. */
static int
wanted(const struct run *r, int64_t pid)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].pid == pid)
			return (1);
	return (0);
}

/*
 * Samples as points: the busiest processes (or commands, where perf
 * printed no pid) and any process a --source-pid asks for, each alone, and then
 * all of a source's samples together.
 */
static int
load_sample_cands(struct run *r, struct src *s)
{
	sqlite3_stmt	*st;
	int64_t		 pids[2 * MAX_CAND], counts[2 * MAX_CAND], all = 0;
	char		*comms[2 * MAX_CAND], *sql;
	size_t		 np = 0, i;
	int		 rc;

	st = tr_db_prepare(r->db, "SELECT p.pid, CASE WHEN p.pid IS NULL "
	    "THEN t.name END, count(*) FROM sample s "
	    "JOIN thread t ON t.id = s.thread_id "
	    "LEFT JOIN process p ON p.id = t.process_id "
	    "WHERE s.source_id = ?1 AND s.ts IS NOT NULL "
	    "GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2", r->err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	pid = sqlite3_column_int64(st, 0);
		int64_t	n = sqlite3_column_int64(st, 2);

		if ((s->pid == 0 || s->pid == pid) && (np < MAX_CAND ||
		    (np < 2 * MAX_CAND && pid > 0 && wanted(r, pid)))) {
			pids[np] = pid;
			comms[np] = col_text(st, 1);
			counts[np++] = n;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		rc = tr_db_error(r->db, r->err, "cannot read samples");
	else
		rc = 0;
	for (i = 0; i < np; i++) {
		if (rc == 0 && load_points(r, s, pids[i], comms[i],
		    counts[i]) != 0)
			rc = -1;
		free(comms[i]);
	}
	if (rc != 0 || s->pid != 0)
		return (rc);
	sql = tr_xasprintf("SELECT count(*) FROM sample WHERE "
	    "source_id = %" PRId64 " AND ts IS NOT NULL", s->id);
	rc = tr_db_int(r->db, sql, &all, r->err);
	free(sql);
	if (rc != 0)
		return (-1);
	/* One group holding every sample needs no second copy. */
	if (all > 0 && !(np == 1 && counts[0] == all) &&
	    load_points(r, s, 0, NULL, all) != 0)
		return (-1);
	return (0);
}

/* The running goroutines of a Go trace, as busy intervals. */
static int
load_goroutine_cand(struct run *r, struct src *s)
{
	sqlite3_stmt	*st;
	struct cand	*c;
	int		 rc;

	st = tr_db_prepare(r->db, "SELECT s.ts, s.ts + s.dur FROM slice s "
	    "JOIN track t ON t.id = s.track_id "
	    "JOIN str n ON n.id = s.name_id "
	    "WHERE s.source_id = ?1 AND t.kind = '" TR_TRACK_GOROUTINE "' "
	    "AND n.s = '" TR_GO_STATE_RUNNING "' AND s.dur > 0", r->err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	c = new_cand(s, TR_SIG_INTERVALS, U_CPU);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		tr_align_sig_add(&c->sig, tr_align_inverse(&s->cur,
		    sqlite3_column_int64(st, 0)), tr_align_inverse(&s->cur,
		    sqlite3_column_int64(st, 1)), 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(r->db, r->err, "cannot read slices"));
	snprintf(c->what, sizeof c->what, "running goroutines (%zu)",
	    c->sig.n);
	keep_cand(s);
	return (0);
}

/* GPU utilisation of the busiest GPUs (MAX_CAND), one series each. */
static int
load_gpu_cands(struct run *r, struct src *s)
{
	struct tr_counter_pts	 pts = { 0 };
	sqlite3_stmt		*st;
	struct cand		*c;
	int64_t			 tracks[MAX_CAND];
	size_t			 nt = 0, i, k;
	char			*sql;
	int			 rc, names;

	sql = tr_xasprintf("SELECT c.track_id, sum(c.n) FROM counter_run c "
	    "JOIN str n ON n.id = c.name_id WHERE c.source_id = ?1 AND %s "
	    "GROUP BY 1 ORDER BY 2 DESC, 1", gpu_util_sql);
	st = tr_db_prepare(r->db, sql, r->err);
	free(sql);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && nt < MAX_CAND)
		tracks[nt++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return (tr_db_error(r->db, r->err, "cannot read counters"));
	/* A track's points of every such name, in time order. */
	sql = tr_xasprintf("SELECT DISTINCT c.name_id FROM counter_run c "
	    "JOIN str n ON n.id = c.name_id WHERE c.track_id = ?1 AND %s",
	    gpu_util_sql);
	st = tr_db_prepare(r->db, sql, r->err);
	free(sql);
	if (st == NULL)
		return (-1);
	for (i = 0; i < nt; i++) {
		pts.n = 0;
		names = 0;
		sqlite3_bind_int64(st, 1, tracks[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			names++;
			if (tr_counter_read(r->db, tracks[i],
			    sqlite3_column_int64(st, 0), INT64_MIN, INT64_MAX,
			    0, &pts, r->err) != 0)
				break;
		}
		sqlite3_reset(st);
		if (rc != SQLITE_DONE) {
			sqlite3_finalize(st);
			tr_counter_pts_free(&pts);
			return (rc == SQLITE_ROW ? -1 : tr_db_error(r->db,
			    r->err, "cannot read counters"));
		}
		if (names > 1)
			tr_counter_pts_sort(&pts, 0);
		c = new_cand(s, TR_SIG_STEPS, U_GPU);
		for (k = 0; k < pts.n; k++)
			tr_align_sig_add(&c->sig, tr_align_inverse(&s->cur,
			    pts.ts[k]), 0, pts.v[k]);
		snprintf(c->what, sizeof c->what, "GPU utilisation (track %"
		    PRId64 ", %zu)", tracks[i], c->sig.n);
		keep_cand(s);
	}
	sqlite3_finalize(st);
	tr_counter_pts_free(&pts);
	return (0);
}

/* Every activity signal a source offers, in native time, once. */
static int
load_cands(struct run *r, struct src *s)
{
	if (s->cands_loaded)
		return (0);
	s->cands_loaded = 1;
	if (load_sample_cands(r, s) != 0 || load_goroutine_cand(r, s) != 0 ||
	    load_gpu_cands(r, s) != 0)
		return (-1);
	return (0);
}

static void
sig_span(const struct tr_align_sig *g, int64_t *lo, int64_t *hi)
{
	size_t	i;

	*lo = g->t[0] - (g->kind == TR_SIG_STEPS ? g->res : 0);
	*hi = g->t[g->n - 1];
	if (g->kind == TR_SIG_INTERVALS)
		for (i = 0; i < g->n; i++)
			if (g->e[i] > *hi)
				*hi = g->e[i];
}

/* 'g' moved by a mapping with drift onto the timeline: a new copy. */
static void
sig_mapped(const struct tr_align_sig *g, const struct tr_align_map *m,
    struct tr_align_sig *out)
{
	size_t	i;

	tr_align_sig_init(out, g->kind);
	for (i = 0; i < g->n; i++)
		tr_align_sig_add(out, tr_align_forward(m, g->t[i]),
		    g->e ? tr_align_forward(m, g->e[i]) : 0,
		    g->v ? g->v[i] : 0);
	out->res = g->res;
	tr_align_sig_finish(out);
}

struct trial {
	struct src		*ref;
	struct cand		*a, *b;
	struct tr_align_xcorr	 x;
	int64_t			 base;	/* ref offset added to the lag */
};

/* Correlate one pair of signals; 'x' holds the window on entry. */
static void
try_pair(struct run *r, struct src *s, struct src *ref, struct cand *a,
    struct cand *b, int coarse, struct trial *t)
{
	struct tr_align_sig	 mb;
	const struct tr_align_sig *bs = &b->sig;
	int64_t			 alo, ahi, blo, bhi;

	memset(t, 0, sizeof *t);
	t->ref = ref;
	t->a = a;
	t->b = b;
	if (ref->map.drift != 0) {
		sig_mapped(&b->sig, &ref->map, &mb);
		bs = &mb;
		t->base = 0;
	} else
		t->base = ref->map.offset;
	sig_span(&a->sig, &alo, &ahi);
	sig_span(bs, &blo, &bhi);
	if (s->cls == C_NEAR) {
		t->x.lag_lo = -r->o->search_ns - t->base;
		t->x.lag_hi = r->o->search_ns - t->base;
	} else {
		/* Origin unknown: every placement where they overlap. */
		t->x.lag_lo = blo - ahi;
		t->x.lag_hi = bhi - alo;
	}
	t->x.any_sign = a->use != b->use;
	t->x.coarse_only = coarse;
	tr_align_correlate(&a->sig, bs, &t->x);
	if (bs == &mb)
		tr_align_sig_release(&mb);
}

/*
 * How good a trial is: like against like (CPU activity of the same
 * process in two sources, GPU against GPU) that would be applied comes
 * first, as the stronger evidence; then the strength of the peak times
 * its confidence.
 */
static double
score(const struct trial *t, double min_conf)
{
	double	v;

	if (!t->x.ok)
		return (-1);
	v = fabs(t->x.peak) * t->x.confidence;
	if (t->a->use == t->b->use && t->x.confidence >= min_conf)
		v += 10;
	return (v);
}

static void
dur(int64_t ns, char *buf, size_t len, int sign)
{
	char	t[32];

	tr_format_duration(ns, t, sizeof t);
	snprintf(buf, len, "%s%s", sign && ns >= 0 ? "+" : "", t);
}

/* Estimate 's' against every decided source; apply the best if trusted. */
static int
estimate(struct run *r, struct src *s, int *progress)
{
	struct trial	 best, t;
	const char	*why = NULL;
	char		 b1[48], b2[48], b3[48];
	size_t		 i, j, k, tried = 0;

	memset(&best, 0, sizeof best);
	if (load_cands(r, s) != 0)
		return (-1);
	for (i = 0; i < r->n; i++) {
		struct src	*ref = &r->s[i];

		if (ref == s || !ref->done || !same_host(ref->host, s->host))
			continue;
		if (load_cands(r, ref) != 0)
			return (-1);
		for (j = 0; j < s->ncands; j++)
			for (k = 0; k < ref->ncands; k++) {
				/* --source-pid for 's': that process's only. */
				if (s->pid != 0 && ref->cands[k].sig.kind ==
				    TR_SIG_POINTS && ref->cands[k].pid !=
				    s->pid)
					continue;
				try_pair(r, s, ref, &s->cands[j],
				    &ref->cands[k], 1, &t);
				tried++;
				if (!t.x.ok && why == NULL)
					why = t.x.why;
				if (score(&t, r->o->min_confidence) >
				    score(&best, r->o->min_confidence))
					best = t;
			}
	}
	if (s->ncands == 0) {
		tr_buf_adds(&s->ev, "no anchor, and no activity to estimate "
		    "from");
		return (0);
	}
	if (tried == 0 && s->pid != 0) {
		tr_buf_printf(&s->ev, "no anchor, and no samples of pid %"
		    PRId64 " on the timeline to estimate against", s->pid);
		return (0);
	}
	if (tried == 0) {
		tr_buf_adds(&s->ev, "no anchor, and no aligned source to "
		    "estimate against");
		return (0);
	}
	if (!best.x.ok) {
		tr_buf_printf(&s->ev, "no estimate: %s", why);
		return (0);
	}
	/* The winner again, with the fine passes. */
	try_pair(r, s, best.ref, best.a, best.b, 0, &t);
	if (!t.x.ok) {
		tr_buf_printf(&s->ev, "no estimate: %s", t.x.why);
		return (0);
	}
	best = t;
	dur(best.x.lag + best.base, b1, sizeof b1, 1);
	dur(best.x.width, b2, sizeof b2, 0);
	dur(best.x.second_lag + best.base, b3, sizeof b3, 1);
	tr_buf_printf(&s->ev, "%s vs source %" PRId64 " %s: peak %.3f at %s, "
	    "width %s, second %.3f at %s", best.a->what, best.ref->id,
	    best.b->what, best.x.peak, b1, b2, best.x.second, b3);
	/* Three decimals: more would be noise, and unstable to print. */
	best.x.confidence = round(best.x.confidence * 1000) / 1000;
	s->est_conf = best.x.confidence;
	if (best.x.confidence < r->o->min_confidence && !r->o->force) {
		tr_buf_printf(&s->ev, "; not applied: confidence %.2f is below "
		    "%.2f (--force applies it)", best.x.confidence,
		    r->o->min_confidence);
		return (0);
	}
	s->map.offset = best.x.lag + best.base;
	s->map.drift = 0;
	s->map.ref = 0;
	s->est_ref = best.ref->id;
	s->unc = best.x.uncertainty;
	if (best.ref->unc != UNKNOWN)
		s->unc += best.ref->unc;
	floor_unc(s);
	set_method(s, best.x.confidence < r->o->min_confidence ? "forced" :
	    "estimate", best.x.confidence);
	on_aligned(s);
	*progress = 1;
	return (0);
}

/*
 * Estimate every undecided source that has not been tried against the
 * decided sources there are now.
 */
static int
estimate_all(struct run *r, int *progress)
{
	struct src	*s;
	size_t		 i, ndone = 0;

	for (i = 0; i < r->n; i++)
		ndone += r->s[i].done;
	for (i = 0; i < r->n; i++) {
		s = &r->s[i];
		if (s->done || !s->selected || s->tried == ndone)
			continue;
		if (s->tried == 0)
			s->ev_base = s->ev.len;
		s->tried = ndone;
		/* A new try replaces what the last one said. */
		s->ev.len = s->ev_base;
		s->ev.data[s->ev.len] = '\0';
		s->est_conf = NAN;
		if (estimate(r, s, progress) != 0)
			return (-1);
	}
	return (0);
}

/* --- applying -------------------------------------------------------- */

static int
same_map(const struct tr_align_map *a, const struct tr_align_map *b)
{
	return (a->offset == b->offset && a->drift == b->drift &&
	    (a->drift == 0 || a->ref == b->ref));
}

/* Run one UPDATE with the two mappings bound as ?1..?7 (?8: source). */
static int
remap(struct run *r, const char *sql, const struct src *s)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = tr_db_prepare(r->db, sql, r->err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->cur.offset);
	sqlite3_bind_double(st, 2, s->cur.drift);
	sqlite3_bind_int64(st, 3, s->cur.ref);
	sqlite3_bind_int64(st, 4, s->map.offset);
	sqlite3_bind_double(st, 5, s->map.drift);
	sqlite3_bind_int64(st, 6, s->map.ref);
	sqlite3_bind_int64(st, 8, s->id);
	sqlite3_bind_int64(st, 9, s->map.offset - s->cur.offset);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(r->db, r->err, "cannot move times"));
	return (0);
}

#define RM(x)	"tr_align_remap(" x ", ?1, ?2, ?3, ?4, ?5, ?6)"
/* The start of slice j of a run. */
#define SR_TS	"(slice_run.ts + json_extract(j.value, '$[0]'))"
/* The time of point j of a counter run. */
#define CR_TS	"(counter_run.ts + json_extract(j.value, '$[0]'))"

/*
 * Every time of a source, moved from its current mapping to the new one:
 * one UPDATE per table.  Without drift on either side it is a plain
 * addition (?9), which SQLite does at its full speed.
 */
static const char *const move_fast[] = {
	"UPDATE sample SET ts = ts + ?9 WHERE source_id = ?8 "
	    "AND ts IS NOT NULL",
	"UPDATE slice_run SET ts = ts + ?9, end_ts = end_ts + ?9 "
	    "WHERE source_id = ?8",
	"UPDATE counter_run SET ts = ts + ?9, end_ts = end_ts + ?9 "
	    "WHERE source_id = ?8",
	/* A profile without a time has ts 0 (pprof's time_nanos unset). */
	"UPDATE profile SET ts = ts + ?9 WHERE source_id = ?8 "
	    "AND ts IS NOT NULL AND ts <> 0",
	NULL
};
static const char *const move_drift[] = {
	"UPDATE sample SET ts = " RM("ts") " WHERE source_id = ?8 "
	    "AND ts IS NOT NULL",
	/*
	 * A run's slices (db.c: TR_DB_SLICE_VIEW) hold their times as
	 * [ts - run.ts, dur]: each is moved as the slice table's were.
	 */
	"UPDATE slice_run SET slices = (SELECT '[' || group_concat("
	    "json_set(j.value, '$[0]', " RM(SR_TS) " - " RM("slice_run.ts")
	    ", '$[1]', " RM(SR_TS " + json_extract(j.value, '$[1]')") " - "
	    RM(SR_TS) "), ',') || ']' FROM json_each(slice_run.slices) j), "
	    "ts = " RM("ts") ", end_ts = " RM("end_ts") " WHERE source_id = ?8",
	/* A run's points (store/counter.h): [ts - run.ts, value]. */
	"UPDATE counter_run SET points = (SELECT '[' || group_concat("
	    "json_set(j.value, '$[0]', " RM(CR_TS) " - " RM("counter_run.ts")
	    "), ',') || ']' FROM json_each(counter_run.points) j), "
	    "ts = " RM("ts") ", end_ts = " RM("end_ts") " WHERE source_id = ?8",
	"UPDATE profile SET ts = " RM("ts") " WHERE source_id = ?8 "
	    "AND ts IS NOT NULL AND ts <> 0",
	NULL
};
/* Times kept in JSON: track metadata (Go goroutines, tasks), slice args. */
static const struct {
	const char	*table, *column, *key;
} json_times[] = {
	{ "track", "meta", "created" },
	{ "track", "meta", "seen" },
	{ "track", "meta", "ended" },
};
/* And in slice args, inside the runs' JSON. */
#define SLICE_ARGS_TIME	"handoff_ts"
static const char move_slice_args[] =
	"UPDATE slice_run SET slices = (SELECT '[' || group_concat("
	"CASE WHEN json_type(j.value, '$[5]." SLICE_ARGS_TIME "') = 'integer' "
	"THEN json_set(j.value, '$[5]." SLICE_ARGS_TIME "', "
	RM("json_extract(j.value, '$[5]." SLICE_ARGS_TIME "')") ") "
	"ELSE json(j.value) END, ',') || ']' "
	"FROM json_each(slice_run.slices) j) WHERE source_id = ?8 "
	"AND instr(slices, '\"" SLICE_ARGS_TIME "\"') > 0";

static int
move_source(struct run *r, const struct src *s)
{
	const char *const	*q;
	char			*sql;
	size_t			 i;
	int			 fast = s->cur.drift == 0 && s->map.drift == 0;

	for (q = fast ? move_fast : move_drift; *q != NULL; q++)
		if (remap(r, *q, s) != 0)
			return (-1);
	for (i = 0; i < sizeof json_times / sizeof json_times[0]; i++) {
		const char	*t = json_times[i].table;
		const char	*c = json_times[i].column;
		const char	*k = json_times[i].key;

		/* instr() first: cheaper than parsing every row's JSON. */
		sql = tr_xasprintf("UPDATE %s SET %s = json_set(%s, '$.%s', "
		    RM("json_extract(%s, '$.%s')") ") WHERE source_id = ?8 "
		    "AND instr(%s, '\"%s\"') > 0 "
		    "AND json_type(%s, '$.%s') = 'integer'",
		    t, c, c, k, c, k, c, k, c, k);
		if (remap(r, sql, s) != 0) {
			free(sql);
			return (-1);
		}
		free(sql);
	}
	if (remap(r, move_slice_args, s) != 0)
		return (-1);
	/* The derived tables of a Go trace, made again on the new times. */
	return (tr_derived_rebuild(r->db, s->id, r->err));
}

static int
save_source(struct run *r, struct src *s)
{
	sqlite3_stmt	*st;
	json_t		*al;
	char		*txt;
	int		 rc;

	st = tr_db_prepare(r->db, "UPDATE source SET clock_offset = ?4, "
	    "clock_drift_ppm = ?10, align_method = ?11, "
	    "align_confidence = ?12, "
	    "ts_min = " RM("ts_min") ", ts_max = " RM("ts_max") ", "
	    "meta = CASE WHEN ?13 IS NULL THEN json_remove(meta, '$.align') "
	    "ELSE json_set(meta, '$.align', json(?13)) END WHERE id = ?8",
	    r->err);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, s->cur.offset);
	sqlite3_bind_double(st, 2, s->cur.drift);
	sqlite3_bind_int64(st, 3, s->cur.ref);
	sqlite3_bind_int64(st, 4, s->map.offset);
	sqlite3_bind_double(st, 5, s->map.drift);
	sqlite3_bind_int64(st, 6, s->map.ref);
	sqlite3_bind_int64(st, 8, s->id);
	sqlite3_bind_double(st, 10, s->map.drift * 1e6);
	txt = NULL;
	if (s->done) {
		sqlite3_bind_text(st, 11, s->method, -1, SQLITE_STATIC);
		if (!isnan(s->conf))
			sqlite3_bind_double(st, 12, s->conf);
		al = json_object();
		json_object_set_new(al, "ref_ns", json_integer(s->map.ref));
		json_object_set_new(al, "uncertainty_ns", s->unc == UNKNOWN ?
		    json_null() : json_integer(s->unc));
		json_object_set_new(al, "evidence", json_string(s->ev.data));
		if (s->est_ref != 0)
			json_object_set_new(al, "estimated_against",
			    json_integer(s->est_ref));
		if (s->zone_from != NULL &&
		    strcmp(s->zone_from, "trace-align --source-tz") == 0)
			json_object_set_new(al, "stated_zone",
			    json_string(s->zone));
		if (s->has_uoff) {
			json_object_set_new(al, "user_offset_ns",
			    json_integer(s->uoff));
			json_object_set_new(al, "user_offset_from",
			    json_string(s->uoff_abs ? "native" : "anchors"));
		}
		txt = json_dumps(al, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(al);
		sqlite3_bind_text(st, 13, txt, -1, SQLITE_TRANSIENT);
	}
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(txt);
	if (rc != SQLITE_DONE)
		return (tr_db_error(r->db, r->err, "cannot update source"));
	return (0);
}

static int
changed(const struct src *s)
{
	const char	*m = s->done ? s->method : NULL;
	json_t		*al, *ev;
	int64_t		 u;
	int		 ok;

	if (!s->selected)
		return (0);
	if (!same_map(&s->cur, &s->map))
		return (2);
	if ((m == NULL) != (s->cur_method == NULL) ||
	    (m != NULL && strcmp(m, s->cur_method) != 0))
		return (1);
	if (s->done && !(isnan(s->conf) && isnan(s->cur_conf)) &&
	    s->conf != s->cur_conf)
		return (1);
	/* What the store records must be what was printed. */
	al = json_object_get(s->meta, "align");
	ev = json_object_get(al, "evidence");
	u = json_int(al, "uncertainty_ns", &ok);
	if (s->done && (!json_is_string(ev) || strcmp(json_string_value(ev),
	    s->ev.data) != 0 || (s->unc == UNKNOWN ? ok : !ok || u != s->unc)))
		return (1);
	return (0);
}

/*
 * Moving most of a big table is faster without the indexes on its times:
 * SQLite then rewrites each row in one pass instead of moving every index
 * entry too, and CREATE INDEX sorts once.  For each table, the rows the
 * moved sources hold in it are counted; at a quarter of the table or more
 * (and 100000 rows), the table's indexes that hold 'ts' are dropped before
 * and made again, from their own SQL, after: all in the one transaction.
 */
static const struct {
	const char	*table;
	const char	*count;		/* rows of source ?1 in it */
} big_tables[] = {
	{ "sample", "SELECT count(*) FROM sample WHERE source_id = ?1" },
	{ "slice_run", "SELECT count(*) FROM slice_run WHERE source_id = ?1" },
	{ "counter_run", "SELECT count(*) FROM counter_run WHERE "
	    "source_id = ?1" },
};
#define NBIG	(sizeof big_tables / sizeof big_tables[0])
#define BIG_MIN	100000

struct saved_index {
	char	*name, *sql;
};

/* Drop the time indexes of tables mostly moved; remember them in 'sv'. */
static int
drop_indexes(struct run *r, struct saved_index **sv, size_t *nsv)
{
	sqlite3_stmt	*st;
	char		*sql;
	int64_t		 moved, total, n;
	size_t		 t, i;
	int		 rc;

	for (t = 0; t < NBIG; t++) {
		sql = tr_xasprintf("SELECT max(rowid) FROM %s",
		    big_tables[t].table);
		rc = tr_db_int(r->db, sql, &total, r->err);
		free(sql);
		if (rc != 0)
			return (-1);
		if (total < BIG_MIN)
			continue;
		moved = 0;
		for (i = 0; i < r->n; i++) {
			if (changed(&r->s[i]) != 2)
				continue;
			if (tr_db_int_arg(r->db, big_tables[t].count, NULL,
			    r->s[i].id, &n, r->err) < 0)
				return (-1);
			moved += n;
		}
		if (moved < BIG_MIN || moved < total / 4)
			continue;
		st = tr_db_prepare(r->db, "SELECT name, sql FROM sqlite_master "
		    "WHERE type = 'index' AND tbl_name = ?1 "
		    "AND sql IS NOT NULL AND sql LIKE '%ts)%'", r->err);
		if (st == NULL)
			return (-1);
		sqlite3_bind_text(st, 1, big_tables[t].table, -1,
		    SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			*sv = tr_xrealloc(*sv, (*nsv + 1) * sizeof **sv);
			(*sv)[*nsv].name = col_text(st, 0);
			(*sv)[(*nsv)++].sql = col_text(st, 1);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return (tr_db_error(r->db, r->err,
			    "cannot read the schema"));
	}
	for (i = 0; i < *nsv; i++) {
		sql = tr_xasprintf("DROP INDEX \"%s\"", (*sv)[i].name);
		rc = tr_db_exec(r->db, sql, r->err);
		free(sql);
		if (rc != 0)
			return (-1);
	}
	return (0);
}

static int
apply(struct run *r)
{
	struct saved_index	*sv = NULL;
	size_t			 i, nsv = 0;
	int			 c, any = 0, rc = -1;

	for (i = 0; i < r->n; i++)
		any |= changed(&r->s[i]);
	if (!any)
		return (0);
	if (tr_align_register(r->db, r->err) != 0 ||
	    tr_db_exec(r->db, "BEGIN IMMEDIATE", r->err) != 0)
		return (-1);
	if (drop_indexes(r, &sv, &nsv) != 0)
		goto out;
	for (i = 0; i < r->n; i++) {
		if ((c = changed(&r->s[i])) == 0)
			continue;
		if ((c == 2 && move_source(r, &r->s[i]) != 0) ||
		    save_source(r, &r->s[i]) != 0)
			goto out;
	}
	for (i = 0; i < nsv; i++)
		if (tr_db_exec(r->db, sv[i].sql, r->err) != 0)
			goto out;
	rc = tr_db_exec(r->db, "COMMIT", r->err);
out:
	if (rc != 0)
		tr_db_exec(r->db, "ROLLBACK", NULL);
	for (i = 0; i < nsv; i++) {
		free(sv[i].name);
		free(sv[i].sql);
	}
	free(sv);
	return (rc);
}

/* --- the report ------------------------------------------------------ */

static const char *const report_cols[] = {
	"source", "path", "format", "clock", "zone", "zone_from", "method",
	"offset", "drift_ppm", "uncertainty", "confidence", "start", "end",
	"evidence"
};
enum {
	COL_UNC = 9, COL_START = 11, COL_END = 12
};

static void
report_text(struct tr_out *out, const char *t)
{
	if (t != NULL)
		tr_out_text(out, t);
	else
		tr_out_null(out);
}

/*
 * The mapping's columns: offset, drift, uncertainty, confidence.  In a
 * table the offset keeps its sign and every millisecond digit (a wall
 * clock's offset is the epoch: 1795958908.706s), the drift and the
 * confidence are rounded for reading; CSV and JSON keep base units.
 */
static void
report_mapping(struct tr_out *out, const struct src *s, int table)
{
	double	c = s->done ? s->conf : s->est_conf;
	char	buf[48];

	if (!s->done)
		tr_out_null(out);
	else if (table) {
		dur(s->map.offset, buf, sizeof buf, 1);
		tr_out_text(out, buf);
	} else
		tr_out_int(out, s->map.offset);
	if (!s->done)
		tr_out_null(out);
	else if (table) {
		snprintf(buf, sizeof buf, "%.3f", s->map.drift * 1e6);
		tr_out_text(out, buf);
	} else	/* the store keeps every digit; 1e-6 ppm is plenty */
		tr_out_real(out, round(s->map.drift * 1e12) / 1e6);
	if (s->done && s->unc != UNKNOWN)
		tr_out_int(out, s->unc);
	else
		tr_out_null(out);
	if (isnan(c))
		tr_out_null(out);
	else if (table) {
		snprintf(buf, sizeof buf, "%.2f", c);
		tr_out_text(out, buf);
	} else
		tr_out_real(out, c);
}

/*
 * One row per selected source.  Start and end are store times: in a
 * table from the store's start (after the change; with -n, the store as
 * it is), with the wall clock beside them where the store knows it.
 */
static int
report(struct run *r, struct tr_out *out, int table)
{
	struct src	*s;
	int64_t		 lo, hi, origin, woff;
	size_t		 i;
	int		 has_wall;

	if (r->o->store_origin != NULL) {
		if (r->o->store_origin(r->db, &origin, &has_wall, &woff,
		    r->err) != 0)
			return (-1);
		tr_out_set_clock(out, origin, has_wall, woff);
	}
	tr_out_columns(out, (int)(sizeof report_cols / sizeof report_cols[0]),
	    report_cols);
	tr_out_column_unit(out, COL_UNC, TR_UNIT_NS);
	tr_out_column_unit(out, COL_START, TR_UNIT_TS);
	tr_out_column_unit(out, COL_END, TR_UNIT_TS);
	for (i = 0; i < r->n; i++) {
		s = &r->s[i];
		if (!s->selected)
			continue;
		tr_out_int(out, s->id);
		tr_out_text(out, s->path);
		tr_out_text(out, s->format);
		tr_out_text(out, s->clock);
		report_text(out, s->zone);
		report_text(out, s->zone_from);
		if (s->done)
			tr_out_text(out, s->method);
		else
			tr_out_text(out, isnan(s->est_conf) ? "none" :
			    "refused");
		report_mapping(out, s, table);
		if (s->done && s->has_range) {
			new_range(s, &lo, &hi);
			tr_out_int(out, lo);
			tr_out_int(out, hi);
		} else {
			tr_out_null(out);
			tr_out_null(out);
		}
		tr_out_text(out, s->ev.data);
		tr_out_end_row(out);
	}
	return (tr_out_finish(out));
}

/* --- the run --------------------------------------------------------- */

/*
 * Sources --source leaves out stay as they are: on the timeline as an
 * earlier run put them (references for the others), or not.
 */
static void
keep_unselected(struct run *r)
{
	struct src	*s;
	json_t		*al;
	size_t		 i;
	int		 ok;
	int64_t		 u;

	for (i = 0; i < r->n; i++) {
		s = &r->s[i];
		if (s->selected || (s->cur_method == NULL && s->cls != C_MONO))
			continue;
		s->map = s->cur;
		if (s->cur_method == NULL) {
			set_method(s, "native", 1);
			s->unc = 0;
			continue;
		}
		set_method(s, s->cur_method, s->cur_conf);
		al = json_object_get(s->meta, "align");
		u = json_int(al, "uncertainty_ns", &ok);
		s->unc = ok ? u : UNKNOWN;
		s->est_ref = s->kept_ref;
	}
}

/*
 * A relative --offset on a source that nothing aligned: there is nothing
 * to count it from, and counting from the native clock would be a
 * silent guess.  A usage error, naming the absolute form.
 */
static int
unplaced_offsets(struct run *r)
{
	const struct tr_align_stmt	*st;
	const struct src		*s;
	size_t				 i;

	for (i = 0; i < r->o->nstmts; i++) {
		st = &r->o->stmts[i];
		if (st->kind != TR_ALIGN_OFFSET ||
		    (s = find_src(r, st->src[0], "--offset", st->text)) ==
		    NULL || !s->rel_pending)
			continue;
		return (tr_error_set(r->err, TR_EUSAGE, "--offset '%s': source "
		    "%" PRId64 " is not aligned (%s), so there is no alignment "
		    "to move it from; '%s==%s' counts from its native clock",
		    st->text, s->id, !isnan(s->est_conf) ? "its estimate "
		    "was not applied" : r->o->no_estimate ? "no anchor or "
		    "statement, and estimation is off" : "no anchor, "
		    "statement or estimate", st->src[0], st->val[0]));
	}
	return (0);
}

int
tr_align_run(struct tr_db *db, const struct tr_align_opts *o,
    struct tr_out *out, struct tr_error *err)
{
	struct run	 r;
	size_t		 i;
	int		 rc = -1, progress, table, pass;

	memset(&r, 0, sizeof r);
	r.db = db;
	r.o = o;
	r.err = err;
	table = o->human;
	if (load_sources(&r) != 0)
		goto out;
	for (i = 0; i < r.n; i++)
		if (time_resolution(&r, &r.s[i]) != 0)
			goto out;
	keep_unselected(&r);
	if (o->reset) {
		for (i = 0; i < r.n; i++)
			if (r.s[i].selected)
				tr_buf_adds(&r.s[i].ev, "reset to its native "
				    "clock");
	} else {
		collect_pairs(&r);
		if (collect_logs(&r) != 0 || apply_statements(&r) != 0)
			goto out;
		for (i = 0; i < r.n; i++)
			if (r.s[i].selected && decide_exact(&r, &r.s[i]) != 0)
				goto out;
		for (pass = 0; pass < (int)r.n + 1; pass++) {
			progress = 0;
			if (decide_pairs(&r, &progress) != 0)
				goto out;
			if (!o->no_estimate && estimate_all(&r, &progress) != 0)
				goto out;
			if (!progress)
				break;
		}
	}
	if (!o->reset && unplaced_offsets(&r) != 0)
		goto out;
	for (i = 0; i < r.n; i++)
		if (!r.s[i].done) {
			memset(&r.s[i].map, 0, sizeof r.s[i].map);
			if (r.s[i].ev.len == 0)
				tr_buf_adds(&r.s[i].ev, o->no_estimate ?
				    "no anchor (estimation is off)" :
				    "no anchor");
		}
	check_apart(&r, out);
	if (!o->dry_run && apply(&r) != 0)
		goto out;
	rc = report(&r, out, table);
out:
	for (i = 0; i < r.n; i++)
		src_release(&r.s[i]);
	free(r.s);
	free(r.wp);
	free(r.hz);
	return (rc);
}
