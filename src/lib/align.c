/*
 * Alignment: a source whose native clock already is CLOCK_MONOTONIC of the
 * traced host is aligned by definition ("native", offset 0, confidence 1).
 * Others stay unaligned until an anchor or an estimate exists.
 */
#include "config.h"
#include "align.h"

static const char apply_sql[] =
"UPDATE source SET align_method = 'native', align_confidence = 1.0\n"
" WHERE clock = 'monotonic' AND align_method IS NULL";

static const char table_sql[] =
"SELECT id AS source, path, format, clock,\n"
"       coalesce(align_method, 'none') AS method,\n"
"       clock_offset AS offset_ns, clock_drift_ppm AS drift_ppm,\n"
"       align_confidence AS confidence,\n"
"       ts_min - (SELECT min(ts_min) FROM source) AS start_ns,\n"
"       ts_max - (SELECT min(ts_min) FROM source) AS end_ns\n"
"  FROM source ORDER BY id";

int
tr_align_run(struct tr_db *db, int dry_run, struct tr_out *out,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!dry_run) {
		if (tr_db_exec(db, "BEGIN IMMEDIATE", err) != 0)
			return (-1);
		if (tr_db_exec(db, apply_sql, err) != 0 ||
		    tr_db_exec(db, "COMMIT", err) != 0) {
			tr_db_exec(db, "ROLLBACK", NULL);
			return (-1);
		}
	}
	if ((st = tr_db_prepare(db, table_sql, err)) == NULL)
		return (-1);
	rc = tr_out_stmt(out, db->sq, st, err) < 0 ? -1 : 0;
	sqlite3_finalize(st);
	if (rc == 0)
		rc = tr_out_finish(out);
	return (rc);
}
