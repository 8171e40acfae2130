/*
 * Unit tests for out: the aligned table, CSV quoting, JSON types, empty
 * result sets, rows straight from SQLite statements, column units, named
 * result sets as one JSON document, and notes.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <sqlite3.h>

#include "base/error.h"
#include "base/out.h"

/* Output captured in memory. */
struct cap {
	FILE	*f;
	char	*buf;
	size_t	 len;
};

static struct tr_out *
cap_open(struct cap *c, enum tr_out_format fmt)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->f);
	return (tr_out_new(c->f, fmt));
}

/* Finish, free and return the text (owned by 'c'). */
static const char *
cap_close(struct cap *c, struct tr_out *o)
{
	ck_assert_int_eq(tr_out_finish(o), 0);
	tr_out_free(o);
	ck_assert_int_eq(fclose(c->f), 0);
	return (c->buf);
}

static const char *const cols[] = { "name", "count", "ratio", "note" };

/* The same rows in every format. */
static void
rows(struct tr_out *o)
{
	tr_out_columns(o, 4, cols);
	tr_out_text(o, "a");
	tr_out_int(o, 1);
	tr_out_real(o, 0.5);
	tr_out_text(o, "plain");
	tr_out_end_row(o);
	tr_out_text(o, "longer name");
	tr_out_int(o, -12345);
	tr_out_null(o);
	tr_out_text(o, "with, comma");
	tr_out_end_row(o);
	tr_out_text(o, "\xc3\xbc");		/* one character, two bytes */
	tr_out_int(o, INT64_MAX);
	tr_out_real(o, 1e-7);
	tr_out_text(o, "say \"hi\"\nbye");
	tr_out_end_row(o);
	/* A short row: the rest is NULL. */
	tr_out_text(o, "");
	tr_out_end_row(o);
}

START_TEST(test_table)
{
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_TABLE);

	rows(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "name                       count  ratio  note\n"
	    "a                              1    0.5  plain\n"
	    "longer name               -12345         with, comma\n"
	    "\xc3\xbc            9223372036854775807  1e-07  "
	    "say \"hi\"\\nbye\n"
	    "\n");
	free(c.buf);
}
END_TEST

/* Numbers right-aligned under a right-aligned header; text left. */
START_TEST(test_table_align)
{
	static const char *const n[] = { "id", "value", "label" };
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_TABLE);

	tr_out_columns(o, 3, n);
	tr_out_int(o, 7);
	tr_out_real(o, 2.25);
	tr_out_text(o, "x");
	tr_out_end_row(o);
	tr_out_int(o, 1000);
	tr_out_real(o, -0.125);
	tr_out_text(o, "tab\there");
	tr_out_end_row(o);
	/* A text cell in a numeric-looking column makes it text. */
	tr_out_int(o, 5);
	tr_out_text(o, "n/a");
	tr_out_null(o);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "  id  value   label\n"
	    "   7  2.25    x\n"
	    "1000  -0.125  tab\\there\n"
	    "   5  n/a\n");
	free(c.buf);
}
END_TEST

START_TEST(test_csv)
{
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_CSV);

	rows(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "name,count,ratio,note\n"
	    "a,1,0.5,plain\n"
	    "longer name,-12345,,\"with, comma\"\n"
	    "\xc3\xbc,9223372036854775807,1e-07,\"say \"\"hi\"\"\nbye\"\n"
	    ",,,\n");
	free(c.buf);
}
END_TEST

START_TEST(test_csv_quoting)
{
	static const char *const n[] = { "a,b", "q\"", "cr" };
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_CSV);

	tr_out_columns(o, 3, n);
	tr_out_text(o, "\"");
	tr_out_text(o, "x\ry");
	tr_out_text(o, " spaced ");
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "\"a,b\",\"q\"\"\",cr\n"
	    "\"\"\"\",\"x\ry\", spaced \n");
	free(c.buf);
}
END_TEST

