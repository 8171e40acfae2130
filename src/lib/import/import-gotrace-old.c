/*
 * The old Go execution trace format, Go 1.7 to 1.21 ("go 1.N trace"
 * headers 1.7 through 1.21).  Events are a type byte (low 6 bits) with an
 * argument count (high 2 bits; 3 means a byte length follows) and base-128
 * varints; each P writes batches of its own events with tick deltas; the
 * string table is inline, the stack table and the tick frequency come at
 * the end.
 *
 * Two passes in bounded memory.  Pass 1 streams the input once: it checks
 * the framing of every event, keeps strings and stacks (interned into the
 * store at once), the frequency and the first tick, notes where each
 * batch lies, and copies the decoded bytes to an unlinked temporary file.
 * Pass 2 merges the per-P batches into one consistent stream the way the
 * Go toolchain does (a goroutine's events happen in sequence-number
 * order; among the events whose turn has come, the earliest goes first),
 * reading each P's batches back one at a time, validates every transition
 * as Go's parser does, and reports to the sink.  Memory: one batch per P
 * (64 KiB each in runtime output), one record per live goroutine, P,
 * string and stack, and the batch index (16 bytes per batch).  Disk: a
 * copy of the decompressed trace.
 */
#include "config.h"
#include "import/gotrace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

enum {
	EV_NONE, EV_BATCH, EV_FREQUENCY, EV_STACK, EV_GOMAXPROCS,
	EV_PROC_START, EV_PROC_STOP, EV_GC_START, EV_GC_DONE, EV_STW_START,
	EV_STW_DONE, EV_SWEEP_START, EV_SWEEP_DONE, EV_GO_CREATE, EV_GO_START,
	EV_GO_END, EV_GO_STOP, EV_GO_SCHED, EV_GO_PREEMPT, EV_GO_SLEEP,
	EV_GO_BLOCK, EV_GO_UNBLOCK, EV_GO_BLOCK_SEND, EV_GO_BLOCK_RECV,
	EV_GO_BLOCK_SELECT, EV_GO_BLOCK_SYNC, EV_GO_BLOCK_COND,
	EV_GO_BLOCK_NET, EV_GO_SYSCALL, EV_GO_SYSEXIT, EV_GO_SYSBLOCK,
	EV_GO_WAITING, EV_GO_INSYSCALL, EV_HEAP_ALLOC, EV_HEAP_GOAL,
	EV_TIMER_GOROUTINE, EV_FUTILE_WAKEUP, EV_STRING, EV_GO_START_LOCAL,
	EV_GO_UNBLOCK_LOCAL, EV_GO_SYSEXIT_LOCAL, EV_GO_START_LABEL,
	EV_GO_BLOCK_GC, EV_ASSIST_START, EV_ASSIST_DONE, EV_TASK_CREATE,
	EV_TASK_END, EV_REGION, EV_LOG, EV_CPU_SAMPLE, EV_COUNT
};

/*
 * Per event type: its name (as go tool trace -d prints it), the first
 * format version with it (Go 1.N = 1000+N), whether its last argument is
 * a stack id, and the names of its arguments after the timestamp.
 */
struct evdesc {
	const char	*name;
	int		 minver;
	int		 stack;
	int		 nargs;
	const char	*args[3];
	int		 nsargs;
	const char	*sargs[2];
};

static const struct evdesc evdescs[EV_COUNT] = {
	[EV_NONE] = { "None", 1005, 0, 0, { 0 }, 0, { 0 } },
	[EV_BATCH] = { "Batch", 1005, 0, 2, { "p", "ticks" }, 0, { 0 } },
	[EV_FREQUENCY] = { "Frequency", 1005, 0, 1, { "freq" }, 0, { 0 } },
	[EV_STACK] = { "Stack", 1005, 0, 2, { "id", "siz" }, 0, { 0 } },
	[EV_GOMAXPROCS] = { "Gomaxprocs", 1005, 1, 1, { "procs" }, 0, { 0 } },
	[EV_PROC_START] = { "ProcStart", 1005, 0, 1, { "thread" }, 0, { 0 } },
	[EV_PROC_STOP] = { "ProcStop", 1005, 0, 0, { 0 }, 0, { 0 } },
	[EV_GC_START] = { "GCStart", 1005, 1, 1, { "seq" }, 0, { 0 } },
	[EV_GC_DONE] = { "GCDone", 1005, 0, 0, { 0 }, 0, { 0 } },
	[EV_STW_START] = { "GCSTWStart", 1005, 0, 1, { "kindid" }, 1,
	    { "kind" } },
	[EV_STW_DONE] = { "GCSTWDone", 1005, 0, 0, { 0 }, 0, { 0 } },
	[EV_SWEEP_START] = { "GCSweepStart", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_SWEEP_DONE] = { "GCSweepDone", 1005, 0, 2,
	    { "swept", "reclaimed" }, 0, { 0 } },
	[EV_GO_CREATE] = { "GoCreate", 1005, 1, 2, { "g", "stack" }, 0,
	    { 0 } },
	[EV_GO_START] = { "GoStart", 1005, 0, 2, { "g", "seq" }, 0, { 0 } },
	[EV_GO_END] = { "GoEnd", 1005, 0, 0, { 0 }, 0, { 0 } },
	[EV_GO_STOP] = { "GoStop", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_SCHED] = { "GoSched", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_PREEMPT] = { "GoPreempt", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_SLEEP] = { "GoSleep", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_BLOCK] = { "GoBlock", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_UNBLOCK] = { "GoUnblock", 1005, 1, 2, { "g", "seq" }, 0,
	    { 0 } },
	[EV_GO_BLOCK_SEND] = { "GoBlockSend", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_BLOCK_RECV] = { "GoBlockRecv", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_BLOCK_SELECT] = { "GoBlockSelect", 1005, 1, 0, { 0 }, 0,
	    { 0 } },
	[EV_GO_BLOCK_SYNC] = { "GoBlockSync", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_BLOCK_COND] = { "GoBlockCond", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_BLOCK_NET] = { "GoBlockNet", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_SYSCALL] = { "GoSysCall", 1005, 1, 0, { 0 }, 0, { 0 } },
	[EV_GO_SYSEXIT] = { "GoSysExit", 1005, 0, 3, { "g", "seq", "ts" }, 0,
	    { 0 } },
	[EV_GO_SYSBLOCK] = { "GoSysBlock", 1005, 0, 0, { 0 }, 0, { 0 } },
	[EV_GO_WAITING] = { "GoWaiting", 1005, 0, 1, { "g" }, 0, { 0 } },
	[EV_GO_INSYSCALL] = { "GoInSyscall", 1005, 0, 1, { "g" }, 0, { 0 } },
	[EV_HEAP_ALLOC] = { "HeapAlloc", 1005, 0, 1, { "mem" }, 0, { 0 } },
	[EV_HEAP_GOAL] = { "HeapGoal", 1005, 0, 1, { "mem" }, 0, { 0 } },
	[EV_TIMER_GOROUTINE] = { "TimerGoroutine", 1005, 0, 1, { "g" }, 0,
	    { 0 } },
	[EV_FUTILE_WAKEUP] = { "FutileWakeup", 1005, 0, 0, { 0 }, 0, { 0 } },
	[EV_STRING] = { "String", 1007, 0, 0, { 0 }, 0, { 0 } },
	[EV_GO_START_LOCAL] = { "GoStartLocal", 1007, 0, 1, { "g" }, 0,
	    { 0 } },
	[EV_GO_UNBLOCK_LOCAL] = { "GoUnblockLocal", 1007, 1, 1, { "g" }, 0,
	    { 0 } },
	[EV_GO_SYSEXIT_LOCAL] = { "GoSysExitLocal", 1007, 0, 2, { "g", "ts" },
	    0, { 0 } },
	[EV_GO_START_LABEL] = { "GoStartLabel", 1008, 0, 3,
	    { "g", "seq", "labelid" }, 1, { "label" } },
	[EV_GO_BLOCK_GC] = { "GoBlockGC", 1008, 1, 0, { 0 }, 0, { 0 } },
	[EV_ASSIST_START] = { "GCMarkAssistStart", 1009, 1, 0, { 0 }, 0,
	    { 0 } },
	[EV_ASSIST_DONE] = { "GCMarkAssistDone", 1009, 0, 0, { 0 }, 0,
	    { 0 } },
	[EV_TASK_CREATE] = { "UserTaskCreate", 1011, 1, 3,
	    { "taskid", "pid", "typeid" }, 1, { "name" } },
	[EV_TASK_END] = { "UserTaskEnd", 1011, 1, 1, { "taskid" }, 0, { 0 } },
	[EV_REGION] = { "UserRegion", 1011, 1, 3,
	    { "taskid", "mode", "typeid" }, 1, { "name" } },
	[EV_LOG] = { "UserLog", 1011, 1, 2, { "id", "keyid" }, 2,
	    { "category", "message" } },
	[EV_CPU_SAMPLE] = { "CPUSample", 1019, 1, 3, { "ts", "p", "g" }, 0,
	    { 0 } },
};

/*
 * The name of event 'type' as go tool trace -d of the toolchain that
 * writes format 'ver' prints it: Go 1.21 renamed GCSTWStart and GCSTWDone
 * to STWStart and STWDone, when stop-the-world kinds stopped being GC's
 * alone.
 */
static const char *
evname(int type, int ver)
{
	if (ver >= 1021 && type == EV_STW_START)
		return ("STWStart");
	if (ver >= 1021 && type == EV_STW_DONE)
		return ("STWDone");
	return (evdescs[type].name);
}

/* The fake Ps go tool trace files some events under. */
#define TIMER_P		1000001
#define NETPOLL_P	1000002
#define SYSCALL_P	1000003
#define GC_P		1000004

#define MAX_STRING	1000000		/* longest string Go accepts */
#define MAX_LENARGS	2048		/* longest length-prefixed arguments */
#define MAX_FRAMES	1000
#define MAX_BATCH	(16 << 20)	/* runtime batches are 64 KiB */
#define HDR		16
#define TICK_MAX	((int64_t)1 << 62)	/* larger times are corrupt */

/* Go 1.21's stop-the-world reasons, by their number in the trace. */
static const char *const stw_reasons[] = {
	"unknown", "GC mark termination", "GC sweep termination",
	"write heap dump", "goroutine profile", "goroutine profile cleanup",
	"all goroutine stack trace", "read mem stats", "AllThreadsSyscall",
	"GOMAXPROCS", "start trace", "stop trace", "CountPagesInUse (test)",
	"ReadMetricsSlow (test)", "ReadMemStatsSlow (test)",
	"PageCachePagesLeaked (test)", "ResetDebugLog (test)"
};

