/*
 * Unit tests for import-perf-script: detection, every header and stack
 * line form perf script prints, the "# ..." header block, and each parse
 * error with its location.  Inputs are byte strings; the store is in
 * memory and checked row by row.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sqlite3.h>

#include "store/db.h"
#include "import/importer.h"
#include "base/input.h"
#include "base/util.h"

static const struct tr_importer *
perf(void)
{
	const struct tr_importer	*imp = tr_importer_find("perf-script");

	ck_assert_ptr_nonnull(imp);
	return (imp);
}

static int
probe(const char *s)
{
	return (perf()->probe((const unsigned char *)s, strlen(s)));
}

/*
 * Import 'text' into a new in-memory store (detecting the format unless
 * 'forced', with host 'host' if not NULL).  Returns the store; *rc is
 * tr_import_input()'s result and 'msg' the formatted error.
 */
static struct tr_db *
import3(const char *text, int forced, const char *host, int *rc,
    struct tr_import_result *res, char *msg, size_t msglen)
{
	struct tr_import_opts	 o;
	struct tr_error		 err;
	struct tr_input		*in;
	struct tr_db		*db;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_ptr_nonnull(db);
	in = tr_input_mem("t.txt", text, strlen(text));
	tr_import_opts_init(&o);
	if (forced & 1)
		o.format = perf();
	o.strict = (forced & 2) != 0;
	o.host = host;
	*rc = tr_import_input(db, in, &o, res, &err);
	tr_error_format(&err, msg, msglen);
	tr_input_free(in);
	return (db);
}

/* Import that must succeed. */
static struct tr_db *
import_ok(const char *text)
{
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			 msg[1200];
	int			 rc;

	db = import3(text, 0, NULL, &rc, &res, msg, sizeof msg);
	if (rc != 0)
		ck_abort_msg("import failed: %s", msg);
	ck_assert_str_eq(res.format, "perf-script");
	return (db);
}

/* The formatted error of importing 'text' (forced, strict): must fail. */
static char *
import_err(const char *text)
{
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			 msg[1200];
	int			 rc;
	int64_t			 n;
	struct tr_error		 err;

	db = import3(text, 3, NULL, &rc, &res, msg, sizeof msg);
	if (rc != -1)
		ck_abort_msg("no error importing \"%s\"", text);
	tr_error_init(&err);
	/* Nothing of it stays behind. */
	ck_assert_int_eq(tr_db_int(db, "SELECT (SELECT count(*) FROM source) + "
	    "(SELECT count(*) FROM sample) + (SELECT count(*) FROM frame)",
	    &n, &err), 0);
	ck_assert_int_eq(n, 0);
	tr_db_free(db);
	return (tr_xstrdup(msg));
}

/* All rows of 'sql', columns joined by '|', each row ended by '\n'. */
static char *
rows(struct tr_db *db, const char *sql)
{
	struct tr_buf	 b;
	sqlite3_stmt	*st;
	int		 i, rc;

	ck_assert_int_eq(sqlite3_prepare_v2(db->sq, sql, -1, &st, NULL),
	    SQLITE_OK);
	tr_buf_init(&b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char	*t = sqlite3_column_text(st, i);

			if (i > 0)
				tr_buf_addc(&b, '|');
			tr_buf_adds(&b, t ? (const char *)t : "NULL");
		}
		tr_buf_addc(&b, '\n');
	}
	ck_assert_int_eq(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	return (b.data);
}

#define ROWS(db, sql, want)	do {					\
	char	*got_ = rows((db), (sql));				\
	ck_assert_str_eq(got_, (want));					\
	free(got_);							\
} while (0)

/* The frames of sample 'id', root first. */
#define STACK_SQL(id)							\
	"SELECT st.depth, f.name, f.module, f.file, f.line, "		\
	"printf('%x', f.addr), f.inlined FROM sample s "		\
	"JOIN stack st ON st.callsite_id = s.callsite_id "		\
	"JOIN frame f ON f.id = st.frame_id WHERE s.id = " #id		\
	" ORDER BY st.depth"

#define SAMPLE_SQL							\
	"SELECT s.id, s.ts, s.cpu, s.value, e.s, p.pid, t.tid, t.name "	\
	"FROM sample s JOIN str e ON e.id = s.event_id "		\
	"LEFT JOIN thread t ON t.id = s.thread_id "			\
	"LEFT JOIN process p ON p.id = t.process_id ORDER BY s.id"

/* perf 6.1, default fields (from burn-kmono-default.perf.txt). */
static const char default_txt[] =
"burn  9466 [001]   445.312398:    2004008 cpu-clock: \n"
"\t            116c leaf_mul+0x23 (/opt/perfgen/burn)\n"
"\t            11cb outer+0x1f (/opt/perfgen/burn)\n"
"\t            1204 main+0x15 (/opt/perfgen/burn)\n"
"\t           2724a __libc_start_call_main+0x7a "
    "(/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
"\n"
"burn  9466 [000]   445.805879:    2004008 cpu-clock: \n"
"\tffffffff8225d9c1 irqentry_exit_to_user_mode+0x1c1 ([kernel.kallsyms])\n"
"\tffffffff81000d66 asm_sysvec_apic_timer_interrupt+0x16 "
    "([kernel.kallsyms])\n"
"\t            1171 leaf_mul+0x28 (/opt/perfgen/burn)\n"
"\t    7f2ca45a28a8 [unknown] ([unknown])\n"
"\t               0 [unknown] ([unknown])\n"
"\n";

