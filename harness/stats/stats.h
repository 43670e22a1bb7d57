/* SPDX-License-Identifier: GPL-2.0-only */
/* stats.h - summaries, confidence intervals, Welch's t-test, a rank test. */
#ifndef PINBENCH_STATS_H
#define PINBENCH_STATS_H

#include <stdbool.h>

struct pb_summary {
	int	n;
	double	mean;		/* harmonic for rates (see pb_summarize) */
	double	stddev;		/* sample standard deviation (n - 1) */
	double	min, median, max;
	double	cv;		/* stddev / mean, a fraction; 0 when n < 2 */
	double	ci_lo, ci_hi;	/* 95 % CI of the mean, Student t; = mean when n < 2 */
};

/*
 * Summarise n values.  rate=false: arithmetic mean, CI mean +- t*s/sqrt(n),
 * its lower bound clipped at 0 when no value is negative (an n=2 rtt of
 * {1, 20} has [0, 130.7], not [-108.7, 130.7]).
 * rate=true: harmonic mean; its CI is the arithmetic CI of 1/x, inverted
 * (bounds swapped).  Returns 0, or -1 when n < 1.
 */
int pb_summarize(const double *v, int n, bool rate, struct pb_summary *s);

double pb_mean(const double *v, int n);
double pb_harmonic_mean(const double *v, int n);
double pb_stddev(const double *v, int n);
double pb_median(const double *v, int n);	/* does not reorder v */

/* Two-sided Student t quantile for 95 % with df degrees of freedom (df may be fractional). */
double pb_t95(double df);
/*
 * The t with P(|T| > t) = alpha, df degrees of freedom (fractional too):
 * the upper 1 - alpha/2 quantile, so alpha 0.4 gives the 0.80 quantile.
 * NAN when df <= 0 or alpha is not in (0, 1).
 */
double pb_t_two_sided(double alpha, double df);
/* Two-sided p-value of Student t with df degrees of freedom. */
double pb_t_pvalue(double t, double df);
/* Upper tail P(F > f) of Fisher's F with d1, d2 degrees of freedom; NAN when d1 or d2 <= 0. */
double pb_f_pvalue(double f, double d1, double d2);

/*
 * Welch's unequal-variance t-test between samples a and b.  Fills t, df
 * and the two-sided p.  Returns 0, or -1 when either n < 2.  Two samples
 * with zero variance: p = 1 when the means are equal, 0 otherwise.
 */
int pb_welch(const double *a, int na, const double *b, int nb,
	     double *t, double *df, double *p);

/*
 * The ratio of b's mean to a's (b new, a the baseline) with its 95 %
 * interval from Fieller's theorem (Kalibera & Jones, "Rigorous benchmarking
 * in reasonable time", ISMM 2013) on Welch's degrees of freedom, and
 * Welch's two-sided p.  rate=true: the ratio of harmonic means, computed on
 * 1/x (time per op) and inverted.  hi is INFINITY (lo 0 or -INFINITY) when
 * the baseline's mean is not bounded away from zero.  Returns 0, or -1
 * when either n < 2 or a mean is 0.
 */
struct pb_ratio {
	double	ratio;		/* mean(b) / mean(a) */
	double	lo, hi;		/* 95 % interval of the ratio */
	double	p, df;
};

int pb_ratio_test(const double *a, int na, const double *b, int nb, bool rate,
		  struct pb_ratio *r);

/*
 * A robust comparison of b against a (values > 0), for runs of which a
 * noisy host throws some off by 10-20 %: the Hodges-Lehmann estimate of
 * the ratio b / a (the median of the na * nb ratios b_j / a_i, on a log
 * scale), its 95 % interval from the Mann-Whitney distribution (Moses:
 * the k-th smallest and largest of those ratios), and the two-sided
 * Mann-Whitney p.  Exact when na + nb <= PB_MW_EXACT_MAX and no value of
 * b equals one of a; else the normal approximation, corrected for ties
 * and for continuity.  An interval that so few values cannot give at 95 %
 * is [0, INFINITY] (fewer than 4 a side).  The ratio of rates is the
 * ratio of the values as it is (ranks do not care for 1/x).  df is NAN.
 * Returns 0, or -1 when either n < 2, a value is not > 0, or no memory.
 */
#define PB_MW_EXACT_MAX	50
int pb_rank_test(const double *a, int na, const double *b, int nb, struct pb_ratio *r);

#endif