/* One decoded event, before its meaning is applied. */
struct raw {
	int			 type;
	uint64_t		*args;
	size_t			 nargs, cap;
	const unsigned char	*str;		/* String data, UserLog value */
	size_t			 slen;
	char			 msg[160];	/* why it is malformed */
};

/* The events of one P, as pass 2 reads them back. */
struct ev {
	int		 type;
	int64_t		 p;
	uint64_t	 g;
	int64_t		 ts;		/* ticks */
	int64_t		 off;
	int		 local;		/* was a "Local" variant */
	uint64_t	 args[3];
	uint64_t	 stk;
	const char	*sval;		/* UserLog value */
	size_t		 slen;
};

struct batch {
	int64_t		 off;		/* of its Batch event in the input */
	int64_t		 len;
	int64_t		 p;
	int64_t		 next;		/* the P's next batch, -1: none */
};

/* What an event needs of its goroutine (or the GC), and makes of it. */
struct trans {
	int		 ordered;	/* 0: the event can go any time */
	int		 gc;		/* orders GC cycles, not a goroutine */
	uint64_t	 g;
	uint64_t	 iseq, nseq;
	int		 ist, nst;
};

struct cursor {
	int64_t		 p;
	int64_t		 first, cur;	/* batch indexes, -1: none */
	unsigned char	*buf;
	size_t		 len, pos, cap;
	int64_t		 base;		/* input offset of buf[0] */
	int64_t		 lastts;
	uint64_t	 lastg;
	int		 has, done, queued;
	int		 wgc;		/* waiting: on the GC sequence, */
	uint64_t	 wg;		/* or on this goroutine */
	struct ev	 head;
	struct trans	 tr;		/* transition() of head */
	struct raw	 raw;
	struct op	*op;		/* the P's record, once looked up */
};

struct stack {
	int64_t		 cs;
	const char	*leaf;		/* function of frame 0, borrowed */
};

/* A goroutine for ordering and validation. */
struct og {
	uint64_t	 seq;
	int		 ost;		/* ordering status */
	int		 st;		/* validated status */
	int		 blocknet;
	int		 sys_pending;	/* GoSysCall, not yet known to block */
	int64_t		 sys_ts, sys_cs;
	int		 sys_linked;	/* its exit ends a GoSysCall */
	int64_t		 sysblock;	/* ticks of GoSysBlock/GoInSyscall */
	int		 assist;
	uint64_t	*rg;		/* open regions: task, name pairs */
	size_t		 nrg, caprg;
};

struct op {
	int		 running;
	uint64_t	 g;
	int		 sweep, stw;
};

enum { G_DEAD, G_RUNNABLE, G_RUNNING, G_WAITING };

#define NOSEQ		(~(uint64_t)0)
#define SEQINC		(~(uint64_t)0 - 1)

struct old {
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_input		*in;
	struct tr_gotrace_sink	*sink;
	int			 ver;
	const char		*name;

	/* pass 1 */
	unsigned char		*rbuf;
	size_t			 rlen, rpos, rcap;
	int64_t			 rbase;		/* input offset of rbuf[0] */
	int			 reof;
	int			 spill_fd;
	FILE			*spill;
	struct tr_imap	 strings;	/* id -> char * */
	struct tr_imap	 stacks;	/* id -> struct stack * */
	struct tr_imap	 timers;	/* goid -> non-NULL */
	struct batch		*batches;
	size_t			 nbatches, capbatches;
	int64_t			 freq;
	int			 have_freq;
	int64_t			 mints, maxts;
	int			 have_ts;
	struct raw		 raw;
	unsigned char		 nargs[64];	/* see NARGS_FULL */

	/* pass 2 */
	double			 nspertick;
	int64_t			 base_ns;
	struct cursor		*curs;
	size_t			 ncurs;
	struct cursor		**heap, **avail, **wait;
	size_t			 nheap, navail, nwait;
	struct tr_imap	 gs;		/* goid -> struct og * */
	struct tr_imap	 ps;		/* p -> struct op * */
	struct tr_imap	 tasks;		/* open task ids */
	struct og		 g0;
	struct op		 world;
	uint64_t		 gcseq;
	int			 gc_open;
	int			 preinit;
	int64_t			 lastticks;
	int64_t			 end_ns;
	int64_t			 nevents;
	struct tr_buf		 b;
};

/* --- decoding -------------------------------------------------------- */

/*
 * The number of arguments event 'type' has in format 'ver', counting the
 * timestamp and the stack id.
 */
static size_t
arg_count(int type, int ver)
{
	const struct evdesc	*d = &evdescs[type];
	size_t			 n = (size_t)d->nargs + (d->stack ? 1 : 0);

	switch (type) {
	case EV_BATCH:
	case EV_FREQUENCY:
	case EV_TIMER_GOROUTINE:
		return (n);
	case EV_SWEEP_DONE:
		if (ver < 1009)
			n -= 2;
		break;
	case EV_STW_START:
		if (ver < 1010)
			n--;
		break;
	}
	return (n + 1);
}

/*
 * arg_count() of each event type of the trace's version, by its type
 * byte (0: not a type of that version), looked up once, not per event;
 * NARGS_FULL marks the types pass 1 keeps more of than the time (see
 * skim()).
 */
#define NARGS_FULL	0x80

/* 1 with *v set, 0 when the buffer ends first, -1 when malformed. */
static inline int
varint(const unsigned char *p, size_t avail, size_t *pos, uint64_t *v)
{
	const unsigned char	*q = p + *pos;
	uint64_t		 x = 0;
	size_t			 i, n = avail - *pos;

	/* Most arguments take a byte or two: no bound to check then. */
	if (n >= 10) {
		for (i = 0; i < 10; i++) {
			x |= (uint64_t)(q[i] & 0x7f) << (7 * i);
			if ((q[i] & 0x80) == 0) {
				*pos += i + 1;
				*v = x;
				return (1);
			}
		}
		return (-1);
	}
	for (i = 0; i < 10; i++) {
		if (i >= n)
			return (0);
		x |= (uint64_t)(q[i] & 0x7f) << (7 * i);
		if ((q[i] & 0x80) == 0) {
			*pos += i + 1;
			*v = x;
			return (1);
		}
	}
	return (-1);
}

/* varint() without the value. */
static inline int
skip_varint(const unsigned char *p, size_t avail, size_t *pos)
{
	const unsigned char	*q = p + *pos;
	size_t			 i, n = avail - *pos;

	for (i = 0; i < n && i < 10; i++)
		if ((q[i] & 0x80) == 0) {
			*pos += i + 1;
			return (1);
		}
	return (n >= 10 ? -1 : 0);
}

static void
raw_grow(struct raw *r, size_t want)
{
	if (r->cap >= want)
		return;
	r->cap = r->cap ? r->cap * 2 : 16;
	if (r->cap < want)
		r->cap = want;
	r->args = tr_xrealloc(r->args, r->cap * sizeof *r->args);
}

static inline void
raw_push(struct raw *r, uint64_t v)
{
	if (r->nargs == r->cap)
		raw_grow(r, r->nargs + 1);
	r->args[r->nargs++] = v;
}

#define NEED(x)	do {							\
	int rv_ = (x);							\
	if (rv_ == 0)							\
		return (0);						\
	if (rv_ < 0) {							\
		snprintf(r->msg, sizeof r->msg, "malformed varint");	\
		return (-1);						\
	}								\
} while (0)

/*
 * The byte length of an event's arguments (its argument count says 3:
 * a length follows), at *pos: 1 with *pos past it and the arguments all
 * in 'avail', 0 when they run past it, -1 when the length is malformed
 * or too long (r->msg says why; decode() and skim() alike).  Inline: a
 * call per event was 2% of the importer's thread.
 */
static inline int
lenargs(const unsigned char *p, size_t avail, int ver, size_t *pos,
    uint64_t *len, struct raw *r)
{
	int	rv;

	if ((rv = varint(p, avail, pos, len)) <= 0) {
		if (rv < 0)
			snprintf(r->msg, sizeof r->msg, "malformed varint");
		return (rv);
	}
	if (*len > MAX_LENARGS) {
		snprintf(r->msg, sizeof r->msg, "event %s has %" PRIu64
		    " bytes of arguments, more than %d", evname(r->type, ver),
		    *len, MAX_LENARGS);
		return (-1);
	}
	return (avail - *pos < *len ? 0 : 1);
}

/*
 * A log event's message at *pos (after its arguments): 1 with r->str,
 * r->slen and *pos past it, 0 when it runs past 'avail', -1 when its
 * length is malformed or too long (r->msg says why; decode() and skim()
 * alike).
 */
static inline int
logmsg(const unsigned char *p, size_t avail, size_t *pos, struct raw *r)
{
	uint64_t	len;
	int		rv;

	if ((rv = varint(p, avail, pos, &len)) <= 0) {
		if (rv < 0)
			snprintf(r->msg, sizeof r->msg, "malformed varint");
		return (rv);
	}
	if (len > MAX_STRING) {
		snprintf(r->msg, sizeof r->msg, "log message has invalid "
		    "length %" PRIu64, len);
		return (-1);
	}
	if (avail - *pos < len)
		return (0);
	r->str = p + *pos;
	r->slen = (size_t)len;
	*pos += (size_t)len;
	return (1);
}

/*
 * Decode one event at 'p' (of 'avail' bytes).  Returns the bytes it
 * takes, 0 when it runs past 'avail' (truncated, or more must be read),
 * or -1 with r->msg saying why it is malformed.
 */
