/*
 * One selection model for every tool: which sources, processes, threads,
 * goroutines, GPUs, events or profile types, and which time window.  The
 * same option names mean the same thing in trace-flame, every trace-query
 * query and trace-align (where they apply), and one parser reads them.
 *
 * Parsing happens in two steps.  tr_sel_option() takes each option's text
 * while the command line is read (no store needed: syntax errors are usage
 * errors at once, exit 2).  tr_sel_resolve() then checks it against the
 * store: unknown sources, events, types, pids or GPUs are data errors
 * ("no source 999", exit 1), and every time is turned into absolute store
 * nanoseconds.
 *
 * Time.  The origin of relative times ("12s", "1.5s", "200ms") is the
 * store's start: the earliest time stamp of any aligned source (see
 * trace-query(1), "Times").  Also accepted: wall-clock times
 * ("13:05:07.250" on the store's first day, "2026-11-29T13:05:07Z",
 * "2026-11-29 13:05:07" in the store's zone or --tz), "@SECONDS" since the
 * epoch, and absolute store nanoseconds ("=123456789").  The window is
 * [from, to).
 */
#ifndef TR_SEL_H
#define TR_SEL_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/util.h"
#include "store/db.h"

#define TR_SEL_MAXLABELS	8

/* A time window [start, end) in store ns. */
struct tr_window {
	int64_t	start, end;
};

/* Which of the options a command accepts (a mask of these). */
#define TR_SEL_SOURCE	0x0001	/* --source ID[,ID|A-B...] (-s) */
#define TR_SEL_TYPE	0x0002	/* --type cpu|heap|block|... */
#define TR_SEL_EVENT	0x0004	/* --event NAME (-e), --sample-index */
#define TR_SEL_PID	0x0008	/* --pid PID (-p) */
#define TR_SEL_TID	0x0010	/* --tid TID (-t) */
#define TR_SEL_COMM	0x0020	/* --comm NAME (-c) */
#define TR_SEL_GOID	0x0040	/* --goroutine GOID */
#define TR_SEL_GPU	0x0080	/* --gpu N */
#define TR_SEL_TIME	0x0100	/* --from TIME, --to TIME, --tz ZONE */
#define TR_SEL_LABEL	0x0200	/* --label KEY=VALUE (pprof) */
#define TR_SEL_PROFILE	0x0400	/* --profile GROUP (pprof ids) */
#define TR_SEL_SNAP	0x0800	/* --snapshots last|all */
#define TR_SEL_ALL	0x0fff
/*
 * With TR_SEL_GPU, on a selection of samples (trace-flame): --gpu N takes
 * the samples of the processes that per-process GPU telemetry saw on GPU
 * N (see tr_sel_resolve()).  Without it --gpu N chooses the GPU an
 * analysis reads.
 */
#define TR_SEL_GPU_PROCS 0x1000

enum tr_sel_snapshots {
	TR_SNAP_LAST,		/* default: the last snapshot in the window */
	TR_SNAP_ALL		/* --snapshots all: sum every snapshot */
};

struct tr_sel {
	int		 accept;	/* TR_SEL_* the command takes */

	/* As given (after tr_sel_option); -1 / NULL / 0: not given. */
	int64_t		*sources;	/* --source ids, sorted, unique */
	size_t		 nsources;
	const char	*type;		/* pprof profile type */
	const char	*event;		/* perf event or pprof sample type */
	const char	*event_opt;	/* "event" or "sample-index" */
	int64_t		 pid, tid, goid;
	const char	*comm;
	int64_t		 gpu;
	const char	*from_text, *to_text, *tz;
	const char	*labels[TR_SEL_MAXLABELS];
	int		 nlabels;
	const char	*profile_text;	/* --profile, parsed on resolve */
	enum tr_sel_snapshots snapshots;
	int		 snapshots_given;

