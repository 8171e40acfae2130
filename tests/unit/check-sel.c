/*
 * Unit tests for the selection model (sel.c) and the query argument
 * parser (args.c): id lists, option syntax and repeats, resolving against
 * a store (unknown names, the origin, --pid without a recorded pid, wall
 * clock times), the sample SQL, help, and "did you mean".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "store/db.h"
#include "query/args.h"
#include "query/sel.h"
#include "base/util.h"
#include "test-store.h"

/*
 * perf script's default format: "COMM TID TIME: PERIOD EVENT:", no pid.
 * Threads 100 (the main thread, tid = pid) and 101 of "app", 200 of
 * "other"; the first sample at 10 s, the last at 13 s.
 */
static const char perf_nopid[] =
"app   100 10.000000: 1000 cpu-clock:\n\t1 main (/bin/app)\n\n"
"app   101 11.000000: 1000 cpu-clock:\n\t1 main (/bin/app)\n\n"
"other 200 12.000000: 1000 cpu-clock:\n\t2 run (/bin/other)\n\n"
"app   100 13.000000: 1000 cpu-clock:\n\t1 main (/bin/app)\n\n";

static void
ck_err(const struct tr_error *err, int code, const char *msg)
{
	ck_assert_int_eq(err->code, code);
	ck_assert_str_eq(err->msg, msg);
}

