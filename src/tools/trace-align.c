/*
 * trace-align: put every source on the traced host's CLOCK_MONOTONIC.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "align/align.h"
#include "store/db.h"
#include "base/out.h"
#include "base/progress.h"
#include "query/sel.h"
#include "tool.h"
#include "base/util.h"

static const char usage_text[] =
"usage: trace-align [-nq] [-d DB] [-F table|csv|json] [-s ID] [--reset]\n"
"                   [--offset SOURCE=[=]OFFSET]\n"
"                   [--pair SOURCE:TIME=SOURCE:TIME]\n"
"                   [--source-tz [SOURCE=]ZONE]\n"
"                   [--source-pid [SOURCE=]PID]\n"
"                   [--search DURATION] [--min-confidence C] [--force]\n"
"                   [--no-estimate] [--ignore ANCHOR]\n"
"\n"
"Put every source of the trace store on CLOCK_MONOTONIC of the traced host:\n"
"exact anchors first, then statements, then estimates by cross-correlation\n"
"of activity; print how each source is aligned and how well.\n"
"\n"
"  -d, --db FILE           the store (default: $TRACE_DB or trace.db)\n"
"  -n, --dry-run           change nothing; print what would be applied\n"
"  -F, --output-format FMT table (default on a terminal), csv\n"
"                          (default otherwise) or json\n"
"  -q, --quiet             no warnings on stderr\n"
"  -s, --source ID         align and report only sources ID (1,3,5-7;\n"
"                          repeatable); the others stay as they are\n"
"      --reset             put every source back on its native clock\n"
"      --offset S=OFFSET   move source S by OFFSET (+12.5ms) from its\n"
"                          current alignment (anchors, kept, estimate)\n"
"      --offset S==OFFSET  put source S at OFFSET from its native clock\n"
"      --pair S:TIME=R:TIME  S's TIME and R's TIME are the same instant\n"
"      --source-tz [S=]ZONE\n"
"                          the zone in which S's recorded local times\n"
"                          are read (UTC, +01:00, Europe/Berlin)\n"
"      --source-pid [S=]PID\n"
"                          S was recorded in process PID: estimate it\n"
"                          against that process's samples\n"
"      --search DURATION   estimates search +-DURATION (default 10s)\n"
"      --min-confidence C  apply estimates of confidence C or more\n"
"                          (0 to 1, default 0.5)\n"
"      --force             apply estimates below --min-confidence too\n"
"      --no-estimate       anchors and statements only\n"
"      --ignore ANCHOR     do not use perf-ref, go-snapshot, clock-json or\n"
"                          go-log anchors\n"
"  -h, --help              print this help and exit\n"
"  -V, --version           print the version and exit\n";

enum {
	OPT_RESET = 256, OPT_OFFSET, OPT_PAIR, OPT_TZ, OPT_PID, OPT_SEARCH,
	OPT_MINCONF, OPT_FORCE, OPT_NOEST, OPT_IGNORE, OPT_OLD_TZ, OPT_OLD_PID
};

static void
usage(int code)
{
	tool_usage(usage_text, code);
}

static void
add_stmt(struct tr_align_opts *o, enum tr_align_stmt_kind kind,
    const char *text)
{
	struct tr_error	err;

	tr_error_init(&err);
	if (tr_align_opts_add(o, kind, text, &err) != 0)
		exit(tool_report(&err));
}

/*
 * Progress on a terminal while SQLite works: the store's pages read into
 * its cache (a move reads the rows it changes, and may read pages twice)
 * of the store's size.
 */
struct align_progress {
	struct tr_progress	*meter;
	struct tr_db		*db;
	const char		*name;
	int64_t			 size;
	int			 page;
};

static int
align_progress(void *arg)
{
	struct align_progress	*pg = arg;
	int			 cur = 0, hi = 0;

	sqlite3_db_status(pg->db->sq, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi,
	    0);
	tr_progress_show(pg->meter, pg->name, "store pages read",
	    (int64_t)cur * pg->page, pg->size);
	return (0);
}

static void
clear_meter(void *arg)
{
	tr_progress_clear(arg);
}

