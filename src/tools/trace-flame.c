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
#include "query/sel.h"
#include "flame/flame.h"
#include "flame/flame-windows.h"
#include "flame/pprof-export.h"
#include "query/query.h"
#include "query/args.h"
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
"      --blocked KIND   the Go trace's time blocked, by the stack that\n"
"                       blocked, in ns: sync, net, syscall, sched (as\n"
"                       go tool trace -pprof), chan, mutex, sleep, all\n"
"      --diff-base 'OPTIONS'\n"
"                       a differential graph: the selection against\n"
"                       the base that OPTIONS select (-d DB, selection\n"
"                       and window options, as one word), red more,\n"
"                       blue less; --folded prints \"stack base count\"\n"
"      --no-normalize   do not scale the base to the graph's total\n"
"      --flamechart     a flame chart: time on the x axis, the samples\n"
"                       of one thread or goroutine in time order\n"
"Selection (trace-query(1), SELECTION and TIMES; default: a CPU graph):\n"
"  -s, --source ID      sources ID (1,3,5-7; repeatable)\n"
"      --type TYPE      pprof profiles of TYPE (cpu, heap, block...)\n"
"  -e, --event NAME     samples of perf event or pprof sample type NAME\n"
"      --sample-index NAME\n"
"                       the same as --event\n"
"  -p, --pid PID        process PID (threads without a pid resolved\n"
"                       from what the store knows)\n"
"  -t, --tid TID        thread TID\n"
"  -c, --comm NAME      threads whose command name is NAME\n"
"      --goroutine GOID Go trace CPU samples of goroutine GOID\n"
"      --gpu N          samples of the processes seen on GPU N\n"
"                       (per-process GPU telemetry)\n"
"      --from TIME      from TIME: 12s after the store's start,\n"
"                       13:05:07.250, 2026-11-29T13:05:07Z, @EPOCH,\n"
"                       =STORE_NS\n"
"      --to TIME        up to TIME (excluded)\n"
"      --tz ZONE        zone of wall-clock times (default: the\n"
"                       store's, else TZ)\n"
"      --label KEY=VALUE\n"
"                       pprof samples with label KEY equal to VALUE\n"
"                       (repeatable: all of them)\n"
"      --profile GROUP  pprof profiles: ids (12, p12, p3-7) or\n"
"                       sources (s2), comma-separated\n"
"      --snapshots last|all\n"
"                       snapshot profiles (heap, goroutine): the last\n"
"                       in the window (default), or all summed\n"
"Windows (one of; samples with a time stamp only):\n"
"      --during QUERY   samples inside the windows of a windowed\n"
"                       trace-query analysis and its options\n"
"                       ('gpu-idle --threshold 20'; steps, stalls)\n"
"      --not-during QUERY\n"
"                       samples outside those windows\n"
"      --windows FILE   samples inside the windows of a CSV file of\n"
"                       start,end times (\"-\": standard input)\n"
"      --where SQL      samples inside the windows an SQL query\n"
"                       returns as columns start_ns, end_ns\n"
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
"      --minwidth PX    omit frames narrower than PX, or than PX% of\n"
"                       the total with a '%' (default 0.1)\n"
"      --colors NAME    hot (default), mem, io, java or go\n"
"      --hash           colours by flamegraph.pl's name hash\n"
"      --cp             keep colours in palette.map (flamegraph.pl --cp)\n"
"      --palette FILE   the same with FILE\n"
"      --negate         differential: switch red and blue\n"
"      --countname NAME what a count is (default: the unit, such as\n"
"                       samples, nanoseconds or bytes)\n"
"      --inverted       icicle graph: roots at the top\n"
"      --reverse        merge stacks from the leaf\n"
"  -q, --quiet          no notes on standard error, only errors\n"
"  -h, --help           print this help and exit\n"
"  -V, --version        print the version and exit\n";

