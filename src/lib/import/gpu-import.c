/*
 * Shared pieces of the GPU telemetry importers.  Sampling statistics keep
 * a histogram of exact gaps (few distinct values in practice: timestamps
 * have millisecond or second resolution), so the median is exact and
 * memory does not grow with the number of samples.
 */
#include "config.h"
#include "import/gpu-import.h"
#include "base/names.h"
#include "store/writer.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS	1000000000LL

/* An open-addressing histogram of int64 gaps. */
struct tr_gpu_gaps {
	int64_t		*key;
	int64_t		*count;
	size_t		 cap, n;
	int64_t		 total;
};

static struct tr_gpu_gaps *
gaps_new(void)
{
	struct tr_gpu_gaps	*g = tr_xcalloc(1, sizeof *g);

	g->cap = 64;
	g->key = tr_xmalloc(g->cap * sizeof *g->key);
	g->count = tr_xcalloc(g->cap, sizeof *g->count);
	return (g);
}

static void
gaps_free(struct tr_gpu_gaps *g)
{
	if (g == NULL)
		return;
	free(g->key);
	free(g->count);
	free(g);
}

static size_t
gaps_slot(const struct tr_gpu_gaps *g, int64_t k)
{
	uint64_t	h = (uint64_t)k * 0x9e3779b97f4a7c15ULL;
	size_t		i = (size_t)(h >> 17) & (g->cap - 1);

	while (g->count[i] != 0 && g->key[i] != k)
		i = (i + 1) & (g->cap - 1);
	return (i);
}

static void
gaps_add(struct tr_gpu_gaps *g, int64_t k)
{
	size_t	i, j, ocap;
	int64_t	*okey, *ocount;

	if ((g->n + 1) * 2 > g->cap) {
		ocap = g->cap;
		okey = g->key;
		ocount = g->count;
		g->cap *= 2;
		g->key = tr_xmalloc(g->cap * sizeof *g->key);
		g->count = tr_xcalloc(g->cap, sizeof *g->count);
		for (i = 0; i < ocap; i++)
			if (ocount[i] != 0) {
				j = gaps_slot(g, okey[i]);
				g->key[j] = okey[i];
				g->count[j] = ocount[i];
			}
		free(okey);
		free(ocount);
	}
	i = gaps_slot(g, k);
	if (g->count[i] == 0) {
		g->key[i] = k;
		g->n++;
	}
	g->count[i]++;
	g->total++;
}

static int
cmp_gap(const void *a, const void *b)
{
	const int64_t	*x = a, *y = b;

	return ((x[0] > y[0]) - (x[0] < y[0]));
}

int
tr_gpu_import_init(struct tr_gpu_import *g, struct tr_import *ctx,
    struct tr_input *in, struct tr_error *err)
{
	const char	*s;

	memset(g, 0, sizeof *g);
	g->ctx = ctx;
	g->wr = tr_import_writer(ctx);
	g->in = in;
	g->tracks = tr_map_new();
	g->series_idx = tr_map_new();
	g->gaps = gaps_new();
	g->units = json_object();
	g->columns = json_object();
	g->timing = "timestamps";
	tr_buf_init(&g->key);
	tr_import_set_clock(ctx, "wall");
	if ((g->wc = tr_wallclock_new(tr_import_opt(ctx, "tz"), err)) == NULL)
		return (-1);
	if ((s = tr_import_opt(ctx, "start")) != NULL) {
		if (tr_wallclock_parse(g->wc, s, &g->start) != 0)
			return (tr_error_set(err, TR_EUSAGE, "bad --start "
			    "'%s': expected a time like '2024-05-01 "
			    "12:00:00' (local, in the --tz zone), "
			    "'2024-05-01T10:00:00Z', '2024-05-01 "
			    "12:00:00+02:00' or '@1714557600' (seconds since "
			    "the epoch), that exists in zone '%s'", s,
			    tr_wallclock_zone(g->wc)));
		g->has_start = 1;
	}
	if ((s = tr_import_opt(ctx, "interval")) != NULL) {
		if (tr_parse_duration(s, &g->interval) != 0 ||
		    g->interval <= 0)
			return (tr_error_set(err, TR_EUSAGE, "bad --interval "
			    "'%s': expected a positive duration such as 1s, "
			    "100ms or 0.5 (seconds)", s));
		g->has_interval = 1;
	}
	return (0);
}

