/*
 * Internals of the Go execution trace importer, shared by the parser of
 * the old format (Go 1.7-1.21, import-gotrace-old.c), the parser of the
 * generation format (Go 1.22+, import-gotrace-new.c) and the importer
 * entry (import-gotrace.c).  Each parser validates its format the way the
 * Go toolchain does and reports what happened to a "sink", which turns it
 * into tracks, slices, counters and samples in the store.  Not a public
 * API: the unit tests include it.
 */
#ifndef TR_GOTRACE_H
#define TR_GOTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "import/importer.h"
#include "base/input.h"
#include "base/util.h"
#include "store/writer.h"
#include "base/names.h"

/* --- the sink -------------------------------------------------------- */

/* Goroutine states, as slices on the goroutine's track. */
enum tr_gotrace_state {
	TR_GOTRACE_RUNNING = 1,
	TR_GOTRACE_RUNNABLE,
	TR_GOTRACE_BLOCKED
};

/*
 * Blocking reasons (the slice's category) are TR_GO_REASON_* of
 * base/names.h; the runtime's own wording, when it gives one, goes in the
 * slice's args as "reason".
 */

struct tr_gotrace_sink;

/*
 * A sink writing into the import 'ctx' (borrowed).  The sink keeps one
 * small record per live goroutine, per P, per open task and per open
 * region; nothing that grows with the length of the trace.
 */
struct tr_gotrace_sink *tr_gotrace_sink_new(struct tr_import *ctx);
void	tr_gotrace_sink_free(struct tr_gotrace_sink *);

/* Interned string id of 's' in the store; -1 on error. */
int64_t	tr_gotrace_str(struct tr_gotrace_sink *, const char *s,
	    struct tr_error *);

/*
 * A goroutine appears: created at 'ts' by 'creator' (0: none known) at
 * call site 'create_cs', to run 'start_fn' (the function its start stack
 * 'start_cs' ends in; may be NULL).  'at_start' says it existed before the
 * trace began (its creation time is then unknown).  The goroutine is
 * runnable, category 'created', with 'create_cs' as the slice's call site
 * (the creator's stack, as go tool trace's scheduler-latency profile
 * attributes it).
 */
int	tr_gotrace_go_create(struct tr_gotrace_sink *, uint64_t goid,
	    int64_t ts, uint64_t creator, int64_t create_cs, int64_t start_cs,
	    const char *start_fn, int at_start, struct tr_error *);

/*
 * The goroutine enters 'state' at 'ts': the slice of the previous state
 * ends at 'ts' and a new one opens, with category 'cat' (may be NULL),
 * call site 'cs' (0: none) and 'args', a JSON object's members without
 * braces ("\"p\":1,\"m\":3") or NULL.  A goroutine the sink has not seen
 * gets a track first (existing before the trace).
 */
int	tr_gotrace_go_state(struct tr_gotrace_sink *, uint64_t goid,
	    int64_t ts, enum tr_gotrace_state state, const char *cat,
	    int64_t cs, const char *args, struct tr_error *);

/*
 * Change what the open slice says without closing it: the goroutine was
 * in 'state' since its slice began (a status learnt after the fact).
 */
int	tr_gotrace_go_restate(struct tr_gotrace_sink *, uint64_t goid,
	    enum tr_gotrace_state state, const char *cat, int64_t cs,
	    const char *args, struct tr_error *);

/* The state the goroutine is in for the sink (0 when unknown). */
enum tr_gotrace_state tr_gotrace_go_current(struct tr_gotrace_sink *,
	    uint64_t goid);

/* The goroutine ends at 'ts': its last slice closes; regions end. */
int	tr_gotrace_go_end(struct tr_gotrace_sink *, uint64_t goid,
	    int64_t ts, struct tr_error *);

/* A slice of its own on the goroutine's track (a zero-length syscall). */
int	tr_gotrace_go_slice(struct tr_gotrace_sink *, uint64_t goid,
	    int64_t ts, int64_t dur, const char *name, const char *cat,
	    int64_t cs, const char *args, struct tr_error *);

/* P 'p' starts running on thread 'm' (-1: unknown) / stops. */
int	tr_gotrace_proc_start(struct tr_gotrace_sink *, int64_t p, int64_t ts,
	    int64_t m, struct tr_error *);
int	tr_gotrace_proc_stop(struct tr_gotrace_sink *, int64_t p, int64_t ts,
	    struct tr_error *);
/* The thread running P 'p' (-1 when unknown). */
int64_t	tr_gotrace_proc_m(struct tr_gotrace_sink *, int64_t p);

/* GC cycle 'seq' (-1: unknown) begins / ends. */
int	tr_gotrace_gc_begin(struct tr_gotrace_sink *, int64_t ts, int64_t seq,
	    int64_t cs, struct tr_error *);
int	tr_gotrace_gc_end(struct tr_gotrace_sink *, int64_t ts,
	    struct tr_error *);
