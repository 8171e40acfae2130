/*
 * Helpers every tool uses; only tools exit.
 */
#include "config.h"
#include "tool.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

#include "base/util.h"

const char *tool_name = "trace";
int tool_quiet;

/*
 * The heap: one arena, grown at once by HEAP_PAD of address space (no
 * memory until touched) and never given back, in transparent huge pages
 * where the kernel gives them on request
 * (transparent_hugepage "madvise", as Debian's default).  A page fault
 * on a virtual machine costs about 10 us: a Go trace's import, which
 * touches its 90 MB of peak RSS a 4 kB page at a time, spent a fifth of
 * its time in them (bench/README, 2026-12-06).  Without glibc, under a
 * sanitizer's allocator, or with TRACEKIT_HEAP=0 (for benches: the heap
 * as glibc makes it), nothing changes.
 */
#define HEAP_PAD	((size_t)256 << 20)
#define HEAP_BIG	((size_t)32 << 20)
#define HEAP_STEP	((size_t)16 << 20)	/* growth past HEAP_PAD */

static void
tune_heap(void)
{
#if defined(__GLIBC__) && defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE) && \
    !defined(__SANITIZE_ADDRESS__)
	uintptr_t	 lo, hi, huge = (uintptr_t)2 << 20;
	const char	*knob = getenv("TRACEKIT_HEAP");
	char		*p, *brk;

	if (knob != NULL && strcmp(knob, "0") == 0)
		return;
	/*
	 * One arena: another's heap would be mapped in 4 kB pages; mmap()
	 * only past HEAP_BIG (glibc's most); never trimmed.
	 */
	if (mallopt(M_ARENA_MAX, 1) == 0 ||
	    mallopt(M_MMAP_THRESHOLD, (int)HEAP_BIG) == 0 ||
	    mallopt(M_TRIM_THRESHOLD, (int)(HEAP_PAD * 2)) == 0 ||
	    mallopt(M_TOP_PAD, (int)HEAP_PAD) == 0)
		return;
	/*
	 * Grow the heap by HEAP_PAD with a first block (below HEAP_BIG, so
	 * from the brk heap), and ask for huge pages in all of it: only
	 * where the block lies in the brk heap (a replaced malloc() may put
	 * it anywhere).  Past it the heap grows HEAP_STEP at a time.
	 */
	p = malloc(HEAP_STEP);
	(void)mallopt(M_TOP_PAD, (int)HEAP_STEP);
	if (p == NULL)
		return;
	brk = sbrk(0);
	if (brk != (char *)-1 && p < brk &&
	    (size_t)(brk - p) >= HEAP_PAD) {
		lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
		hi = (uintptr_t)brk & ~(huge - 1);
		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
	free(p);
#endif
}

void
tool_init(const char *name)
{
	tool_name = name;
	tune_heap();
}

void
tool_die(int code, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "%s: ", tool_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

void
tool_note(const char *fmt, ...)
{
	va_list	ap;

	if (tool_quiet)
		return;
	fprintf(stderr, "%s: ", tool_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
tool_report(const struct tr_error *err)
{
	char	buf[2048];

	tr_error_format(err, buf, sizeof buf);
	fprintf(stderr, "%s: %s\n", tool_name, buf);
	return (err->code == TR_EUSAGE ? TOOL_EXIT_USAGE : TOOL_EXIT_DATA);
}

long long
tool_parse_int(const char *opt, const char *s, long long min, long long max)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
		tool_die(TOOL_EXIT_USAGE, "%s: expected an integer from %lld "
		    "to %lld, got '%s'", opt, min, max, s);
	return (v);
}

void
tool_close_stdout(void)
{
	int	bad = fflush(stdout) != 0 || ferror(stdout);

	if (fclose(stdout) != 0)
		bad = 1;
	if (bad)
		tool_die(TOOL_EXIT_DATA, "error writing standard output: %s",
		    errno ? strerror(errno) : "write failed");
}

void
tool_version(void)
{
	printf("%s (%s) %s\n", tool_name, PACKAGE_NAME, PACKAGE_VERSION);
}

void
tool_usage(const char *text, int code)
{
	const char	*end;

	if (code == 0) {
		fputs(text, stdout);
		tool_close_stdout();
		exit(0);
	}
	end = strstr(text, "\n\n");
	fwrite(text, 1, end ? (size_t)(end - text) + 1 : strlen(text), stderr);
	fprintf(stderr, "run '%s --help' for the options\n", tool_name);
	exit(code);
}

enum tr_out_format
tool_format_default(void)
{
	return (isatty(STDOUT_FILENO) ? TR_OUT_TABLE : TR_OUT_CSV);
}

enum tr_out_format
tool_parse_format(const char *arg)
{
	static const char *const names[] = { "table", "csv", "json", NULL };
	enum tr_out_format	 fmt;

	if (tr_out_parse_format(arg, &fmt) != 0)
		tool_die_unknown("output format", arg, names);
	return (fmt);
}

struct tr_out *
tool_out_new(enum tr_out_format fmt)
{
	struct tr_out	*o = tr_out_new(stdout, fmt);
	char		*prefix = tr_xasprintf("%s: ", tool_name);

	tr_out_set_notes(o, tool_quiet ? NULL : stderr, prefix);
	free(prefix);
	return (o);
}

void
tool_die_unknown(const char *what, const char *arg,
    const char *const *choices)
{
	struct tr_buf	b;
	size_t		i, n;

	for (n = 0; choices[n] != NULL; n++)
		continue;
	tr_buf_init(&b);
	for (i = 0; i < n; i++) {
		if (i > 0)
			tr_buf_adds(&b, i + 1 == n ? " or " : ", ");
		tr_buf_adds(&b, choices[i]);
	}
	tool_die(TOOL_EXIT_USAGE, "unknown %s '%s'; use %s", what, arg,
	    b.data);
}

int
tool_parse_name(const char *what, const char *arg,
    const char *const *choices)
{
	int	i;

	for (i = 0; choices[i] != NULL; i++)
		if (strcmp(choices[i], arg) == 0)
			return (i);
	tool_die_unknown(what, arg, choices);
}