START_TEST(test_ids)
{
	int64_t	*v = NULL;
	size_t	 n = 0;

	ck_assert_int_eq(tr_sel_parse_ids("7,1,3,5-7", 0, &v, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert(v[0] == 1 && v[1] == 3 && v[2] == 5 && v[3] == 6 &&
	    v[4] == 7);
	free(v);
	v = NULL;
	n = 0;
	ck_assert_int_eq(tr_sel_parse_ids("s2-s4,s9", 's', &v, &n), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert(v[0] == 2 && v[2] == 4 && v[3] == 9);
	free(v);
	v = NULL;
	n = 0;
	ck_assert_int_eq(tr_sel_parse_ids("3-1", 0, &v, &n), -1);
	ck_assert_int_eq(tr_sel_parse_ids("x", 0, &v, &n), -1);
	ck_assert_int_eq(tr_sel_parse_ids("1,", 0, &v, &n), -1);
	ck_assert_int_eq(tr_sel_parse_ids("0", 0, &v, &n), -1);
	free(v);
}
END_TEST

START_TEST(test_options)
{
	struct tr_sel	s;
	struct tr_error	err;

	tr_sel_init(&s, TR_SEL_ALL & ~TR_SEL_GPU);
	tr_error_init(&err);
	ck_assert_int_eq(tr_sel_option(&s, "pid", "12", &err), 1);
	ck_assert_int_eq(s.pid, 12);
	ck_assert_int_eq(tr_sel_option(&s, "pid", "13", &err), -1);
	ck_err(&err, TR_EUSAGE, "--pid given twice");
	tr_error_init(&err);
	ck_assert_int_eq(tr_sel_option(&s, "gpu", "0", &err), 0);
	ck_assert_int_eq(tr_sel_option(&s, "nosuch", "0", &err), 0);
	ck_assert_int_eq(tr_sel_option(&s, "event", "cycles", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "sample-index", "x", &err), -1);
	ck_err(&err, TR_EUSAGE, "--event and --sample-index given twice");
	tr_error_init(&err);
	/* --source is a list: repeats add up. */
	ck_assert_int_eq(tr_sel_option(&s, "source", "3", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "source", "1-2,3", &err), 1);
	ck_assert_uint_eq(s.nsources, 3);
	ck_assert_int_eq(tr_sel_option(&s, "from", "12x", &err), -1);
	ck_err(&err, TR_EUSAGE, "--from: expected a time (12s, 1.5s, "
	    "13:05:07.250, 2026-11-29T13:05:07Z, @SECONDS or =STORE_NS), "
	    "got '12x'");
	tr_error_init(&err);
	ck_assert_int_eq(tr_sel_option(&s, "to", "25:61", &err), -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	tr_error_init(&err);
	ck_assert_int_eq(tr_sel_option(&s, "from", "13:05:07.250", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "to", "=5", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "label", "k", &err), -1);
	tr_error_init(&err);
	ck_assert_int_eq(tr_sel_option(&s, "snapshots", "some", &err), -1);
	tr_error_init(&err);
	ck_assert_int_eq(tr_sel_option(&s, "snapshots", "all", &err), 1);
	ck_assert_int_eq(s.snapshots, TR_SNAP_ALL);
	tr_sel_release(&s);
}
END_TEST

START_TEST(test_times)
{
	struct tr_error	err;
	int64_t		ns;

	tr_error_init(&err);
	ck_assert_int_eq(tr_sel_parse_time("from", "1.5s", 1000, 0, 0, NULL,
	    &ns, &err), 0);
	ck_assert_int_eq(ns, 1500001000);
	ck_assert_int_eq(tr_sel_parse_time("from", "=-7", 1000, 0, 0, NULL,
	    &ns, &err), 0);
	ck_assert_int_eq(ns, -7);
	/* 2026-11-29T13:05:07Z is 1795957507 s after the epoch. */
	ck_assert_int_eq(tr_sel_parse_time("from", "2026-11-29T13:05:07Z",
	    0, 1, 1795957500000000000LL, "UTC", &ns, &err), 0);
	ck_assert_int_eq(ns, 7000000000LL);
	/* A time of day is on the store's first day, in the zone. */
	ck_assert_int_eq(tr_sel_parse_time("from", "13:05:07.250",
	    1000000000, 1, 1795957500000000000LL - 1000000000, "UTC", &ns,
	    &err), 0);
	ck_assert_int_eq(ns, 7250000000LL + 1000000000);
	ck_assert_int_eq(tr_sel_parse_time("from", "14:05:07.250",
	    1000000000, 1, 1795957500000000000LL - 1000000000,
	    "Europe/Berlin", &ns, &err), 0);
	ck_assert_int_eq(ns, 7250000000LL + 1000000000);
	ck_assert_int_eq(tr_sel_parse_time("to", "@1795957508", 0, 1,
	    1795957500000000000LL, NULL, &ns, &err), 0);
	ck_assert_int_eq(ns, 8000000000LL);
	ck_assert_int_eq(tr_sel_parse_time("to", "13:05", 0, 0, 0, NULL,
	    &ns, &err), -1);
	ck_assert_int_eq(err.code, TR_EDATA);
}
END_TEST

START_TEST(test_resolve)
{
	struct tr_sel	 s;
	struct tr_error	 err;
	struct tr_db	*db = test_store_new();

	test_store_add(db, "p.txt", perf_nopid);
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "source", "999", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, TR_EDATA, "no source 999; sources: 1");
	tr_sel_release(&s);

	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "event", "nosuch", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, TR_EDATA, "no event 'nosuch'; events: cpu-clock");
	tr_sel_release(&s);

	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "comm", "nosuch", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, TR_EDATA, "no command 'nosuch'; commands: app, other");
	tr_sel_release(&s);

	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "gpu", "1", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, TR_EDATA, "no GPU 1; GPUs: none");
	tr_sel_release(&s);

	/* Relative times count from the store's start (10 s). */
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "from", "1s", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "to", "3s", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), 0);
	ck_assert_int_eq(s.origin, 10000000000LL);
	ck_assert_int_eq(s.from, 11000000000LL);
	ck_assert_int_eq(s.to, 13000000000LL);
	ck_assert(tr_sel_has_ts(&s, 11000000000LL));
	ck_assert(!tr_sel_has_ts(&s, 13000000000LL));
	ck_assert(tr_sel_overlaps(&s, 12000000000LL, 14000000000LL));
	ck_assert(!tr_sel_overlaps(&s, 13000000000LL, 14000000000LL));
	tr_sel_release(&s);

	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "from", "3s", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "to", "1s", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, TR_EUSAGE, "--to is before --from");
	tr_sel_release(&s);
	tr_db_free(db);
}
END_TEST

