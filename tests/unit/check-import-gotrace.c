/*
 * Unit tests for the Go execution trace importer: the event stream
 * matches `go tool trace -d` event for event, the store holds what the
 * events say, every malformed input fails with its located message, and
 * the map the parsers use holds up.
 */
#include "config.h"

#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <zlib.h>

#include "store/db.h"
#include "import/gotrace.h"
#include "import/importer.h"
#include "base/util.h"

/* --- helpers --------------------------------------------------------- */

static char *
data_path(const char *name)
{
	const char	*dir = getenv("TR_DATA");

	return (tr_xasprintf("%s/gotrace/%s", dir ? dir : "tests/data", name));
}

struct lines {
	char	**v;
	size_t	  n, cap;
};

static void
lines_add(struct lines *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->v = tr_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = s;
}

static void
lines_free(struct lines *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Format an event as go tool trace -d prints it. */
static void
hook(void *arg, const struct tr_gotrace_event *e)
{
	struct tr_buf	b;
	int		i;

	tr_buf_init(&b);
	tr_buf_printf(&b, "%" PRId64 " %s p=%" PRId64 " g=%" PRIu64 " off=%"
	    PRId64, e->ts, e->name, e->p, e->g, e->off);
	for (i = 0; i < e->nargs; i++)
		tr_buf_printf(&b, " %s=%" PRIu64, e->argnames[i], e->args[i]);
	for (i = 0; i < e->nsargs; i++)
		tr_buf_printf(&b, " %s=%s", e->sargnames[i],
		    e->sargs[i] ? e->sargs[i] : "");
	lines_add(arg, b.data);
}

static int
cmp_line(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Import 'name' into a new store; the events go to 'l' when not NULL. */
static struct tr_db *
import(const char *name, struct lines *l, struct tr_import_result *res,
    struct tr_error *err)
{
	struct tr_import_opts	 o;
	struct tr_db		*db;
	char			*path = data_path(name);
	int			 rc;

	tr_error_init(err);
	db = tr_db_open(":memory:", 0, err);
	ck_assert_ptr_nonnull(db);
	tr_import_opts_init(&o);
	tr_gotrace_hook = l ? hook : NULL;
	tr_gotrace_hook_arg = l;
	rc = tr_import_file(db, path, name, &o, res, err);
	tr_gotrace_hook = NULL;
	free(path);
	if (rc != 0) {
		tr_db_free(db);
		return (NULL);
	}
	return (db);
}

/* Every slice of the store as text, in one order (ids left out). */
static char *
slices_text(struct tr_db *db)
{
	sqlite3_stmt	*st;
	char		*s;

	ck_assert_int_eq(sqlite3_prepare_v2(db->sq, "SELECT group_concat(x, "
	    "';') FROM (SELECT track_id || ',' || ts || ',' || dur || ',' || "
	    "name_id || ',' || ifnull(category_id, '') || ',' || "
	    "ifnull(callsite_id, '') || ',' || ifnull(args, '') AS x FROM "
	    "slice ORDER BY x)", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	s = tr_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return (s);
}

static int64_t
q(struct tr_db *db, const char *sql)
{
	struct tr_error	err;
	int64_t		v = -1;

	tr_error_init(&err);
	ck_assert_msg(tr_db_int(db, sql, &v, &err) == 0, "%s: %s", sql,
	    err.msg);
	return (v);
}

/* The events 'name' yields, sorted, against NAME.dumpsum. */
static void
check_dumpsum(const char *name)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct lines		 l;
	struct tr_db		*db;
	char			*path, base[256], *dot;
	FILE			*f;
	unsigned long		 want_n, want_crc, crc;
	size_t			 i;

	memset(&l, 0, sizeof l);
	db = import(name, &l, &res, &err);
	ck_assert_msg(db != NULL, "%s: %s", name, err.msg);
	tr_db_free(db);
	snprintf(base, sizeof base, "%s", name);
	if ((dot = strstr(base, ".trace")) != NULL)
		*dot = '\0';
	strcat(base, ".dumpsum");
	path = data_path(base);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	ck_assert_int_eq(fscanf(f, "%lu %lu", &want_n, &want_crc), 2);
	fclose(f);
	free(path);
	qsort(l.v, l.n, sizeof *l.v, cmp_line);
	crc = crc32(0, Z_NULL, 0);
	for (i = 0; i < l.n; i++) {
		crc = crc32(crc, (const Bytef *)l.v[i], (uInt)strlen(l.v[i]));
		crc = crc32(crc, (const Bytef *)"\n", 1);
	}
	ck_assert_msg(l.n == want_n, "%s: %zu events, go tool trace has %lu",
	    name, l.n, want_n);
	ck_assert_msg(crc == want_crc, "%s: events differ from go tool trace "
	    "-d (crc %lu, want %lu)", name, crc, want_crc);
	lines_free(&l);
}

/* --- the event stream against go tool trace -d ------------------------ */

START_TEST(test_fixture_dump)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct lines		 mine, go;
	struct tr_db		*db;
	char			*path, line[4096];
	FILE			*f;
	size_t			 i;

	memset(&mine, 0, sizeof mine);
	memset(&go, 0, sizeof go);
	db = import("go119-fixture.trace", &mine, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	tr_db_free(db);
	path = data_path("go119-fixture.dump");
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		lines_add(&go, tr_xstrdup(line));
	}
	fclose(f);
	free(path);
	/* Ties in time may come out in any order: compare sorted. */
	qsort(mine.v, mine.n, sizeof *mine.v, cmp_line);
	qsort(go.v, go.n, sizeof *go.v, cmp_line);
	ck_assert_uint_eq(mine.n, 427);
	ck_assert_uint_eq(mine.n, go.n);
	for (i = 0; i < go.n; i++)
		ck_assert_str_eq(mine.v[i], go.v[i]);
	lines_free(&mine);
	lines_free(&go);
}
END_TEST

static const char *const dumps[] = {
	"gen119.trace", "gen121.trace", "go119-fixture.trace", "http_1_7_good",
	"http_1_9_good", "http_1_10_good", "http_1_11_good", "http_1_19_good",
	"stress_1_7_good", "stress_1_9_good", "stress_1_10_good",
	"stress_1_11_good", "stress_1_19_good", "stress_start_stop_1_7_good",
	"stress_start_stop_1_9_good", "stress_start_stop_1_10_good",
	"stress_start_stop_1_11_good", "stress_start_stop_1_19_good",
	"user_task_region_1_11_good", "user_task_region_1_19_good"
};

START_TEST(test_dumpsums)
{
	check_dumpsum(dumps[_i]);
}
END_TEST

/* --- the store ------------------------------------------------------- */

/* Count the events of each type in a committed go tool trace -d dump. */
static int64_t
dump_count(const char *name, const char *type)
{
	char	*path = data_path(name), line[4096], *sp;
	FILE	*f;
	int64_t	 n = 0;

	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	while (fgets(line, sizeof line, f) != NULL) {
		if ((sp = strchr(line, ' ')) == NULL)
			continue;
		if (strncmp(sp + 1, type, strlen(type)) == 0 &&
		    sp[1 + strlen(type)] == ' ')
			n++;
	}
	fclose(f);
	free(path);
	return (n);
}

#define STATES(cond)							\
	"SELECT count(*) FROM go_state WHERE " cond

START_TEST(test_store_counts)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;
	const char		*d = "gen119.dump";
	int64_t			 waiting, insys, sysblock, syscall, blocks;

	db = import("gen119.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);

	/* One goroutine track per goroutine created. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine"),
	    dump_count(d, "GoCreate"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "ended IS NOT NULL"), dump_count(d, "GoEnd"));
	/* A running slice per start. */
	ck_assert_int_eq(q(db, STATES("state = 'running'")),
	    dump_count(d, "GoStart") + dump_count(d, "GoStartLabel"));
	/* A blocked slice per blocking event, of its kind. */
	ck_assert_int_eq(q(db, STATES("reason = 'chan send'")),
	    dump_count(d, "GoBlockSend"));
	ck_assert_int_eq(q(db, STATES("reason = 'chan recv'")),
	    dump_count(d, "GoBlockRecv"));
	ck_assert_int_eq(q(db, STATES("reason = 'select'")),
	    dump_count(d, "GoBlockSelect"));
	ck_assert_int_eq(q(db, STATES("reason = 'sync'")),
	    dump_count(d, "GoBlockSync"));
	ck_assert_int_eq(q(db, STATES("reason = 'cond'")),
	    dump_count(d, "GoBlockCond"));
	ck_assert_int_eq(q(db, STATES("reason = 'net'")),
	    dump_count(d, "GoBlockNet"));
	ck_assert_int_eq(q(db, STATES("reason = 'sleep'")),
	    dump_count(d, "GoSleep"));
	ck_assert_int_eq(q(db, STATES("reason = 'GC'")),
	    dump_count(d, "GoBlockGC"));
	ck_assert_int_eq(q(db, STATES("reason = 'other'")),
	    dump_count(d, "GoBlock"));
	ck_assert_int_eq(q(db, STATES("reason = 'forever'")),
	    dump_count(d, "GoStop"));
	waiting = dump_count(d, "GoWaiting");
	insys = dump_count(d, "GoInSyscall");
	sysblock = dump_count(d, "GoSysBlock");
	syscall = dump_count(d, "GoSysCall");
	ck_assert_int_eq(q(db, STATES("reason = 'unknown'")), waiting);
	ck_assert_int_eq(q(db, STATES("state = 'blocked' AND "
	    "reason = 'syscall'")), sysblock + insys);
	ck_assert_int_eq(q(db, STATES("state = 'blocked' AND "
	    "reason = 'syscall' AND json_extract(args, '$.handoff')")),
	    sysblock);
	/* Syscalls that returned without blocking, as instants. */
	ck_assert_int_eq(q(db, STATES("state = 'syscall'")),
	    syscall - sysblock);
	ck_assert_int_eq(q(db, STATES("state = 'syscall' AND dur = 0")),
	    syscall - sysblock);
	blocks = q(db, STATES("state = 'blocked'"));
	ck_assert_int_eq(blocks, dump_count(d, "GoBlockSend") +
	    dump_count(d, "GoBlockRecv") + dump_count(d, "GoBlockSelect") +
	    dump_count(d, "GoBlockSync") + dump_count(d, "GoBlockCond") +
	    dump_count(d, "GoBlockNet") + dump_count(d, "GoSleep") +
	    dump_count(d, "GoBlockGC") + dump_count(d, "GoBlock") +
	    dump_count(d, "GoStop") + waiting + insys + sysblock);
	/* Runnable, by what made it so. */
	ck_assert_int_eq(q(db, STATES("reason = 'unblocked'")),
	    dump_count(d, "GoUnblock"));
	ck_assert_int_eq(q(db, STATES("reason = 'preempted'")),
	    dump_count(d, "GoPreempt"));
	ck_assert_int_eq(q(db, STATES("reason = 'runtime.Gosched'")),
	    dump_count(d, "GoSched"));
	ck_assert_int_eq(q(db, STATES("state = 'runnable' AND "
	    "reason = 'syscall'")), dump_count(d, "GoSysExit"));
	ck_assert_int_eq(q(db, STATES("reason = 'created'")),
	    dump_count(d, "GoCreate") - waiting - insys);

	/* GC, STW, heap, P, annotations, CPU samples. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_gc WHERE name = 'GC'"),
	    dump_count(d, "GCStart"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_gc WHERE "
	    "name = 'GC' AND json_extract(args, '$.seq') IS NOT NULL"),
	    dump_count(d, "GCStart"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_gc WHERE "
	    "name = 'sweep'"), dump_count(d, "GCSweepStart"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_gc WHERE "
	    "name = 'mark assist'"), dump_count(d, "GCMarkAssistStart"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_stw"),
	    dump_count(d, "GCSTWStart"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_stw WHERE kind = 'gc' "
	    "AND reason IN ('GC mark termination', 'GC sweep termination')"),
	    dump_count(d, "GCSTWStart"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM counter c JOIN str n ON "
	    "n.id = c.name_id WHERE n.s = 'HeapAlloc'"),
	    dump_count(d, "HeapAlloc"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM counter c JOIN str n ON "
	    "n.id = c.name_id WHERE n.s = 'HeapGoal'"),
	    dump_count(d, "HeapGoal"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM counter c JOIN str n ON "
	    "n.id = c.name_id WHERE n.s = 'GOMAXPROCS'"),
	    dump_count(d, "Gomaxprocs"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN track t ON "
	    "t.id = s.track_id WHERE t.kind = 'go-proc'"),
	    dump_count(d, "ProcStart"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str c ON "
	    "c.id = s.category_id WHERE c.s = 'region'"),
	    dump_count(d, "UserRegion") / 2);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str c ON "
	    "c.id = s.category_id WHERE c.s = 'log'"),
	    dump_count(d, "UserLog"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str c ON "
	    "c.id = s.category_id WHERE c.s = 'task'"),
	    dump_count(d, "UserTaskCreate"));
	ck_assert_int_eq(q(db, "SELECT count(*) FROM sample s JOIN str e ON "
	    "e.id = s.event_id WHERE e.s = 'cpu' AND s.callsite_id IS NOT NULL "
	    "AND json_extract(s.labels, '$.goid') > 0"),
	    dump_count(d, "CPUSample"));
	ck_assert_int_eq(res.samples, dump_count(d, "CPUSample"));
	tr_db_free(db);
}
END_TEST

START_TEST(test_store_tiling)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;

	db = import("gen119.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	/*
	 * A goroutine's running, runnable and blocked slices follow one
	 * another without gap or overlap, from its first to its last.
	 */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM (SELECT ts, lag(ts + dur) "
	    "OVER (PARTITION BY goid ORDER BY ts, id) AS prev FROM go_state "
	    "WHERE state IN ('running', 'runnable', 'blocked')) "
	    "WHERE prev IS NOT NULL AND prev != ts"), 0);
	/* An ended goroutine's last slice ends when it does. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine g WHERE "
	    "ended IS NOT NULL AND ended != (SELECT max(ts + dur) FROM "
	    "go_state s WHERE s.goid = g.goid)"), 0);
	ck_assert_int_gt(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "ended IS NOT NULL"), 10);
	/* A created goroutine's first slice starts at its creation. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine g WHERE "
	    "created IS NOT NULL AND created != (SELECT min(ts) FROM "
	    "go_state s WHERE s.goid = g.goid)"), 0);
	/* What is still open at the end is marked so, and ends there. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE "
	    "json_extract(args, '$.unfinished') AND ts + dur != "
	    "(SELECT ts_max FROM source)"), 0);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine g WHERE "
	    "ended IS NULL AND NOT EXISTS (SELECT 1 FROM go_state s WHERE "
	    "s.goid = g.goid AND json_extract(s.args, '$.unfinished'))"), 0);
	/* Running slices say on which P and thread. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE "
	    "state = 'running' AND (json_extract(args, '$.p') IS NULL OR "
	    "json_extract(args, '$.m') IS NULL)"), 0);
	/* Ps run one goroutine at a time. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM (SELECT ts, lag(ts + dur) "
	    "OVER (PARTITION BY json_extract(args, '$.p') ORDER BY ts, id) AS "
	    "prev FROM go_state WHERE state = 'running') WHERE prev > ts"), 0);
	tr_db_free(db);
}
END_TEST

START_TEST(test_store_fixture)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;

	db = import("go119-fixture.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(res.samples, 8);
	/* Ticks to ns: the first event at ticks * 1e9 / frequency. */
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, "
	    "'$.ticks_per_second') FROM source"), 38209879);
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, '$.first_tick') "
	    "FROM source"), 17911231802);
	ck_assert_int_eq(q(db, "SELECT ts_min FROM source"), 468759186649);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM source WHERE "
	    "clock = 'go-ticks' AND format = 'gotrace' AND "
	    "format_version = '1.19'"), 1);
	/*
	 * Goroutine 24 blocks on sync at 132033 ns into the trace (dump:
	 * "132033 GoBlockSync p=1 g=24 off=669"), with the blocking stack.
	 */
	ck_assert_int_eq(q(db, "SELECT ts - (SELECT ts_min FROM source) FROM "
	    "go_state WHERE goid = 24 AND reason = 'sync' ORDER BY ts LIMIT 1"),
	    132033);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state s JOIN "
	    "callsite c ON c.id = s.callsite_id JOIN frame f ON "
	    "f.id = c.frame_id WHERE s.goid = 24 AND s.reason = 'sync' AND "
	    "f.name LIKE 'sync.%'"), 1);
	/* The task, its two regions per worker, its logs. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM track WHERE "
	    "kind = 'go-task' AND name = 'fixture-task' AND ref = 1"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str n ON "
	    "n.id = s.name_id WHERE n.s = 'worker-region'"), 4);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str n ON "
	    "n.id = s.name_id WHERE n.s = 'phase' AND "
	    "json_extract(s.args, '$.message') IN ('start', 'end')"), 2);
	/* Goroutines existing at the start are marked as such. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM track WHERE "
	    "kind = 'goroutine' AND json_extract(meta, '$.at_start')"), 6);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "goid = 1 AND name = 'runtime.main'"), 1);
	tr_db_free(db);
}
END_TEST

START_TEST(test_min)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;

	/*
	 * Goroutine 1 is created at tick 1002, starts at 1004 and ends at
	 * 1005, at 1 MHz: runnable 2000 ns, running 1000 ns.
	 */
	db = import("min119.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(q(db, "SELECT ts_min FROM source"), 1001000);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state"), 2);
	ck_assert_int_eq(q(db, "SELECT ts FROM go_state WHERE state = "
	    "'runnable' AND reason = 'created' AND dur = 2000"), 1002000);
	ck_assert_int_eq(q(db, "SELECT ts FROM go_state WHERE state = "
	    "'running' AND dur = 1000 AND args = '{\"p\":0,\"m\":7}'"),
	    1004000);
	ck_assert_int_eq(q(db, "SELECT created FROM go_goroutine WHERE "
	    "goid = 1 AND ended = 1005000 AND name = 'main.worker'"), 1002000);
	/* Created at main.main (stack 2), to run main.worker (stack 1). */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine g JOIN "
	    "callsite c ON c.id = g.callsite_id JOIN frame f ON "
	    "f.id = c.frame_id WHERE f.name = 'main.main' AND f.line = 12 AND "
	    "f.file = 'main.go'"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN track t ON "
	    "t.id = s.track_id WHERE t.kind = 'go-proc' AND t.ref = 0 AND "
	    "s.ts = 1003000 AND s.dur = 3000"), 1);
	tr_db_free(db);
}
END_TEST

