/*
 * Unit tests for util: the interning map, durations, buffers, allocation
 * helpers and the hash.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "base/util.h"

START_TEST(test_map_basic)
{
	struct tr_map	*m = tr_map_new();
	int64_t		 v = 0;

	ck_assert_uint_eq(tr_map_count(m), 0);
	ck_assert_int_eq(tr_map_get(m, "a", 1, &v), 0);
	tr_map_put(m, "a", 1, 10);
	tr_map_put(m, "ab", 2, 20);
	ck_assert_uint_eq(tr_map_count(m), 2);
	ck_assert_int_eq(tr_map_get(m, "a", 1, &v), 1);
	ck_assert_int_eq(v, 10);
	ck_assert_int_eq(tr_map_get(m, "ab", 2, &v), 1);
	ck_assert_int_eq(v, 20);
	/* A prefix of a key is a different key. */
	ck_assert_int_eq(tr_map_get(m, "abc", 2, &v), 1);
	ck_assert_int_eq(tr_map_get(m, "abc", 3, &v), 0);
	/* Replacing keeps the count. */
	tr_map_put(m, "a", 1, -7);
	ck_assert_uint_eq(tr_map_count(m), 2);
	ck_assert_int_eq(tr_map_get(m, "a", 1, &v), 1);
	ck_assert_int_eq(v, -7);
	tr_map_free(m);
	tr_map_free(NULL);
}
END_TEST

START_TEST(test_map_binary_keys)
{
	struct tr_map		*m = tr_map_new();
	static const char	 k1[] = { 'x', '\0', 'y' };
	static const char	 k2[] = { 'x', '\0', 'z' };
	int64_t			 v = 0;

	tr_map_put(m, "", 0, 1);
	tr_map_put(m, k1, sizeof k1, 2);
	tr_map_put(m, k2, sizeof k2, 3);
	tr_map_put(m, "x", 1, 4);
	ck_assert_uint_eq(tr_map_count(m), 4);
	ck_assert_int_eq(tr_map_get(m, "", 0, &v), 1);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(tr_map_get(m, k1, sizeof k1, &v), 1);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(tr_map_get(m, k2, sizeof k2, &v), 1);
	ck_assert_int_eq(v, 3);
	ck_assert_int_eq(tr_map_get(m, "x", 1, &v), 1);
	ck_assert_int_eq(v, 4);
	tr_map_free(m);
}
END_TEST

/* Many keys: the slot table and the key arena both grow many times. */
START_TEST(test_map_growth)
{
	struct tr_map	*m = tr_map_new();
	char		 key[64];
	int64_t		 v;
	int		 i, n = 100000, len;

	for (i = 0; i < n; i++) {
		len = snprintf(key, sizeof key, "key-%d-%0*d", i, i % 40, 0);
		tr_map_put(m, key, (size_t)len, (int64_t)i * 3);
	}
	ck_assert_uint_eq(tr_map_count(m), (size_t)n);
	/* Plain tests in the loops: a ck_assert costs a write to a pipe. */
	for (i = 0; i < n; i++) {
		len = snprintf(key, sizeof key, "key-%d-%0*d", i, i % 40, 0);
		v = -1;
		if (tr_map_get(m, key, (size_t)len, &v) != 1 ||
		    v != (int64_t)i * 3)
			ck_abort_msg("key %d: value %lld", i, (long long)v);
	}
	/* Keys that were never put are absent. */
	for (i = 0; i < 1000; i++) {
		len = snprintf(key, sizeof key, "other-%d", i);
		if (tr_map_get(m, key, (size_t)len, &v) != 0)
			ck_abort_msg("'%s' found", key);
	}
	/* Replace every tenth after growth. */
	for (i = 0; i < n; i += 10) {
		len = snprintf(key, sizeof key, "key-%d-%0*d", i, i % 40, 0);
		tr_map_put(m, key, (size_t)len, -(int64_t)i);
	}
	ck_assert_uint_eq(tr_map_count(m), (size_t)n);
	len = snprintf(key, sizeof key, "key-%d-%0*d", 99990, 99990 % 40, 0);
	ck_assert_int_eq(tr_map_get(m, key, (size_t)len, &v), 1);
	ck_assert_int_eq(v, -99990);
	len = snprintf(key, sizeof key, "key-%d-%0*d", 99991, 99991 % 40, 0);
	ck_assert_int_eq(tr_map_get(m, key, (size_t)len, &v), 1);
	ck_assert_int_eq(v, 99991 * 3);
	tr_map_free(m);
}
END_TEST

