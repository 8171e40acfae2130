/*
 * One writer for rows: an aligned table, CSV (RFC 4180) or JSON (an array
 * of objects, written with jansson).  Every query emits through it, so
 * --format works the same everywhere.
 */
#ifndef TR_OUT_H
#define TR_OUT_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "base/error.h"

enum tr_out_format {
	TR_OUT_TABLE,
	TR_OUT_CSV,
	TR_OUT_JSON
};

struct tr_out;

/* Writes to 'f' (borrowed).  Owned by the caller (tr_out_free()). */
struct tr_out	*tr_out_new(FILE *f, enum tr_out_format);
void		 tr_out_free(struct tr_out *);
/* "table", "csv" or "json"; returns 0, or -1 for an unknown name. */
int		 tr_out_parse_format(const char *, enum tr_out_format *);

/* Start a result set with these column names (copied). */
void		 tr_out_columns(struct tr_out *, int n,
		    const char *const *names);
void		 tr_out_int(struct tr_out *, int64_t);
void		 tr_out_real(struct tr_out *, double);
void		 tr_out_text(struct tr_out *, const char *);
void		 tr_out_null(struct tr_out *);
/* End the current row; cells missing from it are NULL. */
void		 tr_out_end_row(struct tr_out *);
/*
 * Write every row of 'st' (with its column names when 'header' is set).
 * Returns the row count, or -1 with 'err' set.
 */
int64_t		 tr_out_stmt(struct tr_out *, sqlite3 *, sqlite3_stmt *,
		    struct tr_error *);
/*
 * How a column's integers or reals read (for the table: people; CSV and
 * JSON always keep the raw base unit).  Call after tr_out_columns().
 */
enum tr_out_unit {
	TR_UNIT_NONE,		/* as is */
	TR_UNIT_NS,		/* a duration in ns: "35.99s", "1.2ms" */
	TR_UNIT_BYTES,		/* a size: "70.6MB" */
	TR_UNIT_TS,		/* a store time stamp (ns): relative to the
				   store's start, with the wall clock beside
				   it when known (tr_out_set_clock) */
	TR_UNIT_PERCENT,	/* 0-100: "42.5%" */
	TR_UNIT_SHARE		/* 0-1: "42.5%" */
};
void		 tr_out_column_unit(struct tr_out *, int col,
		    enum tr_out_unit);
/*
 * The store's start (store ns) and, when has_wall, the offset that turns
 * store ns into ns since the epoch, for TR_UNIT_TS columns.
 */
void		 tr_out_set_clock(struct tr_out *, int64_t origin,
		    int has_wall, int64_t wall_offset);
/*
 * Name the next result set (before tr_out_columns()).  With JSON, a
 * query whose result sets are named prints one object
 * {"NAME": [rows...], ...} instead of one array per set: one document
 * per invocation.  A note (a string) can be added to the document with
 * tr_out_note(); on a table or CSV it goes to stderr.
 */
void		 tr_out_set_name(struct tr_out *, const char *name);
void		 tr_out_note(struct tr_out *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

/* Finish the result set (the table is written here).  Returns 0 or -1. */
int		 tr_out_finish(struct tr_out *);

#endif