/* Count the samples the selection's SQL takes. */
static int64_t
count(struct tr_db *db, const struct tr_sel *s)
{
	struct tr_buf	 b;
	struct tr_error	 err;
	sqlite3_stmt	*st;
	int64_t		 n;

	tr_error_init(&err);
	tr_buf_init(&b);
	tr_buf_adds(&b, "SELECT count(*) FROM sample s WHERE 1");
	tr_sel_sample_where(s, &b);
	st = tr_db_prepare(db, b.data, &err);
	ck_assert_msg(st != NULL, "%s: %s", b.data, err.msg);
	tr_sel_bind(s, st);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	tr_buf_release(&b);
	return (n);
}

START_TEST(test_pid)
{
	struct tr_sel	 s;
	struct tr_error	 err;
	struct tr_db	*db = test_store_new();

	test_store_add(db, "p.txt", perf_nopid);
	/* The main thread (tid = pid) and its command name's threads. */
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "pid", "100", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), 0);
	ck_assert_uint_eq(s.npid_threads, 2);
	ck_assert_int_eq(count(db, &s), 3);
	ck_assert_str_eq(s.notes.data, "--pid 100: 2 threads without a "
	    "recorded pid taken as the process's: its main thread (tid = "
	    "pid) and the command name 'app' of its main thread\n");
	tr_sel_release(&s);

	/* No thread is known to belong to 101: said so. */
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "pid", "7", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, TR_EDATA, "no pid 7: no thread of the store is known "
	    "to belong to it (perf script printed no pid, and no thread has "
	    "it as its tid); pids: none");
	tr_sel_release(&s);

	/* A pid/tid recording of the same threads makes them certain. */
	test_store_add(db, "q.txt",
	    "app 100/101 20.0: 1 cpu-clock:\n\t1 main (/bin/app)"
	    "\n\n");
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "pid", "100", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "from", "=0", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "to", "=12500000000", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), 0);
	ck_assert_int_eq(count(db, &s), 2);
	tr_sel_release(&s);

	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "tid", "200", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), 0);
	ck_assert_int_eq(count(db, &s), 1);
	tr_sel_release(&s);
	tr_db_free(db);
}
END_TEST

START_TEST(test_lifecycle)
{
	static const struct tr_sel	zero;
	struct tr_sel			s, c;
	struct tr_error			err;
	struct tr_db			*db = test_store_new();

	/* An initialised selection holds nothing to free. */
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_ptr_null(s.sources);
	ck_assert_ptr_null(s.notes.data);
	ck_assert_ptr_null(s.snapshot_notes.data);
	tr_sel_release(&s);
	ck_assert_mem_eq(&s, &zero, sizeof s);

	/*
	 * tr_sel_copy() takes an initialised 'dst', also one resolved
	 * before, releases it and copies the options only.
	 */
	test_store_add(db, "p.txt", perf_nopid);
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "source", "1", &err), 1);
	ck_assert_int_eq(tr_sel_option(&s, "event", "cpu-clock", &err), 1);
	tr_sel_init(&c, 0);
	tr_sel_copy(&c, &s);
	ck_assert_int_eq(tr_sel_resolve(&c, db, &err), 0);
	ck_assert_ptr_nonnull(c.notes.data);
	ck_assert_int_eq(c.event_id > 0, 1);
	tr_sel_copy(&c, &s);
	ck_assert_int_eq(c.resolved, 0);
	ck_assert_int_eq(c.event_id, -1);
	ck_assert_uint_eq(c.nsources, 1);
	ck_assert_ptr_ne(c.sources, s.sources);
	ck_assert_str_eq(c.event, "cpu-clock");
	tr_sel_release(&c);
	tr_sel_release(&s);
	tr_db_free(db);
}
END_TEST

/* Resolving option 'name' 'value' on 'db' fails with 'code' and 'msg'. */
static void
want_err(struct tr_db *db, const char *name, const char *value, int code,
    const char *msg)
{
	struct tr_sel	s;
	struct tr_error	err;

	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, name, value, &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, code, msg);
	tr_sel_release(&s);
}

