/*
 * Unit tests for db (opening, creating, refusing, the views) and for the
 * import transaction of importer.c, driven by small fake importers.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <sqlite3.h>
#include <zlib.h>

#include "store/db.h"
#include "store/derived.h"
#include "base/error.h"
#include "import/importer.h"
#include "store/writer.h"
#include "base/input.h"
#include "base/out.h"
#include "query/query.h"
#include "base/util.h"

static char	tmpdir[512];

/*
 * Under $TMPDIR, not the build tree: Check skips the teardown of a test
 * that fails, which left its directory behind.
 */
static void
setup_tmp(void)
{
	const char	*t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof tmpdir, "%s/check-db.XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
teardown_tmp(void)
{
	char	cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmpdir);
}

static char *
tmp_path(const char *name)
{
	return (tr_xasprintf("%s/%s", tmpdir, name));
}

static void
write_file(const char *path, const void *data, size_t len)
{
	FILE	*f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole file, owned by the caller; NULL when it does not exist. */
static char *
read_file(const char *path, size_t *len)
{
	FILE	*f = fopen(path, "rb");
	char	*p;
	long	 n;

	*len = 0;
	if (f == NULL)
		return (NULL);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	p = tr_xmalloc((size_t)n + 1);
	ck_assert_uint_eq(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return (p);
}

static void
assert_same_file(const char *path, const char *before, size_t blen)
{
	size_t	 alen;
	char	*after = read_file(path, &alen);

	ck_assert_ptr_nonnull(after);
	ck_assert_uint_eq(alen, blen);
	ck_assert_msg(memcmp(before, after, blen) == 0, "%s changed", path);
	free(after);
}

static int64_t
q_int(struct tr_db *db, const char *sql)
{
	struct tr_error	err;
	int64_t		v = -1;

	tr_error_init(&err);
	ck_assert_msg(tr_db_int(db, sql, &v, &err) == 0, "%s: %s", sql,
	    err.msg);
	return (v);
}

/* The text of the first column of the first row ("" for NULL). */
static char *
q_text(struct tr_db *db, const char *sql)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	const char	*t;
	char		*r;

	tr_error_init(&err);
	st = tr_db_prepare(db, sql, &err);
	ck_assert_msg(st != NULL, "%s: %s", sql, err.msg);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	t = (const char *)sqlite3_column_text(st, 0);
	r = tr_xstrdup(t != NULL ? t : "");
	sqlite3_finalize(st);
	return (r);
}

/* Run raw SQL on a file with plain SQLite (to build odd files). */
static void
raw_sql(const char *path, const char *sql)
{
	sqlite3	*sq = NULL;
	char	*msg = NULL;

	ck_assert_int_eq(sqlite3_open(path, &sq), SQLITE_OK);
	ck_assert_msg(sqlite3_exec(sq, sql, NULL, NULL, &msg) == SQLITE_OK,
	    "%s", msg ? msg : "?");
	sqlite3_close(sq);
}

/* --- opening the store ---------------------------------------------- */

static const char *const tables[] = {
	"callsite", "counter_run", "fold_node", "frame", "go_bin",
	"go_blocked_bin",
	"go_blocked_stack", "go_mutex_waker", "go_sched_lat", "go_sched_long",
	"go_span_pack", "go_state_stack", "go_summary", "go_wait_sec",
	"process", "profile", "sample", "sample_fold", "sample_stack",
	"slice_run", "source",
	"str", "thread", "track", NULL
};
static const char *const views[] = {
	"counter", "go_gc", "go_goroutine", "go_log", "go_region", "go_span", "go_state", "go_stw",
	"go_task", "gpu_metric", "gpu_process", "perf_sample", "pprof_sample",
	"slice", "stack", NULL
};

static void
check_names(struct tr_db *db, const char *type, const char *const *want)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	char		*sql;
	size_t		 i = 0;

	tr_error_init(&err);
	sql = tr_xasprintf("SELECT name FROM sqlite_master WHERE type = '%s' "
	    "ORDER BY name", type);
	st = tr_db_prepare(db, sql, &err);
	ck_assert_ptr_nonnull(st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ck_assert_ptr_nonnull(want[i]);
		ck_assert_str_eq((const char *)sqlite3_column_text(st, 0),
		    want[i]);
		i++;
	}
	ck_assert_ptr_null(want[i]);
	sqlite3_finalize(st);
	free(sql);
}

START_TEST(test_create)
{
	struct tr_error	 err;
	struct tr_db	*db;
	char		*path = tmp_path("t.db"), *sql;
	size_t		 i;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(db->created, 1);
	ck_assert_str_eq(db->path, path);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), 11);
	ck_assert_int_eq(TR_DB_VERSION, 11);
	check_names(db, "table", tables);
	check_names(db, "view", views);
	/* Every view works on an empty store. */
	for (i = 0; views[i] != NULL; i++) {
		sql = tr_xasprintf("SELECT count(*) FROM (SELECT * FROM %s)",
		    views[i]);
		ck_assert_int_eq(q_int(db, sql), 0);
		free(sql);
	}
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM source"), 0);
	tr_db_free(db);
	tr_db_free(NULL);
	free(path);
}
END_TEST

START_TEST(test_wal)
{
	struct tr_error	 err;
	struct tr_db	*db;
	char		*path = tmp_path("w.db");
	sqlite3_stmt	*st;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_ptr_nonnull(db);
	st = tr_db_prepare(db, "PRAGMA journal_mode", &err);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	tr_db_free(db);
	free(path);
}
END_TEST

static int
cmp_name(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* The entries of tmpdir starting with 'prefix', sorted, joined by spaces. */
static char *
tmp_entries(const char *prefix)
{
	struct tr_buf	 b;
	struct dirent	*de;
	DIR		*d = opendir(tmpdir);
	char		*names[16];
	int		 n = 0, i;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0 &&
		    strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0) {
			ck_assert_int_lt(n, 16);
			names[n++] = tr_xstrdup(de->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_name);
	tr_buf_init(&b);
	tr_buf_adds(&b, "");
	for (i = 0; i < n; i++) {
		tr_buf_printf(&b, "%s%s", i > 0 ? " " : "", names[i]);
		free(names[i]);
	}
	return (b.data);
}

/*
 * A new store written whole: in a temporary file until tr_db_install(),
 * then in WAL mode at its path; never over a store made meanwhile.
 */
START_TEST(test_whole)
{
	struct tr_error	 err;
	struct tr_db	*db, *other;
	struct stat	 st, st2;
	char		*path = tmp_path("w.db"), *path2 = tmp_path("x.db");
	char		*path3 = tmp_path("y.db"), *names, *mode;

	tr_error_init(&err);
	ck_assert_int_eq(tr_db_create_whole(path, &db, &err), 0);
	ck_assert_ptr_nonnull(db);
	ck_assert_str_eq(db->path, path);
	ck_assert_int_eq(db->created, 1);
	ck_assert_int_eq(stat(path, &st), -1);
	names = tmp_entries(".w.db");
	ck_assert_uint_eq(strlen(names), strlen(".w.db.incomplete-XXXXXX"));
	ck_assert_int_eq(strncmp(names, ".w.db.incomplete-", 17), 0);
	free(names);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), TR_DB_VERSION);
	mode = q_text(db, "PRAGMA journal_mode");
	ck_assert_str_eq(mode, "memory");
	free(mode);
	ck_assert_int_eq(tr_db_exec(db, "INSERT INTO str (s) VALUES ('kept')",
	    &err), 0);
	/* Held: not stale. */
	tr_db_remove_stale(path);
	names = tmp_entries(".w.db");
	ck_assert_uint_eq(strlen(names), strlen(".w.db.incomplete-XXXXXX"));
	free(names);
	ck_assert_int_eq(tr_db_install(db, &err), 0);
	names = tmp_entries(".w.db");
	ck_assert_str_eq(names, "");
	free(names);
	names = tmp_entries("w.db");
	ck_assert_str_eq(names, "w.db");
	free(names);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(db->created, 0);
	mode = q_text(db, "PRAGMA journal_mode");
	ck_assert_str_eq(mode, "wal");
	free(mode);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM str WHERE s = "
	    "'kept'"), 1);
	tr_db_free(db);
	/* The store exists now: not written whole. */
	ck_assert_int_eq(tr_db_create_whole(path, &db, &err), 1);
	ck_assert_ptr_null(db);

	/* Another process makes the store meanwhile: it stays. */
	ck_assert_int_eq(tr_db_create_whole(path2, &db, &err), 0);
	other = tr_db_open(path2, 0, &err);
	ck_assert_ptr_nonnull(other);
	tr_db_free(other);
	ck_assert_int_eq(stat(path2, &st), 0);
	ck_assert_int_eq(tr_db_install(db, &err), 1);
	ck_assert_int_eq(err.code, 0);
	ck_assert_int_eq(stat(path2, &st2), 0);
	ck_assert(st.st_ino == st2.st_ino);
	names = tmp_entries(".x.db");
	ck_assert_str_eq(names, "");
	free(names);

	/* One not put in place is removed with its handle. */
	ck_assert_int_eq(tr_db_create_whole(path3, &db, &err), 0);
	tr_db_free(db);
	names = tmp_entries(".y.db");
	ck_assert_str_eq(names, "");
	free(names);
	free(path);
	free(path2);
	free(path3);
}
END_TEST

/*
 * What killed imports left is removed, and no tool opens it as a store;
 * another store's is left alone.
 */
START_TEST(test_whole_stale)
{
	/* SQLite's files of it and of one gone; not theirs; another's. */
	static const char *const others[] = {
		".s.db.incomplete-abcdef-wal",
		".s.db.incomplete-zzzzzz-journal",
		".s.db.incomplete-short",
		".t.db.incomplete-abcdef",
		NULL
	};
	struct tr_error	 err;
	char		*p, *names;
	int		 i;

	tr_error_init(&err);
	p = tmp_path(".s.db.incomplete-abcdef");
	write_file(p, "partial", 7);
	ck_assert_ptr_null(tr_db_open(p, TR_DB_READONLY, &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_str_eq(err.msg, "not a tracekit store (the temporary file "
	    "of a trace-import making store 's.db' that did not finish; the "
	    "next import into that store removes it)");
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(p, 0, &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	free(p);
	for (i = 0; others[i] != NULL; i++) {
		p = tmp_path(others[i]);
		write_file(p, "x", 1);
		free(p);
	}
	p = tmp_path("s.db");
	tr_db_remove_stale(p);
	free(p);
	names = tmp_entries(".");
	ck_assert_str_eq(names, ".s.db.incomplete-short "
	    ".t.db.incomplete-abcdef");
	free(names);
}
END_TEST

START_TEST(test_reopen)
{
	struct tr_error	 err;
	struct tr_db	*db;
	char		*path = tmp_path("r.db");

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(tr_db_exec(db, "INSERT INTO str (s) VALUES ('kept')",
	    &err), 0);
	tr_db_free(db);
	db = tr_db_open(path, TR_DB_NOCREATE, &err);
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(db->created, 0);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM str WHERE s = 'kept'"),
	    1);
	tr_db_free(db);
	/* Read-only: reads work, writes fail. */
	db = tr_db_open(path, TR_DB_READONLY, &err);
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM str"), 1);
	ck_assert_int_eq(tr_db_exec(db, "INSERT INTO str (s) VALUES ('x')",
	    &err), -1);
	ck_assert_int_eq(err.code, TR_EDB);
	ck_assert_str_eq(err.msg, "attempt to write a readonly database");
	tr_db_free(db);
	free(path);
}
END_TEST

START_TEST(test_missing)
{
	struct tr_error	 err;
	char		*path = tmp_path("missing.db"), buf[512], want[512];
	struct stat	 st;

	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(path, TR_DB_READONLY, &err));
	ck_assert_int_eq(err.code, TR_EIO);
	tr_error_format(&err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "%s: cannot open store: No such file or directory", path);
	ck_assert_str_eq(buf, want);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(path, TR_DB_NOCREATE, &err));
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	/* Neither left a file behind. */
	ck_assert_int_eq(stat(path, &st), -1);
	free(path);
	/* A directory in the way: SQLite's message, and the system's reason. */
	tr_error_init(&err);
	path = tmp_path("missing/x.db");
	ck_assert_ptr_null(tr_db_open(path, 0, &err));
	tr_error_format(&err, buf, sizeof buf);
	snprintf(want, sizeof want, "%s: cannot open store: unable to open "
	    "database file: No such file or directory", path);
	ck_assert_str_eq(buf, want);
	free(path);
}
END_TEST

