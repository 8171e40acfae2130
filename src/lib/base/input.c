/*
 * Streaming input with transparent decompression.  Decoded bytes live in
 * one window [pos, end) of 'buf'; refilling moves what is left to the front
 * and decodes more after it, so memory stays at the window size plus the
 * longest line.
 */
#include "config.h"
#include "base/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "base/util.h"

#define WINDOW		(1 << 20)
#define RAWBUF		(256 << 10)
#define ZSTD_BITE	4096	/* compressed bytes per ZSTD_decompressStream() */
#define ZSTD_HEAD_BITE	18	/* the longest zstd frame header (RFC 8878) */

enum codec { CODEC_NONE, CODEC_GZIP, CODEC_ZSTD };

struct tr_input {
	char		*name;
	int		 fd;		/* -1 for memory */
	int		 close_fd;
	enum codec	 codec;

	/* Raw (compressed) bytes, before decoding. */
	const unsigned char *mem;	/* memory input */
	size_t		 mem_len;
	unsigned char	*raw;
	size_t		 raw_pos, raw_len;
	int		 raw_eof;
	int64_t		 raw_offset;	/* compressed bytes consumed */
	int64_t		 raw_read;	/* read from fd */
	int64_t		 raw_size;	/* of the file, or -1 */
	void		(*progress)(void *, const struct tr_input *);
	void		*progress_arg;

	z_stream	 z;
	int		 z_init;
	int		 z_done;	/* current gzip member finished */
	ZSTD_DCtx	*zd;
	size_t		 zd_last;	/* last ZSTD_decompressStream() hint */

	/* Decoded window. */
	unsigned char	*buf;
	size_t		 cap, pos, end;
	int		 eof;		/* no more decoded bytes will come */
	int64_t		 base;		/* decoded offset of buf[0] */
	int64_t		 decoded;
	struct tr_digest digest;

	long		 lineno;
};

static int
raw_fill(struct tr_input *in, struct tr_error *err)
{
	ssize_t	n;

	if (in->raw_pos < in->raw_len || in->raw_eof)
		return (0);
	if (in->fd < 0) {
		in->raw_eof = 1;
		return (0);
	}
	in->raw_pos = in->raw_len = 0;
	do
		n = read(in->fd, in->raw, RAWBUF);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return (tr_error_set_line(err, TR_EIO, in->name, 0, 0,
		    "read error: %s", strerror(errno)));
	if (n == 0)
		in->raw_eof = 1;
	in->raw_len = (size_t)n;
	in->raw_read += n;
	if (in->progress != NULL)
		in->progress(in->progress_arg, in);
	return (0);
}

/* Point at the next raw bytes: memory input or the raw buffer. */
static const unsigned char *
raw_ptr(struct tr_input *in, size_t *avail)
{
	if (in->fd < 0) {
		*avail = in->mem_len - in->raw_pos;
		return (in->mem + in->raw_pos);
	}
	*avail = in->raw_len - in->raw_pos;
	return (in->raw + in->raw_pos);
}

static void
raw_consume(struct tr_input *in, size_t n)
{
	in->raw_pos += n;
	in->raw_offset += (int64_t)n;
}

/*
 * An uncompressed input read straight into the window: the bytes read
 * count as raw and are consumed at once.  (size_t)-1 on a read error.
 */
static size_t
direct_read(struct tr_input *in, unsigned char *dst, size_t room,
    struct tr_error *err)
{
	ssize_t	n;

	do
		n = read(in->fd, dst, room);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		tr_error_set_line(err, TR_EIO, in->name, 0, 0,
		    "read error: %s", strerror(errno));
		return ((size_t)-1);
	}
	if (n == 0)
		in->raw_eof = 1;
	in->raw_read += n;
	in->raw_offset += n;
	if (in->progress != NULL)
		in->progress(in->progress_arg, in);
	return ((size_t)n);
}

static int
raw_more(struct tr_input *in, struct tr_error *err)
{
	size_t	avail;

	raw_ptr(in, &avail);
	if (avail > 0)
		return (1);
	if (in->fd < 0)
		return (0);
	if (raw_fill(in, err) != 0)
		return (-1);
	raw_ptr(in, &avail);
	return (avail > 0);
}

static int
codec_error(struct tr_input *in, struct tr_error *err, const char *what,
    const char *detail)
{
	tr_error_set_offset(err, TR_EDATA, in->name, in->raw_offset, "%s%s%s",
	    what, *detail ? ": " : "", detail);
	err->compressed = 1;
	return (-1);
}

