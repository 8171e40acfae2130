/*
 * Per-stack aggregates of the samples (table sample_stack, schema version
 * 5): a row per source, event, profile, thread and leaf call site with the
 * number of samples, the sum of their values and the smallest sample id.
 * Written in one statement at the end of each import (not per sample) and
 * by the migration to version 5, so that trace-flame folds a few thousand
 * rows instead of every sample when the selection does not look at a
 * sample's time or labels.
 */
#include "config.h"
#include "store/db.h"
#include "store/derived.h"

#include <stdio.h>

#include <sqlite3.h>

const char tr_derived_stack_schema[] =
"CREATE TABLE sample_stack (\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  event_id INTEGER NOT NULL REFERENCES str,\n"
"  profile_id INTEGER REFERENCES profile,\n"
"  thread_id INTEGER REFERENCES thread,\n"
"  callsite_id INTEGER REFERENCES callsite,\n"
"  samples INTEGER NOT NULL,\n"
"  value INTEGER NOT NULL,\n"
"  first_id INTEGER NOT NULL\n"
");\n"
"CREATE INDEX sample_stack_source ON sample_stack (source_id, event_id);\n";

/* Run 'head' 'where' 'tail' (where's ?1 is 'source_id'). */
static int
run(struct tr_db *db, const char *head, const char *where, const char *tail,
    int64_t source_id, const char *what, struct tr_error *err)
{
	sqlite3_stmt	*st;
	char		 sql[512];
	int		 rc;

	snprintf(sql, sizeof sql, "%s%s%s", head, where, tail);
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	if (source_id >= 0)
		sqlite3_bind_int64(st, 1, source_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, what));
	return (0);
}

int
tr_derived_stack_rebuild(struct tr_db *db, int64_t source_id,
    struct tr_error *err)
{
	const char	*where = source_id >= 0 ? " WHERE source_id = ?1" : "";

	if (run(db, "DELETE FROM sample_stack", where, "", source_id,
	    "cannot delete per-stack aggregates", err) != 0)
		return (-1);
	return (run(db, "INSERT INTO sample_stack SELECT source_id, event_id, "
	    "profile_id, thread_id, callsite_id, count(*), sum(value), min(id) "
	    "FROM sample", where, " GROUP BY source_id, event_id, profile_id, "
	    "thread_id, callsite_id", source_id,
	    "cannot write per-stack aggregates", err));
}