/* One key larger than the initial arena. */
START_TEST(test_map_big_key)
{
	struct tr_map	*m = tr_map_new();
	size_t		 n = 100000;
	char		*k = tr_xmalloc(n);
	int64_t		 v = 0;

	memset(k, 'q', n);
	tr_map_put(m, k, n, 42);
	tr_map_put(m, "q", 1, 43);
	ck_assert_int_eq(tr_map_get(m, k, n, &v), 1);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(tr_map_get(m, k, n - 1, &v), 0);
	ck_assert_int_eq(tr_map_get(m, "q", 1, &v), 1);
	ck_assert_int_eq(v, 43);
	free(k);
	tr_map_free(m);
}
END_TEST

/*
 * tr_map_bytes_after() is what the next put makes a fresh map hold (the
 * writer's caches are bounded by it); a cleared map forgets its keys and
 * keeps its memory, so a map cleared and refilled holds no more.
 */
START_TEST(test_map_bytes_after_clear)
{
	struct tr_map	*m = tr_map_new();
	char		 key[32];
	size_t		 after, before, big, slot;
	int64_t		 v;
	int		 i, len;

	/* 1024 slots and 4096 bytes of keys to start with. */
	slot = (tr_map_bytes(m) - 4096) / 1024;
	ck_assert_uint_eq(tr_map_bytes(m), 1024 * slot + 4096);
	ck_assert_uint_eq(tr_map_bytes_after(m, 10), tr_map_bytes(m));
	ck_assert_uint_eq(tr_map_bytes_after(m, 4097), 1024 * slot + 8192);
	for (i = 0; i < 20000; i++) {
		len = snprintf(key, sizeof key, "key-%d", i);
		after = tr_map_bytes_after(m, (size_t)len);
		tr_map_put(m, key, (size_t)len, i);
		if (tr_map_bytes(m) != after)
			ck_abort_msg("put %d: %zu bytes, %zu foretold", i,
			    tr_map_bytes(m), after);
	}
	/* 20000 keys: 32768 slots (at most 3/4 full), 256 kB of keys. */
	big = tr_map_bytes(m);
	ck_assert_uint_eq(big, 32768 * slot + 256 * 1024);
	tr_map_clear(m);
	ck_assert_uint_eq(tr_map_count(m), 0);
	ck_assert_int_eq(tr_map_get(m, "key-7", 5, &v), 0);
	ck_assert_uint_eq(tr_map_bytes(m), big);
	/* What a fresh map would hold, not what this one kept. */
	ck_assert_uint_eq(tr_map_bytes_after(m, 5), 1024 * slot + 4096);
	for (i = 0; i < 20000; i++) {
		len = snprintf(key, sizeof key, "other-%d", i);
		tr_map_put(m, key, (size_t)len, -i);
	}
	ck_assert_uint_eq(tr_map_count(m), 20000);
	ck_assert_uint_eq(tr_map_bytes(m), big);
	ck_assert_int_eq(tr_map_get(m, "key-7", 5, &v), 0);
	ck_assert_int_eq(tr_map_get(m, "other-19999", 11, &v), 1);
	ck_assert_int_eq(v, -19999);
	before = tr_map_bytes(m);
	tr_map_put(m, "other-5", 7, 5);
	ck_assert_uint_eq(tr_map_bytes(m), before);
	ck_assert_int_eq(tr_map_get(m, "other-5", 7, &v), 1);
	ck_assert_int_eq(v, 5);
	tr_map_free(m);
}
END_TEST

