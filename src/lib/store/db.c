/*
 * Opening, creating and migrating the store.  The schema text here is the
 * reference that trace-store(5) documents; a change to it bumps
 * TR_DB_VERSION and adds a step to migrate().
 */
#include "config.h"
#include "store/db.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "base/names.h"
#include "store/counter.h"
#include "store/derived.h"

/*
 * Slices are stored in runs: up to TR_SLICE_RUN slices of one track in a
 * row of slice_run, as a JSON array of [ts - run.ts, dur, name_id,
 * category_id, callsite_id, args] (trailing NULLs left out).  A row per
 * slice cost 2-3 us with its two indexes, which bounded the import of a
 * Go trace (millions of goroutine states); a run costs about as much as
 * one row.  The slice view gives them back one row each; a run's slices
 * have the ids id .. id + n - 1.  Its run_ts and run_end_ts are the run's
 * bounds, which a time window can be tested against with the run index
 * before any JSON is read.
 */
#define TR_DB_SLICE_RUN \
"CREATE TABLE slice_run (\n" \
"  id INTEGER PRIMARY KEY,\n" \
"  source_id INTEGER NOT NULL REFERENCES source,\n" \
"  track_id INTEGER NOT NULL REFERENCES track,\n" \
"  ts INTEGER NOT NULL,\n" \
"  end_ts INTEGER NOT NULL,\n" \
"  n INTEGER NOT NULL,\n" \
"  slices TEXT NOT NULL\n" \
");\n"
#define TR_DB_SLICE_RUN_INDEXES \
"CREATE INDEX slice_run_track_ts ON slice_run (track_id, ts);\n" \
"CREATE INDEX slice_run_source_ts ON slice_run (source_id, ts);\n"
#define TR_DB_SLICE_VIEW \
"CREATE VIEW slice AS\n" \
"  SELECT r.id + j.key AS id, r.source_id, r.track_id,\n" \
"         r.ts + json_extract(j.value, '$[0]') AS ts,\n" \
"         json_extract(j.value, '$[1]') AS dur,\n" \
"         json_extract(j.value, '$[2]') AS name_id,\n" \
"         json_extract(j.value, '$[3]') AS category_id,\n" \
"         json_extract(j.value, '$[4]') AS callsite_id,\n" \
"         json_extract(j.value, '$[5]') AS args,\n" \
"         r.ts AS run_ts, r.end_ts AS run_end_ts\n" \
"    FROM slice_run r, json_each(r.slices) j;\n"

/*
 * Counters are stored in runs too (version 8; store/counter.h): up to
 * TR_COUNTER_RUN points of one track and metric in a row of counter_run,
 * as a JSON array of [ts - run.ts, value] pairs.  A row per point, with
 * its index, made an nvidia-smi log's import 2.5 times slower than the
 * sqlite3 shell's .import of the CSV.  The counter view gives the points
 * back one row each, with the ids id .. id + n - 1 of their run.
 */
#define TR_DB_COUNTER_RUN \
"CREATE TABLE counter_run (\n" \
"  id INTEGER PRIMARY KEY,\n" \
"  source_id INTEGER NOT NULL REFERENCES source,\n" \
"  track_id INTEGER NOT NULL REFERENCES track,\n" \
"  name_id INTEGER NOT NULL REFERENCES str,\n" \
"  ts INTEGER NOT NULL,\n" \
"  end_ts INTEGER NOT NULL,\n" \
"  n INTEGER NOT NULL,\n" \
"  points TEXT NOT NULL\n" \
");\n" \
"CREATE INDEX counter_run_track_ts ON counter_run (track_id, name_id, " \
"ts);\n" \
"CREATE VIEW counter AS\n" \
"  SELECT r.id + j.key AS id, r.source_id, r.track_id,\n" \
"         r.ts + json_extract(j.value, '$[0]') AS ts, r.name_id,\n" \
"         json_extract(j.value, '$[1]') AS value,\n" \
"         r.ts AS run_ts, r.end_ts AS run_end_ts\n" \
"    FROM counter_run r, json_each(r.points) j;\n"


#define TR_DB_GPU_VIEWS \
"CREATE VIEW gpu_metric AS\n" \
"  SELECT c.id, c.source_id, t.ref AS gpu, t.name AS gpu_name, c.ts,\n" \
"         n.s AS metric, c.value, c.run_ts, c.run_end_ts\n" \
"    FROM counter c JOIN track t ON t.id = c.track_id\n" \
"    JOIN str n ON n.id = c.name_id\n" \
"   WHERE t.kind = '" TR_TRACK_GPU "';\n" \
"CREATE VIEW gpu_process AS\n" \
"  SELECT c.id, c.source_id, t.ref AS gpu, p.pid, p.name AS process,\n" \
"         c.ts, n.s AS metric, c.value, c.run_ts, c.run_end_ts\n" \
"    FROM counter c JOIN track t ON t.id = c.track_id\n" \
"    JOIN str n ON n.id = c.name_id\n" \
"    LEFT JOIN process p ON p.id = t.process_id\n" \
"   WHERE t.kind = '" TR_TRACK_GPU_PROCESS "';\n"

/*
 * The views over slices start from the track and reach the slices through
 * the run index: with "JOIN", SQLite put the string table first and
 * expanded every run once per string (50 s for the states of the bench
 * trace; 6 s so).  CROSS JOIN keeps the order written.  Their source_id
 * is the track's (schema version 10): as the run's, "WHERE source_id = 1"
 * went to the runs through their source index for each track, every run
 * of the source once per track (go_state of an 11 MB trace: 114 s, where
 * the whole view reads in 1 s).
 */
#define TR_DB_GO_VIEWS \
"CREATE VIEW go_state AS\n" \
"  SELECT s.id, t.source_id AS source_id, t.ref AS goid, s.ts, s.dur,\n" \
"         n.s AS state, c.s AS reason, s.callsite_id, s.args, s.run_ts,\n" \
"         s.run_end_ts\n" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id\n" \
"    CROSS JOIN str n ON n.id = s.name_id\n" \
"    LEFT JOIN str c ON c.id = s.category_id\n" \
"   WHERE t.kind = '" TR_TRACK_GOROUTINE "';\n" \
"CREATE VIEW go_gc AS\n" \
"  SELECT s.id, t.source_id AS source_id, s.ts, s.dur, n.s AS name, s.args,\n" \
"         s.run_ts, s.run_end_ts\n" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id\n" \
"    CROSS JOIN str n ON n.id = s.name_id\n" \
"   WHERE t.kind = '" TR_TRACK_GO_GC "';\n" \
"CREATE VIEW go_stw AS\n" \
"  SELECT s.id, t.source_id AS source_id, s.ts, s.dur, n.s AS kind,\n" \
"         c.s AS reason, s.run_ts, s.run_end_ts\n" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id\n" \
"    CROSS JOIN str n ON n.id = s.name_id\n" \
"    LEFT JOIN str c ON c.id = s.category_id\n" \
"   WHERE t.kind = '" TR_TRACK_GO_STW "';\n"

