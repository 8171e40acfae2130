/*
 * The query table and the helper that runs one SQL statement into rows.
 */
#include "config.h"
#include "query/query.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/util.h"
#include "query/args.h"

/* query.c: keep sorted */
extern const struct tr_query tr_query_chrome_trace;
extern const struct tr_query tr_query_contention;
extern const struct tr_query tr_query_gc;
extern const struct tr_query tr_query_goroutines;
extern const struct tr_query tr_query_gpu_idle;
extern const struct tr_query tr_query_gpu_mem;
extern const struct tr_query tr_query_pprof_diff;
extern const struct tr_query tr_query_sched_latency;
extern const struct tr_query tr_query_sql_entry;
extern const struct tr_query tr_query_stalls;
extern const struct tr_query tr_query_steps;
extern const struct tr_query tr_query_summary;
extern const struct tr_query tr_query_timeline;
extern const struct tr_query tr_query_top;

const struct tr_query *const tr_query_table[] = {
	&tr_query_chrome_trace,
	&tr_query_contention,
	&tr_query_gc,
	&tr_query_goroutines,
	&tr_query_gpu_idle,
	&tr_query_gpu_mem,
	&tr_query_pprof_diff,
	&tr_query_sched_latency,
	&tr_query_sql_entry,
	&tr_query_stalls,
	&tr_query_steps,
	&tr_query_summary,
	&tr_query_timeline,
	&tr_query_top,
	NULL
};

const struct tr_query *
tr_query_find(const char *name)
{
	size_t	i;

	for (i = 0; tr_query_table[i] != NULL; i++)
		if (strcmp(tr_query_table[i]->name, name) == 0)
			return (tr_query_table[i]);
	return (NULL);
}

char *
tr_query_names(void)
{
	struct tr_buf	b;
	size_t		i;

	tr_buf_init(&b);
	for (i = 0; tr_query_table[i] != NULL; i++) {
		if (i > 0)
			tr_buf_adds(&b, ", ");
		tr_buf_adds(&b, tr_query_table[i]->name);
	}
	return (b.data);
}

const char *
tr_query_suggest(const char *name)
{
	const char	*names[64];
	size_t		 i;

	for (i = 0; tr_query_table[i] != NULL && i < 63; i++)
		names[i] = tr_query_table[i]->name;
	names[i] = NULL;
	return (tr_did_you_mean(name, names));
}

void
tr_query_help(const struct tr_query *q)
{
	struct tr_error	 err;
	struct tr_out	*out;
	char		*argv[3];

	if (q->help != NULL) {
		q->help();
		return;
	}
	/* Its options are read by tr_args, which prints the help. */
	if (strstr(q->usage, "OPTION") != NULL ||
	    strstr(q->usage, "SELECTION") != NULL) {
		argv[0] = (char *)q->name;
		argv[1] = (char *)"--help";
		argv[2] = NULL;
		tr_error_init(&err);
		out = tr_out_new(stdout, TR_OUT_CSV);
		q->run(NULL, 2, argv, out, &err);
		tr_out_free(out);
		return;
	}
	printf("usage: trace-query [-d DB] [-F table|csv|json] %s%s%s\n\n"
	    "%s.\n", q->name, *q->usage ? " " : "", q->usage, q->summary);
}

void
tr_query_notes(struct tr_out *out, const char *lines)
{
	const char	*p, *nl;

	for (p = lines; p != NULL && *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl > p)
			tr_out_note(out, "%.*s", (int)(nl - p), p);
		if (*nl == '\0')
			break;
	}
}

int
tr_query_sql(struct tr_db *db, const char *sql, struct tr_out *out,
    struct tr_error *err)
{
	sqlite3_stmt	*st = NULL;
	const char	*tail = NULL;
	int		 rc;

	if (sqlite3_prepare_v2(db->sq, sql, -1, &st, &tail) != SQLITE_OK)
		return (tr_error_set(err, TR_EDATA, "bad SQL: %s",
		    sqlite3_errmsg(db->sq)));
	if (st == NULL)
		return (tr_error_set(err, TR_EUSAGE, "empty SQL statement"));
	/*
	 * What follows may hold blanks, semicolons and comments only: let
	 * SQLite's own parser say whether another statement starts there.
	 */
	while (tail != NULL && *tail != '\0') {
		sqlite3_stmt	*next = NULL;
		const char	*rest = NULL;

		rc = sqlite3_prepare_v2(db->sq, tail, -1, &next, &rest);
		if (rc != SQLITE_OK || next != NULL || rest == tail) {
			sqlite3_finalize(next);
			sqlite3_finalize(st);
			return (tr_error_set(err, TR_EUSAGE,
			    "give one SQL statement, not several"));
		}
		tail = rest;
	}
	rc = tr_out_stmt(out, db->sq, st, err) < 0 ? -1 : 0;
	sqlite3_finalize(st);
	if (rc == 0)
		rc = tr_out_finish_err(out, err);
	return (rc);
}

/* Windowed analyses: their windows, for trace-flame --during. */

char *
tr_query_window_names(void)
{
	struct tr_buf	b;
	size_t		i;

	tr_buf_init(&b);
	for (i = 0; tr_query_table[i] != NULL; i++) {
		if (tr_query_table[i]->windows == NULL)
			continue;
		if (b.len > 0)
			tr_buf_adds(&b, ", ");
		tr_buf_adds(&b, tr_query_table[i]->name);
	}
	return (b.data);
}

