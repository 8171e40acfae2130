/*
 * Row output.  CSV and JSON stream; the table buffers its cells to size
 * the columns, which is what a person reading it wants.
 */
#include "config.h"
#include "out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util.h"

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
	if (!isfinite(v)) {
		put_cell(o, NULL, 1);
		return;
	}
	put_cell(o, tr_xasprintf("%.15g", v), 2);
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
	case TR_OUT_JSON: {
		json_t	*obj = json_object();
		char	*s;

		for (i = 0; i < o->ncols; i++) {
			const struct cell	*c = &o->row[i];
			json_t			*v;

			if (c->text == NULL)
				v = json_null();
			else if (c->numeric == 1)
				v = json_integer(strtoll(c->text, NULL, 10));
			else if (c->numeric == 2)
				v = json_real(strtod(c->text, NULL));
			else
				v = json_string(c->text);
			if (v == NULL)	/* not UTF-8 */
				v = json_stringn_nocheck(c->text,
				    strlen(c->text));
			json_object_set_new(obj, o->names[i], v);
			free(c->text);
		}
		s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER |
		    JSON_ENSURE_ASCII);
		fprintf(o->f, "%s\n%s", o->nrows > 0 ? "," : "", s ? s : "{}");
		free(s);
		json_decref(obj);
		break;
	}
	case TR_OUT_TABLE:
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
	size_t	*w, r, nrows, i;
	int	 c;

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
		nrows = o->ncells / (size_t)o->ncols;
		for (c = 0; c < o->ncols; c++)
			w[c] = u8len(o->names[c]);
		for (i = 0; i < o->ncells; i++) {
			const char	*t = o->cells[i].text;
			size_t		 l = u8len(t ? t : "");

			if (l > w[i % (size_t)o->ncols])
				w[i % (size_t)o->ncols] = l;
		}
		for (r = 0; r <= nrows; r++) {
			for (c = 0; c < o->ncols; c++) {
				const struct cell *cl = r == 0 ? NULL :
				    &o->cells[(r - 1) * (size_t)o->ncols +
				    (size_t)c];
				const char	*t = cl ? cl->text : o->names[c];
				size_t		 pad;

				if (t == NULL)
					t = "";
				pad = w[c] - u8len(t);
				if (cl != NULL && cl->numeric) {
					fprintf(o->f, "%*s%s", (int)pad, "", t);
				} else if (c == o->ncols - 1)
					fputs(t, o->f);
				else
					fprintf(o->f, "%s%*s", t, (int)pad, "");
				if (c < o->ncols - 1)
					fputs("  ", o->f);
			}
			fputc('\n', o->f);
		}
		for (i = 0; i < o->ncells; i++)
			free(o->cells[i].text);
		o->ncells = 0;
		free(w);
		break;
	}
	return (ferror(o->f) ? -1 : 0);
}
