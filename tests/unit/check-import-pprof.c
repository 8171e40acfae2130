/*
 * Unit tests for import-pprof, the pprof -top engine (pprof.c) and the
 * exporter: a hand-made profile (tests/data/pprof/tiny.pb, written by
 * tests/gen/pprof/mkbad.py, embedded here), profiles packed here with
 * protobuf-c for each profile type and each validation rule, and the
 * store they leave.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "store/db.h"
#include "import/importer.h"
#include "base/input.h"
#include "query/pprof.h"
#include "flame/pprof-export.h"
#include "profile.pb-c.h"
#include "base/util.h"

/* tests/data/pprof/tiny.pb */
static const unsigned char tiny_pb[] = {
	0x0a, 0x04, 0x08, 0x01, 0x10, 0x02, 0x0a, 0x04, 0x08, 0x03, 0x10, 0x04,
	0x12, 0x19, 0x0a, 0x02, 0x01, 0x02, 0x12, 0x05, 0x03, 0x80, 0x87, 0xa7,
	0x0e, 0x1a, 0x04, 0x08, 0x09, 0x10, 0x0a, 0x1a, 0x06, 0x08, 0x0e, 0x18,
	0x40, 0x20, 0x0d, 0x12, 0x11, 0x0a, 0x02, 0x03, 0x02, 0x12, 0x05, 0x01,
	0x80, 0xad, 0xe2, 0x04, 0x1a, 0x04, 0x08, 0x09, 0x10, 0x12, 0x12, 0x0a,
	0x0a, 0x01, 0x02, 0x12, 0x05, 0x02, 0x80, 0xda, 0xc4, 0x09, 0x1a, 0x18,
	0x08, 0x01, 0x10, 0x80, 0x80, 0x80, 0x02, 0x18, 0x80, 0x80, 0xc0, 0x02,
	0x28, 0x0b, 0x30, 0x13, 0x38, 0x01, 0x40, 0x01, 0x48, 0x01, 0x50, 0x01,
	0x22, 0x15, 0x08, 0x01, 0x10, 0x01, 0x18, 0x90, 0xa0, 0x80, 0x02, 0x22,
	0x04, 0x08, 0x03, 0x10, 0x0c, 0x22, 0x04, 0x08, 0x01, 0x10, 0x07, 0x22,
	0x10, 0x08, 0x02, 0x10, 0x01, 0x18, 0xa0, 0xc0, 0x80, 0x02, 0x22, 0x05,
	0x08, 0x02, 0x10, 0xfa, 0x01, 0x22, 0x09, 0x08, 0x03, 0x10, 0x01, 0x18,
	0xb0, 0xe0, 0x80, 0x02, 0x2a, 0x0a, 0x08, 0x01, 0x10, 0x05, 0x18, 0x05,
	0x20, 0x06, 0x28, 0x05, 0x2a, 0x08, 0x08, 0x02, 0x10, 0x07, 0x18, 0x07,
	0x20, 0x08, 0x2a, 0x0a, 0x08, 0x03, 0x10, 0x0c, 0x18, 0x0c, 0x20, 0x06,
	0x28, 0x0b, 0x32, 0x00, 0x32, 0x07, 0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65,
	0x73, 0x32, 0x05, 0x63, 0x6f, 0x75, 0x6e, 0x74, 0x32, 0x03, 0x63, 0x70,
	0x75, 0x32, 0x0b, 0x6e, 0x61, 0x6e, 0x6f, 0x73, 0x65, 0x63, 0x6f, 0x6e,
	0x64, 0x73, 0x32, 0x09, 0x6d, 0x61, 0x69, 0x6e, 0x2e, 0x6d, 0x61, 0x69,
	0x6e, 0x32, 0x07, 0x6d, 0x61, 0x69, 0x6e, 0x2e, 0x67, 0x6f, 0x32, 0x0c,
	0x72, 0x75, 0x6e, 0x74, 0x69, 0x6d, 0x65, 0x2e, 0x6d, 0x61, 0x69, 0x6e,
	0x32, 0x07, 0x70, 0x72, 0x6f, 0x63, 0x2e, 0x67, 0x6f, 0x32, 0x06, 0x77,
	0x6f, 0x72, 0x6b, 0x65, 0x72, 0x32, 0x01, 0x61, 0x32, 0x03, 0x62, 0x69,
	0x6e, 0x32, 0x08, 0x6d, 0x61, 0x69, 0x6e, 0x2e, 0x69, 0x6e, 0x6c, 0x32,
	0x05, 0x62, 0x79, 0x74, 0x65, 0x73, 0x32, 0x04, 0x73, 0x69, 0x7a, 0x65,
	0x32, 0x0b, 0x72, 0x75, 0x6e, 0x74, 0x69, 0x6d, 0x65, 0x5c, 0x2e, 0x2e,
	0x2a, 0x32, 0x0d, 0x72, 0x75, 0x6e, 0x74, 0x69, 0x6d, 0x65, 0x5c, 0x2e,
	0x6d, 0x61, 0x69, 0x6e, 0x32, 0x10, 0x6d, 0x61, 0x64, 0x65, 0x20, 0x62,
	0x79, 0x20, 0x6d, 0x6b, 0x62, 0x61, 0x64, 0x2e, 0x70, 0x79, 0x32, 0x01,
	0x62, 0x32, 0x08, 0x64, 0x65, 0x61, 0x64, 0x62, 0x65, 0x65, 0x66, 0x32,
	0x09, 0x6d, 0x61, 0x69, 0x6e, 0x5c, 0x2e, 0x69, 0x6e, 0x6c, 0x38, 0x0f,
	0x40, 0x10, 0x48, 0x95, 0x9a, 0x97, 0xec, 0xe3, 0x9f, 0xe7, 0xcb, 0x17,
	0x50, 0x80, 0xa8, 0xd6, 0xb9, 0x07, 0x5a, 0x04, 0x08, 0x03, 0x10, 0x04,
	0x60, 0x80, 0xad, 0xe2, 0x04, 0x6a, 0x01, 0x11
};