	/* Filled by tr_sel_resolve(). */
	int		 resolved;
	int		 has_from, has_to;
	int64_t		 from, to;	/* absolute store ns, [from, to) */
	int64_t		 origin;	/* the store's start (store ns) */
	int64_t		 event_id;	/* --event's str id; 0: none, -1:
					   not resolved */
	int64_t		*profile_ids;	/* --profile, sorted */
	size_t		 nprofile_ids;
	/*
	 * --pid: the thread rows (thread.id) of the process, from the
	 * process table and, for perf recorded without a pid field, from
	 * what else the store knows (see tr_sel_resolve()).
	 */
	int64_t		*pid_threads;
	size_t		 npid_threads;
	/*
	 * --gpu with TR_SEL_GPU_PROCS: the thread rows of the processes
	 * seen on the GPU (each found as --pid finds its threads).
	 */
	int64_t		*gpu_threads;
	size_t		 ngpu_threads;
	/*
	 * The pprof profiles selected (--source, --type, --profile, the
	 * window; snapshot profiles reduced to the last one of each type
	 * unless --snapshots all), by time then id.
	 */
	int64_t		*profiles;
	size_t		 nprofiles;
	/*
	 * Notes for stderr, one a line ("" when none); owned.  Set by
	 * tr_sel_resolve() (data NULL before).
	 */
	struct tr_buf	 notes;
	/*
	 * The same for snapshot profiles reduced to the last one, for the
	 * commands that read those profiles to print.
	 */
	struct tr_buf	 snapshot_notes;
	/*
	 * Time windows, set by tr_sel_set_windows() (trace-flame --during):
	 * the samples taken are those with a time stamp inside one of them,
	 * or, with windows_exclude, outside all of them.
	 */
	int		 has_windows;
	int		 windows_exclude;
	struct tr_window *windows;	/* sorted, disjoint; owned */
	size_t		 nwindows;
};

/*
 * Set up an empty selection taking the options in 'accept'.  It
 * allocates nothing, so a selection that was only initialised needs no
 * tr_sel_release() (one is harmless), and a tool may keep it on the
 * stack and exit at a usage error; what tr_sel_option() and
 * tr_sel_resolve() allocate is freed by tr_sel_release(), which leaves
 * it zeroed (initialise it again to reuse it).
 */
void	tr_sel_init(struct tr_sel *, int accept);
void	tr_sel_release(struct tr_sel *);
/*
 * Make 'dst', an initialised selection (tr_sel_init(), possibly used and
 * resolved since), a copy of the options of 'src' (not what was
 * resolved): what 'dst' held is released first.  The strings stay
 * borrowed from the command line.  'dst' must not be 'src'.
 */
void	tr_sel_copy(struct tr_sel *dst, const struct tr_sel *src);

/*
 * Offer one option to the selection: 'name' is its long name without the
 * dashes ("source", "from") and 'value' its argument (NULL for none).
 * Returns 1 when taken, 0 when 'name' is not a selection option this
 * selection accepts, -1 with a TR_EUSAGE error for a bad value or a
 * repeated single-valued option ("--pid given twice").
 */
int	tr_sel_option(struct tr_sel *, const char *name, const char *value,
	    struct tr_error *);

/*
 * Whether 'name' (long, without the dashes) is a selection option this
 * selection accepts; the long name of short option 'letter' (s, e, p, t,
 * c) when accepted, else NULL.  Every selection option takes a value.
 */
int	tr_sel_takes(const struct tr_sel *, const char *name);
const char *tr_sel_letter(const struct tr_sel *, int letter);
/* The accepted option names, NULL-terminated, in a new array. */
const char **tr_sel_names(const struct tr_sel *, size_t *n);

/*
 * Check the selection against the store and resolve its times: unknown
 * sources, events, types, pids, goroutines or GPUs are TR_EDATA errors
 * naming the choices ("no event 'nosuch'; events: cpu-clock, ...");
 * --to before --from is TR_EUSAGE.  --pid on threads with no process
 * (perf script's default format prints no pid) takes the threads whose
 * tid is known elsewhere in the store to belong to it, its main thread
 * (tid = pid), the threads of a perf source recorded with -p PID, and
 * the threads of the same source with the main thread's command name;
 * what was inferred is said in sel->notes.  --gpu N with
 * TR_SEL_GPU_PROCS takes the threads of every process that per-process
 * GPU telemetry (the gpu-process tracks: nvidia-smi --query-compute-apps,
 * pmon, nvtop) saw on GPU N in the window, each as --pid takes them, and
 * names the pids in sel->notes; a store without per-process data for GPU
 * N is a TR_EDATA error ("--gpu 0: no per-process GPU data in the store
 * to tell which processes used GPU 0; use --pid").  Returns 0 or -1.
 */
int	tr_sel_resolve(struct tr_sel *, struct tr_db *, struct tr_error *);

/*
 * Whether a time stamp (store ns) or an interval [ts, end) is in the
 * window.  Only after tr_sel_resolve().
 */
int	tr_sel_has_ts(const struct tr_sel *, int64_t ts);
int	tr_sel_overlaps(const struct tr_sel *, int64_t ts, int64_t end);

/*
 * Whether source 'id' is selected (every source when --source was not
 * given).
 */
int	tr_sel_has_source(const struct tr_sel *, int64_t id);

