// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_noisy.c - V (noisy): repeats that disagree beyond what their own
 * slices predict, by hand-made repeats.  Each figure below is worked out
 * by hand: CV the repeats' sample SD over their mean, w the mean of the
 * slices' rse^2, F = CV^2 / w on k - 1 and sum(df) degrees of freedom
 * (with d1 = 2 its tail is (1 + 2F / d2)^(-d2 / 2)).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "checks/envcheck.h"

#define R(v, s, d)	{ .value = (v), .rse = (s), .df = (d) }

static bool judge(const struct pb_repeat_noise *r, int k, const char *says)
{
	struct pb_anomalies a = { 0 };
	bool got = pb_check_repeats(r, k, &a);

	assert_int_equal(a.nr, got);
	if (got) {
		assert_string_equal(a.v[0].kind, "noisy");
		assert_int_equal(a.v[0].sev, PB_SEV_WARN);
		if (says && !strstr(a.v[0].message, says))
			fail_msg("\"%s\" not in \"%s\"", says, a.v[0].message);
	}
	pb_anomalies_free(&a);
	return got;
}

/*
 * Steady: 100, 100.5, 99.7, CV 0.40 %, each repeat's slices predict 1 %:
 * F 0.16, p 0.85.  Even with slices predicting 0.1 % (F 16.3, p 2.3e-5), the
 * 0.40 % is below the 1 % that matters.
 */
static void test_steady(void **state)
{
	struct pb_repeat_noise r[] = { R(100, 0.01, 9), R(100.5, 0.01, 9), R(99.7, 0.01, 9) };
	struct pb_repeat_noise t[] = { R(100, 0.001, 9), R(100.5, 0.001, 9),
				       R(99.7, 0.001, 9) };

	(void)state;
	assert_false(judge(r, 3, NULL));
	assert_false(judge(t, 3, NULL));
}

/*
 * A step: 100, 100, 110 with slices predicting 0.5 %: CV 5.59 %, F 124.9
 * on 2 and 27 df, p 2.3e-14; unexplained sqrt(0.0559^2 - 0.005^2) = 5.56 %.
 */
static void test_step(void **state)
{
	struct pb_repeat_noise r[] = { R(100, 0.005, 9), R(100, 0.005, 9), R(110, 0.005, 9) };

	(void)state;
	assert_true(judge(r, 3, "CV 5.59 % where the slices predict 0.50 % (F 124.9 on 2 "
			  "and 27 df, p 2.3e-14), 5.56 % unexplained"));
}

/*
 * The same step in repeats whose own slices are as noisy (4 % each): F
 * 1.95, p 0.16, the slices explain it: no V, though the CV is 5.59 %,
 * well above the old 2 %.
 */
static void test_step_explained(void **state)
{
	struct pb_repeat_noise r[] = { R(100, 0.04, 9), R(100, 0.04, 9), R(110, 0.04, 9) };

	(void)state;
	assert_false(judge(r, 3, NULL));
}

/*
 * A long quiet run: slices predict 0.02 %, the repeats wobble 0.3 %
 * (100, 100.3, 99.7): F 225, p 1.5e-17, significant, but 0.30 % is under
 * the 1 % floor.  At 1.2 % (100, 101.2, 98.8) the floor is passed.
 */
static void test_floor(void **state)
{
	struct pb_repeat_noise r[] = { R(100, 0.0002, 9), R(100.3, 0.0002, 9),
				       R(99.7, 0.0002, 9) };
	struct pb_repeat_noise big[] = { R(100, 0.0002, 9), R(101.2, 0.0002, 9),
					 R(98.8, 0.0002, 9) };

	(void)state;
	assert_false(judge(r, 3, NULL));
	assert_true(judge(big, 3, "CV 1.20 % where the slices predict 0.02 %"));
}

/*
 * No slices (df 0, as a repeat too short to cut has, or one read from an
 * old file, rse 0): the stated fallback, the repeats' CV above 2 %.  One
 * repeat without slices is enough to fall back.
 */
static void test_no_slices(void **state)
{
	struct pb_repeat_noise cv34[] = { R(100, 0, 0), R(100, 0, 0), R(106, 0, 0) };
	struct pb_repeat_noise cv19[] = { R(100, 0, 0), R(100, 0, 0), R(103.35, 0, 0) };
	struct pb_repeat_noise mixed[] = { R(100, 0.04, 9), R(100, 0.04, 9), R(110, 0, 0) };

	(void)state;
	assert_true(judge(cv34, 3, "CV 3.40 % (above 2 %"));
	assert_false(judge(cv19, 3, NULL));
	assert_true(judge(mixed, 3, "CV 5.59 % (above 2 %"));
	assert_false(judge(cv34, 1, NULL));	/* one repeat: nothing to judge */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_step_explained),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_no_slices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
