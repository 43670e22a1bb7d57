// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_levels.c - counts, nested variance components, Satterthwaite, the
 * tipping point and the MDE, against arithmetic done by hand (below, on
 * y = ln(value): each value is given as exp(y)).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/levels.h"
#include "stats/stats.h"

#define NEAR(a, b, eps)	assert_true(fabs((a) - (b)) <= (eps))
#define V(b, i, y)	{ .boot = (b), .invocation = (i), .value = exp(y) }

static const struct pb_component *comp(const struct pb_levels *l, enum pb_level k)
{
	return &l->comp[k];
}

/* The levels of n values, counted as expected. */
static void levels(const struct pb_level_value *v, int n, struct pb_levels *l, int boots,
		   int invocations)
{
	assert_int_equal(pb_levels_of(v, n, l), 0);
	assert_int_equal(l->boots, boots);
	assert_int_equal(l->invocations, invocations);
	assert_int_equal(l->runs, n);
}

/* Level k's mean square, df and component as computed by hand. */
static void expect(const struct pb_levels *l, enum pb_level k, double ms, double df, double var)
{
	NEAR(comp(l, k)->ms, ms, 1e-9);
	NEAR(comp(l, k)->df, df, 0);
	NEAR(comp(l, k)->var, var, 1e-9);
}

/*
 * Balanced, 2 boots x 2 invocations x 2 runs:
 *   boot 1: inv a {0, 2} mean 1, inv b {3, 5} mean 4; boot mean 2.5
 *   boot 2: inv c {6, 8} mean 7, inv d {11, 13} mean 12; boot mean 9.5; all 6
 * SS_run = 8 x 1 = 8, df 8 - 4 = 4, MS 2
 * SS_inv = 2 (1.5^2 + 1.5^2 + 2.5^2 + 2.5^2) = 34, df 4 - 2 = 2, MS 17
 * SS_boot = 4 (3.5^2 + 3.5^2) = 98, df 1, MS 98
 * n0 = n0' = 2, n0'' = 4: run 2, inv (17 - 2) / 2 = 7.5,
 * boot (98 - 2 - 2 x 7.5) / 4 = 20.25.
 */
static void test_balanced(void **state)
{
	const struct pb_level_value v[] = {
		V("b1", "a", 0), V("b1", "a", 2), V("b1", "b", 3), V("b1", "b", 5),
		V("b2", "c", 6), V("b2", "c", 8), V("b2", "d", 11), V("b2", "d", 13),
	};
	struct pb_levels l;

	(void)state;
	levels(v, 8, &l, 2, 4);
	assert_int_equal(l.repeats, 0);
	NEAR(l.mean, 6, 1e-12);
	expect(&l, PB_LEVEL_RUN, 2, 4, 2);
	expect(&l, PB_LEVEL_INVOCATION, 17, 2, 7.5);
	expect(&l, PB_LEVEL_BOOT, 98, 1, 20.25);
	for (int k = 0; k < PB_NR_LEVELS; k++)
		assert_false(comp(&l, k)->clamped || comp(&l, k)->merged);
	assert_int_equal(pb_levels_side_unit(&l), PB_LEVEL_BOOT);
}

/*
 * 2 boots x 3 runs, one invocation each: boot 1 {1, 2, 3} mean 2, boot 2
 * {4, 6, 8} mean 6, all 4.  SS_run = 2 + 8 = 10, df 4, MS 2.5; no df
 * between invocations within a boot (NAN); SS_boot = 3 (4 + 4) = 24, df 1;
 * n0'' = (6 - 18 / 6) / 1 = 3: boot (24 - 2.5) / 3 = 7.1667, holding the
 * invocations' variance too (merged).
 */
static void test_one_invocation_a_boot(void **state)
{
	struct pb_level_value v[] = {
		V("b1", "a", 1), V("b1", "a", 2), V("b1", "a", 3),
		V("b2", "b", 4), V("b2", "b", 6), V("b2", "b", 8),
	};
	struct pb_levels l;

	(void)state;
	for (int k = 0; k < 6; k++)
		v[k].repeats = 5;
	levels(v, 6, &l, 2, 2);
	assert_int_equal(l.repeats, 30);
	NEAR(comp(&l, PB_LEVEL_RUN)->var, 2.5, 1e-12);
	assert_true(isnan(comp(&l, PB_LEVEL_INVOCATION)->var));
	NEAR(comp(&l, PB_LEVEL_INVOCATION)->df, 0, 0);
	NEAR(comp(&l, PB_LEVEL_BOOT)->var, 21.5 / 3, 1e-12);
	assert_true(comp(&l, PB_LEVEL_BOOT)->merged);
}

