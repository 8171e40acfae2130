/*
 * Derived data of Go execution traces: tables computed from a source's
 * slices while they are imported (an observer of the store writer), kept
 * in step by trace-align, and rebuilt from slice_run for stores made
 * before them.  Reading the slices back costs a JSON expansion each (40 s
 * for the 17M states of the bench trace); these tables answer the
 * analyses' questions in milliseconds.  trace-store(5), "Derived tables",
 * documents them:
 *
 *   go_bin          per source, per TR_DERIVED_BIN of time: ns of
 *                   goroutines running, runnable and blocked by kind, of
 *                   GC, STW, mark assists, sweeping and Ps running;
 *                   goroutines created and ended; CPU samples
 *   go_summary      per goroutine: exec, scheduler wait, block time by
 *                   kind, syscall, mark assist (Go's goroutine analysis)
 *   go_state_stack  per (state, reason, stack): count, total and longest
 *                   time (what go tool trace -pprof=sched/sync/... sums)
 *   go_span         per task and region (user annotations): name, time,
 *                   task, goroutine, depth (a view of the slices since
 *                   schema version 10; a table before)
 *   go_span_pack    per task or region name: the spans' times, lengths
 *                   and goroutines in time order, packed in chunks (steps)
 *
 * The C API below reads them for the queries (timeline, gpu-idle, stalls,
 * steps, and the Go runtime queries).
 */
#ifndef TR_DERIVED_H
#define TR_DERIVED_H

#include <stdint.h>

#include "base/error.h"
#include "store/db.h"

#define TR_DERIVED_BIN	10000000	/* ns: the width of a go_bin row */

/*
 * What time goes to: the columns of go_bin (name "_ns"), and of
 * go_summary for the first eight.  Blocking reasons map to kinds as
 * trace-store(5) says: chan (chan send, chan recv, select), sync (sync,
 * cond), syscall, net, sleep, other (GC, forever, other, unknown and any
 * reason not known to this version).
 */
enum tr_dk {
	TR_DK_RUNNING,		/* goroutines running (exec) */
	TR_DK_RUNNABLE,		/* runnable: waiting for a P */
	TR_DK_CHAN,		/* blocked on a channel or select */
	TR_DK_SYNC,		/* blocked on sync.Mutex, RWMutex, Cond... */
	TR_DK_SYSCALL,		/* blocked in a syscall (or cgo call) */
	TR_DK_NET,		/* blocked on the netpoller */
	TR_DK_SLEEP,		/* time.Sleep, timers */
	TR_DK_OTHER,		/* blocked for another reason */
	TR_DK_GC,		/* a GC cycle was active */
	TR_DK_STW,		/* stop-the-world (sum of the pauses) */
	TR_DK_ASSIST,		/* mark assists (summed over goroutines) */
	TR_DK_SWEEP,		/* sweeping (summed over Ps) */
	TR_DK_PROC,		/* Ps running (summed over Ps) */
	TR_DK_COUNT
};
#define TR_DK_GOROUTINE	(TR_DK_OTHER + 1)	/* kinds of a goroutine */

/* "running", "runnable", "chan", ... "proc": go_bin's column stems. */
extern const char *const tr_dk_names[TR_DK_COUNT];

/*
 * The schema of the derived tables of version 3 (part of the store's
 * schema), which a v2 -> v3 migration creates, and those new in version 4
 * (go_span, in its form of version 9), which a v3 -> v4 migration
 * creates; then it computes them all again (tr_derived_rebuild_all():
 * go_bin's runnable_peak is exact since version 4).  The migration to
 * version 9 makes go_span again from tr_derived_schema_v4, go_span alone;
 * the one to 10 drops it for a view.
 */
extern const char tr_derived_schema[];
extern const char tr_derived_schema_v4[];

/*
 * Version 5: the per-stack aggregates of the samples, sample_stack
 * (store/derived-stack.c; trace-store(5)).  tr_derived_stack_rebuild()
 * deletes source 'source_id''s rows (every source's when it is -1) and
 * sums its samples again, inside the caller's write transaction: at the
 * end of each import and in the migration to version 5.  An import says
 * how many call sites it added ('new_callsites', the last ids; -1: not
 * known): the folds read those at once and older ones one by one.
 * Returns 0, or -1 with 'err' set.
 */
