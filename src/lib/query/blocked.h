/*
 * Where goroutines waited, by stack: the blocking engine of trace-flame
 * --blocked, for any reader that wants per-stack blocking totals from
 * the Go trace (contention, scheduler latency).
 *
 * An interval of a kind runs from the transition that put a goroutine in
 * the state to the one that took it out, and is charged to the stack of
 * the first: the blocking stack, or for sched the creating or waking
 * goroutine's stack, as go tool trace -pprof charges it.  The intervals of
 * sync, net, syscall and sched are exactly those go tool trace -pprof=KIND
 * of the Go version that wrote the trace counts:
 *
 *  - old format (Go 1.21 and before, cmd/trace/pprof.go of 1.19-1.21):
 *    each block event with a stack and an unblock (one never unblocked
 *    is left out), from the block to the unblock; sync is chan send,
 *    chan recv, select, sync, cond and GC-assist blocks; net the network
 *    poller; syscall the blocking syscalls; sched the time from a
 *    goroutine's creation or unblock to its start;
 *  - generation format (Go 1.22+, internal/trace): only transitions that
 *    carry a stack count (the others, such as GoStart, do not end an
 *    interval); an interval opens at a transition into the state (Waiting
 *    for a reason containing chan, sync or select for sync; Waiting for
 *    "network" for net; Syscall; Runnable for sched) and closes at the
 *    next transition into another state; it is clipped to the
 *    goroutine's life from its first run; empty ones and one still open
 *    at the end of the trace are left out.
 *
 * The other kinds use the same rules: chan (chan send, chan recv and
 * select), mutex (the runtime's "sync" reason: sync.Mutex, RWMutex,
 * WaitGroup and semaphores, which the trace does not tell apart; not
 * cond), sleep (time.Sleep), and all (every Waiting interval, whatever
 * its reason, and those of syscall and sched).
 *
 * The selection restricts: --source (Go trace sources; others are
 * skipped), --goroutine, and the time: each interval is clipped to the
 * window --from/--to and to the windows of tr_sel_set_windows() (with
 * windows_exclude, to the time outside them), the nanoseconds that
 * remain being charged, as go tool trace does with its goroutine and
 * region filters (an interval left with none is not counted).
 */
#ifndef TR_BLOCKED_H
#define TR_BLOCKED_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "query/sel.h"
#include "store/db.h"

enum tr_blocked_kind {
	TR_BLOCKED_SYNC, TR_BLOCKED_NET, TR_BLOCKED_SYSCALL, TR_BLOCKED_SCHED,
	TR_BLOCKED_CHAN, TR_BLOCKED_MUTEX, TR_BLOCKED_SLEEP, TR_BLOCKED_ALL
};

/* "sync", ... "all": 0, or -1 for another name. */
int		 tr_blocked_parse_kind(const char *, enum tr_blocked_kind *);
const char	*tr_blocked_kind_name(enum tr_blocked_kind);
/* "sync, net, syscall, sched, chan, mutex, sleep, all" (static). */
const char	*tr_blocked_kind_names(void);

/* The intervals charged to one stack. */
struct tr_blocked_stack {
	int64_t	callsite_id;	/* the stack (callsite.id) */
	int64_t	count;		/* intervals */
	int64_t	ns;		/* nanoseconds blocked */
};

struct tr_blocked {
	struct tr_blocked_stack	*stacks;	/* by callsite_id */
	size_t			 n;
	int64_t			 count, ns;	/* totals */
	int			 sources;	/* Go trace sources read */
};

/*
 * The per-stack totals of 'kind' over the Go trace sources of 'sel'
 * (resolved).  'out' is owned by the caller (tr_blocked_release()); with
 * no Go trace source in the selection out->sources is 0.  Returns 0, or
 * -1 with 'err' set.
 */
int	tr_blocked_collect(struct tr_db *, const struct tr_sel *,
	    enum tr_blocked_kind, struct tr_blocked *out, struct tr_error *);
/*
 * The same for n kinds at once, into out[0 .. n - 1]: the states are
 * replayed once for all of them.
 */
int	tr_blocked_collect_n(struct tr_db *, const struct tr_sel *,
	    const enum tr_blocked_kind *, size_t n, struct tr_blocked *out,
	    struct tr_error *);
void	tr_blocked_release(struct tr_blocked *);

#endif
