/*
 * Test stores for the unit suites: see test-store.h.
 */
#include "config.h"
#include "test-store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "align/align.h"
#include "base/input.h"
#include "base/out.h"
#include "base/util.h"
#include "import/importer.h"

struct tr_db *
test_store_new(void)
{
	struct tr_error	 err;
	struct tr_db	*db;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_ptr_nonnull(db);
	return (db);
}

void
test_store_add(struct tr_db *db, const char *name, const char *text)
{
	test_store_import(db, name, "perf-script", text);
}

void
test_store_import(struct tr_db *db, const char *name, const char *format,
    const char *text)
{
	struct tr_import_result	 res;
	struct tr_import_opts	 o;
	struct tr_error		 err;
	struct tr_input		*in;
	char			 msg[1200];

	tr_error_init(&err);
	in = tr_input_mem(name, text, strlen(text));
	tr_import_opts_init(&o);
	o.format = tr_importer_find(format);
	ck_assert_ptr_nonnull(o.format);
	ck_assert_int_eq(tr_import_opts_set(&o, "tz", "UTC"), 0);
	if (tr_import_input(db, in, &o, &res, &err) != 0) {
		tr_error_format(&err, msg, sizeof msg);
		ck_abort_msg("import failed: %s", msg);
	}
	tr_input_free(in);
}

struct tr_db *
test_store_gotrace(const char *name)
{
	struct tr_import_opts	 o;
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;
	const char		*dir = getenv("TR_DATA");
	char			*path;

	path = tr_xasprintf("%s/gotrace/%s", dir ? dir : "tests/data", name);
	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	tr_import_opts_init(&o);
	ck_assert_msg(tr_import_file(db, path, NULL, &o, &res, &err) == 0,
	    "%s: %s", name, err.msg);
	ck_assert_int_eq(res.source_id, 1);
	free(path);
	return (db);
}

void
test_store_align_offset(struct tr_db *db, const char *stmt)
{
	struct tr_align_opts	 o;
	struct tr_error		 err;
	struct tr_out		*out;
	FILE			*f = fopen("/dev/null", "w");

	ck_assert_ptr_nonnull(f);
	tr_error_init(&err);
	tr_align_opts_init(&o);
	ck_assert_int_eq(tr_align_opts_add(&o, TR_ALIGN_OFFSET, stmt, &err),
	    0);
	out = tr_out_new(f, TR_OUT_CSV);
	ck_assert_msg(tr_align_run(db, &o, out, &err) == 0, "%s", err.msg);
	tr_out_free(out);
	fclose(f);
	tr_align_opts_release(&o);
}

int64_t
test_store_int(struct tr_db *db, const char *sql)
{
	struct tr_error	err;
	int64_t		v;

	tr_error_init(&err);
	ck_assert_msg(tr_db_int(db, sql, &v, &err) == 0, "%s: %s", sql,
	    err.msg);
	return (v);
}
