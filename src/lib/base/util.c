/*
 * Allocation, buffers, the interning hash map and duration parsing.
 */
#include "config.h"
#include "base/util.h"
#include "base/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
oom(size_t n)
{
	fprintf(stderr, "out of memory allocating %zu bytes\n", n);
	abort();
}

void *
tr_xmalloc(size_t n)
{
	void	*p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return (p);
}

void *
tr_xcalloc(size_t n, size_t size)
{
	void	*p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom(n * size);
	return (p);
}

void *
tr_xrealloc(void *p, size_t n)
{
	void	*q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom(n);
	return (q);
}

char *
tr_xstrdup(const char *s)
{
	return (tr_xstrndup(s, strlen(s)));
}

char *
tr_xstrndup(const char *s, size_t n)
{
	char	*p = tr_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

char *
tr_xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = tr_xvasprintf(fmt, ap);
	va_end(ap);
	return (p);
}

char *
tr_xvasprintf(const char *fmt, va_list ap)
{
	va_list	 aq;
	char	*p = NULL;
	int	 n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		oom(0);
	p = tr_xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return (p);
}

void
tr_buf_init(struct tr_buf *b)
{
	b->cap = 64;
	b->data = tr_xmalloc(b->cap);
	b->data[0] = '\0';
	b->len = 0;
}