/*
 * Stop-the-world of 'kind' ("gc" or "other") for 'reason', on P 'p' (-1:
 * the whole program; before Go 1.10 each P recorded its own).
 */
int	tr_gotrace_stw_begin(struct tr_gotrace_sink *, int64_t p, int64_t ts,
	    const char *kind, const char *reason, struct tr_error *);
int	tr_gotrace_stw_end(struct tr_gotrace_sink *, int64_t p, int64_t ts,
	    struct tr_error *);
/* Sweeping on P 'p'; 'args' as for go_state, added at the end. */
int	tr_gotrace_sweep_begin(struct tr_gotrace_sink *, int64_t p,
	    int64_t ts, int64_t cs, struct tr_error *);
int	tr_gotrace_sweep_end(struct tr_gotrace_sink *, int64_t p, int64_t ts,
	    const char *args, struct tr_error *);
/* A mark assist by goroutine 'goid'. */
int	tr_gotrace_assist_begin(struct tr_gotrace_sink *, uint64_t goid,
	    int64_t ts, int64_t cs, struct tr_error *);
int	tr_gotrace_assist_end(struct tr_gotrace_sink *, uint64_t goid,
	    int64_t ts, struct tr_error *);

/* A counter on the "go-heap" (HeapAlloc, HeapGoal) or "go-runtime" track. */
int	tr_gotrace_heap(struct tr_gotrace_sink *, int64_t ts, const char *name,
	    uint64_t value, struct tr_error *);
int	tr_gotrace_gomaxprocs(struct tr_gotrace_sink *, int64_t ts,
	    uint64_t procs, struct tr_error *);

/*
 * User annotations.  Task 0 is the background task.  Names are borrowed.
 * A region or log in a task the trace never created opens the task's
 * track on the fly.
 */
int	tr_gotrace_task_begin(struct tr_gotrace_sink *, uint64_t id,
	    uint64_t parent, const char *name, uint64_t goid, int64_t ts,
	    int64_t cs, struct tr_error *);
int	tr_gotrace_task_end(struct tr_gotrace_sink *, uint64_t id,
	    uint64_t goid, int64_t ts, struct tr_error *);
int	tr_gotrace_region_begin(struct tr_gotrace_sink *, uint64_t goid,
	    uint64_t task, const char *name, int64_t ts, int64_t cs,
	    struct tr_error *);
/* Ends the innermost open region of the goroutine (or one of unknown start). */
int	tr_gotrace_region_end(struct tr_gotrace_sink *, uint64_t goid,
	    uint64_t task, const char *name, int64_t ts, int64_t cs,
	    struct tr_error *);
int	tr_gotrace_log(struct tr_gotrace_sink *, uint64_t goid, uint64_t task,
	    const char *key, const char *msg, size_t msglen, int64_t ts,
	    int64_t cs, struct tr_error *);

/* A CPU profile sample on goroutine 'goid' (0: none) and P (-1: none). */
int	tr_gotrace_cpu_sample(struct tr_gotrace_sink *, int64_t ts,
	    uint64_t goid, int64_t p, int64_t m, int64_t cs, struct tr_error *);

/*
 * The trace ends at 'ts': every open slice closes there, with
 * "unfinished":true in its args.
 */
int	tr_gotrace_sink_finish(struct tr_gotrace_sink *, int64_t ts,
	    struct tr_error *);

/* --- JSON helpers ---------------------------------------------------- */

/* Append 's' as a JSON string (quoted, escaped) to 'b'. */
void	tr_gotrace_json_str(struct tr_buf *b, const char *s, size_t len);

/* --- the parsers ----------------------------------------------------- */

/*
 * What a parser saw, for tests: called for every event of the ordered
 * stream (after Go's own post-processing: "Local" variants renamed,
 * syscall exits at their real time), in the words of `go tool trace -d`.
 * 'ts' is nanoseconds since the first event, as go tool trace prints it.
 */
struct tr_gotrace_event {
	const char	*name;		/* "GoStart" */
	int64_t		 ts;
	int64_t		 p;
	uint64_t	 g;
	int64_t		 off;
	int		 nargs;
	const char	*argnames[4];
	uint64_t	 args[4];
	int		 nsargs;
	const char	*sargnames[2];
	const char	*sargs[2];
};
typedef void tr_gotrace_hook_fn(void *, const struct tr_gotrace_event *);
/* Set by tests only; NULL otherwise. */
extern tr_gotrace_hook_fn	*tr_gotrace_hook;
extern void			*tr_gotrace_hook_arg;

/* The header's version: 1007 for "go 1.7 trace", 0 when not a Go trace. */
int	tr_gotrace_header_version(const unsigned char *, size_t);

/* Parse the rest of an old-format trace whose header said 'ver'. */
int	tr_gotrace_old_run(struct tr_import *, struct tr_input *, int ver,
	    struct tr_error *);
/* Parse the rest of a generation-format trace (Go 1.22+). */
int	tr_gotrace_new_run(struct tr_import *, struct tr_input *, int ver,
	    struct tr_error *);

#endif