/* --- errors ---------------------------------------------------------- */

static const struct {
	const char	*file;
	const char	*msg;
} bad[] = {
	{ "bad-gotrace-bigtime.trace",
	  "offset 20: event ProcStart: time out of range" },
	{ "bad-gotrace-dupstring.trace",
	  "offset 56: string id 1 defined twice" },
	{ "bad-gotrace-g0.trace", "offset 65: event GoEnd on goroutine 0" },
	{ "bad-gotrace-longvarint.trace", "offset 20: malformed varint" },
	{ "bad-gotrace-nargs.trace",
	  "offset 56: event ProcStop has 2 arguments, want 1" },
	{ "bad-gotrace-nofreq.trace", "offset 88: no Frequency event at the "
	  "end of the trace (truncated?)" },
	{ "bad-gotrace-proc.trace",
	  "offset 16: batch for P 4294967296, more than 2147483647" },
	{ "bad-gotrace-region.trace", "offset 80: event UserRegion: end of "
	  "'main.main' does not match the innermost open region of "
	  "goroutine 1" },
	{ "bad-gotrace-sequence.trace", "offset 65: no consistent ordering "
	  "of events: GoStart of goroutine 1 (sequence 3) does not follow "
	  "from its state (sequence 1, runnable)" },
	{ "bad-gotrace-stack.trace", "offset 56: undefined stack id 5" },
	{ "bad-gotrace-string.trace",
	  "offset 77: stack 1 frame 0: undefined string id 9" },
	{ "bad-gotrace-time.trace", "offset 64: event GoStart: time stamps "
	  "out of order (tick 502 after 1002)" },
	{ "bad-gotrace-transition.trace",
	  "offset 69: event ProcStop: P 0 is still running "
	  "goroutine 1" },
	{ "bad-gotrace-truncated.trace", "offset 20: truncated String event" },
	{ "bad-gotrace-type.trace", "offset 20: unknown event type 63" },
	{ "bad-gotrace-varint.trace", "offset 20: truncated ProcStart event" },
	{ "bad-gotrace-version.trace", "offset 0: unsupported Go trace version "
	  "1.5: traces before Go 1.7 carry no symbols" },
};