/* tests/data/pprof/prune.pb: tiny.pb with drop_frames 'main\\.inl' */
static const unsigned char prune_pb[] = {
	0x0a, 0x04, 0x08, 0x01, 0x10, 0x02, 0x0a, 0x04, 0x08, 0x03, 0x10, 0x04,
	0x12, 0x19, 0x0a, 0x02, 0x01, 0x02, 0x12, 0x05, 0x03, 0x80, 0x87, 0xa7,
	0x0e, 0x1a, 0x04, 0x08, 0x09, 0x10, 0x0a, 0x1a, 0x06, 0x08, 0x0e, 0x18,
	0x40, 0x20, 0x0d, 0x12, 0x11, 0x0a, 0x02, 0x03, 0x02, 0x12, 0x05, 0x01,
	0x80, 0xad, 0xe2, 0x04, 0x1a, 0x04, 0x08, 0x09, 0x10, 0x12, 0x12, 0x0a,
	0x0a, 0x01, 0x02, 0x12, 0x05, 0x02, 0x80, 0xda, 0xc4, 0x09, 0x1a, 0x18,
	0x08, 0x01, 0x10, 0x80, 0x80, 0x80, 0x02, 0x18, 0x80, 0x80, 0xc0, 0x02,
	0x28, 0x0b, 0x30, 0x13, 0x38, 0x01, 0x40, 0x01, 0x48, 0x01, 0x50, 0x01,
	0x22, 0x15, 0x08, 0x01, 0x10, 0x01, 0x18, 0x90, 0xa0, 0x80, 0x02, 0x22,
	0x04, 0x08, 0x03, 0x10, 0x0c, 0x22, 0x04, 0x08, 0x01, 0x10, 0x07, 0x22,
	0x10, 0x08, 0x02, 0x10, 0x01, 0x18, 0xa0, 0xc0, 0x80, 0x02, 0x22, 0x05,
	0x08, 0x02, 0x10, 0xfa, 0x01, 0x22, 0x09, 0x08, 0x03, 0x10, 0x01, 0x18,
	0xb0, 0xe0, 0x80, 0x02, 0x2a, 0x0a, 0x08, 0x01, 0x10, 0x05, 0x18, 0x05,
	0x20, 0x06, 0x28, 0x05, 0x2a, 0x08, 0x08, 0x02, 0x10, 0x07, 0x18, 0x07,
	0x20, 0x08, 0x2a, 0x0a, 0x08, 0x03, 0x10, 0x0c, 0x18, 0x0c, 0x20, 0x06,
	0x28, 0x0b, 0x32, 0x00, 0x32, 0x07, 0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65,
	0x73, 0x32, 0x05, 0x63, 0x6f, 0x75, 0x6e, 0x74, 0x32, 0x03, 0x63, 0x70,
	0x75, 0x32, 0x0b, 0x6e, 0x61, 0x6e, 0x6f, 0x73, 0x65, 0x63, 0x6f, 0x6e,
	0x64, 0x73, 0x32, 0x09, 0x6d, 0x61, 0x69, 0x6e, 0x2e, 0x6d, 0x61, 0x69,
	0x6e, 0x32, 0x07, 0x6d, 0x61, 0x69, 0x6e, 0x2e, 0x67, 0x6f, 0x32, 0x0c,
	0x72, 0x75, 0x6e, 0x74, 0x69, 0x6d, 0x65, 0x2e, 0x6d, 0x61, 0x69, 0x6e,
	0x32, 0x07, 0x70, 0x72, 0x6f, 0x63, 0x2e, 0x67, 0x6f, 0x32, 0x06, 0x77,
	0x6f, 0x72, 0x6b, 0x65, 0x72, 0x32, 0x01, 0x61, 0x32, 0x03, 0x62, 0x69,
	0x6e, 0x32, 0x08, 0x6d, 0x61, 0x69, 0x6e, 0x2e, 0x69, 0x6e, 0x6c, 0x32,
	0x05, 0x62, 0x79, 0x74, 0x65, 0x73, 0x32, 0x04, 0x73, 0x69, 0x7a, 0x65,
	0x32, 0x0b, 0x72, 0x75, 0x6e, 0x74, 0x69, 0x6d, 0x65, 0x5c, 0x2e, 0x2e,
	0x2a, 0x32, 0x0d, 0x72, 0x75, 0x6e, 0x74, 0x69, 0x6d, 0x65, 0x5c, 0x2e,
	0x6d, 0x61, 0x69, 0x6e, 0x32, 0x10, 0x6d, 0x61, 0x64, 0x65, 0x20, 0x62,
	0x79, 0x20, 0x6d, 0x6b, 0x62, 0x61, 0x64, 0x2e, 0x70, 0x79, 0x32, 0x01,
	0x62, 0x32, 0x08, 0x64, 0x65, 0x61, 0x64, 0x62, 0x65, 0x65, 0x66, 0x32,
	0x09, 0x6d, 0x61, 0x69, 0x6e, 0x5c, 0x2e, 0x69, 0x6e, 0x6c, 0x38, 0x14,
	0x48, 0x95, 0x9a, 0x97, 0xec, 0xe3, 0x9f, 0xe7, 0xcb, 0x17, 0x50, 0x80,
	0xa8, 0xd6, 0xb9, 0x07, 0x5a, 0x04, 0x08, 0x03, 0x10, 0x04, 0x60, 0x80,
	0xad, 0xe2, 0x04, 0x6a, 0x01, 0x11
};