enum {
	OPT_FOLDED = 256, OPT_SHOW_PID, OPT_SHOW_TID,
	OPT_KERNEL, OPT_JIT, OPT_ALL, OPT_ADDRS, OPT_NO_PNAME, OPT_TITLE,
	OPT_SUBTITLE, OPT_WIDTH, OPT_HEIGHT, OPT_MINWIDTH, OPT_COLORS,
	OPT_COUNTNAME, OPT_INVERTED, OPT_REVERSE, OPT_PPROF,
	OPT_DURING, OPT_NOT_DURING, OPT_WINDOWS, OPT_WHERE, OPT_BLOCKED,
	OPT_DIFF_BASE, OPT_NO_NORMALIZE, OPT_NEGATE, OPT_HASH, OPT_CP,
	OPT_PALETTE, OPT_FLAMECHART,
	OPT_SEL = 512		/* + the index in sel_names */
};

/* The selection options, read by query/sel.c. */
static const char *const sel_names[] = {
	"source", "type", "event", "sample-index", "pid", "tid", "comm",
	"goroutine", "from", "to", "tz", "label", "profile", "snapshots",
	"gpu", NULL
};
#define FLAME_SEL	(TR_SEL_SOURCE | TR_SEL_TYPE | TR_SEL_EVENT | \
	TR_SEL_PID | TR_SEL_TID | TR_SEL_COMM | TR_SEL_GOID | TR_SEL_TIME | \
	TR_SEL_LABEL | TR_SEL_PROFILE | TR_SEL_SNAP | TR_SEL_GPU | \
	TR_SEL_GPU_PROCS)

static void
usage(int code)
{
	tool_usage(usage_text, code);
}

static void
sel_option(struct tr_sel *sel, const char *name, const char *value)
{
	struct tr_error	err;

	tr_error_init(&err);
	if (tr_sel_option(sel, name, value, &err) != 1)
		exit(tool_report(&err));
}

/* Where the windows come from: --during, --not-during, ... */
struct wsource {
	int		 opt;		/* OPT_DURING... or 0: none */
	const char	*name;		/* the option, for messages */
	const char	*arg;
};

static void
window_option(struct wsource *w, int opt, const char *name, const char *arg)
{
	if (w->opt != 0)
		tool_die(TOOL_EXIT_USAGE, "--%s: the windows are already "
		    "given by --%s", name, w->name);
	w->opt = opt;
	w->name = name;
	w->arg = arg;
}

static void notes(const char *);

/* Before the notes about the base of a differential graph. */
static const char *nprefix = "";

/*
 * Read the windows and restrict the selection to them ('samples': of
 * samples, which may lack a time stamp; else of --blocked intervals).
 * Returns 0, or the exit status of the error reported.
 */
