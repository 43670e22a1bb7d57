// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_changepoint.c - E-divisive means on generated series: Q hat by
 * hand, a step found at its index, two steps, one outlier night, the
 * false-alarm rate of a flat noisy series over many seeds, reproducibility.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/changepoint.h"

#define NEAR(a, b, eps)	assert_true(fabs((a) - (b)) <= (eps))

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_normal(uint64_t *s)
{
	double u = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* n points around 100 with a cv of 1 %, times (1 + step) from index at on */
static void series(double *x, int n, uint64_t seed, int at, double step)
{
	int i;

	for (i = 0; i < n; i++)
		x[i] = 100.0 * (1 + 0.01 * rng_normal(&seed)) * (i >= at ? 1 + step : 1);
}

/* Q hat worked out by hand for the two splits of 0 0 0 1 1 1 (min size 2). */
static void test_q_by_hand(void **state)
{
	const double x[] = { 0, 0, 0, 1, 1, 1 }, y[] = { 0, 0, 1, 1 };
	double q;

	(void)state;
	/* tau 3: cross 9, E = 2*9/9 = 2, Q = 9/6 * 2 = 3; tau 2: E = 1.5 - 0.5, Q = 8/6 */
	assert_int_equal(pb_cp_best_split(x, 6, 2, &q), 3);
	NEAR(q, 3.0, 1e-12);
	assert_int_equal(pb_cp_best_split(y, 4, 2, &q), 2);
	NEAR(q, 2.0, 1e-12);
	/* too short for two segments of 3 */
	assert_int_equal(pb_cp_best_split(y, 4, 3, &q), -1);
	assert_true(q == 0);	/* and no Q hat (0, not -inf) */
}

/*
 * A 5 % step at index 12 of 20 nights (noise 1 %): found in every series.
 * Each side is tested again at p < 0.05, so a side may now and then alarm
 * on its own noise: a few of those over 20 series, not more.
 */
static void test_one_step(void **state)
{
	int k, i, extra = 0, at12;
	struct pb_cp cp[8];
	double x[20];
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		series(x, 20, seed, 12, 0.05);
		k = pb_changepoints(x, 20, NULL, cp, 8);
		for (i = 0, at12 = 0; i < k; i++)
			if (cp[i].index == 12 && cp[i].p < PB_CP_ALPHA)
				at12++;
		assert_int_equal(at12, 1);
		extra += k - 1;
	}
	assert_true(extra <= 3);
}

static void test_two_steps(void **state)
{
	struct pb_cp cp[8];
	double x[30];
	int i;

	(void)state;
	series(x, 30, 7, 30, 0);
	for (i = 10; i < 30; i++)
		x[i] *= i < 20 ? 1.06 : 0.97;
	assert_int_equal(pb_changepoints(x, 30, NULL, cp, 8), 2);
	assert_int_equal(cp[0].index, 10);
	assert_int_equal(cp[1].index, 20);
}

/*
 * One bad night, 20 % off (20 times the noise), first, in the middle or
 * last: never a change point beside it, and no more alarms than the same
 * series without it has.
 */
static void test_one_outlier(void **state)
{
	const int where[] = { 0, 10, 19 };
	struct pb_cp cp[8], plain[8];
	int w, i, k, kp, more = 0;
	double x[20];
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 20; seed++)
		for (w = 0; w < 3; w++) {
			series(x, 20, seed, 20, 0);
			kp = pb_changepoints(x, 20, NULL, plain, 8);
			x[where[w]] *= 1.2;
			k = pb_changepoints(x, 20, NULL, cp, 8);
			for (i = 0; i < k && i < 8; i++)
				assert_true(cp[i].index < where[w] - 1 ||
					    cp[i].index > where[w] + 2);
			more += k > kp;
		}
	assert_int_equal(more, 0);
}

/* A flat series with noise: at p < 0.05, at most about 5 % of series alarm. */
static void test_false_alarms(void **state)
{
	struct pb_cp cp[8];
	double x[24];
	int alarms = 0, runs = 400;
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= (uint64_t)runs; seed++) {
		series(x, 24, 1000 + seed, 24, 0);
		alarms += pb_changepoints(x, 24, NULL, cp, 8) > 0;
	}
	print_message("flat series: %d of %d with a change point\n", alarms, runs);
	assert_true(alarms <= runs * 7 / 100);
}

static void test_small_and_constant(void **state)
{
	const double flat[10] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 };
	struct pb_cp cp[4];
	double x[5] = { 1, 1, 9, 9, 9 };

	(void)state;
	assert_int_equal(pb_changepoints(flat, 10, NULL, cp, 4), 0);
	/* 5 points cannot hold two segments of 3 */
	assert_int_equal(pb_changepoints(x, 5, NULL, cp, 4), 0);
	assert_int_equal(pb_changepoints(x, 0, NULL, cp, 4), 0);
}

/* The same series and seed: the same p; another seed may differ a little. */
static void test_reproducible(void **state)
{
	struct pb_cp_opts o = { .seed = 42 };
	struct pb_cp a[4], b[4];
	double x[16];

	(void)state;
	series(x, 16, 3, 8, 0.02);
	assert_int_equal(pb_changepoints(x, 16, &o, a, 4), pb_changepoints(x, 16, &o, b, 4));
	NEAR(a[0].p, b[0].p, 0);
	assert_int_equal(a[0].index, b[0].index);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_q_by_hand),
		cmocka_unit_test(test_one_step),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_one_outlier),
		cmocka_unit_test(test_false_alarms),
		cmocka_unit_test(test_small_and_constant),
		cmocka_unit_test(test_reproducible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