extern const char tr_derived_stack_schema[];
int	tr_derived_stack_rebuild(struct tr_db *, int64_t source_id,
	    int64_t new_callsites, struct tr_error *);

/*
 * Version 11: the folds, fold_node and sample_fold (store/derived-stack.c;
 * trace-store(5)): the per-stack aggregates by what a flame graph names,
 * a frame standing for those of its name and module, a thread for those
 * of its name.  tr_derived_stack_rebuild() writes them too once the store
 * has them; tr_derived_fold_rebuild() deletes source 'source_id''s rows
 * (every source's, one by one, when it is -1) and folds its sample_stack
 * rows again, in the migration to version 11.  Returns 0, or -1 with
 * 'err' set.
 */
extern const char tr_derived_fold_schema[];
int	tr_derived_fold_rebuild(struct tr_db *, int64_t source_id,
	    struct tr_error *);
/*
 * Whether the store has the folds: 1, 0 (a store not yet migrated to
 * version 11, or while it is), or -1 with 'err' (may be NULL) set.
 */
int	tr_derived_has_folds(struct tr_db *, struct tr_error *);

/*
 * Version 6: go_span_pack (store/derived-pack.c; trace-store(5)), the
 * start times, lengths and (since version 9) goroutines of the tasks and
 * regions of each name in time order, in chunks of TR_DERIVED_PACK_CHUNK
 * spans.  tr_derived_pack_rebuild() deletes source 'source_id''s rows and
 * packs its go_span rows again (sorted by SQLite: go_span has no index),
 * inside the caller's write transaction: in the migrations to versions 6
 * and 9.  Returns 0, or -1 with 'err' set.
 */
#define TR_DERIVED_PACK_CHUNK	65536
extern const char tr_derived_pack_schema[];
int	tr_derived_pack_rebuild(struct tr_db *, int64_t source_id,
	    struct tr_error *);

/*
 * The spans of the go_span view (trace-store(5)) of source 'source_id' of
 * one kind (regions, or tasks with 'task') and name 'name_id', read from
 * the go-task tracks' slice runs with the runs' own reader instead of
 * SQL's JSON functions: 'fn' for each, in the order of the runs (callers
 * sort).  goid -1: none.  Returns 0, fn's -1, or -1 with 'err' set.
 */
struct tr_derived_span {
	int64_t	id, ts, dur, goid;
	int	start_unknown, unfinished;
};
typedef int tr_derived_span_fn(void *, const struct tr_derived_span *,
	    struct tr_error *);
int	tr_derived_spans(struct tr_db *, int64_t source_id, int task,
	    int64_t name_id, tr_derived_span_fn *, void *, struct tr_error *);

/*
 * The packing itself, for the merge of the spans' sorted runs (an import,
 * a rebuild): _new() deletes the source's rows as _rebuild() does, _add()
 * takes the spans in the order (kind, name_id, ts, id), each with its
 * goroutine (-1: none), _finish() writes the last chunk.  0 or -1 with
 * 'err' set (NULL from _new()).
 */
struct tr_derived_packer;
struct tr_derived_packer *tr_derived_packer_new(struct tr_db *,
	    int64_t source_id, struct tr_error *);
int	tr_derived_packer_add(struct tr_derived_packer *, const char *kind,
	    int64_t name_id, int64_t ts, int64_t dur, int64_t goid, int cut,
	    struct tr_error *);
int	tr_derived_packer_finish(struct tr_derived_packer *,
	    struct tr_error *);
void	tr_derived_packer_free(struct tr_derived_packer *);

/*
 * Read the spans of kind 'kind' ("region" or "task") and name 'name_id'
 * of source 'source_id' in time order (then by slice id), chunk by chunk:
 * 'fn' gets each chunk's start times, lengths, goroutines (-1: none) and,
 * when some of its spans were cut by the trace's edges, a byte per span,
 * 1 for those (NULL when none was); the arrays are borrowed until it
 * returns.
 * Chunks that begin after 'to', or end before 'from' (no span of them
 * overlaps [from, to], as tr_sel_overlaps() says), are left out.  Returns
 * 1, 0 when the source has no such span (or no go_span_pack rows), or -1
 * with 'err' set; 'fn' returns 0, or -1 with 'err' set to stop there.
 */