START_TEST(test_json)
{
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_JSON);

	rows(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "[\n"
	    "{\"name\":\"a\",\"count\":1,\"ratio\":0.5,\"note\":\"plain\"},\n"
	    "{\"name\":\"longer name\",\"count\":-12345,\"ratio\":null,"
	    "\"note\":\"with, comma\"},\n"
	    "{\"name\":\"\\u00FC\",\"count\":\"9223372036854775807\","
	    "\"ratio\":1e-07,"
	    "\"note\":\"say \\\"hi\\\"\\nbye\"},\n"
	    "{\"name\":\"\",\"count\":null,\"ratio\":null,\"note\":null}\n"
	    "]\n");
	free(c.buf);
}
END_TEST

/* Bytes that are not UTF-8 keep their row, marked with U+FFFD. */
START_TEST(test_json_not_utf8)
{
	static const char *const n[] = { "s", "t" };
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_JSON);

	tr_out_columns(o, 2, n);
	tr_out_text(o, "ab\xff" "c");
	tr_out_text(o, "ok");
	tr_out_end_row(o);
	/* Truncated sequence, overlong '/', surrogate, then a valid one. */
	tr_out_text(o, "\xc3" "x\xc0\xaf" "\xed\xa0\x80" "\xe2\x82\xac");
	tr_out_real(o, 2.0);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "[\n"
	    "{\"s\":\"ab\\uFFFDc\",\"t\":\"ok\"},\n"
	    "{\"s\":\"\\uFFFDx\\uFFFD\\uFFFD\\uFFFD\\uFFFD\\uFFFD"
	    "\\u20AC\",\"t\":2.0}\n"
	    "]\n");
	free(c.buf);
}
END_TEST

/* Reals print short when that reads back exactly, else in full. */
START_TEST(test_real_text)
{
	static const char *const n[] = { "a", "b", "c", "d" };
	struct cap	 c;
	struct tr_out	*o;
	volatile double	 x = 0.1, y = 0.2;

	o = cap_open(&c, TR_OUT_JSON);
	tr_out_columns(o, 4, n);
	tr_out_real(o, 0.1);
	tr_out_real(o, x + y);
	tr_out_real(o, -0.0);
	tr_out_real(o, 123456789012.5);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o), "[\n{\"a\":0.1,"
	    "\"b\":0.30000000000000004,\"c\":-0.0,\"d\":123456789012.5}\n]\n");
	free(c.buf);
	o = cap_open(&c, TR_OUT_CSV);
	tr_out_columns(o, 4, n);
	tr_out_real(o, 0.1);
	tr_out_real(o, x + y);
	tr_out_real(o, 3.0);
	tr_out_real(o, 1.0 / 3);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "a,b,c,d\n0.1,0.30000000000000004,3,0.3333333333333333\n");
	free(c.buf);
}
END_TEST

/* Non-finite reals have no JSON form: they are NULL everywhere. */
START_TEST(test_nonfinite)
{
	static const char *const n[] = { "x" };
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_JSON);

	tr_out_columns(o, 1, n);
	tr_out_real(o, NAN);
	tr_out_end_row(o);
	tr_out_real(o, INFINITY);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "[\n{\"x\":null},\n{\"x\":null}\n]\n");
	free(c.buf);
}
END_TEST

START_TEST(test_empty_sets)
{
	struct cap	 c;
	struct tr_out	*o;

	o = cap_open(&c, TR_OUT_TABLE);
	tr_out_columns(o, 4, cols);
	ck_assert_str_eq(cap_close(&c, o), "name  count  ratio  note\n");
	free(c.buf);
	o = cap_open(&c, TR_OUT_CSV);
	tr_out_columns(o, 4, cols);
	ck_assert_str_eq(cap_close(&c, o), "name,count,ratio,note\n");
	free(c.buf);
	o = cap_open(&c, TR_OUT_JSON);
	tr_out_columns(o, 4, cols);
	ck_assert_str_eq(cap_close(&c, o), "[]\n");
	free(c.buf);
}
END_TEST