static struct tr_db *
open_db(void)
{
	struct tr_error	 err;
	struct tr_db	*db;

	tr_error_init(&err);
	db = tr_db_open(":memory:", 0, &err);
	ck_assert_msg(db != NULL, "%s", err.msg);
	return (db);
}

/* Import 'len' bytes; returns 0 or -1 with 'err' set. */
static int
import(struct tr_db *db, const char *name, const void *p, size_t len,
    const char *format, struct tr_error *err)
{
	struct tr_import_opts	 o;
	struct tr_import_result	 r;
	struct tr_input		*in;
	int			 rc;

	tr_error_init(err);
	tr_import_opts_init(&o);
	if (format != NULL)
		o.format = tr_importer_find(format);
	in = tr_input_mem(name, p, len);
	rc = tr_import_input(db, in, &o, &r, err);
	tr_input_free(in);
	return (rc);
}

/* The first column of the first row of 'sql', as text (static). */
static const char *
text(struct tr_db *db, const char *sql)
{
	static char	 buf[4096];
	sqlite3_stmt	*st;
	const char	*s;

	ck_assert_int_eq(sqlite3_prepare_v2(db->sq, sql, -1, &st, NULL),
	    SQLITE_OK);
	buf[0] = '\0';
	if (sqlite3_step(st) == SQLITE_ROW) {
		s = (const char *)sqlite3_column_text(st, 0);
		snprintf(buf, sizeof buf, "%s", s ? s : "(null)");
	} else
		snprintf(buf, sizeof buf, "(no row)");
	sqlite3_finalize(st);
	return (buf);
}

static int64_t
num(struct tr_db *db, const char *sql)
{
	struct tr_error	err;
	int64_t		v;

	tr_error_init(&err);
	ck_assert_int_eq(tr_db_int(db, sql, &v, &err), 0);
	return (v);
}

/* --- building profiles with protobuf-c ------------------------------------ */

struct builder {
	Perftools__Profiles__Profile	p;
	char				*strs[64];
	Perftools__Profiles__ValueType	 vt[8], pt;
	Perftools__Profiles__ValueType	*vtp[8];
	Perftools__Profiles__Function	 fn[4];
	Perftools__Profiles__Function	*fnp[4];
	Perftools__Profiles__Line	 ln[4];
	Perftools__Profiles__Line	*lnp[4];
	Perftools__Profiles__Location	 loc[4];
	Perftools__Profiles__Location	*locp[4];
	Perftools__Profiles__Sample	 smp[4];
	Perftools__Profiles__Sample	*smpp[4];
	uint64_t			 locid[4];
	int64_t				 vals[4][8];
};

static int64_t
bstr(struct builder *b, const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < b->p.n_string_table; i++)
		if (strlen(b->strs[i]) == n && strncmp(b->strs[i], s, n) == 0)
			return ((int64_t)i);
	b->strs[i] = tr_xstrndup(s, n);
	b->p.n_string_table++;
	return ((int64_t)i);
}

/* "type/unit" into a ValueType. */
static void
value_type(struct builder *b, Perftools__Profiles__ValueType *v,
    const char *tu)
{
	const char	*slash = strchr(tu, '/');

	perftools__profiles__value_type__init(v);
	v->type = bstr(b, tu, (size_t)(slash - tu));
	v->unit = bstr(b, slash + 1, strlen(slash + 1));
}

/*
 * A profile with sample types 'types' ("type/unit", NULL-terminated),
 * period type 'period' ("type/unit" or NULL), default sample type 'dflt',
 * and, when 'leaf' is set, one sample whose one location runs function
 * 'leaf', with every value 1.
 */