static int
apply_windows(struct tr_db *db, struct tr_sel *sel, const struct wsource *ws,
    int samples)
{
	struct tr_window	*w = NULL;
	struct tr_error		 err;
	char			*qnotes = NULL;
	size_t			 n = 0, i;
	int64_t			 total = 0, untimed = 0;
	sqlite3_stmt		*st;
	int			 rc;

	tr_error_init(&err);
	/* What cannot be placed in time, said before it is left out. */
	if (samples) {
		if ((st = tr_flame_sel_prepare(db, sel, NULL, "count(*)",
		    " AND s.ts IS NULL", &err)) == NULL)
			return (tool_report(&err));
		if (sqlite3_step(st) == SQLITE_ROW)
			untimed = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	switch (ws->opt) {
	case OPT_DURING:
	case OPT_NOT_DURING:
		rc = tr_query_windows(db, ws->arg, &w, &n, &qnotes, &err);
		break;
	case OPT_WINDOWS:
		rc = tr_flame_windows_csv(db, sel, ws->arg, &w, &n, &err);
		break;
	default:
		rc = tr_flame_windows_sql(db, ws->arg, &w, &n, &err);
		break;
	}
	if (rc == 0)
		rc = tr_sel_set_windows(sel, db, w, n,
		    ws->opt == OPT_NOT_DURING, &err);
	notes(qnotes);
	free(qnotes);
	free(w);
	if (rc != 0) {
		if (ws->opt == OPT_DURING || ws->opt == OPT_NOT_DURING) {
			char	*m = tr_xasprintf("--%s '%s': %s", ws->name,
			    ws->arg, err.msg);

			snprintf(err.msg, sizeof err.msg, "%s", m);
			free(m);
		}
		return (tool_report(&err));
	}
	for (i = 0; i < sel->nwindows; i++)
		total += sel->windows[i].end - sel->windows[i].start;
	if (sel->nwindows < n)
		tool_note("%s--%s: %zu windows given, %zu once overlaps are "
		    "merged and empty ones dropped, %.3fs in all", nprefix, ws->name,
		    n, sel->nwindows, total / 1e9);
	else
		tool_note("%s--%s: %zu window%s, %.3fs in all", nprefix,
		    ws->name,
		    sel->nwindows, sel->nwindows == 1 ? "" : "s",
		    total / 1e9);
	if (untimed > 0)
		tool_note("%s--%s: %lld samples without a time stamp (pprof "
		    "profiles) cannot be placed in the windows: left out",
		    nprefix, ws->name, (long long)untimed);
	return (0);
}

/* Each line of 'notes' as a note. */
static void
notes(const char *text)
{
	const char	*p, *nl;

	for (p = text; p != NULL && *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		tool_note("%s%.*s", nprefix, (int)(nl - p), p);
		if (*nl == '\0')
			break;
	}
}

/*
 * Resolve the selection, print its notes and restrict it to the windows
 * of 'ws' ('samples': of samples, else of --blocked intervals).  Returns
 * 0, or the exit status of the error reported.
 */
static int
select_samples(struct tr_db *db, struct tr_sel *sel,
    const struct wsource *ws, int samples)
{
	struct tr_error	err;

	tr_error_init(&err);
	if (tr_sel_resolve(sel, db, &err) != 0)
		return (tool_report(&err));
	notes(sel->notes.data);
	if (ws->opt != 0)
		return (apply_windows(db, sel, ws, samples));
	return (0);
}

/* Fold the graph of 'sel'.  Returns 0 or the exit status reported. */
static int
fold_graph(struct tr_db *db, struct tr_sel *sel, const struct wsource *ws,
    int blocked, enum tr_blocked_kind kind, int chart,
    const struct tr_flame_fold_opts *fo, struct tr_folded *out)
{
	struct tr_error	err;
	int		status;

	tr_error_init(&err);
	memset(out, 0, sizeof *out);
	if ((status = select_samples(db, sel, ws, !blocked)) != 0)
		return (status);
	if ((blocked ? tr_flame_fold_blocked(db, sel, kind, fo, out, &err) :
	    chart ? tr_flame_fold_chart(db, sel, fo, out, &err) :
	    tr_flame_fold(db, sel, fo, out, &err)) != 0)
		return (tool_report(&err));
	notes(out->note);
	return (0);
}

/* The base of a differential graph: its store, selection, windows. */
struct base {
	char		**words;	/* --diff-base split, holding the rest */
	const char	 *dbpath;	/* NULL: the graph's store */
	struct tr_db	 *db;
	struct tr_sel	  sel;
	struct wsource	  ws;
};

static void
graph_release(struct base *b, struct tr_db *db)
{
	if (b->words == NULL)
		return;
	if (b->db != NULL && b->db != db)
		tr_db_free(b->db);
	tr_sel_release(&b->sel);
	free(b->words);
	b->words = NULL;
}

/*
 * Parse --diff-base's options (words as the shell splits them): -d, the
 * selection and the window options, as trace-flame takes them.
 */
static void
parse_base(const char *spec, struct base *b)
{
	const char	*w[4] = { NULL, NULL, NULL, NULL };
	static const char *const wname[4] = {
		"during", "not-during", "windows", "where"
	};
	static const int wopt[4] = {
		OPT_DURING, OPT_NOT_DURING, OPT_WINDOWS, OPT_WHERE
	};
	struct tr_arg	 args[] = {
		{ "db", 'd', TR_ARG_STRING, NULL, 0, 0, "FILE",
		    "the base's store (default: the graph's)", 0, 0 },
		{ "during", 0, TR_ARG_STRING, NULL, 0, 0, "QUERY",
		    "samples inside the windows of QUERY", 0, 0 },
		{ "not-during", 0, TR_ARG_STRING, NULL, 0, 0, "QUERY",
		    "samples outside them", 0, 0 },
		{ "windows", 0, TR_ARG_STRING, NULL, 0, 0, "FILE",
		    "samples inside the windows of a CSV file", 0, 0 },
		{ "where", 0, TR_ARG_STRING, NULL, 0, 0, "SQL",
		    "samples inside the windows SQL returns", 0, 0 },
		{ NULL, 0, TR_ARG_FLAG, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_args	 a;
	struct tr_error	 err;
	char		**words, **argv;
	int		 argc, i, status;

	if ((words = tr_query_split_words(spec, &argc)) == NULL)
		tool_die(TOOL_EXIT_USAGE, "--diff-base '%s': unterminated "
		    "quote", spec);
	for (i = 0; i < argc; i++)
		if (strcmp(words[i], "-h") == 0 ||
		    strcmp(words[i], "--help") == 0) {
			free(words);
			tool_die(TOOL_EXIT_USAGE, "--diff-base: takes -d, the "
			    "selection and the window options; see "
			    "trace-flame --help");
		}
	args[0].dst = &b->dbpath;
	for (i = 0; i < 4; i++)
		args[i + 1].dst = &w[i];
	b->words = words;
	tr_sel_init(&b->sel, FLAME_SEL);
	argv = tr_xcalloc((size_t)argc + 2, sizeof *argv);
	argv[0] = (char *)"--diff-base";
	for (i = 0; i < argc; i++)
		argv[i + 1] = words[i];
	memset(&a, 0, sizeof a);
	a.name = "--diff-base";
	a.synopsis = "'[-d DB] [SELECTION] [WINDOWS]'";
	a.about = "The base of a differential graph: a store, a selection "
	    "and windows, with the options of trace-flame.";
	a.args = args;
	a.sel = &b->sel;
	a.max_pos = 0;
	tr_error_init(&err);
	status = tr_args_parse(&a, argc + 1, argv, &err);
	tr_args_release(&a);
	free(argv);
	if (status != 0) {
		graph_release(b, NULL);
		exit(tool_report(&err));
	}
	for (i = 0; i < 4; i++) {
		if (w[i] == NULL)
			continue;
		if (b->ws.opt != 0) {
			graph_release(b, NULL);
			tool_die(TOOL_EXIT_USAGE, "--diff-base: --%s and --%s: "
			    "one gives the windows", b->ws.name, wname[i]);
		}
		b->ws.opt = wopt[i];
		b->ws.name = wname[i];
		b->ws.arg = w[i];
	}
}

/*
 * Fold the base and diff it with 'cur' into 'out'.  Returns 0 or the
 * exit status reported.
 */
static int
fold_base(struct tr_db *db, struct base *b, int blocked,
    enum tr_blocked_kind kind, const struct tr_flame_fold_opts *fo,
    const struct tr_folded *cur, int normalize, struct tr_folded *out)
{
	struct tr_folded	 bf;
	struct tr_error		 err;
	int64_t			 t1 = 0, t2 = 0;
	size_t			 i;
	int			 status;

	tr_error_init(&err);
	memset(out, 0, sizeof *out);
	if (b->dbpath == NULL)
		b->db = db;
	else if ((b->db = tr_db_open(b->dbpath, TR_DB_READONLY, &err)) ==
	    NULL) {
		char	m[sizeof err.msg];

		int	code = err.code;

		tr_error_format(&err, m, sizeof m);
		tr_error_init(&err);
		tr_error_set(&err, code, "--diff-base: %s", m);
		return (tool_report(&err));
	}
	nprefix = "--diff-base: ";
	status = fold_graph(b->db, &b->sel, &b->ws, blocked, kind, 0, fo,
	    &bf);
	nprefix = "";
	if (status != 0) {
		tr_folded_release(&bf);
		return (status);
	}
	if (tr_folded_diff(&bf, cur, normalize, out, &err) != 0) {
		tr_folded_release(&bf);
		return (tool_report(&err));
	}
	for (i = 0; i < bf.n; i++)
		t1 += bf.counts[i];
	for (i = 0; i < cur->n; i++)
		t2 += cur->counts[i];
	tool_note("--diff-base: the base has %lld %s on %zu stacks, the "
	    "graph %lld on %zu%s", (long long)t1, bf.unit ? bf.unit : "",
	    bf.n, (long long)t2, cur->n, normalize && t1 != t2 ?
	    "; the base is scaled to the graph's total" : "");
	tr_folded_release(&bf);
	return (0);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "source", required_argument, NULL, OPT_SEL + 0 },
		{ "type", required_argument, NULL, OPT_SEL + 1 },
		{ "event", required_argument, NULL, OPT_SEL + 2 },
		{ "sample-index", required_argument, NULL, OPT_SEL + 3 },
		{ "pid", required_argument, NULL, OPT_SEL + 4 },
		{ "tid", required_argument, NULL, OPT_SEL + 5 },
		{ "comm", required_argument, NULL, OPT_SEL + 6 },
		{ "goroutine", required_argument, NULL, OPT_SEL + 7 },
		{ "from", required_argument, NULL, OPT_SEL + 8 },
		{ "to", required_argument, NULL, OPT_SEL + 9 },
		{ "tz", required_argument, NULL, OPT_SEL + 10 },
		{ "label", required_argument, NULL, OPT_SEL + 11 },
		{ "profile", required_argument, NULL, OPT_SEL + 12 },
		{ "snapshots", required_argument, NULL, OPT_SEL + 13 },
		{ "gpu", required_argument, NULL, OPT_SEL + 14 },
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
		{ "pprof", required_argument, NULL, OPT_PPROF },
		{ "during", required_argument, NULL, OPT_DURING },
		{ "not-during", required_argument, NULL, OPT_NOT_DURING },
		{ "windows", required_argument, NULL, OPT_WINDOWS },
		{ "where", required_argument, NULL, OPT_WHERE },
		{ "blocked", required_argument, NULL, OPT_BLOCKED },
		{ "diff-base", required_argument, NULL, OPT_DIFF_BASE },
		{ "no-normalize", no_argument, NULL, OPT_NO_NORMALIZE },
		{ "negate", no_argument, NULL, OPT_NEGATE },
		{ "hash", no_argument, NULL, OPT_HASH },
		{ "cp", no_argument, NULL, OPT_CP },
		{ "palette", required_argument, NULL, OPT_PALETTE },
		{ "flamechart", no_argument, NULL, OPT_FLAMECHART },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct tr_flame_fold_opts	 fo;
	struct wsource			 ws = { 0, NULL, NULL };
	struct tr_sel			 sel;
	struct tr_svg_opts		 so;
	struct tr_folded		 folded;
	struct tr_error			 err;
	struct tr_db			*db;
	struct base			 base;
	const char			*dbpath = NULL, *base_spec = NULL;
	char				*end;
	const char			*pprof_out = NULL;
	int				 c, folded_out = 0, status = 0;
	int				 countname = 0, blocked = 0;
	int				 normalize = 1;
	size_t				 i;
	enum tr_blocked_kind		 kind = TR_BLOCKED_ALL;

	tool_init("trace-flame");
	memset(&base, 0, sizeof base);
	tr_sel_init(&sel, FLAME_SEL);
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
			sel_option(&sel, "source", optarg);
			break;
		case 'e':
			sel_option(&sel, "event", optarg);
			break;
		case 'p':
			sel_option(&sel, "pid", optarg);
			break;
		case 't':
			sel_option(&sel, "tid", optarg);
			break;
		case 'c':
			sel_option(&sel, "comm", optarg);
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
			so.minwidth_pct = *end == '%';
			if (so.minwidth_pct)
				end++;
			if (*optarg == '\0' || *end != '\0' ||
			    !(so.minwidth >= 0) || (so.minwidth_pct &&
			    so.minwidth > 100))
				tool_die(TOOL_EXIT_USAGE, "--minwidth: expected "
				    "a number of pixels or a percentage "
				    "(0.5%%), got '%s'", optarg);
			break;
		case OPT_HASH:
			so.hash = 1;
			break;
		case OPT_CP:
			so.palette = "palette.map";
			break;
		case OPT_PALETTE:
			so.palette = optarg;
			break;
		case OPT_NEGATE:
			so.negate = 1;
			break;
		case OPT_DIFF_BASE:
			if (base_spec != NULL)
				tool_die(TOOL_EXIT_USAGE, "--diff-base given "
				    "twice");
			base_spec = optarg;
			break;
		case OPT_NO_NORMALIZE:
			normalize = 0;
			break;
		case OPT_FLAMECHART:
			so.chart = 1;
			break;
		case OPT_COLORS:
			if (tr_flame_parse_colors(optarg, &so.colors) != 0)
				tool_die(TOOL_EXIT_USAGE, "unknown color scheme "
				    "'%s'; use hot, mem, io, java or go",
				    optarg);
			break;
		case OPT_COUNTNAME:
			so.countname = optarg;
			countname = 1;
			break;
		case OPT_INVERTED:
			so.inverted = 1;
			break;
		case OPT_REVERSE:
			so.reverse = 1;
			break;
		case OPT_PPROF:
			pprof_out = optarg;
			break;
		case OPT_BLOCKED:
			if (tr_blocked_parse_kind(optarg, &kind) != 0)
				tool_die(TOOL_EXIT_USAGE, "--blocked: unknown "
				    "kind '%s'; use %s", optarg,
				    tr_blocked_kind_names());
			blocked = 1;
			break;
		case OPT_DURING:
			window_option(&ws, c, "during", optarg);
			break;
		case OPT_NOT_DURING:
			window_option(&ws, c, "not-during", optarg);
			break;
		case OPT_WINDOWS:
			window_option(&ws, c, "windows", optarg);
			break;
		case OPT_WHERE:
			window_option(&ws, c, "where", optarg);
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
			if (c >= OPT_SEL && c < OPT_SEL + 15) {
				sel_option(&sel, sel_names[c - OPT_SEL],
				    optarg);
				break;
			}
			usage(TOOL_EXIT_USAGE);
		}
	}
	if (optind != argc)
		usage(TOOL_EXIT_USAGE);
	if (blocked && pprof_out != NULL)
		tool_die(TOOL_EXIT_USAGE, "--blocked: not with --pprof");
	if (base_spec != NULL && (pprof_out != NULL || so.chart))
		tool_die(TOOL_EXIT_USAGE, "--diff-base: not with %s",
		    pprof_out != NULL ? "--pprof" : "--flamechart");
	if (so.chart && (pprof_out != NULL || blocked))
		tool_die(TOOL_EXIT_USAGE, "--flamechart: not with %s",
		    pprof_out != NULL ? "--pprof" : "--blocked");
	if (base_spec != NULL)
		parse_base(base_spec, &base);

	tr_error_init(&err);
	if ((db = tr_db_open(tr_db_default_path(dbpath), TR_DB_READONLY,
	    &err)) == NULL) {
		tr_sel_release(&sel);
		graph_release(&base, NULL);
		return (tool_report(&err));
	}
	if (pprof_out != NULL) {
		struct tr_pprof_export_stats	st;

		if ((status = select_samples(db, &sel, &ws, 1)) != 0)
			goto done;
		if (tr_pprof_export(db, &sel, pprof_out, &st, &err) != 0)
			status = tool_report(&err);
		else {
			notes(st.note);
			if (st.no_wall)
				tool_note("%s: time_nanos left unset: the "
				    "store has no wall clock", pprof_out);
			tool_note("%s: %lld samples, %d sample types, %lld "
			    "locations", pprof_out, (long long)st.samples,
			    st.types, (long long)st.locations);
			free(st.note);
		}
		goto done;
	}
	if ((status = fold_graph(db, &sel, &ws, blocked, kind, so.chart, &fo,
	    &folded)) != 0)
		goto done;
	if (base_spec != NULL) {
		struct tr_folded	cur = folded;

		if ((status = fold_base(db, &base, blocked, kind, &fo, &cur,
		    normalize, &folded)) != 0) {
			tr_folded_release(&cur);
			goto done;
		}
		tr_folded_release(&cur);
	}
	if (!countname && folded.countname != NULL)
		so.countname = folded.countname;
	so.chart_t0 = sel.origin;
	/*
	 * An empty selection: exit 1, with a valid SVG that says so (also
	 * when only the base of a differential has stacks).
	 */
	for (i = 0; i < folded.n && folded.counts[i] == 0; i++)
		;
	if (i == folded.n) {
		tool_note("no samples match the selection");
		status = TOOL_EXIT_DATA;
	}
	if (folded_out)
		tr_folded_write(&folded, stdout);
	else if (tr_flame_write_svg(&folded, &so, stdout, &err) != 0)
		status = tool_report(&err);
	tr_folded_release(&folded);
done:
	tr_sel_release(&sel);
	graph_release(&base, db);
	tr_db_free(db);
	tool_close_stdout();
	return (status);
}
