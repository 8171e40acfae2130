/*
 * trace-query summary: what is in the store, one row per source.
 */
#include "config.h"
#include "query/query.h"

#include "query/sel.h"

static const char summary_sql[] =
"SELECT s.id AS source, s.path, s.format,\n"
"       coalesce(s.format_version, '') AS version, s.clock,\n"
"       coalesce(s.align_method, 'none') AS aligned,\n"
"       s.clock_offset AS offset_ns, s.ts_min, s.ts_max,\n"
"       round((s.ts_max - s.ts_min) / 1e9, 3) AS span_s,\n"
"       (SELECT count(*) FROM sample WHERE source_id = s.id) AS samples,\n"
"       (SELECT coalesce(sum(n), 0) FROM slice_run\n"
"         WHERE source_id = s.id) AS slices,\n"
"       (SELECT count(*) FROM counter WHERE source_id = s.id) AS counters,\n"
"       s.size AS bytes\n"
"  FROM source s ORDER BY s.id";

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	/* The table reads offsets, times and sizes in units. */
	static const enum tr_out_unit units[] = {
		TR_UNIT_NONE, TR_UNIT_NONE, TR_UNIT_NONE, TR_UNIT_NONE,
		TR_UNIT_NONE, TR_UNIT_NONE, TR_UNIT_NS, TR_UNIT_TS, TR_UNIT_TS,
		TR_UNIT_NONE, TR_UNIT_NONE, TR_UNIT_NONE, TR_UNIT_NONE,
		TR_UNIT_BYTES
	};
	sqlite3_stmt	*st = NULL;
	int64_t		 origin, wall;
	int		 has_wall, rc = 0;

	(void)argv;
	if (argc != 1)
		return (tr_error_set(err, TR_EUSAGE,
		    "summary takes no arguments"));
	if (tr_sel_store_origin(db, &origin, &has_wall, &wall, err) != 0)
		return (-1);
	tr_out_set_clock(out, origin, has_wall, wall);
	if (sqlite3_prepare_v2(db->sq, summary_sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return (tr_error_set(err, TR_EDB, "%s",
		    sqlite3_errmsg(db->sq)));
	if (tr_out_stmt_units(out, db->sq, st, units, err) < 0 ||
	    tr_out_finish(out) != 0)
		rc = -1;
	sqlite3_finalize(st);
	return (rc);
}

const struct tr_query tr_query_summary = {
	.name = "summary",
	.usage = "",
	.summary = "sources in the store: formats, clocks, time ranges, rows",
	.run = run,
};
