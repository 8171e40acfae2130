/*
 * nvidia-smi CSV: "--query-gpu=... --format=csv[,noheader][,nounits]" and
 * "--query-compute-apps=... --format=csv", with -l/-lms loops, several
 * GPUs interleaved and logs concatenated (repeated header lines).  Each
 * row becomes counters on the track of its GPU (or of its process on a
 * GPU for compute-apps), in base units.  Timestamps are local wall time
 * read in the --tz zone; without a timestamp column, --start and
 * --interval date the samples.
 */
#include "config.h"
#include "import/importer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "import/gpu-import.h"
#include "base/names.h"
#include "store/writer.h"

enum role {
	R_METRIC,	/* a number, stored as a counter */
	R_TEXT,		/* text: the first value goes in track meta */
	R_TIME, R_INDEX, R_UUID, R_NAME, R_BUS, R_PID, R_PNAME
};

struct col {
	char		*header;	/* as printed, with the unit */
	char		*field;		/* canonical nvidia-smi name */
	char		*unit;		/* from the header, or default */
	enum role	 role;
	int		 numeric;	/* a non-number is an error */
	int64_t		 name_id;	/* metric string, 0 unused */
	/* 'unit' looked up, NULL when unknown */
	const struct tr_gpu_unit *base_unit;
};

struct cell {
	const char	*s;
	size_t		 n;
	long		 col;		/* 1-based column */
};

struct smi {
	struct tr_gpu_import	 g;
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_input		*in;
	struct col		*cols;
	size_t			 ncols;
	long			 header_line;	/* 0: --fields */
	int			 apps;		/* compute-apps */
	int			 idx[R_PNAME + 1];	/* role's column */

	struct cell		*cells;
	size_t			 ncells, capcells;

	/* Timestamps: the last text converted, and the last result. */
	struct tr_buf		 last_text;
	int64_t			 last_ts, prev_ts;

	/* Without timestamps: which keys the current sample has seen. */
	struct tr_map		*seen;
	int64_t			 sample;
	struct tr_buf		 key, gkey;
	int64_t			 ref;		/* GPU of the row */
};

/* nvidia-smi accepts several names for one property; keep one. */
static const struct {
	const char	*from, *to;
} aliases[] = {
	{ "clocks.current.graphics", TR_METRIC_CLOCK_GR },
	{ "clocks.current.memory", TR_METRIC_CLOCK_MEM },
	{ "clocks.current.sm", "clocks.sm" },
	{ "clocks.current.video", "clocks.video" },
	{ "clocks.max.graphics", "clocks.max.gr" },
	{ "clocks.max.memory", "clocks.max.mem" },
	{ "clocks.applications.graphics", "clocks.applications.gr" },
	{ "clocks.applications.memory", "clocks.applications.mem" },
	{ "clocks.default_applications.graphics",
	    "clocks.default_applications.gr" },
	{ "clocks.default_applications.memory",
	    "clocks.default_applications.mem" },
	{ "gpu_bus_id", "pci.bus_id" },
	{ "gpu_name", "name" },
	{ "gpu_serial", "serial" },
	{ "gpu_uuid", "uuid" },
	{ "gpu_operation_mode.current", "gom.current" },
	{ "gpu_operation_mode.pending", "gom.pending" },
	{ "inforom.image", "inforom.img" },
	{ "inforom.power", "inforom.pwr" },
	{ "retired_pages.double_bit.count", "retired_pages.dbe" },
	{ "retired_pages.single_bit_ecc.count", "retired_pages.sbe" },
	{ "used_gpu_memory", TR_METRIC_MEM_USED },
	{ "used_memory", TR_METRIC_MEM_USED },
};