START_TEST(test_bad)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	char			 buf[2048], want[2048];

	ck_assert_ptr_null(import(bad[_i].file, NULL, &res, &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_error_format(&err, buf, sizeof buf);
	snprintf(want, sizeof want, "%s: %s", bad[_i].file, bad[_i].msg);
	ck_assert_str_eq(buf, want);
}
END_TEST

/*
 * Every prefix of a good trace fails with a located error and leaves no
 * source behind, or (the generation format, cut between batches) imports.
 */
static const char *const cuts[] = { "min119.trace", "min122.trace" };

START_TEST(test_truncations)
{
	struct tr_import_opts	 o;
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_input		*in;
	struct tr_db		*db;
	unsigned char		*data;
	size_t			 len, n;
	char			*path = data_path(cuts[_i]);
	int			 rc, ok = 0;
	FILE			*f;

	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	data = tr_xmalloc(4096);
	len = fread(data, 1, 4096, f);
	fclose(f);
	free(path);
	tr_import_opts_init(&o);
	o.format = tr_importer_find("gotrace");
	for (n = 0; n < len; n++) {
		tr_error_init(&err);
		db = tr_db_open(":memory:", 0, &err);
		in = tr_input_mem("cut", data, n);
		rc = tr_import_input(db, in, &o, &res, &err);
		if (rc == 0 && _i == 1 && n > 16) {
			ok++;
			ck_assert_int_eq(q(db, "SELECT count(*) FROM source"),
			    1);
		} else {
			ck_assert_int_eq(rc, -1);
			ck_assert_int_eq(err.code, TR_EDATA);
			ck_assert_int_ge(err.offset, 0);
			ck_assert_int_le(err.offset, (int64_t)n);
			ck_assert_int_eq(q(db, "SELECT count(*) FROM source"),
			    0);
		}
		tr_input_free(in);
		tr_db_free(db);
	}
	free(data);
}
END_TEST

/* --- the generation format ------------------------------------------ */

/*
 * Go's own text traces (src/internal/trace/testdata/tests), converted to
 * binary: each says SUCCESS or FAILURE "regexp" for the error.
 */
static const char *const gotests[] = {
	"go122-annotations", "go122-annotations-stress",
	"go122-create-syscall-reuse-thread-id",
	"go122-create-syscall-with-p", "go122-fail-first-gen-first",
	"go122-syscall-steal-proc-gen-boundary-bare-m",
	"go122-syscall-steal-proc-gen-boundary-reacquire-new-proc-bare-m",
	"go122-syscall-steal-proc-gen-boundary-reacquire-new-proc",
	"go122-syscall-steal-proc-gen-boundary",
	"go122-syscall-steal-proc-reacquire-new-proc-bare-m",
	"go122-syscall-steal-proc-simple-bare-m",
	"go122-syscall-steal-proc-sitting-in-syscall", "go123-sync",
	"go125-sync"
};

START_TEST(test_gotests)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;
	char			*path, name[160], line[512], *q1, *q2;
	FILE			*f;
	regex_t			 re;
	int			 success = -1;

	snprintf(name, sizeof name, "txtar/%s.test", gotests[_i]);
	path = data_path(name);
	ck_assert_msg((f = fopen(path, "r")) != NULL, "%s", path);
	free(path);
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "-- expect --", 12) == 0 &&
		    fgets(line, sizeof line, f) != NULL) {
			success = strncmp(line, "SUCCESS", 7) == 0;
			break;
		}
	fclose(f);
	ck_assert_int_ne(success, -1);
	snprintf(name, sizeof name, "%s.trace", gotests[_i]);
	db = import(name, NULL, &res, &err);
	if (success) {
		ck_assert_msg(db != NULL, "%s: %s", name, err.msg);
		ck_assert_int_gt(q(db, "SELECT json_extract(meta, "
		    "'$.generations') FROM source"), 0);
		tr_db_free(db);
		return;
	}
	ck_assert_msg(db == NULL, "%s imports but must fail", name);
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_int_ge(err.offset, 16);
	q1 = strchr(line, '"');
	q2 = strrchr(line, '"');
	ck_assert(q1 != NULL && q2 > q1);
	*q2 = '\0';
	ck_assert_int_eq(regcomp(&re, q1 + 1, REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_msg(regexec(&re, err.msg, 0, NULL, 0) == 0, "%s: '%s' does "
	    "not match '%s'", name, err.msg, q1 + 1);
	regfree(&re);
}
END_TEST

START_TEST(test_min122)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;

	/*
	 * Batch time 100 ticks of 64 ns; each event 1 tick after the one
	 * before: ProcStatus 6464, GoStatus 6528, GoCreate 6592, GoBlock
	 * 6656, GoStart 6720, GoDestroy 6784, ProcStop 6848.
	 */
	db = import("min122.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM source WHERE "
	    "clock = 'monotonic' AND format_version = '1.22' AND ts_min = 6464 "
	    "AND ts_max = 6848"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state"), 4);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 1 "
	    "AND state = 'running' AND ts = 6528 AND dur = 128 AND "
	    "args = '{\"p\":0,\"m\":1}'"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state s JOIN "
	    "callsite c ON c.id = s.callsite_id JOIN frame f ON "
	    "f.id = c.frame_id WHERE goid = 1 AND state = 'blocked' AND "
	    "reason = 'chan recv' AND ts = 6656 AND dur = 192 AND "
	    "json_extract(args, '$.reason') = 'chan receive' AND "
	    "json_extract(args, '$.unfinished') AND "
	    "f.name = 'main.main' AND f.line = 12"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 2 "
	    "AND state = 'runnable' AND reason = 'created' AND ts = 6592 AND "
	    "dur = 128"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 2 "
	    "AND state = 'running' AND ts = 6720 AND dur = 64"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "goid = 2 AND name = 'main.worker' AND created = 6592 AND "
	    "ended = 6784 AND creator = 1"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "goid = 1 AND created IS NULL"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN track t ON "
	    "t.id = s.track_id WHERE t.kind = 'go-proc' AND t.ref = 0 AND "
	    "s.ts = 6464 AND s.dur = 384"), 1);
	tr_db_free(db);
}
END_TEST

