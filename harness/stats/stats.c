// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - summaries, confidence intervals, Welch's t-test.
 *
 * The t, F and Mann-Whitney distributions are R's (libRmath, standalone):
 * fractional degrees of freedom (Welch-Satterthwaite) work.
 */
#define MATHLIB_STANDALONE 1
#include <Rmath.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "lib/util.h"

#define PB_Z975		1.959963984540054	/* normal 0.975 quantile */

/*
 * Mean shifted by the first value: exact for constant data (so a constant
 * sample has exactly zero deviation) and less cancellation elsewhere.
 */
double pb_mean(const double *v, int n)
{
	double acc = 0;
	int i;

	if (n < 1)
		return 0;
	for (i = 1; i < n; i++)
		acc += v[i] - v[0];
	return v[0] + acc / n;
}

/* n / sum(1/x); 0 when n < 1 or when a value is 0 (the limit). */
double pb_harmonic_mean(const double *v, int n)
{
	double acc = 0;
	int i;

	if (n < 1)
		return 0;
	for (i = 0; i < n; i++) {
		if (v[i] == 0)
			return 0;
		acc += 1 / v[i];
	}
	return n / acc;
}

/* Sample standard deviation (n - 1), two passes; 0 when n < 2. */
double pb_stddev(const double *v, int n)
{
	double m, d, acc = 0;
	int i;

	if (n < 2)
		return 0;
	m = pb_mean(v, n);
	for (i = 0; i < n; i++) {
		d = v[i] - m;
		acc += d * d;
	}
	return sqrt(acc / (n - 1));
}

/* The k-th smallest (0-based) without a copy: O(n^2), for when malloc fails. */
static double select_slow(const double *v, int n, int k)
{
	int i, j, below, equal;

	for (i = 0; i < n; i++) {
		below = 0;
		equal = 0;
		for (j = 0; j < n; j++) {
			below += v[j] < v[i];
			equal += v[j] == v[i];
		}
		if (below <= k && k < below + equal)
			return v[i];
	}
	return NAN;	/* only with NaN in the input */
}

double pb_median(const double *v, int n)
{
	double *c, r;

	if (n < 1)
		return 0;
	c = malloc(n * sizeof(*c));
	if (!c) {
		r = select_slow(v, n, (n - 1) / 2);
		return n % 2 ? r : (r + select_slow(v, n, n / 2)) / 2;
	}
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), pb_cmp_double);
	r = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return r;
}

/* P(|T| > |t|), Student's t with df (fractional df alike). */
double pb_t_pvalue(double t, double df)
{
	return 2 * pt(-fabs(t), df, 1, 0);	/* NaN for df <= 0 */
}

/* P(F > f), Fisher's F with d1 and d2 df. */
double pb_f_pvalue(double f, double d1, double d2)
{
	return pf(f, d1, d2, 0, 0);	/* 1 for f <= 0, NaN for d1 or d2 <= 0 */
}

/* The t with P(|T| > t) = alpha. */
double pb_t_two_sided(double alpha, double df)
{
	if (isnan(df) || df <= 0 || !(alpha > 0 && alpha < 1))
		return NAN;
	return qt(alpha / 2, df, 0, 0);
}

double pb_t95(double df)
{
	return pb_t_two_sided(0.05, df);
}