/* Fields that describe a GPU or process rather than measure it. */
static const char *const text_fields[] = {
	"accounting.buffer_size", "accounting.mode", "addressing_mode",
	"compute_cap", "compute_instance_id", "compute_mode",
	"display_active", "display_mode", "driver_version", "gpu_instance_id",
	"persistence_mode", "power.management", "serial", "vbios_version",
};
static const char *const text_prefixes[] = {
	"driver_model.", "ecc.mode.", "fabric.", "gom.", "gsp.mode.",
	"inforom.", "mig.mode.", "pci.", "reset_status.", "vgpu_",
};

/* Fields whose values must be numbers, and their unit when none is shown. */
static const struct {
	const char	*prefix, *unit;
} numeric_fields[] = {
	{ "clocks.", "MHz" },
	{ "enforced.power.limit", "W" },
	{ "fan.speed", "%" },
	{ "memory.", "MiB" },
	{ "power.", "W" },
	{ "protected_memory.", "MiB" },
	{ "temperature.", "C" },
	{ "utilization.", "%" },
	{ "ecc.errors.", "" },
	{ "encoder.stats.", "" },
	{ "pcie.link.", "" },
};

static int
has_prefix(const char *s, const char *p)
{
	return (strncmp(s, p, strlen(p)) == 0);
}

/* Split 'line' at commas into trimmed cells. */
static void
split(struct smi *x, const char *line, size_t len)
{
	size_t	i = 0, a, b;

	x->ncells = 0;
	for (;;) {
		a = i;
		while (i < len && line[i] != ',')
			i++;
		b = i;
		while (a < b && (line[a] == ' ' || line[a] == '\t'))
			a++;
		while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t'))
			b--;
		if (x->ncells == x->capcells) {
			x->capcells = x->capcells ? x->capcells * 2 : 32;
			x->cells = tr_xrealloc(x->cells,
			    x->capcells * sizeof *x->cells);
		}
		x->cells[x->ncells].s = line + a;
		x->cells[x->ncells].n = b - a;
		x->cells[x->ncells].col = (long)a + 1;
		x->ncells++;
		if (i >= len)
			break;
		i++;
	}
}

/*
 * "name" or "name [unit]": letters, digits, '_' and '.', starting with a
 * lowercase letter ("encoder.stats.sessionCount"); values never look so
 * (numbers, "NVIDIA H200", "GPU-...", "P0", "Default", "[N/A]").
 */
static int
header_cell(const char *s, size_t n)
{
	size_t	i = 0;

	if (n == 0 || !islower((unsigned char)s[0]))
		return (0);
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' ||
	    s[i] == '.'))
		i++;
	if (i == n)
		return (1);
	if (s[i] != ' ' || i + 2 >= n || s[i + 1] != '[' || s[n - 1] != ']')
		return (0);
	return (1);
}

static int
is_header(const struct smi *x)
{
	size_t	i;

	for (i = 0; i < x->ncells; i++)
		if (!header_cell(x->cells[i].s, x->cells[i].n))
			return (0);
	return (1);
}

/* A field nvidia-smi is known to print (probe only). */
static int
known_field(const char *s, size_t n)
{
	static const char *const names[] = {
		"timestamp", "index", "name", "gpu_name", "uuid", "gpu_uuid",
		"pci.bus_id", "gpu_bus_id", "pid", "process_name",
		"used_gpu_memory", "used_memory", "pstate", "driver_version",
		"serial", "gpu_serial", "count", "compute_mode"
	};
	static const char *const prefixes[] = {
		"utilization.", "memory.", "clocks.", "power.", "temperature.",
		"fan.", "pcie.", "ecc.", "encoder.", "clocks_event_reasons.",
		"clocks_throttle_reasons.", "enforced.power.", "pci."
	};
	size_t	i, k;

	for (k = 0; k < n && s[k] != ' '; k++)
		;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == k && memcmp(names[i], s, k) == 0)
			return (1);
	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (k > strlen(prefixes[i]) &&
		    memcmp(prefixes[i], s, strlen(prefixes[i])) == 0)
			return (1);
	return (0);
}

