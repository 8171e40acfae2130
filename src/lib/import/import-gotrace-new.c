/*
 * The generation format of Go execution traces: Go 1.22, 1.23 (also
 * written by 1.24), 1.25 and 1.26 ("go 1.22 trace" ...).  A trace is a
 * sequence of generations; a generation is a set of batches, each a
 * header (generation, M, base time, size) and up to 64 KiB of data: event
 * batches per M, and the generation's string table, stack table, CPU
 * samples and clock (the frequency; from Go 1.25 a sync batch with the
 * frequency and a snapshot of the trace, monotonic and wall clocks).
 *
 * One generation at a time, in bounded memory: its event batches go to an
 * unlinked temporary file as they are read, its tables stay in memory;
 * when the next generation begins (or the input ends) the per-M batches
 * are read back one at a time and merged the way Go's parser does: the M
 * whose next event is earliest goes first if the scheduler state allows
 * its event (goroutine and P sequence numbers, statuses, who runs what),
 * otherwise the next earliest that can.  Every event is validated as Go
 * validates it, then reported to the sink.  Memory: one generation's
 * strings, stacks and CPU samples, one batch per M, one record per live
 * goroutine, P, thread and active task.  Disk: one generation's batches.
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
	EV_NONE, EV_EVENT_BATCH, EV_STACKS, EV_STACK, EV_STRINGS, EV_STRING,
	EV_CPU_SAMPLES, EV_CPU_SAMPLE, EV_FREQUENCY, EV_PROCS_CHANGE,
	EV_PROC_START, EV_PROC_STOP, EV_PROC_STEAL, EV_PROC_STATUS,
	EV_GO_CREATE, EV_GO_CREATE_SYSCALL, EV_GO_START, EV_GO_DESTROY,
	EV_GO_DESTROY_SYSCALL, EV_GO_STOP, EV_GO_BLOCK, EV_GO_UNBLOCK,
	EV_GO_SYSCALL_BEGIN, EV_GO_SYSCALL_END, EV_GO_SYSCALL_END_BLOCKED,
	EV_GO_STATUS, EV_STW_BEGIN, EV_STW_END, EV_GC_ACTIVE, EV_GC_BEGIN,
	EV_GC_END, EV_SWEEP_ACTIVE, EV_SWEEP_BEGIN, EV_SWEEP_END,
	EV_ASSIST_ACTIVE, EV_ASSIST_BEGIN, EV_ASSIST_END, EV_HEAP_ALLOC,
	EV_HEAP_GOAL, EV_GO_LABEL, EV_TASK_BEGIN, EV_TASK_END,
	EV_REGION_BEGIN, EV_REGION_END, EV_USER_LOG, EV_GO_SWITCH,
	EV_GO_SWITCH_DESTROY, EV_GO_CREATE_BLOCKED, EV_GO_STATUS_STACK,
	EV_EXPERIMENTAL_BATCH, EV_SYNC, EV_CLOCK_SNAPSHOT,
	EV_END_OF_GENERATION, EV_COUNT,
	/* experimental (AllocFree), Go 1.23 */
	EV_SPAN = 128, EV_SPAN_ALLOC, EV_SPAN_FREE, EV_HEAP_OBJECT,
	EV_HEAP_OBJECT_ALLOC, EV_HEAP_OBJECT_FREE, EV_GOROUTINE_STACK,
	EV_GOROUTINE_STACK_ALLOC, EV_GOROUTINE_STACK_FREE, EV_EXP_END
};

/*
 * Per event type: its name, the number of arguments after the type byte
 * (a timed event's first is the time delta), whether it is timed, which
 * arguments (1-based, counting the delta) are stack and string ids, and
 * the range event it ends or marks active.
 */
struct spec {
	const char	*name;
	int		 nargs;
	int		 timed;
	int		 stk[2];
	int		 str[2];
	int		 start;
};

#define T 1
static const struct spec specs[EV_EXP_END] = {
	[EV_EVENT_BATCH] = { "EventBatch", 4, 0, { 0 }, { 0 }, 0 },
	[EV_STACKS] = { "Stacks", 0, 0, { 0 }, { 0 }, 0 },
	[EV_STACK] = { "Stack", 2, 0, { 0 }, { 0 }, 0 },
	[EV_STRINGS] = { "Strings", 0, 0, { 0 }, { 0 }, 0 },
	[EV_STRING] = { "String", 1, 0, { 0 }, { 0 }, 0 },
	[EV_CPU_SAMPLES] = { "CPUSamples", 0, 0, { 0 }, { 0 }, 0 },
	[EV_CPU_SAMPLE] = { "CPUSample", 5, 0, { 0 }, { 0 }, 0 },
	[EV_FREQUENCY] = { "Frequency", 1, 0, { 0 }, { 0 }, 0 },
	[EV_PROCS_CHANGE] = { "ProcsChange", 3, T, { 2 }, { 0 }, 0 },
	[EV_PROC_START] = { "ProcStart", 3, T, { 0 }, { 0 }, 0 },
	[EV_PROC_STOP] = { "ProcStop", 1, T, { 0 }, { 0 }, 0 },
	[EV_PROC_STEAL] = { "ProcSteal", 4, T, { 0 }, { 0 }, 0 },
	[EV_PROC_STATUS] = { "ProcStatus", 3, T, { 0 }, { 0 }, 0 },
	[EV_GO_CREATE] = { "GoCreate", 4, T, { 3, 2 }, { 0 }, 0 },
	[EV_GO_CREATE_SYSCALL] = { "GoCreateSyscall", 2, T, { 0 }, { 0 }, 0 },
	[EV_GO_START] = { "GoStart", 3, T, { 0 }, { 0 }, 0 },
	[EV_GO_DESTROY] = { "GoDestroy", 1, T, { 0 }, { 0 }, 0 },
	[EV_GO_DESTROY_SYSCALL] = { "GoDestroySyscall", 1, T, { 0 }, { 0 },
	    0 },
	[EV_GO_STOP] = { "GoStop", 3, T, { 2 }, { 1 }, 0 },
	[EV_GO_BLOCK] = { "GoBlock", 3, T, { 2 }, { 1 }, 0 },
	[EV_GO_UNBLOCK] = { "GoUnblock", 4, T, { 3 }, { 0 }, 0 },
	[EV_GO_SYSCALL_BEGIN] = { "GoSyscallBegin", 3, T, { 2 }, { 0 }, 0 },
	[EV_GO_SYSCALL_END] = { "GoSyscallEnd", 1, T, { 0 }, { 0 },
	    EV_GO_SYSCALL_BEGIN },
	[EV_GO_SYSCALL_END_BLOCKED] = { "GoSyscallEndBlocked", 1, T, { 0 },
	    { 0 }, EV_GO_SYSCALL_BEGIN },
	[EV_GO_STATUS] = { "GoStatus", 4, T, { 0 }, { 0 }, 0 },
	[EV_STW_BEGIN] = { "STWBegin", 3, T, { 2 }, { 1 }, 0 },
	[EV_STW_END] = { "STWEnd", 1, T, { 0 }, { 0 }, EV_STW_BEGIN },
	[EV_GC_ACTIVE] = { "GCActive", 2, T, { 0 }, { 0 }, EV_GC_BEGIN },
	[EV_GC_BEGIN] = { "GCBegin", 3, T, { 2 }, { 0 }, 0 },
	[EV_GC_END] = { "GCEnd", 2, T, { 0 }, { 0 }, EV_GC_BEGIN },
	[EV_SWEEP_ACTIVE] = { "GCSweepActive", 2, T, { 0 }, { 0 },
	    EV_SWEEP_BEGIN },
	[EV_SWEEP_BEGIN] = { "GCSweepBegin", 2, T, { 1 }, { 0 }, 0 },
	[EV_SWEEP_END] = { "GCSweepEnd", 3, T, { 0 }, { 0 }, EV_SWEEP_BEGIN },
	[EV_ASSIST_ACTIVE] = { "GCMarkAssistActive", 2, T, { 0 }, { 0 },
	    EV_ASSIST_BEGIN },
	[EV_ASSIST_BEGIN] = { "GCMarkAssistBegin", 2, T, { 1 }, { 0 }, 0 },
	[EV_ASSIST_END] = { "GCMarkAssistEnd", 1, T, { 0 }, { 0 },
	    EV_ASSIST_BEGIN },
	[EV_HEAP_ALLOC] = { "HeapAlloc", 2, T, { 0 }, { 0 }, 0 },
	[EV_HEAP_GOAL] = { "HeapGoal", 2, T, { 0 }, { 0 }, 0 },
	[EV_GO_LABEL] = { "GoLabel", 2, T, { 0 }, { 1 }, 0 },
	[EV_TASK_BEGIN] = { "UserTaskBegin", 5, T, { 4 }, { 3 }, 0 },
	[EV_TASK_END] = { "UserTaskEnd", 3, T, { 2 }, { 0 }, 0 },
	[EV_REGION_BEGIN] = { "UserRegionBegin", 4, T, { 3 }, { 2 }, 0 },
	[EV_REGION_END] = { "UserRegionEnd", 4, T, { 3 }, { 2 },
	    EV_REGION_BEGIN },
	[EV_USER_LOG] = { "UserLog", 5, T, { 4 }, { 2, 3 }, 0 },
	[EV_GO_SWITCH] = { "GoSwitch", 3, T, { 0 }, { 0 }, 0 },
	[EV_GO_SWITCH_DESTROY] = { "GoSwitchDestroy", 3, T, { 0 }, { 0 }, 0 },
	[EV_GO_CREATE_BLOCKED] = { "GoCreateBlocked", 4, T, { 3, 2 }, { 0 },
	    0 },
	[EV_GO_STATUS_STACK] = { "GoStatusStack", 5, T, { 4 }, { 0 }, 0 },
	[EV_EXPERIMENTAL_BATCH] = { "ExperimentalBatch", 4, 0, { 0 }, { 0 },
	    0 },
	[EV_SYNC] = { "Sync", 0, 0, { 0 }, { 0 }, 0 },
	[EV_CLOCK_SNAPSHOT] = { "ClockSnapshot", 4, T, { 0 }, { 0 }, 0 },
	[EV_END_OF_GENERATION] = { "EndOfGeneration", 0, 0, { 0 }, { 0 },
	    0 },
	[EV_SPAN] = { "Span", 4, T, { 0 }, { 0 }, 0 },
	[EV_SPAN_ALLOC] = { "SpanAlloc", 4, T, { 0 }, { 0 }, 0 },
	[EV_SPAN_FREE] = { "SpanFree", 2, T, { 0 }, { 0 }, 0 },
	[EV_HEAP_OBJECT] = { "HeapObject", 3, T, { 0 }, { 0 }, 0 },
	[EV_HEAP_OBJECT_ALLOC] = { "HeapObjectAlloc", 3, T, { 0 }, { 0 }, 0 },
	[EV_HEAP_OBJECT_FREE] = { "HeapObjectFree", 2, T, { 0 }, { 0 }, 0 },
	[EV_GOROUTINE_STACK] = { "GoroutineStack", 3, T, { 0 }, { 0 }, 0 },
	[EV_GOROUTINE_STACK_ALLOC] = { "GoroutineStackAlloc", 3, T, { 0 },
	    { 0 }, 0 },
	[EV_GOROUTINE_STACK_FREE] = { "GoroutineStackFree", 2, T, { 0 }, { 0 },
	    0 },
};
#undef T

#define MAX_BATCH	(64 << 10)
#define MAX_FRAMES	128
#define MAX_STRING	(1 << 10)
#define HDR		16
#define NO_ID		UINT64_MAX	/* NoThread, NoProc, NoGoroutine */
#define MAX_SNAPSHOTS	10000
#define TIME_MAX	((int64_t)1 << 62)	/* ns; more is corrupt */

/* Goroutine and P statuses, as the trace numbers them. */
enum { GO_BAD, GO_RUNNABLE, GO_RUNNING, GO_SYSCALL, GO_WAITING };
enum { P_BAD, P_RUNNING, P_IDLE, P_SYSCALL, P_SYSCALL_ABANDONED };
enum { GC_UNDETERMINED, GC_NOT_RUNNING, GC_RUNNING };

/* The last event type of each version's table. */
static int
max_type(int ver)
{
	if (ver < 1023)
		return (EV_USER_LOG);
	if (ver < 1025)
		return (EV_EXPERIMENTAL_BATCH);
	return (EV_END_OF_GENERATION);
}

struct ctx {
	uint64_t	 g, p, m;
};

