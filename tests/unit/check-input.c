/*
 * Unit tests for input: plain, gzip and zstd from memory, files and a
 * pipe on standard input; line splitting, offsets, peeking, digests, and
 * the located errors of truncated and corrupt streams.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <zlib.h>
#include <zstd.h>

#include "base/error.h"
#include "base/input.h"
#include "base/util.h"

#define MIB	(1 << 20)
#define BIG_SHORT	20000	/* short lines at the end of make_big() */
#define BIG_LINES	(BIG_SHORT + 4)

/* --- helpers -------------------------------------------------------- */

/* Gzip 'len' bytes into a new buffer (one member).  Also used in main(). */
static unsigned char *
gz(const void *data, size_t len, size_t *outlen)
{
	z_stream	 z;
	unsigned char	*out;
	size_t		 cap = len + len / 100 + 1024;

	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	out = tr_xmalloc(cap);
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	*outlen = cap - z.avail_out;
	deflateEnd(&z);
	return (out);
}

/* Zstd-compress 'len' bytes into a new buffer (one frame). */
static unsigned char *
zst(const void *data, size_t len, size_t *outlen)
{
	size_t		 cap = ZSTD_compressBound(len);
	unsigned char	*out = tr_xmalloc(cap);

	*outlen = ZSTD_compress(out, cap, data, len, 3);
	if (ZSTD_isError(*outlen))
		abort();
	return (out);
}

/* Append 'n' bytes to a growing buffer. */
static void
cat(struct tr_buf *b, const void *p, size_t n)
{
	tr_buf_add(b, p, n);
}

static char	tmpdir[64];

static void
setup_tmp(void)
{
	snprintf(tmpdir, sizeof tmpdir, "check-input.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
teardown_tmp(void)
{
	char	cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmpdir);
}

/* Write a file under the test's temporary directory; returns its path. */
static char *
write_tmp(const char *name, const void *data, size_t len)
{
	char	*path = tr_xasprintf("%s/%s", tmpdir, name);
	FILE	*f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return (path);
}

/* Read every line; fail the test on an error. */
static size_t
count_lines(struct tr_input *in)
{
	struct tr_error	 err;
	const char	*line;
	size_t		 len, n = 0;
	int		 r;

	tr_error_init(&err);
	while ((r = tr_input_getline(in, &line, &len, &err)) == 1)
		n++;
	ck_assert_msg(r == 0, "unexpected error: %s", err.msg);
	return (n);
}

/* Read lines until the first error; return its formatted text. */
static void
read_to_error(struct tr_input *in, struct tr_error *err, char *buf,
    size_t len)
{
	const char	*line;
	size_t		 n;
	int		 r;

	tr_error_init(err);
	while ((r = tr_input_getline(in, &line, &n, err)) == 1)
		;
	ck_assert_int_eq(r, -1);
	tr_error_format(err, buf, len);
}

static const char	small[] = "a\nbb\r\n\nccc";

/* The lines of 'small', from any input that decodes to it. */
static void
check_small(struct tr_input *in)
{
	struct tr_error	 err;
	const char	*line;
	size_t		 len;
	char		 digest[64], want[64];
	struct tr_input	*ref;

	tr_error_init(&err);
	ck_assert_int_eq(tr_input_lineno(in), 0);
	ck_assert_int_eq(tr_input_offset(in), 0);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(memcmp(line, "a", 1), 0);
	ck_assert_int_eq(tr_input_lineno(in), 1);
	ck_assert_int_eq(tr_input_offset(in), 2);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 2);
	ck_assert_int_eq(memcmp(line, "bb", 2), 0);
	ck_assert_int_eq(tr_input_offset(in), 6);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(tr_input_lineno(in), 3);
	ck_assert_int_eq(tr_input_offset(in), 7);
	/* The last line has no newline. */
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(memcmp(line, "ccc", 3), 0);
	ck_assert_int_eq(tr_input_lineno(in), 4);
	ck_assert_int_eq(tr_input_offset(in), 10);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 0);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 0);
	ck_assert_int_eq(tr_input_lineno(in), 4);
	ck_assert_int_eq(tr_input_decoded(in), 10);
	ck_assert_int_eq(err.code, 0);
	/* The digest is that of the decoded bytes, whatever the codec. */
	ref = tr_input_mem("ref", small, sizeof small - 1);
	ck_assert_uint_eq(count_lines(ref), 4);
	tr_input_digest(ref, want);
	tr_input_digest(in, digest);
	ck_assert_str_eq(digest, want);
	tr_input_free(ref);
}

/* --- memory inputs -------------------------------------------------- */

START_TEST(test_mem_plain)
{
	struct tr_input	*in = tr_input_mem("m", small, sizeof small - 1);

	ck_assert_str_eq(tr_input_name(in), "m");
	ck_assert_str_eq(tr_input_compression(in), "none");
	check_small(in);
	tr_input_free(in);
	tr_input_free(NULL);
}
END_TEST

START_TEST(test_mem_gzip)
{
	size_t		 n;
	unsigned char	*z = gz(small, sizeof small - 1, &n);
	struct tr_input	*in = tr_input_mem("m.gz", z, n);

	ck_assert_str_eq(tr_input_compression(in), "gzip");
	check_small(in);
	tr_input_free(in);
	free(z);
}
END_TEST

