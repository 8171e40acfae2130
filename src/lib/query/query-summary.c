/*
 * trace-query summary: what is in the store.  One row per source, except
 * that a series of pprof snapshots of one kind (consecutive sources of one
 * format, profile type and host, e.g. a heap profile every 500 ms) is one
 * row with its count and source range; --all gives every source its row.
 */
#include "config.h"
#include "query/query.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/wallclock.h"
#include "query/args.h"
#include "query/sel.h"

static const char summary_sql[] =
"SELECT s.id, s.path, s.format, coalesce(s.format_version, ''), s.clock,\n"
"       coalesce(s.align_method, 'none'), s.clock_offset, s.ts_min,\n"
"       s.ts_max,\n"
"       (SELECT count(*) FROM sample WHERE source_id = s.id),\n"
"       (SELECT coalesce(sum(n), 0) FROM slice_run\n"
"         WHERE source_id = s.id),\n"
"       (SELECT coalesce(sum(n), 0) FROM counter_run\n"
"         WHERE source_id = s.id),\n"
"       s.size,\n"
"       (SELECT group_concat(t, ',') FROM (SELECT DISTINCT type AS t\n"
"         FROM profile WHERE source_id = s.id ORDER BY t)),\n"
"       coalesce(s.host, ''),\n"
"       " TR_SEL_UNPLACED("s") ",\n"
"       json_extract(s.meta, '$.same_samples_as')\n"
"  FROM source s ORDER BY s.id";

static const struct tr_out_col cols[] = {
	{ "source", TR_UNIT_NONE }, { "path", TR_UNIT_NONE },
	{ "format", TR_UNIT_NONE }, { "version", TR_UNIT_NONE },
	{ "clock", TR_UNIT_NONE }, { "aligned", TR_UNIT_NONE },
	{ "offset_ns", TR_UNIT_NS }, { "ts_min", TR_UNIT_TS },
	{ "ts_max", TR_UNIT_TS }, { "span_s", TR_UNIT_NONE },
	{ "samples", TR_UNIT_NONE }, { "slices", TR_UNIT_NONE },
	{ "counters", TR_UNIT_NONE }, { "bytes", TR_UNIT_BYTES },
	{ "count", TR_UNIT_NONE }, { "sources", TR_UNIT_NONE },
	{ "type", TR_UNIT_NONE }, { "host", TR_UNIT_NONE },
	{ "start", TR_UNIT_NONE }, { "end", TR_UNIT_NONE }
};

/* Store ns as ISO 8601 UTC to the ms (tr_iso_utc()). */
static void
put_iso(struct tr_out *out, int has_wall, int64_t wall, int null,
    int64_t ts)
{
	char	buf[TR_ISO_MAX];

	if (!has_wall || null)
		tr_out_null(out);
	else
		tr_out_text(out, tr_iso_utc(ts + wall, buf));
}

static const char *
col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return (s != NULL ? (const char *)s : "");
}

/* The current group: its first row's text, and what adds up. */
struct group {
	int64_t	 first, last, offset, ts_min, ts_max;
	int	 has_min, has_max;
	int	 unplaced;	/* wall clock, not placed (TR_SEL_UNPLACED) */
	int	 has_wall;	/* its clock: tr_sel_source_clock() */
	int64_t	 wall;
	int64_t	 samples, slices, counters, bytes, count;
	char	*path, *format, *version, *clock, *aligned, *type, *host;
};

static void
group_clear(struct group *g)
{
	free(g->path);
	free(g->format);
	free(g->version);
	free(g->clock);
	free(g->aligned);
	free(g->type);
	free(g->host);
	memset(g, 0, sizeof *g);
}

/*
 * Start and end through the group's own clock: a wall-clock source not
 * yet placed while others are on the store's timeline says its own wall
 * clock, not store ns read through the store's (tr_sel_source_clock()).
 */
static void
group_emit(struct tr_out *out, const struct group *g)
{
	char	ids[64];

	if (g->count == 0)
		return;
	tr_out_int(out, g->first);
	tr_out_text(out, g->path);
	tr_out_text(out, g->format);
	tr_out_text(out, g->version);
	tr_out_text(out, g->clock);
	tr_out_text(out, g->aligned);
	tr_out_int(out, g->offset);
	if (g->has_min)
		tr_out_int(out, g->ts_min);
	else
		tr_out_null(out);
	if (g->has_max)
		tr_out_int(out, g->ts_max);
	else
		tr_out_null(out);
	if (g->has_min && g->has_max)
		tr_out_real(out,
		    (double)llround((double)(g->ts_max - g->ts_min) / 1e6) /
		    1e3);
	else
		tr_out_null(out);
	tr_out_int(out, g->samples);
	tr_out_int(out, g->slices);
	tr_out_int(out, g->counters);
	tr_out_int(out, g->bytes);
	tr_out_int(out, g->count);
	if (g->first == g->last)
		snprintf(ids, sizeof ids, "%lld", (long long)g->first);
	else
		snprintf(ids, sizeof ids, "%lld-%lld", (long long)g->first,
		    (long long)g->last);
	tr_out_text(out, ids);
	tr_out_text(out, g->type);
	tr_out_text(out, g->host);
	put_iso(out, g->has_wall, g->wall, !g->has_min, g->ts_min);
	put_iso(out, g->has_wall, g->wall, !g->has_max, g->ts_max);
	tr_out_end_row(out);
}

