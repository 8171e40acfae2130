/*
 * nvidia-smi dmon and pmon: scrolling tables with a "#" header pair (the
 * column names, then their units), repeated now and then, one row per GPU
 * (dmon) or per process on a GPU (pmon) and sample.  Columns depend on -s
 * and on the driver (old "temp" or "gtemp mtemp", jpg/ofa, ccpm); "-" is a
 * missing value.  With -o DT rows carry local date and time (whole
 * seconds); with -o T only the time, so --start gives the date; without
 * either, --start and --interval date the samples, which are told apart
 * by a GPU (dmon) or GPU and process (pmon) coming round again.
 */
#include "config.h"
#include "import/importer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "import/gpu-import.h"
#include "base/names.h"
#include "store/writer.h"

enum role { D_METRIC, D_DATE, D_TIME, D_GPU, D_PID, D_TYPE, D_COMMAND };

struct dcol {
	char		*name;		/* header token: "sm" */
	char		*unit;		/* units-line token: "%" */
	const char	*metric;	/* canonical name, or 'own' */
	char		*own;		/* "dmon.<name>" if unknown */
	enum role	 role;
	int64_t		 name_id;
	const struct tr_gpu_unit *u;
};

struct cell {
	const char	*s;
	size_t		 n;
	long		 col;
};

struct dmon {
	struct tr_gpu_import	 g;
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_input		*in;
	int			 pmon;
	struct dcol		*cols;
	size_t			 ncols;
	long			 header_line;	/* 0: --fields */
	int			 units_seen;
	int			 idx[D_COMMAND + 1];

	struct cell		*cells;
	size_t			 ncells, capcells;

	int			 checked;	/* time options checked */
	int64_t			 prev_ts;
	struct tr_buf		 last_text;	/* last date, time */
	int64_t			 last_ts;
	/* -o T: the date, and the previous time of day. */
	struct tr_civil		 day;
	int			 have_day;
	int			 prev_tod;
	/* No time: sample count and what this sample has seen. */
	struct tr_map		*seen;
	int64_t			 sample;
	int64_t			 last_gpu;
	int64_t			 sampled_gpu, sampled_ts;
};

static const struct {
	const char	*col, *metric, *unit;
} dmon_cols[] = {
	{ "bar1", TR_METRIC_BAR1_USED, "MB" },
	{ "ccpm", "protected_memory.used", "MB" },
	{ "dbecc", "ecc.errors.uncorrected.aggregate.total", "errs" },
	{ "dec", TR_METRIC_DEC_UTIL, "%" },
	{ "enc", TR_METRIC_ENC_UTIL, "%" },
	{ "fb", TR_METRIC_MEM_USED, "MB" },
	{ "gtemp", TR_METRIC_TEMP, "C" },
	{ "jpg", TR_METRIC_JPEG_UTIL, "%" },
	{ "mclk", TR_METRIC_CLOCK_MEM, "MHz" },
	{ "mem", TR_METRIC_MEM_UTIL, "%" },
	{ "mtemp", "temperature.memory", "C" },
	{ "ofa", TR_METRIC_OFA_UTIL, "%" },
	{ "pci", "pcie.replay_errors", "errs" },
	/* dmon's processor clock is the graphics clock. */
	{ "pclk", TR_METRIC_CLOCK_GR, "MHz" },
	{ "pviol", "violation.power", "%" },
	{ "pwr", TR_METRIC_POWER, "W" },
	{ "rxpci", "pcie.rx", "MB/s" },
	{ "sbecc", "ecc.errors.corrected.aggregate.total", "errs" },
	{ "sm", TR_METRIC_GPU_UTIL, "%" },
	{ "temp", TR_METRIC_TEMP, "C" },
	{ "tviol", "violation.thermal", "bool" },
	{ "txpci", "pcie.tx", "MB/s" },
};

