/*
 * Unit tests for flame (folding): the naming rules of stackcollapse-perf.pl
 * frame by frame, the root frame from comm/pid/tid, summing and merging,
 * and each selection field.  Stores are in memory, filled by importing
 * small perf script texts.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "store/db.h"
#include "flame/flame.h"
#include "query/sel.h"
#include "base/util.h"
#include "test-store.h"

/*
 * A selection of 'db' from option name/value pairs (NULL-terminated),
 * resolved; 'fail' the error message expected instead, or NULL.
 */
static void
mksel(struct tr_db *db, struct tr_sel *s, const char *fail, ...)
{
	struct tr_error	 err;
	const char	*name, *value;
	va_list		 ap;

	tr_sel_init(s, TR_SEL_ALL);
	tr_error_init(&err);
	va_start(ap, fail);
	while ((name = va_arg(ap, const char *)) != NULL) {
		value = va_arg(ap, const char *);
		ck_assert_int_eq(tr_sel_option(s, name, value, &err), 1);
	}
	va_end(ap);
	if (fail != NULL) {
		ck_assert_int_eq(tr_sel_resolve(s, db, &err), -1);
		ck_assert_str_eq(err.msg, fail);
	} else
		ck_assert_msg(tr_sel_resolve(s, db, &err) == 0, "%s", err.msg);
}

/* Fold and print "stack count\n" lines; *note and *event too. */
static char *
fold(struct tr_db *db, const struct tr_sel *sel,
    const struct tr_flame_fold_opts *o, char **note, char **event)
{
	struct tr_folded	 f;
	struct tr_error		 err;
	struct tr_buf		 b;
	char			 msg[1200];
	size_t			 i;

	tr_error_init(&err);
	if (tr_flame_fold(db, sel, o, &f, &err) != 0) {
		tr_error_format(&err, msg, sizeof msg);
		ck_abort_msg("fold failed: %s", msg);
	}
	tr_buf_init(&b);
	for (i = 0; i < f.n; i++)
		tr_buf_printf(&b, "%s %lld\n", f.stacks[i],
		    (long long)f.counts[i]);
	if (note != NULL)
		*note = f.note ? tr_xstrdup(f.note) : NULL;
	if (event != NULL)
		*event = f.event ? tr_xstrdup(f.event) : NULL;
	tr_folded_release(&f);
	return (b.data);
}

#define FOLD(db, sel, o, want)	do {					\
	char	*got_ = fold((db), (sel), (o), NULL, NULL);		\
	ck_assert_str_eq(got_, (want));					\
	free(got_);							\
} while (0)

/*
 * One sample per frame line given, of a thread of 'comm' 7/8.  The
 * expected names below are what stackcollapse-perf.pl prints for the same
 * perf script text.
 */
static struct tr_db *
frames_store(const char *comm, const char *const *lines)
{
	struct tr_db	*db = test_store_new();
	struct tr_buf	 b;

	tr_buf_init(&b);
	for (; *lines != NULL; lines++)
		tr_buf_printf(&b, "%s 7/8 [000] 1.0: 1 cycles:\n\t%s\n"
		    "\t 1 root (/bin/x)\n\n", comm, *lines);
	test_store_add(db, "t.txt", b.data);
	tr_buf_release(&b);
	return (db);
}

