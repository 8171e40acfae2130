/*
 * Row output.  CSV and JSON stream; the table buffers its cells to size
 * the columns, which is what a person reading it wants.
 */
#include "config.h"
#include "base/out.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "base/util.h"

struct cell {
	char	*text;		/* NULL for SQL NULL */
	int	 numeric;
};

struct tr_out {
	FILE			*f;
	enum tr_out_format	 fmt;
	int			 ncols;
	char			**names;
	struct cell		*row;		/* ncols cells being built */
	int			 cur;
	int64_t			 nrows;
	int			 sets;		/* result sets started */
	/* Table: every row buffered. */
	struct cell		*cells;
	size_t			 ncells, capcells;
	/* JSON: the current row's object. */
	json_t			*obj;
	enum tr_out_unit	*units;		/* ncols */
	/* TR_UNIT_TS: the store's start and the wall clock. */
	int			 has_clock, has_wall;
	int64_t			 origin, wall_offset;
	/* JSON: the next set's name; 'doc' once one object is open. */
	char			*next_name;
	int			 doc;
	/* Notes: kept for the JSON document, else written to 'notef'. */
	char			**notes;
	size_t			 nnotes;
	FILE			*notef;
	char			*noteprefix;
	int			 windows_only;
	/* Called before anything is written (a progress line erased). */
	void			(*before)(void *);
	void			*before_arg;
};

/*
 * Integers beyond this magnitude do not survive a reader that holds
 * numbers as doubles (JavaScript's JSON.parse): JSON writes them as
 * strings of their decimal digits.
 */
#define JSON_SAFE_INT	9007199254740991LL	/* 2^53 - 1 */

struct tr_out *
tr_out_new(FILE *f, enum tr_out_format fmt)
{
	struct tr_out	*o = tr_xcalloc(1, sizeof *o);

	o->f = f;
	o->fmt = fmt;
	o->notef = stderr;
	return (o);
}

static void
free_names(struct tr_out *o)
{
	int	i;

	for (i = 0; i < o->ncols; i++)
		free(o->names[i]);
	free(o->names);
	free(o->row);
	free(o->units);
	o->names = NULL;
	o->row = NULL;
	o->units = NULL;
	o->ncols = 0;
}

static void
before(struct tr_out *o)
{
	if (o->before != NULL)
		o->before(o->before_arg);
}

static void
put_note(struct tr_out *o, const char *msg)
{
	before(o);
	if (o->notef != NULL)
		fprintf(o->notef, "%s%s\n", o->noteprefix ? o->noteprefix : "",
		    msg);
}

static void json_text(FILE *, const char *);

void
tr_out_free(struct tr_out *o)
{
	size_t	i;

	if (o == NULL)
		return;
	/* The end of the one JSON document: its notes. */
	if (o->doc) {
		fputs(",\n\"notes\":[", o->f);
		for (i = 0; i < o->nnotes; i++) {
			if (i > 0)
				fputs(",\n", o->f);
			json_text(o->f, o->notes[i]);
		}
		fputs("]\n}\n", o->f);
	} else
		for (i = 0; i < o->nnotes; i++)
			put_note(o, o->notes[i]);
	for (i = 0; i < o->nnotes; i++)
		free(o->notes[i]);
	free(o->notes);
	free(o->noteprefix);
	free(o->next_name);
	for (i = 0; i < o->ncells; i++)
		free(o->cells[i].text);
	free(o->cells);
	json_decref(o->obj);
	free_names(o);
	free(o);
}

FILE *
tr_out_stream(struct tr_out *o)
{
	return (o->f);
}

int
tr_out_parse_format(const char *s, enum tr_out_format *fmt)
{
	if (strcmp(s, "table") == 0)
		*fmt = TR_OUT_TABLE;
	else if (strcmp(s, "csv") == 0)
		*fmt = TR_OUT_CSV;
	else if (strcmp(s, "json") == 0)
		*fmt = TR_OUT_JSON;
	else
		return (-1);
	return (0);
}

