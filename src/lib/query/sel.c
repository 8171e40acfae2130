/*
 * The one selection model: options read without a store, then checked
 * against it (unknown names are errors that list the choices), times
 * turned into store nanoseconds from one origin, and the SQL that picks
 * the samples a selection takes.
 */
#include "config.h"
#include "query/sel.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/wallclock.h"

/* The selection options, their letters, and their help. */
static const struct {
	const char	*name;
	int		 bit;
	int		 value;		/* takes a value */
	const char	*help;
} sel_opts[] = {
	{ "source", TR_SEL_SOURCE, 1,
	  "  -s, --source ID      sources ID (1,3,5-7; repeatable)\n" },
	{ "type", TR_SEL_TYPE, 1,
	  "      --type TYPE      pprof profiles of TYPE (cpu, heap, block...)\n" },
	{ "event", TR_SEL_EVENT, 1,
	  "  -e, --event NAME     samples of perf event or pprof sample type NAME\n"
	  "      --sample-index NAME\n"
	  "                       the same as --event\n" },
	{ "sample-index", TR_SEL_EVENT, 1, NULL },
	{ "pid", TR_SEL_PID, 1,
	  "  -p, --pid PID        process PID (threads without a pid resolved\n"
	  "                       from what the store knows)\n" },
	{ "tid", TR_SEL_TID, 1,
	  "  -t, --tid TID        thread TID\n" },
	{ "comm", TR_SEL_COMM, 1,
	  "  -c, --comm NAME      threads whose command name is NAME\n" },
	{ "goroutine", TR_SEL_GOID, 1,
	  "      --goroutine GOID goroutine GOID of the Go trace\n" },
	{ "gpu", TR_SEL_GPU, 1,
	  "      --gpu N          GPU N\n" },
	/* The help of --gpu on a sample selection (TR_SEL_GPU_PROCS). */
	{ "gpu", TR_SEL_GPU_PROCS, 1,
	  "      --gpu N          samples of the processes seen on GPU N\n"
	  "                       (per-process GPU telemetry)\n" },
	{ "from", TR_SEL_TIME, 1,
	  "      --from TIME      from TIME: 12s after the store's start,\n"
	  "                       13:05:07.250, 2026-11-29T13:05:07Z, @EPOCH,\n"
	  "                       =STORE_NS (trace-query(1), TIMES)\n"
	  "      --to TIME        up to TIME (excluded)\n"
	  "      --tz ZONE        zone of wall-clock times (default: the\n"
	  "                       store's, else TZ)\n" },
	{ "to", TR_SEL_TIME, 1, NULL },
	{ "tz", TR_SEL_TIME, 1, NULL },
	{ "label", TR_SEL_LABEL, 1,
	  "      --label KEY=VALUE\n"
	  "                       pprof samples with label KEY equal to VALUE\n"
	  "                       (repeatable: all of them)\n" },
	{ "profile", TR_SEL_PROFILE, 1,
	  "      --profile GROUP  pprof profiles: ids (12, p12, p3-7) or\n"
	  "                       sources (s2), comma-separated\n" },
	{ "snapshots", TR_SEL_SNAP, 1,
	  "      --snapshots last|all\n"
	  "                       snapshot profiles (heap, goroutine): the last\n"
	  "                       in the window (default), or all summed\n" },
};
#define NSEL_OPTS	(sizeof sel_opts / sizeof sel_opts[0])

void
tr_sel_init(struct tr_sel *s, int accept)
{
	/* Nothing allocated: the notes come with tr_sel_resolve(). */
	memset(s, 0, sizeof *s);
	s->accept = accept;
	s->pid = s->tid = s->goid = s->gpu = -1;
	s->event_id = -1;
}

void
tr_sel_release(struct tr_sel *s)
{
	free(s->sources);
	free(s->profile_ids);
	free(s->pid_threads);
	free(s->gpu_threads);
	free(s->profiles);
	free(s->windows);
	tr_buf_release(&s->notes);
	tr_buf_release(&s->snapshot_notes);
	memset(s, 0, sizeof *s);
}