/* An event, decoded; time in ns after the clock conversion. */
struct nev {
	int		 type;
	int64_t		 time;
	uint64_t	 args[5];	/* after the time delta */
	struct ctx	 ctx;
	int64_t		 off;
	int64_t		 batch;		/* its batch's number in the file */
	uint64_t	 extra;		/* ProcSteal: the goroutine robbed */
};

struct vbatch {
	uint64_t	 gen, m, time, size;
	int		 exp;
	int64_t		 off;		/* of the header in the input */
	int64_t		 no;		/* 1-based number in the file */
	int64_t		 spill;		/* offset in the temporary file */
	int64_t		 data_off;	/* input offset of the data */
	int64_t		 next;		/* the M's next batch, -1: none */
};

struct cursor {
	uint64_t	 m;
	int64_t		 first, cur;
	unsigned char	*buf;
	size_t		 len, pos;
	int64_t		 lastts;
	int		 started;	/* lastts set from the batch */
	int		 has;
	struct nev	 ev;
};

struct pcframe {
	uint64_t	 fn, file, line;
};

struct vstack {
	uint64_t	*pcs;
	size_t		 n;
	int64_t		 cs;
	const char	*leaf;
	int64_t		 off, batch;
};

struct cpusample {
	int64_t		 time;
	uint64_t	 m, p, g, stack;
	int64_t		 off, batch;
	size_t		 idx;
};

/* Ordering state: a goroutine. */
struct vg {
	int		 status;
	uint64_t	 sgen, seq;
	uint64_t	*regions;	/* task, name (string copies) pairs */
	char		**rnames;
	size_t		 nregions, capregions;
	int		 ranges[4];	/* in-flight range begin types */
	uint64_t	 rdesc[4];
	int		 nranges;
	/* for the sink */
	int64_t		 sys_cs;
	int		 handoff;
};

struct vp {
	int		 status;
	uint64_t	 sgen, seq;
	int		 ranges[4];
	uint64_t	 rdesc[4];
	int		 nranges;
};

struct vm {
	uint64_t	 g, p;
};

struct vtask {
	char		*name;
	uint64_t	 parent;
};

struct nw {
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_input		*in;
	struct tr_gotrace_sink	*sink;
	int			 ver;

	/* reading */
	unsigned char		*rbuf;
	size_t			 rlen, rpos, rcap;
	int64_t			 rbase;
	int			 reof;
	int64_t			 nbatches;
	int			 spill_fd;
	int64_t			 spill_len;
	unsigned char		*held;		/* the next generation's */
	struct vbatch		 heldb;
	int			 held_err;	/* error reading further */
	struct tr_error		 held_error;

	/* the generation */
	uint64_t		 gen;
	int			 first_gen;	/* no generation before */
	double			 freq;		/* ns per tick */
	uint64_t		 freq_raw;
	int			 have_freq;
	uint64_t		 mints;
	int			 have_mints;
	struct tr_imap	 strings;	/* id -> char * */
	struct tr_imap	 pcs;		/* pc -> struct pcframe * */
	struct tr_imap	 stacks;	/* id -> struct vstack * */
	struct cpusample	*samples;
	size_t			 nsamples, capsamples, nextsample;
	struct vbatch		*batches;
	size_t			 nbatches_gen, capbatches;
	struct cursor		*curs;
	size_t			 ncurs;
	struct cursor		**front;
	size_t			 nfront;

	/* ordering */
	struct tr_imap	 gs, ps, ms, tasks;
	uint64_t		 initial_gen;
	uint64_t		 gc_seq;
	int			 gc_state;
	struct nev		*queue;
	size_t			 qhead, qlen, qcap;

	/* output */
	int64_t			 lastts;
	int64_t			 nevents;
	json_t			*snapshots;
	int64_t			 nsnapshots;
	struct tr_buf		 b;
};

/* --- errors ---------------------------------------------------------- */

static int
bad_at(struct nw *w, int64_t off, uint64_t gen, int64_t batch,
    struct tr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static int
bad_at(struct nw *w, int64_t off, uint64_t gen, int64_t batch,
    struct tr_error *err, const char *fmt, ...)
{
	va_list	ap;
	char	msg[768];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (batch > 0)
		return (tr_input_error_at(w->in, err, off, "generation %"
		    PRIu64 ", batch %" PRId64 ": %s", gen, batch, msg));
	return (tr_input_error_at(w->in, err, off, "%s", msg));
}

/* An error about event 'e' of the current generation. */
#define BAD(e, ...)	\
	bad_at(w, (e)->off, w->gen, (e)->batch, err, __VA_ARGS__)

static const char *
ev_name(int type)
{
	static char	buf[32];

	if (type >= 0 && type < EV_EXP_END && specs[type].name != NULL)
		return (specs[type].name);
	snprintf(buf, sizeof buf, "Invalid(%d)", type);
	return (buf);
}

/* --- reading batches ------------------------------------------------- */

static int
fill(struct nw *w, size_t n, struct tr_error *err)
{
	int64_t	got;
	size_t	want;

	if (w->rlen - w->rpos >= n || w->reof)
		return (0);
	if (w->rpos > 0) {
		memmove(w->rbuf, w->rbuf + w->rpos, w->rlen - w->rpos);
		w->rlen -= w->rpos;
		w->rbase += (int64_t)w->rpos;
		w->rpos = 0;
	}
	if (w->rcap < (1 << 18)) {
		w->rcap = 1 << 18;
		w->rbuf = tr_xrealloc(w->rbuf, w->rcap);
	}
	while (w->rlen < n && !w->reof) {
		want = w->rcap - w->rlen;
		if ((got = tr_input_read(w->in, w->rbuf + w->rlen, want,
		    err)) < 0)
			return (-1);
		w->rlen += (size_t)got;
		if ((size_t)got < want)
			w->reof = 1;
	}
	return (0);
}

/* 1 with *v, 0 past the end, -1 malformed (over 10 bytes). */
static int
uvarint(const unsigned char *p, size_t len, size_t *pos, uint64_t *v)
{
	uint64_t	x = 0;
	size_t		i;

	for (i = 0; i < 10; i++) {
		if (*pos + i >= len)
			return (0);
		x |= (uint64_t)(p[*pos + i] & 0x7f) << (7 * i);
		if ((p[*pos + i] & 0x80) == 0) {
			if (i == 9 && p[*pos + i] > 1)
				return (-1);
			*pos += i + 1;
			*v = x;
			return (1);
		}
	}
	return (-1);
}

/*
 * Read the next batch header and data: 1 with *b filled and *data (at
 * least b->size bytes, valid until the next read), 0 at the end of the
 * input, -1 on error.
 */
static int
read_batch(struct nw *w, struct vbatch *b, const unsigned char **data,
    struct tr_error *err)
{
	const unsigned char	*p;
	uint64_t		 v[4];
	size_t			 pos = 1, avail;
	int			 i, r;
	int64_t			 off;

	if (fill(w, 64, err) != 0)
		return (-1);
	if (w->rpos == w->rlen)
		return (0);
	off = w->rbase + (int64_t)w->rpos;
	p = w->rbuf + w->rpos;
	avail = w->rlen - w->rpos;
	memset(b, 0, sizeof *b);
	b->off = off;
	b->no = w->nbatches + 1;
	b->next = -1;
	if (p[0] == EV_END_OF_GENERATION && w->ver >= 1026) {
		/* An explicit end of generation: a batch of its own. */
		w->rpos++;
		b->exp = -1;
		w->nbatches++;
		return (1);
	}
	if (p[0] != EV_EVENT_BATCH && !(p[0] == EV_EXPERIMENTAL_BATCH &&
	    w->ver >= 1023))
		return (bad_at(w, off, 0, 0, err, "batch %" PRId64
		    ": expected a batch, found event type %d", b->no, p[0]));
	if (p[0] == EV_EXPERIMENTAL_BATCH) {
		if (avail < 2)
			return (bad_at(w, off, 0, 0, err, "batch %" PRId64
			    ": truncated batch header", b->no));
		b->exp = p[1];
		pos = 2;
	}
	for (i = 0; i < 4; i++) {
		r = uvarint(p, avail, &pos, &v[i]);
		if (r == 0)
			return (bad_at(w, off, 0, 0, err, "batch %" PRId64
			    ": truncated batch header", b->no));
		if (r < 0)
			return (bad_at(w, off, 0, 0, err, "batch %" PRId64
			    ": malformed varint in the batch header", b->no));
	}
	b->gen = v[0];
	b->m = v[1];
	b->time = v[2];
	b->size = v[3];
	if (b->size > MAX_BATCH)
		return (bad_at(w, off, 0, 0, err, "batch %" PRId64 ": invalid "
		    "batch size %" PRIu64 ", maximum is %d", b->no, b->size,
		    MAX_BATCH));
	w->rpos += pos;
	if (fill(w, (size_t)b->size, err) != 0)
		return (-1);
	if (w->rlen - w->rpos < b->size) {
		w->rpos -= pos;
		return (bad_at(w, off, 0, 0, err, "batch %" PRId64
		    ": truncated batch: %" PRIu64 " bytes of data, %zu left in "
		    "the file",
		    b->no, b->size, w->rlen - w->rpos - pos));
	}
	b->data_off = w->rbase + (int64_t)w->rpos;
	*data = w->rbuf + w->rpos;
	w->rpos += (size_t)b->size;
	w->nbatches++;
	return (1);
}

/* --- the generation's tables ----------------------------------------- */

static void
vstack_free(void *p)
{
	struct vstack	*s = p;

	if (s != NULL) {
		free(s->pcs);
		free(s);
	}
}

static void
gen_reset(struct nw *w)
{
	size_t	i;

	tr_imap_free(&w->strings, free);
	tr_imap_free(&w->pcs, free);
	tr_imap_free(&w->stacks, vstack_free);
	for (i = 0; i < w->ncurs; i++)
		free(w->curs[i].buf);
	free(w->curs);
	w->curs = NULL;
	w->ncurs = 0;
	w->nfront = 0;
	w->nsamples = w->nextsample = 0;
	w->nbatches_gen = 0;
	w->have_freq = 0;
	w->have_mints = 0;
	w->spill_len = 0;
}

#define DNEED(x, what) do {						\
	int r_ = (x);							\
	if (r_ <= 0)							\
		return (bad_at(w, b->data_off + (int64_t)pos, b->gen,	\
		    b->no, err, "%s " what, r_ == 0 ? "truncated" :	\
		    "malformed varint in"));				\
} while (0)

static int
add_strings(struct nw *w, const struct vbatch *b, const unsigned char *d,
    struct tr_error *err)
{
	size_t		pos = 1, len = (size_t)b->size;
	uint64_t	id, n;
	int64_t		at;

	while (pos < len) {
		at = b->data_off + (int64_t)pos;
		if (d[pos] != EV_STRING)
			return (bad_at(w, at, b->gen, b->no, err, "expected a "
			    "string event, found event type %d", d[pos]));
		pos++;
		DNEED(uvarint(d, len, &pos, &id), "string id");
		DNEED(uvarint(d, len, &pos, &n), "string length");
		if (n > MAX_STRING)
			return (bad_at(w, at, b->gen, b->no, err, "invalid "
			    "string size %" PRIu64 ", maximum is %d", n,
			    MAX_STRING));
		if (len - pos < n)
			return (bad_at(w, at, b->gen, b->no, err, "string %"
			    PRIu64 " runs past the end of its batch", id));
		if (id == 0 || tr_imap_get(&w->strings, id) != NULL)
			return (bad_at(w, at, b->gen, b->no, err, "multiple "
			    "strings with the same ID: id=%" PRIu64, id));
		tr_imap_put(&w->strings, id,
		    tr_xstrndup((const char *)d + pos, (size_t)n));
		pos += (size_t)n;
	}
	return (0);
}

static int
add_stacks(struct nw *w, const struct vbatch *b, const unsigned char *d,
    struct tr_error *err)
{
	struct vstack	*s;
	struct pcframe	*f;
	size_t		 pos = 1, len = (size_t)b->size, i;
	uint64_t	 id, n, v[4];
	int64_t		 at;
	int		 k;

