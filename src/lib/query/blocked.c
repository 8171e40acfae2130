/*
 * Per-stack blocking totals from the Go trace, replaying go tool trace's
 * pprof rules over the goroutine states of the store (blocked.h).
 */
#include "config.h"
#include "query/blocked.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "store/derived.h"

static const char *const kind_names[] = {
	"sync", "net", "syscall", "sched", "chan", "mutex", "sleep", "all",
	NULL
};

int
tr_blocked_parse_kind(const char *s, enum tr_blocked_kind *k)
{
	int	i;

	for (i = 0; kind_names[i] != NULL; i++)
		if (strcmp(s, kind_names[i]) == 0) {
			*k = (enum tr_blocked_kind)i;
			return (0);
		}
	return (-1);
}

const char *
tr_blocked_kind_name(enum tr_blocked_kind k)
{
	return (kind_names[k]);
}

const char *
tr_blocked_kind_names(void)
{
	return ("sync, net, syscall, sched, chan, mutex, sleep, all");
}

/*
 * The goroutine states of source ?1 (goroutine ?2, or all for -1), as
 * the go_state view has them, but reached through the source's goroutine
 * tracks: filtering the view by source expands every run once per track.
 */
#define GS_CTE \
"gs AS MATERIALIZED (" \
"  SELECT t.ref AS goid, s.id AS id, s.ts AS ts, s.dur AS dur," \
"         n.s AS state, c.s AS reason, s.callsite_id AS callsite_id," \
"         s.args AS args" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id" \
"    CROSS JOIN str n ON n.id = s.name_id" \
"    LEFT JOIN str c ON c.id = s.category_id" \
"   WHERE t.kind = '" TR_TRACK_GOROUTINE "' AND t.source_id = ?1" \
"     AND (?2 < 0 OR t.ref = ?2))"

/*
 * Old format: the state intervals themselves, each from the event that
 * blocked (with its stack) to the one that unblocked; an unfinished one
 * never ended.  The (state, reason) pairs of each kind, as the store
 * normalises the reasons.
 */
static const char *const old_sets[] = {
	/* sync */ "g.state = 'blocked' AND g.reason IN ('chan send', "
	    "'chan recv', 'select', 'sync', 'cond', 'GC')",
	/* net */ "g.state = 'blocked' AND g.reason = 'net'",
	/* syscall */ "g.state = 'blocked' AND g.reason = 'syscall'",
	/* sched */ "g.state = 'runnable' AND g.reason IN ('created', "
	    "'unblocked')",
	/* chan */ "g.state = 'blocked' AND g.reason IN ('chan send', "
	    "'chan recv', 'select')",
	/* mutex */ "g.state = 'blocked' AND g.reason = 'sync'",
	/* sleep */ "g.state = 'blocked' AND g.reason = 'sleep'",
	/* all */ "(g.state = 'blocked' OR (g.state = 'runnable' AND "
	    "g.reason IN ('created', 'unblocked')))",
};

static const char old_sql[] =
"WITH " GS_CTE
" SELECT g.goid, g.callsite_id, g.ts, g.ts + g.dur FROM gs g"
" WHERE g.callsite_id IS NOT NULL"
"   AND json_extract(g.args, '$.unfinished') IS NULL AND %s";

/*
 * Generation format: replay the transitions that carry a stack, per
 * goroutine, in order.  A run of transitions into state %1$s
 * (grouped by the count of transitions into other states before it)
 * opens at its first one whose runtime reason passes %2$s and closes at
 * the next transition into another state; it starts no earlier than the
 * goroutine's first run.
 */
