/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * robust.h - robust estimates of one window from its slices: the median
 * and the trimmed mean of the slice rates, and which slices are outliers
 * (no op, or further from the median than PB_OUTLIER_MADS scaled MADs).
 */
#ifndef PINBENCH_ROBUST_H
#define PINBENCH_ROBUST_H

#define PB_TRIM_FRAC	0.10	/* trimmed mean: this share cut off each side */
#define PB_OUTLIER_MADS	5.0	/* an outlier slice: this many scaled MADs off the median */
#define PB_MAD_SCALE	1.4826	/* MAD x this estimates sigma for normal data */
#define PB_MAD_FLOOR	0.001	/* with MAD 0: outlier only beyond this share of the median */

struct pb_robust {
	int	n;		/* slices */
	int	outliers;	/* empty, or beyond PB_OUTLIER_MADS */
	double	median;		/* of the rates */
	double	trimmed;	/* PB_TRIM_FRAC trimmed mean of the rates */
	double	mad;		/* median absolute deviation from the median, unscaled */
};

/* The mean of v without the floor(frac * n) smallest and largest values; 0 when n < 1. */
double pb_trimmed_mean(const double *v, int n, double frac);
/* Median absolute deviation of v from med (unscaled); 0 when n < 1. */
double pb_mad(const double *v, int n, double med);
/* Is rate x an outlier slice against median med and MAD mad? */
int pb_is_outlier(double x, double med, double mad);
/*
 * The estimates of n slice rates (ops/s, >= 0; 0 is a slice with no op).
 * v is not reordered.  0, or -1 when n < 1 (e is zeroed).
 */
int pb_robust_rates(const double *v, int n, struct pb_robust *e);
/*
 * What a window's slices say of its mean's own noise, by batch means: the
 * n slice rates (of equal length) cut into PB_BATCHES consecutive batches,
 * the variance of the batch means over PB_BATCHES estimates the variance of
 * the window's mean rate.  Slices are autocorrelated (a preemption or a
 * cache refill spans several), so the plain s^2 / n of the slices
 * underestimates it; batches much longer than that correlation are nearly
 * independent, and their spread carries it.  *rse: that standard error
 * relative to the mean rate.  Returns its degrees of freedom
 * (PB_BATCHES - 1), or 0 when n < PB_BATCH_MIN_SLICES or the mean is not
 * positive (*rse NAN).
 */
#define PB_BATCHES		10
#define PB_BATCH_MIN_SLICES	20
int pb_batch_rse(const double *v, int n, double *rse);

#endif