void
tr_out_columns(struct tr_out *o, int n, const char *const *names)
{
	int	i;

	free_names(o);
	o->ncols = n;
	o->names = tr_xcalloc((size_t)n, sizeof *o->names);
	o->row = tr_xcalloc((size_t)n, sizeof *o->row);
	o->units = tr_xcalloc((size_t)n, sizeof *o->units);
	for (i = 0; i < n; i++)
		o->names[i] = tr_xstrdup(names[i]);
	o->cur = 0;
	o->nrows = 0;
	if (o->fmt == TR_OUT_CSV && o->sets > 0)
		fputc('\n', o->f);
	o->sets++;
	if (o->fmt == TR_OUT_JSON && (o->next_name != NULL || o->doc)) {
		if (o->next_name == NULL)
			o->next_name = tr_xasprintf("set-%d", o->sets);
		fputs(o->doc ? ",\n" : "{\n", o->f);
		json_text(o->f, o->next_name);
		fputs(":[", o->f);
		o->doc = 1;
	} else if (o->fmt == TR_OUT_JSON)
		fputs("[", o->f);
	free(o->next_name);
	o->next_name = NULL;
}

static void
csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void
put_cell(struct tr_out *o, char *text, int numeric)
{
	if (o->cur >= o->ncols) {
		free(text);
		return;
	}
	o->row[o->cur].text = text;
	o->row[o->cur].numeric = numeric;
	o->cur++;
}

static enum tr_out_unit
cur_unit(const struct tr_out *o)
{
	if (o->fmt != TR_OUT_TABLE || o->cur >= o->ncols)
		return (TR_UNIT_NONE);
	return (o->units[o->cur]);
}

/* Drop the zeros that end a fraction, and its point when nothing is left. */
static void
trim_zeros(char *s)
{
	char	*e;

	if (strchr(s, '.') == NULL)
		return;
	e = s + strlen(s);
	while (e[-1] == '0')
		*--e = '\0';
	if (e[-1] == '.')
		e[-1] = '\0';
}

/*
 * 'v' in the largest of 'n' units (each 'step' times the one before) that
 * keeps it at 1 or more, to about 'digits' significant digits.
 */
static char *
scaled(double v, double step, const char *const *names, int n, int digits)
{
	char	 num[64];
	double	 a = fabs(v), x, scale = 1;
	int	 u = 0, dec;

	while (u + 1 < n && a >= scale * step) {
		scale *= step;
		u++;
	}
	for (;;) {
		x = a / scale;
		for (dec = digits - 1; dec > 0 && x >= 10; dec--)
			x /= 10;
		snprintf(num, sizeof num, "%.*f", dec, a / scale);
		/* 999.96ms rounds to 1000.0ms: that is 1s. */
		if (u + 1 < n && strtod(num, NULL) >= step) {
			scale *= step;
			u++;
			continue;
		}
		break;
	}
	trim_zeros(num);
	if (strcmp(num, "0") == 0)
		v = 0;
	return (tr_xasprintf("%s%s%s", v < 0 ? "-" : "", num, names[u]));
}

static char *
fmt_duration(double ns)
{
	static const char *const u[] = { "ns", "us", "ms", "s" };

	if (ns == 0)
		return (tr_xstrdup("0s"));
	return (scaled(ns, 1000, u, 4, 4));
}

static char *
fmt_bytes(double b)
{
	static const char *const u[] = {
		"B", "kB", "MB", "GB", "TB", "PB", "EB"
	};

	return (scaled(b, 1024, u, 7, 3));
}

static char	*fmt_real(double);

char *
tr_out_unit_text(enum tr_out_unit u, double v)
{
	switch (u) {
	case TR_UNIT_REAL:
		return (fmt_real(v));
	case TR_UNIT_NS:
		return (fmt_duration(v));
	case TR_UNIT_BYTES:
		return (fmt_bytes(v));
	case TR_UNIT_PERCENT:
		return (tr_xasprintf("%.1f%%", v));
	case TR_UNIT_SHARE:
		return (tr_xasprintf("%.1f%%", 100 * v));
	case TR_UNIT_TS:
	case TR_UNIT_NONE:
		break;
	}
	return (tr_xasprintf("%.15g", v));
}

static char *
fmt_percent(double p)
{
	char	*t = tr_xasprintf("%.1f%%", p);

	if (strcmp(t, "-0.0%") == 0) {
		free(t);
		t = tr_xstrdup("0.0%");
	}
	return (t);
}