/* "2024/05/01 12:00:00[.123]" (or '-' in the date). */
static int
parse_stamp(const char *s, size_t n, struct tr_civil *c)
{
	size_t	i = 0;
	int	*f[6], k, v, w;
	int32_t	scale = 100000000;

	memset(c, 0, sizeof *c);
	f[0] = &c->year;
	f[1] = &c->mon;
	f[2] = &c->day;
	f[3] = &c->hour;
	f[4] = &c->min;
	f[5] = &c->sec;
	for (k = 0; k < 6; k++) {
		v = 0;
		w = 0;
		while (i < n && isdigit((unsigned char)s[i]) && w < 4) {
			v = v * 10 + (s[i++] - '0');
			w++;
		}
		if (w != (k == 0 ? 4 : 2))
			return (-1);
		*f[k] = v;
		if (k == 5)
			break;
		if (i >= n)
			return (-1);
		if ((k < 2 && s[i] != '/' && s[i] != '-') ||
		    (k == 2 && s[i] != ' ' && s[i] != 'T') ||
		    (k > 2 && s[i] != ':'))
			return (-1);
		i++;
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i == n)
			return (-1);
		for (; i < n && isdigit((unsigned char)s[i]); i++)
			if (scale > 0) {
				c->nsec += (int32_t)(s[i] - '0') * scale;
				scale /= 10;
			}
	}
	if (i != n || !tr_civil_valid(c))
		return (-1);
	return (0);
}

/* nvidia-smi separates cells with ", ". */
static int
comma_space(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i + 1 < n; i++)
		if (s[i] == ',' && s[i + 1] == ' ')
			return (1);
	return (0);
}

static int
probe(const unsigned char *p, size_t len)
{
	struct smi		 x;
	struct tr_civil		 c;
	const char		*s = (const char *)p, *nl;
	size_t			 n, i, known = 0, units = 0;
	int			 score = 0;

	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3;
		len -= 3;
	}
	while (len > 0 && (*s == '\n' || *s == '\r')) {
		s++;
		len--;
	}
	if ((nl = memchr(s, '\n', len)) == NULL)
		nl = s + len;
	n = (size_t)(nl - s);
	if (n > 0 && s[n - 1] == '\r')
		n--;
	memset(&x, 0, sizeof x);
	split(&x, s, n);
	if (is_header(&x)) {
		for (i = 0; i < x.ncells; i++) {
			known += known_field(x.cells[i].s, x.cells[i].n);
			units += memchr(x.cells[i].s, '[', x.cells[i].n) !=
			    NULL;
		}
		if (x.ncells > 1 && !comma_space(s, n))
			known /= 2;
		if (known >= 2 || (known == 1 && units > 0))
			score = 95;
		else if (known == 1)
			score = 60;
	} else if (x.ncells >= 2 && comma_space(s, n) &&
	    parse_stamp(x.cells[0].s, x.cells[0].n, &c) == 0)
		score = 75;	/* noheader: a timestamp first */
	free(x.cells);
	return (score);
}

static void
free_cols(struct smi *x)
{
	size_t	i;

	for (i = 0; i < x->ncols; i++) {
		free(x->cols[i].header);
		free(x->cols[i].field);
		free(x->cols[i].unit);
	}
	free(x->cols);
	x->cols = NULL;
	x->ncols = 0;
}

