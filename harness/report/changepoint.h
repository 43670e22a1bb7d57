/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * changepoint.h - change points in a series (the nightly history of one
 * cell): E-divisive means (Matteson and James 2014), energy statistic with
 * alpha = 1, the best split found by scanning, its significance by a
 * permutation test with a fixed seed, recursing on both sides.
 */
#ifndef PINBENCH_CHANGEPOINT_H
#define PINBENCH_CHANGEPOINT_H

#include <stdint.h>

#define PB_CP_MIN_SIZE		3	/* points on each side of a split, at least */
#define PB_CP_PERMUTATIONS	199	/* p is a multiple of 1 / (this + 1) */
#define PB_CP_ALPHA		0.05	/* a split is significant when p < this */
#define PB_CP_SEED		20140101ULL

struct pb_cp_opts {
	int		min_size;	/* >= 2; 0: PB_CP_MIN_SIZE */
	int		permutations;	/* 0: PB_CP_PERMUTATIONS */
	double		alpha;		/* 0: PB_CP_ALPHA */
	uint64_t	seed;		/* 0: PB_CP_SEED */
};

struct pb_cp {
	int	index;		/* the first point after the step */
	double	p;		/* permutation p-value of the split (< alpha) */
	double	q;		/* the energy divergence, scaled (Q hat) */
};

/*
 * The change points of x[0..n) in ascending index order, at most max of
 * them in out (o NULL: the defaults).  The same series and seed give the
 * same answer: each segment's permutations are drawn from the seed and the
 * segment's place, not from the order of the recursion.  Returns how many
 * were found (which may exceed max: only max are stored), or -1 when out
 * of memory.
 */
int pb_changepoints(const double *x, int n, const struct pb_cp_opts *o, struct pb_cp *out,
		    int max);

/*
 * The best split of x[0..n) with at least min_size points on each side:
 * its index (-1 when n < 2 * min_size) and Q hat in *q.
 */
int pb_cp_best_split(const double *x, int n, int min_size, double *q);

#endif