typedef int tr_derived_pack_fn(void *arg, const int64_t *ts,
	    const int64_t *dur, const int64_t *goid, const unsigned char *cut,
	    size_t n, struct tr_error *);
int	tr_derived_pack_read(struct tr_db *, int64_t source_id,
	    const char *kind, int64_t name_id, int64_t from, int64_t to,
	    tr_derived_pack_fn *fn, void *arg, struct tr_error *);

/* --- filling them --------------------------------------------------- */

struct tr_derived;

/*
 * An accumulator for source 'source_id' of 'db' (borrowed), which reads
 * the str and track tables as it needs names.  Feed it every slice, every
 * track and every time-stamped sample of the source (in any order), then
 * tr_derived_write() it inside the transaction.  Memory: a bin per
 * TR_DERIVED_BIN of the source's span, a record per goroutine (alive:
 * tr_derived_ended()) and per (state, reason, stack), and the
 * scheduler tables' records of the seconds the watermark has not passed
 * (go_sched_lat), of the goroutines alive (go_wait_sec) or of the whole
 * span (go_blocked_bin, go_mutex_waker).
 */
struct tr_derived *tr_derived_new(struct tr_db *, int64_t source_id);
void	tr_derived_free(struct tr_derived *);
/* A track: 'kind' borrowed; 'meta' JSON text or NULL (Go: "created"). */
int	tr_derived_track(struct tr_derived *, int64_t track_id,
	    const char *kind, int64_t ref, const char *meta,
	    struct tr_error *);
/* A slice; 'args' is its JSON object text or NULL. */
int	tr_derived_slice(struct tr_derived *, int64_t track_id, int64_t ts,
	    int64_t dur, int64_t name_id, int64_t category_id,
	    int64_t callsite_id, const char *args, size_t args_len,
	    struct tr_error *);
/* A sample with a time stamp. */
int	tr_derived_sample(struct tr_derived *, int64_t ts, struct tr_error *);
/*
 * Goroutine track 'track_id' ended (the Go sink's "$.ended"): no slice
 * of it is to come, nor a GC assist of its goroutine.  Its go_summary
 * row is written now and what the accumulator held for it let go, so
 * that its memory follows the goroutines alive at once rather than all
 * the trace had.  Optional: without it they wait for
 * tr_derived_write(), with the same rows.  Returns 0, or -1 with 'err'.
 */
int	tr_derived_ended(struct tr_derived *, int64_t track_id,
	    struct tr_error *);
/*
 * No runnable state to come starts before 'ts' (the importer's promise,
 * tr_writer_watermark()): the bins that end by then are final, their
 * runnable edges freed, so that the accumulator's memory follows the
 * states open at once rather than the length of the trace.  A promise
 * broken is noticed, and the tables are then computed again from the
 * store at tr_derived_write().  Returns 0.
 */
int	tr_derived_watermark(struct tr_derived *, int64_t ts);
/*
 * Whether source 'source_id' has derived rows (a Go trace imported with
 * them, not with TRACEKIT_NO_DERIVED): 1, 0, or -1 with 'err' set.
 */
int	tr_derived_present(struct tr_db *, int64_t source_id,
	    struct tr_error *);
/*
 * The whole seconds of the TR_DERIVED_LAT_BIN grid inside [lo, hi):
 * [*a, *b).  Returns 1 when there is one, else 0 (*a and *b are set
 * anyway, *b <= *a).
 */
int	tr_derived_seconds(int64_t lo, int64_t hi, int64_t *a, int64_t *b);
/* How many times a broken promise made the tables be computed again. */
extern int64_t	tr_derived_late_rebuilds;
/* How many goroutines tr_derived_ended() let go (for the tests). */
extern int64_t	tr_derived_ended_goroutines;
/*
 * How many sorted runs of live go_span rows were spilled to a temporary
 * file and merged (for the tests; TRACEKIT_SPAN_CHUNK makes runs small).
 */