/* Classify one column from its header text ("memory.used [MiB]"). */
static void
set_col(struct col *c, const char *s, size_t n)
{
	const char	*br = memchr(s, '[', n);
	char		*raw, *f;
	size_t		 k = br ? (size_t)(br - s) : n, i;

	memset(c, 0, sizeof *c);
	c->header = tr_xstrndup(s, n);
	while (k > 0 && s[k - 1] == ' ')
		k--;
	raw = tr_xstrndup(s, k);
	if (br != NULL && n - (size_t)(br - s) > 2)
		c->unit = tr_xstrndup(br + 1, n - (size_t)(br - s) - 2);
	f = raw;
	for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(raw, aliases[i].from) == 0) {
			f = tr_xstrdup(aliases[i].to);
			free(raw);
			break;
		}
	if (has_prefix(f, "clocks_throttle_reasons.")) {
		raw = tr_xasprintf("clocks_event_reasons.%s",
		    f + strlen("clocks_throttle_reasons."));
		free(f);
		f = raw;
	}
	c->field = f;
	c->role = R_METRIC;
	if (strcmp(f, "timestamp") == 0)
		c->role = R_TIME;
	else if (strcmp(f, "index") == 0)
		c->role = R_INDEX;
	else if (strcmp(f, "uuid") == 0)
		c->role = R_UUID;
	else if (strcmp(f, "name") == 0)
		c->role = R_NAME;
	else if (strcmp(f, "pci.bus_id") == 0)
		c->role = R_BUS;
	else if (strcmp(f, "pid") == 0)
		c->role = R_PID;
	else if (strcmp(f, "process_name") == 0)
		c->role = R_PNAME;
	if (c->role != R_METRIC)
		return;
	for (i = 0; i < sizeof text_fields / sizeof text_fields[0]; i++)
		if (strcmp(f, text_fields[i]) == 0)
			c->role = R_TEXT;
	for (i = 0; i < sizeof text_prefixes / sizeof text_prefixes[0]; i++)
		if (has_prefix(f, text_prefixes[i]))
			c->role = R_TEXT;
	if (c->role == R_TEXT)
		return;
	if (strcmp(f, "power.management") != 0)
		for (i = 0; i < sizeof numeric_fields /
		    sizeof numeric_fields[0]; i++)
			if (has_prefix(f, numeric_fields[i].prefix)) {
				c->numeric = 1;
				if (c->unit == NULL && *numeric_fields[i].unit)
					c->unit = tr_xstrdup(
					    numeric_fields[i].unit);
				break;
			}
	if (br != NULL)
		c->numeric = 1;
	if (c->unit != NULL)
		c->base_unit = tr_gpu_unit_find(c->unit, strlen(c->unit));
}

/* Take the columns from the current cells (a header or --fields). */
static int
set_header(struct smi *x, long line, struct tr_error *err)
{
	size_t	i;
	int	r;

	free_cols(x);
	x->ncols = x->ncells;
	x->cols = tr_xcalloc(x->ncols, sizeof *x->cols);
	x->header_line = line;
	for (r = 0; r <= R_PNAME; r++)
		x->idx[r] = -1;
	for (i = 0; i < x->ncols; i++) {
		if (x->cells[i].n == 0) {
			if (line == 0)
				return (tr_error_set(err, TR_EUSAGE,
				    "bad --fields: empty field %zu", i + 1));
			return (tr_input_error(x->in, err, x->cells[i].col,
			    "empty field name in header"));
		}
		set_col(&x->cols[i], x->cells[i].s, x->cells[i].n);
		r = (int)x->cols[i].role;
		if (r >= R_TIME && x->idx[r] < 0)
			x->idx[r] = (int)i;
		else if (r >= R_TIME)
			x->cols[i].role = R_TEXT;	/* a repeat */
	}
	/* compute-apps: "name" there is the process's. */
	x->apps = x->idx[R_PID] >= 0;
	if (x->apps && x->idx[R_PNAME] < 0 && x->idx[R_NAME] >= 0 &&
	    strncmp(x->cols[x->idx[R_NAME]].header, "gpu_", 4) != 0) {
		x->cols[x->idx[R_NAME]].role = R_PNAME;
		x->idx[R_PNAME] = x->idx[R_NAME];
		x->idx[R_NAME] = -1;
	}
	json_object_set_new(tr_import_meta(x->ctx), "query",
	    json_string(x->apps ? "compute-apps" : "gpu"));
	return (0);
}

/*
 * Parse a value cell: 0 with *v set, 1 for "no value", -1 for text.
 * '*unit' is the unit after the number ("99 %"), if any.
 */
