/*
 * nvtop snapshots: "nvtop -s" (3.2.0+) prints one JSON array with an
 * object per GPU; "nvtop -l" (3.3.2+) prints such arrays back to back.
 * Values are strings with their unit glued on ("1980MHz", "58C", "97%"),
 * memory in bytes ("85180432384"), or null; 3.3.2 adds a "processes"
 * list.  There is no time at all: snapshot k is at --start + k *
 * --interval.  The stream is cut into one GPU object at a time, each
 * decoded by jansson, so memory stays small and every error keeps its
 * line and column.  nvtop 3.3.0 and 3.3.1 wrote invalid JSON (no commas
 * after three memory fields); that is recognised and named.
 */
#include "config.h"
#include "import/importer.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "import/gpu-import.h"
#include "base/names.h"
#include "store/writer.h"

enum state {
	S_OUT,		/* between arrays: expect '[' */
	S_FIRST,	/* after '[': expect '{' or ']' */
	S_NEXT,		/* after ',': expect '{' */
	S_AFTER,	/* after an element: expect ',' or ']' */
	S_OBJ		/* inside an element */
};

struct nvtop {
	struct tr_gpu_import	 g;
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_input		*in;
	enum state		 state;
	struct tr_buf		 obj;		/* element's text */
	long			 obj_line, obj_col;
	int			 depth, in_str, esc;
	long			 arr_line, arr_col;
	int64_t			 snapshot;	/* arrays seen - 1 */
	int64_t			 pos;		/* element in array */
	int			 saw_mem, saw_procs;
};

static int
probe(const unsigned char *p, size_t len)
{
	size_t	i = 0;

	while (i < len && isspace(p[i]))
		i++;
	if (i == len || p[i++] != '[')
		return (0);
	while (i < len && isspace(p[i]))
		i++;
	if (i == len || p[i++] != '{')
		return (0);
	while (i < len && isspace(p[i]))
		i++;
	/* nvtop always starts an element with its device name. */
	if (len - i >= 13 && memcmp(p + i, "\"device_name\"", 13) == 0)
		return (95);
	return (0);
}

/* Line and column of byte 'off' of the element's text. */
static void
obj_pos(const struct nvtop *x, size_t off, long *line, long *col)
{
	size_t	i, bol = 0;
	long	l = x->obj_line;

	for (i = 0; i < off && i < x->obj.len; i++)
		if (x->obj.data[i] == '\n') {
			l++;
			bol = i + 1;
		}
	*line = l;
	*col = (bol == 0 ? x->obj_col : 1) + (long)(off - bol);
}

static int obj_error(struct nvtop *, size_t, struct tr_error *,
    const char *, ...) __attribute__((format(printf, 4, 5)));

/* An error at byte 'off' of the element's text. */
static int
obj_error(struct nvtop *x, size_t off, struct tr_error *err,
    const char *fmt, ...)
{
	va_list	ap;
	char	msg[900];
	long	line, col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	obj_pos(x, off, &line, &col);
	return (tr_error_set_line(err, TR_EDATA, tr_input_name(x->in), line,
	    col, "%s", msg));
}

/* The offset of "key" in the element's text (for messages), or 0. */
static size_t
key_offset(const struct nvtop *x, const char *key)
{
	size_t	n = strlen(key), i;

	for (i = 0; i + n + 2 <= x->obj.len; i++)
		if (x->obj.data[i] == '"' &&
		    memcmp(x->obj.data + i + 1, key, n) == 0 &&
		    x->obj.data[i + 1 + n] == '"')
			return (i);
	return (0);
}

/*
 * nvtop 3.3.0 and 3.3.1 print "mem_util", "mem_total" and "mem_used"
 * without the comma that should follow.  Returns the offset just after
 * such a value, or 0.
 */