extern int64_t	tr_derived_span_runs;
/*
 * Write the source's rows (none when it had no Go tracks).  Returns 0,
 * or -1 with 'err' set.
 */
int	tr_derived_write(struct tr_derived *, struct tr_error *);

/*
 * Delete source 'source_id''s derived rows and compute them again from
 * its slices, tracks and samples as stored (inside the caller's write
 * transaction).  For migrations and trace-align, which calls it after it
 * moved a source's times, so that the bins stay on the grid of the store
 * timeline (exact for windows on it).  Returns 0, or -1 with 'err' set.
 */
int	tr_derived_rebuild(struct tr_db *, int64_t source_id,
	    struct tr_error *);
/* The same for every Go trace source of the store. */
int	tr_derived_rebuild_all(struct tr_db *, struct tr_error *);


/*
 * The store writer's observer (store/writer.h): attaches an accumulator
 * to a writer of a Go trace source.  An entry of tr_writer_observers[].
 * With TRACEKIT_NO_DERIVED=1 in the environment it attaches none (for
 * bench/attr-bench.sh, which measures their cost): such a source has no
 * derived rows, and the queries say so.
 */
struct tr_writer;
int	tr_derived_observe(struct tr_writer *, struct tr_error *);

/* --- reading them (for the queries) -------------------------------- */

/*
 * Totals over the window [lo, hi) of store time, from go_bin.  A bin
 * partly inside the window counts pro rata (exact = 0); windows on the
 * bin grid (multiples of TR_DERIVED_BIN, as the bins are once a source
 * is aligned or imported on the monotonic clock) are exact.
 */
struct tr_derived_totals {
	int64_t		 ns[TR_DK_COUNT];	/* as enum tr_dk */
	int64_t		 covered_ns;	/* of the window, under some bin */
	int64_t		 idle_ns;	/* whole ms with nothing running or
					   runnable (go_bin.idle_ns) */
	double		 runnable_peak;	/* the most goroutines runnable
					   at one instant, in any bin read
					   (of a bin cut by an edge, its
					   whole peak) */
	int64_t		 created, ended;	/* goroutines */
	int64_t		 cpu_samples;	/* of the Go trace */
	int64_t		 bins;		/* bins read */
	int		 exact;		/* no bin was cut by an edge */
	int		 sources;	/* Go sources read */
};

/*
 * Sum the bins of Go source 'source_id' (0: every Go trace source in the
 * store) over [lo, hi).  t->sources is 0 when there is none (the caller
 * says "no Go trace").  Returns 0, or -1 with 'err' set.
 */
int	tr_derived_totals(struct tr_db *, int64_t source_id, int64_t lo,
	    int64_t hi, struct tr_derived_totals *t, struct tr_error *);

/*
 * The same for consecutive windows [lo + i * step, lo + (i + 1) * step)
 * for i in [0, n): t[0..n) (one pass over the bins).
 */
int	tr_derived_series(struct tr_db *, int64_t source_id, int64_t lo,
	    int64_t step, int64_t n, struct tr_derived_totals *t,
	    struct tr_error *);

/*
 * The Go trace sources of the store (ids ascending; '*ids' owned by the
 * caller, NULL when none).  Returns the count, or -1 with 'err' set.
 */
int	tr_derived_sources(struct tr_db *, int64_t **ids, struct tr_error *);

/*
 * One state of one goroutine, as read from its runs without the slice
 * view: its interval clipped to the window asked, its kind, its stack.
 */
struct tr_derived_state {
	int64_t		 ts, dur;	/* clipped to [lo, hi) */
	int64_t		 start, end;	/* the whole state */
	enum tr_dk	 kind;		/* TR_DK_RUNNING .. TR_DK_OTHER */
	int64_t		 name_id, category_id, callsite_id;
	int64_t		 track_id;
	const char	*args;		/* its JSON args (not NUL-ended), */
	size_t		 args_len;	/* or NULL, 0 */
};
typedef int tr_derived_state_fn(void *arg, const struct tr_derived_state *,
	    struct tr_error *);