static void
build(struct builder *b, const char *const *types, const char *period,
    const char *dflt, const char *leaf)
{
	size_t	 i, n;

	memset(b, 0, sizeof *b);
	perftools__profiles__profile__init(&b->p);
	b->p.string_table = b->strs;
	bstr(b, "", 0);
	for (n = 0; types[n] != NULL; n++) {
		value_type(b, &b->vt[n], types[n]);
		b->vtp[n] = &b->vt[n];
	}
	b->p.n_sample_type = n;
	b->p.sample_type = b->vtp;
	if (period != NULL) {
		value_type(b, &b->pt, period);
		b->p.period_type = &b->pt;
	}
	if (dflt != NULL)
		b->p.default_sample_type = bstr(b, dflt, strlen(dflt));
	if (leaf == NULL)
		return;
	perftools__profiles__function__init(&b->fn[0]);
	b->fn[0].id = 1;
	b->fn[0].name = bstr(b, leaf, strlen(leaf));
	b->fnp[0] = &b->fn[0];
	b->p.n_function = 1;
	b->p.function = b->fnp;
	perftools__profiles__line__init(&b->ln[0]);
	b->ln[0].function_id = 1;
	b->lnp[0] = &b->ln[0];
	perftools__profiles__location__init(&b->loc[0]);
	b->loc[0].id = 1;
	b->loc[0].n_line = 1;
	b->loc[0].line = b->lnp;
	b->locp[0] = &b->loc[0];
	b->p.n_location = 1;
	b->p.location = b->locp;
	perftools__profiles__sample__init(&b->smp[0]);
	b->locid[0] = 1;
	b->smp[0].n_location_id = 1;
	b->smp[0].location_id = b->locid;
	for (i = 0; i < n; i++)
		b->vals[0][i] = 1;
	b->smp[0].n_value = n;
	b->smp[0].value = b->vals[0];
	b->smpp[0] = &b->smp[0];
	b->p.n_sample = 1;
	b->p.sample = b->smpp;
}

static unsigned char *
pack(struct builder *b, size_t *len)
{
	unsigned char	*buf;

	*len = perftools__profiles__profile__get_packed_size(&b->p);
	buf = tr_xmalloc(*len + 1);
	perftools__profiles__profile__pack(&b->p, buf);
	return (buf);
}

static void
builder_release(struct builder *b)
{
	size_t	i;

	for (i = 0; i < b->p.n_string_table; i++)
		free(b->strs[i]);
}

/* --- the store after tiny.pb ---------------------------------------------- */

START_TEST(test_tiny_store)
{
	struct tr_error	 err;
	struct tr_db	*db = open_db();

	ck_assert_msg(import(db, "tiny.pb", tiny_pb, sizeof tiny_pb, NULL,
	    &err) == 0, "%s", err.msg);
	ck_assert_str_eq(text(db, "SELECT format || ' ' || clock FROM "
	    "source"), "pprof wall");
	ck_assert_str_eq(text(db, "SELECT type || ' ' || ts || ' ' || dur || "
	    "' ' || period || ' ' || period_type || '/' || period_unit || ' ' "
	    "|| coalesce(default_type, 'none') FROM profile"),
	    "cpu 1700000000123456789 2000000000 10000000 cpu/nanoseconds none");
	ck_assert_str_eq(text(db, "SELECT sample_types FROM profile"),
	    "[{\"type\":\"samples\",\"unit\":\"count\"},"
	    "{\"type\":\"cpu\",\"unit\":\"nanoseconds\"}]");
	/* The source's time range is the profile's. */
	ck_assert_str_eq(text(db, "SELECT ts_min || ' ' || ts_max FROM "
	    "source"), "1700000000123456789 1700000002123456789");
	ck_assert_str_eq(text(db, "SELECT json_extract(meta, '$.mappings[0]."
	    "file') || ' ' || json_extract(meta, '$.mappings[0].build_id') || "
	    "' ' || json_extract(meta, '$.mappings[0].start') || ' ' || "
	    "json_extract(meta, '$.comments[0]') || ' ' || json_extract(meta, "
	    "'$.drop_frames') || ' ' || json_extract(meta, '$.keep_frames') || "
	    "' ' || json_extract(meta, '$.units.size') FROM profile"),
	    "bin deadbeef 4194304 made by mkbad.py runtime\\..* "
	    "runtime\\.main bytes");
	/* Start lines the frames cannot hold are in the meta. */
	ck_assert_str_eq(text(db, "SELECT group_concat(json_extract(f.value, "
	    "'$.name') || ':' || json_extract(f.value, '$.start_line'), ' ') "
	    "FROM profile, json_each(profile.meta, '$.functions') f"),
	    "main.main:5 main.inl:11");
	/* One row per value, event = the sample type. */
	ck_assert_int_eq(num(db, "SELECT count(*) FROM sample"), 6);
	ck_assert_str_eq(text(db, "SELECT group_concat(sample_type || '=' || "
	    "value, ' ') FROM (SELECT * FROM pprof_sample ORDER BY id)"),
	    "samples=3 cpu=30000000 samples=1 cpu=10000000 samples=2 "
	    "cpu=20000000");
	ck_assert_str_eq(text(db, "SELECT labels FROM sample ORDER BY id"),
	    "{\"size\":64,\"worker\":\"a\"}");
	ck_assert_int_eq(num(db, "SELECT count(*) FROM sample WHERE labels "
	    "IS NULL"), 2);
	/* Inlined frames innermost first, flagged; a location without
	 * lines is "[unknown]" at its address in its mapping. */
	ck_assert_str_eq(text(db, "SELECT group_concat(f.name || '@' || "
	    "f.file || ':' || f.line || '#' || f.inlined || '/' || f.module "
	    "|| '/' || printf('%x', f.addr), ' ') FROM (SELECT * FROM stack "
	    "WHERE callsite_id = (SELECT callsite_id FROM sample ORDER BY id "
	    "LIMIT 1) ORDER BY depth) s JOIN frame f ON f.id = s.frame_id"),
	    "runtime.main@proc.go:250#0/bin/402020 "
	    "main.main@main.go:7#0/bin/401010 "
	    "main.inl@main.go:12#1/bin/401010");
	ck_assert_str_eq(text(db, "SELECT name || '/' || module || '/' || "
	    "printf('%x', addr) FROM frame WHERE file = '' AND line = 0"),
	    "[unknown]/bin/403030");
	tr_db_free(db);
}
END_TEST

