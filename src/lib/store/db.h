/*
 * The store: one SQLite file with schema v2 (see trace-store(5)).  This
 * module opens it, creates or migrates the schema, and wraps the few
 * SQLite calls everyone needs so that failures land in a struct tr_error.
 */
#ifndef TR_DB_H
#define TR_DB_H

#include <stdint.h>
#include <sys/types.h>

#include <sqlite3.h>

#include "base/error.h"

#define TR_DB_VERSION	11	/* PRAGMA user_version of this schema */
#define TR_SLICE_RUN	256	/* slices in a row of slice_run, at most */
#define TR_DB_STRINGIFY(x)	TR_DB_STRINGIFY_(x)
#define TR_DB_STRINGIFY_(x)	#x
#define TR_DB_DEFAULT	"trace.db"

#define TR_DB_READONLY	0x1	/* open for queries only */
#define TR_DB_NOCREATE	0x2	/* the file must exist */
#define TR_DB_WHOLE	0x4	/* a new store in db->file (tr_db_create_whole()) */

struct tr_db {
	sqlite3		*sq;
	char		*path;
	int		 created;	/* this open created the file */
	int		 flags;		/* as opened */
	int		 watched;	/* dev and ino are set: */
	dev_t		 dev;		/* the file opened */
	ino_t		 ino;
	char		*file;		/* with TR_DB_WHOLE: the temporary file
					   SQLite writes, path being the store
					   it is to become (for messages) */
	int		 fd;		/* with TR_DB_WHOLE: 'file' open, its
					   flock() held while it is written */
	struct tr_db_syncer *syncer;	/* of tr_db_writeback(), or NULL */
};

/*
 * Open the store at 'path', creating the schema if it is new and migrating
 * an older one.  Returns a handle owned by the caller (tr_db_free()), or
 * NULL with 'err' filled in.  Refuses a store whose schema version is newer
 * than ours.  Read-only opens need an existing store.
 */
struct tr_db	*tr_db_open(const char *path, int flags, struct tr_error *err);
/* Close; a store of tr_db_create_whole() not put in place is removed. */
void		 tr_db_free(struct tr_db *);
/*
 * Whether db->path no longer names the file that was opened: removed, or
 * removed and made again (another trace-import took away an empty store
 * it had created while this one had it open).
 */
int		 tr_db_replaced(const struct tr_db *);
/*
 * Close and open db->path again with the same flags (creating the store
 * if it is gone).  0, or -1 with 'err' set and 'db' fit only for
 * tr_db_free().
 */
int		 tr_db_reopen(struct tr_db *, struct tr_error *);

/*
 * A new store written whole, for the first import into a store that does
 * not exist: SQLite writes it into a temporary file beside 'path',
 * ".NAME.incomplete-XXXXXX" (NAME the store's file name), with its
 * journal in memory and no WAL, so that each page is written once rather
 * than twice (WAL frames, then the checkpoint), and tr_db_install() puts
 * it at 'path' once it is complete.  The file is flock()ed while this
 * process has it, which is how tr_db_remove_stale() tells a live one from
 * what a killed trace-import left.  Returns 0 with *db the handle, the
 * schema written and db->path 'path' (its errors name the store); 1 when
 * 'path' exists or the file cannot be made (a directory not writable):
 * the caller then opens 'path' with tr_db_open(), which says why as it
 * always has; or -1 with 'err' set when SQLite could not write the file
 * (a full disk), which is removed.
 */
int		 tr_db_create_whole(const char *path, struct tr_db **,
		    struct tr_error *);
/*
 * Put a store of tr_db_create_whole() at db->path in the state
 * tr_db_open() makes (WAL mode): the file is synced, linked to the path
 * unless a store is there by now (never replacing one), the directory
 * synced, and the temporary name removed.  Frees 'db'.  Returns 0 when it
 * is in place, 1 when it is not (a store was made at the path meanwhile,
 * or the file system has no hard links: the temporary file is removed,
 * and the caller imports into the store at the path as usual), or -1 with
 * 'err' set when the file could not be written (removed too).
 */
int		 tr_db_install(struct tr_db *, struct tr_error *);
/*
 * Of a store of tr_db_create_whole(): have what SQLite has written to
 * the file so far synced to the disk by a thread of the store's own,
 * without waiting for it, so that the fsync() of tr_db_install() finds
 * little left to write (a sync that failed fails tr_db_install()).
 * Nothing for any other store.  The store writer's thread calls it as it
 * goes; any thread may, but one at a time.
 */
void		 tr_db_writeback(struct tr_db *);
/*
 * Remove the temporary files of tr_db_create_whole() for 'path' that no
 * process holds: what a trace-import killed while making the store left.
 * Best effort, silent.  Call it before the process opens the store (a
 * temporary name may be a hard link to it, and closing a file drops the
 * process's SQLite locks on it).
 */
void		 tr_db_remove_stale(const char *path);

/* The store path to use: 'opt' if set, else $TRACE_DB, else trace.db. */
const char	*tr_db_default_path(const char *opt);

/* Run SQL with no result rows.  Returns 0, or -1 with 'err' set. */
int		 tr_db_exec(struct tr_db *, const char *sql, struct tr_error *);
/* Prepare one statement; NULL with 'err' set on failure. */
sqlite3_stmt	*tr_db_prepare(struct tr_db *, const char *sql,
		    struct tr_error *);
/* Record sqlite3_errmsg() as the error, after 'what: '.  Returns -1. */
int		 tr_db_error(struct tr_db *, struct tr_error *,
		    const char *what);
/*
 * Read helpers, for every reader of the store.
 *
 * tr_db_int: run 'sql' (no parameters) returning one integer; *val is 0
 * when there is no row or it is NULL.  Returns 0, or -1 with 'err' set.
 */
int		 tr_db_int(struct tr_db *, const char *sql, int64_t *val,
		    struct tr_error *);
/*
 * One integer from 'sql' with ?1 bound to 'text' when it is not NULL,
 * else to 'arg' (when the SQL has a parameter).  Returns 1 with *val set,
 * 0 when there is no row or the value is NULL (*val = 0), or -1 with
 * 'err' set.
 */
int		 tr_db_int_arg(struct tr_db *, const char *sql,
		    const char *text, int64_t arg, int64_t *val,
		    struct tr_error *);
/*
 * Step a prepared statement whose first column is an integer, and reset
 * it (bindings are kept).  Returns 1 with *val set, 0 when there is no row
 * or a NULL (*val = 0), or -1 with 'err' set.
 */
int		 tr_db_step_int(struct tr_db *, sqlite3_stmt *, int64_t *val,
		    struct tr_error *);
/*
 * The id of string 's' in table str: 1 with *id set, 0 when the store
 * has no such string (*id = 0), -1 with 'err' set.
 */
int		 tr_db_str_id(struct tr_db *, const char *s, int64_t *id,
		    struct tr_error *);
/*
 * Start a read snapshot: many reads from one state of the store, under
 * one lock rather than one per statement.  Does nothing inside a
 * transaction already (*began = 0); else BEGIN and *began = 1.  Returns 0,
 * or -1 with 'err' set.  tr_db_read_end() ends what was begun.
 */
int		 tr_db_read_begin(struct tr_db *, int *began,
		    struct tr_error *);
void		 tr_db_read_end(struct tr_db *, int began);

/* The schema SQL, for documentation and tests. */
extern const char tr_db_schema[];

#endif
