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

#include "base/util.h"

const char *tool_name = "trace";
int tool_quiet;

void
tool_init(const char *name)
{
	tool_name = name;
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
