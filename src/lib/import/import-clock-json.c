/*
 * clock.json: wall-clock/CLOCK_MONOTONIC pairs read together on the traced
 * host, written by share/tracekit/capture.sh (or by the program itself),
 * so that trace-align can put wall-clock sources (pprof, nvidia-smi) on
 * the monotonic timeline exactly.  The format, version 1:
 *
 *	{
 *	  "tracekit_clock": 1,		optional
 *	  "host": "gpu-7",		optional: the traced host
 *	  "tz": "+01:00",		optional: its UTC offset
 *	  "tz_name": "Europe/Paris",	optional: its zone's name
 *	  "pairs": [
 *	    { "wall_ns": 1795959651226464071,	CLOCK_REALTIME, ns
 *	      "mono_ns": 742520949745,		CLOCK_MONOTONIC, ns
 *	      "uncertainty_ns": 180 },		optional: |error| bound
 *	    { "wall_ns": ..., "mono_before_ns": ..., "mono_after_ns": ... },
 *	    ...
 *	  ]
 *	}
 *
 * A pair gives "mono_ns" (the monotonic time when wall_ns was read), or
 * the bracket "mono_before_ns"/"mono_after_ns" read just before and after
 * it: its midpoint is the pair's monotonic time, and half its width the
 * uncertainty.  Pairs come in time order.  The pairs go into the source's
 * meta ("pairs", each with uncertainty_ns when known) and, as a counter
 * "wall_minus_mono_s" on a "clock" track, onto the timeline.
 */
#include "config.h"
#include "import/importer.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/util.h"
#include "base/names.h"
#include "store/writer.h"

#define CLOCK_JSON_MAX	(16 << 20)

static int
probe(const unsigned char *p, size_t len)
{
	size_t	i = 0;
	char	buf[4097];

	while (i < len && isspace(p[i]))
		i++;
	if (i == len || p[i] != '{')
		return (0);
	if (len > sizeof buf - 1)
		len = sizeof buf - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	if (strstr(buf, "\"tracekit_clock\"") != NULL)
		return (100);
	if (strstr(buf, "\"pairs\"") != NULL &&
	    strstr(buf, "\"wall_ns\"") != NULL &&
	    (strstr(buf, "\"mono_ns\"") != NULL ||
	    strstr(buf, "\"mono_before_ns\"") != NULL))
		return (90);
	return (0);
}

/* Byte offset -> 1-based line and column. */
static void
position(const unsigned char *b, size_t off, long *line, long *col)
{
	size_t	i, bol = 0;

	*line = 1;
	for (i = 0; i < off; i++)
		if (b[i] == '\n') {
			(*line)++;
			bol = i + 1;
		}
	*col = (long)(off - bol) + 1;
}

/* Skip a JSON string starting at b[i] == '"'; returns the index after. */
static size_t
skip_str(const unsigned char *b, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (b[i] == '\\')
			i++;
		else if (b[i] == '"')
			return (i + 1);
	}
	return (n);
}

static size_t
skip_ws(const unsigned char *b, size_t n, size_t i)
{
	while (i < n && isspace(b[i]))
		i++;
	return (i);
}

/* Skip one JSON value starting at b[i]; returns the index after it. */
static size_t
skip_value(const unsigned char *b, size_t n, size_t i)
{
	int	depth = 0;

	if (i < n && b[i] == '"')
		return (skip_str(b, n, i));
	if (i < n && b[i] != '{' && b[i] != '[') {
		while (i < n && b[i] != ',' && b[i] != '}' && b[i] != ']' &&
		    !isspace(b[i]))
			i++;
		return (i);
	}
	while (i < n) {
		if (b[i] == '"') {
			i = skip_str(b, n, i);
			continue;
		}
		if (b[i] == '{' || b[i] == '[')
			depth++;
		else if ((b[i] == '}' || b[i] == ']') && --depth == 0)
			return (i + 1);
		i++;
	}
	return (n);
}

/*
 * The offset of the value of top-level member 'key' (a quoted name), or
 * of the document's start when there is none (the document is valid).
 */