START_TEST(test_mem_zstd)
{
	size_t		 n;
	unsigned char	*z = zst(small, sizeof small - 1, &n);
	struct tr_input	*in = tr_input_mem("m.zst", z, n);

	ck_assert_str_eq(tr_input_compression(in), "zstd");
	check_small(in);
	tr_input_free(in);
	free(z);
}
END_TEST

/* Several gzip members decode to their concatenation. */
START_TEST(test_gzip_members)
{
	struct tr_buf	 b;
	unsigned char	*z;
	size_t		 n;
	struct tr_input	*in;

	tr_buf_init(&b);
	z = gz("a\nb", 3, &n);
	cat(&b, z, n);
	free(z);
	z = gz("b\r\n\n", 4, &n);
	cat(&b, z, n);
	free(z);
	z = gz("", 0, &n);		/* an empty member in the middle */
	cat(&b, z, n);
	free(z);
	z = gz("ccc", 3, &n);
	cat(&b, z, n);
	free(z);
	in = tr_input_mem("m.gz", b.data, b.len);
	check_small(in);
	tr_input_free(in);
	tr_buf_release(&b);
}
END_TEST

/* Several zstd frames, and a skippable frame, decode to one stream. */
START_TEST(test_zstd_frames)
{
	static const unsigned char skip[] = {
		0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'
	};
	struct tr_buf	 b;
	unsigned char	*z;
	size_t		 n;
	struct tr_input	*in;

	tr_buf_init(&b);
	z = zst("a\nbb\r", 5, &n);
	cat(&b, z, n);
	free(z);
	cat(&b, skip, sizeof skip);
	z = zst("\n\nc", 3, &n);
	cat(&b, z, n);
	free(z);
	z = zst("cc", 2, &n);
	cat(&b, z, n);
	free(z);
	in = tr_input_mem("m.zst", b.data, b.len);
	check_small(in);
	tr_input_free(in);
	tr_buf_release(&b);
}
END_TEST

/* A stream that starts with a skippable frame, as pzstd writes them. */
START_TEST(test_zstd_skippable_first)
{
	static const unsigned char skip[] = {
		0x5e, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4
	};
	struct tr_buf	 b;
	unsigned char	*z;
	size_t		 n;
	struct tr_input	*in;

	tr_buf_init(&b);
	cat(&b, skip, sizeof skip);
	z = zst(small, sizeof small - 1, &n);
	cat(&b, z, n);
	free(z);
	in = tr_input_mem("p.zst", b.data, b.len);
	ck_assert_str_eq(tr_input_compression(in), "zstd");
	check_small(in);
	tr_input_free(in);
	tr_buf_release(&b);
}
END_TEST

/*
 * Lines around and across the 1 MiB decoding window, and one longer than
 * the window: 'big' holds them, and check_big() reads them back.
 */
static char *
build_big(size_t *len)
{
	struct tr_buf	 b;
	size_t		 i;
	char		*chunk = tr_xmalloc(3 * MIB);

	tr_buf_init(&b);
	/* line 1 ends 10 bytes before 1 MiB */
	memset(chunk, 'a', MIB - 11);
	tr_buf_add(&b, chunk, MIB - 11);
	tr_buf_addc(&b, '\n');
	/* line 2 crosses 1 MiB */
	memset(chunk, 'b', 100);
	tr_buf_add(&b, chunk, 100);
	tr_buf_adds(&b, "\r\n");
	/* line 3 is three windows long */
	for (i = 0; i < 3 * MIB; i++)
		chunk[i] = (char)('c' + i % 3);
	tr_buf_add(&b, chunk, 3 * MIB);
	tr_buf_addc(&b, '\n');
	/* many short lines */
	for (i = 0; i < BIG_SHORT; i++)
		tr_buf_printf(&b, "%zu\n", i);
	tr_buf_adds(&b, "end");
	free(chunk);
	*len = b.len;
	return (b.data);
}

/*
 * make_big() and its gzip and zstd forms are built once, in main(), before
 * the tests fork; each test gets its own copy.
 */
static char		*big_data;
static size_t		 big_len;
static unsigned char	*big_gzd, *big_zstd;
static size_t		 big_gzlen, big_zstlen;

static void *
copy(const void *p, size_t n)
{
	void	*q = tr_xmalloc(n);

	memcpy(q, p, n);
	return (q);
}

static char *
make_big(size_t *len)
{
	*len = big_len;
	return (copy(big_data, big_len));
}

static unsigned char *
big_gz(size_t *len)
{
	*len = big_gzlen;
	return (copy(big_gzd, big_gzlen));
}

static unsigned char *
big_zst(size_t *len)
{
	*len = big_zstlen;
	return (copy(big_zstd, big_zstlen));
}

static void
big_init(void)
{
	big_data = build_big(&big_len);
	big_gzd = gz(big_data, big_len, &big_gzlen);
	big_zstd = zst(big_data, big_len, &big_zstlen);
}