static const struct {
	const char	*col, *metric, *unit;
} pmon_cols[] = {
	{ "ccpm", "protected_memory.used", "MB" },
	{ "dec", TR_METRIC_DEC_UTIL, "%" },
	{ "enc", TR_METRIC_ENC_UTIL, "%" },
	{ "fb", TR_METRIC_MEM_USED, "MB" },
	{ "jpg", TR_METRIC_JPEG_UTIL, "%" },
	{ "mem", TR_METRIC_MEM_UTIL, "%" },
	{ "ofa", TR_METRIC_OFA_UTIL, "%" },
	{ "sm", TR_METRIC_GPU_UTIL, "%" },
};

/* Split at blanks and commas (dmon --format csv); skip a leading '#'. */
static void
tokens(struct dmon *x, const char *line, size_t len)
{
	size_t	i = 0, a;

	x->ncells = 0;
	if (i < len && line[i] == '#')
		i++;
	for (;;) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' ||
		    line[i] == ','))
			i++;
		if (i >= len)
			break;
		a = i;
		while (i < len && line[i] != ' ' && line[i] != '\t' &&
		    line[i] != ',')
			i++;
		if (x->ncells == x->capcells) {
			x->capcells = x->capcells ? x->capcells * 2 : 32;
			x->cells = tr_xrealloc(x->cells,
			    x->capcells * sizeof *x->cells);
		}
		x->cells[x->ncells].s = line + a;
		x->cells[x->ncells].n = i - a;
		x->cells[x->ncells].col = (long)a + 1;
		x->ncells++;
	}
}

static int
cell_is(const struct cell *c, const char *s)
{
	return (c->n == strlen(s) && memcmp(c->s, s, c->n) == 0);
}

static int
has_token(const struct dmon *x, const char *s)
{
	size_t	i;

	for (i = 0; i < x->ncells; i++)
		if (cell_is(&x->cells[i], s))
			return (1);
	return (0);
}

static int
probe_kind(const unsigned char *p, size_t len, int want_pmon)
{
	struct dmon	 x;
	const char	*s = (const char *)p, *nl;
	size_t		 n;
	int		 score = 0, names = 0, pmon;

	memset(&x, 0, sizeof x);
	while (len > 0 && (*s == '\n' || *s == '\r' || *s == ' ')) {
		s++;
		len--;
	}
	if (len == 0 || *s != '#')
		return (0);
	nl = memchr(s, '\n', len);
	n = nl ? (size_t)(nl - s) : len;
	tokens(&x, s, n);
	if (!has_token(&x, "gpu"))
		goto out;
	pmon = has_token(&x, "pid");
	if (pmon != want_pmon)
		goto out;
	names = pmon ? has_token(&x, "command") || has_token(&x, "type") :
	    has_token(&x, "sm") || has_token(&x, "pwr") ||
	    has_token(&x, "fb") || has_token(&x, "mclk") ||
	    has_token(&x, "rxpci") || has_token(&x, "sbecc") ||
	    has_token(&x, "pviol");
	if (!names)
		goto out;
	score = 80;
	if (nl != NULL) {
		len -= n + 1;
		s = nl + 1;
		nl = memchr(s, '\n', len);
		tokens(&x, s, nl ? (size_t)(nl - s) : len);
		if (len > 0 && *s == '#' && has_token(&x, "Idx"))
			score = 95;
	}
out:
	free(x.cells);
	return (score);
}

static int
probe_dmon(const unsigned char *p, size_t len)
{
	return (probe_kind(p, len, 0));
}

static int
probe_pmon(const unsigned char *p, size_t len)
{
	return (probe_kind(p, len, 1));
}

static void
free_cols(struct dmon *x)
{
	size_t	i;

	for (i = 0; i < x->ncols; i++) {
		free(x->cols[i].name);
		free(x->cols[i].unit);
		free(x->cols[i].own);
	}
	free(x->cols);
	x->cols = NULL;
	x->ncols = 0;
}