static size_t
member_offset(const unsigned char *b, size_t n, const char *key)
{
	size_t	i, k, start, kl = strlen(key);

	i = skip_ws(b, n, 0);
	if (i == n || b[i] != '{')
		return (0);
	i = skip_ws(b, n, i + 1);
	while (i < n && b[i] == '"') {
		start = i;
		k = skip_str(b, n, i);
		i = skip_ws(b, n, skip_ws(b, n, k) + 1);	/* past ':' */
		if (k - start == kl && memcmp(b + start, key, kl) == 0)
			return (i);
		i = skip_ws(b, n, skip_value(b, n, i));
		if (i < n && b[i] == ',')
			i = skip_ws(b, n, i + 1);
	}
	return (skip_ws(b, n, 0));
}

/*
 * The offsets of the elements of the top-level "pairs" array, for
 * messages about a pair.
 */
static size_t *
pair_offsets(const unsigned char *b, size_t n, size_t *count)
{
	size_t	*offs = NULL, cap = 0, i;

	*count = 0;
	i = member_offset(b, n, "\"pairs\"");
	if (i >= n || b[i] != '[')
		return (NULL);
	i = skip_ws(b, n, i + 1);
	while (i < n && b[i] != ']') {
		if (*count == cap) {
			cap = cap ? cap * 2 : 16;
			offs = tr_xrealloc(offs, cap * sizeof *offs);
		}
		offs[(*count)++] = i;
		i = skip_ws(b, n, skip_value(b, n, i));
		if (i < n && b[i] == ',')
			i = skip_ws(b, n, i + 1);
	}
	return (offs);
}

/* An error at the value of top-level member 'key'. */
static int
doc_error(const unsigned char *b, size_t n, struct tr_input *in,
    const char *key, struct tr_error *err, const char *msg)
{
	long	line, col;

	position(b, member_offset(b, n, key), &line, &col);
	return (tr_error_set_line(err, TR_EDATA, tr_input_name(in), line, col,
	    "%s", msg));
}

struct cj {
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_input		*in;
	const unsigned char	*buf;
	size_t			*offs;
	size_t			 noffs;
};

/* An error at pair 'i' (its opening brace). */
static int
pair_error(struct cj *c, size_t i, struct tr_error *err, const char *what,
    const char *key)
{
	long	line = 0, col = 0;

	if (i < c->noffs)
		position(c->buf, c->offs[i], &line, &col);
	return (tr_error_set_line(err, TR_EDATA, tr_input_name(c->in), line,
	    col, "pair %zu: %s%s%s%s", i + 1, what, key ? " '" : "",
	    key ? key : "", key ? "'" : ""));
}

/* An optional integer member: 1 present, 0 absent, -1 not an integer. */
static int
member(json_t *o, const char *key, int64_t *v)
{
	json_t	*m = json_object_get(o, key);

	if (m == NULL || json_is_null(m))
		return (0);
	if (!json_is_integer(m))
		return (-1);
	*v = json_integer_value(m);
	return (1);
}

static int
one_pair(struct cj *c, size_t i, json_t *p, int64_t *prev, json_t *out,
    int64_t track, int64_t name, struct tr_error *err)
{
	static const char *const keys[] = {
		"wall_ns", "mono_ns", "mono_before_ns", "mono_after_ns",
		"uncertainty_ns", "boot_ns"
	};
	int64_t	 v[6] = { 0 }, mono, unc = -1;
	int	 have[6], k;
	json_t	*o;

	if (!json_is_object(p))
		return (pair_error(c, i, err, "expected an object", NULL));
	for (k = 0; k < 6; k++) {
		have[k] = member(p, keys[k], &v[k]);
		if (have[k] < 0)
			return (pair_error(c, i, err, "expected an integer "
			    "number of nanoseconds for", keys[k]));
		if (have[k] && v[k] < 0)
			return (pair_error(c, i, err, "negative", keys[k]));
	}
	if (!have[0])
		return (pair_error(c, i, err, "missing", "wall_ns"));
	if (have[1]) {
		mono = v[1];
	} else if (have[2] && have[3]) {
		if (v[3] < v[2])
			return (pair_error(c, i, err, "mono_after_ns is before",
			    "mono_before_ns"));
		mono = v[2] + (v[3] - v[2]) / 2;
		unc = (v[3] - v[2] + 1) / 2;
	} else
		return (pair_error(c, i, err, "missing 'mono_ns' (or "
		    "'mono_before_ns' and 'mono_after_ns')", NULL));
	if (have[4] && v[4] > unc)
		unc = v[4];
	if (mono < *prev)
		return (pair_error(c, i, err, "monotonic time goes backwards "
		    "at", have[1] ? "mono_ns" : "mono_before_ns"));
	*prev = mono;
	o = json_object();
	json_object_set_new(o, "wall_ns", json_integer(v[0]));
	json_object_set_new(o, "mono_ns", json_integer(mono));
	if (unc >= 0)
		json_object_set_new(o, "uncertainty_ns", json_integer(unc));
	if (have[5])
		json_object_set_new(o, "boot_ns", json_integer(v[5]));
	json_array_append_new(out, o);
	return (tr_writer_add_counter(c->wr, track, mono, name,
	    (double)(v[0] - mono) / 1e9, err) < 0 ? -1 : 0);
}

