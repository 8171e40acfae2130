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

/* Which samples: every unset field matches everything. */
struct tr_flame_sel {
	int64_t		 source_id;	/* 0: all sources */
	const char	*event;		/* NULL: the first event seen */
	int64_t		 pid;		/* -1: any */
	int64_t		 tid;		/* -1: any */
	const char	*comm;		/* NULL: any */
	int		 has_from, has_to;
	/*
	 * [from, to): ns after the earliest time stamp of the selected
	 * sources (all, or source_id), with each source's clock offset.
	 */
	int64_t		 from, to;
	const char	*label;		/* "key=value" (pprof), NULL: any */
};

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
	char		 *event;	/* the event selected, or NULL */
	int		  events;	/* distinct events in the selection */
};

void	tr_flame_sel_init(struct tr_flame_sel *);
/*
 * Prepare "SELECT 'cols' FROM sample s ... WHERE <the selection> 'tail'"
 * with the selection's parameters bound ('event' > 0: that event id
 * only), for other readers of the same samples (the pprof exporter).
 * Returns the statement (the caller finalizes it), or NULL: with 'err'
 * set on failure, with *none set when nothing can match.
 */
sqlite3_stmt *tr_flame_sel_prepare(struct tr_db *,
	    const struct tr_flame_sel *, const char *cols, int64_t event,
	    const char *tail, int *none, struct tr_error *);
void	tr_flame_fold_opts_init(struct tr_flame_fold_opts *);

/*
 * Fold the selected samples.  With no event given and several in the
 * selection, the first event (by sample order) is used and 'events' says
 * how many there were.  Returns 0 or -1 with 'err' set.  'out' is owned by
 * the caller (tr_folded_release()).
 */
int	tr_flame_fold(struct tr_db *, const struct tr_flame_sel *,
	    const struct tr_flame_fold_opts *, struct tr_folded *out,
	    struct tr_error *);
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