START_TEST(test_probe)
{
	ck_assert_int_eq(probe("# ========\n# captured on: x\n"), 100);
	ck_assert_int_eq(probe("# captured on    : Sun Nov 29 2026\n"), 95);
	ck_assert_int_eq(probe(default_txt), 90);
	/* -G: one line per sample, indented. */
	ck_assert_int_eq(probe("            burn  9466/9466    445.312398: "
	    "cpu-clock:      55c8a585316c leaf_mul+0x23 (/opt/perfgen/burn)\n"
	    "            burn  9466/9466    445.314393: cpu-clock:      "
	    "55c8a5853184 leaf_add+0x12 (/opt/perfgen/burn)\n"), 70);
	/* Very old perf: frames not indented. */
	ck_assert_int_eq(probe("java 19983 cycles:\nffffffff8103d0ca "
	    "native_write_msr_safe ([kernel.kallsyms])\n"), 80);
	/* Not perf script: nvidia-smi dmon, CSV, text, one header only. */
	ck_assert_int_eq(probe("# gpu    pwr  gtemp\n# Idx      W      C\n"
	    "    0     72     45\n"), 0);
	ck_assert_int_eq(probe("timestamp, index, name\n2024/01/01, 0, x\n"),
	    0);
	ck_assert_int_eq(probe("hello world\nthis is text\n"), 0);
	ck_assert_int_eq(probe("burn  9466 [001]   445.312398:    2004008 "
	    "cpu-clock: \n"), 0);
	ck_assert_int_eq(probe(""), 0);
}
END_TEST

