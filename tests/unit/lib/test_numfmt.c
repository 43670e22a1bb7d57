// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_numfmt.c - the table number formatter: digits from the spread, SI
 * prefixes, negative numbers, NaN and infinities, zero spread, n = 1.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/numfmt.h"

static void mean_is(double mean, double spread, const char *unit, const char *expect)
{
	struct pb_numfmt nf;
	char buf[64];

	pb_numfmt_pick(&nf, mean, spread);
	pb_numfmt_str(&nf, mean, unit, buf, sizeof(buf));
	if (strcmp(buf, expect))
		fail_msg("mean %.10g spread %.10g: '%s', expected '%s'", mean, spread, buf,
			 expect);
}

static void sig_is(double x, int digits, const char *expect)
{
	char buf[64];

	pb_num_sig(x, digits, NULL, buf, sizeof(buf));
	if (strcmp(buf, expect))
		fail_msg("%.10g at %d digits: '%s', expected '%s'", x, digits, buf, expect);
}

static void spread_is(double x, const char *expect)
{
	char buf[64];

	pb_num_spread(x, NULL, buf, sizeof(buf));
	if (strcmp(buf, expect))
		fail_msg("spread %.10g: '%s', expected '%s'", x, buf, expect);
}

/* The mean's last digit is the spread's first. */
static void test_digits_from_spread(void **state)
{
	(void)state;
	mean_is(5.15984, 0.922, NULL, "5.2");
	spread_is(0.922, "0.92");
	mean_is(79.7415, 0.64, NULL, "79.7");
	mean_is(80.0411, 0.065, NULL, "80.04");
	mean_is(1594.87, 20, NULL, "1590");
	mean_is(1594.87, 3, NULL, "1595");
	mean_is(0.00123456, 0.00001, NULL, "0.00123");
	mean_is(0.00123456, 0.000002, NULL, "0.001235");
	/* a spread above the mean: still the mean's first digit */
	mean_is(5.3, 40, NULL, "5");
	/* a tiny spread: at most six significant digits */
	mean_is(80.0411234, 1e-9, NULL, "80.0411");
	/* the same form for the values beside the mean */
	{
		struct pb_numfmt nf;
		char buf[64];

		pb_numfmt_pick(&nf, 5.15984, 0.922);
		assert_string_equal(pb_numfmt_str(&nf, 4.04, NULL, buf, sizeof(buf)), "4.0");
		assert_string_equal(pb_numfmt_str(&nf, 6.96, NULL, buf, sizeof(buf)), "7.0");
		assert_string_equal(pb_numfmt_str(&nf, 10.04, NULL, buf, sizeof(buf)), "10.0");
	}
}

static void test_si_prefixes(void **state)
{
	(void)state;
	mean_is(1362224.8660, 84373.6471, NULL, "1.36 M");
	spread_is(84373.6471, "84 k");
	mean_is(110822.4509, 16080.5329, NULL, "110 k");
	spread_is(16080.5329, "16 k");
	mean_is(7012345, 1234, "ops/s", "7.012 M ops/s");
	mean_is(2.5e9, 1e7, NULL, "2.50 G");
	mean_is(3.2e13, 1e12, NULL, "32 T");
	mean_is(9999.4, 0, NULL, "9999");
	mean_is(12345.6, 0, NULL, "12.35 k");
	/* the prefix of the rounded value: 99999.7 is 100.0 k */
	sig_is(99999.7, 4, "100.0 k");
	sig_is(9.96, 2, "10");
	sig_is(2, 3, "2.00");
	sig_is(0.8, 3, "0.800");
	sig_is(1424000, 4, "1.424 M");
}

static void test_negative(void **state)
{
	(void)state;
	mean_is(-5.15984, 0.922, NULL, "-5.2");
	mean_is(-1362224.8660, 84373.6471, NULL, "-1.36 M");
	sig_is(-0.0123, 2, "-0.012");
	/* a mean keeps one significant digit, however wide the spread */
	mean_is(-0.001, 0.5, NULL, "-0.001");
	/* a value of the row rounded to zero: no minus sign */
	{
		struct pb_numfmt nf;
		char buf[64];

		pb_numfmt_pick(&nf, 5.15984, 0.922);
		assert_string_equal(pb_numfmt_str(&nf, -0.03, NULL, buf, sizeof(buf)), "0.0");
	}
}

static void test_nan_inf(void **state)
{
	(void)state;
	mean_is(NAN, 1, NULL, "n/a");
	mean_is(INFINITY, 1, NULL, "inf");
	mean_is(-INFINITY, NAN, "µs", "-inf µs");
	mean_is(5.15984, NAN, NULL, "5.160");
	mean_is(5.15984, INFINITY, NULL, "5.160");
	spread_is(NAN, "n/a");
	sig_is(INFINITY, 3, "inf");
}

/* Equal values (spread 0) and one value (no spread): four digits. */
static void test_zero_spread_and_n1(void **state)
{
	(void)state;
	mean_is(80.0411, 0, NULL, "80.04");
	mean_is(80.0411, NAN, "µs", "80.04 µs");
	mean_is(0, 0, NULL, "0");
	mean_is(0, 0.25, NULL, "0.0");
	mean_is(0, 2.5, NULL, "0");
	spread_is(0, "0");
	sig_is(0, 3, "0");
}

/* A column's form: the finer digit, the larger prefix. */
static void test_join(void **state)
{
	struct pb_numfmt nf = PB_NUMFMT_NONE, b;
	char buf[64];

	(void)state;
	pb_numfmt_pick(&b, 9999, 1);
	pb_numfmt_join(&nf, &b);
	assert_string_equal(pb_numfmt_str(&nf, 9999, NULL, buf, sizeof(buf)), "9999");
	pb_numfmt_pick(&b, 10001, 10);
	pb_numfmt_join(&nf, &b);
	assert_string_equal(pb_numfmt_str(&nf, 9999, NULL, buf, sizeof(buf)), "9.999 k");
	assert_string_equal(pb_numfmt_str(&nf, 10001, NULL, buf, sizeof(buf)), "10.001 k");
	nf = (struct pb_numfmt)PB_NUMFMT_NONE;
	pb_numfmt_pick(&b, 79.7415, 1.13);
	pb_numfmt_join(&nf, &b);
	pb_numfmt_pick(&b, 80.0411, 0.65);
	pb_numfmt_join(&nf, &b);
	assert_string_equal(pb_numfmt_str(&nf, 78.9854, NULL, buf, sizeof(buf)), "79.0");
}

static void test_time_scale(void **state)
{
	const char *unit = "ns";

	(void)state;
	assert_true(pb_num_time_scale(9999, &unit) == 1);
	assert_string_equal(unit, "ns");
	assert_true(pb_num_time_scale(24740, &unit) == 1e3);
	assert_string_equal(unit, "µs");
	unit = "ns";
	assert_true(pb_num_time_scale(-2.5e7, &unit) == 1e6);
	assert_string_equal(unit, "ms");
	unit = "GHz";
	assert_true(pb_num_time_scale(24740, &unit) == 1);
	assert_string_equal(unit, "GHz");
	unit = NULL;
	assert_true(pb_num_time_scale(24740, &unit) == 1);
	assert_null(unit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digits_from_spread),
		cmocka_unit_test(test_si_prefixes),
		cmocka_unit_test(test_negative),
		cmocka_unit_test(test_nan_inf),
		cmocka_unit_test(test_zero_spread_and_n1),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_time_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
