/*
 * Windows from a CSV file or an SQL query, for trace-flame --windows and
 * --where.
 */
#include "config.h"
#include "flame/flame-windows.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct wlist {
	struct tr_window	*v;
	size_t			 n, cap;
};

static void
wlist_add(struct wlist *l, int64_t start, int64_t end)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = tr_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n].start = start;
	l->v[l->n].end = end;
	l->n++;
}

/* The windows, never NULL (an empty list is one allocation). */
static void
wlist_take(struct wlist *l, struct tr_window **w, size_t *n)
{
	if (l->v == NULL)
		l->v = tr_xcalloc(1, sizeof *l->v);
	*w = l->v;
	*n = l->n;
}

#define MAXFIELDS	64

/*
 * Split a CSV line in place into fields (RFC 4180 quotes, "" for a
 * quote).  cols[i] is the 1-based column of field i.  Returns the
 * field count, or -1 at an unterminated quote (*bad its column).
 */
static int
csv_split(char *line, char **f, long *cols, long *bad)
{
	char	*r = line, *w = line;
	int	 n = 0;

	for (;;) {
		if (n == MAXFIELDS)
			return (n);
		cols[n] = (long)(r - line) + 1;
		f[n++] = w;
		if (*r == '"') {
			*bad = (long)(r - line) + 1;
			for (r++;; r++) {
				if (*r == '\0')
					return (-1);
				if (*r == '"' && r[1] == '"')
					*w++ = *r++;
				else if (*r == '"')
					break;
				else
					*w++ = *r;
			}
			r++;
		}
		while (*r != '\0' && *r != ',')
			*w++ = *r++;
		if (*r == '\0') {
			*w = '\0';
			return (n);
		}
		*w++ = '\0';
		r++;
	}
}

static int
is_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return (0);
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return (0);
	return (1);
}

static int
ends_ns(const char *s)
{
	size_t	len = strlen(s);

	return (len > 3 && strcmp(s + len - 3, "_ns") == 0);
}

/* Trim blanks around a field, in place. */
static char *
trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return (s);
}

struct csvtime {
	int64_t		 origin, wall_offset;
	int		 has_wall;
	char		*zone;
};

static int
parse_field(const struct csvtime *ct, const char *path, long line,
    long col, const char *text, int raw_ns, int64_t *ns,
    struct tr_error *err)
{
	struct tr_error	 e;
	char		*end;

	if (raw_ns && isdigit((unsigned char)*text)) {
		errno = 0;
		*ns = strtoll(text, &end, 10);
		if (*end == '\0' && errno == 0)
			return (0);
	}
	tr_error_init(&e);
	if (tr_sel_parse_time("windows", text, ct->origin, ct->has_wall,
	    ct->wall_offset, ct->zone, ns, &e) == 0)
		return (0);
	return (tr_error_set_line(err, TR_EDATA, path, line, col, "%s",
	    e.msg));
}

int
tr_flame_windows_csv(struct tr_db *db, const struct tr_sel *sel,
    const char *path, struct tr_window **w, size_t *n,
    struct tr_error *err)
{
	struct csvtime	 ct;
	struct wlist	 l = { NULL, 0, 0 };
	FILE		*f;
	const char	*name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	char		*line = NULL, *fields[MAXFIELDS], *p;
	long		 cols[MAXFIELDS], lineno = 0, bad = 0;
	size_t		 cap = 0;
	ssize_t		 len;
	int64_t		 start, end;
	int		 nf, i, first = 1, si = 0, ei = 1, sns = 0, ens = 0;
	int		 rc = -1;

