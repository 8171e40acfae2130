/*
 * trace-flame: flame graphs (SVG) or folded stacks of any selection of
 * samples in the store.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "flame/flame.h"
#include "flame/pprof-export.h"
#include "tool.h"
#include "base/util.h"

static const char usage_text[] =
"usage: trace-flame [-q] [-d DB] [--folded] [selection] [naming] [drawing]\n"
"\n"
"Draw the selected stack samples as an interactive SVG flame graph on\n"
"standard output, or print them as folded stacks.\n"
"\n"
"  -d, --db FILE        the store (default: $TRACE_DB or trace.db)\n"
"      --folded         print folded stacks (\"a;b;c COUNT\") instead\n"
"      --pprof FILE     write the selection as a gzipped profile.proto\n"
"                       to FILE (\"-\": standard output) instead\n"
"Selection:\n"
"  -s, --source ID      samples of source ID only\n"
"  -e, --event NAME     samples of event NAME (default: the first event)\n"
"  -p, --pid PID        samples of process PID\n"
"  -t, --tid TID        samples of thread TID\n"
"  -c, --comm NAME      samples whose command name is NAME\n"
"      --from TIME      from TIME after the start (1.5s, 200ms, 10us)\n"
"      --to TIME        up to TIME after the start\n"
"      --sample-index NAME\n"
"                       pprof samples of sample type NAME (as --event;\n"
"                       default: the profile's default sample type)\n"
"      --label KEY=VALUE\n"
"                       pprof samples with label KEY equal to VALUE\n"
"Naming (as stackcollapse-perf.pl):\n"
"      --show-pid       root frame is COMM-PID\n"
"      --show-tid       root frame is COMM-PID/TID\n"
"      --kernel         annotate kernel frames with _[k]\n"
"      --jit            annotate JIT frames with _[j]\n"
"      --all            --kernel and --jit\n"
"      --addrs          unknown frames show their address\n"
"      --no-pname       no process name root frame\n"
"Drawing:\n"
"      --title TEXT     title (default \"Flame Graph\")\n"
"      --subtitle TEXT  second title line\n"
"      --width PX       image width (default 1200)\n"
"      --height PX      frame height (default 16)\n"
"      --minwidth PX    omit frames narrower than PX (default 0.1)\n"
"      --colors NAME    hot (default), mem, io, java or go\n"
"      --countname NAME what a count is (default \"samples\")\n"
"      --inverted       icicle graph: roots at the top\n"
"      --reverse        merge stacks from the leaf\n"
"  -q, --quiet          no notes on standard error, only errors\n"
"  -h, --help           print this help and exit\n"
"  -V, --version        print the version and exit\n";

enum {
	OPT_FOLDED = 256, OPT_FROM, OPT_TO, OPT_SHOW_PID, OPT_SHOW_TID,
	OPT_KERNEL, OPT_JIT, OPT_ALL, OPT_ADDRS, OPT_NO_PNAME, OPT_TITLE,
	OPT_SUBTITLE, OPT_WIDTH, OPT_HEIGHT, OPT_MINWIDTH, OPT_COLORS,
	OPT_COUNTNAME, OPT_INVERTED, OPT_REVERSE, OPT_LABEL, OPT_PPROF
};

static void
usage(int code)
{
	tool_usage(usage_text, code);
}

static int64_t
parse_time(const char *opt, const char *s)
{
	int64_t	ns;

	if (tr_parse_duration(s, &ns) != 0 || ns < 0)
		tool_die(TOOL_EXIT_USAGE, "%s: expected a time such as 1.5s or "
		    "200ms, got '%s'", opt, s);
	return (ns);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "source", required_argument, NULL, 's' },
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "comm", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "show-pid", no_argument, NULL, OPT_SHOW_PID },
		{ "show-tid", no_argument, NULL, OPT_SHOW_TID },
		{ "kernel", no_argument, NULL, OPT_KERNEL },
		{ "jit", no_argument, NULL, OPT_JIT },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "no-pname", no_argument, NULL, OPT_NO_PNAME },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "height", required_argument, NULL, OPT_HEIGHT },
		{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
		{ "colors", required_argument, NULL, OPT_COLORS },
		{ "countname", required_argument, NULL, OPT_COUNTNAME },
		{ "inverted", no_argument, NULL, OPT_INVERTED },
		{ "reverse", no_argument, NULL, OPT_REVERSE },
		{ "sample-index", required_argument, NULL, 'e' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "pprof", required_argument, NULL, OPT_PPROF },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct tr_flame_fold_opts	 fo;
	struct tr_flame_sel		 sel;
	struct tr_svg_opts		 so;
	struct tr_folded		 folded;
	struct tr_error			 err;
	struct tr_db			*db;
	const char			*dbpath = NULL;
	char				*end;
	const char			*pprof_out = NULL;
	int				 c, folded_out = 0, status = 0;

	tool_init("trace-flame");
	tr_flame_sel_init(&sel);
	tr_flame_fold_opts_init(&fo);
	tr_svg_opts_init(&so);
	while ((c = getopt_long(argc, argv, "d:s:e:p:t:c:qhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case OPT_FOLDED:
			folded_out = 1;
			break;
		case 's':
			sel.source_id = tool_parse_int("--source", optarg, 1,
			    INT64_MAX);
			break;
		case 'e':
			sel.event = optarg;
			break;
		case 'p':
			sel.pid = tool_parse_int("--pid", optarg, 0, INT64_MAX);
			break;
		case 't':
			sel.tid = tool_parse_int("--tid", optarg, 0, INT64_MAX);
			break;
		case 'c':
			sel.comm = optarg;
			break;
		case OPT_FROM:
			sel.has_from = 1;
			sel.from = parse_time("--from", optarg);
			break;
		case OPT_TO:
			sel.has_to = 1;
			sel.to = parse_time("--to", optarg);
			break;
		case OPT_SHOW_PID:
			fo.pid = 1;
			break;
		case OPT_SHOW_TID:
			fo.tid = 1;
			break;
		case OPT_KERNEL:
			fo.kernel = 1;
			break;
		case OPT_JIT:
			fo.jit = 1;
			break;
		case OPT_ALL:
			fo.kernel = fo.jit = 1;
			break;
		case OPT_ADDRS:
			fo.addrs = 1;
			break;
		case OPT_NO_PNAME:
			fo.pname = 0;
			break;
		case OPT_TITLE:
			so.title = optarg;
			break;
		case OPT_SUBTITLE:
			so.subtitle = optarg;
			break;
		case OPT_WIDTH:
			so.width = (int)tool_parse_int("--width", optarg, 100,
			    1000000);
			break;
		case OPT_HEIGHT:
			so.frameheight = (int)tool_parse_int("--height", optarg,
			    4, 1000);
			break;
		case OPT_MINWIDTH:
			so.minwidth = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || so.minwidth < 0)
				tool_die(TOOL_EXIT_USAGE, "--minwidth: expected "
				    "a number of pixels, got '%s'", optarg);
			break;
		case OPT_COLORS:
			if (tr_flame_parse_colors(optarg, &so.colors) != 0)
				tool_die(TOOL_EXIT_USAGE, "unknown color scheme "
				    "'%s'; use hot, mem, io, java or go",
				    optarg);
			break;
		case OPT_COUNTNAME:
			so.countname = optarg;
			break;
		case OPT_INVERTED:
			so.inverted = 1;
			break;
		case OPT_REVERSE:
			so.reverse = 1;
			break;
		case OPT_LABEL:
			if (strchr(optarg, '=') == NULL || *optarg == '=')
				tool_die(TOOL_EXIT_USAGE, "--label: expected "
				    "KEY=VALUE, got '%s'", optarg);
			sel.label = optarg;
			break;
		case OPT_PPROF:
			pprof_out = optarg;
			break;
		case 'q':
			tool_quiet = 1;
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
	if (sel.has_from && sel.has_to && sel.to < sel.from)
		tool_die(TOOL_EXIT_USAGE, "--to is before --from");

	tr_error_init(&err);
	if ((db = tr_db_open(tr_db_default_path(dbpath), TR_DB_READONLY,
	    &err)) == NULL)
		return (tool_report(&err));
	if (pprof_out != NULL) {
		struct tr_pprof_export_stats	st;

		if (tr_pprof_export(db, &sel, pprof_out, &st, &err) != 0)
			status = tool_report(&err);
		else
			tool_note("%s: %lld samples, %d sample types, %lld "
			    "locations", pprof_out, (long long)st.samples,
			    st.types, (long long)st.locations);
		tr_db_free(db);
		tool_close_stdout();
		return (status);
	}
	if (tr_flame_fold(db, &sel, &fo, &folded, &err) != 0) {
		tr_db_free(db);
		return (tool_report(&err));
	}
	if (folded.events > 1 && sel.event == NULL)
		tool_note("%d events in the selection; using '%s' (choose "
		    "with --event)", folded.events, folded.event);
	if (folded.n == 0)
		tool_note("no samples match the selection");
	if (folded_out)
		tr_folded_write(&folded, stdout);
	else if (tr_flame_write_svg(&folded, &so, stdout, &err) != 0)
		status = tool_report(&err);
	tr_folded_release(&folded);
	tr_db_free(db);
	tool_close_stdout();
	return (status);
}