static size_t
missing_mem_comma(const struct nvtop *x)
{
	static const char *const keys[] = {
		"\"mem_util\"", "\"mem_total\"", "\"mem_used\""
	};
	const char	*s = x->obj.data;
	size_t		 n = x->obj.len, i, k, end;

	for (k = 0; k < 3; k++) {
		for (i = 0; i + strlen(keys[k]) < n; i++)
			if (memcmp(s + i, keys[k], strlen(keys[k])) == 0)
				break;
		if (i + strlen(keys[k]) >= n)
			continue;
		i += strlen(keys[k]);
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i >= n || s[i++] != ':')
			continue;
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i < n && s[i] == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			i++;
		} else if (n - i >= 4 && memcmp(s + i, "null", 4) == 0)
			i += 4;
		else
			continue;
		end = i;
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i < n && s[i] == '"')
			return (end);
	}
	return (0);
}

/*
 * Parse an nvtop value: a string "<number><unit>" or a number.  Returns 0
 * with *v in base units, 1 for null or a missing value, -1 otherwise.
 * 'want' is the unit expected when the string has none (may be NULL).
 */
static int
value(json_t *j, const char *want, double *v, const char **unit)
{
	const struct tr_gpu_unit	*u;
	const char			*s;
	size_t				 n, k;

	*unit = want ? want : "";
	if (j == NULL || json_is_null(j))
		return (1);
	if (json_is_number(j)) {
		*v = json_number_value(j);
		u = want ? tr_gpu_unit_find(want, strlen(want)) : NULL;
		*unit = u ? u->base : *unit;
		*v = tr_gpu_unit_apply(u, *v);
		return (0);
	}
	if (!json_is_string(j))
		return (-1);
	s = json_string_value(j);
	n = json_string_length(j);
	if (tr_gpu_missing(s, n))
		return (1);
	if ((k = tr_gpu_number(s, n, v)) == 0)
		return (-1);
	while (k < n && s[k] == ' ')
		k++;
	if (k == n)
		u = want ? tr_gpu_unit_find(want, strlen(want)) : NULL;
	else if ((u = tr_gpu_unit_find(s + k, n - k)) == NULL)
		return (-1);
	*unit = u ? u->base : *unit;
	*v = tr_gpu_unit_apply(u, *v);
	return (0);
}

static const char *
json_kind(const json_t *j)
{
	if (j == NULL)
		return ("missing");
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		return ("an object");
	case JSON_ARRAY:
		return ("an array");
	case JSON_TRUE:
	case JSON_FALSE:
		return ("a boolean");
	default:
		return ("a number");
	}
}

static const struct {
	const char	*key, *metric, *unit;
} gpu_keys[] = {
	{ "decode", TR_METRIC_DEC_UTIL, "%" },
	{ "encode", TR_METRIC_ENC_UTIL, "%" },
	{ "encode_decode", TR_METRIC_ENCDEC_UTIL, "%" },
	{ "gpu_clock", TR_METRIC_CLOCK_GR, "MHz" },
	{ "gpu_util", TR_METRIC_GPU_UTIL, "%" },
	{ "mem_clock", TR_METRIC_CLOCK_MEM, "MHz" },
	{ "mem_free", TR_METRIC_MEM_FREE, "B" },
	{ "mem_total", TR_METRIC_MEM_TOTAL, "B" },
	{ "mem_used", TR_METRIC_MEM_USED, "B" },
	{ "mem_util", TR_METRIC_MEM_UTIL, "%" },
	{ "power_draw", TR_METRIC_POWER, "W" },
	{ "temp", TR_METRIC_TEMP, "C" },
}, proc_keys[] = {
	{ "decode", TR_METRIC_DEC_UTIL, "%" },
	{ "encode", TR_METRIC_ENC_UTIL, "%" },
	{ "encode_decode", TR_METRIC_ENCDEC_UTIL, "%" },
	{ "gpu_mem_bytes_alloc", TR_METRIC_MEM_USED, "B" },
	{ "gpu_mem_usage", TR_METRIC_MEM_USED_PCT, "%" },
	{ "gpu_usage", TR_METRIC_GPU_UTIL, "%" },
};

/* Store the counters of object 'o' (a GPU or a process) on 'track'. */
static int
counters(struct nvtop *x, json_t *o, int proc, int64_t track, int64_t ts,
    struct tr_error *err)
{
	const char	*key, *metric, *unit, *want;
	json_t		*j;
	char		*own = NULL;
	size_t		 i, nk;
	double		 v;
	int64_t		 id;
	int		 r;