static int
parse_value(const struct cell *cl, double *v, const char **unit,
    size_t *ulen)
{
	const char	*s = cl->s;
	size_t		 n = cl->n, k, i;

	*unit = NULL;
	*ulen = 0;
	if (tr_gpu_missing(s, n))
		return (1);
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		uint64_t	h = 0;

		for (i = 2; i < n && isxdigit((unsigned char)s[i]); i++)
			h = h * 16 + (uint64_t)(isdigit((unsigned char)s[i]) ?
			    s[i] - '0' : tolower((unsigned char)s[i]) - 'a' +
			    10);
		if (i == n && n <= 18) {
			*v = (double)h;
			return (0);
		}
		return (-1);
	}
	if (n >= 2 && s[0] == 'P' && isdigit((unsigned char)s[1])) {
		/* pstate: P0 (fastest) .. P15 */
		if ((k = tr_gpu_number(s + 1, n - 1, v)) == n - 1)
			return (0);
		return (-1);
	}
	if ((k = tr_gpu_number(s, n, v)) == 0)
		return (-1);
	i = k;
	while (i < n && s[i] == ' ')
		i++;
	if (i == n)
		return (k == n ? 0 : -1);
	*unit = s + i;
	*ulen = n - i;
	for (; i < n; i++)
		if (!isalpha((unsigned char)s[i]) && s[i] != '%' &&
		    s[i] != '/')
			return (-1);
	return (0);
}

static int
bool_word(const char *s, size_t n, double *v)
{
	static const struct {
		const char	*w;
		int		 v;
	} words[] = {
		{ "Active", 1 }, { "Not Active", 0 }, { "Enabled", 1 },
		{ "Disabled", 0 }, { "Yes", 1 }, { "No", 0 }, { "On", 1 },
		{ "Off", 0 },
	};
	size_t	i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i].w) == n && memcmp(words[i].w, s, n) == 0) {
			*v = words[i].v;
			return (1);
		}
	return (0);
}

/* The row's time: from its timestamp cell, or the sample count. */
static int
row_time(struct smi *x, int64_t *ts, struct tr_error *err)
{
	const struct cell	*cl;
	struct tr_civil		 c;

	if (x->idx[R_TIME] < 0) {
		*ts = x->g.start + x->sample * x->g.interval;
		return (0);
	}
	cl = &x->cells[x->idx[R_TIME]];
	if (cl->n == x->last_text.len &&
	    memcmp(cl->s, x->last_text.data, cl->n) == 0) {
		*ts = x->last_ts;
		return (0);
	}
	if (parse_stamp(cl->s, cl->n, &c) != 0)
		return (tr_input_error(x->in, err, cl->col, "expected a date "
		    "and time like '2024/05/01 12:00:00.123' for '%s', got "
		    "'%.*s'", x->cols[x->idx[R_TIME]].header, (int)cl->n,
		    cl->s));
	if (tr_wallclock_to_utc(x->g.wc, &c, x->prev_ts, ts) != 0)
		return (tr_input_error(x->in, err, cl->col, "local time "
		    "'%.*s' does not exist in zone '%s' (clocks went "
		    "forward then); is --tz right?", (int)cl->n, cl->s,
		    tr_wallclock_zone(x->g.wc)));
	tr_buf_reset(&x->last_text);
	tr_buf_add(&x->last_text, cl->s, cl->n);
	x->last_ts = *ts;
	x->prev_ts = *ts;
	return (0);
}

/* Without timestamps, a key seen again starts the next sample. */
static void
next_sample(struct smi *x, const char *key, size_t n)
{
	int64_t	at;

	if (x->idx[R_TIME] >= 0)
		return;
	if (tr_map_get(x->seen, key, n, &at) && at == x->sample)
		x->sample++;
	tr_map_put(x->seen, key, n, x->sample);
}

static void
add_text(json_t *meta, const char *k, const struct cell *cl)
{
	if (cl->n > 0 && !tr_gpu_missing(cl->s, cl->n))
		json_object_set_new(meta, k, json_stringn(cl->s, cl->n));
}

