/*
 * Shared CLI helpers for the trace-* tools: the program name, error
 * reporting in the PROG: LOCATION: MESSAGE form, and closing stdout.
 */
#ifndef TR_TOOL_H
#define TR_TOOL_H

#include "base/error.h"

#define TOOL_EXIT_DATA	1
#define TOOL_EXIT_USAGE	2

extern const char *tool_name;

void	tool_init(const char *name);
/* Print "PROG: MESSAGE" and exit with 'code'. */
void	tool_die(int code, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/* Print "PROG: LOCATION: MESSAGE"; returns the exit code it implies. */
int	tool_report(const struct tr_error *);
/* Print "PROG: MESSAGE" as a note on stderr. */
void	tool_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parse a non-negative or signed integer option, or die with usage. */
long long tool_parse_int(const char *opt, const char *s, long long min,
	    long long max);
/* Check and close stdout; exit 1 with a message if writing failed. */
void	tool_close_stdout(void);
/*
 * Print the usage: all of 'text' on stdout and exit 0 for --help; only its
 * synopsis (up to the first blank line) and a pointer to --help on stderr,
 * exiting 'code', otherwise.
 */
void	tool_usage(const char *text, int code) __attribute__((noreturn));
/* The version line for --version. */
void	tool_version(void);

#endif