/*
 * Version 3 adds, besides the derived tables (store/derived.h), views of
 * the Go trace's user annotations (runtime/trace tasks, regions and logs),
 * which the importer stores as slices on a go-task track per task (task 0,
 * "background", holds what belongs to no task), told apart by category.
 * The same text goes into a new store and into the step from version 2.
 */
#define TR_DB_GO_ANNOTATION_VIEWS \
"CREATE VIEW go_task AS\n" \
"  SELECT s.id, t.source_id AS source_id, t.ref AS task_id, n.s AS name,\n" \
"         json_extract(s.args, '$.parent') AS parent_id,\n" \
"         json_extract(s.args, '$.goid') AS goid,\n" \
"         json_extract(s.args, '$.end_goid') AS end_goid, s.ts, s.dur,\n" \
"         s.callsite_id,\n" \
"         coalesce(json_extract(t.meta, '$.at_start'), 0) AS\n" \
"           start_unknown,\n" \
"         coalesce(json_extract(s.args, '$.unfinished'), 0) AS unfinished,\n" \
"         s.track_id, s.run_ts, s.run_end_ts\n" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id\n" \
"    CROSS JOIN str n ON n.id = s.name_id\n" \
"    CROSS JOIN str c ON c.id = s.category_id\n" \
"   WHERE t.kind = '" TR_TRACK_GO_TASK "' AND c.s = '" TR_GO_CAT_TASK "';\n" \
"CREATE VIEW go_region AS\n" \
"  SELECT s.id, t.source_id AS source_id, t.ref AS task_id,\n" \
"         json_extract(s.args, '$.goid') AS goid, n.s AS name,\n" \
"         json_extract(s.args, '$.depth') AS depth, s.ts, s.dur,\n" \
"         s.callsite_id,\n" \
"         coalesce(json_extract(s.args, '$.start_unknown'), 0) AS\n" \
"           start_unknown,\n" \
"         coalesce(json_extract(s.args, '$.unfinished'), 0) AS unfinished,\n" \
"         json_extract(s.args, '$.ended_by') AS ended_by,\n" \
"         s.track_id, s.run_ts, s.run_end_ts\n" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id\n" \
"    CROSS JOIN str n ON n.id = s.name_id\n" \
"    CROSS JOIN str c ON c.id = s.category_id\n" \
"   WHERE t.kind = '" TR_TRACK_GO_TASK "' AND c.s = '" TR_GO_CAT_REGION "';\n" \
"CREATE VIEW go_log AS\n" \
"  SELECT s.id, t.source_id AS source_id, t.ref AS task_id,\n" \
"         json_extract(s.args, '$.goid') AS goid, s.ts,\n" \
"         n.s AS category, json_extract(s.args, '$.message') AS message,\n" \
"         s.callsite_id, s.track_id, s.run_ts, s.run_end_ts\n" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id\n" \
"    CROSS JOIN str n ON n.id = s.name_id\n" \
"    CROSS JOIN str c ON c.id = s.category_id\n" \
"   WHERE t.kind = '" TR_TRACK_GO_TASK "' AND c.s = '" TR_GO_CAT_LOG "';\n"

/*
 * Version 10: go_span, the tasks and regions without their JSON (as the
 * go_task and go_region views give them, a row each), is a view of the
 * slices where it was a table (schema versions 4 to 9) that the import
 * wrote a row to for each span: a tenth of a Go trace's import time and a
 * sixth of its store, for readers that go_span_pack serves (steps) but
 * for --all.  Its own text, as versions 3 to 9 make the table first.
 */
#define TR_DB_GO_SPAN_VIEW \
"CREATE VIEW go_span AS\n" \
"  SELECT t.source_id AS source_id, c.s AS kind, s.name_id, s.ts, s.id,\n" \
"         s.dur, t.ref AS task_id,\n" \
"         json_extract(s.args, '$.goid') AS goid,\n" \
"         CASE c.s WHEN '" TR_GO_CAT_REGION "' THEN\n" \
"           json_extract(s.args, '$.depth') END AS depth,\n" \
"         s.callsite_id,\n" \
"         CASE c.s WHEN '" TR_GO_CAT_TASK "' THEN\n" \
"           coalesce(json_extract(t.meta, '$.at_start'), 0)\n" \
"         ELSE coalesce(json_extract(s.args, '$.start_unknown'), 0) END\n" \
"           AS start_unknown,\n" \
"         coalesce(json_extract(s.args, '$.unfinished'), 0) AS unfinished\n" \
"    FROM track t CROSS JOIN slice s ON s.track_id = t.id\n" \
"    CROSS JOIN str c ON c.id = s.category_id\n" \
"   WHERE t.kind = '" TR_TRACK_GO_TASK "'\n" \
"     AND c.s IN ('" TR_GO_CAT_REGION "', '" TR_GO_CAT_TASK "');\n"

