/*
 * Clock alignment: put every source on CLOCK_MONOTONIC of the traced host
 * and say how well.  A source's mapping from its native clock is
 *
 *	stored = native + offset + round(drift * (native - ref))
 *
 * (drift in parts per million / 1e6), kept in the source row (clock_offset,
 * clock_drift_ppm, align_method, align_confidence) and in its meta under
 * "align" (ref_ns, uncertainty_ns and the evidence), so that alignment can
 * be redone or undone at any time without importing again.
 *
 * Mappings come, in order of trust, from exact anchors in the store (perf's
 * reference time, Go 1.25 clock snapshots, clock.json pairs, tracekit.clock
 * logs in a Go trace), from statements on the command line (an offset, a
 * pair of simultaneous times, a time zone), and from estimates: the offset
 * at which the activity of the source correlates best with the activity of
 * an aligned one (perf samples of a process against a Go trace's running
 * goroutines, host activity against GPU utilisation), with the peak, its
 * width and the second-best peak as the confidence.
 */
#ifndef TR_ALIGN_H
#define TR_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "base/error.h"
#include "base/out.h"

/* Anchor kinds, for tr_align_opts.ignore. */
#define TR_ANCHOR_PERF_REF	0x01	/* perf --header reference time */
#define TR_ANCHOR_GO_SNAPSHOT	0x02	/* Go 1.25+ ClockSnapshot */
#define TR_ANCHOR_CLOCK_JSON	0x04	/* clock.json wall/monotonic pairs */
#define TR_ANCHOR_GO_LOG	0x08	/* tracekit.clock logs in a Go trace */

/* The default of --min-confidence and --search. */
#define TR_ALIGN_MIN_CONFIDENCE	0.5
#define TR_ALIGN_SEARCH_NS	INT64_C(10000000000)

/* The category of the Go trace logs that carry clock pairs. */
#define TR_ALIGN_LOG_KEY	"tracekit.clock"

enum tr_align_stmt_kind {
	TR_ALIGN_OFFSET,	/* SOURCE=OFFSET: from its alignment */
	TR_ALIGN_OFFSET_ABS,	/* SOURCE==OFFSET: from its native clock */
	TR_ALIGN_PAIR,		/* SOURCE:TIME=SOURCE:TIME */
	TR_ALIGN_TZ,		/* [SOURCE=]ZONE */
	TR_ALIGN_PID		/* [SOURCE=]PID */
};

/* A statement from the command line, resolved against the store later. */
struct tr_align_stmt {
	enum tr_align_stmt_kind	 kind;
	char			*text;		/* as given, for messages */
	char			*src[2];	/* sources; [0] may be NULL */
	char			*val[2];	/* offset, times, zone or pid */
};

struct tr_align_opts {
	int			 dry_run;	/* compute and print only */
	int			 reset;		/* all back to native */
	int			 no_estimate;	/* anchors, statements only */
	int			 force;		/* apply weak estimates too */
	int			 human;		/* times as text, for a table */
	double			 min_confidence;
	int64_t			 search_ns;	/* half-width of the window */
	unsigned		 ignore;	/* TR_ANCHOR_* not to use */
	size_t			 nstmts;
	struct tr_align_stmt	*stmts;
	/*
	 * --source: align and report only these sources (borrowed; the
	 * others stay as they are, and serve as references); none: all.
	 */
	const int64_t		*sources;
	size_t			 nsources;
	/*
	 * The store's start and wall clock for the report's start and end
	 * (tr_out_set_clock()), read after the change is applied: the
	 * selection model's tr_sel_store_origin(), which the tool passes
	 * so that align/ depends on store/ and base/ only.  NULL: the
	 * table shows store nanoseconds.
	 */
	int			(*store_origin)(struct tr_db *, int64_t *origin,
				    int *has_wall, int64_t *wall_offset,
				    struct tr_error *);
};

void	tr_align_opts_init(struct tr_align_opts *);
void	tr_align_opts_release(struct tr_align_opts *);
/*
 * Add a statement of 'kind' from its text ("2=+12.5ms",
 * "3:1.5s=1:742.1s", "Europe/Paris", "4=1234").  TR_ALIGN_OFFSET takes
 * both forms of --offset: "2=+12.5ms" (relative) and "2==-3s" (becomes
 * TR_ALIGN_OFFSET_ABS).  Returns 0, or -1 with
 * 'err' set (TR_EUSAGE) when the text has the wrong shape; the sources and
 * times are checked by tr_align_run().
 */
