// SPDX-License-Identifier: GPL-2.0-only
/* test_stats.c - summaries, Student t, Welch's t-test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "stats/stats.h"

#define NEAR(a, b, eps)	assert_true(fabs((a) - (b)) <= (eps))
#define REL(a, b, r)	assert_true(fabs((a) - (b)) <= (r) * fabs(b))

/* Student t density, straight from its definition. */
static double t_pdf(double x, double df)
{
	double c = exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * M_PI);

	return c * pow(1 + x * x / df, -(df + 1) / 2);
}

/*
 * Two-sided p by Simpson's rule on the density: 1 - 2 * int_0^|t| pdf.
 * An independent route to the value pb_t_pvalue gets from libRmath's pt.
 */
static double p_by_simpson(double t, double df)
{
	const int n = 20000;	/* even */
	double h = fabs(t) / n, acc;
	int i;

	acc = t_pdf(0, df) + t_pdf(fabs(t), df);
	for (i = 1; i < n; i++)
		acc += (i % 2 ? 4 : 2) * t_pdf(i * h, df);
	return 1 - 2 * acc * h / 3;
}

/* Printed tables, two-sided 95 % (t_0.975). */
static void test_t95_table(void **state)
{
	static const struct { double df, t; } tab[] = {
		{ 1, 12.706 }, { 2, 4.303 }, { 3, 3.182 }, { 4, 2.776 },
		{ 5, 2.571 }, { 10, 2.228 }, { 20, 2.086 }, { 30, 2.042 },
		{ 60, 2.000 }, { 120, 1.980 }, { 1e6, 1.960 }, { 1e9, 1.960 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		NEAR(pb_t95(tab[i].df), tab[i].t, 1e-3);
}

/*
 * Fractional df: the quantile lies between its integer neighbours, falls
 * with df, and is where the two-sided p is exactly 0.05.
 */
static void test_t95_fractional(void **state)
{
	double df, t, prev = INFINITY;

	(void)state;
	for (df = 0.5; df < 40; df += 0.37) {
		t = pb_t95(df);
		assert_true(t < prev);
		NEAR(pb_t_pvalue(t, df), 0.05, 1e-9);
		NEAR(p_by_simpson(t, df), 0.05, 1e-6);
		prev = t;
	}
	t = pb_t95(3.5);
	assert_true(t < pb_t95(3) && t > pb_t95(4));
	assert_true(isnan(pb_t95(0)));
	assert_true(isnan(pb_t95(-1)));
}

static void test_t_pvalue(void **state)
{
	static const double ts[] = { 0.1, 0.5, 1, 1.5, 2, 3, 5 };
	static const double dfs[] = { 1, 1.7, 3, 3.65, 9.2, 30, 200 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
		for (j = 0; j < sizeof(dfs) / sizeof(dfs[0]); j++)
			NEAR(pb_t_pvalue(ts[i], dfs[j]),
			     p_by_simpson(ts[i], dfs[j]), 1e-7);
	/* df = 1 is Cauchy: p = 1 - 2 atan(t) / pi; t = 1 gives 0.5 */
	NEAR(pb_t_pvalue(1, 1), 0.5, 1e-12);
	NEAR(pb_t_pvalue(3, 1), 1 - 2 * atan(3) / M_PI, 1e-12);
	/* df = 2: p = 1 - t / sqrt(2 + t^2); t = 2 gives 1 - 2/sqrt(6) */
	NEAR(pb_t_pvalue(2, 2), 1 - 2 / sqrt(6), 1e-12);
	/* symmetric, 1 at 0, 0 at infinity, normal for huge df */
	NEAR(pb_t_pvalue(-2.5, 7), pb_t_pvalue(2.5, 7), 1e-15);
	NEAR(pb_t_pvalue(0, 5), 1, 1e-15);
	assert_true(pb_t_pvalue(INFINITY, 5) == 0);
	assert_true(pb_t_pvalue(1e200, 5) == 0);
	NEAR(pb_t_pvalue(1.959963984540054, 1e9), 0.05, 1e-9);
	assert_true(isnan(pb_t_pvalue(1, 0)));
	assert_true(isnan(pb_t_pvalue(NAN, 3)));
}

/*
 * {2, 4, 4, 4, 5, 5, 7, 9}: sum 40, mean 5; squared deviations
 * 9+1+1+1+0+0+4+16 = 32; sample variance 32/7, stddev sqrt(32/7) = 2.13809.
 * median (4 + 5) / 2 = 4.5.  CI: t95(7) = 2.364624, half-width
 * 2.364624 * 2.13809 / 2.828427 = 1.78749.
 */
/*
 * F's upper tail against two exact routes: F(1, df) is t^2, so its tail is
 * t's two-sided p; with d1 = 2 the tail is (1 + 2f / d2)^(-d2 / 2).
 */
static void test_f_pvalue(void **state)
{
	(void)state;
	NEAR(pb_f_pvalue(1, 1, 1), 0.5, 1e-12);
	NEAR(pb_f_pvalue(2.5 * 2.5, 1, 7), pb_t_pvalue(2.5, 7), 1e-12);
	NEAR(pb_f_pvalue(3, 2, 27), pow(1 + 6.0 / 27, -13.5), 1e-12);
	NEAR(pb_f_pvalue(125, 2, 27), pow(1 + 250.0 / 27, -13.5), 1e-15);
	NEAR(pb_f_pvalue(0.2, 2, 9), pow(1 + 0.4 / 9, -4.5), 1e-12);
	NEAR(pb_f_pvalue(0, 2, 9), 1, 0);
	NEAR(pb_f_pvalue(INFINITY, 2, 9), 0, 0);
	assert_true(isnan(pb_f_pvalue(1, 2, 0)));
	assert_true(isnan(pb_f_pvalue(NAN, 2, 9)));
}

static void test_summary_arith(void **state)
{
	const double v[] = { 9, 2, 5, 4, 7, 4, 5, 4 };	/* shuffled */
	const double orig[] = { 9, 2, 5, 4, 7, 4, 5, 4 };
	struct pb_summary s;
	double h;

	(void)state;
	assert_int_equal(pb_summarize(v, 8, false, &s), 0);
	assert_int_equal(s.n, 8);
	NEAR(s.mean, 5, 1e-12);
	NEAR(s.stddev, sqrt(32.0 / 7), 1e-12);
	NEAR(s.stddev, 2.13809, 1e-5);
	NEAR(s.min, 2, 0);
	NEAR(s.max, 9, 0);
	NEAR(s.median, 4.5, 0);
	NEAR(s.cv, sqrt(32.0 / 7) / 5, 1e-12);
	NEAR(pb_t95(7), 2.364624, 1e-6);
	h = 2.364624 * sqrt(32.0 / 7) / sqrt(8);
	NEAR(h, 1.78749, 1e-5);
	NEAR(s.ci_lo, 5 - h, 1e-5);
	NEAR(s.ci_hi, 5 + h, 1e-5);
	assert_memory_equal(v, orig, sizeof(v));	/* not reordered */
}

/*
 * n=2 rtts {1, 20}: mean 10.5, h = 12.7062 * 13.4350 / sqrt(2) = 120.71:
 * [-110.2, 131.2] clipped to [0, 131.2], as no value is negative; with a
 * negative value the interval stays as it is.
 */
static void test_summary_clip_zero(void **state)
{
	const double v[] = { 1, 20 }, w[] = { -1, 20 }, z[] = { 0, 20 };
	struct pb_summary s;

	(void)state;
	assert_int_equal(pb_summarize(v, 2, false, &s), 0);
	NEAR(s.ci_lo, 0, 0);
	NEAR(s.ci_hi, 10.5 + 12.706205 * sqrt(180.5) / sqrt(2), 1e-4);
	assert_int_equal(pb_summarize(w, 2, false, &s), 0);
	NEAR(s.ci_lo, 9.5 - 12.706205 * sqrt(220.5) / sqrt(2), 1e-4);
	assert_true(s.ci_lo < -100);
	assert_int_equal(pb_summarize(z, 2, false, &s), 0);	/* 0 is not negative */
	NEAR(s.ci_lo, 0, 0);
}

/*
 * Rates {1, 2, 4}: harmonic mean 3 / (1 + 1/2 + 1/4) = 3 / 1.75 = 12/7.
 * Inverses {1, 0.5, 0.25}: mean 0.583333, deviations 0.416667, -0.083333,
 * -0.333333; squares sum 0.173611+0.006944+0.111111 = 0.291667; variance
 * 0.145833, stddev 0.381881; t95(2) = 4.302653; half-width
 * 4.302653 * 0.381881 / sqrt(3) = 0.948649.  CI of 1/x:
 * [-0.365316, 1.531982]: crosses 0, so the rate has no upper bound and the
 * lower bound is 1 / 1.531982 = 0.652749.
 */
static void test_summary_rate_unbounded(void **state)
{
	const double v[] = { 1, 2, 4 };
	struct pb_summary s;

	(void)state;
	assert_int_equal(pb_summarize(v, 3, true, &s), 0);
	NEAR(s.mean, 12.0 / 7, 1e-12);
	NEAR(pb_harmonic_mean(v, 3), 12.0 / 7, 1e-12);
	NEAR(s.ci_lo, 0.652749, 1e-5);
	assert_true(isinf(s.ci_hi) && s.ci_hi > 0);
	/* stddev and cv are of the rates themselves: sqrt(7/3) = 1.527525 */
	NEAR(s.stddev, 1.527525, 1e-6);
	NEAR(s.cv, 1.527525 / (12.0 / 7), 1e-6);
	NEAR(s.median, 2, 0);
}

/*
 * Rates {100, 125}: inverses {0.01, 0.008}, mean 0.009, harmonic mean
 * 1/0.009 = 111.111 (arithmetic would be 112.5).  stddev of the inverses
 * |0.01 - 0.008| / sqrt(2) = 0.00141421; t95(1) = 12.706205; half-width
 * 12.706205 * 0.00141421 / sqrt(2) = 0.0127062 > 0.009: unbounded again.
 * {100, 101, 102, 103}: inverses 0.01, 0.00990099, 0.00980392, 0.00970874,
 * checked against the same arithmetic done here on the inverses.
 */
static void test_summary_rate_bounds(void **state)
{
	const double v[] = { 100, 101, 102, 103 };
	const double w[] = { 100, 125 };
	double inv[4], m, h;
	struct pb_summary s;
	int i;

	(void)state;
	assert_int_equal(pb_summarize(w, 2, true, &s), 0);
	NEAR(s.mean, 1 / 0.009, 1e-9);
	assert_true(isinf(s.ci_hi));
	NEAR(s.ci_lo, 1 / (0.009 + 0.0127062), 1e-3);

	for (i = 0; i < 4; i++)
		inv[i] = 1 / v[i];
	m = (inv[0] + inv[1] + inv[2] + inv[3]) / 4;
	h = 0;
	for (i = 0; i < 4; i++)
		h += (inv[i] - m) * (inv[i] - m);
	h = 3.182446 * sqrt(h / 3) / 2;	/* t95(3) s / sqrt(4) */
	assert_int_equal(pb_summarize(v, 4, true, &s), 0);
	NEAR(s.mean, 1 / m, 1e-9);
	/* bounds swapped: the low rate comes from the high inverse */
	NEAR(s.ci_lo, 1 / (m + h), 1e-4);
	NEAR(s.ci_hi, 1 / (m - h), 1e-4);
	assert_true(s.ci_lo < s.mean && s.mean < s.ci_hi);
	/* harmonic mean sits below the arithmetic 101.5 */
	assert_true(s.mean < 101.5);
	/* rate with a zero value: harmonic mean undefined, arithmetic used */
	{
		const double z[] = { 0, 2 };

		assert_int_equal(pb_summarize(z, 2, true, &s), 0);
		NEAR(s.mean, 1, 1e-12);
		assert_true(isfinite(s.ci_lo) && isfinite(s.ci_hi));
	}
}

static void test_summary_n1(void **state)
{
	const double v[] = { 42.5 };
	struct pb_summary s;
	int rate;

	(void)state;
	for (rate = 0; rate < 2; rate++) {
		assert_int_equal(pb_summarize(v, 1, rate, &s), 0);
		assert_int_equal(s.n, 1);
		NEAR(s.mean, 42.5, 1e-12);
		assert_true(s.stddev == 0 && s.cv == 0);
		NEAR(s.min, 42.5, 0);
		NEAR(s.max, 42.5, 0);
		NEAR(s.median, 42.5, 0);
		NEAR(s.ci_lo, s.mean, 0);
		NEAR(s.ci_hi, s.mean, 0);
	}
	assert_int_equal(pb_summarize(v, 0, false, &s), -1);
}

/* Constant samples: zero spread, exact mean even for 0.1 (not exact in binary). */
static void test_summary_constant(void **state)
{
	const double v[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	struct pb_summary s;

	(void)state;
	assert_int_equal(pb_summarize(v, 7, false, &s), 0);
	assert_true(s.mean == 0.1);
	assert_true(s.stddev == 0 && s.cv == 0);
	assert_true(s.ci_lo == 0.1 && s.ci_hi == 0.1);
	assert_int_equal(pb_summarize(v, 7, true, &s), 0);
	NEAR(s.mean, 0.1, 1e-15);
	NEAR(s.ci_lo, 0.1, 1e-15);
	NEAR(s.ci_hi, 0.1, 1e-15);
}

static void test_median(void **state)
{
	double odd[] = { 5, 1, 4, 2, 3 };		/* sorted 1 2 3 4 5 */
	double even[] = { 10, -3, 7, 0, 8, 1 };	/* -3 0 1 7 8 10 */
	const double odd0[] = { 5, 1, 4, 2, 3 };
	const double even0[] = { 10, -3, 7, 0, 8, 1 };
	double two[] = { 3, 1 };
	double dup[] = { 2, 2, 1, 2 };		/* 1 2 2 2 */

	(void)state;
	NEAR(pb_median(odd, 5), 3, 0);
	NEAR(pb_median(even, 6), (1 + 7) / 2.0, 0);
	assert_memory_equal(odd, odd0, sizeof(odd));
	assert_memory_equal(even, even0, sizeof(even));
	NEAR(pb_median(two, 2), 2, 0);
	NEAR(pb_median(dup, 4), 2, 0);
	NEAR(pb_median(odd, 1), 5, 0);
	NEAR(pb_median(odd, 0), 0, 0);
}

static void test_basic_fns(void **state)
{
	const double v[] = { 1, 2, 3, 4 };

	(void)state;
	NEAR(pb_mean(v, 4), 2.5, 0);
	/* 4 / (1 + 1/2 + 1/3 + 1/4) = 4 / (25/12) = 48/25 */
	NEAR(pb_harmonic_mean(v, 4), 48.0 / 25, 1e-15);
	/* squared deviations 2.25+0.25+0.25+2.25 = 5; 5/3 */
	NEAR(pb_stddev(v, 4), sqrt(5.0 / 3), 1e-15);
	assert_true(pb_stddev(v, 1) == 0);
	assert_true(pb_mean(v, 0) == 0 && pb_harmonic_mean(v, 0) == 0);
	/* large offset: no catastrophic cancellation */
	{
		const double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

		NEAR(pb_stddev(big, 3), 1, 1e-9);
		NEAR(pb_mean(big, 3), 1e9 + 2, 0);
	}
}

/*
 * The Linux 2.6.29 vs 2.6.30-rc2 udpping rows (R: t.test(a, b)).
 * a: sum 343.61, mean 85.9025; deviations -0.0225 0.0375 0.1975 -0.2125,
 *    squares 0.00050625 0.00140625 0.03900625 0.04515625 = 0.086075,
 *    variance 0.086075/3 = 0.0286916667 (sd 0.16938).
 * b: sum 344.01, mean 86.0025; deviations 0.0275 -0.0725 -0.0125 0.0575,
 *    squares 0.00075625 0.00525625 0.00015625 0.00330625 = 0.009475,
 *    variance 0.009475/3 = 0.0031583333 (sd 0.05620).
 * va = 0.0286916667/4 = 0.0071729167, vb = 0.0031583333/4 = 0.0007895833,
 * se = sqrt(0.0079625) = 0.0892328; t = -0.1/0.0892328 = -1.120664.
 * df = 0.0079625^2 / (0.0071729167^2/3 + 0.0007895833^2/3)
 *    = 6.340141e-5 / 1.735808e-5 = 3.652563.
 * p = 0.33066 (R prints t = -1.1207, df = 3.6526, p-value = 0.3307).
 */
static void test_welch_udpping(void **state)
{
	const double a[] = { 85.88, 85.94, 86.10, 85.69 };
	const double b[] = { 86.03, 85.93, 85.99, 86.06 };
	double t, df, p, t2, df2, p2;

	(void)state;
	assert_int_equal(pb_welch(a, 4, b, 4, &t, &df, &p), 0);
	NEAR(t, -1.120664, 1e-5);
	NEAR(df, 3.652563, 1e-5);
	NEAR(p, 0.33066, 1e-4);
	NEAR(p, p_by_simpson(t, df), 1e-7);
	/* swapped: t changes sign, df and p stay */
	assert_int_equal(pb_welch(b, 4, a, 4, &t2, &df2, &p2), 0);
	NEAR(t2, -t, 1e-12);
	NEAR(df2, df, 1e-12);
	NEAR(p2, p, 1e-12);
}

/*
 * Unequal sizes.  a = {1, 2, 3, 4, 5}: mean 3, variance 10/4 = 2.5;
 * b = {10, 12}: mean 11, variance 2.  va = 2.5/5 = 0.5, vb = 2/2 = 1;
 * se = sqrt(1.5), t = -8 / 1.224745 = -6.531973;
 * df = 1.5^2 / (0.25/4 + 1/1) = 2.25 / 1.0625 = 2.117647.
 * With equal variances and sizes, df is 2(n - 1).
 */
static void test_welch_unequal(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 };
	const double b[] = { 10, 12 };
	const double c[] = { 2, 4, 6 };
	const double d[] = { 12, 14, 16 };
	double t, df, p;

	(void)state;
	assert_int_equal(pb_welch(a, 5, b, 2, &t, &df, &p), 0);
	NEAR(t, -8 / sqrt(1.5), 1e-12);
	NEAR(df, 2.25 / 1.0625, 1e-12);
	NEAR(p, pb_t_pvalue(-6.531973, 2.117647), 1e-6);
	assert_true(p < 0.05);
	NEAR(p, p_by_simpson(t, df), 1e-7);
	/* c vs d: variances 4 and 4, se = sqrt(8/3), t = -10/1.632993 */
	assert_int_equal(pb_welch(c, 3, d, 3, &t, &df, &p), 0);
	NEAR(df, 4, 1e-12);
	NEAR(t, -10 / sqrt(8.0 / 3), 1e-12);
	NEAR(p, p_by_simpson(t, 4), 1e-7);
	assert_int_equal(pb_welch(a, 1, b, 2, &t, &df, &p), -1);
	assert_int_equal(pb_welch(a, 5, b, 1, &t, &df, &p), -1);
}

static void test_welch_zero_variance(void **state)
{
	const double a[] = { 3, 3, 3 };
	const double b[] = { 3, 3, 3, 3 };
	const double c[] = { 4, 4 };
	const double d[] = { 2, 3, 4 };	/* variance 1, mean 3 */
	double t, df, p;

	(void)state;
	assert_int_equal(pb_welch(a, 3, b, 4, &t, &df, &p), 0);
	assert_true(p == 1 && t == 0);
	assert_int_equal(pb_welch(a, 3, c, 2, &t, &df, &p), 0);
	assert_true(p == 0 && isinf(t) && t < 0);
	/* one sample constant: df collapses to the other's n - 1 */
	assert_int_equal(pb_welch(a, 3, d, 3, &t, &df, &p), 0);
	NEAR(df, 2, 1e-12);
	NEAR(t, 0, 0);
	NEAR(p, 1, 1e-12);
	assert_int_equal(pb_welch(c, 2, d, 3, &t, &df, &p), 0);
	/* t = (4 - 3) / sqrt(1/3) = sqrt(3) */
	NEAR(t, sqrt(3), 1e-12);
	NEAR(df, 2, 1e-12);
	NEAR(p, p_by_simpson(sqrt(3), 2), 1e-7);
	/* df = 2 closed form: 1 - t / sqrt(2 + t^2) = 1 - sqrt(3/5) */
	NEAR(p, 1 - sqrt(3.0 / 5), 1e-12);
}

/*
 * Fieller's interval of a ratio of means.  a = {9, 10, 11}, b = {19, 20, 21}:
 * means 10 and 20, variances of the means 1/3 each, Welch df = 4,
 * t95(4) = 2.776445.  qa = 100 - t^2/3 = 97.430451, disc = t^2 (400/3 +
 * qa/3) = 1278.1707: the ratio 2 in [1.685802, 2.419690].
 */
static void test_ratio_fieller(void **state)
{
	const double a[] = { 9, 10, 11 }, b[] = { 19, 20, 21 };
	const double x[] = { 5.0, 5.2, 4.9, 5.1, 5.3 }, y[] = { 5.4, 5.6, 5.1, 5.5 };
	struct pb_ratio r;
	double tq, ma, va, mb, vb;

	(void)state;
	assert_int_equal(pb_ratio_test(a, 3, b, 3, false, &r), 0);
	NEAR(r.ratio, 2.0, 1e-12);
	NEAR(r.df, 4.0, 1e-9);
	NEAR(r.lo, 1.685802, 1e-5);
	NEAR(r.hi, 2.419690, 1e-5);
	assert_true(r.p < 0.001);
	/* the bounds solve (mb - r ma)^2 = t^2 (vb + r^2 va) */
	assert_int_equal(pb_ratio_test(x, 5, y, 4, false, &r), 0);
	ma = pb_mean(x, 5);
	mb = pb_mean(y, 4);
	va = pb_stddev(x, 5) * pb_stddev(x, 5) / 5;
	vb = pb_stddev(y, 4) * pb_stddev(y, 4) / 4;
	tq = pb_t95(r.df);
	NEAR(pow(mb - r.lo * ma, 2), tq * tq * (vb + r.lo * r.lo * va), 1e-9);
	NEAR(pow(mb - r.hi * ma, 2), tq * tq * (vb + r.hi * r.hi * va), 1e-9);
	assert_true(r.lo < r.ratio && r.ratio < r.hi);
	/* the same figures as rates: the ratio of harmonic means, bounds inverted */
	{
		const double ar[] = { 1 / 9.0, 1 / 10.0, 1 / 11.0 };
		const double br[] = { 1 / 19.0, 1 / 20.0, 1 / 21.0 };

		assert_int_equal(pb_ratio_test(ar, 3, br, 3, true, &r), 0);
		NEAR(r.ratio, 0.5, 1e-12);
		NEAR(r.lo, 1 / 2.419690, 1e-5);
		NEAR(r.hi, 1 / 1.685802, 1e-5);
	}
}

/* No variance: a point; untestable sizes and zero means refused. */
static void test_ratio_edges(void **state)
{
	const double a[] = { 4, 4, 4 }, b[] = { 5, 5 }, z[] = { 0, 0 }, n[] = { -1, 1 };
	const double wide[] = { -1, 0.5, 3 };
	struct pb_ratio r;

	(void)state;
	assert_int_equal(pb_ratio_test(a, 3, b, 2, false, &r), 0);
	NEAR(r.ratio, 1.25, 1e-12);
	NEAR(r.lo, 1.25, 1e-12);
	NEAR(r.hi, 1.25, 1e-12);
	NEAR(r.p, 0, 1e-12);
	assert_int_equal(pb_ratio_test(a, 1, b, 2, false, &r), -1);
	assert_int_equal(pb_ratio_test(z, 2, b, 2, false, &r), -1);
	/* a rate of 0 or below has no reciprocal */
	assert_int_equal(pb_ratio_test(n, 2, b, 2, true, &r), -1);
	/* a baseline whose mean may be 0: no bound */
	assert_int_equal(pb_ratio_test(wide, 3, b, 2, false, &r), 0);
	assert_true(isinf(r.hi) && isinf(r.lo));
}

/*
 * The rank test, by hand.  a = {1..5}, b = {6..10}: every b above every a,
 * U = 25, and of the C(10, 5) = 252 orderings one has U = 25 and one U =
 * 0: p = 2/252.  The 25 ratios b/a sorted: 1.2, 1.4, 1.5, ..., 8, 9, 10;
 * their median (the 13th) is 8/3.  For 5 a side P(U <= 2) = 4/252 <=
 * 0.025 < P(U <= 3) = 7/252, so the interval is the 3rd smallest and 3rd
 * largest ratio: 6/4 and 8/1.
 */
static void test_rank_exact(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	const double c[] = { 3, 1, 2 }, d[] = { 4, 6, 5 };
	struct pb_ratio r, s;

	(void)state;
	assert_int_equal(pb_rank_test(a, 5, b, 5, &r), 0);
	NEAR(r.ratio, 8 / 3.0, 1e-12);
	NEAR(r.p, 2 / 252.0, 1e-12);
	NEAR(r.lo, 1.5, 1e-12);
	NEAR(r.hi, 8, 1e-12);
	assert_true(isnan(r.df));
	/* the other way round: the inverse ratio and interval, the same p */
	assert_int_equal(pb_rank_test(b, 5, a, 5, &s), 0);
	NEAR(s.ratio, 3 / 8.0, 1e-12);
	NEAR(s.lo, 1 / 8.0, 1e-12);
	NEAR(s.hi, 1 / 1.5, 1e-12);
	NEAR(s.p, r.p, 1e-12);
	/* 3 a side: at best p = 2/20, and no 95 % interval (P(U = 0) = 0.05) */
	assert_int_equal(pb_rank_test(c, 3, d, 3, &r), 0);
	NEAR(r.p, 0.1, 1e-12);
	NEAR(r.ratio, 2.5, 1e-12);	/* of 4/3, 5/3, 2, 2, 2.5, 3, 4, 5, 6 */
	assert_true(r.lo == 0 && isinf(r.hi));
}

/*
 * 30 against 30 with a tie: the normal approximation.  U = 607.5 of 900,
 * its variance 900 * 61 / 12 less the tie's share (a pair: 900 * 6 / (12 *
 * 60 * 59)), z = (|607.5 - 450| - 0.5) / sd: p = 0.0202768 (as SciPy's
 * mannwhitneyu gives it, asymptotic with continuity); k = floor(450 - 1.96
 * * sqrt(4575)) = 317: the 317th smallest and largest of the 900 ratios.
 */
static void test_rank_normal(void **state)
{
	const double a[] = { 0.9607, 0.9359, 0.9877, 1.0212, 1.0584, 1.0055, 0.9727, 0.9615,
			     1.0381, 1.0852, 1.0137, 0.9402, 0.9532, 1.0833, 1.0102, 0.917,
			     0.9958, 0.9435, 0.969, 0.9759, 0.965, 1.0281, 0.9969, 0.971,
			     1.0207, 1.0424, 0.9211, 0.9872, 0.9521, 0.9914 };
	const double b[] = { 0.9661, 1.0315, 1.0285, 1.0149, 0.9779, 1.0102, 0.9757, 0.9629,
			     1.0421, 0.9749, 1.0926, 1.068, 0.9325, 1.0446, 0.9752, 1.0322,
			     1.0327, 0.9329, 1.0185, 1.0174, 1.0812, 0.9713, 1.0692, 0.9754,
			     1.0135, 0.988, 1.1079, 1.0602, 1.1637, 1.0641 };
	struct pb_ratio r;

	(void)state;
	assert_int_equal(pb_rank_test(a, 30, b, 30, &r), 0);
	NEAR(r.p, 0.0202768, 1e-6);
	NEAR(r.ratio, 1.0288259, 1e-6);
	NEAR(r.lo, 1.0044743, 1e-6);
	NEAR(r.hi, 1.0582027, 1e-6);
}

/*
 * A run thrown off by 20 % moves the ratio of means by 3.6 points (1.041 to
 * 1.076) and Welch's p to 0.077; the Hodges-Lehmann ratio moves by one
 * (1.039 to 1.050) and Mann-Whitney's p stays 0.0087.
 */
static void test_rank_outlier(void **state)
{
	const double a[] = { 10.0, 10.2, 9.9, 10.1, 10.3, 9.8 };
	double b[] = { 10.45, 10.6, 10.15, 10.5, 10.7, 10.35 };
	const double z[] = { 0, 1 }, one[] = { 5 };
	struct pb_ratio r, w, r2;

	(void)state;
	assert_int_equal(pb_rank_test(a, 6, b, 6, &r), 0);
	assert_true(r.p < 0.05 && r.lo > 1);
	b[5] = 12.5;		/* one run on a slow host: +20 % */
	assert_int_equal(pb_rank_test(a, 6, b, 6, &r2), 0);
	assert_int_equal(pb_ratio_test(a, 6, b, 6, false, &w), 0);
	assert_true(r2.p < 0.05 && r2.lo > 1);
	assert_true(w.p > 0.05 && w.lo < 1);
	NEAR(r2.ratio, r.ratio, 0.015);
	assert_true(w.ratio - r.ratio > 0.03);
	NEAR(r2.p, r.p, 1e-12);
	/* untestable: fewer than 2, a value not above 0 */
	assert_int_equal(pb_rank_test(one, 1, b, 6, &r), -1);
	assert_int_equal(pb_rank_test(z, 2, b, 6, &r), -1);
}

/*
 * The exact law up to PB_MW_EXACT_MAX values, the approximation above it.
 * 25 against 25 tie-free, every b above every a: exact p = 2 / C(50, 25);
 * 25 against 26: the normal approximation's p, z = (mn/2 - 0.5) / sd, far
 * above the exact 2 / C(51, 25).
 */
static void test_rank_exact_limit(void **state)
{
	double a[25], b[26], mu, sd;
	struct pb_ratio r;

	(void)state;
	for (int i = 0; i < 25; i++)
		a[i] = 1 + i;
	for (int j = 0; j < 26; j++)
		b[j] = 100 + j;
	assert_int_equal(PB_MW_EXACT_MAX, 50);
	assert_int_equal(pb_rank_test(a, 25, b, 25, &r), 0);
	NEAR(r.p / (2 / 126410606437752.0), 1, 1e-9);
	assert_int_equal(pb_rank_test(a, 25, b, 26, &r), 0);
	mu = 25 * 26 / 2.0;
	sd = sqrt(25 * 26 * 52 / 12.0);
	NEAR(r.p / erfc((mu - 0.5) / sd / M_SQRT2), 1, 1e-9);
	assert_true(r.p > 1e-10);	/* the exact one would be 8.1e-15 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t95_table),
		cmocka_unit_test(test_t95_fractional),
		cmocka_unit_test(test_t_pvalue),
		cmocka_unit_test(test_f_pvalue),
		cmocka_unit_test(test_summary_arith),
		cmocka_unit_test(test_summary_clip_zero),
		cmocka_unit_test(test_summary_rate_unbounded),
		cmocka_unit_test(test_summary_rate_bounds),
		cmocka_unit_test(test_summary_n1),
		cmocka_unit_test(test_summary_constant),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_basic_fns),
		cmocka_unit_test(test_welch_udpping),
		cmocka_unit_test(test_welch_unequal),
		cmocka_unit_test(test_welch_zero_variance),
		cmocka_unit_test(test_ratio_fieller),
		cmocka_unit_test(test_ratio_edges),
		cmocka_unit_test(test_rank_exact),
		cmocka_unit_test(test_rank_normal),
		cmocka_unit_test(test_rank_outlier),
		cmocka_unit_test(test_rank_exact_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