START_TEST(test_names)
{
	static const char *const lines[] = {
		"10 foo(int, char*) const+0x10 (/lib/a.so)",
		"11 ns::(anonymous namespace)::bar(x) (/lib/a.so)",
		"12 net/http.(*Client).Do (/bin/go)",
		"13 \"quoted\";'name' (/lib/a.so)",
		"14 [unknown] (/usr/lib/libz.so.1)",
		"15 [unknown] ([unknown])",
		"16 native_safe_halt+0x6 ([kernel.kallsyms])",
		"17 tcp_sendmsg (/lib/modules/4.3.0/build/vmlinux)",
		"18 [unknown] ([kernel.kallsyms])",
		"19 LBusy;::main (/tmp/perf-19982.map)",
		"1a a->b->c (/lib/a.so)",
		"1b (anonymous namespace)::f() (/lib/a.so)",
		"1c  (/lib/a.so)",
		"1d Lcom/x/Y;.z(I)V (/tmp/perf-1.map)",
		NULL
	};
	struct tr_flame_fold_opts	 o;
	struct tr_sel			 sel;
	struct tr_db			*db = frames_store("app", lines);

	mksel(db, &sel, NULL, NULL);
	tr_flame_fold_opts_init(&o);
	FOLD(db, &sel, &o,
	    "app;root 1\n"
	    "app;root;  1\n"
	    "app;root;LBusy:::main 1\n"
	    "app;root;Lcom/x/Y:.z 1\n"
	    "app;root;[[kernel.kallsyms]] 1\n"
	    "app;root;[libz.so.1] 1\n"
	    "app;root;[unknown] 1\n"
	    "app;root;a;b_[i];c_[i] 1\n"
	    "app;root;foo 1\n"
	    "app;root;native_safe_halt 1\n"
	    "app;root;net/http.(*Client).Do 1\n"
	    "app;root;ns::(anonymous namespace)::bar 1\n"
	    "app;root;quoted:name 1\n"
	    "app;root;tcp_sendmsg 1\n");
	o.kernel = o.jit = 1;
	o.addrs = 1;
	FOLD(db, &sel, &o,
	    "app;root 1\n"
	    "app;root;  1\n"
	    "app;root;LBusy:::main_[j] 1\n"
	    "app;root;Lcom/x/Y:.z_[j] 1\n"
	    "app;root;[[kernel.kallsyms] <18>]_[k] 1\n"
	    "app;root;[libz.so.1 <14>] 1\n"
	    "app;root;[unknown <15>] 1\n"
	    "app;root;a;b_[i];c_[i] 1\n"
	    "app;root;foo 1\n"
	    "app;root;native_safe_halt_[k] 1\n"
	    "app;root;net/http.(*Client).Do 1\n"
	    "app;root;ns::(anonymous namespace)::bar 1\n"
	    "app;root;quoted:name 1\n"
	    "app;root;tcp_sendmsg_[k] 1\n");
	tr_sel_release(&sel);
	tr_db_free(db);

	/* Java: class names lose their "L" (only with a "/"). */
	db = frames_store("java", lines + 9);
	mksel(db, &sel, NULL, NULL);
	tr_flame_fold_opts_init(&o);
	FOLD(db, &sel, &o,
	    "java;root 1\n"
	    "java;root;  1\n"
	    "java;root;LBusy:::main 1\n"
	    "java;root;a;b_[i];c_[i] 1\n"
	    "java;root;com/x/Y:.z 1\n");
	o.tidy_java = 0;
	o.tidy_generic = 0;
	o.pname = 0;
	FOLD(db, &sel, &o,
	    "root 1\n"
	    "root;  1\n"
	    "root;LBusy;::main 1\n"
	    "root;Lcom/x/Y;.z(I)V 1\n"
	    "root;a;b_[i];c_[i] 1\n");
	tr_sel_release(&sel);
	tr_db_free(db);
}
END_TEST

START_TEST(test_roots)
{
	struct tr_flame_fold_opts	 o;
	struct tr_sel			 sel;
	struct tr_db			*db = test_store_new();

	/* pid/tid, a lone tid, tid 0, a comm with blanks. */
	test_store_add(db, "t.txt",
	    "iperf 27409/28744 [000] 1.0: 3 cycles:\n\t 1 f (/x)\n\n"
	    "dd 29776 [000] 1.1: 5 cycles:\n\t 1 f (/x)\n\n"
	    "swapper 0/0 [000] 1.2: 7 cycles:\n\t 1 f (/x)\n\n"
	    "V8 WorkerThread 24636/25607 [000] 1.3: 11 cycles:\n"
	    "\t 1 f (/x)\n\n");
	mksel(db, &sel, NULL, NULL);
	tr_flame_fold_opts_init(&o);
	FOLD(db, &sel, &o,
	    "V8_WorkerThread;f 11\ndd;f 5\niperf;f 3\nswapper;f 7\n");
	o.pid = 1;
	FOLD(db, &sel, &o,
	    "V8_WorkerThread-24636;f 11\ndd-?;f 5\niperf-27409;f 3\n"
	    "swapper-?;f 7\n");
	o.tid = 1;
	FOLD(db, &sel, &o,
	    "V8_WorkerThread-24636/25607;f 11\ndd-?/29776;f 5\n"
	    "iperf-27409/28744;f 3\nswapper-?/0;f 7\n");
	tr_sel_release(&sel);
	tr_db_free(db);
}
END_TEST

