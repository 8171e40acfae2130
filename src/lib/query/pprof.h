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

#define TR_PPROF_MAXLABELS	8

enum tr_pprof_gran {
	TR_GRAN_FUNCTIONS,	/* pprof's default */
	TR_GRAN_FILEFUNCTIONS,
	TR_GRAN_LINES,
	TR_GRAN_FILES,
	TR_GRAN_ADDRESSES
};

/* Which profiles; every unset field matches everything. */
struct tr_pprof_sel {
	int64_t		 source_id;	/* 0: any */
	const int64_t	*profile_ids;	/* NULL: any */
	size_t		 nprofile_ids;
	const char	*type;		/* profile type, NULL: any */
	int		 has_from, has_to;
	int64_t		 from, to;	/* ns after the start */
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
 * Every stack of the selection (and of 'base', when not NULL) at the
 * granularity, with focus, ignore and labels applied, sorted by value
 * minus base, largest first.  '*stacks' (and each string) is owned by
 * the caller (tr_pprof_stacks_free()).  Returns 0 or -1.
 */
int	tr_pprof_stacks(struct tr_db *, const struct tr_pprof_sel *sel,
	    const struct tr_pprof_sel *base, const struct tr_pprof_opts *,
	    struct tr_pprof_stack **stacks, size_t *n, char **sample_type,
	    struct tr_error *);
void	tr_pprof_stacks_free(struct tr_pprof_stack *, size_t);

/*
 * The profiles a selection names, ordered by time then id: '*ids' is
 * owned by the caller.  Returns 0 or -1.
 */
int	tr_pprof_profiles(struct tr_db *, const struct tr_pprof_sel *,
	    int64_t **ids, size_t *n, struct tr_error *);

/*
 * pprof's percentage of 'v' in 'total' as a number, rounded the way
 * go tool pprof prints it (2 decimals from 1%, 2 significant digits
 * below, 100 from 99.95 to 100.05).
 */
double	tr_pprof_percent(int64_t v, int64_t total);

/*
 * Parse a profile group: comma-separated items, each a profile id ("12"
 * or "p12"), a range of them ("p3-7") or every profile of a source
 * ("s2").  Fills 'sel' with ids owned by the caller in '*ids'.
 */
int	tr_pprof_parse_group(struct tr_db *, const char *,
	    struct tr_pprof_sel *, int64_t **ids, struct tr_error *);

/* The arguments trace-query's pprof queries share. */
struct tr_pprof_args {
	struct tr_pprof_sel	 sel;
	struct tr_pprof_opts	 opts;
	int			 stacks;	/* --stacks */
	int			 series;	/* --series */
	char			**pos;		/* operands */
	int			 npos;
	int64_t			*ids;		/* owned */
};

#define TR_PPROF_ARGS_DIFF	0x1	/* accept --stacks and --series */

/*
 * Parse argv[1..argc) (argv[0] is the query name): selection (--source,
 * --profile, --type, --from, --to), report options (--sample-index,
 * --granularity, --focus, --ignore, --label, --nodecount,
 * --nodefraction, --edgefraction, --cum) and, with TR_PPROF_ARGS_DIFF,
 * --stacks and --series.  "--opt value" and "--opt=value" both work.
 * Returns 0, or -1 with a TR_EUSAGE error.  Release with
 * tr_pprof_args_release().
 */
int	tr_pprof_args_parse(struct tr_db *, int argc, char **argv, int flags,
	    struct tr_pprof_args *, struct tr_error *);
void	tr_pprof_args_release(struct tr_pprof_args *);

#endif