int	tr_align_opts_add(struct tr_align_opts *, enum tr_align_stmt_kind,
	    const char *text, struct tr_error *);
/*
 * The anchor kind called 'name' ("perf-ref", "go-snapshot", "clock-json",
 * "go-log"), or 0.
 */
unsigned tr_align_anchor_kind(const char *name);

/*
 * Work out every source's mapping, apply the changed ones (unless
 * 'dry_run'; every row of a source moves in the same transaction) and
 * write one row per source to 'out'.  What the data cannot vouch for is
 * said as notes on 'out' (tr_out_note()): a source that lies apart from
 * every other one by more than its own span.  Returns 0, or -1 with
 * 'err' set and the store unchanged; a statement naming an unknown or
 * unselected source, or a time it cannot read, is a TR_EUSAGE error.
 */
int	tr_align_run(struct tr_db *, const struct tr_align_opts *,
	    struct tr_out *, struct tr_error *);

/* --- the mapping, exactly in integers -------------------------------- */

struct tr_align_map {
	int64_t		 offset;	/* ns */
	double		 drift;		/* ratio: ppm / 1e6 */
	int64_t		 ref;		/* native ns where drift is zero */
};

/* stored = native + offset + round(drift * (native - ref)) */
int64_t	tr_align_forward(const struct tr_align_map *, int64_t native);
/* The native time that tr_align_forward() maps to 'stored'. */
int64_t	tr_align_inverse(const struct tr_align_map *, int64_t stored);

/*
 * Register tr_align_remap(ts, o1, d1, r1, o2, d2, r2) on the connection:
 * a stored time under mapping 1 moved to mapping 2 (NULL stays NULL).
 * Returns 0 or -1.
 */
int	tr_align_register(struct tr_db *, struct tr_error *);

/* --- estimation by cross-correlation --------------------------------- */

enum tr_align_sig_kind {
	TR_SIG_POINTS,		/* events: t[i] */
	TR_SIG_INTERVALS,	/* busy from t[i] to e[i]; overlaps add up */
	TR_SIG_STEPS		/* v[i] held from t[i-1] to t[i] */
};

/* An activity signal; times are stored times, sorted by t. */
struct tr_align_sig {
	enum tr_align_sig_kind	 kind;
	size_t			 n, cap;
	int64_t			*t;
	int64_t			*e;		/* INTERVALS */
	double			*v;		/* STEPS */
	int64_t			 res;		/* sampling interval, ns */
};

void	tr_align_sig_init(struct tr_align_sig *, enum tr_align_sig_kind);
void	tr_align_sig_release(struct tr_align_sig *);
void	tr_align_sig_add(struct tr_align_sig *, int64_t t, int64_t e,
	    double v);
/* Sort by time and work out the sampling interval if 'res' is 0. */
void	tr_align_sig_finish(struct tr_align_sig *);

struct tr_align_xcorr {
	/* in */
	int64_t		 lag_lo, lag_hi;	/* the shifts to search */
	int		 any_sign;		/* anti-correlation too */
	int		 coarse_only;		/* skip the fine passes */
	/* out */
	int		 ok;		/* a usable peak was found */
	const char	*why;		/* when not ok: a static reason */
	int64_t		 lag;		/* shift that moves 'a' onto 'b' */
	double		 peak;		/* normalised correlation at 'lag' */
	double		 second;	/* best peak outside the main lobe */
	int64_t		 second_lag;
	int64_t		 width;		/* full width at half maximum, ns */
	int64_t		 uncertainty;	/* >= either's interval, the bin */
	double		 confidence;	/* 1 - second/peak, in [0, 1] */
	int64_t		 bin;		/* finest bin used, ns */
};

/*
 * Find the shift L in [lag_lo, lag_hi] that makes a(t - L) look most like
 * b(t): adding L to the times of 'a' puts it on the timeline of 'b'.  The
 * window is first narrowed (in 'x') to the shifts where the two can meet.
 * Returns 0 with 'x' filled in: x->ok says whether a peak was found, and
 * x->why why not (no overlap, a flat signal, too little activity, no
 * significant peak, a peak at the edge of the window).  Two nearly equal
 * peaks are found but get a confidence near 0; the caller decides.
 */
int	tr_align_correlate(const struct tr_align_sig *a,
	    const struct tr_align_sig *b, struct tr_align_xcorr *x);

#endif