static int
run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	struct cj	 c;
	unsigned char	*buf = NULL;
	size_t		 len, i;
	json_error_t	 je;
	json_t		*doc = NULL, *pairs, *out, *v, *meta;
	int64_t		 prev = INT64_MIN, track, name;
	int		 rc = -1;

	memset(&c, 0, sizeof c);
	c.ctx = ctx;
	c.wr = tr_import_writer(ctx);
	c.in = in;
	if (tr_input_slurp(in, CLOCK_JSON_MAX, &buf, &len, err) != 0)
		return (-1);
	c.buf = buf;
	if ((doc = json_loadb((const char *)buf, len, 0, &je)) == NULL) {
		tr_error_set_line(err, TR_EDATA, tr_input_name(in), je.line,
		    je.column, "not valid JSON: %s", je.text);
		goto out;
	}
	if (!json_is_object(doc)) {
		doc_error(buf, len, in, "", err, "expected a JSON object with "
		    "'pairs'");
		goto out;
	}
	v = json_object_get(doc, "tracekit_clock");
	if (v != NULL && (!json_is_integer(v) || json_integer_value(v) != 1)) {
		doc_error(buf, len, in, "\"tracekit_clock\"", err,
		    "unsupported clock.json version (expected "
		    "\"tracekit_clock\": 1)");
		goto out;
	}
	pairs = json_object_get(doc, "pairs");
	if (!json_is_array(pairs) || json_array_size(pairs) == 0) {
		doc_error(buf, len, in, "\"pairs\"", err, "expected 'pairs', "
		    "an array of at least one wall/monotonic pair");
		goto out;
	}
	c.offs = pair_offsets(buf, len, &c.noffs);
	tr_import_set_version(ctx, "1");
	tr_import_set_clock(ctx, "monotonic");
	meta = tr_import_meta(ctx);
	v = json_object_get(doc, "host");
	if (json_is_string(v) && *json_string_value(v) != '\0') {
		if (tr_import_host(ctx) == NULL)
			tr_import_set_host(ctx, json_string_value(v));
		json_object_set(meta, "host", v);
	}
	for (i = 0; i < 2; i++) {
		const char	*k = i == 0 ? "tz" : "tz_name";

		v = json_object_get(doc, k);
		if (v == NULL || json_is_null(v))
			continue;
		if (!json_is_string(v)) {
			char	q[16], m[64];

			snprintf(q, sizeof q, "\"%s\"", k);
			snprintf(m, sizeof m, "'%s' is not a string", k);
			doc_error(buf, len, in, q, err, m);
			goto out;
		}
		json_object_set(meta, k, v);
	}
	if ((track = tr_writer_add_track(c.wr, TR_TRACK_CLOCK, "wall-mono", 0, 0,
	    0, 0, NULL, err)) < 0 || (name = tr_writer_add_str(c.wr,
	    "wall_minus_mono_s", 17, err)) < 0)
		goto out;
	out = json_array();
	json_object_set_new(meta, "pairs", out);
	for (i = 0; i < json_array_size(pairs); i++)
		if (one_pair(&c, i, json_array_get(pairs, i), &prev, out,
		    track, name, err) != 0)
			goto out;
	rc = 0;
out:
	json_decref(doc);
	free(c.offs);
	free(buf);
	return (rc);
}

const struct tr_importer tr_importer_clock_json = {
	.name = "clock-json",
	.summary = "clock.json: wall/monotonic clock pairs (capture.sh)",
	.probe = probe,
	.run = run,
};
