/*
 * The store writer: the rows of one source, written inside a transaction
 * that its caller owns (tr_import_input() for the importers).  It interns
 * strings, frames, call sites, processes and threads in memory in front
 * of the store's unique keys, gives rows their ids itself, can write
 * from a thread of its own (tr_writer_thread()), writes samples in
 * multi-row batches, slices in runs (slice_run, TR_SLICE_RUN a row) and
 * counters in runs (counter_run, TR_COUNTER_RUN a row, store/counter.h),
 * and counts what it wrote.  Observers (derived tables) can watch every track,
 * sample, slice and counter as it is added; see tr_writer_observe().
 *
 * Private to store/ and import/: the tools never include it.
 */
#ifndef TR_WRITER_H
#define TR_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "base/error.h"

struct tr_writer;

struct tr_frame {
	const char	*name;		/* function; required */
	size_t		 name_len;
	const char	*module;	/* DSO, binary or mapping file; may be NULL */
	size_t		 module_len;
	const char	*file;		/* source file; may be NULL */
	size_t		 file_len;
	int64_t		 line;		/* 0 when unknown */
	uint64_t	 addr;		/* 0 when not part of the identity */
	int		 inlined;
};

struct tr_sample {
	int64_t		 ts;		/* native clock, ns */
	int		 has_ts;
	int64_t		 thread_id;	/* 0 for none */
	int		 cpu;		/* -1 for none */
	int64_t		 callsite_id;	/* 0 for an empty stack */
	int64_t		 event_id;	/* tr_writer_add_str() id */
	int64_t		 value;
	int64_t		 profile_id;	/* 0 for none */
	const char	*labels;	/* JSON object text, or NULL */
};

/* A track as added (for observers; strings borrowed for the call). */
struct tr_track {
	int64_t		 id;
	const char	*kind;		/* TR_TRACK_* of base/names.h */
	const char	*name;
	int64_t		 ref, process_id, thread_id, parent_id;
	const char	*meta;		/* JSON text, or NULL */
};

/* A slice as added (for observers; 'args' borrowed for the call). */
struct tr_slice {
	int64_t		 track_id, ts, dur;	/* native clock, ns */
	int64_t		 name_id, category_id;	/* str ids; 0: none */
	int64_t		 callsite_id;		/* 0: none */
	const char	*args;			/* JSON text, or NULL */
	size_t		 args_len;		/* strlen(args); 0: NULL */
};

/* What a writer wrote (frames and call sites: new in the store). */
struct tr_writer_counts {
	int64_t		 samples, slices, counters, profiles;
	int64_t		 frames, callsites;
	int64_t		 ts_min, ts_max;	/* INT64_MAX/MIN if none */
};

/*
 * A writer for source 'source_id' (its row must exist) of 'db', which
 * must be inside a write transaction for the writer's whole life.
 * 'cache_cap' bounds each interning cache (entries; 0: the default),
 * 'run_cap' the slices, and tracks, that wait to be written in runs (0:
 * the default; tests set it small).  Returns a writer owned by the caller
 * (tr_writer_free()), or NULL with 'err' set.  Each entry of
 * tr_writer_observers[] is called on the new writer.
 */
struct tr_writer *tr_writer_new(struct tr_db *, int64_t source_id,
		    size_t cache_cap, size_t run_cap, struct tr_error *);
/*
 * Write every row still waiting, run the observers' finish hooks, then
 * empty the interning caches (later adds look their keys up in the
 * store).  Returns 0, or -1 with 'err' set (the caller rolls back).
 */
int		 tr_writer_flush(struct tr_writer *, struct tr_error *);
/*
 * Run the inserts in a thread of their own from now on, so that SQLite
 * works while the importer parses the next rows (2 cores: both busy).
 * The writer gives row ids itself, so the add calls return at once; a
 * write error surfaces at a later add or at tr_writer_flush(), and the
 * import fails as before.  The importer must then touch the store only
 * through the writer: tr_writer_db() waits for the thread to be idle
 * before it returns the store (use it again after any add).  The
 * observers' add hooks then run in the thread too (see the hooks'
 * 'on_thread').  Not started (0, nothing done) when SQLite has no
 * threads, when an observer is attached without 'on_thread' or with a
 * counter hook, or when the environment has TRACEKIT_WRITER_THREAD=0
 * (benchmarks, and the tests' single-threaded oracle).  Returns 0, or
 * -1 with 'err' set.
 */