/* Decode into buf[end..cap).  Sets in->eof at the end of the stream. */
static int
decode(struct tr_input *in, struct tr_error *err)
{
	unsigned char		*dst = in->buf + in->end;
	size_t			 room = in->cap - in->end, avail, got = 0;
	const unsigned char	*src;
	int			 r;

	while (got == 0 && !in->eof) {
		if (in->codec == CODEC_NONE && in->fd >= 0 &&
		    in->raw_pos == in->raw_len && !in->raw_eof &&
		    room >= RAWBUF / 4) {
			/*
			 * Past what detection read: straight into the
			 * window, without the raw buffer's copy.
			 */
			if ((got = direct_read(in, dst,
			    room < RAWBUF ? room : RAWBUF, err)) ==
			    (size_t)-1)
				return (-1);
			if (got == 0)
				in->eof = 1;
			break;
		}
		if ((r = raw_more(in, err)) < 0)
			return (-1);
		src = raw_ptr(in, &avail);
		switch (in->codec) {
		case CODEC_NONE:
			if (r == 0) {
				in->eof = 1;
				break;
			}
			got = avail < room ? avail : room;
			memcpy(dst, src, got);
			raw_consume(in, got);
			break;
		case CODEC_GZIP:
			if (in->z_done) {
				/* Concatenated members; trailing zeros end. */
				if (r == 0 || src[0] != 0x1f) {
					in->eof = 1;
					break;
				}
				inflateReset(&in->z);
				in->z_done = 0;
			}
			if (r == 0)
				return (codec_error(in, err,
				    "truncated gzip stream", ""));
			in->z.next_in = (unsigned char *)(uintptr_t)src;
			in->z.avail_in = (uInt)avail;
			in->z.next_out = dst;
			in->z.avail_out = (uInt)room;
			r = inflate(&in->z, Z_NO_FLUSH);
			raw_consume(in, avail - in->z.avail_in);
			got = room - in->z.avail_out;
			if (r == Z_STREAM_END)
				in->z_done = 1;
			else if (r != Z_OK && r != Z_BUF_ERROR)
				return (codec_error(in, err,
				    "bad gzip data",
				    in->z.msg ? in->z.msg : "inflate failed"));
			break;
		case CODEC_ZSTD: {
			ZSTD_inBuffer	ib;
			ZSTD_outBuffer	ob;
			size_t		bite;

			if (r == 0) {
				if (in->zd_last != 0)
					return (codec_error(in, err,
					    "truncated zstd stream", ""));
				in->eof = 1;
				break;
			}
			/*
			 * zstd does not say where in its input an error
			 * lies.  Bites of at most ZSTD_BITE, and no more
			 * than its hint (the rest of the current block,
			 * header or checksum; at the start of a frame, its
			 * header), keep the offset of an error (taken before
			 * the call) close to it.
			 */
			bite = in->zd_last == 0 ? ZSTD_HEAD_BITE :
			    in->zd_last < ZSTD_BITE ? in->zd_last : ZSTD_BITE;
			ib.src = src;
			ib.size = avail < bite ? avail : bite;
			ib.pos = 0;
			ob.dst = dst;
			ob.size = room;
			ob.pos = 0;
			in->zd_last = ZSTD_decompressStream(in->zd, &ob, &ib);
			if (ZSTD_isError(in->zd_last))
				return (codec_error(in, err, "bad zstd data",
				    ZSTD_getErrorName(in->zd_last)));
			raw_consume(in, ib.pos);
			got = ob.pos;
			break;
		}
		}
	}
	if (got > 0) {
		tr_digest_update(&in->digest, dst, got);
		in->decoded += (int64_t)got;
		in->end += got;
	}
	return (0);
}

/* Make at least 'want' bytes available from pos (fewer at EOF). */
static int
ensure(struct tr_input *in, size_t want, struct tr_error *err)
{
	while (in->end - in->pos < want && !in->eof) {
		if (in->pos > 0 &&
		    (in->end == in->cap || in->pos >= in->cap / 2)) {
			memmove(in->buf, in->buf + in->pos, in->end - in->pos);
			in->base += (int64_t)in->pos;
			in->end -= in->pos;
			in->pos = 0;
		}
		if (in->end == in->cap) {
			in->cap *= 2;
			in->buf = tr_xrealloc(in->buf, in->cap);
		}
		if (decode(in, err) != 0)
			return (-1);
	}
	return (0);
}

static struct tr_input *
input_new(const char *name, size_t cap)
{
	struct tr_input	*in = tr_xcalloc(1, sizeof *in);

	in->name = tr_xstrdup(name);
	in->fd = -1;
	in->raw_size = -1;
	in->cap = cap;
	in->buf = tr_xmalloc(in->cap);
	tr_digest_init(&in->digest);
	return (in);
}