START_TEST(test_annotations122)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct lines		 l;
	struct tr_db		*db;
	size_t			 i;

	memset(&l, 0, sizeof l);
	db = import("go122-annotations.trace", &l, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	/* Every timed event of the text trace, each once. */
	ck_assert_uint_eq(l.n, 88);
	for (i = 1; i < l.n; i++)
		ck_assert(strtoll(l.v[i - 1], NULL, 10) <
		    strtoll(l.v[i], NULL, 10));
	lines_free(&l);
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, '$.events') FROM "
	    "source"), 88);
	/* The task with its regions and its log, on its track. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN track t ON "
	    "t.id = s.track_id WHERE t.kind = 'go-task' AND t.name = 'task0' "
	    "AND t.ref = 1"), 6);
	ck_assert_int_eq(q(db, "SELECT dur FROM slice s JOIN str n ON "
	    "n.id = s.name_id WHERE n.s = 'task0'"), 108288);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str n ON "
	    "n.id = s.name_id WHERE n.s = 'key0' AND json_extract(s.args, "
	    "'$.message') = '0123456789abcdef'"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str n ON "
	    "n.id = s.name_id WHERE n.s = 'unended region' AND "
	    "json_extract(s.args, '$.ended_by') = 'goroutine end'"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str n ON "
	    "n.id = s.name_id JOIN track t ON t.id = s.track_id WHERE "
	    "n.s = 'post-existing region' AND t.name = 'background' AND "
	    "json_extract(s.args, '$.unfinished')"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_stw WHERE "
	    "kind = 'other' AND reason = 'start trace' AND dur = 15168"), 1);
	/* Goroutine 1 blocks on sync, is woken by 9, runs again. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 1 "
	    "AND state = 'runnable' AND reason = 'unblocked' AND "
	    "json_extract(args, '$.waker') = 9"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE "
	    "state = 'blocked' AND reason = 'chan recv'"), 2);
	tr_db_free(db);
}
END_TEST

/* A real Go 1.22 trace of many tasks, regions and logs. */
START_TEST(test_annotations_stress122)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;

	db = import("go122-annotations-stress.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	/* The text trace's timed events, counted by type. */
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, '$.events') FROM "
	    "source"), 572);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str c ON "
	    "c.id = s.category_id WHERE c.s = 'region'"), 58);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str c ON "
	    "c.id = s.category_id WHERE c.s = 'log'"), 76);
	/* 20 begun and ended; task 2 ends with no begin in the trace. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str c ON "
	    "c.id = s.category_id WHERE c.s = 'task'"), 21);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "created IS NOT NULL"), 43);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "ended IS NOT NULL"), 40);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE "
	    "state = 'running'"), 66);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE "
	    "state = 'blocked' AND reason = 'syscall' AND "
	    "json_extract(args, '$.handoff') = 0 AND dur = 400 * 64"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN track t ON "
	    "t.id = s.track_id WHERE t.kind = 'go-proc'"), 49 + 8 - 7);
	/* Every goroutine's states follow one another without gaps. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM (SELECT ts, lag(ts + dur) "
	    "OVER (PARTITION BY goid ORDER BY ts, id) AS prev FROM go_state "
	    "WHERE state IN ('running', 'runnable', 'blocked')) "
	    "WHERE prev IS NOT NULL AND prev != ts"), 0);
	tr_db_free(db);
}
END_TEST

/* Go 1.25, synthetic: every kind of transition and resource event. */
START_TEST(test_rich125)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;

	db = import("rich125.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	/* G1's syscall from tick 114 to 124; M2 stole its P at 121. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 1 "
	    "AND state = 'blocked' AND reason = 'syscall' AND ts = 114 * 64 "
	    "AND dur = 10 * 64 AND json_extract(args, '$.handoff') AND "
	    "json_extract(args, '$.handoff_ts') = 121 * 64"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 1 "
	    "AND state = 'runnable' AND reason = 'syscall' AND ts = 124 * 64 "
	    "AND dur = 2 * 64"), 1);
	/* The label applies to the running slice it falls in. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 1 "
	    "AND state = 'running' AND json_extract(args, '$.label') = "
	    "'GC (idle)' AND ts = 102 * 64"), 1);
	/* Coroutine switches: G1 to G3 and back as G3 ends. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 3 "
	    "AND state = 'blocked' AND ts = 109 * 64 AND dur = 18 * 64"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 3 "
	    "AND state = 'runnable' AND json_extract(args, '$.waker') = 1"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 1 "
	    "AND state = 'runnable' AND json_extract(args, '$.waker') = 3"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "goid = 3 AND ended IS NOT NULL"), 1);
	/* At tick 125 with ProcStart on M1: Go moves the later one 1 ns. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_state WHERE goid = 2 "
	    "AND state = 'runnable' AND reason = 'preempted' AND ts = 125 * 64 "
	    "+ 1 AND ts + dur = 145 * 64"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_goroutine WHERE "
	    "goid = 2 AND ended = 147 * 64 AND creator = 1 AND "
	    "name = 'main.worker'"), 1);
	/* Ps: P0 on M1 until stolen, on M2 to the end; P1 on M1. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN track t ON "
	    "t.id = s.track_id WHERE t.kind = 'go-proc' AND ((t.ref = 0 AND "
	    "s.ts = 101 * 64 AND s.dur = 20 * 64 AND s.args = '{\"m\":1}') "
	    "OR (t.ref = 0 AND s.ts = 122 * 64 AND s.dur = 26 * 64) OR "
	    "(t.ref = 1 AND s.ts = 125 * 64 AND s.dur = 13 * 64))"), 3);
	/* GC, assist, sweep, STW, counters, the task, the CPU sample. */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_gc WHERE (name = 'GC' "
	    "AND ts = 107 * 64 AND dur = 22 * 64 AND args = '{\"seq\":1}') OR "
	    "(name = 'mark assist' AND ts = 110 * 64) OR (name = 'sweep' AND "
	    "json_extract(args, '$.reclaimed') = 1024)"), 3);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM go_stw WHERE "
	    "reason = 'GOMAXPROCS' AND kind = 'other' AND ts = 105 * 64"), 1);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM counter c JOIN str n ON "
	    "n.id = c.name_id WHERE (n.s = 'HeapAlloc' AND c.value = 1000) OR "
	    "(n.s = 'HeapGoal' AND c.value = 2000) OR (n.s = 'GOMAXPROCS' AND "
	    "c.value = 4)"), 3);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM slice s JOIN str n ON "
	    "n.id = s.name_id WHERE (n.s = 'job' AND s.dur = 4 * 64) OR "
	    "(n.s = 'step' AND s.dur = 2 * 64) OR (n.s = 'key' AND "
	    "json_extract(s.args, '$.message') = 'value')"), 3);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM sample s JOIN callsite c "
	    "ON c.id = s.callsite_id JOIN frame f ON f.id = c.frame_id WHERE "
	    "s.ts = 115 * 64 AND s.labels = '{\"goid\":1,\"p\":0,\"m\":1}' "
	    "AND f.name = 'main.main' AND c.depth = 1"), 1);
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, "
	    "'$.clock_snapshots[0].trace_ns') FROM source"), 6400);
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, "
	    "'$.clock_snapshots[0].mono_ns') FROM source"), 123456789);
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, '$.events') FROM "
	    "source"), 43);
	tr_db_free(db);
}
END_TEST