/*
 * Call 'fn' for each state of goroutine track 'track_id' that overlaps
 * [lo, hi), in time order, reading only the runs that overlap it
 * (milliseconds for a driver goroutine over a GPU-idle episode).  A
 * non-zero return of 'fn' stops the walk and is returned.  Returns 0, or
 * -1 with 'err' set.
 */
int	tr_derived_track_states(struct tr_db *, int64_t track_id, int64_t lo,
	    int64_t hi, tr_derived_state_fn *fn, void *arg, struct tr_error *);

/* --- the scheduler and blocking tables (derived-sched.c) ------------- */

/*
 * go_blocked_stack: per source, rules ("old": the trace format up to Go
 * 1.21; "gen": the generation format of Go 1.22 on; both are computed,
 * a reader takes those of its source's format), kind and stack, the
 * intervals go tool trace -pprof=KIND counts (query/blocked.h): count,
 * total_ns.  go_sched_lat: per source, TR_DERIVED_LAT_BIN of store time
 * (where the state starts), reason, creation stack of the goroutine
 * (NULL: unknown) and bucket of duration (tr_derived_lat_bucket()), the
 * runnable states: count, total_ns, max_ns.  go_sched_long: every
 * runnable state of TR_DERIVED_LAT_LONG or longer: ts, dur, track_id,
 * reason.  Part of the schema of version 4.
 */
#define TR_DERIVED_LAT_BIN	INT64_C(1000000000)	/* ns */
#define TR_DERIVED_LAT_LONG	INT64_C(1000000)	/* ns */
#define TR_DERIVED_LAT_NBUCKET	(64 + 58 * 32)

extern const char tr_derived_sched_schema[];
/*
 * Version 7's: go_mutex_waker by second (its ts), and go_blocked_bin,
 * go_blocked_stack's charges by second of store time (TR_DERIVED_LAT_BIN
 * grid): count, the intervals that start in the second; total_ns, their
 * nanoseconds in it.
 */
extern const char tr_derived_sched_schema_v7[];

/* The kinds of go_blocked_stack, in the order of enum tr_blocked_kind. */
enum {
	TR_DB_KIND_SYNC, TR_DB_KIND_NET, TR_DB_KIND_SYSCALL, TR_DB_KIND_SCHED,
	TR_DB_KIND_CHAN, TR_DB_KIND_MUTEX, TR_DB_KIND_SLEEP, TR_DB_KIND_ALL,
	TR_DB_NKIND
};
extern const char *const tr_blocked_kind_stems[TR_DB_NKIND];

/*
 * The bucket of a duration: itself below 64 ns, else 32 buckets per
 * power of two, each [lo, lo + lo / 32) at most (a value is at most
 * 1/32 above its bucket's lower end).  The lower end of bucket b.
 */
int	tr_derived_lat_bucket(int64_t);
int64_t	tr_derived_lat_bucket_lo(int);

/* What the accumulator passes of a goroutine state. */
enum { TR_DSCHED_RUNNING, TR_DSCHED_RUNNABLE, TR_DSCHED_BLOCKED,
	TR_DSCHED_OTHER };

struct tr_dsched;
struct tr_dsched *tr_dsched_new(int64_t source_id);
void	tr_dsched_free(struct tr_dsched *);
/* A goroutine track, and its creation stack (0: unknown). */
void	tr_dsched_goroutine(struct tr_dsched *, int64_t track_id,
	    int64_t create_cs);
/*
 * Goroutine track 'track_id' has no state to come (tr_derived_ended()):
 * what waits for the end of the trace is charged now, its go_wait_sec
 * rows written into 'db', and it is let go.  Returns 0, or -1 with 'err'
 * set.
 */
int	tr_dsched_ended(struct tr_dsched *, struct tr_db *, int64_t track_id,
	    struct tr_error *);
/*
 * Write the go_sched_long rows that wait into 'db' when they are enough
 * to be worth it (the import's writer thread, as the states come).
 * Returns 0, or -1 with 'err' set.
 */
int	tr_dsched_spill(struct tr_dsched *, struct tr_db *,
	    struct tr_error *);
