// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stopping.c - the stopping rule of `run --until`: its half-width by
 * hand, its minimum, and its coverage, simulated: 1,000 sequences of runs
 * (normal, and Student t with 3 degrees of freedom for a heavy tail),
 * each stopped by the rule, whose final interval must hold the true mean
 * at least 94 % of the time.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "stats/stopping.h"
#include "stats/stats.h"

#define NEAR(a, b, eps)	assert_true(fabs((a) - (b)) <= (eps))

/* mean 100, s = sqrt(2), t(0.9875, 4) = 3.4954: 3.4954 * sqrt(2 / 5) / 100 */
static const double five[] = { 98, 100, 102, 100, 100 };

static void test_halfwidth(void **state)
{
	const double two[] = { 1, 3 }, zero[] = { -1, 1 };

	(void)state;
	NEAR(pb_stop_halfwidth(five, 5), 3.4954 * sqrt(0.4) / 100, 1e-5);
	/* t(0.9875, 1) = 25.452, s = sqrt(2), mean 2 */
	NEAR(pb_stop_halfwidth(two, 2), 25.452 * 1 / 2, 1e-2);
	assert_true(isnan(pb_stop_halfwidth(five, 1)));
	assert_true(isnan(pb_stop_halfwidth(zero, 2)));
}

static void test_enough(void **state)
{
	const double flat[] = { 100, 100.1, 99.9, 100, 100.05, 99.95 };

	(void)state;
	assert_true(pb_stop_enough(five, 5, 0.0222));
	assert_false(pb_stop_enough(five, 5, 0.0220));
	/* narrow from the second run on, but fewer than PB_STOP_MIN_N */
	assert_false(pb_stop_enough(flat, PB_STOP_MIN_N - 1, 0.02));
	assert_true(pb_stop_enough(flat, PB_STOP_MIN_N, 0.02));
	assert_false(pb_stop_enough(flat, 1, 1));
}

/* splitmix64, a fixed seed: the same sequences on every run */
static uint64_t rng = 24;

static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* Student t, 3 df, scaled to variance 1 */
static double heavy(void)
{
	double c = 0;

	for (int i = 0; i < 3; i++) {
		double z = normal();

		c += z * z;
	}
	return normal() / sqrt(c / 3) / sqrt(3.0);
}

#define SEQS	1000
#define MAX_N	2000

/*
 * SEQS sequences of runs 100 (1 + cv e), e from draw, each until the rule
 * says enough for a 2 % target: the share whose final interval holds 100.
 */
static double coverage(double (*draw)(void), double cv, const char *name)
{
	static double v[MAX_N];
	long sum_n = 0;
	int hits = 0;

	for (int k = 0; k < SEQS; k++) {
		int n = 0;

		do
			v[n] = 100 * (1 + cv * draw());
		while (++n < MAX_N && !pb_stop_enough(v, n, 0.02));
		hits += fabs(pb_mean(v, n) - 100) <= pb_stop_halfwidth(v, n) * pb_mean(v, n);
		sum_n += n;
	}
	printf("# %s runs, CV %.0f %%, target 2 %%: coverage %.1f %%, mean n %.1f\n", name,
	       cv * 100, hits * 100.0 / SEQS, (double)sum_n / SEQS);
	return (double)hits / SEQS;
}

static void test_coverage(void **state)
{
	const double cvs[] = { 0.01, 0.02, 0.04 };

	(void)state;
	for (size_t i = 0; i < sizeof(cvs) / sizeof(cvs[0]); i++) {
		assert_true(coverage(normal, cvs[i], "normal") >= 0.94);
		assert_true(coverage(heavy, cvs[i], "t(3)") >= 0.94);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_halfwidth),
		cmocka_unit_test(test_enough),
		cmocka_unit_test(test_coverage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