START_TEST(test_newer)
{
	struct tr_error	 err;
	struct tr_db	*db;
	char		*path = tmp_path("new.db"), *before, buf[512], want[512];
	size_t		 blen;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_ptr_nonnull(db);
	tr_db_free(db);
	snprintf(buf, sizeof buf, "PRAGMA user_version = %d",
	    TR_DB_VERSION + 1);
	raw_sql(path, buf);
	before = read_file(path, &blen);
	snprintf(want, sizeof want, "%s: store schema version %d is newer "
	    "than this tracekit's (%d)", path, TR_DB_VERSION + 1,
	    TR_DB_VERSION);
	ck_assert_ptr_null(tr_db_open(path, 0, &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(path, TR_DB_READONLY, &err));
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	assert_same_file(path, before, blen);
	free(before);
	free(path);
}
END_TEST

START_TEST(test_not_sqlite)
{
	struct tr_error	 err;
	char		*path = tmp_path("text.db"), buf[512], want[512];
	char		 text[4096];
	size_t		 i;

	for (i = 0; i < sizeof text; i++)
		text[i] = "hello world\n"[i % 12];
	write_file(path, text, sizeof text);
	snprintf(want, sizeof want,
	    "%s: not a tracekit store (file is not a database)", path);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(path, 0, &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(path, TR_DB_READONLY, &err));
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	assert_same_file(path, text, sizeof text);
	free(path);
}
END_TEST

/* Some other program's SQLite file is neither used nor changed. */
START_TEST(test_foreign_sqlite)
{
	struct tr_error	 err;
	char		*path = tmp_path("other.db"), *before, buf[512];
	char		 want[512];
	size_t		 blen;
	sqlite3		*sq;
	sqlite3_stmt	*st;

	raw_sql(path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, t TEXT);"
	    "CREATE INDEX notes_t ON notes (t);"
	    "INSERT INTO notes (t) VALUES ('mine')");
	before = read_file(path, &blen);
	snprintf(want, sizeof want, "%s: not a tracekit store (an SQLite "
	    "database with 2 schema objects of its own and user_version 0)",
	    path);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(path, 0, &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_open(path, TR_DB_READONLY, &err));
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	assert_same_file(path, before, blen);
	/* No tracekit table was added. */
	ck_assert_int_eq(sqlite3_open(path, &sq), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(sq, "SELECT count(*) FROM "
	    "sqlite_master", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 2);
	sqlite3_finalize(st);
	sqlite3_close(sq);
	free(before);
	free(path);
}
END_TEST

/*
 * An empty file is not a store: the tools that read or align one refuse
 * it and leave it empty; an import (the only writer that makes a store)
 * makes one in it.
 */
START_TEST(test_empty_file)
{
	struct tr_error	 err;
	struct tr_db	*db;
	struct stat	 st;
	char		*path = tmp_path("empty.db"), buf[512], want[512];
	int		 flags[] = { TR_DB_READONLY, TR_DB_NOCREATE }, i;

	write_file(path, "", 0);
	snprintf(want, sizeof want,
	    "%s: not a tracekit store (an empty file)", path);
	for (i = 0; i < 2; i++) {
		tr_error_init(&err);
		ck_assert_ptr_null(tr_db_open(path, flags[i], &err));
		tr_error_format(&err, buf, sizeof buf);
		ck_assert_str_eq(buf, want);
		ck_assert_int_eq(err.code, TR_EDATA);
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_int_eq(st.st_size, 0);
	}
	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(db->created, 0);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), 11);
	check_names(db, "table", tables);
	tr_db_free(db);
	free(path);
}
END_TEST

/*
 * The views over the Go trace's slices, asked for one source, reach the
 * runs through the track (slice_run_track_ts), never through the runs'
 * source index: with the run's source_id (before schema version 10) SQLite
 * read every run of the source once per track (114 s for go_state of an
 * 11 MB trace's store, 1 s for the whole view).
 */
START_TEST(test_views_by_source)
{
	static const char *const go_views[] = {
		"go_state", "go_gc", "go_stw", "go_task", "go_region", "go_log",
		"go_span"
	};
	struct tr_error	 err;
	struct tr_db	*db;
	sqlite3_stmt	*st;
	char		*sql;
	size_t		 i;
	int		 track;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	for (i = 0; i < sizeof go_views / sizeof go_views[0]; i++) {
		sql = tr_xasprintf("EXPLAIN QUERY PLAN SELECT count(*) FROM %s "
		    "WHERE source_id = 1", go_views[i]);
		st = tr_db_prepare(db, sql, &err);
		ck_assert_msg(st != NULL, "%s", err.msg);
		track = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *d = (const char *)sqlite3_column_text(st, 3);

			ck_assert_msg(strstr(d, "slice_run_source_ts") == NULL,
			    "%s: %s", go_views[i], d);
			if (strstr(d, "slice_run_track_ts") != NULL)
				track = 1;
		}
		ck_assert_msg(track, "%s: not through the track", go_views[i]);
		sqlite3_finalize(st);
		free(sql);
	}
	tr_db_free(db);
}
END_TEST

START_TEST(test_memory)
{
	struct tr_error	 err;
	struct tr_db	*db;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), 11);
	check_names(db, "view", views);
	tr_db_free(db);
}
END_TEST

START_TEST(test_default_path)
{
	ck_assert_int_eq(unsetenv("TRACE_DB"), 0);
	ck_assert_str_eq(tr_db_default_path(NULL), "trace.db");
	ck_assert_str_eq(tr_db_default_path(""), "trace.db");
	ck_assert_str_eq(tr_db_default_path("x.db"), "x.db");
	ck_assert_int_eq(setenv("TRACE_DB", "env.db", 1), 0);
	ck_assert_str_eq(tr_db_default_path(NULL), "env.db");
	ck_assert_str_eq(tr_db_default_path("x.db"), "x.db");
	ck_assert_int_eq(setenv("TRACE_DB", "", 1), 0);
	ck_assert_str_eq(tr_db_default_path(NULL), "trace.db");
	unsetenv("TRACE_DB");
}
END_TEST

START_TEST(test_helpers)
{
	struct tr_error	 err;
	struct tr_db	*db;
	int64_t		 v = 7;
	char		 buf[512];

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_int_eq(tr_db_int(db, "SELECT 41 + 1", &v, &err), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(tr_db_int(db, "SELECT 1 WHERE 0", &v, &err), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(tr_db_exec(db, "SELEC 1", &err), -1);
	ck_assert_int_eq(err.code, TR_EDB);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, ":memory:: near \"SELEC\": syntax error");
	tr_error_init(&err);
	ck_assert_ptr_null(tr_db_prepare(db, "SELECT * FROM nope", &err));
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf,
	    ":memory:: cannot prepare statement: no such table: nope");
	tr_error_init(&err);
	ck_assert_int_eq(tr_db_int(db, "SELECT x FROM nope", &v, &err), -1);
	ck_assert_int_eq(v, 0);
	/* The schema text is what the store was built from. */
	ck_assert_ptr_nonnull(strstr(tr_db_schema, "CREATE TABLE source ("));
	tr_db_free(db);
}
END_TEST

START_TEST(test_read_helpers)
{
	struct tr_error	 err;
	struct tr_db	*db;
	sqlite3_stmt	*st;
	int64_t		 v = 7;
	int		 began = 9;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(tr_db_exec(db, "INSERT INTO str (s) VALUES ('a'), "
	    "('cpu-clock')", &err), 0);
	ck_assert_int_eq(tr_db_str_id(db, "cpu-clock", &v, &err), 1);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(tr_db_str_id(db, "nosuch", &v, &err), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(tr_db_int_arg(db, "SELECT ?1 * 2", NULL, 21, &v,
	    &err), 1);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(tr_db_int_arg(db, "SELECT length(?1)", "abcd", 0,
	    &v, &err), 1);
	ck_assert_int_eq(v, 4);
	/* NULL is "no value", as no row is. */
	ck_assert_int_eq(tr_db_int_arg(db, "SELECT max(id) FROM frame", NULL,
	    0, &v, &err), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(tr_db_int_arg(db, "SELECT x FROM nope", NULL, 0, &v,
	    &err), -1);
	tr_error_init(&err);
	/* A prepared statement steps, resets and steps again. */
	st = tr_db_prepare(db, "SELECT id FROM str WHERE s = ?1", &err);
	ck_assert_ptr_nonnull(st);
	sqlite3_bind_text(st, 1, "a", -1, SQLITE_STATIC);
	ck_assert_int_eq(tr_db_step_int(db, st, &v, &err), 1);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(tr_db_step_int(db, st, &v, &err), 1);
	ck_assert_int_eq(v, 1);
	sqlite3_finalize(st);
	/* A snapshot begins once; inside a transaction it is a no-op. */
	ck_assert_int_eq(tr_db_read_begin(db, &began, &err), 0);
	ck_assert_int_eq(began, 1);
	ck_assert_int_eq(sqlite3_get_autocommit(db->sq), 0);
	ck_assert_int_eq(tr_db_read_begin(db, &began,
	    &err), 0);
	ck_assert_int_eq(began, 0);
	tr_db_read_end(db, 0);
	ck_assert_int_eq(sqlite3_get_autocommit(db->sq), 0);
	tr_db_read_end(db, 1);
	ck_assert_int_eq(sqlite3_get_autocommit(db->sq), 1);
	tr_db_free(db);
}
END_TEST

/*
 * A writer for source 1 of a new store in memory ('*db'), inside its
 * transaction.
 */
static struct tr_writer *
writer_mem(struct tr_db **db)
{
	struct tr_error		 err;
	struct tr_writer	*w;

	tr_error_init(&err);
	*db = tr_db_open(":memory:", 0, &err);
	ck_assert_ptr_nonnull(*db);
	ck_assert_int_eq(tr_db_exec(*db, "BEGIN; INSERT INTO source (path, "
	    "format, hash, size, imported_at) VALUES ('x', 'test', 'h', 0, "
	    "'now')", &err), 0);
	w = tr_writer_new(*db, 1, 0, 0, &err);
	ck_assert_msg(w != NULL, "%s", err.msg);
	return (w);
}

/*
 * Ids past what the call sites' cache packs (40 bits: writer.c cs_fits())
 * are looked up in the store instead: each call site is still added once,
 * and found again with the id it was given.
 */
START_TEST(test_writer_big_ids)
{
	const int64_t		 far = 1099511627776LL;	/* 2^40 */
	struct tr_error		 err;
	struct tr_db		*db;
	struct tr_writer	*w;
	struct tr_frame		 f;
	int64_t			 fa, fb, ca, cb, cf;
	int			 i;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(tr_db_exec(db, "BEGIN; INSERT INTO source (path, "
	    "format, hash, size, imported_at) VALUES ('x', 'test', 'h', 0, "
	    "'now'); INSERT INTO frame (id, name) VALUES (1099511627776, "
	    "'far'); INSERT INTO callsite (id, parent_id, frame_id, depth) "
	    "VALUES (1099511627776, NULL, 1099511627776, 0)", &err), 0);
	w = tr_writer_new(db, 1, 0, 0, &err);
	ck_assert_msg(w != NULL, "%s", err.msg);
	memset(&f, 0, sizeof f);
	f.name = "a";
	f.name_len = 1;
	fa = tr_writer_add_frame(w, &f, &err);
	f.name = "b";
	fb = tr_writer_add_frame(w, &f, &err);
	ck_assert_int_eq(fa, far + 1);
	ck_assert_int_eq(fb, far + 2);
	for (i = 0; i < 3; i++) {
		ca = tr_writer_add_callsite(w, 0, fa, 0, &err);
		cb = tr_writer_add_callsite(w, ca, fb, 1, &err);
		cf = tr_writer_add_callsite(w, far, fa, 1, &err);
		ck_assert_int_eq(ca, far + 1);
		ck_assert_int_eq(cb, far + 2);
		ck_assert_int_eq(cf, far + 3);
	}
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM callsite"), 4);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM callsite WHERE "
	    "parent_id = 1099511627777 AND frame_id = 1099511627778 AND "
	    "depth = 1"), 1);
	tr_writer_free(w);
	tr_db_free(db);
}
END_TEST

/*
 * Tracks of a kind held back (tr_writer_hold_tracks()), with and without
 * the writer thread: each row is in the store after the flush, its meta
 * exactly as json_set() of what it was added with gives it, whether its
 * member was set while it was held (written once: in C for compact
 * text, by json_set() in the insert for text with white space, an
 * escape or the member already there), after it went (5000 tracks: the
 * first ones are written when newer ones pass the hold's bound, then
 * updated), twice (the row goes, then the update), or never; a kind not
 * held is updated as ever.
 */