void
tr_gpu_import_release(struct tr_gpu_import *g)
{
	size_t	i;

	tr_wallclock_free(g->wc);
	tr_map_free(g->tracks);
	tr_map_free(g->series_idx);
	for (i = 0; i < g->nseries; i++)
		gaps_free(g->series[i].gaps);
	free(g->series);
	gaps_free(g->gaps);
	json_decref(g->units);
	json_decref(g->columns);
	tr_buf_release(&g->key);
	sqlite3_finalize(g->find_ref);
	memset(g, 0, sizeof *g);
}

/* Median, extremes and long gaps (> 1.5 x median) of a histogram. */
static void
gaps_summary(const struct tr_gpu_gaps *h, json_t *o)
{
	int64_t	*pairs, seen = 0, median = 0, over = 0;
	size_t	 i, n = 0;

	json_object_set_new(o, "gaps", json_integer(h->total));
	if (h->n == 0)
		return;
	/* Sort the distinct gaps, then walk to the middle one. */
	pairs = tr_xmalloc(h->n * 2 * sizeof *pairs);
	for (i = 0; i < h->cap; i++)
		if (h->count[i] != 0) {
			pairs[2 * n] = h->key[i];
			pairs[2 * n + 1] = h->count[i];
			n++;
		}
	qsort(pairs, n, 2 * sizeof *pairs, cmp_gap);
	for (i = 0; i < n; i++) {
		seen += pairs[2 * i + 1];
		if (seen * 2 >= h->total) {
			median = pairs[2 * i];
			break;
		}
	}
	for (i = 0; i < n; i++)
		/* 1.5 x median, without overflow for absurd gaps. */
		if ((double)pairs[2 * i] > 1.5 * (double)median)
			over += pairs[2 * i + 1];
	json_object_set_new(o, "median_gap_ns", json_integer(median));
	json_object_set_new(o, "min_gap_ns", json_integer(pairs[0]));
	json_object_set_new(o, "max_gap_ns",
	    json_integer(pairs[2 * (n - 1)]));
	json_object_set_new(o, "long_gaps", json_integer(over));
	free(pairs);
}

static void
counts(json_t *o, int64_t samples, int64_t dups, int64_t backwards)
{
	json_object_set_new(o, "samples", json_integer(samples));
	if (dups > 0)
		json_object_set_new(o, "repeated_times", json_integer(dups));
	if (backwards > 0)
		json_object_set_new(o, "backward_steps",
		    json_integer(backwards));
}

void
tr_gpu_import_finish(struct tr_gpu_import *g)
{
	json_t			*meta = tr_import_meta(g->ctx), *s, *list, *o;
	struct tr_gpu_series	*se;
	size_t			 i;

	json_object_set_new(meta, "tz", json_string(tr_wallclock_zone(g->wc)));
	json_object_set_new(meta, "tz_from",
	    json_string(tr_wallclock_origin(g->wc)));
	if (tr_wallclock_ambiguous(g->wc) > 0)
		json_object_set_new(meta, "tz_ambiguous_times",
		    json_integer(tr_wallclock_ambiguous(g->wc)));
	json_object_set(meta, "units", g->units);
	json_object_set(meta, "columns", g->columns);

	s = json_object();
	json_object_set_new(s, "timing", json_string(g->timing));
	/* The options only count where they dated the samples. */
	if (g->has_start && strcmp(g->timing, "timestamps") != 0)
		json_object_set_new(s, "start_ns", json_integer(g->start));
	if (g->has_interval && strcmp(g->timing, "start+interval") == 0)
		json_object_set_new(s, "interval_ns",
		    json_integer(g->interval));
	json_object_set_new(s, "series", json_integer((json_int_t)g->nseries));
	counts(s, g->samples, g->dups, g->backwards);
	gaps_summary(g->gaps, s);
	/* Each series (a GPU, or a process for compute-apps) on its own. */
	list = json_array();
	for (i = 0; i < g->nseries && i < TR_GPU_MAXSERIES; i++) {
		se = &g->series[i];
		o = json_object();
		if (se->track > 0)
			json_object_set_new(o, "track", json_integer(se->track));
		if (se->gpu >= 0)
			json_object_set_new(o, "gpu", json_integer(se->gpu));
		counts(o, se->samples, se->dups, se->backwards);
		gaps_summary(se->gaps, o);
		json_array_append_new(list, o);
	}
	json_object_set_new(s, "per_series", list);
	json_object_set_new(meta, "sampling", s);
}