void
tr_buf_release(struct tr_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
tr_buf_reset(struct tr_buf *b)
{
	b->len = 0;
	b->data[0] = '\0';
}

static void
buf_grow(struct tr_buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	while (b->len + extra + 1 > b->cap)
		b->cap *= 2;
	b->data = tr_xrealloc(b->data, b->cap);
}

char *
tr_buf_reserve(struct tr_buf *b, size_t n)
{
	buf_grow(b, n);
	return (b->data + b->len);
}

void
tr_buf_add(struct tr_buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
tr_buf_adds(struct tr_buf *b, const char *s)
{
	tr_buf_add(b, s, strlen(s));
}

void
tr_buf_addc(struct tr_buf *b, char c)
{
	buf_grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

/* The digits of v (below 10^8). */
static int
ndigits8(uint32_t v)
{
	return (v < 10000 ? (v < 100 ? (v < 10 ? 1 : 2) : v < 1000 ? 3 : 4) :
	    v < 1000000 ? (v < 100000 ? 5 : 6) : v < 10000000 ? 7 : 8);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * v (below 10^8) as 8 digits, zeros in front, all at once: the halves of
 * 4 digits, then of 2 and 1, each split in every lane of a 64-bit word by
 * one multiplication (by 2^20 / 100 and 2^10 / 10, exact below 10^4 and
 * 10^2), the first digit in the low byte.  n digits at 'o' (all 8 bytes
 * written: the caller's room is 20).
 */
static inline char *
put_digits(char *o, uint32_t v, int n)
{
	uint64_t	y, q;

	q = v / 10000;
	y = q | (uint64_t)(v - (uint32_t)q * 10000) << 32;
	q = (y * 10486) >> 20 & UINT64_C(0x0000007f0000007f);
	y = q | (y - q * 100) << 16;
	q = (y * 103) >> 10 & UINT64_C(0x000f000f000f000f);
	y = q | (y - q * 10) << 8;
	y = (y + UINT64_C(0x3030303030303030)) >> (8 * (8 - n));
	memcpy(o, &y, 8);
	return (o + n);
}
#else
static const char	 d2[] =
    "00010203040506070809101112131415161718192021222324252627282930"
    "31323334353637383940414243444546474849505152535455565758596061"
    "62636465666768697071727374757677787980818283848586878889909192"
    "93949596979899";

/* The same, two digits at a time from the end. */
static char *
put_digits(char *o, uint32_t v, int n)
{
	char		*e = o + n;
	uint32_t	 r;

	o = e;
	while (v >= 100) {
		r = v % 100;
		v /= 100;
		o -= 2;
		memcpy(o, d2 + 2 * r, 2);
	}
	if (v >= 10) {
		o -= 2;
		memcpy(o, d2 + 2 * v, 2);
	} else
		*--o = (char)('0' + v);
	while (o > e - n)
		*--o = '0';
	return (e);
}
#endif

/*
 * The slice runs' JSON is mostly numbers (a tenth of a Go trace's
 * parsing thread when written with a division per digit, twice; 47
 * instructions a number in the writer thread with two digits a
 * division): below 10^8 they are written at once (put_digits()), up to
 * 10^16 in two such parts, larger ones two digits at a time.
 */
char *
tr_put_uint(char *o, uint64_t u)
{
	uint64_t	q;

	if (u < 100)
		return (tr_put_id(o, (int64_t)u));
	if (u < 100000000)
		return (put_digits(o, (uint32_t)u, ndigits8((uint32_t)u)));
	q = u / 100000000;
	if (q < 100)
		o = tr_put_id(o, (int64_t)q);
	else if (q < 100000000)
		o = put_digits(o, (uint32_t)q, ndigits8((uint32_t)q));
	else {
		/* Up to 4 digits, then 8. */
		o = tr_put_uint(o, q / 100000000);
		o = put_digits(o, (uint32_t)(q % 100000000), 8);
	}
	return (put_digits(o, (uint32_t)(u - q * 100000000), 8));
}

const char *
tr_skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	return (p);
}

int
tr_json_array_next(const char **pp, const char *e)
{
	const char	*p = tr_skip_ws(*pp, e);

	if (p < e && (*p == ',' || *p == ']')) {
		*pp = p + 1;
		return (*p == ',');
	}
	return (-1);
}

char *
tr_put_int(char *o, int64_t v)
{
	if (v >= 0)
		return (tr_put_uint(o, (uint64_t)v));
	*o++ = '-';
	return (tr_put_uint(o, -(uint64_t)v));
}

void
tr_buf_addu(struct tr_buf *b, uint64_t u)
{
	char	*e = tr_put_uint(tr_buf_reserve(b, 20), u);

	b->len = (size_t)(e - b->data);
	*e = '\0';
}

void
tr_buf_addi(struct tr_buf *b, int64_t v)
{
	char	*e = tr_put_int(tr_buf_reserve(b, 21), v);

	b->len = (size_t)(e - b->data);
	*e = '\0';
}

void
tr_buf_printf(struct tr_buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

uint64_t
tr_hash64(const void *p, size_t n)
{
	const unsigned char	*s = p;
	uint64_t		 h = 0xcbf29ce484222325ULL;
	size_t			 i;

	/* FNV-1a on 8-byte words where possible, then bytes; then mix. */
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t	w;

		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (h);
}

#define DIG_P1	0x9e3779b185ebca87ULL
#define DIG_P2	0xc2b2ae3d27d4eb4fULL

static uint64_t
rotl64(uint64_t x, int r)
{
	return ((x << r) | (x >> (64 - r)));
}

/* One 8-byte word into the two lanes. */
static inline void
digest_lanes(uint64_t *a, uint64_t *b, uint64_t w)
{
	*a = rotl64(*a ^ w, 31) * DIG_P1;
	*b = rotl64(*b + w, 27) * DIG_P2;
}

static void
digest_word(struct tr_digest *d, uint64_t w)
{
	digest_lanes(&d->a, &d->b, w);
}

void
tr_digest_init(struct tr_digest *d)
{
	memset(d, 0, sizeof *d);
	d->a = 0x27d4eb2f165667c5ULL;
	d->b = 0x165667b19e3779f9ULL;
}

void
tr_digest_update(struct tr_digest *d, const void *p, size_t n)
{
	const unsigned char	*s = p;
	uint64_t		 w, a, b;

	d->len += n;
	if (d->ntail > 0) {
		while (n > 0 && d->ntail < 8) {
			d->tail[d->ntail++] = *s++;
			n--;
		}
		if (d->ntail < 8)
			return;
		memcpy(&w, d->tail, 8);
		digest_word(d, w);
		d->ntail = 0;
	}
	/*
	 * The lanes in locals (the bytes may alias *d, which would store
	 * them at every word), four words a turn.
	 */
	a = d->a;
	b = d->b;
	for (; n >= 32; s += 32, n -= 32) {
		uint64_t	x[4];

		memcpy(&x[0], s, 8);
		memcpy(&x[1], s + 8, 8);
		memcpy(&x[2], s + 16, 8);
		memcpy(&x[3], s + 24, 8);
		digest_lanes(&a, &b, x[0]);
		digest_lanes(&a, &b, x[1]);
		digest_lanes(&a, &b, x[2]);
		digest_lanes(&a, &b, x[3]);
	}
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		digest_lanes(&a, &b, w);
	}
	d->a = a;
	d->b = b;
	memcpy(d->tail, s, n);
	d->ntail = n;
}

static uint64_t
digest_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (h);
}

uint64_t
tr_hash64_bulk(const void *p, size_t n)
{
	const unsigned char	*s = p;
	uint64_t		 a = 0x9e3779b97f4a7c15ULL ^ n, b = DIG_P1;
	uint64_t		 c = DIG_P2, d = 0x27d4eb2f165667c5ULL, x[4];

	for (; n >= 32; s += 32, n -= 32) {
		/* One memcpy() a word: an array would go through the stack. */
		memcpy(&x[0], s, 8);
		memcpy(&x[1], s + 8, 8);
		memcpy(&x[2], s + 16, 8);
		memcpy(&x[3], s + 24, 8);
		a = rotl64(a ^ x[0], 29) * DIG_P1;
		b = rotl64(b ^ x[1], 31) * DIG_P2;
		c = rotl64(c ^ x[2], 27) * DIG_P1;
		d = rotl64(d ^ x[3], 33) * DIG_P2;
	}
	/* The last 1 to 31 bytes, zero-padded (the length is in 'a'). */
	if (n > 0) {
		memset(x, 0, sizeof x);
		memcpy(x, s, n);
		a = rotl64(a ^ x[0], 29) * DIG_P1;
		b = rotl64(b ^ x[1], 31) * DIG_P2;
		c = rotl64(c ^ x[2], 27) * DIG_P1;
		d = rotl64(d ^ x[3], 33) * DIG_P2;
	}
	return (digest_mix(digest_mix(a ^ rotl64(b, 17)) ^ rotl64(c, 41) ^
	    rotl64(d, 7)));
}

void
tr_digest_final(const struct tr_digest *d, char *buf, size_t len)
{
	struct tr_digest	c = *d;
	uint64_t		w = 0, a, b;

	/* The tail, padded with zeros; the length tells paddings apart. */
	memcpy(&w, c.tail, c.ntail);
	digest_word(&c, w);
	digest_word(&c, c.len);
	a = digest_mix(c.a ^ rotl64(c.b, 17));
	b = digest_mix(c.b ^ rotl64(c.a, 41) ^ c.len);
	snprintf(buf, len, "%016llx%016llx-%llu", (unsigned long long)a,
	    (unsigned long long)b, (unsigned long long)c.len);
}

/* The map: slots hold an offset into the key arena, or 0 when empty. */
struct map_slot {
	uint64_t	hash;
	size_t		key;	/* arena offset + 1; 0 = empty */
	uint32_t	len;
	int64_t		val;
};

struct tr_map {
	struct map_slot	*slots;
	size_t		 nslots;	/* power of two */
	size_t		 count;
	char		*arena;
	size_t		 arena_len;
	size_t		 arena_cap;
};

/* A new map's slots and bytes of keys; both double as they fill. */
#define MAP_SLOTS0	1024
#define MAP_ARENA0	4096

struct tr_map *
tr_map_new(void)
{
	struct tr_map	*m = tr_xcalloc(1, sizeof *m);

	m->nslots = MAP_SLOTS0;
	m->slots = tr_xcalloc(m->nslots, sizeof *m->slots);
	m->arena_cap = MAP_ARENA0;
	m->arena = tr_xmalloc(m->arena_cap);
	return (m);
}

void
tr_map_free(struct tr_map *m)
{
	if (m == NULL)
		return;
	free(m->slots);
	free(m->arena);
	free(m);
}

size_t
tr_map_count(const struct tr_map *m)
{
	return (m->count);
}

size_t
tr_map_bytes(const struct tr_map *m)
{
	return (m->nslots * sizeof *m->slots + m->arena_cap);
}

size_t
tr_map_bytes_after(const struct tr_map *m, size_t len)
{
	size_t	n = MAP_SLOTS0, a = MAP_ARENA0;

	while ((m->count + 1) * 4 > n * 3)
		n *= 2;
	while (m->arena_len + len > a)
		a *= 2;
	return (n * sizeof *m->slots + a);
}

void
tr_map_clear(struct tr_map *m)
{
	memset(m->slots, 0, m->nslots * sizeof *m->slots);
	m->count = 0;
	m->arena_len = 0;
}

static struct map_slot *
map_find(const struct tr_map *m, uint64_t h, const void *key, size_t len)
{
	size_t		 i = (size_t)h & (m->nslots - 1);
	struct map_slot	*s;

	for (;;) {
		s = &m->slots[i];
		if (s->key == 0)
			return (s);
		if (s->hash == h && s->len == len &&
		    memcmp(m->arena + s->key - 1, key, len) == 0)
			return (s);
		i = (i + 1) & (m->nslots - 1);
	}
}

int
tr_map_get(const struct tr_map *m, const void *key, size_t len, int64_t *val)
{
	const struct map_slot	*s = map_find(m, tr_hash64(key, len), key, len);

	if (s->key == 0)
		return (0);
	*val = s->val;
	return (1);
}

static void
map_grow(struct tr_map *m)
{
	struct map_slot	*old = m->slots;
	size_t		 n = m->nslots, i, j;

	m->nslots *= 2;
	m->slots = tr_xcalloc(m->nslots, sizeof *m->slots);
	for (i = 0; i < n; i++) {
		if (old[i].key == 0)
			continue;
		j = (size_t)old[i].hash & (m->nslots - 1);
		while (m->slots[j].key != 0)
			j = (j + 1) & (m->nslots - 1);
		m->slots[j] = old[i];
	}
	free(old);
}

void
tr_map_put(struct tr_map *m, const void *key, size_t len, int64_t val)
{
	uint64_t	 h = tr_hash64(key, len);
	struct map_slot	*s = map_find(m, h, key, len);

	if (s->key != 0) {
		s->val = val;
		return;
	}
	if (m->arena_len + len > m->arena_cap) {
		while (m->arena_len + len > m->arena_cap)
			m->arena_cap *= 2;
		m->arena = tr_xrealloc(m->arena, m->arena_cap);
	}
	memcpy(m->arena + m->arena_len, key, len);
	s->hash = h;
	s->key = m->arena_len + 1;
	s->len = (uint32_t)len;
	s->val = val;
	m->arena_len += len;
	if (++m->count * 4 > m->nslots * 3)
		map_grow(m);
}

/* --- the integer map ------------------------------------------------- */

void
tr_imap_init(struct tr_imap *m)
{
	memset(m, 0, sizeof *m);
}

void
tr_imap_release(struct tr_imap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

void
tr_imap_free(struct tr_imap *m, void (*fn)(void *))
{
	size_t	i;

	for (i = 0; i < m->cap; i++)
		if (m->slots[i].val != NULL)
			fn(m->slots[i].val);
	tr_imap_release(m);
}

static void
imap_grow(struct tr_imap *m)
{
	struct tr_imap	n;
	size_t		i;

	n.cap = m->cap ? m->cap * 2 : 64;
	n.count = 0;
	n.slots = tr_xcalloc(n.cap, sizeof *n.slots);
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].val != NULL)
			tr_imap_put(&n, m->slots[i].key, m->slots[i].val);
	free(m->slots);
	*m = n;
}

void
tr_imap_put(struct tr_imap *m, uint64_t key, void *val)
{
	struct tr_imap_slot	*s;
	size_t			 i;

	if ((m->count + 1) * 4 > m->cap * 3)
		imap_grow(m);
	for (i = tr_imap_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		s = &m->slots[i];
		if (s->val == NULL)
			break;
		if (s->key == key) {
			s->val = val;
			return;
		}
	}
	s->key = key;
	s->val = val;
	m->count++;
}

void *
tr_imap_del(struct tr_imap *m, uint64_t key)
{
	struct tr_imap_slot	*s = m->slots;
	size_t			 i, j, k, mask = m->cap - 1;
	void			*val;

	if (m->cap == 0)
		return (NULL);
	for (i = tr_imap_hash(key, m->cap); s[i].val != NULL;
	    i = (i + 1) & mask)
		if (s[i].key == key)
			break;
	if ((val = s[i].val) == NULL)
		return (NULL);
	/* Backward-shift deletion keeps probe chains whole, no tombstones. */
	j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (s[j].val == NULL)
			break;
		k = tr_imap_hash(s[j].key, m->cap);
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && k <= i && k > j)) {
			s[i] = s[j];
			i = j;
		}
	}
	s[i].val = NULL;
	s[i].key = 0;
	m->count--;
	return (val);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

