/*
 * perf script text output: sample header lines, each followed by its
 * callchain (one frame a line, leaf first, then an empty line) or carrying
 * its one frame at the end of the line (-G, or no callchain recorded), and
 * the "# ..." block that --header prints before the samples.  The input is
 * read line by line; a sample's stack lines are copied into one buffer,
 * which finds repeated stacks without parsing their frames again.  A stack
 * whose lines are all frames and srclines, ended by an empty line, is also
 * remembered as the bytes it was read from: the next time those bytes
 * follow a sample header, they are skipped whole (tr_input_peek_block()).
 */
#include "config.h"
#include "import/importer.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/writer.h"

#define MAXTOK		40	/* header tokens looked at */
#define SHOWN		48	/* bytes of a bad line quoted in messages */
#define PID_MAX		2147483647LL
#define EXPECT_HDR	"'COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT:'"
#define EXPECT_FRAME	"'ADDRESS SYMBOL (DSO)'"
#define SC_SLOTS	16384		/* stacks remembered, two ways a hash */
#define SC_BYTES	(6 << 20)	/* and the most text they keep */
#define SC_BLOCK	(256 << 10)	/* the longest block of stack lines */
#define SC_PREFIX	256		/* bytes that find a block's slot */
#define FL_SLOTS	16384		/* frame texts remembered, by hash */
#define FL_BYTES	(4 << 20)	/* and the most text they keep */
#define PV_SLOTS	64		/* threads' last stacks kept */

struct tok {
	const char	*p;
	size_t		 n;
};

/* A parsed sample header line; pointers are into the line. */
struct hdr {
	const char	*comm;
	size_t		 comm_len;
	int64_t		 pid, tid;	/* -1 when not printed */
	int		 cpu;		/* -1 when not printed */
	int		 has_ts;
	int64_t		 ts;
	int		 has_period;
	int64_t		 period;
	const char	*event;		/* NULL when not printed */
	size_t		 event_len;
	const char	*rest;		/* what follows the event, or NULL */
	size_t		 rest_len;
	int		 sideband;	/* a PERF_RECORD_* line: skip it */
	const char	*tod;		/* -F tod: "2026-11-29 12:39:35.42" */
	size_t		 tod_len;
	const char	*ts_tok;	/* the time's token, or NULL */
	size_t		 ts_tok_len;
};

/* A frame's text in ps->stk ('F' line, 'S' line or not): its id. */
struct fl_slot {
	uint64_t	 hash;
	int64_t		 id;
	size_t		 off, len;	/* in ps->fl_text; len 0: empty */
};

/*
 * A stack seen before: its text and call site.  The text is either what
 * keep_line() made of its lines (starting 'F') or the block of lines it was
 * read from (starting with a blank), with what reading them left behind.
 */
struct sc_slot {
	uint64_t	 hash;
	int64_t		 cs;
	char		*text;
	size_t		 len, cap;
	uint64_t	 used;		/* when last found or kept */
	int64_t		 nlines;	/* block: frame lines in it */
	long		 lines;		/* block: its lines, the empty one */
	int		 after_frame;	/* block: ps->after_frame at its end */
};

struct ps {
	struct tr_import	*ctx;
	struct tr_writer	*wr;		/* its writer */
	struct tr_input		*in;
	struct tr_error		*err;
	const char		*line;		/* the current line */

	/* The sample being read. */
	int			 open;
	int64_t			 tid;		/* its tid as printed, or -1 */
	uint64_t		 commh;		/* hash of its comm, or 0 */
	int			 oneline;	/* its header carried a frame */
	long			 hdr_line;
	int64_t			 nlines;	/* stack lines after it */
	struct tr_sample	 s;
	/*
	 * Its stack lines, trimmed, each tagged 'F' (frame) or 'S' (the
	 * srcline of the frame before) and ended by '\n'.  Repeated stacks
	 * are recognised by this text alone, without parsing a frame.
	 */
	struct tr_buf		 stk;
	int			 after_frame;	/* last line was a frame */
	int64_t			*ids;		/* frame ids, leaf first */
	size_t			 capids;
	/*
	 * The last stack resolved of each thread (by tid, PV_SLOTS of them):
	 * its frames and call sites, root first.
	 */
	struct pv_stack {
		int64_t		 tid;
		int64_t		*ids, *cs;
		size_t		 n, cap;
	}			*pv;
	struct sc_slot		*sc;		/* stack text -> call site */
	size_t			 sc_bytes;
	uint64_t		 sc_clock;	/* for sc_slot.used */
	struct fl_slot		*fl;		/* frame text -> frame id */
	struct tr_buf		 fl_text;
	/*
	 * By a hash of the SC_PREFIX bytes after a sample header: the slot
	 * (plus one) of the last block that began so.  When its text is what
	 * follows, the block is found without looking for its end.
	 */
	uint32_t		*sc_first;
	size_t			 blk_first;	/* the block's sc_first + 1 */
	/*
	 * The block of stack lines after the sample header, when it was not
	 * in ps->sc: a copy, its hash, the input offset at its end (0: none)
	 * and the line before it.
	 */
	int			 fresh;		/* no line since the header */
	struct tr_buf		 blk;
	uint64_t		 blk_hash;
	int64_t			 blk_end;
	long			 blk_line;

	int			 callchains;	/* a stack line was seen */
	int			 seen_sample;
	int			 cut;		/* the last sample: left out */
	long			 blank_line;	/* the one that ended the last
						   sample's stack, or 0 */
	int			 orphans;	/* in stack lines after it */

	/*
	 * The last sample header with a time that parse_header() took, its
	 * pointers into ph (see header_again()).
	 */
	struct tr_buf		 ph;
	struct hdr		 ph_h;
	int			 ph_ok;

	/* Interning caches for runs of samples of one thread or event. */
	int64_t			 t_pid, t_tid, t_id;
	struct tr_buf		 t_comm;
	uint64_t		 t_commh;	/* tr_hash64() of t_comm */
	struct tr_buf		 e_name;
	int64_t			 e_id;
	int64_t			 dflt_event;	/* for samples without one */
	json_t			*events;	/* "# event : name = X" */
	/* -F tod: the first and last wall time with their perf time. */
	json_t			*tod_first;
	struct tr_buf		 tod_last;
	int64_t			 tod_last_ns;
	/* The recording's fingerprint, over the samples stored. */
	int64_t			 fp_n;
	uint64_t		 fp_a, fp_b;
	int			 fp_untimed;	/* a sample had no time */
};

static int
is_blank(char c)
{
	return (c == ' ' || c == '\t');
}

/* Hex digit values plus one (0: not a hex digit): every stack line. */
static const unsigned char hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int
hexval(char c)
{
	return (hex1[(unsigned char)c] - 1);
}

static int
all_digits(const char *p, size_t n)
{
	size_t	i;

	if (n == 0)
		return (0);
	for (i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return (0);
	return (1);
}

/* Decimal digits to a value no greater than 'max'; -1 when larger. */
static int
dec_value(const char *p, size_t n, int64_t max, int64_t *v)
{
	uint64_t	x = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		if (x > ((uint64_t)max - (uint64_t)(p[i] - '0')) / 10)
			return (-1);
		x = x * 10 + (uint64_t)(p[i] - '0');
	}
	*v = (int64_t)x;
	return (0);
}

static long
col_of(const struct ps *ps, const char *p)
{
	return ((long)(p - ps->line) + 1);
}

/* Quote at most SHOWN bytes of 'p' in a message. */
static int
shown(size_t n)
{
	return ((int)(n > SHOWN ? SHOWN : n));
}

