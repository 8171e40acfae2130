/*
 * trace-import: detect, parse and store each input, one transaction each.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/db.h"
#include "import/importer.h"
#include "base/progress.h"
#include "tool.h"
#include "base/util.h"

static const char usage_text[] =
"usage: trace-import [-q] [-d DB] [-f FORMAT] [-H HOST] [--tz ZONE]\n"
"                    [--start TIME] [--interval DUR] [--fields LIST]\n"
"                    [--keep-same-samples] [--strict] FILE|DIR|- ...\n"
"       trace-import --list-formats\n"
"\n"
"Import performance data into the trace store, one transaction per input.\n"
"Formats are detected by content; gzip and zstd are decompressed.\n"
"\n"
"  -d, --db FILE        the store (default: $TRACE_DB or trace.db)\n"
"  -f, --format NAME    parse every input as NAME (see --list-formats)\n"
"  -H, --host NAME      the traced host these inputs come from\n"
"      --tz ZONE        the time zone of local times in GPU telemetry\n"
"                       (nvidia-smi CSV, dmon, pmon) and of --start, e.g.\n"
"                       Europe/Berlin (default: $TZ, else the system's)\n"
"      --start TIME     when a capture that prints no date or time began\n"
"                       (dmon/pmon without -o T, nvtop; -o T alone: the\n"
"                       date): '2024-05-01 12:00:00' (in --tz), with 'Z'\n"
"                       or '+02:00', or '@SECONDS' since the epoch\n"
"      --interval DUR   the sampling interval of such a capture (1s, 100ms)\n"
"      --fields LIST    the columns of CSV written with 'noheader': the\n"
"                       --query-gpu/--query-compute-apps list\n"
"      --keep-same-samples  import an input whose samples a source has\n"
"                       already (another rendering of one perf recording)\n"
"                       instead of skipping it\n"
"      --strict         refuse the quirks of real output that the peer\n"
"                       tools tolerate (blank or malformed stack lines)\n"
"  -l, --list-formats   list the formats and exit\n"
"  -q, --quiet          print errors only: no line per input imported,\n"
"                       already imported or skipped\n"
"  -h, --help           print this help and exit\n"
"  -V, --version        print the version and exit\n";

static void
usage(int code)
{
	tool_usage(usage_text, code);
}

static void
list_formats(void)
{
	size_t	i;

	for (i = 0; tr_importer_table[i] != NULL; i++)
		printf("%-16s %s\n", tr_importer_table[i]->name,
		    tr_importer_table[i]->summary);
	tool_close_stdout();
	exit(0);
}

/* Append ", N things" (singular for one) when N is not zero. */
static void
count(struct tr_buf *b, int64_t n, const char *what)
{
	if (n != 0)
		tr_buf_printf(b, ", %lld %s%s", (long long)n, what,
		    n == 1 ? "" : "s");
}

/* The path of source 'id', for messages (owned by the caller). */
static char *
source_path(struct tr_db *db, int64_t id)
{
	sqlite3_stmt	*st;
	char		*path = NULL;

	if (db == NULL || (st = tr_db_prepare(db, "SELECT path FROM source "
	    "WHERE id = ?1", NULL)) == NULL)
		return (tr_xstrdup("?"));
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0) != NULL)
		path = tr_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return (path != NULL ? path : tr_xstrdup("?"));
}