uint64_t *
tr_imap_keys(const struct tr_imap *m, size_t *n)
{
	uint64_t	*k;
	size_t		 i, j = 0;

	*n = 0;
	if (m->count == 0)
		return (NULL);
	k = tr_xcalloc(m->count, sizeof *k);
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].val != NULL)
			k[j++] = m->slots[i].key;
	qsort(k, j, sizeof *k, cmp_u64);
	*n = j;
	return (k);
}

/* 10^k for k in [0, 18]. */
static uint64_t
pow10u(int k)
{
	uint64_t	v = 1;

	while (k-- > 0)
		v *= 10;
	return (v);
}

/*
 * Exact decimal arithmetic, so that "742.474741497" or a time near the
 * epoch in ns keeps every digit (a double holds 15 or 16): the digits go
 * into an integer mantissa (19 significant at most; the first digit
 * dropped rounds), the point and the exponent into a power of ten, and
 * the unit is a small factor times a power of ten.
 */
int
tr_parse_duration(const char *s, int64_t *out)
{
	static const struct {
		const char	*name;
		unsigned	 mul;	/* the unit is mul * 10^p10 ns */
		int		 p10;
	} units[] = {
		{ "", 1, 9 }, { "s", 1, 9 }, { "ms", 1, 6 }, { "us", 1, 3 },
		{ "ns", 1, 0 }, { "m", 6, 10 }, { "min", 6, 10 },
		{ "h", 36, 11 },
	};
	uint64_t	 d = 0, q, r, f;
	long		 x = 0;
	size_t		 i;
	unsigned	 mul;
	int		 neg = 0, nd = 0, sig = 0, round_up = 0, xneg = 0;
	int		 point = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (;; s++) {
		if (*s == '.' && !point) {
			point = 1;
			continue;
		}
		if (!isdigit((unsigned char)*s))
			break;
		nd++;
		if (sig == 0 && *s == '0') {
			x -= point;	/* a leading zero */
			continue;
		}
		if (sig < 19) {
			d = d * 10 + (uint64_t)(*s - '0');
			sig++;
			x -= point;
		} else {
			if (sig++ == 19)
				round_up = *s >= '5';
			x += !point;
		}
	}
	if (nd == 0)
		return (-1);
	if (*s == 'e' || *s == 'E') {
		long	ev = 0;
		int	ne = 0;

		s++;
		if (*s == '+' || *s == '-')
			xneg = *s++ == '-';
		for (; isdigit((unsigned char)*s); s++, ne++)
			if (ev < 10000)
				ev = ev * 10 + (*s - '0');
		if (ne == 0)
			return (-1);
		x += xneg ? -ev : ev;
	}
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(s, units[i].name) == 0)
			break;
	if (i == sizeof units / sizeof units[0])
		return (-1);
	if (round_up)
		d++;
	/* The value is d * mul * 10^x ns. */
	x += units[i].p10;
	if (d == 0)
		x = 0;
	mul = units[i].mul;
	if (x < 0) {
		/* The factor first, where it fits: it may carry digits. */
		if (d <= UINT64_MAX / mul) {
			d *= mul;
			mul = 1;
		}
		if (x < -19)
			d = 0;
		else {
			f = pow10u((int)-x);
			q = d / f;
			r = d % f;
			/* Round half up; r * 2 may not fit, so compare. */
			d = q + (r >= f - r);
		}
		x = 0;
	}
	for (; x > 0; x--) {
		if (d > UINT64_MAX / 10)
			return (-1);
		d *= 10;
	}
	if (d > UINT64_MAX / mul)
		return (-1);
	d *= mul;
	if (d > (uint64_t)INT64_MAX)
		return (-1);
	*out = neg ? -(int64_t)d : (int64_t)d;
	return (0);
}

void
tr_format_duration(int64_t ns, char *buf, size_t len)
{
	/* fabs() of the double: -INT64_MIN would overflow. */
	double	 a = fabs((double)ns);

	if (a >= 1e9)
		snprintf(buf, len, "%.3fs", (double)ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.3fms", (double)ns / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%.3fus", (double)ns / 1e3);
	else
		snprintf(buf, len, "%lldns", (long long)ns);
}

int
tr_spill_fd(const char *what, const char *name, struct tr_error *err)
{
	const char	*dir = getenv("TMPDIR");
	char		*path;
	int		 fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	path = tr_xasprintf("%s/tracekit-%s.XXXXXX", dir, what);
	/* (No source, no location: what tr_error_set() does.) */
	if ((fd = mkstemp(path)) < 0)
		tr_error_set_line(err, TR_EIO, name, 0, 0, "cannot create a "
		    "temporary file in '%s': %s", dir, strerror(errno));
	else
		unlink(path);
	free(path);
	return (fd);
}
