// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist.c - log-linear latency histogram.
 *
 * Values below PB_HIST_SUB have one bucket each (exact).  Above, each power
 * of two [2^e, 2^(e+1)) with e >= PB_HIST_SUB_BITS is split in PB_HIST_SUB
 * equal buckets of width 2^(e - PB_HIST_SUB_BITS): magnitude m = e - 6
 * covers indices m * PB_HIST_SUB .. m * PB_HIST_SUB + 127.  A bucket's
 * half-width is below 2^-8 of its lower bound, so a midpoint is within
 * 0.4 % of any value in it.  Values past the last magnitude land in the
 * last bucket (min and max stay exact).
 */
#include <math.h>
#include <string.h>

#include "stats/hist.h"

static unsigned int hist_index(uint64_t ns)
{
	unsigned int e, m, sub;

	if (ns < PB_HIST_SUB)
		return ns;
	e = 63 - __builtin_clzll(ns);
	m = e - PB_HIST_SUB_BITS + 1;
	if (m > PB_HIST_MAGS)
		return PB_HIST_BUCKETS - 1;
	sub = (ns >> (e - PB_HIST_SUB_BITS)) & (PB_HIST_SUB - 1);
	return m * PB_HIST_SUB + sub;
}

/* Lowest value and width of bucket i. */
static void hist_bucket(unsigned int i, double *lo, double *width)
{
	unsigned int m = i / PB_HIST_SUB, sub = i % PB_HIST_SUB;

	if (m == 0) {
		*lo = sub;
		*width = 1;
		return;
	}
	*width = ldexp(1, m - 1);
	*lo = (PB_HIST_SUB + sub) * *width;
}

void pb_hist_init(struct pb_hist *h)
{
	memset(h, 0, sizeof(*h));
}

static void bucket_add(uint32_t *b, uint64_t n)
{
	*b = n > UINT32_MAX - *b ? UINT32_MAX : *b + (uint32_t)n;	/* saturate */
}

/* A zeroed histogram is an empty one: min is valid only once count > 0. */
void pb_hist_add(struct pb_hist *h, uint64_t ns)
{
	if (h->count == 0 || ns < h->min)
		h->min = ns;
	if (h->count == 0 || ns > h->max)
		h->max = ns;
	h->count++;
	h->sum += ns;
	bucket_add(&h->b[hist_index(ns)], 1);
}

void pb_hist_merge(struct pb_hist *dst, const struct pb_hist *src)
{
	unsigned int i;

	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (i = 0; i < PB_HIST_BUCKETS; i++)
		if (src->b[i])
			bucket_add(&dst->b[i], src->b[i]);
}

/* Rank (1-based) of the q-quantile: ceil(q * count), at least 1. */
static uint64_t quantile_rank(uint64_t count, double q)
{
	double r = q * (double)count;
	uint64_t k;

	/* q * count a hair above an integer (0.07 * 100) is that integer */
	k = (uint64_t)ceil(r - r * 1e-12);
	return k < 1 ? 1 : k > count ? count : k;
}

double pb_hist_quantile(const struct pb_hist *h, double q)
{
	uint64_t rank, seen = 0;
	double lo, width, mid;
	unsigned int i;

	if (h->count == 0)
		return 0;
	if (!(q > 0))
		return h->min;
	if (q >= 1)
		return h->max;
	rank = quantile_rank(h->count, q);
	for (i = 0; i < PB_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == PB_HIST_BUCKETS)
		return h->max;	/* only with saturated buckets */
	hist_bucket(i, &lo, &width);
	mid = lo + (width - 1) / 2;
	if (mid < h->min)
		return h->min;
	return mid > h->max ? h->max : mid;
}

double pb_hist_mean(const struct pb_hist *h)
{
	return h->count ? (double)h->sum / h->count : 0;
}