static const char new_sql[] =
"WITH " GS_CTE ","
"st AS MATERIALIZED ("
"  SELECT g.goid AS goid, g.id AS id, g.ts AS ts, g.callsite_id AS cs,"
"         CASE WHEN g.state = 'running' THEN 'Running'"
"              WHEN g.state = 'runnable' THEN 'Runnable'"
"              WHEN g.reason = 'syscall' THEN 'Syscall'"
"              ELSE 'Waiting' END AS gst,"
"         coalesce(json_extract(g.args, '$.reason'), '') AS r"
"    FROM gs g WHERE g.callsite_id IS NOT NULL),"
"runs AS MATERIALIZED ("
"  SELECT *,"
"         sum(gst <> '%s') OVER (PARTITION BY goid ORDER BY ts, id) AS grp"
"    FROM st),"
"starts AS MATERIALIZED ("
"  SELECT goid, grp, cs, ts,"
"         row_number() OVER (PARTITION BY goid, grp ORDER BY ts, id) AS k"
"    FROM runs WHERE gst = '%s' AND (%s)),"
"ends AS MATERIALIZED ("
"  SELECT goid, grp - 1 AS grp, ts FROM runs WHERE gst <> '%s'),"
"firstrun AS MATERIALIZED ("
"  SELECT goid, min(ts) AS fr FROM gs"
"   WHERE state = 'running' GROUP BY goid)"
"SELECT goid, cs, b, e FROM ("
"  SELECT s.goid AS goid, s.cs AS cs,"
"         max(s.ts, coalesce(f.fr, s.ts)) AS b, e.ts AS e"
"    FROM starts s JOIN ends e USING (goid, grp)"
"    LEFT JOIN firstrun f USING (goid) WHERE s.k = 1)"
" WHERE e > b";

/* The replays of each kind: state and reason test, up to three. */
static const struct {
	const char	*state, *reason;
} new_sets[][3] = {
	/* sync */ { { "Waiting", "r LIKE '%chan%' OR r LIKE '%sync%' OR "
	    "r LIKE '%select%'" } },
	/* net */ { { "Waiting", "r = 'network'" } },
	/* syscall */ { { "Syscall", "1" } },
	/* sched */ { { "Runnable", "1" } },
	/* chan */ { { "Waiting", "r LIKE '%chan%' OR r LIKE '%select%'" } },
	/* mutex */ { { "Waiting", "r = 'sync'" } },
	/* sleep */ { { "Waiting", "r = 'sleep'" } },
	/* all */ { { "Waiting", "1" }, { "Syscall", "1" },
	    { "Runnable", "1" } },
};

struct charge {
	int64_t	cs, ns, count;	/* count: intervals (1 for a replayed one) */
};

struct acc {
	struct charge	*v;
	size_t		 n, cap;
};

/* The nanoseconds of [b, e) that the selection's time takes. */
static int64_t
clip(const struct tr_sel *sel, int64_t b, int64_t e)
{
	int64_t	in = 0, lo, hi;
	size_t	i;

	if (sel->has_from && b < sel->from)
		b = sel->from;
	if (sel->has_to && e > sel->to)
		e = sel->to;
	if (e <= b)
		return (0);
	if (!sel->has_windows)
		return (e - b);
	for (i = 0; i < sel->nwindows; i++) {
		lo = sel->windows[i].start > b ? sel->windows[i].start : b;
		hi = sel->windows[i].end < e ? sel->windows[i].end : e;
		if (hi > lo)
			in += hi - lo;
	}
	return (sel->windows_exclude ? (e - b) - in : in);
}

static int
read_intervals(struct tr_db *db, const struct tr_sel *sel, const char *sql,
    int64_t source, struct acc *a, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 ns;
	int		 rc;

	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, source);
	sqlite3_bind_int64(st, 2, sel->goid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ns = clip(sel, sqlite3_column_int64(st, 2),
		    sqlite3_column_int64(st, 3));
		if (ns <= 0)
			continue;
		if (a->n == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 1024;
			a->v = tr_xrealloc(a->v, a->cap * sizeof *a->v);
		}
		a->v[a->n].cs = sqlite3_column_int64(st, 1);
		a->v[a->n].count = 1;
		a->v[a->n++].ns = ns;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read goroutine states"));
	return (0);
}

/* Go 1.22 and later write the generation format. */
static int
is_new_format(const char *version)
{
	int	major = 0, minor = 0;

	if (version == NULL || sscanf(version, "%d.%d", &major, &minor) != 2)
		return (0);
	return (major > 1 || (major == 1 && minor >= 22));
}

/*
 * Without a time, goroutine or window restriction, source 'src''s
 * per-stack totals are go_blocked_stack's rows (store/derived.h), when
 * the source has derived rows: returns 1 when it read them, 0 when the
 * caller must replay the states, -1 on error.
 */
static int
from_derived(struct tr_db *db, const struct tr_sel *sel,
    enum tr_blocked_kind kind, int64_t src, int gen, struct acc *a,
    struct tr_error *err)
{
	sqlite3_stmt	*st;
	int64_t		 bins = 0;
	int		 rc;

