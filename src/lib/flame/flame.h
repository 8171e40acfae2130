/*
 * Flame graphs from the store: select samples, fold their stacks into
 * "frame;frame;frame count" lines (the format of FlameGraph's
 * stackcollapse scripts, with the same naming rules and annotations), and
 * draw the folded stacks as a self-contained interactive SVG.
 */
#ifndef TR_FLAME_H
#define TR_FLAME_H

#include <stdint.h>
#include <stdio.h>

#include "store/db.h"
#include "base/error.h"
#include "query/blocked.h"
#include "query/sel.h"

/* How stacks are named (stackcollapse-perf.pl's options). */
struct tr_flame_fold_opts {
	int	pname;		/* root frame is the process name (default) */
	int	pid;		/* ... with "-PID" */
	int	tid;		/* ... with "-PID/TID" */
	int	kernel;		/* annotate kernel frames "_[k]" */
	int	jit;		/* annotate JIT frames "_[j]" */
	int	addrs;		/* unknown frames show their address */
	int	tidy_java;	/* condense Java signatures (default) */
	int	tidy_generic;	/* strip arguments, quotes (default) */
};

/* Folded stacks: sorted by stack, each stack once. */
struct tr_folded {
	char		**stacks;
	int64_t		 *counts;
	size_t		  n;
	char		 *event;	/* the event drawn, or NULL: none */
	char		 *unit;		/* what its values count */
	char		 *countname;	/* for the SVG: samples, bytes... */
	char		 *note;		/* lines for stderr, or NULL */
	int64_t		 *base;		/* a differential graph: the base's
					   counts (normalised), else NULL */
	int64_t		 *ts;		/* a flame chart: each line's first
					   time stamp (store ns), else NULL */
};

/*
 * What one graph adds up: one event (perf event or pprof sample type)
 * of the sources whose values of it are of one kind.  Without --event,
 * the default is a CPU graph: perf samples (the first event met, as
 * stackcollapse-perf.pl takes it), else pprof CPU profiles,
 * else the Go trace's CPU samples, else the first event (a pprof
 * profile's default sample type); 'note' lists the rest.  An event whose
 * values do not add up (pprof CPU nanoseconds and Go trace sample
 * counts; counts of different things) is a TR_EDATA error listing them.
 */
struct tr_flame_pick {
	char		*event;		/* NULL: the selection is empty */
	int64_t		 event_id;
	char		*unit;		/* nanoseconds, bytes, samples, count,
					   or a perf event's own name */
	char		*countname;
	char		*format;	/* the sources' format */
	int64_t		*sources;
	size_t		 nsources;
	char		*note;		/* other events, or NULL */
};

/* The pick of a resolved selection.  Returns 0 or -1. */
int	tr_flame_pick(struct tr_db *, const struct tr_sel *,
	    struct tr_flame_pick *, struct tr_error *);
void	tr_flame_pick_release(struct tr_flame_pick *);
/*
 * The notes to print for a graph of 'p' (NULL: of every pprof sample
 * type): the snapshot reduction when pprof samples are drawn, and the
 * other events.  Lines joined by newlines, a new string, or NULL.
 */
char	*tr_flame_pick_notes(const struct tr_sel *,
	    const struct tr_flame_pick *);

/*
 * Prepare "SELECT 'cols' FROM sample s WHERE <the selection> 'tail'"
 * with the selection's parameters bound ('pick' not NULL: its event and
 * sources only), for other readers of the same samples (the pprof
 * exporter).  Returns the statement (the caller finalizes it), or NULL
 * with 'err' set.
 */
sqlite3_stmt *tr_flame_sel_prepare(struct tr_db *, const struct tr_sel *,
	    const struct tr_flame_pick *, const char *cols, const char *tail,
	    struct tr_error *);
void	tr_flame_fold_opts_init(struct tr_flame_fold_opts *);