static int
detect_codec(struct tr_input *in, struct tr_error *err)
{
	const unsigned char	*p;
	size_t			 avail;

	if (in->fd >= 0) {
		/* Gather at least 4 raw bytes (a pipe may deliver fewer). */
		in->raw_len = in->raw_pos = 0;
		while (in->raw_len < 4) {
			ssize_t	n = read(in->fd, in->raw + in->raw_len,
			    RAWBUF - in->raw_len);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return (tr_error_set_line(err, TR_EIO,
				    in->name, 0, 0, "read error: %s",
				    strerror(errno)));
			if (n == 0) {
				in->raw_eof = 1;
				break;
			}
			in->raw_len += (size_t)n;
			in->raw_read += n;
		}
	}
	p = raw_ptr(in, &avail);
	if (avail >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
		in->codec = CODEC_GZIP;
		if (inflateInit2(&in->z, 15 + 16) != Z_OK)
			return (tr_error_set(err, TR_EIO, "inflateInit failed"));
		in->z_init = 1;
	} else if (avail >= 4 && ((p[0] == 0x28 && p[1] == 0xb5 &&
	    p[2] == 0x2f && p[3] == 0xfd) || ((p[0] & 0xf0) == 0x50 &&
	    p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18))) {
		/* A zstd frame, or a skippable frame (pzstd starts so). */
		in->codec = CODEC_ZSTD;
		in->zd = ZSTD_createDCtx();
		if (in->zd == NULL)
			return (tr_error_set(err, TR_EIO,
			    "ZSTD_createDCtx failed"));
	}
	return (0);
}

struct tr_input *
tr_input_open(const char *path, const char *display, struct tr_error *err)
{
	struct tr_input	*in = NULL;
	struct stat	 st;
	int		 fd;

	if (display == NULL)
		display = strcmp(path, "-") == 0 ? "<stdin>" : path;
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY)) < 0) {
		tr_error_set_line(err, TR_EIO, display, 0, 0, "cannot open: %s",
		    strerror(errno));
		return (NULL);
	}
	if (fstat(fd, &st) != 0)
		st.st_mode = 0;
	if (S_ISDIR(st.st_mode)) {
		tr_error_set_line(err, TR_EDATA, display, 0, 0,
		    "is a directory");
		if (fd != STDIN_FILENO)
			close(fd);
		return (NULL);
	}
	in = input_new(display, WINDOW);
	in->fd = fd;
	in->close_fd = fd != STDIN_FILENO;
	if (S_ISREG(st.st_mode))
		in->raw_size = (int64_t)st.st_size;
	in->raw = tr_xmalloc(RAWBUF);
	if (detect_codec(in, err) != 0) {
		tr_input_free(in);
		return (NULL);
	}
	return (in);
}

struct tr_input *
tr_input_mem(const char *name, const void *data, size_t len)
{
	struct tr_input	*in = input_new(name, 1);

	in->mem = data;
	in->mem_len = len;
	in->raw_eof = 1;
	detect_codec(in, NULL);
	/*
	 * Plain bytes fit a window of their size (one byte more, to see the
	 * end without growing it), so small inputs cost no 1 MiB window each
	 * (the fuzzers import thousands a second).  Compressed ones decode
	 * into the same window as from a file, and so fail at the same
	 * offsets.
	 */
	in->cap = in->codec == CODEC_NONE && len < WINDOW ? len + 1 : WINDOW;
	in->buf = tr_xrealloc(in->buf, in->cap);
	return (in);
}

void
tr_input_free(struct tr_input *in)
{
	if (in == NULL)
		return;
	if (in->close_fd)
		close(in->fd);
	if (in->z_init)
		inflateEnd(&in->z);
	ZSTD_freeDCtx(in->zd);
	free(in->raw);
	free(in->buf);
	free(in->name);
	free(in);
}

const char *
tr_input_name(const struct tr_input *in)
{
	return (in->name);
}

const char *
tr_input_compression(const struct tr_input *in)
{
	switch (in->codec) {
	case CODEC_GZIP:
		return ("gzip");
	case CODEC_ZSTD:
		return ("zstd");
	default:
		return ("none");
	}
}

int
tr_input_peek(struct tr_input *in, const unsigned char **p, size_t *len,
    struct tr_error *err)
{
	if (ensure(in, TR_INPUT_PEEK, err) != 0)
		return (-1);
	*p = in->buf + in->pos;
	*len = in->end - in->pos;
	if (*len > TR_INPUT_PEEK)
		*len = TR_INPUT_PEEK;
	return (0);
}

int
tr_input_getline(struct tr_input *in, const char **line, size_t *len,
    struct tr_error *err)
{
	unsigned char	*nl;
	size_t		 scanned = 0, n;

