/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * levels.h - the statistics of levels (Kalibera & Jones, "Rigorous
 * benchmarking in reasonable time", ISMM 2013): runs nested in
 * invocations nested in boots, on the log of each run's value.
 *
 * A side is the runs of one kernel (or label) in one cell, each tagged
 * with its boot, its invocation and its round.  All arithmetic is on
 * y = ln(value), so a difference of means is a log ratio and a standard
 * deviation is, for small values, the coefficient of variation.
 *
 * Variance components, nested ANOVA by the method of moments, unbalanced
 * allowed (Sokal & Rohlf, Biometry, box 10.4; Searle).  With a boots,
 * B invocations in all (b_i in boot i), n_ij runs in invocation ij,
 * n_i runs in boot i and N runs in all, and the means of y per
 * invocation, per boot and in all:
 *   MS_run  = sum (y_ijk - m_ij)^2     / (N - B)
 *   MS_inv  = sum n_ij (m_ij - m_i)^2  / (B - a)
 *   MS_boot = sum n_i (m_i - m)^2      / (a - 1)
 *   n0   = (N - sum_i (sum_j n_ij^2) / n_i) / (B - a)
 *   n0'  = (sum_i (sum_j n_ij^2) / n_i - sum_ij n_ij^2 / N) / (a - 1)
 *   n0'' = (N - sum_i n_i^2 / N) / (a - 1)
 *   run  = MS_run
 *   inv  = (MS_inv - MS_run) / n0
 *   boot = (MS_boot - MS_run - n0' inv) / n0''
 * (balanced: n0 = n0' = n runs an invocation, n0'' = b n).  A negative
 * estimate is set to 0 and flagged (the level above is solved with the
 * estimate before the clamp, so each stays unbiased).  A level with no
 * degrees of freedom (one invocation in every boot, say) is not
 * estimable: its component is NAN and the level above is solved as if it
 * were 0, so it holds both (merged says so); with one run an invocation,
 * inv holds the runs' variance too, and boot, which subtracts it whole,
 * is the boots' own.
 */
#ifndef PINBENCH_LEVELS_H
#define PINBENCH_LEVELS_H

#include <stdbool.h>

/* Outermost first. */
enum pb_level { PB_LEVEL_BOOT, PB_LEVEL_INVOCATION, PB_LEVEL_RUN, PB_NR_LEVELS };

/* One run's value and where it sits.  NULL or "" boot (invocation): one unknown boot. */
struct pb_level_value {
	const char	*boot;
	const char	*invocation;
	int		round;
	double		value;		/* > 0; its log is used */
	int		repeats;	/* windows behind value, 0 unknown */
};

struct pb_component {
	double	var;		/* variance on the log scale, NAN when not estimable */
	double	ms, df;		/* the level's mean square and its degrees of freedom */
	bool	clamped;	/* estimate was negative, var set to 0 */
	bool	merged;		/* the level below had no df: var holds both */
};

struct pb_levels {
	int			boots, invocations, runs, repeats;
	double			mean;			/* of y, the runs weighted alike */
	struct pb_component	comp[PB_NR_LEVELS];	/* between boots, invocations, runs */
};

/*
 * Count the levels of n values and estimate their variance components.
 * Returns 0, or -1 when n < 1, a value is not > 0, or no memory.
 */
int pb_levels_of(const struct pb_level_value *v, int n, struct pb_levels *l);

/* The highest level with >= 2 members on this side (runs, below 2 runs). */
enum pb_level pb_levels_side_unit(const struct pb_levels *l);
/* The test's unit: the highest level with >= 2 members on both sides. */
enum pb_level pb_levels_unit(const struct pb_levels *a, const struct pb_levels *b);

/*
 * Satterthwaite's degrees of freedom of a sum of independent terms
 * t_i (variances, or c_i MS_i), each with df_i:
 *   df = (sum t_i)^2 / sum (t_i^2 / df_i)
 * Terms of 0 add nothing; NAN when no term is > 0 or a df is not > 0.
 */
double pb_satterthwaite(const double *t, const double *df, int n);

/*
 * b against a at the test's unit: d = mean_b - mean_a (a log ratio),
 * se = sqrt(se_a^2 + se_b^2), df by Satterthwaite (Welch) on the two.
 * Returns 0, or -1 when a side has no value or a value is not > 0.
 */
struct pb_level_diff {
	enum pb_level	unit;
	double		d, se, df;
};
int pb_levels_diff(const struct pb_level_value *a, int na, const struct pb_level_value *b,
		   int nb, struct pb_level_diff *r);

/*
 * The tipping point of a change d (log ratio) judged within one boot a
 * side with standard error sw (df_w): the boot-to-boot standard deviation
 * of the log (about the CV) c at which it stops being significant at 95 %,
 * with n_a and n_b boots a side:
 *   |d| = t * sqrt(sw^2 + c^2/n_a + c^2/n_b)
 *   c   = sqrt(((d/t)^2 - sw^2) / (1/n_a + 1/n_b))
 * t = t_{0.975, df_w} (pb_t95): c is taken as known, so only sw is
 * estimated; the df of the sum is then above df_w, and this t errs on the
 * side of a lower tipping point.  df_w = INFINITY gives the normal 1.96.
 * 0 when d is not significant even with c = 0; NAN on bad input.
 */
double pb_tipping_cv(double d, double sw, double df_w, int n_a, int n_b);

/*
 * The minimum detectable effect at 95 % two-sided and 80 % power of a
 * difference with standard error se (log scale) and df:
 *   MDE = (t_{0.975, df} + t_{0.80, df}) * se
 * returned as a relative change, exp(MDE) - 1.  NAN when df <= 0.
 */
double pb_mde(double se, double df);

/*
 * Planning from a noise profile: the MDE (pb_mde, relative) of a
 * comparison of two kernels, each booted boots times and run once a boot
 * for rounds runs, when a boot's mean varies by s_above (sd of ln, df_above:
 * the levels above the run) and a run by s_run (df_run):
 *   se^2 = 2 (s_above^2 + s_run^2 / rounds) / boots
 *   df   = 2 (boots - 1) with two boots or more (the boots' means are the
 *          values), else Satterthwaite's of the two terms, the runs' with
 *          2 (rounds - 1) df (df_run when rounds is 1) and the profile's
 *          above-run term with df_above, as compare widens one boot a side
 *          (df_above alone when s_run is 0: runs not told apart).
 * NAN on bad input.
 */
double pb_plan_mde(double s_above, double df_above, double s_run, double df_run, int rounds,
		   int boots);

/*
 * The fewest boots a kernel (at most max) at which pb_plan_mde is at most
 * target (relative); 0 when max boots do not reach it.
 */
int pb_plan_boots(double s_above, double df_above, double s_run, double df_run, int rounds,
		  double target, int max);

#endif