/* How many times it wrote them (for the tests). */
extern int64_t	tr_dsched_long_spills;
/*
 * The importer's watermark (tr_derived_watermark()): write the
 * go_sched_lat rows of the seconds that end by 'ts' and let them go.  A
 * runnable state that comes into one after all makes tr_dsched_late()
 * 1: the tables must then be computed again from the store.  Returns 0,
 * or -1 with 'err' set.
 */
int	tr_dsched_watermark(struct tr_dsched *, struct tr_db *, int64_t ts,
	    struct tr_error *);
int	tr_dsched_late(const struct tr_dsched *);
/* How many rows it wrote before the end (for the tests). */
extern int64_t	tr_dsched_lat_early;
/*
 * A slice of a goroutine track, each goroutine's in their order:
 * 'cls' TR_DSCHED_*, 'reason' the string of category 'cat' (NULL: none;
 * borrowed until tr_dsched_write()), 'args' its JSON text.
 */
void	tr_dsched_state(struct tr_dsched *, int64_t track_id, int64_t ts,
	    int64_t dur, int cls, int64_t cat, const char *reason, int64_t cs,
	    const char *args, size_t args_len, int unfinished);
int	tr_dsched_write(struct tr_dsched *, struct tr_db *,
	    struct tr_error *);
/*
 * The generation format's state of a transition (the replay's Running,
 * Runnable, Syscall or Waiting, as an int), from tr_dsched_state()'s cls
 * and reason: transitions with a stack into another state close the
 * intervals that are open.
 */
int	tr_dsched_gen_state(int cls, const char *reason);

/*
 * For a replay of part of a source (tr_derived_blocked()): with a clip
 * function set, the accumulator keeps only go_blocked_stack's charges,
 * each interval [b, e) charged clip(arg, b, e, &count) nanoseconds and
 * counted when clip sets count (it is 1 on the call), and left out when
 * neither.  tr_dsched_first_run() tells it a
 * goroutine's first running state when its states are fed from later
 * on; tr_dsched_open() whether one of the goroutine's intervals that
 * opened before 'before' is still open;
 * tr_dsched_finish() closes what waited for a first run (tr_dsched_write
 * does it too); tr_dsched_charges() calls fn(arg, callsite_id, count,
 * ns) for each charge of the rules (gen: 1, old: 0) and the kind.
 */
typedef int64_t	tr_dsched_clip_fn(void *, int64_t b, int64_t e,
		    int *count);
void	tr_dsched_set_clip(struct tr_dsched *, tr_dsched_clip_fn *, void *);
void	tr_dsched_first_run(struct tr_dsched *, int64_t track_id, int64_t ts);
int	tr_dsched_open(struct tr_dsched *, int64_t track_id,
	    int64_t before);
void	tr_dsched_finish(struct tr_dsched *);
void	tr_dsched_charges(struct tr_dsched *, int gen, int kind,
	    void (*fn)(void *, int64_t, int64_t, int64_t), void *arg);

/*
 * The go_blocked_stack charges of source 'source_id' (goroutine 'goid',
 * or all for -1) replayed from its states as the accumulator replays
 * them at import, clipped by 'clip' (which must give 0 outside [lo, hi)):
 * only the states of each goroutine from the transition that opened the
 * interval around lo to the close of the intervals open at hi are read,
 * through the run index.  The charges go into 's' (made by the caller
 * with tr_dsched_new() and tr_dsched_set_clip(), finished here).
 * Returns 0, or -1 with 'err' set.
 */
int	tr_derived_blocked(struct tr_db *, int64_t source_id, int64_t goid,
	    int64_t lo, int64_t hi, struct tr_dsched *, struct tr_error *);
/* The member "waker" of a state's JSON args: 1 with *goid, or 0. */
int	tr_derived_waker(const char *args, size_t len, int64_t *goid);

/*
 * Call 'fn' for each state of the goroutine tracks of source 'source_id'
 * whose run overlaps [lo, hi] (reading only those runs, by the run
 * index), with its track in ds->track_id; states are not clipped (ts and
 * dur are the whole state).  Returns 0, fn's non-zero return, or -1 with
 * 'err' set.
 */
int	tr_derived_source_states(struct tr_db *, int64_t source_id,
	    int64_t lo, int64_t hi, tr_derived_state_fn *fn, void *arg,
	    struct tr_error *);

#endif