int
tr_gpu_import_need_start(struct tr_gpu_import *g, int need_interval,
    long col, const char *why, struct tr_error *err)
{
	if (g->has_start && (g->has_interval || !need_interval))
		return (0);
	if (!g->has_start && need_interval && !g->has_interval)
		return (tr_input_error(g->in, err, col, "%s carries no time: "
		    "give the capture's start with --start TIME and its "
		    "sampling interval with --interval DUR", why));
	if (!g->has_start)
		return (tr_input_error(g->in, err, col, "%s carries no time: "
		    "give the capture's start with --start TIME", why));
	return (tr_input_error(g->in, err, col, "%s carries no time: "
	    "give the sampling interval with --interval DUR (--start alone "
	    "only dates the first sample)", why));
}

int64_t
tr_gpu_import_ref_by_uuid(struct tr_gpu_import *g, const char *uuid,
    struct tr_error *err)
{
	struct tr_db	*db = tr_import_db(g->ctx);
	int64_t		 ref = -1;
	int		 rc;

	if (g->find_ref == NULL && (g->find_ref = tr_db_prepare(db,
	    "SELECT ref FROM track WHERE kind = '" TR_TRACK_GPU "' AND "
	    "ref >= 0 AND json_extract(meta, '$.uuid') = ?1 "
	    "ORDER BY id DESC LIMIT 1",
	    err)) == NULL)
		return (-2);
	sqlite3_bind_text(g->find_ref, 1, uuid, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(g->find_ref);
	if (rc == SQLITE_ROW)
		ref = sqlite3_column_int64(g->find_ref, 0);
	sqlite3_reset(g->find_ref);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read store");
		return (-2);
	}
	return (ref);
}

static void
make_gpu_key(struct tr_gpu_import *g, char kind, const char *key,
    size_t keylen)
{
	tr_buf_reset(&g->key);
	tr_buf_addc(&g->key, kind);
	tr_buf_add(&g->key, key, keylen);
}

static void
make_process_key(struct tr_gpu_import *g, int64_t pid, const char *key,
    size_t keylen)
{
	tr_buf_reset(&g->key);
	tr_buf_addc(&g->key, 'p');
	tr_buf_add(&g->key, &pid, sizeof pid);
	tr_buf_add(&g->key, key, keylen);
}

int
tr_gpu_import_find_gpu(struct tr_gpu_import *g, const char *key,
    size_t keylen, int64_t *track, int64_t *ref)
{
	make_gpu_key(g, 'g', key, keylen);
	if (!tr_map_get(g->tracks, g->key.data, g->key.len, track))
		return (0);
	g->key.data[0] = 'r';
	tr_map_get(g->tracks, g->key.data, g->key.len, ref);
	return (1);
}

int
tr_gpu_import_find_process(struct tr_gpu_import *g, const char *gpu_key,
    size_t gpu_keylen, int64_t pid, int64_t *track)
{
	make_process_key(g, pid, gpu_key, gpu_keylen);
	return (tr_map_get(g->tracks, g->key.data, g->key.len, track));
}

/*
 * Per-process tracks imported before their GPU's index was known (a
 * --query-compute-apps CSV names the GPU by uuid only, and in a bundle it
 * sorts before the --query-gpu CSV that maps uuid to index) take the
 * index when that GPU arrives (the opposite order is
 * tr_gpu_import_ref_by_uuid()'s).  In this import's
 * transaction, so a failed import leaves them as they were.
 */
static int
adopt_processes(struct tr_gpu_import *g, const char *uuid, int64_t ref,
    struct tr_error *err)
{
	struct tr_db	*db = tr_import_db(g->ctx);
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = tr_db_prepare(db, "UPDATE track SET ref = ?1, meta = "
	    "json_set(meta, '$.gpu_from', 'a later import of this uuid') "
	    "WHERE kind = '" TR_TRACK_GPU_PROCESS "' AND (ref IS NULL OR "
	    "ref < 0) AND json_extract(meta, '$.gpu_uuid') = ?2",
	    err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, ref);
	sqlite3_bind_text(st, 2, uuid, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot write to store"));
	return (0);
}

int64_t
tr_gpu_import_gpu(struct tr_gpu_import *g, const char *key, size_t keylen,
    int64_t ref, const char *name, json_t *meta, int64_t *ref_out,
    struct tr_error *err)
{
	json_t		*uuid;
	char		*text = NULL;
	int64_t		 id, r;