	nk = proc ? sizeof proc_keys / sizeof proc_keys[0] :
	    sizeof gpu_keys / sizeof gpu_keys[0];
	json_object_foreach(o, key, j) {
		metric = NULL;
		want = NULL;
		for (i = 0; i < nk; i++)
			if (strcmp(key, proc ? proc_keys[i].key :
			    gpu_keys[i].key) == 0) {
				metric = proc ? proc_keys[i].metric :
				    gpu_keys[i].metric;
				want = proc ? proc_keys[i].unit :
				    gpu_keys[i].unit;
			}
		if (!proc && strcmp(key, "fan_speed") == 0) {
			/* "45%", "1200RPM", or "CPU Fan" (integrated) */
			if (json_is_string(j) && strcmp(json_string_value(j),
			    "CPU Fan") == 0)
				continue;
			metric = "fan.speed";
			if (json_is_string(j) && strstr(json_string_value(j),
			    "RPM") != NULL)
				metric = "fan.rpm";
		}
		if (metric == NULL) {
			if (strcmp(key, "device_name") == 0 ||
			    strcmp(key, "processes") == 0 ||
			    strcmp(key, "pid") == 0 ||
			    strcmp(key, "cmdline") == 0 ||
			    strcmp(key, "kind") == 0 ||
			    strcmp(key, "user") == 0)
				continue;
			/* A newer nvtop's extra field: keep numbers. */
			if (value(j, NULL, &v, &unit) != 0)
				continue;
			own = tr_xasprintf("nvtop.%s", key);
			metric = own;
		} else {
			if (!json_is_string(j) && !json_is_null(j) &&
			    !json_is_number(j))
				return (obj_error(x, key_offset(x, key), err,
				    "expected a string or null for '%s', got "
				    "%s", key, json_kind(j)));
			if ((r = value(j, want, &v, &unit)) == 1)
				continue;
			if (r < 0)
				return (obj_error(x, key_offset(x, key), err,
				    "expected a number with its unit for "
				    "'%s', got '%s'", key,
				    json_string_value(j)));
		}
		id = tr_gpu_import_metric(&x->g, metric, unit, key, err);
		free(own);
		own = NULL;
		if (id < 0 || tr_writer_add_counter(x->wr, track, ts, id, v,
		    err) < 0)
			return (-1);
	}
	return (0);
}

static int
process(struct nvtop *x, json_t *p, size_t n, int64_t gpu_track,
    int64_t ts, struct tr_error *err)
{
	json_t		*j, *meta;
	const char	*s, *name = NULL;
	size_t		 nlen = 0;
	double		 v;
	int64_t		 pid, track;

	if (!json_is_object(p))
		return (obj_error(x, key_offset(x, "processes"), err,
		    "expected an object for each of 'processes', got %s",
		    json_kind(p)));
	j = json_object_get(p, "pid");
	s = json_is_string(j) ? json_string_value(j) : "";
	if (json_is_integer(j))
		pid = json_integer_value(j);
	else if (tr_gpu_number(s, strlen(s), &v) != strlen(s) || *s == '\0' ||
	    !tr_gpu_whole(v, TR_GPU_MAX_PID, &pid))
		return (obj_error(x, key_offset(x, "pid"), err, "expected a "
		    "process id for 'pid', got '%s'",
		    json_is_string(j) ? s : json_kind(j)));
	if (!tr_gpu_import_find_process(&x->g, (const char *)&x->pos,
	    sizeof x->pos, pid, &track)) {
		meta = json_object();
		json_object_set_new(meta, "pid", json_integer(pid));
		if ((j = json_object_get(p, "cmdline")) != NULL &&
		    json_is_string(j)) {
			json_object_set(meta, "cmdline", j);
			tr_gpu_command_name(json_string_value(j),
			    json_string_length(j), &name, &nlen);
		}
		if ((j = json_object_get(p, "kind")) != NULL &&
		    json_is_string(j))
			json_object_set(meta, "kind", j);
		if ((j = json_object_get(p, "user")) != NULL &&
		    json_is_string(j))
			json_object_set(meta, "user", j);
		track = tr_gpu_import_process(&x->g, (const char *)&x->pos,
		    sizeof x->pos, x->pos, gpu_track, pid, name, nlen, meta,
		    err);
		json_decref(meta);
		if (track < 0)
			return (-1);
	}
	(void)n;
	return (counters(x, p, 1, track, ts, err));
}

