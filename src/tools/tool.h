/*
 * Shared CLI helpers for the trace-* tools: the program name, error
 * reporting in the PROG: LOCATION: MESSAGE form, -q, the output format
 * option and names chosen from a list, and closing stdout.  What the
 * options mean in every tool: trace-tools(7), "OPTIONS COMMON TO ALL
 * TOOLS".
 */
#ifndef TR_TOOL_H
#define TR_TOOL_H

#include "base/error.h"
#include "base/out.h"

#define TOOL_EXIT_DATA	1
#define TOOL_EXIT_USAGE	2

extern const char *tool_name;
/*
 * Set by -q/--quiet (every tool): tool_note() and the notes of the
 * tool_out_new() writer print nothing; errors still do.
 */
extern int tool_quiet;

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

/*
 * The output format options, the same in every tool that writes rows:
 * -F FMT / --output-format FMT.  tool_format_default() is the table on a
 * terminal, CSV otherwise; tool_parse_format() dies with a usage error
 * naming the choices when 'arg' is not table, csv or json.
 */
enum tr_out_format tool_format_default(void);
enum tr_out_format tool_parse_format(const char *arg);
/*
 * A row writer on stdout in 'fmt' whose notes go to stderr as
 * "PROG: NOTE" lines (nowhere with -q).  Owned by the caller
 * (tr_out_free(), before tool_close_stdout()).
 */
struct tr_out *tool_out_new(enum tr_out_format fmt);
/*
 * Die with a usage error for a name that is not one of 'choices' (a
 * NULL-terminated list): "unknown WHAT 'ARG'; use a, b or c".
 */
void	tool_die_unknown(const char *what, const char *arg,
	    const char *const *choices) __attribute__((noreturn));
/*
 * The index of 'arg' in 'choices' (NULL-terminated), or die as
 * tool_die_unknown().
 */
int	tool_parse_name(const char *what, const char *arg,
	    const char *const *choices);

#endif
