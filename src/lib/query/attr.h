/*
 * The attribution engine behind gpu-idle, stalls and steps: GPU
 * utilisation series and their idle episodes, the goroutine that drives
 * the GPU, and what that goroutine (and the process around it) did in any
 * window of time, in the fixed vocabulary of causes (trace-query(1),
 * "Causes").  Reads the store through the views of trace-store(5), with
 * the run pre-filter on every slice query.
 */
#ifndef TR_ATTR_H
#define TR_ATTR_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/out.h"
#include "query/args.h"
#include "query/sel.h"
#include "store/db.h"

enum tr_cause {
	TR_CAUSE_CPU,		/* on CPU */
	TR_CAUSE_GC,		/* STW, mark assist, GC workers on the Ps */
	TR_CAUSE_SCHED,		/* runnable, waiting for a P */
	TR_CAUSE_CHAN,		/* channel or select */
	TR_CAUSE_SYNC,		/* mutex, RWMutex, Cond, WaitGroup */
	TR_CAUSE_SYSCALL,	/* syscalls and cgo */
	TR_CAUSE_NET,		/* netpoller */
	TR_CAUSE_SLEEP,		/* timers */
	TR_CAUSE_IDLE,		/* nothing runnable in the process */
	TR_CAUSE_UNKNOWN,	/* no host data covers it */
	TR_NCAUSES
};

/* "cpu", "gc", ...: the JSON values. */
extern const char *const tr_cause_names[TR_NCAUSES];

/* One GPU's utilization.gpu samples, in store time order. */
struct tr_attr_gpu {
	int64_t		 gpu;		/* index */
	char		*name;
	int64_t		 source_id;
	size_t		 n;
	int64_t		*ts;		/* sample i covers (ts[i-1], ts[i]] */
	double		*util;		/* percent */
	int64_t		*id;		/* counter ids */
	int64_t		 interval;	/* median spacing of the samples, ns */
};

struct tr_attr_episode {
	size_t		 gi;		/* which tr_attr_gpu */
	int64_t		 start, end;	/* store ns: see tr_attr_episodes() */
	size_t		 first, last;	/* samples first..last */
	double		 util_mean;
};

/* The GPU-driving goroutine. */
struct tr_attr_driver {
	int		 found;
	int		 given;		/* --goroutine */
	int64_t		 goid, track_id;
	char		*name;		/* its start function */
	char		*created;	/* its creation stack, rendered */
	enum tr_cause	 wait;		/* the kind of its GPU wait */
	char		*wait_stack;	/* the longest GPU-wait stack */
	double		 score;		/* correlation of its GPU wait with
					   GPU utilisation, -1..1 */
	double		 coverage;	/* GPU-busy time it spent waiting */
	int64_t		*wait_cs;	/* the GPU-wait call sites (-1: none),
					   sorted */
	size_t		 nwait_cs;
};

struct tr_attr_stack {
	int64_t		 callsite_id;	/* -1: no stack */
	int64_t		 ns;		/* time, or samples x period */
	char		*text;		/* "leaf < caller < caller" */
};

/* Who woke the driver out of chan/sync waits, and what it did then. */
struct tr_attr_waker {
	int64_t		 goid;
	char		*name;
	int64_t		 wait_ns;	/* the driver's waits it ended */
	enum tr_cause	 cause;		/* its dominant cause in them */
	double		 share;
	int		 deeper;	/* the waker's own waker, below */
	int64_t		 goid2;
	char		*name2;
	enum tr_cause	 cause2;
	double		 share2;
};

/* The process around the driver in a window. */
struct tr_attr_context {
	int		 have_go;
	double		 gc_share;	/* of the window with a GC cycle on */
	int64_t		 stw_ns;
	int64_t		 assist_ns;	/* mark assists, all goroutines */
	double		 running_mean;	/* goroutines running, mean */
	double		 runnable_mean;
	int64_t		 runnable_max;
	int64_t		 gomaxprocs;	/* 0: unknown */
	int64_t		 syscall_ns;	/* goroutine-ns in syscalls */
	double		 idle_share;	/* nothing running or runnable */
	int64_t		 cpu_samples;	/* perf and Go CPU samples */
	int64_t		 cpu_sample_ns;	/* perf samples' periods */
};

struct tr_attr_evidence {
	const char	*what;		/* "gpu", "state", "sample", ... */
	const char	*table;		/* the view: gpu_metric, go_state... */
	int64_t		 id, ts, dur;
	char		*detail;
};

struct tr_attr_result {
	int64_t			 lo, hi;
	int64_t			 cause_ns[TR_NCAUSES];
	int64_t			 gpu_wait_ns;	/* not a cause */
	enum tr_cause		 cause;		/* dominant */
	double			 share;		/* of the causes' time */
	struct tr_attr_stack	 stacks[3];
	int			 nstacks;
	struct tr_attr_waker	 waker;
	int			 has_waker;
	struct tr_attr_context	 ctx;
	int64_t			 cpu_time_ns;	/* without a Go trace: the
						   process's CPU time */
	char			*verdict;
	struct tr_attr_evidence	*ev;
	size_t			 nev;
};