/* Extra cells in a row are dropped, not written past the columns. */
START_TEST(test_extra_cells)
{
	static const char *const n[] = { "only" };
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_CSV);

	tr_out_columns(o, 1, n);
	tr_out_int(o, 1);
	tr_out_text(o, "dropped");
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o), "only\n1\n");
	free(c.buf);
}
END_TEST

static sqlite3_stmt *
prep(sqlite3 *sq, const char *sql)
{
	sqlite3_stmt	*st = NULL;

	ck_assert_int_eq(sqlite3_prepare_v2(sq, sql, -1, &st, NULL),
	    SQLITE_OK);
	return (st);
}

START_TEST(test_stmt)
{
	static const char sql[] = "SELECT 1 AS i, 2.5 AS r, NULL AS n, "
	    "'t,x' AS s UNION ALL SELECT -2, 1e100, NULL, ''";
	struct cap	 c;
	struct tr_out	*o;
	struct tr_error	 err;
	sqlite3		*sq;
	sqlite3_stmt	*st;

	tr_error_init(&err);
	ck_assert_int_eq(sqlite3_open(":memory:", &sq), SQLITE_OK);
	o = cap_open(&c, TR_OUT_JSON);
	st = prep(sq, sql);
	ck_assert_int_eq(tr_out_stmt(o, sq, st, &err), 2);
	sqlite3_finalize(st);
	ck_assert_str_eq(cap_close(&c, o),
	    "[\n"
	    "{\"i\":1,\"r\":2.5,\"n\":null,\"s\":\"t,x\"},\n"
	    "{\"i\":-2,\"r\":1e+100,\"n\":null,\"s\":\"\"}\n"
	    "]\n");
	free(c.buf);

	o = cap_open(&c, TR_OUT_CSV);
	st = prep(sq, sql);
	ck_assert_int_eq(tr_out_stmt(o, sq, st, &err), 2);
	sqlite3_finalize(st);
	ck_assert_str_eq(cap_close(&c, o),
	    "i,r,n,s\n1,2.5,,\"t,x\"\n-2,1e+100,,\n");
	free(c.buf);

	o = cap_open(&c, TR_OUT_TABLE);
	st = prep(sq, sql);
	ck_assert_int_eq(tr_out_stmt(o, sq, st, &err), 2);
	sqlite3_finalize(st);
	ck_assert_str_eq(cap_close(&c, o),
	    " i       r  n  s\n"
	    " 1     2.5     t,x\n"
	    "-2  1e+100\n");
	free(c.buf);

	/* No rows: the header still comes from the statement. */
	o = cap_open(&c, TR_OUT_CSV);
	st = prep(sq, "SELECT 1 AS a, 2 AS b WHERE 0");
	ck_assert_int_eq(tr_out_stmt(o, sq, st, &err), 0);
	sqlite3_finalize(st);
	ck_assert_str_eq(cap_close(&c, o), "a,b\n");
	free(c.buf);

	/* A failing step is an error with SQLite's message. */
	o = cap_open(&c, TR_OUT_CSV);
	st = prep(sq, "SELECT abs(-9223372036854775807 - 1)");
	ck_assert_int_eq(tr_out_stmt(o, sq, st, &err), -1);
	sqlite3_finalize(st);
	ck_assert_int_eq(err.code, TR_EDB);
	ck_assert_str_eq(err.msg, "integer overflow");
	tr_out_free(o);
	fclose(c.f);
	free(c.buf);
	sqlite3_close(sq);
}
END_TEST