START_TEST(test_sync125)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_db		*db;

	db = import("go125-sync.trace", NULL, &res, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	ck_assert_int_eq(q(db, "SELECT json_array_length(meta, "
	    "'$.clock_snapshots') FROM source"), 3);
	/*
	 * Generation 2: batch time 19 ticks and delta 1 at 500 MHz (2 ns a
	 * tick): trace 40 ns = monotonic 199 ns = 1740755050.000000123 s.
	 */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM source, json_each(meta, "
	    "'$.clock_snapshots') j WHERE json_extract(j.value, "
	    "'$.generation') = 2 AND json_extract(j.value, '$.trace_ns') = 40 "
	    "AND json_extract(j.value, '$.mono_ns') = 199 AND "
	    "json_extract(j.value, '$.wall_ns') = 1740755050000000123"), 1);
	ck_assert_int_eq(q(db, "SELECT json_extract(meta, '$.generations') "
	    "FROM source"), 3);
	tr_db_free(db);
}
END_TEST

static const struct {
	const char	*file;
	const char	*msg;
} bad2[] = {
	{ "bad-gotrace2-batch.trace",
	  "offset 16: batch 1: expected a batch, found event type 8" },
	{ "bad-gotrace2-bigtime.trace", "offset 40: generation 1, batch 2: "
	  "event ProcStatus: time out of range" },
	{ "bad-gotrace2-dupstring.trace", "offset 182: generation 1, batch 5: "
	  "multiple strings with the same ID: id=1" },
	{ "bad-gotrace2-event.trace",
	  "offset 44: generation 1, batch 2: event GoStatus: truncated "
	  "event" },
	{ "bad-gotrace2-frame.trace", "offset 81: generation 1, batch 3: "
	  "found invalid func string ID 9 for stack 1" },
	{ "bad-gotrace2-gen0.trace",
	  "offset 16: batch 1: invalid generation number 0" },
	{ "bad-gotrace2-genorder.trace", "offset 182: generation 3, batch 6: "
	  "generations out of order (after generation 1)" },
	{ "bad-gotrace2-nofreq.trace",
	  "offset 148: generation 1: no frequency event found" },
	{ "bad-gotrace2-sequence.trace", "offset 58: generation 1, batch 2: "
	  "broken trace: failed to advance: no event can come next (GoStart "
	  "on thread 1 of goroutine 2 (sequence 5; it is Runnable, sequence "
	  "0))" },
	{ "bad-gotrace2-size.trace",
	  "offset 16: batch 1: invalid batch size 70000, maximum is 65536" },
	{ "bad-gotrace2-stack.trace", "offset 54: generation 1, batch 2: "
	  "found invalid stack ID 9 for event GoBlock" },
	{ "bad-gotrace2-status.trace", "offset 40: generation 1, batch 2: "
	  "invalid status for proc 0: 9" },
	{ "bad-gotrace2-string.trace", "offset 54: generation 1, batch 2: "
	  "found invalid string ID 9 for event GoBlock" },
	{ "bad-gotrace2-transition.trace", "offset 44: generation 1, batch 2: "
	  "event GoDestroy: expected a goroutine but didn't have one" },
	{ "bad-gotrace2-truncated.trace", "offset 35: batch 2: truncated "
	  "batch: 20 bytes of data, 4 left in the file" },
	{ "bad-gotrace2-type.trace", "offset 40: generation 1, batch 2: "
	  "found invalid event type: 60" },
	{ "bad-gotrace2-version.trace", "offset 0: unsupported Go trace "
	  "version 1.24 (the generation format has 1.22, 1.23, 1.25 and "
	  "1.26)" },
};