START_TEST(test_default)
{
	struct tr_db	*db = import_ok(default_txt);

	ROWS(db, "SELECT format, format_version, clock, host, rows, ts_min, "
	    "ts_max FROM source",
	    "perf-script|NULL|perf|NULL|2|445312398000|445805879000\n");
	ROWS(db, SAMPLE_SQL,
	    "1|445312398000|1|2004008|cpu-clock|NULL|9466|burn\n"
	    "2|445805879000|0|2004008|cpu-clock|NULL|9466|burn\n");
	/* Offsets go; unknown symbols keep their address. */
	ROWS(db, STACK_SQL(1),
	    "0|__libc_start_call_main|/usr/lib/x86_64-linux-gnu/libc.so.6|"
	    "|0|0|0\n"
	    "1|main|/opt/perfgen/burn||0|0|0\n"
	    "2|outer|/opt/perfgen/burn||0|0|0\n"
	    "3|leaf_mul|/opt/perfgen/burn||0|0|0\n");
	ROWS(db, STACK_SQL(2),
	    "0|[unknown]|[unknown]||0|0|0\n"
	    "1|[unknown]|[unknown]||0|7f2ca45a28a8|0\n"
	    "2|leaf_mul|/opt/perfgen/burn||0|0|0\n"
	    "3|asm_sysvec_apic_timer_interrupt|[kernel.kallsyms]||0|0|0\n"
	    "4|irqentry_exit_to_user_mode|[kernel.kallsyms]||0|0|0\n");
	ROWS(db, "SELECT count(*) FROM frame", "8\n");
	ROWS(db, "SELECT count(*) FROM callsite", "9\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_fields)
{
	struct tr_db	*db;

	/* --ns -F comm,pid,tid,cpu,time,event,period,ip,sym,dso */
	db = import_ok("burn  9466/9467  [001]   445.312398676:    2004008 "
	    "cpu-clock: \n\t            116c leaf_mul (/opt/perfgen/burn)\n\n"
	    "burn  9466/9466  [011]   445.000000001:          7 cpu-clock: \n"
	    "\t            116c leaf_mul (/opt/perfgen/burn)\n\n");
	ROWS(db, SAMPLE_SQL,
	    "1|445312398676|1|2004008|cpu-clock|9466|9467|burn\n"
	    "2|445000000001|11|7|cpu-clock|9466|9466|burn\n");
	ROWS(db, "SELECT count(*) FROM process", "1\n");
	tr_db_free(db);

	/* ... ,tod: the wall time is kept aside, the perf time is ts. */
	db = import_ok("burn  9466/9466  [001] 2026-11-29 12:39:35.421402   "
	    "445.312398:    2004008 cpu-clock: \n"
	    "\t            116c leaf_mul (/opt/perfgen/burn)\n\n"
	    "burn  9466/9466  [001] 2026-11-29 12:39:35.423398   445.314393:   "
	    " 2004008 cpu-clock: \n"
	    "\t            1184 leaf_add (/opt/perfgen/burn)\n\n");
	ROWS(db, SAMPLE_SQL,
	    "1|445312398000|1|2004008|cpu-clock|9466|9466|burn\n"
	    "2|445314393000|1|2004008|cpu-clock|9466|9466|burn\n");
	ROWS(db, "SELECT json_extract(meta, '$.tod') FROM source",
	    "{\"first\":{\"clock_ns\":445312398000,\"text\":\"2026-11-29 "
	    "12:39:35.421402\"},\"last\":{\"clock_ns\":445314393000,\"text\":"
	    "\"2026-11-29 12:39:35.423398\"}}\n");
	tr_db_free(db);

	/* No time, no period: value 1, no ts; comm with a blank. */
	db = import_ok("V8 WorkerThread 25607 cycles: \n"
	    "\t  4005b1 main (/bin/x)\n\n"
	    "java  3244 cpu-clock: \n\t  4005b1 main (/bin/x)\n\n");
	ROWS(db, SAMPLE_SQL,
	    "1|NULL|NULL|1|cycles|NULL|25607|V8 WorkerThread\n"
	    "2|NULL|NULL|1|cpu-clock|NULL|3244|java\n");
	tr_db_free(db);

	/* A period without a time; an unknown pid, tid and cpu. */
	db = import_ok("java 1234 100000 cycles:\n\t  4005b1 main (/bin/x)\n\n"
	    ":-1    -1/-1   [-01]   1.5: cycles:\n"
	    "\t  4005b1 main (/bin/x)\n\n");
	ROWS(db, SAMPLE_SQL,
	    "1|NULL|NULL|100000|cycles|NULL|1234|java\n"
	    "2|1500000000|NULL|1|cycles|NULL|NULL|:-1\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_srcline)
{
	struct tr_db	*db;

	/* -F comm,tid,time,ip,sym,srcline: no DSO, "  file:line" lines. */
	db = import_ok("burn  9466   445.312398: \n"
	    "\t            116c leaf_mul\n  burn.c:4\n"
	    "\t            11cb outer\n  burn.c:7 (discriminator 3)\n"
	    "\tffffffff8225d9c1 irqentry_exit_to_user_mode\n"
	    "  [kernel.kallsyms][ffffffff8225d9c1]\n"
	    "\t           2724a __libc_start_call_main\n  ??:0\n"
	    "\t           2724b start\n  libc.so.6[2724b]\n\n");
	ROWS(db, SAMPLE_SQL,
	    "1|445312398000|NULL|1|unknown|NULL|9466|burn\n");
	ROWS(db, STACK_SQL(1),
	    "0|start|||0|0|0\n"
	    "1|__libc_start_call_main|||0|0|0\n"
	    "2|irqentry_exit_to_user_mode|||0|0|0\n"
	    "3|outer||burn.c|7|0|0\n"
	    "4|leaf_mul||burn.c|4|0|0\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_oneline)
{
	struct tr_db	*db;

	/* -G: the frame on the header line, headers indented. */
	db = import_ok("            burn  9466/9466    445.312398: cpu-clock:"
	    "      55c8a585316c leaf_mul+0x23 (/opt/perfgen/burn)\n"
	    "            burn  9466/9466    445.318406: cpu-clock:  "
	    "ffffffff8225d9c1 irqentry_exit_to_user_mode+0x1c1 "
	    "([kernel.kallsyms])\n"
	    "             cc1  9466/9467    445.320476: cpu-clock:      "
	    "55c8a585317e leaf_add+0xc (/opt/perfgen/burn)\n");
	ROWS(db, SAMPLE_SQL,
	    "1|445312398000|NULL|1|cpu-clock|9466|9466|burn\n"
	    "2|445318406000|NULL|1|cpu-clock|9466|9466|burn\n"
	    "3|445320476000|NULL|1|cpu-clock|9466|9467|cc1\n");
	ROWS(db, STACK_SQL(2),
	    "0|irqentry_exit_to_user_mode|[kernel.kallsyms]||0|0|0\n");
	ROWS(db, STACK_SQL(3), "0|leaf_add|/opt/perfgen/burn||0|0|0\n");
	tr_db_free(db);

	/* Without callchains, with a srcline and a tracepoint. */
	db = import_ok("burn 9466 [001] 1.000001: sched:sched_switch: "
	    "prev_comm=burn prev_pid=9466 ==> next_comm=swapper/1\n"
	    "burn 9466 [001] 1.000002: 3 cycles:  1184 leaf_add+0x12 "
	    "(/opt/perfgen/burn)\n  burn.c:5\n"
	    "burn 9466 [001] 1.000003: 3 cycles:  1184 leaf_add+0x12 "
	    "(/opt/perfgen/burn)\n");
	ROWS(db, SAMPLE_SQL,
	    "1|1000001000|1|1|sched:sched_switch|NULL|9466|burn\n"
	    "2|1000002000|1|3|cycles|NULL|9466|burn\n"
	    "3|1000003000|1|3|cycles|NULL|9466|burn\n");
	ROWS(db, "SELECT s.id, f.name, f.file, f.line FROM sample s JOIN "
	    "callsite c ON c.id = s.callsite_id JOIN frame f ON "
	    "f.id = c.frame_id ORDER BY s.id",
	    "2|leaf_add|burn.c|5\n3|leaf_add||0\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_old_perf)
{
	struct tr_db	*db;

	/* perf 3.x: "COMM TID EVENT:", frames at column 0, no final blank. */
	db = import_ok("java 19983 cycles:\n"
	    "ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])\n"
	    "7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)\n"
	    "7f72432b4e9a start_thread (/lib/x86_64-linux-gnu/"
	    "libpthread-2.15.so)\n"
	    "\n"
	    "java 19983 cycles:\n"
	    "ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])\n");
	/* The last callchain has no closing empty line: left out. */
	ROWS(db, SAMPLE_SQL, "1|NULL|NULL|1|cycles|NULL|19983|java\n");
	ROWS(db, "SELECT json_extract(meta, '$.incomplete_last_sample') "
	    "FROM source", "6\n");
	ROWS(db, STACK_SQL(1),
	    "0|start_thread|/lib/x86_64-linux-gnu/libpthread-2.15.so||0|0|0\n"
	    "1|Ljava/io/PrintStream;::print|/tmp/perf-19982.map||0|0|0\n"
	    "2|native_write_msr_safe|[kernel.kallsyms]||0|0|0\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_frames)
{
	struct tr_db	*db;

	db = import_ok("x 1 [000] 1.0: cycles:\n"
	    "\t    7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)\n"
	    "\t    7f1e2215d059 foo (/usr/lib/libfoo.so (deleted))\n"
	    "\t    7f1e2215d05a bar (inlined)\n"
	    "\t    7f1e2215d05a baz+0x10 (/usr/lib/libfoo.so)\n"
	    "\t    7f1e2215d05b Foo::bar(int) const+0xab (/x y/lib.so)\n"
	    "\t    7f1e2215d05c (anonymous namespace)::f() (/x)\n"
	    "\t    7f1e2215d05d a->b+0x1 (/x)\n"
	    "\t    7f1e2215d05e sym+0xZZ (/x)\n"
	    "\t    7f1e2215d05f\n"
	    "\t    7f1e2215d060 nodso\n"
	    "\n\n\n");
	ROWS(db, STACK_SQL(1),
	    "0|nodso|||0|0|0\n"
	    "1|[unknown]|||0|7f1e2215d05f|0\n"
	    "2|sym+0xZZ|/x||0|0|0\n"
	    "3|a->b|/x||0|0|0\n"
	    "4|(anonymous namespace)::f()|/x||0|0|0\n"
	    "5|Foo::bar(int) const|/x y/lib.so||0|0|0\n"
	    "6|baz|/usr/lib/libfoo.so||0|0|0\n"
	    "7|bar|||0|0|1\n"
	    "8|foo|/usr/lib/libfoo.so (deleted)||0|0|0\n"
	    "9||/lib/x86_64-linux-gnu/libc-2.15.so||0|7f1e2215d058|0\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_empty_stack)
{
	struct tr_db	*db;

	/* perf prints "HEADER\n\n" for an empty callchain. */
	db = import_ok("bash 22849  1452.735200:     200040 cpu-clock:ppp: \n"
	    "\n"
	    "bash 22849  1452.735394:     200040 cpu-clock:ppp: \n"
	    "\t           98109 _int_malloc+0xda9 (/usr/lib/libc.so.6)\n"
	    "\n"
	    "bash 22849  1452.735591:     200040 cpu-clock:ppp: \n"
	    "\n");
	ROWS(db, "SELECT id, ts, callsite_id FROM sample ORDER BY id",
	    "1|1452735200000|NULL\n2|1452735394000|1\n3|1452735591000|NULL\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_quirks)
{
	struct tr_db	*db;

	/*
	 * CRLF, blank lines made of blanks, several blank lines, comments
	 * between samples, PERF_RECORD_* side-band lines.  No final newline
	 * after the last line of a file without callchains (-G): perf ends
	 * every line with one, so the file was cut there (maybe inside the
	 * symbol) and that sample is left out, as a cut callchain is.
	 */
	db = import_ok("perf 1 [000] 0.000001: PERF_RECORD_COMM: perf:1/1\r\n"
	    "a 1 [000] 0.5: 10 cycles: \r\n\t 401000 main (/bin/a)\r\n"
	    " \t \r\n\r\n\n# a comment\n"
	    "perf 1 [000] 0.6: PERF_RECORD_MMAP2 1/1: [0x1(0x2) @ 0]: x\n"
	    "a 1 [000] 0.7: 20 cycles: \t\n\t 401000 main (/bin/a)   \n\n");
	ROWS(db, "SELECT s.ts, s.value, f.name, f.module FROM sample s JOIN "
	    "callsite c ON c.id = s.callsite_id JOIN frame f ON "
	    "f.id = c.frame_id ORDER BY s.id",
	    "500000000|10|main|/bin/a\n700000000|20|main|/bin/a\n");
	tr_db_free(db);

	db = import_ok("            burn  9466/9466    445.312398: cpu-clock:"
	    "      55c8a585316c leaf_mul+0x23 (/opt/perfgen/burn)\n"
	    "            burn  9466/9466    445.312399: cpu-clock:   "
	    "   55c8a585316c leaf_mul+0x23 (/opt/perfgen/burn)");
	ROWS(db, "SELECT count(*), max(ts) FROM sample", "1|445312398000\n");
	ROWS(db, "SELECT json_extract(meta, '$.incomplete_last_sample') "
	    "FROM source", "2\n");
	tr_db_free(db);
}
END_TEST

/*
 * A last line with no newline: a sample header cut anywhere (even where
 * what is left parses) is that sample, left out; so is a callchain whose
 * empty line is cut to blanks.  Comments and sideband lines stay what
 * they are.  The result and the meta name the cut sample's line.
 */
START_TEST(test_cut)
{
	static const struct {
		const char	*text, *want;
		int64_t		 cut;
	} t[] = {
		{ "burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		  "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		  "burn 9466 [001] 445.31", "1|2004008\n", 4 },
		{ "burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		  "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		  "burn 9466 [001] 445.314402: 20", "1|2004008\n", 4 },
		{ "burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		  "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		  "burn 9466 [001] 445.314402: 2004008 cpu-clock: \n"
		  "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\t \r",
		  "1|2004008\n", 4 },
		{ "burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		  "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		  "# the end", "1|2004008\n", 0 },
		{ "burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		  "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		  "perf 1 [000] 0.6: PERF_RECORD_MMAP2 1/1: [0x1(0x2) @ 0]: x",
		  "1|2004008\n", 0 },
		{ "burn 9466 [001] 445.312398: 2004008 cpu-clock:  1 x (/a)\n"
		  "burn 9466 [001] 445.312399: 2004008 cpu-clock:  1 x (/",
		  "1|2004008\n", 2 },
	};
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			 msg[1200], *got;
	size_t			 i;
	int			 rc;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		db = import3(t[i].text, 1, NULL, &rc, &res, msg, sizeof msg);
		if (rc != 0)
			ck_abort_msg("case %zu: %s", i, msg);
		got = rows(db, "SELECT count(*), sum(value) FROM sample");
		if (strcmp(got, t[i].want) != 0 || res.cut_line != t[i].cut)
			ck_abort_msg("case %zu: %s cut at %lld", i, got,
			    (long long)res.cut_line);
		free(got);
		tr_db_free(db);
	}
	/* Another sample header cut short after a header with no stack. */
	got = import_err("burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
	    "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
	    "burn 9466 [001] 445.312399: 2004008 cpu-clock: \n"
	    "burn 9466 [001] 445.3");
	ck_assert_str_eq(got, "t.txt:4:1: sample header with no stack: "
	    "expected stack lines after it, got another sample header");
	free(got);
}
END_TEST

START_TEST(test_header)
{
	static const char text[] =
	    "# ========\n"
	    "# captured on    : Sun Nov 29 12:39:36 2026\n"
	    "# hostname : gpu-7\n"
	    "# os release : 6.1.0-18-amd64\n"
	    "# perf version : 6.1.187\n"
	    "# arch : x86_64\n"
	    "# cmdline : /usr/bin/perf record -k mono -e cycles -e "
	    "instructions -g\n"
	    "# event : name = cycles, , id = { 1, 2 }, size = 128\n"
	    "# event : name = instructions, , id = { 3 }, size = 128\n"
	    "# clockid frequency: 1000 MHz\n"
	    "# clockid: monotonic (1)\n"
	    "# reference time: 2026-11-29 12:39:35.361958 = "
	    "1795955975.361958 (TOD) = 445.252953791 (monotonic)\n"
	    "# HEADER_CPU_TOPOLOGY info available, use -I to display\n"
	    "# ========\n"
	    "#\n"
	    "burn 9466 [001] 445.312398: 2004008 cycles: \n"
	    "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
	    "# hostname : not-this-one\n"
	    "burn 9466 [001] 445.312399: 2004008 instructions: \n"
	    "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n";
	struct tr_import_result	 res;
	struct tr_db		*db;
	char			 msg[1200];
	int			 rc;

	db = import_ok(text);
	ROWS(db, "SELECT format_version, clock, host FROM source",
	    "6.1.187|monotonic|gpu-7\n");
	ROWS(db, "SELECT key, value FROM source, json_each(source.meta) "
	    "WHERE key != 'samples_fingerprint' ORDER BY key",
	    "arch|x86_64\n"
	    "captured_on|Sun Nov 29 12:39:36 2026\n"
	    "clockid|monotonic\n"
	    "clockid_frequency|1000 MHz\n"
	    "cmdline|/usr/bin/perf record -k mono -e cycles -e instructions "
	    "-g\n"
	    "events|[\"cycles\",\"instructions\"]\n"
	    "hostname|gpu-7\n"
	    "os_release|6.1.0-18-amd64\n"
	    "perf_version|6.1.187\n"
	    "reference_time|{\"clock\":\"monotonic\",\"clock_ns\":445252953791,"
	    "\"text\":\"2026-11-29 12:39:35.361958 = 1795955975.361958 (TOD) "
	    "= 445.252953791 (monotonic)\",\"tod_ns\":1795955975361958000}\n");
	/* A lone number is a tid: no process. */
	ROWS(db, "SELECT count(*) FROM process", "0\n");
	ROWS(db, SAMPLE_SQL,
	    "1|445312398000|1|2004008|cycles|NULL|9466|burn\n"
	    "2|445312399000|1|2004008|instructions|NULL|9466|burn\n");
	tr_db_free(db);

	/* The host the user gave wins over the header's. */
	db = import3(text, 0, "given", &rc, &res, msg, sizeof msg);
	ck_assert_int_eq(rc, 0);
	ROWS(db, "SELECT host FROM source", "given\n");
	tr_db_free(db);

	/* Processes are per host: the header's host is theirs. */
	db = import_ok("# ========\n# hostname : h1\n# ========\n"
	    "a 7/8 [000] 1.0: cycles:\n\t 401000 main (/bin/a)\n\n");
	ROWS(db, "SELECT host, pid FROM process", "h1|7\n");
	tr_db_free(db);

	/* No event on the sample lines: the header's only event. */
	db = import_ok("# ========\n# event : name = cycles:u, , id = { 1 }\n"
	    "# ========\nburn 1 1.0: \n\t 1 a (/x)\n\n");
	ROWS(db, "SELECT e.s FROM sample s JOIN str e ON e.id = s.event_id",
	    "cycles:u\n");
	tr_db_free(db);

	/* Without a clockid header: perf's own clock. */
	db = import_ok("# captured on: x\n# clockid: realtime (0)\n"
	    "a 1 [000] 1.0: cycles:\n\t 401000 main (/bin/a)\n\n");
	ROWS(db, "SELECT clock FROM source", "realtime\n");
	tr_db_free(db);
}
END_TEST

/* The "samples_fingerprint" of importing 'text', owned by the caller. */
static char *
fingerprint(const char *text)
{
	struct tr_db	*db = import_ok(text);
	char		*fp;

	fp = rows(db, "SELECT coalesce(json_extract(meta, "
	    "'$.samples_fingerprint'), 'none') FROM source");
	tr_db_free(db);
	return (fp);
}

/*
 * One recording printed several ways has one fingerprint: µs or ns time
 * stamps, pid or not, cpu, period, event names, symbols, DSOs, callchains
 * or the -G frame.  Another time, tid or comm is another recording; a
 * sample without a time stamp leaves the source without a fingerprint.
 */
START_TEST(test_fingerprint)
{
	static const char *const same[] = {
		"burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n"
		"\t  11a2 main+0x12 (/opt/perfgen/burn)\n\n"
		"burn 9467 [000] 445.314402: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n",
		/* the samples in another order */
		"burn 9467 [000] 445.314402: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		"burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n",
		"burn  9466/9466  [001] 445.312398676: 2004008 cpu-clock:ppp: "
		"\n\t  116c leaf_mul (/opt/perfgen/burn)\n\n"
		"burn  9466/9467  [000] 445.314402999: 2004008 cpu-clock:ppp: "
		"\n\t  116c leaf_mul (/opt/perfgen/burn)\n\n",
		"burn 9466 445.312398: \n"
		"\t  116c leaf_mul\n"
		"  burn.c:4\n\n"
		"burn 9467 445.314402: \n"
		"\t  116c leaf_mul\n"
		"  burn.c:4\n\n",
		"burn 9466 [001] 445.312398: 2004008 cpu-clock:      116c "
		"leaf_mul+0x23 (/opt/perfgen/burn)\n"
		"burn 9467 [000] 445.314402: 2004008 cpu-clock:      116c "
		"leaf_mul+0x23 (/opt/perfgen/burn)\n",
	};
	static const char *const other[] = {
		/* one µs later */
		"burn 9466 [001] 445.312399: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		"burn 9467 [000] 445.314402: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n",
		/* another tid */
		"burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		"burn 9468 [000] 445.314402: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n",
		/* another command */
		"burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		"bake 9467 [000] 445.314402: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n",
		/* one sample fewer */
		"burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n",
		/* the same sample twice */
		"burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		"burn 9466 [001] 445.312398: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n"
		"burn 9467 [000] 445.314402: 2004008 cpu-clock: \n"
		"\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n",
	};
	char	*first, *fp;
	size_t	 i;

	first = fingerprint(same[0]);
	ck_assert_str_eq(first + strlen(first) - 1, "\n");
	ck_assert_int_eq(strncmp(first, "perf-script:2:", 14), 0);
	for (i = 1; i < sizeof same / sizeof same[0]; i++) {
		fp = fingerprint(same[i]);
		if (strcmp(fp, first) != 0)
			ck_abort_msg("rendering %zu: %s, not %s", i, fp, first);
		free(fp);
	}
	for (i = 0; i < sizeof other / sizeof other[0]; i++) {
		fp = fingerprint(other[i]);
		if (strcmp(fp, first) == 0 || strcmp(fp, "none\n") == 0)
			ck_abort_msg("other %zu: %s", i, fp);
		free(fp);
	}
	free(first);
	fp = fingerprint("burn 9466 [001] 2004008 cpu-clock: \n"
	    "\t  116c leaf_mul+0x23 (/opt/perfgen/burn)\n\n");
	ck_assert_str_eq(fp, "none\n");
	free(fp);
}
END_TEST

START_TEST(test_numbers)
{
	struct tr_db	*db;

	/* The largest time, period, pid and cpu that fit. */
	db = import_ok("a 2147483647/2147483647 [2147483647] "
	    "9223372036.854775807: 9223372036854775807 cycles:\n"
	    "\t ffffffffffffffff [unknown] ([unknown])\n\n");
	ROWS(db, "SELECT s.ts, s.cpu, s.value, p.pid, t.tid, "
	    "printf('%x', f.addr) FROM sample s JOIN thread t ON "
	    "t.id = s.thread_id JOIN process p ON p.id = t.process_id "
	    "JOIN callsite c ON c.id = s.callsite_id JOIN frame f ON "
	    "f.id = c.frame_id",
	    "9223372036854775807|2147483647|9223372036854775807|2147483647|"
	    "2147483647|ffffffffffffffff\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char	*in, *msg;
	} cases[] = {
		{ "\t  116c main (/bin/x)\nburn 1 1.0: cycles:\n",
		  "t.txt:1:4: stack line before any sample header: expected "
		  "'COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT:', got '116c "
		  "main (/bin/x)'" },
		{ "burn 1 1.0: cycles:\n\t  1 a (/x)\n\nnot a header\n",
		  "t.txt:4:1: malformed sample header: expected 'COMM "
		  "PID[/TID] [CPU] TIME: [PERIOD] EVENT:', got 'not a "
		  "header'" },
		{ "burn 1 1.0: cycles:\n\t  1 a (/x)\n\nfoo 12: bar\n",
		  "t.txt:4:1: malformed sample header: expected 'COMM "
		  "PID[/TID] [CPU] TIME: [PERIOD] EVENT:', got 'foo 12: bar'" },
		{ "burn 1 1.0: cycles:\n\t  1 a (/x)\n\tzz b (/x)\n\n",
		  "t.txt:3:2: malformed stack line: expected 'ADDRESS SYMBOL "
		  "(DSO)', got 'zz b (/x)'" },
		{ "burn 1 1.0: cycles:\n\t  1a2b3c4d5e6f7a8b9 a (/x)\n\n",
		  "t.txt:2:4: address out of range: expected at most 16 hex "
		  "digits, got '1a2b3c4d5e6f7a8b9'" },
		{ "burn 1 9223372036.854775808: cycles:\n\t  1 a (/x)\n\n",
		  "t.txt:1:8: timestamp out of range: expected at most "
		  "9223372036.854775807 seconds, got '9223372036.854775808'" },
		{ "burn 1 99999999999999999999.5: cycles:\n",
		  "t.txt:1:8: timestamp out of range: expected at most "
		  "9223372036.854775807 seconds, got "
		  "'99999999999999999999.5'" },
		{ "burn 1 1.0000000001: cycles:\n",
		  "t.txt:1:8: malformed timestamp: expected at most 9 decimal "
		  "places, got '1.0000000001'" },
		{ "burn 1 1.0: 9223372036854775808 cycles:\n",
		  "t.txt:1:13: period out of range: expected at most "
		  "9223372036854775807, got '9223372036854775808'" },
		{ "burn 1 9223372036854775808 cycles:\n",
		  "t.txt:1:8: period out of range: expected at most "
		  "9223372036854775807, got '9223372036854775808'" },
		{ "burn 2147483648/1 1.0: cycles:\n",
		  "t.txt:1:6: pid out of range: expected -1 to 2147483647, got "
		  "'2147483648'" },
		{ "burn 1/2147483648 1.0: cycles:\n",
		  "t.txt:1:8: tid out of range: expected -1 to 2147483647, got "
		  "'2147483648'" },
		{ "burn 2147483648 1.0: cycles:\n",
		  "t.txt:1:6: tid out of range: expected -1 to 2147483647, got "
		  "'2147483648'" },
		{ "burn 1 [2147483648] 1.0: cycles:\n",
		  "t.txt:1:8: cpu out of range: expected at most 2147483647, "
		  "got '[2147483648]'" },
		{ "burn 1 1.0: cycles:\n\t  1 a (/x)\n\n"
		  "burn 1 1.1: cycles:\nburn 1 1.2: cycles:\n\t  1 a (/x)\n\n",
		  "t.txt:4:1: sample header with no stack: expected stack "
		  "lines after it, got another sample header" },
		{ "    burn 1/1 1.0: cycles:  1 a (/x)\n    burn 1/1 1.1\n",
		  "t.txt:2:5: malformed sample header: expected 'COMM "
		  "PID[/TID] [CPU] TIME: [PERIOD] EVENT:', got 'burn 1/1 "
		  "1.1'" },
		{ "burn 1 1.0: cycles:\n\t  1 a (/x)\n\nthis line is much "
		  "longer than what a message quotes of it, surely\n",
		  "t.txt:4:1: malformed sample header: expected 'COMM "
		  "PID[/TID] [CPU] TIME: [PERIOD] EVENT:', got 'this line is "
		  "much longer than what a message quo...'" },
	};
	size_t	i;
	char	*msg;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		msg = import_err(cases[i].in);
		if (strcmp(msg, cases[i].msg) != 0)
			ck_abort_msg("case %zu: got \"%s\", want \"%s\"", i,
			    msg, cases[i].msg);
		free(msg);
	}
}
END_TEST

START_TEST(test_tolerated)
{
	static const struct {
		const char	*in, *stacks, *note;
	} cases[] = {
		/* A line that is no frame: left out, the sample goes on. */
		{ "burn 1 1.0: 5 cycles:\n\t  1 a (/x)\n\tWEIRD LINE\n"
		  "\t  2 b (/x)\n\n",
		  "1|5|b;a\n",
		  "t.txt:3:2: malformed stack line: expected 'ADDRESS SYMBOL "
		  "(DSO)', got 'WEIRD LINE': left out, as "
		  "stackcollapse-perf.pl does" },
		/* Frame-shaped, a word for its address: kept, no address. */
		{ "burn 1 1.0: 5 cycles:\n\t  1 a (/x)\n\tzz b+0x1 (/x)\n\n",
		  "1|5|b;a\n",
		  "t.txt:3:2: malformed stack line: expected 'ADDRESS SYMBOL "
		  "(DSO)', got 'zz b+0x1 (/x)': kept as a frame with no "
		  "address, as stackcollapse-perf.pl does" },
		/* A blank line right after the header: stackless. */
		{ "burn 1 1.0: 5 cycles:\n\n\t  1 a (/x)\n\t  2 b (/x)\n\n"
		  "burn 1 2.0: 7 cycles:\n\t  3 c (/x)\n\n",
		  "1|5|NULL\n2|7|c\n",
		  "t.txt:3:4: stack line after the blank line that ended the "
		  "sample (line 2): expected 'COMM PID[/TID] [CPU] TIME: "
		  "[PERIOD] EVENT:', got '1 a (/x)': left out with the stack "
		  "lines up to the next sample header, as "
		  "stackcollapse-perf.pl does" },
		/* In the middle: the leaf part is kept, unindented or not. */
		{ "burn 1 1.0: 5 cycles:\n\t  1 a (/x)\n\n2 b (/x)\n"
		  "\tjunk\n",
		  "1|5|a\n",
		  "t.txt:4:1: stack line after the blank line that ended the "
		  "sample (line 3): expected 'COMM PID[/TID] [CPU] TIME: "
		  "[PERIOD] EVENT:', got '2 b (/x)': left out with the stack "
		  "lines up to the next sample header, as "
		  "stackcollapse-perf.pl does" },
	};
	struct tr_import_result	 res;
	struct tr_db		*db;
	struct tr_buf		 b;
	char			 msg[1200];
	int			 rc, i;
	size_t			 k;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		db = import3(cases[k].in, 0, NULL, &rc, &res, msg, sizeof msg);
		if (rc != 0)
			ck_abort_msg("case %zu: %s", k, msg);
		ck_assert_int_eq(res.oddities, 1);
		ck_assert_int_eq(res.nodd, 1);
		ck_assert_str_eq(res.odd[0], cases[k].note);
		ROWS(db, "SELECT s.id, s.value, (SELECT group_concat(f.name, "
		    "';') FROM (SELECT * FROM stack st WHERE st.callsite_id = "
		    "s.callsite_id ORDER BY st.depth) st JOIN frame f ON "
		    "f.id = st.frame_id) FROM sample s ORDER BY s.id",
		    cases[k].stacks);
		ROWS(db, "SELECT json_extract(meta, '$.oddities') FROM source",
		    "1\n");
		tr_db_free(db);
	}
	/* Twelve: all counted, the first ten kept with their message. */
	tr_buf_init(&b);
	for (i = 0; i < 12; i++)
		tr_buf_printf(&b, "burn 1 %d.0: cycles:\n\t?\n\t  1 a (/x)\n\n",
		    i + 1);
	db = import3(b.data, 0, NULL, &rc, &res, msg, sizeof msg);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(res.samples, 12);
	ck_assert_int_eq(res.oddities, 12);
	ck_assert_int_eq(res.nodd, TR_IMPORT_ODD_SHOWN);
	ck_assert_int_eq(strncmp(res.odd[9], "t.txt:38:2: ", 12), 0);
	tr_db_free(db);
	tr_buf_release(&b);
	/* Binary bytes are damage: an error also without strict. */
	db = import3("burn 1 1.0: cycles:\n\t  1 a (/x)\n\t  \001b (/x)\n"
	    "\n", 0, NULL, &rc, &res, msg, sizeof msg);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "t.txt:3:4: binary data: byte 0x01 in a line "
	    "of text");
	tr_db_free(db);
	db = import3("burn 1 1.0: cycles:\n\n\t  \001b (/x)\n\n", 1, NULL,
	    &rc, &res, msg, sizeof msg);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "t.txt:3:4: binary data: byte 0x01 in a line "
	    "of text");
	tr_db_free(db);
}
END_TEST

START_TEST(test_stack_cache)
{
	struct tr_db	*db;
	struct tr_buf	 b;
	int		 i;

	/*
	 * The same stack text many times, stacks sharing their roots, and
	 * the same frames under srclines or not: one row each, as parsed.
	 */
	tr_buf_init(&b);
	for (i = 0; i < 300; i++)
		tr_buf_printf(&b, "a %d [000] %d.5: 1 cycles:\n"
		    "\t 1%d leaf%d (/x)\n\t 2 mid (/x)\n\t 3 root (/x)\n\n",
		    1 + i % 3, i, i % 2, i % 2);
	tr_buf_adds(&b, "a 1 [000] 900.0: 1 cycles:\n\t 10 leaf0 (/x)\n  "
	    "l.c:9\n\t 2 mid (/x)\n\t 3 root (/x)\n\n");
	db = import_ok(b.data);
	ROWS(db, "SELECT count(*), sum(value) FROM sample", "301|301\n");
	ROWS(db, "SELECT f.name, f.file, count(*) FROM sample s JOIN callsite "
	    "c ON c.id = s.callsite_id JOIN frame f ON f.id = c.frame_id "
	    "GROUP BY c.id ORDER BY c.id",
	    "leaf0||150\nleaf1||150\nleaf0|l.c|1\n");
	ROWS(db, "SELECT count(*) FROM callsite", "5\n");
	ROWS(db, "SELECT count(*) FROM thread", "3\n");
	tr_buf_release(&b);
	tr_db_free(db);
}
END_TEST

/*
 * A stack's block of lines after its header, read again: as the first
 * time, whether it was all frames, had srclines, a blank-only line that
 * ends the sample early, a line that is no frame, or CRLF ends.
 */
START_TEST(test_block_cache)
{
	static const char *const stanza[] = {
		"\t 10 leafA (/x)\n\t 2 mid (/x)\n\t 3 root (/x)\n\n",
		"\t 10 leafA (/x)\n  a.c:5\n\t 2 mid (/x)\n\t 3 root (/x)\n\n",
		"\t 10 leafA (/x)\n\t \n\t 2 mid (/x)\n\t 3 root (/x)\n\n",
		"\t 10 leafA (/x)\n\tzz weird (line)\n\t 3 root (/x)\n\n",
		"\t 10 leafA (/x)\n  a.c:5\n  b.c:6\n\t 3 root (/x)\n\n",
		"\t 10 leafA (/x)\r\n\t 2 mid (/x)\r\n\t 3 root (/x)\r\n\r\n",
	};
	static const char *const want[] = {
		"0|root|/x||0|0|0\n1|mid|/x||0|0|0\n"
		    "2|leafA|/x||0|0|0\n",
		"0|root|/x||0|0|0\n1|mid|/x||0|0|0\n"
		    "2|leafA|/x|a.c|5|0|0\n",
		"0|leafA|/x||0|0|0\n",
		"0|root|/x||0|0|0\n1|weird|line||0|0|0\n"
		    "2|leafA|/x||0|0|0\n",
		"0|root|/x||0|0|0\n1|leafA|/x|a.c|5|0|0\n",
		"0|root|/x||0|0|0\n1|mid|/x||0|0|0\n"
		    "2|leafA|/x||0|0|0\n",
	};
	const int	 n = (int)(sizeof stanza / sizeof stanza[0]);
	struct tr_db	*db;
	struct tr_buf	 b;
	char		 sql[512], *got;
	int		 r, i, v;

	/* Each stanza in every round, in a new order each round. */
	tr_buf_init(&b);
	for (r = 0; r < 4; r++)
		for (i = 0; i < n; i++) {
			v = (i * (r % 2 ? 5 : 1) + r) % n;
			tr_buf_printf(&b, "a 1 [000] %d.5: 1 cycles:%s\n%s",
			    r * n + i, v == 5 ? "\r" : "", stanza[v]);
		}
	db = import_ok(b.data);
	ROWS(db, "SELECT count(*) FROM sample", "24\n");
	for (r = 0; r < 4; r++)
		for (i = 0; i < n; i++) {
			v = (i * (r % 2 ? 5 : 1) + r) % n;
			snprintf(sql, sizeof sql, "SELECT st.depth, f.name, "
			    "f.module, f.file, f.line, printf('%%x', f.addr), "
			    "f.inlined FROM sample s JOIN stack st ON "
			    "st.callsite_id = s.callsite_id JOIN frame f ON "
			    "f.id = st.frame_id WHERE s.ts = %d500000000 "
			    "ORDER BY st.depth", r * n + i);
			got = rows(db, sql);
			if (strcmp(got, want[v]) != 0)
				ck_abort_msg("round %d stanza %d: got\n%s", r,
				    v, got);
			free(got);
		}
	tr_buf_release(&b);
	tr_db_free(db);
}
END_TEST

/*
 * Headers that differ from the last one only in their time parse as it
 * did but for the time, of any length; a bad time is still an error.
 */
START_TEST(test_header_again)
{
	struct tr_db	*db;
	char		*msg;

	db = import_ok("burn 1/2 [001] 9.5: 7 cycles: \n\t 1 a (/x)\n\n"
	    "burn 1/2 [001] 10.25: 7 cycles: \n\t 1 a (/x)\n\n"
	    "burn 1/2 [001] 10.25: 8 cycles: \n\t 1 a (/x)\n\n"
	    "burn 1/2 [001] 1000.000000001: 8 cycles: \n\t 1 a (/x)\n\n"
	    "burn 1/2 [002] 1000.1: 8 cycles: \n\t 1 a (/x)\n\n"
	    "burn 1/2 [002] 1000.2: PERF_RECORD_MMAP x\n"
	    "burn 1/2 [002] 1000.3: 8 instructions: \n\t 1 a (/x)\n\n");
	ROWS(db, SAMPLE_SQL,
	    "1|9500000000|1|7|cycles|1|2|burn\n"
	    "2|10250000000|1|7|cycles|1|2|burn\n"
	    "3|10250000000|1|8|cycles|1|2|burn\n"
	    "4|1000000000001|1|8|cycles|1|2|burn\n"
	    "5|1000100000000|2|8|cycles|1|2|burn\n"
	    "6|1000300000000|2|8|instructions|1|2|burn\n");
	tr_db_free(db);
	msg = import_err("burn 1/2 [001] 9.5: cycles: \n\t 1 a (/x)\n\n"
	    "burn 1/2 [001] 9.1234567891: cycles: \n\t 1 a (/x)\n\n");
	ck_assert_str_eq(msg, "t.txt:4:16: malformed timestamp: expected at "
	    "most 9 decimal places, got '9.1234567891'");
	free(msg);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("import-perf-script");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_probe);
	tcase_add_test(tc, test_default);
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_srcline);
	tcase_add_test(tc, test_oneline);
	tcase_add_test(tc, test_old_perf);
	tcase_add_test(tc, test_frames);
	tcase_add_test(tc, test_empty_stack);
	tcase_add_test(tc, test_quirks);
	tcase_add_test(tc, test_cut);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_fingerprint);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_tolerated);
	tcase_add_test(tc, test_stack_cache);
	tcase_add_test(tc, test_block_cache);
	tcase_add_test(tc, test_header_again);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
