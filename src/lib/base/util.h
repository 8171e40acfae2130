/*
 * Small shared helpers: allocation that aborts on exhaustion, a growable
 * byte buffer, an interning hash map from byte strings to 64-bit ids, and
 * parsers for durations and integers.
 */
#ifndef TR_UTIL_H
#define TR_UTIL_H

#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>

/* Allocators: print a message and abort() when memory runs out. */
void	*tr_xmalloc(size_t);
void	*tr_xcalloc(size_t, size_t);
void	*tr_xrealloc(void *, size_t);
char	*tr_xstrdup(const char *);
char	*tr_xstrndup(const char *, size_t);
/* printf into a new string owned by the caller. */
char	*tr_xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
char	*tr_xvasprintf(const char *, va_list)
	    __attribute__((format(printf, 1, 0)));

/* A growable byte buffer, always NUL-terminated after tr_buf_init(). */
struct tr_buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};
void	 tr_buf_init(struct tr_buf *);
void	 tr_buf_release(struct tr_buf *);
void	 tr_buf_reset(struct tr_buf *);
/*
 * Room for 'n' more bytes (and the NUL): where they go.  The caller
 * writes them, then sets len and the NUL itself.
 */
char	*tr_buf_reserve(struct tr_buf *, size_t n);
void	 tr_buf_add(struct tr_buf *, const void *, size_t);
void	 tr_buf_adds(struct tr_buf *, const char *);
void	 tr_buf_addc(struct tr_buf *, char);
/* A decimal integer, as printf would write it. */
void	 tr_buf_addi(struct tr_buf *, int64_t);
void	 tr_buf_addu(struct tr_buf *, uint64_t);
/*
 * The same at 'o' (room for 20 characters, 21 with a sign, which it may
 * write past the number's end; no NUL): returns the end.
 */
char	*tr_put_int(char *o, int64_t);
char	*tr_put_uint(char *o, uint64_t);
/*
 * tr_put_int(), inline from 0 to 99: ids mostly are (a slice's name and
 * category), and there the call cost more than the digits.
 */
static inline char *
tr_put_id(char *o, int64_t v)
{
	if (v >= 0 && v < 10) {
		*o = (char)('0' + v);
		return (o + 1);
	}
	if (v >= 10 && v < 100) {
		o[0] = (char)('0' + v / 10);
		o[1] = (char)('0' + v % 10);
		return (o + 2);
	}
	return (tr_put_int(o, v));
}
/* The first byte of [p, e) past JSON white space (e when none). */
const char *tr_skip_ws(const char *p, const char *e);
/*
 * After an element of a JSON array at *p: past the ',' that says another
 * follows (1), or past the ']' that ends the array (0); -1 for anything
 * else.
 */