const char tr_db_schema[] =
"CREATE TABLE source (\n"
"  id INTEGER PRIMARY KEY,\n"
"  path TEXT NOT NULL,\n"
"  format TEXT NOT NULL,\n"
"  format_version TEXT,\n"
"  hash TEXT NOT NULL UNIQUE,\n"
"  size INTEGER NOT NULL,\n"
"  compression TEXT NOT NULL DEFAULT 'none',\n"
"  host TEXT,\n"
"  clock TEXT NOT NULL DEFAULT 'none',\n"
"  clock_offset INTEGER NOT NULL DEFAULT 0,\n"
"  clock_drift_ppm REAL NOT NULL DEFAULT 0,\n"
"  align_method TEXT,\n"
"  align_confidence REAL,\n"
"  ts_min INTEGER,\n"
"  ts_max INTEGER,\n"
"  rows INTEGER NOT NULL DEFAULT 0,\n"
"  imported_at TEXT NOT NULL,\n"
"  meta TEXT NOT NULL DEFAULT '{}'\n"
");\n"
"CREATE TABLE str (\n"
"  id INTEGER PRIMARY KEY,\n"
"  s TEXT NOT NULL UNIQUE\n"
");\n"
"CREATE TABLE process (\n"
"  id INTEGER PRIMARY KEY,\n"
"  host TEXT NOT NULL DEFAULT '',\n"
"  pid INTEGER NOT NULL,\n"
"  name TEXT,\n"
"  UNIQUE (host, pid)\n"
");\n"
"CREATE TABLE thread (\n"
"  id INTEGER PRIMARY KEY,\n"
"  process_id INTEGER REFERENCES process,\n"
"  tid INTEGER,\n"
"  name TEXT NOT NULL DEFAULT ''\n"
");\n"
"CREATE INDEX thread_key ON thread (process_id, tid, name);\n"
"CREATE TABLE frame (\n"
"  id INTEGER PRIMARY KEY,\n"
"  name TEXT NOT NULL,\n"
"  module TEXT NOT NULL DEFAULT '',\n"
"  file TEXT NOT NULL DEFAULT '',\n"
"  line INTEGER NOT NULL DEFAULT 0,\n"
"  addr INTEGER NOT NULL DEFAULT 0,\n"
"  inlined INTEGER NOT NULL DEFAULT 0,\n"
"  UNIQUE (name, module, file, line, addr, inlined)\n"
");\n"
"CREATE TABLE callsite (\n"
"  id INTEGER PRIMARY KEY,\n"
"  parent_id INTEGER REFERENCES callsite,\n"
"  frame_id INTEGER NOT NULL REFERENCES frame,\n"
"  depth INTEGER NOT NULL\n"
");\n"
"CREATE UNIQUE INDEX callsite_key ON callsite (parent_id, frame_id);\n"
"CREATE TABLE profile (\n"
"  id INTEGER PRIMARY KEY,\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  type TEXT NOT NULL,\n"
"  ts INTEGER,\n"
"  dur INTEGER,\n"
"  period INTEGER,\n"
"  period_type TEXT,\n"
"  period_unit TEXT,\n"
"  sample_types TEXT NOT NULL DEFAULT '[]',\n"
"  default_type TEXT,\n"
"  meta TEXT NOT NULL DEFAULT '{}'\n"
");\n"
"CREATE TABLE sample (\n"
"  id INTEGER PRIMARY KEY,\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  profile_id INTEGER REFERENCES profile,\n"
"  ts INTEGER,\n"
"  thread_id INTEGER REFERENCES thread,\n"
"  cpu INTEGER,\n"
"  callsite_id INTEGER REFERENCES callsite,\n"
"  event_id INTEGER NOT NULL REFERENCES str,\n"
"  value INTEGER NOT NULL,\n"
"  labels TEXT\n"
");\n"
"CREATE INDEX sample_source_ts ON sample (source_id, ts);\n"
"CREATE TABLE track (\n"
"  id INTEGER PRIMARY KEY,\n"
"  source_id INTEGER NOT NULL REFERENCES source,\n"
"  kind TEXT NOT NULL,\n"
"  name TEXT NOT NULL DEFAULT '',\n"
"  ref INTEGER,\n"
"  process_id INTEGER REFERENCES process,\n"
"  thread_id INTEGER REFERENCES thread,\n"
"  parent_id INTEGER REFERENCES track,\n"
"  meta TEXT NOT NULL DEFAULT '{}'\n"
");\n"
"CREATE INDEX track_source ON track (source_id, kind, ref);\n"
TR_DB_SLICE_RUN
TR_DB_SLICE_RUN_INDEXES
TR_DB_SLICE_VIEW
TR_DB_COUNTER_RUN
"\n"
"CREATE VIEW stack AS\n"
"  WITH RECURSIVE up(callsite_id, id, frame_id, depth) AS (\n"
"    SELECT id, id, frame_id, depth FROM callsite\n"
"    UNION ALL\n"
"    SELECT up.callsite_id, c.parent_id, p.frame_id, p.depth\n"
"      FROM up JOIN callsite c ON c.id = up.id\n"
"      JOIN callsite p ON p.id = c.parent_id)\n"
"  SELECT callsite_id, depth, frame_id FROM up;\n"
"CREATE VIEW perf_sample AS\n"
"  SELECT s.id, s.source_id, s.ts, p.pid, t.tid, t.name AS comm, s.cpu,\n"
"         e.s AS event, s.value, s.callsite_id, f.name AS leaf,\n"
"         f.module AS leaf_module\n"
"    FROM sample s JOIN source so ON so.id = s.source_id\n"
"    JOIN str e ON e.id = s.event_id\n"
"    LEFT JOIN thread t ON t.id = s.thread_id\n"
"    LEFT JOIN process p ON p.id = t.process_id\n"
"    LEFT JOIN callsite c ON c.id = s.callsite_id\n"
"    LEFT JOIN frame f ON f.id = c.frame_id\n"
"   WHERE so.format = 'perf-script';\n"
"CREATE VIEW pprof_sample AS\n"
"  SELECT s.id, s.source_id, s.profile_id, pr.type AS profile_type,\n"
"         pr.ts AS profile_ts, e.s AS sample_type, s.value, s.labels,\n"
"         s.callsite_id, f.name AS leaf\n"
"    FROM sample s JOIN profile pr ON pr.id = s.profile_id\n"
"    JOIN str e ON e.id = s.event_id\n"
"    LEFT JOIN callsite c ON c.id = s.callsite_id\n"
"    LEFT JOIN frame f ON f.id = c.frame_id;\n"
"CREATE VIEW go_goroutine AS\n"
"  SELECT t.id AS track_id, t.source_id, t.ref AS goid, t.name,\n"
"         json_extract(t.meta, '$.created') AS created,\n"
"         json_extract(t.meta, '$.ended') AS ended,\n"
"         json_extract(t.meta, '$.creator') AS creator,\n"
"         json_extract(t.meta, '$.callsite_id') AS callsite_id\n"
"    FROM track t WHERE t.kind = '" TR_TRACK_GOROUTINE "';\n"
TR_DB_GO_VIEWS
TR_DB_GO_ANNOTATION_VIEWS
TR_DB_GO_SPAN_VIEW
TR_DB_GPU_VIEWS;

const char *
tr_db_default_path(const char *opt)
{
	const char	*env;

	if (opt != NULL && *opt != '\0')
		return (opt);
	if ((env = getenv("TRACE_DB")) != NULL && *env != '\0')
		return (env);
	return (TR_DB_DEFAULT);
}

/*
 * SQLite says "disk I/O error" or "unable to open database file" without
 * the reason: give the system's (": File too large"), or "" when there is
 * none.
 */
static const char *
sys_reason(struct tr_db *db, char *buf, size_t len)
{
	int	rc = sqlite3_errcode(db->sq) & 0xff, e;

	buf[0] = '\0';
	if ((rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN) &&
	    (e = sqlite3_system_errno(db->sq)) != 0)
		snprintf(buf, len, ": %s", strerror(e));
	return (buf);
}

int
tr_db_error(struct tr_db *db, struct tr_error *err, const char *what)
{
	char	why[128];

	return (tr_error_set_line(err, TR_EDB, db->path, 0, 0, "%s: %s%s",
	    what, sqlite3_errmsg(db->sq), sys_reason(db, why, sizeof why)));
}

int
tr_db_exec(struct tr_db *db, const char *sql, struct tr_error *err)
{
	char	*msg = NULL, why[128];

	if (sqlite3_exec(db->sq, sql, NULL, NULL, &msg) != SQLITE_OK) {
		tr_error_set_line(err, TR_EDB, db->path, 0, 0, "%s%s",
		    msg ? msg : sqlite3_errmsg(db->sq),
		    sys_reason(db, why, sizeof why));
		sqlite3_free(msg);
		return (-1);
	}
	return (0);
}

sqlite3_stmt *
tr_db_prepare(struct tr_db *db, const char *sql, struct tr_error *err)
{
	sqlite3_stmt	*st = NULL;

	if (sqlite3_prepare_v2(db->sq, sql, -1, &st, NULL) != SQLITE_OK) {
		tr_db_error(db, err, "cannot prepare statement");
		return (NULL);
	}
	return (st);
}

