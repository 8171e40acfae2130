/*
 * One argument parser for trace-query's queries (and the tools that take
 * a selection): a query declares its own options in a table, the
 * selection options come from sel.h, and this parser reads "--opt value",
 * "--opt=value" and the short letters, prints per-query help, and answers
 * an unknown option with "did you mean" and the list.
 */
#ifndef TR_ARGS_H
#define TR_ARGS_H

#include <stdint.h>

#include "base/error.h"
#include "query/sel.h"

enum tr_arg_kind {
	TR_ARG_FLAG,		/* no value: *(int *)dst = 1 */
	TR_ARG_STRING,		/* *(const char **)dst = value */
	TR_ARG_INT,		/* *(int64_t *)dst, in [min, max] */
	TR_ARG_REAL,		/* *(double *)dst, in [min, max] */
	TR_ARG_DURATION,	/* *(int64_t *)dst: ns ("300ms", "1.5s") */
	TR_ARG_PERCENT		/* *(double *)dst: "30" or "30%", 0-100 */
};

struct tr_arg {
	const char	*name;		/* long name without the dashes */
	int		 letter;	/* short option, or 0 */
	enum tr_arg_kind kind;
	void		*dst;
	double		 min, max;	/* TR_ARG_INT, _REAL: the range */
	const char	*metavar;	/* "MS", "N", NULL for a flag */
	const char	*help;		/* one line; "(default ...)" inside */
	int		 given;		/* set by the parser: how many times */
	int		 repeat;	/* may be repeated (a list) */
};

struct tr_args {
	const char	*name;		/* the query ("gpu-idle") */
	const char	*synopsis;	/* after the name: "[OPTION...]" */
	const char	*about;		/* a paragraph for --help */
	struct tr_arg	*args;		/* terminated by a NULL name */
	struct tr_sel	*sel;		/* NULL: takes no selection */
	char		**pos;		/* operands, owned by the parser */
	int		 npos;
	int		 max_pos;	/* operands allowed (-1: any) */
	int		 help;		/* --help was given: help printed */
	/* For tr_args_begin(): */
	const int64_t	*step;		/* a --step that must be > 0, or NULL */
	/*
	 * A check of the parsed options (given 'check_arg'), before the
	 * selection is resolved: 0, or -1 with a TR_EUSAGE error.  NULL:
	 * none.
	 */
	int		(*check)(void *check_arg, struct tr_error *);
	void		*check_arg;
};

/*
 * Parse argv[1..argc) (argv[0] is the query name) against 'a': its own
 * options, then the selection's.  "--help" prints the query's help
 * (synopsis, about, its options and the selection options it accepts) on
 * standard output and sets a->help; the caller returns 0.  Returns 0, or
 * -1 with a TR_EUSAGE error ("gpu-idle: unknown option '--treshold'; did
 * you mean '--threshold'? options: ...").  Release with
 * tr_args_release().
 */
int	tr_args_parse(struct tr_args *, int argc, char **argv,
	    struct tr_error *);
void	tr_args_release(struct tr_args *);

/*
 * The prologue of a query: tr_args_parse(), then, unless --help was
 * given, a->step checked ("NAME: --step must be more than 0"), a->check
 * called, and the selection a->sel resolved against 'db' (no resolve
 * when a->sel or 'db' is NULL: a query that resolves it itself).  Returns
 * 1 when the query goes on, 0 when --help was printed (the query returns
 * 0), -1 with 'err' set; so a query's run() reads
 *
 *	if ((rc = tr_args_begin(&args, argc, argv, db, err)) <= 0)
 *		goto out;
 *	rc = -1;
 *	...
 * out:
 *	tr_args_end(&args);
 *
 * Release with tr_args_end() whatever it returned.
 */
int	tr_args_begin(struct tr_args *, int argc, char **argv,
	    struct tr_db *db, struct tr_error *err);
/* tr_args_release(), and the selection a->sel released (when not NULL). */
void	tr_args_end(struct tr_args *);

/* Write the help of 'a' to stdout. */
void	tr_args_print_help(const struct tr_args *);

/*
 * The nearest of 'names' (NULL-terminated) to 'word' by edit distance,
 * when near enough to suggest ("did you mean"), else NULL.
 */
const char *tr_did_you_mean(const char *word, const char *const *names);

#endif