static const char *
ellipsis(size_t n)
{
	return (n > SHOWN ? "..." : "");
}

static int
bad(struct ps *ps, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
bad(struct ps *ps, const char *at, const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* probe() parses headers with no input: only the verdict counts. */
	if (ps->in == NULL)
		return (tr_error_set(ps->err, TR_EDATA, "%s", msg));
	return (tr_input_error(ps->in, ps->err, at ? col_of(ps, at) : 0, "%s",
	    msg));
}

/* --- header lines ----------------------------------------------------- */

/* "PID", "PID/TID", either may be -1. */
static int
pid_shaped(const struct tok *t)
{
	const char	*slash = memchr(t->p, '/', t->n);
	size_t		 a = slash ? (size_t)(slash - t->p) : t->n;

	if (!(all_digits(t->p, a) || (a == 2 && memcmp(t->p, "-1", 2) == 0)))
		return (0);
	if (slash == NULL)
		return (1);
	a = t->n - a - 1;
	return (all_digits(slash + 1, a) ||
	    (a == 2 && memcmp(slash + 1, "-1", 2) == 0));
}

/* "[003]", or "[-01]" for no cpu. */
static int
cpu_shaped(const struct tok *t)
{
	if (t->n < 3 || t->p[0] != '[' || t->p[t->n - 1] != ']')
		return (0);
	return (all_digits(t->p + 1, t->n - 2) ||
	    (t->n >= 4 && t->p[1] == '-' && all_digits(t->p + 2, t->n - 3)));
}

/* "SECONDS.FRACTION:" */
static int
time_shaped(const struct tok *t)
{
	const char	*dot;

	if (t->n < 4 || t->p[t->n - 1] != ':' ||
	    (dot = memchr(t->p, '.', t->n)) == NULL)
		return (0);
	return (all_digits(t->p, (size_t)(dot - t->p)) &&
	    all_digits(dot + 1, (size_t)(t->p + t->n - 1 - dot - 1)));
}

/* The two tokens of --tod: "2026-11-29" "12:39:35.421402". */
static int
tod_shaped(const struct tok *d, const struct tok *c)
{
	return (d->n == 10 && d->p[4] == '-' && d->p[7] == '-' &&
	    all_digits(d->p, 4) && c->n >= 8 && c->p[2] == ':' &&
	    c->p[5] == ':' && all_digits(c->p, 2));
}

static int
event_shaped(const struct tok *t)
{
	return (t->n >= 2 && t->p[t->n - 1] == ':');
}

/*
 * Seconds with up to 9 decimals to nanoseconds, exactly.  'p' is the
 * number without the colon.  0, or -1 (1 decimal too many) with *why set
 * to what was expected.
 */
static int
parse_seconds(const char *p, size_t n, int64_t *ns, const char **why)
{
	const char	*dot = memchr(p, '.', n);
	size_t		 ni = dot ? (size_t)(dot - p) : n;
	size_t		 nf = dot ? n - ni - 1 : 0;
	int64_t		 sec, frac = 0;
	size_t		 i;

	*why = "malformed timestamp: expected at most 9 decimal places";
	if (nf > 9)
		return (-1);
	*why = "timestamp out of range: expected at most "
	    "9223372036.854775807 seconds";
	if (dec_value(p, ni, INT64_MAX / 1000000000, &sec) != 0)
		return (-1);
	for (i = 0; i < 9; i++)
		frac = frac * 10 + (i < nf ? dot[1 + i] - '0' : 0);
	if (sec == INT64_MAX / 1000000000 && frac > INT64_MAX % 1000000000)
		return (-1);
	*ns = sec * 1000000000 + frac;
	return (0);
}

static int
set_id(struct ps *ps, const char *p, size_t n, const char *what, int64_t *v)
{
	if (n == 2 && memcmp(p, "-1", 2) == 0) {
		*v = -1;
		return (0);
	}
	if (dec_value(p, n, PID_MAX, v) != 0)
		return (bad(ps, p, "%s out of range: expected -1 to %lld, got "
		    "'%.*s%s'", what, PID_MAX, shown(n), p, ellipsis(n)));
	return (0);
}

/*
 * Tokens t[0..a) are "[COMM...] [PID[/TID]] [[CPU]] [TOD]" before the
 * time (timed) or "[COMM...] PID[/TID] [[CPU]] [PERIOD]" before the event.
 * Returns 1 when they fit, 0 when not, -1 on a number out of range.
 */
static int
parse_prefix(struct ps *ps, const struct tok *t, int a, int timed,
    struct hdr *h)
{
	const struct tok	*period = NULL, *cpu = NULL, *pid = NULL;
	const char		*slash;
	int			 i = a - 1;

	if (timed && i >= 1 && tod_shaped(&t[i - 1], &t[i])) {
		h->tod = t[i - 1].p;
		h->tod_len = (size_t)(t[i].p + t[i].n - t[i - 1].p);
		i -= 2;
	}
	if (!timed && i >= 1 && all_digits(t[i].p, t[i].n) &&
	    (pid_shaped(&t[i - 1]) || cpu_shaped(&t[i - 1])))
		period = &t[i--];
	if (i >= 0 && cpu_shaped(&t[i]))
		cpu = &t[i--];
	if (i >= 0 && pid_shaped(&t[i]))
		pid = &t[i--];
	else if (!timed)
		return (0);
	if (period != NULL) {
		if (dec_value(period->p, period->n, INT64_MAX,
		    &h->period) != 0)
			return (bad(ps, period->p, "period out of range: "
			    "expected at most %lld, got '%.*s%s'",
			    (long long)INT64_MAX, shown(period->n),
			    period->p, ellipsis(period->n)));
		h->has_period = 1;
	}
	if (cpu != NULL) {
		int64_t	v;

		if (cpu->p[1] == '-')
			h->cpu = -1;
		else if (dec_value(cpu->p + 1, cpu->n - 2, INT32_MAX, &v) != 0)
			return (bad(ps, cpu->p, "cpu out of range: expected "
			    "at most %d, got '%.*s%s'", INT32_MAX,
			    shown(cpu->n), cpu->p, ellipsis(cpu->n)));
		else
			h->cpu = (int)v;
	}
	if (pid != NULL) {
		slash = memchr(pid->p, '/', pid->n);
		if (slash == NULL) {
			/* One number: perf's default prints the tid. */
			if (set_id(ps, pid->p, pid->n, "tid", &h->tid) != 0)
				return (-1);
		} else if (set_id(ps, pid->p, (size_t)(slash - pid->p), "pid",
		    &h->pid) != 0 || set_id(ps, slash + 1,
		    (size_t)(pid->p + pid->n - slash - 1), "tid",
		    &h->tid) != 0)
			return (-1);
	}
	if (i >= 0) {
		h->comm = t[0].p;
		h->comm_len = (size_t)(t[i].p + t[i].n - t[0].p);
	}
	return (1);
}

/*
 * Parse a sample header.  Returns 1 with 'h' filled in, 0 when the line
 * is not one, -1 when it is one with a number out of range.
 */
static int
parse_header(struct ps *ps, const char *p, size_t n, struct hdr *h)
{
	struct tok	 t[MAXTOK];
	const char	*end = p + n, *why;
	int		 nt = 0, a, j, r;

	memset(h, 0, sizeof *h);
	h->pid = h->tid = -1;
	h->cpu = -1;
	while (p < end && nt < MAXTOK) {
		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		t[nt].p = p;
		while (p < end && !is_blank(*p))
			p++;
		t[nt].n = (size_t)(p - t[nt].p);
		nt++;
	}
	for (a = 0; a < nt; a++)
		if (time_shaped(&t[a]))
			break;
	if (a < nt) {
		if ((r = parse_prefix(ps, t, a, 1, h)) <= 0)
			return (r);
		if (parse_seconds(t[a].p, t[a].n - 1, &h->ts, &why) != 0)
			return (bad(ps, t[a].p, "%s, got '%.*s%s'", why,
			    shown(t[a].n - 1), t[a].p, ellipsis(t[a].n - 1)));
		h->has_ts = 1;
		h->ts_tok = t[a].p;
		h->ts_tok_len = t[a].n;
		j = a + 1;
		if (j < nt && all_digits(t[j].p, t[j].n) &&
		    (j + 1 == nt || event_shaped(&t[j + 1]))) {
			if (dec_value(t[j].p, t[j].n, INT64_MAX,
			    &h->period) != 0)
				return (bad(ps, t[j].p, "period out of range: "
				    "expected at most %lld, got '%.*s%s'",
				    (long long)INT64_MAX, shown(t[j].n),
				    t[j].p, ellipsis(t[j].n)));
			h->has_period = 1;
			j++;
		}
	} else {
		for (a = 1; a < nt; a++)
			if (event_shaped(&t[a]) &&
			    (r = parse_prefix(ps, t, a, 0, h)) != 0)
				break;
		if (a == nt)
			return (0);
		if (r < 0)
			return (-1);
		j = a;
	}
	if (j < nt && t[j].n >= 12 && memcmp(t[j].p, "PERF_RECORD_", 12) == 0) {
		h->sideband = 1;
		return (1);
	}
	if (j < nt && event_shaped(&t[j])) {
		h->event = t[j].p;
		h->event_len = t[j].n - 1;
		j++;
	}
	if (j < nt) {
		h->rest = t[j].p;
		h->rest_len = (size_t)(end - t[j].p);
	}
	return (1);
}

/* --- stack lines ------------------------------------------------------ */

/* Blanks, a hex address, then a blank or the end: where it starts. */
static const char *
frame_addr(const char *p, size_t n, size_t *alen)
{
	const char	*end = p + n, *a;

	while (p < end && is_blank(*p))
		p++;
	a = p;
	while (p < end && hex1[(unsigned char)*p] != 0)
		p++;
	if (p == a || (p < end && !is_blank(*p)))
		return (NULL);
	*alen = (size_t)(p - a);
	return (a);
}

/*
 * Split the text of a frame line ("ADDR SYM+0xOFF (DSO)", leading blanks
 * gone) into a frame.  Cannot fail: the address was checked on reading.
 */
static void
split_frame(const char *p, size_t n, struct tr_frame *f)
{
	const char	*end = p + n, *s, *e, *q;
	uint64_t	 addr = 0;
	int		 hex = 1;

	memset(f, 0, sizeof *f);
	/* A first word that is no address (see odd_line()) gives 0. */
	for (q = p; q < end && !is_blank(*q); q++)
		if (hexval(*q) < 0)
			hex = 0;
		else
			addr = addr << 4 | (uint64_t)hexval(*q);
	if (!hex)
		addr = 0;
	p = q;
	while (p < end && is_blank(*p))
		p++;
	s = p;
	e = end;
	if (e > s && e[-1] == ')') {
		/* The DSO is the last " (...)"; "(/x.so (deleted))" is one. */
		q = e - 1;
		if ((size_t)(e - s) > 11 && memcmp(e - 11, " (deleted))", 11)
		    == 0)
			q = e - 11;
		while (q > s && !(q[0] == '(' && q[-1] == ' '))
			q--;
		/* "ADDR  (DSO)": no symbol at all. */
		if (q > s || (q[0] == '(' && is_blank(q[-1]))) {
			f->module = q + 1;
			f->module_len = (size_t)(e - 1 - (q + 1));
			e = q > s ? q - 1 : s;
			if (f->module_len == 7 &&
			    memcmp(f->module, "inlined", 7) == 0) {
				f->inlined = 1;
				f->module = NULL;
				f->module_len = 0;
			}
		}
	}
	/* SYM+0xOFF: the offset is not part of the function. */
	q = e;
	while (q > s && ((q[-1] >= '0' && q[-1] <= '9') ||
	    (q[-1] >= 'a' && q[-1] <= 'f')))
		q--;
	if (q < e && q - s >= 3 && memcmp(q - 3, "+0x", 3) == 0)
		e = q - 3;
	/*
	 * Unknown symbols keep their address (the only way to tell them
	 * apart).  Old perf printed an empty name for some ("ADDR  (DSO)"),
	 * kept as is; a lone address (-F ip) is "[unknown]".
	 */
	if (e == s && f->module == NULL && !f->inlined) {
		s = "[unknown]";
		e = s + 9;
	}
	f->name = s;
	f->name_len = (size_t)(e - s);
	if (f->name_len == 0 ||
	    (f->name_len == 9 && memcmp(s, "[unknown]", 9) == 0))
		f->addr = addr;
}

/*
 * "file.c:12", "file.c:12 (discriminator 3)": file and line into 'f'.
 * Anything else ("libc.so.6[2724a]", "??:0") says nothing.
 */
static void
split_srcline(const char *p, size_t n, struct tr_frame *f)
{
	const char	*end = p + n, *c, *d;
	int64_t		 line;

	if (n > 16 && end[-1] == ')' && (d = memchr(p, '(', n)) != NULL &&
	    d > p && d[-1] == ' ' && (size_t)(end - d) > 15 &&
	    memcmp(d, "(discriminator ", 15) == 0)
		end = d - 1;
	for (c = end; c > p && c[-1] != ':'; c--)
		;
	if (c == p || c == end || !all_digits(c, (size_t)(end - c)) ||
	    dec_value(c, (size_t)(end - c), INT64_MAX, &line) != 0 ||
	    line == 0 || (c - 1 - p == 2 && memcmp(p, "??", 2) == 0))
		return;
	f->file = p;
	f->file_len = (size_t)(c - 1 - p);
	f->line = line;
}

/* Keep a stack line: 'tag' then the text from 'p' to 'end'. */
static void
keep_line(struct ps *ps, char tag, const char *p, const char *end)
{
	tr_buf_addc(&ps->stk, tag);
	tr_buf_add(&ps->stk, p, (size_t)(end - p));
	tr_buf_addc(&ps->stk, '\n');
}

/* A frame line starting at address 'a' (alen hex digits). */
static int
add_frame_line(struct ps *ps, const char *a, size_t alen, const char *end)
{
	if (alen > 16)
		return (bad(ps, a, "address out of range: expected at most 16 "
		    "hex digits, got '%.*s%s'", shown(alen), a,
		    ellipsis(alen)));
	keep_line(ps, 'F', a, end);
	ps->after_frame = 1;
	return (0);
}

static int	sc_room(struct ps *, struct sc_slot *, size_t);

/* The two slots a hash may use. */
static struct sc_slot *
sc_way(struct ps *ps, uint64_t h, int way)
{
	return (&ps->sc[(way == 0 ? h : h >> 32) % SC_SLOTS]);
}

/* The slot holding text p[0..n) of hash 'h', a block or not, or NULL. */
static struct sc_slot *
sc_find(struct ps *ps, uint64_t h, const char *p, size_t n, int block)
{
	struct sc_slot	*sc;
	int		 w;

	for (w = 0; w < 2; w++) {
		sc = sc_way(ps, h, w);
		if (sc->len == n && sc->hash == h && (sc->lines > 0) == block &&
		    memcmp(sc->text, p, n) == 0) {
			sc->used = ++ps->sc_clock;
			return (sc);
		}
	}
	return (NULL);
}

/*
 * Where a new text of hash 'h' goes: an empty slot of its two, else the
 * one found or kept longer ago.
 */
static struct sc_slot *
sc_victim(struct ps *ps, uint64_t h)
{
	struct sc_slot	*a = sc_way(ps, h, 0), *b = sc_way(ps, h, 1);

	if (a->len == 0 || b->len == 0)
		return (a->len == 0 ? a : b);
	return (a->used <= b->used ? a : b);
}

/*
 * The id of the frame whose text (in ps->stk) is p[0..n), as it was the
 * last time, else parsed and added.  'nl' ends its 'F' line.
 */
static int64_t
frame_id(struct ps *ps, const char *p, size_t n, const char *nl)
{
	struct fl_slot	*fl;
	struct tr_frame	 f;
	uint64_t	 h = tr_hash64_bulk(p, n);
	int64_t		 id;

	fl = &ps->fl[h % FL_SLOTS];
	if (fl->len == n && fl->hash == h &&
	    memcmp(ps->fl_text.data + fl->off, p, n) == 0)
		return (fl->id);
	split_frame(p + 1, (size_t)(nl - p - 1), &f);
	if (nl + 1 < p + n)
		split_srcline(nl + 2, (size_t)(p + n - nl - 3), &f);
	if ((id = tr_writer_add_frame(ps->wr, &f, ps->err)) < 0)
		return (-1);
	/* Bounded memory: when the text is full, start again. */
	if (ps->fl_text.len + n > FL_BYTES) {
		memset(ps->fl, 0, FL_SLOTS * sizeof *ps->fl);
		tr_buf_reset(&ps->fl_text);
	}
	fl->hash = h;
	fl->id = id;
	fl->off = ps->fl_text.len;
	fl->len = n;
	tr_buf_add(&ps->fl_text, p, n);
	return (id);
}

/* The call site of the stack in ps->stk, storing what is new. */
static int64_t
resolve_stack(struct ps *ps)
{
	const char	*p = ps->stk.data, *end = p + ps->stk.len, *nl, *e;
	struct sc_slot	*sc;
	struct pv_stack	*pv;
	size_t		 n = 0, i;
	int64_t		 t, cs;
	uint64_t	 h;

	if (ps->stk.len == 0)
		return (0);
	/* A stack read as a block is kept as one (sc_keep_block()). */
	h = 0;
	if (ps->blk_end == 0) {
		h = tr_hash64_bulk(p, ps->stk.len);
		if ((sc = sc_find(ps, h, p, ps->stk.len, 0)) != NULL)
			return (sc->cs);
	}
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		e = nl + 1;
		if (e < end && *e == 'S')
			e = (const char *)memchr(e, '\n',
			    (size_t)(end - e)) + 1;
		if (n == ps->capids) {
			ps->capids = ps->capids ? ps->capids * 2 : 64;
			ps->ids = tr_xrealloc(ps->ids,
			    ps->capids * sizeof *ps->ids);
		}
		if ((ps->ids[n++] = frame_id(ps, p, (size_t)(e - p), nl)) < 0)
			return (-1);
		p = e;
	}
	/* perf prints the leaf first; the store wants the root first. */
	for (i = 0; i < n / 2; i++) {
		t = ps->ids[i];
		ps->ids[i] = ps->ids[n - 1 - i];
		ps->ids[n - 1 - i] = t;
	}
	/*
	 * A thread's consecutive stacks share their roots: start from the
	 * deepest call site the thread's last stack had in common with this
	 * one.  (By the previous sample alone, whatever its thread, the
	 * stacks of a build's parallel compilers shared a third as many.)
	 */
	pv = &ps->pv[(uint64_t)ps->tid % PV_SLOTS];
	if (pv->tid != ps->tid) {
		pv->tid = ps->tid;
		pv->n = 0;
	}
	for (i = 0; i < n && i < pv->n && pv->ids[i] == ps->ids[i]; i++)
		;
	if (n > pv->cap) {
		pv->cap = ps->capids;
		pv->ids = tr_xrealloc(pv->ids, pv->cap * sizeof *pv->ids);
		pv->cs = tr_xrealloc(pv->cs, pv->cap * sizeof *pv->cs);
	}
	cs = i > 0 ? pv->cs[i - 1] : 0;
	for (; i < n; i++) {
		if ((cs = tr_writer_add_callsite(ps->wr, cs, ps->ids[i],
		    (int64_t)i, ps->err)) < 0)
			return (-1);
		pv->ids[i] = ps->ids[i];
		pv->cs[i] = cs;
	}
	pv->n = n;
	if (ps->blk_end == 0 &&
	    sc_room(ps, sc = sc_victim(ps, h), ps->stk.len)) {
		memcpy(sc->text, ps->stk.data, ps->stk.len);
		sc->len = ps->stk.len;
		sc->hash = h;
		sc->cs = cs;
		sc->lines = 0;
		sc->used = ++ps->sc_clock;
	}
	return (cs);
}