void
tr_sel_copy(struct tr_sel *d, const struct tr_sel *s)
{
	assert(d != s);
	tr_sel_release(d);
	tr_sel_init(d, s->accept);
	if (s->nsources > 0) {
		d->sources = tr_xcalloc(s->nsources, sizeof *d->sources);
		memcpy(d->sources, s->sources,
		    s->nsources * sizeof *s->sources);
	}
	d->nsources = s->nsources;
	d->type = s->type;
	d->event = s->event;
	d->event_opt = s->event_opt;
	d->pid = s->pid;
	d->tid = s->tid;
	d->goid = s->goid;
	d->comm = s->comm;
	d->gpu = s->gpu;
	d->from_text = s->from_text;
	d->to_text = s->to_text;
	d->tz = s->tz;
	memcpy(d->labels, s->labels, sizeof d->labels);
	d->nlabels = s->nlabels;
	d->profile_text = s->profile_text;
	d->snapshots = s->snapshots;
	d->snapshots_given = s->snapshots_given;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Sort and drop duplicates. */
static void
uniq(int64_t *v, size_t *n)
{
	size_t	i, k = 0;

	if (*n == 0)
		return;
	qsort(v, *n, sizeof *v, cmp_i64);
	for (i = 1; i < *n; i++)
		if (v[i] != v[k])
			v[++k] = v[i];
	*n = k + 1;
}

static int
parse_pos(const char *s, size_t len, int64_t *v)
{
	char	buf[32], *end;

	if (len == 0 || len >= sizeof buf || !isdigit((unsigned char)*s))
		return (-1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	*v = strtoll(buf, &end, 10);
	return (*end != '\0' || *v <= 0 ? -1 : 0);
}

int
tr_sel_parse_ids(const char *text, int prefix, int64_t **out, size_t *nout)
{
	const char	*p = text, *end, *dash;
	int64_t		*ids = *out, a, b;
	size_t		 n = *nout;

	for (;;) {
		end = p + strcspn(p, ",");
		if (prefix != 0 && *p == prefix)
			p++;
		dash = memchr(p, '-', (size_t)(end - p));
		if (dash == NULL) {
			if (parse_pos(p, (size_t)(end - p), &a) != 0)
				goto bad;
			b = a;
		} else {
			if (parse_pos(p, (size_t)(dash - p), &a) != 0)
				goto bad;
			if (prefix != 0 && dash[1] == prefix)
				dash++;
			if (parse_pos(dash + 1, (size_t)(end - dash - 1),
			    &b) != 0 || b < a || b - a > 1000000)
				goto bad;
		}
		ids = tr_xrealloc(ids, (n + (size_t)(b - a) + 1) *
		    sizeof *ids);
		while (a <= b)
			ids[n++] = a++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	uniq(ids, &n);
	*out = ids;
	*nout = n;
	return (0);
bad:
	*out = ids;
	return (-1);
}

/* --- times ------------------------------------------------------------ */

static int
is_time_of_day(const char *s)
{
	size_t	n = strspn(s, "0123456789");

	return ((n == 1 || n == 2) && s[n] == ':');
}

static int
is_wall(const char *s)
{
	return (*s == '@' || is_time_of_day(s) ||
	    (strspn(s, "0123456789") == 4 && (s[4] == '-' || s[4] == '/')));
}

static int
time_syntax(const char *opt, const char *text, struct tr_error *err)
{
	return (tr_error_set(err, TR_EUSAGE, "--%s: expected a time (12s, "
	    "1.5s, 13:05:07.250, 2026-11-29T13:05:07Z, @SECONDS or "
	    "=STORE_NS), got '%s'", opt, text));
}

int
tr_sel_parse_time(const char *opt, const char *text, int64_t origin,
    int has_wall, int64_t wall_offset, const char *zone, int64_t *ns,
    struct tr_error *err)
{
	struct tr_wallclock	*wc;
	struct tr_civil		 c;
	char			*end, *full = NULL;
	int64_t			 v;
	int			 rc;

	if (*text == '=') {
		v = strtoll(text + 1, &end, 10);
		if (text[1] == '\0' || *end != '\0')
			return (time_syntax(opt, text, err));
		*ns = v;
		return (0);
	}
	if (!is_wall(text)) {
		if (tr_parse_duration(text, &v) != 0)
			return (time_syntax(opt, text, err));
		*ns = origin + v;
		return (0);
	}
	if (!has_wall)
		return (tr_error_set(err, TR_EDATA, "--%s '%s': the store has "
		    "no wall clock (no source maps its times to wall time); "
		    "give a time after the store's start (12s) or store ns "
		    "(=N)", opt, text));
	if ((wc = tr_wallclock_new(zone, err)) == NULL)
		return (-1);
	if (is_time_of_day(text)) {
		/* On the day of the store's start, in the zone. */
		tr_wallclock_to_civil(wc, origin + wall_offset, &c);
		full = tr_xasprintf("%04d-%02d-%02d %s", c.year, c.mon, c.day,
		    text);
	}
	rc = tr_wallclock_parse(wc, full ? full : text, &v);
	if (rc != 0) {
		tr_error_set(err, TR_EUSAGE, "--%s: '%s' is not a wall-clock "
		    "time that exists in zone '%s' (13:05:07.250, "
		    "2026-11-29T13:05:07Z, 2026-11-29 13:05:07)", opt, text,
		    tr_wallclock_zone(wc));
	} else
		*ns = v - wall_offset;
	free(full);
	tr_wallclock_free(wc);
	return (rc);
}

/* --- options ---------------------------------------------------------- */

static int
once(const char *name, int given, struct tr_error *err)
{
	if (given)
		return (tr_error_set(err, TR_EUSAGE, "--%s given twice", name));
	return (0);
}

static int
parse_nonneg(const char *name, const char *v, int64_t *out,
    struct tr_error *err)
{
	char	*end;

	*out = strtoll(v, &end, 10);
	if (*v == '\0' || *end != '\0' || *out < 0 ||
	    !isdigit((unsigned char)*v))
		return (tr_error_set(err, TR_EUSAGE, "--%s: expected a "
		    "non-negative integer, got '%s'", name, v));
	return (0);
}

int
tr_sel_option(struct tr_sel *s, const char *name, const char *value,
    struct tr_error *err)
{
	size_t	i;
	int64_t	dummy;

	for (i = 0; i < NSEL_OPTS; i++)
		if (strcmp(sel_opts[i].name, name) == 0)
			break;
	if (i == NSEL_OPTS || !(s->accept & sel_opts[i].bit))
		return (0);
	if (value == NULL)
		return (tr_error_set(err, TR_EUSAGE, "--%s needs a value",
		    name));
	if (strcmp(name, "source") == 0) {
		if (tr_sel_parse_ids(value, 's', &s->sources,
		    &s->nsources) != 0)
			return (tr_error_set(err, TR_EUSAGE, "--source: "
			    "expected source ids (2, 1,3, 5-7), got '%s'",
			    value));
	} else if (strcmp(name, "type") == 0) {
		if (once(name, s->type != NULL, err) != 0)
			return (-1);
		s->type = value;
	} else if (strcmp(name, "event") == 0 ||
	    strcmp(name, "sample-index") == 0) {
		if (s->event != NULL)
			return (tr_error_set(err, TR_EUSAGE, "--%s given twice",
			    strcmp(s->event_opt, name) == 0 ? name :
			    "event and --sample-index"));
		s->event = value;
		s->event_opt = sel_opts[i].name;
	} else if (strcmp(name, "pid") == 0) {
		if (once(name, s->pid >= 0, err) != 0 ||
		    parse_nonneg(name, value, &s->pid, err) != 0)
			return (-1);
	} else if (strcmp(name, "tid") == 0) {
		if (once(name, s->tid >= 0, err) != 0 ||
		    parse_nonneg(name, value, &s->tid, err) != 0)
			return (-1);
	} else if (strcmp(name, "goroutine") == 0) {
		if (once(name, s->goid >= 0, err) != 0 ||
		    parse_nonneg(name, value, &s->goid, err) != 0)
			return (-1);
	} else if (strcmp(name, "gpu") == 0) {
		if (once(name, s->gpu >= 0, err) != 0 ||
		    parse_nonneg(name, value, &s->gpu, err) != 0)
			return (-1);
	} else if (strcmp(name, "comm") == 0) {
		if (once(name, s->comm != NULL, err) != 0)
			return (-1);
		s->comm = value;
	} else if (strcmp(name, "from") == 0 || strcmp(name, "to") == 0) {
		const char	**t = *name == 'f' ? &s->from_text :
				    &s->to_text;

		if (once(name, *t != NULL, err) != 0)
			return (-1);
		/* The syntax now; the store's clock on resolve. */
		if (tr_sel_parse_time(name, value, 0, 1, 0, "UTC", &dummy,
		    err) != 0) {
			tr_error_init(err);
			return (time_syntax(name, value, err));
		}
		*t = value;
	} else if (strcmp(name, "tz") == 0) {
		if (once(name, s->tz != NULL, err) != 0)
			return (-1);
		s->tz = value;
	} else if (strcmp(name, "label") == 0) {
		if (strchr(value, '=') == NULL || *value == '=')
			return (tr_error_set(err, TR_EUSAGE, "--label: "
			    "expected KEY=VALUE, got '%s'", value));
		if (s->nlabels == TR_SEL_MAXLABELS)
			return (tr_error_set(err, TR_EUSAGE, "at most %d "
			    "--label options", TR_SEL_MAXLABELS));
		s->labels[s->nlabels++] = value;
	} else if (strcmp(name, "profile") == 0) {
		if (once(name, s->profile_text != NULL, err) != 0)
			return (-1);
		s->profile_text = value;
	} else if (strcmp(name, "snapshots") == 0) {
		if (once(name, s->snapshots_given, err) != 0)
			return (-1);
		if (strcmp(value, "last") == 0)
			s->snapshots = TR_SNAP_LAST;
		else if (strcmp(value, "all") == 0)
			s->snapshots = TR_SNAP_ALL;
		else
			return (tr_error_set(err, TR_EUSAGE, "--snapshots: "
			    "expected last or all, got '%s'", value));
		s->snapshots_given = 1;
	}
	return (1);
}

char *
tr_sel_help(int accept)
{
	struct tr_buf	b;
	size_t		i;

	tr_buf_init(&b);
	for (i = 0; i < NSEL_OPTS; i++) {
		/* --gpu on a sample selection has its own help. */
		if (sel_opts[i].bit == TR_SEL_GPU &&
		    (accept & TR_SEL_GPU_PROCS))
			continue;
		if ((accept & sel_opts[i].bit) && sel_opts[i].help != NULL)
			tr_buf_adds(&b, sel_opts[i].help);
	}
	return (b.data);
}

/* --- reading the store ------------------------------------------------ */

/* Every integer of column 0 of 'sql' (?1 bound to 'arg' when >= 0). */
static int
ints(struct tr_db *db, const char *sql, int64_t arg, const char *text,
    int64_t **v, size_t *n, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	*v = NULL;
	*n = 0;
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	if (text != NULL)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else if (arg >= 0)
		sqlite3_bind_int64(st, 1, arg);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;
		*v = tr_xrealloc(*v, (*n + 1) * sizeof **v);
		(*v)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*v);
		*v = NULL;
		*n = 0;
		return (tr_db_error(db, err, "cannot read the store"));
	}
	return (0);
}

/* At most this many items in a list of choices, then the count. */
#define MAX_CHOICES	20

/*
 * "1-3, 7" from sorted ids: at most MAX_CHOICES items (a range is one),
 * then ", ... (N in all)".
 */
static void
add_ranges(struct tr_buf *b, const int64_t *v, size_t n)
{
	size_t	i, j, k = 0;

	if (n == 0)
		tr_buf_adds(b, "none");
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j] == v[j - 1] + 1; j++)
			;
		if (k++ == MAX_CHOICES) {
			tr_buf_printf(b, ", ... (%zu in all)", n);
			break;
		}
		if (i > 0)
			tr_buf_adds(b, ", ");
		tr_buf_printf(b, "%" PRId64, v[i]);
		if (j - i > 1)
			tr_buf_printf(b, "-%" PRId64, v[j - 1]);
	}
}