START_TEST(test_writer_hold_tracks)
{
	static const char *const metas[5] = {
		"{\"a\":1}", "{ \"a\": 1 }", NULL, "{\"ended\":5,\"b\":2}",
		"{\"a\":1,\"c\":[1,\"x\\u0020y\"]}"
	};
	struct tr_error		 err;
	struct tr_db		*db;
	struct tr_writer	*w;
	int64_t			 id[5001];
	char			*sql, *e, *x;
	int			 i, k, m;

	for (k = 0; k < 2; k++) {
		tr_error_init(&err);
		w = writer_mem(&db);
		if (k)
			ck_assert_int_eq(tr_writer_thread(w, &err), 0);
		ck_assert_int_eq(tr_writer_hold_tracks(w, "g", &err), 0);
		for (i = 0; i < 5000; i++) {
			id[i] = tr_writer_add_track(w, "g", "n", i, 0, 0, 0,
			    metas[i % 5], &err);
			ck_assert_int_gt(id[i], 0);
			/* The first 100 are set once they went. */
			if (i < 100)
				continue;
			ck_assert_int_eq(tr_writer_set_track_meta(w, id[i],
			    "$.ended", 1000 + i, &err), 0);
			if (i % 7 == 0)
				ck_assert_int_eq(tr_writer_set_track_meta(w,
				    id[i], "$.x", i, &err), 0);
		}
		id[5000] = tr_writer_add_track(w, "h", "n", 0, 0, 0, 0,
		    metas[0], &err);
		for (i = 0; i < 100; i++)
			ck_assert_int_eq(tr_writer_set_track_meta(w, id[i],
			    "$.ended", 1000 + i, &err), 0);
		ck_assert_int_eq(tr_writer_set_track_meta(w, id[5000],
		    "$.ended", 7, &err), 0);
		ck_assert_msg(tr_writer_flush(w, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(q_int(db, "SELECT count(*) FROM track"),
		    5001);
		for (i = 0, m = 0; i < 5000; i++) {
			e = metas[i % 5] ? tr_xasprintf("'%s'", metas[i % 5]) :
			    tr_xstrdup("'{}'");
			/* (Set twice: the ones past 100 of every 7.) */
			x = i >= 100 && i % 7 == 0 ? tr_xasprintf(", '$.x', "
			    "%d)", i) : tr_xstrdup("");
			sql = tr_xasprintf("SELECT meta = %sjson_set(%s, "
			    "'$.ended', %d)%s FROM track WHERE id = %lld",
			    *x ? "json_set(" : "", e, 1000 + i, x,
			    (long long)id[i]);
			m += q_int(db, sql) == 1;
			free(sql);
			free(x);
			free(e);
		}
		ck_assert_int_eq(m, 5000);
		ck_assert_int_eq(q_int(db, "SELECT count(*) FROM track WHERE "
		    "meta = '{\"a\":1,\"ended\":7}' AND kind = 'h'"), 1);
		/* The compact ones were set in C: the same text. */
		ck_assert_int_eq(q_int(db, "SELECT count(*) FROM track WHERE "
		    "meta = '{\"a\":1,\"ended\":1110}'"), 1);
		tr_writer_free(w);
		tr_db_free(db);
	}
}
END_TEST

/* An observer of the writer sees each row, and its finish and free. */
struct obs_log {
	int	tracks, samples, slices, counters, finished, freed;
	int64_t	dur, last_track;
	double	value;
};

static int
obs_track(void *arg, const struct tr_track *t, struct tr_error *err)
{
	struct obs_log	*l = arg;

	(void)err;
	ck_assert_str_eq(t->kind, "gpu");
	l->last_track = t->id;
	l->tracks++;
	return (0);
}

static int
obs_sample(void *arg, const struct tr_sample *s, struct tr_error *err)
{
	(void)err;
	((struct obs_log *)arg)->samples += (int)s->value;
	return (0);
}

static int
obs_slice(void *arg, const struct tr_slice *s, struct tr_error *err)
{
	struct obs_log	*l = arg;

	l->slices++;
	l->dur += s->dur;
	if (s->dur < 0)
		return (tr_error_set(err, TR_EDATA, "negative"));
	return (0);
}

static int
obs_counter(void *arg, int64_t track, int64_t ts, int64_t name,
    double value, struct tr_error *err)
{
	(void)track;
	(void)ts;
	(void)name;
	(void)err;
	((struct obs_log *)arg)->value += value;
	((struct obs_log *)arg)->counters++;
	return (0);
}

static int
obs_finish(void *arg, struct tr_writer *w, struct tr_error *err)
{
	struct obs_log	*l = arg;

	/* Every row is in the store when finish runs. */
	ck_assert_int_eq(l->slices, 300);
	ck_assert_int_eq(q_int(tr_writer_db(w), "SELECT count(*) FROM "
	    "slice"), 300);
	ck_assert_int_eq(q_int(tr_writer_db(w), "SELECT count(*) FROM "
	    "counter"), 2);
	(void)err;
	l->finished++;
	return (0);
}

static void
obs_free(void *arg)
{
	((struct obs_log *)arg)->freed++;
}

static const struct tr_writer_hooks obs_hooks = {
	obs_track, obs_sample, obs_slice, obs_counter, obs_finish, obs_free,
	NULL, 0, NULL, NULL
};

/*
 * A writer refuses a ninth observer and releases it through its free hook,
 * once: the derived tables' accumulator of a Go trace source too (ASan
 * catches a second free).
 */
START_TEST(test_writer_observers_full)
{
	struct tr_error		 err;
	struct tr_db		*db;
	struct tr_writer	*w;
	struct obs_log		 log[TR_WRITER_MAXOBS];
	int			 i;

	tr_error_init(&err);
	memset(log, 0, sizeof log);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(tr_db_exec(db, "BEGIN; INSERT INTO source (path, "
	    "format, hash, size, imported_at) VALUES ('x', 'gotrace', 'h', 0, "
	    "'now')", &err), 0);
	/* The accumulator is the first observer of a Go trace's writer. */
	w = tr_writer_new(db, 1, 0, 0, &err);
	ck_assert_msg(w != NULL, "%s", err.msg);
	for (i = 1; i < TR_WRITER_MAXOBS; i++)
		ck_assert_int_eq(tr_writer_observe(w, &obs_hooks, &log[i],
		    &err), 0);
	ck_assert_int_eq(tr_writer_observe(w, &obs_hooks, &log[0], &err), -1);
	ck_assert_str_eq(err.msg, "more than 8 observers of the store writer");
	ck_assert_int_eq(log[0].freed, 1);
	tr_error_init(&err);
	ck_assert_int_eq(tr_derived_observe(w, &err), -1);
	ck_assert_str_eq(err.msg, "more than 8 observers of the store writer");
	tr_writer_free(w);
	for (i = 0; i < TR_WRITER_MAXOBS; i++)
		ck_assert_int_eq(log[i].freed, 1);
	tr_db_free(db);
}
END_TEST

START_TEST(test_writer_observe)
{
	struct tr_error		 err;
	struct tr_db		*db;
	struct tr_writer	*w;
	struct tr_sample	 smp;
	struct obs_log		 log;
	int64_t			 track, name;
	int			 i;

	tr_error_init(&err);
	memset(&log, 0, sizeof log);
	w = writer_mem(&db);
	ck_assert_int_eq(tr_writer_observe(w, &obs_hooks, &log, &err), 0);
	track = tr_writer_add_track(w, "gpu", "0", 0, 0, 0, 0, NULL, &err);
	ck_assert_int_gt(track, 0);
	ck_assert_int_eq(log.last_track, track);
	name = tr_writer_add_str(w, "busy", 4, &err);
	ck_assert_int_gt(name, 0);
	for (i = 0; i < 300; i++)
		ck_assert_int_eq(tr_writer_add_slice(w, track, i * 10, 5,
		    name, 0, 0, NULL, &err), 0);
	ck_assert_int_eq(tr_writer_add_counter(w, track, 5, name, 1.5, &err),
	    0);
	ck_assert_int_eq(tr_writer_add_counter(w, track, 6, name, 2, &err),
	    0);
	memset(&smp, 0, sizeof smp);
	smp.cpu = -1;
	smp.event_id = name;
	smp.value = 7;
	ck_assert_int_eq(tr_writer_add_sample(w, &smp, &err), 0);
	ck_assert_int_eq(log.tracks, 1);
	ck_assert_int_eq(log.slices, 300);
	ck_assert_int_eq(log.dur, 1500);
	ck_assert_int_eq(log.counters, 2);
	ck_assert(log.value == 3.5);
	ck_assert_int_eq(log.samples, 7);
	ck_assert_int_eq(tr_writer_flush(w, &err), 0);
	ck_assert_int_eq(log.finished, 1);
	ck_assert_int_eq(tr_writer_counts(w)->slices, 300);
	ck_assert_int_eq(tr_writer_counts(w)->ts_min, 0);
	ck_assert_int_eq(tr_writer_counts(w)->ts_max, 2995);
	/* An observer's error fails the add. */
	ck_assert_int_eq(tr_writer_add_slice(w, track, 0, -1, name, 0, 0,
	    NULL, &err), -1);
	ck_assert_str_eq(err.msg, "negative");
	ck_assert_int_eq(log.freed, 0);
	tr_writer_free(w);
	ck_assert_int_eq(log.freed, 1);
	tr_db_free(db);
}
END_TEST

/*
 * An observer whose add hooks may run in the writer thread: it writes
 * each call down, arguments and all (no assertion there: the hooks may
 * run in the writer thread), and refuses its slice number 'fail_at'.
 */
struct rec {
	struct tr_buf	 log;
	int		 slices, fail_at;
};

static int
rec_track(void *arg, const struct tr_track *t, struct tr_error *err)
{
	(void)err;
	tr_buf_printf(&((struct rec *)arg)->log, "track %lld %s %s %lld %lld "
	    "%lld %lld %s\n", (long long)t->id, t->kind, t->name,
	    (long long)t->ref, (long long)t->process_id,
	    (long long)t->thread_id, (long long)t->parent_id,
	    t->meta ? t->meta : "NULL");
	return (0);
}

static int
rec_sample(void *arg, const struct tr_sample *s, struct tr_error *err)
{
	(void)err;
	tr_buf_printf(&((struct rec *)arg)->log, "sample %lld %d %lld %d "
	    "%lld %lld %lld %lld %s\n", (long long)s->ts, s->has_ts,
	    (long long)s->thread_id, s->cpu, (long long)s->callsite_id,
	    (long long)s->event_id, (long long)s->value,
	    (long long)s->profile_id, s->labels ? s->labels : "NULL");
	return (0);
}

static int
rec_slice(void *arg, const struct tr_slice *s, struct tr_error *err)
{
	struct rec	*r = arg;

	tr_buf_printf(&r->log, "slice %lld %lld %lld %lld %lld %lld %s\n",
	    (long long)s->track_id, (long long)s->ts, (long long)s->dur,
	    (long long)s->name_id, (long long)s->category_id,
	    (long long)s->callsite_id, s->args ? s->args : "NULL");
	if (++r->slices == r->fail_at)
		return (tr_error_set(err, TR_EDATA, "slice %d refused",
		    r->slices));
	return (0);
}

static int
rec_watermark(void *arg, int64_t ts, struct tr_error *err)
{
	(void)err;
	tr_buf_printf(&((struct rec *)arg)->log, "watermark %lld\n",
	    (long long)ts);
	return (0);
}

static int
rec_run(void *arg, int64_t track, int64_t first, int64_t n,
    struct tr_error *err)
{
	(void)err;
	tr_buf_printf(&((struct rec *)arg)->log, "run %lld %lld %lld\n",
	    (long long)track, (long long)first, (long long)n);
	return (0);
}

static int
rec_finish(void *arg, struct tr_writer *w, struct tr_error *err)
{
	(void)err;
	/* After the thread is drained: every row is in the store. */
	tr_buf_printf(&((struct rec *)arg)->log, "finish %lld slices\n",
	    (long long)q_int(tr_writer_db(w), "SELECT count(*) FROM slice"));
	return (0);
}

/* Fail the test where logs 'a' and 'b' part (the line in each). */
static void
rec_same(const char *a, const char *b)
{
	size_t	i, l;

	for (i = 0; a[i] != '\0' && a[i] == b[i]; i++)
		continue;
	if (a[i] == b[i])
		return;
	for (l = i; l > 0 && a[l - 1] != '\n'; l--)
		continue;
	ck_abort_msg("the calls part at byte %zu: '%.60s' against '%.60s'",
	    i, a + l, b + l);
}

static const struct tr_writer_hooks rec_hooks = {
	.track = rec_track, .sample = rec_sample, .slice = rec_slice,
	.watermark = rec_watermark, .finish = rec_finish, .on_thread = 1,
	.run = rec_run,
};

/*
 * Feed a writer observed by 'r' (through the writer thread when
 * 'thread') many rows of every kind that has a hook: tracks, slices and
 * samples with and without texts, watermarks, a track's meta set; then
 * flush.  Returns 0 with '*meta' track 3's meta as stored, or -1 with
 * 'err' set.
 */
static int
rec_feed(int thread, struct rec *r, char **meta, struct tr_error *err)
{
	struct tr_db		*db;
	struct tr_writer	*w;
	struct tr_sample	 smp;
	int64_t			 started = tr_writer_threads_started;
	int64_t			 track = 0, name, cat;
	char			 buf[64];
	int			 i, rc = -1;

	tr_error_init(err);
	w = writer_mem(&db);
	ck_assert_int_eq(tr_writer_observe(w, &rec_hooks, r, err), 0);
	ck_assert_int_eq(setenv("TRACEKIT_WRITER_THREAD", thread ? "1" : "0",
	    1), 0);
	ck_assert_int_eq(tr_writer_thread(w, err), 0);
	ck_assert_int_eq(unsetenv("TRACEKIT_WRITER_THREAD"), 0);
	ck_assert_int_eq(tr_writer_threads_started - started, thread);
	name = tr_writer_add_str(w, "run", 3, err);
	cat = tr_writer_add_str(w, "why", 3, err);
	ck_assert(name > 0 && cat > 0);
	for (i = 0; i < 40000; i++) {
		if (i % 1000 == 0) {
			snprintf(buf, sizeof buf, "{\"n\":%d}", i);
			if ((track = tr_writer_add_track(w, "goroutine",
			    i % 2000 ? "g" : NULL, i, 0, 0, track,
			    i % 3000 ? buf : NULL, err)) < 0)
				goto out;
		}
		snprintf(buf, sizeof buf, "{\"i\":%d}", i);
		if (tr_writer_add_slice(w, track, i * 10, 5, name,
		    i % 2 ? cat : 0, 0, i % 3 ? buf : i % 5 ? "" : NULL,
		    err) != 0)
			goto out;
		if (i % 7 == 0) {
			memset(&smp, 0, sizeof smp);
			smp.ts = i * 10;
			smp.has_ts = i % 2;
			smp.cpu = i % 4 - 1;
			smp.event_id = name;
			smp.value = i;
			smp.labels = i % 14 ? NULL : buf;
			if (tr_writer_add_sample(w, &smp, err) != 0)
				goto out;
		}
		if (i % 501 == 0 && tr_writer_watermark(w, i * 10, err) != 0)
			goto out;
		if (i == 3500 && tr_writer_set_track_meta(w, 3, "$.ended",
		    i * 10, err) != 0)
			goto out;
	}
	if (tr_writer_flush(w, err) != 0)
		goto out;
	rc = 0;
	*meta = q_text(tr_writer_db(w), "SELECT meta FROM track WHERE id = 3");
out:
	tr_writer_free(w);
	tr_db_free(db);
	return (rc);
}

/*
 * Through the writer thread, an observer that allows it sees the same
 * calls in the same order, with the same arguments, as without (its
 * hooks then run in the thread); an error of a hook there fails a later
 * add or the flush, with its message, and the hooks see nothing after.
 * An observer that does not allow it (or has a counter hook) keeps the
 * thread from starting.
 */
START_TEST(test_writer_thread_observe)
{
	struct tr_error		 err;
	struct tr_db		*db;
	struct tr_writer	*w;
	struct rec		 r[2];
	struct obs_log		 log;
	char			*meta[2];
	int64_t			 started;
	int			 k;

	for (k = 0; k < 2; k++) {
		memset(&r[k], 0, sizeof r[k]);
		tr_buf_init(&r[k].log);
		ck_assert_msg(rec_feed(k, &r[k], &meta[k], &err) == 0, "%s",
		    err.msg);
	}
	ck_assert_int_eq(r[0].slices, 40000);
	ck_assert_ptr_nonnull(strstr(r[0].log.data, "\nwatermark 5010\n"));
	/* Track 1's slices 0-255 are one run, after their slice hooks. */
	ck_assert_ptr_nonnull(strstr(r[0].log.data, "slice 1 2550 5 1 2 0 "
	    "NULL\nrun 1 1 256\n"));
	ck_assert_ptr_nonnull(strstr(r[0].log.data,
	    "\nfinish 40000 slices\n"));
	rec_same(r[0].log.data, r[1].log.data);
	ck_assert_str_eq(meta[0], "{\"n\":2000,\"ended\":35000}");
	ck_assert_str_eq(meta[1], meta[0]);
	for (k = 0; k < 2; k++) {
		free(meta[k]);
		tr_buf_release(&r[k].log);
	}
	/* Slice 30000 refused: at once, or later through the thread. */
	for (k = 0; k < 2; k++) {
		memset(&r[k], 0, sizeof r[k]);
		tr_buf_init(&r[k].log);
		r[k].fail_at = 30000;
		ck_assert_int_eq(rec_feed(k, &r[k], &meta[k], &err), -1);
		ck_assert_str_eq(err.msg, "slice 30000 refused");
		ck_assert_int_eq(r[k].slices, 30000);
	}
	rec_same(r[0].log.data, r[1].log.data);
	for (k = 0; k < 2; k++)
		tr_buf_release(&r[k].log);
	/* With an observer whose hooks may not run there: no thread. */
	tr_error_init(&err);
	w = writer_mem(&db);
	memset(&log, 0, sizeof log);
	memset(&r[0], 0, sizeof r[0]);
	tr_buf_init(&r[0].log);
	ck_assert_int_eq(tr_writer_observe(w, &rec_hooks, &r[0], &err), 0);
	ck_assert_int_eq(tr_writer_observe(w, &obs_hooks, &log, &err), 0);
	started = tr_writer_threads_started;
	ck_assert_int_eq(tr_writer_thread(w, &err), 0);
	ck_assert_int_eq(tr_writer_threads_started, started);
	tr_writer_free(w);
	ck_assert_int_eq(log.freed, 1);
	tr_buf_release(&r[0].log);
	tr_db_free(db);
}
END_TEST

/* A second process waits for the writer instead of failing. */
START_TEST(test_busy_wait)
{
	struct tr_error	 err;
	struct tr_db	*db;
	char		*path = tmp_path("busy.db"), c;
	int		 fds[2], status;
	pid_t		 pid;
	struct timeval	 t0, t1;
	long		 ms;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_ptr_nonnull(db);
	tr_db_free(db);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		struct tr_db	*w;

		close(fds[0]);
		tr_error_init(&err);
		if ((w = tr_db_open(path, 0, &err)) == NULL ||
		    tr_db_exec(w, "BEGIN IMMEDIATE", &err) != 0 ||
		    tr_db_exec(w, "INSERT INTO str (s) VALUES ('first')",
		    &err) != 0)
			_exit(1);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		usleep(300000);
		_exit(tr_db_exec(w, "COMMIT", &err) != 0);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &c, 1), 1);
	gettimeofday(&t0, NULL);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_msg(tr_db_exec(db, "INSERT INTO str (s) VALUES ('second')",
	    &err) == 0, "%s", err.msg);
	gettimeofday(&t1, NULL);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_usec - t0.tv_usec) / 1000;
	ck_assert_int_ge(ms, 200);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(q_int(db, "SELECT group_concat(s, ',') = "
	    "'first,second' FROM (SELECT s FROM str ORDER BY id)"), 1);
	tr_db_free(db);
	close(fds[0]);
	free(path);
}
END_TEST