/* Integers a double cannot hold exactly are JSON strings; the rest numbers. */
START_TEST(test_json_big)
{
	static const char *const n[] = { "v" };
	struct cap	 c;
	struct tr_out	*o = cap_open(&c, TR_OUT_JSON);

	tr_out_columns(o, 1, n);
	tr_out_int(o, 9007199254740991LL);
	tr_out_end_row(o);
	tr_out_int(o, 9007199254740992LL);
	tr_out_end_row(o);
	tr_out_int(o, -9007199254740991LL);
	tr_out_end_row(o);
	tr_out_int(o, -1764421507250000001LL);
	tr_out_end_row(o);
	tr_out_int(o, INT64_MIN);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "[\n{\"v\":9007199254740991},\n{\"v\":\"9007199254740992\"},\n"
	    "{\"v\":-9007199254740991},\n{\"v\":\"-1764421507250000001\"},\n"
	    "{\"v\":\"-9223372036854775808\"}\n]\n");
	free(c.buf);
	/* CSV and the table are not concerned. */
	o = cap_open(&c, TR_OUT_CSV);
	tr_out_columns(o, 1, n);
	tr_out_int(o, 9007199254740992LL);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o), "v\n9007199254740992\n");
	free(c.buf);
}
END_TEST

static const char *const ucols[] = { "dur", "size", "at", "pct", "share" };

/* One row of each unit, as int or real. */
static void
unit_row(struct tr_out *o, int64_t d, int64_t b, int64_t t, double p,
    double sh)
{
	tr_out_int(o, d);
	tr_out_int(o, b);
	tr_out_int(o, t);
	tr_out_real(o, p);
	tr_out_real(o, sh);
	tr_out_end_row(o);
}

static void
unit_cols(struct tr_out *o)
{
	tr_out_columns(o, 5, ucols);
	tr_out_column_unit(o, 0, TR_UNIT_NS);
	tr_out_column_unit(o, 1, TR_UNIT_BYTES);
	tr_out_column_unit(o, 2, TR_UNIT_TS);
	tr_out_column_unit(o, 3, TR_UNIT_PERCENT);
	tr_out_column_unit(o, 4, TR_UNIT_SHARE);
	/* Out of range: ignored. */
	tr_out_column_unit(o, 5, TR_UNIT_NS);
	tr_out_column_unit(o, -1, TR_UNIT_NS);
}

/* 2026-11-29T13:05:07Z in ns since the epoch. */
#define WALL_130507	1795957507000000000LL

START_TEST(test_units_table)
{
	struct cap	 c;
	struct tr_out	*o;

	setenv("TZ", "UTC", 1);
	tzset();
	o = cap_open(&c, TR_OUT_TABLE);
	/* The store starts at 1000s; 13:05:07 wall is store 1000s. */
	tr_out_set_clock(o, 1000000000000LL, 1, WALL_130507 - 1000000000000LL);
	unit_cols(o);
	unit_row(o, 35994000000LL, 74030284, 1012250000000LL, 42.5, 0.425);
	unit_row(o, 1200000, 512, 1000000000000LL, 100, 1);
	unit_row(o, 250, 1536, 999500000000LL, 0, -0.0);
	unit_row(o, 0, 0, 1000000499999LL, 0.04, 0.0004);
	/* Rounding up to the next unit: 999.96ms, 1023.999kB, 99.96%. */
	unit_row(o, 999960000, 1048575, 1000000000500000LL, 99.96, 0.99996);
	/* Negative values; 1ns before the start rounds to +0.000s. */
	unit_row(o, -1500, 5LL << 40, 1000000000000LL - 1, -3, -0.5);
	/* NULL stays empty; a text cell is left as it is. */
	tr_out_int(o, 7200000000000LL);
	tr_out_null(o);
	tr_out_null(o);
	tr_out_null(o);
	tr_out_text(o, "n/a");
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "   dur    size                         at     pct  share\n"
	    "35.99s  70.6MB      +12.250s 13:05:19.250   42.5%  42.5%\n"
	    " 1.2ms    512B       +0.000s 13:05:07.000  100.0%  100.0%\n"
	    " 250ns   1.5kB       -0.500s 13:05:06.500    0.0%  0.0%\n"
	    "    0s      0B       +0.000s 13:05:07.000    0.0%  0.0%\n"
	    "    1s     1MB  +999000.001s 02:35:07.001  100.0%  100.0%\n"
	    "-1.5us     5TB       +0.000s 13:05:07.000   -3.0%  -50.0%\n"
	    " 7200s                                             n/a\n");
	free(c.buf);
}
END_TEST