	*w = NULL;
	*n = 0;
	memset(&ct, 0, sizeof ct);
	if (tr_sel_store_origin(db, &ct.origin, &ct.has_wall,
	    &ct.wall_offset, err) != 0)
		return (-1);
	if ((f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r")) == NULL)
		return (tr_error_set(err, TR_EIO, "%s: cannot open: %s", path,
		    strerror(errno)));
	ct.zone = tr_sel_store_zone(db, sel->tz);
	while ((len = getline(&line, &cap, f)) != -1) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		if ((nf = csv_split(line, fields, cols, &bad)) < 0) {
			tr_error_set_line(err, TR_EDATA, name, lineno, bad,
			    "unterminated quote");
			goto out;
		}
		for (i = 0; i < nf; i++)
			fields[i] = trim(fields[i]);
		if (first) {
			first = 0;
			for (i = 0; i < nf && is_name(fields[i]); i++)
				;
			if (i == nf) {
				/* A header: find the columns by name. */
				for (i = 0; i < nf; i++) {
					if (strcmp(fields[i], "start") == 0 ||
					    strcmp(fields[i], "start_ns") == 0)
						si = i;
					if (strcmp(fields[i], "end") == 0 ||
					    strcmp(fields[i], "end_ns") == 0)
						ei = i;
				}
				if (si >= nf || ei >= nf || si == ei) {
					tr_error_set_line(err, TR_EDATA, name,
					    lineno, 1, "the header names no "
					    "start and end columns");
					goto out;
				}
				sns = ends_ns(fields[si]);
				ens = ends_ns(fields[ei]);
				continue;
			}
		}
		if (nf <= si || nf <= ei) {
			tr_error_set_line(err, TR_EDATA, name, lineno,
			    (long)strlen(line) + 1, "expected start,end "
			    "(%d field%s)", nf, nf == 1 ? "" : "s");
			goto out;
		}
		if (parse_field(&ct, name, lineno, cols[si], fields[si], sns,
		    &start, err) != 0 ||
		    parse_field(&ct, name, lineno, cols[ei], fields[ei], ens,
		    &end, err) != 0)
			goto out;
		if (end < start) {
			tr_error_set_line(err, TR_EDATA, name, lineno,
			    cols[ei], "the window ends before it starts");
			goto out;
		}
		wlist_add(&l, start, end);
	}
	if (ferror(f)) {
		tr_error_set(err, TR_EIO, "%s: %s", name, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(line);
	free(ct.zone);
	if (f != stdin)
		fclose(f);
	if (rc == 0)
		wlist_take(&l, w, n);
	else
		free(l.v);
	return (rc);
}

int
tr_flame_windows_sql(struct tr_db *db, const char *sql, struct tr_window **w,
    size_t *n, struct tr_error *err)
{
	struct wlist	 l = { NULL, 0, 0 };
	sqlite3_stmt	*st = NULL;
	const char	*tail = NULL, *c;
	int64_t		 row = 0, v[2];
	int		 i, k, col[2] = { -1, -1 }, rc;

	*w = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db->sq, sql, -1, &st, &tail) != SQLITE_OK)
		return (tr_error_set(err, TR_EUSAGE, "--where: bad SQL: %s",
		    sqlite3_errmsg(db->sq)));
	if (st == NULL)
		return (tr_error_set(err, TR_EUSAGE, "--where: empty SQL "
		    "statement"));
	while (tail != NULL && (*tail == ' ' || *tail == '\t' ||
	    *tail == '\n' || *tail == ';'))
		tail++;
	if (tail != NULL && *tail != '\0') {
		sqlite3_finalize(st);
		return (tr_error_set(err, TR_EUSAGE, "--where: give one SQL "
		    "statement, not several"));
	}
	if (!sqlite3_stmt_readonly(st)) {
		sqlite3_finalize(st);
		return (tr_error_set(err, TR_EUSAGE, "--where: give a query "
		    "that reads the store (SELECT)"));
	}
	for (i = 0; i < sqlite3_column_count(st); i++) {
		c = sqlite3_column_name(st, i);
		if (strcmp(c, "start_ns") == 0)
			col[0] = i;
		else if (strcmp(c, "end_ns") == 0)
			col[1] = i;
	}
	if (col[0] < 0 || col[1] < 0) {
		sqlite3_finalize(st);
		return (tr_error_set(err, TR_EUSAGE, "--where: the query "
		    "returns no column named %s", col[0] < 0 ? "start_ns" :
		    "end_ns"));
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row++;
		for (k = 0; k < 2; k++) {
			if (sqlite3_column_type(st, col[k]) !=
			    SQLITE_INTEGER) {
				sqlite3_finalize(st);
				free(l.v);
				return (tr_error_set(err, TR_EDATA, "--where: "
				    "row %lld: %s is not an integer (store "
				    "ns)", (long long)row,
				    k == 0 ? "start_ns" : "end_ns"));
			}
			v[k] = sqlite3_column_int64(st, col[k]);
		}
		if (v[1] < v[0]) {
			sqlite3_finalize(st);
			free(l.v);
			return (tr_error_set(err, TR_EDATA, "--where: row %lld: "
			    "end_ns is before start_ns", (long long)row));
		}
		wlist_add(&l, v[0], v[1]);
	}
	if (rc != SQLITE_DONE) {
		tr_error_set(err, TR_EDB, "--where: %s",
		    sqlite3_errmsg(db->sq));
		sqlite3_finalize(st);
		free(l.v);
		return (-1);
	}
	sqlite3_finalize(st);
	wlist_take(&l, w, n);
	return (0);
}