	if (tr_gpu_import_find_gpu(g, key, keylen, &id, &r)) {
		if (ref_out != NULL)
			*ref_out = r;
		return (id);
	}
	if (ref < 0 && meta != NULL &&
	    (uuid = json_object_get(meta, "uuid")) != NULL &&
	    json_is_string(uuid)) {
		if ((ref = tr_gpu_import_ref_by_uuid(g,
		    json_string_value(uuid), err)) < -1)
			return (-1);
		if (ref >= 0)
			json_object_set_new(meta, "index_from",
			    json_string("an earlier import of this uuid"));
	}
	if (meta != NULL)
		text = json_dumps(meta, JSON_COMPACT | JSON_SORT_KEYS);
	id = tr_writer_add_track(g->wr, TR_TRACK_GPU, name, ref, 0, 0, 0, text,
	    err);
	free(text);
	if (id < 0)
		return (-1);
	/* The ref lives under the same key with an 'r' prefix. */
	make_gpu_key(g, 'g', key, keylen);
	tr_map_put(g->tracks, g->key.data, g->key.len, id);
	g->key.data[0] = 'r';
	tr_map_put(g->tracks, g->key.data, g->key.len, ref);
	if (ref >= 0 && meta != NULL &&
	    (uuid = json_object_get(meta, "uuid")) != NULL &&
	    json_is_string(uuid) &&
	    adopt_processes(g, json_string_value(uuid), ref, err) != 0)
		return (-1);
	if (ref_out != NULL)
		*ref_out = ref;
	return (id);
}

int64_t
tr_gpu_import_process(struct tr_gpu_import *g, const char *gpu_key,
    size_t gpu_keylen, int64_t gpu_ref, int64_t gpu_track, int64_t pid,
    const char *name, size_t name_len, json_t *meta, struct tr_error *err)
{
	char		*text = NULL;
	int64_t		 id, proc;

	if (tr_gpu_import_find_process(g, gpu_key, gpu_keylen, pid, &id))
		return (id);
	if ((proc = tr_writer_add_process(g->wr, pid, name, name_len,
	    err)) < 0)
		return (-1);
	if (meta != NULL)
		text = json_dumps(meta, JSON_COMPACT | JSON_SORT_KEYS);
	tr_buf_reset(&g->key);
	tr_buf_add(&g->key, name != NULL ? name : "", name ? name_len : 0);
	id = tr_writer_add_track(g->wr, TR_TRACK_GPU_PROCESS, g->key.data,
	    gpu_ref, proc, 0, gpu_track, text, err);
	free(text);
	if (id < 0)
		return (-1);
	make_process_key(g, pid, gpu_key, gpu_keylen);
	tr_map_put(g->tracks, g->key.data, g->key.len, id);
	return (id);
}

int64_t
tr_gpu_import_metric(struct tr_gpu_import *g, const char *name,
    const char *unit, const char *column, struct tr_error *err)
{
	json_t	*u = json_object_get(g->units, name);

	if (u == NULL || (*json_string_value(u) == '\0' && *unit != '\0'))
		json_object_set_new(g->units, name, json_string(unit));
	if (column != NULL && json_object_get(g->columns, column) == NULL)
		json_object_set_new(g->columns, column, json_string(name));
	return (tr_writer_add_str(g->wr, name, strlen(name), err));
}

void
tr_gpu_import_sample(struct tr_gpu_import *g, int64_t series, int64_t track,
    int64_t gpu, int64_t ts)
{
	struct tr_gpu_series	*se;
	int64_t			 at;

	if (g->nseries > 0 && g->series[g->cur].key == series)
		se = &g->series[g->cur];
	else if (tr_map_get(g->series_idx, &series, sizeof series, &at))
		se = &g->series[g->cur = (size_t)at];
	else {
		if (g->nseries == g->capseries) {
			g->capseries = g->capseries ? g->capseries * 2 : 16;
			g->series = tr_xrealloc(g->series,
			    g->capseries * sizeof *g->series);
		}
		se = &g->series[g->cur = g->nseries];
		memset(se, 0, sizeof *se);
		se->key = series;
		se->track = track;
		se->gpu = gpu;
		se->gaps = gaps_new();
		tr_map_put(g->series_idx, &series, sizeof series,
		    (int64_t)g->nseries++);
	}
	g->samples++;
	se->samples++;
	if (se->samples > 1) {
		if (ts == se->last) {
			g->dups++;
			se->dups++;
			return;
		}
		if (ts < se->last) {
			g->backwards++;
			se->backwards++;
		} else {
			gaps_add(g->gaps, ts - se->last);
			gaps_add(se->gaps, ts - se->last);
		}
	}
	se->last = ts;
}

static const struct tr_gpu_unit units[] = {
	{ "%", "%", 1, 0 },
	{ "B", "bytes", 1, 0 },
	{ "C", "C", 1, 0 },
	{ "F", "C", 1, 1 },
	{ "GB", "bytes", 1073741824.0, 0 },
	{ "GHz", "MHz", 1000, 0 },
	{ "GiB", "bytes", 1073741824.0, 0 },
	{ "KB", "bytes", 1024, 0 },
	{ "KB/s", "bytes/s", 1024, 0 },
	{ "KiB", "bytes", 1024, 0 },
	/* nvidia-smi's "MB" (dmon, pmon) is MiB. */
	{ "MB", "bytes", 1048576.0, 0 },
	{ "MB/s", "bytes/s", 1048576.0, 0 },
	{ "MHz", "MHz", 1, 0 },
	{ "MiB", "bytes", 1048576.0, 0 },
	{ "RPM", "RPM", 1, 0 },
	{ "W", "W", 1, 0 },
	{ "bool", "bool", 1, 0 },
	{ "bytes", "bytes", 1, 0 },
	{ "errs", "count", 1, 0 },
	{ "mW", "W", 0.001, 0 },
	{ "ms", "ns", 1e6, 0 },
	{ "s", "ns", 1e9, 0 },
	{ "us", "ns", 1e3, 0 },
};

const struct tr_gpu_unit *
tr_gpu_unit_find(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strlen(units[i].name) == n &&
		    memcmp(units[i].name, s, n) == 0)
			return (&units[i]);
	return (NULL);
}