/* TR_UNIT_REAL: 4 significant digits in the table, all of them in CSV. */
START_TEST(test_units_real)
{
	static const char *const n[] = { "score" };
	static const double v[] = {
		0.8952357586327725, 17.666666666666668, 123456.7, 0, -0.0,
		1.99996, 0.000123456, -2.5, 0.0125, 3
	};
	struct cap	 c;
	struct tr_out	*o;
	size_t		 i;
	int		 f;
	char		*t;

	for (f = 0; f < 2; f++) {
		o = cap_open(&c, f == 0 ? TR_OUT_TABLE : TR_OUT_CSV);
		tr_out_columns(o, 1, n);
		tr_out_column_unit(o, 0, TR_UNIT_REAL);
		for (i = 0; i < sizeof v / sizeof *v; i++) {
			tr_out_real(o, v[i]);
			tr_out_end_row(o);
		}
		/* An integer is left as it is. */
		tr_out_int(o, 1234567);
		tr_out_end_row(o);
		ck_assert_str_eq(cap_close(&c, o), f == 0 ?
		    "   score\n  0.8952\n   17.67\n  123457\n       0\n"
		    "       0\n       2\n0.000123\n    -2.5\n  0.0125\n"
		    "       3\n 1234567\n" :
		    "score\n0.8952357586327725\n17.666666666666668\n"
		    "123456.7\n0\n-0\n1.99996\n0.000123456\n-2.5\n"
		    "0.0125\n3\n1234567\n");
		free(c.buf);
	}
	/* Messages quote a real as the table shows it. */
	t = tr_out_unit_text(TR_UNIT_REAL, 0.8952357586327725);
	ck_assert_str_eq(t, "0.8952");
	free(t);
}
END_TEST

/* CSV and JSON keep the base units; a TS column without a clock is raw. */
START_TEST(test_units_raw)
{
	static const char *const n[] = { "at", "dur" };
	struct cap	 c;
	struct tr_out	*o;
	int		 f;
	static const char *const want[] = {
		"dur,size,at,pct,share\n35994000000,74030284,1012250000000,"
		"42.5,0.425\n",
		"[\n{\"dur\":35994000000,\"size\":74030284,"
		"\"at\":1012250000000,\"pct\":42.5,\"share\":0.425}\n]\n",
	};

	for (f = 0; f < 2; f++) {
		o = cap_open(&c, f == 0 ? TR_OUT_CSV : TR_OUT_JSON);
		tr_out_set_clock(o, 1000000000000LL, 1, WALL_130507);
		unit_cols(o);
		unit_row(o, 35994000000LL, 74030284, 1012250000000LL, 42.5,
		    0.425);
		ck_assert_str_eq(cap_close(&c, o), want[f]);
		free(c.buf);
	}
	o = cap_open(&c, TR_OUT_TABLE);
	tr_out_columns(o, 2, n);
	tr_out_column_unit(o, 0, TR_UNIT_TS);
	tr_out_column_unit(o, 1, TR_UNIT_NS);
	tr_out_int(o, 1012250000000LL);
	tr_out_real(o, 1.5e6);
	tr_out_end_row(o);
	ck_assert_int_eq(tr_out_finish(o), 0);
	/* A clock without the wall: relative times only; reals too. */
	tr_out_set_clock(o, 1000000000000LL, 0, 0);
	tr_out_columns(o, 2, n);
	tr_out_column_unit(o, 0, TR_UNIT_TS);
	tr_out_column_unit(o, 1, TR_UNIT_NS);
	tr_out_real(o, 1012250000000.0);
	tr_out_real(o, 0.25);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "           at    dur\n"
	    "1012250000000  1.5ms\n"
	    "\n"
	    "      at     dur\n"
	    "+12.250s  0.25ns\n");
	free(c.buf);
}
END_TEST

