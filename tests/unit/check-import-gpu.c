/*
 * Unit tests for the GPU telemetry importers (nvidia-smi CSV, dmon, pmon,
 * nvtop), their shared helpers and the wall-clock module.  Zone tests use
 * tzdata (Europe/Berlin, Europe/Amsterdam) and POSIX TZ strings.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "store/db.h"
#include "base/error.h"
#include "import/gpu-import.h"
#include "import/importer.h"
#include "base/input.h"
#include "base/util.h"
#include "base/wallclock.h"

#define NS	1000000000LL

/* --- helpers ---------------------------------------------------------- */

static struct tr_db *
mem_db(void)
{
	struct tr_error	 err;
	struct tr_db	*db;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	return (db);
}

/*
 * Import 'text' as input 'name' with options "k=v" (NULL-terminated;
 * "format=NAME" forces the importer); returns the import's rc and leaves
 * the formatted error in 'msg'.
 */
static int
import(struct tr_db *db, const char *name, const char *text, char *msg,
    const char *const *opts)
{
	struct tr_import_opts	 o;
	struct tr_import_result	 res;
	struct tr_error		 err;
	struct tr_input		*in;
	char			*kv[TR_IMPORT_MAXOPTS];
	int			 n = 0, rc;

	tr_import_opts_init(&o);
	for (; opts != NULL && *opts != NULL; opts++) {
		kv[n] = tr_xstrdup(*opts);
		*strchr(kv[n], '=') = '\0';
		if (strcmp(kv[n], "format") == 0)
			o.format = tr_importer_find(kv[n] + 7);
		else
			tr_import_opts_set(&o, kv[n], kv[n] + strlen(kv[n]) +
			    1);
		n++;
	}
	tr_error_init(&err);
	in = tr_input_mem(name, text, strlen(text));
	rc = tr_import_input(db, in, &o, &res, &err);
	tr_input_free(in);
	msg[0] = '\0';
	if (rc != 0)
		tr_error_format(&err, msg, 1024);
	while (n > 0)
		free(kv[--n]);
	return (rc);
}

/* All rows of 'sql', columns joined by '|', rows ended by '\n'. */
static char *
rows(struct tr_db *db, const char *sql)
{
	struct tr_error	 err;
	struct tr_buf	 b;
	sqlite3_stmt	*st;
	int		 i;

	tr_error_init(&err);
	st = tr_db_prepare(db, sql, &err);
	ck_assert_msg(st != NULL, "%s", err.msg);
	tr_buf_init(&b);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char *t = sqlite3_column_text(st, i);

			if (i > 0)
				tr_buf_addc(&b, '|');
			tr_buf_adds(&b, t ? (const char *)t : "NULL");
		}
		tr_buf_addc(&b, '\n');
	}
	sqlite3_finalize(st);
	return (b.data);
}

#define ck_rows(db, sql, want) do {					\
	char	*got_ = rows((db), (sql));				\
	ck_assert_str_eq(got_, (want));					\
	free(got_);							\
} while (0)

static const char *const berlin[] = { "tz=Europe/Berlin", NULL };

/* --- wallclock -------------------------------------------------------- */

START_TEST(test_civil)
{
	struct tr_civil	c = { 2024, 2, 29, 23, 59, 59, 999999999 };

	ck_assert_int_eq(tr_civil_valid(&c), 1);
	c.year = 2023;
	ck_assert_int_eq(tr_civil_valid(&c), 0);
	c.year = 2000;
	ck_assert_int_eq(tr_civil_valid(&c), 1);
	c.year = 1900;
	ck_assert_int_eq(tr_civil_valid(&c), 0);
	c = (struct tr_civil){ 2262, 1, 1, 0, 0, 0, 0 };
	ck_assert_int_eq(tr_civil_valid(&c), 0);
	c.year = 1677;
	ck_assert_int_eq(tr_civil_valid(&c), 0);
	c = (struct tr_civil){ 2024, 2, 30, 0, 0, 0, 0 };
	ck_assert_int_eq(tr_civil_valid(&c), 0);
	c.day = 1;
	c.hour = 24;
	ck_assert_int_eq(tr_civil_valid(&c), 0);
	c.hour = 0;
	c.sec = 60;
	ck_assert_int_eq(tr_civil_valid(&c), 0);

	c = (struct tr_civil){ 2024, 2, 28, 12, 0, 0, 0 };
	tr_civil_add_days(&c, 1);
	ck_assert_int_eq(c.mon * 100 + c.day, 229);
	tr_civil_add_days(&c, 1);
	ck_assert_int_eq(c.mon * 100 + c.day, 301);
	c = (struct tr_civil){ 2024, 12, 31, 12, 0, 0, 0 };
	tr_civil_add_days(&c, 1);
	ck_assert_int_eq(c.year * 10000 + c.mon * 100 + c.day, 20250101);
	tr_civil_add_days(&c, -366);
	ck_assert_int_eq(c.year * 10000 + c.mon * 100 + c.day, 20240101);
	ck_assert_int_eq(c.hour, 12);
}
END_TEST

