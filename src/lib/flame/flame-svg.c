/*
 * Folded stacks to a self-contained interactive SVG flame graph.  The
 * stacks are merged into a tree in one pass (a hash of (parent, name)
 * finds a child; consecutive sorted lines mostly share their prefix, which
 * is reused without hashing), children are ordered by name, and frames
 * are written left to right with a small script of our own for tooltips,
 * click-to-zoom and search.  Colours come from a hash of each frame's
 * name, never from a random source, so equal input gives equal bytes.
 */
#include "config.h"
#include "flame/flame.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

#define XPAD		10		/* left and right margin */
#define FONTSIZE	12
#define FONTWIDTH	0.59		/* average glyph width / font size */
#define FONTWIDTH_S	"0.59"		/* the same, for the script */
#define FRAMEPAD	1		/* vertical gap between frames */
#define YPAD1		(FONTSIZE * 3)	/* top margin, with the title */
#define YPAD2		(FONTSIZE * 2 + 10)	/* bottom, with the details */
#define YPAD3		(FONTSIZE * 2)	/* extra top margin for a subtitle */
#define NONE		UINT32_MAX
#define FLUSH_AT	(64 * 1024)
#define SEARCH_COLOR	"rgb(230,0,230)"
#define NAMETYPE	"Function:"

struct fnode {
	const char	*name;		/* borrowed from the folded stacks */
	int64_t		 value;		/* own count plus the children's */
	int64_t		 delta;		/* differential: the stacks ending
					   here, their count less the base's;
					   flame chart: its first time stamp */
	uint32_t	 len;
	uint32_t	 parent;
	uint32_t	 first;		/* children, newest first until sorted */
	uint32_t	 next;		/* next sibling */
};

/*
 * A hash slot keeps the low bits of the hash with the node id, so that a
 * probe and a rehash seldom touch the nodes themselves.
 */
struct fslot {
	uint32_t	 id;		/* NONE when empty */
	uint32_t	 hash;
};

struct ftree {
	struct fnode	*nodes;
	size_t		 n, cap;
	struct fslot	*slots;		/* open addressing, linear probing */
	size_t		 nslots;	/* a power of two, at most 2^31 */
	uint32_t	 maxdepth;	/* the root is at depth 0 */
	int64_t		 maxdelta;	/* the largest |delta| of a stack, >= 1 */
	int		 chart;		/* a flame chart: no merging by name */
	int64_t		*cstart;	/* flame chart: each node's start (the
					   counts before it), by node */
	int64_t		 now;		/* flame chart: the counts so far */
};

/* A frame as written: where it starts, in counts from the left edge. */
struct frame_out {
	uint32_t	 id;
	uint32_t	 depth;
	int64_t		 start;
};

/* The colours of a --cp palette file: name -> "rgb(r,g,b)". */
struct palette_map {
	struct tr_map	*map;		/* name -> index */
	char		**names;
	size_t		*lens;
	char		**colors;
	size_t		 n, cap;
};

struct svg {
	const struct tr_svg_opts *o;
	FILE		*fp;
	struct tr_buf	 b;
	int		 failed;
	int		 errnum;
	int		 diff;		/* a differential graph */
	struct palette_map *pal;	/* --cp, or NULL */
};

void
tr_svg_opts_init(struct tr_svg_opts *o)
{
	memset(o, 0, sizeof *o);
	o->title = "Flame Graph";
	o->width = 1200;
	o->frameheight = 16;
	o->minwidth = 0.1;
	o->colors = TR_COLORS_HOT;
	o->countname = "samples";
}

int
tr_flame_parse_colors(const char *s, enum tr_flame_colors *c)
{
	if (strcmp(s, "hot") == 0)
		*c = TR_COLORS_HOT;
	else if (strcmp(s, "mem") == 0)
		*c = TR_COLORS_MEM;
	else if (strcmp(s, "io") == 0)
		*c = TR_COLORS_IO;
	else if (strcmp(s, "java") == 0)
		*c = TR_COLORS_JAVA;
	else if (strcmp(s, "go") == 0)
		*c = TR_COLORS_GO;
	else
		return (-1);
	return (0);
}

/*
 * FNV-1a one byte at a time: tr_hash64() reads words, so its value
 * depends on byte order, and colours must not.
 */
static uint64_t
name_hash(const char *s, size_t n)
{
	uint64_t	h = 0xcbf29ce484222325ULL;
	size_t		i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return (h);
}

static uint64_t
mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (h);
}

static uint32_t
child_hash(uint32_t parent, const char *name, size_t len)
{
	return ((uint32_t)mix64(name_hash(name, len) ^
	    ((uint64_t)parent * 0x9e3779b97f4a7c15ULL)));
}

static void
tree_rehash(struct ftree *t, size_t nslots)
{
	struct fslot	*old = t->slots;
	size_t		 oldn = t->nslots, i, j;

	t->nslots = nslots;
	t->slots = tr_xmalloc(nslots * sizeof *t->slots);
	for (i = 0; i < nslots; i++)
		t->slots[i].id = NONE;
	for (i = 0; i < oldn; i++) {
		if (old[i].id == NONE)
			continue;
		j = old[i].hash & (nslots - 1);
		while (t->slots[j].id != NONE)
			j = (j + 1) & (nslots - 1);
		t->slots[j] = old[i];
	}
	free(old);
}

/*
 * 'nstacks' sizes the first hash table: each distinct stack ends at its
 * own node, so there are at least that many nodes.
 */
static void
tree_init(struct ftree *t, size_t nstacks)
{
	size_t		 nslots = 1024;
	struct fnode	*r;

	memset(t, 0, sizeof *t);
	t->cap = 1024;
	t->nodes = tr_xmalloc(t->cap * sizeof *t->nodes);
	t->n = 1;
	r = &t->nodes[0];
	r->name = "all";
	r->len = 3;
	r->value = 0;
	r->delta = 0;
	r->parent = r->first = r->next = NONE;
	t->maxdelta = 1;
	while (nslots < nstacks * 2 && nslots <= (size_t)UINT32_MAX / 4)
		nslots *= 2;
	tree_rehash(t, nslots);
}