static int64_t
decode(const unsigned char *p, size_t avail, int ver,
    const unsigned char *nargs, struct raw *r)
{
	size_t		pos = 1, end, want;
	uint64_t	v, len;
	int		narg, i, rv;

	if (avail == 0)
		return (0);
	r->type = p[0] & 0x3f;
	narg = (p[0] >> 6) + 1;
	r->nargs = 0;
	r->str = NULL;
	r->slen = 0;
	if (r->type == EV_NONE || r->type >= EV_COUNT ||
	    evdescs[r->type].minver > ver) {
		snprintf(r->msg, sizeof r->msg, "unknown event type %d",
		    r->type);
		return (-1);
	}
	if (r->type == EV_STRING) {
		NEED(varint(p, avail, &pos, &v));
		raw_push(r, v);
		NEED(varint(p, avail, &pos, &len));
		if (v == 0) {
			snprintf(r->msg, sizeof r->msg, "string has invalid "
			    "id 0");
			return (-1);
		}
		if (len == 0 || len > MAX_STRING) {
			snprintf(r->msg, sizeof r->msg, "string %" PRIu64
			    " has invalid length %" PRIu64, v, len);
			return (-1);
		}
		if (avail - pos < len)
			return (0);
		r->str = p + pos;
		r->slen = (size_t)len;
		return ((int64_t)(pos + len));
	}
	if (narg < 4) {
		if (r->cap < 3)
			raw_grow(r, 3);
		for (i = 0; i < narg; i++) {
			NEED(varint(p, avail, &pos, &v));
			r->args[r->nargs++] = v;
		}
	} else {
		if ((rv = lenargs(p, avail, ver, &pos, &len, r)) <= 0)
			return (rv);
		/*
		 * As many varints as fit, each of at most 10 bytes, none cut
		 * by the end: room for one per byte, and no bound to check
		 * but the end (varint() checked more, per byte).
		 */
		end = pos + (size_t)len;
		raw_grow(r, (size_t)len);
		while (pos < end) {
			v = 0;
			for (i = 0;; i++) {
				if (i == 10 || pos + (size_t)i == end) {
					snprintf(r->msg, sizeof r->msg,
					    "event %s arguments overrun their "
					    "length %" PRIu64,
					    evname(r->type, ver), len);
					return (-1);
				}
				v |= (uint64_t)(p[pos + i] & 0x7f) << (7 * i);
				if ((p[pos + i] & 0x80) == 0)
					break;
			}
			pos += (size_t)i + 1;
			r->args[r->nargs++] = v;
		}
	}
	if (r->type == EV_LOG) {
		if ((rv = logmsg(p, avail, &pos, r)) <= 0)
			return (rv);
	}
	/* The argument count, now that it is known. */
	if (r->type == EV_STACK) {
		if (r->nargs < 2 || r->args[1] > MAX_FRAMES ||
		    r->nargs != 2 + 4 * r->args[1]) {
			if (r->nargs >= 2 && r->args[1] > MAX_FRAMES)
				snprintf(r->msg, sizeof r->msg, "stack %"
				    PRIu64 " has %" PRIu64 " frames, more than "
				    "%d", r->args[0], r->args[1], MAX_FRAMES);
			else
				snprintf(r->msg, sizeof r->msg, "stack event "
				    "has "
				    "%zu arguments, which is not 2 + 4 per "
				    "frame", r->nargs);
			return (-1);
		}
	} else if (r->nargs != (want = nargs[r->type] & ~NARGS_FULL)) {
		snprintf(r->msg, sizeof r->msg, "event %s has %zu arguments, "
		    "want "
		    "%zu", evname(r->type, ver), r->nargs, want);
		return (-1);
	}
	return ((int64_t)pos);
}

/*
 * Frame one event as decode() does, for pass 1, which reads no more of
 * an ordinary event than its time (and a CPU sample's): the same length,
 * 0 or -1 with the same r->msg, but only r->args[0] and [1] kept, the
 * other arguments counted, not decoded (decode() was a fifth of the
 * importer's thread, once per pass).  The types pass 1 keeps more of,
 * and those it knows not, go to decode().
 */
static int64_t
skim(const unsigned char *p, size_t avail, int ver,
    const unsigned char *nargs, struct raw *r)
{
	size_t		pos = 1, end, run, n, i;
	uint64_t	v, len;
	int		narg, rv;

	if (avail == 0)
		return (0);
	r->type = p[0] & 0x3f;
	if (nargs[r->type] == 0 || (nargs[r->type] & NARGS_FULL))
		return (decode(p, avail, ver, nargs, r));
	narg = (p[0] >> 6) + 1;
	r->str = NULL;
	r->slen = 0;
	if (narg < 4) {
		/* (A CPU sample, whose [1] pass 1 reads, has 5, or fails.) */
		NEED(varint(p, avail, &pos, &v));
		r->args[0] = v;
		for (i = 1; i < (size_t)narg; i++)
			NEED(skip_varint(p, avail, &pos));
		n = (size_t)narg;
	} else {
		if ((rv = lenargs(p, avail, ver, &pos, &len, r)) <= 0)
			return (rv);
		/*
		 * decode() fails on a varint of more than 10 bytes or one
		 * the length cuts: a run of 10 continuation bytes, or one
		 * at the end.
		 */
		end = pos + (size_t)len;
		n = run = 0;
		for (i = pos; i < end; i++) {
			if (p[i] & 0x80) {
				if (++run == 10)
					break;
			} else {
				run = 0;
				n++;
			}
		}
		if (run > 0) {
			snprintf(r->msg, sizeof r->msg, "event %s arguments "
			    "overrun their length %" PRIu64,
			    evname(r->type, ver), len);
			return (-1);
		}
		for (i = 0; i < n && i < 2; i++)
			(void)varint(p, end, &pos, &r->args[i]);
		pos = end;
	}
	if (r->type == EV_LOG) {
		if ((rv = logmsg(p, avail, &pos, r)) <= 0)
			return (rv);
	}
	r->nargs = n;
	if (n != nargs[r->type]) {
		snprintf(r->msg, sizeof r->msg, "event %s has %zu arguments, "
		    "want %d", evname(r->type, ver), n, nargs[r->type]);
		return (-1);
	}
	return ((int64_t)pos);
}

/* --- pass 1 ---------------------------------------------------------- */

static int
spill_open(struct old *o, struct tr_error *err)
{
	if ((o->spill_fd = tr_spill_fd("gotrace", tr_input_name(o->in),
	    err)) < 0)
		return (-1);
	if ((o->spill = fdopen(o->spill_fd, "w+")) == NULL) {
		close(o->spill_fd);
		o->spill_fd = -1;
		return (tr_error_set(err, TR_EIO, "cannot open a temporary "
		    "file: %s", strerror(errno)));
	}
	return (0);
}

/*
 * Make at least 'n' bytes available at o->rbuf + o->rpos, or as many as
 * are left.  What is read is copied to the spill file as it comes.
 */
static int
fill(struct old *o, size_t n, struct tr_error *err)
{
	int64_t	got;
	size_t	want;

	if (o->rlen - o->rpos >= n || o->reof)
		return (0);
	if (o->rpos > 0) {
		memmove(o->rbuf, o->rbuf + o->rpos, o->rlen - o->rpos);
		o->rlen -= o->rpos;
		o->rbase += (int64_t)o->rpos;
		o->rpos = 0;
	}
	if (n < (1 << 20))
		n = 1 << 20;
	if (o->rcap < n) {
		o->rcap = n;
		o->rbuf = tr_xrealloc(o->rbuf, o->rcap);
	}
	while (o->rlen < n && !o->reof) {
		want = o->rcap - o->rlen;
		if ((got = tr_input_read(o->in, o->rbuf + o->rlen, want,
		    err)) < 0)
			return (-1);
		if (got > 0 && fwrite(o->rbuf + o->rlen, 1, (size_t)got,
		    o->spill) != (size_t)got)
			return (tr_error_set(err, TR_EIO, "cannot write a "
			    "temporary file: %s", strerror(errno)));
		o->rlen += (size_t)got;
		if ((size_t)got < want)
			o->reof = 1;
	}
	return (0);
}

static const char *
str_get(struct old *o, uint64_t id)
{
	if (id == 0)
		return ("");
	return (tr_imap_get(&o->strings, id));
}

static int
add_stack(struct old *o, struct raw *r, int64_t off, struct tr_error *err)
{
	struct tr_frame	 f;
	struct stack	*s;
	int64_t		*ids, frame;
	const char	*fn, *file;
	size_t		 n = (size_t)r->args[1], i;
	int		 rc = -1;

	ids = tr_xcalloc(n ? n : 1, sizeof *ids);
	s = tr_xcalloc(1, sizeof *s);
	for (i = 0; i < n; i++) {
		const uint64_t	*a = r->args + 2 + 4 * i;

		fn = str_get(o, a[1]);
		file = str_get(o, a[2]);
		if (fn == NULL || file == NULL) {
			tr_input_error_at(o->in, err, off, "stack %" PRIu64
			    " frame %zu: undefined string id %" PRIu64,
			    r->args[0], i, fn == NULL ? a[1] : a[2]);
			goto out;
		}
		memset(&f, 0, sizeof f);
		f.name = *fn ? fn : "?";
		f.name_len = strlen(f.name);
		f.file = file;
		f.file_len = strlen(file);
		f.line = (int64_t)a[3];
		if ((frame = tr_writer_add_frame(o->wr, &f, err)) < 0)
			goto out;
		/* The trace lists the leaf first; the store wants the root. */
		ids[n - 1 - i] = frame;
		if (i == 0)
			s->leaf = fn;
	}
	if ((s->cs = tr_writer_add_stack(o->wr, ids, n, err)) < 0)
		goto out;
	free(tr_imap_del(&o->stacks, r->args[0]));
	tr_imap_put(&o->stacks, r->args[0], s);
	s = NULL;
	rc = 0;
out:
	free(s);
	free(ids);
	return (rc);
}