/* Berlin by name and by its POSIX rule must agree, DST included. */
static void
check_berlin(const char *zone)
{
	struct tr_error		 err;
	struct tr_wallclock	*wc;
	struct tr_civil		 c;
	int64_t			 ns;

	tr_error_init(&err);
	wc = tr_wallclock_new(zone, &err);
	ck_assert_msg(wc != NULL, "%s", err.msg);
	/* Winter: UTC+1; summer: UTC+2 (2024-05-01 12:00 = 10:00Z). */
	c = (struct tr_civil){ 2024, 1, 16, 14, 44, 16, 977000000 };
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), 0);
	ck_assert_int_eq(ns, 1705412656977000000LL);
	c = (struct tr_civil){ 2024, 5, 1, 12, 0, 0, 0 };
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), 0);
	ck_assert_int_eq(ns, 1714557600LL * NS);
	/* 2024-03-31 02:30 does not exist; 01:59:59 and 03:00 do. */
	c = (struct tr_civil){ 2024, 3, 31, 2, 30, 0, 0 };
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), -1);
	c.hour = 3;
	c.min = 0;
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), 0);
	ck_assert_int_eq(ns, 1711846800LL * NS);
	/* 2023-10-29 02:30 happens twice: 00:30Z and 01:30Z. */
	c = (struct tr_civil){ 2023, 10, 29, 2, 30, 0, 0 };
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), 0);
	ck_assert_int_eq(ns, 1698539400LL * NS);
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, 1698542000LL * NS, &ns),
	    0);
	ck_assert_int_eq(ns, 1698543000LL * NS);
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, 1698539000LL * NS, &ns),
	    0);
	ck_assert_int_eq(ns, 1698539400LL * NS);
	ck_assert_int_eq(tr_wallclock_ambiguous(wc), 3);
	/* Back from instants: 10:00Z in May is 12:00 local. */
	tr_wallclock_to_civil(wc, 1714557600LL * NS + 5, &c);
	ck_assert_int_eq(c.hour * 10000 + c.min * 100 + c.sec, 120000);
	ck_assert_int_eq(c.nsec, 5);
	tr_wallclock_free(wc);
}

START_TEST(test_zone_berlin)
{
	check_berlin("Europe/Berlin");
	check_berlin("CET-1CEST,M3.5.0,M10.5.0/3");
}
END_TEST

/* Amsterdam moved from +0:19:32 to +0:20 at 1937-07-01 00:00 local. */
START_TEST(test_zone_odd_seconds)
{
	struct tr_error		 err;
	struct tr_wallclock	*wc;
	struct tr_civil		 c;
	int64_t			 ns;

	tr_error_init(&err);
	wc = tr_wallclock_new("Europe/Amsterdam", &err);
	ck_assert_msg(wc != NULL, "%s", err.msg);
	c = (struct tr_civil){ 1937, 6, 30, 23, 59, 59, 0 };
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), 0);
	ck_assert_int_eq(ns, -1025745573LL * NS);
	c = (struct tr_civil){ 1937, 7, 1, 0, 0, 10, 0 };
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), -1);
	c.sec = 28;
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), 0);
	ck_assert_int_eq(ns, -1025745572LL * NS);
	c.sec = 59;
	ck_assert_int_eq(tr_wallclock_to_utc(wc, &c, INT64_MIN, &ns), 0);
	ck_assert_int_eq(ns, -1025745541LL * NS);
	tr_wallclock_free(wc);
}
END_TEST

START_TEST(test_zone_env)
{
	struct tr_error		 err;
	struct tr_wallclock	*wc;
	const char		*tz;

	setenv("TZ", "UTC", 1);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_wallclock_new("Mars/Olympus_Mons", &err));
	ck_assert_int_eq(err.code, TR_EUSAGE);
	ck_assert_str_eq(err.msg, "unknown time zone 'Mars/Olympus_Mons': no "
	    "such zone file and not a POSIX TZ string (e.g. Europe/Berlin, "
	    "UTC, EST5EDT)");
	tr_error_init(&err);
	ck_assert_ptr_null(tr_wallclock_new("../../etc/passwd", &err));
	/* The option wins, and TZ is put back afterwards. */
	tr_error_init(&err);
	wc = tr_wallclock_new("Europe/Berlin", &err);
	ck_assert_ptr_nonnull(wc);
	ck_assert_str_eq(tr_wallclock_origin(wc), "option");
	ck_assert_str_eq(getenv("TZ"), "Europe/Berlin");
	tr_wallclock_free(wc);
	tz = getenv("TZ");
	ck_assert_str_eq(tz, "UTC");
	wc = tr_wallclock_new(NULL, &err);
	ck_assert_str_eq(tr_wallclock_zone(wc), "UTC");
	ck_assert_str_eq(tr_wallclock_origin(wc), "TZ");
	tr_wallclock_free(wc);
	setenv("TZ", "Nowhere/Special", 1);
	tr_error_init(&err);
	ck_assert_ptr_null(tr_wallclock_new(NULL, &err));
	ck_assert_str_eq(err.msg, "the TZ environment variable names an "
	    "unknown time zone 'Nowhere/Special'; give one with --tz");
	unsetenv("TZ");
	wc = tr_wallclock_new(NULL, &err);
	ck_assert_str_eq(tr_wallclock_origin(wc), "system");
	tr_wallclock_free(wc);
	ck_assert_ptr_null(getenv("TZ"));
	setenv("TZ", "UTC", 1);
}
END_TEST

