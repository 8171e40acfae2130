/*
 * libFuzzer harness: the input layer (transparent gzip and zstd, lines,
 * reads, peeks) and every importer's probe.  The same bytes are read three
 * ways; whenever two of them reach the end, they must agree on the digest
 * of the decoded content.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "import/importer.h"
#include "base/input.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Decoded bytes each pass reads at most: a small bomb must not hang us. */
#define FUZZ_MAXOUT	(8 << 20)

static const size_t bites[] = { 1, 3, 4096, 65535, 65536, 70000 };

/* Returns 1 at end of input, 0 when cut at FUZZ_MAXOUT, -1 on error. */
static int
by_lines(const uint8_t *data, size_t size, char *digest)
{
	struct tr_input		*in = tr_input_mem("fuzz", data, size);
	struct tr_error		 err;
	const unsigned char	*p;
	const char		*line;
	size_t			 len;
	long			 n = 0;
	int			 r;

	tr_error_init(&err);
	if (tr_input_peek(in, &p, &len, &err) == 0) {
		if (len > TR_INPUT_PEEK)
			tr_fuzz_fail("peek offered %zu bytes", len);
		tr_importer_detect(p, len);
	}
	while (err.code == TR_OK &&
	    (r = tr_input_getline(in, &line, &len, &err)) == 1) {
		if (tr_input_lineno(in) != ++n)
			tr_fuzz_fail("line %ld numbered %ld", n,
			    tr_input_lineno(in));
		if (len > TR_INPUT_MAXLINE)
			tr_fuzz_fail("a line of %zu bytes", len);
		if (memchr(line, '\n', len) != NULL)
			tr_fuzz_fail("a newline inside line %ld", n);
		if (tr_input_offset(in) > tr_input_decoded(in))
			tr_fuzz_fail("offset past the decoded bytes");
		if (tr_input_decoded(in) > FUZZ_MAXOUT)
			break;
	}
	if (err.code != TR_OK) {
		tr_fuzz_check_error("input getline", &err);
		r = -1;
	} else
		r = tr_input_decoded(in) > FUZZ_MAXOUT ? 0 : 1;
	tr_input_digest(in, digest);
	tr_input_free(in);
	return (r);
}

static int
by_reads(const uint8_t *data, size_t size, char *digest)
{
	struct tr_input		*in = tr_input_mem("fuzz", data, size);
	struct tr_error		 err;
	unsigned char		*buf = malloc(70000);
	int64_t			 got, total = 0;
	size_t			 i = size;
	int			 r = 1;

	tr_error_init(&err);
	for (;;) {
		i = (i * 31 + 7) % (sizeof bites / sizeof bites[0]);
		got = tr_input_read(in, buf, bites[i], &err);
		if (got < 0) {
			tr_fuzz_check_error("input read", &err);
			r = -1;
			break;
		}
		if ((size_t)got > bites[i])
			tr_fuzz_fail("read %lld bytes for %zu",
			    (long long)got, bites[i]);
		total += got;
		if (tr_input_offset(in) != total)
			tr_fuzz_fail("offset %lld after reading %lld",
			    (long long)tr_input_offset(in), (long long)total);
		if ((size_t)got < bites[i])
			break;
		if (total > FUZZ_MAXOUT) {
			r = 0;
			break;
		}
	}
	tr_input_digest(in, digest);
	tr_input_free(in);
	free(buf);
	return (r);
}

static int
by_slurp(const uint8_t *data, size_t size, char *digest)
{
	struct tr_input	*in = tr_input_mem("fuzz", data, size);
	struct tr_error	 err;
	unsigned char	*buf = NULL;
	size_t		 len = 0;
	int		 r = 1;

	tr_error_init(&err);
	if (tr_input_slurp(in, FUZZ_MAXOUT, &buf, &len, &err) != 0) {
		tr_fuzz_check_error("input slurp", &err);
		if (buf != NULL)
			tr_fuzz_fail("slurp failed but returned a buffer");
		r = -1;
	} else if (len > FUZZ_MAXOUT)
		tr_fuzz_fail("slurp returned %zu bytes over its maximum", len);
	tr_input_digest(in, digest);
	free(buf);
	tr_input_free(in);
	return (r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	d1[64], d2[64], d3[64];
	int	r1, r2, r3;

	r1 = by_lines(data, size, d1);
	r2 = by_reads(data, size, d2);
	r3 = by_slurp(data, size, d3);
	if (r1 == 1 && r2 == 1 && strcmp(d1, d2) != 0)
		tr_fuzz_fail("lines and reads disagree: %s, %s", d1, d2);
	if (r2 == 1 && r3 == 1 && strcmp(d2, d3) != 0)
		tr_fuzz_fail("reads and slurp disagree: %s, %s", d2, d3);
	/* A pass cut at FUZZ_MAXOUT (0) proves nothing either way. */
	if ((r1 < 0) != (r2 < 0) && r1 != 0 && r2 != 0)
		tr_fuzz_fail("lines %s but reads %s", r1 < 0 ? "failed" :
		    "succeeded", r2 < 0 ? "failed" : "succeeded");
	return (0);
}