static void
tree_release(struct ftree *t)
{
	free(t->cstart);
	free(t->nodes);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

/* Add a child of 'parent' (at 'depth' - 1); NONE when the tree is full. */
static uint32_t
tree_new(struct ftree *t, uint32_t parent, uint32_t depth,
    const char *name, size_t len)
{
	struct fnode	*c, *p;
	uint32_t	 id;

	if (t->n >= NONE - 1 || len > UINT32_MAX)
		return (NONE);
	if (t->n == t->cap) {
		t->cap *= 2;
		t->nodes = tr_xrealloc(t->nodes, t->cap * sizeof *t->nodes);
		if (t->chart)
			t->cstart = tr_xrealloc(t->cstart,
			    t->cap * sizeof *t->cstart);
	}
	id = (uint32_t)t->n++;
	if (t->chart)
		t->cstart[id] = t->now;
	c = &t->nodes[id];
	p = &t->nodes[parent];
	c->name = name;
	c->len = (uint32_t)len;
	c->value = 0;
	c->delta = 0;
	c->parent = parent;
	c->first = NONE;
	c->next = p->first;
	p->first = id;
	if (depth > t->maxdepth)
		t->maxdepth = depth;
	return (id);
}

/*
 * The child of 'parent' (at 'depth' - 1) named 'name', added if new; NONE
 * when the tree is full.
 */
static uint32_t
tree_child(struct ftree *t, uint32_t parent, uint32_t depth,
    const char *name, size_t len)
{
	struct fnode	*c;
	size_t		 i;
	uint32_t	 id, h;

	if ((t->n + 1) * 4 > t->nslots * 3) {
		/* Slots hold 32 bits of hash: 2^31 slots at most. */
		if (t->nslots > (size_t)UINT32_MAX / 2)
			return (NONE);
		tree_rehash(t, t->nslots * 2);
	}
	h = child_hash(parent, name, len);
	for (i = h & (t->nslots - 1); (id = t->slots[i].id) != NONE;
	    i = (i + 1) & (t->nslots - 1)) {
		if (t->slots[i].hash != h)
			continue;
		c = &t->nodes[id];
		if (c->parent == parent && c->len == len &&
		    memcmp(c->name, name, len) == 0)
			return (id);
	}
	if ((id = tree_new(t, parent, depth, name, len)) != NONE) {
		t->slots[i].id = id;
		t->slots[i].hash = h;
	}
	return (id);
}

struct span {
	const char	*p;
	size_t		 len;
};

/*
 * Split "a;b;c" into frames, root first (leaf first with 'reverse').  As
 * in the folded format's reference reader, empty frames inside a stack are
 * kept and trailing empty ones dropped.  Returns the number of frames.
 */
static size_t
split_stack(const char *s, int reverse, struct span **fr, size_t *cap)
{
	const char	*p, *q;
	struct span	 tmp;
	size_t		 n = 0, i;

	for (p = s; *p != '\0'; p = *q ? q + 1 : q) {
		q = strchr(p, ';');
		if (q == NULL)
			q = p + strlen(p);
		if (n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*fr = tr_xrealloc(*fr, *cap * sizeof **fr);
		}
		(*fr)[n].p = p;
		(*fr)[n].len = (size_t)(q - p);
		n++;
		if (*q == '\0')
			break;
	}
	while (n > 0 && (*fr)[n - 1].len == 0)
		n--;
	if (reverse)
		for (i = 0; i < n / 2; i++) {
			tmp = (*fr)[i];
			(*fr)[i] = (*fr)[n - 1 - i];
			(*fr)[n - 1 - i] = tmp;
		}
	return (n);
}

static int
tree_build(struct ftree *t, const struct tr_folded *f, int reverse,
    struct tr_error *err)
{
	struct span	*fr = NULL, *prev = NULL;
	uint32_t	*prevnode = NULL, node, id;
	size_t		 frcap = 0, prevcap = 0, nprev = 0, nf, i, d;
	int64_t		 c, delta = 0;
	int		 same, rc = -1;

	for (i = 0; i < f->n; i++) {
		c = f->counts[i];
		if (c < 0 || (f->base != NULL && f->base[i] < 0)) {
			tr_error_set(err, TR_EDATA, "stack %zu has a negative "
			    "count (%lld)", i + 1, (long long)(c < 0 ? c :
			    f->base[i]));
			goto out;
		}
		/*
		 * As flamegraph.pl draws difffolded.pl's output: the widths
		 * are the second count, a stack's delta is charged to its
		 * leaf, and the colours scale by the largest delta of a
		 * stack, also of one that is gone (width 0, not drawn).
		 */
		if (f->base != NULL) {
			delta = c - f->base[i];
			if (delta > t->maxdelta || -delta > t->maxdelta)
				t->maxdelta = delta < 0 ? -delta : delta;
		}
		if (c == 0)
			continue;
		if (t->nodes[0].value > INT64_MAX - c) {
			tr_error_set(err, TR_EDATA, "the counts add up to more "
			    "than %lld", (long long)INT64_MAX);
			goto out;
		}
		t->nodes[0].value += c;
		nf = split_stack(f->stacks[i], reverse, &fr, &frcap);
		if (nf > prevcap) {
			prevcap = nf * 2;
			prev = tr_xrealloc(prev, prevcap * sizeof *prev);
			prevnode = tr_xrealloc(prevnode,
			    prevcap * sizeof *prevnode);
		}
		node = 0;
		same = 1;
		for (d = 0; d < nf; d++) {
			if (same && d < nprev && prev[d].len == fr[d].len &&
			    memcmp(prev[d].p, fr[d].p, fr[d].len) == 0)
				id = prevnode[d];
			else {
				same = 0;
				id = t->chart ? tree_new(t, node,
				    (uint32_t)d + 1, fr[d].p, fr[d].len) :
				    tree_child(t, node, (uint32_t)d + 1,
				    fr[d].p, fr[d].len);
				if (id == NONE) {
					tr_error_set(err, TR_EDATA, "too many "
					    "distinct frames to draw");
					goto out;
				}
				if (t->chart && f->ts != NULL)
					t->nodes[id].delta = f->ts[i];
			}
			prev[d] = fr[d];
			prevnode[d] = id;
			t->nodes[id].value += c;
			node = id;
		}
		if (nf > 0 && !t->chart)
			t->nodes[node].delta += delta;
		t->now += c;
		nprev = nf;
	}
	rc = 0;
out:
	free(fr);
	free(prev);
	free(prevnode);
	return (rc);
}

struct child {
	const char	*name;
	size_t		 len;
	uint32_t	 id;
};

static int
name_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int	r = memcmp(a, b, alen < blen ? alen : blen);

	if (r != 0)
		return (r);
	return (alen < blen ? -1 : alen > blen);
}

static int
child_cmp(const void *va, const void *vb)
{
	const struct child	*a = va, *b = vb;

	return (name_cmp(a->name, a->len, b->name, b->len));
}

/*
 * Order every node's children by name (bytes, as LC_ALL=C sort does).
 * Children are prepended as they come, so sorted input leaves each list in
 * reverse order, which is undone in place; other lists get sorted.
 */
static void
tree_sort(struct ftree *t)
{
	struct child	*ch = NULL;
	size_t		 cap = 0, n, i, k;
	uint32_t	 c, prev, next;
	struct fnode	*p, *a, *b;
	int		 desc;

	for (i = 0; i < t->n; i++) {
		p = &t->nodes[i];
		/* A flame chart keeps the input's order. */
		desc = 1;
		for (c = p->first; c != NONE && desc && !t->chart;
		    c = a->next) {
			a = &t->nodes[c];
			if (a->next == NONE)
				break;
			b = &t->nodes[a->next];
			if (name_cmp(a->name, a->len, b->name, b->len) <= 0)
				desc = 0;
		}
		if (desc) {
			prev = NONE;
			for (c = p->first; c != NONE; c = next) {
				next = t->nodes[c].next;
				t->nodes[c].next = prev;
				prev = c;
			}
			p->first = prev;
			continue;
		}
		n = 0;
		for (c = p->first; c != NONE; c = t->nodes[c].next) {
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				ch = tr_xrealloc(ch, cap * sizeof *ch);
			}
			ch[n].name = t->nodes[c].name;
			ch[n].len = t->nodes[c].len;
			ch[n].id = c;
			n++;
		}
		qsort(ch, n, sizeof *ch, child_cmp);
		p->first = ch[0].id;
		for (k = 0; k + 1 < n; k++)
			t->nodes[ch[k].id].next = ch[k + 1].id;
		t->nodes[ch[n - 1].id].next = NONE;
	}
	free(ch);
}

/*
 * The frames wide enough to draw, in preorder (parents before children,
 * siblings left to right), with where each starts.  A frame too narrow
 * hides its subtree, which is narrower still.  Returns how many, and the
 * deepest drawn depth in *maxdepth.
 */
