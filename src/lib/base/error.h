/*
 * The error record every library function fills on failure.  The first
 * error wins: setters do nothing when an error is already recorded, so a
 * caller can pass an error up unchanged.
 */
#ifndef TR_ERROR_H
#define TR_ERROR_H

#include <stdint.h>

enum tr_error_code {
	TR_OK = 0,
	TR_EDATA,	/* bad input: the tool exits 1 */
	TR_EIO,		/* the system said no: the tool exits 1 */
	TR_EDB,		/* SQLite said no: the tool exits 1 */
	TR_EUSAGE	/* the caller asked for something impossible: exit 2 */
};

struct tr_error {
	int		code;		/* enum tr_error_code; 0 = no error */
	char		source[512];	/* file name, "<stdin>", or "" */
	long		line;		/* 1-based, 0 when there is none */
	long		column;		/* 1-based, 0 when there is none */
	int64_t		offset;		/* byte offset, -1 when there is none */
	int		compressed;	/* offset counts compressed bytes */
	char		msg[1024];
};

void	tr_error_init(struct tr_error *);
/* Set an error with no location.  Returns -1. */
int	tr_error_set(struct tr_error *, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Set an error at FILE:LINE:COL (line/col 0 to omit).  Returns -1. */
int	tr_error_set_line(struct tr_error *, int code, const char *source,
	    long line, long col, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
/* Set an error at FILE: offset N.  Returns -1. */
int	tr_error_set_offset(struct tr_error *, int code, const char *source,
	    int64_t offset, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
/*
 * Write "LOCATION: MESSAGE" (or just MESSAGE) into 'buf': "f:3:7: msg",
 * "f: offset 12: msg", "f: offset 12 (compressed): msg", "f: msg".
 */
void	tr_error_format(const struct tr_error *, char *buf, unsigned long len);

#endif
