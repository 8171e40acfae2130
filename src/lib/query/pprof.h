/*
 * go tool pprof's reports over the store.  A selection names pprof
 * profiles (by id, source, type or time); their samples of one sample
 * type are merged, filtered and aggregated exactly the way go tool pprof
 * (Go 1.19's vendored google/pprof) builds its graph for -top: the same
 * node identity at each granularity, flat and cumulative values, node
 * fraction and node count trimming, ordering and inline marks.  A base
 * selection subtracts, as -diff_base does.
 */
#ifndef TR_PPROF_H
#define TR_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "base/error.h"
#include "base/out.h"
#include "query/args.h"
#include "query/sel.h"

#define TR_PPROF_MAXLABELS	8

enum tr_pprof_gran {
	TR_GRAN_FUNCTIONS,	/* pprof's default */
	TR_GRAN_FILEFUNCTIONS,
	TR_GRAN_LINES,
	TR_GRAN_FILES,
	TR_GRAN_ADDRESSES
};

/*
 * The profiles to merge, in order (a resolved tr_sel's profiles; NULL:
 * every profile of the store, by time then id).
 */
struct tr_pprof_sel {
	const int64_t	*profile_ids;
	size_t		 nprofile_ids;
};

struct tr_pprof_opts {
	/* A sample type's name or 0-based index; NULL: the default. */
	const char	*sample_index;
	enum tr_pprof_gran gran;
	const char	*focus;		/* POSIX EREs, or NULL */
	const char	*ignore;
	/* "key=value" each: samples carrying every one of these labels. */
	const char	*labels[TR_PPROF_MAXLABELS];
	int		 nlabels;
	int64_t		 nodecount;	/* 0: all above the cutoff */
	double		 nodefraction;	/* pprof's default 0.005 */
	double		 edgefraction;	/* pprof's default 0.001 */
	int		 cum;		/* sort by cumulative value */
};

/* One line of the report. */
struct tr_pprof_row {
	char		*name;		/* pprof's printable name */
	const char	*inl;		/* "", inline, partial-inline */
	int64_t		 flat, cum;
};

struct tr_pprof_report {
	struct tr_pprof_row *rows;
	size_t		 n;
	int64_t		 total;		/* 100% */
	int64_t		 shown;		/* flat sum of the rows */
	size_t		 dropped;	/* nodes under the node cutoff */
	int64_t		 cutoff;	/* that cutoff */
	size_t		 nodes;		/* above it */
	char		*sample_type;	/* the sample type reported */
	char		*unit;
	size_t		 profiles;	/* merged, not the base */
};

/* One stack and its value in the base and in the selection. */
struct tr_pprof_stack {
	char		*stack;		/* names, root first, ';' */
	int64_t		 base, value;
};

void	tr_pprof_opts_init(struct tr_pprof_opts *);
void	tr_pprof_sel_init(struct tr_pprof_sel *);
/* The profiles of a resolved selection (borrowed from it). */
void	tr_pprof_sel_of(struct tr_pprof_sel *, const struct tr_sel *);
/* "functions", "filefunctions", "lines", "files", "addresses". */
int	tr_pprof_parse_gran(const char *, enum tr_pprof_gran *);

/*
 * The -top report of the selection 'sel' (minus 'base' when not NULL)
 * into 'rep', owned by the caller (tr_pprof_report_release()).  Returns
 * 0, or -1 with 'err' set: TR_EUSAGE for a bad regex, an unknown sample
 * type, incompatible profiles or an empty selection.
 */
int	tr_pprof_top(struct tr_db *, const struct tr_pprof_sel *sel,
	    const struct tr_pprof_sel *base, const struct tr_pprof_opts *,
	    struct tr_pprof_report *rep, struct tr_error *);
void	tr_pprof_report_release(struct tr_pprof_report *);
/*
 * Write the rows of 'rep' as go tool pprof -top prints them (flat,
 * flat%, sum%, cum, cum%, name, inline), each after the base and new
 * profile ids when 'bp' > 0 (query-top.c).  The columns must be set
 * (tr_out_columns()); flat and cum get the unit of the report's sample
 * type (tr_pprof_out_unit()), which only the table shows.
 */
void	tr_pprof_write_top(struct tr_out *, const struct tr_pprof_report *,
	    int64_t bp, int64_t np);
/*
 * How values of a pprof sample unit read in a table: "nanoseconds" as
 * durations, "bytes" as sizes, anything else (count) as is.
 */
enum tr_out_unit tr_pprof_out_unit(const char *unit);

/*
 * Every stack of the selection (and of 'base', when not NULL) at the
 * granularity, with focus, ignore and labels applied, sorted by value
 * minus base, largest first.  '*stacks' (and each string) is owned by
 * the caller (tr_pprof_stacks_free()), and so are '*sample_type' and
 * '*unit', the sample type reported and its unit.  Returns 0 or -1.
 */
int	tr_pprof_stacks(struct tr_db *, const struct tr_pprof_sel *sel,
	    const struct tr_pprof_sel *base, const struct tr_pprof_opts *,
	    struct tr_pprof_stack **stacks, size_t *n, char **sample_type,
	    char **unit, struct tr_error *);
void	tr_pprof_stacks_free(struct tr_pprof_stack *, size_t);

/*
 * pprof's percentage of 'v' in 'total' as a number, rounded the way
 * go tool pprof prints it (2 decimals from 1%, 2 significant digits
 * below, 100 from 99.95 to 100.05).
 */
double	tr_pprof_percent(int64_t v, int64_t total);

/* The arguments trace-query's pprof queries share. */
struct tr_pprof_args {
	struct tr_sel		 sel;		/* the selection options */
	struct tr_pprof_opts	 opts;
	const char		*gran;		/* --granularity */
	int			 stacks;	/* --stacks */
	int			 series;	/* --series */
	struct tr_args		 args;		/* operands: args.pos */
	struct tr_arg		*table;		/* owned */
};

#define TR_PPROF_ARGS_DIFF	0x1	/* accept --stacks and --series */

/*
 * Set up the arguments of query 'name': the selection (--source,
 * --profile, --type, --from, --to, --tz, --event/--sample-index,
 * --label, --snapshots), report options (--granularity, --focus,
 * --ignore, --nodecount, --nodefraction, --edgefraction, --cum) and,
 * with TR_PPROF_ARGS_DIFF, --stacks, --series and any operands.
 */
void	tr_pprof_args_init(struct tr_pprof_args *, const char *name,
	    int flags);
/*
 * tr_args_begin() for a pprof query: parse argv[1..argc), check the
 * report options and resolve the selection against 'db' (NULL: the
 * caller resolves it, as pprof-diff does for each profile group).
 * Returns 1 to go on, 0 when --help was printed, -1 with 'err' set.
 */
int	tr_pprof_args_begin(struct tr_pprof_args *, int argc, char **argv,
	    struct tr_db *db, struct tr_error *);
void	tr_pprof_args_release(struct tr_pprof_args *);

#endif