static void
check_big(struct tr_input *in, size_t total)
{
	struct tr_error	 err;
	const char	*line;
	size_t		 len, i;
	char		 num[32];
	int64_t		 off;

	tr_error_init(&err);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, MIB - 11);
	ck_assert_int_eq(line[0], 'a');
	ck_assert_int_eq(line[len - 1], 'a');
	ck_assert_int_eq(tr_input_offset(in), MIB - 10);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 100);
	ck_assert_int_eq(line[0], 'b');
	ck_assert_int_eq(line[99], 'b');
	ck_assert_int_eq(tr_input_offset(in), MIB + 92);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 3 * MIB);
	/* Plain tests in the loops: a ck_assert costs a write to a pipe. */
	for (i = 0; i < len; i++)
		if ((size_t)line[i] != 'c' + i % 3)
			ck_abort_msg("line 3: byte %zu is '%c'", i, line[i]);
	off = MIB + 92 + 3 * MIB + 1;
	ck_assert_int_eq(tr_input_offset(in), off);
	for (i = 0; i < BIG_SHORT; i++) {
		snprintf(num, sizeof num, "%zu", i);
		if (tr_input_getline(in, &line, &len, &err) != 1 ||
		    len != strlen(num) || memcmp(line, num, len) != 0)
			ck_abort_msg("line %zu is not '%s'", i + 4, num);
		off += (int64_t)len + 1;
		if (tr_input_offset(in) != off)
			ck_abort_msg("line %zu: offset %lld, expected %lld",
			    i + 4, (long long)tr_input_offset(in),
			    (long long)off);
	}
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(memcmp(line, "end", 3), 0);
	ck_assert_int_eq(tr_input_lineno(in), BIG_LINES);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 0);
	ck_assert_int_eq(tr_input_offset(in), (int64_t)total);
	ck_assert_int_eq(tr_input_decoded(in), (int64_t)total);
}

START_TEST(test_window_plain)
{
	size_t		 n;
	char		*big = make_big(&n);
	struct tr_input	*in = tr_input_mem("big", big, n);

	check_big(in, n);
	tr_input_free(in);
	free(big);
}
END_TEST

START_TEST(test_window_gzip)
{
	size_t		 n, zn;
	char		*big = make_big(&n);
	unsigned char	*z = big_gz(&zn);
	struct tr_input	*in = tr_input_mem("big.gz", z, zn);

	check_big(in, n);
	tr_input_free(in);
	free(z);
	free(big);
}
END_TEST

START_TEST(test_window_zstd)
{
	size_t		 n, zn;
	char		*big = make_big(&n);
	unsigned char	*z = big_zst(&zn);
	struct tr_input	*in = tr_input_mem("big.zst", z, zn);

	check_big(in, n);
	tr_input_free(in);
	free(z);
	free(big);
}
END_TEST

/*
 * A short line, then one longer than the window: the window is refilled
 * with little room, so the decoders hold back output after reading the
 * last of their input.  That is not a truncation.
 */
static void
check_flush(int codec)
{
	size_t		 n, zn, i;
	char		*data;
	unsigned char	*z;
	struct tr_input	*in;
	struct tr_error	 err;
	const char	*line;
	size_t		 len;

	for (n = MIB + 1000; n < MIB + 300000; n += 99999) {
		data = tr_xmalloc(n);
		memset(data, 'y', n);
		memcpy(data, "x\n", 2);
		data[n - 1] = '\n';
		z = codec == 1 ? gz(data, n, &zn) : zst(data, n, &zn);
		in = tr_input_mem("f", z, zn);
		tr_error_init(&err);
		ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
		ck_assert_uint_eq(len, 1);
		ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
		ck_assert_uint_eq(len, n - 3);
		for (i = 0; i < len; i++)
			if (line[i] != 'y')
				ck_abort_msg("byte %zu is '%c'", i, line[i]);
		ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 0);
		ck_assert_int_eq(tr_input_decoded(in), (int64_t)n);
		tr_input_free(in);
		free(z);
		free(data);
	}
}

START_TEST(test_zstd_flush)
{
	check_flush(2);
}
END_TEST

START_TEST(test_gzip_flush)
{
	check_flush(1);
}
END_TEST

/* A line longer than TR_INPUT_MAXLINE is an error at its line. */
static void
check_long_line(int final_newline)
{
	size_t		 n = 6 + TR_INPUT_MAXLINE + 1 + 4;
	char		*data = tr_xmalloc(n), buf[256], want[256];
	struct tr_input	*in;
	struct tr_error	 err;
	const char	*line;
	size_t		 len;

	memcpy(data, "first\n", 6);
	memset(data + 6, 'x', TR_INPUT_MAXLINE + 1);
	memcpy(data + 6 + TR_INPUT_MAXLINE + 1, final_newline ? "\ny\n" :
	    "yyy", 3);
	n--;
	in = tr_input_mem("long", data, n);
	tr_error_init(&err);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 5);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), -1);
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_int_eq(err.line, 2);
	tr_error_format(&err, buf, sizeof buf);
	snprintf(want, sizeof want, "long:2: line longer than %d bytes",
	    TR_INPUT_MAXLINE);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	free(data);
}