static size_t
tree_layout(const struct ftree *t, double minvalue, struct frame_out **out,
    uint32_t *maxdepth)
{
	uint32_t	*it;
	int64_t		*st;
	struct frame_out *fo;
	size_t		 n = 0, cap = 1024, top;
	uint32_t	 c;
	int64_t		 s;

	it = tr_xmalloc(((size_t)t->maxdepth + 2) * sizeof *it);
	st = tr_xmalloc(((size_t)t->maxdepth + 2) * sizeof *st);
	fo = tr_xmalloc(cap * sizeof *fo);
	*maxdepth = 0;
	fo[n].id = 0;
	fo[n].depth = 0;
	fo[n].start = 0;
	n++;
	top = 1;
	it[0] = t->nodes[0].first;
	st[0] = 0;
	while (top > 0) {
		c = it[top - 1];
		if (c == NONE) {
			top--;
			continue;
		}
		it[top - 1] = t->nodes[c].next;
		/* In a flame chart a frame may start after its parent's own
		 * samples: where it started is kept. */
		s = t->chart ? t->cstart[c] : st[top - 1];
		st[top - 1] += t->nodes[c].value;
		if ((double)t->nodes[c].value < minvalue)
			continue;
		if (n == cap) {
			cap *= 2;
			fo = tr_xrealloc(fo, cap * sizeof *fo);
		}
		fo[n].id = c;
		fo[n].depth = (uint32_t)top;
		fo[n].start = s;
		n++;
		if (top > *maxdepth)
			*maxdepth = (uint32_t)top;
		it[top] = t->nodes[c].first;
		st[top] = s;
		top++;
	}
	free(it);
	free(st);
	*out = fo;
	return (n);
}

static void
svg_flush(struct svg *w)
{
	if (w->b.len > 0 && !w->failed &&
	    fwrite(w->b.data, 1, w->b.len, w->fp) != w->b.len) {
		w->failed = 1;
		w->errnum = errno;
	}
	tr_buf_reset(&w->b);
}

static void
svg_maybe_flush(struct svg *w)
{
	if (w->b.len >= FLUSH_AT)
		svg_flush(w);
}

/*
 * Decode one character of 's' ('n' bytes left) into *cp and return its
 * length.  Bytes that are not UTF-8, and characters XML 1.0 forbids even
 * as references, decode as U+FFFD of length 1.
 */
static size_t
utf8_char(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t	c = s[0], min;
	size_t		len, i;

	if (c < 0x80) {
		*cp = c < 0x20 && c != '\t' && c != '\n' && c != '\r' ?
		    0xfffd : c;
		return (1);
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else
		goto bad;
	if (len > n)
		goto bad;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			goto bad;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ||
	    c == 0xfffe || c == 0xffff)
		goto bad;
	*cp = c;
	return (len);
bad:
	*cp = 0xfffd;
	return (1);
}

/*
 * Append at most 'maxchars' characters of s[0..n) as XML character data.
 * Returns the number of characters the whole string has.
 */
static size_t
put_xml(struct tr_buf *b, const char *s, size_t n, size_t maxchars)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, k, chars = 0;
	uint32_t		 cp;

	while (i < n) {
		k = utf8_char(u + i, n - i, &cp);
		if (chars < maxchars) {
			if (cp == '&')
				tr_buf_adds(b, "&amp;");
			else if (cp == '<')
				tr_buf_adds(b, "&lt;");
			else if (cp == '>')
				tr_buf_adds(b, "&gt;");
			else if (cp == '"')
				tr_buf_adds(b, "&quot;");
			else if (cp == '\r')
				tr_buf_adds(b, "&#13;");
			else if (cp == 0xfffd)
				tr_buf_adds(b, "\xef\xbf\xbd");
			else
				tr_buf_add(b, u + i, k);
		}
		chars++;
		i += k;
	}
	return (chars);
}

static size_t
count_chars(const char *s, size_t n)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, chars = 0;
	uint32_t		 cp;

	while (i < n) {
		i += utf8_char(u + i, n - i, &cp);
		chars++;
	}
	return (chars);
}

/* Append 's' as a JavaScript string literal that is safe inside CDATA. */
static void
put_js_string(struct tr_buf *b, const char *s)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i = 0, n = strlen(s);
	uint32_t		 cp;

	tr_buf_addc(b, '"');
	while (i < n) {
		i += utf8_char(u + i, n - i, &cp);
		if (cp >= 0x20 && cp < 0x7f && strchr("\\\"'<>&]", (int)cp)
		    == NULL)
			tr_buf_addc(b, (char)cp);
		else if (cp < 0x10000)
			tr_buf_printf(b, "\\u%04x", (unsigned)cp);
		else
			tr_buf_printf(b, "\\u%04x\\u%04x",
			    (unsigned)(0xd800 + ((cp - 0x10000) >> 10)),
			    (unsigned)(0xdc00 + ((cp - 0x10000) & 0x3ff)));
	}
	tr_buf_addc(b, '"');
}

/* 1234567 as "1,234,567". */
static void
put_commas(struct tr_buf *b, int64_t v)
{
	char	digits[32];
	size_t	n, i;

	n = (size_t)snprintf(digits, sizeof digits, "%lld", (long long)v);
	for (i = 0; i < n; i++) {
		if (i > 0 && digits[i - 1] != '-' && (n - i) % 3 == 0)
			tr_buf_addc(b, ',');
		tr_buf_addc(b, digits[i]);
	}
}

/*
 * A non-negative number with two decimals.  printf("%.2f") is most of the
 * writing time; ties may round differently from it, but always the same
 * way, which is what reproducible output needs.
 */
static void
put_fix2(struct tr_buf *b, double v)
{
	char		 tmp[32], *p = tmp + sizeof tmp;
	uint64_t	 k;

	if (!(v >= 0 && v < 1e15)) {
		tr_buf_printf(b, "%.2f", v);
		return;
	}
	k = (uint64_t)(v * 100 + 0.5);
	*--p = (char)('0' + k % 10);
	*--p = (char)('0' + k / 10 % 10);
	*--p = '.';
	k /= 100;
	do {
		*--p = (char)('0' + k % 10);
		k /= 10;
	} while (k > 0);
	tr_buf_add(b, p, (size_t)(tmp + sizeof tmp - p));
}

/* Strip the "_[k]" style annotation of stackcollapse: colour shows it. */
static size_t
display_len(const char *s, size_t n)
{
	if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
	    strchr("kwij", s[n - 2]) != NULL && s[n - 2] != '\0')
		return (n - 4);
	return (n);
}

static int
has_suffix(const char *s, size_t n, const char *suf)
{
	size_t	k = strlen(suf);

	return (n >= k && memcmp(s + n - k, suf, k) == 0);
}

static int
has_prefix(const char *s, size_t n, const char *pre)
{
	size_t	k = strlen(pre);

	return (n >= k && memcmp(s, pre, k) == 0);
}

static int
contains(const char *s, size_t n, const char *needle)
{
	size_t	k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			return (1);
	return (0);
}

enum palette {
	PAL_HOT, PAL_MEM, PAL_IO, PAL_RED, PAL_GREEN, PAL_AQUA, PAL_YELLOW,
	PAL_ORANGE, PAL_PURPLE
};

/*
 * Is this a Go symbol: "pkg.Func", "path/to/pkg.(*T).Method",
 * "pkg.F[...]"?  The package path is the text up to the last '/' before
 * any '(' or '[' (type arguments may hold paths); the last element must
 * be followed by '.' and something.  C symbols with GCC's ".isra.0" style
 * clone suffixes are not Go.
 */