/* The names line (or --fields): set the columns. */
static int
set_names(struct dmon *x, long line)
{
	struct dcol	*c;
	size_t		 i, k, nk;
	int		 r;

	free_cols(x);
	x->ncols = x->ncells;
	x->cols = tr_xcalloc(x->ncols, sizeof *x->cols);
	x->header_line = line;
	x->units_seen = 0;
	for (r = 0; r <= D_COMMAND; r++)
		x->idx[r] = -1;
	nk = x->pmon ? sizeof pmon_cols / sizeof pmon_cols[0] :
	    sizeof dmon_cols / sizeof dmon_cols[0];
	for (i = 0; i < x->ncols; i++) {
		c = &x->cols[i];
		c->name = tr_xstrndup(x->cells[i].s, x->cells[i].n);
		c->role = D_METRIC;
		if (strcmp(c->name, "Date") == 0)
			c->role = D_DATE;
		else if (strcmp(c->name, "Time") == 0)
			c->role = D_TIME;
		else if (strcmp(c->name, "gpu") == 0)
			c->role = D_GPU;
		else if (x->pmon && strcmp(c->name, "pid") == 0)
			c->role = D_PID;
		else if (x->pmon && strcmp(c->name, "type") == 0)
			c->role = D_TYPE;
		else if (x->pmon && strcmp(c->name, "command") == 0)
			c->role = D_COMMAND;
		if (c->role != D_METRIC) {
			if (x->idx[c->role] < 0)
				x->idx[c->role] = (int)i;
			continue;
		}
		for (k = 0; k < nk; k++) {
			const char *col = x->pmon ? pmon_cols[k].col :
			    dmon_cols[k].col;

			if (strcmp(col, c->name) == 0) {
				c->metric = x->pmon ? pmon_cols[k].metric :
				    dmon_cols[k].metric;
				c->unit = tr_xstrdup(x->pmon ?
				    pmon_cols[k].unit : dmon_cols[k].unit);
				break;
			}
		}
		if (c->metric == NULL) {
			c->own = tr_xasprintf("%s.%s", x->pmon ? "pmon" :
			    "dmon", c->name);
			c->metric = c->own;
		}
	}
	return (0);
}

/* The units line: replaces the default units. */
static int
set_units(struct dmon *x, struct tr_error *err)
{
	size_t	i;

	if (x->cols == NULL)
		return (tr_input_error(x->in, err, 1, "units line before the "
		    "line of column names"));
	if (x->ncells != x->ncols)
		return (tr_input_error(x->in, err, 1, "expected %zu units as "
		    "in the header at line %ld, found %zu", x->ncols,
		    x->header_line, x->ncells));
	for (i = 0; i < x->ncols; i++) {
		free(x->cols[i].unit);
		x->cols[i].unit = tr_xstrndup(x->cells[i].s, x->cells[i].n);
		x->cols[i].name_id = 0;
	}
	x->units_seen = 1;
	return (0);
}

static int
parse_int(const struct cell *c, int64_t *v)
{
	double	d;

	if (tr_gpu_number(c->s, c->n, &d) != c->n || !tr_gpu_whole(d, 1e12, v))
		return (-1);
	return (0);
}

/* Digits of widths w[0..n) separated by 'sep' (0: none) into f[]. */
static int
fixed(const char *s, size_t len, const int *w, int n, char sep, int *f)
{
	size_t	i = 0;
	int	k, j;

	for (k = 0; k < n; k++) {
		if (k > 0 && sep != '\0' && (i >= len || s[i++] != sep))
			return (-1);
		f[k] = 0;
		for (j = 0; j < w[k]; j++, i++) {
			if (i >= len || !isdigit((unsigned char)s[i]))
				return (-1);
			f[k] = f[k] * 10 + (s[i] - '0');
		}
	}
	return (i == len ? 0 : -1);
}

static int
check_time_options(struct dmon *x, struct tr_error *err)
{
	const char	*why;

	x->checked = 1;
	if (x->idx[D_TIME] >= 0 && x->idx[D_DATE] >= 0)
		return (0);
	if (x->idx[D_TIME] >= 0) {
		why = x->pmon ? "nvidia-smi pmon -o T output has times but no "
		    "dates: give the capture's date with --start" :
		    "nvidia-smi dmon -o T output has times but no dates: give "
		    "the capture's date with --start";
		if (!x->g.has_start)
			return (tr_input_error(x->in, err, 1, "%s", why));
		x->g.timing = "times, date from start";
		return (0);
	}
	x->g.timing = "start+interval";
	return (tr_gpu_import_need_start(&x->g, 1, 1, x->pmon ?
	    "nvidia-smi pmon output without -o T" :
	    "nvidia-smi dmon output without -o T", err));
}