START_TEST(test_long_line)
{
	check_long_line(1);
}
END_TEST

START_TEST(test_long_line_at_eof)
{
	check_long_line(0);
}
END_TEST

/* A line of exactly TR_INPUT_MAXLINE bytes is accepted. */
START_TEST(test_max_line)
{
	size_t		 n = TR_INPUT_MAXLINE + 3;
	char		*data = tr_xmalloc(n);
	struct tr_input	*in;
	struct tr_error	 err;
	const char	*line;
	size_t		 len;

	memset(data, 'm', TR_INPUT_MAXLINE);
	memcpy(data + TR_INPUT_MAXLINE, "\nz", 2);
	n = TR_INPUT_MAXLINE + 2;
	in = tr_input_mem("max", data, n);
	tr_error_init(&err);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, TR_INPUT_MAXLINE);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 0);
	tr_input_free(in);
	free(data);
}
END_TEST

START_TEST(test_peek)
{
	size_t			 n, zn, len, i;
	char			*big = make_big(&n);
	unsigned char		*z = big_zst(&zn);
	struct tr_input		*in = tr_input_mem("p.zst", z, zn);
	struct tr_error		 err;
	const unsigned char	*p;
	const char		*line;
	unsigned char		 four[4];

	tr_error_init(&err);
	ck_assert_int_eq(tr_input_peek(in, &p, &len, &err), 0);
	ck_assert_uint_eq(len, TR_INPUT_PEEK);
	for (i = 0; i < len; i++)
		ck_assert_int_eq(p[i], 'a');
	/* Peeking again gives the same bytes and consumes nothing. */
	ck_assert_int_eq(tr_input_peek(in, &p, &len, &err), 0);
	ck_assert_uint_eq(len, TR_INPUT_PEEK);
	ck_assert_int_eq(tr_input_offset(in), 0);
	ck_assert_int_eq(tr_input_lineno(in), 0);
	ck_assert_int_eq(tr_input_read(in, four, 4, &err), 4);
	ck_assert_int_eq(memcmp(four, "aaaa", 4), 0);
	ck_assert_int_eq(tr_input_offset(in), 4);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, MIB - 15);
	tr_input_free(in);
	free(z);
	free(big);

	/* A short input peeks whole, and still reads whole afterwards. */
	in = tr_input_mem("s", small, sizeof small - 1);
	ck_assert_int_eq(tr_input_peek(in, &p, &len, &err), 0);
	ck_assert_uint_eq(len, sizeof small - 1);
	ck_assert_int_eq(memcmp(p, small, len), 0);
	check_small(in);
	ck_assert_int_eq(tr_input_peek(in, &p, &len, &err), 0);
	ck_assert_uint_eq(len, 0);
	tr_input_free(in);
}
END_TEST

START_TEST(test_read)
{
	struct tr_input	*in = tr_input_mem("r", small, sizeof small - 1);
	struct tr_error	 err;
	char		 buf[64];
	const char	*line;
	size_t		 len;

	tr_error_init(&err);
	ck_assert_int_eq(tr_input_read(in, buf, 3, &err), 3);
	ck_assert_int_eq(memcmp(buf, "a\nb", 3), 0);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(line[0], 'b');
	ck_assert_int_eq(tr_input_read(in, buf, sizeof buf, &err), 4);
	ck_assert_int_eq(memcmp(buf, "\nccc", 4), 0);
	ck_assert_int_eq(tr_input_read(in, buf, sizeof buf, &err), 0);
	tr_input_free(in);
}
END_TEST