struct tr_attr;

/*
 * Read what the store holds for the selection 'sel' (resolved, borrowed
 * for the life of the result): the GPU utilisation series (--gpu,
 * --source, the window), the Go trace (the first selected one that
 * overlaps the GPU telemetry most), perf sources (--pid, --comm, --tid).
 * Returns an engine owned by the caller (tr_attr_free()), or NULL with
 * 'err' set.  A store without GPU telemetry or without a Go trace is not
 * an error: see tr_attr_ngpus() and tr_attr_has_go().
 */
struct tr_attr	*tr_attr_open(struct tr_db *, const struct tr_sel *,
		    struct tr_error *);
void		 tr_attr_free(struct tr_attr *);

size_t		 tr_attr_ngpus(const struct tr_attr *);
const struct tr_attr_gpu *tr_attr_gpu(const struct tr_attr *, size_t);
int		 tr_attr_has_go(const struct tr_attr *);
/* A selected Go trace that no GPU sample overlaps (-1: none). */
int64_t		 tr_attr_go_apart(const struct tr_attr *);
/*
 * Make the selected Go trace 'src' the engine's, in place of the one
 * tr_attr_open() chose (the one that overlaps the GPU telemetry most, or
 * the longest): for a question about that trace, such as the steps of
 * its regions when no GPU-driving goroutine was found.  Returns 0, or -1
 * with 'err' set.
 */
int		 tr_attr_use_go(struct tr_attr *, int64_t src,
		    struct tr_error *);
int		 tr_attr_has_perf(const struct tr_attr *);
/*
 * Warnings on how far the sources can be trusted together (alignment by
 * a low-confidence estimate, little overlap of GPU and host data), as
 * strings owned by the engine.
 */
size_t		 tr_attr_nwarnings(const struct tr_attr *);
const char	*tr_attr_warning(const struct tr_attr *, size_t);

/* The time GPU 'gi's samples in the window stand for, ns. */
int64_t	tr_attr_span(const struct tr_attr *, size_t gi);

/*
 * The idle episodes of GPU 'gi': samples below 'threshold' percent,
 * merged across spikes shorter than 'gap' ns, kept when at least 'min' ns
 * long (between sample boundaries).  Each edge then moves into the busy
 * sample beside it by that sample's idle share (1 - util): an edge is
 * inside the sample period where it happened, never finer than that.
 * *eps is owned by the caller (free()).
 */
void	tr_attr_episodes(const struct tr_attr *, size_t gi, double threshold,
	    int64_t gap, int64_t min, struct tr_attr_episode **eps, size_t *n);

/*
 * The options of the queries over GPU-idle episodes (gpu-idle, stalls,
 * steps; trace-flame --during), with the defaults of trace-query(1):
 * --threshold 30%, --gap 300ms, --min 500ms, --evidence off.
 */
struct tr_attr_episode_args {
	double		 threshold;	/* percent */
	int64_t		 gap, min;	/* ns */
	int		 evidence;
	const char	*driver;	/* --driver NAME, or NULL */
};
#define TR_ATTR_EPISODE_THRESHOLD 0x1	/* declare --threshold */
#define TR_ATTR_EPISODE_GAPMIN	0x2	/* --gap and --min */
#define TR_ATTR_EPISODE_EVIDENCE 0x4	/* --evidence */
#define TR_ATTR_EPISODE_DRIVER	0x8	/* --driver NAME */
/* Room the options take in a tr_arg table. */
#define TR_ATTR_EPISODE_NOPTS	5

/* Set 'ea' to the defaults. */
void	tr_attr_episode_args_init(struct tr_attr_episode_args *ea);
/*
 * Declare the options 'what' names (TR_ATTR_EPISODE_*, in that order) in
 * opts[0..n), bound to 'ea'.  Returns n (at most TR_ATTR_EPISODE_NOPTS);
 * the caller goes on filling the table from opts[n] and ends it.
 */
int	tr_attr_episode_opts(struct tr_attr_episode_args *ea, unsigned what,
	    struct tr_arg *opts);

/*
 * The goroutine the user named as the driver: --goroutine's (sel->goid),
 * or with ea->driver (--driver NAME) the goroutine of the Go trace that
 * spent the most time in regions and tasks named NAME (a note in 'out'
 * says which, when several did); -1 when neither was given.  A TR_EUSAGE
 * error for both; TR_EDATA for a store without a Go trace or a name no
 * region or task has.  Returns 0 or -1.
 */
int	tr_attr_named_driver(struct tr_attr *, const struct tr_sel *sel,
	    const struct tr_attr_episode_args *ea, struct tr_out *out,
	    int64_t *goid, struct tr_error *);