/*
 * Bounded memory: one stack a slot, the latest one wins.  Whether 'sc' has
 * room for 'len' bytes of text (made when the bound allows).
 */
static int
sc_room(struct ps *ps, struct sc_slot *sc, size_t len)
{
	if (sc->cap < len && ps->sc_bytes + len - sc->cap <= SC_BYTES) {
		ps->sc_bytes += len - sc->cap;
		sc->cap = len;
		sc->text = tr_xrealloc(sc->text, sc->cap);
	}
	return (sc->cap >= len);
}

/* --- samples ---------------------------------------------------------- */

/*
 * The fingerprint of a recording, the same in every rendering perf script
 * makes of one perf.data: what every rendering prints of a sample is its
 * time (to the us at least: --ns prints ns) and, unless -F leaves them
 * out, its comm and tid; pid, cpu, period, event names, symbols, DSOs,
 * srclines and callchains come and go with the options.  So the
 * fingerprint is the number of samples and an order-independent 128-bit
 * sum over their (comm, tid, time truncated to the us, as perf prints it
 * without --ns).
 */
static uint64_t
fp_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31));
}

static void
fp_add(struct ps *ps)
{
	uint64_t	h;

	if (!ps->s.has_ts) {
		ps->fp_untimed = 1;
		return;
	}
	h = fp_mix(fp_mix(fp_mix((uint64_t)(ps->s.ts / 1000)) ^
	    (uint64_t)ps->tid) ^ ps->commh);
	ps->fp_a += h;
	ps->fp_b += fp_mix(h);
	ps->fp_n++;
}