START_TEST(test_merge)
{
	struct tr_flame_fold_opts	 o;
	struct tr_sel			 sel;
	struct tr_db			*db = test_store_new();

	/*
	 * Different frames (unknown addresses, offsets) and threads that
	 * fold to one name are one line with the sum; an empty stack is the
	 * root alone.  (Checked against stackcollapse-perf.pl, which
	 * needs a command name of two characters or more.)
	 */
	test_store_add(db, "t.txt",
	    "ab 1/2 [000] 1.0: 3 cycles:\n\t 10 [unknown] ([unknown])\n"
	    "\t 1 main+0x1 (/x)\n\n"
	    "ab 1/3 [000] 1.1: 4 cycles:\n\t 11 [unknown] ([unknown])\n"
	    "\t 1 main+0x2 (/x)\n\n"
	    "ab 1/3 [000] 1.2: 5 cycles:\n\n");
	mksel(db, &sel, NULL, NULL);
	tr_flame_fold_opts_init(&o);
	FOLD(db, &sel, &o, "ab 5\nab;main;[unknown] 7\n");
	o.addrs = 1;
	FOLD(db, &sel, &o,
	    "ab 5\nab;main;[unknown <10>] 3\nab;main;[unknown <11>] 4\n");
	o.addrs = 0;
	o.tid = 1;
	FOLD(db, &sel, &o,
	    "ab-1/2;main;[unknown] 3\nab-1/3 5\nab-1/3;main;[unknown] 4\n");
	tr_sel_release(&sel);
	tr_db_free(db);
}
END_TEST

START_TEST(test_select)
{
	struct tr_flame_fold_opts	 o;
	struct tr_sel			 sel;
	struct tr_db			*db = test_store_new();
	char				*got, *event, *note;

	test_store_add(db, "one.txt",
	    "a 1/2 [000] 10.000: 1 instructions:\n\t 1 i (/x)\n\n"
	    "a 1/2 [000] 10.001: 2 cycles:\n\t 1 c (/x)\n\n"
	    "b 5/6 [001] 10.002: 4 cycles:\n\t 1 c (/x)\n\n"
	    "b 5/7 [001] 10.500: 8 instructions:\n\t 1 i (/x)\n\n");
	test_store_add(db, "two.txt",
	    "c 9/9 [000] 11.000: 16 cycles:\n\t 1 c (/x)\n\n"
	    "c 9/9 [000] 12.000: 32 cycles:\n\t 1 d (/x)\n\n");
	tr_flame_fold_opts_init(&o);

	/* No event: the first perf event met, and a note of the others. */
	mksel(db, &sel, NULL, NULL);
	got = fold(db, &sel, &o, &note, &event);
	ck_assert_str_eq(got, "a;i 1\nb;i 8\n");
	ck_assert_str_eq(event, "instructions");
	ck_assert_str_eq(note, "drawing 'instructions' (perf, "
	    "instructions); also in the selection: source 1 (perf): cycles; "
	    "source 2 (perf): cycles (choose with --event and --source)");
	free(got);
	free(event);
	free(note);
	tr_sel_release(&sel);

	mksel(db, &sel, NULL, "event", "cycles", NULL);
	got = fold(db, &sel, &o, &note, &event);
	ck_assert_str_eq(got, "a;c 2\nb;c 4\nc;c 16\nc;d 32\n");
	ck_assert_str_eq(event, "cycles");
	ck_assert_ptr_null(note);
	free(got);
	free(event);
	tr_sel_release(&sel);

#define SEL(want, ...) do {						\
	mksel(db, &sel, NULL, __VA_ARGS__, NULL);			\
	FOLD(db, &sel, &o, (want));					\
	tr_sel_release(&sel);						\
} while (0)
	SEL("c;c 16\nc;d 32\n", "source", "2");
	SEL("b;c 4\n", "pid", "5", "event", "cycles");
	SEL("c;c 16\nc;d 32\n", "tid", "9");
	SEL("a;c 2\n", "comm", "a", "event", "cycles");

	/* Times after the store's start (10.000 s): [from, to). */
	SEL("a;c 2\nb;c 4\nc;c 16\nc;d 32\n", "from", "1ms", "event",
	    "cycles");
	SEL("b;c 4\nc;c 16\nc;d 32\n", "from", "1000001ns", "event",
	    "cycles");
	SEL("b;c 4\n", "from", "1000001ns", "to", "1s", "event", "cycles");
	SEL("b;c 4\nc;c 16\n", "from", "1000001ns", "to", "1000000001ns",
	    "event", "cycles");
	/* The same origin whichever source is selected. */
	SEL("c;c 16\n", "source", "2", "from", "0s", "to", "1000000001ns");
	SEL("", "source", "2", "from", "0s", "to", "1s");
	/* Absolute store ns. */
	SEL("c;d 32\n", "from", "=12000000000");

	/* Unknown names are errors; an empty window folds nothing. */
	mksel(db, &sel, "no event 'nosuch'; events: cycles, instructions",
	    "event", "nosuch", NULL);
	tr_sel_release(&sel);
	mksel(db, &sel, "no command 'nosuch'; commands: a, b, c",
	    "comm", "nosuch", NULL);
	tr_sel_release(&sel);
	mksel(db, &sel, NULL, "from", "1h", NULL);
	got = fold(db, &sel, &o, &note, &event);
	ck_assert_str_eq(got, "");
	ck_assert_ptr_null(event);
	ck_assert_ptr_null(note);
	free(got);
	tr_sel_release(&sel);
	tr_db_free(db);
}
END_TEST