/* The GPU's identity: its index, else uuid, else bus id, else name. */
static void
row_gpu_key(struct smi *x)
{
	static const int	by[] = { R_INDEX, R_UUID, R_BUS, R_NAME };
	size_t			i;
	int			r;

	tr_buf_reset(&x->gkey);
	for (i = 0; i < sizeof by / sizeof by[0]; i++)
		if ((r = x->idx[by[i]]) >= 0) {
			tr_buf_addc(&x->gkey, (char)('0' + by[i]));
			tr_buf_add(&x->gkey, x->cells[r].s, x->cells[r].n);
			return;
		}
}

/* The GPU index of this row: >= 0, -1 without one, -2 on error. */
static int64_t
row_index(struct smi *x, struct tr_error *err)
{
	const struct cell	*cl;
	double			 v;
	int64_t			 index;
	int			 r;

	if ((r = x->idx[R_INDEX]) < 0)
		return (-1);
	cl = &x->cells[r];
	if (tr_gpu_number(cl->s, cl->n, &v) != cl->n ||
	    !tr_gpu_whole(v, 1e9, &index)) {
		tr_input_error(x->in, err, cl->col, "expected a GPU index for "
		    "'%s', got '%.*s'", x->cols[r].header, (int)cl->n, cl->s);
		return (-2);
	}
	return (index);
}

/* Get (or create) the GPU track of this row. */
static int64_t
row_gpu(struct smi *x, struct tr_error *err)
{
	const struct cell	*cl;
	json_t			*meta, *u;
	char			*name = NULL;
	size_t			 i;
	int64_t			 id, index;

	if (tr_gpu_import_find_gpu(&x->g, x->gkey.data, x->gkey.len, &id,
	    &x->ref))
		return (id);
	if ((index = row_index(x, err)) < -1)
		return (-1);
	meta = json_object();
	if (x->idx[R_UUID] >= 0)
		add_text(meta, "uuid", &x->cells[x->idx[R_UUID]]);
	if (x->idx[R_BUS] >= 0)
		add_text(meta, "pci_bus_id", &x->cells[x->idx[R_BUS]]);
	if (x->idx[R_NAME] >= 0) {
		cl = &x->cells[x->idx[R_NAME]];
		add_text(meta, "name", cl);
		if (!tr_gpu_missing(cl->s, cl->n))
			name = tr_xstrndup(cl->s, cl->n);
	}
	for (i = 0; i < x->ncols; i++)
		if (x->cols[i].role == R_TEXT)
			add_text(meta, x->cols[i].field, &x->cells[i]);
	if (name == NULL && (u = json_object_get(meta, "uuid")) != NULL)
		name = tr_xstrdup(json_string_value(u));
	if (name == NULL && index >= 0)
		name = tr_xasprintf("gpu %lld", (long long)index);
	id = tr_gpu_import_gpu(&x->g, x->gkey.data, x->gkey.len, index,
	    name ? name : "gpu", meta, &x->ref, err);
	free(name);
	json_decref(meta);
	return (id);
}