static int
pass1(struct old *o, struct tr_error *err)
{
	struct raw	*r = &o->raw;
	struct batch	*bt = NULL;
	int64_t		 n, off, lastts = 0, ts;
	size_t		 want = 64;
	uint64_t	 pid;
	int		 t;

	raw_grow(r, 3);
	for (t = 1; t < EV_COUNT; t++) {
		if (evdescs[t].minver > o->ver)
			continue;
		o->nargs[t] = (unsigned char)arg_count(t, o->ver);
		switch (t) {
		case EV_BATCH:
		case EV_FREQUENCY:
		case EV_STACK:
		case EV_STRING:
		case EV_TIMER_GOROUTINE:
			o->nargs[t] |= NARGS_FULL;
		}
	}
	for (;;) {
		if (fill(o, want, err) != 0)
			return (-1);
		if (o->rpos == o->rlen)
			break;
		off = o->rbase + (int64_t)o->rpos;
		n = skim(o->rbuf + o->rpos, o->rlen - o->rpos, o->ver, o->nargs,
		    r);
		if (n < 0)
			return (tr_input_error_at(o->in, err, off, "%s",
			    r->msg));
		if (n == 0) {
			if (o->reof)
				return (tr_input_error_at(o->in, err, off,
				    "truncated %s event",
				    evname(r->type, o->ver)));
			want = (o->rlen - o->rpos) * 2;
			continue;
		}
		want = 64;
		o->rpos += (size_t)n;
		switch (r->type) {
		case EV_STRING:
			if (tr_imap_get(&o->strings, r->args[0]))
				return (tr_input_error_at(o->in, err, off,
				    "string id %" PRIu64 " defined twice",
				    r->args[0]));
			tr_imap_put(&o->strings, r->args[0],
			    tr_xstrndup((const char *)r->str, r->slen));
			continue;
		case EV_BATCH:
			pid = r->args[0];
			if (pid != UINT64_MAX && pid > INT32_MAX)
				return (tr_input_error_at(o->in, err, off,
				    "batch for P %" PRIu64 ", more than %d",
				    pid, INT32_MAX));
			if (bt != NULL)
				bt->len = off - bt->off;
			if (o->nbatches == o->capbatches) {
				o->capbatches = o->capbatches ?
				    o->capbatches * 2 : 64;
				o->batches = tr_xrealloc(o->batches,
				    o->capbatches * sizeof *o->batches);
			}
			bt = &o->batches[o->nbatches++];
			bt->off = off;
			bt->len = 0;
			bt->p = pid == UINT64_MAX ? -1 : (int64_t)pid;
			bt->next = -1;
			if (r->args[1] > (uint64_t)TICK_MAX)
				return (tr_input_error_at(o->in, err, off,
				    "batch time %" PRIu64 " out of range",
				    r->args[1]));
			lastts = (int64_t)r->args[1];
			continue;
		case EV_STACK:
			if (add_stack(o, r, off, err) != 0)
				return (-1);
			continue;
		case EV_FREQUENCY:
			o->freq = (int64_t)r->args[0];
			o->have_freq = 1;
			if (o->freq <= 0)
				return (tr_input_error_at(o->in, err, off,
				    "invalid tick frequency %" PRId64,
				    o->freq));
			continue;
		case EV_TIMER_GOROUTINE:
			tr_imap_put(&o->timers, r->args[0], o);
			continue;
		}
		if (bt == NULL)
			return (tr_input_error_at(o->in, err, off, "event %s "
			    "before the first batch", evname(r->type, o->ver)));
		if (bt->len == 0 && off - bt->off > MAX_BATCH)
			return (tr_input_error_at(o->in, err, bt->off,
			    "batch longer than %d bytes", MAX_BATCH));
		if (r->args[0] > (uint64_t)(TICK_MAX - lastts) ||
		    (r->type == EV_CPU_SAMPLE && r->args[1] >
		    (uint64_t)TICK_MAX))
			return (tr_input_error_at(o->in, err, off, "event %s: "
			    "time out of range", evname(r->type, o->ver)));
		ts = lastts + (int64_t)r->args[0];
		lastts = ts;
		if (r->type == EV_CPU_SAMPLE)
			ts = (int64_t)r->args[1];
		if (!o->have_ts || ts < o->mints)
			o->mints = ts;
		if (!o->have_ts || ts > o->maxts)
			o->maxts = ts;
		o->have_ts = 1;
	}
	if (bt != NULL)
		bt->len = o->rbase + (int64_t)o->rpos - bt->off;
	if (bt == NULL || !o->have_ts)
		return (tr_input_error_at(o->in, err, o->rbase +
		    (int64_t)o->rpos, "trace has no events"));
	if (!o->have_freq)
		return (tr_input_error_at(o->in, err, o->rbase +
		    (int64_t)o->rpos, "no Frequency event at the end of the "
		    "trace (truncated?)"));
	/* Nanoseconds must fit, with room for sums. */
	if ((double)o->maxts * 1e9 / (double)o->freq > (double)TICK_MAX)
		return (tr_input_error_at(o->in, err, o->rbase +
		    (int64_t)o->rpos, "times out of range at a frequency of %"
		    PRId64 " ticks per second", o->freq));
	if (fflush(o->spill) != 0)
		return (tr_error_set(err, TR_EIO, "cannot write a temporary "
		    "file: %s", strerror(errno)));
	return (0);
}

/* --- pass 2: reading back ------------------------------------------- */

static int64_t
tick_ns(const struct old *o, int64_t ticks)
{
	return (o->base_ns + (int64_t)((double)(ticks - o->mints) *
	    o->nspertick));
}

static int64_t
rel_ns(const struct old *o, int64_t ticks)
{
	return ((int64_t)((double)(ticks - o->mints) * o->nspertick));
}

static int
load_batch(struct old *o, struct cursor *c, struct tr_error *err)
{
	const struct batch	*bt = &o->batches[c->cur];
	ssize_t			 got;

	if (c->cap < (size_t)bt->len) {
		c->cap = (size_t)bt->len;
		c->buf = tr_xrealloc(c->buf, c->cap);
	}
	got = pread(o->spill_fd, c->buf, (size_t)bt->len, bt->off - HDR);
	if (got != bt->len)
		return (tr_error_set(err, TR_EIO, "cannot read back a "
		    "temporary file: %s", got < 0 ? strerror(errno) :
		    "short read"));
	c->len = (size_t)bt->len;
	c->pos = 0;
	c->base = bt->off;
	return (0);
}

static int64_t
stack_cs(struct old *o, uint64_t id, int64_t off, struct tr_error *err)
{
	struct stack	*s;

	if (id == 0)
		return (0);
	if ((s = tr_imap_get(&o->stacks, id)) == NULL) {
		tr_input_error_at(o->in, err, off, "undefined stack id %"
		    PRIu64, id);
		return (-1);
	}
	return (s->cs);
}

static void
hook_event(struct old *o, const struct ev *e, int64_t p, uint64_t g,
    int64_t ticks, const char *s0, const char *s1)
{
	struct tr_gotrace_event	 h;
	const struct evdesc	*d = &evdescs[e->type];
	int			 i;

	memset(&h, 0, sizeof h);
	h.name = evname(e->type, o->ver);
	h.ts = rel_ns(o, ticks);
	h.p = p;
	h.g = g;
	h.off = e->off;
	h.nargs = d->nargs;
	for (i = 0; i < d->nargs; i++) {
		h.argnames[i] = d->args[i];
		h.args[i] = e->args[i];
	}
	h.nsargs = d->nsargs;
	for (i = 0; i < d->nsargs; i++)
		h.sargnames[i] = d->sargs[i];
	h.sargs[0] = s0;
	h.sargs[1] = s1;
	tr_gotrace_hook(tr_gotrace_hook_arg, &h);
}

static int
cpu_sample(struct old *o, struct ev *e, struct tr_error *err)
{
	int64_t	cs, p, ts;

	if ((cs = stack_cs(o, e->stk, e->off, err)) < 0)
		return (-1);
	p = e->args[1] == UINT64_MAX ? -1 : (int64_t)e->args[1];
	ts = tick_ns(o, e->ts);
	if (ts > o->end_ns)
		o->end_ns = ts;
	if (tr_gotrace_hook != NULL) {
		uint64_t	a0 = e->args[0];

		e->args[0] = 0;
		hook_event(o, e, p, e->args[2], e->ts, NULL, NULL);
		e->args[0] = a0;
	}
	o->nevents++;
	return (tr_gotrace_cpu_sample(o->sink, ts, e->args[2], p, -1, cs,
	    err));
}

/*
 * Give the cursor its next event (c->has), or mark it done.  Strings,
 * stacks and the frequency were taken in pass 1; CPU samples go to the
 * sink at once, as they take no part in the ordering.
 */
static int
advance(struct old *o, struct cursor *c, struct tr_error *err)
{
	struct raw	*r = &c->raw;
	struct ev	*e = &c->head;
	int64_t		 n;
	size_t		 i, k;

	for (;;) {
		if (c->pos == c->len) {
			c->cur = c->cur < 0 ? c->first :
			    o->batches[c->cur].next;
			if (c->cur < 0) {
				c->done = 1;
				return (0);
			}
			if (load_batch(o, c, err) != 0)
				return (-1);
		}
		n = decode(c->buf + c->pos, c->len - c->pos, o->ver, o->nargs,
		    r);
		if (n <= 0)
			return (tr_input_error_at(o->in, err, c->base +
			    (int64_t)c->pos, "temporary file changed: %s",
			    n < 0 ? r->msg : "truncated"));
		e->off = c->base + (int64_t)c->pos;
		c->pos += (size_t)n;
		switch (r->type) {
		case EV_BATCH:
			c->lastts = (int64_t)r->args[1];
			continue;
		case EV_STRING:
		case EV_STACK:
		case EV_FREQUENCY:
		case EV_TIMER_GOROUTINE:
			continue;
		}
		e->type = r->type;
		e->local = 0;
		e->p = c->p;
		e->g = c->lastg;
		e->ts = c->lastts + (int64_t)r->args[0];
		c->lastts = e->ts;
		memset(e->args, 0, sizeof e->args);
		e->stk = 0;
		k = r->nargs;
		if (evdescs[r->type].stack)
			e->stk = r->args[--k];
		for (i = 1; i < k && i <= 3; i++)
			e->args[i - 1] = r->args[i];
		e->sval = (const char *)r->str;
		e->slen = r->slen;
		switch (r->type) {
		case EV_GO_START:
		case EV_GO_START_LOCAL:
		case EV_GO_START_LABEL:
			c->lastg = e->args[0];
			e->g = c->lastg;
			break;
		case EV_STW_START:
		case EV_GC_START:
		case EV_GC_DONE:
		case EV_STW_DONE:
			e->g = 0;
			break;
		case EV_GO_END:
		case EV_GO_STOP:
		case EV_GO_SCHED:
		case EV_GO_PREEMPT:
		case EV_GO_SLEEP:
		case EV_GO_BLOCK:
		case EV_GO_BLOCK_SEND:
		case EV_GO_BLOCK_RECV:
		case EV_GO_BLOCK_SELECT:
		case EV_GO_BLOCK_SYNC:
		case EV_GO_BLOCK_COND:
		case EV_GO_BLOCK_NET:
		case EV_GO_SYSBLOCK:
		case EV_GO_BLOCK_GC:
			c->lastg = 0;
			break;
		case EV_GO_SYSEXIT:
		case EV_GO_WAITING:
		case EV_GO_INSYSCALL:
			e->g = e->args[0];
			break;
		case EV_CPU_SAMPLE:
			e->ts = (int64_t)e->args[0];
			e->p = e->args[1] == UINT64_MAX ? -1 :
			    (int64_t)e->args[1];
			e->g = e->args[2];
			if (cpu_sample(o, e, err) != 0)
				return (-1);
			continue;
		}
		c->has = 1;
		return (0);
	}
}

/* --- pass 2: ordering ------------------------------------------------ */