/* The time of the current row. */
static int
row_time(struct dmon *x, int64_t *ts, struct tr_error *err)
{
	static const int	 ymd[] = { 4, 2, 2 }, hms[] = { 2, 2, 2 };
	const struct cell	*d = NULL, *t;
	struct tr_civil		 c;
	int			 f[3], tod;

	if (x->idx[D_TIME] < 0) {
		*ts = x->g.start + x->sample * x->g.interval;
		return (0);
	}
	t = &x->cells[x->idx[D_TIME]];
	if (x->idx[D_DATE] >= 0)
		d = &x->cells[x->idx[D_DATE]];
	if (d != NULL && x->last_text.len == d->n + t->n + 1 &&
	    memcmp(x->last_text.data, d->s, d->n) == 0 &&
	    memcmp(x->last_text.data + d->n + 1, t->s, t->n) == 0) {
		*ts = x->last_ts;
		return (0);
	}
	memset(&c, 0, sizeof c);
	if (fixed(t->s, t->n, hms, 3, ':', f) != 0 || f[0] > 23 ||
	    f[1] > 59 || f[2] > 59)
		return (tr_input_error(x->in, err, t->col, "expected a time "
		    "like 12:00:00 for 'Time', got '%.*s'", (int)t->n, t->s));
	c.hour = f[0];
	c.min = f[1];
	c.sec = f[2];
	tod = c.hour * 3600 + c.min * 60 + c.sec;
	if (d != NULL) {
		if (fixed(d->s, d->n, ymd, 3, '\0', f) != 0)
			goto bad_date;
		c.year = f[0];
		c.mon = f[1];
		c.day = f[2];
		if (!tr_civil_valid(&c))
			goto bad_date;
	} else {
		if (!x->have_day) {
			/* The first row is on the start's date, or after. */
			tr_wallclock_to_civil(x->g.wc, x->g.start, &x->day);
			if (tod + 43200 < x->day.hour * 3600 + x->day.min *
			    60 + x->day.sec)
				tr_civil_add_days(&x->day, 1);
			x->have_day = 1;
		} else if (tod + 43200 < x->prev_tod)
			tr_civil_add_days(&x->day, 1);	/* midnight */
		x->prev_tod = tod;
		c.year = x->day.year;
		c.mon = x->day.mon;
		c.day = x->day.day;
	}
	if (tr_wallclock_to_utc(x->g.wc, &c, x->prev_ts, ts) != 0)
		return (tr_input_error(x->in, err, d ? d->col : t->col,
		    "local time %04d-%02d-%02d %02d:%02d:%02d does not exist "
		    "in zone '%s' (clocks went forward then); is --tz right?",
		    c.year, c.mon, c.day, c.hour, c.min, c.sec,
		    tr_wallclock_zone(x->g.wc)));
	x->prev_ts = *ts;
	if (d != NULL) {
		tr_buf_reset(&x->last_text);
		tr_buf_add(&x->last_text, d->s, d->n);
		tr_buf_addc(&x->last_text, ' ');
		tr_buf_add(&x->last_text, t->s, t->n);
		x->last_ts = *ts;
	}
	return (0);
bad_date:
	return (tr_input_error(x->in, err, d->col, "expected a date like "
	    "20240501 for 'Date', got '%.*s'", (int)d->n, d->s));
}

/* Without times: a GPU (pmon: GPU and pid) seen again starts a sample. */
static void
next_sample(struct dmon *x, int64_t gpu, int64_t pid)
{
	int64_t	key[2], at;

	if (x->idx[D_TIME] >= 0)
		return;
	key[0] = gpu;
	key[1] = pid;
	if ((tr_map_get(x->seen, key, sizeof key, &at) && at == x->sample) ||
	    (x->pmon && gpu < x->last_gpu))
		x->sample++;
	tr_map_put(x->seen, key, sizeof key, x->sample);
	x->last_gpu = gpu;
}