START_TEST(test_bad2)
{
	struct tr_import_result	 res;
	struct tr_error		 err;
	char			 buf[2048], want[2048];

	ck_assert_ptr_null(import(bad2[_i].file, NULL, &res, &err));
	ck_assert_int_eq(err.code, TR_EDATA);
	tr_error_format(&err, buf, sizeof buf);
	snprintf(want, sizeof want, "%s: %s", bad2[_i].file, bad2[_i].msg);
	ck_assert_str_eq(buf, want);
}
END_TEST

/* --- header and map -------------------------------------------------- */

START_TEST(test_header)
{
	ck_assert_int_eq(tr_gotrace_header_version((const unsigned char *)
	    "go 1.19 trace\0\0\0", 16), 1019);
	ck_assert_int_eq(tr_gotrace_header_version((const unsigned char *)
	    "go 1.7 trace\0\0\0\0", 16), 1007);
	ck_assert_int_eq(tr_gotrace_header_version((const unsigned char *)
	    "go 1.22 trace\0\0\0", 16), 1022);
	ck_assert_int_eq(tr_gotrace_header_version((const unsigned char *)
	    "go 1.19 trace\0\0\1", 16), 0);
	ck_assert_int_eq(tr_gotrace_header_version((const unsigned char *)
	    "go 1.19 trace\0\0", 15), 0);
	ck_assert_int_eq(tr_gotrace_header_version((const unsigned char *)
	    "go 1.x trace\0\0\0\0", 16), 0);
	ck_assert_int_eq(tr_gotrace_header_version((const unsigned char *)
	    "go 1.1234 trace\0", 16), 0);
	ck_assert_ptr_eq(tr_importer_detect((const unsigned char *)
	    "go 1.21 trace\0\0\0\1", 17), tr_importer_find("gotrace"));
}
END_TEST

