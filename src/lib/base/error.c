/*
 * Error records: set once, formatted with their location.
 */
#include "config.h"
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
tr_error_init(struct tr_error *err)
{
	memset(err, 0, sizeof *err);
	err->offset = -1;
}

static int	verr(struct tr_error *, int, const char *, long, long, int64_t,
		    const char *, va_list) __attribute__((format(printf, 7, 0)));

static int
verr(struct tr_error *err, int code, const char *source, long line, long col,
    int64_t offset, const char *fmt, va_list ap)
{
	if (err == NULL || err->code != 0)
		return (-1);
	err->code = code;
	snprintf(err->source, sizeof err->source, "%s", source ? source : "");
	err->line = line;
	err->column = col;
	err->offset = offset;
	err->compressed = 0;
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	return (-1);
}

int
tr_error_set(struct tr_error *err, int code, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	verr(err, code, NULL, 0, 0, -1, fmt, ap);
	va_end(ap);
	return (-1);
}

int
tr_error_set_line(struct tr_error *err, int code, const char *source,
    long line, long col, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	verr(err, code, source, line, col, -1, fmt, ap);
	va_end(ap);
	return (-1);
}

int
tr_error_set_offset(struct tr_error *err, int code, const char *source,
    int64_t offset, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	verr(err, code, source, 0, 0, offset, fmt, ap);
	va_end(ap);
	return (-1);
}

void
tr_error_format(const struct tr_error *err, char *buf, unsigned long len)
{
	if (err->source[0] == '\0')
		snprintf(buf, len, "%s", err->msg);
	else if (err->line > 0 && err->column > 0)
		snprintf(buf, len, "%s:%ld:%ld: %s", err->source, err->line,
		    err->column, err->msg);
	else if (err->line > 0)
		snprintf(buf, len, "%s:%ld: %s", err->source, err->line,
		    err->msg);
	else if (err->offset >= 0)
		snprintf(buf, len, "%s: offset %lld%s: %s", err->source,
		    (long long)err->offset,
		    err->compressed ? " (compressed)" : "", err->msg);
	else
		snprintf(buf, len, "%s: %s", err->source, err->msg);
}