int
tr_db_step_int(struct tr_db *db, sqlite3_stmt *st, int64_t *val,
    struct tr_error *err)
{
	int	rc = sqlite3_step(st), r = 0;

	*val = 0;
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*val = sqlite3_column_int64(st, 0);
		r = 1;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = tr_db_error(db, err, "cannot read store");
	sqlite3_reset(st);
	return (r);
}

int
tr_db_int_arg(struct tr_db *db, const char *sql, const char *text,
    int64_t arg, int64_t *val, struct tr_error *err)
{
	sqlite3_stmt	*st;
	int		 r;

	*val = 0;
	if ((st = tr_db_prepare(db, sql, err)) == NULL)
		return (-1);
	if (text != NULL)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, arg);
	r = tr_db_step_int(db, st, val, err);
	sqlite3_finalize(st);
	return (r);
}

int
tr_db_int(struct tr_db *db, const char *sql, int64_t *val,
    struct tr_error *err)
{
	return (tr_db_int_arg(db, sql, NULL, 0, val, err) < 0 ? -1 : 0);
}

int
tr_db_str_id(struct tr_db *db, const char *s, int64_t *id,
    struct tr_error *err)
{
	return (tr_db_int_arg(db, "SELECT id FROM str WHERE s = ?1", s, 0, id,
	    err));
}

int
tr_db_read_begin(struct tr_db *db, int *began, struct tr_error *err)
{
	*began = 0;
	if (!sqlite3_get_autocommit(db->sq))
		return (0);
	if (tr_db_exec(db, "BEGIN", err) != 0)
		return (-1);
	*began = 1;
	return (0);
}

void
tr_db_read_end(struct tr_db *db, int began)
{
	if (began)
		tr_db_exec(db, "COMMIT", NULL);
}

/*
 * The schema version and the number of objects in the schema, read in one
 * statement so that both come from the same snapshot.  Returns 0, or -1
 * when SQLite cannot read the file as a database (sqlite3_errmsg() says
 * why).
 */
static int
db_state(struct tr_db *db, int64_t *version, int64_t *objects)
{
	sqlite3_stmt	*st = NULL;
	int		 rc;

	*version = *objects = 0;
	if (sqlite3_prepare_v2(db->sq, "SELECT (SELECT user_version FROM "
	    "pragma_user_version), (SELECT count(*) FROM sqlite_master)", -1,
	    &st, NULL) != SQLITE_OK)
		return (-1);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int64(st, 0);
		*objects = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return (rc == SQLITE_ROW ? 0 : -1);
}

/*
 * A database with user_version 0 is ours to create only when it is empty:
 * anything else is some other program's SQLite file.
 */
static int
foreign(struct tr_db *db, int64_t objects, struct tr_error *err)
{
	return (tr_error_set_line(err, TR_EDATA, db->path, 0, 0,
	    "not a tracekit store (an SQLite database with %lld schema "
	    "objects of its own and user_version 0)", (long long)objects));
}

/*
 * A store in WAL mode needs its -shm file even to be read, and SQLite
 * cannot create it in a directory we may not write (a store shared
 * read-only, another user's).  Such a store has no writer: read it as
 * immutable.  Returns 0 with db->sq reopened, or -1 leaving it as it was.
 */