START_TEST(test_parse_time)
{
	struct tr_error		 err;
	struct tr_wallclock	*wc;
	int64_t			 ns;

	tr_error_init(&err);
	wc = tr_wallclock_new("Europe/Berlin", &err);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-05-01 12:00:00", &ns), 0);
	ck_assert_int_eq(ns, 1714557600LL * NS);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-05-01T10:00:00Z", &ns),
	    0);
	ck_assert_int_eq(ns, 1714557600LL * NS);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-05-01 13:30:00.25+03:30",
	    &ns), 0);
	ck_assert_int_eq(ns, 1714557600LL * NS + 250000000);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024/05/01 12:00", &ns), 0);
	ck_assert_int_eq(ns, 1714557600LL * NS);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-05-01", &ns), 0);
	ck_assert_int_eq(ns, (1714557600LL - 12 * 3600) * NS);
	ck_assert_int_eq(tr_wallclock_parse(wc, "@1714557600.5", &ns), 0);
	ck_assert_int_eq(ns, 1714557600LL * NS + 500000000);
	ck_assert_int_eq(tr_wallclock_parse(wc, "yesterday", &ns), -1);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-05-01 25:00", &ns), -1);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-02-30", &ns), -1);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-05-01 12:00:00 ", &ns),
	    -1);
	ck_assert_int_eq(tr_wallclock_parse(wc, "2024-03-31 02:30", &ns), -1);
	ck_assert_int_eq(tr_wallclock_parse(wc, "@", &ns), -1);
	ck_assert_int_eq(tr_wallclock_parse(wc, "@9223372036", &ns), -1);
	ck_assert_int_eq(tr_wallclock_parse(wc, "@-9223372035.5", &ns), 0);
	ck_assert_int_eq(ns, -9223372035500000000LL);
	tr_wallclock_free(wc);
}
END_TEST

/* --- shared helpers --------------------------------------------------- */

START_TEST(test_numbers_units)
{
	const struct tr_gpu_unit	*u;
	const char			*name;
	size_t				 len;
	double				 v;

	ck_assert_uint_eq(tr_gpu_number("76.42 W", 7, &v), 5);
	ck_assert(v == 76.42);
	ck_assert_uint_eq(tr_gpu_number("-5", 2, &v), 2);
	ck_assert(v == -5);
	ck_assert_uint_eq(tr_gpu_number("1e3x", 4, &v), 3);
	ck_assert(v == 1000);
	ck_assert_uint_eq(tr_gpu_number("0.1", 3, &v), 3);
	ck_assert(v == 0.1);
	ck_assert_uint_eq(tr_gpu_number("123456789012345678901", 21, &v), 21);
	ck_assert(v == 123456789012345678901.0);
	ck_assert_uint_eq(tr_gpu_number("abc", 3, &v), 0);
	ck_assert_uint_eq(tr_gpu_number(".", 1, &v), 0);
	ck_assert_uint_eq(tr_gpu_number("12e", 3, &v), 2);

	u = tr_gpu_unit_find("MiB", 3);
	ck_assert_ptr_nonnull(u);
	ck_assert_str_eq(u->base, "bytes");
	ck_assert(tr_gpu_unit_apply(u, 32480) == 32480.0 * 1048576);
	u = tr_gpu_unit_find("F", 1);
	ck_assert(tr_gpu_unit_apply(u, 212) == 100);
	ck_assert_ptr_null(tr_gpu_unit_find("furlongs", 8));
	ck_assert_ptr_null(tr_gpu_unit_find("mib", 3));
	ck_assert(tr_gpu_unit_apply(NULL, 7) == 7);

	ck_assert_int_eq(tr_gpu_missing("[N/A]", 5), 1);
	ck_assert_int_eq(tr_gpu_missing("[Not Supported]", 15), 1);
	ck_assert_int_eq(tr_gpu_missing("-", 1), 1);
	ck_assert_int_eq(tr_gpu_missing("N/A", 3), 1);
	ck_assert_int_eq(tr_gpu_missing("0", 1), 0);
	ck_assert_int_eq(tr_gpu_missing("[x", 2), 0);

	tr_gpu_command_name("/usr/bin/python3 train.py --x", 29, &name, &len);
	ck_assert_int_eq((int)len, 7);
	ck_assert(memcmp(name, "python3", 7) == 0);
	tr_gpu_command_name("Xorg", 4, &name, &len);
	ck_assert(len == 4 && memcmp(name, "Xorg", 4) == 0);
}
END_TEST