/*
 * "a, b, c" of column 0 (at most MAX_CHOICES, then ", ... (N in all)");
 * a new string.  With 'ids' column 0 holds integers, sorted, given as
 * ranges (add_ranges()).
 */
static char *
choice_list(struct tr_db *db, const char *sql, int ids, struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct tr_buf	 b;
	int64_t		*v = NULL;
	size_t		 k = 0;
	int		 rc;

	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (NULL);
	tr_buf_init(&b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;
		if (ids) {
			v = tr_xrealloc(v, (k + 1) * sizeof *v);
			v[k] = sqlite3_column_int64(st, 0);
		} else if (k < MAX_CHOICES) {
			if (k > 0)
				tr_buf_adds(&b, ", ");
			tr_buf_adds(&b, (const char *)
			    sqlite3_column_text(st, 0));
		}
		k++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		tr_buf_release(&b);
		tr_db_error(db, err, "cannot read the store");
		return (NULL);
	}
	if (ids)
		add_ranges(&b, v, k);
	else if (k == 0)
		tr_buf_adds(&b, "none");
	else if (k > MAX_CHOICES)
		tr_buf_printf(&b, ", ... (%zu in all)", k);
	free(v);
	return (b.data);
}

/* " col IN (ids)", or " 0" for no ids. */
static void
add_list(struct tr_buf *b, const char *col, const int64_t *v, size_t n)
{
	size_t	i;

	if (n == 0) {
		tr_buf_adds(b, " 0");
		return;
	}
	tr_buf_printf(b, " %s IN (", col);
	for (i = 0; i < n; i++)
		tr_buf_printf(b, "%s%" PRId64, i ? "," : "", v[i]);
	tr_buf_adds(b, ")");
}

/* " AND col IN (ids)" (matching nothing for no ids). */
static void
add_in(struct tr_buf *b, const char *col, const int64_t *v, size_t n)
{
	tr_buf_adds(b, " AND");
	add_list(b, col, v, n);
}

static void
src_cond(const struct tr_sel *s, struct tr_buf *b, const char *col)
{
	if (s->nsources > 0)
		add_in(b, col, s->sources, s->nsources);
}

int
tr_sel_store_origin(struct tr_db *db, int64_t *origin, int *has_wall,
    int64_t *wall_offset, struct tr_error *err)
{
	static const char *const wall_sql[] = {
		/* A wall-clock source placed on the timeline. */
		"SELECT -clock_offset FROM source WHERE clock = 'wall' AND "
		"align_method IS NOT NULL ORDER BY id LIMIT 1",
		/* Wall/monotonic pairs of clock.json, perf's reference time. */
		"SELECT json_extract(meta, '$.pairs[0].wall_ns') - "
		"json_extract(meta, '$.pairs[0].mono_ns') - clock_offset FROM "
		"source WHERE format = 'clock-json' AND json_type(meta, "
		"'$.pairs[0].wall_ns') = 'integer' ORDER BY id LIMIT 1",
		"SELECT json_extract(meta, '$.reference_time.tod_ns') - "
		"json_extract(meta, '$.reference_time.clock_ns') - clock_offset "
		"FROM source WHERE json_type(meta, '$.reference_time.tod_ns') = "
		"'integer' ORDER BY id LIMIT 1"
	};
	int64_t	v = 0, other;
	int	found;
	size_t	i;

	*origin = 0;
	*has_wall = 0;
	*wall_offset = 0;
	/*
	 * The earliest time of a source on the timeline (native
	 * monotonic or perf clock, or placed by trace-align); when none
	 * is, of any source.
	 */
	if ((found = tr_db_int_arg(db, "SELECT min(s.ts_min) FROM source s "
	    "WHERE " TR_SEL_ON_TIMELINE("s") " AND NOT (s.clock = 'wall' AND "
	    "s.ts_min <= 0)", NULL, 0, origin, err)) < 0)
		return (-1);
	if (!found && tr_db_int_arg(db, "SELECT min(ts_min) FROM source WHERE "
	    "ts_min IS NOT NULL AND NOT (clock = 'wall' AND ts_min <= 0)",
	    NULL, 0, origin, err) < 0)
		return (-1);
	/* Store ns to wall ns: store - offset. */
	for (i = found = 0; !found && i < sizeof wall_sql / sizeof *wall_sql;
	    i++)
		if ((found = tr_db_int_arg(db, wall_sql[i], NULL, 0, &v,
		    err)) < 0)
			return (-1);
	/* Only wall-clock sources, none moved: the timeline is UTC. */
	if (!found) {
		if (tr_db_int(db, "SELECT count(*) FROM source WHERE ts_min IS "
		    "NOT NULL AND clock <> 'wall'", &other, err) != 0 ||
		    tr_db_int(db, "SELECT count(*) FROM source WHERE clock = "
		    "'wall' AND ts_min > 0", &v, err) != 0)
			return (-1);
		found = other == 0 && v > 0;
		v = 0;
	}
	*has_wall = found;
	*wall_offset = found ? v : 0;
	return (0);
}

int
tr_sel_source_clock(struct tr_db *db, int64_t source_id, int *has_wall,
    int64_t *wall_offset, struct tr_error *err)
{
	int64_t	origin, off;
	int	found;

	if ((found = tr_db_int_arg(db, "SELECT -coalesce(s.clock_offset, 0) "
	    "FROM source s WHERE s.id = ? AND " TR_SEL_UNPLACED("s"), NULL,
	    source_id, &off, err)) < 0)
		return (-1);
	if (found) {
		*has_wall = 1;
		*wall_offset = off;
		return (0);
	}
	return (tr_sel_store_origin(db, &origin, has_wall, wall_offset, err));
}

