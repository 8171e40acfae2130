/*
 * trace-query summary: what is in the store, one row per source.
 */
#include "config.h"
#include "query/query.h"

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
	if (argc != 1)
		return (tr_error_set(err, TR_EUSAGE,
		    "summary takes no arguments"));
	return (tr_query_sql(db, summary_sql, out, err));
}

const struct tr_query tr_query_summary = {
	.name = "summary",
	.usage = "",
	.summary = "sources in the store: formats, clocks, time ranges, rows",
	.run = run,
};