double
tr_gpu_unit_apply(const struct tr_gpu_unit *u, double v)
{
	if (u == NULL)
		return (v);
	if (u->fahrenheit)
		return ((v - 32) / 1.8);
	return (v * u->scale);
}

int
tr_gpu_missing(const char *s, size_t n)
{
	static const char *const words[] = {
		"-", "N/A", "NA", "n/a", "null", "Unknown"
	};
	size_t	i;

	/* [N/A], [Not Supported], [GPU is lost]... */
	if (n > 0 && s[0] == '[')
		return (s[n - 1] == ']');
	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0)
			return (1);
	return (0);
}

int
tr_gpu_whole(double v, double max, int64_t *out)
{
	if (!(v >= 0 && v <= max) || v != floor(v))
		return (0);
	*out = (int64_t)v;
	return (1);
}

size_t
tr_gpu_number(const char *s, size_t n, double *v)
{
	static const double	p10[] = {
		1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18
	};
	uint64_t	m = 0;
	size_t		i = 0, digits = 0, frac = 0;
	int		neg = 0, exact = 1;
	char		buf[64], *end;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		if (digits < 18)
			m = m * 10 + (uint64_t)(s[i] - '0');
		else
			exact = 0;
	if (i < n && s[i] == '.') {
		i++;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, frac++)
			if (digits + frac < 18)
				m = m * 10 + (uint64_t)(s[i] - '0');
			else
				exact = 0;
	}
	if (digits + frac == 0)
		return (0);
	if (i < n && (s[i] == 'e' || s[i] == 'E') && i + 1 < n &&
	    (isdigit((unsigned char)s[i + 1]) || ((s[i + 1] == '-' ||
	    s[i + 1] == '+') && i + 2 < n &&
	    isdigit((unsigned char)s[i + 2])))) {
		exact = 0;
		i += 2;
		while (i < n && isdigit((unsigned char)s[i]))
			i++;
	}
	if (exact && m <= (1ULL << 53)) {
		/* Both exact doubles: one correctly rounded division. */
		*v = (double)m / p10[frac];
	} else {
		if (i >= sizeof buf)
			return (0);
		memcpy(buf, s, i);
		buf[i] = '\0';
		*v = strtod(buf, &end);
		return ((size_t)(end - buf));
	}
	if (neg)
		*v = -*v;
	return (i);
}

void
tr_gpu_command_name(const char *s, size_t n, const char **name, size_t *len)
{
	size_t	i = 0, end, start;

	while (i < n && isspace((unsigned char)s[i]))
		i++;
	end = i;
	while (end < n && !isspace((unsigned char)s[end]))
		end++;
	start = end;
	while (start > i && s[start - 1] != '/')
		start--;
	if (start == end)	/* "dir/" or empty: keep what there is */
		start = i;
	*name = s + start;
	*len = end - start;
}
