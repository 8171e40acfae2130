/*
 * Row output.  CSV and JSON stream; the table buffers its cells to size
 * the columns, which is what a person reading it wants.
 */
#include "config.h"
#include "base/out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
};

struct tr_out *
tr_out_new(FILE *f, enum tr_out_format fmt)
{
	struct tr_out	*o = tr_xcalloc(1, sizeof *o);

	o->f = f;
	o->fmt = fmt;
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
	o->names = NULL;
	o->row = NULL;
	o->ncols = 0;
}

void
tr_out_free(struct tr_out *o)
{
	size_t	i;

	if (o == NULL)
		return;
	for (i = 0; i < o->ncells; i++)
		free(o->cells[i].text);
	free(o->cells);
	json_decref(o->obj);
	free_names(o);
	free(o);
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
	for (i = 0; i < n; i++)
		o->names[i] = tr_xstrdup(names[i]);
	o->cur = 0;
	o->nrows = 0;
	if (o->fmt == TR_OUT_CSV && o->sets > 0)
		fputc('\n', o->f);
	o->sets++;
	if (o->fmt == TR_OUT_JSON)
		fputs("[", o->f);
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

void
tr_out_int(struct tr_out *o, int64_t v)
{
	put_cell(o, tr_xasprintf("%lld", (long long)v), 1);
}

void
tr_out_real(struct tr_out *o, double v)
{
	char	*t;
	int	 prec;

	if (!isfinite(v)) {
		put_cell(o, NULL, 1);
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
			else if (c->numeric == 1)
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
	const char	**names;
	int		  n = sqlite3_column_count(st), i, rc;
	int64_t		  rows = 0;

	names = tr_xcalloc((size_t)n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = sqlite3_column_name(st, i);
	tr_out_columns(o, n, names);
	free(names);
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

/*
 * Interface for units, the clock, named result sets and notes: recorded
 * here; the table rendering and the one-document JSON follow.
 */
void
tr_out_column_unit(struct tr_out *o, int col, enum tr_out_unit u)
{
	(void)o;
	(void)col;
	(void)u;
}

void
tr_out_set_clock(struct tr_out *o, int64_t origin, int has_wall,
    int64_t wall_offset)
{
	(void)o;
	(void)origin;
	(void)has_wall;
	(void)wall_offset;
}

void
tr_out_set_name(struct tr_out *o, const char *name)
{
	(void)o;
	(void)name;
}

void
tr_out_note(struct tr_out *o, const char *fmt, ...)
{
	va_list	ap;

	(void)o;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