/* --- detection -------------------------------------------------------- */

static const char smi_csv[] =
"timestamp, index, name, utilization.gpu [%], memory.used [MiB], "
    "power.draw [W]\n"
"2024/01/16 14:44:16.977, 0, NVIDIA H200, 97 %, 30512 MiB, 312.45 W\n"
"2024/01/16 14:44:16.981, 1, NVIDIA H200, [N/A], 4 MiB, [Not Supported]\n"
"timestamp, index, name, utilization.gpu [%], memory.used [MiB], "
    "power.draw [W]\n"
"2024/01/16 14:44:17.078, 0, NVIDIA H200, 96 %, 30514 MiB, 309.10 W\n";

static const char dmon_txt[] =
"# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk\n"
"# Idx     W     C     C     %     %     %     %   MHz   MHz\n"
"    0    43    48     -     0     1     0     0  3505   936\n"
"    1    44    47     -     5     2     0     0  3505   936\n"
"    0    45    49     -    10     3     0     0  3505   936\n";

static const char pmon_txt[] =
"#Time        gpu         pid   type     sm    mem    enc    dec    "
    "command\n"
"#HH:MM:SS    Idx           #    C/G      %      %      %      %    name\n"
" 12:00:00      0        4242     C     97     41      -      -    "
    "Web Content\n"
" 12:00:00      1           -     -      -      -      -      -    -\n"
" 12:00:01      0        4242     C     95     40      -      -    "
    "Web Content\n";

static const char nvtop_json[] =
"[\n  {\n   \"device_name\": \"NVIDIA H200\",\n   \"gpu_clock\": \"1980MHz\","
"\n   \"temp\": \"140F\",\n   \"gpu_util\": \"97%\",\n"
"   \"mem_used\": \"85180432384\",\n   \"pcie_rx\": \"12MB/s\",\n"
"   \"processes\" : [\n     {\n       \"pid\": \"4242\",\n"
"       \"cmdline\": \"/usr/bin/python3 train.py\",\n"
"       \"gpu_usage\": \"95%\",\n       \"gpu_mem_bytes_alloc\": \"1024\"\n"
"     }\n   ]\n  }\n]\n";

static const char *
detect(const char *text)
{
	const struct tr_importer	*imp;

	imp = tr_importer_detect((const unsigned char *)text, strlen(text));
	return (imp ? imp->name : "none");
}

START_TEST(test_detect)
{
	ck_assert_str_eq(detect(smi_csv), "nvidia-smi-csv");
	ck_assert_str_eq(detect("2024/01/16 14:44:16.977, 0, 97 %\n"),
	    "nvidia-smi-csv");
	ck_assert_str_eq(detect(dmon_txt), "nvidia-smi-dmon");
	ck_assert_str_eq(detect(pmon_txt), "nvidia-smi-pmon");
	ck_assert_str_eq(detect(nvtop_json), "nvtop");
	/* Others' inputs stay theirs. */
	ck_assert_int_eq(tr_importer_find("nvtop")->probe(
	    (const unsigned char *)"[{\"name\": \"x\", \"ph\": \"X\"}]", 28),
	    0);
	ck_assert_int_eq(tr_importer_find("nvidia-smi-csv")->probe(
	    (const unsigned char *)"a,b\n1,2\n", 8), 0);
	ck_assert_int_eq(tr_importer_find("nvidia-smi-csv")->probe(
	    (const unsigned char *)"timestamp,value\n1,2\n", 20), 0);
	ck_assert_int_eq(tr_importer_find("nvidia-smi-dmon")->probe(
	    (const unsigned char *)"# ========\n# captured on: x\n", 28), 0);
	ck_assert_int_eq(tr_importer_find("nvidia-smi-dmon")->probe(
	    (const unsigned char *)"python3  4242 [001] 1.0: cpu-clock:\n",
	    36), 0);
	ck_assert_int_eq(tr_importer_find("nvidia-smi-pmon")->probe(
	    (const unsigned char *)dmon_txt, sizeof dmon_txt - 1), 0);
}
END_TEST

/* --- nvidia-smi CSV --------------------------------------------------- */