/*
 * One run an invocation, 2 boots x 2 invocations: boot 1 {0}, {2} (mean
 * 1), boot 2 {6}, {10} (mean 8), all 4.5.  No df within invocations;
 * SS_inv = 1 + 1 + 4 + 4 = 10, df 2, MS 5, n0 = (4 - 2) / 2 = 1: inv 5,
 * holding the runs' variance too (merged).  SS_boot = 2 (3.5^2 + 3.5^2) =
 * 49, df 1; n0' = 2 - 4/4 = 1, n0'' = 4 - 8/4 = 2: boot (49 - 1 x 5) / 2
 * = 22, the boots' own (not merged: the runs' share is taken out with inv).
 */
static void test_one_run_an_invocation(void **state)
{
	const struct pb_level_value v[] = {
		V("b1", "a", 0), V("b1", "b", 2), V("b2", "c", 6), V("b2", "d", 10),
	};
	struct pb_levels l;

	(void)state;
	levels(v, 4, &l, 2, 4);
	assert_true(isnan(comp(&l, PB_LEVEL_RUN)->var));
	expect(&l, PB_LEVEL_INVOCATION, 5, 2, 5);
	assert_true(comp(&l, PB_LEVEL_INVOCATION)->merged);
	expect(&l, PB_LEVEL_BOOT, 49, 1, 22);
	assert_false(comp(&l, PB_LEVEL_BOOT)->merged);
}

/*
 * Unbalanced: boot 1: inv a {0, 2} mean 1, inv b {4, 5, 6} mean 5 (boot
 * mean 17/5 = 3.4); boot 2: inv c {10}, inv d {7, 9} mean 8 (boot mean
 * 26/3); all 43/8 = 5.375.  N 8, B 4, a 2.
 * SS_run = 2 + 2 + 0 + 2 = 6, df 4, MS 1.5
 * SS_inv = 2 (2.4)^2 + 3 (1.6)^2 + (4/3)^2 + 2 (2/3)^2 = 21.8667, df 2, MS 10.9333
 * SS_boot = 5 (1.975)^2 + 3 (3.2917)^2 = 52.0083, df 1
 * s1 = sum_i sum_j n_ij^2 / n_i = 13/5 + 5/3 = 4.2667; s2 = 18; s3 = 34
 * n0 = (8 - 4.2667) / 2 = 1.8667: inv = (10.9333 - 1.5) / 1.8667 = 5.05357
 * n0' = 4.2667 - 18/8 = 2.01667, n0'' = 8 - 34/8 = 3.75:
 * boot = (52.0083 - 1.5 - 2.01667 x 5.05357) / 3.75 = 10.75119
 */
static void test_unbalanced(void **state)
{
	const struct pb_level_value v[] = {
		V("b1", "a", 0), V("b1", "a", 2), V("b1", "b", 4), V("b1", "b", 5),
		V("b1", "b", 6), V("b2", "c", 10), V("b2", "d", 7), V("b2", "d", 9),
	};
	struct pb_levels l;

	(void)state;
	levels(v, 8, &l, 2, 4);
	expect(&l, PB_LEVEL_RUN, 1.5, 4, 1.5);
	expect(&l, PB_LEVEL_INVOCATION, 21.8666666666667 / 2, 2, 5.05357142857143);
	expect(&l, PB_LEVEL_BOOT, 52.0083333333333, 1, 10.7511904761905);
}

/*
 * A negative component: one boot, inv a {0, 4} and inv b {1, 3}, both mean
 * 2.  MS_run = (4 + 4 + 1 + 1) / 2 = 5, MS_inv = 0: inv = (0 - 5) / 2 < 0,
 * set to 0 and flagged; one boot, no boot component.  An unknown boot
 * (NULL and "") is one boot.  The same again in a second boot, 10 higher:
 * MS_run 20 / 4 = 5, MS_inv 0, inv (0 - 5) / 2 = -2.5 -> 0; MS_boot =
 * 4 (5^2 + 5^2) = 200; the boot level is solved with the -2.5, not the 0:
 * (200 - 5 - 2 x -2.5) / 4 = 50 (with the 0 it would be 48.75).
 */