/*
 * Append " AND ..." conditions choosing the rows of table sample (alias
 * 's') that the selection takes: sources, --type and --profile (through
 * the profiles), --event, --pid, --tid, --comm, --label and the window
 * (a sample without a time stamp is in it when its profile is).  Named
 * parameters ":sel_*"; bind them with tr_sel_bind().
 */
void	tr_sel_sample_where(const struct tr_sel *, struct tr_buf *);
void	tr_sel_bind(const struct tr_sel *, sqlite3_stmt *);

/*
 * Whether profile type 'type' holds snapshots (heap, allocs, goroutine,
 * threadcreate: each profile is a state, not an increment).
 */
int	tr_sel_snapshot_type(const char *type);

/*
 * The help lines of the selection options in 'accept' (for --help of a
 * tool or a query), in a new string owned by the caller.
 */
char	*tr_sel_help(int accept);

/*
 * Parse a list of ids: comma-separated items, each an id ("12", or with
 * 'prefix' "s12") or a range ("3-7").  '*ids' (sorted, unique) is owned
 * by the caller.  Returns 0, or -1 when 'text' is not such a list.
 */
int	tr_sel_parse_ids(const char *text, int prefix, int64_t **ids,
	    size_t *n);

/*
 * The store's start (the origin of relative times) and its wall clock:
 * the store nanoseconds of the earliest time stamp of any source, and,
 * when some source maps store time to wall time, the offset to add for
 * nanoseconds since the epoch (*has_wall 0 otherwise).  Returns 0 or -1.
 */
int	tr_sel_store_origin(struct tr_db *, int64_t *origin,
	    int *has_wall, int64_t *wall_offset, struct tr_error *);

/*
 * SQL conditions over a source row named 'a' (a table alias, as a string
 * literal): TR_SEL_ON_TIMELINE, the source is on the store's timeline
 * (on the traced host's clock, monotonic or perf, or placed by
 * trace-align); TR_SEL_UNPLACED, it is a wall-clock source that
 * trace-align has not placed while some other source is on another clock
 * (the host's, a Go trace's, or placed), so that its times are its own
 * UTC and nothing of the others can be matched to them.
 */
#define TR_SEL_ON_TIMELINE(a)						\
	"(" a ".ts_min IS NOT NULL AND (" a ".align_method IS NOT NULL "	\
	"OR " a ".clock IN ('monotonic', 'perf')))"
#define TR_SEL_UNPLACED(a)						\
	"(" a ".clock = 'wall' AND " a ".align_method IS NULL AND EXISTS "	\
	"(SELECT 1 FROM source o WHERE o.ts_min IS NOT NULL AND "	\
	"(o.clock <> 'wall' OR o.align_method IS NOT NULL)))"

/*
 * The wall clock of one source's store times: that of the store
 * (tr_sel_store_origin()), except for an unplaced source
 * (TR_SEL_UNPLACED), whose store times are its own UTC.  Returns 0 or
 * -1.
 */
int	tr_sel_source_clock(struct tr_db *, int64_t source_id,
	    int *has_wall, int64_t *wall_offset, struct tr_error *);

/*
 * The zone of the store's local times: 'tz' when given, else the zone a
 * GPU source was imported in (its meta "tz"), else NULL (the process's).
 * Returns a new string or NULL.
 */
char	*tr_sel_store_zone(struct tr_db *, const char *tz);

/*
 * Parse one time of the selection into store ns: relative to 'origin'
 * ("12s", "-1.5s"), "=NS" (absolute store ns), or a wall-clock time
 * (wall_offset: store ns to epoch ns) in 'zone'.  Returns 0, or -1 with
 * a TR_EDATA error (or TR_EUSAGE for bad syntax) naming 'opt'.
 */
int	tr_sel_parse_time(const char *opt, const char *text, int64_t origin,
	    int has_wall, int64_t wall_offset, const char *zone, int64_t *ns,
	    struct tr_error *);

/*
 * Restrict the samples of 'sel' to the time windows 'w' (n of them, any
 * order, overlapping ones merged; copied), or with 'exclude' to the
 * samples outside all of them.  Either way a sample without a time stamp
 * (pprof) is not taken: it cannot be placed.  tr_sel_sample_where()
 * then adds the condition, through an SQL function registered here on
 * 'db' (the one the statements are prepared on).  A window whose end is
 * not after its start is empty.  Returns 0, or -1 with 'err' set.
 */
int	tr_sel_set_windows(struct tr_sel *, struct tr_db *,
	    const struct tr_window *w, size_t n, int exclude,
	    struct tr_error *);
/* Whether 'ts' (store ns) is in one of the windows of 'sel'. */
int	tr_sel_in_windows(const struct tr_sel *, int64_t ts);

#endif