/* One GPU of the current snapshot. */
static int
element(struct nvtop *x, struct tr_error *err)
{
	json_error_t	 jerr;
	json_t		*o, *j, *meta;
	char		*name;
	size_t		 off, i;
	long		 line, col;
	int64_t		 ts, track, ref;
	int		 rc = -1;

	o = json_loadb(x->obj.data, x->obj.len, JSON_DISABLE_EOF_CHECK, &jerr);
	if (o == NULL) {
		if ((off = missing_mem_comma(x)) != 0)
			return (obj_error(x, off, err, "invalid JSON: ',' "
			    "missing after this value, as nvtop 3.3.0 and "
			    "3.3.1 write it (no commas after \"mem_util\", "
			    "\"mem_total\" and \"mem_used\"; fixed in 3.3.2): "
			    "capture with nvtop 3.3.2 or later, or add the "
			    "commas, e.g. with sed -E 's/^( *\"mem_(util|total"
			    "|used)\": (\"[^\"]*\"|null))$/\\1,/'"));
		line = x->obj_line + jerr.line - 1;
		col = jerr.line <= 1 ? x->obj_col + jerr.column - 1 :
		    jerr.column;
		return (tr_error_set_line(err, TR_EDATA, tr_input_name(x->in),
		    line, col, "invalid JSON: %s", jerr.text));
	}
	ts = x->g.start + x->snapshot * x->g.interval;
	if (!tr_gpu_import_find_gpu(&x->g, (const char *)&x->pos,
	    sizeof x->pos, &track, &ref)) {
		meta = json_object();
		j = json_object_get(o, "device_name");
		if (j != NULL && json_is_string(j)) {
			json_object_set(meta, "name", j);
			name = tr_xstrdup(json_string_value(j));
		} else
			name = tr_xasprintf("gpu %lld", (long long)x->pos);
		json_object_set_new(meta, "position",
		    json_integer(x->pos));
		track = tr_gpu_import_gpu(&x->g, (const char *)&x->pos,
		    sizeof x->pos, x->pos, name, meta, NULL, err);
		free(name);
		json_decref(meta);
		if (track < 0)
			goto out;
	}
	tr_gpu_import_sample(&x->g, x->pos, track, x->pos, ts);
	if (json_object_get(o, "mem_total") != NULL)
		x->saw_mem = 1;
	if (counters(x, o, 0, track, ts, err) != 0)
		goto out;
	if ((j = json_object_get(o, "processes")) != NULL) {
		x->saw_procs = 1;
		if (!json_is_array(j)) {
			obj_error(x, key_offset(x, "processes"), err,
			    "expected an array for 'processes', got %s",
			    json_kind(j));
			goto out;
		}
		for (i = 0; i < json_array_size(j); i++)
			if (process(x, json_array_get(j, i), i, track, ts,
			    err) != 0)
				goto out;
	}
	rc = 0;
out:
	json_decref(o);
	return (rc);
}

static int
unexpected(struct nvtop *x, long col, const char *want, char c,
    struct tr_error *err)
{
	return (tr_input_error(x->in, err, col, "expected %s, got '%c'", want,
	    c));
}