static void
report(struct tr_db *db, const char *name, const struct tr_import_result *r)
{
	struct tr_buf	b;
	char		*same;
	int		 i;

	if (r->skipped) {
		tool_note("%s: not a recognised format, skipped", name);
		return;
	}
	if (r->duplicate) {
		tool_note("%s: already imported as source %lld, skipped", name,
		    (long long)r->source_id);
		return;
	}
	if (r->same_skipped) {
		same = source_path(db, r->same_as);
		tool_note("%s: same samples as source %lld (%s), skipped "
		    "(--keep-same-samples imports it)", name,
		    (long long)r->same_as, same);
		free(same);
		return;
	}
	for (i = 0; i < r->nodd; i++)
		tool_note("%s", r->odd[i]);
	tr_buf_init(&b);
	tr_buf_printf(&b, "%s: %s, source %lld", name, r->format,
	    (long long)r->source_id);
	count(&b, r->samples, "sample");
	count(&b, r->profiles, "profile");
	count(&b, r->slices, "slice");
	count(&b, r->counters, "counter");
	if (r->frames > 0 || r->callsites > 0) {
		count(&b, r->frames, "new frame");
		count(&b, r->callsites, "new stack");
	}
	if (r->cut_line > 0)
		tr_buf_printf(&b, "; the input ends inside the last sample "
		    "(line %lld), left out", (long long)r->cut_line);
	if (r->oddities > 0) {
		tr_buf_printf(&b, "; %lld odd line%s tolerated", (long long)
		    r->oddities, r->oddities == 1 ? "" : "s");
		if (r->oddities > r->nodd)
			tr_buf_printf(&b, " (the first %d shown)", r->nodd);
		tr_buf_printf(&b, ", as the peer tools do (--strict refuses "
		    "them)");
	}
	if (r->same_as > 0) {
		same = source_path(db, r->same_as);
		tr_buf_printf(&b, "; same samples as source %lld (%s), kept",
		    (long long)r->same_as, same);
		free(same);
	}
	tool_note("%s", b.data);
	tr_buf_release(&b);
}

/*
 * Leave no store behind when this run created it and nothing went into it:
 * but another trace-import may have imported into it meanwhile, so look
 * (holding the write lock, so that none can begin while we look and
 * remove) and keep any store that has a source.  Frees 'db'.
 */
static void
remove_if_empty(struct tr_db *db, const char *path)
{
	struct tr_error	 err;
	int64_t		 n = 1;
	char		*wal, *shm;

	tr_error_init(&err);
	if (tr_db_exec(db, "BEGIN EXCLUSIVE", &err) != 0 ||
	    tr_db_int(db, "SELECT count(*) FROM source", &n, &err) != 0 ||
	    n != 0) {
		tr_db_exec(db, "ROLLBACK", NULL);
		tr_db_free(db);
		return;
	}
	wal = tr_xasprintf("%s-wal", path);
	shm = tr_xasprintf("%s-shm", path);
	unlink(path);
	unlink(wal);
	unlink(shm);
	tr_db_exec(db, "ROLLBACK", NULL);
	tr_db_free(db);
	free(wal);
	free(shm);
}

/* The progress of an input on the terminal: its file bytes read. */
static void
progress(void *meter, const struct tr_input *in)
{
	tr_progress_show(meter, tr_input_name(in),
	    strcmp(tr_input_compression(in), "none") != 0 ? "compressed" :
	    NULL, tr_input_raw_read(in), tr_input_raw_size(in));
}

/*
 * The store: opened on first use.  When there is none at the path, this
 * run writes it whole (trace-import(1), A NEW STORE): its inputs that are
 * regular files go into a temporary file (tr_db_create_whole()), one
 * transaction each, and whole_end() puts that in place when the run
 * ends, or before an input that could not be read again (standard input,
 * a pipe) goes in.
 */
struct store {
	char		*path;
	struct tr_db	*db;		/* NULL until opened */
	int		 whole;		/* no store at the path yet */
	int		 broken;	/* it could not be opened: said so */
	char		**held;		/* the inputs in the temporary file */
	size_t		 nheld;
	struct tr_import_opts *opts;
	int		 quiet;
	int		 status;	/* TOOL_EXIT_DATA: whole_end() failed */
};

static void	report(struct tr_db *, const char *,
		    const struct tr_import_result *);

/* Whether 'path' can be read again: a regular file, not standard input. */
static int
rereadable(const char *path)
{
	struct stat	st;

	return (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode));
}

/*
 * End the writing of the store whole: put the temporary file in place
 * (tr_db_install()), or drop it when nothing went in.  When another
 * trace-import made the store meanwhile, the inputs in the temporary
 * file are imported again into that store, as usual, and said again.
 * What fails is said, and sets s->status (s->broken when the store
 * cannot be written or opened).
 */
