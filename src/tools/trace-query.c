/*
 * trace-query: run a named analysis or SQL over the store.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/db.h"
#include "base/out.h"
#include "query/query.h"
#include "tool.h"

static const char usage_text[] =
"usage: trace-query [-q] [-d DB] [-F table|csv|json] QUERY [ARG...]\n"
"       trace-query -l\n"
"       trace-query help [QUERY]\n"
"\n"
"Run a named analysis over the trace store and print its rows.  A\n"
"query's options: trace-query QUERY --help, or trace-query help QUERY.\n"
"\n"
"  -d, --db FILE        the store (default: $TRACE_DB or trace.db)\n"
"  -F, --output-format FMT\n"
"                       table (default on a terminal), csv (default\n"
"                       otherwise) or json\n"
"  -l, --list           list the queries and exit\n"
"  -q, --quiet          no notes on standard error, only errors\n"
"  -h, --help           print this help and exit\n"
"  -V, --version        print the version and exit\n";

static void
usage(int code)
{
	tool_usage(usage_text, code);
}

static void
list_queries(void)
{
	size_t	i;

	for (i = 0; tr_query_table[i] != NULL; i++)
		printf("%-13s %-12s %s\n", tr_query_table[i]->name,
		    tr_query_table[i]->usage, tr_query_table[i]->summary);
	tool_close_stdout();
	exit(0);
}

static const struct tr_query *
find_query(const char *name)
{
	const struct tr_query	*q;
	const char		*near;
	char			*names;

	if ((q = tr_query_find(name)) != NULL)
		return (q);
	names = tr_query_names();
	if ((near = tr_query_suggest(name)) != NULL)
		tool_die(TOOL_EXIT_USAGE, "unknown query '%s'; did you mean "
		    "'%s'? queries: %s", name, near, names);
	tool_die(TOOL_EXIT_USAGE, "unknown query '%s'; queries: %s", name,
	    names);
}

/* Whether the query's arguments ask for its help. */
static int
wants_help(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)
			return (1);
	return (0);
}

static void
help(const struct tr_query *q)
{
	tr_query_help(q);
	tool_close_stdout();
	exit(0);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "output-format", required_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct tr_query	*q;
	enum tr_out_format	 fmt;
	struct tr_error		 err;
	struct tr_out		*out;
	struct tr_db		*db;
	const char		*dbpath = NULL;
	int			 c, status = 0;

	tool_init("trace-query");
	fmt = tool_format_default();
	/* '+': options end at the query name; its arguments are its own. */
	while ((c = getopt_long(argc, argv, "+d:F:lqhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case 'F':
			fmt = tool_parse_format(optarg);
			break;
		case 'q':
			tool_quiet = 1;
			break;
		case 'l':
			list_queries();
			break;
		case 'h':
			usage(0);
			break;
		case 'V':
			tool_version();
			tool_close_stdout();
			return (0);
		default:
			usage(TOOL_EXIT_USAGE);
		}
	}
	if (optind >= argc)
		usage(TOOL_EXIT_USAGE);
	if (strcmp(argv[optind], "help") == 0) {
		if (optind + 1 >= argc)
			usage(0);
		if (optind + 2 < argc)
			tool_die(TOOL_EXIT_USAGE, "help: one query at a time");
		help(find_query(argv[optind + 1]));
	}
	q = find_query(argv[optind]);
	/* A query's help needs no store. */
	if (wants_help(argc - optind, argv + optind))
		help(q);
	tr_error_init(&err);
	if ((db = tr_db_open(tr_db_default_path(dbpath), TR_DB_READONLY,
	    &err)) == NULL)
		return (tool_report(&err));
	out = tool_out_new(fmt);
	/* A write error is reported once, by tool_close_stdout(). */
	if (q->run(db, argc - optind, argv + optind, out, &err) != 0)
		status = ferror(stdout) ? TOOL_EXIT_DATA : tool_report(&err);
	tr_out_free(out);
	tr_db_free(db);
	tool_close_stdout();
	return (status);
}