START_TEST(test_hash)
{
	char	a[40], b[40];

	memset(a, 'a', sizeof a);
	memcpy(b, a, sizeof b);
	ck_assert(tr_hash64(a, sizeof a) == tr_hash64(b, sizeof b));
	b[39] = 'b';
	ck_assert(tr_hash64(a, sizeof a) != tr_hash64(b, sizeof b));
	b[39] = 'a';
	b[3] = 'b';
	ck_assert(tr_hash64(a, sizeof a) != tr_hash64(b, sizeof b));
	/* Length is part of the identity, even for zero bytes. */
	memset(a, 0, sizeof a);
	ck_assert(tr_hash64(a, 8) != tr_hash64(a, 16));
	ck_assert(tr_hash64(a, 0) != tr_hash64(a, 1));
}
END_TEST

struct dur_case {
	const char	*text;
	int		 rc;
	int64_t		 ns;
};

START_TEST(test_parse_duration)
{
	static const struct dur_case	cases[] = {
		{ "1.5s", 0, 1500000000LL },
		{ "200ms", 0, 200000000LL },
		{ "10us", 0, 10000LL },
		{ "-3ns", 0, -3LL },
		{ "+3ns", 0, 3LL },
		{ "500ns", 0, 500LL },
		{ "2m", 0, 120000000000LL },
		{ "2min", 0, 120000000000LL },
		{ "1h", 0, 3600000000000LL },
		{ "7", 0, 7000000000LL },
		{ "0.25", 0, 250000000LL },
		{ "  1ms", 0, 1000000LL },
		{ "0s", 0, 0LL },
		{ "1e3ms", 0, 1000000000LL },
		{ "1.000000001s", 0, 1000000001LL },
		{ "2.5us", 0, 2500LL },
		{ "9000000000s", 0, 9000000000000000000LL },
		{ "", -1, 0 },
		{ "   ", -1, 0 },
		{ "s", -1, 0 },
		{ "ms", -1, 0 },
		{ "abc", -1, 0 },
		{ "1x", -1, 0 },
		{ "1 s", -1, 0 },
		{ "1s ", -1, 0 },
		{ "1.5.5s", -1, 0 },
		{ "1sec", -1, 0 },
		{ "1S", -1, 0 },
		{ "--1s", -1, 0 },
		{ "nan", -1, 0 },
		{ "inf", -1, 0 },
		{ "infs", -1, 0 },
		{ "1e300s", -1, 0 },
		{ "10000000000s", -1, 0 },
		{ "-10000000000s", -1, 0 },
		/* Exact: every digit a double would lose is kept. */
		{ "742.474741497", 0, 742474741497LL },
		{ "1795959651.180255123s", 0, 1795959651180255123LL },
		{ "1795959651180255123ns", 0, 1795959651180255123LL },
		{ "-1795959651.180255123", 0, -1795959651180255123LL },
		{ "9223372036.854775807s", 0, INT64_MAX },
		{ "-9223372036.854775807s", 0, -INT64_MAX },
		{ "9223372036.854775808s", -1, 0 },
		{ "0.000000001s", 0, 1LL },
		/* The first digit beyond the ns rounds, half up. */
		{ "0.0000000015s", 0, 2LL },
		{ "0.0000000014999s", 0, 1LL },
		{ "1.2345ns", 0, 1LL },
		{ "2.5ns", 0, 3LL },
		{ "00012.5ms", 0, 12500000LL },
		{ "1.5m", 0, 90000000000LL },
		{ "0.1h", 0, 360000000000LL },
		{ "1.000000000001h", 0, 3600000000004LL },
		{ "1.000000000000001h", 0, 3600000000000LL },
		{ "1e-3s", 0, 1000000LL },
		{ "1.5E3ms", 0, 1500000000LL },
		{ "25e-1us", 0, 2500LL },
		{ "0e300s", 0, 0LL },
		{ ".5s", 0, 500000000LL },
		{ "5.", 0, 5000000000LL },
		{ "12345678901234567890123e-20s", 0, 123456789012LL },
		{ ".", -1, 0 },
		{ "1e", -1, 0 },
		{ "1e+s", -1, 0 },
		{ "0x10", -1, 0 },
		{ "1..5s", -1, 0 },
		{ "+-1s", -1, 0 },
		{ "2562048h", -1, 0 },
	};
	size_t	i;
	int64_t	ns;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ns = 12345;
		ck_assert_msg(tr_parse_duration(cases[i].text, &ns) ==
		    cases[i].rc, "'%s': expected rc %d", cases[i].text,
		    cases[i].rc);
		if (cases[i].rc == 0)
			ck_assert_msg(ns == cases[i].ns,
			    "'%s': expected %lld, got %lld", cases[i].text,
			    (long long)cases[i].ns, (long long)ns);
		else
			/* A failed parse leaves the output alone. */
			ck_assert_int_eq(ns, 12345);
	}
}
END_TEST

