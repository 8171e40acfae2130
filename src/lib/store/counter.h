/*
 * Counters in runs (schema version 8): up to TR_COUNTER_RUN points of one
 * track and metric name in a row of counter_run, as a JSON array of
 * [ts - run.ts, value] pairs (value an integer, a real or null).  The
 * counter view (db.c) gives them back one row each, with the ids id ..
 * id + n - 1 of the run; this module writes a run's JSON, walks one, and
 * reads the points of a track and name over a time window without the
 * view (the analyses' path).
 */
#ifndef TR_COUNTER_H
#define TR_COUNTER_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/util.h"
#include "store/db.h"

#define TR_COUNTER_RUN	256	/* points in a row of counter_run, at most */

/* A point's value: none (a NULL), an integer or a real. */
enum { TR_COUNTER_NULL, TR_COUNTER_INT, TR_COUNTER_REAL };
struct tr_counter_val {
	int	 type;
	int64_t	 i;
	double	 d;
};

/*
 * The value SQLite's NUMERIC affinity would store for 'v': NULL for NaN,
 * an integer for an integral value that fits, else the real.
 */
void	tr_counter_val_set(struct tr_counter_val *, double v);
/* As a double (NaN for a NULL). */
double	tr_counter_val_double(const struct tr_counter_val *);

/*
 * Append to 'b' the JSON of the points ts[0..n) and val[0..n) (n > 0) of a
 * run, and set *t0 and *end to the least and the greatest of the ts (the
 * run's ts and end; the points' times are written from *t0).
 */
void	tr_counter_run_json(struct tr_buf *b, const int64_t *ts,
	    const struct tr_counter_val *val, int n, int64_t *t0,
	    int64_t *end);

/*
 * Call fn on each point of a run (counter_run.points 'p', 'len' bytes,
 * its id and ts): the point's id, its ts and its value.  Returns 0, fn's
 * non-zero return, or -1 with 'err' set for JSON that is not a run.
 */
typedef int tr_counter_fn(void *arg, int64_t id, int64_t ts,
    const struct tr_counter_val *, struct tr_error *);
int	tr_counter_walk(const char *p, size_t len, int64_t run_id,
	    int64_t run_ts, tr_counter_fn *fn, void *arg, struct tr_error *);

/* Points read back: each one's id, ts and value (never NULL). */
struct tr_counter_pts {
	int64_t	*id, *ts;
	double	*v;
	size_t	 n, cap;
};
void	tr_counter_pts_free(struct tr_counter_pts *);
/* Sort the points from 'from' on by (ts, id). */
void	tr_counter_pts_sort(struct tr_counter_pts *, size_t from);

/*
 * Append to 'out' the points of track 'track_id' and metric 'name_id'
 * with ts in [lo, hi) and a value (NULLs left out), in (ts, id) order.
 * With 'prev', the window starts instead at the last point before 'lo'
 * (whatever its value) when there is one: what a timeline needs to know
 * the value at 'lo'.  Returns 0, or -1 with 'err' set.
 */
int	tr_counter_read(struct tr_db *, int64_t track_id, int64_t name_id,
	    int64_t lo, int64_t hi, int prev, struct tr_counter_pts *out,
	    struct tr_error *);

/*
 * Rewrite the counters of the old table 'counter' (schema version 7 and
 * before) into counter_run, a run per TR_COUNTER_RUN points of a track
 * and name in (ts, id) order: the step to version 8.  0, or -1.
 */
int	tr_counter_migrate(struct tr_db *, struct tr_error *);

#endif
