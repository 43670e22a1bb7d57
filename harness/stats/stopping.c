// SPDX-License-Identifier: GPL-2.0-only
/*
 * stopping.c - the stopping rule of `run --until` (stopping.h).
 */
#include <math.h>

#include "stats/stopping.h"
#include "stats/stats.h"

double pb_stop_halfwidth(const double *v, int n)
{
	double m;

	if (n < 2)
		return NAN;
	m = pb_mean(v, n);
	if (m == 0)
		return NAN;
	return pb_t_two_sided(PB_STOP_ALPHA, n - 1) * pb_stddev(v, n) / sqrt(n) / fabs(m);
}

bool pb_stop_enough(const double *v, int n, double frac)
{
	double hw;

	if (n < PB_STOP_MIN_N)
		return false;
	hw = pb_stop_halfwidth(v, n);
	return hw <= frac;
}