static void test_clamped(void **state)
{
	const struct pb_level_value v[] = {
		V(NULL, "a", 0), V("", "a", 4), V(NULL, "b", 1), V(NULL, "b", 3),
	};
	const struct pb_level_value w[] = {
		V("1", "a", 0), V("1", "a", 4), V("1", "b", 1), V("1", "b", 3),
		V("2", "c", 10), V("2", "c", 14), V("2", "d", 11), V("2", "d", 13),
	};
	struct pb_levels l;

	(void)state;
	levels(v, 4, &l, 1, 2);
	NEAR(comp(&l, PB_LEVEL_RUN)->var, 5, 1e-12);
	NEAR(comp(&l, PB_LEVEL_INVOCATION)->var, 0, 0);
	assert_true(comp(&l, PB_LEVEL_INVOCATION)->clamped);
	assert_false(comp(&l, PB_LEVEL_RUN)->clamped);
	assert_true(isnan(comp(&l, PB_LEVEL_BOOT)->var));
	assert_int_equal(pb_levels_side_unit(&l), PB_LEVEL_INVOCATION);
	assert_int_equal(pb_levels_of(w, 8, &l), 0);
	assert_true(comp(&l, PB_LEVEL_INVOCATION)->clamped);
	NEAR(comp(&l, PB_LEVEL_BOOT)->var, 50, 1e-9);
	assert_false(comp(&l, PB_LEVEL_BOOT)->clamped);
}

static void test_bad_input(void **state)
{
	const struct pb_level_value v[] = { V("b", "a", 0), { .boot = "b", .value = 0 } };
	struct pb_levels l;

	(void)state;
	assert_int_equal(pb_levels_of(v, 0, &l), -1);
	assert_int_equal(pb_levels_of(v, 2, &l), -1);
	assert_int_equal(pb_levels_of(v, 1, &l), 0);
	assert_true(isnan(comp(&l, PB_LEVEL_RUN)->var));
	assert_int_equal(pb_levels_side_unit(&l), PB_LEVEL_RUN);
}

/*
 * Satterthwaite, terms 4 (df 9) and 1 (df 4): 25 / (16/9 + 1/4) = 12.32877;
 * a single term keeps its df; a df of 0 gives NAN.
 */
static void test_satterthwaite(void **state)
{
	(void)state;
	NEAR(pb_satterthwaite((const double[]){ 4, 1 }, (const double[]){ 9, 4 }, 2),
	     12.3287671232877, 1e-9);
	NEAR(pb_satterthwaite((const double[]){ 3, 0 }, (const double[]){ 7, 2 }, 2), 7, 1e-12);
	assert_true(isnan(pb_satterthwaite((const double[]){ 3, 1 },
					   (const double[]){ 7, 0 }, 2)));
}

/*
 * The test's unit, and the difference at it.  a: one boot, inv p {1, 1}
 * and q {3, 3}: invocation means 1 and 3, mean 2, se sd / sqrt 2 = 1.
 * b: one boot, 3 invocations of one run {4, 6, 8}: mean 6, se 2 / sqrt 3.
 * d = 4, se = sqrt(1 + 4/3) = 1.527525, Welch df (7/3)^2 / (1/1 + (4/3)^2/2)
 * = 2.882353.  In a, MS_run 0; SS_inv = 2 (1^2 + 1^2) = 4, df 1, over
 * n0 2: inv 2.  With b in 2 boots the unit stays invocation (a has one).
 */
