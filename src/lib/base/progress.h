/*
 * A progress line on standard error for long work: bytes done of the
 * total, the rate and the time left, redrawn in place at most every
 * TRACE_PROGRESS_INTERVAL milliseconds (default 200; the first drawing
 * waits as long).  Only on a terminal: tr_progress_new() gives NULL
 * otherwise, and every call takes NULL.
 */
#ifndef TR_PROGRESS_H
#define TR_PROGRESS_H

#include <stdint.h>

struct tr_progress;

/*
 * A meter for tool 'tool' (borrowed), or NULL when 'quiet' or when
 * standard error is not a terminal.
 */
struct tr_progress	*tr_progress_new(const char *tool, int quiet);
/* Erase the line and free the meter. */
void			 tr_progress_free(struct tr_progress *);

/*
 * 'done' of 'total' bytes (total < 0, or less than done: unknown) of
 * 'name' (borrowed, for this call), with a 'note' on what they are
 * ("compressed"; NULL: none): "NAME: 12.3 MB of 45.6 MB (27%, NOTE),
 * 8.1 MB/s, 0:04 left", or "NAME: 12.3 MB read (NOTE), 8.1 MB/s".  The
 * rate counts from the last tr_progress_clear() (or tr_progress_new()).
 */
void	tr_progress_show(struct tr_progress *, const char *name,
	    const char *note, int64_t done, int64_t total);
/*
 * Erase the line, if one is drawn, before other output, and start a new
 * measure: the next show() counts its rate from now.
 */
void	tr_progress_clear(struct tr_progress *);

#endif
