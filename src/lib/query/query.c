/*
 * The query table and the helper that runs one SQL statement into rows.
 */
#include "config.h"
#include "query/query.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "query/args.h"

/* query.c: keep sorted */
extern const struct tr_query tr_query_gc;
extern const struct tr_query tr_query_gpu_idle;
extern const struct tr_query tr_query_pprof_diff;
extern const struct tr_query tr_query_sql_entry;
extern const struct tr_query tr_query_stalls;
extern const struct tr_query tr_query_steps;
extern const struct tr_query tr_query_summary;
extern const struct tr_query tr_query_timeline;
extern const struct tr_query tr_query_top;

const struct tr_query *const tr_query_table[] = {
	&tr_query_gc,
	&tr_query_gpu_idle,
	&tr_query_pprof_diff,
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
	if (rc == 0 && tr_out_finish(out) != 0)
		rc = tr_error_set(err, TR_EIO, "error writing output: %s",
		    errno != 0 ? strerror(errno) : "write failed");
	return (rc);
}