START_TEST(test_empty_and_tiny)
{
	static const unsigned char	gzmagic[] = { 0x1f, 0x8b };
	static const unsigned char	zsmagic[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const unsigned char	halfzs[] = { 0x28, 0xb5, 0x2f };
	struct tr_input			*in;
	struct tr_error			 err;
	const unsigned char		*p;
	size_t				 len;
	char				 buf[256], d1[64], d2[64];

	in = tr_input_mem("e", "", 0);
	tr_error_init(&err);
	ck_assert_int_eq(tr_input_peek(in, &p, &len, &err), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(count_lines(in), 0);
	tr_input_digest(in, d1);
	tr_input_free(in);
	ck_assert_str_eq(d1, "b74ed4182dd4ce5a6c5c0a9d3dd38997-0");

	in = tr_input_mem("x", "x", 1);
	ck_assert_uint_eq(count_lines(in), 1);
	tr_input_digest(in, d2);
	ck_assert_str_ne(d1, d2);
	tr_input_free(in);

	/* Three bytes of a zstd magic are plain data. */
	in = tr_input_mem("h", halfzs, sizeof halfzs);
	ck_assert_str_eq(tr_input_compression(in), "none");
	ck_assert_int_eq(tr_input_peek(in, &p, &len, &err), 0);
	ck_assert_uint_eq(len, 3);
	tr_input_free(in);

	/* A bare gzip magic is a truncated stream. */
	in = tr_input_mem("g.gz", gzmagic, sizeof gzmagic);
	ck_assert_str_eq(tr_input_compression(in), "gzip");
	read_to_error(in, &err, buf, sizeof buf);
	ck_assert_str_eq(buf,
	    "g.gz: offset 2 (compressed): truncated gzip stream");
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_int_eq(err.compressed, 1);
	ck_assert_int_eq(err.offset, 2);
	tr_input_free(in);

	/* A bare zstd magic is a truncated stream. */
	in = tr_input_mem("z.zst", zsmagic, sizeof zsmagic);
	ck_assert_str_eq(tr_input_compression(in), "zstd");
	read_to_error(in, &err, buf, sizeof buf);
	ck_assert_str_eq(buf,
	    "z.zst: offset 4 (compressed): truncated zstd stream");
	tr_input_free(in);
}
END_TEST

/* The same content raw, gzipped and zstd'ed has one digest. */
START_TEST(test_digest)
{
	size_t		 n, gn, zn;
	char		*big = make_big(&n);
	unsigned char	*g = big_gz(&gn), *z = big_zst(&zn);
	struct tr_input	*a = tr_input_mem("a", big, n);
	struct tr_input	*b = tr_input_mem("b", g, gn);
	struct tr_input	*c = tr_input_mem("c", z, zn);
	struct tr_input	*d;
	char		 da[64], db[64], dc[64], dd[64];

	ck_assert_uint_eq(count_lines(a), BIG_LINES);
	ck_assert_uint_eq(count_lines(b), BIG_LINES);
	ck_assert_uint_eq(count_lines(c), BIG_LINES);
	tr_input_digest(a, da);
	tr_input_digest(b, db);
	tr_input_digest(c, dc);
	ck_assert_str_eq(da, db);
	ck_assert_str_eq(da, dc);
	snprintf(dd, sizeof dd, "-%zu", n);
	ck_assert_str_eq(da + strlen(da) - strlen(dd), dd);
	/* One byte changed: another digest. */
	big[MIB] = 'Z';
	d = tr_input_mem("d", big, n);
	ck_assert_uint_eq(count_lines(d), BIG_LINES);
	tr_input_digest(d, dd);
	ck_assert_str_ne(da, dd);
	tr_input_free(a);
	tr_input_free(b);
	tr_input_free(c);
	tr_input_free(d);
	free(g);
	free(z);
	free(big);
}
END_TEST

/* --- broken streams ------------------------------------------------- */

START_TEST(test_truncated_gzip)
{
	size_t		 n, zn;
	char		*big = make_big(&n), buf[256], want[256];
	unsigned char	*z = big_gz(&zn);
	struct tr_input	*in;
	struct tr_error	 err;

	/* Cut inside the deflate data. */
	in = tr_input_mem("t.gz", z, zn / 2);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "t.gz: offset %zu (compressed): truncated gzip stream", zn / 2);
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_input_free(in);
	/* Cut inside the trailer: every byte decoded, CRC missing. */
	in = tr_input_mem("t.gz", z, zn - 3);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "t.gz: offset %zu (compressed): truncated gzip stream", zn - 3);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	free(z);
	free(big);
}
END_TEST

START_TEST(test_corrupt_gzip)
{
	size_t		 zn;
	unsigned char	*z = gz(small, sizeof small - 1, &zn);
	struct tr_input	*in;
	struct tr_error	 err;
	char		 buf[256];

	/* The CRC in the trailer is wrong. */
	z[zn - 8] ^= 0xff;
	in = tr_input_mem("c.gz", z, zn);
	read_to_error(in, &err, buf, sizeof buf);
	ck_assert_str_eq(buf,
	    "c.gz: offset 26 (compressed): bad gzip data: incorrect data "
	    "check");
	ck_assert_int_eq(err.offset, 26);
	tr_input_free(in);
	/* A reserved block type right after the header. */
	z[zn - 8] ^= 0xff;
	z[10] = 0x07;
	in = tr_input_mem("c.gz", z, zn);
	read_to_error(in, &err, buf, sizeof buf);
	ck_assert_str_eq(buf,
	    "c.gz: offset 11 (compressed): bad gzip data: invalid block type");
	tr_input_free(in);
	free(z);
}
END_TEST

START_TEST(test_truncated_zstd)
{
	size_t		 n, zn;
	char		*big = make_big(&n), buf[256], want[256];
	unsigned char	*z = big_zst(&zn);
	struct tr_input	*in;
	struct tr_error	 err;

	in = tr_input_mem("t.zst", z, zn / 2);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "t.zst: offset %zu (compressed): truncated zstd stream", zn / 2);
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_int_eq(err.compressed, 1);
	tr_input_free(in);
	/* One byte short. */
	in = tr_input_mem("t.zst", z, zn - 1);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "t.zst: offset %zu (compressed): truncated zstd stream", zn - 1);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	free(z);
	free(big);
}
END_TEST

START_TEST(test_corrupt_zstd)
{
	size_t		 zn;
	unsigned char	*z = zst(small, sizeof small - 1, &zn);
	struct tr_input	*in;
	struct tr_error	 err;
	char		 buf[256];

	/* A reserved bit in the frame header descriptor. */
	z[4] |= 0x08;
	in = tr_input_mem("c.zst", z, zn);
	read_to_error(in, &err, buf, sizeof buf);
	ck_assert_str_eq(buf, "c.zst: offset 0 (compressed): bad zstd data: "
	    "Unsupported frame parameter");
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_int_eq(err.compressed, 1);
	tr_input_free(in);
	free(z);
}
END_TEST