static int
reopen_immutable(struct tr_db *db)
{
	struct tr_buf	 uri;
	sqlite3		*sq = NULL;
	const char	*p;
	int		 rc = sqlite3_errcode(db->sq) & 0xff;

	if (rc != SQLITE_CANTOPEN && rc != SQLITE_READONLY)
		return (-1);
	tr_buf_init(&uri);
	tr_buf_adds(&uri, "file:");
	for (p = db->path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			tr_buf_printf(&uri, "%%%02X", (unsigned char)*p);
		else
			tr_buf_addc(&uri, *p);
	}
	tr_buf_adds(&uri, "?immutable=1");
	rc = sqlite3_open_v2(uri.data, &sq, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	tr_buf_release(&uri);
	if (rc != SQLITE_OK) {
		sqlite3_close_v2(sq);
		return (-1);
	}
	sqlite3_close_v2(db->sq);
	db->sq = sq;
	sqlite3_extended_result_codes(db->sq, 1);
	return (0);
}

/*
 * Version 2: slices in runs (see TR_DB_SLICE_VIEW).  Each track's slices,
 * in time order, go TR_SLICE_RUN to a run, and are numbered again from 1
 * so that a run's ids follow each other.
 */
static const char migrate_v2[] =
TR_DB_SLICE_RUN
"INSERT INTO slice_run (id, source_id, track_id, ts, end_ts, n, slices)\n"
"  WITH c AS (\n"
"    SELECT s.*, (row_number() OVER (PARTITION BY track_id\n"
"             ORDER BY ts, id) - 1) / " TR_DB_STRINGIFY(TR_SLICE_RUN)
" AS chunk\n"
"      FROM slice s),\n"
"  m AS (\n"
"    SELECT c.*, min(ts) OVER (PARTITION BY track_id, chunk) AS t0\n"
"      FROM c ORDER BY track_id, chunk, ts, id),\n"
"  g AS (\n"
"    SELECT source_id, track_id, chunk, min(t0) AS t0,\n"
"           max(ts + dur) AS e, count(*) AS n,\n"
"           '[' || group_concat(json_array(ts - t0, dur, name_id,\n"
"               category_id, callsite_id, json(args)), ',') || ']' AS js\n"
"      FROM m GROUP BY track_id, chunk)\n"
"  SELECT sum(n) OVER (ORDER BY track_id, chunk) - n + 1, source_id,\n"
"         track_id, t0, e, n, js FROM g;\n"
"DROP TABLE slice;\n"
"DROP VIEW go_state;\n"
"DROP VIEW go_gc;\n"
"DROP VIEW go_stw;\n"
TR_DB_SLICE_RUN_INDEXES
TR_DB_SLICE_VIEW
TR_DB_GO_VIEWS;

/*
 * Version 3: the Go annotation views; then the derived tables, computed
 * from the slices already stored (migrate()).  Version 4: more derived
 * tables (tr_derived_sched_schema), all computed again.  To add to
 * version 4 (until it ships): new tables go in a derived schema executed
 * by both the new store's step and the "version == 3" step of migrate();
 * check-db's test_migrate_v3 and test_migrate_v4 compare a migrated
 * store's schema with a new one's.
 */
static const char migrate_v3[] =
TR_DB_GO_ANNOTATION_VIEWS;

/*
 * Version 8: the counter table makes way for counter_run and its view
 * (the views over it go first, and come back over the view).
 */
static const char migrate_v8_pre[] =
"DROP VIEW gpu_metric;\n"
"DROP VIEW gpu_process;\n"
"DROP INDEX counter_track_ts;\n"
"ALTER TABLE counter RENAME TO counter_v7;\n"
TR_DB_COUNTER_RUN;
static const char migrate_v8_post[] =
"DROP TABLE counter_v7;\n"
TR_DB_GPU_VIEWS;

/*
 * Version 9: go_span without its key (a table with a rowid, in slice id
 * order, written as the import goes) and go_span_pack with the spans'
 * goroutines.  Both made again from their schema, so that a migrated
 * store's schema is a new one's word for word; go_span's rows are
 * copied, the pack is made again from them (pack_all()) unless a later
 * step computes every derived table again.
 */
static const char migrate_v9_span_pre[] =
"ALTER TABLE go_span RENAME TO go_span_v8;\n";
static const char migrate_v9_span_post[] =
"INSERT INTO go_span SELECT * FROM go_span_v8 ORDER BY id;\n"
"DROP TABLE go_span_v8;\n";

static int
migrate_v9_span(struct tr_db *db, struct tr_error *err)
{
	if (tr_db_exec(db, migrate_v9_span_pre, err) != 0 ||
	    tr_db_exec(db, tr_derived_schema_v4, err) != 0 ||
	    tr_db_exec(db, migrate_v9_span_post, err) != 0)
		return (-1);
	return (0);
}

/*
 * Version 10: the views over the Go trace's slices made again (their
 * source_id is the track's), and go_span, a table since version 4 (the
 * steps above write it, and pack from it), a view.
 */
static const char migrate_v10[] =
"DROP VIEW go_state;\n"
"DROP VIEW go_gc;\n"
"DROP VIEW go_stw;\n"
"DROP VIEW go_task;\n"
"DROP VIEW go_region;\n"
"DROP VIEW go_log;\n"
"DROP TABLE go_span;\n"
TR_DB_GO_VIEWS
TR_DB_GO_ANNOTATION_VIEWS
TR_DB_GO_SPAN_VIEW;

/* go_span_pack for every Go trace source (the migrations to 6 and 9). */
static int
pack_all(struct tr_db *db, struct tr_error *err)
{
	int64_t	*ids;
	int	 n, i, r = 0;

	if ((n = tr_derived_sources(db, &ids, err)) < 0)
		return (-1);
	for (i = 0; i < n && r == 0; i++)
		r = tr_derived_pack_rebuild(db, ids[i], err);
	free(ids);
	return (r);
}

/* Bring an older schema up to TR_DB_VERSION, one step at a time. */
static int
migrate(struct tr_db *db, struct tr_error *err)
{
	int64_t	version, objects, from;
	int	packed = 0, repack = 0;

	if (tr_db_exec(db, "BEGIN IMMEDIATE", err) != 0)
		return (-1);
	/* Another process may have created the schema while we waited. */
	if (db_state(db, &version, &objects) != 0) {
		tr_db_error(db, err, "cannot read schema version");
		goto fail;
	}
	if (version == 0 && objects > 0) {
		foreign(db, objects, err);
		goto fail;
	}
	/* A new store gets the whole schema; an older one, its steps. */
	if (version == 0) {
		if (tr_db_exec(db, tr_db_schema, err) != 0 ||
		    tr_db_exec(db, tr_derived_schema, err) != 0 ||
		    tr_db_exec(db, tr_derived_sched_schema, err) != 0 ||
		    tr_db_exec(db, tr_derived_stack_schema, err) != 0 ||
		    tr_db_exec(db, tr_derived_pack_schema, err) != 0 ||
		    tr_db_exec(db, tr_derived_sched_schema_v7, err) != 0 ||
		    tr_db_exec(db, tr_derived_fold_schema, err) != 0)
			goto fail;
		version = TR_DB_VERSION;
	}
	if (version == 1 && tr_db_exec(db, migrate_v2, err) != 0) {
		char	why[sizeof err->msg];

		snprintf(why, sizeof why, "%s", err->msg);
		tr_error_init(err);
		tr_error_set_line(err, TR_EDB, db->path, 0, 0, "cannot migrate "
		    "the store from schema version 1 to 2: %s", why);
		goto fail;
	}
	if (version == 1)
		version = 2;
	/*
	 * Version 3: the derived tables of Go traces (store/derived.h);
	 * version 4 adds to them (and go_bin.runnable_peak is exact).  All
	 * computed from the slices already stored once the tables of
	 * version 4 exist.
	 */
	from = version;
	if (version == 2 && (tr_db_exec(db, migrate_v3, err) != 0 ||
	    tr_db_exec(db, tr_derived_schema, err) != 0))
		goto mfail;
	if (version == 2)
		version = 3;
	if (version == 3 && (tr_db_exec(db, tr_derived_sched_schema,
	    err) != 0 || tr_db_exec(db, tr_derived_schema_v4, err) != 0 ||
	    tr_db_exec(db, tr_derived_pack_schema, err) != 0 ||
	    tr_db_exec(db, tr_derived_sched_schema_v7, err) != 0 ||
	    tr_derived_rebuild_all(db, err) != 0))
		goto mfail;
	/*
	 * The rebuild packed the spans as it wrote them (version 6) and
	 * wrote the rows by second (version 7).
	 */
	if (version == 3) {
		version = 4;
		packed = 1;
	} else if (version >= 4 && version <= 8) {
		/*
		 * Version 9, first: the steps below write go_span and
		 * go_span_pack in their new form.  (A store from version 3
		 * or before has them so from the step above.)
		 */
		if (migrate_v9_span(db, err) != 0 || (version >= 6 &&
		    (tr_db_exec(db, "DROP TABLE go_span_pack", err) != 0 ||
		    tr_db_exec(db, tr_derived_pack_schema, err) != 0)))
			goto mfail;
		/* (Versions 4 and 5 have no pack: the step to 6 packs.) */
		repack = version >= 6;
	}
	/* Version 5: the per-stack aggregates, summed from the samples. */
	if (version == 4 && (tr_db_exec(db, tr_derived_stack_schema,
	    err) != 0 || tr_derived_stack_rebuild(db, -1, -1, err) != 0))
		goto mfail;
	if (version == 4)
		version = 5;
	/* Version 6: the packed steps, from go_span. */
	if (version == 5 && !packed && (tr_db_exec(db, tr_derived_pack_schema,
	    err) != 0 || pack_all(db, err) != 0))
		goto mfail;
	if (version == 5)
		version = 6;
	/*
	 * Version 7: go_mutex_waker by second and go_blocked_bin, computed
	 * again from the states with the other derived tables.
	 */
	if (version == 6 && !packed && (tr_db_exec(db, "DROP TABLE "
	    "go_mutex_waker", err) != 0 || tr_db_exec(db,
	    tr_derived_sched_schema_v7, err) != 0 ||
	    tr_derived_rebuild_all(db, err) != 0))
		goto mfail;
	if (version == 6) {
		version = 7;
		repack = 0;	/* the rebuild packed the spans again */
	}
	/* Version 8: counters in runs (store/counter.h). */
	if (version == 7 && (tr_db_exec(db, migrate_v8_pre, err) != 0 ||
	    tr_counter_migrate(db, err) != 0 ||
	    tr_db_exec(db, migrate_v8_post, err) != 0))
		goto mfail;
	if (version == 7)
		version = 8;
	/* Version 9: the pack made again (go_span is, above). */
	if (version == 8 && repack && pack_all(db, err) != 0)
		goto mfail;
	if (version == 8)
		version = 9;
	/* Version 10: go_span a view, the views' source_id the track's. */
	if (version == 9 && tr_db_exec(db, migrate_v10, err) != 0)
		goto mfail;
	if (version == 9)
		version = 10;
	/* Version 11: the folds, from the per-stack aggregates. */
	if (version == 10 && (tr_db_exec(db, tr_derived_fold_schema,
	    err) != 0 || tr_derived_fold_rebuild(db, -1, err) != 0))
		goto mfail;
	if (tr_db_exec(db, "PRAGMA user_version = "
	    TR_DB_STRINGIFY(TR_DB_VERSION), err) != 0)
		goto fail;
	return (tr_db_exec(db, "COMMIT", err));
mfail:
	{
		char	why[sizeof err->msg];

		snprintf(why, sizeof why, "%s", err->msg);
		tr_error_init(err);
		tr_error_set_line(err, TR_EDB, db->path, 0, 0, "cannot migrate "
		    "the store from schema version %lld to %lld: %s",
		    (long long)from, (long long)from + 1, why);
	}
fail:
	tr_db_exec(db, "ROLLBACK", NULL);
	return (-1);
}

/*
 * The file the open store is, so that tr_db_replaced() can tell when the
 * path names another one (or none) later.  The schema is written by now,
 * so the file exists, unless the store is SQLite's ":memory:" (tests).
 */
static void
remember_file(struct tr_db *db)
{
	struct stat	st;

	db->watched = stat(db->path, &st) == 0;
	if (db->watched) {
		db->dev = st.st_dev;
		db->ino = st.st_ino;
	}
}

/*
 * Switching a file to WAL takes its exclusive lock, and SQLite does not
 * wait for that lock (its busy handler is not called, as connections that
 * each hold a shared lock would wait for each other): when several imports
 * create one store at once, all but one got "database is locked" (40 of
 * 100 rounds of tests/reliability/new-store-wal).  Try again, as long as
 * the busy timeout.
 */
#define WAL_TRIES	(60000 / 2)	/* of 2 ms */

static int
set_wal(struct tr_db *db, struct tr_error *err)
{
	int	i, rc;

	for (i = 0;; i++) {
		rc = sqlite3_exec(db->sq, "PRAGMA journal_mode = WAL", NULL,
		    NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY || i == WAL_TRIES)
			break;
		sqlite3_sleep(2);
	}
	if (rc != SQLITE_OK)
		return (tr_error_set_line(err, TR_EDB, db->path, 0, 0, "%s",
		    sqlite3_errmsg(db->sq)));
	return (0);
}

/*
 * The temporary files of tr_db_create_whole(): ".NAME.incomplete-XXXXXX"
 * beside the store NAME, and SQLite's "-wal" and "-journal" of it.
 */
#define WHOLE_MARK	".incomplete-"
#define WHOLE_X		6	/* the random letters that end the name */

/*
 * Whether file name 'name' (no directory) is such a temporary file:
 * 1 for the file itself, 2 for one of SQLite's beside it, else 0.
 * 'store', when not NULL, gets the store's name (of 'len' bytes at most).
 */
static int
whole_name(const char *name, char *store, size_t len)
{
	const char	*m, *tail;
	size_t		 n;

	if (name[0] != '.' || (m = strstr(name + 1, WHOLE_MARK)) == NULL ||
	    m == name + 1)
		return (0);
	tail = m + strlen(WHOLE_MARK);
	if (strlen(tail) < WHOLE_X)
		return (0);
	if (store != NULL) {
		n = (size_t)(m - name - 1);
		snprintf(store, len, "%.*s", (int)n, name + 1);
	}
	if (tail[WHOLE_X] == '\0')
		return (1);
	return (strcmp(tail + WHOLE_X, "-wal") == 0 ||
	    strcmp(tail + WHOLE_X, "-journal") == 0 ? 2 : 0);
}

/* The file name part of 'path' (borrowed from it). */
static const char *
base_name(const char *path)
{
	const char	*slash = strrchr(path, '/');

	return (slash != NULL ? slash + 1 : path);
}

/* Open db->path into 'db' (its sq NULL): 0, or -1 with 'err' set. */
static int
db_open(struct tr_db *db, int flags, struct tr_error *err)
{
	static int	 configured;
	const char	*path = db->path;
	const char	*file = db->file != NULL ? db->file : db->path;
	struct stat	 st;
	int64_t		 version = 0, objects = 0;
	int		 oflags, rc;
	char		 store[256];

	db->flags = flags;
	db->created = 0;
	/*
	 * What a killed trace-import was making is no store: without a
	 * journal it may hold part of an input, or be no database at all.
	 */
	if (!(flags & TR_DB_WHOLE) &&
	    whole_name(base_name(path), store, sizeof store) == 1) {
		tr_error_set_line(err, TR_EDATA, path, 0, 0, "not a tracekit "
		    "store (the temporary file of a trace-import making store "
		    "'%s' that did not finish; the next import into that store "
		    "removes it)", store);
		goto fail;
	}
	memset(&st, 0, sizeof st);
	if (flags & TR_DB_WHOLE)
		db->created = 1;
	else if (stat(path, &st) != 0) {
		if (errno != ENOENT || (flags & (TR_DB_READONLY |
		    TR_DB_NOCREATE))) {
			tr_error_set_line(err, TR_EIO, path, 0, 0,
			    "cannot open store: %s", strerror(errno));
			goto fail;
		}
		db->created = 1;
	}
	/*
	 * Each connection lives in one thread: no per-call mutexes, and no
	 * global allocation statistics (their mutex cost 7% of an import).
	 */
	if (!configured) {
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		configured = 1;
	}
	oflags = (flags & TR_DB_READONLY) ? SQLITE_OPEN_READONLY :
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	oflags |= SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(file, &db->sq, oflags, NULL) != SQLITE_OK) {
		tr_db_error(db, err, "cannot open store");
		goto fail;
	}
	sqlite3_busy_timeout(db->sq, 60000);
	sqlite3_extended_result_codes(db->sq, 1);
	/* Nothing is written to the file before these checks pass. */
	if (db_state(db, &version, &objects) != 0 &&
	    !((flags & TR_DB_READONLY) && reopen_immutable(db) == 0 &&
	    db_state(db, &version, &objects) == 0)) {
		rc = sqlite3_errcode(db->sq) & 0xff;
		if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
			tr_error_set_line(err, TR_EDATA, path, 0, 0,
			    "not a tracekit store (%s)",
			    sqlite3_errmsg(db->sq));
		else if (rc == SQLITE_READONLY && (flags & TR_DB_READONLY))
			/* In WAL mode, readers too use the -shm file. */
			tr_error_set_line(err, TR_EIO, path, 0, 0,
			    "cannot open store: %s (reading a store in WAL "
			    "mode needs '%s-shm': write access to its "
			    "directory, or that file present)",
			    sqlite3_errmsg(db->sq), path);
		else if (rc == SQLITE_READONLY)
			tr_error_set_line(err, TR_EIO, path, 0, 0,
			    "cannot open store: %s (importing needs write "
			    "access to it and to its directory, for '%s-wal' "
			    "and '%s-shm')", sqlite3_errmsg(db->sq), path,
			    path);
		else
			tr_db_error(db, err, "cannot open store");
		goto fail;
	}
	if (version > TR_DB_VERSION) {
		tr_error_set_line(err, TR_EDATA, path, 0, 0,
		    "store schema version %lld is newer than this tracekit's "
		    "(%d)", (long long)version, TR_DB_VERSION);
		goto fail;
	}
	if (version == 0 && objects > 0) {
		foreign(db, objects, err);
		goto fail;
	}
	/*
	 * Only an import makes a store: an empty file (or an empty SQLite
	 * database) given to a tool that reads or aligns one is not one,
	 * and stays as it was.
	 */
	if (version == 0 && (flags & (TR_DB_READONLY | TR_DB_NOCREATE))) {
		tr_error_set_line(err, TR_EDATA, path, 0, 0,
		    "not a tracekit store (an empty %s)", st.st_size == 0 ?
		    "file" : "database");
		goto fail;
	}
	if (flags & TR_DB_READONLY) {
		if (version < TR_DB_VERSION) {
			tr_error_set_line(err, TR_EDATA, path, 0, 0,
			    "store schema version %lld is older than %d; run "
			    "trace-import once to migrate it",
			    (long long)version, TR_DB_VERSION);
			goto fail;
		}
		remember_file(db);
		return (0);
	}
	/*
	 * A new store's pages are 32 kB, set before its first table: a
	 * slice or counter run (~10 kB of JSON) then shares a page with
	 * others, not a leaf and overflow pages, and SQLite writes more at
	 * a call.  Against 4 kB, imports took 10-20% less wall time (Go
	 * traces 1.26 -> 1.04 s and 4.29 -> 3.80 s, an nvidia-smi log 2.80
	 * -> 2.17 s, a perf script 1.09 -> 0.91 s) for 2-4% more store
	 * (the Go traces) or 11% less (the log), and a scan of the slice
	 * view 1.50 -> 0.80 s; 8 and 16 kB were slower and larger, 64 kB
	 * made the log's import slower (3.74 s).  bench/README,
	 * 2026-12-06.  A store that exists keeps its pages.
	 */
	if (version == 0 &&
	    tr_db_exec(db, "PRAGMA page_size = 32768", err) != 0)
		goto fail;
	/*
	 * WAL lets readers go on while an import writes.  A 16 MB page
	 * cache: 32 MB took about the same CPU time on a 109 MB perf script,
	 * and the writer's caches need the memory more (trace-import stays
	 * within 100 MB).  A store written whole has no reader and no other
	 * writer until tr_db_install() puts it in place: its file is locked
	 * for the connection's life, its journal (for ROLLBACK; a page added
	 * to a file is not journaled) in memory, and it is synced as it is
	 * written, by a thread of its own (tr_db_writeback()), and once more
	 * at the end.
	 */
	if ((flags & TR_DB_WHOLE) ? tr_db_exec(db, "PRAGMA locking_mode = "
	    "EXCLUSIVE", err) != 0 || tr_db_exec(db, "PRAGMA journal_mode = "
	    "MEMORY", err) != 0 || tr_db_exec(db, "PRAGMA synchronous = OFF",
	    err) != 0 : set_wal(db, err) != 0 ||
	    tr_db_exec(db, "PRAGMA synchronous = NORMAL", err) != 0)
		goto fail;
	if (tr_db_exec(db, "PRAGMA foreign_keys = OFF", err) != 0 ||
	    tr_db_exec(db, "PRAGMA cache_size = -16384", err) != 0)
		goto fail;
	if (version < TR_DB_VERSION && migrate(db, err) != 0)
		goto fail;
	if (!(flags & TR_DB_WHOLE))
		remember_file(db);
	return (0);
fail:
	return (-1);
}

