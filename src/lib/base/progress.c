/*
 * The progress line: "\r" + text + "erase to the end of the line" + "\r",
 * so each drawing replaces the last, cut to the terminal's width so that it
 * never wraps (a wrapped line could not be redrawn in place).
 */
#include "config.h"
#include "base/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

#define INTERVAL_MS	200

struct tr_progress {
	const char	*tool;
	int64_t		 interval;	/* ns between drawings */
	int64_t		 start;		/* of this measure, ns */
	int64_t		 last;		/* last drawing, ns; 0: none yet */
	int		 drawn;		/* a line is on the screen */
};

static int64_t
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

struct tr_progress *
tr_progress_new(const char *tool, int quiet)
{
	struct tr_progress	*p;
	const char		*e;
	char			*end;
	long			 ms = INTERVAL_MS;

	if (quiet || !isatty(STDERR_FILENO))
		return (NULL);
	if ((e = getenv("TRACE_PROGRESS_INTERVAL")) != NULL && *e != '\0') {
		ms = strtol(e, &end, 10);
		if (*end != '\0' || ms < 0 || ms > 3600000)
			ms = INTERVAL_MS;
	}
	p = tr_xcalloc(1, sizeof *p);
	p->tool = tool;
	p->interval = (int64_t)ms * 1000000;
	p->start = now_ns();
	return (p);
}

void
tr_progress_free(struct tr_progress *p)
{
	if (p == NULL)
		return;
	tr_progress_clear(p);
	free(p);
}

/* "999 B", "12.3 kB", "45.6 MB", "7.89 GB": decimal units, as du -si. */
static void
size_text(char *buf, size_t len, int64_t n)
{
	double	v = (double)n;

	if (n < 1000)
		snprintf(buf, len, "%lld B", (long long)n);
	else if (n < 1000000)
		snprintf(buf, len, "%.1f kB", v / 1e3);
	else if (n < 1000000000)
		snprintf(buf, len, "%.1f MB", v / 1e6);
	else
		snprintf(buf, len, "%.2f GB", v / 1e9);
}

/* "0:07", "12:34", "1:02:03". */
static void
time_text(char *buf, size_t len, double secs)
{
	long	s = secs > 3.6e7 ? 36000000L : (long)(secs + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
		    s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

static size_t
columns(void)
{
	struct winsize	ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return (ws.ws_col);
	return (80);
}

void
tr_progress_show(struct tr_progress *p, const char *name, const char *note,
    int64_t done, int64_t total)
{
	struct tr_buf	 b;
	int64_t		 t;
	double		 secs, rate;
	char		 d[32], tot[32], r[32], left[32];
	size_t		 cols;

	if (p == NULL)
		return;
	t = now_ns();
	if (t - (p->last ? p->last : p->start) < p->interval)
		return;
	p->last = t;
	secs = (double)(t - p->start) / 1e9;
	rate = secs > 0 ? (double)done / secs : 0;
	tr_buf_init(&b);
	size_text(d, sizeof d, done);
	tr_buf_printf(&b, "%s: %s: %s", p->tool, name, d);
	if (total >= 0 && done <= total) {
		size_text(tot, sizeof tot, total);
		tr_buf_printf(&b, " of %s (%d%%%s%s)", tot, total > 0 ?
		    (int)(100.0 * (double)done / (double)total) : 100,
		    note ? ", " : "", note ? note : "");
	} else
		tr_buf_printf(&b, " read%s%s%s", note ? " (" : "",
		    note ? note : "", note ? ")" : "");
	if (rate > 0) {
		size_text(r, sizeof r, (int64_t)rate);
		tr_buf_printf(&b, ", %s/s", r);
		if (total >= done) {
			time_text(left, sizeof left,
			    (double)(total - done) / rate);
			tr_buf_printf(&b, ", %s left", left);
		}
	}
	cols = columns();
	if (b.len > cols - 1)
		b.data[cols - 1] = '\0';
	/*
	 * The cursor goes back to the start: output that comes before
	 * tr_progress_clear() (a library's warning, a report) writes over
	 * the line instead of after it.
	 */
	fprintf(stderr, "\r%s\033[K\r", b.data);
	fflush(stderr);
	p->drawn = 1;
	tr_buf_release(&b);
}

void
tr_progress_clear(struct tr_progress *p)
{
	if (p == NULL)
		return;
	if (p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->drawn = 0;
	p->last = 0;
	p->start = now_ns();
}