static void
transition(const struct ev *e, struct trans *t)
{
	memset(t, 0, sizeof *t);
	t->ordered = 1;
	switch (e->type) {
	case EV_GO_CREATE:
		t->g = e->args[0];
		t->iseq = 0, t->ist = G_DEAD;
		t->nseq = 1, t->nst = G_RUNNABLE;
		break;
	case EV_GO_WAITING:
	case EV_GO_INSYSCALL:
		t->g = e->g;
		t->iseq = 1, t->ist = G_RUNNABLE;
		t->nseq = 2, t->nst = G_WAITING;
		break;
	case EV_GO_START:
	case EV_GO_START_LABEL:
		t->g = e->g;
		t->iseq = e->args[1], t->ist = G_RUNNABLE;
		t->nseq = e->args[1] + 1, t->nst = G_RUNNING;
		break;
	case EV_GO_START_LOCAL:
		t->g = e->g;
		t->iseq = NOSEQ, t->ist = G_RUNNABLE;
		t->nseq = SEQINC, t->nst = G_RUNNING;
		break;
	case EV_GO_BLOCK:
	case EV_GO_BLOCK_SEND:
	case EV_GO_BLOCK_RECV:
	case EV_GO_BLOCK_SELECT:
	case EV_GO_BLOCK_SYNC:
	case EV_GO_BLOCK_COND:
	case EV_GO_BLOCK_NET:
	case EV_GO_SLEEP:
	case EV_GO_SYSBLOCK:
	case EV_GO_BLOCK_GC:
		t->g = e->g;
		t->iseq = NOSEQ, t->ist = G_RUNNING;
		t->nseq = NOSEQ, t->nst = G_WAITING;
		break;
	case EV_GO_SCHED:
	case EV_GO_PREEMPT:
		t->g = e->g;
		t->iseq = NOSEQ, t->ist = G_RUNNING;
		t->nseq = NOSEQ, t->nst = G_RUNNABLE;
		break;
	case EV_GO_UNBLOCK:
	case EV_GO_SYSEXIT:
		t->g = e->args[0];
		t->iseq = e->args[1], t->ist = G_WAITING;
		t->nseq = e->args[1] + 1, t->nst = G_RUNNABLE;
		break;
	case EV_GO_UNBLOCK_LOCAL:
	case EV_GO_SYSEXIT_LOCAL:
		t->g = e->args[0];
		t->iseq = NOSEQ, t->ist = G_WAITING;
		t->nseq = SEQINC, t->nst = G_RUNNABLE;
		break;
	case EV_GC_START:
		t->gc = 1;
		t->iseq = e->args[0], t->ist = G_DEAD;
		t->nseq = e->args[0] + 1, t->nst = G_DEAD;
		break;
	default:
		t->ordered = 0;
	}
}

static struct og *
og_get(struct old *o, uint64_t g)
{
	if (g == 0)
		return (&o->g0);
	return (tr_imap_get(&o->gs, g));
}

/*
 * Whether the event of transition 't' may go now; *gp is the goroutine
 * it is about, as looked up (NULL: none yet, or 't' is about none).
 */
static int
ready_at(struct old *o, const struct trans *t, struct og **gp)
{
	struct og	*g = NULL;
	uint64_t	 seq = 0;
	int		 st = G_DEAD;

	*gp = NULL;
	if (!t->ordered)
		return (1);
	if (t->gc)
		seq = o->gcseq;
	else if ((g = og_get(o, t->g)) != NULL) {
		seq = g->seq;
		st = g->ost;
	}
	*gp = g;
	return ((t->iseq == NOSEQ || t->iseq == seq) && t->ist == st);
}

static int
ready(struct old *o, const struct trans *t)
{
	struct og	*g;

	return (ready_at(o, t, &g));
}

/*
 * Apply transition 't' to its goroutine 'g' (ready_at()'s, made when
 * NULL); returns it, or NULL when 't' is about none.
 */
static struct og *
apply(struct old *o, const struct trans *t, struct og *g)
{
	uint64_t	seq;

	if (!t->ordered)
		return (NULL);
	if (t->gc) {
		o->gcseq = t->nseq;
		return (NULL);
	}
	if (g == NULL) {
		g = tr_xcalloc(1, sizeof *g);
		tr_imap_put(&o->gs, t->g, g);
	}
	seq = t->nseq == NOSEQ ? g->seq : t->nseq == SEQINC ? g->seq + 1 :
	    t->nseq;
	g->seq = seq;
	g->ost = t->nst;
	return (g);
}

static int
heap_less(const struct cursor *a, const struct cursor *b)
{
	if (a->head.ts != b->head.ts)
		return (a->head.ts < b->head.ts);
	return (a->head.off < b->head.off);
}

static void
heap_push(struct old *o, struct cursor *c)
{
	size_t		 i = o->nheap++, up;
	struct cursor	*t;

	o->heap[i] = c;
	while (i > 0) {
		up = (i - 1) / 2;
		if (!heap_less(o->heap[i], o->heap[up]))
			break;
		t = o->heap[i];
		o->heap[i] = o->heap[up];
		o->heap[up] = t;
		i = up;
	}
}

static struct cursor *
heap_pop(struct old *o)
{
	struct cursor	*top = o->heap[0], *t;
	size_t		 i = 0, l, m;

	o->heap[0] = o->heap[--o->nheap];
	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < o->nheap && heap_less(o->heap[l], o->heap[m]))
			m = l;
		if (l + 1 < o->nheap && heap_less(o->heap[l + 1], o->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		t = o->heap[i];
		o->heap[i] = o->heap[m];
		o->heap[m] = t;
		i = m;
	}
	return (top);
}

/* --- pass 2: meaning ------------------------------------------------- */

static struct op *
op_get(struct old *o, int64_t p)
{
	struct op	*pp;

	if ((pp = tr_imap_get(&o->ps, (uint64_t)p)) == NULL) {
		pp = tr_xcalloc(1, sizeof *pp);
		tr_imap_put(&o->ps, (uint64_t)p, pp);
	}
	return (pp);
}