struct tr_db *
tr_db_open(const char *path, int flags, struct tr_error *err)
{
	struct tr_db	*db = tr_xcalloc(1, sizeof *db);

	db->path = tr_xstrdup(path);
	if (db_open(db, flags, err) != 0) {
		tr_db_free(db);
		return (NULL);
	}
	return (db);
}

int
tr_db_replaced(const struct tr_db *db)
{
	struct stat	st;

	if (!db->watched)
		return (0);
	if (stat(db->path, &st) != 0)
		return (1);
	return (st.st_dev != db->dev || st.st_ino != db->ino);
}

int
tr_db_reopen(struct tr_db *db, struct tr_error *err)
{
	if (db->sq != NULL)
		sqlite3_close_v2(db->sq);
	db->sq = NULL;
	return (db_open(db, db->flags, err));
}

static int	syncer_stop(struct tr_db *);

void
tr_db_free(struct tr_db *db)
{
	if (db == NULL)
		return;
	(void)syncer_stop(db);
	if (db->sq != NULL)
		sqlite3_close_v2(db->sq);
	if (db->file != NULL) {
		/* SQLite has closed it: nothing of it is in use. */
		unlink(db->file);
		close(db->fd);
		free(db->file);
	}
	free(db->path);
	free(db);
}

/* --- a new store written whole ------------------------------------- */