static void test_unit_and_diff(void **state)
{
	const struct pb_level_value a[] = {
		V("x", "p", 1), V("x", "p", 1), V("x", "q", 3), V("x", "q", 3),
	};
	struct pb_level_value b[] = { V("y", "r", 4), V("y", "s", 6), V("y", "t", 8) };
	struct pb_level_diff d;
	struct pb_levels la, lb;

	(void)state;
	assert_int_equal(pb_levels_diff(a, 4, b, 3, &d), 0);
	assert_int_equal(d.unit, PB_LEVEL_INVOCATION);
	NEAR(d.d, 4, 1e-12);
	NEAR(d.se, 1.52752523165195, 1e-9);
	NEAR(d.df, 2.88235294117647, 1e-9);
	b[2].boot = "z";
	pb_levels_of(a, 4, &la);
	pb_levels_of(b, 3, &lb);
	assert_int_equal(pb_levels_side_unit(&lb), PB_LEVEL_BOOT);
	assert_int_equal(pb_levels_unit(&la, &lb), PB_LEVEL_INVOCATION);
	assert_int_equal(pb_levels_unit(&lb, &la), PB_LEVEL_INVOCATION);
	assert_int_equal(pb_levels_unit(&lb, &lb), PB_LEVEL_BOOT);
	assert_int_equal(pb_levels_unit(&la, &la), PB_LEVEL_INVOCATION);
	/* a's runs agree within each invocation: a run component of exactly 0, not clamped */
	NEAR(comp(&la, PB_LEVEL_RUN)->var, 0, 0);
	assert_false(comp(&la, PB_LEVEL_RUN)->clamped);
	NEAR(comp(&la, PB_LEVEL_INVOCATION)->var, 2, 1e-12);
}

/*
 * +2.0 % +- 0.1 % (se), one boot a side: d = ln 1.02 = 0.0198026,
 * sw = 0.001.  Normal t 1.959964: d/t = 0.0101036, squared 1.02083e-4,
 * less sw^2 = 1.01083e-4, over 1/1 + 1/1: 5.05415e-5, c = 0.0071092
 * (0.71 %).  With df 6, t 2.446912: (0.0080929^2 - 1e-6) / 2 -> c = 0.0056787.
 * Two boots a side: the same over 1/2 + 1/2, c = 0.0100539.  A change that
 * is not significant within its boot (d/t < sw) tips at 0.
 */
static void test_tipping(void **state)
{
	double d = log(1.02), c;

	(void)state;
	c = pb_tipping_cv(d, 0.001, INFINITY, 1, 1);
	NEAR(c, 0.00710922164123, 1e-10);
	/* at c, the change sits on the 95 % edge */
	NEAR(d / sqrt(0.001 * 0.001 + 2 * c * c), 1.959963984540054, 1e-9);
	NEAR(pb_tipping_cv(-d, 0.001, INFINITY, 1, 1), c, 1e-15);
	NEAR(pb_tipping_cv(d, 0.001, 6, 1, 1), 0.0056787, 1e-6);
	NEAR(pb_tipping_cv(d, 0.001, INFINITY, 2, 2), c * sqrt(2), 1e-12);
	NEAR(pb_tipping_cv(0.001, 0.001, INFINITY, 1, 1), 0, 0);
	assert_true(isnan(pb_tipping_cv(d, 0.001, INFINITY, 0, 1)));
}

/*
 * MDE for se 1 % (log) and df 9, from a t table: t_{0.975,9} = 2.262,
 * t_{0.80,9} = 0.883, (2.262 + 0.883) x 0.01 = 0.03145, exp - 1 = 3.195 %.
 * Large df: (1.960 + 0.842) x 0.01 -> 2.842 %.
 */
static void test_mde(void **state)
{
	(void)state;
	NEAR(pb_t_two_sided(0.4, 9), 0.883, 5e-4);
	NEAR(pb_t_two_sided(0.05, 9), 2.262, 5e-4);
	NEAR(pb_mde(0.01, 9), expm1((2.262157 + 0.883404) * 0.01), 1e-6);
	NEAR(pb_mde(0.01, 9), 0.03195, 1e-4);
	NEAR(pb_mde(0.01, 1e9), expm1((1.959964 + 0.841621) * 0.01), 1e-6);
	assert_true(isnan(pb_mde(0.01, 0)));
}

/*
 * Planning from a profile: s_above 1 %, s_run 1.7320508 % (sqrt 3), 3
 * rounds, df_above 4.  One boot a kernel: the runs' term 2 x 0.0003 / 3 =
 * 0.0002 (df 4), the boot term 2 x 0.0001 = 0.0002 (df 4); se = 0.02,
 * Satterthwaite 0.0004^2 / (2 x 0.0002^2 / 4) = 8 df:
 * expm1((2.306004 + 0.888889) x 0.02) = 6.598 %.  Four boots: se =
 * sqrt(2 x 0.0002 / 4) = 0.01, df 6: expm1((2.446912 + 0.905703) x 0.01) =
 * 3.409 %; three: se 0.011547, df 4: expm1(3.717410 x 0.011547) = 4.386 %;
 * two: se 0.014142, df 2: expm1(5.363313 x 0.014142) = 7.879 %.  So
 * ±3.5 % takes 4 boots, and cannot be had within 3.
 */