/* The size of the zstd frame header at 'z' (RFC 8878, 3.1.1.1). */
static size_t
zst_header_size(const unsigned char *z)
{
	static const size_t	did[] = { 0, 1, 2, 4 };
	static const size_t	fcs[] = { 0, 2, 4, 8 };
	unsigned		fhd = z[4];
	int			single = (fhd >> 5) & 1;

	return (4 + 1 + (single ? 0 : 1) + did[fhd & 3] +
	    (fhd >> 6 == 0 ? (size_t)single : fcs[fhd >> 6]));
}

/*
 * A corrupt block deep inside a frame: the offset points near it (zstd
 * decodes in bites of at most 4 KiB), not at the start of the frame.
 */
START_TEST(test_corrupt_zstd_block)
{
	struct tr_buf	 text;
	size_t		 zn, i, h, bh, nblock = 0;
	unsigned char	*z;
	uint32_t	 x = 1;
	struct tr_input	*in;
	struct tr_error	 err;
	char		 buf[256], want[256];
	char		*p;

	/* Text that does not compress much: several blocks. */
	tr_buf_init(&text);
	for (i = 0; i < 60000; i++) {
		x = x * 1103515245 + 12345;
		tr_buf_printf(&text, "%08x%s", x, i % 8 == 7 ? "\n" : " ");
	}
	z = zst(text.data, text.len, &zn);
	/* Walk the block headers to the third block; make it reserved. */
	h = zst_header_size(z);
	for (;;) {
		bh = z[h] | (size_t)z[h + 1] << 8 | (size_t)z[h + 2] << 16;
		ck_assert_int_eq(bh & 1, 0);	/* not the last block */
		if (++nblock == 3)
			break;
		h += 3 + (((bh >> 1) & 3) == 1 ? 1 : bh >> 3);
	}
	ck_assert_uint_gt(h, 100000);
	z[h] |= 0x06;
	in = tr_input_mem("c.zst", z, zn);
	read_to_error(in, &err, buf, sizeof buf);
	ck_assert_msg(err.offset > (int64_t)h - 4096 &&
	    err.offset <= (int64_t)h, "offset %lld, block 3 at %zu",
	    (long long)err.offset, h);
	snprintf(want, sizeof want, "c.zst: offset %lld (compressed): bad "
	    "zstd data: Data corruption detected", (long long)err.offset);
	ck_assert_str_eq(buf, want);
	/* Blocks before it were decoded (what the failing call made is lost). */
	ck_assert_int_ge(tr_input_decoded(in), 131072);
	ck_assert_int_le(tr_input_decoded(in), 2 * 131072);
	tr_input_free(in);
	/* The same from a file. */
	p = write_tmp("c.zst", z, zn);
	tr_error_init(&err);
	in = tr_input_open(p, "c.zst", &err);
	ck_assert_ptr_nonnull(in);
	read_to_error(in, &err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	free(p);
	free(z);
	tr_buf_release(&text);
}
END_TEST

/*
 * A frame whose content checksum does not match: the error is found at
 * the checksum, in the last 4 bytes, and is reported there.
 */
START_TEST(test_zstd_checksum)
{
	struct tr_buf	 text;
	ZSTD_CCtx	*cc = ZSTD_createCCtx();
	size_t		 cap, zn, i;
	unsigned char	*z;
	struct tr_input	*in;
	struct tr_error	 err;
	char		 buf[256], want[256];

	tr_buf_init(&text);
	for (i = 0; i < 3000; i++)
		tr_buf_printf(&text, "line %zu of some text\n", i);
	ck_assert_int_eq(ZSTD_isError(ZSTD_CCtx_setParameter(cc,
	    ZSTD_c_checksumFlag, 1)), 0);
	cap = ZSTD_compressBound(text.len);
	z = tr_xmalloc(cap);
	zn = ZSTD_compress2(cc, z, cap, text.data, text.len);
	ck_assert(!ZSTD_isError(zn));
	z[zn - 1] ^= 0x55;
	in = tr_input_mem("sum.zst", z, zn);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want, "sum.zst: offset %zu (compressed): bad "
	    "zstd data: Restored data doesn't match checksum", zn - 4);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	free(z);
	ZSTD_freeCCtx(cc);
	tr_buf_release(&text);
}
END_TEST

/* Garbage after a complete zstd frame is not silently dropped. */
START_TEST(test_zstd_trailing_garbage)
{
	struct tr_buf	 b;
	size_t		 zn;
	unsigned char	*z = zst(small, sizeof small - 1, &zn);
	struct tr_input	*in;
	struct tr_error	 err;
	char		 buf[256], want[256];

	tr_buf_init(&b);
	cat(&b, z, zn);
	tr_buf_adds(&b, "garbage!");
	in = tr_input_mem("g.zst", b.data, b.len);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want, "g.zst: offset %zu (compressed): bad "
	    "zstd data: Unknown frame descriptor", zn);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	tr_buf_release(&b);
	free(z);
}
END_TEST