START_TEST(test_tiny_zstd_same)
{
	struct tr_error	 err;
	struct tr_db	*db = open_db();
	const char	*dir = getenv("TR_DATA");
	char		*path;
	FILE		*f;
	unsigned char	 buf[4096];
	size_t		 n;

	/* The committed zstd copy decodes to the same profile. */
	ck_assert_ptr_nonnull(dir);
	path = tr_xasprintf("%s/pprof/tiny.pb.zst", dir);
	f = fopen(path, "rb");
	free(path);
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	ck_assert_msg(import(db, "tiny.pb.zst", buf, n, NULL, &err) == 0,
	    "%s", err.msg);
	ck_assert_str_eq(text(db, "SELECT compression || ' ' || format FROM "
	    "source"), "zstd pprof");
	/* Same content: importing the raw bytes is a duplicate. */
	ck_assert_int_eq(import(db, "tiny.pb", tiny_pb, sizeof tiny_pb, NULL,
	    &err), 0);
	ck_assert_int_eq(num(db, "SELECT count(*) FROM source"), 1);
	tr_db_free(db);
}
END_TEST

START_TEST(test_probe)
{
	const struct tr_importer	*imp = tr_importer_find("pprof");
	static const char *const texts[] = {
		"# ========\n# captured on: x\n",
		"swapper     0 [000] 12.345: cpu-clock:\n",
		"{\"gpus\": []}\n",
		"timestamp, name, utilization.gpu [%]\n",
		"go 1.19 trace\0\0\0",
		"# gpu   pwr  gtemp\n",
		"burn 1234 12.345678: 10101010 cpu-clock:\n",
	};
	size_t				 i;

	ck_assert_ptr_nonnull(imp);
	ck_assert_int_ge(imp->probe(tiny_pb, sizeof tiny_pb), 80);
	ck_assert_int_ge(imp->probe(prune_pb, sizeof prune_pb), 80);
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++)
		ck_assert_msg(imp->probe((const unsigned char *)texts[i],
		    strlen(texts[i])) == 0, "probe took '%s'", texts[i]);
	ck_assert_int_eq(imp->probe((const unsigned char *)"", 0), 0);
	/* The detector picks pprof for it. */
	ck_assert_str_eq(tr_importer_detect(tiny_pb, sizeof tiny_pb)->name,
	    "pprof");
}
END_TEST

/* --- profile types -------------------------------------------------------- */

START_TEST(test_types)
{
	static const char *const cpu[] = { "samples/count",
	    "cpu/nanoseconds", NULL };
	static const char *const heap[] = { "alloc_objects/count",
	    "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes",
	    NULL };
	static const char *const contention[] = { "contentions/count",
	    "delay/nanoseconds", NULL };
	static const char *const goroutine[] = { "goroutine/count", NULL };
	static const char *const threads[] = { "threadcreate/count", NULL };
	static const char *const wall[] = { "wall/nanoseconds", NULL };
	static const char *const none[] = { NULL };
	static const struct {
		const char *const	*types;
		const char		*period, *dflt, *leaf, *name, *want;
	} cases[] = {
		{ cpu, "cpu/nanoseconds", NULL, "main.f", "p", "cpu" },
		{ heap, "space/bytes", NULL, "main.f", "p", "heap" },
		{ heap, "space/bytes", "alloc_space", "main.f", "p", "allocs" },
		{ contention, "contentions/count", NULL,
		    "sync.(*Mutex).Lock", "p", "block" },
		{ contention, "contentions/count", NULL,
		    "sync.(*Mutex).Unlock", "p", "mutex" },
		{ contention, "contentions/count", NULL, NULL, "mutex.pb.gz",
		    "mutex" },
		{ contention, "contentions/count", NULL, NULL, "x.pb.gz",
		    "block" },
		{ goroutine, "goroutine/count", NULL, "main.f", "p",
		    "goroutine" },
		{ threads, "threadcreate/count", NULL, NULL, "p",
		    "threadcreate" },
		{ wall, "wall/nanoseconds", NULL, "main.f", "p", "other" },
		{ none, "cpu/nanoseconds", NULL, NULL, "p", "cpu" },
	};
	struct builder	 b;
	struct tr_error	 err;
	struct tr_db	*db;
	unsigned char	*buf;
	size_t		 i, len;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		db = open_db();
		build(&b, cases[i].types, cases[i].period, cases[i].dflt,
		    cases[i].leaf);
		buf = pack(&b, &len);
		ck_assert_msg(import(db, cases[i].name, buf, len, "pprof",
		    &err) == 0, "case %zu: %s", i, err.msg);
		ck_assert_msg(strcmp(text(db, "SELECT type FROM profile"),
		    cases[i].want) == 0, "case %zu: '%s', want '%s'", i,
		    text(db, "SELECT type FROM profile"), cases[i].want);
		free(buf);
		builder_release(&b);
		tr_db_free(db);
	}
}
END_TEST