	if (sel->has_from || sel->has_to || sel->has_windows || sel->goid >= 0)
		return (0);
	if ((st = tr_db_prepare(db, "SELECT EXISTS (SELECT 1 FROM go_bin "
	    "WHERE source_id = ?1)", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, src);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		bins = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return (tr_db_error(db, err, "cannot read go_bin"));
	if (!bins)
		return (0);
	if ((st = tr_db_prepare(db, "SELECT callsite_id, count, total_ns "
	    "FROM go_blocked_stack WHERE source_id = ?1 AND rules = ?2 AND "
	    "kind = ?3", err)) == NULL)
		return (-1);
	sqlite3_bind_int64(st, 1, src);
	sqlite3_bind_text(st, 2, gen ? "gen" : "old", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, kind_names[kind], -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (a->n == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 1024;
			a->v = tr_xrealloc(a->v, a->cap * sizeof *a->v);
		}
		a->v[a->n].cs = sqlite3_column_int64(st, 0);
		a->v[a->n].count = sqlite3_column_int64(st, 1);
		a->v[a->n++].ns = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (tr_db_error(db, err, "cannot read go_blocked_stack"));
	return (1);
}

static int
charge_cmp(const void *va, const void *vb)
{
	const struct charge	*a = va, *b = vb;

	return (a->cs < b->cs ? -1 : a->cs > b->cs);
}

int
tr_blocked_collect(struct tr_db *db, const struct tr_sel *sel,
    enum tr_blocked_kind kind, struct tr_blocked *out, struct tr_error *err)
{
	struct acc	 a = { NULL, 0, 0 };
	sqlite3_stmt	*st;
	char		*sql;
	int64_t		 src;
	size_t		 i, k;
	int		 rc, began = 0, ret = -1;

	memset(out, 0, sizeof *out);
	if (tr_db_read_begin(db, &began, err) != 0)
		return (-1);
	if ((st = tr_db_prepare(db, "SELECT id, json_extract(meta, "
	    "'$.go_version'), json_extract(meta, '$.generations') FROM source "
	    "WHERE format = 'gotrace' ORDER BY id", err)) == NULL)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		src = sqlite3_column_int64(st, 0);
		if (!tr_sel_has_source(sel, src))
			continue;
		out->sources++;
		if ((rc = from_derived(db, sel, kind, src,
		    is_new_format((const char *)sqlite3_column_text(st, 1)) ||
		    sqlite3_column_type(st, 2) != SQLITE_NULL, &a, err)) < 0) {
			sqlite3_finalize(st);
			goto out;
		}
		if (rc == 1)
			rc = 0;
		else if (is_new_format((const char *)sqlite3_column_text(st, 1)) ||
		    sqlite3_column_type(st, 2) != SQLITE_NULL) {
			for (k = 0; k < 3 && new_sets[kind][k].state != NULL;
			    k++) {
				sql = tr_xasprintf(new_sql,
				    new_sets[kind][k].state,
				    new_sets[kind][k].state,
				    new_sets[kind][k].reason,
				    new_sets[kind][k].state);
				rc = read_intervals(db, sel, sql, src, &a, err);
				free(sql);
				if (rc != 0)
					break;
			}
		} else {
			sql = tr_xasprintf(old_sql, old_sets[kind]);
			rc = read_intervals(db, sel, sql, src, &a, err);
			free(sql);
		}
		if (rc != 0) {
			sqlite3_finalize(st);
			goto out;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		tr_db_error(db, err, "cannot read sources");
		goto out;
	}
	/* One entry per stack, by call site. */
	if (a.n > 0)
		qsort(a.v, a.n, sizeof *a.v, charge_cmp);
	out->stacks = tr_xcalloc(a.n + 1, sizeof *out->stacks);
	for (i = 0; i < a.n; i++) {
		if (out->n == 0 || out->stacks[out->n - 1].callsite_id !=
		    a.v[i].cs)
			out->stacks[out->n++].callsite_id = a.v[i].cs;
		out->stacks[out->n - 1].count += a.v[i].count;
		out->stacks[out->n - 1].ns += a.v[i].ns;
		out->count += a.v[i].count;
		out->ns += a.v[i].ns;
	}
	ret = 0;
out:
	free(a.v);
	tr_db_read_end(db, began);
	if (ret != 0)
		tr_blocked_release(out);
	return (ret);
}

void
tr_blocked_release(struct tr_blocked *b)
{
	free(b->stacks);
	memset(b, 0, sizeof *b);
}