char *
tr_sel_store_zone(struct tr_db *db, const char *tz)
{
	sqlite3_stmt	*st;
	char		*z = NULL;

	if (tz != NULL)
		return (tr_xstrdup(tz));
	if (sqlite3_prepare_v2(db->sq, "SELECT json_extract(meta, '$.tz') "
	    "FROM source WHERE json_type(meta, '$.tz') = 'text' ORDER BY id "
	    "LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return (NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		z = tr_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return (z);
}

/* --- resolving -------------------------------------------------------- */

static int
check_sources(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	int64_t		*all;
	size_t		 n, i, j;
	struct tr_buf	 b;

	if (s->nsources == 0)
		return (0);
	if (ints(db, "SELECT id FROM source ORDER BY id", -1, NULL, &all, &n,
	    err) != 0)
		return (-1);
	for (i = j = 0; i < s->nsources; i++) {
		while (j < n && all[j] < s->sources[i])
			j++;
		if (j == n || all[j] != s->sources[i])
			break;
	}
	if (i < s->nsources) {
		tr_buf_init(&b);
		add_ranges(&b, all, n);
		tr_error_set(err, TR_EDATA, "no source %" PRId64 "; sources: "
		    "%s", s->sources[i], b.data);
		tr_buf_release(&b);
	}
	free(all);
	return (i < s->nsources ? -1 : 0);
}

/*
 * Whether 'sql' (?1: 'text' or 'arg') returns a row whose first column is
 * not NULL; -1 on error.
 */
static int
exists(struct tr_db *db, const char *sql, int64_t arg, const char *text,
    struct tr_error *err)
{
	int64_t	v;

	return (tr_db_int_arg(db, sql, text, arg, &v, err));
}

/*
 * Fail with "WHAT; LABEL: the list that 'list_sql' gives" (integers as
 * ranges when 'ids'; choice_list()).
 */
static int
no_such(struct tr_db *db, struct tr_error *err, const char *list_sql,
    int ids, const char *label, const char *what)
{
	char	*list;

	if ((list = choice_list(db, list_sql, ids, err)) == NULL)
		return (-1);
	tr_error_set(err, TR_EDATA, "%s; %s: %s", what, label, list);
	free(list);
	return (-1);
}

static int
check_event(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	struct tr_buf	b;
	char		what[160];
	int		r;

	if (s->event == NULL)
		return (0);
	/* 0 (no sample matches) when the store has no such string. */
	if ((r = tr_db_str_id(db, s->event, &s->event_id, err)) < 0)
		return (-1);
	/* A pprof sample index ("0") is checked by the pprof engine. */
	if (strspn(s->event, "0123456789") == strlen(s->event))
		return (0);
	tr_buf_init(&b);
	if (r == 1) {
		tr_buf_adds(&b, "SELECT 1 FROM sample WHERE event_id = ?1");
		src_cond(s, &b, "source_id");
		tr_buf_adds(&b, " LIMIT 1");
		r = exists(db, b.data, s->event_id, NULL, err);
	}
	if (r == 0) {
		tr_buf_reset(&b);
		tr_buf_adds(&b, "SELECT e.s FROM str e WHERE e.id IN (SELECT "
		    "DISTINCT event_id FROM sample WHERE 1");
		src_cond(s, &b, "source_id");
		tr_buf_adds(&b, ") ORDER BY 1");
		snprintf(what, sizeof what, "no event '%s'", s->event);
		no_such(db, err, b.data, 0, "events", what);
	}
	tr_buf_release(&b);
	return (r == 1 ? 0 : -1);
}

static int
check_type(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	struct tr_buf	b;
	char		what[160];
	int		r;

	if (s->type == NULL)
		return (0);
	tr_buf_init(&b);
	tr_buf_adds(&b, "SELECT 1 FROM profile WHERE type = ?1");
	src_cond(s, &b, "source_id");
	r = exists(db, b.data, -1, s->type, err);
	if (r == 0) {
		tr_buf_reset(&b);
		tr_buf_adds(&b, "SELECT DISTINCT type FROM profile WHERE 1");
		src_cond(s, &b, "source_id");
		tr_buf_adds(&b, " ORDER BY 1");
		snprintf(what, sizeof what, "no profile type '%s'", s->type);
		no_such(db, err, b.data, 0, "types", what);
	}
	tr_buf_release(&b);
	return (r == 1 ? 0 : -1);
}

static int
check_simple(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	char	num[32], what[160];
	int	r;

	if (s->tid >= 0) {
		snprintf(num, sizeof num, "%" PRId64, s->tid);
		if ((r = exists(db, "SELECT 1 FROM thread WHERE tid = ?1", s->tid,
		    NULL, err)) != 1)
			return (r < 0 ? -1 : no_such(db, err, "SELECT DISTINCT "
			    "tid FROM thread WHERE tid IS NOT NULL ORDER BY 1",
			    1, "tids", (snprintf(what, sizeof what,
			    "no thread %s", num), what)));
	}
	if (s->comm != NULL && (r = exists(db, "SELECT 1 FROM thread WHERE "
	    "name = ?1 UNION ALL SELECT 1 FROM process WHERE name = ?1",
	    -1, s->comm, err)) != 1)
		return (r < 0 ? -1 : no_such(db, err, "SELECT name FROM thread "
		    "UNION SELECT name FROM process WHERE name IS NOT NULL "
		    "ORDER BY 1", 0, "commands", (snprintf(what, sizeof what,
		    "no command '%s'", s->comm), what)));
	if (s->goid >= 0) {
		snprintf(num, sizeof num, "%" PRId64, s->goid);
		if ((r = exists(db, "SELECT 1 FROM track WHERE kind = "
		    "'" TR_TRACK_GOROUTINE "' AND ref = ?1", s->goid, NULL,
		    err)) != 1)
			return (r < 0 ? -1 : no_such(db, err, "SELECT DISTINCT "
			    "ref FROM track WHERE kind = '" TR_TRACK_GOROUTINE
			    "' ORDER BY ref", 1, "goroutines", (snprintf(what,
			    sizeof what, "no goroutine %s", num), what)));
	}
	if (s->gpu >= 0) {
		snprintf(num, sizeof num, "%" PRId64, s->gpu);
		if ((r = exists(db, "SELECT 1 FROM track WHERE kind IN ('"
		    TR_TRACK_GPU "', '" TR_TRACK_GPU_PROCESS "') AND ref = ?1",
		    s->gpu, NULL, err)) != 1)
			return (r < 0 ? -1 : no_such(db, err, "SELECT DISTINCT "
			    "ref FROM track WHERE kind = '" TR_TRACK_GPU
			    "' ORDER BY ref", 1,
			    "GPUs", (snprintf(what, sizeof what, "no GPU %s",
			    num), what)));
	}
	return (0);
}

/* Whether a perf command line records only process 'pid' (-p PID). */
static int
cmdline_pid(const char *cmd, int64_t pid)
{
	const char	*p;
	char		*end;
	long long	 v;

	for (p = cmd; (p = strstr(p, " -")) != NULL; p++) {
		if (strncmp(p, " -p ", 4) == 0)
			v = strtoll(p + 4, &end, 10);
		else if (strncmp(p, " --pid ", 7) == 0)
			v = strtoll(p + 7, &end, 10);
		else if (strncmp(p, " --pid=", 7) == 0)
			v = strtoll(p + 7, &end, 10);
		else
			continue;
		/* A list "-p 1,2" is several processes: no inference. */
		return (v == pid && (*end == ' ' || *end == '\0'));
	}
	return (0);
}

static void
add_ids(int64_t **v, size_t *n, const int64_t *add, size_t nadd)
{
	*v = tr_xrealloc(*v, (*n + nadd + 1) * sizeof **v);
	if (nadd > 0)
		memcpy(*v + *n, add, nadd * sizeof *add);
	*n += nadd;
}

/*
 * The threads (thread.id) of process 'pid' into '*out' (sorted, unique;
 * appended to), for --pid and --gpu; 'label' starts the note ("--pid
 * 42").  Threads recorded with their pid
 * are certain; perf script's default output has none, so those threads
 * are taken when the store knows their tid under the pid elsewhere, when
 * the tid is the pid (the main thread), when their perf source recorded
 * -p PID only, or when they carry the main thread's command name.
 */
static int
process_threads(struct tr_sel *s, struct tr_db *db, int64_t pid,
    const char *label, int must, int64_t **out, size_t *nout,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		*v = NULL, *known = NULL, *ids = NULL;
	size_t		 nids = 0;
	size_t		 n, nknown = 0, nmain = 0, ncmd = 0, ncomm = 0;
	char		*main_comm = NULL, num[32], what[200];
	int		 rc, r;

	if (ints(db, "SELECT t.id FROM thread t JOIN process p ON p.id = "
	    "t.process_id WHERE p.pid = ?1", pid, NULL, &known, &nknown,
	    err) != 0)
		return (-1);
	add_ids(&ids, &nids, known, nknown);
	/* The same tid seen with this pid by another source. */
	if (ints(db, "SELECT id FROM thread WHERE process_id IS NULL AND tid "
	    "IN (SELECT t.tid FROM thread t JOIN process p ON p.id = "
	    "t.process_id WHERE p.pid = ?1)", pid, NULL, &v, &n, err) != 0)
		goto fail;
	add_ids(&ids, &nids, v, n);
	nknown += n;
	free(v);
	if (ints(db, "SELECT id FROM thread WHERE process_id IS NULL AND "
	    "tid = ?1", pid, NULL, &v, &nmain, err) != 0)
		goto fail;
	add_ids(&ids, &nids, v, nmain);
	free(v);
	v = NULL;
	/* perf record -p PID: every pid-less thread its source sampled. */
	if ((st = tr_db_prepare(db, "SELECT id, json_extract(meta, "
	    "'$.cmdline') FROM source WHERE format = 'perf-script' AND "
	    "json_type(meta, '$.cmdline') = 'text'", err)) == NULL)
		goto fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!cmdline_pid((const char *)sqlite3_column_text(st, 1),
		    pid))
			continue;
		if (ints(db, "SELECT DISTINCT s.thread_id FROM sample s JOIN "
		    "thread t ON t.id = s.thread_id WHERE s.source_id = ?1 AND "
		    "t.process_id IS NULL", sqlite3_column_int64(st, 0), NULL,
		    &v, &n, err) != 0) {
			sqlite3_finalize(st);
			goto fail;
		}
		add_ids(&ids, &nids, v, n);
		ncmd += n;
		free(v);
		v = NULL;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read sources");
		goto fail;
	}
	/* The main thread's command name, for the threads with none. */
	if (nmain > 0 && ncmd == 0) {
		if ((st = tr_db_prepare(db, "SELECT name FROM thread WHERE "
		    "process_id IS NULL AND tid = ?1 AND name <> '' LIMIT 1",
		    err)) == NULL)
			goto fail;
		sqlite3_bind_int64(st, 1, pid);
		if (sqlite3_step(st) == SQLITE_ROW)
			main_comm = tr_xstrdup((const char *)
			    sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		if (main_comm != NULL) {
			if (ints(db, "SELECT id FROM thread WHERE process_id IS "
			    "NULL AND name = ?1 AND (tid IS NULL OR tid NOT IN "
			    "(SELECT tid FROM thread WHERE process_id IS NOT "
			    "NULL))", -1, main_comm, &v, &n, err) != 0)
				goto fail;
			add_ids(&ids, &nids, v, n);
			ncomm = n;
			free(v);
			v = NULL;
		}
	}
	uniq(ids, &nids);
	/*
	 * A process known only from GPU telemetry (a gpu-process track,
	 * no thread) is selected too: it has no threads to select.
	 */
	if (nids == 0 && must && (r = exists(db, "SELECT 1 FROM track t "
	    "JOIN process p ON p.id = t.process_id WHERE t.kind = '"
	    TR_TRACK_GPU_PROCESS "' AND p.pid = ?1", pid, NULL, err)) != 0) {
		if (r < 0)
			goto fail;
	} else if (nids == 0 && must) {
		snprintf(num, sizeof num, "%" PRId64, pid);
		if ((r = exists(db, "SELECT 1 FROM thread WHERE process_id IS "
		    "NULL", -1, NULL, err)) < 0)
			goto fail;
		if (r)
			snprintf(what, sizeof what, "no pid %s: no thread of "
			    "the store is known to belong to it (perf script "
			    "printed no pid, and no thread has it as its tid)",
			    num);
		else
			snprintf(what, sizeof what, "no pid %s", num);
		no_such(db, err, "SELECT DISTINCT pid FROM process ORDER BY 1",
		    1, "pids", what);
		goto fail;
	}
	if (nids > nknown) {
		tr_buf_printf(&s->notes, "%s: %zu thread%s "
		    "without a recorded pid taken as the process's:", label,
		    nids - (nknown < nids ? nknown : 0),
		    nids - nknown == 1 ? "" : "s");
		if (nmain > 0)
			tr_buf_adds(&s->notes, " its main thread (tid = pid)");
		if (ncmd > 0)
			tr_buf_printf(&s->notes, "%s perf recorded -p %" PRId64,
			    nmain ? "," : "", pid);
		if (ncomm > nmain)
			tr_buf_printf(&s->notes, "%s the command name '%s' of "
			    "its main thread", nmain || ncmd ? " and" : "",
			    main_comm);
		tr_buf_adds(&s->notes, "\n");
	}
	add_ids(out, nout, ids, nids);
	uniq(*out, nout);
	free(ids);
	free(main_comm);
	free(known);
	return (0);
fail:
	free(ids);
	free(main_comm);
	free(known);
	free(v);
	return (-1);
}

/* --pid: the threads of the process. */
static int
resolve_pid(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	char	label[40];

	if (s->pid < 0)
		return (0);
	snprintf(label, sizeof label, "--pid %" PRId64, s->pid);
	return (process_threads(s, db, s->pid, label, 1, &s->pid_threads,
	    &s->npid_threads, err));
}

/*
 * --gpu N on a sample selection (TR_SEL_GPU_PROCS): the threads of the
 * processes that per-process GPU telemetry (nvidia-smi
 * --query-compute-apps, pmon, nvtop) saw on GPU N, in the window when
 * one is given.  The pids are said in sel->notes.
 */
static int
resolve_gpu(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	struct tr_buf	 sql, names;
	sqlite3_stmt	*st;
	int64_t		 any, *pids = NULL;
	size_t		 before, npids = 0, i;
	char		 label[80];
	int		 rc;

	if (s->gpu < 0 || !(s->accept & TR_SEL_GPU_PROCS))
		return (0);
	if (tr_db_int_arg(db, "SELECT count(*) FROM track WHERE kind = '"
	    TR_TRACK_GPU_PROCESS "' AND ref = ?1", NULL, s->gpu, &any,
	    err) < 0)
		return (-1);
	if (any == 0)
		return (tr_error_set(err, TR_EDATA, "--gpu %" PRId64 ": no "
		    "per-process GPU data in the store to tell which processes "
		    "used GPU %" PRId64 "; use --pid", s->gpu, s->gpu));
	tr_buf_init(&sql);
	tr_buf_adds(&sql, "SELECT DISTINCT p.pid, coalesce(p.name, '') FROM "
	    "track t JOIN process p ON p.id = t.process_id WHERE t.kind = '"
	    TR_TRACK_GPU_PROCESS "' AND t.ref = :gpu AND EXISTS (SELECT 1 "
	    "FROM counter c WHERE c.track_id = t.id");
	src_cond(s, &sql, "t.source_id");
	/* The run bounds first: they need no run's JSON read. */
	if (s->has_from)
		tr_buf_adds(&sql, " AND c.run_end_ts >= :from AND c.ts >= "
		    ":from");
	if (s->has_to)
		tr_buf_adds(&sql, " AND c.run_ts < :to AND c.ts < :to");
	tr_buf_adds(&sql, ") ORDER BY 1");
	st = tr_db_prepare(db, sql.data, err);
	tr_buf_release(&sql);
	if (st == NULL)
		return (-1);
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":gpu"),
	    s->gpu);
	if (s->has_from)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st,
		    ":from"), s->from);
	if (s->has_to)
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st,
		    ":to"), s->to);
	tr_buf_init(&names);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pids = tr_xrealloc(pids, (npids + 1) * sizeof *pids);
		pids[npids] = sqlite3_column_int64(st, 0);
		tr_buf_printf(&names, "%s%" PRId64 " (%s)", npids ? ", " : "",
		    pids[npids], (const char *)sqlite3_column_text(st, 1));
		npids++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read GPU processes");
		goto out;
	}
	if (npids == 0) {
		tr_error_set(err, TR_EDATA, "--gpu %" PRId64 ": no process was "
		    "seen on GPU %" PRId64 " in the window", s->gpu, s->gpu);
		goto out;
	}
	tr_buf_printf(&s->notes, "--gpu %" PRId64 ": the samples of the "
	    "process%s seen on GPU %" PRId64 ": %s\n", s->gpu, npids == 1 ?
	    "" : "es", s->gpu, names.data);
	s->gpu_threads = tr_xcalloc(1, sizeof *s->gpu_threads);
	for (i = 0; i < npids; i++) {
		snprintf(label, sizeof label, "--gpu %" PRId64 ", process %"
		    PRId64, s->gpu, pids[i]);
		before = s->ngpu_threads;
		if (process_threads(s, db, pids[i], label, 0, &s->gpu_threads,
		    &s->ngpu_threads, err) != 0)
			goto out;
		if (s->ngpu_threads == before)
			tr_buf_printf(&s->notes, "--gpu %" PRId64 ": process %"
			    PRId64 " has no thread in the store\n", s->gpu,
			    pids[i]);
	}
	rc = 0;