/* The schema as text: every object's type, name and SQL, in order. */
static char *
schema_text(struct tr_db *db)
{
	struct tr_error	 err;
	struct tr_buf	 b;
	sqlite3_stmt	*st;

	tr_error_init(&err);
	tr_buf_init(&b);
	st = tr_db_prepare(db, "SELECT type, name, coalesce(sql, '') FROM "
	    "sqlite_master ORDER BY type, name", &err);
	ck_assert_ptr_nonnull(st);
	while (sqlite3_step(st) == SQLITE_ROW)
		tr_buf_printf(&b, "%s %s\n%s\n", sqlite3_column_text(st, 0),
		    sqlite3_column_text(st, 1), sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	tr_buf_printf(&b, "user_version %lld\n",
	    (long long)q_int(db, "PRAGMA user_version"));
	return (b.data);
}

/*
 * A store of version 2 is what version 3 is without its additions: made
 * here from a new store (with a Go trace's annotations in it when the
 * test data is at hand) by dropping them.  The migration brings back the
 * same schema, and the views the same rows.
 */
/* What version 4 added. */
/*
 * What version 7 changed: go_blocked_bin, and go_mutex_waker as it was
 * before (without ts).
 */
#define V7_DROP "DROP TABLE go_blocked_bin; DROP TABLE go_mutex_waker; " \
	"CREATE TABLE go_mutex_waker (source_id INTEGER NOT NULL REFERENCES " \
	"source, waker_goid INTEGER, callsite_id INTEGER REFERENCES " \
	"callsite, blocked_callsite_id INTEGER REFERENCES callsite, count " \
	"INTEGER NOT NULL, total_ns INTEGER NOT NULL); CREATE INDEX " \
	"go_mutex_waker_source ON go_mutex_waker (source_id); " V8_DROP
/*
 * What version 8 changed: the counter table as it was, with the points of
 * the runs in it (and stand-ins for the views over it, which the
 * migration makes again).
 */
#define V8_DROP "CREATE TABLE counter_v8 AS SELECT id, source_id, track_id, " \
	"ts, name_id, value FROM counter; DROP VIEW gpu_metric; DROP VIEW " \
	"gpu_process; DROP VIEW counter; DROP TABLE counter_run; CREATE " \
	"TABLE counter (id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL " \
	"REFERENCES source, track_id INTEGER NOT NULL REFERENCES track, ts " \
	"INTEGER NOT NULL, name_id INTEGER NOT NULL REFERENCES str, value " \
	"NUMERIC); INSERT INTO counter SELECT * FROM counter_v8; DROP TABLE " \
	"counter_v8; CREATE INDEX counter_track_ts ON counter (track_id, " \
	"name_id, ts); CREATE VIEW gpu_metric AS SELECT 1; CREATE VIEW " \
	"gpu_process AS SELECT 1; "
/* The tables of version 11: the folds.  check_migration() drops them. */
#define V11_DROP "DROP TABLE sample_fold; DROP TABLE fold_node; "
/*
 * What version 10 changed: go_span a table (with its rows, in slice id
 * order, as version 9's import wrote them), not a view; the views over
 * the slices, whose source_id was the run's, are made again by every
 * migration (so are left as they are).  check_migration() makes every
 * older store so first.
 */
#define V10_DROP "CREATE TABLE go_span_v10 AS SELECT * FROM go_span; " \
	"DROP VIEW go_span; CREATE TABLE go_span (source_id INTEGER NOT " \
	"NULL REFERENCES source, kind TEXT NOT NULL, name_id INTEGER NOT " \
	"NULL REFERENCES str, ts INTEGER NOT NULL, id INTEGER NOT NULL, " \
	"dur INTEGER NOT NULL, task_id INTEGER NOT NULL, goid INTEGER, " \
	"depth INTEGER, callsite_id INTEGER REFERENCES callsite, " \
	"start_unknown INTEGER NOT NULL, unfinished INTEGER NOT NULL); " \
	"INSERT INTO go_span SELECT * FROM go_span_v10 ORDER BY id; DROP " \
	"TABLE go_span_v10; "
/*
 * What version 9 changed: go_span as it was (WITHOUT ROWID, keyed by
 * name) and go_span_pack without goid_list.  check_migration() makes
 * every store older than 9 so first.
 */
#define V9_DROP "ALTER TABLE go_span RENAME TO go_span_v9; CREATE TABLE " \
	"go_span (source_id INTEGER NOT NULL REFERENCES source, kind TEXT " \
	"NOT NULL, name_id INTEGER NOT NULL REFERENCES str, ts INTEGER NOT " \
	"NULL, id INTEGER NOT NULL, dur INTEGER NOT NULL, task_id INTEGER " \
	"NOT NULL, goid INTEGER, depth INTEGER, callsite_id INTEGER " \
	"REFERENCES callsite, start_unknown INTEGER NOT NULL, unfinished " \
	"INTEGER NOT NULL, PRIMARY KEY (source_id, kind, name_id, ts, id)) " \
	"WITHOUT ROWID; INSERT INTO go_span SELECT * FROM go_span_v9; DROP " \
	"TABLE go_span_v9; ALTER TABLE go_span_pack RENAME TO go_span_pack_v9; " \
	"CREATE TABLE go_span_pack (source_id INTEGER NOT NULL REFERENCES " \
	"source, kind TEXT NOT NULL, name_id INTEGER NOT NULL REFERENCES str, " \
	"seq INTEGER NOT NULL, ts INTEGER NOT NULL, end_max INTEGER NOT NULL, " \
	"n INTEGER NOT NULL, ts_list BLOB NOT NULL, dur_list BLOB NOT NULL, " \
	"cut_list BLOB); INSERT INTO go_span_pack SELECT source_id, kind, " \
	"name_id, seq, ts, end_max, n, ts_list, dur_list, cut_list FROM " \
	"go_span_pack_v9; DROP TABLE go_span_pack_v9; CREATE UNIQUE INDEX " \
	"go_span_pack_key ON go_span_pack (source_id, kind, name_id, seq); "
/* The table of version 6. */
#define V6_DROP "DROP TABLE go_span_pack; " V7_DROP
/* The table of version 5. */
#define V5_DROP "DROP TABLE sample_stack; " V6_DROP
#define V4_DROP "DROP TABLE go_blocked_stack; DROP TABLE go_sched_lat; " \
	"DROP TABLE go_sched_long; DROP TABLE go_wait_sec; " \
	"DROP TABLE go_span; " V5_DROP "DROP TABLE go_mutex_waker; "

/* The rows of the tables of version 4, as text. */
static char *
v4_rows(struct tr_db *db)
{
	static const char *const q[] = {
		"SELECT * FROM go_blocked_stack ORDER BY 1, 2, 3, 4",
		"SELECT * FROM go_sched_lat ORDER BY 1, 2, 3, 4, 5",
		"SELECT * FROM go_sched_long ORDER BY 1, 2, 3, 4",
		"SELECT * FROM go_wait_sec ORDER BY 1, 2, 3",
		"SELECT * FROM go_mutex_waker ORDER BY 1, 2, 3, 4"
	};
	struct tr_error	 err;
	struct tr_buf	 b;
	sqlite3_stmt	*st;
	size_t		 i;
	int		 k;

	tr_error_init(&err);
	tr_buf_init(&b);
	for (i = 0; i < sizeof q / sizeof q[0]; i++) {
		st = tr_db_prepare(db, q[i], &err);
		ck_assert_msg(st != NULL, "%s", err.msg);
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (k = 0; k < sqlite3_column_count(st); k++) {
				const unsigned char *t =
				    sqlite3_column_text(st, k);

				tr_buf_printf(&b, "%s,", t ? (const char *)t :
				    "NULL");
			}
			tr_buf_adds(&b, "\n");
		}
		sqlite3_finalize(st);
	}
	return (b.data != NULL ? b.data : tr_xstrdup(""));
}

/*
 * Make the store at 'path' (holding the imports) one of version 'from'
 * by 'drop', then: the read-only open refuses it, the first writable one
 * migrates it to the same schema as a new store's, and 'rows' gives the
 * same text as before.
 */
