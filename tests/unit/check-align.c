/*
 * Unit tests for align.
 */
#include "config.h"

#include <stdlib.h>

#include <check.h>

#include "align.h"

START_TEST(test_map)
{
	struct tr_align_map	m = { 5, 0, 0 };

	ck_assert_int_eq(tr_align_forward(&m, 10), 15);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("align");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_map);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