static void
start_progress(struct tr_db *db, struct align_progress *pg)
{
	struct stat	st;
	int64_t		page = 4096;

	memset(pg, 0, sizeof *pg);
	if ((pg->meter = tr_progress_new("trace-align", tool_quiet)) == NULL)
		return;
	pg->db = db;
	pg->name = db->path;
	pg->size = stat(db->path, &st) == 0 ? (int64_t)st.st_size : -1;
	tr_db_int(db, "PRAGMA page_size", &page, NULL);
	pg->page = (int)page;
	/* Every 100000 virtual machine steps: a few ms. */
	sqlite3_progress_handler(db->sq, 100000, align_progress, pg);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "output-format", required_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "source", required_argument, NULL, 's' },
		{ "reset", no_argument, NULL, OPT_RESET },
		{ "offset", required_argument, NULL, OPT_OFFSET },
		{ "pair", required_argument, NULL, OPT_PAIR },
		{ "source-tz", required_argument, NULL, OPT_TZ },
		{ "source-pid", required_argument, NULL, OPT_PID },
		/* Deprecated spellings (trace-align(1)). */
		{ "tz", required_argument, NULL, OPT_OLD_TZ },
		{ "pid", required_argument, NULL, OPT_OLD_PID },
		{ "search", required_argument, NULL, OPT_SEARCH },
		{ "min-confidence", required_argument, NULL, OPT_MINCONF },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "no-estimate", no_argument, NULL, OPT_NOEST },
		{ "ignore", required_argument, NULL, OPT_IGNORE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct tr_align_opts	 o;
	struct tr_sel		 sel;
	enum tr_out_format	 fmt;
	struct tr_error		 err;
	struct tr_out		*out;
	struct tr_db		*db;
	struct align_progress	 pg;
	const char		*dbpath = NULL;
	char			*end;
	unsigned		 k;
	int			 c, rc, status = 0;

	tool_init("trace-align");
	tr_align_opts_init(&o);
	tr_sel_init(&sel, TR_SEL_SOURCE);
	tr_error_init(&err);
	fmt = tool_format_default();
	while ((c = getopt_long(argc, argv, "d:nF:qs:hV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case 'n':
			o.dry_run = 1;
			break;
		case 'F':
			fmt = tool_parse_format(optarg);
			break;
		case 'q':
			tool_quiet = 1;
			break;
		case 's':
			if (tr_sel_option(&sel, "source", optarg, &err) < 0)
				exit(tool_report(&err));
			break;
		case OPT_RESET:
			o.reset = 1;
			break;
		case OPT_OFFSET:
			add_stmt(&o, TR_ALIGN_OFFSET, optarg);
			break;
		case OPT_PAIR:
			add_stmt(&o, TR_ALIGN_PAIR, optarg);
			break;
		case OPT_OLD_TZ:
			tool_note("--tz is deprecated here: use --source-tz "
			    "(--tz is the zone of command-line times in the "
			    "other tools)");
			/* FALLTHROUGH */
		case OPT_TZ:
			add_stmt(&o, TR_ALIGN_TZ, optarg);
			break;
		case OPT_OLD_PID:
			tool_note("--pid is deprecated here: use --source-pid "
			    "(--pid selects a process's samples in the other "
			    "tools)");
			/* FALLTHROUGH */
		case OPT_PID:
			add_stmt(&o, TR_ALIGN_PID, optarg);
			break;
		case OPT_SEARCH:
			if (tr_parse_duration(optarg, &o.search_ns) != 0 ||
			    o.search_ns <= 0)
				tool_die(TOOL_EXIT_USAGE, "--search: expected "
				    "a positive duration such as 10s, got "
				    "'%s'", optarg);
			break;
		case OPT_MINCONF:
			errno = 0;
			o.min_confidence = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !(o.min_confidence >= 0 && o.min_confidence <= 1))
				tool_die(TOOL_EXIT_USAGE, "--min-confidence: "
				    "expected a number from 0 to 1, got '%s'",
				    optarg);
			break;
		case OPT_FORCE:
			o.force = 1;
			break;
		case OPT_NOEST:
			o.no_estimate = 1;
			break;
		case OPT_IGNORE:
			if ((k = tr_align_anchor_kind(optarg)) == 0)
				tool_die(TOOL_EXIT_USAGE, "--ignore: unknown "
				    "anchor '%s'; use perf-ref, go-snapshot, "
				    "clock-json or go-log", optarg);
			o.ignore |= k;
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
	if (o.reset && (o.nstmts > 0 || o.force || o.no_estimate))
		tool_die(TOOL_EXIT_USAGE, "--reset takes no statements and no "
		    "estimation options");
	o.human = fmt == TR_OUT_TABLE;
	/* The one origin of relative times, from the selection model. */
	o.store_origin = tr_sel_store_origin;
	if ((db = tr_db_open(tr_db_default_path(dbpath),
	    o.dry_run ? TR_DB_READONLY : TR_DB_NOCREATE, &err)) == NULL) {
		tr_align_opts_release(&o);
		tr_sel_release(&sel);
		return (tool_report(&err));
	}
	out = tool_out_new(fmt);
	start_progress(db, &pg);
	/* Notes and the report are written over no progress line. */
	tr_out_set_before(out, clear_meter, pg.meter);
	if (tr_sel_resolve(&sel, db, &err) != 0)
		status = tool_report(&err);
	else {
		o.sources = sel.sources;
		o.nsources = sel.nsources;
		rc = tr_align_run(db, &o, out, &err);
		tr_progress_clear(pg.meter);
		if (rc != 0)
			status = tool_report(&err);
	}
	sqlite3_progress_handler(db->sq, 0, NULL, NULL);
	tr_progress_free(pg.meter);
	tr_out_free(out);
	tr_db_free(db);
	tr_align_opts_release(&o);
	tr_sel_release(&sel);
	tool_close_stdout();
	return (status);
}
