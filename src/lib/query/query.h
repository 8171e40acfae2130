/*
 * Named analyses for trace-query.  Each is a table entry whose SQL lives in
 * its own file (query-<name>.c); lookup is by exact name.
 */
#ifndef TR_QUERY_H
#define TR_QUERY_H

#include "store/db.h"
#include "base/error.h"
#include "base/out.h"
#include "query/sel.h"

struct tr_query {
	const char	*name;
	const char	*usage;		/* arguments after the name, or "" */
	const char	*summary;	/* one line for trace-query -l */
	/*
	 * Run over the store opened read-only, writing rows to 'out'.
	 * argv[0] is the query name.  Returns 0, or -1 with 'err' set
	 * (TR_EUSAGE for bad arguments).
	 */
	int		 (*run)(struct tr_db *, int argc, char **argv,
			     struct tr_out *, struct tr_error *);
	/*
	 * Print the query's help (its options) on stdout, without a
	 * store.  NULL: a query whose usage names OPTION or SELECTION
	 * reads its arguments with tr_args (args.h) before it touches the
	 * store, so run(NULL, 2, {name, "--help"}, ...) prints its help;
	 * for the others trace-query prints the usage and the summary.
	 */
	void		 (*help)(void);
	/*
	 * A windowed analysis: the name of its result set whose rows are
	 * time windows, with columns start_ns and end_ns (store ns,
	 * [start, end)), for tr_query_windows(); NULL for the others.
	 */
	const char	*windows;
};

/* NULL-terminated, sorted by name. */
extern const struct tr_query *const tr_query_table[];

const struct tr_query	*tr_query_find(const char *name);
/* "a, b, c": the names, for messages; owned by the caller. */
char			*tr_query_names(void);
/* The nearest query name to 'name' ("did you mean"), or NULL. */
const char		*tr_query_suggest(const char *name);
/* Print the help of 'q' on stdout. */
void			 tr_query_help(const struct tr_query *q);
/* Each line of 'lines' (NULL: none) as a note of 'out'. */
void			 tr_query_notes(struct tr_out *, const char *lines);

/*
 * Run one SQL statement and write its rows.  Returns 0 or -1.  Refuses
 * more than one statement.
 */
int	tr_query_sql(struct tr_db *, const char *sql, struct tr_out *,
	    struct tr_error *);

/*
 * The windows of a windowed analysis (trace-flame --during): run the
 * query 'text', a query name and its arguments as a shell would split
 * them ("gpu-idle --threshold 20"; quotes and backslashes work), and
 * collect the start_ns and end_ns of the rows of its result set
 * q->windows, in its order.  '*w' (n of them; not NULL even when none) is
 * owned by the caller, and so is '*notes': the query's notes, one a line,
 * or NULL for none.  Returns 0, or -1 with 'err' set: TR_EUSAGE for
 * no query, an unknown one or one without windows (naming those with
 * windows), else the query's own error.
 */
int	tr_query_windows(struct tr_db *, const char *text,
	    struct tr_window **w, size_t *n, char **notes, struct tr_error *);
/*
 * Split 'text' into words as sh(1) does for quotes and backslashes
 * (no expansions).  Returns the words (NULL-terminated, in one block
 * with their text: free() once), or NULL for an unterminated quote.
 */
char	**tr_query_split_words(const char *text, int *argc);
/* "a, b, c": the names of the windowed queries; owned by the caller. */
char	*tr_query_window_names(void);

#endif
