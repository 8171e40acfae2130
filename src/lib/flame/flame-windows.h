/*
 * The time windows that restrict a flame graph (trace-flame --windows,
 * --where): read from a CSV file of start,end times or from an SQL query
 * returning start_ns and end_ns.  The windows of an analysis (--during)
 * come from tr_query_windows() (query/query.h); either way they are
 * applied with tr_sel_set_windows() (query/sel.h).
 */
#ifndef TR_FLAME_WINDOWS_H
#define TR_FLAME_WINDOWS_H

#include <stddef.h>

#include "base/error.h"
#include "query/sel.h"
#include "store/db.h"

/*
 * Read the windows of CSV file 'path' ("-": standard input): a line per
 * window, "start,end" in any time form of the selection (12s, 13:05:07.250,
 * @EPOCH, =STORE_NS...) read against the store's origin and zone ('sel'
 * resolved: its origin and --tz).  Blank lines and lines starting with
 * '#' are skipped.  A first line of names is a header: the columns named
 * start or start_ns and end or end_ns are taken (else the first two),
 * and in a column whose name ends in _ns a bare integer is store ns
 * (what trace-query -F csv writes).  Fields may be quoted as RFC 4180
 * says.  '*w' (n windows) is owned by the caller.  Returns 0, or -1 with
 * a TR_EDATA error at FILE:LINE:COL (an end before its start too).
 */
int	tr_flame_windows_csv(struct tr_db *, const struct tr_sel *,
	    const char *path, struct tr_window **w, size_t *n,
	    struct tr_error *);

/*
 * The windows of one SQL statement over the store, whose columns named
 * start_ns and end_ns hold store ns (integers, end not before start).
 * '*w' is owned by the caller.  Returns 0, or -1 with 'err' set: bad SQL,
 * a missing column, or the row number of a bad value.
 */
int	tr_flame_windows_sql(struct tr_db *, const char *sql,
	    struct tr_window **w, size_t *n, struct tr_error *);

#endif
