/*
 * Unit tests for the Go runtime queries' shared pieces (goruntime.c):
 * nearest-rank percentiles and the mutator utilisation behind gc's MMU,
 * against values computed by hand.
 */
#include "config.h"

#include <stdlib.h>

#include <check.h>

#include "query/goruntime.h"

#define MS	1000000

START_TEST(test_pct)
{
	int64_t	v[100];
	int64_t	w[3] = { 1, 2, 3 };
	int	i;

	for (i = 0; i < 100; i++)
		v[i] = i + 1;
	ck_assert_int_eq(tr_gort_pct(v, 100, 0.5), 50);
	ck_assert_int_eq(tr_gort_pct(v, 100, 0.99), 99);
	ck_assert_int_eq(tr_gort_pct(v, 100, 1), 100);
	ck_assert_int_eq(tr_gort_pct(w, 3, 0.5), 2);
	ck_assert_int_eq(tr_gort_pct(w, 3, 0.99), 3);
	ck_assert_int_eq(tr_gort_pct(w, 1, 0.99), 1);
	ck_assert_int_eq(tr_gort_pct(NULL, 0, 0.5), 0);
}
END_TEST

/*
 * 100 ms on 4 Ps: a pause over [10, 12) ms, a background worker over
 * [20, 60) and an assist over [30, 40).  The utilisation is 1 on
 * [0, 10), 0 on [10, 12), 1 on [12, 20), 0.75 on [20, 30), 0.5 on
 * [30, 40), 0.75 on [40, 60) and 1 on [60, 100):
 *   1 ms, 2 ms: 0 (inside the pause, from 10 ms);
 *   4 ms: 0.5, first from 8 ms (the pause and 2 ms at 1);
 *   10 ms: 0.5 at 30 ms (the assist on top of the worker; the pause
 *     with 8 ms at 1 is 0.8);
 *   50 ms: (0 + 8 + 7.5 + 5 + 15) / 50 = 0.71 at 10 ms;
 *   100 ms: 85.5 / 100 = 0.855 at 0.
 */
START_TEST(test_mmu)
{
	struct tr_gort_util	u;
	int64_t			at;

	tr_gort_util_init(&u);
	tr_gort_util_procs(&u, 0, 4);
	tr_gort_util_stw(&u, 10 * MS, 12 * MS);
	tr_gort_util_gc(&u, 20 * MS, 60 * MS);
	tr_gort_util_gc(&u, 30 * MS, 40 * MS);
	tr_gort_util_build(&u, 0, 100 * MS);
	ck_assert_double_eq_tol(tr_gort_util_mutator(&u, 0, 100 * MS),
	    85.5 * MS, 1);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 1 * MS, &at), 0, 1e-9);
	ck_assert_int_eq(at, 10 * MS);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 2 * MS, &at), 0, 1e-9);
	ck_assert_int_eq(at, 10 * MS);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 4 * MS, &at), 0.5, 1e-9);
	ck_assert_int_eq(at, 8 * MS);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 10 * MS, &at), 0.5, 1e-9);
	ck_assert_int_eq(at, 30 * MS);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 50 * MS, &at), 0.71, 1e-9);
	ck_assert_int_eq(at, 10 * MS);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 100 * MS, &at), 0.855, 1e-9);
	ck_assert_int_eq(at, 0);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 101 * MS, &at), -1, 1e-9);
	tr_gort_util_release(&u);
}
END_TEST

/*
 * More Ps doing GC than GOMAXPROCS counts as none left (0, not below),
 * a GOMAXPROCS change holds from its time on, and an interval that
 * starts before the span is on at its start.
 */
START_TEST(test_util_edges)
{
	struct tr_gort_util	u;
	int64_t			at;

	tr_gort_util_init(&u);
	tr_gort_util_procs(&u, 0, 2);
	tr_gort_util_procs(&u, 50 * MS, 4);
	tr_gort_util_gc(&u, -5 * MS, 10 * MS);
	tr_gort_util_gc(&u, 0, 10 * MS);
	tr_gort_util_gc(&u, 0, 10 * MS);
	tr_gort_util_gc(&u, 60 * MS, 70 * MS);
	tr_gort_util_build(&u, 0, 100 * MS);
	/* 0 on [0, 10), 1 to 60, 0.75 on [60, 70), 1 to 100. */
	ck_assert_double_eq_tol(tr_gort_util_mutator(&u, 0, 100 * MS),
	    (40 + 7.5 + 40) * MS, 1);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 10 * MS, &at), 0, 1e-9);
	ck_assert_int_eq(at, 0);
	ck_assert_double_eq_tol(tr_gort_mmu(&u, 20 * MS, &at), 0.5, 1e-9);
	ck_assert_int_eq(at, 0);
	tr_gort_util_release(&u);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("goruntime");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_pct);
	tcase_add_test(tc, test_mmu);
	tcase_add_test(tc, test_util_edges);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