START_TEST(test_legacy)
{
	static const char *const none[] = { NULL };
	struct builder	 b;
	struct tr_error	 err;
	struct tr_db	*db = open_db();
	unsigned char	*buf;
	size_t		 len;

	/* No sample types, one value per sample: the period type's. */
	build(&b, none, "cpu/nanoseconds", NULL, "main.f");
	b.vals[0][0] = 10000000;
	b.smp[0].n_value = 1;
	buf = pack(&b, &len);
	ck_assert_msg(import(db, "legacy", buf, len, "pprof", &err) == 0,
	    "%s", err.msg);
	ck_assert_str_eq(text(db, "SELECT sample_types FROM profile"),
	    "[{\"type\":\"cpu\",\"unit\":\"nanoseconds\"}]");
	ck_assert_str_eq(text(db, "SELECT sample_type || '=' || value FROM "
	    "pprof_sample"), "cpu=10000000");
	free(buf);
	builder_release(&b);
	tr_db_free(db);
}
END_TEST

/* --- validation ----------------------------------------------------------- */

/* Import must fail with 'msg' at 'offset' and leave the store empty. */
static void
expect_error(const unsigned char *buf, size_t len, const char *msg,
    int64_t offset)
{
	struct tr_error	 err;
	struct tr_db	*db = open_db();

	ck_assert_int_eq(import(db, "bad.pb", buf, len, "pprof", &err), -1);
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_str_eq(err.msg, msg);
	ck_assert_int_eq(err.offset, offset);
	ck_assert_int_eq(num(db, "SELECT (SELECT count(*) FROM source) + "
	    "(SELECT count(*) FROM sample) + (SELECT count(*) FROM frame) + "
	    "(SELECT count(*) FROM profile)"), 0);
	tr_db_free(db);
}

START_TEST(test_errors)
{
	static const char *const cpu[] = { "samples/count",
	    "cpu/nanoseconds", NULL };
	struct builder	 b;
	unsigned char	*buf, *cut;
	size_t		 len;

	/* A sample with one value too few. */
	build(&b, cpu, "cpu/nanoseconds", NULL, "main.f");
	b.smp[0].n_value = 1;
	buf = pack(&b, &len);
	expect_error(buf, len, "sample 0: expected 2 values (one per sample "
	    "type), found 1", 12);
	free(buf);
	builder_release(&b);

	/* A sample naming a location that does not exist. */
	build(&b, cpu, "cpu/nanoseconds", NULL, "main.f");
	b.locid[0] = 5;
	buf = pack(&b, &len);
	expect_error(buf, len, "sample 0: location id 5 does not exist", 12);
	free(buf);
	builder_release(&b);

	/* A line naming a function that does not exist. */
	build(&b, cpu, "cpu/nanoseconds", NULL, "main.f");
	b.ln[0].function_id = 3;
	buf = pack(&b, &len);
	expect_error(buf, len, "location 0 (id 1): line 0: function id 3 "
	    "does not exist", 21);
	free(buf);
	builder_release(&b);

	/* A location in a mapping that does not exist. */
	build(&b, cpu, "cpu/nanoseconds", NULL, "main.f");
	b.loc[0].mapping_id = 2;
	buf = pack(&b, &len);
	expect_error(buf, len, "location 0 (id 1): mapping id 2 does not "
	    "exist", 21);
	free(buf);
	builder_release(&b);

	/* A function name past the string table. */
	build(&b, cpu, "cpu/nanoseconds", NULL, "main.f");
	b.fn[0].name = 40;
	buf = pack(&b, &len);
	expect_error(buf, len, "function 0: name: string index 40 out of "
	    "range (the string table has 6 entries)", 29);
	free(buf);
	builder_release(&b);

	/* Location id 0. */
	build(&b, cpu, "cpu/nanoseconds", NULL, "main.f");
	b.loc[0].id = 0;
	b.locid[0] = 0;
	buf = pack(&b, &len);
	expect_error(buf, len, "location 0: id 0 is reserved", 21);
	free(buf);
	builder_release(&b);

	/* Cut inside the string table. */
	build(&b, cpu, "cpu/nanoseconds", NULL, "main.f");
	buf = pack(&b, &len);
	cut = tr_xmalloc(len);
	memcpy(cut, buf, len);
	expect_error(cut, 40, "truncated field 'string_table' (3 bytes left)",
	    37);
	free(cut);
	free(buf);
	builder_release(&b);

	/* The embedded profile twice: two time_nanos. */
	cut = tr_xmalloc(2 * sizeof tiny_pb);
	memcpy(cut, tiny_pb, sizeof tiny_pb);
	memcpy(cut + sizeof tiny_pb, tiny_pb, sizeof tiny_pb);
	expect_error(cut, 2 * sizeof tiny_pb, "a second time_nanos: "
	    "concatenated profiles are not supported", 778);
	free(cut);
}
END_TEST