static int
is_go_symbol(const char *s, size_t n)
{
	size_t	i, elem = 0, end = n;

	if (n == 0 || s[0] == '_' || s[0] == '[' || s[0] == '.')
		return (0);
	if (has_prefix(s, n, "type:") || has_prefix(s, n, "type..") ||
	    has_prefix(s, n, "go:") || has_prefix(s, n, "go."))
		return (1);
	for (i = 0; i < n; i++)
		if (s[i] == '(' || s[i] == '[') {
			end = i;
			break;
		}
	for (i = 0; i < end; i++) {
		if (s[i] == '/')
			elem = i + 1;
		else if (!(s[i] == '.' || s[i] == '-' || s[i] == '_' ||
		    s[i] == '~' || (s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z')))
			return (0);
	}
	for (i = elem; i < n && s[i] != '.'; i++)
		;
	if (i == elem || i + 1 >= n)
		return (0);
	if (contains(s, n, ".isra.") || contains(s, n, ".constprop.") ||
	    contains(s, n, ".part.") || has_suffix(s, n, ".cold") ||
	    contains(s, n, ".lto_priv.") || contains(s, n, ".llvm."))
		return (0);
	return (1);
}

static int
is_go_runtime(const char *s, size_t n)
{
	return (has_prefix(s, n, "runtime.") || has_prefix(s, n, "runtime/") ||
	    has_prefix(s, n, "internal/runtime/") ||
	    has_prefix(s, n, "runtime\xc2\xb7"));
}

/* Java (FlameGraph's rules): JIT, inlined, Java, C++, kernel, system. */
static enum palette
java_palette(const char *s, size_t n)
{
	static const char *const pkgs[] = {
		"java/", "javax/", "jdk/", "net/", "org/", "com/", "io/",
		"sun/", NULL
	};
	const char	*p = s;
	size_t		 m = n, i;

	if (has_suffix(s, n, "_[j]"))
		return (PAL_GREEN);
	if (has_suffix(s, n, "_[i]"))
		return (PAL_AQUA);
	if (m > 0 && *p == 'L') {
		p++;
		m--;
	}
	for (i = 0; pkgs[i] != NULL; i++)
		if (has_prefix(p, m, pkgs[i]))
			return (PAL_GREEN);
	if (contains(s, n, ":::"))
		return (PAL_GREEN);
	if (contains(s, n, "::"))
		return (PAL_YELLOW);
	if (has_suffix(s, n, "_[k]"))
		return (PAL_ORANGE);
	return (PAL_RED);
}

/*
 * Go: kernel orange, JIT purple, the Go runtime aqua, other Go code
 * green, C++ yellow, C and everything else red.  Inlined frames take the
 * colour of what they are.
 */
static enum palette
go_palette(const char *s, size_t n)
{
	if (has_suffix(s, n, "_[k]"))
		return (PAL_ORANGE);
	if (has_suffix(s, n, "_[j]"))
		return (PAL_PURPLE);
	n = display_len(s, n);
	if (is_go_runtime(s, n))
		return (PAL_AQUA);
	if (contains(s, n, "::"))
		return (PAL_YELLOW);
	if (is_go_symbol(s, n))
		return (PAL_GREEN);
	return (PAL_RED);
}

/*
 * flamegraph.pl's namehash() (its --hash): a value in [0, 1] from the
 * first characters of the name, the early ones weighing most, so that
 * similar names get similar colours; a "module`" prefix is skipped.  Its
 * characters are code points (it reads UTF-8), 'rev': of the name
 * reversed.
 */
static double
fg_namehash(const char *s, size_t n, int rev)
{
	const unsigned char	*u = (const unsigned char *)s;
	uint32_t		 cp[16], c;
	size_t			 i, k, m = 0, len, first = 1;
	double			 vector = 0, weight = 1, max = 1;
	int			 mod = 10, skip = 0;

	/* The code points, in the order read, up to 13 after the module. */
	for (i = 0; i < n; i += len) {
		if (rev) {
			/* Back to the start of the last character. */
			for (k = n - i - 1; k > 0 && (u[k] & 0xc0) == 0x80 &&
			    n - i - k < 4; k--)
				;
			len = utf8_char(u + k, n - i - k, &c);
			if (k + len != n - i) {
				c = 0xfffd;
				len = 1;
			}
		} else
			len = utf8_char(u + i, n - i, &c);
		/* s/.(.*?)`//: the first backquote after the first char. */
		if (!skip && !first && c == '`') {
			skip = 1;
			m = 0;
			continue;
		}
		first = 0;
		if (m < sizeof cp / sizeof cp[0])
			cp[m++] = c;
		else if (skip)
			break;
	}
	for (i = 0; i < m; i++) {
		vector += ((double)(cp[i] % (uint32_t)mod) / (mod - 1)) *
		    weight;
		mod++;
		max += 1 * weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return (1 - vector / max);
}

/*
 * The fill of a frame: the palette gives the hue, v1..v3 in [0, 1) the
 * variation.  By default they are three 16-bit slices of the name's hash
 * (exact arithmetic: the same everywhere); with --hash flamegraph.pl's
 * namehash() of the name and of it reversed.
 */
static void
put_color(struct tr_buf *b, enum tr_flame_colors scheme, int fghash,
    const char *s, size_t n)
{
	uint64_t	h = mix64(name_hash(s, n));
	double		v1, v2, v3;
	unsigned	r, g, bl;
	enum palette	p;

	if (fghash) {
		v1 = fg_namehash(s, n, 0);
		v2 = v3 = fg_namehash(s, n, 1);
	} else {
		v1 = (double)(h & 0xffff) / 65536;
		v2 = (double)((h >> 16) & 0xffff) / 65536;
		v3 = (double)((h >> 32) & 0xffff) / 65536;
	}
	switch (scheme) {
	case TR_COLORS_MEM:
		p = PAL_MEM;
		break;
	case TR_COLORS_IO:
		p = PAL_IO;
		break;
	case TR_COLORS_JAVA:
		p = java_palette(s, n);
		break;
	case TR_COLORS_GO:
		p = go_palette(s, n);
		break;
	case TR_COLORS_HOT:
	default:
		p = PAL_HOT;
		break;
	}
#define V(k, x)	((unsigned)((k) * (x)))
	switch (p) {
	case PAL_HOT:
		r = 205 + V(50, v3);
		g = V(230, v1);
		bl = V(55, v2);
		break;
	case PAL_MEM:
		r = 0;
		g = 190 + V(50, v2);
		bl = V(210, v1);
		break;
	case PAL_IO:
		r = g = 80 + V(60, v1);
		bl = 190 + V(55, v2);
		break;
	case PAL_GREEN:
		g = 200 + V(55, v1);
		r = bl = 50 + V(60, v1);
		break;
	case PAL_AQUA:
		r = 50 + V(60, v1);
		g = bl = 165 + V(55, v1);
		break;
	case PAL_YELLOW:
		r = g = 175 + V(55, v1);
		bl = 50 + V(20, v1);
		break;
	case PAL_ORANGE:
		r = 190 + V(65, v1);
		g = 90 + V(65, v1);
		bl = 0;
		break;
	case PAL_PURPLE:
		r = bl = 190 + V(65, v1);
		g = 80 + V(60, v1);
		break;
	case PAL_RED:
	default:
		r = 200 + V(55, v1);
		g = bl = 50 + V(80, v1);
		break;
	}
#undef V
	tr_buf_printf(b, "rgb(%u,%u,%u)", r, g, bl);
}

static void
palette_add(struct palette_map *pm, const char *name, size_t len,
    const char *color, size_t clen)
{
	if (pm->n == pm->cap) {
		pm->cap = pm->cap ? pm->cap * 2 : 256;
		pm->names = tr_xrealloc(pm->names, pm->cap * sizeof *pm->names);
		pm->lens = tr_xrealloc(pm->lens, pm->cap * sizeof *pm->lens);
		pm->colors = tr_xrealloc(pm->colors,
		    pm->cap * sizeof *pm->colors);
	}
	pm->names[pm->n] = tr_xstrndup(name, len);
	pm->lens[pm->n] = len;
	pm->colors[pm->n] = tr_xstrndup(color, clen);
	tr_map_put(pm->map, pm->names[pm->n], len, (int64_t)pm->n);
	pm->n++;
}

static void
palette_free(struct palette_map *pm)
{
	size_t	i;

	if (pm == NULL)
		return;
	for (i = 0; i < pm->n; i++) {
		free(pm->names[i]);
		free(pm->colors[i]);
	}
	free(pm->names);
	free(pm->lens);
	free(pm->colors);
	tr_map_free(pm->map);
	free(pm);
}

/* "rgb(R,G,B)" with each part 0-255, as flamegraph.pl writes colours. */
static int
is_rgb(const char *s)
{
	int	i, k;
	long	v;

	if (strncmp(s, "rgb(", 4) != 0)
		return (0);
	s += 4;
	for (i = 0; i < 3; i++) {
		for (k = 0, v = 0; k < 3 && s[k] >= '0' && s[k] <= '9'; k++)
			v = v * 10 + (s[k] - '0');
		if (k == 0 || v > 255 || s[k] != (i < 2 ? ',' : ')'))
			return (0);
		s += k + 1;
	}
	return (*s == '\0');
}

/*
 * Read a palette file of "NAME->rgb(R,G,B)" lines (flamegraph.pl's
 * palette.map; a name may itself hold "->": the colour is after the last
 * one).  A missing file is an empty palette.  Returns the palette, or
 * NULL with 'err' set.
 */
static struct palette_map *
palette_read(const char *path, struct tr_error *err)
{
	struct palette_map	*pm = tr_xcalloc(1, sizeof *pm);
	FILE			*fp;
	char			*line = NULL, *arrow, *p;
	size_t			 cap = 0, lineno = 0;
	ssize_t			 len;
	int64_t			 idx;

	pm->map = tr_map_new();
	if ((fp = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return (pm);
		tr_error_set(err, TR_EIO, "%s: %s", path, strerror(errno));
		palette_free(pm);
		return (NULL);
	}
	while ((len = getline(&line, &cap, fp)) != -1) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		arrow = NULL;
		for (p = line; (p = strstr(p, "->")) != NULL; p++)
			arrow = p;
		if (arrow == NULL || !is_rgb(arrow + 2)) {
			tr_error_set_line(err, TR_EDATA, path, (long)lineno,
			    arrow == NULL ? 1L : (long)(arrow - line) + 3,
			    "expected NAME->rgb(R,G,B) (a palette file)");
			goto fail;
		}
		/* A later line wins, as in flamegraph.pl's hash. */
		if (tr_map_get(pm->map, line, (size_t)(arrow - line), &idx)) {
			free(pm->colors[idx]);
			pm->colors[idx] = tr_xstrdup(arrow + 2);
		} else
			palette_add(pm, line, (size_t)(arrow - line),
			    arrow + 2, strlen(arrow + 2));
	}
	if (ferror(fp)) {
		tr_error_set(err, TR_EIO, "%s: %s", path, strerror(errno));
		goto fail;
	}
	free(line);
	fclose(fp);
	return (pm);
fail:
	free(line);
	fclose(fp);
	palette_free(pm);
	return (NULL);
}

static const struct palette_map *sort_pm;

static int
palette_cmp(const void *va, const void *vb)
{
	size_t	a = *(const size_t *)va, b = *(const size_t *)vb;

	return (name_cmp(sort_pm->names[a], sort_pm->lens[a],
	    sort_pm->names[b], sort_pm->lens[b]));
}

/*
 * Write the palette back, sorted by name as flamegraph.pl writes it,
 * through a temporary file renamed into place.  Returns 0 or -1.
 */
static int
palette_write(const struct palette_map *pm, const char *path,
    struct tr_error *err)
{
	char	*tmp = tr_xasprintf("%s.tmpXXXXXX", path);
	size_t	*order, i;
	FILE	*fp = NULL;
	int	 fd, rc = -1;

	order = tr_xcalloc(pm->n + 1, sizeof *order);
	for (i = 0; i < pm->n; i++)
		order[i] = i;
	sort_pm = pm;
	if (pm->n > 0)
		qsort(order, pm->n, sizeof *order, palette_cmp);
	if ((fd = mkstemp(tmp)) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		tr_error_set(err, TR_EIO, "%s: %s", tmp, strerror(errno));
		if (fd != -1) {
			close(fd);
			unlink(tmp);
		}
		goto out;
	}
	for (i = 0; i < pm->n; i++) {
		fwrite(pm->names[order[i]], 1, pm->lens[order[i]], fp);
		fprintf(fp, "->%s\n", pm->colors[order[i]]);
	}
	if (ferror(fp) | (fclose(fp) != 0)) {
		tr_error_set(err, TR_EIO, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		tr_error_set(err, TR_EIO, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(order);
	free(tmp);
	return (rc);
}

/*
 * flamegraph.pl's color_scale(): more in the graph than in the base red,
 * less blue, as deep as the delta is against the largest; equal white.
 */
static void
put_diff_color(struct tr_buf *b, int64_t delta, int64_t max, int negate)
{
	unsigned	r = 255, g = 255, bl = 255;
	double		v = (double)(negate ? -delta : delta), m = (double)max;

	if (v > 0)
		g = bl = (unsigned)(210 * (m - v) / m);
	else if (v < 0)
		r = g = (unsigned)(210 * (m + v) / m);
	tr_buf_printf(b, "rgb(%u,%u,%u)", r, g, bl);
}

/* The colour of frame 'nd', as flamegraph.pl chooses it. */
static void
put_fill(struct svg *w, const struct ftree *t, const struct fnode *nd)
{
	struct palette_map	*pm = w->pal;
	const char		*name = nd->name;
	size_t			 start, len = nd->len;
	int64_t			 idx;

	/* flamegraph.pl's root is the frame named "" (its colour, its key). */
	if (nd == &t->nodes[0] && (w->o->hash || pm != NULL))
		len = 0;
	if (nd->len == 2 && memcmp(nd->name, "--", 2) == 0)
		tr_buf_adds(&w->b, "rgb(160,160,160)");
	else if (nd->len == 1 && nd->name[0] == '-')
		tr_buf_adds(&w->b, "rgb(200,200,200)");
	else if (w->diff)
		put_diff_color(&w->b, nd->delta, t->maxdelta, w->o->negate);
	else if (pm != NULL) {
		if (tr_map_get(pm->map, name, len, &idx)) {
			tr_buf_adds(&w->b, pm->colors[idx]);
			return;
		}
		start = w->b.len;
		put_color(&w->b, w->o->colors, w->o->hash, name, len);
		palette_add(pm, name, len, w->b.data + start,
		    w->b.len - start);
	} else
		put_color(&w->b, w->o->colors, w->o->hash, name, len);
}

/*
 * The script: our own, small.  It reads each frame's place from its rect
 * and its name and count from its <title>, so the SVG needs no other data.
 * TRFLAME (written before it) holds the sizes and words it needs.
 */
static const char flame_js[] =
"(function () {\n"
"\"use strict\";\n"
"var C = TRFLAME, doc = document, frames = [], root = null;\n"
"var zoomed = null, term = null, icase = false;\n"
"var details, matched, unzoomBtn, searchBtn, icBtn;\n"
"var SEP = \" \" + C.unit + \", \";\n"
"\n"
"function commas(n) {\n"
"\treturn String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, \",\");\n"
"}\n"
"function label(name, w) {\n"
"\tvar chars = Math.floor(w / (C.fs * C.fw)), cp;\n"
"\n"
"\tif (chars < 3)\n"
"\t\treturn \"\";\n"
"\tcp = Array.from(name);\n"
"\tif (cp.length <= chars)\n"
"\t\treturn name;\n"
"\treturn cp.slice(0, chars - 2).join(\"\") + \"..\";\n"
"}\n"
"function parse(g) {\n"
"\tvar r = g.querySelector(\"rect\"), t = g.querySelector(\"text\");\n"
"\tvar s = g.querySelector(\"title\").textContent;\n"
"\tvar p = s.lastIndexOf(SEP), q = p < 0 ? -1 : s.lastIndexOf(\" (\", p);\n"
"\tvar f = {\n"
"\t\tg: g, r: r, t: t, info: s,\n"
"\t\tname: q < 0 ? s : s.substring(0, q),\n"
"\t\tn: q < 0 ? 0 : Number(s.substring(q + 2, p).replace(/,/g, \"\")),\n"
"\t\tx: parseFloat(r.getAttribute(\"x\")),\n"
"\t\tw: parseFloat(r.getAttribute(\"width\")),\n"
"\t\ty: parseFloat(r.getAttribute(\"y\")),\n"
"\t\txs: r.getAttribute(\"x\"), ws: r.getAttribute(\"width\"),\n"
"\t\ttx: t.getAttribute(\"x\"), txt: t.textContent,\n"
"\t\tfill: r.getAttribute(\"fill\")\n"
"\t};\n"
"\n"
"\tg.trf = f;\n"
"\treturn f;\n"
"}\n"
"function place(f, x, w) {\n"
"\tf.r.setAttribute(\"x\", x.toFixed(2));\n"
"\tf.r.setAttribute(\"width\", w.toFixed(2));\n"
"\tf.t.setAttribute(\"x\", (x + 3).toFixed(2));\n"
"\tf.t.textContent = label(f.name, w);\n"
"}\n"
"function restore(f) {\n"
"\tf.g.classList.remove(\"hide\", \"parent\");\n"
"\tf.r.setAttribute(\"x\", f.xs);\n"
"\tf.r.setAttribute(\"width\", f.ws);\n"
"\tf.t.setAttribute(\"x\", f.tx);\n"
"\tf.t.textContent = f.txt;\n"
"}\n"
"function remember() {\n"
"\tvar q = [];\n"
"\n"
"\tif (zoomed)\n"
"\t\tq.push(\"z=\" + frames.indexOf(zoomed));\n"
"\tif (term !== null)\n"
"\t\tq.push(\"s=\" + encodeURIComponent(term));\n"
"\tif (icase)\n"
"\t\tq.push(\"i=1\");\n"
"\ttry {\n"
"\t\thistory.replaceState(null, \"\", q.length ? \"?\" + q.join(\"&\") :\n"
"\t\t    location.pathname);\n"
"\t} catch (e) {\n"
"\t\t/* file: URLs may refuse; the state is only a convenience */\n"
"\t}\n"
"}\n"
"/*\n"
" * Zoom on z: frames toward the root that contain z's middle become full\n"
" * width and faded; frames whose middle lies inside z are stretched; the\n"
" * rest are hidden.  Positions always come from the original layout.\n"
" */\n"
"function zoom(z) {\n"
"\tvar mid = z.x + z.w / 2, full = C.w - 2 * C.xpad, ratio = full / z.w;\n"
"\tvar i, f, m, toward;\n"
"\n"
"\tif (z === root) {\n"
"\t\tunzoom();\n"
"\t\treturn;\n"
"\t}\n"
"\tzoomed = z;\n"
"\tfor (i = 0; i < frames.length; i++) {\n"
"\t\tf = frames[i];\n"
"\t\ttoward = C.inv ? f.y < z.y : f.y > z.y;\n"
"\t\tif (toward) {\n"
"\t\t\tif (f.x < mid && mid < f.x + f.w) {\n"
"\t\t\t\tf.g.classList.remove(\"hide\");\n"
"\t\t\t\tf.g.classList.add(\"parent\");\n"
"\t\t\t\tplace(f, C.xpad, full);\n"
"\t\t\t} else\n"
"\t\t\t\tf.g.classList.add(\"hide\");\n"
"\t\t\tcontinue;\n"
"\t\t}\n"
"\t\tm = f.x + f.w / 2;\n"
"\t\tif (m > z.x && m < z.x + z.w) {\n"
"\t\t\tf.g.classList.remove(\"hide\", \"parent\");\n"
"\t\t\tplace(f, C.xpad + (f.x - z.x) * ratio, f.w * ratio);\n"
"\t\t} else\n"
"\t\t\tf.g.classList.add(\"hide\");\n"
"\t}\n"
"\tunzoomBtn.classList.remove(\"hide\");\n"
"\tremember();\n"
"}\n"
"function unzoom() {\n"
"\tvar i;\n"
"\n"
"\tzoomed = null;\n"
"\tfor (i = 0; i < frames.length; i++)\n"
"\t\trestore(frames[i]);\n"
"\tunzoomBtn.classList.add(\"hide\");\n"
"\tremember();\n"
"}\n"
"/*\n"
" * Highlight the frames whose name matches 't' and sum the samples of the\n"
" * outermost matches only (a match inside a match is counted once).\n"
" */\n"
"function search(t) {\n"
"\tvar re, hits = [], i, f, sum = 0, end = -Infinity, pct;\n"
"\n"
"\tfor (i = 0; i < frames.length; i++)\n"
"\t\tframes[i].r.setAttribute(\"fill\", frames[i].fill);\n"
"\tif (t === null || t === \"\") {\n"
"\t\tterm = null;\n"
"\t\tsearchBtn.textContent = \"Search\";\n"
"\t\tsearchBtn.classList.remove(\"show\");\n"
"\t\tmatched.classList.add(\"hide\");\n"
"\t\tremember();\n"
"\t\treturn;\n"
"\t}\n"
"\tterm = t;\n"
"\tsearchBtn.textContent = \"Reset Search\";\n"
"\tsearchBtn.classList.add(\"show\");\n"
"\tmatched.classList.remove(\"hide\");\n"
"\ttry {\n"
"\t\tre = new RegExp(t, icase ? \"i\" : \"\");\n"
"\t} catch (e) {\n"
"\t\tmatched.textContent = \"Bad regexp\";\n"
"\t\tremember();\n"
"\t\treturn;\n"
"\t}\n"
"\tfor (i = 0; i < frames.length; i++) {\n"
"\t\tf = frames[i];\n"
"\t\tif (re.test(f.name)) {\n"
"\t\t\tf.r.setAttribute(\"fill\", C.hl);\n"
"\t\t\thits.push(f);\n"
"\t\t}\n"
"\t}\n"
"\thits.sort(function (a, b) { return a.x - b.x || b.w - a.w; });\n"
"\tfor (i = 0; i < hits.length; i++) {\n"
"\t\tf = hits[i];\n"
"\t\tif (f.x + f.w / 2 > end) {\n"
"\t\t\tsum += f.n;\n"
"\t\t\tend = f.x + f.w;\n"
"\t\t}\n"
"\t}\n"
"\tpct = root && root.n > 0 ? 100 * sum / root.n : 0;\n"
"\tmatched.textContent = \"Matched: \" +\n"
"\t    (pct === 100 ? \"100\" : pct.toFixed(1)) + \"% (\" + commas(sum) +\n"
"\t    \" \" + C.unit + \")\";\n"
"\tremember();\n"
"}\n"
"function ask() {\n"
"\tvar t = prompt(\"Search for frames matching a regular expression \" +\n"
"\t    \"(e.g. ^runtime\\\\.)\" + (icase ? \", ignoring case\" : \"\") +\n"
"\t    \"\\nCtrl-I toggles case sensitivity\", term === null ? \"\" : term);\n"
"\n"
"\tif (t !== null)\n"
"\t\tsearch(t);\n"
"}\n"
"function toggleCase() {\n"
"\ticase = !icase;\n"
"\ticBtn.classList.toggle(\"show\", icase);\n"
"\tif (term !== null)\n"
"\t\tsearch(term);\n"
"\telse\n"
"\t\tremember();\n"
"}\n"
"function frameOf(n) {\n"
"\tfor (; n && n !== doc; n = n.parentNode)\n"
"\t\tif (n.trf)\n"
"\t\t\treturn n.trf;\n"
"\treturn null;\n"
"}\n"
"function init() {\n"
"\tvar gs = doc.getElementById(\"frames\").children, i, p, v;\n"
"\n"
"\tdetails = doc.getElementById(\"details\");\n"
"\tmatched = doc.getElementById(\"matched\");\n"
"\tunzoomBtn = doc.getElementById(\"unzoom\");\n"
"\tsearchBtn = doc.getElementById(\"search\");\n"
"\ticBtn = doc.getElementById(\"ignorecase\");\n"
"\tfor (i = 0; i < gs.length; i++)\n"
"\t\tframes.push(parse(gs[i]));\n"
"\troot = frames.length ? frames[0] : null;\n"
"\tdoc.addEventListener(\"click\", function (e) {\n"
"\t\tvar f = frameOf(e.target), id = e.target.id;\n"
"\n"
"\t\tif (f)\n"
"\t\t\tzoom(f);\n"
"\t\telse if (id === \"unzoom\")\n"
"\t\t\tunzoom();\n"
"\t\telse if (id === \"search\") {\n"
"\t\t\tif (term !== null)\n"
"\t\t\t\tsearch(null);\n"
"\t\t\telse\n"
"\t\t\t\task();\n"
"\t\t} else if (id === \"ignorecase\")\n"
"\t\t\ttoggleCase();\n"
"\t});\n"
"\tdoc.addEventListener(\"mouseover\", function (e) {\n"
"\t\tvar f = frameOf(e.target);\n"
"\n"
"\t\tif (f)\n"
"\t\t\tdetails.textContent = C.nametype + \" \" + f.info;\n"
"\t});\n"
"\tdoc.addEventListener(\"mouseout\", function (e) {\n"
"\t\tif (frameOf(e.target))\n"
"\t\t\tdetails.textContent = \" \";\n"
"\t});\n"
"\tdoc.addEventListener(\"keydown\", function (e) {\n"
"\t\tif (e.key === \"F3\" || ((e.ctrlKey || e.metaKey) &&\n"
"\t\t    (e.key === \"f\" || e.key === \"F\"))) {\n"
"\t\t\te.preventDefault();\n"
"\t\t\task();\n"
"\t\t} else if ((e.ctrlKey || e.metaKey) &&\n"
"\t\t    (e.key === \"i\" || e.key === \"I\")) {\n"
"\t\t\te.preventDefault();\n"
"\t\t\ttoggleCase();\n"
"\t\t}\n"
"\t});\n"
"\tp = new URLSearchParams(location.search);\n"
"\tif (p.get(\"i\") === \"1\") {\n"
"\t\ticase = true;\n"
"\t\ticBtn.classList.add(\"show\");\n"
"\t}\n"
"\tif ((v = p.get(\"s\")) !== null && v !== \"\")\n"
"\t\tsearch(v);\n"
"\tv = Number(p.get(\"z\"));\n"
"\tif (p.get(\"z\") !== null && v > 0 && v < frames.length)\n"
"\t\tzoom(frames[v]);\n"
"}\n"
"init();\n"
"})();\n"
;

static const char flame_css[] =
"text { font-family: Verdana, sans-serif; font-size: 12px; "
    "fill: rgb(0,0,0); }\n"
"#title { text-anchor: middle; font-size: 17px; }\n"
"#subtitle { text-anchor: middle; fill: rgb(100,100,100); }\n"
"#matched { text-anchor: end; }\n"
"#search, #ignorecase { opacity: 0.1; cursor: pointer; }\n"
"#search:hover, #search.show, #ignorecase:hover, #ignorecase.show "
    "{ opacity: 1; }\n"
"#unzoom { cursor: pointer; }\n"
"#frames > *:hover { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
".hide { display: none; }\n"
".parent { opacity: 0.5; }\n";

static void
put_header(struct svg *w, int width, int height)
{
	const char	*c1 = "#eeeeee", *c2 = "#eeeeb0";

	if (w->o->colors == TR_COLORS_MEM) {
		c1 = "#eef2ee";
		c2 = "#e0ffe0";
	} else if (w->o->colors == TR_COLORS_IO) {
		c2 = "#e0e0ff";
	}
	tr_buf_printf(&w->b,
	    "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
	    "<svg version=\"1.1\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	    "<!-- Flame graph drawn by tracekit's trace-flame. Click a frame "
	    "to zoom, Ctrl-F to search. -->\n"
	    "<defs>\n"
	    "<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" "
	    "x2=\"0\">\n"
	    "<stop stop-color=\"%s\" offset=\"5%%\"/>\n"
	    "<stop stop-color=\"%s\" offset=\"95%%\"/>\n"
	    "</linearGradient>\n"
	    "</defs>\n"
	    "<style type=\"text/css\">\n%s</style>\n"
	    "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	    "fill=\"url(#background)\"/>\n",
	    width, height, width, height, c1, c2, flame_css, width, height);
}

static void
put_text(struct svg *w, const char *id, const char *cls, int x, int y,
    const char *s)
{
	tr_buf_printf(&w->b, "<text id=\"%s\"%s%s%s x=\"%d\" y=\"%d\">", id,
	    cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "", x, y);
	put_xml(&w->b, s, strlen(s), SIZE_MAX);
	tr_buf_adds(&w->b, "</text>\n");
}

static const char *
title_of(const struct tr_svg_opts *o)
{
	if (o->chart && (o->title == NULL ||
	    strcmp(o->title, "Flame Graph") == 0))
		return ("Flame Chart");
	if (o->title == NULL ||
	    (o->inverted && strcmp(o->title, "Flame Graph") == 0))
		return (o->inverted ? "Icicle Graph" : "Flame Graph");
	return (o->title);
}

static void
put_empty(struct svg *w)
{
	const struct tr_svg_opts *o = w->o;
	int			 top = o->subtitle ? YPAD1 + YPAD3 : YPAD1;
	int			 height = top + FONTSIZE * 3;

	put_header(w, o->width, height);
	put_text(w, "title", NULL, o->width / 2, FONTSIZE * 2, title_of(o));
	if (o->subtitle != NULL)
		put_text(w, "subtitle", NULL, o->width / 2, FONTSIZE * 4,
		    o->subtitle);
	tr_buf_printf(&w->b, "<text id=\"nosamples\" x=\"%d\" y=\"%d\" "
	    "style=\"text-anchor: middle\">no samples</text>\n</svg>\n",
	    o->width / 2, top + FONTSIZE);
}

static void
put_frame(struct svg *w, const struct ftree *t, const struct frame_out *f,
    double wpt, int top, uint32_t maxdepth)
{
	const struct tr_svg_opts *o = w->o;
	const struct fnode	*nd = &t->nodes[f->id];
	const int64_t		 total = t->nodes[0].value;
	double			 x = XPAD + (double)f->start * wpt;
	double			 wd = (double)nd->value * wpt;
	size_t			 dlen, chars, nch;
	int64_t			 d;
	int			 y, ty2;

	if (o->inverted)
		y = top + (int)f->depth * o->frameheight;
	else
		y = top + (int)(maxdepth - f->depth) * o->frameheight +
		    FRAMEPAD;
	ty2 = 2 * y + o->frameheight - FRAMEPAD + 6;
	dlen = f->id == 0 ? nd->len : display_len(nd->name, nd->len);

	tr_buf_adds(&w->b, "<g><title>");
	put_xml(&w->b, nd->name, dlen, SIZE_MAX);
	tr_buf_adds(&w->b, " (");
	put_commas(&w->b, nd->value);
	tr_buf_addc(&w->b, ' ');
	put_xml(&w->b, o->countname, strlen(o->countname), SIZE_MAX);
	if (f->id == 0)
		tr_buf_adds(&w->b, ", 100%)");
	else if (o->chart && f->id != 0)
		tr_buf_printf(&w->b, ", %.2f%%, from %.6fs)",
		    100.0 * (double)nd->value / (double)total,
		    (double)(nd->delta - o->chart_t0) / 1e9);
	else if (!w->diff)
		tr_buf_printf(&w->b, ", %.2f%%)",
		    100.0 * (double)nd->value / (double)total);
	else {
		/* flamegraph.pl's "; +1.25%": the delta of the total. */
		d = o->negate ? -nd->delta : nd->delta;
		tr_buf_printf(&w->b, ", %.2f%%; %s%.2f%%)",
		    100.0 * (double)nd->value / (double)total,
		    d > 0 ? "+" : "", 100.0 * (double)d / (double)total);
	}
	tr_buf_adds(&w->b, "</title><rect x=\"");
	put_fix2(&w->b, x);
	tr_buf_printf(&w->b, "\" y=\"%d\" width=\"", y);
	put_fix2(&w->b, wd);
	tr_buf_printf(&w->b, "\" height=\"%d\" fill=\"",
	    o->frameheight - FRAMEPAD);
	put_fill(w, t, nd);
	tr_buf_adds(&w->b, "\" rx=\"2\" ry=\"2\"/><text x=\"");
	put_fix2(&w->b, x + 3);
	tr_buf_printf(&w->b, "\" y=\"%d%s\">", ty2 / 2, ty2 % 2 ? ".5" : "");
	chars = (size_t)(wd / (FONTSIZE * FONTWIDTH));
	if (chars >= 3) {
		nch = count_chars(nd->name, dlen);
		if (nch <= chars)
			put_xml(&w->b, nd->name, dlen, SIZE_MAX);
		else {
			put_xml(&w->b, nd->name, dlen, chars - 2);
			tr_buf_adds(&w->b, "..");
		}
	}
	tr_buf_adds(&w->b, "</text></g>\n");
}

static void
put_graph(struct svg *w, const struct ftree *t)
{
	const struct tr_svg_opts *o = w->o;
	struct frame_out	*fo = NULL;
	const int64_t		 total = t->nodes[0].value;
	double			 wpt = (double)(o->width - 2 * XPAD) /
				    (double)total;
	int			 top = o->subtitle ? YPAD1 + YPAD3 : YPAD1;
	int			 height;
	uint32_t		 maxdepth;
	size_t			 n, i;

	/* flamegraph.pl's --minwidth: pixels, or with '%' of the total. */
	n = tree_layout(t, o->minwidth_pct ? (double)total * o->minwidth /
	    100 : o->minwidth / wpt, &fo, &maxdepth);
	height = top + ((int)maxdepth + 1) * o->frameheight + YPAD2;
	put_header(w, o->width, height);
	put_text(w, "title", NULL, o->width / 2, FONTSIZE * 2, title_of(o));
	if (o->subtitle != NULL)
		put_text(w, "subtitle", NULL, o->width / 2, FONTSIZE * 4,
		    o->subtitle);
	put_text(w, "details", NULL, XPAD, height - YPAD2 / 2, " ");
	put_text(w, "unzoom", "hide", XPAD, FONTSIZE * 2, "Reset Zoom");
	put_text(w, "search", NULL, o->width - XPAD - 100, FONTSIZE * 2,
	    "Search");
	put_text(w, "ignorecase", NULL, o->width - XPAD - 16, FONTSIZE * 2,
	    "ic");
	put_text(w, "matched", "hide", o->width - XPAD, height - YPAD2 / 2,
	    " ");
	tr_buf_adds(&w->b, "<g id=\"frames\">\n");
	for (i = 0; i < n; i++) {
		put_frame(w, t, &fo[i], wpt, top, maxdepth);
		svg_maybe_flush(w);
	}
	tr_buf_adds(&w->b, "</g>\n"
	    "<script type=\"text/ecmascript\"><![CDATA[\n");
	tr_buf_printf(&w->b, "var TRFLAME = { w: %d, xpad: %d, fs: %d, "
	    "fw: %s, inv: %d, hl: \"%s\", nametype: \"%s\", unit: ",
	    o->width, XPAD, FONTSIZE, FONTWIDTH_S, o->inverted ? 1 : 0,
	    SEARCH_COLOR, NAMETYPE);
	put_js_string(&w->b, o->countname);
	tr_buf_adds(&w->b, " };\n");
	tr_buf_adds(&w->b, flame_js);
	tr_buf_adds(&w->b, "]]></script>\n</svg>\n");
	free(fo);
}

int
tr_flame_write_svg(const struct tr_folded *f, const struct tr_svg_opts *o,
    FILE *fp, struct tr_error *err)
{
	struct tr_svg_opts	 opts = *o;
	struct ftree		 t;
	struct svg		 w;
	int			 rc = -1;

	if (opts.width < 2 * XPAD + 1 || opts.frameheight <= FRAMEPAD ||
	    !(opts.minwidth >= 0))
		return (tr_error_set(err, TR_EUSAGE, "impossible SVG size: "
		    "width %d, frame height %d, minimum width %g",
		    opts.width, opts.frameheight, opts.minwidth));
	if (opts.countname == NULL)
		opts.countname = "samples";
	if (opts.subtitle != NULL && opts.subtitle[0] == '\0')
		opts.subtitle = NULL;
	tree_init(&t, f->n);
	if (opts.chart) {
		t.chart = 1;
		t.cstart = tr_xcalloc(t.cap, sizeof *t.cstart);
	}
	memset(&w, 0, sizeof w);
	w.o = &opts;
	w.fp = fp;
	w.diff = f->base != NULL;
	tr_buf_init(&w.b);
	if (opts.palette != NULL && !w.diff &&
	    (w.pal = palette_read(opts.palette, err)) == NULL)
		goto out;
	if (tree_build(&t, f, opts.reverse, err) != 0)
		goto out;
	if (t.nodes[0].value == 0)
		put_empty(&w);
	else {
		tree_sort(&t);
		put_graph(&w, &t);
	}
	svg_flush(&w);
	if (!w.failed && fflush(fp) != 0) {
		w.failed = 1;
		w.errnum = errno;
	}
	if (w.failed) {
		tr_error_set(err, TR_EIO, "cannot write the SVG: %s",
		    strerror(w.errnum));
		goto out;
	}
	if (w.pal != NULL && palette_write(w.pal, opts.palette, err) != 0)
		goto out;
	rc = 0;
out:
	palette_free(w.pal);
	tr_buf_release(&w.b);
	tree_release(&t);
	return (rc);
}