out:
	free(pids);
	tr_buf_release(&names);
	return (rc == 0 ? 0 : -1);
}

int
tr_sel_snapshot_type(const char *type)
{
	return (type != NULL && (strcmp(type, TR_PROFILE_HEAP) == 0 ||
	    strcmp(type, TR_PROFILE_ALLOCS) == 0 ||
	    strcmp(type, TR_PROFILE_GOROUTINE) == 0 ||
	    strcmp(type, TR_PROFILE_THREADCREATE) == 0));
}

static int
resolve_profile_ids(struct tr_sel *s, struct tr_db *db,
    struct tr_error *err)
{
	const char	*p, *end;
	char		*item;
	int64_t		*v, *all;
	size_t		 n, nall, i, j;
	struct tr_buf	 b;

	if (s->profile_text == NULL)
		return (0);
	for (p = s->profile_text; ; p = end + 1) {
		end = p + strcspn(p, ",");
		item = tr_xstrndup(p, (size_t)(end - p));
		if (*item == 's') {
			v = NULL;
			n = 0;
			if (tr_sel_parse_ids(item + 1, 0, &v, &n) != 0) {
				free(v);
				free(item);
				goto bad;
			}
			for (i = 0; i < n; i++) {
				if (ints(db, "SELECT id FROM profile WHERE "
				    "source_id = ?1", v[i], NULL, &all, &nall,
				    err) != 0) {
					free(v);
					free(item);
					return (-1);
				}
				if (nall == 0) {
					tr_error_set(err, TR_EDATA, "source %"
					    PRId64 " has no pprof profile", v[i]);
					free(v);
					free(item);
					return (-1);
				}
				add_ids(&s->profile_ids, &s->nprofile_ids,
				    all, nall);
				free(all);
			}
			free(v);
		} else if (tr_sel_parse_ids(item, 'p', &s->profile_ids,
		    &s->nprofile_ids) != 0) {
			free(item);
			goto bad;
		}
		free(item);
		if (*end == '\0')
			break;
	}
	uniq(s->profile_ids, &s->nprofile_ids);
	if (ints(db, "SELECT id FROM profile ORDER BY id", -1, NULL, &all,
	    &nall, err) != 0)
		return (-1);
	for (i = j = 0; i < s->nprofile_ids; i++) {
		while (j < nall && all[j] < s->profile_ids[i])
			j++;
		if (j == nall || all[j] != s->profile_ids[i])
			break;
	}
	if (i < s->nprofile_ids) {
		tr_buf_init(&b);
		add_ranges(&b, all, nall);
		tr_error_set(err, TR_EDATA, "no profile %" PRId64 "; "
		    "profiles: %s", s->profile_ids[i], b.data);
		tr_buf_release(&b);
	}
	free(all);
	return (i < s->nprofile_ids ? -1 : 0);
bad:
	return (tr_error_set(err, TR_EUSAGE, "bad profile group '%s': give "
	    "profile ids (12, p12, p3-7) or sources (s2), comma-separated",
	    s->profile_text));
}

