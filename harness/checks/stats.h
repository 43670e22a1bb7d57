/* SPDX-License-Identifier: GPL-2.0-only */
/* stats.h - summaries, confidence intervals, Welch's t-test. */
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
 * Summarise n values.  rate=false: arithmetic mean, CI mean +- t*s/sqrt(n).
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
/* Two-sided p-value of Student t with df degrees of freedom. */
double pb_t_pvalue(double t, double df);

/*
 * Welch's unequal-variance t-test between samples a and b.  Fills t, df
 * and the two-sided p.  Returns 0, or -1 when either n < 2.  Two samples
 * with zero variance: p = 1 when the means are equal, 0 otherwise.
 */
int pb_welch(const double *a, int na, const double *b, int nb,
	     double *t, double *df, double *p);

#endif