static int
row(struct dmon *x, const char *line, size_t len, struct tr_error *err)
{
	const struct cell	*cl;
	struct dcol		*c;
	json_t			*meta;
	const char		*name;
	char			*gname;
	size_t			 i, nlen, ncells = x->ncells;
	double			 v;
	int64_t			 gpu, pid = -1, ts, track, gtrack = 0;

	if (x->cols == NULL)
		return (tr_input_error(x->in, err, 1, "data before the header "
		    "line of column names (a '#' line naming 'gpu'); give the "
		    "columns with --fields if the header was left out"));
	if (x->pmon && x->idx[D_COMMAND] == (int)x->ncols - 1 &&
	    ncells > x->ncols)
		ncells = x->ncols;	/* the command may contain blanks */
	if (ncells != x->ncols) {
		if (x->header_line > 0)
			return (tr_input_error(x->in, err, ncells > x->ncols ?
			    x->cells[x->ncols].col : (long)len + 1, "expected "
			    "%zu columns as in the header at line %ld, found "
			    "%zu", x->ncols, x->header_line, ncells));
		return (tr_input_error(x->in, err, ncells > x->ncols ?
		    x->cells[x->ncols].col : (long)len + 1, "expected %zu "
		    "columns as given with --fields, found %zu", x->ncols,
		    ncells));
	}
	if (x->idx[D_GPU] < 0)
		return (tr_input_error(x->in, err, 1, "the header at line %ld "
		    "has no 'gpu' column", x->header_line));
	if (!x->checked && check_time_options(x, err) != 0)
		return (-1);
	cl = &x->cells[x->idx[D_GPU]];
	if (parse_int(cl, &gpu) != 0)
		return (tr_input_error(x->in, err, cl->col, "expected a GPU "
		    "index for 'gpu', got '%.*s'", (int)cl->n, cl->s));
	if (x->pmon) {
		if (x->idx[D_PID] < 0)
			return (tr_input_error(x->in, err, 1, "the header at "
			    "line %ld has no 'pid' column", x->header_line));
		cl = &x->cells[x->idx[D_PID]];
		if (!cell_is(cl, "-") && parse_int(cl, &pid) != 0)
			return (tr_input_error(x->in, err, cl->col, "expected "
			    "a process id or '-' for 'pid', got '%.*s'",
			    (int)cl->n, cl->s));
	}
	next_sample(x, gpu, pid);
	if (row_time(x, &ts, err) != 0)
		return (-1);
	if (!x->pmon) {
		if (!tr_gpu_import_find_gpu(&x->g, (const char *)&gpu,
		    sizeof gpu, &track, &gpu)) {
			gname = tr_xasprintf("gpu %lld", (long long)gpu);
			track = tr_gpu_import_gpu(&x->g, (const char *)&gpu,
			    sizeof gpu, gpu, gname, NULL, NULL, err);
			free(gname);
			if (track < 0)
				return (-1);
		}
		gtrack = track;
	}
	/* pmon: one sample per GPU, however many processes it lists. */
	if (!x->pmon || gpu != x->sampled_gpu || ts != x->sampled_ts)
		tr_gpu_import_sample(&x->g, gpu, gtrack, gpu, ts);
	x->sampled_gpu = gpu;
	x->sampled_ts = ts;
	if (!x->pmon) {
		/* counters below */
	} else if (pid < 0) {
		return (0);	/* an idle GPU */
	} else if (!tr_gpu_import_find_process(&x->g, (const char *)&gpu,
	    sizeof gpu, pid, &track)) {
		meta = json_object();
		json_object_set_new(meta, "pid", json_integer(pid));
		name = NULL;
		nlen = 0;
		if (x->idx[D_TYPE] >= 0 &&
		    !cell_is(&x->cells[x->idx[D_TYPE]], "-"))
			json_object_set_new(meta, "type", json_stringn(
			    x->cells[x->idx[D_TYPE]].s,
			    x->cells[x->idx[D_TYPE]].n));
		if (x->idx[D_COMMAND] >= 0) {
			cl = &x->cells[x->idx[D_COMMAND]];
			name = cl->s;
			nlen = (size_t)(line + len - cl->s);
			if (nlen == 1 && *name == '-')
				name = NULL;
			else
				json_object_set_new(meta, "command",
				    json_stringn(name, nlen));
		}
		track = tr_gpu_import_process(&x->g, (const char *)&gpu,
		    sizeof gpu, gpu, gtrack, pid, name, nlen, meta, err);
		json_decref(meta);
		if (track < 0)
			return (-1);
	}
	for (i = 0; i < x->ncols; i++) {
		c = &x->cols[i];
		if (c->role != D_METRIC)
			continue;
		cl = &x->cells[i];
		if (cell_is(cl, "-"))
			continue;
		if (tr_gpu_number(cl->s, cl->n, &v) != cl->n)
			return (tr_input_error(x->in, err, cl->col, "expected "
			    "a number or '-' for '%s', got '%.*s'", c->name,
			    (int)cl->n, cl->s));
		if (c->name_id == 0) {
			c->u = c->unit ? tr_gpu_unit_find(c->unit,
			    strlen(c->unit)) : NULL;
			if ((c->name_id = tr_gpu_import_metric(&x->g,
			    c->metric, c->u ? c->u->base : c->unit ?
			    c->unit : "", c->name, err)) < 0)
				return (-1);
		}
		if (tr_writer_add_counter(x->wr, track, ts, c->name_id,
		    tr_gpu_unit_apply(c->u, v), err) < 0)
			return (-1);
	}
	return (0);
}