/*
 * Fold the samples of the pick of 'sel' (resolved).  Returns 0 (with
 * out->n 0 when nothing matches) or -1 with 'err' set.  'out' is owned by
 * the caller (tr_folded_release()).
 */
int	tr_flame_fold(struct tr_db *, const struct tr_sel *,
	    const struct tr_flame_fold_opts *, struct tr_folded *out,
	    struct tr_error *);
/*
 * Fold the time goroutines of the Go trace sources of 'sel' spent blocked
 * in 'kind' (query/blocked.h), each interval's nanoseconds charged to the
 * stack that blocked (for sched, the stack that made it runnable), as go
 * tool trace -pprof=KIND charges them; no root frame.  out->n is 0 when
 * nothing matches (out->note says why: no Go trace, or no such
 * interval).  Returns 0 or -1 with 'err' set.
 */
int	tr_flame_fold_blocked(struct tr_db *, const struct tr_sel *,
	    enum tr_blocked_kind, const struct tr_flame_fold_opts *,
	    struct tr_folded *out, struct tr_error *);
void	tr_folded_release(struct tr_folded *);
/*
 * Print "stack count" lines ("stack base count" for a differential graph,
 * as FlameGraph's difffolded.pl writes them).  Returns 0 or -1 on a write
 * error.
 */
int	tr_folded_write(const struct tr_folded *, FILE *);
/*
 * The differential of 'base' and 'cur' (both sorted, each stack once) into
 * 'out': every stack of either, with cur's count and in out->base the
 * base's, scaled to cur's total when 'normalize' (truncated, as
 * difffolded.pl -n does).  'out' takes cur's event and unit.  Returns 0,
 * or -1 with 'err' set (TR_EDATA: the base is empty or its unit is not
 * cur's).
 */
int	tr_folded_diff(const struct tr_folded *base,
	    const struct tr_folded *cur, int normalize, struct tr_folded *out,
	    struct tr_error *);
/*
 * The samples of the pick of 'sel' (resolved) in time order, for a flame
 * chart: a line per run of consecutive samples with the same stack, out->ts
 * the time stamp of its first sample.  The samples must be of one thread
 * (TR_EDATA otherwise, naming them) and have time stamps (those without
 * are left out, and a note says so).  Returns 0 or -1 with 'err' set.
 */
int	tr_flame_fold_chart(struct tr_db *, const struct tr_sel *,
	    const struct tr_flame_fold_opts *, struct tr_folded *out,
	    struct tr_error *);

enum tr_flame_colors {
	TR_COLORS_HOT, TR_COLORS_MEM, TR_COLORS_IO, TR_COLORS_JAVA,
	TR_COLORS_GO
};

struct tr_svg_opts {
	const char	*title;		/* default "Flame Graph" */
	const char	*subtitle;	/* NULL for none */
	int		 width;		/* default 1200 */
	int		 frameheight;	/* default 16 */
	double		 minwidth;	/* pixels; default 0.1 */
	enum tr_flame_colors colors;
	int		 inverted;	/* icicle: roots at the top */
	int		 reverse;	/* stacks reversed before merging */
	const char	*countname;	/* default "samples" */
	int		 negate;	/* differential: switch the hues */
	int		 hash;		/* colours by flamegraph.pl's name hash */
	const char	*palette;	/* colours kept in this file (--cp) */
	int		 chart;		/* a flame chart: input order kept */
	int64_t		 chart_t0;	/* the chart's store time origin */
	int		 minwidth_pct;	/* minwidth is a % of the total */
};

void	tr_svg_opts_init(struct tr_svg_opts *);
/* Parse a --colors name; 0, or -1 when unknown. */
int	tr_flame_parse_colors(const char *, enum tr_flame_colors *);
/*
 * Write the folded stacks as a self-contained SVG (search, zoom,
 * tooltips).  Returns 0, or -1 with 'err' set.
 */
int	tr_flame_write_svg(const struct tr_folded *,
	    const struct tr_svg_opts *, FILE *, struct tr_error *);

#endif
