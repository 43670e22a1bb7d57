// SPDX-License-Identifier: GPL-2.0-only
/*
 * levels.c - counts, nested variance components and the standard error
 * at the right level of runs tagged with their boot and invocation (the
 * formulas are in levels.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/levels.h"
#include "stats/stats.h"

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Which boot and invocation each value is in, and the sums of y in each. */
struct tally {
	int	nb, ni;
	int	*bi, *ii;	/* per value: its boot, its invocation */
	int	*ib;		/* per invocation: its boot */
	int	*nr_b, *nr_i;	/* runs per boot, per invocation */
	double	*y, *my_b, *my_i;	/* y per value; means per boot, per invocation */
};

static void tally_free(struct tally *t)
{
	free(t->bi);
	free(t->ii);
	free(t->ib);
	free(t->nr_b);
	free(t->nr_i);
	free(t->y);
	free(t->my_b);
	free(t->my_i);
}

static int tally_alloc(struct tally *t, int n)
{
	memset(t, 0, sizeof(*t));
	t->bi = calloc(n, sizeof(int));
	t->ii = calloc(n, sizeof(int));
	t->ib = calloc(n, sizeof(int));
	t->nr_b = calloc(n, sizeof(int));
	t->nr_i = calloc(n, sizeof(int));
	t->y = calloc(n, sizeof(double));
	t->my_b = calloc(n, sizeof(double));
	t->my_i = calloc(n, sizeof(double));
	if (t->bi && t->ii && t->ib && t->nr_b && t->nr_i && t->y && t->my_b && t->my_i)
		return 0;
	tally_free(t);
	return -1;
}

/* Value k's boot and invocation: those of the first value before it that shares them. */
static void place(const struct pb_level_value *v, int k, struct tally *t)
{
	int j;

	for (j = 0; j < k && !same(v[j].boot, v[k].boot); j++)
		;
	t->bi[k] = j < k ? t->bi[j] : t->nb++;
	for (j = 0; j < k && !(same(v[j].boot, v[k].boot) &&
			       same(v[j].invocation, v[k].invocation)); j++)
		;
	t->ii[k] = j < k ? t->ii[j] : t->ni++;
	t->ib[t->ii[k]] = t->bi[k];
}

static int tally_of(const struct pb_level_value *v, int n, struct tally *t)
{
	if (n < 1 || tally_alloc(t, n))
		return -1;
	for (int k = 0; k < n; k++) {
		if (!(v[k].value > 0) || isinf(v[k].value)) {
			tally_free(t);
			return -1;
		}
		t->y[k] = log(v[k].value);
		place(v, k, t);
		t->nr_b[t->bi[k]]++;
		t->nr_i[t->ii[k]]++;
		t->my_b[t->bi[k]] += t->y[k];
		t->my_i[t->ii[k]] += t->y[k];
	}
	for (int i = 0; i < t->nb; i++)
		t->my_b[i] /= t->nr_b[i];
	for (int i = 0; i < t->ni; i++)
		t->my_i[i] /= t->nr_i[i];
	return 0;
}

static void set_ms(struct pb_component *c, double ss, int df)
{
	c->df = df;
	c->ms = df > 0 ? ss / df : NAN;
	c->var = NAN;
}

/* A method-of-moments estimate: var, or 0 and flagged when it came out negative. */
static void set_var(struct pb_component *c, double raw, bool merged)
{
	c->clamped = raw < 0;
	c->var = raw < 0 ? 0 : raw;
	c->merged = merged;
}

/* The mean squares of the three levels, from the tally. */
static void mean_squares(const struct tally *t, int n, struct pb_levels *l)
{
	double ss[PB_NR_LEVELS] = { 0 };

	for (int k = 0; k < n; k++)
		l->mean += t->y[k] / n;
	for (int k = 0; k < n; k++)
		ss[PB_LEVEL_RUN] += pow(t->y[k] - t->my_i[t->ii[k]], 2);
	for (int i = 0; i < t->ni; i++)
		ss[PB_LEVEL_INVOCATION] += t->nr_i[i] * pow(t->my_i[i] - t->my_b[t->ib[i]], 2);
	for (int i = 0; i < t->nb; i++)
		ss[PB_LEVEL_BOOT] += t->nr_b[i] * pow(t->my_b[i] - l->mean, 2);
	set_ms(&l->comp[PB_LEVEL_RUN], ss[PB_LEVEL_RUN], n - t->ni);
	set_ms(&l->comp[PB_LEVEL_INVOCATION], ss[PB_LEVEL_INVOCATION], t->ni - t->nb);
	set_ms(&l->comp[PB_LEVEL_BOOT], ss[PB_LEVEL_BOOT], t->nb - 1);
}

/* Solve the expected mean squares from the bottom up (levels.h). */
static void components(const struct tally *t, int n, struct pb_levels *l)
{
	struct pb_component *run = &l->comp[PB_LEVEL_RUN];
	struct pb_component *inv = &l->comp[PB_LEVEL_INVOCATION];
	struct pb_component *boot = &l->comp[PB_LEVEL_BOOT];
	double s1 = 0, s2 = 0, s3 = 0, ms_run, raw_inv = 0;

	for (int i = 0; i < t->ni; i++) {
		s1 += (double)t->nr_i[i] * t->nr_i[i] / t->nr_b[t->ib[i]];
		s2 += (double)t->nr_i[i] * t->nr_i[i];
	}
	for (int i = 0; i < t->nb; i++)
		s3 += (double)t->nr_b[i] * t->nr_b[i];
	ms_run = run->df > 0 ? run->ms : 0;
	if (run->df > 0)
		set_var(run, run->ms, false);
	if (inv->df > 0) {
		raw_inv = (inv->ms - ms_run) / ((n - s1) / inv->df);
		set_var(inv, raw_inv, run->df <= 0);
	}
	if (boot->df > 0)
		set_var(boot, (boot->ms - ms_run - (s1 - s2 / n) / boot->df * raw_inv) /
			((n - s3 / n) / boot->df), inv->df <= 0);
}