START_TEST(test_smi_csv)
{
	struct tr_db	*db = mem_db();
	char		 msg[1024];

	ck_assert_int_eq(import(db, "smi.csv", smi_csv, msg, berlin), 0);
	ck_rows(db, "SELECT gpu, gpu_name, ts, metric, value FROM gpu_metric "
	    "ORDER BY ts, gpu, id",
	    "0|NVIDIA H200|1705412656977000000|utilization.gpu|97\n"
	    "0|NVIDIA H200|1705412656977000000|memory.used|31994150912\n"
	    "0|NVIDIA H200|1705412656977000000|power.draw|312.45\n"
	    "1|NVIDIA H200|1705412656981000000|memory.used|4194304\n"
	    "0|NVIDIA H200|1705412657078000000|utilization.gpu|96\n"
	    "0|NVIDIA H200|1705412657078000000|memory.used|31996248064\n"
	    "0|NVIDIA H200|1705412657078000000|power.draw|309.1\n");
	ck_rows(db, "SELECT clock, ts_min, ts_max, rows, "
	    "json_extract(meta, '$.tz'), json_extract(meta, '$.tz_from'), "
	    "json_extract(meta, '$.units.\"memory.used\"'), "
	    "json_extract(meta, '$.sampling.median_gap_ns'), "
	    "json_extract(meta, '$.sampling.series') FROM source",
	    "wall|1705412656977000000|1705412657078000000|7|Europe/Berlin|"
	    "option|bytes|101000000|2\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_smi_noheader)
{
	static const char	*fields[] = { "fields=timestamp,index, "
	    "utilization.gpu,memory.used,pstate", "tz=UTC", NULL };
	static const char	 text[] =
	    "2025/05/01 12:00:00, 3, 7, 81234, P8\n"
	    "2025/05/01 12:00:01, 3, 8, 81235, P0\n";
	struct tr_db		*db = mem_db();
	char			 msg[1024];

	ck_assert_int_eq(import(db, "nh.csv", text, msg, NULL), -1);
	ck_assert_str_eq(msg, "nh.csv:1:1: no header line: for CSV written "
	    "with 'noheader', give the field list of the query with --fields "
	    "(e.g. --fields timestamp,index,utilization.gpu,memory.used)");
	ck_assert_int_eq(import(db, "nh.csv", text, msg, fields), 0);
	ck_rows(db, "SELECT gpu, ts, metric, value FROM gpu_metric "
	    "ORDER BY ts, gpu, id",
	    "3|1746100800000000000|utilization.gpu|7\n"
	    "3|1746100800000000000|memory.used|85180022784\n"
	    "3|1746100800000000000|pstate|8\n"
	    "3|1746100801000000000|utilization.gpu|8\n"
	    "3|1746100801000000000|memory.used|85181071360\n"
	    "3|1746100801000000000|pstate|0\n");
	tr_db_free(db);
}
END_TEST

/* Header names keep their case; text columns go to the track's meta. */
START_TEST(test_smi_fields)
{
	static const char	text[] =
	    "timestamp, index, encoder.stats.sessionCount, compute_mode, "
	    "vbios_version, clocks_event_reasons.sw_power_cap, fan.speed [%]\n"
	    "2024/01/16 14:44:16, 0, 2, Default, 92.00.36.00.04, Active, "
	    "[N/A]\n"
	    "2024/01/16 14:44:17, 0, 3, Default, 92.00.36.00.04, Not Active, "
	    "31 %\n";
	static const char *const opts[] = { "tz=UTC", NULL };
	struct tr_db		*db = mem_db();
	char			 msg[1024];

	ck_assert_int_eq(import(db, "f.csv", text, msg, opts), 0);
	ck_rows(db, "SELECT ts, metric, value FROM gpu_metric "
	    "ORDER BY ts, gpu, id",
	    "1705416256000000000|encoder.stats.sessionCount|2\n"
	    "1705416256000000000|clocks_event_reasons.sw_power_cap|1\n"
	    "1705416257000000000|encoder.stats.sessionCount|3\n"
	    "1705416257000000000|clocks_event_reasons.sw_power_cap|0\n"
	    "1705416257000000000|fan.speed|31\n");
	ck_rows(db, "SELECT name, ref, meta FROM track", "gpu 0|0|"
	    "{\"compute_mode\":\"Default\",\"vbios_version\":"
	    "\"92.00.36.00.04\"}\n");
	ck_rows(db, "SELECT json_extract(meta, '$.units') FROM source",
	    "{\"clocks_event_reasons.sw_power_cap\":\"bool\","
	    "\"encoder.stats.sessionCount\":\"\",\"fan.speed\":\"%\"}\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_smi_errors)
{
	static const char *const none[] = { "tz=UTC", NULL };
	struct tr_db	*db = mem_db();
	char		 msg[1024];

	ck_assert_int_eq(import(db, "a.csv", "timestamp, index, "
	    "utilization.gpu [%]\n2024/01/16 14:44:16.977, 0, 97 %, 1\n", msg,
	    none), -1);
	ck_assert_str_eq(msg, "a.csv:2:35: expected 3 fields as in the header "
	    "at line 1, found 4");
	ck_assert_int_eq(import(db, "b.csv", "timestamp, index, "
	    "memory.used [MiB]\n2024/01/16 14:44:16.977, 0, 12 apples\n", msg,
	    none), -1);
	ck_assert_str_eq(msg, "b.csv:2:29: expected a number in MiB for "
	    "'memory.used [MiB]', got '12 apples'");
	ck_assert_int_eq(import(db, "b.csv", "timestamp, index, "
	    "memory.used [MiB]\n2024/01/16 14:44:16.977, 0, 2 GiB\n", msg,
	    none), 0);
	ck_rows(db, "SELECT value FROM gpu_metric", "2147483648\n");
	ck_rows(db, "DELETE FROM counter_run RETURNING 1", "1\n");
	ck_rows(db, "DELETE FROM source RETURNING 1", "1\n");
	ck_assert_int_eq(import(db, "c.csv", "timestamp, index, "
	    "temperature.gpu\n2024/01/16 24:00:00.000, 0, 40\n", msg, none),
	    -1);
	ck_assert_str_eq(msg, "c.csv:2:1: expected a date and time like "
	    "'2024/05/01 12:00:00.123' for 'timestamp', got '2024/01/16 "
	    "24:00:00.000'");
	ck_assert_int_eq(import(db, "d.csv", "index, temperature.gpu\n0, 40\n",
	    msg, none), -1);
	ck_assert_str_eq(msg, "d.csv:2:1: nvidia-smi CSV without a 'timestamp' "
	    "field carries no time: give the capture's start with --start TIME "
	    "and its sampling interval with --interval DUR");
	ck_assert_int_eq(import(db, "e.csv", "timestamp, index\n2024/01/16 "
	    "14:44:16, x\n", msg, none), -1);
	ck_assert_str_eq(msg, "e.csv:2:22: expected a GPU index for 'index', "
	    "got 'x'");
	ck_rows(db, "SELECT count(*) FROM source", "0\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_smi_apps)
{
	static const char	apps[] =
	    "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\n"
	    "2024/01/16 14:44:17.000, GPU-aaaa, 4242, /usr/bin/python3, "
	    "30490 MiB\n"
	    "2024/01/16 14:44:17.000, GPU-bbbb, 5151, tritonserver, [N/A]\n"
	    "2024/01/16 14:44:18.000, GPU-bbbb, 5151, tritonserver, 10 MiB\n";
	static const char	gpus[] =
	    "timestamp, index, uuid, temperature.gpu\n"
	    "2024/01/16 14:44:16.977, 2, GPU-aaaa, 40\n";
	static const char *const host[] = { "tz=UTC", NULL };
	struct tr_db		*db = mem_db();
	char			 msg[1024];

	ck_assert_int_eq(import(db, "gpus.csv", gpus, msg, host), 0);
	ck_assert_int_eq(import(db, "apps.csv", apps, msg, host), 0);
	/* GPU-aaaa is GPU 2 from the first import; GPU-bbbb unknown. */
	ck_rows(db, "SELECT gpu, pid, process, ts, metric, value FROM "
	    "gpu_process ORDER BY ts, gpu, pid, id",
	    "2|4242|python3|1705416257000000000|memory.used|31971082240\n"
	    "-1|5151|tritonserver|1705416258000000000|memory.used|10485760\n");
	ck_rows(db, "SELECT pid, name FROM process ORDER BY pid",
	    "4242|python3\n5151|tritonserver\n");
	ck_rows(db, "SELECT json_extract(meta, '$.process_name'), "
	    "json_extract(meta, '$.gpu_uuid') FROM track WHERE "
	    "kind = 'gpu-process' ORDER BY id",
	    "/usr/bin/python3|GPU-aaaa\ntritonserver|GPU-bbbb\n");
	tr_db_free(db);
}
END_TEST

START_TEST(test_smi_dst)
{
	static const char	text[] =
	    "timestamp, index, utilization.gpu [%]\n"
	    "2023/10/29 02:59:59.500, 0, 1 %\n"
	    "2023/10/29 02:00:00.000, 0, 2 %\n"
	    "2023/10/29 02:00:00.000, 1, 3 %\n";
	static const char *const posix[] = {
		"tz=CET-1CEST,M3.5.0,M10.5.0/3", NULL
	};
	struct tr_db		*db = mem_db();
	char			 msg[1024];

	/* The first 02:59:59 is summer time; then clocks went back. */
	ck_assert_int_eq(import(db, "dst.csv", text, msg, posix), 0);
	ck_rows(db, "SELECT gpu, ts FROM gpu_metric ORDER BY ts, gpu, id",
	    "0|1698541199500000000\n0|1698541200000000000\n"
	    "1|1698541200000000000\n");
	ck_rows(db, "SELECT json_extract(meta, '$.tz_ambiguous_times') FROM "
	    "source", "2\n");
	tr_db_free(db);
}
END_TEST

/* --- dmon, pmon ------------------------------------------------------- */

START_TEST(test_dmon)
{
	static const char *const opts[] = {
		"start=2024-05-01T10:00:00Z", "interval=500ms", NULL
	};
	static const char *const fields[] = {
		"fields=gpu pwr fb", "start=@0", "interval=1s", "tz=UTC",
		"format=nvidia-smi-dmon", NULL
	};
	struct tr_db	*db = mem_db();
	char		 msg[1024];

	ck_assert_int_eq(import(db, "dmon.txt", dmon_txt, msg, NULL), -1);
	ck_assert_str_eq(msg, "dmon.txt:3:1: nvidia-smi dmon output without "
	    "-o T carries no time: give the capture's start with --start TIME "
	    "and its sampling interval with --interval DUR");
	ck_assert_int_eq(import(db, "dmon.txt", dmon_txt, msg, opts), 0);
	ck_rows(db, "SELECT gpu, ts, metric, value FROM gpu_metric WHERE "
	    "metric IN ('utilization.gpu', 'clocks.gr', 'temperature.memory') "
	    "ORDER BY ts, gpu, id",
	    "0|1714557600000000000|utilization.gpu|0\n"
	    "0|1714557600000000000|clocks.gr|936\n"
	    "1|1714557600000000000|utilization.gpu|5\n"
	    "1|1714557600000000000|clocks.gr|936\n"
	    "0|1714557600500000000|utilization.gpu|10\n"
	    "0|1714557600500000000|clocks.gr|936\n");
	ck_rows(db, "SELECT json_extract(meta, '$.sampling.timing'), "
	    "json_extract(meta, '$.sampling.interval_ns'), "
	    "json_extract(meta, '$.columns.pclk') FROM source",
	    "start+interval|500000000|clocks.gr\n");
	/* dmon --format csv,noheader: the columns from --fields. */
	ck_assert_int_eq(import(db, "nh.txt", "0, 40, 3\n1, 41, 4\n", msg,
	    fields), 0);
	ck_rows(db, "SELECT gpu, ts, metric, value FROM gpu_metric WHERE "
	    "source_id = 2 ORDER BY ts, gpu, id",
	    "0|0|power.draw|40\n0|0|memory.used|3145728\n"
	    "1|0|power.draw|41\n1|0|memory.used|4194304\n");
	ck_assert_int_eq(import(db, "bad.txt",
	    "# gpu    sm\n# Idx     %\n    0   1.5x\n", msg, opts), -1);
	ck_assert_str_eq(msg, "bad.txt:3:9: expected a number or '-' for "
	    "'sm', got '1.5x'");
	tr_db_free(db);
}
END_TEST

START_TEST(test_pmon)
{
	static const char *const opts[] = {
		"start=2024-05-01 00:00:00", "tz=Europe/Berlin", NULL
	};
	struct tr_db	*db = mem_db();
	char		 msg[1024];

	ck_assert_int_eq(import(db, "pmon.txt", pmon_txt, msg, berlin), -1);
	ck_assert_str_eq(msg, "pmon.txt:3:1: nvidia-smi pmon -o T output has "
	    "times but no dates: give the capture's date with --start");
	ck_assert_int_eq(import(db, "pmon.txt", pmon_txt, msg, opts), 0);
	ck_rows(db, "SELECT gpu, pid, process, ts, metric, value FROM "
	    "gpu_process ORDER BY ts, gpu, pid, id",
	    "0|4242|Web Content|1714557600000000000|utilization.gpu|97\n"
	    "0|4242|Web Content|1714557600000000000|utilization.memory|41\n"
	    "0|4242|Web Content|1714557601000000000|utilization.gpu|95\n"
	    "0|4242|Web Content|1714557601000000000|utilization.memory|40\n");
	ck_rows(db, "SELECT json_extract(meta, '$.type') FROM track",
	    "C\n");
	ck_rows(db, "SELECT json_extract(meta, '$.sampling.samples'), "
	    "json_extract(meta, '$.sampling.series') FROM source", "3|2\n");
	tr_db_free(db);
}
END_TEST

/* --- nvtop ------------------------------------------------------------ */

START_TEST(test_nvtop)
{
	static const char *const opts[] = {
		"start=@1714557600", "interval=100ms", NULL
	};
	struct tr_db	*db = mem_db();
	struct tr_buf	 loop;
	char		 msg[1024];

	tr_buf_init(&loop);
	tr_buf_adds(&loop, nvtop_json);
	tr_buf_adds(&loop, nvtop_json);
	ck_assert_int_eq(import(db, "n.json", loop.data, msg, NULL), -1);
	ck_assert_str_eq(msg, "n.json:1:1: nvtop output carries no time: give "
	    "the capture's start with --start TIME");
	ck_assert_int_eq(import(db, "n.json", loop.data, msg, opts), 0);
	ck_rows(db, "SELECT gpu, gpu_name, ts, metric, value FROM gpu_metric "
	    "WHERE ts > 1714557600000000000 ORDER BY ts, gpu, id",
	    "0|NVIDIA H200|1714557600100000000|clocks.gr|1980\n"
	    "0|NVIDIA H200|1714557600100000000|temperature.gpu|60\n"
	    "0|NVIDIA H200|1714557600100000000|utilization.gpu|97\n"
	    "0|NVIDIA H200|1714557600100000000|memory.used|85180432384\n"
	    "0|NVIDIA H200|1714557600100000000|nvtop.pcie_rx|12582912\n");
	ck_rows(db, "SELECT gpu, pid, process, metric, value FROM gpu_process "
	    "WHERE ts = 1714557600000000000 ORDER BY gpu, pid, id",
	    "0|4242|python3|utilization.gpu|95\n"
	    "0|4242|python3|memory.used|1024\n");
	ck_rows(db, "SELECT format_version FROM source", "3.3.2+\n");
	tr_buf_release(&loop);
	tr_db_free(db);
}
END_TEST

START_TEST(test_nvtop_errors)
{
	static const char *const opts[] = { "start=@0", NULL };
	static const char	v330[] =
	    "[\n  {\n   \"device_name\": \"X\",\n   \"mem_util\": \"35%\"\n"
	    "   \"mem_total\": \"1\"\n  }\n]\n";
	struct tr_db		*db = mem_db();
	char			 msg[1024];

	ck_assert_int_eq(import(db, "v.json", v330, msg, opts), -1);
	ck_assert_str_eq(msg, "v.json:4:21: invalid JSON: ',' missing after "
	    "this value, as nvtop 3.3.0 and 3.3.1 write it (no commas after "
	    "\"mem_util\", \"mem_total\" and \"mem_used\"; fixed in 3.3.2): "
	    "capture with nvtop 3.3.2 or later, or add the commas, e.g. with "
	    "sed -E 's/^( *\"mem_(util|total|used)\": (\"[^\"]*\"|null))$/"
	    "\\1,/'");
	ck_assert_int_eq(import(db, "t.json", "[\n  {\n   \"device_name\": "
	    "\"X\",\n   \"temp\": \"5", msg, opts), -1);
	ck_assert_str_eq(msg, "t.json:2:3: truncated: the input ends inside "
	    "this GPU object");
	ck_assert_int_eq(import(db, "u.json", "[\n  {\"device_name\": \"X\"}\n",
	    msg, opts), -1);
	ck_assert_str_eq(msg, "u.json:1:1: truncated: the input ends before "
	    "the ']' closing this snapshot");
	ck_assert_int_eq(import(db, "s.json", "[{\"device_name\": \"X\", "
	    "\"temp\": 1,}]", msg, opts), -1);
	ck_assert_str_eq(msg, "s.json:1:33: invalid JSON: string or '}' "
	    "expected near '}'");
	ck_assert_int_eq(import(db, "k.json", "[{\"device_name\": \"X\",\n "
	    "\"gpu_util\": [1]}]", msg, opts), -1);
	ck_assert_str_eq(msg, "k.json:2:2: expected a string or null for "
	    "'gpu_util', got an array");
	ck_assert_int_eq(import(db, "x.json", "[{\"device_name\": \"X\"}] x",
	    msg, opts), -1);
	ck_assert_str_eq(msg, "x.json:1:24: expected '[' starting an nvtop "
	    "snapshot, got 'x'");
	ck_rows(db, "SELECT count(*) FROM source", "0\n");
	tr_db_free(db);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("import-gpu");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	setenv("TZ", "UTC", 1);
	tcase_add_test(tc, test_civil);
	tcase_add_test(tc, test_zone_berlin);
	tcase_add_test(tc, test_zone_odd_seconds);
	tcase_add_test(tc, test_zone_env);
	tcase_add_test(tc, test_parse_time);
	tcase_add_test(tc, test_numbers_units);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_smi_csv);
	tcase_add_test(tc, test_smi_noheader);
	tcase_add_test(tc, test_smi_fields);
	tcase_add_test(tc, test_smi_errors);
	tcase_add_test(tc, test_smi_apps);
	tcase_add_test(tc, test_smi_dst);
	tcase_add_test(tc, test_dmon);
	tcase_add_test(tc, test_pmon);
	tcase_add_test(tc, test_nvtop);
	tcase_add_test(tc, test_nvtop_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