char **
tr_query_split_words(const char *text, int *argc)
{
	char		**argv, *p;
	const char	 *s;
	size_t		  len = strlen(text), max = len / 2 + 2;
	int		  n = 0, inword = 0;
	char		  q = 0;

	argv = tr_xmalloc(max * sizeof *argv + len + 1);
	p = (char *)(argv + max);
	for (s = text; *s != '\0'; s++) {
		if (q == 0 && (*s == ' ' || *s == '\t' || *s == '\n')) {
			if (inword)
				*p++ = '\0';
			inword = 0;
			continue;
		}
		if (!inword) {
			argv[n++] = p;
			inword = 1;
		}
		if (q == 0 && (*s == '\'' || *s == '"'))
			q = *s;
		else if (q != 0 && *s == q)
			q = 0;
		else if (*s == '\\' && q != '\'' && s[1] != '\0')
			*p++ = *++s;
		else
			*p++ = *s;
	}
	*p = '\0';
	argv[n] = NULL;
	if (q != 0) {
		free(argv);
		return (NULL);
	}
	*argc = n;
	return (argv);
}

/* A store time in JSON: a number, or a string of digits (beyond 2^53). */
static int
json_ns(const json_t *v, int64_t *ns)
{
	const char	*s;
	char		*end;

	if (json_is_integer(v)) {
		*ns = (int64_t)json_integer_value(v);
		return (0);
	}
	if (!json_is_string(v) || *(s = json_string_value(v)) == '\0')
		return (-1);
	*ns = (int64_t)strtoll(s, &end, 10);
	return (*end == '\0' ? 0 : -1);
}

/* Collect the windows of set 'name' of the query's JSON document. */
static int
collect_windows(const struct tr_query *q, const char *doc, size_t len,
    struct tr_window **w, size_t *n, char **notes, struct tr_error *err)
{
	json_error_t	 je;
	json_t		*root, *rows, *row, *v;
	struct tr_buf	 b;
	size_t		 i;

	if ((root = json_loadb(doc, len, 0, &je)) == NULL ||
	    !json_is_object(root)) {
		json_decref(root);
		return (tr_error_set(err, TR_EDATA, "%s: unreadable output "
		    "(%s)", q->name, je.text));
	}
	rows = json_object_get(root, q->windows);
	*w = tr_xcalloc(json_array_size(rows) + 1, sizeof **w);
	*n = 0;
	json_array_foreach(rows, i, row) {
		if (json_ns(json_object_get(row, "start_ns"),
		    &(*w)[i].start) != 0 ||
		    json_ns(json_object_get(row, "end_ns"), &(*w)[i].end) != 0) {
			json_decref(root);
			free(*w);
			*w = NULL;
			return (tr_error_set(err, TR_EDATA, "%s: row %zu of "
			    "'%s' has no start_ns and end_ns", q->name, i + 1,
			    q->windows));
		}
		*n = i + 1;
	}
	tr_buf_init(&b);
	json_array_foreach(json_object_get(root, "notes"), i, v) {
		if (!json_is_string(v))
			continue;
		tr_buf_printf(&b, "%s: %s\n", q->name, json_string_value(v));
	}
	if (b.len > 0)
		*notes = b.data;
	else
		tr_buf_release(&b);
	json_decref(root);
	return (0);
}

int
tr_query_windows(struct tr_db *db, const char *text, struct tr_window **w,
    size_t *n, char **notes, struct tr_error *err)
{
	const struct tr_query	*q;
	struct tr_out		*out;
	FILE			*mf;
	char			**argv, *doc = NULL, *names;
	size_t			 len = 0;
	int			 argc = 0, rc;

	*w = NULL;
	*n = 0;
	*notes = NULL;
	if ((argv = tr_query_split_words(text, &argc)) == NULL)
		return (tr_error_set(err, TR_EUSAGE, "unterminated quote"));
	if (argc == 0 || (q = tr_query_find(argv[0])) == NULL ||
	    q->windows == NULL) {
		names = tr_query_window_names();
		if (argc == 0)
			rc = tr_error_set(err, TR_EUSAGE, "no query given; "
			    "the queries with windows: %s", names);
		else
			rc = tr_error_set(err, TR_EUSAGE, "%s '%s'%s; the "
			    "queries with windows: %s",
			    tr_query_find(argv[0]) == NULL ? "no query" :
			    "query", argv[0], tr_query_find(argv[0]) == NULL ?
			    "" : " has no windows", names);
		free(names);
		free(argv);
		return (rc);
	}
	if ((mf = open_memstream(&doc, &len)) == NULL) {
		free(argv);
		return (tr_error_set(err, TR_EIO, "open_memstream: %s",
		    strerror(errno)));
	}
	out = tr_out_new(mf, TR_OUT_JSON);
	tr_out_set_notes(out, NULL, NULL);
	tr_out_set_windows_only(out, 1);
	rc = q->run(db, argc, argv, out, err);
	tr_out_free(out);
	if (fclose(mf) != 0 && rc == 0)
		rc = tr_error_set(err, TR_EIO, "open_memstream: %s",
		    strerror(errno));
	if (rc == 0)
		rc = collect_windows(q, doc, len, w, n, notes, err);
	free(doc);
	free(argv);
	return (rc);
}
