/*
 * The shared part of the libFuzzer harnesses: one import per input into a
 * empty in-memory store, and the checks that hold for any input.
 */
#include "config.h"
#include "fuzz-common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "import/importer.h"
#include "base/input.h"
#include "base/util.h"

/*
 * Every table of the store, the derived ones included (counter is a view
 * since schema version 8): all must be empty after a failed import, and
 * emptying them after a good one gives back the state of a fresh store
 * (no table has AUTOINCREMENT, so ids start again at 1) in a fraction of
 * the time that creating the schema takes, which matters at thousands of
 * runs a second.  Made from sqlite_master once, so that a table added to
 * the schema is in them too.
 */
static char	*count_sql, *clear_sql;

static void
tables_sql(struct tr_db *db)
{
	struct tr_error	 err;
	struct tr_buf	 c, d;
	sqlite3_stmt	*st;
	const char	*name;

	tr_error_init(&err);
	st = tr_db_prepare(db, "SELECT name FROM sqlite_master WHERE type = "
	    "'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", &err);
	if (st == NULL)
		tr_fuzz_fail("cannot list the tables: %s", err.msg);
	tr_buf_init(&c);
	tr_buf_init(&d);
	tr_buf_adds(&c, "SELECT 0");
	tr_buf_adds(&d, "BEGIN;");
	while (sqlite3_step(st) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(st, 0);
		tr_buf_printf(&c, " + (SELECT count(*) FROM \"%s\")", name);
		tr_buf_printf(&d, " DELETE FROM \"%s\";", name);
	}
	sqlite3_finalize(st);
	tr_buf_adds(&d, " COMMIT");
	count_sql = c.data;
	clear_sql = d.data;
}

#define SEEN_MAX	256

void
tr_fuzz_fail(const char *fmt, ...)
{
	va_list	ap;

	fputs("tracekit-fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void
style(const char *what, const struct tr_error *err, const char *why)
{
	static uint64_t	seen[SEEN_MAX];
	static size_t	nseen;
	char		buf[2048];
	uint64_t	h;
	size_t		i;

	tr_error_format(err, buf, sizeof buf);
	if (getenv("TR_FUZZ_STRICT") != NULL)
		tr_fuzz_fail("%s: %s: %s", what, why, buf);
	/* Report each message text once, whatever its location. */
	h = tr_hash64(err->msg, strlen(err->msg));
	for (i = 0; i < nseen; i++)
		if (seen[i] == h)
			return;
	if (nseen < SEEN_MAX)
		seen[nseen++] = h;
	fprintf(stderr, "tracekit-fuzz: style: %s: %s: %s\n", what, why, buf);
}

/*
 * A message may open with a name the format defines, such as a Go trace
 * event ("GoStart: ...") or an acronym ("GPU 0: ..."): a first word with
 * another capital after its first letter.  Other capitals are a sentence.
 */
static int
starts_uppercase(const char *m)
{
	size_t	i;

	if (*m < 'A' || *m > 'Z')
		return (0);
	for (i = 1; m[i] != '\0' && m[i] != ' ' && m[i] != ':'; i++)
		if (m[i] >= 'A' && m[i] <= 'Z')
			return (0);
	return (1);
}

void
tr_fuzz_check_error(const char *what, const struct tr_error *err)
{
	size_t	n = strlen(err->msg);

	if (err->code == TR_OK)
		tr_fuzz_fail("%s: failed with no error code (message '%s')",
		    what, err->msg);
	if (n == 0)
		tr_fuzz_fail("%s: failed with an empty message", what);
	if (starts_uppercase(err->msg))
		style(what, err, "message starts uppercase");
	if (err->msg[n - 1] == '.' && (n < 2 || err->msg[n - 2] != '.'))
		style(what, err, "message ends with a period");
	if (err->code == TR_EDATA && err->source[0] == '\0')
		style(what, err, "data error without a location");
}

int
tr_fuzz_import(const char *format, const uint8_t *data, size_t size,
    const char *const *opts)
{
	static struct tr_db	*db;
	struct tr_import_opts	 io;
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_input		*in;
	int64_t			 rows = -1;
	int			 rc;

	tr_error_init(&err);
	tr_import_opts_init(&io);
	if ((io.format = tr_importer_find(format)) == NULL)
		tr_fuzz_fail("no importer '%s'", format);
	for (; opts != NULL && opts[0] != NULL; opts += 2)
		if (tr_import_opts_set(&io, opts[0], opts[1]) != 0)
			tr_fuzz_fail("cannot set option '%s'", opts[0]);
	if (db == NULL) {
		if ((db = tr_db_open(":memory:", 0, &err)) == NULL)
			tr_fuzz_fail("cannot open a store: %s", err.msg);
		tables_sql(db);
	}
	in = tr_input_mem("fuzz", data, size);
	rc = tr_import_input(db, in, &io, &res, &err);
	tr_input_free(in);
	if (rc != 0) {
		tr_fuzz_check_error(format, &err);
		tr_error_init(&err);
		if (tr_db_int(db, count_sql, &rows, &err) != 0)
			tr_fuzz_fail("cannot count rows: %s", err.msg);
		if (rows != 0)
			tr_fuzz_fail("%s: a failed import left %lld rows",
			    format, (long long)rows);
	} else {
		if (res.skipped || res.duplicate)
			tr_fuzz_fail("%s: a forced import into an empty store "
			    "was skipped or a duplicate", format);
		/* The runs' JSON reads back: a slice per slice written. */
		if (tr_db_int(db, "SELECT count(*) FROM slice", &rows,
		    &err) != 0)
			tr_fuzz_fail("%s: the slice view fails: %s", format,
			    err.msg);
		if (rows != res.slices)
			tr_fuzz_fail("%s: %lld slices written, the view has "
			    "%lld", format, (long long)res.slices,
			    (long long)rows);
		if (tr_db_exec(db, clear_sql, &err) != 0)
			tr_fuzz_fail("cannot empty the store: %s", err.msg);
	}
	return (0);
}
