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
/* Print "stack count" lines.  Returns 0 or -1 on a write error. */
int	tr_folded_write(const struct tr_folded *, FILE *);

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