START_TEST(test_format_duration)
{
	char	buf[64];

	tr_format_duration(0, buf, sizeof buf);
	ck_assert_str_eq(buf, "0ns");
	tr_format_duration(999, buf, sizeof buf);
	ck_assert_str_eq(buf, "999ns");
	tr_format_duration(-3, buf, sizeof buf);
	ck_assert_str_eq(buf, "-3ns");
	tr_format_duration(1000, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.000us");
	tr_format_duration(12300000, buf, sizeof buf);
	ck_assert_str_eq(buf, "12.300ms");
	tr_format_duration(1500000000, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.500s");
	tr_format_duration(-1500000000, buf, sizeof buf);
	ck_assert_str_eq(buf, "-1.500s");
	tr_format_duration(INT64_MAX, buf, sizeof buf);
	ck_assert_str_eq(buf, "9223372036.855s");
	/* The most negative value has no positive counterpart. */
	tr_format_duration(INT64_MIN, buf, sizeof buf);
	ck_assert_str_eq(buf, "-9223372036.855s");
	/* Truncated to the buffer, still terminated. */
	tr_format_duration(1500000000, buf, 4);
	ck_assert_str_eq(buf, "1.5");
}
END_TEST

START_TEST(test_buf)
{
	struct tr_buf	b;
	size_t		i;
	char		big[300];

	tr_buf_init(&b);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_str_eq(b.data, "");
	tr_buf_adds(&b, "ab");
	tr_buf_addc(&b, 'c');
	tr_buf_add(&b, "d\0e", 3);
	ck_assert_uint_eq(b.len, 6);
	ck_assert_int_eq(memcmp(b.data, "abcd\0e", 7), 0);
	tr_buf_reset(&b);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_str_eq(b.data, "");
	/* printf larger than the current capacity */
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	tr_buf_printf(&b, "[%s|%d]", big, 42);
	ck_assert_uint_eq(b.len, 299 + 5);
	ck_assert_int_eq(b.data[0], '[');
	ck_assert_str_eq(b.data + 300, "|42]");
	ck_assert(b.cap > b.len);
	/* byte by byte past several doublings */
	tr_buf_reset(&b);
	for (i = 0; i < 10000; i++)
		tr_buf_addc(&b, (char)('a' + i % 26));
	ck_assert_uint_eq(b.len, 10000);
	ck_assert_int_eq(b.data[9999], 'a' + 9999 % 26);
	ck_assert_int_eq(b.data[10000], '\0');
	tr_buf_printf(&b, "%s", "");
	ck_assert_uint_eq(b.len, 10000);
	tr_buf_release(&b);
	ck_assert_ptr_null(b.data);
	ck_assert_uint_eq(b.len, 0);
}
END_TEST

START_TEST(test_strings)
{
	char	*s;

	s = tr_xstrndup("hello", 3);
	ck_assert_str_eq(s, "hel");
	free(s);
	s = tr_xstrdup("");
	ck_assert_str_eq(s, "");
	free(s);
	s = tr_xasprintf("%s-%d-%lld", "a", -1, (long long)INT64_MAX);
	ck_assert_str_eq(s, "a--1-9223372036854775807");
	free(s);
	s = tr_xasprintf("%s", "");
	ck_assert_str_eq(s, "");
	free(s);
	/* Zero-size allocations give distinct, freeable pointers. */
	s = tr_xmalloc(0);
	ck_assert_ptr_nonnull(s);
	free(s);
	s = tr_xcalloc(0, 0);
	ck_assert_ptr_nonnull(s);
	s = tr_xrealloc(s, 0);
	ck_assert_ptr_nonnull(s);
	free(s);
}
END_TEST

/* The digest does not depend on how the bytes are cut into pieces. */
START_TEST(test_digest)
{
	static const char	 text[] = "the quick brown fox jumps over the "
	    "lazy dog, 0123456789";
	struct tr_digest	 d;
	char			 whole[64], bytes[64], other[64];
	size_t			 n = sizeof text - 1, i;

	tr_digest_init(&d);
	tr_digest_update(&d, text, n);
	tr_digest_final(&d, whole, sizeof whole);
	ck_assert_uint_eq(strlen(whole), 32 + 1 + 2);
	ck_assert_str_eq(whole + 32, "-55");
	tr_digest_init(&d);
	for (i = 0; i < n; i++)
		tr_digest_update(&d, text + i, 1);
	tr_digest_final(&d, bytes, sizeof bytes);
	ck_assert_str_eq(whole, bytes);
	tr_digest_init(&d);
	tr_digest_update(&d, text, 13);
	tr_digest_update(&d, text + 13, n - 13);
	tr_digest_final(&d, bytes, sizeof bytes);
	ck_assert_str_eq(whole, bytes);
	/* One byte changed, or a zero byte added, changes the digest. */
	tr_digest_init(&d);
	tr_digest_update(&d, "The", 3);
	tr_digest_update(&d, text + 3, n - 3);
	tr_digest_final(&d, other, sizeof other);
	ck_assert_str_ne(whole, other);
	tr_digest_init(&d);
	tr_digest_update(&d, text, n);
	tr_digest_update(&d, "", 1);
	tr_digest_final(&d, other, sizeof other);
	ck_assert_str_ne(whole, other);
	ck_assert_str_eq(other + 32, "-56");
	/* Empty input has a digest too. */
	tr_digest_init(&d);
	tr_digest_final(&d, other, sizeof other);
	ck_assert_str_eq(other + 32, "-0");
}
END_TEST

/*
 * tr_put_uint() and tr_put_int() write what printf writes: every value
 * below 10^5, each power of ten and its neighbours, the extremes, and
 * 100,000 values of every magnitude (a fixed LCG, shifted right by 0 to
 * 63 bits); nothing is written past the 20 or 21 bytes they may use.
 */
static void
put_check(uint64_t u)
{
	char	want[32], have[48], *e;
	int64_t	v = (int64_t)u;
	size_t	n;

	/*
	 * (Plain tests, ck_abort_msg() only on a mismatch: 800,000 calls of
	 * ck_assert_*() took 4 s on a loaded machine, Check's timeout.)
	 */
	memset(have, 'x', sizeof have);
	e = tr_put_uint(have, u);
	n = (size_t)snprintf(want, sizeof want, "%llu", (unsigned long long)u);
	if ((size_t)(e - have) != n || memcmp(have, want, n) != 0 ||
	    have[20] != 'x')
		ck_abort_msg("tr_put_uint(%s) wrote '%.*s'", want,
		    (int)(e - have), have);
	memset(have, 'x', sizeof have);
	e = tr_put_int(have, v);
	n = (size_t)snprintf(want, sizeof want, "%lld", (long long)v);
	if ((size_t)(e - have) != n || memcmp(have, want, n) != 0 ||
	    have[21] != 'x')
		ck_abort_msg("tr_put_int(%s) wrote '%.*s'", want,
		    (int)(e - have), have);
}

START_TEST(test_put_int)
{
	uint64_t	u, p, x = 88172645463325252ULL;
	int		i;

	for (u = 0; u < 100000; u++)
		put_check(u);
	for (p = 1, i = 0; i < 20; i++, p *= 10) {
		put_check(p - 1);
		put_check(p);
		put_check(p + 1);
		put_check(-p);
	}
	put_check(UINT64_MAX);
	put_check((uint64_t)INT64_MAX);
	put_check((uint64_t)INT64_MIN);
	for (i = 0; i < 100000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		put_check(x >> (x & 63));
	}
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("util");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_digest);

	tcase_add_test(tc, test_map_basic);
	tcase_add_test(tc, test_map_binary_keys);
	tcase_add_test(tc, test_map_growth);
	tcase_add_test(tc, test_map_big_key);
	tcase_add_test(tc, test_map_bytes_after_clear);
	tcase_add_test(tc, test_hash);
	tcase_add_test(tc, test_parse_duration);
	tcase_add_test(tc, test_format_duration);
	tcase_add_test(tc, test_buf);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_put_int);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