int		 tr_writer_thread(struct tr_writer *, struct tr_error *);
/*
 * After the importer failed with 'err' set: wait for the writer thread to
 * write (or fail on) what it was handed, and when it failed, put its
 * error in 'err' in place of the importer's, since the rows it failed on
 * were added before (so the message is the one the import gives without
 * the thread).  Nothing without the thread.
 */
void		 tr_writer_settle(struct tr_writer *, struct tr_error *);
/* Stop the thread, free the writer and its observers; NULL is fine. */
void		 tr_writer_free(struct tr_writer *);
/* How many writers started their thread (for the tests). */
extern int64_t	 tr_writer_threads_started;

const struct tr_writer_counts *tr_writer_counts(const struct tr_writer *);
/* The store, once every row handed to the writer thread is in it. */
struct tr_db	*tr_writer_db(struct tr_writer *);
int64_t		 tr_writer_source_id(const struct tr_writer *);
/* The host processes are interned under (copied; NULL: ""). */
void		 tr_writer_set_host(struct tr_writer *, const char *);

/* Each returns a row id (> 0), or -1 with 'err' set. */
int64_t	tr_writer_add_str(struct tr_writer *, const char *, size_t,
	    struct tr_error *);
int64_t	tr_writer_add_frame(struct tr_writer *, const struct tr_frame *,
	    struct tr_error *);
/* Call site 'frame_id' under 'parent' (0 for a root) at 'depth' (0-based). */
int64_t	tr_writer_add_callsite(struct tr_writer *, int64_t parent,
	    int64_t frame_id, int64_t depth, struct tr_error *);
/* The leaf call site of 'n' frame ids given root first; 0 when n == 0. */
int64_t	tr_writer_add_stack(struct tr_writer *, const int64_t *frames,
	    size_t n, struct tr_error *);
/* A process by pid (-1: unknown pid gives 0, no row). */
int64_t	tr_writer_add_process(struct tr_writer *, int64_t pid,
	    const char *name, size_t len, struct tr_error *);
/* A thread by (pid, tid, name); pid or tid -1 when unknown. */
int64_t	tr_writer_add_thread(struct tr_writer *, int64_t pid, int64_t tid,
	    const char *name, size_t len, struct tr_error *);
/*
 * Samples, slices and counters are written in batches, so these three
 * return 0 rather than a row id (or -1 with 'err' set; a write error may
 * surface at a later row, or at tr_writer_flush()).
 */
int64_t	tr_writer_add_sample(struct tr_writer *, const struct tr_sample *,
	    struct tr_error *);
/* A profile row; 'sample_types' and 'meta' are JSON text or NULL. */
int64_t	tr_writer_add_profile(struct tr_writer *, const char *type,
	    int64_t ts, int64_t dur, int64_t period, const char *period_type,
	    const char *period_unit, const char *sample_types,
	    const char *default_type, const char *meta, struct tr_error *);
int64_t	tr_writer_add_track(struct tr_writer *, const char *kind,
	    const char *name, int64_t ref, int64_t process_id,
	    int64_t thread_id, int64_t parent_id, const char *meta,
	    struct tr_error *);
int64_t	tr_writer_add_slice(struct tr_writer *, int64_t track_id, int64_t ts,
	    int64_t dur, int64_t name_id, int64_t category_id,
	    int64_t callsite_id, const char *args, struct tr_error *);
int64_t	tr_writer_add_counter(struct tr_writer *, int64_t track_id,
	    int64_t ts, int64_t name_id, double value, struct tr_error *);
/*
 * Set member 'path' (a JSON path, "$.ended") of the meta of track
 * 'track_id', added by this writer, to 'value', in order with the rows.
 * Returns 0, or -1 with 'err' set (a write error may surface later, as
 * for the batched rows).
 */
int	tr_writer_set_track_meta(struct tr_writer *, int64_t track_id,
	    const char *path, int64_t value, struct tr_error *);
/*
 * Tracks of kind 'kind' (NULL: none, the default) are short-lived and get
 * their meta set once when they end: the writer may hold such a row back
 * (up to some thousands of them, until tr_writer_flush()) and write it
 * with its meta as set, not write it and then update it.  A track held
 * back is not in the store yet: call before the first track of the kind
 * is added, and only when nothing reads them before the flush.  Returns
 * 0, or -1 with 'err' set.
 */
