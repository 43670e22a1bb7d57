// SPDX-License-Identifier: GPL-2.0-only
/* test_robust.c - slice estimates: median, trimmed mean, MAD outliers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "stats/robust.h"

#define NEAR(a, b, eps)	assert_true(fabs((a) - (b)) <= (eps))

/*
 * A window with a stall (an empty slice) and a burst: sorted 0 9 10 10 11
 * 11 12 12 13 100.  Median (11 + 11) / 2 = 11; 10 % trimmed drops one each
 * side, 0 and 100: 88 / 8 = 11; deviations from 11 sorted 0 0 1 1 1 1 2 2
 * 11 89, MAD 1, limit 5 x 1.4826 = 7.413: the 0 and the 100 are outliers.
 */
static void test_stall_and_burst(void **state)
{
	const double v[] = { 10, 12, 11, 13, 9, 100, 10, 11, 12, 0 };
	double copy[10];
	struct pb_robust e;

	(void)state;
	memcpy(copy, v, sizeof(v));
	assert_int_equal(pb_robust_rates(copy, 10, &e), 0);
	assert_memory_equal(copy, v, sizeof(v));	/* not reordered */
	assert_int_equal(e.n, 10);
	NEAR(e.median, 11, 1e-12);
	NEAR(e.trimmed, 11, 1e-12);
	NEAR(e.mad, 1, 1e-12);
	assert_int_equal(e.outliers, 2);
}

/* 1..20: two cut each side, the mean of 3..18 is 10.5; a quarter of 4 cuts one. */
static void test_trimmed(void **state)
{
	double v[20];
	const double four[] = { 40, 1, 3, 2 };

	(void)state;
	for (int i = 0; i < 20; i++)
		v[i] = 20 - i;
	NEAR(pb_trimmed_mean(v, 20, 0.10), 10.5, 1e-12);
	NEAR(pb_trimmed_mean(v, 20, 0), 10.5, 1e-12);
	NEAR(pb_trimmed_mean(four, 4, 0.25), 2.5, 1e-12);
	/* 9 values: floor(0.9) = 0 cut, the plain mean */
	NEAR(pb_trimmed_mean(v, 9, 0.10), (20 + 12) / 2.0, 1e-12);
	/* never everything: half of 2 would cut both */
	NEAR(pb_trimmed_mean(four, 2, 0.5), 20.5, 1e-12);
	NEAR(pb_trimmed_mean(v, 0, 0.10), 0, 0);
}

/* Slices with no op are outliers even when the MAD is 0. */
static void test_zero_ops(void **state)
{
	const double v[] = { 10, 10, 0, 10, 10 };
	const double most[] = { 0, 0, 0, 5, 5 };
	struct pb_robust e;

	(void)state;
	assert_int_equal(pb_robust_rates(v, 5, &e), 0);
	NEAR(e.median, 10, 0);
	NEAR(e.mad, 0, 0);
	NEAR(e.trimmed, 8, 1e-12);	/* 5 slices: nothing cut */
	assert_int_equal(e.outliers, 1);
	/* most slices empty: the median rate is 0 (no estimate), all five stand out */
	assert_int_equal(pb_robust_rates(most, 5, &e), 0);
	NEAR(e.median, 0, 0);
	NEAR(e.trimmed, 2, 1e-12);
	assert_int_equal(e.outliers, 5);
}

static void test_one_slice(void **state)
{
	const double v[] = { 7 };
	struct pb_robust e;

	(void)state;
	assert_int_equal(pb_robust_rates(v, 1, &e), 0);
	assert_int_equal(e.n, 1);
	NEAR(e.median, 7, 0);
	NEAR(e.trimmed, 7, 0);
	NEAR(e.mad, 0, 0);
	assert_int_equal(e.outliers, 0);
	assert_int_equal(pb_robust_rates(v, 0, &e), -1);
	assert_int_equal(e.n, 0);
}

static void test_all_equal(void **state)
{
	const double v[] = { 3, 3, 3, 3 };
	struct pb_robust e;

	(void)state;
	assert_int_equal(pb_robust_rates(v, 4, &e), 0);
	NEAR(e.median, 3, 0);
	NEAR(e.trimmed, 3, 0);
	NEAR(e.mad, 0, 0);
	assert_int_equal(e.outliers, 0);
}

/* The limits: 5 x 1.4826 x MAD, and 0.1 % of the median when the MAD is 0. */
static void test_outlier_limit(void **state)
{
	(void)state;
	assert_false(pb_is_outlier(114.8, 100, 2));	/* 14.8 < 14.826 */
	assert_true(pb_is_outlier(114.9, 100, 2));
	assert_false(pb_is_outlier(85.2, 100, 2));
	assert_true(pb_is_outlier(85.1, 100, 2));
	assert_false(pb_is_outlier(100.09, 100, 0));
	assert_true(pb_is_outlier(100.11, 100, 0));
	assert_true(pb_is_outlier(0, 100, 1000));	/* no op */
	NEAR(pb_mad((const double[]){ 1, 2, 3, 4, 100 }, 5, 3), 1, 0);
}

/*
 * Batch means: 20 slices in 10 batches of 2.  Batches alternating 1 and 3
 * (slices 1 1 3 3 1 1 ...): mean 2, batch SD sqrt(10 / 9), SE of the mean
 * sqrt(10 / 9) / sqrt(10) = 1 / 3, relative 1 / 6.  Slices alternating
 * 1 3 1 3 (every batch 1 + 3): the same spread of slices, SE 0.
 */
static void test_batch_rse(void **state)
{
	double v[40], rse;

	(void)state;
	for (int i = 0; i < 20; i++)
		v[i] = (i / 2) % 2 ? 3 : 1;
	assert_int_equal(pb_batch_rse(v, 20, &rse), 9);
	NEAR(rse, 1.0 / 6, 1e-12);
	for (int i = 0; i < 20; i++)
		v[i] = i % 2 ? 3 : 1;
	assert_int_equal(pb_batch_rse(v, 20, &rse), 9);
	NEAR(rse, 0, 1e-12);
	/* 40 slices: batches of 4, 1 1 1 1 | 3 3 3 3 | ...: again 1 / 6 */
	for (int i = 0; i < 40; i++)
		v[i] = (i / 4) % 2 ? 3 : 1;
	assert_int_equal(pb_batch_rse(v, 40, &rse), 9);
	NEAR(rse, 1.0 / 6, 1e-12);
	/* too few slices, or no op at all: unknown */
	assert_int_equal(pb_batch_rse(v, 19, &rse), 0);
	assert_true(isnan(rse));
	memset(v, 0, sizeof(v));
	assert_int_equal(pb_batch_rse(v, 20, &rse), 0);
	assert_true(isnan(rse));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stall_and_burst),
		cmocka_unit_test(test_trimmed),
		cmocka_unit_test(test_zero_ops),
		cmocka_unit_test(test_one_slice),
		cmocka_unit_test(test_all_equal),
		cmocka_unit_test(test_outlier_limit),
		cmocka_unit_test(test_batch_rse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