/* --- files and standard input --------------------------------------- */

START_TEST(test_file_plain_gzip_zstd)
{
	size_t		 n, gn, zn;
	char		*big = make_big(&n);
	unsigned char	*g = big_gz(&gn), *z = big_zst(&zn);
	char		*p1 = write_tmp("big.txt", big, n);
	char		*p2 = write_tmp("big.txt.gz", g, gn);
	char		*p3 = write_tmp("big.txt.zst", z, zn);
	struct tr_input	*in;
	struct tr_error	 err;

	tr_error_init(&err);
	in = tr_input_open(p1, NULL, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(tr_input_name(in), p1);
	ck_assert_str_eq(tr_input_compression(in), "none");
	check_big(in, n);
	tr_input_free(in);
	in = tr_input_open(p2, "shown.gz", &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(tr_input_name(in), "shown.gz");
	ck_assert_str_eq(tr_input_compression(in), "gzip");
	check_big(in, n);
	tr_input_free(in);
	in = tr_input_open(p3, NULL, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(tr_input_compression(in), "zstd");
	check_big(in, n);
	tr_input_free(in);
	ck_assert_int_eq(err.code, 0);
	free(p1);
	free(p2);
	free(p3);
	free(g);
	free(z);
	free(big);
}
END_TEST

/* Files give the same located errors as memory. */
START_TEST(test_file_errors)
{
	size_t		 n, zn;
	char		*big = make_big(&n), buf[256], want[256], *p;
	unsigned char	*z = big_zst(&zn);
	struct tr_input	*in;
	struct tr_error	 err;

	p = write_tmp("t.zst", z, zn - 100);
	tr_error_init(&err);
	in = tr_input_open(p, "t.zst", &err);
	ck_assert_ptr_nonnull(in);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "t.zst: offset %zu (compressed): truncated zstd stream",
	    zn - 100);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	free(p);
	free(z);
	z = big_gz(&zn);
	p = write_tmp("t.gz", z, zn - 100);
	tr_error_init(&err);
	in = tr_input_open(p, "t.gz", &err);
	read_to_error(in, &err, buf, sizeof buf);
	snprintf(want, sizeof want,
	    "t.gz: offset %zu (compressed): truncated gzip stream", zn - 100);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);
	free(p);
	free(z);
	free(big);
}
END_TEST

START_TEST(test_open_errors)
{
	struct tr_input	*in;
	struct tr_error	 err;
	char		 buf[256], *p;

	tr_error_init(&err);
	p = tr_xasprintf("%s/missing.txt", tmpdir);
	in = tr_input_open(p, "missing.txt", &err);
	ck_assert_ptr_null(in);
	ck_assert_int_eq(err.code, TR_EIO);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf,
	    "missing.txt: cannot open: No such file or directory");
	free(p);
	/* A path through a regular file. */
	p = write_tmp("file", "x", 1);
	free(p);
	p = tr_xasprintf("%s/file/below", tmpdir);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_input_open(p, "file/below", &err));
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "file/below: cannot open: Not a directory");
	free(p);
	/* A directory. */
	tr_error_init(&err);
	ck_assert_ptr_null(tr_input_open(tmpdir, "dir", &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "dir: is a directory");
}
END_TEST