	while (pos < len) {
		at = b->data_off + (int64_t)pos;
		if (d[pos] != EV_STACK)
			return (bad_at(w, at, b->gen, b->no, err, "expected a "
			    "stack event, found event type %d", d[pos]));
		pos++;
		DNEED(uvarint(d, len, &pos, &id), "stack id");
		DNEED(uvarint(d, len, &pos, &n), "stack size");
		if (n > MAX_FRAMES)
			return (bad_at(w, at, b->gen, b->no, err, "invalid "
			    "stack size %" PRIu64 ", maximum is %d", n,
			    MAX_FRAMES));
		if (id == 0 || tr_imap_get(&w->stacks, id) != NULL)
			return (bad_at(w, at, b->gen, b->no, err, "multiple "
			    "stacks with the same ID: id=%" PRIu64, id));
		s = tr_xcalloc(1, sizeof *s);
		s->pcs = tr_xcalloc(n ? n : 1, sizeof *s->pcs);
		s->n = (size_t)n;
		s->off = at;
		s->batch = b->no;
		tr_imap_put(&w->stacks, id, s);
		for (i = 0; i < n; i++) {
			for (k = 0; k < 4; k++)
				DNEED(uvarint(d, len, &pos, &v[k]),
				    "stack frame");
			s->pcs[i] = v[0];
			if (tr_imap_get(&w->pcs, v[0]) == NULL) {
				f = tr_xcalloc(1, sizeof *f);
				f->fn = v[1];
				f->file = v[2];
				f->line = v[3];
				tr_imap_put(&w->pcs, v[0], f);
			}
		}
	}
	return (0);
}

static int
add_samples(struct nw *w, const struct vbatch *b, const unsigned char *d,
    struct tr_error *err)
{
	struct cpusample	*s;
	size_t			 pos = 1, len = (size_t)b->size;
	uint64_t		 v[5];
	int64_t			 at;
	int			 k;

	while (pos < len) {
		at = b->data_off + (int64_t)pos;
		if (d[pos] != EV_CPU_SAMPLE)
			return (bad_at(w, at, b->gen, b->no, err, "expected a "
			    "CPU sample event, found event type %d", d[pos]));
		pos++;
		for (k = 0; k < 5; k++)
			DNEED(uvarint(d, len, &pos, &v[k]), "CPU sample");
		if (w->nsamples == w->capsamples) {
			w->capsamples = w->capsamples ? w->capsamples * 2 : 64;
			w->samples = tr_xrealloc(w->samples,
			    w->capsamples * sizeof *w->samples);
		}
		s = &w->samples[w->nsamples];
		s->time = (int64_t)v[0];	/* ticks until the end */
		s->m = v[1];
		s->p = v[2];
		s->g = v[3];
		s->stack = v[4];
		s->off = at;
		s->batch = b->no;
		s->idx = w->nsamples++;
	}
	return (0);
}

static int
set_freq(struct nw *w, const struct vbatch *b, int64_t at, uint64_t f,
    struct tr_error *err)
{
	if (w->have_freq)
		return (bad_at(w, at, b->gen, b->no, err, "found multiple "
		    "frequency events"));
	if (f == 0)
		return (bad_at(w, at, b->gen, b->no, err, "invalid "
		    "frequency 0"));
	w->freq = 1.0 / ((double)f / 1e9);
	w->freq_raw = f;
	w->have_freq = 1;
	return (0);
}

static int64_t
mul(const struct nw *w, uint64_t t)
{
	return ((int64_t)((double)t * w->freq));
}

/* Whether 't' ticks are a time that fits, with room for sums. */
static int
in_range(const struct nw *w, uint64_t t)
{
	return ((double)t * w->freq < (double)TIME_MAX);
}

static int
add_sync(struct nw *w, const struct vbatch *b, const unsigned char *d,
    struct tr_error *err)
{
	size_t		 pos = 1, len = (size_t)b->size;
	uint64_t	 v[4];
	int64_t		 at;
	int		 k;
	json_t		*o;

	while (pos < len) {
		at = b->data_off + (int64_t)pos;
		if (d[pos] == EV_FREQUENCY) {
			pos++;
			DNEED(uvarint(d, len, &pos, &v[0]), "frequency");
			if (set_freq(w, b, at, v[0], err) != 0)
				return (-1);
		} else if (d[pos] == EV_CLOCK_SNAPSHOT) {
			pos++;
			for (k = 0; k < 4; k++)
				DNEED(uvarint(d, len, &pos, &v[k]),
				    "clock snapshot");
			if (!w->have_freq)
				return (bad_at(w, at, b->gen, b->no, err,
				    "clock snapshot before the frequency"));
			if (!in_range(w, b->time) || !in_range(w, v[0]))
				return (bad_at(w, at, b->gen, b->no, err,
				    "clock snapshot time out of range"));
			if (w->nsnapshots++ < MAX_SNAPSHOTS) {
				/* Trace time, CLOCK_MONOTONIC, wall clock. */
				o = json_object();
				json_object_set_new(o, "generation",
				    json_integer((json_int_t)b->gen));
				json_object_set_new(o, "trace_ns", json_integer(
				    mul(w, b->time) + mul(w, v[0])));
				json_object_set_new(o, "mono_ns",
				    json_integer((json_int_t)v[1]));
				json_object_set_new(o, "wall_ns", json_integer(
				    (json_int_t)(v[2] * 1000000000 + v[3])));
				json_array_append_new(w->snapshots, o);
			}
		} else
			return (bad_at(w, at, b->gen, b->no, err, "unexpected "
			    "event type %d in a sync batch", d[pos]));
	}
	return (0);
}

/* Take one batch of the current generation. */
static int
add_batch(struct nw *w, struct vbatch *b, const unsigned char *d,
    struct tr_error *err)
{
	struct vbatch	*nb;
	size_t		 pos = 0;
	uint64_t	 f;

	if (b->exp > 0)
		return (0);	/* experimental data: skipped */
	if (b->size > 0 && d[0] == EV_STRINGS)
		return (add_strings(w, b, d, err));
	if (b->size > 0 && d[0] == EV_STACKS)
		return (add_stacks(w, b, d, err));
	if (b->size > 0 && d[0] == EV_CPU_SAMPLES)
		return (add_samples(w, b, d, err));
	if (b->size > 0 && d[0] == EV_FREQUENCY && w->ver < 1025) {
		pos = 1;
		DNEED(uvarint(d, (size_t)b->size, &pos, &f), "frequency");
		return (set_freq(w, b, b->data_off, f, err));
	}
	if (b->size > 0 && d[0] == EV_SYNC && w->ver >= 1025)
		return (add_sync(w, b, d, err));
	/* An event batch: to the temporary file until the merge. */
	if (pwrite(w->spill_fd, d, (size_t)b->size, w->spill_len) !=
	    (ssize_t)b->size)
		return (tr_error_set(err, TR_EIO, "cannot write a temporary "
		    "file: %s", strerror(errno)));
	if (w->nbatches_gen == w->capbatches) {
		w->capbatches = w->capbatches ? w->capbatches * 2 : 64;
		w->batches = tr_xrealloc(w->batches,
		    w->capbatches * sizeof *w->batches);
	}
	nb = &w->batches[w->nbatches_gen++];
	*nb = *b;
	nb->spill = w->spill_len;
	w->spill_len += (int64_t)b->size;
	return (0);
}

/*
 * Read the batches of the next generation.  Returns 1 when there is one,
 * 0 at the end of the input, -1 on error.  An error reading the first
 * batch of the generation after is kept for later, as Go does: this one
 * is processed first.
 */
static int
read_generation(struct nw *w, struct tr_error *err)
{
	struct vbatch		 b;
	const unsigned char	*d = NULL;
	int			 r, any = 0;

	gen_reset(w);
	if (w->held_err) {
		*err = w->held_error;
		return (-1);
	}
	w->gen = 0;
	if (w->held != NULL) {
		w->gen = w->heldb.gen;
		any = 1;
		r = add_batch(w, &w->heldb, w->held, err);
		free(w->held);
		w->held = NULL;
		if (r != 0)
			return (-1);
	}
	for (;;) {
		tr_error_init(&w->held_error);
		r = read_batch(w, &b, &d, &w->held_error);
		if (r == 0)
			break;
		if (r < 0) {
			if (w->gen != 0) {
				w->held_err = 1;
				break;
			}
			*err = w->held_error;
			return (-1);
		}
		if (b.exp < 0) {
			if (w->gen == 0)
				continue;
			break;
		}
		if (b.gen == 0)
			return (bad_at(w, b.off, 0, 0, err, "batch %" PRId64
			    ": invalid generation number 0", b.no));
		if (w->gen == 0)
			w->gen = b.gen;
		if (b.gen == w->gen + 1) {
			w->heldb = b;
			w->held = tr_xmalloc(b.size ? (size_t)b.size : 1);
			memcpy(w->held, d, (size_t)b.size);
			break;
		}
		if (b.gen != w->gen)
			return (bad_at(w, b.off, b.gen, b.no, err,
			    "generations out of order (after generation %"
			    PRIu64 ")", w->gen));
		if (!w->have_mints || b.time < w->mints) {
			w->mints = b.time;
			w->have_mints = 1;
		}
		any = 1;
		if (add_batch(w, &b, d, err) != 0)
			return (-1);
	}
	if (!any)
		return (0);
	if (!w->have_freq)
		return (bad_at(w, w->rbase + (int64_t)w->rpos, w->gen, 0, err,
		    "generation %" PRIu64 ": no frequency event found",
		    w->gen));
	return (1);
}

/* Resolve the generation's stacks into call sites. */
static int
resolve_stacks(struct nw *w, struct tr_error *err)
{
	struct vstack	*s;
	struct pcframe	*f;
	struct tr_frame	 fr;
	const char	*fn, *file;
	int64_t		*ids = NULL;
	size_t		 i, k, cap = 0;

	for (i = 0; i < w->stacks.cap; i++) {
		if (w->stacks.slots[i].val == NULL)
			continue;
		s = w->stacks.slots[i].val;
		if (s->n > cap) {
			cap = s->n;
			ids = tr_xrealloc(ids, cap * sizeof *ids);
		}
		for (k = 0; k < s->n; k++) {
			f = tr_imap_get(&w->pcs, s->pcs[k]);
			fn = f->fn ? tr_imap_get(&w->strings, f->fn) :
			    "";
			file = f->file ? tr_imap_get(&w->strings,
			    f->file) : "";
			if (fn == NULL || file == NULL) {
				free(ids);
				return (bad_at(w, s->off, w->gen, s->batch,
				    err, "found invalid %s string ID %" PRIu64
				    " for stack %" PRIu64, fn == NULL ?
				    "func" : "file", fn == NULL ? f->fn :
				    f->file, w->stacks.slots[i].key));
			}
			memset(&fr, 0, sizeof fr);
			fr.name = *fn ? fn : "?";
			fr.name_len = strlen(fr.name);
			fr.file = file;
			fr.file_len = strlen(file);
			fr.line = (int64_t)f->line;
			if ((ids[s->n - 1 - k] = tr_writer_add_frame(w->wr,
			    &fr, err)) < 0) {
				free(ids);
				return (-1);
			}
			if (k == 0)
				s->leaf = fn;
		}
		if ((s->cs = tr_writer_add_stack(w->wr, ids, s->n, err)) <
		    0) {
			free(ids);
			return (-1);
		}
	}
	free(ids);
	return (0);
}

/* --- cursors over the per-M batches ---------------------------------- */

static int
load_batch(struct nw *w, struct cursor *c, struct tr_error *err)
{
	const struct vbatch	*b = &w->batches[c->cur];
	ssize_t			 got;

	c->buf = tr_xrealloc(c->buf, b->size ? (size_t)b->size : 1);
	got = pread(w->spill_fd, c->buf, (size_t)b->size, b->spill);
	if (got != (ssize_t)b->size)
		return (tr_error_set(err, TR_EIO, "cannot read back a "
		    "temporary file: %s", got < 0 ? strerror(errno) :
		    "short read"));
	c->len = (size_t)b->size;
	c->pos = 0;
	c->started = 0;
	return (0);
}