static void test_plan(void **state)
{
	const double sr = 0.017320508;

	(void)state;
	NEAR(pb_plan_mde(0.01, 4, sr, 99, 3, 1), expm1((2.306004 + 0.888889) * 0.02), 2e-6);
	NEAR(pb_plan_mde(0.01, 4, sr, 99, 3, 4), expm1((2.446912 + 0.905703) * 0.01), 2e-6);
	NEAR(pb_plan_mde(0.01, 4, sr, 99, 3, 3), 0.04386, 5e-5);
	NEAR(pb_plan_mde(0.01, 4, sr, 99, 3, 2), 0.07879, 5e-5);
	/* one round: the runs' df is the profile's */
	NEAR(pb_plan_mde(0.01, 4, 0.01, 4, 1, 1), expm1((2.306004 + 0.888889) * 0.02), 2e-6);
	/* no run level in the profile: the boot term alone, on its df */
	NEAR(pb_plan_mde(0.01, 8, 0, 0, 3, 1), expm1((2.306004 + 0.888889) * 0.01 * sqrt(2)),
	     2e-6);
	assert_int_equal(pb_plan_boots(0.01, 4, sr, 99, 3, 0.035, 100), 4);
	assert_int_equal(pb_plan_boots(0.01, 4, sr, 99, 3, 0.035, 3), 0);
	assert_int_equal(pb_plan_boots(0.01, 4, sr, 99, 3, 0.07, 100), 1);
	assert_true(isnan(pb_plan_mde(0.01, 4, sr, 99, 0, 1)));
	assert_true(isnan(pb_plan_mde(-0.01, 4, sr, 99, 3, 1)));
}

/* splitmix64 and Box-Muller: standard normal draws from a fixed seed */
static double normal(uint64_t *x)
{
	uint64_t z[2];
	double u1, u2;

	for (int i = 0; i < 2; i++) {
		uint64_t v = (*x += 0x9e3779b97f4a7c15ull);

		v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
		v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
		z[i] = v ^ (v >> 31);
	}
	u1 = ((z[0] >> 11) + 0.5) / 9007199254740992.0;	/* (0, 1) */
	u2 = (z[1] >> 11) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* Of n A/A pairs of boots (boot effects of sd c, within-boot error sw): how many differ by |d|+. */
static int boots_as_far(double d, double sw, double c, int n, uint64_t seed)
{
	int far = 0;

	for (int i = 0; i < n; i++) {
		double diff = c * normal(&seed) - c * normal(&seed) + sw * normal(&seed);

		far += fabs(diff) >= fabs(d);
	}
	return far;
}

/*
 * The tipping point against a simulation: with no change at all, 1,000
 * pairs of boots whose boot-to-boot CV is c (and the within-boot error
 * 0.1 %) differ by +2.0 % or more in 5 % of pairs at c = c_tip (so the
 * change is significant at the boot level exactly below c_tip): z = 1.96
 * there; at c_tip / 2, z = 1.96 sqrt(sw^2 + 2 c^2) / sqrt(sw^2 + c^2 / 2)
 * = 3.86, about 0.01 %: none or almost none of 1,000; at 2 c_tip, z =
 * 0.99, about 32 %.  Seeded: the counts are fixed.
 */
static void test_tipping_simulated(void **state)
{
	double d = log(1.02), c = pb_tipping_cv(d, 0.001, INFINITY, 1, 1);
	int at = boots_as_far(d, 0.001, c, 1000, 1);
	int half = boots_as_far(d, 0.001, c / 2, 1000, 2);
	int twice = boots_as_far(d, 0.001, c * 2, 1000, 3);

	(void)state;
	print_message("A/A pairs as far apart as +2.0 %%: %d at c_tip/2, %d at c_tip, %d at 2 c_tip"
		      " (of 1000)\n", half, at, twice);
	assert_true(half <= 5);
	assert_true(at >= 30 && at <= 70);
	assert_true(twice >= 250 && twice <= 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_balanced),
		cmocka_unit_test(test_one_invocation_a_boot),
		cmocka_unit_test(test_one_run_an_invocation),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_clamped),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_satterthwaite),
		cmocka_unit_test(test_unit_and_diff),
		cmocka_unit_test(test_tipping),
		cmocka_unit_test(test_mde),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_tipping_simulated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