static void
whole_end(struct store *s)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	size_t			 i;
	int			 rc;

	s->whole = 0;
	if (s->db == NULL)
		return;
	tr_error_init(&err);
	if (s->nheld == 0) {
		tr_db_free(s->db);
		s->db = NULL;
		return;
	}
	rc = tr_db_install(s->db, &err);
	s->db = NULL;
	if (rc < 0) {
		s->broken = 1;
		s->status = tool_report(&err);
	} else if (rc == 1) {
		if ((s->db = tr_db_open(s->path, 0, &err)) == NULL) {
			s->broken = 1;
			s->status = tool_report(&err);
		} else if (!s->quiet)
			tool_note("%s: another trace-import made the store "
			    "meanwhile: importing %zu input%s again into it",
			    s->path, s->nheld, s->nheld == 1 ? "" : "s");
		for (i = 0; s->db != NULL && i < s->nheld; i++) {
			tr_error_init(&err);
			rc = tr_import_file(s->db, s->held[i], NULL, s->opts,
			    &res, &err);
			tr_progress_clear(s->opts->progress_arg);
			if (rc != 0)
				s->status = tool_report(&err);
			else if (!s->quiet)
				report(s->db, s->held[i], &res);
		}
	}
	for (i = 0; i < s->nheld; i++)
		free(s->held[i]);
	free(s->held);
	s->held = NULL;
	s->nheld = 0;
}

/*
 * Import the file 'path' into the store: 0, -1 with 'err' set (and
 * s->broken when the store could not be opened), or -2 when the store
 * written whole could not be put in place (said; s->broken).
 */
static int
import_one(struct store *s, const char *path, struct tr_import_opts *opts,
    struct tr_import_result *res, struct tr_error *err)
{
	int	rc;

	/* What cannot be read again goes into the store in place. */
	if (s->whole && !rereadable(path)) {
		whole_end(s);
		if (s->broken)
			return (-2);
	}
	if (s->whole && s->db == NULL) {
		if ((rc = tr_db_create_whole(s->path, &s->db, err)) < 0) {
			/* As a store that cannot be opened: no more. */
			s->broken = 1;
			return (-1);
		}
		if (rc == 1)
			s->whole = 0;
	}
	if (s->db == NULL && (s->db = tr_db_open(s->path, 0, err)) == NULL) {
		s->broken = 1;
		return (-1);
	}
	rc = tr_import_file(s->db, path, NULL, opts, res, err);
	if (s->whole && rc == 0 && !res->skipped && !res->duplicate &&
	    !res->same_skipped) {
		s->held = tr_xrealloc(s->held, (s->nheld + 1) *
		    sizeof *s->held);
		s->held[s->nheld++] = tr_xstrdup(path);
	}
	return (rc);
}

/* Import one named input; a directory imports what it recognises. */
static int
import_arg(struct store *s, const char *arg, struct tr_import_opts *opts,
    int quiet, int *imported)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct stat		 st;
	char			**paths = NULL, **notes = NULL;
	size_t			 n = 0, nnotes = 0, i;
	int			 status = 0, rc;

	tr_error_init(&err);
	if (strcmp(arg, "-") != 0 && stat(arg, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		if (tr_import_list_dir(arg, &paths, &n, &notes, &nnotes,
		    &err) != 0)
			return (tool_report(&err));
		for (i = 0; i < nnotes; i++) {
			if (!quiet)
				tool_note("%s", notes[i]);
			free(notes[i]);
		}
		free(notes);
		opts->skip_unknown = 1;
		for (i = 0; i < n; i++) {
			/* The rest is not imported when the store is broken. */
			if (s->broken) {
				free(paths[i]);
				continue;
			}
			tr_error_init(&err);
			rc = import_one(s, paths[i], opts, &res, &err);
			tr_progress_clear(opts->progress_arg);
			if (rc == -2)
				status = TOOL_EXIT_DATA;
			else if (rc != 0)
				status = tool_report(&err);
			else {
				if (!res.skipped && !res.duplicate &&
				    !res.same_skipped)
					(*imported)++;
				if (!quiet)
					report(s->db, paths[i], &res);
			}
			free(paths[i]);
		}
		free(paths);
		opts->skip_unknown = 0;
		if (n == 0)
			tool_note("%s: no files in directory", arg);
		return (status);
	}
	rc = import_one(s, arg, opts, &res, &err);
	tr_progress_clear(opts->progress_arg);
	if (rc == -2)
		return (TOOL_EXIT_DATA);
	if (rc != 0)
		return (tool_report(&err));
	if (!res.duplicate && !res.same_skipped)
		(*imported)++;
	if (!quiet)
		report(s->db, strcmp(arg, "-") == 0 ? "<stdin>" : arg, &res);
	return (0);
}