/* "no X; Xs: ..." lists: 20 items at most, then how many in all. */
START_TEST(test_choices)
{
	struct tr_buf	 b;
	struct tr_db	*db = test_store_new();
	int		 i;

	/* 25 commands c00..c24, threads 1, 3, 5, ... 49. */
	tr_buf_init(&b);
	for (i = 0; i < 25; i++)
		tr_buf_printf(&b, "c%02d %d %d.000000: 1000 cpu-clock:\n"
		    "\t1 main (/bin/app)\n\n", i, 2 * i + 1, 10 + i);
	test_store_add(db, "many.txt", b.data);
	tr_buf_release(&b);
	want_err(db, "comm", "nosuch", TR_EDATA, "no command 'nosuch'; "
	    "commands: c00, c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, "
	    "c11, c12, c13, c14, c15, c16, c17, c18, c19, ... (25 in all)");
	want_err(db, "tid", "2", TR_EDATA, "no thread 2; tids: 1, 3, 5, 7, 9, "
	    "11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39, ... "
	    "(25 in all)");
	/* A short list is whole. */
	want_err(db, "source", "7", TR_EDATA, "no source 7; sources: 1");
	tr_db_free(db);
}
END_TEST

/*
 * --gpu N on a sample selection: the threads of the processes seen on
 * GPU N; none without per-process GPU data.
 */
START_TEST(test_gpu)
{
	static const char smi[] =
	    "timestamp, index, uuid, utilization.gpu [%]\n"
	    "2024/01/16 14:44:16.000, 0, GPU-a, 97 %\n"
	    "2024/01/16 14:44:16.000, 1, GPU-b, 5 %\n";
	static const char apps[] =
	    "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\n"
	    "2024/01/16 14:44:17.000, GPU-a, 100, app, 300 MiB\n"
	    "2024/01/16 14:44:17.000, GPU-b, 200, other, 200 MiB\n";
	struct tr_sel	 s;
	struct tr_error	 err;
	struct tr_buf	 b;
	struct tr_db	*db = test_store_new();

	test_store_add(db, "p.txt", perf_nopid);
	test_store_import(db, "smi.csv", "nvidia-smi-csv", smi);
	want_err(db, "gpu", "5", TR_EDATA, "no GPU 5; GPUs: 0-1");
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL | TR_SEL_GPU_PROCS);
	ck_assert_int_eq(tr_sel_option(&s, "gpu", "1", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), -1);
	ck_err(&err, TR_EDATA, "--gpu 1: no per-process GPU data in the "
	    "store to tell which processes used GPU 1; use --pid");
	tr_sel_release(&s);

	test_store_import(db, "apps.csv", "nvidia-smi-csv", apps);
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL | TR_SEL_GPU_PROCS);
	ck_assert_int_eq(tr_sel_option(&s, "gpu", "0", &err), 1);
	ck_assert_msg(tr_sel_resolve(&s, db, &err) == 0, "%s", err.msg);
	/* app's threads 100 (tid = pid) and 101 (its command name). */
	ck_assert_uint_eq(s.ngpu_threads, 2);
	ck_assert_str_eq(s.notes.data, "--gpu 0: the samples of the process "
	    "seen on GPU 0: 100 (app)\n--gpu 0, process 100: 2 threads "
	    "without a recorded pid taken as the process's: its main thread "
	    "(tid = pid) and the command name 'app' of its main thread\n");
	tr_buf_init(&b);
	tr_sel_sample_where(&s, &b);
	ck_assert_ptr_nonnull(strstr(b.data, " AND s.thread_id IN ("));
	tr_buf_release(&b);
	tr_sel_release(&s);

	/* Without TR_SEL_GPU_PROCS, --gpu picks a GPU and no samples. */
	tr_error_init(&err);
	tr_sel_init(&s, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_option(&s, "gpu", "1", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&s, db, &err), 0);
	ck_assert_uint_eq(s.ngpu_threads, 0);
	ck_assert_ptr_null(s.gpu_threads);
	tr_sel_release(&s);
	tr_db_free(db);
}
END_TEST

START_TEST(test_did_you_mean)
{
	static const char *const names[] = { "threshold", "gap", "min",
	    "nodecount", "nodefraction", NULL };

	ck_assert_str_eq(tr_did_you_mean("treshold", names), "threshold");
	ck_assert_str_eq(tr_did_you_mean("nodecont", names), "nodecount");
	ck_assert_str_eq(tr_did_you_mean("nodef", names), "nodefraction");
	ck_assert_str_eq(tr_did_you_mean("mim", names), "min");
	ck_assert_ptr_null(tr_did_you_mean("bogus", names));
	ck_assert_ptr_null(tr_did_you_mean("node", names));
}
END_TEST

