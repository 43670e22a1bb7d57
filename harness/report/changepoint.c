// SPDX-License-Identifier: GPL-2.0-only
/*
 * changepoint.c - E-divisive means over a series: for a split of x[lo..hi)
 * into A = x[lo..tau) and B = x[tau..hi), m and k points, the energy
 * divergence with alpha = 1
 *
 *   E = 2/(mk) sum |a - b| - 1/C(m,2) sum |a - a'| - 1/C(k,2) sum |b - b'|
 *
 * scaled by mk / (m + k) (Q hat, Matteson and James 2014).  The split with
 * the largest Q is significant when few random orderings of the same
 * points give as large a best Q (a permutation test); each side is then
 * searched again.  O(n^2) per scan, the sums kept as tau moves.
 *
 * One bad night is not a step: the distances are those of the values, so
 * a single far point at an end can carry a split of a short segment on its
 * own.  A split is kept only when the medians of its two sides move at
 * least half as far as their means (a step moves both; one outlier moves
 * the mean only).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/changepoint.h"
#include "stats/stats.h"

static uint64_t cp_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int pb_cp_best_split(const double *x, int n, int min_size, double *q)
{
	double wa = 0, wb = 0, all = 0, best = -INFINITY, col, row, cross, e;
	int i, j, t, at = -1;

	*q = 0;
	if (min_size < 2 || n < 2 * min_size)
		return -1;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			all += fabs(x[i] - x[j]);
	wb = all;	/* tau = 0: everything in B */
	for (t = 0; t <= n - min_size; t++) {
		if (t >= min_size) {
			double m = t, k = n - t;

			cross = all - wa - wb;
			e = 2 * cross / (m * k) - wa / (m * (m - 1) / 2) - wb / (k * (k - 1) / 2);
			e *= m * k / (m + k);
			if (e > best) {
				best = e;
				at = t;
			}
		}
		/* move x[t] from B to A */
		col = 0;
		row = 0;
		for (i = 0; i < t; i++)
			col += fabs(x[i] - x[t]);
		for (j = t + 1; j < n; j++)
			row += fabs(x[t] - x[j]);
		wa += col;
		wb -= row;
	}
	*q = best;
	return at;
}

struct cp_run {
	const double		*x;
	double			*perm;
	const struct pb_cp_opts	*o;
	struct pb_cp		*out;
	int			max, found;
};

/*
 * p of the best split of x[lo..hi): the share of orderings with a best Q
 * >= q.  Once that share reaches alpha the answer is known and the drawing
 * stops: the p returned is then a lower bound, and not significant.
 */
static double cp_pvalue(struct cp_run *r, int lo, int hi, double q)
{
	uint64_t s = r->o->seed ^ ((uint64_t)lo << 32) ^ (uint64_t)hi;
	int n = hi - lo, i, j, p, ge = 0;
	double pq, tmp;

	memcpy(r->perm, r->x + lo, (size_t)n * sizeof(double));
	for (p = 0; p < r->o->permutations; p++) {
		for (i = n - 1; i > 0; i--) {	/* Fisher-Yates */
			j = (int)(cp_next(&s) % (uint64_t)(i + 1));
			tmp = r->perm[i];
			r->perm[i] = r->perm[j];
			r->perm[j] = tmp;
		}
		pb_cp_best_split(r->perm, n, r->o->min_size, &pq);
		/* a relative tolerance: equal Q from equal data is not "smaller" */
		if (pq >= q - 1e-12 * fabs(q))
			ge++;
		/* not significant whatever the rest say: stop (p is then a lower bound) */
		if ((ge + 1.0) / (r->o->permutations + 1.0) >= r->o->alpha)
			break;
	}
	return (ge + 1.0) / (r->o->permutations + 1.0);
}

static void cp_add(struct cp_run *r, int index, double p, double q)
{
	int i;

	if (r->found < r->max) {
		for (i = r->found; i > 0 && r->out[i - 1].index > index; i--)
			r->out[i] = r->out[i - 1];
		r->out[i].index = index;
		r->out[i].p = p;
		r->out[i].q = q;
	}
	r->found++;
}

/* Do the medians of x[lo..at) and x[at..hi) move with their means? */
static bool cp_carried(const double *x, int lo, int at, int hi)
{
	double dm = pb_mean(x + at, hi - at) - pb_mean(x + lo, at - lo);
	double dmed = pb_median(x + at, hi - at) - pb_median(x + lo, at - lo);

	return dm * dmed > 0 && fabs(dmed) >= 0.5 * fabs(dm);
}

static void cp_segment(struct cp_run *r, int lo, int hi)
{
	double q, p;
	int at = pb_cp_best_split(r->x + lo, hi - lo, r->o->min_size, &q);

	if (at < 0 || !(q > 0))
		return;
	p = cp_pvalue(r, lo, hi, q);
	if (p >= r->o->alpha || !cp_carried(r->x, lo, lo + at, hi))
		return;
	cp_add(r, lo + at, p, q);
	cp_segment(r, lo, lo + at);
	cp_segment(r, lo + at, hi);
}

int pb_changepoints(const double *x, int n, const struct pb_cp_opts *o, struct pb_cp *out,
		    int max)
{
	struct pb_cp_opts d = { 0 };
	struct cp_run r = { .x = x, .out = out, .max = max > 0 ? max : 0 };

	if (o)
		d = *o;
	d.min_size = d.min_size >= 2 ? d.min_size : PB_CP_MIN_SIZE;
	d.permutations = d.permutations > 0 ? d.permutations : PB_CP_PERMUTATIONS;
	d.alpha = d.alpha > 0 ? d.alpha : PB_CP_ALPHA;
	d.seed = d.seed ? d.seed : PB_CP_SEED;
	r.o = &d;
	if (n < 2 * d.min_size)
		return 0;
	r.perm = malloc((size_t)n * sizeof(double));
	if (!r.perm)
		return -1;
	cp_segment(&r, 0, n);
	free(r.perm);
	return r.found;
}
