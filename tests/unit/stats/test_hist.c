// SPDX-License-Identifier: GPL-2.0-only
/* test_hist.c - log-linear latency histogram. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/hist.h"

#define NEAR(a, b, eps)	assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static int setup(void **state)
{
	struct pb_hist *h = malloc(2 * sizeof(*h));

	if (!h)
		return -1;
	pb_hist_init(&h[0]);
	pb_hist_init(&h[1]);
	*state = h;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* Deterministic xorshift64*, so failures reproduce. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The exact q-quantile of sorted v: the value at rank ceil(q n), rank >= 1. */
static uint64_t exact_quantile(const uint64_t *v, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * n - 1e-6);

	if (rank < 1)
		rank = 1;
	return v[(rank > n ? n : rank) - 1];
}

static void test_empty(void **state)
{
	struct pb_hist *h = *state, z;

	NEAR(pb_hist_quantile(h, 0), 0, 0);
	NEAR(pb_hist_quantile(h, 0.5), 0, 0);
	NEAR(pb_hist_quantile(h, 1), 0, 0);
	NEAR(pb_hist_mean(h), 0, 0);
	assert_true(h->count == 0 && h->sum == 0);
	/* a zeroed histogram (fresh shared memory) is an empty one */
	memset(&z, 0, sizeof(z));
	NEAR(pb_hist_quantile(&z, 0.5), 0, 0);
	pb_hist_add(&z, 500);
	assert_true(z.min == 500 && z.max == 500);
	NEAR(pb_hist_quantile(&z, 0), 500, 0);
	/* merging an empty histogram changes nothing */
	pb_hist_merge(&z, h);
	assert_true(z.count == 1 && z.min == 500 && z.max == 500);
}

/*
 * 1..100 ns: all below PB_HIST_SUB, so exact.  Rank ceil(q * 100):
 * q = 0.5 -> 50, q = 0.07 -> 7 (0.07 * 100 is 7.000000000000001 in
 * binary), q = 0.99 -> 99, q = 0.001 -> 1; q = 0 -> min, q = 1 -> max.
 */
static void test_small_exact(void **state)
{
	struct pb_hist *h = *state;
	uint64_t v;

	for (v = 100; v >= 1; v--)
		pb_hist_add(h, v);
	NEAR(pb_hist_quantile(h, 0.5), 50, 0);
	NEAR(pb_hist_quantile(h, 0.07), 7, 0);
	NEAR(pb_hist_quantile(h, 0.99), 99, 0);
	NEAR(pb_hist_quantile(h, 0.001), 1, 0);
	NEAR(pb_hist_quantile(h, 0.505), 51, 0);
	NEAR(pb_hist_quantile(h, 0), 1, 0);
	NEAR(pb_hist_quantile(h, 1), 100, 0);
	NEAR(pb_hist_quantile(h, -3), 1, 0);
	NEAR(pb_hist_quantile(h, 7), 100, 0);
	/* mean 5050 / 100 */
	NEAR(pb_hist_mean(h), 50.5, 0);
	assert_true(h->count == 100 && h->sum == 5050);
	assert_true(h->min == 1 && h->max == 100);
}

/*
 * {1000, 1001, 100000}: 1000 lies in [512, 1024), sub-buckets of width
 * 512 / 128 = 4: bucket [1000, 1004) holds 1000 and 1001, midpoint of its
 * integers 1000 + (4 - 1) / 2 = 1001.5.  q = 0.5 -> rank 2 -> that bucket.
 * 100000 lies in [65536, 131072), width 512: bucket [99840, 100352),
 * midpoint 99840 + 511 / 2 = 100095.5 -- but it is the max, so the
 * midpoint is clamped to 100000.  Values in [128, 256) are exact (width 1).
 */
static void test_midpoint_and_clamp(void **state)
{
	struct pb_hist *h = *state, *g = h + 1;

	pb_hist_add(h, 100000);
	pb_hist_add(h, 1001);
	pb_hist_add(h, 1000);
	NEAR(pb_hist_quantile(h, 0.5), 1001.5, 0);
	NEAR(pb_hist_quantile(h, 0.3), 1001.5, 0);	/* rank 1 */
	NEAR(pb_hist_quantile(h, 0.9), 100000, 0);	/* rank 3, clamped */
	NEAR(pb_hist_quantile(h, 0), 1000, 0);

	/* 100000 and 100300 share [99840, 100352): midpoint 100095.5 */
	pb_hist_add(g, 100300);
	pb_hist_add(g, 100000);
	pb_hist_add(g, 200000);
	NEAR(pb_hist_quantile(g, 0.5), 100095.5, 0);
	/* rank 1: the midpoint is below the exact min, clamped up to it */
	pb_hist_init(g);
	pb_hist_add(g, 100300);
	pb_hist_add(g, 100310);
	NEAR(pb_hist_quantile(g, 0.5), 100300, 0);

	pb_hist_init(g);
	pb_hist_add(g, 200);
	pb_hist_add(g, 201);
	pb_hist_add(g, 255);
	NEAR(pb_hist_quantile(g, 0.5), 201, 0);
}