static void
check_migration(char *path, struct tr_db *db, const char *drop, int from,
    char *(*rows)(struct tr_db *))
{
	struct tr_error	 err;
	char		*want, *have, *before, *after, msg[128];

	tr_error_init(&err);
	before = rows(db);
	want = schema_text(db);
	ck_assert_msg(tr_db_exec(db, V11_DROP, &err) == 0, "%s", err.msg);
	if (from < 10)
		ck_assert_msg(tr_db_exec(db, V10_DROP, &err) == 0, "%s",
		    err.msg);
	if (from < 9)
		ck_assert_msg(tr_db_exec(db, V9_DROP, &err) == 0, "%s",
		    err.msg);
	ck_assert_int_eq(tr_db_exec(db, drop, &err), 0);
	tr_db_free(db);
	ck_assert_ptr_null(tr_db_open(path, TR_DB_READONLY, &err));
	snprintf(msg, sizeof msg, "store schema version %d is older than %d; "
	    "run trace-import once to migrate it", from, TR_DB_VERSION);
	ck_assert_msg(strstr(err.msg, msg) != NULL, "%s", err.msg);
	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	have = schema_text(db);
	ck_assert_str_eq(have, want);
	after = rows(db);
	ck_assert_str_eq(after, before);
	tr_db_free(db);
	free(before);
	free(after);
	free(have);
	free(want);
	free(path);
}

/* A new store at 'path' with the Go traces 'files' of tests/data/gotrace. */
static struct tr_db *
gotrace_store(const char *path, const char *const *files, size_t n)
{
	const char		*data = getenv("TR_DATA");
	struct tr_error		 err;
	struct tr_import_opts	 opts;
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			*trace;
	size_t			 i;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	for (i = 0; i < n; i++) {
		trace = tr_xasprintf("%s/gotrace/%s", data ? data :
		    "tests/data", files[i]);
		tr_import_opts_init(&opts);
		ck_assert_msg(tr_import_file(db, trace, NULL, &opts, &res,
		    &err) == 0, "%s", err.msg);
		free(trace);
	}
	return (db);
}

/*
 * A store of version 3 (the tables of version 4 dropped) is migrated:
 * the same schema as a new store's, the same rows as the import made.
 */
START_TEST(test_migrate_v4)
{
	static const char *const files[] = { "gen122.trace" };
	char		*path = tmp_path("v3.db"), *before;
	struct tr_db	*db = gotrace_store(path, files, 1);

	before = v4_rows(db);
	ck_assert_int_gt(strlen(before), 1000);
	free(before);
	check_migration(path, db, V4_DROP "PRAGMA user_version = 3", 3,
	    v4_rows);
}
END_TEST

/* The rows of 'sql' as text: columns joined by ',', a row a line. */
static void
rows_text(struct tr_db *db, const char *sql, struct tr_buf *b)
{
	struct tr_error	 err;
	sqlite3_stmt	*st;
	int		 c, n;

	tr_error_init(&err);
	st = tr_db_prepare(db, sql, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	n = sqlite3_column_count(st);
	while (sqlite3_step(st) == SQLITE_ROW)
		for (c = 0; c < n; c++) {
			const unsigned char *t = sqlite3_column_text(st, c);

			tr_buf_printf(b, "%s%c", t ? (const char *)t : "NULL",
			    c < n - 1 ? ',' : '\n');
		}
	sqlite3_finalize(st);
}

/* go_span_pack's rows, as text. */
static char *
v6_rows(struct tr_db *db)
{
	struct tr_buf	 b;

	tr_buf_init(&b);
	rows_text(db, "SELECT source_id, kind, name_id, seq, ts, end_max, n, "
	    "hex(ts_list), hex(dur_list), hex(cut_list) FROM go_span_pack "
	    "ORDER BY 1, 2, 3, 4", &b);
	return (b.data != NULL ? b.data : tr_xstrdup(""));
}

/*
 * A store of version 5 (go_span_pack dropped) of two Go traces with
 * regions and tasks, some cut by the trace's end, is migrated: the same
 * schema as a new store's, the same packed rows as the imports made.
 */
START_TEST(test_migrate_v5)
{
	static const char *const files[] = {
		"go122-annotations.trace", "gen122.trace"
	};
	char		*path = tmp_path("v5.db");
	struct tr_db	*db = gotrace_store(path, files, 2);

	ck_assert_int_eq(q_int(db, "SELECT count(DISTINCT source_id) FROM "
	    "go_span_pack"), 2);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM go_span_pack WHERE "
	    "cut_list IS NOT NULL"), 2);
	check_migration(path, db, V6_DROP "PRAGMA user_version = 5", 5,
	    v6_rows);
}
END_TEST

/* go_blocked_bin's and go_mutex_waker's rows, as text. */
static char *
v7_rows(struct tr_db *db)
{
	struct tr_buf	 b;

	tr_buf_init(&b);
	rows_text(db, "SELECT * FROM go_blocked_bin ORDER BY 1, 2, 3, 4, 5",
	    &b);
	rows_text(db, "SELECT source_id, ts, coalesce(waker_goid, 0), "
	    "coalesce(callsite_id, 0), coalesce(blocked_callsite_id, 0), "
	    "count, total_ns FROM go_mutex_waker ORDER BY 1, 2, 3, 4, 5", &b);
	return (b.data != NULL ? b.data : tr_xstrdup(""));
}

/*
 * The points of every counter, with their types, in (track, metric, ts)
 * order and the order they were added; and the gpu views' rows.
 */
static char *
v8_rows(struct tr_db *db)
{
	struct tr_buf	 b;

	tr_buf_init(&b);
	rows_text(db, "SELECT source_id, track_id, name_id, ts, value, "
	    "typeof(value) FROM counter ORDER BY track_id, name_id, ts, id",
	    &b);
	rows_text(db, "SELECT count(*), sum(n), max(n) FROM counter_run", &b);
	rows_text(db, "SELECT gpu, ts, metric, value FROM gpu_metric "
	    "ORDER BY gpu, metric, ts, id", &b);
	rows_text(db, "SELECT gpu, pid, ts, metric, value FROM gpu_process "
	    "ORDER BY gpu, pid, metric, ts, id", &b);
	return (b.data != NULL ? b.data : tr_xstrdup(""));
}

/*
 * go_span's rows in slice id order (the order of a new store's rowids),
 * and go_span_pack's, goroutines included.
 */
static char *
v9_rows(struct tr_db *db)
{
	struct tr_buf	 b;

	tr_buf_init(&b);
	rows_text(db, "SELECT source_id, kind, name_id, ts, id, dur, task_id, "
	    "coalesce(goid, -1), coalesce(depth, -1), coalesce(callsite_id, "
	    "-1), start_unknown, unfinished FROM go_span s ORDER BY id", &b);
	rows_text(db, "SELECT source_id, kind, name_id, seq, ts, end_max, n, "
	    "hex(ts_list), hex(dur_list), hex(goid_list), coalesce(hex("
	    "cut_list), '-') FROM go_span_pack ORDER BY 1, 2, 3, 4", &b);
	return (b.data != NULL ? b.data : tr_xstrdup(""));
}

/*
 * A store of version 8 (go_span keyed by name, go_span_pack without the
 * goroutines), and one of version 9 (go_span a table the import wrote, the
 * views' source_id the run's), of three Go traces, some of their regions
 * cut by the trace's ends, is migrated: the same schema as a new store's,
 * go_span's rows (a view of the slices since version 10) those the table
 * held, go_span_pack as the import packed it.
 */
START_TEST(test_migrate_v8)
{
	static const char *const files[] = {
		"go122-annotations.trace", "go119-fixture.trace",
		"gen122.trace"
	};
	char		*path = tmp_path(_i == 0 ? "v8.db" : "v9.db");
	struct tr_db	*db = gotrace_store(path, files, 3);

	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM go_span"), 19);
	ck_assert_int_gt(q_int(db, "SELECT count(*) FROM go_span_pack WHERE "
	    "cut_list IS NOT NULL"), 0);
	ck_assert_int_gt(q_int(db, "SELECT count(DISTINCT hex(goid_list)) "
	    "FROM go_span_pack"), 3);
	check_migration(path, db, _i == 0 ? "PRAGMA user_version = 8" :
	    "PRAGMA user_version = 9", 8 + _i, v9_rows);
}
END_TEST

/* The folds' rows, as text. */
static char *
v11_rows(struct tr_db *db)
{
	struct tr_buf	 b;

	tr_buf_init(&b);
	rows_text(db, "SELECT * FROM fold_node ORDER BY id", &b);
	rows_text(db, "SELECT * FROM sample_fold ORDER BY rowid", &b);
	return (b.data != NULL ? b.data : tr_xstrdup(""));
}

/*
 * A store of version 10 (no folds) of perf scripts and pprof profiles is
 * migrated: the same schema as a new store's, the same folds, row for row
 * and id for id, as the imports made, one source after the other.
 */
START_TEST(test_migrate_v10)
{
	static const char *const files[] = { "core/small.perf.txt",
	    "core/small2.perf.txt",
	    "perf/flamegraph/perf-vertx-stacks-01.txt.gz",
	    "pprof/sample.cpu.pb.gz" };
	const char		*data = getenv("TR_DATA");
	char			*path = tmp_path("v10.db"), *f;
	struct tr_import_opts	 opts;
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;
	size_t			 i;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		f = tr_xasprintf("%s/%s", data ? data : "tests/data", files[i]);
		tr_import_opts_init(&opts);
		ck_assert_msg(tr_import_file(db, f, NULL, &opts, &res,
		    &err) == 0, "%s", err.msg);
		free(f);
	}
	ck_assert_int_eq(q_int(db, "SELECT count(DISTINCT source_id) FROM "
	    "sample_fold"), 4);
	/* Fewer folds than aggregates: frames fold by name. */
	ck_assert_int_lt(q_int(db, "SELECT count(*) FROM sample_fold"),
	    q_int(db, "SELECT count(*) FROM sample_stack"));
	check_migration(path, db, "PRAGMA user_version = 10", 10,
	    v11_rows);
}
END_TEST

/*
 * A store of version 7 (counters a row each) of a Go trace and GPU logs
 * is migrated: the same schema as a new store's, the same points in the
 * same runs as the imports made (each metric of each log takes more than
 * one run: more than TR_COUNTER_RUN points).
 */
START_TEST(test_migrate_v7)
{
	static const char *const files[] = { "gen122.trace" };
	static const char *const gpu[] = { "gpumem/gpu.csv",
	    "gpumem/apps.csv" };
	const char		*data = getenv("TR_DATA");
	char			*path = tmp_path("v7.db"), *f;
	struct tr_db		*db = gotrace_store(path, files, 1);
	struct tr_import_opts	 opts;
	struct tr_import_result	 res;
	struct tr_error		 err;
	size_t			 i;

	tr_error_init(&err);
	for (i = 0; i < 2; i++) {
		f = tr_xasprintf("%s/%s", data ? data : "tests/data", gpu[i]);
		tr_import_opts_init(&opts);
		tr_import_opts_set(&opts, "tz", "UTC");
		ck_assert_msg(tr_import_file(db, f, NULL, &opts, &res,
		    &err) == 0, "%s", err.msg);
		free(f);
	}
	ck_assert_int_gt(q_int(db, "SELECT count(*) FROM counter_run "
	    "WHERE n = 256"), 4);
	ck_assert_int_gt(q_int(db, "SELECT count(*) FROM gpu_process"), 1000);
	ck_assert_int_gt(q_int(db, "SELECT count(*) FROM counter c JOIN track "
	    "t ON t.id = c.track_id WHERE t.source_id = 1"), 0);
	check_migration(path, db, V8_DROP "PRAGMA user_version = 7", 7,
	    v8_rows);
}
END_TEST

/*
 * A store of version 6 (go_blocked_bin dropped, go_mutex_waker as it
 * was) of two Go traces is migrated: the same schema as a new store's,
 * the same per-second rows as the imports made.
 */
START_TEST(test_migrate_v6)
{
	static const char *const files[] = {
		"go122-annotations.trace", "gen122.trace"
	};
	char		*path = tmp_path("v6.db");
	struct tr_db	*db = gotrace_store(path, files, 2);

	ck_assert_int_gt(q_int(db, "SELECT count(*) FROM go_blocked_bin"), 0);
	ck_assert_int_gt(q_int(db, "SELECT count(*) FROM go_mutex_waker"), 0);
	check_migration(path, db, V7_DROP "PRAGMA user_version = 6", 6,
	    v7_rows);
}
END_TEST

START_TEST(test_migrate_v3)
{
	static const char	*const annotation_counts =
	    "SELECT (SELECT count(*) FROM go_task) || ',' || "
	    "(SELECT count(*) FROM go_region) || ',' || "
	    "(SELECT count(*) FROM go_log) || ',' || "
	    "(SELECT count(*) FROM go_bin)";
	const char		*data = getenv("TR_DATA");
	struct tr_error		 err;
	struct tr_import_opts	 opts;
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			*path = tmp_path("v2.db"), *trace, *want;
	char			*have, *before = NULL, *after = NULL;
	sqlite3_stmt		*st;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	if (data != NULL) {
		trace = tr_xasprintf("%s/gotrace/go122-annotations.trace",
		    data);
		tr_import_opts_init(&opts);
		ck_assert_msg(tr_import_file(db, trace, NULL, &opts, &res,
		    &err) == 0, "%s", err.msg);
		free(trace);
		st = tr_db_prepare(db, annotation_counts, &err);
		ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
		before = tr_xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		/* go122-annotations: 1 task, 5 regions, 1 log (and bins) */
		ck_assert_int_eq(strncmp(before, "1,5,1,", 6), 0);
	}
	want = schema_text(db);
	ck_assert_int_eq(tr_db_exec(db, "DROP VIEW go_task; DROP VIEW "
	    "go_region; DROP VIEW go_log; DROP TABLE go_bin; DROP TABLE "
	    "go_summary; DROP TABLE go_state_stack; " V11_DROP V10_DROP
	    V4_DROP "PRAGMA user_version = 2", &err), 0);
	tr_db_free(db);
	/* The readers ask for the migration, and change nothing. */
	ck_assert_ptr_null(tr_db_open(path, TR_DB_READONLY, &err));
	ck_assert_msg(strstr(err.msg, "store schema version 2 is older than "
	    "11; run trace-import once to migrate it") != NULL, "%s", err.msg);
	tr_error_init(&err);
	db = tr_db_open(path, TR_DB_READONLY | TR_DB_NOCREATE, &err);
	ck_assert_ptr_null(db);
	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	have = schema_text(db);
	ck_assert_str_eq(have, want);
	if (data != NULL) {
		st = tr_db_prepare(db, annotation_counts, &err);
		ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
		after = tr_xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		ck_assert_str_eq(after, before);
	}
	tr_db_free(db);
	free(before);
	free(after);
	free(have);
	free(want);
	free(path);
}
END_TEST