/* --- go tool pprof -top --------------------------------------------------- */

static void
expect_row(const struct tr_pprof_report *r, size_t i, const char *name,
    const char *inl, int64_t flat, int64_t cum)
{
	ck_assert_uint_gt(r->n, i);
	ck_assert_str_eq(r->rows[i].name, name);
	ck_assert_str_eq(r->rows[i].inl, inl);
	ck_assert_int_eq(r->rows[i].flat, flat);
	ck_assert_int_eq(r->rows[i].cum, cum);
}

START_TEST(test_top)
{
	struct tr_pprof_report	 r;
	struct tr_pprof_opts	 o;
	struct tr_pprof_sel	 sel;
	struct tr_error		 err;
	struct tr_db		*db = open_db();

	ck_assert_int_eq(import(db, "tiny.pb", tiny_pb, sizeof tiny_pb, NULL,
	    &err), 0);
	tr_pprof_sel_init(&sel);
	tr_pprof_opts_init(&o);
	/* Values go tool pprof -top prints for tiny.pb (golden). */
	ck_assert_msg(tr_pprof_top(db, &sel, NULL, &o, &r, &err) == 0, "%s",
	    err.msg);
	ck_assert_str_eq(r.sample_type, "cpu");
	ck_assert_str_eq(r.unit, "nanoseconds");
	ck_assert_int_eq(r.total, 60000000);
	ck_assert_uint_eq(r.n, 4);
	expect_row(&r, 0, "main.inl", "inline", 30000000, 30000000);
	expect_row(&r, 1, "runtime.main", "", 20000000, 60000000);
	expect_row(&r, 2, "[bin]", "", 10000000, 10000000);
	expect_row(&r, 3, "main.main", "", 0, 30000000);
	tr_pprof_report_release(&r);

	/* Lines; the first sample type by name; the top two. */
	o.gran = TR_GRAN_LINES;
	o.sample_index = "samples";
	o.nodecount = 2;
	ck_assert_int_eq(tr_pprof_top(db, &sel, NULL, &o, &r, &err), 0);
	ck_assert_int_eq(r.total, 6);
	ck_assert_uint_eq(r.n, 2);
	expect_row(&r, 0, "main.inl main.go:12", "inline", 3, 3);
	expect_row(&r, 1, "runtime.main proc.go:250", "", 2, 6);
	tr_pprof_report_release(&r);

	/* Focus keeps the total: percentages stay of all samples. */
	tr_pprof_opts_init(&o);
	o.focus = "inl$";
	ck_assert_int_eq(tr_pprof_top(db, &sel, NULL, &o, &r, &err), 0);
	ck_assert_int_eq(r.total, 60000000);
	ck_assert_uint_eq(r.n, 3);
	expect_row(&r, 0, "main.inl", "inline", 30000000, 30000000);
	ck_assert_int_eq(r.shown, 30000000);
	tr_pprof_report_release(&r);

	/* Ignore by mapping file name, as pprof matches it too. */
	o.focus = NULL;
	o.ignore = "^bin$";
	ck_assert_int_eq(tr_pprof_top(db, &sel, NULL, &o, &r, &err), 0);
	ck_assert_uint_eq(r.n, 0);
	tr_pprof_report_release(&r);

	/* Labels select samples; numbers match as text. */
	o.ignore = NULL;
	o.labels[0] = "size=64";
	o.nlabels = 1;
	ck_assert_int_eq(tr_pprof_top(db, &sel, NULL, &o, &r, &err), 0);
	ck_assert_int_eq(r.shown, 30000000);
	tr_pprof_report_release(&r);

	/* Errors: a bad regex, an unknown sample type. */
	tr_pprof_opts_init(&o);
	o.focus = "(";
	ck_assert_int_eq(tr_pprof_top(db, &sel, NULL, &o, &r, &err), -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	tr_error_init(&err);
	tr_pprof_opts_init(&o);
	o.sample_index = "alloc_space";
	ck_assert_int_eq(tr_pprof_top(db, &sel, NULL, &o, &r, &err), -1);
	ck_assert_str_eq(err.msg, "unknown sample type 'alloc_space'; "
	    "profile 1 has: samples, cpu");
	tr_db_free(db);
}
END_TEST

START_TEST(test_prune_and_diff)
{
	struct tr_pprof_report	 r;
	struct tr_pprof_opts	 o;
	struct tr_pprof_sel	 base, sel;
	struct tr_error		 err;
	struct tr_db		*db = open_db();
	int64_t			 one = 1, two = 2;

	ck_assert_int_eq(import(db, "prune.pb", prune_pb, sizeof prune_pb,
	    NULL, &err), 0);
	tr_pprof_sel_init(&sel);
	tr_pprof_opts_init(&o);
	/* drop_frames 'main\.inl' cuts the inlined line: main.main is the
	 * leaf (go tool pprof -top of prune.pb). */
	ck_assert_int_eq(tr_pprof_top(db, &sel, NULL, &o, &r, &err), 0);
	ck_assert_uint_eq(r.n, 3);
	expect_row(&r, 0, "main.main", "", 30000000, 30000000);
	expect_row(&r, 1, "runtime.main", "", 20000000, 60000000);
	expect_row(&r, 2, "[bin]", "", 10000000, 10000000);
	tr_pprof_report_release(&r);

	/*
	 * prune.pb minus tiny.pb: the same samples, pruned alike (the
	 * selection's drop_frames apply to the base, as in pprof): nothing
	 * left, and the total is the base's.
	 */
	ck_assert_int_eq(import(db, "tiny.pb", tiny_pb, sizeof tiny_pb, NULL,
	    &err), 0);
	tr_pprof_sel_init(&base);
	base.profile_ids = &two;
	base.nprofile_ids = 1;
	sel.profile_ids = &one;
	sel.nprofile_ids = 1;
	ck_assert_int_eq(tr_pprof_top(db, &sel, &base, &o, &r, &err), 0);
	ck_assert_int_eq(r.total, 60000000);
	ck_assert_uint_eq(r.n, 0);
	tr_pprof_report_release(&r);
	tr_db_free(db);
}
END_TEST

START_TEST(test_percent)
{
	ck_assert(tr_pprof_percent(1, 3) == 33.33);
	ck_assert(tr_pprof_percent(-1, 3) == 33.33);
	ck_assert(tr_pprof_percent(1, 1000) == 0.1);
	ck_assert(tr_pprof_percent(17, 100000) == 0.017);
	ck_assert(tr_pprof_percent(9995, 10000) == 100);
	ck_assert(tr_pprof_percent(5, 0) == 0);
}
END_TEST

/* --- export --------------------------------------------------------------- */

START_TEST(test_export_roundtrip)
{
	struct tr_pprof_export_stats	 st;
	struct tr_pprof_report		 r;
	struct tr_pprof_opts		 o;
	struct tr_pprof_sel		 sel;
	struct tr_sel			 fs;
	struct tr_error			 err;
	struct tr_db			*db = open_db(), *db2 = open_db();
	struct tr_import_opts		 io;
	struct tr_import_result		 res;
	char				 path[] = "/tmp/check-pprof-XXXXXX";
	unsigned char			 magic[2];
	FILE				*f;
	int				 fd;

	ck_assert_int_eq(import(db, "tiny.pb", tiny_pb, sizeof tiny_pb, NULL,
	    &err), 0);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	tr_sel_init(&fs, TR_SEL_ALL);
	ck_assert_int_eq(tr_sel_resolve(&fs, db, &err), 0);
	ck_assert_msg(tr_pprof_export(db, &fs, path, &st, &err) == 0, "%s",
	    err.msg);
	ck_assert_int_eq(st.samples, 3);
	ck_assert_int_eq(st.types, 2);
	ck_assert_int_eq(st.locations, 3);
	f = fopen(path, "rb");
	ck_assert_int_eq(fread(magic, 1, 2, f), 2);
	fclose(f);
	ck_assert_int_eq(magic[0], 0x1f);
	ck_assert_int_eq(magic[1], 0x8b);
	tr_import_opts_init(&io);
	ck_assert_msg(tr_import_file(db2, path, "out.pb.gz", &io, &res,
	    &err) == 0, "%s", err.msg);
	ck_assert_str_eq(text(db2, "SELECT type || ' ' || ts || ' ' || dur "
	    "FROM profile"), "cpu 1700000000123456789 2000000000");
	ck_assert_str_eq(text(db2, "SELECT labels FROM sample ORDER BY id"),
	    "{\"size\":64,\"worker\":\"a\"}");
	ck_assert_str_eq(text(db2, "SELECT json_extract(meta, '$.units.size') "
	    "|| ' ' || json_extract(meta, '$.drop_frames') FROM profile"),
	    "bytes runtime\\..*");
	tr_pprof_sel_init(&sel);
	tr_pprof_opts_init(&o);
	ck_assert_int_eq(tr_pprof_top(db2, &sel, NULL, &o, &r, &err), 0);
	ck_assert_uint_eq(r.n, 4);
	expect_row(&r, 0, "main.inl", "inline", 30000000, 30000000);
	expect_row(&r, 3, "main.main", "", 0, 30000000);
	tr_pprof_report_release(&r);

	/* One sample type only. */
	ck_assert_int_eq(tr_sel_option(&fs, "event", "samples", &err), 1);
	ck_assert_int_eq(tr_sel_resolve(&fs, db, &err), 0);
	ck_assert_int_eq(tr_pprof_export(db, &fs, path, &st, &err), 0);
	ck_assert_int_eq(st.types, 1);
	free(st.note);
	tr_sel_release(&fs);
	unlink(path);
	tr_db_free(db);
	tr_db_free(db2);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("import-pprof");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_tiny_store);
	tcase_add_test(tc, test_tiny_zstd_same);
	tcase_add_test(tc, test_probe);
	tcase_add_test(tc, test_types);
	tcase_add_test(tc, test_legacy);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_top);
	tcase_add_test(tc, test_prune_and_diff);
	tcase_add_test(tc, test_percent);
	tcase_add_test(tc, test_export_roundtrip);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