/* Standard input from a pipe, written in dribs (the magic split). */
static void
check_stdin(const unsigned char *data, size_t len, const char *codec)
{
	int		 fds[2], saved, status;
	pid_t		 pid;
	size_t		 off = 0, k;
	struct tr_input	*in;
	struct tr_error	 err;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ne(pid, -1);
	if (pid == 0) {
		close(fds[0]);
		while (off < len) {
			k = off < 3 ? 1 : len - off < 7000 ? len - off : 7000;
			if (write(fds[1], data + off, k) != (ssize_t)k)
				_exit(1);
			off += k;
			if (off < 4)
				usleep(20000);
		}
		_exit(0);
	}
	close(fds[1]);
	saved = dup(STDIN_FILENO);
	ck_assert_int_eq(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	tr_error_init(&err);
	in = tr_input_open("-", NULL, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(tr_input_name(in), "<stdin>");
	ck_assert_str_eq(tr_input_compression(in), codec);
	check_small(in);
	tr_input_free(in);
	/* The input does not close the process's standard input. */
	ck_assert_int_ne(fcntl(STDIN_FILENO, F_GETFD), -1);
	dup2(saved, STDIN_FILENO);
	close(saved);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

START_TEST(test_stdin)
{
	size_t		 n;
	unsigned char	*z;

	check_stdin((const unsigned char *)small, sizeof small - 1, "none");
	z = gz(small, sizeof small - 1, &n);
	check_stdin(z, n, "gzip");
	free(z);
	z = zst(small, sizeof small - 1, &n);
	check_stdin(z, n, "zstd");
	free(z);
}
END_TEST

/* --- slurp and error helpers ---------------------------------------- */

START_TEST(test_slurp)
{
	size_t		 n, zn, len;
	char		*big = make_big(&n), buf[256], want[256];
	unsigned char	*z = big_gz(&zn), *out;
	struct tr_input	*in;
	struct tr_error	 err;

	tr_error_init(&err);
	in = tr_input_mem("s.gz", z, zn);
	ck_assert_int_eq(tr_input_slurp(in, n, &out, &len, &err), 0);
	ck_assert_uint_eq(len, n);
	ck_assert_int_eq(memcmp(out, big, n), 0);
	free(out);
	tr_input_free(in);

	/* One byte over the limit. */
	in = tr_input_mem("s.gz", z, zn);
	ck_assert_int_eq(tr_input_slurp(in, n - 1, &out, &len, &err), -1);
	ck_assert_ptr_null(out);
	ck_assert_uint_eq(len, 0);
	tr_error_format(&err, buf, sizeof buf);
	snprintf(want, sizeof want, "s.gz: offset %zu: input larger than "
	    "%zu bytes", n - 1, n - 1);
	ck_assert_str_eq(buf, want);
	tr_input_free(in);

	/* What is left after a line; a zero limit on empty input. */
	in = tr_input_mem("s", small, sizeof small - 1);
	tr_error_init(&err);
	ck_assert_int_eq(tr_input_read(in, buf, 2, &err), 2);
	ck_assert_int_eq(tr_input_slurp(in, 8, &out, &len, &err), 0);
	ck_assert_uint_eq(len, 8);
	ck_assert_int_eq(memcmp(out, "bb\r\n\nccc", 8), 0);
	free(out);
	ck_assert_int_eq(tr_input_slurp(in, 0, &out, &len, &err), 0);
	ck_assert_uint_eq(len, 0);
	free(out);
	tr_input_free(in);

	/* A stream error comes through. */
	in = tr_input_mem("s.gz", z, 100);
	ck_assert_int_eq(tr_input_slurp(in, n, &out, &len, &err), -1);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf,
	    "s.gz: offset 100 (compressed): truncated gzip stream");
	tr_input_free(in);
	free(z);
	free(big);
}
END_TEST

START_TEST(test_input_error)
{
	struct tr_input	*in = tr_input_mem("e.txt", small, sizeof small - 1);
	struct tr_error	 err;
	const char	*line;
	size_t		 len;
	char		 buf[256];

	tr_error_init(&err);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_int_eq(tr_input_getline(in, &line, &len, &err), 1);
	ck_assert_int_eq(tr_input_error(in, &err, 2, "bad '%s'", "bb"), -1);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "e.txt:2:2: bad 'bb'");
	ck_assert_int_eq(err.code, TR_EDATA);
	/* The first error wins. */
	ck_assert_int_eq(tr_input_error_at(in, &err, 9, "later"), -1);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "e.txt:2:2: bad 'bb'");
	tr_error_init(&err);
	tr_input_error_at(in, &err, 9, "at %d", 9);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "e.txt: offset 9: at 9");
	tr_error_init(&err);
	tr_input_error(in, &err, 0, "no column");
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "e.txt:2: no column");
	tr_input_free(in);
	/* Formats without a location, and with a source only. */
	tr_error_init(&err);
	tr_error_set(&err, TR_EUSAGE, "plain %d", 1);
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "plain 1");
	tr_error_init(&err);
	tr_error_set_line(&err, TR_EIO, "f", 0, 0, "m");
	tr_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "f: m");
	ck_assert_int_eq(err.offset, -1);
	/* A NULL error record is allowed. */
	ck_assert_int_eq(tr_error_set(NULL, TR_EDATA, "x"), -1);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("input");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	big_init();
	tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_mem_plain);
	tcase_add_test(tc, test_mem_gzip);
	tcase_add_test(tc, test_mem_zstd);
	tcase_add_test(tc, test_gzip_members);
	tcase_add_test(tc, test_zstd_frames);
	tcase_add_test(tc, test_zstd_skippable_first);
	tcase_add_test(tc, test_window_plain);
	tcase_add_test(tc, test_window_gzip);
	tcase_add_test(tc, test_window_zstd);
	tcase_add_test(tc, test_zstd_flush);
	tcase_add_test(tc, test_gzip_flush);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_long_line_at_eof);
	tcase_add_test(tc, test_max_line);
	tcase_add_test(tc, test_peek);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_empty_and_tiny);
	tcase_add_test(tc, test_digest);
	tcase_add_test(tc, test_truncated_gzip);
	tcase_add_test(tc, test_corrupt_gzip);
	tcase_add_test(tc, test_truncated_zstd);
	tcase_add_test(tc, test_corrupt_zstd);
	tcase_add_test(tc, test_corrupt_zstd_block);
	tcase_add_test(tc, test_zstd_checksum);
	tcase_add_test(tc, test_zstd_trailing_garbage);
	tcase_add_test(tc, test_file_plain_gzip_zstd);
	tcase_add_test(tc, test_file_errors);
	tcase_add_test(tc, test_open_errors);
	tcase_add_test(tc, test_stdin);
	tcase_add_test(tc, test_slurp);
	tcase_add_test(tc, test_input_error);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
