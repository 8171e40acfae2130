/*
 * trace-align: put every source on the traced host's CLOCK_MONOTONIC.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "align.h"
#include "db.h"
#include "out.h"
#include "tool.h"

static const char usage_text[] =
"usage: trace-align [-n] [-d DB] [-F table|csv|json]\n"
"\n"
"Apply the exact clock anchors in the trace store and print how every\n"
"source is aligned to CLOCK_MONOTONIC of the traced host.\n"
"\n"
"  -d, --db FILE        the store (default: $TRACE_DB or trace.db)\n"
"  -n, --dry-run        change nothing; print what would be applied\n"
"  -F, --format FMT     table (default on a terminal), csv or json\n"
"  -h, --help           print this help and exit\n"
"  -V, --version        print the version and exit\n";

static void
usage(int code)
{
	tool_usage(usage_text, code);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum tr_out_format	 fmt;
	struct tr_error		 err;
	struct tr_out		*out;
	struct tr_db		*db;
	const char		*dbpath = NULL;
	int			 c, dry = 0, status = 0;

	tool_init("trace-align");
	fmt = isatty(STDOUT_FILENO) ? TR_OUT_TABLE : TR_OUT_CSV;
	while ((c = getopt_long(argc, argv, "d:nF:hV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case 'n':
			dry = 1;
			break;
		case 'F':
			if (tr_out_parse_format(optarg, &fmt) != 0)
				tool_die(TOOL_EXIT_USAGE, "unknown output format "
				    "'%s'; use table, csv or json", optarg);
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
	if (optind != argc)
		usage(TOOL_EXIT_USAGE);
	tr_error_init(&err);
	if ((db = tr_db_open(tr_db_default_path(dbpath),
	    dry ? TR_DB_READONLY : TR_DB_NOCREATE, &err)) == NULL)
		return (tool_report(&err));
	out = tr_out_new(stdout, fmt);
	if (tr_align_run(db, dry, out, &err) != 0)
		status = tool_report(&err);
	tr_out_free(out);
	tr_db_free(db);
	tool_close_stdout();
	return (status);
}