static int
has_id(const int64_t *v, size_t n, int64_t id)
{
	return (bsearch(&id, v, n, sizeof *v, cmp_i64) != NULL);
}

/*
 * "N TYPE snapshots in the selection; using the last, ...": when it was
 * taken from the store's start, or, for a source not on the timeline
 * ('wall' >= 0: its own wall clock, ns since the epoch), in UTC.
 */
static void
snapshot_note(struct tr_sel *s, size_t n, const char *type, int64_t id,
    int64_t source, int64_t ts, int64_t wall)
{
	char		 iso[TR_ISO_MAX];

	tr_buf_printf(&s->snapshot_notes, "%zu %s snapshots in the "
	    "selection; using the last, profile %" PRId64 " (source %" PRId64
	    ", ", n, type, id, source);
	if (wall >= 0) {
		tr_buf_printf(&s->snapshot_notes, "taken %s by its wall clock; "
		    "not on the store's timeline before trace-align",
		    tr_iso_utc(wall, iso));
	} else
		tr_buf_printf(&s->snapshot_notes, "at %.3fs",
		    (double)(ts - s->origin) / 1e9);
	tr_buf_adds(&s->snapshot_notes, "); --snapshots all sums them\n");
}

/* The selected profiles, the last snapshot of each type by default. */
static int
resolve_profiles(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	sqlite3_stmt	*st;
	struct {
		int64_t	 id, source, ts, dur, wall;
		char	*type;
	}		*p = NULL;
	size_t		 n = 0, i, j, k, nsame;
	int64_t		 ts, end, timeline;
	int		 rc, keep, all;

	/*
	 * Whether some source is on the timeline: then a wall-clock source
	 * that trace-align has not placed is off it, and its times are
	 * said as wall-clock times, not from the store's start.
	 */
	if (tr_db_int(db, "SELECT count(*) FROM source s WHERE "
	    TR_SEL_ON_TIMELINE("s"), &timeline, err) != 0)
		return (-1);
	if ((st = tr_db_prepare(db, "SELECT p.id, p.source_id, "
	    "coalesce(p.ts, 0), max(coalesce(p.dur, 0), 0), p.type, "
	    "CASE WHEN s.clock = 'wall' AND s.align_method IS NULL THEN "
	    "coalesce(p.ts, 0) - s.clock_offset END FROM profile p JOIN "
	    "source s ON s.id = p.source_id ORDER BY coalesce(p.ts, 0), p.id",
	    err)) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t	id = sqlite3_column_int64(st, 0);
		int64_t	src = sqlite3_column_int64(st, 1);
		const char *type = (const char *)sqlite3_column_text(st, 4);

		ts = sqlite3_column_int64(st, 2);
		end = ts + sqlite3_column_int64(st, 3);
		keep = tr_sel_has_source(s, src) &&
		    (s->type == NULL || strcmp(type, s->type) == 0) &&
		    (s->nprofile_ids == 0 ||
		    has_id(s->profile_ids, s->nprofile_ids, id));
		/* In a window when [ts, ts + dur] meets it; no time: none. */
		if (keep && (s->has_from || s->has_to))
			keep = ts != 0 && (!s->has_to || ts < s->to) &&
			    (!s->has_from || end >= s->from);
		if (!keep)
			continue;
		p = tr_xrealloc(p, (n + 1) * sizeof *p);
		p[n].id = id;
		p[n].source = src;
		p[n].ts = ts;
		p[n].wall = timeline > 0 && sqlite3_column_type(st, 5) !=
		    SQLITE_NULL ? sqlite3_column_int64(st, 5) : -1;
		p[n].type = tr_xstrdup(type);
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		for (i = 0; i < n; i++)
			free(p[i].type);
		free(p);
		return (tr_db_error(db, err, "cannot read profiles"));
	}
	s->profiles = tr_xcalloc(n + 1, sizeof *s->profiles);
	/*
	 * Profiles named one by one (--profile) merge as go tool pprof
	 * merges the files it is given, unless --snapshots last.
	 */
	all = s->snapshots == TR_SNAP_ALL || (s->profile_text != NULL &&
	    !s->snapshots_given);
	for (i = 0; i < n; i++) {
		keep = 1;
		if (s->profile_text != NULL && !s->snapshots_given &&
		    tr_sel_snapshot_type(p[i].type)) {
			for (j = i + 1; j < n; j++)
				if (strcmp(p[j].type, p[i].type) == 0)
					break;
			for (k = nsame = 0; j == n && k < i; k++)
				nsame += strcmp(p[k].type, p[i].type) == 0;
			if (nsame > 0)
				tr_buf_printf(&s->snapshot_notes, "summing "
				    "%zu %s snapshots named by --profile, as go "
				    "tool pprof merges the profiles it is "
				    "given; --snapshots last takes the last\n",
				    nsame + 1, p[i].type);
		}
		if (!all && tr_sel_snapshot_type(p[i].type)) {
			/* Keep the last of its type (the list is by time). */
			for (j = i + 1; j < n; j++)
				if (strcmp(p[j].type, p[i].type) == 0)
					keep = 0;
			if (keep) {
				for (k = nsame = 0; k < i; k++)
					nsame += strcmp(p[k].type,
					    p[i].type) == 0;
				if (nsame > 0)
					snapshot_note(s, nsame + 1, p[i].type,
					    p[i].id, p[i].source, p[i].ts,
					    p[i].wall);
			}
		}
		if (keep)
			s->profiles[s->nprofiles++] = p[i].id;
	}
	for (i = 0; i < n; i++)
		free(p[i].type);
	free(p);
	return (0);
}