/* Named sets: one JSON object with every set and the notes. */
START_TEST(test_named_sets)
{
	static const char *const a[] = { "a" }, *const b[] = { "b" };
	struct cap	 c;
	struct tr_out	*o;
	char		*err = NULL;
	size_t		 errlen = 0;
	FILE		*ef = open_memstream(&err, &errlen);

	o = cap_open(&c, TR_OUT_JSON);
	tr_out_set_notes(o, ef, "q: ");
	tr_out_note(o, "first %d", 1);
	tr_out_set_name(o, "episodes");
	tr_out_columns(o, 1, a);
	tr_out_int(o, 1);
	tr_out_end_row(o);
	tr_out_int(o, 2);
	tr_out_end_row(o);
	ck_assert_int_eq(tr_out_finish(o), 0);
	tr_out_set_name(o, "totals");
	tr_out_columns(o, 1, b);
	ck_assert_int_eq(tr_out_finish(o), 0);
	/* Unnamed after a named one: named by position. */
	tr_out_columns(o, 1, b);
	tr_out_text(o, "x");
	tr_out_end_row(o);
	tr_out_note(o, "say \"%s\"", "why");
	ck_assert_str_eq(cap_close(&c, o),
	    "{\n"
	    "\"episodes\":[\n{\"a\":1},\n{\"a\":2}\n],\n"
	    "\"totals\":[],\n"
	    "\"set-3\":[\n{\"b\":\"x\"}\n],\n"
	    "\"notes\":[\"first 1\",\n\"say \\\"why\\\"\"]\n"
	    "}\n");
	free(c.buf);
	fflush(ef);
	ck_assert_str_eq(err, "");

	/* A document with no notes still has the key. */
	o = cap_open(&c, TR_OUT_JSON);
	tr_out_set_name(o, "only");
	tr_out_columns(o, 1, a);
	ck_assert_str_eq(cap_close(&c, o),
	    "{\n\"only\":[],\n\"notes\":[]\n}\n");
	free(c.buf);

	/* Names do not change the table or CSV. */
	o = cap_open(&c, TR_OUT_CSV);
	tr_out_set_name(o, "episodes");
	tr_out_columns(o, 1, a);
	tr_out_int(o, 1);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o), "a\n1\n");
	free(c.buf);
	fclose(ef);
	free(err);
}
END_TEST

/* Notes outside a JSON document go to the note stream, or nowhere. */
START_TEST(test_notes)
{
	static const char *const a[] = { "a" };
	struct cap	 c;
	struct tr_out	*o;
	char		*err = NULL;
	size_t		 errlen = 0;
	FILE		*ef = open_memstream(&err, &errlen);

	o = cap_open(&c, TR_OUT_TABLE);
	tr_out_set_notes(o, ef, "trace-query: ");
	tr_out_columns(o, 1, a);
	tr_out_note(o, "37 snapshots, showing the last");
	fflush(ef);
	/* At once, before the table. */
	ck_assert_str_eq(err, "trace-query: 37 snapshots, showing the last\n");
	ck_assert_str_eq(cap_close(&c, o), "a\n");
	free(c.buf);

	/* JSON without names: arrays as before, the notes at the end. */
	o = cap_open(&c, TR_OUT_JSON);
	tr_out_set_notes(o, ef, NULL);
	tr_out_note(o, "n%d", 2);
	tr_out_columns(o, 1, a);
	ck_assert_int_eq(tr_out_finish(o), 0);
	fflush(ef);
	ck_assert_str_eq(err, "trace-query: 37 snapshots, showing the last\n");
	tr_out_free(o);
	fflush(ef);
	ck_assert_str_eq(err, "trace-query: 37 snapshots, showing the last\n"
	    "n2\n");
	fclose(c.f);
	ck_assert_str_eq(c.buf, "[]\n");
	free(c.buf);

	/* Quiet: nowhere. */
	o = cap_open(&c, TR_OUT_CSV);
	tr_out_set_notes(o, NULL, "x: ");
	tr_out_note(o, "lost");
	tr_out_columns(o, 1, a);
	ck_assert_str_eq(cap_close(&c, o), "a\n");
	free(c.buf);
	fflush(ef);
	ck_assert_uint_eq(errlen, strlen("trace-query: 37 snapshots, "
	    "showing the last\nn2\n"));
	fclose(ef);
	free(err);
}
END_TEST