/* Every power of two and its neighbours: quantile within 1 % of the value. */
static void test_boundaries(void **state)
{
	struct pb_hist *h = *state;
	uint64_t v, cand[3];
	int e, k;

	for (e = 0; e < 47; e++) {
		cand[0] = (1ull << e) - 1;
		cand[1] = 1ull << e;
		cand[2] = (1ull << e) + 1;
		for (k = 0; k < 3; k++) {
			v = cand[k];
			pb_hist_init(h);
			pb_hist_add(h, 0);
			pb_hist_add(h, v);
			pb_hist_add(h, 1ull << 50);
			NEAR(pb_hist_quantile(h, 0.5), v, v / 256.0);
		}
	}
}

/* Beyond 2^47 ns everything shares the last bucket; min and max stay exact. */
static void test_huge(void **state)
{
	struct pb_hist *h = *state;

	pb_hist_add(h, 1ull << 50);
	pb_hist_add(h, UINT64_MAX);
	assert_true(h->b[PB_HIST_BUCKETS - 1] == 2);
	assert_true(h->min == 1ull << 50 && h->max == UINT64_MAX);
	NEAR(pb_hist_quantile(h, 0), 1ull << 50, 0);
	NEAR(pb_hist_quantile(h, 1), (double)UINT64_MAX, 0);
	assert_true(pb_hist_quantile(h, 0.5) >= 0x1p50);
}

/*
 * 200,000 values log-uniform from 1 ns to 10 s (plus a batch of repeats):
 * every quantile within 1 % of the exact one from the sorted values (the
 * header's promise); in fact below 2^-8 = 0.39 %, half a bucket's width
 * over its lower bound, which reporting a bucket's low edge would break.
 */
static void test_relative_error(void **state)
{
	static const double qs[] = {
		0, 1e-5, 0.001, 0.01, 0.05, 0.1, 0.25, 0.333, 0.5, 0.75,
		0.9, 0.95, 0.99, 0.999, 0.9999, 0.99999, 1,
	};
	struct pb_hist *h = *state;
	const size_t n = 200000;
	uint64_t *v, seed = 0x9e3779b97f4a7c15ull, sum = 0;
	double est, ex;
	size_t i;

	v = malloc(n * sizeof(*v));
	assert_non_null(v);
	for (i = 0; i < n; i++) {
		/* exp(u * ln(1e10)), u in [0, 1) */
		double u = (rnd(&seed) >> 11) * 0x1p-53;

		v[i] = i % 10 == 0 ? 4567 : (uint64_t)exp(u * log(1e10));
		if (v[i] < 1)
			v[i] = 1;
		pb_hist_add(h, v[i]);
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		est = pb_hist_quantile(h, qs[i]);
		ex = exact_quantile(v, n, qs[i]);
		assert_true(fabs(est - ex) < ex / 256);
	}
	/* a fine sweep too */
	for (i = 1; i < 1000; i++) {
		est = pb_hist_quantile(h, i / 1000.0);
		ex = exact_quantile(v, n, i / 1000.0);
		assert_true(fabs(est - ex) < ex / 256);
	}
	assert_true(h->min == v[0] && h->max == v[n - 1]);
	assert_true(h->sum == sum && h->count == n);
	NEAR(pb_hist_mean(h), (double)sum / n, 0);
	free(v);
}

/* Two halves merged equal the histogram of the whole, byte for byte. */
static void test_merge(void **state)
{
	struct pb_hist *a = *state, *b = a + 1, *whole;
	uint64_t seed = 12345, x;
	int i;

	whole = malloc(sizeof(*whole));
	assert_non_null(whole);
	pb_hist_init(whole);
	for (i = 0; i < 5000; i++) {
		x = rnd(&seed) % (i % 2 ? 1000000 : 300);
		pb_hist_add(i < 2000 ? a : b, x + 7);
		pb_hist_add(whole, x + 7);
	}
	pb_hist_merge(a, b);
	assert_memory_equal(a, whole, sizeof(*whole));
	/* into an empty one: a copy */
	pb_hist_init(b);
	pb_hist_merge(b, whole);
	assert_memory_equal(b, whole, sizeof(*whole));
	/* min from the source when it is lower, max likewise */
	pb_hist_init(b);
	pb_hist_add(b, 3);
	pb_hist_add(b, 1ull << 40);
	pb_hist_merge(a, b);
	assert_true(a->min == 3 && a->max == 1ull << 40);
	assert_true(a->count == whole->count + 2);
	assert_true(a->sum == whole->sum + 3 + (1ull << 40));
	free(whole);
}

/* The mean is sum / count, exact, not from bucket midpoints. */
static void test_mean_exact(void **state)
{
	struct pb_hist *h = *state;

	pb_hist_add(h, 1);
	pb_hist_add(h, 2);
	pb_hist_add(h, 10000000001ull);	/* bucket width 2^26 here */
	NEAR(pb_hist_mean(h), 10000000004.0 / 3, 1e-6);
	assert_true(h->sum == 10000000004ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_midpoint_and_clamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_boundaries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_relative_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mean_exact, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