int
tr_sel_resolve(struct tr_sel *s, struct tr_db *db, struct tr_error *err)
{
	char	*zone = NULL;
	int	 has_wall, rc = -1, began = 0;
	int64_t	 off;

	free(s->pid_threads);
	free(s->gpu_threads);
	free(s->profiles);
	free(s->profile_ids);
	s->pid_threads = s->gpu_threads = s->profiles = s->profile_ids = NULL;
	s->npid_threads = s->ngpu_threads = s->nprofiles = s->nprofile_ids = 0;
	s->event_id = -1;
	tr_buf_release(&s->notes);
	tr_buf_release(&s->snapshot_notes);
	tr_buf_init(&s->notes);
	tr_buf_init(&s->snapshot_notes);
	/* One snapshot of the store for every read below. */
	if (tr_db_read_begin(db, &began, err) != 0)
		return (-1);
	if (tr_sel_store_origin(db, &s->origin, &has_wall, &off, err) != 0)
		goto out;
	s->has_from = s->from_text != NULL;
	s->has_to = s->to_text != NULL;
	if (s->has_from || s->has_to)
		zone = tr_sel_store_zone(db, s->tz);
	if (s->has_from && tr_sel_parse_time("from", s->from_text,
	    s->origin, has_wall, off, zone, &s->from, err) != 0)
		goto out;
	if (s->has_to && tr_sel_parse_time("to", s->to_text, s->origin,
	    has_wall, off, zone, &s->to, err) != 0)
		goto out;
	if (s->has_from && s->has_to && s->to < s->from) {
		tr_error_set(err, TR_EUSAGE, "--to is before --from");
		goto out;
	}
	if (check_sources(s, db, err) != 0 || check_type(s, db, err) != 0 ||
	    check_event(s, db, err) != 0 || check_simple(s, db, err) != 0 ||
	    resolve_pid(s, db, err) != 0 || resolve_gpu(s, db, err) != 0 ||
	    resolve_profile_ids(s, db, err) != 0 ||
	    resolve_profiles(s, db, err) != 0)
		goto out;
	s->resolved = 1;
	rc = 0;
out:
	free(zone);
	tr_db_read_end(db, began);
	return (rc);
}

int
tr_sel_has_ts(const struct tr_sel *s, int64_t ts)
{
	return ((!s->has_from || ts >= s->from) && (!s->has_to || ts < s->to));
}

int
tr_sel_overlaps(const struct tr_sel *s, int64_t ts, int64_t end)
{
	if (end <= ts)
		return (tr_sel_has_ts(s, ts));
	return ((!s->has_from || end > s->from) && (!s->has_to || ts < s->to));
}

int
tr_sel_has_source(const struct tr_sel *s, int64_t id)
{
	return (s->nsources == 0 || has_id(s->sources, s->nsources, id));
}

/* --- samples ---------------------------------------------------------- */