/* A statement's columns with units. */
START_TEST(test_stmt_units)
{
	static const enum tr_out_unit u[] = {
		TR_UNIT_NONE, TR_UNIT_NS, TR_UNIT_BYTES
	};
	struct cap	 c;
	struct tr_out	*o;
	struct tr_error	 err;
	sqlite3		*sq;
	sqlite3_stmt	*st;

	tr_error_init(&err);
	ck_assert_int_eq(sqlite3_open(":memory:", &sq), SQLITE_OK);
	o = cap_open(&c, TR_OUT_TABLE);
	ck_assert_int_eq(sqlite3_prepare_v2(sq, "SELECT 3 AS n, 2.5e9 AS d, "
	    "2048 AS b UNION ALL SELECT 4, NULL, 'big'", -1, &st, NULL),
	    SQLITE_OK);
	ck_assert_int_eq(tr_out_stmt_units(o, sq, st, u, &err), 2);
	sqlite3_finalize(st);
	ck_assert_str_eq(cap_close(&c, o),
	    "n     d  b\n"
	    "3  2.5s  2kB\n"
	    "4        big\n");
	free(c.buf);
	sqlite3_close(sq);
}
END_TEST

/* Two result sets in one output. */
START_TEST(test_two_sets)
{
	static const char *const a[] = { "a" }, *const b[] = { "bb", "c" };
	struct cap	 c;
	struct tr_out	*o;
	int		 f;
	static const char *const want[] = {
		"a\n1\n\nbb  c\nx\n",
		"a\n1\n\nbb,c\nx,\n",
	};

	for (f = 0; f < 2; f++) {
		o = cap_open(&c, f == 0 ? TR_OUT_TABLE : TR_OUT_CSV);
		tr_out_columns(o, 1, a);
		tr_out_int(o, 1);
		tr_out_end_row(o);
		ck_assert_int_eq(tr_out_finish(o), 0);
		tr_out_columns(o, 2, b);
		tr_out_text(o, "x");
		tr_out_end_row(o);
		ck_assert_str_eq(cap_close(&c, o), want[f]);
		free(c.buf);
	}
}
END_TEST

START_TEST(test_parse_format)
{
	enum tr_out_format	f = TR_OUT_JSON;

	ck_assert_int_eq(tr_out_parse_format("table", &f), 0);
	ck_assert_int_eq(f, TR_OUT_TABLE);
	ck_assert_int_eq(tr_out_parse_format("csv", &f), 0);
	ck_assert_int_eq(f, TR_OUT_CSV);
	ck_assert_int_eq(tr_out_parse_format("json", &f), 0);
	ck_assert_int_eq(f, TR_OUT_JSON);
	ck_assert_int_eq(tr_out_parse_format("JSON", &f), -1);
	ck_assert_int_eq(tr_out_parse_format("", &f), -1);
	ck_assert_int_eq(tr_out_parse_format("tsv", &f), -1);
	ck_assert_int_eq(f, TR_OUT_JSON);
	tr_out_free(NULL);
}
END_TEST