static int
bad(struct old *o, const struct ev *e, struct tr_error *err, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static int
bad(struct old *o, const struct ev *e, struct tr_error *err, const char *fmt,
    ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return (tr_input_error_at(o->in, err, e->off, "%s", msg));
}

static int
check_running(struct old *o, const struct ev *e, const struct og *g,
    const struct op *p, int allow_g0, struct tr_error *err)
{
	const char	*name = evname(e->type, o->ver);

	if (g == NULL || g->st != G_RUNNING)
		return (bad(o, e, err, "event %s: goroutine %" PRIu64 " is not "
		    "running", name, e->g));
	if (p->g != e->g)
		return (bad(o, e, err, "event %s: P %" PRId64 " is not running "
		    "goroutine %" PRIu64, name, e->p, e->g));
	if (!allow_g0 && e->g == 0)
		return (bad(o, e, err, "event %s on goroutine 0", name));
	return (0);
}

static const char *
block_cat(int type)
{
	switch (type) {
	case EV_GO_SLEEP:
		return (TR_GO_REASON_SLEEP);
	case EV_GO_BLOCK_SEND:
		return (TR_GO_REASON_CHAN_SEND);
	case EV_GO_BLOCK_RECV:
		return (TR_GO_REASON_CHAN_RECV);
	case EV_GO_BLOCK_SELECT:
		return (TR_GO_REASON_SELECT);
	case EV_GO_BLOCK_SYNC:
		return (TR_GO_REASON_SYNC);
	case EV_GO_BLOCK_COND:
		return (TR_GO_REASON_COND);
	case EV_GO_BLOCK_NET:
		return (TR_GO_REASON_NET);
	case EV_GO_BLOCK_GC:
		return (TR_GO_REASON_GC);
	default:
		return (TR_GO_REASON_OTHER);
	}
}

/* A string the event names, which must be defined (id 0 is ""). */
static const char *
need_str(struct old *o, const struct ev *e, uint64_t id, struct tr_error *err)
{
	const char	*s = str_get(o, id);

	if (s == NULL)
		bad(o, e, err, "event %s: undefined string id %" PRIu64,
		    evname(e->type, o->ver), id);
	return (s);
}

/* A syscall the goroutine came back from without blocking. */
static int
flush_syscall(struct old *o, uint64_t gid, struct og *g, struct tr_error *err)
{
	if (!g->sys_pending)
		return (0);
	g->sys_pending = 0;
	return (tr_gotrace_go_slice(o->sink, gid, g->sys_ts, 0,
	    TR_GO_STATE_SYSCALL, TR_GO_REASON_SYSCALL, g->sys_cs,
	    "\"handoff\":false", err));
}

static void
og_free(void *p)
{
	struct og	*g = p;

	if (g != NULL) {
		free(g->rg);
		free(g);
	}
}

/*
 * Processing an event in order, a handler per event type: each checks the
 * event against the goroutine and P states (an error names the event),
 * tells the sink, and returns 0, or -1 with 'err' set.  An event type
 * without a handler only counts.  'x' holds what process() knew before,
 * and what the handler changes for the rest: a syscall exit's time and
 * pseudo-P, the strings the trace hook shows.
 */
struct step {
	struct og	*g;	/* the event's goroutine, or NULL */
	struct op	*p;	/* its P */
	int64_t		 ns;	/* its time */
	int64_t		 cs;	/* its stack's call site; 0: none */
	int64_t		 ticks;	/* its time in ticks, for the hook */
	int64_t		 hp;	/* its P for the hook, or a pseudo-P */
	const char	*s0, *s1;	/* strings for the hook */
	uint64_t	 kg;	/* the goroutine the ordering looked up, */
	struct og	*known;	/* as it found it (NULL: none) */
};

/* Goroutine 'id', looked up again only if the ordering did not. */
static struct og *
og_step(struct old *o, const struct step *x, uint64_t id)
{
	return (x->known != NULL && x->kg == id ? x->known : og_get(o, id));
}

/* The running goroutine of 'e' stops running, in state 'st' now. */
static int
stop_running(struct old *o, const struct ev *e, struct step *x, int st,
    struct tr_error *err)
{
	if (check_running(o, e, x->g, x->p, 0, err) != 0)
		return (-1);
	x->g->st = st;
	x->p->g = 0;
	return (0);
}

/* EV_PROC_START */
static int
proc_proc_start(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct op	*p = x->p;
	const int64_t	 ns = x->ns;

	if (p->running)
		return (bad(o, e, err, "event ProcStart: P %" PRId64 " "
		    "is "
		    "already running", e->p));
	p->running = 1;
	if (tr_gotrace_proc_start(o->sink, e->p, ns,
	    (int64_t)e->args[0], err) != 0)
		return (-1);
	return (0);
}

/* EV_PROC_STOP */
static int
proc_proc_stop(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct op	*p = x->p;
	const int64_t	 ns = x->ns;

	if (!p->running)
		return (bad(o, e, err, "event ProcStop: P %" PRId64 " "
		    "is not "
		    "running", e->p));
	if (p->g != 0)
		return (bad(o, e, err, "event ProcStop: P %" PRId64 " "
		    "is "
		    "still running goroutine %" PRIu64, e->p, p->g));
	p->running = 0;
	if (tr_gotrace_proc_stop(o->sink, e->p, ns, err) != 0)
		return (-1);
	return (0);
}

/* EV_GC_START */
static int
proc_gc_start(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	const int64_t	 ns = x->ns, cs = x->cs;

	if (o->gc_open)
		return (bad(o, e, err, "event GCStart: the previous GC "
		    "has "
		    "not ended"));
	o->gc_open = 1;
	x->hp = GC_P;
	if (tr_gotrace_gc_begin(o->sink, ns, (int64_t)e->args[0], cs,
	    err) != 0)
		return (-1);
	return (0);
}

/* EV_GC_DONE */
static int
proc_gc_done(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	const int64_t	 ns = x->ns;

	if (!o->gc_open)
		return (bad(o, e, err, "event GCDone without GCStart"));
	o->gc_open = 0;
	if (tr_gotrace_gc_end(o->sink, ns, err) != 0)
		return (-1);
	return (0);
}

/* EV_STW_START */
static int
proc_stw_start(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct op	*p = x->p;
	const int64_t	 ns = x->ns;
	const char	*reason;

	if (o->ver < 1021) {
		if (e->args[0] > 1)
			return (bad(o, e, err, "event %s: unknown "
			    "kind %" PRIu64, evname(e->type, o->ver),
			    e->args[0]));
		reason = stw_reasons[e->args[0] + 1];
		x->s0 = e->args[0] == 0 ? "mark termination" :
		    "sweep termination";
	} else {
		reason = e->args[0] < sizeof stw_reasons /
		    sizeof *stw_reasons ? stw_reasons[e->args[0]] :
		    "unknown";
		x->s0 = reason;
	}
	if (o->ver < 1010 ? p->stw : o->world.stw)
		return (bad(o, e, err, "event %s: the previous "
		    "stop-the-world has not ended",
		    evname(e->type, o->ver)));
	*(o->ver < 1010 ? &p->stw : &o->world.stw) = 1;
	if (tr_gotrace_stw_begin(o->sink, o->ver < 1010 ? e->p : -1,
	    ns, strncmp(reason, "GC ", 3) == 0 ? "gc" : "other",
	    reason, err) != 0)
		return (-1);
	return (0);
}

/* EV_STW_DONE */
static int
proc_stw_done(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct op	*p = x->p;
	const int64_t	 ns = x->ns;

	if (!(o->ver < 1010 ? p->stw : o->world.stw))
		return (bad(o, e, err, "event %s without %s",
		    evname(e->type, o->ver),
		    evname(EV_STW_START, o->ver)));
	*(o->ver < 1010 ? &p->stw : &o->world.stw) = 0;
	if (tr_gotrace_stw_end(o->sink, o->ver < 1010 ? e->p : -1, ns,
	    err) != 0)
		return (-1);
	return (0);
}

/* EV_SWEEP_START */
static int
proc_sweep_start(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct op	*p = x->p;
	const int64_t	 ns = x->ns, cs = x->cs;

	if (p->sweep)
		return (bad(o, e, err, "event GCSweepStart: P %" PRId64
		    " is already sweeping", e->p));
	p->sweep = 1;
	if (tr_gotrace_sweep_begin(o->sink, e->p, ns, cs, err) != 0)
		return (-1);
	return (0);
}

/* EV_SWEEP_DONE */
static int
proc_sweep_done(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct op	*p = x->p;
	const int64_t	 ns = x->ns;
	char		 args[160];

	if (!p->sweep)
		return (bad(o, e, err, "event GCSweepDone without "
		    "GCSweepStart"));
	p->sweep = 0;
	args[0] = '\0';
	if (o->ver >= 1009)
		snprintf(args, sizeof args, "\"swept\":%" PRIu64
		    ",\"reclaimed\":%" PRIu64, e->args[0], e->args[1]);
	if (tr_gotrace_sweep_end(o->sink, e->p, ns, args[0] ? args :
	    NULL, err) != 0)
		return (-1);
	return (0);
}

/* EV_ASSIST_START */
static int
proc_assist_start(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	const int64_t	 ns = x->ns, cs = x->cs;

	if (g == NULL)
		return (bad(o, e, err, "event GCMarkAssistStart: "
		    "unknown "
		    "goroutine %" PRIu64, e->g));
	if (g->assist)
		return (bad(o, e, err, "event GCMarkAssistStart: "
		    "goroutine %"
		    PRIu64 " is already assisting", e->g));
	g->assist = 1;
	if (tr_gotrace_assist_begin(o->sink, e->g, ns, cs, err) != 0)
		return (-1);
	return (0);
}

/* EV_ASSIST_DONE */
static int
proc_assist_done(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	const int64_t	 ns = x->ns;

	/* An assist may have begun before the trace: no error. */
	if (g != NULL && g->assist) {
		g->assist = 0;
		if (tr_gotrace_assist_end(o->sink, e->g, ns, err) != 0)
			return (-1);
	}
	return (0);
}

/* EV_GO_WAITING, EV_GO_INSYSCALL */
static int
proc_go_waiting(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;

	if (g == NULL || g->st != G_RUNNABLE)
		return (bad(o, e, err, "event %s: goroutine "
		    "%" PRIu64 " is "
		    "not runnable", evname(e->type, o->ver), e->g));
	g->st = G_WAITING;
	if (e->type == EV_GO_INSYSCALL) {
		g->sysblock = e->ts;
		g->sys_linked = 0;
	}
	/* It was already blocked when its slice began. */
	if (tr_gotrace_go_restate(o->sink, e->g, TR_GOTRACE_BLOCKED,
	    e->type == EV_GO_WAITING ? TR_GO_REASON_UNKNOWN :
	    TR_GO_REASON_SYSCALL, 0, NULL, err) != 0)
		return (-1);
	return (0);
}

/* EV_GO_CREATE */
static int
proc_go_create(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	struct og	*g1;
	struct op	*p = x->p;
	const int64_t	 ns = x->ns, cs = x->cs;

	if (check_running(o, e, g, p, 1, err) != 0)
		return (-1);
	if ((g1 = og_step(o, x, e->args[0])) != NULL && g1->st != G_DEAD)
		return (bad(o, e, err, "event GoCreate: goroutine "
		    "%" PRIu64
		    " already exists", e->args[0]));
	{
		struct stack	*st = NULL;

		if (e->args[1] != 0 && (st = tr_imap_get(
		    &o->stacks, e->args[1])) == NULL)
			return (bad(o, e, err, "event GoCreate: "
			    "undefined "
			    "stack id %" PRIu64, e->args[1]));
		/* The ordering made its record. */
		g1 = og_step(o, x, e->args[0]);
		g1->st = G_RUNNABLE;
		if (tr_gotrace_go_create(o->sink, e->args[0], ns, e->g,
		    cs, st ? st->cs : 0, st ? st->leaf : NULL,
		    o->preinit, err) != 0)
			return (-1);
	}
	return (0);
}

/* EV_GO_START, EV_GO_START_LABEL */
static int
proc_go_start(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	struct op	*p = x->p;
	struct tr_buf	*b = &o->b;
	const int64_t	 ns = x->ns;
	int64_t		 m;
	char		*q;

	if (g == NULL || g->st != G_RUNNABLE)
		return (bad(o, e, err, "event %s: goroutine "
		    "%" PRIu64 " is "
		    "not runnable", evname(e->type, o->ver), e->g));
	if (p->g != 0)
		return (bad(o, e, err, "event %s: P %" PRId64 " is "
		    "already "
		    "running goroutine %" PRIu64 " when goroutine %"
		    PRIu64 " starts", evname(e->type, o->ver), e->p,
		    p->g, e->g));
	g->st = G_RUNNING;
	p->g = e->g;
	m = tr_gotrace_proc_m(o->sink, e->p);
	/* '"p":P,"m":M' written in place: a fifth of the events start one. */
	tr_buf_reset(b);
	q = tr_buf_reserve(b, 64);
	memcpy(q, "\"p\":", 4);
	q = tr_put_int(q + 4, e->p);
	if (m >= 0) {
		memcpy(q, ",\"m\":", 5);
		q = tr_put_int(q + 5, m);
	}
	*q = '\0';
	b->len = (size_t)(q - b->data);
	if (e->type == EV_GO_START_LABEL) {
		if ((x->s0 = need_str(o, e, e->args[2], err)) == NULL)
			return (-1);
		tr_buf_adds(b, ",\"label\":");
		tr_gotrace_json_str(b, x->s0, strlen(x->s0));
	}
	if (tr_gotrace_go_state(o->sink, e->g, ns, TR_GOTRACE_RUNNING,
	    NULL, 0, b->data, err) != 0)
		return (-1);
	return (0);
}

/* EV_GO_END, EV_GO_STOP */
static int
proc_go_end(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	const int64_t	 ns = x->ns, cs = x->cs;

	if (stop_running(o, e, x, G_DEAD, err) != 0)
		return (-1);
	if (e->type == EV_GO_STOP) {
		g->nrg = 0;
		if (tr_gotrace_go_state(o->sink, e->g, ns,
		    TR_GOTRACE_BLOCKED, TR_GO_REASON_FOREVER, cs, NULL,
		    err) != 0)
			return (-1);
		return (0);
	}
	if (tr_gotrace_go_end(o->sink, e->g, ns, err) != 0)
		return (-1);
	og_free(tr_imap_del(&o->gs, e->g));
	return (0);
}

/* EV_GO_SCHED, EV_GO_PREEMPT */
static int
proc_go_sched(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	const int64_t	 ns = x->ns, cs = x->cs;

	if (stop_running(o, e, x, G_RUNNABLE, err) != 0)
		return (-1);
	if (tr_gotrace_go_state(o->sink, e->g, ns, TR_GOTRACE_RUNNABLE,
	    e->type == EV_GO_SCHED ? "runtime.Gosched" : "preempted",
	    cs, NULL, err) != 0)
		return (-1);
	return (0);
}

/* EV_GO_UNBLOCK */
static int
proc_go_unblock(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	struct og	*g1;
	struct op	*p = x->p;
	const int64_t	 ns = x->ns, cs = x->cs;
	char		 wk[32];

	if (g == NULL || g->st != G_RUNNING)
		return (bad(o, e, err, "event GoUnblock: goroutine "
		    "%" PRIu64
		    " is not running", e->g));
	if (x->hp != TIMER_P && p->g != e->g)
		return (bad(o, e, err, "event GoUnblock: P %" PRId64 " "
		    "is "
		    "not running goroutine %" PRIu64, e->p, e->g));
	if ((g1 = og_step(o, x, e->args[0])) == NULL ||
	    g1->st != G_WAITING)
		return (bad(o, e, err, "event GoUnblock: goroutine "
		    "%" PRIu64
		    " is not blocked", e->args[0]));
	if (g1->blocknet && x->hp != TIMER_P)
		x->hp = NETPOLL_P;
	g1->blocknet = 0;
	g1->st = G_RUNNABLE;
	if (e->g != 0) {
		memcpy(wk, "\"waker\":", 8);
		*tr_put_uint(wk + 8, e->g) = '\0';
	}
	if (tr_gotrace_go_state(o->sink, e->args[0], ns,
	    TR_GOTRACE_RUNNABLE, "unblocked", cs, e->g != 0 ? wk : NULL,
	    err) != 0)
		return (-1);
	return (0);
}

/* EV_GO_SYSCALL */
static int
proc_go_syscall(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	struct op	*p = x->p;
	const int64_t	 ns = x->ns, cs = x->cs;

	if (check_running(o, e, g, p, 0, err) != 0)
		return (-1);
	g->sys_pending = 1;
	g->sys_ts = ns;
	g->sys_cs = cs;
	g->sys_linked = 0;
	return (0);
}

/* EV_GO_SYSBLOCK */
static int
proc_go_sysblock(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	const int64_t	 ns = x->ns;
	char		 args[160];

	if (stop_running(o, e, x, G_WAITING, err) != 0)
		return (-1);
	g->sysblock = e->ts;
	snprintf(args, sizeof args, "\"handoff\":true,\"handoff_ts\":%"
	    PRId64, ns);
	if (g->sys_pending) {
		g->sys_pending = 0;
		g->sys_linked = 1;
		if (tr_gotrace_go_state(o->sink, e->g, g->sys_ts,
		    TR_GOTRACE_BLOCKED, TR_GO_REASON_SYSCALL, g->sys_cs,
		    args, err) != 0)
			return (-1);
	} else if (tr_gotrace_go_state(o->sink, e->g, ns,
	    TR_GOTRACE_BLOCKED, TR_GO_REASON_SYSCALL, 0, args,
	    err) != 0)
		return (-1);
	return (0);
}

/* EV_GO_SYSEXIT */
static int
proc_go_sysexit(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;

	if (g == NULL || g->st != G_WAITING)
		return (bad(o, e, err, "event GoSysExit: goroutine "
		    "%" PRIu64
		    " is not in a syscall", e->g));
	if ((e->local ? e->args[1] : e->args[2]) != 0) {
		uint64_t	real = e->local ? e->args[1] :
		    e->args[2];

		if (real > (uint64_t)o->maxts)
			return (bad(o, e, err, "event GoSysExit: exit "
			    "time %" PRIu64 " after the last event",
			    real));
		if (g->sysblock == 0)
			return (bad(o, e, err, "event GoSysExit: stray "
			    "syscall exit of goroutine %" PRIu64,
			    e->g));
		if ((int64_t)real < g->sysblock)
			return (bad(o, e, err, "event GoSysExit: time "
			    "stamps "
			    "out of order (exit at tick %" PRIu64
			    " before the block at %" PRId64 ")",
			    real, g->sysblock));
		x->ns = tick_ns(o, (int64_t)real);
		if (!e->local)
			x->ticks = (int64_t)real;
	}
	x->hp = SYSCALL_P;
	g->st = G_RUNNABLE;
	if (tr_gotrace_go_state(o->sink, e->g, x->ns, TR_GOTRACE_RUNNABLE,
	    TR_GO_REASON_SYSCALL, 0, NULL, err) != 0)
		return (-1);
	return (0);
}

/*
 * EV_GO_SLEEP, EV_GO_BLOCK, EV_GO_BLOCK_SEND, EV_GO_BLOCK_RECV,
 * EV_GO_BLOCK_SELECT, EV_GO_BLOCK_SYNC, EV_GO_BLOCK_COND, EV_GO_BLOCK_NET,
 * EV_GO_BLOCK_GC
 */
static int
proc_go_block(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	const int64_t	 ns = x->ns, cs = x->cs;

	if (stop_running(o, e, x, G_WAITING, err) != 0)
		return (-1);
	g->blocknet = e->type == EV_GO_BLOCK_NET;
	if (tr_gotrace_go_state(o->sink, e->g, ns, TR_GOTRACE_BLOCKED,
	    block_cat(e->type), cs, NULL, err) != 0)
		return (-1);
	return (0);
}

/* EV_TASK_CREATE */
static int
proc_task_create(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	const int64_t	 ns = x->ns, cs = x->cs;

	if (tr_imap_get(&o->tasks, e->args[0]) != NULL)
		return (bad(o, e, err, "event UserTaskCreate: task id %"
		    PRIu64 " is already in use", e->args[0]));
	if ((x->s0 = need_str(o, e, e->args[2], err)) == NULL)
		return (-1);
	tr_imap_put(&o->tasks, e->args[0], o);
	if (tr_gotrace_task_begin(o->sink, e->args[0], e->args[1], x->s0,
	    e->g, ns, cs, err) != 0)
		return (-1);
	return (0);
}

/* EV_TASK_END */
static int
proc_task_end(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	const int64_t	 ns = x->ns;

	tr_imap_del(&o->tasks, e->args[0]);
	if (tr_gotrace_task_end(o->sink, e->args[0], e->g, ns,
	    err) != 0)
		return (-1);
	return (0);
}

/* EV_REGION */
static int
proc_region(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct og	*g = x->g;
	const int64_t	 ns = x->ns, cs = x->cs;

	if ((x->s0 = need_str(o, e, e->args[2], err)) == NULL)
		return (-1);
	if (g == NULL)
		return (bad(o, e, err, "event UserRegion: unknown "
		    "goroutine %"
		    PRIu64, e->g));
	if (e->args[1] == 0) {
		if (g->nrg + 2 > g->caprg) {
			g->caprg = g->caprg ? g->caprg * 2 : 8;
			g->rg = tr_xrealloc(g->rg,
			    g->caprg * sizeof *g->rg);
		}
		g->rg[g->nrg++] = e->args[0];
		g->rg[g->nrg++] = e->args[2];
		if (tr_gotrace_region_begin(o->sink, e->g, e->args[0],
		    x->s0, ns, cs, err) != 0)
			return (-1);
	} else if (e->args[1] == 1) {
		if (g->nrg > 0) {
			if (g->rg[g->nrg - 2] != e->args[0] ||
			    g->rg[g->nrg - 1] != e->args[2])
				return (bad(o, e, err, "event "
				    "UserRegion: "
				    "end of '%s' does not match the "
				    "innermost open region of "
				    "goroutine %" PRIu64, x->s0, e->g));
			g->nrg -= 2;
		}
		if (tr_gotrace_region_end(o->sink, e->g, e->args[0],
		    x->s0, ns, cs, err) != 0)
			return (-1);
	} else
		return (bad(o, e, err, "event UserRegion: invalid mode "
		    "%"
		    PRIu64, e->args[1]));
	return (0);
}

/* EV_LOG */
static int
proc_log(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	struct tr_buf	*b = &o->b;
	const int64_t	 ns = x->ns, cs = x->cs;

	if ((x->s0 = need_str(o, e, e->args[1], err)) == NULL)
		return (-1);
	tr_buf_reset(b);
	tr_buf_add(b, e->sval, e->slen);
	x->s1 = b->data;
	if (tr_gotrace_log(o->sink, e->g, e->args[0], x->s0, e->sval,
	    e->slen, ns, cs, err) != 0)
		return (-1);
	return (0);
}

/* EV_HEAP_ALLOC, EV_HEAP_GOAL */
static int
proc_heap(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	const int64_t	 ns = x->ns;

	if (tr_gotrace_heap(o->sink, ns, e->type == EV_HEAP_ALLOC ?
	    TR_GO_HEAP_ALLOC : TR_GO_HEAP_GOAL, e->args[0], err) != 0)
		return (-1);
	return (0);
}

/* EV_GOMAXPROCS */
static int
proc_gomaxprocs(struct old *o, struct ev *e, struct step *x,
    struct tr_error *err)
{
	const int64_t	 ns = x->ns;

	o->preinit = 0;
	if (tr_gotrace_gomaxprocs(o->sink, ns, e->args[0], err) != 0)
		return (-1);
	return (0);
}

static int (*const processors[EV_COUNT])(struct old *, struct ev *,
    struct step *, struct tr_error *) = {
	[EV_PROC_START] = proc_proc_start,
	[EV_PROC_STOP] = proc_proc_stop,
	[EV_GC_START] = proc_gc_start,
	[EV_GC_DONE] = proc_gc_done,
	[EV_STW_START] = proc_stw_start,
	[EV_STW_DONE] = proc_stw_done,
	[EV_SWEEP_START] = proc_sweep_start,
	[EV_SWEEP_DONE] = proc_sweep_done,
	[EV_ASSIST_START] = proc_assist_start,
	[EV_ASSIST_DONE] = proc_assist_done,
	[EV_GO_WAITING] = proc_go_waiting,
	[EV_GO_INSYSCALL] = proc_go_waiting,
	[EV_GO_CREATE] = proc_go_create,
	[EV_GO_START] = proc_go_start,
	[EV_GO_START_LABEL] = proc_go_start,
	[EV_GO_END] = proc_go_end,
	[EV_GO_STOP] = proc_go_end,
	[EV_GO_SCHED] = proc_go_sched,
	[EV_GO_PREEMPT] = proc_go_sched,
	[EV_GO_UNBLOCK] = proc_go_unblock,
	[EV_GO_SYSCALL] = proc_go_syscall,
	[EV_GO_SYSBLOCK] = proc_go_sysblock,
	[EV_GO_SYSEXIT] = proc_go_sysexit,
	[EV_GO_SLEEP] = proc_go_block,
	[EV_GO_BLOCK] = proc_go_block,
	[EV_GO_BLOCK_SEND] = proc_go_block,
	[EV_GO_BLOCK_RECV] = proc_go_block,
	[EV_GO_BLOCK_SELECT] = proc_go_block,
	[EV_GO_BLOCK_SYNC] = proc_go_block,
	[EV_GO_BLOCK_COND] = proc_go_block,
	[EV_GO_BLOCK_NET] = proc_go_block,
	[EV_GO_BLOCK_GC] = proc_go_block,
	[EV_TASK_CREATE] = proc_task_create,
	[EV_TASK_END] = proc_task_end,
	[EV_REGION] = proc_region,
	[EV_LOG] = proc_log,
	[EV_HEAP_ALLOC] = proc_heap,
	[EV_HEAP_GOAL] = proc_heap,
	[EV_GOMAXPROCS] = proc_gomaxprocs,
	/*
	 * EV_FUTILE_WAKEUP: Go's parser drops a futile wakeup with the
	 * unblock and start before it; the runtime stopped emitting them
	 * long before Go 1.11.  Here it is counted and ignored.
	 */
};

/*
 * 'known' is goroutine 'kg' as looked up just before (NULL: look it up),
 * so that an event's goroutine is looked up once; 'c' is the cursor of
 * the event's P, which keeps that P's record.
 */
static int
process(struct old *o, struct cursor *c, struct ev *e, uint64_t kg,
    struct og *known, struct tr_error *err)
{
	struct step	 x;

	if (e->ts < o->lastticks)
		return (bad(o, e, err, "event %s: time stamps out of order "
		    "(tick %"
		    PRId64 " after %" PRId64 ")", evname(e->type, o->ver),
		    e->ts, o->lastticks));
	o->lastticks = e->ts;
	memset(&x, 0, sizeof x);
	x.ticks = e->ts;
	x.hp = e->p;
	if (e->stk != 0 && (x.cs = stack_cs(o, e->stk, e->off, err)) < 0)
		return (-1);
	x.kg = kg;
	x.known = known;
	x.g = og_step(o, &x, e->g);
	/* (A P's record lives as long as the import.) */
	if (e->p != c->p)
		x.p = op_get(o, e->p);
	else if ((x.p = c->op) == NULL)
		x.p = c->op = op_get(o, e->p);
	if (x.g != NULL && x.g->sys_pending && e->type != EV_GO_SYSBLOCK &&
	    flush_syscall(o, e->g, x.g, err) != 0)
		return (-1);
	if (e->type == EV_GO_UNBLOCK && tr_imap_get(&o->timers, e->g))
		x.hp = TIMER_P;
	x.ns = tick_ns(o, e->ts);
	if (e->type < EV_COUNT && processors[e->type] != NULL &&
	    processors[e->type](o, e, &x, err) != 0)
		return (-1);
	if (x.ns > o->end_ns)
		o->end_ns = x.ns;
	o->nevents++;
	if (tr_gotrace_hook != NULL)
		hook_event(o, e, x.hp, e->g, x.ticks, x.s0, x.s1);
	return (0);
}

/* Say why event 'e' cannot come next. */
static int
stuck_ev(struct old *o, struct ev *e, struct tr_error *err)
{
	struct trans	 t;
	struct og	*g;
	struct cursor	 one, *best = &one;

	one.head = *e;
	transition(&best->head, &t);
	g = t.gc ? NULL : og_get(o, t.g);
	if (t.gc)
		return (bad(o, &best->head, err, "no consistent ordering of "
		    "events: GCStart of cycle %" PRIu64 " comes before cycle %"
		    PRIu64, best->head.args[0], o->gcseq));
	return (bad(o, &best->head, err, "no consistent ordering of events: "
	    "%s of goroutine %" PRIu64 " (sequence %" PRId64 ") does not "
	    "follow from its state (sequence %" PRIu64 ", %s)",
	    evname(best->head.type, o->ver), t.g, t.iseq == NOSEQ ? -1 :
	    (int64_t)t.iseq, g ? g->seq : 0, g == NULL ? "not created" :
	    g->ost == G_RUNNABLE ? "runnable" : g->ost == G_RUNNING ?
	    "running" : g->ost == G_WAITING ? "blocked" : "dead"));
}

/* The earliest event no ordering can place, for the message. */
static int
stuck(struct old *o, struct tr_error *err)
{
	struct cursor	*c, *best = NULL;
	size_t		 i;

	for (i = 0; i < o->nwait; i++) {
		c = o->wait[i];
		if (c->has && (best == NULL || heap_less(c, best)))
			best = c;
	}
	if (best == NULL)
		return (tr_input_error_at(o->in, err, 0, "no consistent "
		    "ordering of events"));
	return (stuck_ev(o, &best->head, err));
}

/*
 * Whether a cursor waiting (see pass2()) may go after the event of
 * transition 't' on goroutine 'g': what it waits on has changed.
 */
static int
woken(const struct cursor *w, const struct trans *t, uint64_t g)
{
	if (w->wgc)
		return (t->ordered && t->gc);
	return ((t->ordered && !t->gc && w->wg == t->g) || w->wg == g);
}

static int
pass2(struct old *o, struct tr_error *err)
{
	struct cursor	*c, *w;
	struct trans	 t;
	struct og	*og;
	uint64_t	 g;
	size_t		 i, k;
	uint64_t	*keys;
	size_t		 nkeys;

	/* One cursor per P, its batches chained in file order. */
	for (i = o->nbatches; i-- > 0;) {
		c = NULL;
		for (k = 0; k < o->ncurs; k++)
			if (o->curs[k].p == o->batches[i].p) {
				c = &o->curs[k];
				break;
			}
		if (c == NULL) {
			o->curs = tr_xrealloc(o->curs,
			    (o->ncurs + 1) * sizeof *o->curs);
			c = &o->curs[o->ncurs++];
			memset(c, 0, sizeof *c);
			c->p = o->batches[i].p;
			c->first = -1;
		}
		o->batches[i].next = c->first;
		c->first = (int64_t)i;
	}
	for (k = 0; k < o->ncurs; k++)
		o->curs[k].cur = -1;
	o->heap = tr_xcalloc(o->ncurs + 1, sizeof *o->heap);
	o->avail = tr_xcalloc(o->ncurs + 1, sizeof *o->avail);
	o->wait = tr_xcalloc(o->ncurs + 1, sizeof *o->wait);
	for (k = 0; k < o->ncurs; k++)
		o->avail[o->navail++] = &o->curs[k];
	o->g0.st = o->g0.ost = G_RUNNING;

	/*
	 * Cursors whose next event can go (its goroutine or the GC is in
	 * the state it needs) are in the heap, by time; the others wait on
	 * that goroutine or the GC, and are looked at again only after an
	 * event changes it (apply(), or GoEnd forgetting the goroutine).
	 */
	for (;;) {
		for (i = 0; i < o->navail; i++) {
			c = o->avail[i];
			if (!c->has && !c->done) {
				if (advance(o, c, err) != 0)
					return (-1);
				/* (Once per event, not per look at it.) */
				if (c->has)
					transition(&c->head, &c->tr);
			}
			if (c->done)
				continue;
			if (ready(o, &c->tr)) {
				heap_push(o, c);
				continue;
			}
			c->wgc = c->tr.gc;
			c->wg = c->tr.g;
			o->wait[o->nwait++] = c;
		}
		o->navail = 0;
		if (o->nheap == 0) {
			if (o->nwait == 0)
				break;
			return (stuck(o, err));
		}
		c = heap_pop(o);
		t = c->tr;
		if (!ready_at(o, &t, &og))
			return (stuck_ev(o, &c->head, err));
		og = apply(o, &t, og);
		switch (c->head.type) {
		case EV_GO_START_LOCAL:
			c->head.type = EV_GO_START;
			break;
		case EV_GO_UNBLOCK_LOCAL:
			c->head.type = EV_GO_UNBLOCK;
			break;
		case EV_GO_SYSEXIT_LOCAL:
			/*
			 * Its arguments stay where they were: go tool trace
			 * then reads the real time as the sequence number
			 * and finds no real time.  (No runtime since Go 1.7
			 * emits it.)  The sink gets the real time.
			 */
			c->head.type = EV_GO_SYSEXIT;
			c->head.local = 1;
			break;
		}
		g = c->head.g;
		if (process(o, c, &c->head, t.g, og, err) != 0)
			return (-1);
		c->has = 0;
		o->avail[o->navail++] = c;
		for (i = 0; i < o->nwait;) {
			w = o->wait[i];
			if (!woken(w, &t, g)) {
				i++;
				continue;
			}
			o->avail[o->navail++] = w;
			o->wait[i] = o->wait[--o->nwait];
		}
	}

	/* Syscalls still pending at the end returned without blocking. */
	keys = tr_imap_keys(&o->gs, &nkeys);
	for (i = 0; i < nkeys; i++)
		if (flush_syscall(o, keys[i], tr_imap_get(&o->gs,
		    keys[i]), err) != 0) {
			free(keys);
			return (-1);
		}
	free(keys);
	return (tr_gotrace_sink_finish(o->sink, o->end_ns, err));
}

/* --- the whole ------------------------------------------------------- */

/* floor(ticks * 1e9 / freq) without overflow. */
static int64_t
ticks_to_ns(int64_t ticks, int64_t freq)
{
	int64_t	q = ticks / freq, r = ticks % freq;

	return (q * 1000000000 + (int64_t)((double)r * 1e9 / (double)freq));
}

static void
old_release(struct old *o)
{
	size_t	i;

	tr_imap_free(&o->strings, free);
	tr_imap_free(&o->stacks, free);
	tr_imap_free(&o->gs, og_free);
	tr_imap_free(&o->ps, free);
	tr_imap_release(&o->timers);
	tr_imap_release(&o->tasks);
	for (i = 0; i < o->ncurs; i++) {
		free(o->curs[i].buf);
		free(o->curs[i].raw.args);
	}
	free(o->curs);
	free(o->heap);
	free(o->avail);
	free(o->wait);
	free(o->batches);
	free(o->rbuf);
	free(o->raw.args);
	free(o->g0.rg);
	if (o->spill != NULL)
		fclose(o->spill);
	else if (o->spill_fd >= 0)
		close(o->spill_fd);
	tr_gotrace_sink_free(o->sink);
	tr_buf_release(&o->b);
}

int
tr_gotrace_old_run(struct tr_import *ctx, struct tr_input *in, int ver,
    struct tr_error *err)
{
	struct old	 o;
	json_t		*meta;
	char		 vs[16];
	int		 rc = -1;

	memset(&o, 0, sizeof o);
	o.ctx = ctx;
	o.wr = tr_import_writer(ctx);
	o.in = in;
	o.ver = ver;
	o.spill_fd = -1;
	o.rbase = HDR;
	o.preinit = 1;
	o.end_ns = INT64_MIN;
	tr_buf_init(&o.b);
	tr_imap_init(&o.strings);
	tr_imap_init(&o.stacks);
	tr_imap_init(&o.timers);
	tr_imap_init(&o.gs);
	tr_imap_init(&o.ps);
	tr_imap_init(&o.tasks);
	if ((ver > 1011 && ver != 1019 && ver != 1021) || ver == 1006) {
		tr_input_error_at(in, err, 0, "unsupported Go trace version "
		    "%d.%d (the old format has 1.7 to 1.11, 1.19 and 1.21)",
		    ver / 1000, ver % 1000);
		goto out;
	}
	snprintf(vs, sizeof vs, "%d.%d", ver / 1000, ver % 1000);
	tr_import_set_version(ctx, vs);
	if (spill_open(&o, err) != 0 || pass1(&o, err) != 0)
		goto out;
	o.nspertick = 1e9 / (double)o.freq;
	o.base_ns = ticks_to_ns(o.mints, o.freq);
	o.lastticks = INT64_MIN;
	o.sink = tr_gotrace_sink_new(ctx);
	if (pass2(&o, err) != 0)
		goto out;
	/*
	 * Ticks have no known origin: ts = ticks * 1e9 / frequency, so that
	 * an offset is all trace-align has to find.  Differences between
	 * events are exactly go tool trace's.
	 */
	tr_import_set_clock(ctx, "go-ticks");
	meta = tr_import_meta(ctx);
	json_object_set_new(meta, "go_version", json_string(vs));
	json_object_set_new(meta, "ticks_per_second", json_integer(o.freq));
	json_object_set_new(meta, "first_tick", json_integer(o.mints));
	json_object_set_new(meta, "first_tick_ns", json_integer(o.base_ns));
	json_object_set_new(meta, "events", json_integer(o.nevents));
	json_object_set_new(meta, "batches",
	    json_integer((json_int_t)o.nbatches));
	rc = 0;
out:
	old_release(&o);
	return (rc);
}