/* Does this row continue the series of 'g'? */
static int
continues(const struct group *g, sqlite3_stmt *st)
{
	if (g->count == 0 || g->type[0] == '\0' ||
	    strncmp(g->format, "pprof", 5) != 0)
		return (0);
	return (strcmp(g->format, col_text(st, 2)) == 0 &&
	    strcmp(g->type, col_text(st, 13)) == 0 &&
	    strcmp(g->host, col_text(st, 14)) == 0 &&
	    strcmp(g->clock, col_text(st, 4)) == 0 &&
	    strcmp(g->aligned, col_text(st, 5)) == 0 &&
	    strcmp(g->version, col_text(st, 3)) == 0 &&
	    g->unplaced == sqlite3_column_int(st, 15));
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	int		 all = 0;
	struct tr_arg	 opts[] = {
		{ "all", 0, TR_ARG_FLAG, &all, 0, 0, NULL,
		    "a row for every source: no series grouped", 0, 0 },
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_args	 args = {
		.name = "summary", .synopsis = "[--all]",
		.about = "What is in the store: a row per source, with a "
		    "series of pprof snapshots of\none kind (consecutive "
		    "sources of one format, profile type and host) as\none "
		    "row with its count and source range (trace-query(1), "
		    "summary).",
		.args = opts
	};
	struct group	 g;
	sqlite3_stmt	*st = NULL;
	int64_t		 origin, wall, unplaced = 0;
	int		 has_wall, r, rc;

	memset(&g, 0, sizeof g);
	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	if (tr_sel_store_origin(db, &origin, &has_wall, &wall, err) != 0)
		goto out;
	tr_out_set_clock(out, origin, has_wall, wall);
	if (sqlite3_prepare_v2(db->sq, summary_sql, -1, &st, NULL) !=
	    SQLITE_OK) {
		tr_error_set(err, TR_EDB, "%s", sqlite3_errmsg(db->sq));
		goto out;
	}
	/* The table reads offsets, times and sizes in units. */
	tr_out_columns_of(out, TR_OUT_NCOLS(cols), cols);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		if (all || !continues(&g, st)) {
			group_emit(out, &g);
			group_clear(&g);
			g.first = sqlite3_column_int64(st, 0);
			g.path = tr_xstrdup(col_text(st, 1));
			g.format = tr_xstrdup(col_text(st, 2));
			g.version = tr_xstrdup(col_text(st, 3));
			g.clock = tr_xstrdup(col_text(st, 4));
			g.aligned = tr_xstrdup(col_text(st, 5));
			g.offset = sqlite3_column_int64(st, 6);
			g.type = tr_xstrdup(col_text(st, 13));
			g.host = tr_xstrdup(col_text(st, 14));
			g.unplaced = sqlite3_column_int(st, 15);
			if (g.unplaced)
				unplaced++;
			if (tr_sel_source_clock(db, g.first, &g.has_wall,
			    &g.wall, err) != 0)
				goto out;
			if ((g.has_min = sqlite3_column_type(st, 7) !=
			    SQLITE_NULL))
				g.ts_min = sqlite3_column_int64(st, 7);
		}
		if (sqlite3_column_type(st, 16) == SQLITE_INTEGER)
			tr_out_note(out, "source %lld holds the same samples "
			    "as source %lld (imported with "
			    "--keep-same-samples): totals over both count "
			    "them twice; choose one with --source",
			    (long long)sqlite3_column_int64(st, 0),
			    (long long)sqlite3_column_int64(st, 16));
		g.last = sqlite3_column_int64(st, 0);
		if (sqlite3_column_type(st, 8) != SQLITE_NULL) {
			g.has_max = 1;
			g.ts_max = sqlite3_column_int64(st, 8);
		}
		g.samples += sqlite3_column_int64(st, 9);
		g.slices += sqlite3_column_int64(st, 10);
		g.counters += sqlite3_column_int64(st, 11);
		g.bytes += sqlite3_column_int64(st, 12);
		g.count++;
	}
	if (r != SQLITE_DONE) {
		tr_error_set(err, TR_EDB, "%s", sqlite3_errmsg(db->sq));
		goto out;
	}
	group_emit(out, &g);
	if (tr_out_finish_err(out, err) != 0)
		goto out;
	if (unplaced > 0)
		tr_out_note(out, "%" PRId64 " row%s of wall-clock sources not "
		    "yet on the store's timeline (aligned none): ts_min and "
		    "ts_max are their own clock, start and end their own wall "
		    "clock; trace-align places them", unplaced,
		    unplaced == 1 ? "" : "s");
	rc = 0;
out:
	group_clear(&g);
	sqlite3_finalize(st);
	tr_args_end(&args);
	return (rc);
}

const struct tr_query tr_query_summary = {
	.name = "summary",
	.usage = "[OPTION...]",
	.summary = "sources in the store: formats, clocks, time ranges, rows",
	.run = run,
};