static int
run_kind(struct tr_import *ctx, struct tr_input *in, struct tr_error *err,
    int pmon)
{
	struct dmon	 x;
	const char	*line, *fields;
	size_t		 len;
	int		 r, rc = -1;

	memset(&x, 0, sizeof x);
	x.ctx = ctx;
	x.wr = tr_import_writer(ctx);
	x.in = in;
	x.pmon = pmon;
	x.prev_ts = INT64_MIN;
	x.last_gpu = -1;
	x.sampled_gpu = -1;
	x.seen = tr_map_new();
	tr_buf_init(&x.last_text);
	if (tr_gpu_import_init(&x.g, ctx, in, err) != 0)
		goto out;
	if ((fields = tr_import_opt(ctx, "fields")) != NULL) {
		tokens(&x, fields, strlen(fields));
		set_names(&x, 0);
	}
	while ((r = tr_input_getline(in, &line, &len, err)) == 1) {
		while (len > 0 && (line[len - 1] == ' ' ||
		    line[len - 1] == '\t'))
			len--;
		if (len == 0)
			continue;
		tokens(&x, line, len);
		if (line[0] == '#') {
			if (has_token(&x, "Idx")) {
				if (set_units(&x, err) != 0)
					goto out;
			} else if (has_token(&x, "gpu"))
				set_names(&x, tr_input_lineno(in));
			/* Other comments are skipped. */
			continue;
		}
		if (row(&x, line, len, err) != 0)
			goto out;
	}
	if (r < 0)
		goto out;
	tr_gpu_import_finish(&x.g);
	rc = 0;
out:
	tr_gpu_import_release(&x.g);
	free_cols(&x);
	free(x.cells);
	tr_map_free(x.seen);
	tr_buf_release(&x.last_text);
	return (rc);
}

static int
run_dmon(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	return (run_kind(ctx, in, err, 0));
}

static int
run_pmon(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	return (run_kind(ctx, in, err, 1));
}

const struct tr_importer tr_importer_nvidia_smi_dmon = {
	.name = "nvidia-smi-dmon",
	.summary = "nvidia-smi dmon output (per-GPU samples)",
	.probe = probe_dmon,
	.run = run_dmon,
};

const struct tr_importer tr_importer_nvidia_smi_pmon = {
	.name = "nvidia-smi-pmon",
	.summary = "nvidia-smi pmon output (per-process GPU samples)",
	.probe = probe_pmon,
	.run = run_pmon,
};