/* "perf-script:N:HEX32", or nothing when a sample had no time. */
static void
fp_finish(struct ps *ps)
{
	char	fp[80];

	if (ps->fp_n == 0 || ps->fp_untimed)
		return;
	snprintf(fp, sizeof fp, "perf-script:%lld:%016llx%016llx",
	    (long long)ps->fp_n, (unsigned long long)ps->fp_a,
	    (unsigned long long)ps->fp_b);
	tr_import_set_fingerprint(ps->ctx, fp);
}

static int
end_sample(struct ps *ps)
{
	if (!ps->open)
		return (0);
	ps->open = 0;
	ps->fresh = 0;
	if ((ps->s.callsite_id = resolve_stack(ps)) < 0)
		return (-1);
	if (tr_writer_add_sample(ps->wr, &ps->s, ps->err) < 0)
		return (-1);
	fp_add(ps);
	return (0);
}

/* Skip the block of 'sc' and end the sample as reading it did. */
static int
replay_stack(struct ps *ps, const struct sc_slot *sc)
{
	tr_input_skip(ps->in, sc->len, sc->lines);
	/* What its lines did, then what the empty line does (do_line()). */
	ps->nlines = sc->nlines;
	ps->callchains = 1;
	ps->after_frame = sc->after_frame;
	ps->blank_line = tr_input_lineno(ps->in);
	ps->open = 0;
	ps->s.callsite_id = sc->cs;
	if (tr_writer_add_sample(ps->wr, &ps->s, ps->err) < 0)
		return (-1);
	fp_add(ps);
	return (1);
}

