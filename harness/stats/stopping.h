/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stopping.h - when a cell has enough runs: the stopping rule of
 * `run --until PCT` (a sequential fixed-width interval, Chow and Robbins
 * 1965), with the minimum number of runs that keeps its coverage at 95 %
 * (tests/unit/stats/test_stopping.c simulates it).
 */
#ifndef PINBENCH_STOPPING_H
#define PINBENCH_STOPPING_H

#include <stdbool.h>

/*
 * Stopping when the interval is narrow enough picks the sequences whose
 * standard deviation came out small, so a plain 95 % t interval at the
 * stop covers the mean only 91-94 % of the time (simulated, normal runs
 * with a CV 1-5 times the target).  The rule's interval is therefore a
 * t interval at 1 - PB_STOP_ALPHA (97.5 %), which covers the mean at least
 * 95 % of the time at the stop; and it judges no fewer than
 * PB_STOP_MIN_N runs, below which s is too uncertain to stop on.
 */
#define PB_STOP_MIN_N	5
#define PB_STOP_ALPHA	0.025

/*
 * The rule's interval (above) of the mean of v[n] (one value a run): its
 * half-width t(1 - PB_STOP_ALPHA / 2, n - 1) s / sqrt(n), relative to
 * |mean|, a fraction.  NAN when n < 2 or the mean is 0.
 */
double pb_stop_halfwidth(const double *v, int n);

/*
 * Enough: at least PB_STOP_MIN_N runs and a relative half-width of at
 * most frac (0.02 for 2 %).
 */
bool pb_stop_enough(const double *v, int n, double frac);

#endif