/* The cursor's next event (c->has), or none left. */
static int
next_event(struct nw *w, struct cursor *c, struct tr_error *err)
{
	const struct vbatch	*b;
	struct nev		*e = &c->ev;
	size_t			 pos;
	uint64_t		 dt;
	int			 type, i, r;

	c->has = 0;
	for (;;) {
		if (c->cur < 0 || c->pos == c->len) {
			c->cur = c->cur < 0 ? c->first :
			    w->batches[c->cur].next;
			if (c->cur < 0)
				return (0);
			if (load_batch(w, c, err) != 0)
				return (-1);
			continue;
		}
		break;
	}
	b = &w->batches[c->cur];
	memset(e, 0, sizeof *e);
	e->off = b->data_off + (int64_t)c->pos;
	e->batch = b->no;
	if (!c->started) {
		if (!in_range(w, b->time))
			return (BAD(e, "batch time %" PRIu64 " out of range",
			    b->time));
		c->lastts = mul(w, b->time);
		c->started = 1;
	}
	type = c->buf[c->pos];
	if ((type > max_type(w->ver) && (type <= 127 || type >= EV_EXP_END ||
	    w->ver < 1023)) || specs[type].name == NULL)
		return (BAD(e, "found invalid event type: %d", type));
	if (!specs[type].timed)
		return (BAD(e, "found event without a timestamp: type=%s",
		    specs[type].name));
	e->type = type;
	pos = c->pos + 1;
	for (i = 0; i < specs[type].nargs; i++) {
		r = uvarint(c->buf, c->len, &pos, i == 0 ? &dt :
		    &e->args[i - 1]);
		if (r <= 0)
			return (BAD(e, "event %s: "
			    "%s", specs[type].name, r == 0 ?
			    "truncated event" : "malformed varint"));
	}
	if (!in_range(w, dt) || mul(w, dt) > TIME_MAX - c->lastts)
		return (BAD(e, "event %s: time out of range",
		    specs[type].name));
	e->time = mul(w, dt) + c->lastts;
	c->lastts = e->time;
	c->pos = pos;
	c->has = 1;
	return (0);
}

static int
cur_less(const struct cursor *a, const struct cursor *b)
{
	return (a->ev.time < b->ev.time);
}

static void
front_swap(struct nw *w, size_t i, size_t j)
{
	struct cursor	*t = w->front[i];

	w->front[i] = w->front[j];
	w->front[j] = t;
}