/*
 * Just after a sample header: when the block of lines that follows is one
 * read before, skip it and end the sample as reading it did (1).  Else
 * (0) its lines are read one by one, and the block is kept at the empty
 * line that ends it if they were all frames and srclines.
 */
static int
cached_stack(struct ps *ps)
{
	const unsigned char	*u;
	struct sc_slot		*sc;
	const char		*p;
	size_t			 n, k = 0;
	uint64_t		 h;
	uint32_t		 i;
	int			 r;

	ps->fresh = 0;
	ps->blk_end = 0;
	/*
	 * The text of a block proves itself: the same bytes are the same
	 * block, however it was found.
	 */
	if (tr_input_peek(ps->in, &u, &n, ps->err) != 0)
		return (-1);
	if (n >= SC_PREFIX) {
		k = tr_hash64_bulk(u, SC_PREFIX) % SC_SLOTS + 1;
		if ((i = ps->sc_first[k - 1]) > 0) {
			sc = &ps->sc[i - 1];
			if (sc->lines > 0 && sc->len <= n &&
			    memcmp(sc->text, u, sc->len) == 0)
				return (replay_stack(ps, sc));
		}
	}
	if ((r = tr_input_peek_block(ps->in, SC_BLOCK, &p, &n, ps->err)) <= 0)
		return (r);
	h = tr_hash64_bulk(p, n);
	if ((sc = sc_find(ps, h, p, n, 1)) == NULL) {
		tr_buf_reset(&ps->blk);
		tr_buf_add(&ps->blk, p, n);
		ps->blk_hash = h;
		ps->blk_end = tr_input_offset(ps->in) + (int64_t)n;
		ps->blk_line = tr_input_lineno(ps->in);
		ps->blk_first = k;
		return (0);
	}
	if (k > 0)
		ps->sc_first[k - 1] = (uint32_t)(sc - ps->sc) + 1;
	return (replay_stack(ps, sc));
}

/* The block just read, all frames and srclines, for cached_stack(). */
static void
sc_keep_block(struct ps *ps)
{
	struct sc_slot	*sc = sc_victim(ps, ps->blk_hash);

	if (!sc_room(ps, sc, ps->blk.len))
		return;
	sc->used = ++ps->sc_clock;
	memcpy(sc->text, ps->blk.data, ps->blk.len);
	sc->len = ps->blk.len;
	sc->hash = ps->blk_hash;
	sc->cs = ps->s.callsite_id;
	sc->nlines = ps->nlines;
	sc->lines = tr_input_lineno(ps->in) - ps->blk_line;
	sc->after_frame = ps->after_frame;
	if (ps->blk_first > 0)
		ps->sc_first[ps->blk_first - 1] = (uint32_t)(sc - ps->sc) + 1;
}

/* The sample header had no stack where one was due. */
static int
no_stack(struct ps *ps, const char *got)
{
	return (tr_error_set_line(ps->err, TR_EDATA, tr_input_name(ps->in),
	    ps->hdr_line, 1, "sample header with no stack: expected stack "
	    "lines after it, got %s", got));
}

/* {"text": local wall time as perf printed it, "clock_ns": perf time} */
static json_t *
tod_pair(const char *text, size_t n, int64_t ns)
{
	json_t	*o = json_object(), *s;

	if ((s = json_stringn(text, n)) != NULL)
		json_object_set_new(o, "text", s);
	json_object_set_new(o, "clock_ns", json_integer(ns));
	return (o);
}

static int
begin_sample(struct ps *ps, const struct hdr *h)
{
	int64_t	id;

	if (h->sideband)
		return (0);
	memset(&ps->s, 0, sizeof ps->s);
	ps->s.has_ts = h->has_ts;
	ps->s.ts = h->ts;
	ps->s.cpu = h->cpu;
	ps->s.value = h->has_period ? h->period : 1;
	ps->tid = h->tid;
	ps->commh = 0;
	if (h->comm != NULL || h->pid >= 0 || h->tid >= 0) {
		if (ps->t_id > 0 && ps->t_pid == h->pid &&
		    ps->t_tid == h->tid && ps->t_comm.len == h->comm_len &&
		    (h->comm_len == 0 ||
		    memcmp(ps->t_comm.data, h->comm, h->comm_len) == 0))
			id = ps->t_id;
		else {
			id = tr_writer_add_thread(ps->wr, h->pid, h->tid,
			    h->comm ? h->comm : "", h->comm_len, ps->err);
			if (id < 0)
				return (-1);
			ps->t_id = id;
			ps->t_pid = h->pid;
			ps->t_tid = h->tid;
			tr_buf_reset(&ps->t_comm);
			tr_buf_add(&ps->t_comm, h->comm ? h->comm : "",
			    h->comm_len);
			ps->t_commh = h->comm_len > 0 ?
			    tr_hash64(h->comm, h->comm_len) : 0;
		}
		ps->s.thread_id = id;
		ps->commh = ps->t_commh;
	}
	if (h->event == NULL) {
		/* Not printed: the header's one event, else "unknown". */
		if (ps->dflt_event == 0) {
			const char	*e = "unknown";

			if (json_array_size(ps->events) == 1)
				e = json_string_value(json_array_get(
				    ps->events, 0));
			if ((ps->dflt_event = tr_writer_add_str(ps->wr, e,
			    strlen(e), ps->err)) < 0)
				return (-1);
		}
		ps->s.event_id = ps->dflt_event;
	} else if (ps->e_id > 0 && ps->e_name.len == h->event_len &&
	    memcmp(ps->e_name.data, h->event, h->event_len) == 0)
		ps->s.event_id = ps->e_id;
	else {
		if ((id = tr_writer_add_str(ps->wr, h->event, h->event_len,
		    ps->err)) < 0)
			return (-1);
		ps->s.event_id = ps->e_id = id;
		tr_buf_reset(&ps->e_name);
		tr_buf_add(&ps->e_name, h->event, h->event_len);
	}
	if (h->tod != NULL && h->has_ts) {
		/* Wall time next to perf's: an anchor for alignment. */
		if (ps->tod_first == NULL)
			ps->tod_first = tod_pair(h->tod, h->tod_len, h->ts);
		tr_buf_reset(&ps->tod_last);
		tr_buf_add(&ps->tod_last, h->tod, h->tod_len);
		ps->tod_last_ns = h->ts;
	}
	ps->open = 1;
	ps->fresh = 1;
	ps->blk_end = 0;
	ps->seen_sample = 1;
	ps->oneline = 0;
	ps->nlines = 0;
	ps->after_frame = 0;
	tr_buf_reset(&ps->stk);
	ps->hdr_line = tr_input_lineno(ps->in);
	if (h->rest != NULL) {
		const char	*a;
		size_t		 alen;

		/* perf prints the frame on the header line without -g. */
		if ((a = frame_addr(h->rest, h->rest_len, &alen)) != NULL) {
			ps->oneline = 1;
			ps->fresh = 0;
			return (add_frame_line(ps, a, alen,
			    h->rest + h->rest_len));
		}
	}
	return (0);
}