/* Get (or create) the track of this row's process on its GPU. */
static int64_t
row_process(struct smi *x, struct tr_error *err)
{
	const struct cell	*cl = &x->cells[x->idx[R_PID]], *pn;
	json_t			*meta;
	const char		*name = NULL;
	char			*uuid;
	size_t			 nlen = 0, i;
	double			 v;
	int64_t			 pid, id, ref;

	if (tr_gpu_number(cl->s, cl->n, &v) != cl->n ||
	    !tr_gpu_whole(v, TR_GPU_MAX_PID, &pid)) {
		tr_input_error(x->in, err, cl->col, "expected a process id "
		    "for '%s', got '%.*s'", x->cols[x->idx[R_PID]].header,
		    (int)cl->n, cl->s);
		return (-1);
	}
	tr_buf_reset(&x->key);
	tr_buf_add(&x->key, &pid, sizeof pid);
	tr_buf_add(&x->key, x->gkey.data, x->gkey.len);
	next_sample(x, x->key.data, x->key.len);
	x->ref = -1;	/* only read for a new series */
	if (tr_gpu_import_find_process(&x->g, x->gkey.data, x->gkey.len, pid,
	    &id))
		return (id);
	if ((ref = row_index(x, err)) < -1)
		return (-1);
	if (ref < 0 && x->idx[R_UUID] >= 0) {
		/* The GPU's index is known if its uuid was imported. */
		cl = &x->cells[x->idx[R_UUID]];
		uuid = tr_xstrndup(cl->s, cl->n);
		ref = tr_gpu_import_ref_by_uuid(&x->g, uuid, err);
		free(uuid);
		if (ref < -1)
			return (-1);
	}
	meta = json_object();
	json_object_set_new(meta, "pid", json_integer(pid));
	if (x->idx[R_PNAME] >= 0) {
		pn = &x->cells[x->idx[R_PNAME]];
		if (!tr_gpu_missing(pn->s, pn->n)) {
			add_text(meta, "process_name", pn);
			tr_gpu_command_name(pn->s, pn->n, &name, &nlen);
		}
	}
	if (x->idx[R_UUID] >= 0)
		add_text(meta, "gpu_uuid", &x->cells[x->idx[R_UUID]]);
	if (x->idx[R_BUS] >= 0)
		add_text(meta, "gpu_bus_id", &x->cells[x->idx[R_BUS]]);
	if (x->idx[R_NAME] >= 0)
		add_text(meta, "gpu_name", &x->cells[x->idx[R_NAME]]);
	for (i = 0; i < x->ncols; i++)
		if (x->cols[i].role == R_TEXT)
			add_text(meta, x->cols[i].field, &x->cells[i]);
	id = tr_gpu_import_process(&x->g, x->gkey.data, x->gkey.len, ref, 0,
	    pid, name, nlen, meta, err);
	x->ref = ref;
	json_decref(meta);
	return (id);
}

static int
row(struct smi *x, struct tr_error *err)
{
	const struct tr_gpu_unit *u;
	const struct cell	*cl;
	struct col		*c;
	const char		*unit;
	char			*bu;
	size_t			 i, ulen;
	double			 v;
	int64_t			 ts, track;
	int			 r;

	row_gpu_key(x);
	if (x->apps) {
		if ((track = row_process(x, err)) < 0)
			return (-1);
	} else {
		if ((track = row_gpu(x, err)) < 0)
			return (-1);
		next_sample(x, x->gkey.data, x->gkey.len);
	}
	if (row_time(x, &ts, err) != 0)
		return (-1);
	tr_gpu_import_sample(&x->g, track, track, x->ref, ts);
	for (i = 0; i < x->ncols; i++) {
		c = &x->cols[i];
		if (c->role != R_METRIC)
			continue;
		cl = &x->cells[i];
		if ((r = parse_value(cl, &v, &unit, &ulen)) == 1)
			continue;
		if (r < 0 && bool_word(cl->s, cl->n, &v)) {
			r = 0;
			unit = "bool";
			ulen = 4;
		}
		if (r < 0) {
			if (c->numeric)
				return (tr_input_error(x->in, err, cl->col,
				    "expected a number for '%s', got '%.*s'",
				    c->header, (int)cl->n, cl->s));
			continue;	/* text in a free-form column */
		}
		if (unit == NULL && c->unit != NULL) {
			unit = c->unit;
			ulen = strlen(unit);
		}
		u = unit != NULL ? tr_gpu_unit_find(unit, ulen) : NULL;
		if (unit != c->unit && c->unit != NULL &&
		    (strlen(c->unit) != ulen || memcmp(unit, c->unit, ulen)) &&
		    (u == NULL || c->base_unit == NULL ||
		    strcmp(u->base, c->base_unit->base) != 0))
			/* "12 apples" in a column of MiB */
			return (tr_input_error(x->in, err, cl->col,
			    "expected a number in %s for '%s', got '%.*s'",
			    c->unit, c->header, (int)cl->n, cl->s));
		if (c->name_id == 0) {
			/* An unknown unit is kept as printed, unscaled. */
			bu = u != NULL ? tr_xstrdup(u->base) :
			    tr_xstrndup(unit ? unit : "", ulen);
			c->name_id = tr_gpu_import_metric(&x->g, c->field, bu,
			    c->header, err);
			free(bu);
			if (c->name_id < 0)
				return (-1);
		}
		if (tr_writer_add_counter(x->wr, track, ts, c->name_id,
		    tr_gpu_unit_apply(u, v), err) < 0)
			return (-1);
	}
	return (0);
}