static double min_of(const double *v, int n)
{
	double m = v[0];
	int i;

	for (i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static double max_of(const double *v, int n)
{
	double m = v[0];
	int i;

	for (i = 1; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/* Harmonic mean and the inverted CI of 1/x; 0 on success, -1 without memory. */
static int summarize_rate(const double *v, int n, struct pb_summary *s)
{
	double *inv, m, h;
	int i;

	inv = malloc(n * sizeof(*inv));
	if (!inv)
		return -1;
	for (i = 0; i < n; i++)
		inv[i] = 1 / v[i];
	m = pb_mean(inv, n);
	h = n < 2 ? 0 : pb_t95(n - 1) * pb_stddev(inv, n) / sqrt(n);
	free(inv);
	s->mean = 1 / m;
	s->ci_lo = 1 / (m + h);
	/* the CI of 1/x reaching 0 means no upper bound on the rate */
	s->ci_hi = m - h > 0 ? 1 / (m - h) : INFINITY;
	if (n < 2)
		s->ci_lo = s->ci_hi = s->mean;
	return 0;
}

static void summarize_arith(const double *v, int n, struct pb_summary *s)
{
	double h = n < 2 ? 0 : pb_t95(n - 1) * s->stddev / sqrt(n);

	s->mean = pb_mean(v, n);
	s->ci_lo = s->mean - h;
	s->ci_hi = s->mean + h;
	/* values that are never negative (times, rates) bound their mean at 0 */
	if (s->min >= 0 && s->ci_lo < 0)
		s->ci_lo = 0;
}

/*
 * rate=true needs positive values: with a value <= 0 the harmonic mean is
 * meaningless and the arithmetic summary is given instead.
 */
int pb_summarize(const double *v, int n, bool rate, struct pb_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (n < 1)
		return -1;
	s->n = n;
	s->stddev = pb_stddev(v, n);
	s->min = min_of(v, n);
	s->max = max_of(v, n);
	s->median = pb_median(v, n);
	if (!rate || s->min <= 0 || summarize_rate(v, n, s))
		summarize_arith(v, n, s);
	s->cv = n < 2 || s->mean == 0 ? 0 : s->stddev / fabs(s->mean);
	return 0;
}

static double variance(const double *v, int n)
{
	double sd = pb_stddev(v, n);

	return sd * sd;
}

int pb_welch(const double *a, int na, const double *b, int nb,
	     double *t, double *df, double *p)
{
	double va, vb, diff, r;

	if (na < 2 || nb < 2)
		return -1;
	va = variance(a, na) / na;
	vb = variance(b, nb) / nb;
	diff = pb_mean(a, na) - pb_mean(b, nb);
	if (va + vb == 0) {
		*df = na + nb - 2;
		*t = diff == 0 ? 0 : copysign(INFINITY, diff);
		*p = diff == 0 ? 1 : 0;
		return 0;
	}
	*t = diff / sqrt(va + vb);
	/* (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1)), scale-free */
	r = va / (va + vb);
	*df = 1 / (r * r / (na - 1) + (1 - r) * (1 - r) / (nb - 1));
	*p = pb_t_pvalue(*t, *df);
	return 0;
}

/* Fieller's interval of mean(b) / mean(a) at the t quantile tq. */
static void fieller(double ma, double va, double mb, double vb, double tq,
		    double *lo, double *hi)
{
	double t2 = tq * tq, qa = ma * ma - t2 * va, qb = ma * mb;
	double disc = t2 * (va * mb * mb + vb * qa);

	if (qa <= 0) {		/* the baseline's mean may be 0: no bound */
		*lo = -INFINITY;
		*hi = INFINITY;
		return;
	}
	*lo = (qb - sqrt(disc)) / qa;
	*hi = (qb + sqrt(disc)) / qa;
}

static double *reciprocals(const double *v, int n)
{
	double *r = malloc((size_t)n * sizeof(*r));

	for (int i = 0; r && i < n; i++) {
		if (v[i] <= 0) {
			free(r);
			return NULL;
		}
		r[i] = 1 / v[i];
	}
	return r;
}

int pb_ratio_test(const double *a, int na, const double *b, int nb, bool rate,
		  struct pb_ratio *r)
{
	const double *x = a, *y = b;
	double *ra = NULL, *rb = NULL, t, ma, mb, lo, hi;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (na < 2 || nb < 2)
		return -1;
	if (rate) {
		ra = reciprocals(a, na);
		rb = reciprocals(b, nb);
		if (!ra || !rb)
			goto out;
		x = ra;
		y = rb;
	}
	ma = pb_mean(x, na);
	mb = pb_mean(y, nb);
	if (ma == 0 || mb == 0 || pb_welch(y, nb, x, na, &t, &r->df, &r->p))
		goto out;
	fieller(ma, variance(x, na) / na, mb, variance(y, nb) / nb, pb_t95(r->df), &lo, &hi);
	if (!rate) {
		r->ratio = mb / ma;
		r->lo = lo;
		r->hi = hi;
	} else {		/* rates are the inverse of times */
		r->ratio = ma / mb;
		r->lo = hi > 0 && isfinite(hi) ? 1 / hi : 0;
		r->hi = lo > 0 ? 1 / lo : INFINITY;
	}
	rc = 0;
out:
	free(ra);
	free(rb);
	return rc;
}

int pb_rank_test(const double *a, int na, const double *b, int nb, struct pb_ratio *r)
{
	long mn = (long)na * nb;
	double *d, u = 0, ties = 0, k;
	long kk;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->df = NAN;
	if (na < 2 || nb < 2)
		return -1;
	for (int i = 0; i < na; i++)
		if (!(a[i] > 0))
			return -1;
	for (int j = 0; j < nb; j++)
		if (!(b[j] > 0))
			return -1;
	d = malloc((size_t)mn * sizeof(*d));
	if (!d)
		return -1;
	/* every ratio b_j / a_i, on a log scale; U counts b_j above a_i */
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++) {
			d[(long)i * nb + j] = log(b[j]) - log(a[i]);
			u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
			ties += b[j] == a[i];
		}
	qsort(d, (size_t)mn, sizeof(*d), pb_cmp_double);
	r->ratio = exp(mn % 2 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2);
	if (na + nb <= PB_MW_EXACT_MAX && !ties) {
		/* two-sided: twice the smaller tail at u (the law is symmetric) */
		r->p = fmin(1, 2 * pwilcox(fmin(u, mn - u), na, nb, 1, 0));
		/* Moses: the k-th smallest and largest ratio, P(U < k) <= 0.025 */
		for (kk = 0; kk < mn && pwilcox(kk, na, nb, 1, 0) <= 0.025; kk++)
			;
		wilcox_free();
		k = (double)kk;
	} else {
		/* the normal approximation, tie-corrected, with continuity */
		double mu = mn / 2.0, var = mn * (na + nb + 1) / 12.0, z;
		double *all = malloc((size_t)(na + nb) * sizeof(*all));

		if (!all)
			goto out;
		memcpy(all, a, (size_t)na * sizeof(*a));
		memcpy(all + na, b, (size_t)nb * sizeof(*b));
		qsort(all, (size_t)(na + nb), sizeof(*all), pb_cmp_double);
		for (int i = 0, j; i < na + nb; i = j) {
			double t;

			for (j = i + 1; j < na + nb && all[j] == all[i]; j++)
				;
			t = j - i;
			var -= (double)mn * (t * t * t - t) / (12.0 * (na + nb) * (na + nb - 1));
		}
		free(all);
		z = var > 0 ? fmax(0, fabs(u - mu) - 0.5) / sqrt(var) : 0;
		r->p = var > 0 ? erfc(z / M_SQRT2) : u == mu ? 1 : 0;
		k = var > 0 ? floor(mu - PB_Z975 * sqrt(var)) : 0;
	}
	if (k >= 1) {
		r->lo = exp(d[(long)k - 1]);
		r->hi = exp(d[mn - (long)k]);
	} else {		/* too few values for a 95 % interval */
		r->lo = 0;
		r->hi = INFINITY;
	}
	rc = 0;
out:
	free(d);
	return rc;
}