/* --- the "# ..." block ------------------------------------------------ */

static void
meta_set(struct ps *ps, const char *key, const char *v, size_t n)
{
	json_t	*s = json_stringn(v, n);

	if (s != NULL)
		json_object_set_new(tr_import_meta(ps->ctx), key, s);
}

/* Digits, or digits '.' digits. */
static int
seconds_shaped(const char *p, size_t n)
{
	const char	*dot = memchr(p, '.', n);

	if (dot == NULL)
		return (all_digits(p, n));
	return (all_digits(p, (size_t)(dot - p)) &&
	    all_digits(dot + 1, n - (size_t)(dot - p) - 1));
}

/*
 * "2026-11-29 12:39:35.361958 = 1795955975.361958 (TOD) = 445.252953791
 * (monotonic)": wall time and perf's clock at one instant.  'v' is
 * NUL-terminated.
 */
static void
reference_time(struct ps *ps, const char *v)
{
	json_t		*o = json_object(), *s;
	const char	*a, *b, *why;
	int64_t		 ns;
	size_t		 n;

	if ((s = json_string(v)) != NULL)
		json_object_set_new(o, "text", s);
	if ((a = strstr(v, " = ")) != NULL) {
		a += 3;
		n = strcspn(a, " ");
		if (seconds_shaped(a, n) && parse_seconds(a, n, &ns, &why) == 0)
			json_object_set_new(o, "tod_ns", json_integer(ns));
		if ((a = strstr(a, " = ")) != NULL) {
			a += 3;
			n = strcspn(a, " ");
			if (seconds_shaped(a, n) &&
			    parse_seconds(a, n, &ns, &why) == 0)
				json_object_set_new(o, "clock_ns",
				    json_integer(ns));
			b = a + n;
			n = strlen(b);
			if (n > 3 && b[1] == '(' && b[n - 1] == ')' &&
			    (s = json_stringn(b + 2, n - 3)) != NULL)
				json_object_set_new(o, "clock", s);
		}
	}
	json_object_set_new(tr_import_meta(ps->ctx), "reference_time", o);
}

static void
header_comment(struct ps *ps, const char *p, size_t n)
{
	static const struct {
		const char	*key, *meta;
	} keys[] = {
		{ "hostname", "hostname" },
		{ "os release", "os_release" },
		{ "perf version", "perf_version" },
		{ "arch", "arch" },
		{ "cpudesc", "cpudesc" },
		{ "nrcpus online", "nrcpus_online" },
		{ "cmdline", "cmdline" },
		{ "captured on", "captured_on" },
		{ "clockid frequency", "clockid_frequency" },
	};
	const char	*end = p + n, *k, *ke, *v;
	size_t		 i, kn, vn;

	for (k = p + 1; k < end && is_blank(*k); k++)
		;
	if ((v = memchr(k, ':', (size_t)(end - k))) == NULL)
		return;
	for (ke = v; ke > k && is_blank(ke[-1]); ke--)
		;
	kn = (size_t)(ke - k);
	for (v++; v < end && is_blank(*v); v++)
		;
	vn = (size_t)(end - v);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i].key) == kn &&
		    memcmp(keys[i].key, k, kn) == 0)
			break;
	if (i < sizeof keys / sizeof keys[0]) {
		meta_set(ps, keys[i].meta, v, vn);
		if (strcmp(keys[i].meta, "perf_version") == 0) {
			char	*s = tr_xstrndup(v, vn);

			tr_import_set_version(ps->ctx, s);
			free(s);
		} else if (strcmp(keys[i].meta, "hostname") == 0 &&
		    tr_import_host(ps->ctx) == NULL && vn > 0) {
			char	*s = tr_xstrndup(v, vn);

			tr_import_set_host(ps->ctx, s);
			free(s);
		}
	} else if (kn == 7 && memcmp(k, "clockid", 7) == 0) {
		/* "monotonic (1)": perf's name for the clock. */
		const char	*sp = memchr(v, ' ', vn);
		char		*s = tr_xstrndup(v, sp ? (size_t)(sp - v) : vn);

		if (*s != '\0')
			tr_import_set_clock(ps->ctx, s);
		meta_set(ps, "clockid", s, strlen(s));
		free(s);
	} else if (kn == 14 && memcmp(k, "reference time", 14) == 0) {
		char	*s = tr_xstrndup(v, vn);

		reference_time(ps, s);
		free(s);
	} else if (kn == 5 && memcmp(k, "event", 5) == 0 && vn > 7 &&
	    memcmp(v, "name = ", 7) == 0) {
		const char	*c = memchr(v + 7, ',', vn - 7);
		json_t		*s;

		s = json_stringn(v + 7, c ? (size_t)(c - v - 7) : vn - 7);
		if (s != NULL)
			json_array_append_new(ps->events, s);
	}
}

/* --- lines the peers tolerate ------------------------------------------ */

/* The first byte of p[0..n) that text has not (a control byte), or NULL. */
static const char *
not_text(const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (((unsigned char)p[i] < 0x20 && p[i] != '\t') ||
		    p[i] == 0x7f)
			return (p + i);
	return (NULL);
}

/* Binary data where perf prints a line of text: damage, always an error. */
static int
binary(struct ps *ps, const char *at)
{
	return (bad(ps, at, "binary data: byte 0x%02x in a line of text",
	    (unsigned)(unsigned char)*at));
}

/*
 * "WORD SYMBOL (DSO)" whose first word is no address: what
 * stackcollapse-perf.pl still takes for a frame (/^\s*(\w+)\s*(.+)
 * \((.*)\)/, its symbol and DSO kept, the word ignored).
 */
