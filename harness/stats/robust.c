// SPDX-License-Identifier: GPL-2.0-only
/*
 * robust.c - robust estimates of one window from its slices: median,
 * trimmed mean, MAD outliers.  See robust.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/robust.h"
#include "stats/stats.h"
#include "lib/util.h"

double pb_trimmed_mean(const double *v, int n, double frac)
{
	double *s, acc = 0;
	int k;

	if (n < 1)
		return 0;
	k = (int)floor(frac * n + 1e-9);
	if (2 * k >= n)
		k = (n - 1) / 2;
	s = malloc(n * sizeof(*s));
	if (!s)
		return pb_mean(v, n);
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), pb_cmp_double);
	for (int i = k; i < n - k; i++)
		acc += s[i];
	acc /= n - 2 * k;
	free(s);
	return acc;
}

double pb_mad(const double *v, int n, double med)
{
	double *d, m;

	if (n < 1)
		return 0;
	d = malloc(n * sizeof(*d));
	if (!d)
		return 0;
	for (int i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	m = pb_median(d, n);
	free(d);
	return m;
}

int pb_is_outlier(double x, double med, double mad)
{
	double lim = PB_OUTLIER_MADS * PB_MAD_SCALE * mad;

	if (lim < PB_MAD_FLOOR * fabs(med))
		lim = PB_MAD_FLOOR * fabs(med);
	return x <= 0 || fabs(x - med) > lim;
}

int pb_robust_rates(const double *v, int n, struct pb_robust *e)
{
	memset(e, 0, sizeof(*e));
	if (n < 1)
		return -1;
	e->n = n;
	e->median = pb_median(v, n);
	e->trimmed = pb_trimmed_mean(v, n, PB_TRIM_FRAC);
	e->mad = pb_mad(v, n, e->median);
	for (int i = 0; i < n; i++)
		e->outliers += pb_is_outlier(v[i], e->median, e->mad);
	return 0;
}

int pb_batch_rse(const double *v, int n, double *rse)
{
	double bm[PB_BATCHES], m;

	*rse = NAN;
	if (n < PB_BATCH_MIN_SLICES)
		return 0;
	for (int b = 0; b < PB_BATCHES; b++) {
		int lo = b * n / PB_BATCHES, hi = (b + 1) * n / PB_BATCHES;

		bm[b] = pb_mean(v + lo, hi - lo);
	}
	m = pb_mean(bm, PB_BATCHES);
	if (!(m > 0))
		return 0;
	*rse = pb_stddev(bm, PB_BATCHES) / sqrt(PB_BATCHES) / m;
	return PB_BATCHES - 1;
}