/* A real for people: 4 significant digits, or the integer part. */
static char *
fmt_real(double v)
{
	double	a = fabs(v);
	char	*t;
	int	 dec;

	if (a != 0 && a < 0.001)
		return (tr_xasprintf("%.3g", v));
	for (dec = 3; dec > 0 && a >= 10; dec--)
		a /= 10;
	for (; a != 0 && a < 1; dec++)
		a *= 10;
	t = tr_xasprintf("%.*f", dec, v);
	trim_zeros(t);
	if (strcmp(t, "-0") == 0) {
		free(t);
		t = tr_xstrdup("0");
	}
	return (t);
}

/* Whether a + b fits in an int64_t; the sum in *r. */
static int
add_ok(int64_t a, int64_t b, int64_t *r)
{
	if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
		return (0);
	*r = a + b;
	return (1);
}

/* Floor division by a positive 'd'. */
static int64_t
floordiv(int64_t a, int64_t d)
{
	int64_t	q = a / d;

	return (a % d < 0 ? q - 1 : q);
}

/*
 * A store time stamp: "+12.250s" from the store's start, to the
 * millisecond, then the local wall-clock time of day when it is known.
 */
static char *
fmt_ts(const struct tr_out *o, int64_t v)
{
	struct tr_buf	 b;
	struct tm	 tm;
	time_t		 t;
	int64_t		 rel, ms, w;

	if (!o->has_clock || o->origin == INT64_MIN ||
	    !add_ok(v, -o->origin, &rel) || !add_ok(rel, 500000, &ms))
		return (tr_xasprintf("%lld", (long long)v));
	ms = floordiv(ms, 1000000);
	tr_buf_init(&b);
	tr_buf_printf(&b, "%c%lld.%03llds", ms < 0 ? '-' : '+',
	    (long long)(ms < 0 ? -ms : ms) / 1000,
	    (long long)(ms < 0 ? -ms : ms) % 1000);
	if (o->has_wall && add_ok(v, o->wall_offset, &w) &&
	    add_ok(w, 500000, &w)) {
		w = floordiv(w, 1000000);
		t = (time_t)floordiv(w, 1000);
		if (localtime_r(&t, &tm) != NULL)
			tr_buf_printf(&b, " %02d:%02d:%02d.%03lld", tm.tm_hour,
			    tm.tm_min, tm.tm_sec,
			    (long long)(w - floordiv(w, 1000) * 1000));
	}
	return (b.data);
}

/* A number as the table shows it in a column of unit 'u'. */
static char *
fmt_unit(const struct tr_out *o, enum tr_out_unit u, double v, int64_t iv,
    int is_int)
{
	switch (u) {
	case TR_UNIT_NS:
		return (fmt_duration(is_int ? (double)iv : v));
	case TR_UNIT_BYTES:
		return (fmt_bytes(is_int ? (double)iv : v));
	case TR_UNIT_TS:
		if (!is_int) {
			if (!(v >= -9.2e18 && v <= 9.2e18))
				break;
			iv = llround(v);
		}
		return (fmt_ts(o, iv));
	case TR_UNIT_PERCENT:
		return (fmt_percent(is_int ? (double)iv : v));
	case TR_UNIT_SHARE:
		return (fmt_percent(100 * (is_int ? (double)iv : v)));
	case TR_UNIT_REAL:
		return (is_int ? NULL : fmt_real(v));
	case TR_UNIT_NONE:
		break;
	}
	return (NULL);
}

void
tr_out_int(struct tr_out *o, int64_t v)
{
	enum tr_out_unit	u = cur_unit(o);
	char			*t;

	if (u != TR_UNIT_NONE && (t = fmt_unit(o, u, 0, v, 1)) != NULL)
		put_cell(o, t, 1);
	else if (o->fmt == TR_OUT_JSON &&
	    (v > JSON_SAFE_INT || v < -JSON_SAFE_INT))
		/* A string, so that no reader rounds it (see above). */
		put_cell(o, tr_xasprintf("%lld", (long long)v), 0);
	else
		put_cell(o, tr_xasprintf("%lld", (long long)v), 1);
}