/* How the driver was chosen: "--goroutine", "--driver", "correlation". */
const char *tr_attr_driver_chosen(const struct tr_attr_driver *,
	    const struct tr_attr_episode_args *ea);

/* tr_attr_episodes() of GPU 'gi' with the options of 'ea'. */
void	tr_attr_episodes_by(const struct tr_attr *, size_t gi,
	    const struct tr_attr_episode_args *ea,
	    struct tr_attr_episode **eps, size_t *n);

/*
 * The common start of a query over GPU telemetry (gpu-idle, stalls):
 * resolve 'sel', open the engine on it, refuse a store (or selection)
 * without GPU telemetry with a TR_EDATA error naming 'query', set the
 * clock of 'out', and note there what is missing (no Go trace: causes
 * from CPU samples only) and the engine's warnings.  Returns the engine
 * (tr_attr_free()), or NULL with 'err' set.
 */
struct tr_attr	*tr_attr_open_gpu(struct tr_db *, struct tr_sel *sel,
		    const char *query, struct tr_out *out,
		    struct tr_error *);

/*
 * Find the goroutine that drives GPU 'gi': the (goroutine, kind of wait)
 * whose waiting correlates best with the GPU's utilisation over the
 * selected window, and the call sites of that wait during which the GPU
 * was busy (above 'threshold').  With goid >= 0, that goroutine (its
 * wait is still found the same way).  d->found is 0 when nothing
 * correlates (or without a Go trace).  Release with
 * tr_attr_driver_release().  Returns 0 or -1.
 */
int	tr_attr_find_driver(struct tr_attr *, size_t gi, int64_t goid,
	    double threshold, struct tr_attr_driver *d, struct tr_error *);
void	tr_attr_driver_release(struct tr_attr_driver *);

/*
 * Attribute the window [lo, hi) to causes: the driver's time (or,
 * without one, the CPU samples'), the top stacks of the dominant cause,
 * the goroutine that woke the driver from chan/sync waits, the process
 * context, a verdict, and with 'evidence' the rows behind it.  'gi' is
 * the GPU whose samples go into the evidence ((size_t)-1: none).
 * Release with tr_attr_result_release().  Returns 0 or -1.
 */
int	tr_attr_window(struct tr_attr *, const struct tr_attr_driver *,
	    size_t gi, int64_t lo, int64_t hi, int evidence,
	    struct tr_attr_result *r, struct tr_error *);
void	tr_attr_result_release(struct tr_attr_result *);

/*
 * Goroutine 'goid' as the driver, without GPU telemetry to find its GPU
 * wait (it has none).  A TR_EUSAGE error when the Go trace has no such
 * goroutine.  Returns 0 or -1.
 */
int	tr_attr_driver_given(struct tr_attr *, int64_t goid,
	    struct tr_attr_driver *d, struct tr_error *);

/*
 * The start times of the driver's GPU waits in [lo, hi), in order, in a
 * new array owned by the caller (*ts, free()).  Returns 0 or -1.
 */
int	tr_attr_gpu_waits(struct tr_attr *, const struct tr_attr_driver *,
	    int64_t lo, int64_t hi, int64_t **ts, size_t *n,
	    struct tr_error *);

/*
 * How busy the Ps of the Go trace were in [lo, hi): the shares of the
 * least and the most busy (running slices of the go-proc tracks), and how
 * many Ps ran at all.  0 Ps without a Go trace.  Returns 0 or -1.
 */
int	tr_attr_procs(struct tr_attr *, int64_t lo, int64_t hi,
	    double *pmin, double *pmax, int64_t *nprocs, struct tr_error *);

/*
 * The evidence of a query with --evidence: a set named 'name' ("evidence")
 * and its columns (the first named 'key': episode, window, stretch...),
 * then a row per evidence row of result 'r', keyed 'k'.  tr_out_finish()
 * ends the set.
 */
void	tr_attr_evidence_columns(struct tr_out *, const char *name,
	    const char *key);
void	tr_attr_evidence_rows(struct tr_out *, int64_t k,
	    const struct tr_attr_result *r);

/* "cpu_ns" ... "unknown_ns": the column names of the causes. */
extern const char *const tr_cause_columns[TR_NCAUSES];

/* The dominant cause of 'ns' (ties: the earlier in the list) and share. */
enum tr_cause	tr_attr_dominant(const int64_t ns[TR_NCAUSES],
		    double *share);

/* A call site's stack as "leaf < caller < caller" (owned by the caller). */
char	*tr_attr_stack_text(struct tr_attr *, int64_t callsite_id);

/*
 * Store ns as ISO 8601 UTC ("2026-11-29T13:40:51.329Z", to the ms) when
 * the store knows the wall clock, else NULL.  Owned by the caller.
 */
char	*tr_attr_iso(const struct tr_attr *, int64_t ts);
void	 tr_attr_clock(const struct tr_attr *, int64_t *origin,
	    int *has_wall, int64_t *wall_offset);

#endif
