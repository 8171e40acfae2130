/*
 * Unit tests for flame.
 */
#include "config.h"

#include <stdlib.h>

#include <check.h>

START_TEST(test_placeholder)
{
	ck_assert_int_eq(1, 1);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("flame");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_placeholder);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