START_TEST(test_args)
{
	struct tr_sel	 sel;
	int64_t		 n = 5, gap = 0;
	double		 th = 30;
	int		 flag = 0;
	const char	*str = NULL;
	struct tr_arg	 opts[] = {
		{ "count", 'n', TR_ARG_INT, &n, 0, 100, "N", "how many", 0, 0 },
		{ "gap", 0, TR_ARG_DURATION, &gap, 0, 0, "DUR", "gap", 0, 0 },
		{ "threshold", 0, TR_ARG_PERCENT, &th, 0, 0, "PCT", "t", 0, 0 },
		{ "stacks", 0, TR_ARG_FLAG, &flag, 0, 0, NULL, "stacks", 0, 0 },
		{ "name", 0, TR_ARG_STRING, &str, 0, 0, "S", "a name", 0, 1 },
		{ NULL, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_args	 a = { .name = "q", .synopsis = "[OPTION...] X",
	    .args = opts, .sel = &sel, .max_pos = 1 };
	const char	*ok[] = { "q", "-n", "7", "--gap=300ms", "--threshold",
	    "20%", "--stacks", "-s2", "--pid", "4", "X", "--name", "a",
	    "--name=b", NULL };
	const char	*bad1[] = { "q", "--treshold", "5", NULL };
	const char	*bad2[] = { "q", "--count", "101", NULL };
	const char	*bad3[] = { "q", "--stacks=1", NULL };
	const char	*bad4[] = { "q", "X", "Y", NULL };
	const char	*bad5[] = { "q", "--gap", NULL };
	const char	*bad6[] = { "q", "-n", "1", "--count", "2", NULL };
	struct tr_error	 err;

	tr_error_init(&err);
	tr_sel_init(&sel, TR_SEL_SOURCE | TR_SEL_PID);
	ck_assert_int_eq(tr_args_parse(&a, 14, (char **)ok, &err), 0);
	ck_assert_int_eq(n, 7);
	ck_assert_int_eq(gap, 300000000);
	ck_assert(th == 20);
	ck_assert_int_eq(flag, 1);
	ck_assert_str_eq(str, "b");
	ck_assert_uint_eq(sel.nsources, 1);
	ck_assert_int_eq(sel.sources[0], 2);
	ck_assert_int_eq(sel.pid, 4);
	ck_assert_int_eq(a.npos, 1);
	ck_assert_str_eq(a.pos[0], "X");
	tr_args_release(&a);
	tr_sel_release(&sel);

#define BAD(argv, msg) do {						\
	int i_;								\
	for (i_ = 0; opts[i_].name != NULL; i_++)			\
		opts[i_].given = 0;					\
	tr_error_init(&err);						\
	tr_sel_init(&sel, TR_SEL_SOURCE | TR_SEL_PID);			\
	ck_assert_int_eq(tr_args_parse(&a, (int)(sizeof argv /		\
	    sizeof argv[0]) - 1, (char **)argv, &err), -1);		\
	ck_err(&err, TR_EUSAGE, msg);					\
	tr_args_release(&a);						\
	tr_sel_release(&sel);						\
} while (0)
	BAD(bad1, "q: unknown option '--treshold'; did you mean "
	    "'--threshold'? options: --count, --gap, --threshold, --stacks, "
	    "--name, --source, --pid, --help");
	BAD(bad2, "--count: expected an integer from 0 to 100, got '101'");
	BAD(bad3, "--stacks takes no value");
	BAD(bad4, "q: unexpected argument 'Y'");
	BAD(bad5, "--gap needs a value");
	BAD(bad6, "--count given twice");
}
END_TEST

/* tr_args_begin()'s check of the options and of --step. */
static int
check_even(void *arg, struct tr_error *err)
{
	if (*(int64_t *)arg % 2 != 0)
		return (tr_error_set(err, TR_EUSAGE, "q: --count must be "
		    "even"));
	return (0);
}

/* The prologue: parse, --help, --step, the check, resolve; the release. */
START_TEST(test_args_begin)
{
	struct tr_sel	 sel;
	int64_t		 n = 2, step = 1000000000;
	struct tr_arg	 opts[] = {
		{ "count", 'n', TR_ARG_INT, &n, 0, 100, "N", "how many", 0, 0 },
		{ "step", 0, TR_ARG_DURATION, &step, 0, 0, "D", "step", 0, 0 },
		{ NULL, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0 }
	};
	struct tr_args	 a = { .name = "q", .synopsis = "[OPTION...]",
	    .args = opts, .sel = &sel, .step = &step, .check = check_even,
	    .check_arg = &n };
	const char	*ok[] = { "q", "-n", "4", "--source", "1", NULL };
	const char	*help[] = { "q", "--step", "0", "--help", NULL };
	const char	*zero[] = { "q", "--step", "0", "-n", "3", NULL };
	const char	*odd[] = { "q", "-n", "3", "--source", "999", NULL };
	const char	*nosrc[] = { "q", "--source", "999", NULL };
	struct tr_error	 err;
	struct tr_db	*db = test_store_new();

	test_store_add(db, "p.txt", perf_nopid);
	tr_error_init(&err);
	tr_sel_init(&sel, TR_SEL_SOURCE);
	ck_assert_int_eq(tr_args_begin(&a, 5, (char **)ok, db, &err), 1);
	ck_assert_int_eq(n, 4);
	ck_assert_uint_eq(sel.nsources, 1);
	ck_assert_int_eq(sel.resolved, 1);
	tr_args_end(&a);
	/* Released: the selection is empty again. */
	ck_assert_uint_eq(sel.nsources, 0);
	ck_assert_ptr_null(sel.sources);

	/* --help wins over a bad --step: 0, nothing checked. */
	opts[0].given = opts[1].given = 0;
	tr_sel_init(&sel, TR_SEL_SOURCE);
	ck_assert_int_eq(tr_args_begin(&a, 4, (char **)help, db, &err), 0);
	ck_assert_int_eq(a.help, 1);
	ck_assert_int_eq(err.code, 0);
	ck_assert_int_eq(sel.resolved, 0);
	tr_args_end(&a);

	/* --step before the check, the check before the selection. */
	opts[0].given = opts[1].given = 0;
	tr_sel_init(&sel, TR_SEL_SOURCE);
	ck_assert_int_eq(tr_args_begin(&a, 5, (char **)zero, db, &err), -1);
	ck_err(&err, TR_EUSAGE, "q: --step must be more than 0");
	tr_args_end(&a);
	opts[0].given = opts[1].given = 0;
	step = 1;
	tr_error_init(&err);
	tr_sel_init(&sel, TR_SEL_SOURCE);
	ck_assert_int_eq(tr_args_begin(&a, 5, (char **)odd, db, &err), -1);
	ck_err(&err, TR_EUSAGE, "q: --count must be even");
	tr_args_end(&a);
	opts[0].given = opts[1].given = 0;
	n = 2;
	tr_error_init(&err);
	tr_sel_init(&sel, TR_SEL_SOURCE);
	ck_assert_int_eq(tr_args_begin(&a, 3, (char **)nosrc, db, &err), -1);
	ck_err(&err, TR_EDATA, "no source 999; sources: 1");
	tr_args_end(&a);
	/* No store: parsed and checked, not resolved. */
	opts[0].given = opts[1].given = 0;
	tr_error_init(&err);
	tr_sel_init(&sel, TR_SEL_SOURCE);
	ck_assert_int_eq(tr_args_begin(&a, 3, (char **)nosrc, NULL, &err),
	    1);
	ck_assert_int_eq(err.code, 0);
	ck_assert_int_eq(sel.resolved, 0);
	tr_args_end(&a);
	tr_db_free(db);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("sel");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_ids);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_resolve);
	tcase_add_test(tc, test_pid);
	tcase_add_test(tc, test_lifecycle);
	tcase_add_test(tc, test_choices);
	tcase_add_test(tc, test_gpu);
	tcase_add_test(tc, test_did_you_mean);
	tcase_add_test(tc, test_args);
	tcase_add_test(tc, test_args_begin);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