START_TEST(test_empty_store)
{
	struct tr_flame_fold_opts	 o;
	struct tr_sel			 sel;
	struct tr_db			*db = test_store_new();

	mksel(db, &sel, NULL, NULL);
	tr_flame_fold_opts_init(&o);
	FOLD(db, &sel, &o, "");
	sel.has_from = 1;
	FOLD(db, &sel, &o, "");
	tr_sel_release(&sel);
	tr_db_free(db);
}
END_TEST

/*
 * Time windows (trace-flame --during): sorted, overlapping ones merged
 * and empty ones dropped; a sample at a window's start is in it, one at
 * its end is not; with windows_exclude the rest, and untimed samples in
 * neither.
 */
START_TEST(test_windows)
{
	struct tr_flame_fold_opts	 o;
	struct tr_sel			 sel;
	struct tr_error			 err;
	struct tr_window		 w[3];
	struct tr_db			*db = test_store_new();
	int64_t				 t0;

	test_store_add(db, "w.txt",
	    "a 7/8 [000] 1.0: 1 cycles:\n\t 1 one (/bin/x)\n\n"
	    "a 7/8 [000] 2.0: 1 cycles:\n\t 1 two (/bin/x)\n\n"
	    "a 7/8 [000] 3.0: 1 cycles:\n\t 1 three (/bin/x)\n\n");
	tr_error_init(&err);
	ck_assert_int_eq(tr_db_int(db, "SELECT min(ts) FROM sample", &t0,
	    &err), 0);
	mksel(db, &sel, NULL, NULL);
	tr_flame_fold_opts_init(&o);
	w[0].start = t0 + 1500000000;	/* overlaps the next: merged */
	w[0].end = t0 + 2000000000;	/* the third sample: out */
	w[1].start = t0 + 1000000000;	/* the second sample: in */
	w[1].end = t0 + 1600000000;
	w[2].start = w[2].end = t0;	/* empty: the first is out */
	ck_assert_int_eq(tr_sel_set_windows(&sel, db, w, 3, 0, &err), 0);
	ck_assert_uint_eq(sel.nwindows, 1);
	ck_assert_int_eq(sel.windows[0].start, t0 + 1000000000);
	ck_assert_int_eq(sel.windows[0].end, t0 + 2000000000);
	ck_assert_int_eq(tr_sel_in_windows(&sel, t0 + 999999999), 0);
	ck_assert_int_eq(tr_sel_in_windows(&sel, t0 + 1000000000), 1);
	ck_assert_int_eq(tr_sel_in_windows(&sel, t0 + 1999999999), 1);
	ck_assert_int_eq(tr_sel_in_windows(&sel, t0 + 2000000000), 0);
	FOLD(db, &sel, &o, "a;two 1\n");
	ck_assert_int_eq(tr_sel_set_windows(&sel, db, w, 3, 1, &err), 0);
	FOLD(db, &sel, &o, "a;one 1\na;three 1\n");
	/* No windows: nothing is inside, everything outside. */
	ck_assert_int_eq(tr_sel_set_windows(&sel, db, w, 0, 0, &err), 0);
	FOLD(db, &sel, &o, "");
	ck_assert_int_eq(tr_sel_set_windows(&sel, db, w, 0, 1, &err), 0);
	FOLD(db, &sel, &o, "a;one 1\na;three 1\na;two 1\n");
	tr_sel_release(&sel);
	tr_db_free(db);
}
END_TEST

START_TEST(test_write)
{
	struct tr_folded	 f;
	char			 s1[] = "a;b", s2[] = "a;c";
	char			*stacks[2] = { s1, s2 };
	int64_t			 counts[2] = { 3, 9223372036854775807LL };
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	memset(&f, 0, sizeof f);
	f.stacks = stacks;
	f.counts = counts;
	f.n = 2;
	fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(tr_folded_write(&f, fp), 0);
	fclose(fp);
	ck_assert_str_eq(buf, "a;b 3\na;c 9223372036854775807\n");
	free(buf);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("flame");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_roots);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_select);
	tcase_add_test(tc, test_empty_store);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_windows);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