/*
 * A store of version 3 is version 4 without go_span and with version 3's
 * runnable_peak (the highest 1 ms mean, not the exact peak): made here
 * from a new store with a Go trace's tasks and regions in it by dropping
 * the table and spoiling the peaks.  The migration brings back the same
 * schema and the same rows, peaks included.
 */
START_TEST(test_migrate_v4_spans)
{
	static const char	*const spans =
	    "SELECT group_concat(r, ';') FROM (SELECT source_id || ',' || "
	    "kind || ',' || name_id || ',' || ts || ',' || id || ',' || dur "
	    "|| ',' || task_id || ',' || coalesce(goid, '-') || ',' || "
	    "coalesce(depth, '-') || ',' || coalesce(callsite_id, '-') || "
	    "',' || start_unknown || ',' || unfinished AS r FROM go_span "
	    "ORDER BY source_id, kind, name_id, ts, id)";
	static const char	*const bins =
	    "SELECT count(*) || ',' || sum(running_ns) || ',' || "
	    "sum(runnable_ns) || ',' || sum(runnable_peak) FROM go_bin";
	const char		*data = getenv("TR_DATA");
	struct tr_error		 err;
	struct tr_import_opts	 opts;
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			*path = tmp_path("v3.db"), *trace, *want;
	char			*have, *before, *after, *b0, *b1;

	if (data == NULL)
		return;
	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	trace = tr_xasprintf("%s/gotrace/go122-annotations.trace", data);
	tr_import_opts_init(&opts);
	ck_assert_msg(tr_import_file(db, trace, NULL, &opts, &res, &err) == 0,
	    "%s", err.msg);
	free(trace);
	/* go122-annotations: 1 task, 5 regions */
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM go_span WHERE "
	    "kind = 'task'"), 1);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM go_span WHERE "
	    "kind = 'region'"), 5);
	before = q_text(db, spans);
	b0 = q_text(db, bins);
	want = schema_text(db);
	ck_assert_int_gt(q_int(db, "SELECT sum(runnable_peak) FROM go_bin"),
	    0);
	ck_assert_int_eq(tr_db_exec(db, V11_DROP V10_DROP V4_DROP "UPDATE "
	    "go_bin SET runnable_peak = runnable_peak / 2; PRAGMA "
	    "user_version = 3", &err), 0);
	tr_db_free(db);
	ck_assert_ptr_null(tr_db_open(path, TR_DB_READONLY, &err));
	ck_assert_msg(strstr(err.msg, "store schema version 3 is older than "
	    "11; run trace-import once to migrate it") != NULL, "%s", err.msg);
	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	have = schema_text(db);
	ck_assert_str_eq(have, want);
	after = q_text(db, spans);
	ck_assert_str_eq(after, before);
	b1 = q_text(db, bins);
	ck_assert_str_eq(b1, b0);
	tr_db_free(db);
	free(before);
	free(after);
	free(b0);
	free(b1);
	free(have);
	free(want);
	free(path);
}
END_TEST

/*
 * tests/data/core/empty.db is a store with nothing in it (journal mode
 * DELETE: one self-contained file), for golden tests of the tools on an
 * empty store.  It must match the current schema; this test rewrites it
 * under TR_UPDATE_GOLDEN=1, like the golden files.
 */
START_TEST(test_empty_fixture)
{
	const char	*data = getenv("TR_DATA"), *upd;
	struct tr_error	 err;
	struct tr_db	*db, *ref;
	char		*path, *have, *want, *sql;
	size_t		 i;

	if (data == NULL)
		return;		/* run by hand: no data directory known */
	path = tr_xasprintf("%s/core/empty.db", data);
	tr_error_init(&err);
	upd = getenv("TR_UPDATE_GOLDEN");
	if (upd != NULL && *upd != '\0') {
		unlink(path);
		db = tr_db_open(path, 0, &err);
		ck_assert_msg(db != NULL, "%s", err.msg);
		ck_assert_int_eq(tr_db_exec(db, "PRAGMA journal_mode = DELETE",
		    &err), 0);
		tr_db_free(db);
	}
	db = tr_db_open(path, TR_DB_READONLY, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ref = tr_db_open(":memory:", 0, &err);
	have = schema_text(db);
	want = schema_text(ref);
	ck_assert_msg(strcmp(have, want) == 0, "%s is stale: run "
	    "TR_UPDATE_GOLDEN=1 make check TESTS=tests/unit/check-db", path);
	for (i = 0; tables[i] != NULL; i++) {
		sql = tr_xasprintf("SELECT count(*) FROM %s", tables[i]);
		ck_assert_int_eq(q_int(db, sql), 0);
		free(sql);
	}
	free(have);
	free(want);
	tr_db_free(ref);
	tr_db_free(db);
	free(path);
}
END_TEST

/* --- the import transaction ----------------------------------------- */

/*
 * A fake importer: each line "FRAME;FRAME;..." is one sample of that
 * stack, at ts = line number * 1000.  A line "fail" fails the import
 * after everything before it was written.
 */
static int
fake_run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	const char	*line, *p, *semi;
	size_t		 len, n;
	int64_t		 frames[32], ev, th;
	struct tr_frame	 f;
	struct tr_sample s;
	int		 r;

	tr_import_set_version(ctx, "fake-1");
	tr_import_set_clock(ctx, "monotonic");
	json_object_set_new(tr_import_meta(ctx), "fake", json_true());
	if ((ev = tr_writer_add_str(wr, "cpu-clock", 9, err)) < 0)
		return (-1);
	if ((th = tr_writer_add_thread(wr, 42, 43, "worker", 6, err)) < 0)
		return (-1);
	while ((r = tr_input_getline(in, &line, &len, err)) == 1) {
		if (len == 4 && memcmp(line, "fail", 4) == 0)
			return (tr_input_error(in, err, 1, "fake failure"));
		n = 0;
		for (p = line; p < line + len && n < 32; p = semi + 1) {
			semi = memchr(p, ';', (size_t)(line + len - p));
			if (semi == NULL)
				semi = line + len;
			memset(&f, 0, sizeof f);
			f.name = p;
			f.name_len = (size_t)(semi - p);
			f.module = "fake.so";
			f.module_len = 7;
			if ((frames[n++] = tr_writer_add_frame(wr, &f,
			    err)) < 0)
				return (-1);
		}
		memset(&s, 0, sizeof s);
		s.ts = tr_input_lineno(in) * 1000;
		s.has_ts = 1;
		s.thread_id = th;
		s.cpu = 1;
		s.event_id = ev;
		s.value = 1;
		if ((s.callsite_id = tr_writer_add_stack(wr, frames, n,
		    err)) < 0 || tr_writer_add_sample(wr, &s, err) < 0)
			return (-1);
	}
	return (r);
}

/* Reads the first line only, and stores it as one sample. */
static int
head_run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	struct tr_writer	*wr = tr_import_writer(ctx);
	const char	*line;
	size_t		 len;
	struct tr_sample s;

	if (tr_input_getline(in, &line, &len, err) != 1)
		return (tr_input_error(in, err, 0, "no first line"));
	memset(&s, 0, sizeof s);
	s.cpu = -1;
	if ((s.event_id = tr_writer_add_str(wr, line, len, err)) < 0 ||
	    tr_writer_add_sample(wr, &s, err) < 0)
		return (-1);
	return (0);
}

static int
no_probe(const unsigned char *p, size_t len)
{
	(void)p;
	(void)len;
	return (0);
}

static const struct tr_importer fake = {
	.name = "fake", .summary = "test", .probe = no_probe, .run = fake_run,
};
static const struct tr_importer head = {
	.name = "head", .summary = "test", .probe = no_probe, .run = head_run,
};

/* The same, its rows written by the writer's thread. */
static const struct tr_importer fake_thr = {
	.name = "fake", .summary = "test", .probe = no_probe, .run = fake_run,
	.writer_thread = 1,
};

static size_t	test_cache_cap;	/* opts.cache_cap for import_mem() */

static int
import_mem(struct tr_db *db, const struct tr_importer *imp, const char *name,
    const void *data, size_t len, struct tr_import_result *res,
    struct tr_error *err)
{
	struct tr_import_opts	 opts;
	struct tr_input		*in = tr_input_mem(name, data, len);
	int			 rc;

	tr_import_opts_init(&opts);
	opts.format = imp;
	opts.cache_cap = test_cache_cap;
	tr_error_init(err);
	rc = tr_import_input(db, in, &opts, res, err);
	tr_input_free(in);
	return (rc);
}

static const char	good[] = "main;a;b\nmain;a;c\nmain;a;b\n";

START_TEST(test_import_ok)
{
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	sqlite3_stmt		*st;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(import_mem(db, &fake, "good.txt", good, sizeof good - 1,
	    &res, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(res.source_id, 1);
	ck_assert_int_eq(res.duplicate, 0);
	ck_assert_int_eq(res.skipped, 0);
	ck_assert_str_eq(res.format, "fake");
	ck_assert_int_eq(res.bytes, sizeof good - 1);
	ck_assert_int_eq(res.samples, 3);
	ck_assert_int_eq(res.frames, 4);
	ck_assert_int_eq(res.callsites, 4);
	ck_assert_int_eq(res.ts_min, 1000);
	ck_assert_int_eq(res.ts_max, 3000);
	st = tr_db_prepare(db, "SELECT path, format, format_version, size, "
	    "compression, clock, ts_min, ts_max, rows, meta FROM source", &err);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "good.txt");
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 1), "fake");
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 2), "fake-1");
	ck_assert_int_eq(sqlite3_column_int64(st, 3), sizeof good - 1);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 4), "none");
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 5),
	    "monotonic");
	ck_assert_int_eq(sqlite3_column_int64(st, 6), 1000);
	ck_assert_int_eq(sqlite3_column_int64(st, 7), 3000);
	ck_assert_int_eq(sqlite3_column_int64(st, 8), 3);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 9),
	    "{\"fake\":true}");
	ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	/* The stack view walks a leaf back to its root. */
	ck_assert_int_eq(q_int(db, "SELECT group_concat(name, ';') = "
	    "'main;a;c' FROM (SELECT f.name FROM stack s JOIN frame f "
	    "ON f.id = s.frame_id WHERE s.callsite_id = (SELECT callsite_id "
	    "FROM sample WHERE ts = 2000) ORDER BY s.depth)"), 1);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM thread"), 1);
	ck_assert_int_eq(q_int(db, "SELECT pid FROM process"), 42);
	tr_db_free(db);
}
END_TEST

/*
 * More keys than the writer logs before it makes its filter of them
 * (writer.c SEEN_LOG), with caches emptied before (cap 20000) or after
 * (60000) that: every key is added once, and those added again are found.
 */
START_TEST(test_import_cache_evict_many)
{
	static const size_t	 caps[] = { 20000, 60000 };
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	struct tr_buf		 b;
	size_t			 c;
	int			 i;

	tr_buf_init(&b);
	for (i = 0; i < 35000; i++)
		tr_buf_printf(&b, "main;f%d;g%d\n", i, i);
	for (i = 0; i < 35000; i += 7)
		tr_buf_printf(&b, "main;f%d;g%d\n", i, i);
	for (c = 0; c < sizeof caps / sizeof caps[0]; c++) {
		tr_error_init(&err);
		db = tr_db_open(":memory:", 0, &err);
		test_cache_cap = caps[c];
		ck_assert_msg(import_mem(db, &fake, "many.txt", b.data, b.len,
		    &res, &err) == 0, "%s", err.msg);
		test_cache_cap = 0;
		ck_assert_int_eq(res.samples, 40000);
		ck_assert_int_eq(res.frames, 70001);
		ck_assert_int_eq(res.callsites, 70001);
		ck_assert_int_eq(q_int(db, "SELECT count(*) FROM frame"),
		    70001);
		ck_assert_int_eq(q_int(db, "SELECT count(*) FROM callsite"),
		    70001);
		ck_assert_int_eq(q_int(db, "SELECT count(DISTINCT callsite_id) "
		    "FROM sample"), 35000);
		tr_db_free(db);
	}
	tr_buf_release(&b);
}
END_TEST

/*
 * Interning caches that overflow are emptied; what they held is then
 * found in the store, never inserted twice (the unique keys would fail).
 */
