/*
 * The input layer: one readable stream from a file, standard input ("-")
 * or memory, transparently gunzipped or unzstd'ed when the first bytes are
 * a gzip or zstd magic.  It streams in bounded memory, counts lines and
 * decompressed byte offsets for error messages, and keeps a content digest
 * of everything decoded so far.
 */
#ifndef TR_INPUT_H
#define TR_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define TR_INPUT_PEEK	65536		/* bytes tr_input_peek() offers */
#define TR_INPUT_MAXLINE (16 << 20)	/* longest line accepted */
#define TR_INPUT_DIGEST	64		/* bytes for tr_input_digest() */

struct tr_input;

/*
 * Open 'path' ("-" for standard input).  Returns an input owned by the
 * caller (tr_input_free()), or NULL with 'err' filled in.  'display' is the
 * name used in messages (NULL: 'path', or "<stdin>" for "-").
 */
struct tr_input	*tr_input_open(const char *path, const char *display,
		    struct tr_error *err);
/* An input over 'len' bytes at 'data', which must outlive it. */
struct tr_input	*tr_input_mem(const char *name, const void *data, size_t len);
void		 tr_input_free(struct tr_input *);

/* The name used in messages; borrowed from the input. */
const char	*tr_input_name(const struct tr_input *);
/* "none", "gzip" or "zstd". */
const char	*tr_input_compression(const struct tr_input *);

/*
 * Make up to TR_INPUT_PEEK decoded bytes available at *p without
 * consuming them (fewer only at end of input).  Returns 0 or -1.
 */
int		 tr_input_peek(struct tr_input *, const unsigned char **p,
		    size_t *len, struct tr_error *err);

/*
 * Read the next line into *line (borrowed, valid until the next call),
 * without its "\n" or "\r\n".  Returns 1 for a line, 0 at end of input,
 * -1 on error.
 */
int		 tr_input_getline(struct tr_input *, const char **line,
		    size_t *len, struct tr_error *err);

/*
 * A block of lines: the bytes from the current position up to and
 * including the first empty line ("\n" alone), when every line before it
 * starts with a blank (space or tab) and the block is at most 'max' bytes
 * long.  Makes them available at *p (borrowed, valid until the next call)
 * without consuming them and returns 1; returns 0 when there is no such
 * block here (a line starting otherwise, or the first line empty, comes
 * first, or the input or 'max' ends first), -1 on error.  It looks no
 * further than the first line that does not start with a blank.
 */
int		 tr_input_peek_block(struct tr_input *, size_t max,
		    const char **p, size_t *len, struct tr_error *err);
/*
 * Consume 'n' bytes that hold exactly 'lines' newlines, as that many
 * tr_input_getline() calls would: a block tr_input_peek_block() gave.
 */
void		 tr_input_skip(struct tr_input *, size_t n, long lines);

/*
 * Read up to 'n' bytes into 'buf'.  Returns the count, fewer than 'n' only
 * at end of input, or -1 on error.
 */
int64_t		 tr_input_read(struct tr_input *, void *buf, size_t n,
		    struct tr_error *err);

/*
 * Read everything left, at most 'max' bytes, into a buffer owned by the
 * caller.  Input longer than 'max' is an error.  Returns 0 or -1.
 */
int		 tr_input_slurp(struct tr_input *, size_t max,
		    unsigned char **buf, size_t *len, struct tr_error *err);

/* The number of the line last returned (1-based), 0 before the first. */
long		 tr_input_lineno(const struct tr_input *);
/* Decoded bytes consumed so far: the offset of the next byte. */
int64_t		 tr_input_offset(const struct tr_input *);
/* Decoded bytes produced so far (>= offset). */
int64_t		 tr_input_decoded(const struct tr_input *);
/*
 * Raw bytes read so far from the file (compressed bytes for compressed
 * input), and the file's size: -1 when unknown (a pipe, memory).
 */
int64_t		 tr_input_raw_read(const struct tr_input *);
int64_t		 tr_input_raw_size(const struct tr_input *);
/*
 * Call fn(arg, input) after every read from the file (NULL: none), to
 * show progress with tr_input_raw_read() and tr_input_raw_size().
 */
void		 tr_input_set_progress(struct tr_input *,
		    void (*fn)(void *, const struct tr_input *), void *arg);

/*
 * Digest of the decoded bytes produced so far, as text (a 128-bit
 * tr_digest and the length): written into 'buf' of TR_INPUT_DIGEST bytes.
 * Read it at end of input for the whole content.
 */
void		 tr_input_digest(const struct tr_input *, char *buf);

/* Set a data error at the current line (and column 'col', 0 for none). */
int		 tr_input_error(struct tr_input *, struct tr_error *, long col,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Set a data error at decoded byte offset 'off'. */
int		 tr_input_error_at(struct tr_input *, struct tr_error *,
		    int64_t off, const char *fmt, ...)
		    __attribute__((format(printf, 4, 5)));

#endif