/* The directory of 'path', "." for none (owned by the caller). */
static char *
dir_name(const char *path)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		return (tr_xstrdup("."));
	if (slash == path)
		return (tr_xstrdup("/"));
	return (tr_xasprintf("%.*s", (int)(slash - path), path));
}

/*
 * Make the temporary file of a store at 'path': created exclusively, with
 * the mode SQLite gives a new store (0644 less the umask), and flock()ed.
 * Returns its descriptor with *file its name, or -1.
 */
static int
whole_file(const char *path, char **file)
{
	static const char	 letters[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static uint64_t		 calls;
	struct timespec		 ts;
	uint64_t		 seed[3], h;
	char			*dir, x[WHOLE_X + 1];
	int			 fd, i, tries;

	dir = dir_name(path);
	for (tries = 0; tries < 100; tries++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		seed[0] = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		seed[1] = (uint64_t)getpid();
		seed[2] = calls++;
		h = tr_hash64(seed, sizeof seed);
		for (i = 0; i < WHOLE_X; i++, h /= sizeof letters - 1)
			x[i] = letters[h % (sizeof letters - 1)];
		x[WHOLE_X] = '\0';
		*file = tr_xasprintf("%s/.%s" WHOLE_MARK "%s", dir,
		    base_name(path), x);
		fd = open(*file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
		if (fd >= 0) {
			/* A new file: nobody else can hold its lock. */
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				free(dir);
				return (fd);
			}
			close(fd);
			unlink(*file);
		}
		free(*file);
		*file = NULL;
		if (fd < 0 && errno != EEXIST)
			break;
	}
	free(dir);
	return (-1);
}

int
tr_db_create_whole(const char *path, struct tr_db **dbp,
    struct tr_error *err)
{
	struct tr_db	*db;
	struct stat	 st;
	char		*file;
	int		 fd;

	*dbp = NULL;
	/* tr_db_open() refuses a store named as a temporary file. */
	if (whole_name(base_name(path), NULL, 0) == 1 ||
	    stat(path, &st) == 0 || errno != ENOENT ||
	    (fd = whole_file(path, &file)) < 0)
		return (1);
	db = tr_xcalloc(1, sizeof *db);
	db->path = tr_xstrdup(path);
	db->file = file;
	db->fd = fd;
	if (db_open(db, TR_DB_WHOLE, err) != 0) {
		tr_db_free(db);
		return (-1);
	}
	*dbp = db;
	return (0);
}

/*
 * The syncer of a store written whole: a thread that fdatasync()s the
 * file while SQLite writes on.  On this project's VMs an fsync() costs
 * about 0.7 ms per MB written since the last, whatever had been handed
 * to the disk before (sync_file_range(2) saved nothing), so the one at
 * the end of a Go trace's import was 0.07 s and 0.25 s of wall time
 * (stores of 76 and 347 MB).  The thread sleeps in the kernel while the
 * disk writes; the fsync() at the end finds the last few MB.  An error
 * is kept for tr_db_install(): the kernel reports it once per file
 * descriptor.
 */
struct tr_db_syncer {
	pthread_t	thr;
	pthread_mutex_t	mu;
	pthread_cond_t	cv;
	int		fd;
	int		want, quit;	/* under mu */
	int		error;		/* errno of a failed sync, under mu */
};

static void *
syncer_main(void *arg)
{
	struct tr_db_syncer	*y = arg;
	int			 e;

	pthread_mutex_lock(&y->mu);
	for (;;) {
		while (!y->want && !y->quit)
			pthread_cond_wait(&y->cv, &y->mu);
		if (y->quit)
			break;
		y->want = 0;
		pthread_mutex_unlock(&y->mu);
		e = fdatasync(y->fd) == 0 ? 0 : errno;
		pthread_mutex_lock(&y->mu);
		if (e != 0 && y->error == 0)
			y->error = e;
	}
	pthread_mutex_unlock(&y->mu);
	return (NULL);
}

void
tr_db_writeback(struct tr_db *db)
{
	struct tr_db_syncer	*y;

	if (!(db->flags & TR_DB_WHOLE) || db->fd < 0)
		return;
	if ((y = db->syncer) == NULL) {
		y = tr_xcalloc(1, sizeof *y);
		y->fd = db->fd;
		pthread_mutex_init(&y->mu, NULL);
		pthread_cond_init(&y->cv, NULL);
		if (pthread_create(&y->thr, NULL, syncer_main, y) != 0) {
			/* Then it is all synced at the end, as before. */
			pthread_mutex_destroy(&y->mu);
			pthread_cond_destroy(&y->cv);
			free(y);
			return;
		}
		db->syncer = y;
	}
	pthread_mutex_lock(&y->mu);
	y->want = 1;
	pthread_cond_signal(&y->cv);
	pthread_mutex_unlock(&y->mu);
}

/* Stop the syncer: the errno of a sync of it that failed, or 0. */
static int
syncer_stop(struct tr_db *db)
{
	struct tr_db_syncer	*y = db->syncer;
	int			 e;

	if (y == NULL)
		return (0);
	pthread_mutex_lock(&y->mu);
	y->quit = 1;
	pthread_cond_signal(&y->cv);
	pthread_mutex_unlock(&y->mu);
	pthread_join(y->thr, NULL);
	e = y->error;
	pthread_mutex_destroy(&y->mu);
	pthread_cond_destroy(&y->cv);
	free(y);
	db->syncer = NULL;
	return (e);
}

/* fsync() the directory of 'path'; as SQLite, ignore what fails. */
static void
sync_dir(const char *path)
{
	char	*dir = dir_name(path);
	int	 fd;

	if ((fd = open(dir, O_RDONLY | O_CLOEXEC)) >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int
tr_db_install(struct tr_db *db, struct tr_error *err)
{
	int	r = -1, e;

	if ((e = syncer_stop(db)) != 0) {
		tr_error_set_line(err, TR_EIO, db->path, 0, 0, "cannot write "
		    "to store: %s", strerror(e));
		goto out;
	}
	/*
	 * Into WAL mode as tr_db_open() makes it, which sets the header of
	 * the file (in exclusive locking mode no -shm is made, and closing
	 * removes the empty -wal).
	 */
	if (set_wal(db, err) != 0)
		goto out;
	if (sqlite3_close(db->sq) != SQLITE_OK) {
		tr_db_error(db, err, "cannot write to store");
		goto out;
	}
	db->sq = NULL;
	if (fsync(db->fd) != 0) {
		tr_error_set_line(err, TR_EIO, db->path, 0, 0, "cannot write "
		    "to store: %s", strerror(errno));
		goto out;
	}
	/* link(), unlike rename(), never replaces a store made meanwhile. */
	if (link(db->file, db->path) != 0) {
		r = 1;
		goto out;
	}
	/* In place: sync that before the temporary name goes. */
	sync_dir(db->path);
	r = 0;
out:
	tr_db_free(db);
	return (r);
}

void
tr_db_remove_stale(const char *path)
{
	struct dirent	*de;
	struct stat	 st, fst;
	DIR		*d;
	char		*dir, *p, *q, store[256];
	size_t		 n;
	int		 fd, kind;

	dir = dir_name(path);
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if ((kind = whole_name(de->d_name, store, sizeof store)) == 0 ||
		    strcmp(store, base_name(path)) != 0)
			continue;
		p = tr_xasprintf("%s/%s", dir, de->d_name);
		if (kind == 2) {
			/* SQLite's file beside a temporary file gone. */
			n = strlen(de->d_name) - strlen(strrchr(de->d_name,
			    '-'));
			q = tr_xasprintf("%s/%.*s", dir, (int)n, de->d_name);
			if (lstat(q, &st) != 0 && errno == ENOENT)
				unlink(p);
			free(q);
			free(p);
			continue;
		}
		/*
		 * Its lock free: its process is gone.  Remove the name that
		 * was locked, which after a crash between link() and
		 * unlink() is a second name of the store: only the name goes.
		 */
		fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
		    fstat(fd, &fst) == 0 && lstat(p, &st) == 0 &&
		    st.st_dev == fst.st_dev && st.st_ino == fst.st_ino) {
			unlink(p);
			q = tr_xasprintf("%s-wal", p);
			unlink(q);
			free(q);
			q = tr_xasprintf("%s-journal", p);
			unlink(q);
			free(q);
		}
		if (fd >= 0)
			close(fd);
		free(p);
	}
	closedir(d);
	free(dir);
}