/* Long options without a letter. */
enum { OPT_TZ = 256, OPT_START, OPT_INTERVAL, OPT_FIELDS, OPT_KEEP_SAME,
	OPT_STRICT };

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "host", required_argument, NULL, 'H' },
		{ "tz", required_argument, NULL, OPT_TZ },
		{ "start", required_argument, NULL, OPT_START },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "fields", required_argument, NULL, OPT_FIELDS },
		{ "keep-same-samples", no_argument, NULL, OPT_KEEP_SAME },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "list-formats", no_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct tr_import_opts	 opts;
	struct tr_error		 err;
	struct store		 s;
	struct stat		 st;
	const char		*dbpath = NULL, *stdin_arg[] = { "-" };
	char			*names;
	int			 c, i, status = 0, quiet = 0, imported = 0;
	int			 nargs;
	char			**args;

	tool_init("trace-import");
	tr_import_opts_init(&opts);
	while ((c = getopt_long(argc, argv, "d:f:H:lqhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case 'f':
			if ((opts.format = tr_importer_find(optarg)) == NULL) {
				names = tr_importer_names();
				tool_die(TOOL_EXIT_USAGE, "unknown format '%s'; "
				    "valid formats: %s", optarg, names);
			}
			break;
		case 'H':
			opts.host = optarg;
			break;
		case OPT_TZ:
			tr_import_opts_set(&opts, "tz", optarg);
			break;
		case OPT_START:
			tr_import_opts_set(&opts, "start", optarg);
			break;
		case OPT_INTERVAL:
			tr_import_opts_set(&opts, "interval", optarg);
			break;
		case OPT_FIELDS:
			tr_import_opts_set(&opts, "fields", optarg);
			break;
		case OPT_KEEP_SAME:
			opts.keep_same = 1;
			break;
		case OPT_STRICT:
			opts.strict = 1;
			break;
		case 'l':
			list_formats();
			break;
		case 'q':
			quiet = 1;
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
	args = argv + optind;
	nargs = argc - optind;
	if (nargs == 0) {
		if (isatty(STDIN_FILENO))
			usage(TOOL_EXIT_USAGE);
		args = (char **)stdin_arg;
		nargs = 1;
	}

	tr_error_init(&err);
	if ((opts.progress_arg = tr_progress_new("trace-import", quiet)) !=
	    NULL)
		opts.progress = progress;
	memset(&s, 0, sizeof s);
	s.path = tr_xstrdup(tr_db_default_path(dbpath));
	s.opts = &opts;
	s.quiet = quiet;
	/* Before the store is open: see tr_db_remove_stale(). */
	tr_db_remove_stale(s.path);
	if (stat(s.path, &st) != 0 && errno == ENOENT)
		s.whole = 1;
	else if ((s.db = tr_db_open(s.path, 0, &err)) == NULL) {
		free(s.path);
		tr_progress_free(opts.progress_arg);
		return (tool_report(&err));
	}
	/* A store that cannot be opened ends the run, as it always has. */
	for (i = 0; i < nargs && !s.broken; i++)
		if (import_arg(&s, args[i], &opts, quiet, &imported) != 0)
			status = TOOL_EXIT_DATA;
	/* The store written whole goes in place now. */
	if (s.whole)
		whole_end(&s);
	if (s.status != 0)
		status = s.status;
	if (s.db != NULL && s.db->created && imported == 0)
		remove_if_empty(s.db, s.path);
	else
		tr_db_free(s.db);
	free(s.path);
	tr_progress_free(opts.progress_arg);
	tool_close_stdout();
	return (status);
}