static int
frame_shaped(const char *q, const char *end)
{
	const char	*p = q;

	while (p < end && ((*p >= '0' && *p <= '9') || (*p >= 'a' &&
	    *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_'))
		p++;
	if (p == q || p == end || !is_blank(*p))
		return (0);
	while (p < end && is_blank(*p))
		p++;
	if (end - p < 4 || end[-1] != ')')
		return (0);
	for (p++; p + 1 < end; p++)
		if (p[0] == ' ' && p[1] == '(')
			return (1);
	return (0);
}

/*
 * An indented line in a sample's stack that is neither a frame nor a
 * srcline, from its first non-blank 'q' to 'end': perf has printed such
 * lines (inferno's weird-stack-line.txt comes from a report).  The peers
 * warn and go on: kept as a frame when stackcollapse-perf.pl reads one in
 * it, else left out.
 */
static int
odd_line(struct ps *ps, const char *q, const char *end)
{
	const char	*c;
	size_t		 n = (size_t)(end - q);

	if ((c = not_text(q, n)) != NULL)
		return (binary(ps, c));
	bad(ps, q, "malformed stack line: expected " EXPECT_FRAME ", got "
	    "'%.*s%s'", shown(n), q, ellipsis(n));
	ps->after_frame = 0;
	ps->blk_end = 0;
	if (!frame_shaped(q, end))
		return (tr_import_oddity(ps->ctx, ps->err, "left out, as "
		    "stackcollapse-perf.pl does"));
	if (tr_import_oddity(ps->ctx, ps->err, "kept as a frame with no "
	    "address, as stackcollapse-perf.pl does") != 0)
		return (-1);
	ps->nlines++;
	keep_line(ps, 'F', q, end);
	ps->after_frame = 1;
	return (0);
}

/*
 * A stack line after the blank line that ended a sample's stack, before
 * the next sample header: perf has printed a blank line inside a stack
 * (inferno's empty-line.txt comes from a report).  The peers end the
 * sample at the blank line and leave out the stack lines after it.
 */
static int
orphan_line(struct ps *ps, const char *q, const char *end)
{
	const char	*c;
	size_t		 n = (size_t)(end - q);

	if ((c = not_text(q, n)) != NULL)
		return (binary(ps, c));
	if (ps->orphans++ > 0)
		return (0);
	bad(ps, q, "stack line after the blank line that ended the sample "
	    "(line %ld): expected " EXPECT_HDR ", got '%.*s%s'",
	    ps->blank_line, shown(n), q, ellipsis(n));
	return (tr_import_oddity(ps->ctx, ps->err, "left out with the stack "
	    "lines up to the next sample header, as stackcollapse-perf.pl "
	    "does"));
}

/* --- the line loop ---------------------------------------------------- */

/* 'x', a pointer into 'from' (at or past 'cut', moved by 'shift'), in 'to'. */
static const char *
rebase(const char *x, const char *from, const char *cut, const char *to,
    ptrdiff_t shift)
{
	if (x == NULL)
		return (NULL);
	return (to + (x - from) + (x >= cut ? shift : 0));
}

static void
hdr_rebase(struct hdr *h, const char *from, const char *to, size_t tl)
{
	const char	*cut = h->ts_tok;
	ptrdiff_t	 shift = (ptrdiff_t)tl - (ptrdiff_t)h->ts_tok_len;

	h->comm = rebase(h->comm, from, cut, to, shift);
	h->event = rebase(h->event, from, cut, to, shift);
	h->rest = rebase(h->rest, from, cut, to, shift);
	h->tod = rebase(h->tod, from, cut, to, shift);
	h->ts_tok = rebase(h->ts_tok, from, cut, to, 0);
	h->ts_tok_len = tl;
}

/*
 * parse_header() for a line in the main loop.  Consecutive samples of a
 * thread print the same header but for the time: when the line is the
 * last one taken with another time token in its place, it parses as that
 * one did (its tokens before and after the time are the same), but for
 * the time.
 */
static int
header_again(struct ps *ps, const char *p, size_t n, struct hdr *h)
{
	const struct hdr	*o = &ps->ph_h;
	struct tok		 t;
	const char		*why;
	size_t			 pre, suf;
	int64_t			 ts;
	int			 r;

	if (ps->ph_ok) {
		pre = (size_t)(o->ts_tok - ps->ph.data);
		suf = ps->ph.len - pre - o->ts_tok_len;
		t.p = p + pre;
		t.n = n - pre - suf;
		if (n >= pre + suf + 4 && memcmp(p, ps->ph.data, pre) == 0 &&
		    memcmp(p + n - suf, o->ts_tok + o->ts_tok_len, suf) == 0 &&
		    time_shaped(&t) &&
		    parse_seconds(t.p, t.n - 1, &ts, &why) == 0) {
			*h = *o;
			hdr_rebase(h, ps->ph.data, p, t.n);
			h->ts = ts;
			return (1);
		}
	}
	if ((r = parse_header(ps, p, n, h)) == 1 && h->has_ts &&
	    !h->sideband) {
		tr_buf_reset(&ps->ph);
		tr_buf_add(&ps->ph, p, n);
		ps->ph_h = *h;
		hdr_rebase(&ps->ph_h, p, ps->ph.data, h->ts_tok_len);
		ps->ph_ok = 1;
	}
	return (r);
}

static int
start_header(struct ps *ps, const struct hdr *h)
{
	if (ps->open && !ps->oneline && ps->nlines == 0 && ps->callchains)
		return (no_stack(ps, "another sample header"));
	if (end_sample(ps) != 0)
		return (-1);
	ps->blank_line = 0;
	ps->orphans = 0;
	return (begin_sample(ps, h));
}

static int
do_line(struct ps *ps, const char *p, size_t n)
{
	struct hdr	 h;
	const char	*a, *q;
	size_t		 alen;
	int		 r, keep;

	ps->line = p;
	while (n > 0 && (is_blank(p[n - 1]) || p[n - 1] == '\r'))
		n--;
	if (n == 0) {
		/* perf prints "HEADER\n\n" for an empty callchain. */
		if (ps->open && !ps->oneline)
			ps->callchains = 1;
		if (ps->open)
			ps->blank_line = tr_input_lineno(ps->in);
		/* The block's own empty line ends the sample: keep it. */
		keep = ps->open && ps->blk_end != 0 &&
		    tr_input_offset(ps->in) == ps->blk_end;
		if (!keep)
			ps->blk_end = 0;
		if (end_sample(ps) != 0)
			return (-1);
		if (keep)
			sc_keep_block(ps);
		ps->blk_end = 0;
		return (0);
	}
	if (p[0] == '#') {
		if (!ps->seen_sample)
			header_comment(ps, p, n);
		return (0);
	}
	if (ps->open && is_blank(p[0])) {
		if (ps->oneline) {
			/* -G output: the next header may be indented. */
			if ((r = parse_header(ps, p, n, &h)) < 0)
				return (-1);
			if (r == 1)
				return (start_header(ps, &h));
		}
		if ((a = frame_addr(p, n, &alen)) != NULL) {
			ps->nlines++;
			ps->callchains = 1;
			return (add_frame_line(ps, a, alen, p + n));
		}
		if (ps->after_frame && n > 2 && p[0] == ' ' && p[1] == ' ' &&
		    !is_blank(p[2])) {
			/* perf script -F +srcline: "  file.c:12" */
			if (ps->after_frame == 1)
				keep_line(ps, 'S', p + 2, p + n);
			ps->after_frame = 2;
			return (0);
		}
		for (q = p; is_blank(*q); q++)
			;
		if (ps->oneline)
			return (bad(ps, q, "malformed sample header: expected "
			    EXPECT_HDR ", got '%.*s%s'", shown(n - (size_t)(q -
			    p)), q, ellipsis(n - (size_t)(q - p))));
		return (odd_line(ps, q, p + n));
	}
	if ((r = header_again(ps, p, n, &h)) < 0)
		return (-1);
	if (r == 1)
		return (start_header(ps, &h));
	for (q = p; is_blank(*q); q++)
		;
	if (!ps->open && ps->blank_line > 0 && (is_blank(p[0]) ||
	    frame_addr(p, n, &alen) != NULL))
		return (orphan_line(ps, q, p + n));
	if ((a = frame_addr(p, n, &alen)) != NULL) {
		if (ps->open) {
			/* Very old perf printed frames unindented. */
			ps->nlines++;
			ps->callchains = 1;
			return (add_frame_line(ps, a, alen, p + n));
		}
		return (bad(ps, q, "stack line before any sample header: "
		    "expected " EXPECT_HDR ", got '%.*s%s'",
		    shown(n - (size_t)(q - p)), q,
		    ellipsis(n - (size_t)(q - p))));
	}
	return (bad(ps, q, "malformed sample header: expected " EXPECT_HDR
	    ", got '%.*s%s'", shown(n - (size_t)(q - p)), q,
	    ellipsis(n - (size_t)(q - p))));
}

/*
 * The input ended inside the sample whose header is at 'line': leave it
 * out, as stackcollapse-perf.pl does, and say so.
 */
static void
cut_sample(struct ps *ps, long line)
{
	json_object_set_new(tr_import_meta(ps->ctx), "incomplete_last_sample",
	    json_integer(line));
	tr_import_set_cut(ps->ctx, line);
	ps->open = 0;
	ps->cut = 1;
}

/*
 * Whether the line just read, 'n' bytes at 'p' that began at input offset
 * 'off', ended with a newline: every line perf prints does.
 */
static int
line_ended(const struct ps *ps, int64_t off, const char *p, size_t n)
{
	int64_t	raw = tr_input_offset(ps->in) - off;

	/* tr_input_getline() drops "\n" or "\r\n". */
	return (raw == (int64_t)n + 2 || (raw == (int64_t)n + 1 &&
	    p[n] == '\n'));
}

/*
 * The last line of the input, with no newline after it: the file was cut
 * there.  A cut sample header is left out as a cut callchain is (the
 * sample before it is whole).  Returns 1 when the line was dealt with, 0
 * when do_line() is to read it (a comment, a sideband record, a stack
 * line: the end of run() leaves out the sample it belongs to), or -1.
 */
static int
last_line(struct ps *ps, const char *p, size_t n)
{
	struct hdr	h;
	size_t		alen;

	ps->line = p;
	while (n > 0 && (is_blank(p[n - 1]) || p[n - 1] == '\r'))
		n--;
	if (n == 0)
		/* No empty line ends the callchain: the sample is cut. */
		return (ps->open && !ps->oneline);
	if (p[0] == '#' || (ps->open && !ps->oneline && (is_blank(p[0]) ||
	    frame_addr(p, n, &alen) != NULL)))
		return (0);
	/* A stack line after the blank line ending a sample: left out. */
	if (!ps->open && ps->blank_line > 0 && (is_blank(p[0]) ||
	    frame_addr(p, n, &alen) != NULL) && parse_header(ps, p, n, &h) == 0)
		return (0);
	if (parse_header(ps, p, n, &h) == 1 && h.sideband)
		return (0);
	/* A number cut short may be out of range or malformed: no error. */
	tr_error_init(ps->err);
	if (ps->open && !ps->oneline && ps->nlines == 0 && ps->callchains)
		return (no_stack(ps, "another sample header"));
	if (end_sample(ps) != 0)
		return (-1);
	cut_sample(ps, tr_input_lineno(ps->in));
	return (1);
}

static void
ps_release(struct ps *ps)
{
	size_t	i;

	free(ps->ids);
	if (ps->pv != NULL)
		for (i = 0; i < PV_SLOTS; i++) {
			free(ps->pv[i].ids);
			free(ps->pv[i].cs);
		}
	free(ps->pv);
	tr_buf_release(&ps->stk);
	tr_buf_release(&ps->blk);
	tr_buf_release(&ps->ph);
	if (ps->sc != NULL)
		for (i = 0; i < SC_SLOTS; i++)
			free(ps->sc[i].text);
	free(ps->sc);
	free(ps->sc_first);
	free(ps->fl);
	tr_buf_release(&ps->fl_text);
	tr_buf_release(&ps->t_comm);
	tr_buf_release(&ps->e_name);
	json_decref(ps->events);
	json_decref(ps->tod_first);
	tr_buf_release(&ps->tod_last);
}

static int
run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	struct ps	 ps;
	const char	*line;
	size_t		 len;
	int64_t		 off;
	int		 r, rc = -1;

	memset(&ps, 0, sizeof ps);
	ps.ctx = ctx;
	ps.wr = tr_import_writer(ctx);
	ps.in = in;
	ps.err = err;
	tr_buf_init(&ps.stk);
	tr_buf_init(&ps.blk);
	tr_buf_init(&ps.ph);
	ps.sc = tr_xcalloc(SC_SLOTS, sizeof *ps.sc);
	ps.sc_first = tr_xcalloc(SC_SLOTS, sizeof *ps.sc_first);
	ps.fl = tr_xcalloc(FL_SLOTS, sizeof *ps.fl);
	ps.pv = tr_xcalloc(PV_SLOTS, sizeof *ps.pv);
	tr_buf_init(&ps.fl_text);
	tr_buf_init(&ps.t_comm);
	tr_buf_init(&ps.e_name);
	ps.events = json_array();
	tr_buf_init(&ps.tod_last);
	tr_import_set_clock(ctx, "perf");
	for (;;) {
		if (ps.fresh && (r = cached_stack(&ps)) != 0) {
			if (r < 0)
				goto out;
			continue;
		}
		off = tr_input_offset(in);
		if ((r = tr_input_getline(in, &line, &len, err)) != 1)
			break;
		if (!line_ended(&ps, off, line, len) &&
		    (r = last_line(&ps, line, len)) != 0) {
			if (r < 0)
				goto out;
			continue;
		}
		if (do_line(&ps, line, len) != 0)
			goto out;
	}
	if (r < 0)
		goto out;
	if (ps.cut)
		;
	else if (ps.open && !ps.oneline && ps.callchains)
		/*
		 * perf ends every callchain with an empty line: without it
		 * the file was cut and the last stack may be short.
		 */
		cut_sample(&ps, ps.hdr_line);
	else if (end_sample(&ps) != 0)
		goto out;
	fp_finish(&ps);
	if (json_array_size(ps.events) > 0)
		json_object_set(tr_import_meta(ctx), "events", ps.events);
	if (ps.tod_first != NULL) {
		json_t	*o = json_object();

		json_object_set(o, "first", ps.tod_first);
		json_object_set_new(o, "last", tod_pair(ps.tod_last.data,
		    ps.tod_last.len, ps.tod_last_ns));
		json_object_set_new(tr_import_meta(ctx), "tod", o);
	}
	rc = 0;
out:
	ps_release(&ps);
	return (rc);
}

/* --- detection -------------------------------------------------------- */

static int
probe(const unsigned char *buf, size_t len)
{
	const char	*p = (const char *)buf, *end = p + len, *nl;
	struct tr_error	 err;
	struct ps	 ps;
	struct hdr	 h;
	size_t		 n, alen;
	int		 lines = 0, first = 1, odd = 0;

	if (len >= 10 && memcmp(p, "# ========", 10) == 0)
		return (100);
	if (len >= 13 && memcmp(p, "# captured on", 13) == 0)
		return (95);
	memset(&ps, 0, sizeof ps);
	tr_error_init(&err);
	ps.err = &err;
	/*
	 * The first sample header, then a stack line (90), or another
	 * header with a time and an event (70).
	 */
	for (; p < end && lines < 200; p = nl + 1, lines++) {
		/* A last line without a newline is whole at end of input. */
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			if (len >= TR_INPUT_PEEK)
				break;
			nl = end;
		}
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (n == 0 || p[0] == '#')
			continue;
		ps.line = p;
		if (!first) {
			if (is_blank(p[0]) && frame_addr(p, n, &alen) != NULL)
				return (90);
			/* Very old perf: unindented "ADDR SYM (DSO)". */
			if (frame_addr(p, n, &alen) != NULL &&
			    p[n - 1] == ')' && parse_header(&ps, p, n, &h) == 0)
				return (80);
			if (parse_header(&ps, p, n, &h) == 1 && h.has_ts &&
			    h.event != NULL)
				return (70);
			/* An odd stack line or two (see odd_line()). */
			if (is_blank(p[0]) && odd++ < 2)
				continue;
			return (0);
		}
		if (parse_header(&ps, p, n, &h) != 1 || h.comm == NULL ||
		    (h.rest != NULL && !h.has_ts))
			return (0);
		first = 0;
	}
	return (0);
}

const struct tr_importer tr_importer_perf_script = {
	.name = "perf-script",
	.summary = "text output of perf script (samples, callchains)",
	.probe = probe,
	.run = run,
	.writer_thread = 1,
};
