/*
 * Test stores for the unit suites: see test-store.h.
 */
#include "config.h"
#include "test-store.h"

#include <string.h>

#include <check.h>

#include "base/input.h"
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
