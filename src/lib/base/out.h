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
/* Finish the result set (the table is written here).  Returns 0 or -1. */
int		 tr_out_finish(struct tr_out *);

#endif