void
tr_out_real(struct tr_out *o, double v)
{
	enum tr_out_unit	 u = cur_unit(o);
	char			*t;
	int			 prec;

	if (!isfinite(v)) {
		put_cell(o, NULL, 1);
		return;
	}
	if (u != TR_UNIT_NONE && (t = fmt_unit(o, u, v, 0, 0)) != NULL) {
		put_cell(o, t, 2);
		return;
	}
	/* The shortest of these that reads back as the same double. */
	for (prec = 15; ; prec++) {
		t = tr_xasprintf("%.*g", prec, v);
		if (prec == 17 || strtod(t, NULL) == v)
			break;
		free(t);
	}
	put_cell(o, t, 2);
}

void
tr_out_text(struct tr_out *o, const char *s)
{
	put_cell(o, s ? tr_xstrdup(s) : NULL, 0);
}

void
tr_out_json(struct tr_out *o, const char *json, const char *text)
{
	if (o->fmt == TR_OUT_JSON)
		put_cell(o, json ? tr_xstrdup(json) : NULL, 3);
	else
		put_cell(o, text ? tr_xstrdup(text) : NULL, 0);
}

void
tr_out_null(struct tr_out *o)
{
	put_cell(o, NULL, 0);
}

/* The length of the valid UTF-8 sequence at 's', or 0 if it is not one. */
static size_t
utf8_seq(const unsigned char *s)
{
	uint32_t	c;
	size_t		n, i;

	if (s[0] < 0x80)
		return (1);
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else
		return (0);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return (0);
		c = c << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return (0);
	return (n);
}

/* A copy of 's' with each byte that is not UTF-8 replaced by U+FFFD. */
static char *
utf8_fix(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	struct tr_buf		 b;
	size_t			 n;

	tr_buf_init(&b);
	while (*p != '\0') {
		if ((n = utf8_seq(p)) == 0) {
			tr_buf_adds(&b, "\xef\xbf\xbd");
			p++;
		} else {
			tr_buf_add(&b, p, n);
			p += n;
		}
	}
	return (b.data);
}

