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
/*
 * A cell that is a JSON value (an array, an object) in JSON output,
 * 'json' written as it is (valid JSON text, compact, on one line), and
 * 'text' in the table and CSV, where a value reads better flattened.
 * Either may be NULL (a null cell).
 */
void		 tr_out_json(struct tr_out *, const char *json,
		    const char *text);
/* End the current row; cells missing from it are NULL. */
void		 tr_out_end_row(struct tr_out *);

/*
 * How a column's integers or reals read in the table, which is for
 * people; CSV and JSON always keep the value as given (integer base
 * units: ns, bytes, store ns).  Call after tr_out_columns(); NULL cells
 * stay empty, and text cells are not touched.
 */
enum tr_out_unit {
	TR_UNIT_NONE,		/* as is */
	TR_UNIT_NS,		/* a duration in ns, to 4 significant
				   digits: "35.99s", "1.2ms", "250ns",
				   "0s" */
	TR_UNIT_BYTES,		/* a size in bytes, to 3 significant
				   digits in units of 1024 as go tool pprof
				   writes them: "512B", "1.5kB", "70.6MB" */
	TR_UNIT_TS,		/* a store time stamp (ns): "+12.250s" from
				   the store's start, to the ms, and the
				   local time of day beside it when the
				   wall clock is known: "+12.250s
				   13:05:07.250"; the raw integer when no
				   clock was set (tr_out_set_clock) */
	TR_UNIT_PERCENT,	/* 0-100: "42.5%" */
	TR_UNIT_SHARE,		/* 0-1: "42.5%" */
	TR_UNIT_REAL		/* a plain number to 4 significant digits,
				   never an exponent from 0.001 up:
				   "0.8952", "17.67", "123457", "0" */
};
void		 tr_out_column_unit(struct tr_out *, int col,
		    enum tr_out_unit);
/*
 * A column and how it reads in the table: a result set declared as one
 * array, { "ts", TR_UNIT_TS }, { "dur_ns", TR_UNIT_NS }, ...
 */
struct tr_out_col {
	const char		*name;
	enum tr_out_unit	 unit;
};
/* tr_out_columns() with these names, then each column's unit. */
void		 tr_out_columns_of(struct tr_out *, int n,
		    const struct tr_out_col *);
/* The number of columns of a static array of them. */
#define TR_OUT_NCOLS(cols)	((int)(sizeof (cols) / sizeof *(cols)))
/*
 * 'v' as the table writes unit 'u' (TR_UNIT_NS, _BYTES, _PERCENT,
 * _SHARE, _REAL; the others as a plain number), for messages and verdicts
 * that quote a value: "1.5GB", "7.98s".  Owned by the caller.
 */
char		*tr_out_unit_text(enum tr_out_unit u, double v);

/*
 * Write every row of 'st' under its column names, each column in
 * units[i] (NULL: TR_UNIT_NONE for all; else one per column of 'st').
 * Returns the row count, or -1 with 'err' set.
 */
int64_t		 tr_out_stmt(struct tr_out *, sqlite3 *, sqlite3_stmt *,
		    struct tr_error *);
int64_t		 tr_out_stmt_units(struct tr_out *, sqlite3 *,
		    sqlite3_stmt *, const enum tr_out_unit *units,
		    struct tr_error *);

/*
 * The store's start (store ns) and, when has_wall, the offset that turns
 * store ns into ns since the epoch, for TR_UNIT_TS columns (shown in the
 * process's local zone, TZ).  Holds for every later result set.
 */
void		 tr_out_set_clock(struct tr_out *, int64_t origin,
		    int has_wall, int64_t wall_offset);

/*
 * Name the next result set (before tr_out_columns(); 'name' is copied).
 * With JSON, once a set is named the output is one object per
 * invocation:
 *
 *	{
 *	"episodes":[
 *	{...},
 *	{...}
 *	],
 *	"totals":[],
 *	"notes":["..."]
 *	}
 *
 * the sets in order (an unnamed set after a named one is "set-N", N its
 * position from 1), then "notes", always there, an array of strings.
 * The object is closed by tr_out_free().  Without names, JSON writes one
 * array per set, as before.  The table and CSV ignore names.
 *
 * JSON integers: a value beyond +-(2^53 - 1) (9007199254740991), which a
 * reader holding numbers as doubles (JavaScript) would round, is written
 * as a string of its decimal digits ("1764421507250000000"); every other
 * integer is a JSON number.
 */
void		 tr_out_set_name(struct tr_out *, const char *name);
/*
 * A note (one line, no newline) about the output: what was left out or
 * assumed.  With JSON it is kept for the document's "notes" (or, when
 * the output is not one document, written as below at tr_out_free());
 * with the table and CSV it goes at once to the note stream.
 */
void		 tr_out_note(struct tr_out *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/*
 * Where notes go that are not in the JSON document: 'f' (borrowed; NULL
 * for nowhere, as with -q), each line after 'prefix' (copied; NULL for
 * none).  The default is stderr without a prefix.
 */
void		 tr_out_set_notes(struct tr_out *, FILE *f,
		    const char *prefix);
/*
 * Call fn(arg) before a note, a row or the end of the output is written
 * (a tool erases its progress line there: base/progress.h).  NULL: none.
 */
void		 tr_out_set_before(struct tr_out *, void (*fn)(void *),
		    void *arg);

/*
 * Whether the reader of 'out' wants only the windows of a windowed query
 * (query.h tr_query_windows(), which sets it): the query may then write
 * NULL in the other columns of its windows' set and skip what they cost.
 * 0 unless set.
 */
void		 tr_out_set_windows_only(struct tr_out *, int);
int		 tr_out_windows_only(const struct tr_out *);

/*
 * The stream 'out' writes to, for a query whose output is one document of
 * its own (chrome-trace) rather than rows.
 */
FILE		*tr_out_stream(struct tr_out *);

/* Finish the result set (the table is written here).  Returns 0 or -1. */
int		 tr_out_finish(struct tr_out *);
/*
 * A query's output epilogue: tr_out_finish(), and when the output could
 * not be written (this set or, the error being sticky, an earlier one),
 * -1 with 'err' set by tr_out_write_error().  Returns 0 or -1.
 */
int		 tr_out_finish_err(struct tr_out *, struct tr_error *);
/*
 * Set 'err' to "error writing output: REASON" (errno's text, "write
 * failed" when errno says nothing), unless an error is already recorded.
 * Returns -1.
 */
int		 tr_out_write_error(struct tr_error *);

#endif