	for (;;) {
		nl = memchr(in->buf + in->pos + scanned, '\n',
		    in->end - in->pos - scanned);
		if (nl != NULL)
			break;
		scanned = in->end - in->pos;
		/* Stop reading once the line is too long to be accepted. */
		if (in->eof || scanned > TR_INPUT_MAXLINE)
			break;
		if (ensure(in, scanned + 1, err) != 0)
			return (-1);
	}
	if (nl == NULL && in->end == in->pos)
		return (0);
	n = nl != NULL ? (size_t)(nl - (in->buf + in->pos)) : in->end - in->pos;
	/*
	 * The same limit whether the line ends in the window, at the end of
	 * the input, or beyond what was read.
	 */
	if (n > TR_INPUT_MAXLINE) {
		in->lineno++;
		return (tr_input_error(in, err, 0, "line longer than %d bytes",
		    TR_INPUT_MAXLINE));
	}
	*line = (const char *)in->buf + in->pos;
	in->pos += n + (nl != NULL);
	if (n > 0 && (*line)[n - 1] == '\r')
		n--;
	*len = n;
	in->lineno++;
	return (1);
}

int
tr_input_peek_block(struct tr_input *in, size_t max, const char **p,
    size_t *len, struct tr_error *err)
{
	const unsigned char	*b, *s, *nl;
	size_t			 at = 0;	/* where the next line starts */

	for (;;) {
		b = in->buf + in->pos;
		while (at < in->end - in->pos) {
			s = b + at;
			if (*s == '\n') {
				if (at == 0 || at + 1 > max)
					return (0);
				*p = (const char *)b;
				*len = at + 1;
				return (1);
			}
			if (*s != ' ' && *s != '\t')
				return (0);
			if ((nl = memchr(s, '\n', in->end - in->pos - at)) ==
			    NULL)
				break;
			at = (size_t)(nl - b) + 1;
		}
		/* 'at' is the start of a line not wholly in the window. */
		if (in->eof || in->end - in->pos >= max)
			return (0);
		if (ensure(in, in->end - in->pos + 1, err) != 0)
			return (-1);
	}
}

void
tr_input_skip(struct tr_input *in, size_t n, long lines)
{
	in->pos += n;
	in->lineno += lines;
}

int64_t
tr_input_read(struct tr_input *in, void *buf, size_t n, struct tr_error *err)
{
	size_t	got = 0, k;

	while (got < n) {
		if (in->pos == in->end) {
			if (in->eof)
				break;
			if (ensure(in, 1, err) != 0)
				return (-1);
			continue;
		}
		k = in->end - in->pos;
		if (k > n - got)
			k = n - got;
		memcpy((char *)buf + got, in->buf + in->pos, k);
		in->pos += k;
		got += k;
	}
	return ((int64_t)got);
}

int
tr_input_slurp(struct tr_input *in, size_t max, unsigned char **out,
    size_t *outlen, struct tr_error *err)
{
	unsigned char	*b = NULL;
	size_t		 len = 0, cap = 0;
	int64_t		 n;

	*out = NULL;
	*outlen = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			b = tr_xrealloc(b, cap);
		}
		if ((n = tr_input_read(in, b + len, cap - len, err)) < 0) {
			free(b);
			return (-1);
		}
		len += (size_t)n;
		if (len > max) {
			free(b);
			return (tr_input_error_at(in, err, (int64_t)max,
			    "input larger than %zu bytes", max));
		}
		if (n == 0)
			break;
	}
	*out = b;
	*outlen = len;
	return (0);
}

long
tr_input_lineno(const struct tr_input *in)
{
	return (in->lineno);
}

int64_t
tr_input_offset(const struct tr_input *in)
{
	return (in->base + (int64_t)in->pos);
}

int64_t
tr_input_decoded(const struct tr_input *in)
{
	return (in->decoded);
}

int64_t
tr_input_raw_read(const struct tr_input *in)
{
	return (in->raw_read);
}

int64_t
tr_input_raw_size(const struct tr_input *in)
{
	return (in->raw_size);
}

void
tr_input_set_progress(struct tr_input *in,
    void (*fn)(void *, const struct tr_input *), void *arg)
{
	in->progress = fn;
	in->progress_arg = arg;
}

void
tr_input_digest(const struct tr_input *in, char *buf)
{
	tr_digest_final(&in->digest, buf, TR_INPUT_DIGEST);
}

int
tr_input_error(struct tr_input *in, struct tr_error *err, long col,
    const char *fmt, ...)
{
	va_list	ap;
	char	msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return (tr_error_set_line(err, TR_EDATA, in->name, in->lineno, col,
	    "%s", msg));
}

int
tr_input_error_at(struct tr_input *in, struct tr_error *err, int64_t off,
    const char *fmt, ...)
{
	va_list	ap;
	char	msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return (tr_error_set_offset(err, TR_EDATA, in->name, off, "%s", msg));
}