/*
 * Slices wait in runs before they are written; past the cap on waiting
 * slices or tracks, every run is written as it stands.  With a cap of 3,
 * the same trace gives the same slices in many more runs.
 */
START_TEST(test_run_cap)
{
	struct tr_import_result	 res;
	struct tr_import_opts	 o;
	struct tr_error		 err;
	struct tr_db		*a, *b;
	char			*path = data_path("gen119.trace"), *sa, *sb;
	int64_t			 ra, rb;

	a = import("gen119.trace", NULL, &res, &err);
	ck_assert_msg(a != NULL, "%s", err.msg);
	b = tr_db_open(":memory:", 0, &err);
	ck_assert_ptr_nonnull(b);
	tr_import_opts_init(&o);
	o.run_cap = 3;
	ck_assert_msg(tr_import_file(b, path, "gen119.trace", &o, &res,
	    &err) == 0, "%s", err.msg);
	ck_assert_int_eq(res.slices, 3556);
	sa = slices_text(a);
	sb = slices_text(b);
	ck_assert_str_eq(sa, sb);
	ra = q(a, "SELECT count(*) FROM slice_run");
	rb = q(b, "SELECT count(*) FROM slice_run");
	ck_assert_int_eq(ra, 51);
	ck_assert_int_ge(rb, 3556 / 3);
	ck_assert_int_eq(q(b, "SELECT sum(n) FROM slice_run"), 3556);
	ck_assert_int_eq(q(b, "SELECT count(*) FROM slice WHERE ts < run_ts "
	    "OR ts + dur > run_end_ts"), 0);
	free(sa);
	free(sb);
	free(path);
	tr_db_free(a);
	tr_db_free(b);
}
END_TEST