int	 tr_json_array_next(const char **p, const char *e);
void	 tr_buf_printf(struct tr_buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * An open-addressing hash map from byte strings to int64 values.  Keys are
 * copied into an arena owned by the map.  Memory grows with the number of
 * distinct keys only.
 */
struct tr_map;
struct tr_map	*tr_map_new(void);
void		 tr_map_free(struct tr_map *);
/* Returns 1 and sets *val if 'key' is present, 0 otherwise. */
int		 tr_map_get(const struct tr_map *, const void *key, size_t len,
		     int64_t *val);
/* Inserts or replaces 'key'. */
void		 tr_map_put(struct tr_map *, const void *key, size_t len,
		     int64_t val);
size_t		 tr_map_count(const struct tr_map *);
/* Bytes the map holds: its slots and its copies of the keys. */
size_t		 tr_map_bytes(const struct tr_map *);
/*
 * The bytes a map grown from tr_map_new() would hold with its keys and a
 * new one of 'len' bytes (what a cache bounds: a cleared map keeps its
 * memory, and the next put may double its slots or its copies).
 */
size_t		 tr_map_bytes_after(const struct tr_map *, size_t len);
/* Forgets every key, keeping the memory for the next ones. */
void		 tr_map_clear(struct tr_map *);

/*
 * An open-addressing hash map from 64-bit keys to non-NULL pointers, with
 * deletion (backward shift, no tombstones).  A slot holds its key and its
 * value side by side, so a lookup touches one cache line.
 */
struct tr_imap_slot {
	uint64_t	 key;
	void		*val;		/* NULL: the slot is free */
};
struct tr_imap {
	struct tr_imap_slot	*slots;
	size_t			 cap;	/* a power of two, or 0 */
	size_t			 count;
};

void	 tr_imap_init(struct tr_imap *);
/* Frees the table only; the values belong to the caller. */
void	 tr_imap_release(struct tr_imap *);
/* Call fn on every value (free, or the values' own), then release. */
void	 tr_imap_free(struct tr_imap *, void (*fn)(void *));
/* The slot where 'key' starts its probe in a table of 'cap' slots. */
static inline size_t
tr_imap_hash(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return ((size_t)key & (cap - 1));
}
/*
 * The value for 'key', or NULL.  (Inline: a Go trace's import looks up
 * a few keys per event, millions in all, and a call was a third of it.)
 */
static inline void *
tr_imap_get(const struct tr_imap *m, uint64_t key)
{
	const struct tr_imap_slot	*s;
	size_t				 i, mask = m->cap - 1;

	if (m->cap == 0)
		return (NULL);
	for (i = tr_imap_hash(key, m->cap);; i = (i + 1) & mask) {
		s = &m->slots[i];
		if (s->val == NULL || s->key == key)
			return (s->val);
	}
}
/* Insert or replace; 'val' must not be NULL. */
void	 tr_imap_put(struct tr_imap *, uint64_t key, void *val);
/* Remove 'key' and return its value (NULL when absent). */
void	*tr_imap_del(struct tr_imap *, uint64_t key);
/*
 * The keys present, sorted, in a new array owned by the caller (NULL when
 * the map is empty).
 */
uint64_t *tr_imap_keys(const struct tr_imap *, size_t *n);

/* 64-bit FNV-1a style hash of a byte string (not cryptographic). */
uint64_t	 tr_hash64(const void *, size_t);
/*
 * A 64-bit hash of a long byte string (kilobytes), at about a third of
 * tr_hash64()'s cost a byte (four lanes of 8-byte words); not
 * cryptographic, and not tr_hash64()'s value.  For tables in memory only:
 * it may change between versions.
 */
uint64_t	 tr_hash64_bulk(const void *, size_t);

/*
 * A streaming 128-bit content digest (two multiply-rotate lanes over 8-byte
 * words; not cryptographic) for recognising an input imported before.  It
 * runs at about a byte per instruction, where zlib's crc32 and adler32
 * together cost several.
 */
struct tr_digest {
	uint64_t	a, b, len;
	unsigned char	tail[8];
	size_t		ntail;
};
void	tr_digest_init(struct tr_digest *);
void	tr_digest_update(struct tr_digest *, const void *, size_t);
/* Write 32 hex digits, '-' and the length into 'buf' (at least 56 bytes). */
void	tr_digest_final(const struct tr_digest *, char *buf, size_t len);

/*
 * Parse a duration with a unit ("1.5s", "200ms", "10us", "500ns", "2m" or
 * "2min", "1h"; a bare number is seconds; an exponent as in "1e3ms")
 * into nanoseconds, exactly: every digit to the nanosecond is kept
 * ("1795959651.180255123" is 1795959651180255123 ns) and the first one
 * beyond it rounds.  Leading blanks and a '-' or '+' are accepted.
 * Returns 0, or -1 (*out untouched) if the text is not a duration or does
 * not fit in 64 bits.  The one duration parser of the tools and align.
 */
int	 tr_parse_duration(const char *, int64_t *);

/*
 * A temporary file to spill what is not kept in memory: in $TMPDIR (else
 * /tmp), named after 'what', already unlinked.  Returns its descriptor, or
 * -1 with 'err' set (located at input 'name' when it is not NULL).
 */
struct tr_error;
int	 tr_spill_fd(const char *what, const char *name,
	    struct tr_error *err);
/* Format nanoseconds as a short human duration ("1.500s", "12.3ms"). */
void	 tr_format_duration(int64_t, char *, size_t);

#endif
