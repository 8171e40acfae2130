/*
 * What the Go runtime queries (gc, goroutines, sched-latency, contention)
 * share: the Go trace sources of a selection with the message when there
 * is none, nearest-rank percentiles, and the mutator utilisation of a
 * trace as a step function with its minimum mutator utilisation (MMU).
 */
#ifndef TR_GORUNTIME_H
#define TR_GORUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "query/sel.h"
#include "store/db.h"

/*
 * The Go trace sources of the store that 'sel' (resolved) selects, ids
 * ascending in '*ids' (owned by the caller, NULL when none).  Without
 * one, a TR_EDATA error for query 'query': "QUERY: no Go execution trace
 * in the store (selection); WHAT; from pprof alone: PPROF" (pprof: what
 * the profiles still answer, or NULL).  Returns the count (> 0), or -1.
 */
int	tr_gort_sources(struct tr_db *, const struct tr_sel *,
	    const char *query, const char *what, const char *pprof,
	    int64_t **ids, struct tr_error *);

/*
 * The span of source 'source_id' ([ts_min, ts_max + 1) of its row) cut
 * to the window of 'sel' (resolved): *lo <= *hi, equal when nothing is
 * left.  Returns 0, or -1 with 'err' set.
 */
int	tr_gort_span(struct tr_db *, const struct tr_sel *, int64_t source_id,
	    int64_t *lo, int64_t *hi, struct tr_error *);

/* Column 'i' of the row of 'st' as a new string, or NULL when NULL. */
char	*tr_gort_col_dup(sqlite3_stmt *, int i);

/*
 * What the four queries print for the function of a goroutine that has
 * none (no start stack: there before a generation-format trace began, or
 * a waker with no goroutine track): go tool trace leaves it blank, and
 * "?" is what the importers name a frame without a function.
 */
#define TR_GORT_NAMELESS	"(unknown)"
/* 'fn' when it is a name, else TR_GORT_NAMELESS (static). */
const char	*tr_gort_name(const char *fn);

/*
 * The nearest-rank percentile p (0-1] of v[0..n), sorted ascending: the
 * smallest value with at least p * n values at or below it; 0 when n is
 * 0.
 */
int64_t	tr_gort_pct(const int64_t *v, size_t n, double p);
/* Sort v[0..n) ascending (n may be 0, v NULL). */
void	tr_gort_sort(int64_t *v, size_t n);

/*
 * Mutator utilisation, as Go's internal/trace defines it for the MMU
 * (MutatorUtilizationV2 with STW, background workers, assists and
 * sweeping, all Ps together): at each instant 1 - (Ps doing GC) /
 * GOMAXPROCS, at least 0, and 0 during a stop-the-world pause.  Fill it
 * with intervals and GOMAXPROCS changes, then tr_gort_util_build() it
 * over the span [lo, hi).
 */
struct tr_gort_util {
	int64_t		 lo, hi;
	/* Built: u[i] holds on [ts[i], ts[i + 1]), ts[n] = hi. */
	size_t		 n;
	int64_t		*ts;
	double		*u;
	double		*f;		/* mutator ns before ts[i] */
	/* The input. */
	struct tr_gort_ev {
		int64_t	 ts;
		double	 dgc;		/* Ps doing GC: +1 / -1 */
		int	 dstw;		/* STW pauses on: +1 / -1 */
		int64_t	 procs;		/* > 0: GOMAXPROCS from here on */
	}		*ev;
	size_t		 nev, cap;
};

void	tr_gort_util_init(struct tr_gort_util *);
void	tr_gort_util_release(struct tr_gort_util *);
/* One P doing GC (a worker, an assist, a sweep) over [ts, end). */
void	tr_gort_util_gc(struct tr_gort_util *, int64_t ts, int64_t end);
/* A stop-the-world pause over [ts, end). */
void	tr_gort_util_stw(struct tr_gort_util *, int64_t ts, int64_t end);
/* GOMAXPROCS is 'procs' (> 0) from 'ts' on (before the first: that). */
void	tr_gort_util_procs(struct tr_gort_util *, int64_t ts, int64_t procs);
/* Make the step function over [lo, hi) (lo < hi). */
void	tr_gort_util_build(struct tr_gort_util *, int64_t lo, int64_t hi);
/* The mutator ns in [a, b) (clipped to the span). */
double	tr_gort_util_mutator(const struct tr_gort_util *, int64_t a,
	    int64_t b);
/*
 * The minimum mutator utilisation over every window [t, t + w) inside
 * the span (exact: the minimum is at a window whose start or end meets a
 * step), and the start of the first window that reaches it.  Returns -1
 * when w is longer than the span, else the MMU (0-1).
 */
double	tr_gort_mmu(const struct tr_gort_util *, int64_t w, int64_t *worst);

#endif