START_TEST(test_map)
{
	struct tr_imap	 m;
	uint64_t		*keys, k;
	size_t			 n, i;
	static char		 vals[1];

	tr_imap_init(&m);
	ck_assert_ptr_null(tr_imap_get(&m, 5));
	ck_assert_ptr_null(tr_imap_del(&m, 5));
	/* Keys that collide in the low bits, inserted and removed. */
	for (i = 0; i < 5000; i++)
		tr_imap_put(&m, (uint64_t)i << 20, vals + (i % 1));
	for (i = 0; i < 5000; i += 2)
		ck_assert_ptr_eq(tr_imap_del(&m, (uint64_t)i << 20),
		    vals);
	ck_assert_uint_eq(m.count, 2500);
	for (i = 0; i < 5000; i++) {
		k = (uint64_t)i << 20;
		if (i % 2)
			ck_assert_ptr_eq(tr_imap_get(&m, k), vals);
		else
			ck_assert_ptr_null(tr_imap_get(&m, k));
	}
	tr_imap_put(&m, UINT64_MAX, vals);
	tr_imap_put(&m, 0, vals);
	keys = tr_imap_keys(&m, &n);
	ck_assert_uint_eq(n, 2502);
	ck_assert_uint_eq(keys[0], 0);
	ck_assert_uint_eq(keys[1], (uint64_t)1 << 20);
	ck_assert_uint_eq(keys[n - 1], UINT64_MAX);
	for (i = 1; i < n; i++)
		ck_assert(keys[i - 1] < keys[i]);
	free(keys);
	tr_imap_release(&m);
}
END_TEST

START_TEST(test_json_str)
{
	struct tr_buf	b;

	tr_buf_init(&b);
	tr_gotrace_json_str(&b, "a\"b\\c\n\x01", 7);
	ck_assert_str_eq(b.data, "\"a\\\"b\\\\c\\u000a\\u0001\"");
	tr_buf_release(&b);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("import-gotrace");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_map);
	tcase_add_test(tc, test_run_cap);
	tcase_add_test(tc, test_json_str);
	tcase_add_test(tc, test_fixture_dump);
	tcase_add_loop_test(tc, test_dumpsums, 0,
	    sizeof dumps / sizeof *dumps);
	tcase_add_test(tc, test_store_counts);
	tcase_add_test(tc, test_store_tiling);
	tcase_add_test(tc, test_store_fixture);
	tcase_add_test(tc, test_min);
	tcase_add_loop_test(tc, test_bad, 0, sizeof bad / sizeof *bad);
	tcase_add_loop_test(tc, test_truncations, 0,
	    sizeof cuts / sizeof *cuts);
	tcase_add_loop_test(tc, test_gotests, 0,
	    sizeof gotests / sizeof *gotests);
	tcase_add_test(tc, test_min122);
	tcase_add_test(tc, test_annotations122);
	tcase_add_test(tc, test_annotations_stress122);
	tcase_add_test(tc, test_rich125);
	tcase_add_test(tc, test_sync125);
	tcase_add_loop_test(tc, test_bad2, 0, sizeof bad2 / sizeof *bad2);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
