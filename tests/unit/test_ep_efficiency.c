/* assay_ep_efficiency (src/lib/ep/stats.c): the dispatch ceiling and its
 * efficiency, never clipped at 1 (issue 36 item 2). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "assay/ep.h"

/* Issue 36: efficiency is the same-shape copy's p50 over dispatch's p50,
 * never clipped at 1. The case the issue found: the copy 16% slower than
 * dispatch (the old rule took the smaller of the two as the ceiling and
 * reported 1.0). */
static void test_efficiency(void **state)
{
	(void)state;
	double ceiling, eff;
	assert_false(assay_ep_efficiency(70.0, 100.0, &ceiling, &eff));
	assert_true(ceiling == 70.0 && eff == 0.7);
	assert_true(assay_ep_efficiency(116.0, 100.0, &ceiling, &eff));
	assert_true(ceiling == 116.0 && eff == 1.16);
	assert_false(assay_ep_efficiency(100.0, 100.0, &ceiling, &eff));
	assert_true(ceiling == 100.0 && eff == 1.0);
	/* Not measured (the GPU backends, ranks on several nodes) or not timed. */
	assert_false(assay_ep_efficiency(-1, 100.0, &ceiling, &eff));
	assert_true(ceiling == -1 && eff == -1);
	assert_false(assay_ep_efficiency(70.0, 0, &ceiling, &eff));
	assert_true(ceiling == -1 && eff == -1);
	assert_false(assay_ep_efficiency(NAN, 100.0, &ceiling, &eff));
	assert_true(ceiling == -1 && eff == -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_efficiency),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