/* Write 's' as a JSON string; bytes that are not UTF-8 become U+FFFD. */
static void
json_text(FILE *f, const char *s)
{
	json_t	*v = json_string(s);
	char	*u = NULL, *enc;

	if (v == NULL) {
		u = utf8_fix(s);
		v = json_string(u);
	}
	enc = json_dumps(v, JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
	fputs(enc != NULL ? enc : "null", f);
	free(enc);
	free(u);
	json_decref(v);
}

/*
 * A cell as the table shows it: control characters escaped, so that one
 * row stays one line.  Takes over 'text'.
 */
static char *
table_text(char *text)
{
	struct tr_buf	 b;
	const char	*p;

	if (text == NULL)
		return (NULL);
	for (p = text; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			break;
	if (*p == '\0')
		return (text);
	tr_buf_init(&b);
	for (p = text; *p != '\0'; p++) {
		if (*p == '\n')
			tr_buf_adds(&b, "\\n");
		else if (*p == '\r')
			tr_buf_adds(&b, "\\r");
		else if (*p == '\t')
			tr_buf_adds(&b, "\\t");
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			tr_buf_printf(&b, "\\x%02x", (unsigned char)*p);
		else
			tr_buf_addc(&b, *p);
	}
	free(text);
	return (b.data);
}

void
tr_out_end_row(struct tr_out *o)
{
	int	i;

	if (o->fmt != TR_OUT_TABLE)
		before(o);
	if (o->fmt == TR_OUT_CSV && o->nrows == 0) {
		for (i = 0; i < o->ncols; i++) {
			if (i > 0)
				fputc(',', o->f);
			csv_field(o->f, o->names[i]);
		}
		fputc('\n', o->f);
	}
	for (i = o->cur; i < o->ncols; i++)
		o->row[i].text = NULL;
	switch (o->fmt) {
	case TR_OUT_CSV:
		for (i = 0; i < o->ncols; i++) {
			if (i > 0)
				fputc(',', o->f);
			if (o->row[i].text != NULL)
				csv_field(o->f, o->row[i].text);
			free(o->row[i].text);
		}
		fputc('\n', o->f);
		break;
	case TR_OUT_JSON:
		/*
		 * Written by hand around jansson's string encoder: numbers
		 * keep the text of the cell (jansson would print 0.1 as
		 * 0.10000000000000001), and columns keep their order.
		 */
		fputs(o->nrows > 0 ? ",\n{" : "\n{", o->f);
		for (i = 0; i < o->ncols; i++) {
			const struct cell	*c = &o->row[i];

			if (i > 0)
				fputc(',', o->f);
			json_text(o->f, o->names[i]);
			fputc(':', o->f);
			if (c->text == NULL)
				fputs("null", o->f);
			else if (c->numeric == 1 || c->numeric == 3)
				/* 3: JSON text of tr_out_json(), as is. */
				fputs(c->text, o->f);
			else if (c->numeric == 2)
				/* A real stays a real: 2.0, not 2. */
				fprintf(o->f, "%s%s", c->text,
				    strpbrk(c->text, ".e") ? "" : ".0");
			else
				json_text(o->f, c->text);
			free(c->text);
		}
		fputc('}', o->f);
		break;
	case TR_OUT_TABLE:
		for (i = 0; i < o->ncols; i++)
			o->row[i].text = table_text(o->row[i].text);
		if (o->ncells + (size_t)o->ncols > o->capcells) {
			o->capcells = o->capcells ? o->capcells * 2 : 256;
			while (o->capcells < o->ncells + (size_t)o->ncols)
				o->capcells *= 2;
			o->cells = tr_xrealloc(o->cells,
			    o->capcells * sizeof *o->cells);
		}
		memcpy(o->cells + o->ncells, o->row,
		    (size_t)o->ncols * sizeof *o->row);
		o->ncells += (size_t)o->ncols;
		break;
	}
	o->cur = 0;
	o->nrows++;
}

int64_t
tr_out_stmt(struct tr_out *o, sqlite3 *sq, sqlite3_stmt *st,
    struct tr_error *err)
{
	return (tr_out_stmt_units(o, sq, st, NULL, err));
}

int64_t
tr_out_stmt_units(struct tr_out *o, sqlite3 *sq, sqlite3_stmt *st,
    const enum tr_out_unit *units, struct tr_error *err)
{
	const char	**names;
	int		  n = sqlite3_column_count(st), i, rc;
	int64_t		  rows = 0;

	names = tr_xcalloc((size_t)n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = sqlite3_column_name(st, i);
	tr_out_columns(o, n, names);
	free(names);
	for (i = 0; units != NULL && i < n; i++)
		tr_out_column_unit(o, i, units[i]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < n; i++) {
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_INTEGER:
				tr_out_int(o, sqlite3_column_int64(st, i));
				break;
			case SQLITE_FLOAT:
				tr_out_real(o, sqlite3_column_double(st, i));
				break;
			case SQLITE_NULL:
				tr_out_null(o);
				break;
			default:
				tr_out_text(o, (const char *)
				    sqlite3_column_text(st, i));
				break;
			}
		}
		tr_out_end_row(o);
		rows++;
	}
	if (rc != SQLITE_DONE) {
		tr_error_set(err, TR_EDB, "%s", sqlite3_errmsg(sq));
		return (-1);
	}
	return (rows);
}

static size_t
u8len(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return (n);
}

int
tr_out_finish(struct tr_out *o)
{
	struct tr_buf	 line;
	size_t		*w, r, nrows, i;
	int		*num, c;

	before(o);
	switch (o->fmt) {
	case TR_OUT_CSV:
		if (o->nrows == 0) {
			for (c = 0; c < o->ncols; c++) {
				if (c > 0)
					fputc(',', o->f);
				csv_field(o->f, o->names[c]);
			}
			fputc('\n', o->f);
		}
		break;
	case TR_OUT_JSON:
		if (o->doc)
			fputs(o->nrows > 0 ? "\n]" : "]", o->f);
		else
			fputs(o->nrows > 0 ? "\n]\n" : "]\n", o->f);
		break;
	case TR_OUT_TABLE:
		if (o->ncols == 0)
			break;
		if (o->sets > 1)
			fputc('\n', o->f);
		w = tr_xcalloc((size_t)o->ncols, sizeof *w);
		/* A column of numbers (and NULLs) is right-aligned, header too. */
		num = tr_xcalloc((size_t)o->ncols, sizeof *num);
		nrows = o->ncells / (size_t)o->ncols;
		for (c = 0; c < o->ncols; c++)
			w[c] = u8len(o->names[c]);
		for (i = 0; i < o->ncells; i++) {
			const struct cell	*cl = &o->cells[i];
			size_t			 l = u8len(cl->text ? cl->text : "");

			c = (int)(i % (size_t)o->ncols);
			if (l > w[c])
				w[c] = l;
			if (cl->text != NULL)
				num[c] = num[c] >= 0 && cl->numeric ? 1 : -1;
		}
		tr_buf_init(&line);
		for (r = 0; r <= nrows; r++) {
			tr_buf_reset(&line);
			for (c = 0; c < o->ncols; c++) {
				const struct cell *cl = r == 0 ? NULL :
				    &o->cells[(r - 1) * (size_t)o->ncols +
				    (size_t)c];
				const char	*t = cl ? cl->text : o->names[c];
				size_t		 pad;

				if (t == NULL)
					t = "";
				pad = w[c] - u8len(t);
				if (c > 0)
					tr_buf_adds(&line, "  ");
				if (num[c] > 0)
					tr_buf_printf(&line, "%*s%s", (int)pad,
					    "", t);
				else
					tr_buf_printf(&line, "%s%*s", t,
					    (int)pad, "");
			}
			/* No trailing blanks: pads and empty last cells. */
			while (line.len > 0 && line.data[line.len - 1] == ' ')
				line.len--;
			fwrite(line.data, 1, line.len, o->f);
			fputc('\n', o->f);
		}
		tr_buf_release(&line);
		for (i = 0; i < o->ncells; i++)
			free(o->cells[i].text);
		o->ncells = 0;
		free(num);
		free(w);
		break;
	}
	return (ferror(o->f) ? -1 : 0);
}

int
tr_out_finish_err(struct tr_out *o, struct tr_error *err)
{
	if (tr_out_finish(o) != 0)
		return (tr_out_write_error(err));
	return (0);
}

int
tr_out_write_error(struct tr_error *err)
{
	return (tr_error_set(err, TR_EIO, "error writing output: %s",
	    errno != 0 ? strerror(errno) : "write failed"));
}

void
tr_out_column_unit(struct tr_out *o, int col, enum tr_out_unit u)
{
	if (col >= 0 && col < o->ncols)
		o->units[col] = u;
}

void
tr_out_columns_of(struct tr_out *o, int n, const struct tr_out_col *cols)
{
	const char	**names = tr_xcalloc(n > 0 ? (size_t)n : 1,
			    sizeof *names);
	int		  i;

	for (i = 0; i < n; i++)
		names[i] = cols[i].name;
	tr_out_columns(o, n, names);
	free(names);
	for (i = 0; i < n; i++)
		o->units[i] = cols[i].unit;
}

void
tr_out_set_clock(struct tr_out *o, int64_t origin, int has_wall,
    int64_t wall_offset)
{
	o->has_clock = 1;
	o->origin = origin;
	o->has_wall = has_wall != 0;
	o->wall_offset = wall_offset;
}

void
tr_out_set_name(struct tr_out *o, const char *name)
{
	free(o->next_name);
	o->next_name = name != NULL ? tr_xstrdup(name) : NULL;
}

void
tr_out_set_notes(struct tr_out *o, FILE *f, const char *prefix)
{
	o->notef = f;
	free(o->noteprefix);
	o->noteprefix = prefix != NULL ? tr_xstrdup(prefix) : NULL;
}

void
tr_out_set_before(struct tr_out *o, void (*fn)(void *), void *arg)
{
	o->before = fn;
	o->before_arg = arg;
}

void
tr_out_set_windows_only(struct tr_out *o, int on)
{
	o->windows_only = on != 0;
}

int
tr_out_windows_only(const struct tr_out *o)
{
	return (o->windows_only);
}

void
tr_out_note(struct tr_out *o, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = tr_xvasprintf(fmt, ap);
	va_end(ap);
	if (o->fmt != TR_OUT_JSON) {
		put_note(o, msg);
		free(msg);
		return;
	}
	/* Kept: whether the output is one document is known at the end. */
	o->notes = tr_xrealloc(o->notes, (o->nnotes + 1) * sizeof *o->notes);
	o->notes[o->nnotes++] = msg;
}