/* A write error shows in tr_out_finish(). */
START_TEST(test_write_error)
{
	static const char *const n[] = { "x" };
	FILE		*f = fopen("/dev/full", "w");
	struct tr_out	*o;

	if (f == NULL)
		return;		/* no /dev/full here */
	setvbuf(f, NULL, _IONBF, 0);
	o = tr_out_new(f, TR_OUT_CSV);
	tr_out_columns(o, 1, n);
	tr_out_int(o, 1);
	tr_out_end_row(o);
	ck_assert_int_eq(tr_out_finish(o), -1);
	tr_out_free(o);
	fclose(f);
}
END_TEST

/* Columns declared with their units; the epilogue's error. */
START_TEST(test_columns_of)
{
	static const struct tr_out_col cs[] = {
		{ "n", TR_UNIT_NONE }, { "dur_ns", TR_UNIT_NS },
		{ "bytes", TR_UNIT_BYTES }, { "share", TR_UNIT_SHARE }
	};
	struct cap	 c;
	struct tr_out	*o;
	struct tr_error	 err;
	FILE		*f;

	ck_assert_int_eq(TR_OUT_NCOLS(cs), 4);
	o = cap_open(&c, TR_OUT_TABLE);
	tr_out_columns_of(o, TR_OUT_NCOLS(cs), cs);
	tr_out_int(o, 1500);
	tr_out_int(o, 1500);
	tr_out_int(o, 1536);
	tr_out_real(o, 0.25);
	tr_out_end_row(o);
	ck_assert_str_eq(cap_close(&c, o),
	    "   n  dur_ns  bytes  share\n"
	    "1500   1.5us  1.5kB  25.0%\n");
	free(c.buf);
	/* CSV keeps the integers. */
	o = cap_open(&c, TR_OUT_CSV);
	tr_out_columns_of(o, 2, cs);
	tr_out_int(o, 1500);
	tr_out_int(o, 1500);
	tr_out_end_row(o);
	tr_error_init(&err);
	ck_assert_int_eq(tr_out_finish_err(o, &err), 0);
	ck_assert_int_eq(err.code, 0);
	ck_assert_str_eq(cap_close(&c, o), "n,dur_ns\n1500,1500\n");
	free(c.buf);

	if ((f = fopen("/dev/full", "w")) == NULL)
		return;		/* no /dev/full here */
	setvbuf(f, NULL, _IONBF, 0);
	o = tr_out_new(f, TR_OUT_CSV);
	tr_out_columns_of(o, 1, cs);
	tr_out_int(o, 1);
	tr_out_end_row(o);
	ck_assert_int_eq(tr_out_finish_err(o, &err), -1);
	ck_assert_int_eq(err.code, TR_EIO);
	ck_assert_str_eq(err.msg, "error writing output: No space left on "
	    "device");
	/* The first error wins. */
	ck_assert_int_eq(tr_out_write_error(&err), -1);
	ck_assert_str_eq(err.msg, "error writing output: No space left on "
	    "device");
	tr_out_free(o);
	fclose(f);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("out");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_table_align);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_csv_quoting);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_json_not_utf8);
	tcase_add_test(tc, test_real_text);
	tcase_add_test(tc, test_nonfinite);
	tcase_add_test(tc, test_empty_sets);
	tcase_add_test(tc, test_extra_cells);
	tcase_add_test(tc, test_stmt);
	tcase_add_test(tc, test_json_big);
	tcase_add_test(tc, test_units_table);
	tcase_add_test(tc, test_units_raw);
	tcase_add_test(tc, test_units_real);
	tcase_add_test(tc, test_named_sets);
	tcase_add_test(tc, test_notes);
	tcase_add_test(tc, test_stmt_units);
	tcase_add_test(tc, test_two_sets);
	tcase_add_test(tc, test_parse_format);
	tcase_add_test(tc, test_write_error);
	tcase_add_test(tc, test_columns_of);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