int	tr_writer_hold_tracks(struct tr_writer *, const char *kind,
	    struct tr_error *);

/*
 * Observers.  Each hook may be NULL; each is called after the row was
 * accepted (it may still wait in a batch), with 'arg' as given, and
 * returns 0, or -1 with 'err' set, which fails the add (and so the
 * import).  Times are the source's native clock, as added.  Strings are
 * str ids: an observer that cares about names interns them once with
 * tr_writer_add_str() and compares ids.  'finish' runs in
 * tr_writer_flush() after every row is in the store (so an observer can
 * write its own tables in the same transaction); 'free' runs in
 * tr_writer_free(), also after a failure.
 *
 * With the writer thread (tr_writer_thread()), the add hooks of an
 * observer that sets 'on_thread' (track, sample, slice, run, watermark,
 * meta) run in that thread, each after the rows added before its row are
 * written and in the order of the adds, so that the importer's thread
 * only parses.  Such hooks may read the store, and write their own
 * tables (the thread has the connection then), but must touch nothing
 * the importer's thread uses: no tr_writer_*() call, no state shared
 * with the importer.  Their strings are copies, valid for the call; a
 * sample's cpu is -1 when it had none.
 * An error of theirs fails a later add, or tr_writer_flush(), and so
 * the import.  'finish' and 'free' stay in the caller's thread, after
 * the thread is drained.
 */
struct tr_writer_hooks {
	int	(*track)(void *arg, const struct tr_track *,
		    struct tr_error *);
	int	(*sample)(void *arg, const struct tr_sample *,
		    struct tr_error *);
	int	(*slice)(void *arg, const struct tr_slice *,
		    struct tr_error *);
	int	(*counter)(void *arg, int64_t track_id, int64_t ts,
		    int64_t name_id, double value, struct tr_error *);
	int	(*finish)(void *arg, struct tr_writer *, struct tr_error *);
	void	(*free)(void *arg);
	/* tr_writer_watermark() */
	int	(*watermark)(void *arg, int64_t ts, struct tr_error *);
	/* 1: the add hooks may run in the writer thread (see above). */
	int	on_thread;
	/*
	 * The slices of track 'track_id' added since its previous run (in
	 * the order added) were written as one run, slice ids first_id to
	 * first_id + n - 1: called after their slice hooks, as an add hook
	 * (in the writer thread when there is one).
	 */
	int	(*run)(void *arg, int64_t track_id, int64_t first_id,
		    int64_t n, struct tr_error *);
	/*
	 * tr_writer_set_track_meta() of track 'track_id': member 'path'
	 * set to 'value' (after the hooks of the rows added before it), as
	 * an add hook.  The Go sink sets "$.ended" when a goroutine ends,
	 * so that an observer can let go of what it holds for it.
	 */
	int	(*meta)(void *arg, int64_t track_id, const char *path,
		    int64_t value, struct tr_error *);
};

#define TR_WRITER_MAXOBS	8

/*
 * The importer's promise to the observers that no runnable goroutine
 * state to come (a TR_GO_STATE_RUNNABLE slice of a goroutine track)
 * starts before 'ts' (native clock), which lets them let go of what they
 * hold for earlier times ('watermark' hook), in order with the adds.
 * Returns 0, or -1 with 'err' set by an observer (with the writer
 * thread, an error surfaces later, as an add hook's).
 */
int	tr_writer_watermark(struct tr_writer *, int64_t ts,
	    struct tr_error *);

/*
 * Add an observer ('hooks' borrowed, static in practice; 'arg' owned by
 * the observer, released by its free hook, which the writer calls at
 * once when it refuses it).  Returns 0, or -1 with 'err' set when
 * TR_WRITER_MAXOBS are already attached.
 */
int	tr_writer_observe(struct tr_writer *, const struct tr_writer_hooks *,
	    void *arg, struct tr_error *);

/*
 * Called by tr_writer_new() on every new writer, in order: each attaches
 * its observers (or none, for a source it does not derive from), and
 * returns 0, or -1 with 'err' set.  NULL-terminated; writer.c defines it.
 */
extern int (*const tr_writer_observers[])(struct tr_writer *,
    struct tr_error *);

#endif