START_TEST(test_import_cache_evict)
{
	static const char	 one[] = "main;a;b\nmain;a;c\nmain;a;b\n"
	    "main;d\nmain;a;b;e\nmain;a;c\nmain;a;b\n";
	static const char	 two[] = "main;a;b\nmain;f\nmain;a;b;e\n";
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	test_cache_cap = 2;
	ck_assert_msg(import_mem(db, &fake, "one.txt", one, sizeof one - 1,
	    &res, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(res.frames, 6);
	ck_assert_int_eq(res.callsites, 6);
	ck_assert_msg(import_mem(db, &fake, "two.txt", two, sizeof two - 1,
	    &res, &err) == 0, "%s", err.msg);
	test_cache_cap = 0;
	ck_assert_int_eq(res.frames, 1);
	ck_assert_int_eq(res.callsites, 1);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM frame"), 7);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM callsite"), 7);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM str"), 1);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM thread"), 1);
	/* Each of the five samples of main;a;b has the same stack. */
	ck_assert_int_eq(q_int(db, "SELECT count(DISTINCT callsite_id) FROM "
	    "sample WHERE (source_id = 1 AND ts IN (1000, 3000, 7000)) OR "
	    "(source_id = 2 AND ts = 1000)"), 1);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM sample"), 10);
	tr_db_free(db);
}
END_TEST

/*
 * Through the writer thread: the same rows and ids as without it, also
 * when emptied caches make the writer look rows up (it waits for the
 * thread first).  Many lines, so that blocks are handed over.
 */
START_TEST(test_import_thread)
{
	static const char	*const stacks[] = { "main;a;b", "main;a;c",
	    "main;d", "main;a;b;e", "main;f;g;h" };
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db[2];
	struct tr_buf		 text;
	int			 i, k;
	const char		*q = "SELECT group_concat(x, ',') FROM (SELECT "
	    "s.id || ':' || s.callsite_id || ':' || s.ts || ':' || c.frame_id "
	    "|| ':' || coalesce(c.parent_id, 0) || ':' || f.name AS x FROM "
	    "sample s JOIN callsite c ON c.id = s.callsite_id JOIN frame f "
	    "ON f.id = c.frame_id ORDER BY s.id)";
	char			*got[2];

	tr_buf_init(&text);
	for (i = 0; i < 3000; i++)
		tr_buf_printf(&text, "%s;x%d\n", stacks[i % 5], i % 300);
	for (k = 0; k < 2; k++) {
		tr_error_init(&err);
		db[k] = tr_db_open(":memory:", 0, &err);
		ck_assert_ptr_nonnull(db[k]);
		test_cache_cap = 50;
		ck_assert_msg(import_mem(db[k], k ? &fake_thr : &fake, "one.txt",
		    text.data, text.len, &res, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(res.samples, 3000);
		ck_assert_int_eq(res.frames, 9 + 300);
		/* Again, over the rows of the first: all found. */
		ck_assert_msg(import_mem(db[k], k ? &fake_thr : &fake,
		    "two.txt", text.data, text.len - 1, &res, &err) == 0, "%s",
		    err.msg);
		test_cache_cap = 0;
		ck_assert_int_eq(res.samples, 3000);
		ck_assert_int_eq(res.frames, 0);
		ck_assert_int_eq(res.callsites, 0);
		ck_assert_int_eq(q_int(db[k], "SELECT count(*) FROM sample"),
		    6000);
		got[k] = q_text(db[k], q);
	}
	ck_assert_str_eq(got[0], got[1]);
	for (k = 0; k < 2; k++) {
		free(got[k]);
		tr_db_free(db[k]);
	}
	tr_buf_release(&text);
}
END_TEST

/*
 * A write that fails in the writer thread fails the import, with
 * SQLite's message, and leaves the store byte-identical; so does an
 * importer's error while the thread still has rows to write.
 */
START_TEST(test_import_thread_fail)
{
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	struct tr_buf		 text;
	char			*path = tmp_path("thr.db"), *before, *msg;
	size_t			 blen;
	int			 i;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_int_eq(import_mem(db, &fake_thr, "good.txt", good,
	    sizeof good - 1, &res, &err), 0);
	ck_assert_int_eq(tr_db_exec(db, "CREATE TRIGGER full BEFORE INSERT "
	    "ON sample WHEN new.ts = 9000000 BEGIN SELECT RAISE(FAIL, "
	    "'no room'); END", &err), 0);
	tr_db_free(db);
	before = read_file(path, &blen);
	tr_buf_init(&text);
	for (i = 0; i < 12000; i++)
		tr_buf_printf(&text, "main;a%d;b\n", i);
	db = tr_db_open(path, 0, &err);
	ck_assert_int_eq(import_mem(db, &fake_thr, "big.txt", text.data,
	    text.len, &res, &err), -1);
	msg = tr_xasprintf("%s", err.msg);
	ck_assert_str_eq(msg, "cannot write to store: no room");
	free(msg);
	ck_assert_int_eq(err.code, TR_EDB);
	/* Line 5001 fails, before the trigger's row. */
	tr_buf_reset(&text);
	for (i = 0; i < 5000; i++)
		tr_buf_printf(&text, "main;a%d;b\n", i);
	tr_buf_adds(&text, "fail\n");
	ck_assert_int_eq(import_mem(db, &fake_thr, "bad.txt", text.data,
	    text.len, &res, &err), -1);
	ck_assert_str_eq(err.msg, "fake failure");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM sample"), 3);
	tr_db_free(db);
	assert_same_file(path, before, blen);
	tr_buf_release(&text);
	free(before);
	free(path);
}
END_TEST

/* An importer that fails midway leaves the store byte-identical. */
START_TEST(test_import_fail_unchanged)
{
	static const char	 bad[] = "main;x;y\nmain;z\nfail\nmain;q\n";
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			*path = tmp_path("tx.db"), *before, buf[256];
	char			*wal;
	size_t			 blen;
	struct stat		 st;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_int_eq(import_mem(db, &fake, "good.txt", good,
	    sizeof good - 1, &res, &err), 0);
	tr_db_free(db);
	before = read_file(path, &blen);
	ck_assert_uint_gt(blen, 0);

	db = tr_db_open(path, 0, &err);
	ck_assert_int_eq(import_mem(db, &fake, "bad.txt", bad, sizeof bad - 1,
	    &res, &err), -1);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "bad.txt:3:1: fake failure");
	ck_assert_int_eq(err.code, TR_EDATA);
	/* Nothing of it is visible, even before closing. */
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM source"), 1);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM sample"), 3);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM frame"), 4);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM str"), 1);
	/* The same handle imports again after the failure. */
	ck_assert_int_eq(import_mem(db, &fake, "good.txt", good,
	    sizeof good - 1, &res, &err), 0);
	ck_assert_int_eq(res.duplicate, 1);
	tr_db_free(db);
	assert_same_file(path, before, blen);
	wal = tr_xasprintf("%s-wal", path);
	ck_assert_int_eq(stat(wal, &st), -1);
	free(wal);
	free(before);
	free(path);
}
END_TEST

/* Identical content again is a no-op naming the first source. */
START_TEST(test_import_duplicate)
{
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			*path = tmp_path("dup.db"), *before, *gzp;
	size_t			 blen;
	struct tr_input		*in;
	struct tr_import_opts	 opts;
	gzFile			 gf;

	tr_error_init(&err);
	db = tr_db_open(path, 0, &err);
	ck_assert_int_eq(import_mem(db, &fake, "other.txt", "x\n", 2, &res,
	    &err), 0);
	ck_assert_int_eq(import_mem(db, &fake, "good.txt", good,
	    sizeof good - 1, &res, &err), 0);
	ck_assert_int_eq(res.source_id, 2);
	tr_db_free(db);
	before = read_file(path, &blen);

	db = tr_db_open(path, 0, &err);
	ck_assert_int_eq(import_mem(db, &fake, "again.txt", good,
	    sizeof good - 1, &res, &err), 0);
	ck_assert_int_eq(res.duplicate, 1);
	ck_assert_int_eq(res.source_id, 2);
	ck_assert_int_eq(res.samples, 0);
	ck_assert_int_eq(res.frames, 0);
	ck_assert_int_eq(res.callsites, 0);
	/* Compressed, it is the same content. */
	gzp = tmp_path("good.txt.gz");
	gf = gzopen(gzp, "wb");
	ck_assert_ptr_nonnull(gf);
	ck_assert_int_eq(gzwrite(gf, good, sizeof good - 1), sizeof good - 1);
	ck_assert_int_eq(gzclose(gf), Z_OK);
	tr_import_opts_init(&opts);
	opts.format = &fake;
	ck_assert_int_eq(tr_import_file(db, gzp, "good.txt.gz", &opts, &res,
	    &err), 0);
	ck_assert_int_eq(res.duplicate, 1);
	ck_assert_int_eq(res.source_id, 2);
	/* Another format over the same bytes is still the same content. */
	in = tr_input_mem("g", good, sizeof good - 1);
	opts.format = &head;
	ck_assert_int_eq(tr_import_input(db, in, &opts, &res, &err), 0);
	ck_assert_int_eq(res.duplicate, 1);
	tr_input_free(in);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM source"), 2);
	tr_db_free(db);
	assert_same_file(path, before, blen);
	free(gzp);
	free(before);
	free(path);
}
END_TEST

/*
 * The content hash covers the whole input even when the importer stops
 * reading early: inputs sharing a first line are different sources.
 */
START_TEST(test_import_hash_whole)
{
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	size_t			 n = 3 << 20;
	char			*a = tr_xmalloc(n), *b = tr_xmalloc(n);

	/* Longer than the input's window, different only at the end. */
	memset(a, 'x', n);
	memcpy(a, "same\n", 5);
	memcpy(b, a, n);
	b[n - 1] = 'y';
	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_int_eq(import_mem(db, &head, "a", a, n, &res, &err), 0);
	ck_assert_int_eq(res.source_id, 1);
	ck_assert_int_eq(res.bytes, n);
	ck_assert_int_eq(import_mem(db, &head, "b", b, n, &res, &err), 0);
	ck_assert_int_eq(res.duplicate, 0);
	ck_assert_int_eq(res.source_id, 2);
	ck_assert_int_eq(import_mem(db, &head, "a2", a, n, &res, &err), 0);
	ck_assert_int_eq(res.duplicate, 1);
	ck_assert_int_eq(res.source_id, 1);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM source"), 2);
	ck_assert_int_eq(q_int(db, "SELECT sum(size) FROM source"),
	    2 * (int64_t)n);
	tr_db_free(db);
	free(a);
	free(b);
}
END_TEST

/* A stream error after the importer stopped reading still fails. */
START_TEST(test_import_tail_error)
{
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	struct tr_buf		 text;
	unsigned char		*z;
	uLongf			 zlen;
	z_stream		 zs;
	char			 buf[256], want[256];
	int			 i;

	tr_buf_init(&text);
	for (i = 0; i < 20000; i++)
		tr_buf_printf(&text, "line %d\n", i * 7919 % 10007);
	zlen = compressBound((uLong)text.len) + 32;
	z = tr_xmalloc(zlen);
	memset(&zs, 0, sizeof zs);
	ck_assert_int_eq(deflateInit2(&zs, 9, Z_DEFLATED, 31, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)text.data;
	zs.avail_in = (uInt)text.len;
	zs.next_out = z;
	zs.avail_out = (uInt)zlen;
	ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
	zlen = zs.total_out;
	deflateEnd(&zs);
	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	/* Cut before the end: 'head' reads line 1 fine, the rest is bad. */
	ck_assert_int_eq(import_mem(db, &head, "cut.gz", z, zlen - 20, &res,
	    &err), -1);
	tr_error_format(&err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "cut.gz: offset %lu (compressed): truncated gzip stream",
	    (unsigned long)zlen - 20);
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM source"), 0);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM sample"), 0);
	tr_db_free(db);
	free(z);
	tr_buf_release(&text);
}
END_TEST

START_TEST(test_import_detect)
{
	static const unsigned char garbage[] = {
		0x00, 0x01, 0xfe, 0xff, 0x7f, 0x80, 0x00, 0x00, 0x13, 0x37
	};
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_import_opts	 opts;
	struct tr_db		*db;
	struct tr_input		*in;
	char			 buf[512], want[512], *names;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	tr_import_opts_init(&opts);
	in = tr_input_mem("empty.txt", "", 0);
	ck_assert_int_eq(tr_import_input(db, in, &opts, &res, &err), -1);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "empty.txt: empty input");
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_input_free(in);

	tr_error_init(&err);
	in = tr_input_mem("junk.bin", garbage, sizeof garbage);
	ck_assert_int_eq(tr_import_input(db, in, &opts, &res, &err), -1);
	tr_error_format(&err, buf, sizeof buf);
	names = tr_importer_names();
	snprintf(want, sizeof want, "junk.bin: unrecognised format; use "
	    "--format with one of: %s", names);
	free(names);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);

	/* Skipped instead, when asked. */
	opts.skip_unknown = 1;
	tr_error_init(&err);
	in = tr_input_mem("junk.bin", garbage, sizeof garbage);
	ck_assert_int_eq(tr_import_input(db, in, &opts, &res, &err), 0);
	ck_assert_int_eq(res.skipped, 1);
	tr_input_free(in);
	in = tr_input_mem("empty.txt", "", 0);
	ck_assert_int_eq(tr_import_input(db, in, &opts, &res, &err), 0);
	ck_assert_int_eq(res.skipped, 1);
	tr_input_free(in);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM source"), 0);
	tr_db_free(db);
}
END_TEST