static int
run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	struct nvtop	 x;
	const char	*line;
	size_t		 len, i;
	long		 lineno = 0;
	char		 c;
	int		 r, rc = -1;

	memset(&x, 0, sizeof x);
	x.ctx = ctx;
	x.wr = tr_import_writer(ctx);
	x.in = in;
	x.snapshot = -1;
	tr_buf_init(&x.obj);
	if (tr_gpu_import_init(&x.g, ctx, in, err) != 0)
		goto out;
	x.g.timing = "start+interval";
	while ((r = tr_input_getline(in, &line, &len, err)) == 1) {
		lineno = tr_input_lineno(in);
		for (i = 0; i < len; i++) {
			c = line[i];
			if (x.state == S_OBJ) {
				tr_buf_addc(&x.obj, c);
				if (x.in_str) {
					if (x.esc)
						x.esc = 0;
					else if (c == '\\')
						x.esc = 1;
					else if (c == '"')
						x.in_str = 0;
					continue;
				}
				if (c == '"')
					x.in_str = 1;
				else if (c == '{' || c == '[')
					x.depth++;
				else if ((c == '}' || c == ']') &&
				    --x.depth == 0) {
					if (element(&x, err) != 0)
						goto out;
					x.pos++;
					x.state = S_AFTER;
				}
				continue;
			}
			if (isspace((unsigned char)c))
				continue;
			switch (x.state) {
			case S_OUT:
				if (c != '[') {
					unexpected(&x, (long)i + 1, "'[' "
					    "starting an nvtop snapshot", c,
					    err);
					goto out;
				}
				x.snapshot++;
				x.pos = 0;
				x.arr_line = lineno;
				x.arr_col = (long)i + 1;
				if (x.snapshot == 0 && tr_gpu_import_need_start(
				    &x.g, 0, (long)i + 1, "nvtop output", err)
				    != 0)
					goto out;
				if (x.snapshot == 1 && !x.g.has_interval) {
					tr_input_error(in, err, (long)i + 1,
					    "a second snapshot: nvtop -l "
					    "output carries no time, give its "
					    "interval with --interval DUR "
					    "(nvtop -l sleeps -d tenths of a "
					    "second between snapshots, 0.1 s "
					    "by default)");
					goto out;
				}
				x.state = S_FIRST;
				break;
			case S_FIRST:
			case S_NEXT:
				if (c == ']' && x.state == S_FIRST) {
					x.state = S_OUT;
					break;
				}
				if (c != '{') {
					unexpected(&x, (long)i + 1,
					    x.state == S_FIRST ? "'{' or ']'" :
					    "'{' after ','", c, err);
					goto out;
				}
				tr_buf_reset(&x.obj);
				tr_buf_addc(&x.obj, c);
				x.obj_line = lineno;
				x.obj_col = (long)i + 1;
				x.depth = 1;
				x.in_str = x.esc = 0;
				x.state = S_OBJ;
				break;
			case S_AFTER:
				if (c == ',')
					x.state = S_NEXT;
				else if (c == ']')
					x.state = S_OUT;
				else {
					unexpected(&x, (long)i + 1,
					    "',' or ']' after a GPU object", c,
					    err);
					goto out;
				}
				break;
			default:
				break;
			}
		}
		if (x.state == S_OBJ)
			tr_buf_addc(&x.obj, '\n');
	}
	if (r < 0)
		goto out;
	if (x.state == S_OBJ) {
		tr_error_set_line(err, TR_EDATA, tr_input_name(in), x.obj_line,
		    x.obj_col, "truncated: the input ends inside this GPU "
		    "object");
		goto out;
	}
	if (x.state != S_OUT) {
		tr_error_set_line(err, TR_EDATA, tr_input_name(in), x.arr_line,
		    x.arr_col, "truncated: the input ends before the ']' "
		    "closing this snapshot");
		goto out;
	}
	if (x.snapshot < 0) {
		tr_error_set_line(err, TR_EDATA, tr_input_name(in), lineno, 0,
		    "no nvtop snapshot (a JSON array) in the input");
		goto out;
	}
	tr_import_set_version(ctx, x.saw_procs ? "3.3.2+" : x.saw_mem ?
	    "3.3" : "3.2");
	tr_gpu_import_finish(&x.g);
	rc = 0;
out:
	tr_gpu_import_release(&x.g);
	tr_buf_release(&x.obj);
	return (rc);
}

const struct tr_importer tr_importer_nvtop = {
	.name = "nvtop",
	.summary = "nvtop -s / -l JSON snapshots (GPUs and their processes)",
	.probe = probe,
	.run = run,
};