void
tr_sel_sample_where(const struct tr_sel *s, struct tr_buf *b)
{
	int	i;

	src_cond(s, b, "s.source_id");
	/* pprof samples through their profiles: type, ids, snapshots. */
	if (s->type != NULL || s->profile_text != NULL) {
		tr_buf_adds(b, " AND s.profile_id IS NOT NULL");
		add_in(b, "s.profile_id", s->profiles, s->nprofiles);
	} else {
		tr_buf_adds(b, " AND (s.profile_id IS NULL OR");
		add_list(b, "s.profile_id", s->profiles, s->nprofiles);
		tr_buf_adds(b, ")");
	}
	if (s->event != NULL)
		tr_buf_adds(b, " AND s.event_id = :sel_event");
	if (s->pid >= 0)
		add_in(b, "s.thread_id", s->pid_threads, s->npid_threads);
	if (s->gpu >= 0 && (s->accept & TR_SEL_GPU_PROCS))
		add_in(b, "s.thread_id", s->gpu_threads, s->ngpu_threads);
	if (s->tid >= 0)
		tr_buf_adds(b, " AND s.thread_id IN (SELECT id FROM thread "
		    "WHERE tid = :sel_tid)");
	if (s->comm != NULL)
		tr_buf_adds(b, " AND s.thread_id IN (SELECT id FROM thread "
		    "WHERE name = :sel_comm UNION SELECT t.id FROM thread t "
		    "JOIN process p ON p.id = t.process_id WHERE t.name = '' "
		    "AND p.name = :sel_comm)");
	if (s->goid >= 0)
		tr_buf_adds(b, " AND json_extract(s.labels, '$.goid') = "
		    ":sel_goid");
	/* A sample without a time is in the window when its profile is. */
	if (s->has_from)
		tr_buf_adds(b, " AND (s.ts >= :sel_from OR (s.ts IS NULL AND "
		    "s.profile_id IS NOT NULL))");
	if (s->has_to)
		tr_buf_adds(b, " AND (s.ts < :sel_to OR (s.ts IS NULL AND "
		    "s.profile_id IS NOT NULL))");
	/* A pprof label: a string or number, or one in a list of them. */
	for (i = 0; i < s->nlabels; i++)
		tr_buf_printf(b, " AND EXISTS (SELECT 1 FROM "
		    "json_each(s.labels) j WHERE j.key = :sel_lk%d AND "
		    "(CAST(j.value AS TEXT) = :sel_lv%d OR (j.type = 'array' "
		    "AND EXISTS (SELECT 1 FROM json_each(j.value) k WHERE "
		    "CAST(k.value AS TEXT) = :sel_lv%d))))", i, i, i);
	if (s->has_windows)
		tr_buf_printf(b, " AND s.ts IS NOT NULL AND %str_sel_in_"
		    "windows(:sel_windows, s.ts)",
		    s->windows_exclude ? "NOT " : "");
}

static void
bind_text(sqlite3_stmt *st, const char *name, const char *v, int len)
{
	int	i;

	if ((i = sqlite3_bind_parameter_index(st, name)) > 0)
		sqlite3_bind_text(st, i, v, len, SQLITE_STATIC);
}

static void
bind_int(sqlite3_stmt *st, const char *name, int64_t v)
{
	int	i;

	if ((i = sqlite3_bind_parameter_index(st, name)) > 0)
		sqlite3_bind_int64(st, i, v);
}

void
tr_sel_bind(const struct tr_sel *s, sqlite3_stmt *st)
{
	char		 name[16];
	const char	*eq;
	int		 i;

	bind_int(st, ":sel_event", s->event_id);
	if (s->comm != NULL)
		bind_text(st, ":sel_comm", s->comm, -1);
	bind_int(st, ":sel_tid", s->tid);
	bind_int(st, ":sel_goid", s->goid);
	bind_int(st, ":sel_from", s->from);
	bind_int(st, ":sel_to", s->to);
	if ((i = sqlite3_bind_parameter_index(st, ":sel_windows")) > 0)
		sqlite3_bind_pointer(st, i, (void *)s, "tr_sel", NULL);
	for (i = 0; i < s->nlabels; i++) {
		eq = strchr(s->labels[i], '=');
		snprintf(name, sizeof name, ":sel_lk%d", i);
		bind_text(st, name, s->labels[i], (int)(eq - s->labels[i]));
		snprintf(name, sizeof name, ":sel_lv%d", i);
		bind_text(st, name, eq + 1, -1);
	}
}

int
tr_sel_takes(const struct tr_sel *s, const char *name)
{
	size_t	i;

	for (i = 0; i < NSEL_OPTS; i++)
		if (strcmp(sel_opts[i].name, name) == 0)
			return ((s->accept & sel_opts[i].bit) != 0);
	return (0);
}

const char *
tr_sel_letter(const struct tr_sel *s, int letter)
{
	static const struct {
		int		 letter;
		const char	*name;
	} letters[] = {
		{ 's', "source" }, { 'e', "event" }, { 'p', "pid" },
		{ 't', "tid" }, { 'c', "comm" }
	};
	size_t	i;

	for (i = 0; i < sizeof letters / sizeof letters[0]; i++)
		if (letters[i].letter == letter &&
		    tr_sel_takes(s, letters[i].name))
			return (letters[i].name);
	return (NULL);
}

const char **
tr_sel_names(const struct tr_sel *s, size_t *n)
{
	const char	**v = tr_xcalloc(NSEL_OPTS + 1, sizeof *v);
	size_t		  i;

	*n = 0;
	for (i = 0; i < NSEL_OPTS; i++)
		if ((s->accept & sel_opts[i].bit) &&
		    sel_opts[i].bit != TR_SEL_GPU_PROCS)
			v[(*n)++] = sel_opts[i].name;
	return (v);
}

/* Time windows (trace-flame --during). */

static int
window_cmp(const void *va, const void *vb)
{
	const struct tr_window	*a = va, *b = vb;

	if (a->start != b->start)
		return (a->start < b->start ? -1 : 1);
	return (a->end < b->end ? -1 : a->end > b->end);
}

int
tr_sel_in_windows(const struct tr_sel *s, int64_t ts)
{
	size_t	lo = 0, hi = s->nwindows, mid;

	/* The last window starting at or before ts. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->windows[mid].start <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo > 0 && ts < s->windows[lo - 1].end);
}

/* tr_sel_in_windows(:sel_windows, ts): the selection is bound by pointer. */
static void
sql_in_windows(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct tr_sel	*s;

	(void)argc;
	if ((s = sqlite3_value_pointer(argv[0], "tr_sel")) == NULL) {
		sqlite3_result_error(ctx, "tr_sel_in_windows: no selection",
		    -1);
		return;
	}
	if (sqlite3_value_type(argv[1]) == SQLITE_NULL)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int(ctx,
		    tr_sel_in_windows(s, sqlite3_value_int64(argv[1])));
}

int
tr_sel_set_windows(struct tr_sel *s, struct tr_db *db,
    const struct tr_window *w, size_t n, int exclude, struct tr_error *err)
{
	size_t	i, k;

	if (sqlite3_create_function(db->sq, "tr_sel_in_windows", 2,
	    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_in_windows, NULL,
	    NULL) != SQLITE_OK)
		return (tr_error_set(err, TR_EDATA, "cannot register the "
		    "windows function: %s", sqlite3_errmsg(db->sq)));
	free(s->windows);
	s->windows = tr_xcalloc(n + 1, sizeof *s->windows);
	for (i = k = 0; i < n; i++)
		if (w[i].end > w[i].start)
			s->windows[k++] = w[i];
	if (k > 0)
		qsort(s->windows, k, sizeof *s->windows, window_cmp);
	/* Merge overlapping and touching windows: each sample counts once. */
	for (i = 0, n = k, k = 0; i < n; i++) {
		if (k > 0 && s->windows[i].start <= s->windows[k - 1].end) {
			if (s->windows[i].end > s->windows[k - 1].end)
				s->windows[k - 1].end = s->windows[i].end;
		} else
			s->windows[k++] = s->windows[i];
	}
	s->nwindows = k;
	s->has_windows = 1;
	s->windows_exclude = exclude;
	return (0);
}