START_TEST(test_importer_table)
{
	size_t	 i;
	char	*names;

	ck_assert_ptr_nonnull(tr_importer_table[0]);
	for (i = 0; tr_importer_table[i] != NULL; i++) {
		ck_assert_ptr_nonnull(tr_importer_table[i]->summary);
		ck_assert_ptr_nonnull(tr_importer_table[i]->probe);
		ck_assert_ptr_nonnull(tr_importer_table[i]->run);
		ck_assert_ptr_eq(tr_importer_find(tr_importer_table[i]->name),
		    tr_importer_table[i]);
		/* Kept sorted, names unique. */
		if (tr_importer_table[i + 1] != NULL)
			ck_assert_msg(strcmp(tr_importer_table[i]->name,
			    tr_importer_table[i + 1]->name) < 0,
			    "'%s' before '%s'", tr_importer_table[i]->name,
			    tr_importer_table[i + 1]->name);
		/* Nothing claims empty input. */
		ck_assert_int_eq(tr_importer_table[i]->probe(
		    (const unsigned char *)"", 0), 0);
	}
	ck_assert_ptr_null(tr_importer_find("nope"));
	ck_assert_ptr_null(tr_importer_find(""));
	ck_assert_ptr_null(tr_importer_find("perf"));
	ck_assert_ptr_nonnull(tr_importer_find("perf-script"));
	names = tr_importer_names();
	ck_assert_ptr_nonnull(strstr(names, "perf-script"));
	ck_assert_int_eq(strncmp(names, tr_importer_table[0]->name,
	    strlen(tr_importer_table[0]->name)), 0);
	free(names);
}
END_TEST

START_TEST(test_import_opts)
{
	struct tr_import_opts	o;
	char			k[TR_IMPORT_MAXOPTS + 1][8];
	int			i;

	tr_import_opts_init(&o);
	ck_assert_ptr_null(o.format);
	ck_assert_int_eq(o.nopts, 0);
	for (i = 0; i < TR_IMPORT_MAXOPTS; i++) {
		snprintf(k[i], sizeof k[i], "k%d", i);
		ck_assert_int_eq(tr_import_opts_set(&o, k[i], "v"), 0);
	}
	snprintf(k[i], sizeof k[i], "k%d", i);
	ck_assert_int_eq(tr_import_opts_set(&o, k[i], "v"), -1);
	/* Replacing an existing key still works when full. */
	ck_assert_int_eq(tr_import_opts_set(&o, "k3", "w"), 0);
	ck_assert_int_eq(o.nopts, TR_IMPORT_MAXOPTS);
	ck_assert_str_eq(o.vals[3], "w");
}
END_TEST

/* --- directories ---------------------------------------------------- */

static void
mkdir_p(const char *rel)
{
	char	*p = tmp_path(rel);

	ck_assert_int_eq(mkdir(p, 0755), 0);
	free(p);
}

static void
touch(const char *rel)
{
	char	*p = tmp_path(rel);

	write_file(p, "x", 1);
	free(p);
}

START_TEST(test_list_dir)
{
	static const char *const want[] = {
		"d/a-b.txt", "d/a/y.txt", "d/a/z.txt", "d/b.txt",
		"d/c/d/e/f.txt", "d/c/d/g", NULL
	};
	struct tr_error	 err;
	char		**paths, *root, *p, buf[512];
	size_t		 n, i;

	mkdir_p("d");
	mkdir_p("d/a");
	mkdir_p("d/c");
	mkdir_p("d/c/d");
	mkdir_p("d/c/d/e");
	mkdir_p("d/.git");
	mkdir_p("d/empty");
	touch("d/b.txt");
	touch("d/a/z.txt");
	touch("d/a/y.txt");
	touch("d/a/.hidden");
	touch("d/a-b.txt");
	touch("d/.dot");
	touch("d/.git/config");
	touch("d/c/d/e/f.txt");
	touch("d/c/d/g");
	root = tmp_path("d");
	tr_error_init(&err);
	ck_assert_int_eq(tr_import_list_dir(root, &paths, &n, NULL, NULL,
	    &err), 0);
	for (i = 0; want[i] != NULL; i++) {
		ck_assert_uint_lt(i, n);
		p = tmp_path(want[i]);
		ck_assert_str_eq(paths[i], p);
		free(p);
	}
	ck_assert_uint_eq(n, i);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(root);
	/* A trailing slash adds no second one. */
	root = tr_xasprintf("%s/d/a/", tmpdir);
	ck_assert_int_eq(tr_import_list_dir(root, &paths, &n, NULL, NULL,
	    &err), 0);
	ck_assert_uint_eq(n, 2);
	p = tr_xasprintf("%s/d/a/y.txt", tmpdir);
	ck_assert_str_eq(paths[0], p);
	free(p);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(root);
	/* An empty directory. */
	root = tmp_path("d/empty");
	ck_assert_int_eq(tr_import_list_dir(root, &paths, &n, NULL, NULL,
	    &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(paths);
	free(root);
	/* A missing one. */
	root = tmp_path("nope");
	ck_assert_int_eq(tr_import_list_dir(root, &paths, &n, NULL, NULL,
	    &err), -1);
	ck_assert_ptr_null(paths);
	ck_assert_uint_eq(n, 0);
	tr_error_format(&err, buf, sizeof buf);
	p = tr_xasprintf("%s: cannot open directory: No such file or "
	    "directory", root);
	ck_assert_str_eq(buf, p);
	free(p);
	free(root);
}
END_TEST

/* --- queries -------------------------------------------------------- */

/* Run tr_query_sql() as CSV; returns its rc, the text in *text. */
static int
sql_csv(struct tr_db *db, const char *sql, char **text, struct tr_error *err)
{
	FILE		*f;
	size_t		 len;
	struct tr_out	*o;
	int		 rc;

	*text = NULL;
	f = open_memstream(text, &len);
	ck_assert_ptr_nonnull(f);
	o = tr_out_new(f, TR_OUT_CSV);
	tr_error_init(err);
	rc = tr_query_sql(db, sql, o, err);
	tr_out_free(o);
	fclose(f);
	return (rc);
}

START_TEST(test_query_sql)
{
	struct tr_error	 err;
	struct tr_db	*db;
	char		*t;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_int_eq(sql_csv(db, "SELECT 1 AS one, 'x' AS s", &t, &err),
	    0);
	ck_assert_str_eq(t, "one,s\n1,x\n");
	free(t);
	/* Trailing blanks, semicolons and comments are not statements. */
	ck_assert_int_eq(sql_csv(db, "SELECT 2 AS two; ;\n -- done\n "
	    "/* really */ ;", &t, &err), 0);
	ck_assert_str_eq(t, "two\n2\n");
	free(t);
	ck_assert_int_eq(sql_csv(db, "SELECT 1; SELECT 2", &t, &err), -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	ck_assert_str_eq(err.msg, "give one SQL statement, not several");
	ck_assert_str_eq(t, "");
	free(t);
	ck_assert_int_eq(sql_csv(db, "SELECT 1; -- x\n DELETE FROM source",
	    &t, &err), -1);
	ck_assert_str_eq(err.msg, "give one SQL statement, not several");
	free(t);
	ck_assert_int_eq(sql_csv(db, "SELEC 1", &t, &err), -1);
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_str_eq(err.msg, "bad SQL: near \"SELEC\": syntax error");
	free(t);
	ck_assert_int_eq(sql_csv(db, " -- nothing", &t, &err), -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	ck_assert_str_eq(err.msg, "empty SQL statement");
	free(t);
	/* A write error is an error with its reason. */
	{
		FILE		*full = fopen("/dev/full", "w");
		struct tr_out	*o;

		if (full != NULL) {
			setvbuf(full, NULL, _IONBF, 0);
			o = tr_out_new(full, TR_OUT_CSV);
			tr_error_init(&err);
			ck_assert_int_eq(tr_query_sql(db, "SELECT 1", o, &err),
			    -1);
			ck_assert_int_eq(err.code, TR_EIO);
			ck_assert_str_eq(err.msg, "error writing output: No "
			    "space left on device");
			tr_out_free(o);
			fclose(full);
		}
	}
	/* The views have names people can query. */
	ck_assert_int_eq(sql_csv(db, "SELECT * FROM perf_sample", &t, &err),
	    0);
	ck_assert_str_eq(t, "id,source_id,ts,pid,tid,comm,cpu,event,value,"
	    "callsite_id,leaf,leaf_module\n");
	free(t);
	tr_db_free(db);
}
END_TEST

START_TEST(test_query_table)
{
	size_t		 i;
	char		*names;

	for (i = 0; tr_query_table[i] != NULL; i++) {
		ck_assert_ptr_eq(tr_query_find(tr_query_table[i]->name),
		    tr_query_table[i]);
		ck_assert_ptr_nonnull(tr_query_table[i]->usage);
		ck_assert_ptr_nonnull(tr_query_table[i]->run);
		if (tr_query_table[i + 1] != NULL)
			ck_assert_msg(strcmp(tr_query_table[i]->name,
			    tr_query_table[i + 1]->name) < 0,
			    "'%s' before '%s'", tr_query_table[i]->name,
			    tr_query_table[i + 1]->name);
	}
	ck_assert_ptr_nonnull(tr_query_find("sql"));
	ck_assert_ptr_nonnull(tr_query_find("summary"));
	ck_assert_ptr_null(tr_query_find("Summary"));
	names = tr_query_names();
	ck_assert_ptr_nonnull(strstr(names, "summary"));
	free(names);
}
END_TEST

/* summary on an empty store, then on one source. */
START_TEST(test_query_summary)
{
	struct tr_error		 err;
	struct tr_import_result	 res;
	struct tr_db		*db;
	const struct tr_query	*q = tr_query_find("summary");
	char			 a0[] = "summary", a1[] = "extra";
	char			*argv[] = { a0, a1, NULL };
	char			*t;
	size_t			 len;
	FILE			*f;
	struct tr_out		*o;
	int			 pass;
	static const char	*const want[] = {
		"source,path,format,version,clock,aligned,offset_ns,ts_min,"
		"ts_max,span_s,samples,slices,counters,bytes,count,sources,"
		"type,host,start,end\n",
		"source,path,format,version,clock,aligned,offset_ns,ts_min,"
		"ts_max,span_s,samples,slices,counters,bytes,count,sources,"
		"type,host,start,end\n"
		"1,good.txt,fake,fake-1,monotonic,none,0,1000,3000,0,3,0,0,"
		"27,1,1,,,,\n",
	};

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			ck_assert_int_eq(import_mem(db, &fake, "good.txt",
			    good, sizeof good - 1, &res, &err), 0);
		f = open_memstream(&t, &len);
		o = tr_out_new(f, TR_OUT_CSV);
		ck_assert_int_eq(q->run(db, 1, argv, o, &err), 0);
		tr_out_free(o);
		fclose(f);
		ck_assert_str_eq(t, want[pass]);
		free(t);
	}
	f = open_memstream(&t, &len);
	o = tr_out_new(f, TR_OUT_CSV);
	ck_assert_int_eq(q->run(db, 2, argv, o, &err), -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	ck_assert_str_eq(err.msg, "summary: unexpected argument 'extra'");
	tr_out_free(o);
	fclose(f);
	free(t);
	tr_db_free(db);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("db");
	TCase	*tc = tcase_create("store");
	TCase	*ti = tcase_create("import");
	TCase	*tq = tcase_create("query");
	SRunner	*sr;
	int	 failed;

	tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
	tcase_add_test(tc, test_create);
	tcase_add_test(tc, test_wal);
	tcase_add_test(tc, test_whole);
	tcase_add_test(tc, test_whole_stale);
	tcase_add_test(tc, test_reopen);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_newer);
	tcase_add_test(tc, test_not_sqlite);
	tcase_add_test(tc, test_foreign_sqlite);
	tcase_add_test(tc, test_empty_file);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_views_by_source);
	tcase_add_test(tc, test_default_path);
	tcase_add_test(tc, test_helpers);
	tcase_add_test(tc, test_read_helpers);
	tcase_add_test(tc, test_busy_wait);
	tcase_add_test(tc, test_empty_fixture);
	tcase_add_test(tc, test_migrate_v3);
	tcase_add_test(tc, test_migrate_v4);
	tcase_add_test(tc, test_migrate_v5);
	tcase_add_test(tc, test_migrate_v6);
	tcase_add_test(tc, test_migrate_v7);
	tcase_add_loop_test(tc, test_migrate_v8, 0, 2);
	tcase_add_test(tc, test_migrate_v10);
	tcase_add_test(tc, test_migrate_v4_spans);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(ti, setup_tmp, teardown_tmp);
	tcase_add_test(ti, test_import_ok);
	tcase_add_test(ti, test_writer_observe);
	tcase_add_test(ti, test_writer_observers_full);
	tcase_add_test(ti, test_writer_thread_observe);
	tcase_add_test(ti, test_import_cache_evict);
	tcase_add_test(ti, test_writer_big_ids);
	tcase_add_test(ti, test_writer_hold_tracks);
	tcase_add_test(ti, test_import_cache_evict_many);
	tcase_add_test(ti, test_import_thread);
	tcase_add_test(ti, test_import_thread_fail);
	tcase_add_test(ti, test_import_fail_unchanged);
	tcase_add_test(ti, test_import_duplicate);
	tcase_add_test(ti, test_import_hash_whole);
	tcase_add_test(ti, test_import_tail_error);
	tcase_add_test(ti, test_import_detect);
	tcase_add_test(ti, test_importer_table);
	tcase_add_test(ti, test_import_opts);
	tcase_add_test(ti, test_list_dir);
	suite_add_tcase(s, ti);
	tcase_add_test(tq, test_query_sql);
	tcase_add_test(tq, test_query_table);
	tcase_add_test(tq, test_query_summary);
	suite_add_tcase(s, tq);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