static int
run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	struct smi	 x;
	const char	*line, *fields;
	size_t		 len;
	long		 lineno;
	int		 r, rc = -1;

	memset(&x, 0, sizeof x);
	x.ctx = ctx;
	x.wr = tr_import_writer(ctx);
	x.in = in;
	x.prev_ts = INT64_MIN;
	x.seen = tr_map_new();
	tr_buf_init(&x.last_text);
	tr_buf_init(&x.key);
	tr_buf_init(&x.gkey);
	if (tr_gpu_import_init(&x.g, ctx, in, err) != 0)
		goto out;
	if ((fields = tr_import_opt(ctx, "fields")) != NULL) {
		split(&x, fields, strlen(fields));
		if (set_header(&x, 0, err) != 0)
			goto out;
	}
	while ((r = tr_input_getline(in, &line, &len, err)) == 1) {
		lineno = tr_input_lineno(in);
		if (lineno == 1 && len >= 3 &&
		    memcmp(line, "\xef\xbb\xbf", 3) == 0) {
			line += 3;
			len -= 3;
		}
		while (len > 0 && (line[len - 1] == ' ' ||
		    line[len - 1] == '\t'))
			len--;
		if (len == 0)
			continue;
		split(&x, line, len);
		if (is_header(&x)) {
			if (set_header(&x, lineno, err) != 0)
				goto out;
			continue;
		}
		if (x.cols == NULL) {
			tr_input_error(in, err, 1, "no header line: for CSV "
			    "written with 'noheader', give the field list of "
			    "the query with --fields (e.g. --fields "
			    "timestamp,index,utilization.gpu,memory.used)");
			goto out;
		}
		if (x.ncells != x.ncols) {
			if (x.header_line > 0)
				tr_input_error(in, err, x.ncells > x.ncols ?
				    x.cells[x.ncols].col : (long)len + 1,
				    "expected %zu fields as in the header at "
				    "line %ld, found %zu", x.ncols,
				    x.header_line, x.ncells);
			else
				tr_input_error(in, err, x.ncells > x.ncols ?
				    x.cells[x.ncols].col : (long)len + 1,
				    "expected %zu fields as given with "
				    "--fields, found %zu", x.ncols, x.ncells);
			goto out;
		}
		if (x.idx[R_TIME] < 0 && tr_gpu_import_need_start(&x.g, 1, 1,
		    "nvidia-smi CSV without a 'timestamp' field", err) != 0)
			goto out;
		if (row(&x, err) != 0)
			goto out;
	}
	if (r < 0)
		goto out;
	if (x.idx[R_TIME] < 0 && x.cols != NULL)
		x.g.timing = "start+interval";
	tr_gpu_import_finish(&x.g);
	rc = 0;
out:
	tr_gpu_import_release(&x.g);
	free_cols(&x);
	free(x.cells);
	tr_map_free(x.seen);
	tr_buf_release(&x.last_text);
	tr_buf_release(&x.key);
	tr_buf_release(&x.gkey);
	return (rc);
}

const struct tr_importer tr_importer_nvidia_smi_csv = {
	.name = "nvidia-smi-csv",
	.summary = "nvidia-smi --query-gpu / --query-compute-apps "
	    "--format=csv output",
	.probe = probe,
	.run = run,
};