static size_t
sift_up(struct nw *w, size_t i)
{
	while (i > 0 && cur_less(w->front[i], w->front[(i - 1) / 2])) {
		front_swap(w, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return (i);
}

static void
sift_down(struct nw *w, size_t i)
{
	size_t	m, l;

	for (;;) {
		m = i;
		l = 2 * i + 1;
		if (l < w->nfront && cur_less(w->front[l], w->front[m]))
			m = l;
		if (l + 1 < w->nfront && cur_less(w->front[l + 1],
		    w->front[m]))
			m = l + 1;
		if (m == i)
			return;
		front_swap(w, i, m);
		i = m;
	}
}

static void
front_remove(struct nw *w, size_t i)
{
	while (i > 0) {
		front_swap(w, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	w->front[0] = w->front[--w->nfront];
	sift_down(w, 0);
}

/* Stable: equal times keep the order of the Ms' first batches. */
static int
cmp_front(const void *a, const void *b)
{
	const struct cursor	*x = *(struct cursor *const *)a;
	const struct cursor	*y = *(struct cursor *const *)b;

	if (x->ev.time != y->ev.time)
		return (x->ev.time < y->ev.time ? -1 : 1);
	return (x < y ? -1 : x > y);
}

/* --- the ordering ---------------------------------------------------- */

static void
push(struct nw *w, const struct nev *e, const struct ctx *c)
{
	struct nev	*n;
	size_t		 i;

	if (w->qlen == w->qcap) {
		struct nev	*q = tr_xcalloc(w->qcap ? w->qcap * 2 : 8,
		    sizeof *q);

		for (i = 0; i < w->qlen; i++)
			q[i] = w->queue[(w->qhead + i) % w->qcap];
		free(w->queue);
		w->queue = q;
		w->qhead = 0;
		w->qcap = w->qcap ? w->qcap * 2 : 8;
	}
	n = &w->queue[(w->qhead + w->qlen++) % w->qcap];
	*n = *e;
	n->ctx = *c;
}

enum { NOT = 0, MAY = 1, MUST = 2 };

static int
need(struct nw *w, const struct nev *e, const struct ctx *c, int m, int p,
    int g, struct tr_error *err)
{
	if (m == MUST && c->m == NO_ID)
		return (BAD(e, "event %s: expected a thread but didn't have "
		    "one",
		    ev_name(e->type)));
	if (m == NOT && c->m != NO_ID)
		return (BAD(e, "event %s: expected no thread but had one",
		    ev_name(e->type)));
	if (p == MUST && c->p == NO_ID)
		return (BAD(e, "event %s: expected a proc but didn't have one",
		    ev_name(e->type)));
	if (p == NOT && c->p != NO_ID)
		return (BAD(e, "event %s: expected no proc but had one",
		    ev_name(e->type)));
	if (g == MUST && c->g == NO_ID)
		return (BAD(e, "event %s: expected a goroutine but didn't "
		    "have one", ev_name(e->type)));
	if (g == NOT && c->g != NO_ID)
		return (BAD(e, "event %s: expected no goroutine but had one",
		    ev_name(e->type)));
	return (0);
}

#define USER_GO(c)	need(w, e, (c), MUST, MUST, MUST, err)

static struct vg *
vg_get(struct nw *w, uint64_t g)
{
	return (tr_imap_get(&w->gs, g));
}

static struct vp *
vp_get(struct nw *w, uint64_t p)
{
	return (tr_imap_get(&w->ps, p));
}

static void
vg_free(void *p)
{
	struct vg	*g = p;

	size_t	i;

	if (g == NULL)
		return;
	for (i = 0; i < g->nregions; i++)
		free(g->rnames[i]);
	free(g->regions);
	free(g->rnames);
	free(g);
}

/* seq (in generation gen) comes right after (sgen, seq0)? */
static int
succeeds(uint64_t gen, uint64_t seq, uint64_t sgen, uint64_t seq0)
{
	return (gen == sgen && seq == seq0 + 1);
}

static const char *const gstatus_names[] = {
	"Bad", "Runnable", "Running", "Syscall", "Waiting"
};
static const char *const pstatus_names[] = {
	"Bad", "Running", "Idle", "Syscall", "SyscallAbandoned"
};

static const char *
gsn(int s)
{
	return (s >= 0 && s <= GO_WAITING ? gstatus_names[s] : "Bad");
}

static const char *
psn(int s)
{
	return (s >= 0 && s <= P_SYSCALL_ABANDONED ? pstatus_names[s] : "Bad");
}

/*
 * The current goroutine, which must exist and be in state 'want' (as
 * order.go checks it before most goroutine events); NULL with 'err' set
 * otherwise.
 */
static struct vg *
cur_go(struct nw *w, const struct nev *e, const struct ctx *cur, int want,
    struct tr_error *err)
{
	struct vg	*g;

	if ((g = vg_get(w, cur->g)) == NULL) {
		BAD(e, "event %s for goroutine (%" PRIu64 ") that doesn't "
		    "exist", ev_name(e->type), cur->g);
		return (NULL);
	}
	if (g->status != want) {
		BAD(e, "event %s for goroutine that's not %s",
		    ev_name(e->type), gsn(want));
		return (NULL);
	}
	return (g);
}

/* The current P, which must be known; NULL with 'err' set otherwise. */
static struct vp *
cur_proc(struct nw *w, const struct nev *e, const struct ctx *cur,
    struct tr_error *err)
{
	struct vp	*p;

	if ((p = vp_get(w, cur->p)) == NULL)
		BAD(e, "uninitialized proc %" PRId64 " found during %s",
		    (int64_t)cur->p, ev_name(e->type));
	return (p);
}

/* Ranges bound to a goroutine or P: a small set of begin types. */
static int
range_has(const int *r, int n, int type, uint64_t desc)
{
	int	i;

	for (i = 0; i < n; i++)
		if (r[i] == type && (desc == UINT64_MAX || 1))
			return (1);
	(void)desc;
	return (0);
}

static int
range_begin(struct nw *w, const struct nev *e, int *r, uint64_t *d, int *n,
    int type, uint64_t desc, struct tr_error *err)
{
	if (range_has(r, *n, type, desc))
		return (BAD(e, "discovered event already in-flight for when "
		    "starting event %s", ev_name(type)));
	if (*n == 4)
		return (BAD(e, "too many ranges in flight"));
	r[*n] = type;
	d[(*n)++] = desc;
	return (0);
}

static int
range_active(struct nw *w, const struct nev *e, int *r, uint64_t *d, int *n,
    int type, struct tr_error *err)
{
	if (w->gen == w->initial_gen) {
		if (range_has(r, *n, type, 0))
			return (BAD(e, "found named active range already in "
			    "first gen: %s", ev_name(type)));
		return (range_begin(w, e, r, d, n, type, 0, err));
	}
	if (!range_has(r, *n, type, 0))
		return (BAD(e, "resource is missing active range: %s",
		    ev_name(type)));
	return (0);
}

static int
range_end(struct nw *w, const struct nev *e, int *r, uint64_t *d, int *n,
    int start, uint64_t *desc, struct tr_error *err)
{
	int	i;

	for (i = 0; i < *n; i++)
		if (r[i] == start)
			break;
	if (i == *n)
		return (BAD(e, "tried to end event %s, but not in-flight",
		    ev_name(start)));
	if (desc != NULL)
		*desc = d[i];
	r[i] = r[*n - 1];
	d[i] = d[*n - 1];
	(*n)--;
	return (0);
}

static const char *
str_get(struct nw *w, uint64_t id)
{
	return (id == 0 ? "" : tr_imap_get(&w->strings, id));
}

/*
 * Advancing an event, a handler per event type as Go's own
 * internal/trace/order.go has: each checks that event 'e' can happen now
 * in context 'cur' (its thread's P and goroutine, which a handler may
 * point elsewhere, such as where a stolen P was bound), updates the
 * state it orders by, queues the event (push()) and sets 'nc', the
 * thread's context after it.  Returns 1 when the event went to the queue,
 * 0 when its turn has not come (nothing changed), -1 on an error.
 */

/* PROC_STATUS */
static int
adv_proc_status(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vp	*p;
	uint64_t	 id;
	int		 status;

	id = e->args[0];
	status = (int)e->args[1];
	if (e->args[1] > P_SYSCALL_ABANDONED || status == P_BAD)
		return (BAD(e, "invalid status for proc %" PRIu64
		    ": %d", id, status));
	if ((p = vp_get(w, id)) != NULL) {
		if (status == P_SYSCALL_ABANDONED &&
		    p->status == P_SYSCALL) {
			e->args[1] = P_SYSCALL;
			e->extra = 1;	/* it was running */
		} else if (status == P_SYSCALL_ABANDONED &&
		    p->status == P_SYSCALL_ABANDONED) {
			e->args[1] = P_SYSCALL_ABANDONED;
		} else if (p->status != status)
			return (BAD(e, "inconsistent status for proc %"
			    PRIu64 ": old %s vs. new %s", id,
			    psn(p->status), psn(status)));
		p->sgen = w->gen;
		p->seq = 0;
	} else {
		p = tr_xcalloc(1, sizeof *p);
		p->status = status;
		p->sgen = w->gen;
		tr_imap_put(&w->ps, id, p);
	}
	if (status == P_RUNNING || status == P_SYSCALL)
		nc->p = id;
	if (status == P_SYSCALL_ABANDONED && e->extra) {
		/* Emit it where the P is bound. */
		size_t	i;
		int	found = 0;

		for (i = 0; i < w->ms.cap; i++) {
			struct vm	*x;

			if (w->ms.slots[i].val == NULL)
				continue;
			x = w->ms.slots[i].val;
			if (x->p == id) {
				cur->m = w->ms.slots[i].key;
				cur->p = id;
				cur->g = x->g;
				found = 1;
			}
		}
		if (!found)
			return (BAD(e, "failed to find sched context "
			    "for proc %" PRIu64 " that's about to be "
			    "stolen", id));
	}
	push(w, e, cur);
	return (1);
}

/* PROC_START */
static int
adv_proc_start(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vp	*p;
	uint64_t	 id, seq;

	id = e->args[0];
	seq = e->args[1];
	p = vp_get(w, id);
	if (p == NULL || p->status != P_IDLE ||
	    !succeeds(w->gen, seq, p->sgen, p->seq) || cur->p != NO_ID)
		return (0);
	if (need(w, e, cur, MUST, NOT, MAY, err) != 0)
		return (-1);
	p->status = P_RUNNING;
	p->sgen = w->gen;
	p->seq = seq;
	nc->p = id;
	push(w, e, cur);
	return (1);
}

/* PROC_STOP */
static int
adv_proc_stop(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vp	*p;

	if ((p = vp_get(w, cur->p)) == NULL)
		return (BAD(e, "event ProcStop for proc (%" PRId64
		    ") that doesn't exist", (int64_t)cur->p));
	if (p->status != P_RUNNING && p->status != P_SYSCALL)
		return (BAD(e, "event ProcStop for proc that's not "
		    "Running or Syscall"));
	if (need(w, e, cur, MUST, MUST, MAY, err) != 0)
		return (-1);
	p->status = P_IDLE;
	nc->p = NO_ID;
	push(w, e, cur);
	return (1);
}

/* PROC_STEAL */
static int
adv_proc_steal(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vp	*p;
	uint64_t	 id, seq, mid;
	int		 status;

	id = e->args[0];
	seq = e->args[1];
	p = vp_get(w, id);
	if (p == NULL || (p->status != P_SYSCALL &&
	    p->status != P_SYSCALL_ABANDONED) ||
	    !succeeds(w->gen, seq, p->sgen, p->seq))
		return (0);
	if (need(w, e, cur, MUST, MAY, MAY, err) != 0)
		return (-1);
	status = p->status;
	p->status = P_IDLE;
	p->sgen = w->gen;
	p->seq = seq;
	e->extra = NO_ID;
	if (status == P_SYSCALL_ABANDONED) {
		push(w, e, cur);
		return (1);
	}
	mid = e->args[2];
	if (mid == cur->m) {
		if (cur->p != id)
			return (BAD(e, "tried to self-steal proc %"
			    PRIu64 " (thread %" PRIu64 "), but got "
			    "proc %" PRId64 " instead", id, mid,
			    (int64_t)cur->p));
		nc->p = NO_ID;
		e->extra = cur->g;
		push(w, e, cur);
		return (1);
	}
	{
		struct vm	*x = tr_imap_get(&w->ms, mid);

		if (x == NULL)
			return (BAD(e, "stole proc from non-existent "
			    "thread %" PRIu64, mid));
		if (x->p != id)
			return (BAD(e, "tried to steal proc %" PRIu64
			    " from thread %" PRIu64 ", but got proc %"
			    PRId64 " instead", id, mid, (int64_t)x->p));
		x->p = NO_ID;
		e->extra = x->g;
	}
	push(w, e, cur);
	return (1);
}

/* GO_STATUS, GO_STATUS_STACK */
static int
adv_go_status(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	uint64_t	 id, mid;
	int		 status;

	id = e->args[0];
	mid = e->args[1];
	status = (int)e->args[2];
	if (e->args[2] > GO_WAITING || status == GO_BAD)
		return (BAD(e, "invalid status for goroutine %" PRIu64
		    ": %d", id, status));
	if ((g = vg_get(w, id)) != NULL) {
		if (g->status != status)
			return (BAD(e, "inconsistent status for "
			    "goroutine %" PRIu64 ": old %s vs. new %s",
			    id, gsn(g->status), gsn(status)));
		g->sgen = w->gen;
		g->seq = 0;
		e->extra = 0;
	} else if (w->gen == w->initial_gen) {
		g = tr_xcalloc(1, sizeof *g);
		g->status = status;
		g->sgen = w->gen;
		tr_imap_put(&w->gs, id, g);
		e->extra = 1;	/* new to us */
	} else
		return (BAD(e, "found goroutine status for new "
		    "goroutine after the first generation: id=%" PRIu64
		    " status=%s", id, gsn(status)));
	if (status == GO_RUNNING)
		nc->g = id;
	else if (status == GO_SYSCALL) {
		if (mid == NO_ID)
			return (BAD(e, "found goroutine %" PRIu64
			    " in syscall without a thread", id));
		if (mid == cur->m) {
			if (w->gen != w->initial_gen && cur->g != id)
				return (BAD(e, "inconsistent thread "
				    "for syscalling goroutine %" PRIu64
				    ": thread has goroutine %" PRId64,
				    id, (int64_t)cur->g));
			nc->g = id;
		} else {
			struct vm	*x = tr_imap_get(&w->ms,
			    mid);

			if (x != NULL) {
				if (x->g != id)
					return (BAD(e, "inconsistent "
					    "thread for syscalling "
					    "goroutine %" PRIu64 ": "
					    "thread has goroutine %"
					    PRId64, id, (int64_t)x->g));
				cur->g = x->g;
			} else {
				x = tr_xcalloc(1, sizeof *x);
				x->g = id;
				x->p = NO_ID;
				tr_imap_put(&w->ms, mid, x);
			}
			cur->m = mid;
		}
	}
	push(w, e, cur);
	return (1);
}

/* GO_CREATE, GO_CREATE_BLOCKED */
static int
adv_go_create(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	uint64_t	 id;

	(void)nc;
	if (need(w, e, cur, MUST, MUST, MAY, err) != 0)
		return (-1);
	if ((g = vg_get(w, cur->g)) != NULL && g->status != GO_RUNNING)
		return (BAD(e, "event %s for goroutine that's not "
		    "Running", ev_name(e->type)));
	id = e->args[0];
	if (vg_get(w, id) != NULL)
		return (BAD(e, "tried to create goroutine (%" PRIu64
		    ") that already exists", id));
	g = tr_xcalloc(1, sizeof *g);
	g->status = e->type == EV_GO_CREATE ? GO_RUNNABLE : GO_WAITING;
	g->sgen = w->gen;
	tr_imap_put(&w->gs, id, g);
	push(w, e, cur);
	return (1);
}

/* GO_DESTROY, GO_STOP, GO_BLOCK */
static int
adv_go_stop(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;

	if (USER_GO(cur) != 0)
		return (-1);
	if ((g = cur_go(w, e, cur, GO_RUNNING, err)) == NULL)
		return (-1);
	nc->g = NO_ID;
	push(w, e, cur);
	if (e->type == EV_GO_DESTROY)
		vg_free(tr_imap_del(&w->gs, cur->g));
	else
		g->status = e->type == EV_GO_STOP ? GO_RUNNABLE :
		    GO_WAITING;
	return (1);
}

/* GO_START */
static int
adv_go_start(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	uint64_t	 id, seq;

	id = e->args[0];
	seq = e->args[1];
	g = vg_get(w, id);
	if (g == NULL || g->status != GO_RUNNABLE ||
	    !succeeds(w->gen, seq, g->sgen, g->seq))
		return (0);
	if (need(w, e, cur, MUST, MUST, NOT, err) != 0)
		return (-1);
	g->status = GO_RUNNING;
	g->sgen = w->gen;
	g->seq = seq;
	nc->g = id;
	push(w, e, cur);
	return (1);
}

/* GO_UNBLOCK */
static int
adv_go_unblock(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	uint64_t	 id, seq;

	(void)nc;
	(void)err;
	id = e->args[0];
	seq = e->args[1];
	g = vg_get(w, id);
	if (g == NULL || g->status != GO_WAITING ||
	    !succeeds(w->gen, seq, g->sgen, g->seq))
		return (0);
	g->status = GO_RUNNABLE;
	g->sgen = w->gen;
	g->seq = seq;
	push(w, e, cur);
	return (1);
}

/* GO_SWITCH, GO_SWITCH_DESTROY */
static int
adv_go_switch(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g, *ng;
	uint64_t	 id, seq;

	if (USER_GO(cur) != 0)
		return (-1);
	if ((g = cur_go(w, e, cur, GO_RUNNING, err)) == NULL)
		return (-1);
	id = e->args[0];
	seq = e->args[1];
	ng = vg_get(w, id);
	if (ng == NULL || ng->status != GO_WAITING ||
	    !succeeds(w->gen, seq, ng->sgen, ng->seq))
		return (0);
	push(w, e, cur);
	{
		struct nev	x = *e;
		struct ctx	sc = *cur;

		memset(x.args, 0, sizeof x.args);
		if (e->type == EV_GO_SWITCH) {
			g->status = GO_WAITING;
			x.type = EV_GO_BLOCK;
		} else {
			x.type = EV_GO_DESTROY;
			vg_free(tr_imap_del(&w->gs, cur->g));
		}
		push(w, &x, cur);
		ng->status = GO_RUNNING;
		ng->sgen = w->gen;
		ng->seq = seq;
		nc->g = id;
		x.type = EV_GO_START;
		x.args[0] = id;
		x.args[1] = seq;
		sc.g = NO_ID;
		push(w, &x, &sc);
	}
	return (1);
}

/* GO_SYSCALL_BEGIN */
static int
adv_go_syscall_begin(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	struct vp	*p;

	(void)nc;
	if (USER_GO(cur) != 0)
		return (-1);
	if ((g = cur_go(w, e, cur, GO_RUNNING, err)) == NULL)
		return (-1);
	g->status = GO_SYSCALL;
	if ((p = cur_proc(w, e, cur, err)) == NULL)
		return (-1);
	p->status = P_SYSCALL;
	if (!succeeds(w->gen, e->args[0], p->sgen, p->seq))
		return (BAD(e, "failed to advance %s: can't make "
		    "sequence: %" PRIu64 " (gen=%" PRIu64 ") -> %"
		    PRIu64 " (gen=%" PRIu64 ")", ev_name(e->type),
		    p->seq, p->sgen, e->args[0], w->gen));
	p->sgen = w->gen;
	p->seq = e->args[0];
	push(w, e, cur);
	return (1);
}

/* GO_SYSCALL_END */
static int
adv_go_syscall_end(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	struct vp	*p;

	(void)nc;
	if (USER_GO(cur) != 0)
		return (-1);
	if ((g = cur_go(w, e, cur, GO_SYSCALL, err)) == NULL)
		return (-1);
	g->status = GO_RUNNING;
	if ((p = cur_proc(w, e, cur, err)) == NULL)
		return (-1);
	if (p->status != P_SYSCALL)
		return (BAD(e, "expected proc %" PRId64 " in state "
		    "Syscall, but got %s instead", (int64_t)cur->p,
		    psn(p->status)));
	p->status = P_RUNNING;
	push(w, e, cur);
	return (1);
}

/* GO_SYSCALL_END_BLOCKED */
static int
adv_go_syscall_end_blocked(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	struct vp	*p;

	if (cur->p != NO_ID) {
		if ((p = cur_proc(w, e, cur, err)) == NULL)
			return (-1);
		if (p->status == P_SYSCALL)
			return (0);
	}
	if (need(w, e, cur, MUST, MAY, MUST, err) != 0)
		return (-1);
	if ((g = cur_go(w, e, cur, GO_SYSCALL, err)) == NULL)
		return (-1);
	nc->g = NO_ID;
	g->status = GO_RUNNABLE;
	push(w, e, cur);
	return (1);
}

/* GO_CREATE_SYSCALL */
static int
adv_go_create_syscall(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	uint64_t	 id;

	if (need(w, e, cur, MUST, MAY, NOT, err) != 0)
		return (-1);
	id = e->args[0];
	if (vg_get(w, id) != NULL)
		return (BAD(e, "tried to create goroutine (%" PRIu64
		    ") in syscall that already exists", id));
	g = tr_xcalloc(1, sizeof *g);
	g->status = GO_SYSCALL;
	g->sgen = w->gen;
	tr_imap_put(&w->gs, id, g);
	nc->g = id;
	push(w, e, cur);
	return (1);
}

/* GO_DESTROY_SYSCALL */
static int
adv_go_destroy_syscall(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	struct vp	*p;

	if (need(w, e, cur, MUST, MAY, MUST, err) != 0)
		return (-1);
	if ((g = cur_go(w, e, cur, GO_SYSCALL, err)) == NULL)
		return (-1);
	vg_free(tr_imap_del(&w->gs, cur->g));
	nc->g = NO_ID;
	if (cur->p != NO_ID) {
		struct nev	x = *e;

		if ((p = vp_get(w, cur->p)) == NULL)
			return (BAD(e, "found invalid proc %" PRId64
			    " during %s", (int64_t)cur->p,
			    ev_name(e->type)));
		if (p->status != P_SYSCALL)
			return (BAD(e, "proc %" PRId64 " in unexpected "
			    "state %s during %s", (int64_t)cur->p,
			    psn(p->status), ev_name(e->type)));
		p->status = P_SYSCALL_ABANDONED;
		nc->p = NO_ID;
		/* A self-steal: the P leaves with the goroutine. */
		memset(x.args, 0, sizeof x.args);
		x.type = EV_PROC_STEAL;
		x.args[0] = cur->p;
		x.args[2] = cur->m;
		x.extra = NO_ID;
		push(w, &x, cur);
	}
	push(w, e, cur);
	return (1);
}

/* TASK_BEGIN */
static int
adv_task_begin(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vtask	*t;
	const char	*s;
	uint64_t	 id;

	(void)nc;
	id = e->args[0];
	if (tr_imap_get(&w->tasks, id) != NULL)
		return (BAD(e, "task ID conflict: %" PRIu64, id));
	if ((s = str_get(w, e->args[2])) == NULL)
		return (BAD(e, "invalid string ID %" PRIu64 " for %s "
		    "event", e->args[2], ev_name(e->type)));
	t = tr_xcalloc(1, sizeof *t);
	t->name = tr_xstrdup(s);
	t->parent = e->args[1];
	tr_imap_put(&w->tasks, id, t);
	if (USER_GO(cur) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* TASK_END */
static int
adv_task_end(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vtask	*t;

	(void)nc;
	if ((t = tr_imap_del(&w->tasks, e->args[0])) != NULL) {
		free(t->name);
		free(t);
	}
	if (USER_GO(cur) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* REGION_BEGIN, REGION_END */
static int
adv_region(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	const char	*s;

	(void)nc;
	if (USER_GO(cur) != 0)
		return (-1);
	if ((s = str_get(w, e->args[1])) == NULL)
		return (BAD(e, "invalid string ID %" PRIu64 " for %s "
		    "event", e->args[1], ev_name(e->type)));
	if ((g = vg_get(w, cur->g)) == NULL)
		return (BAD(e, "encountered %s without known state for "
		    "current goroutine %" PRIu64, ev_name(e->type),
		    cur->g));
	if (e->type == EV_REGION_BEGIN) {
		if (g->nregions == g->capregions) {
			g->capregions = g->capregions ?
			    g->capregions * 2 : 4;
			g->regions = tr_xrealloc(g->regions,
			    g->capregions * sizeof *g->regions);
			g->rnames = tr_xrealloc(g->rnames,
			    g->capregions * sizeof *g->rnames);
		}
		g->regions[g->nregions] = e->args[0];
		g->rnames[g->nregions++] = tr_xstrdup(s);
	} else if (g->nregions > 0) {
		if (g->regions[g->nregions - 1] != e->args[0] ||
		    strcmp(g->rnames[g->nregions - 1], s) != 0)
			return (BAD(e, "misuse of region in goroutine %"
			    PRIu64 ": region end {%" PRIu64 " %s} when "
			    "the inner-most active region start event "
			    "is {%" PRIu64 " %s}", cur->g, e->args[0], s,
			    g->regions[g->nregions - 1],
			    g->rnames[g->nregions - 1]));
		free(g->rnames[--g->nregions]);
	}
	push(w, e, cur);
	return (1);
}

/*
 * The GC events' shared ordering (Go's order.go): the first GC event
 * seen sets the sequence and GC running; after it an event waits until
 * its sequence number follows the last one (0: not yet), must not come
 * in a state where bad[state] names the misuse, and moves the GC to
 * state 'to'.  Each handler keeps its own rules below.
 */
static int
gc_first(struct nw *w, struct nev *e, struct ctx *cur)
{
	w->gc_seq = e->args[0];
	w->gc_state = GC_RUNNING;
	push(w, e, cur);
	return (1);
}

static int
gc_next(struct nw *w, struct nev *e, struct ctx *cur,
    const char *const bad[3], int to, struct tr_error *err)
{
	if (e->args[0] != w->gc_seq + 1)
		return (0);
	if (bad[w->gc_state] != NULL)
		return (BAD(e, "%s", bad[w->gc_state]));
	w->gc_seq = e->args[0];
	w->gc_state = to;
	if (USER_GO(cur) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* GC_ACTIVE: first in the first generation, later only while running. */
static int
adv_gc_active(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	static const char *const bad[3] = {
		[GC_UNDETERMINED] = "encountered GCActive while GC was not "
		    "in progress",
		[GC_NOT_RUNNING] = "encountered GCActive while GC was not "
		    "in progress"
	};

	(void)nc;
	if (w->gen == w->initial_gen) {
		if (w->gc_state != GC_UNDETERMINED)
			return (BAD(e, "event GCActive in the first "
			    "generation isn't first GC event"));
		return (gc_first(w, e, cur));
	}
	return (gc_next(w, e, cur, bad, GC_RUNNING, err));
}

/* GC_BEGIN: may come first; never while a GC runs. */
static int
adv_gc_begin(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	static const char *const bad[3] = {
		[GC_RUNNING] = "encountered GCBegin while GC was already in "
		    "progress"
	};

	(void)nc;
	if (w->gc_state == GC_UNDETERMINED)
		return (gc_first(w, e, cur));
	return (gc_next(w, e, cur, bad, GC_RUNNING, err));
}

/* GC_END: only while a GC is known to run. */
static int
adv_gc_end(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	static const char *const bad[3] = {
		[GC_NOT_RUNNING] = "encountered GCEnd when GC was not in "
		    "progress",
		[GC_UNDETERMINED] = "encountered GCEnd when GC was in an "
		    "undetermined state"
	};

	(void)nc;
	return (gc_next(w, e, cur, bad, GC_NOT_RUNNING, err));
}

/* PROCS_CHANGE, GO_LABEL, USER_LOG */
static int
adv_user_go(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	(void)nc;
	if (USER_GO(cur) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* HEAP_ALLOC, HEAP_GOAL */
static int
adv_heap(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	(void)nc;
	if (need(w, e, cur, MUST, MUST, MAY, err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* SWEEP_BEGIN */
static int
adv_sweep_begin(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vp	*p;

	(void)nc;
	if (need(w, e, cur, MUST, MUST, MAY, err) != 0)
		return (-1);
	if ((p = cur_proc(w, e, cur, err)) == NULL)
		return (-1);
	if (range_begin(w, e, p->ranges, p->rdesc, &p->nranges,
	    EV_SWEEP_BEGIN, 0, err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* SWEEP_ACTIVE */
static int
adv_sweep_active(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vp	*p;

	(void)nc;
	if ((p = vp_get(w, e->args[0])) == NULL)
		return (BAD(e, "encountered GCSweepActive for unknown "
		    "proc %" PRIu64, e->args[0]));
	if (range_active(w, e, p->ranges, p->rdesc, &p->nranges,
	    EV_SWEEP_BEGIN, err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* SWEEP_END */
static int
adv_sweep_end(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vp	*p;

	(void)nc;
	if (need(w, e, cur, MUST, MUST, MAY, err) != 0)
		return (-1);
	if ((p = cur_proc(w, e, cur, err)) == NULL)
		return (-1);
	if (range_end(w, e, p->ranges, p->rdesc, &p->nranges,
	    EV_SWEEP_BEGIN, NULL, err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* STW_BEGIN, ASSIST_BEGIN */
static int
adv_g_range_begin(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;

	(void)nc;
	if (USER_GO(cur) != 0)
		return (-1);
	if ((g = vg_get(w, cur->g)) == NULL)
		return (BAD(e, "encountered event of type %d without "
		    "known state for current goroutine %" PRIu64,
		    e->type, cur->g));
	if (range_begin(w, e, g->ranges, g->rdesc, &g->nranges,
	    e->type, e->type == EV_STW_BEGIN ? e->args[0] : 0,
	    err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* ASSIST_ACTIVE */
static int
adv_assist_active(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;

	(void)nc;
	if ((g = vg_get(w, e->args[0])) == NULL)
		return (BAD(e, "uninitialized goroutine %" PRIu64
		    " found during %s", e->args[0], ev_name(e->type)));
	if (range_active(w, e, g->ranges, g->rdesc, &g->nranges,
	    EV_ASSIST_BEGIN, err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* STW_END, ASSIST_END */
static int
adv_g_range_end(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	struct vg	*g;
	uint64_t	 desc;

	(void)nc;
	if (USER_GO(cur) != 0)
		return (-1);
	if ((g = vg_get(w, cur->g)) == NULL)
		return (BAD(e, "encountered event of type %d without "
		    "known state for current goroutine %" PRIu64,
		    e->type, cur->g));
	if (range_end(w, e, g->ranges, g->rdesc, &g->nranges,
	    specs[e->type].start, &desc, err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

/* CLOCK_SNAPSHOT */
static int
adv_clock_snapshot(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	(void)cur;
	(void)nc;
	return (BAD(e, "event ClockSnapshot outside a sync batch"));
}

/* The experimental events (Go 1.23 AllocFree): a thread, in order. */
static int
adv_experimental(struct nw *w, struct nev *e, struct ctx *cur,
    struct ctx *nc, struct tr_error *err)
{
	(void)nc;
	if (need(w, e, cur, MUST, MAY, MAY, err) != 0)
		return (-1);
	push(w, e, cur);
	return (1);
}

static int (*const advancers[EV_COUNT])(struct nw *, struct nev *,
    struct ctx *, struct ctx *, struct tr_error *) = {
	[EV_PROC_STATUS] = adv_proc_status,
	[EV_PROC_START] = adv_proc_start,
	[EV_PROC_STOP] = adv_proc_stop,
	[EV_PROC_STEAL] = adv_proc_steal,
	[EV_GO_STATUS] = adv_go_status,
	[EV_GO_STATUS_STACK] = adv_go_status,
	[EV_GO_CREATE] = adv_go_create,
	[EV_GO_CREATE_BLOCKED] = adv_go_create,
	[EV_GO_DESTROY] = adv_go_stop,
	[EV_GO_STOP] = adv_go_stop,
	[EV_GO_BLOCK] = adv_go_stop,
	[EV_GO_START] = adv_go_start,
	[EV_GO_UNBLOCK] = adv_go_unblock,
	[EV_GO_SWITCH] = adv_go_switch,
	[EV_GO_SWITCH_DESTROY] = adv_go_switch,
	[EV_GO_SYSCALL_BEGIN] = adv_go_syscall_begin,
	[EV_GO_SYSCALL_END] = adv_go_syscall_end,
	[EV_GO_SYSCALL_END_BLOCKED] = adv_go_syscall_end_blocked,
	[EV_GO_CREATE_SYSCALL] = adv_go_create_syscall,
	[EV_GO_DESTROY_SYSCALL] = adv_go_destroy_syscall,
	[EV_TASK_BEGIN] = adv_task_begin,
	[EV_TASK_END] = adv_task_end,
	[EV_REGION_BEGIN] = adv_region,
	[EV_REGION_END] = adv_region,
	[EV_GC_ACTIVE] = adv_gc_active,
	[EV_GC_BEGIN] = adv_gc_begin,
	[EV_GC_END] = adv_gc_end,
	[EV_PROCS_CHANGE] = adv_user_go,
	[EV_GO_LABEL] = adv_user_go,
	[EV_USER_LOG] = adv_user_go,
	[EV_HEAP_ALLOC] = adv_heap,
	[EV_HEAP_GOAL] = adv_heap,
	[EV_SWEEP_BEGIN] = adv_sweep_begin,
	[EV_SWEEP_ACTIVE] = adv_sweep_active,
	[EV_SWEEP_END] = adv_sweep_end,
	[EV_STW_BEGIN] = adv_g_range_begin,
	[EV_ASSIST_BEGIN] = adv_g_range_begin,
	[EV_ASSIST_ACTIVE] = adv_assist_active,
	[EV_STW_END] = adv_g_range_end,
	[EV_ASSIST_END] = adv_g_range_end,
	[EV_CLOCK_SNAPSHOT] = adv_clock_snapshot,
};

/*
 * Try to advance event 'e' of thread 'm': 1 when it went to the queue
 * (and the thread's state moved on), 0 when its turn has not come, -1 on
 * an error.
 */
static int
advance(struct nw *w, struct nev *e, uint64_t m, struct tr_error *err)
{
	struct vm	*ms = NULL;
	struct ctx	 cur, nc;
	int		 r;

	cur.m = m;
	cur.p = cur.g = NO_ID;
	if (m != NO_ID) {
		if ((ms = tr_imap_get(&w->ms, m)) == NULL) {
			ms = tr_xcalloc(1, sizeof *ms);
			ms->g = ms->p = NO_ID;
			tr_imap_put(&w->ms, m, ms);
		}
		cur.p = ms->p;
		cur.g = ms->g;
	}
	nc = cur;
	if (e->type >= EV_SPAN)
		r = adv_experimental(w, e, &cur, &nc, err);
	else if (e->type < EV_COUNT && advancers[e->type] != NULL)
		r = advancers[e->type](w, e, &cur, &nc, err);
	else
		return (BAD(e, "bad event type found while ordering: %s",
		    ev_name(e->type)));
	if (r != 1)
		return (r);
	if (ms != NULL) {
		ms->p = nc.p;
		ms->g = nc.g;
	}
	return (1);
}

/* --- what each event means to the store ------------------------------ */

static int64_t
stack_cs(struct nw *w, uint64_t id, const char **leaf)
{
	struct vstack	*s;

	if (leaf != NULL)
		*leaf = NULL;
	if (id == 0 || (s = tr_imap_get(&w->stacks, id)) == NULL)
		return (0);
	if (leaf != NULL)
		*leaf = s->leaf;
	return (s->cs);
}

/* The normalised kind of a runtime wait reason. */
static const char *
block_cat(const char *r)
{
	static const struct {
		const char	*prefix;
		const char	*cat;
	} map[] = {
		{ "chan receive", TR_GO_REASON_CHAN_RECV },
		{ "chan send", TR_GO_REASON_CHAN_SEND },
		{ "select", TR_GO_REASON_SELECT },
		{ "sync.Cond", TR_GO_REASON_COND },
		{ "sync.(*Cond)", TR_GO_REASON_COND },
		{ "sync", TR_GO_REASON_SYNC },
		{ "semacquire", TR_GO_REASON_SYNC },
		{ "network", TR_GO_REASON_NET },
		{ "IO wait", TR_GO_REASON_NET },
		{ "sleep", TR_GO_REASON_SLEEP },
		{ "GC", TR_GO_REASON_GC },
		{ "forever", TR_GO_REASON_FOREVER },
		{ "system goroutine wait", TR_GO_REASON_OTHER },
	};
	size_t	i;

	for (i = 0; i < sizeof map / sizeof *map; i++)
		if (strncmp(r, map[i].prefix, strlen(map[i].prefix)) == 0)
			return (map[i].cat);
	return (TR_GO_REASON_OTHER);
}

/* "\"p\":P,\"m\":M" for a running slice, in w->b. */
static const char *
running_args(struct nw *w, const struct ctx *c, const char *label)
{
	tr_buf_reset(&w->b);
	if (c->p != NO_ID)
		tr_buf_printf(&w->b, "\"p\":%" PRIu64, c->p);
	if (c->m != NO_ID)
		tr_buf_printf(&w->b, "%s\"m\":%" PRIu64, w->b.len ? "," : "",
		    c->m);
	if (label != NULL) {
		tr_buf_printf(&w->b, "%s\"label\":", w->b.len ? "," : "");
		tr_gotrace_json_str(&w->b, label, strlen(label));
	}
	return (w->b.len ? w->b.data : NULL);
}

static struct vg *
sinkg(struct nw *w, uint64_t g)
{
	return (vg_get(w, g));
}

static int
deliver(struct nw *w, struct nev *e, struct tr_error *err)
{
	struct tr_gotrace_sink	*s = w->sink;
	const struct ctx	*c = &e->ctx;
	struct vg		*g;
	const char		*str, *leaf, *val;
	char			 args[160];
	int64_t			 ts = e->time, cs, cs2;
	uint64_t		 cg = c->g == NO_ID ? 0 : c->g;
	int			 k;

	/* Every stack and string the event names must exist. */
	for (k = 0; k < 2; k++) {
		int	i = specs[e->type].stk[k];

		if (i > 0 && e->args[i - 1] != 0 && tr_imap_get(
		    &w->stacks, e->args[i - 1]) == NULL)
			return (BAD(e, "found invalid stack ID %" PRIu64
			    " for event %s", e->args[i - 1],
			    ev_name(e->type)));
		i = specs[e->type].str[k];
		if (i > 0 && str_get(w, e->args[i - 1]) == NULL)
			return (BAD(e, "found invalid string ID %" PRIu64
			    " for event %s", e->args[i - 1],
			    ev_name(e->type)));
	}
	if (ts <= w->lastts)
		ts = w->lastts + 1;
	w->lastts = ts;
	e->time = ts;
	w->nevents++;
	if (tr_gotrace_hook != NULL) {
		struct tr_gotrace_event	h;
		int			i;

		memset(&h, 0, sizeof h);
		h.name = specs[e->type].name;
		h.ts = ts;
		h.p = c->p == NO_ID ? -1 : (int64_t)c->p;
		h.g = cg;
		h.off = e->off;
		h.nargs = specs[e->type].nargs - 1 > 4 ? 4 :
		    specs[e->type].nargs - 1;
		for (i = 0; i < h.nargs; i++) {
			h.argnames[i] = "";
			h.args[i] = e->args[i];
		}
		tr_gotrace_hook(tr_gotrace_hook_arg, &h);
	}

	switch (e->type) {
	case EV_PROC_STATUS:
		if (e->args[1] == P_RUNNING || e->args[1] == P_SYSCALL) {
			if (tr_gotrace_proc_m(s, (int64_t)e->args[0]) < 0 &&
			    tr_gotrace_proc_start(s, (int64_t)e->args[0], ts,
			    c->m == NO_ID ? -1 : (int64_t)c->m, err) != 0)
				return (-1);
		} else if (tr_gotrace_proc_stop(s, (int64_t)e->args[0], ts,
		    err) != 0)
			return (-1);
		break;
	case EV_PROC_START:
		return (tr_gotrace_proc_start(s, (int64_t)e->args[0], ts,
		    c->m == NO_ID ? -1 : (int64_t)c->m, err));
	case EV_PROC_STOP:
		return (tr_gotrace_proc_stop(s, (int64_t)c->p, ts, err));
	case EV_PROC_STEAL:
		if (e->extra != NO_ID && (g = sinkg(w, e->extra)) != NULL &&
		    !g->handoff && g->status == GO_SYSCALL) {
			g->handoff = 1;
			snprintf(args, sizeof args, "\"handoff\":true,"
			    "\"handoff_ts\":%" PRId64, ts);
			if (tr_gotrace_go_restate(s, e->extra,
			    TR_GOTRACE_BLOCKED, TR_GO_REASON_SYSCALL, g->sys_cs,
			    args, err) != 0)
				return (-1);
		}
		return (tr_gotrace_proc_stop(s, (int64_t)e->args[0], ts, err));
	case EV_GO_STATUS:
	case EV_GO_STATUS_STACK:
		if (!e->extra)
			break;	/* known since an earlier generation */
		cs = e->type == EV_GO_STATUS_STACK ?
		    stack_cs(w, e->args[3], NULL) : 0;
		switch (e->args[2]) {
		case GO_RUNNABLE:
			return (tr_gotrace_go_state(s, e->args[0], ts,
			    TR_GOTRACE_RUNNABLE, "start", cs, NULL, err));
		case GO_RUNNING:
			return (tr_gotrace_go_state(s, e->args[0], ts,
			    TR_GOTRACE_RUNNING, NULL, 0, running_args(w, c,
			    NULL), err));
		case GO_SYSCALL:
			if ((g = sinkg(w, e->args[0])) != NULL)
				g->sys_cs = cs;
			return (tr_gotrace_go_state(s, e->args[0], ts,
			    TR_GOTRACE_BLOCKED, TR_GO_REASON_SYSCALL, cs, NULL,
			    err));
		default:
			return (tr_gotrace_go_state(s, e->args[0], ts,
			    TR_GOTRACE_BLOCKED, TR_GO_REASON_UNKNOWN, cs, NULL,
			    err));
		}
	case EV_GO_CREATE:
	case EV_GO_CREATE_BLOCKED:
		cs = stack_cs(w, e->args[2], NULL);
		cs2 = stack_cs(w, e->args[1], &leaf);
		if (tr_gotrace_go_create(s, e->args[0], ts, cg, cs, cs2, leaf,
		    0, err) != 0)
			return (-1);
		if (e->type == EV_GO_CREATE_BLOCKED)
			return (tr_gotrace_go_restate(s, e->args[0],
			    TR_GOTRACE_BLOCKED, TR_GO_REASON_OTHER, cs, NULL,
			    err));
		break;
	case EV_GO_CREATE_SYSCALL:
		if (tr_gotrace_go_create(s, e->args[0], ts, 0, 0, 0, NULL, 0,
		    err) != 0)
			return (-1);
		return (tr_gotrace_go_restate(s, e->args[0],
		    TR_GOTRACE_BLOCKED, TR_GO_REASON_SYSCALL, 0, NULL, err));
	case EV_GO_START:
		return (tr_gotrace_go_state(s, e->args[0], ts,
		    TR_GOTRACE_RUNNING, NULL, 0, running_args(w, c, NULL),
		    err));
	case EV_GO_DESTROY:
	case EV_GO_DESTROY_SYSCALL:
		return (tr_gotrace_go_end(s, cg, ts, err));
	case EV_GO_STOP:
		str = str_get(w, e->args[0]);
		return (tr_gotrace_go_state(s, cg, ts, TR_GOTRACE_RUNNABLE,
		    *str ? str : "unspecified", stack_cs(w, e->args[1], NULL),
		    NULL, err));
	case EV_GO_BLOCK:
		str = str_get(w, e->args[0]);
		tr_buf_reset(&w->b);
		tr_buf_adds(&w->b, "\"reason\":");
		tr_gotrace_json_str(&w->b, str, strlen(str));
		return (tr_gotrace_go_state(s, cg, ts, TR_GOTRACE_BLOCKED,
		    block_cat(str), stack_cs(w, e->args[1], NULL), w->b.data,
		    err));
	case EV_GO_UNBLOCK:
	case EV_GO_SWITCH:
	case EV_GO_SWITCH_DESTROY:
		args[0] = '\0';
		if (cg != 0)
			snprintf(args, sizeof args, "\"waker\":%" PRIu64, cg);
		return (tr_gotrace_go_state(s, e->args[0], ts,
		    TR_GOTRACE_RUNNABLE, "unblocked", e->type == EV_GO_UNBLOCK ?
		    stack_cs(w, e->args[2], NULL) : 0, args[0] ? args : NULL,
		    err));
	case EV_GO_SYSCALL_BEGIN:
		cs = stack_cs(w, e->args[1], NULL);
		if ((g = sinkg(w, cg)) != NULL) {
			g->sys_cs = cs;
			g->handoff = 0;
		}
		return (tr_gotrace_go_state(s, cg, ts, TR_GOTRACE_BLOCKED,
		    TR_GO_REASON_SYSCALL, cs, "\"handoff\":false", err));
	case EV_GO_SYSCALL_END:
		return (tr_gotrace_go_state(s, cg, ts, TR_GOTRACE_RUNNING,
		    NULL, 0, running_args(w, c, NULL), err));
	case EV_GO_SYSCALL_END_BLOCKED:
		if ((g = sinkg(w, cg)) != NULL && !g->handoff &&
		    tr_gotrace_go_restate(s, cg, TR_GOTRACE_BLOCKED,
		    TR_GO_REASON_SYSCALL, g->sys_cs, "\"handoff\":true",
		    err) != 0)
			return (-1);
		return (tr_gotrace_go_state(s, cg, ts, TR_GOTRACE_RUNNABLE,
		    TR_GO_REASON_SYSCALL, 0, NULL, err));
	case EV_STW_BEGIN:
		str = str_get(w, e->args[0]);
		return (tr_gotrace_stw_begin(s, -1, ts,
		    strncmp(str, "GC ", 3) == 0 ? "gc" : "other",
		    *str ? str : "unknown", err));
	case EV_STW_END:
		return (tr_gotrace_stw_end(s, -1, ts, err));
	case EV_GC_ACTIVE:
	case EV_GC_BEGIN:
		return (tr_gotrace_gc_begin(s, ts, (int64_t)e->args[0],
		    e->type == EV_GC_BEGIN ? stack_cs(w, e->args[1], NULL) : 0,
		    err));
	case EV_GC_END:
		return (tr_gotrace_gc_end(s, ts, err));
	case EV_SWEEP_ACTIVE:
		return (tr_gotrace_sweep_begin(s, (int64_t)e->args[0], ts, 0,
		    err));
	case EV_SWEEP_BEGIN:
		return (tr_gotrace_sweep_begin(s, (int64_t)c->p, ts,
		    stack_cs(w, e->args[0], NULL), err));
	case EV_SWEEP_END:
		snprintf(args, sizeof args, "\"swept\":%" PRIu64
		    ",\"reclaimed\":%" PRIu64, e->args[0], e->args[1]);
		return (tr_gotrace_sweep_end(s, (int64_t)c->p, ts, args, err));
	case EV_ASSIST_ACTIVE:
		return (tr_gotrace_assist_begin(s, e->args[0], ts, 0, err));
	case EV_ASSIST_BEGIN:
		return (tr_gotrace_assist_begin(s, cg, ts,
		    stack_cs(w, e->args[0], NULL), err));
	case EV_ASSIST_END:
		return (tr_gotrace_assist_end(s, cg, ts, err));
	case EV_HEAP_ALLOC:
	case EV_HEAP_GOAL:
		return (tr_gotrace_heap(s, ts, e->type == EV_HEAP_ALLOC ?
		    TR_GO_HEAP_ALLOC : TR_GO_HEAP_GOAL, e->args[0], err));
	case EV_PROCS_CHANGE:
		return (tr_gotrace_gomaxprocs(s, ts, e->args[0], err));
	case EV_GO_LABEL:
		if (tr_gotrace_go_current(s, cg) != TR_GOTRACE_RUNNING)
			break;
		return (tr_gotrace_go_restate(s, cg, TR_GOTRACE_RUNNING, NULL,
		    0, running_args(w, c, str_get(w, e->args[0])), err));
	case EV_TASK_BEGIN:
		return (tr_gotrace_task_begin(s, e->args[0], e->args[1],
		    str_get(w, e->args[2]), cg, ts, stack_cs(w, e->args[3],
		    NULL), err));
	case EV_TASK_END:
		return (tr_gotrace_task_end(s, e->args[0], cg, ts, err));
	case EV_REGION_BEGIN:
		return (tr_gotrace_region_begin(s, cg, e->args[0],
		    str_get(w, e->args[1]), ts, stack_cs(w, e->args[2], NULL),
		    err));
	case EV_REGION_END:
		return (tr_gotrace_region_end(s, cg, e->args[0],
		    str_get(w, e->args[1]), ts, stack_cs(w, e->args[2], NULL),
		    err));
	case EV_USER_LOG:
		val = str_get(w, e->args[2]);
		return (tr_gotrace_log(s, cg, e->args[0], str_get(w,
		    e->args[1]), val, strlen(val), ts, stack_cs(w, e->args[3],
		    NULL), err));
	}
	return (0);
}

static int
deliver_sample(struct nw *w, struct cpusample *smp, struct tr_error *err)
{
	int64_t	ts = smp->time;

	if (smp->stack != 0 && tr_imap_get(&w->stacks, smp->stack) ==
	    NULL)
		return (bad_at(w, smp->off, w->gen, smp->batch, err, "found "
		    "invalid stack ID %" PRIu64 " for event CPUSample",
		    smp->stack));
	if (ts <= w->lastts)
		ts = w->lastts + 1;
	w->lastts = ts;
	w->nevents++;
	return (tr_gotrace_cpu_sample(w->sink, ts, smp->g, smp->p == NO_ID ?
	    -1 : (int64_t)smp->p, smp->m == NO_ID ? -1 : (int64_t)smp->m,
	    stack_cs(w, smp->stack, NULL), err));
}

static int
cmp_sample(const void *a, const void *b)
{
	const struct cpusample	*x = a, *y = b;

	if (x->time != y->time)
		return (x->time < y->time ? -1 : 1);
	return (x->idx < y->idx ? -1 : x->idx > y->idx);
}

/* Drain the queue of ordered events into the store. */
static int
drain(struct nw *w, struct tr_error *err)
{
	struct nev	e;

	while (w->qlen > 0) {
		e = w->queue[w->qhead];
		w->qhead = (w->qhead + 1) % w->qcap;
		w->qlen--;
		if (deliver(w, &e, err) != 0)
			return (-1);
	}
	return (0);
}

/* Try to advance cursor front[i]: 1 done, 0 not its turn, -1 error. */
static int
try_advance(struct nw *w, size_t i, struct tr_error *err)
{
	struct cursor	*c = w->front[i];
	int		 r;

	if ((r = advance(w, &c->ev, c->m, err)) <= 0)
		return (r);
	if (next_event(w, c, err) != 0)
		return (-1);
	if (c->has) {
		if (sift_up(w, i) == i)
			sift_down(w, i);
	} else
		front_remove(w, i);
	return (1);
}

static int
stuck(struct nw *w, struct tr_error *err)
{
	struct cursor	*c = w->front[0];
	struct vg	*g;
	struct tr_buf	 b;
	size_t		 i;
	int		 rc;

	/* Say what the earliest waiting events need. */
	tr_buf_init(&b);
	for (i = 0; i < w->nfront && i < 4; i++) {
		const struct nev	*e = &w->front[i]->ev;

		tr_buf_printf(&b, "%s%s on thread %" PRId64, i ? "; " : "",
		    ev_name(e->type), (int64_t)w->front[i]->m);
		if (e->type == EV_GO_START || e->type == EV_GO_UNBLOCK ||
		    e->type == EV_GO_SWITCH || e->type ==
		    EV_GO_SWITCH_DESTROY) {
			g = vg_get(w, e->args[0]);
			tr_buf_printf(&b, " of goroutine %" PRIu64
			    " (sequence %" PRIu64 "; it is %s, sequence %"
			    PRIu64 ")",
			    e->args[0], e->args[1], g ? gsn(g->status) :
			    "unknown", g ? g->seq : 0);
		} else if (e->type == EV_PROC_START || e->type ==
		    EV_PROC_STEAL) {
			struct vp	*p = vp_get(w, e->args[0]);

			tr_buf_printf(&b, " of proc %" PRIu64 " (sequence %"
			    PRIu64 "; it is %s, sequence %" PRIu64 ")",
			    e->args[0], e->args[1], p ? psn(p->status) :
			    "unknown", p ? p->seq : 0);
		}
	}
	rc = bad_at(w, c->ev.off, w->gen, c->ev.batch, err, "broken trace: "
	    "failed to advance: no event can come next (%s)", b.data);
	tr_buf_release(&b);
	return (rc);
}

static int
process_generation(struct nw *w, struct tr_error *err)
{
	struct cursor	*c, *first;
	size_t		 i, k;
	int		 r, ok;

	if (w->initial_gen == 0)
		w->initial_gen = w->gen;
	if (resolve_stacks(w, err) != 0)
		return (-1);
	for (i = 0; i < w->nsamples; i++) {
		if (!in_range(w, (uint64_t)w->samples[i].time))
			return (bad_at(w, w->samples[i].off, w->gen,
			    w->samples[i].batch, err, "time of a CPU sample "
			    "out of range"));
		w->samples[i].time = mul(w, (uint64_t)w->samples[i].time);
	}
	if (w->nsamples > 0)
		qsort(w->samples, w->nsamples, sizeof *w->samples,
		    cmp_sample);
	if (w->lastts == 0 && in_range(w, w->mints))
		w->lastts = mul(w, w->mints);

	/*
	 * A cursor per M in the order of the Ms' first batches (as Go keeps
	 * them), each M's batches chained in file order.
	 */
	for (i = 0; i < w->nbatches_gen; i++) {
		c = NULL;
		for (k = 0; k < w->ncurs; k++)
			if (w->curs[k].m == w->batches[i].m) {
				c = &w->curs[k];
				break;
			}
		if (c == NULL) {
			w->curs = tr_xrealloc(w->curs,
			    (w->ncurs + 1) * sizeof *w->curs);
			c = &w->curs[w->ncurs++];
			memset(c, 0, sizeof *c);
			c->m = w->batches[i].m;
			c->first = c->cur = -1;
		}
		if (c->cur < 0)
			c->first = (int64_t)i;
		else
			w->batches[c->cur].next = (int64_t)i;
		c->cur = (int64_t)i;
	}
	w->front = tr_xrealloc(w->front, (w->ncurs + 1) * sizeof *w->front);
	w->nfront = 0;
	for (k = 0; k < w->ncurs; k++) {
		c = &w->curs[k];
		c->cur = -1;
		if (next_event(w, c, err) != 0)
			return (-1);
		if (c->has) {
			w->front[w->nfront] = c;
			sift_up(w, w->nfront++);
		}
	}

	for (;;) {
		if (drain(w, err) != 0)
			return (-1);
		if (w->nfront == 0 && w->nextsample == w->nsamples)
			break;
		if (w->nextsample < w->nsamples && (w->nfront == 0 ||
		    w->samples[w->nextsample].time < w->front[0]->ev.time)) {
			if (deliver_sample(w, &w->samples[w->nextsample++],
			    err) != 0)
				return (-1);
			continue;
		}
		if ((r = try_advance(w, 0, err)) < 0)
			return (-1);
		if (r == 1)
			continue;
		/*
		 * Then the others, earliest first.  Not from index 1 of the
		 * sorted frontier, as Go's reader does: with equal times the
		 * sort may put another cursor first, and the one just tried
		 * at 1 (go122-confuse-seq-across-generations got stuck so).
		 */
		first = w->front[0];
		qsort(w->front, w->nfront, sizeof *w->front, cmp_front);
		for (i = 0, ok = 0; i < w->nfront; i++) {
			if (w->front[i] == first)
				continue;
			if ((r = try_advance(w, i, err)) < 0)
				return (-1);
			if (r == 1) {
				ok = 1;
				break;
			}
		}
		if (!ok)
			return (stuck(w, err));
	}
	return (0);
}

/* --- the whole ------------------------------------------------------- */

static void
nw_release(struct nw *w)
{
	size_t	i;

	gen_reset(w);
	tr_imap_free(&w->gs, vg_free);
	tr_imap_free(&w->ps, free);
	tr_imap_free(&w->ms, free);
	for (i = 0; i < w->tasks.cap; i++)
		if (w->tasks.slots[i].val != NULL) {
			struct vtask	*t = w->tasks.slots[i].val;

			free(t->name);
			free(t);
		}
	tr_imap_release(&w->tasks);
	free(w->front);
	free(w->queue);
	free(w->samples);
	free(w->batches);
	free(w->rbuf);
	free(w->held);
	if (w->spill_fd >= 0)
		close(w->spill_fd);
	tr_gotrace_sink_free(w->sink);
	json_decref(w->snapshots);
	tr_buf_release(&w->b);
}

int
tr_gotrace_new_run(struct tr_import *ctx, struct tr_input *in, int ver,
    struct tr_error *err)
{
	struct nw	 w;
	json_t		*meta;
	char		 vs[16];
	int		 rc = -1, r;
	int64_t		 ngen = 0;

	memset(&w, 0, sizeof w);
	w.ctx = ctx;
	w.wr = tr_import_writer(ctx);
	w.in = in;
	w.ver = ver;
	w.spill_fd = -1;
	w.rbase = HDR;
	w.snapshots = json_array();
	tr_buf_init(&w.b);
	tr_imap_init(&w.strings);
	tr_imap_init(&w.pcs);
	tr_imap_init(&w.stacks);
	tr_imap_init(&w.gs);
	tr_imap_init(&w.ps);
	tr_imap_init(&w.ms);
	tr_imap_init(&w.tasks);
	if (ver != 1022 && ver != 1023 && ver != 1025 && ver != 1026) {
		tr_input_error_at(in, err, 0, "unsupported Go trace version "
		    "%d.%d (the generation format has 1.22, 1.23, 1.25 and "
		    "1.26)", ver / 1000, ver % 1000);
		goto out;
	}
	snprintf(vs, sizeof vs, "%d.%d", ver / 1000, ver % 1000);
	tr_import_set_version(ctx, vs);
	w.sink = tr_gotrace_sink_new(ctx);
	if ((w.spill_fd = tr_spill_fd("gotrace", tr_import_name(ctx),
	    err)) < 0)
		goto out;
	while ((r = read_generation(&w, err)) == 1) {
		ngen++;
		if (process_generation(&w, err) != 0)
			goto out;
		if (ftruncate(w.spill_fd, 0) != 0) {
			tr_error_set(err, TR_EIO, "cannot truncate a temporary "
			    "file: %s", strerror(errno));
			goto out;
		}
	}
	if (r < 0)
		goto out;
	if (ngen == 0) {
		tr_input_error_at(in, err, HDR, "trace has no generations");
		goto out;
	}
	if (tr_gotrace_sink_finish(w.sink, w.lastts, err) != 0)
		goto out;
	/*
	 * Go 1.22+ on Linux takes its time from nanotime() (CLOCK_MONOTONIC)
	 * in units of 64 ns: ns = ticks * 64 is CLOCK_MONOTONIC.
	 */
	tr_import_set_clock(ctx, w.freq_raw == 15625000 ? "monotonic" :
	    "go-ticks");
	meta = tr_import_meta(ctx);
	json_object_set_new(meta, "go_version", json_string(vs));
	json_object_set_new(meta, "ticks_per_second",
	    json_integer((json_int_t)w.freq_raw));
	json_object_set_new(meta, "generations", json_integer(ngen));
	json_object_set_new(meta, "events", json_integer(w.nevents));
	if (json_array_size(w.snapshots) > 0) {
		json_object_set(meta, "clock_snapshots", w.snapshots);
		if (w.nsnapshots > MAX_SNAPSHOTS)
			json_object_set_new(meta, "clock_snapshots_dropped",
			    json_integer(w.nsnapshots - MAX_SNAPSHOTS));
	}
	rc = 0;
out:
	nw_release(&w);
	return (rc);
}