int pb_levels_of(const struct pb_level_value *v, int n, struct pb_levels *l)
{
	struct tally t;

	memset(l, 0, sizeof(*l));
	if (tally_of(v, n, &t))
		return -1;
	l->boots = t.nb;
	l->invocations = t.ni;
	l->runs = n;
	for (int k = 0; k < n; k++)
		l->repeats += v[k].repeats > 0 ? v[k].repeats : 0;
	mean_squares(&t, n, l);
	components(&t, n, l);
	tally_free(&t);
	return 0;
}

enum pb_level pb_levels_side_unit(const struct pb_levels *l)
{
	if (l->boots >= 2)
		return PB_LEVEL_BOOT;
	if (l->invocations >= 2)
		return PB_LEVEL_INVOCATION;
	return PB_LEVEL_RUN;
}

/* Nested levels: >= 2 boots means >= 2 invocations, so the lower of the two sides' units. */
enum pb_level pb_levels_unit(const struct pb_levels *a, const struct pb_levels *b)
{
	enum pb_level ua = pb_levels_side_unit(a), ub = pb_levels_side_unit(b);

	return ua > ub ? ua : ub;
}

double pb_satterthwaite(const double *t, const double *df, int n)
{
	double sum = 0, den = 0;

	for (int i = 0; i < n; i++) {
		if (!(df[i] > 0))
			return NAN;
		sum += t[i];
		den += t[i] * t[i] / df[i];
	}
	return sum > 0 && den > 0 ? sum * sum / den : NAN;
}

/*
 * A side's mean at a level: the means of y per unit (boot, invocation,
 * or each run), their mean, its standard error sd / sqrt(units) and
 * units - 1 df.  Returns the number of units; se and df are NAN below 2.
 */
struct pb_level_mean {
	int	units;
	double	mean, se, df;
};

static int pb_levels_mean(const struct pb_level_value *v, int n, enum pb_level unit,
			  struct pb_level_mean *m)
{
	struct tally t;
	const double *u;

	m->units = 0;
	m->mean = m->se = m->df = NAN;
	if (tally_of(v, n, &t))
		return 0;
	u = unit == PB_LEVEL_BOOT ? t.my_b : unit == PB_LEVEL_INVOCATION ? t.my_i : t.y;
	m->units = unit == PB_LEVEL_BOOT ? t.nb : unit == PB_LEVEL_INVOCATION ? t.ni : n;
	m->mean = pb_mean(u, m->units);
	if (m->units >= 2) {
		m->se = pb_stddev(u, m->units) / sqrt(m->units);
		m->df = m->units - 1;
	}
	tally_free(&t);
	return m->units;
}

int pb_levels_diff(const struct pb_level_value *a, int na, const struct pb_level_value *b,
		   int nb, struct pb_level_diff *r)
{
	struct pb_levels la, lb;
	struct pb_level_mean ma, mb;
	double var[2], df[2];

	if (pb_levels_of(a, na, &la) || pb_levels_of(b, nb, &lb))
		return -1;
	r->unit = pb_levels_unit(&la, &lb);
	pb_levels_mean(a, na, r->unit, &ma);
	pb_levels_mean(b, nb, r->unit, &mb);
	r->d = mb.mean - ma.mean;
	var[0] = ma.se * ma.se;
	var[1] = mb.se * mb.se;
	df[0] = ma.df;
	df[1] = mb.df;
	r->se = sqrt(var[0] + var[1]);
	r->df = pb_satterthwaite(var, df, 2);
	return 0;
}

double pb_tipping_cv(double d, double sw, double df_w, int n_a, int n_b)
{
	double t = pb_t95(df_w), x;

	if (isnan(d) || !(sw >= 0) || isnan(t) || n_a < 1 || n_b < 1)
		return NAN;
	x = (d / t) * (d / t) - sw * sw;
	if (x <= 0)
		return 0;
	return sqrt(x / (1.0 / n_a + 1.0 / n_b));
}

double pb_mde(double se, double df)
{
	return expm1((pb_t95(df) + pb_t_two_sided(0.4, df)) * se);
}

double pb_plan_mde(double s_above, double df_above, double s_run, double df_run, int rounds,
		   int boots)
{
	double va = s_above * s_above, vr, var[2], df[2];

	if (!(s_above >= 0) || !(s_run >= 0) || rounds < 1 || boots < 1)
		return NAN;
	vr = s_run * s_run / rounds;
	if (boots >= 2)
		return pb_mde(sqrt(2 * (va + vr) / boots), 2.0 * (boots - 1));
	if (vr == 0)	/* runs not told apart from what is above them */
		return pb_mde(sqrt(2 * va), df_above);
	var[0] = 2 * vr;
	var[1] = 2 * va;
	df[0] = rounds > 1 ? 2.0 * (rounds - 1) : df_run;
	df[1] = df_above;
	return pb_mde(sqrt(var[0] + var[1]), pb_satterthwaite(var, df, 2));
}

int pb_plan_boots(double s_above, double df_above, double s_run, double df_run, int rounds,
		  double target, int max)
{
	for (int b = 1; b <= max; b++)
		if (pb_plan_mde(s_above, df_above, s_run, df_run, rounds, b) <= target)
			return b;
	return 0;
}
