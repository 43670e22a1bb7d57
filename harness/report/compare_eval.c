// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_eval.c - the statistics of a comparison: each cell against the baseline
 * (the Hodges-Lehmann ratio with Mann-Whitney's test when both have five
 * values or more, else the ratio of means with Fieller's interval and
 * Welch's t-test; the noise floor) on the runs when every cell has
 * several, else on the repeats; p-values adjusted over the report
 * (Benjamini-Hochberg).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "lib/anomaly.h"
#include "report/compare.h"
#include "lib/schema.h"
#include "lib/util.h"
#include "stats/levels.h"
#include "stats/stats.h"

/* ---- evaluation ---- */

const char *const pb_cmp_test_names[] = { "auto", "rank", "welch", NULL };

int pb_cmp_test_parse(const char *s)
{
	for (int i = 0; pb_cmp_test_names[i]; i++)
		if (s && !strcmp(s, pb_cmp_test_names[i]))
			return i;
	return -1;
}

const struct pb_cell *pb_cmp_cell(const struct pb_table *t, int group)
{
	int i;

	for (i = 0; i < t->nr_cells; i++)
		if (t->cells[i].group == group)
			return &t->cells[i];
	return NULL;
}

const struct pb_cell *pb_cmp_base(const struct pb_cmp *c, const struct pb_table *t,
				  int base_group)
{
	const struct pb_cell *cell;
	int i;

	if (base_group >= 0) {
		cell = pb_cmp_cell(t, base_group);
		return cell && cell->n ? cell : NULL;
	}
	for (i = 0; i < c->nr_groups; i++) {
		cell = pb_cmp_cell(t, c->order ? c->order[i] : i);
		if (cell && cell->n)
			return cell;
	}
	return NULL;
}

bool pb_cmp_between(const struct pb_table *t)
{
	bool any = false;

	for (int i = 0; i < t->nr_cells; i++) {
		if (!t->cells[i].n)
			continue;
		if (t->cells[i].nu < 2)
			return false;
		any = true;
	}
	return any;
}

int pb_cmp_values(const struct pb_table *t, const struct pb_cell *cell, const double **v)
{
	if (pb_cmp_between(t)) {
		*v = cell->u;
		return cell->nu;
	}
	*v = cell->v;
	return cell->n;
}

/* Is cell tested by ranks against base (t->test, and for auto the counts)? */
static bool by_rank(const struct pb_table *t, int na, int nb)
{
	return t->test == PB_TEST_RANK ||
	       (t->test == PB_TEST_AUTO && na >= PB_RANK_MIN && nb >= PB_RANK_MIN);
}

/* A side's runs as stats/levels.h sees them; NULL when no memory. */
static struct pb_level_value *level_values(const struct pb_cell *cell)
{
	struct pb_level_value *v = calloc((size_t)(cell->nu ? cell->nu : 1), sizeof(*v));

	for (int i = 0; v && i < cell->nu; i++)
		v[i] = (struct pb_level_value){ cell->lv[i].boot, cell->lv[i].invocation,
						cell->lv[i].round, cell->u[i],
						cell->lv[i].repeats };
	return v;
}

static bool same_unit(const struct pb_level_value *a, const struct pb_level_value *b,
		      enum pb_level unit)
{
	return !strcmp(a->boot ? a->boot : "", b->boot ? b->boot : "") &&
	       (unit == PB_LEVEL_BOOT ||
		!strcmp(a->invocation ? a->invocation : "", b->invocation ? b->invocation : ""));
}

/* The geometric means of v per unit (boot or invocation), into out; how many. */
static int unit_means(const struct pb_level_value *v, int n, enum pb_level unit, double *out)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		double sum = 0;
		int m = 0, j;

		for (j = 0; j < i && !same_unit(&v[j], &v[i], unit); j++)
			;
		if (j < i)
			continue;
		for (j = i; j < n; j++)
			if (same_unit(&v[j], &v[i], unit)) {
				sum += log(v[j].value);
				m++;
			}
		out[k++] = exp(sum / m);
	}
	return k;
}

/* One side of a test: its levels and the values tested (owned when unit means). */
struct side {
	struct pb_levels	lv;
	const double		*v;
	double			*own;
	int			n;
};

static void side_free(struct side *s)
{
	free(s->own);
	s->own = NULL;
}

static int side_of(const struct pb_table *t, const struct pb_cell *cell, struct side *s)
{
	struct pb_level_value *lv = level_values(cell);

	memset(s, 0, sizeof(*s));
	if (!lv)
		return -1;
	if (pb_levels_of(lv, cell->nu, &s->lv))
		s->lv = (struct pb_levels){ .boots = 1, .invocations = 1, .runs = cell->nu };
	s->n = pb_cmp_values(t, cell, &s->v);
	s->own = malloc(sizeof(double) * (size_t)(cell->nu ? cell->nu : 1));
	if (!s->own) {
		free(lv);
		return -1;
	}
	free(lv);
	return 0;
}

/* The values of s at unit (runs: as they are). */
static void side_at(const struct pb_cell *cell, struct side *s, enum pb_level unit)
{
	struct pb_level_value *lv;

	if (unit == PB_LEVEL_RUN)
		return;
	lv = level_values(cell);
	if (!lv)
		return;
	s->n = unit_means(lv, cell->nu, unit, s->own);
	s->v = s->own;
	free(lv);
}

/* How a cell was judged: the test at the unit, on the log scale as well. */
struct judged {
	struct pb_ratio	r;
	bool		rank, on_repeats, widened;
	enum pb_level	unit;
	struct pb_levels la, lb;
	double		d, se_w, df_w, se, df;	/* log ratio, its se and df (widened: se, df) */
};

/* values as stats/levels.h's, each a unit of its own; NULL when no memory. */
static struct pb_level_value *as_units(const double *v, int n)
{
	struct pb_level_value *u = calloc((size_t)(n ? n : 1), sizeof(*u));

	for (int i = 0; u && i < n; i++)
		u[i].value = v[i];
	return u;
}

/* Welch on the logs of the values tested (pb_levels_diff): d, se_w, df_w (NAN below 2). */
static void log_welch(const double *a, int na, const double *b, int nb, struct judged *j)
{
	struct pb_level_value *ua = as_units(a, na), *ub = as_units(b, nb);
	struct pb_level_diff r;

	j->d = j->se_w = j->df_w = NAN;
	if (ua && ub && !pb_levels_diff(ua, na, ub, nb, &r)) {
		j->d = r.d;
		j->se_w = r.se;
		j->df_w = isnan(r.df) && r.se == 0 ? na + nb - 2 : r.df;	/* no spread */
	}
	free(ua);
	free(ub);
}

/*
 * A side with one boot and a figure for the variation between boots: the
 * interval widened by it, se = sqrt(se_w^2 + sd^2/b_a + sd^2/b_b), df by
 * Satterthwaite (the sd's own df for its term), a t-test on the log ratio.
 */
static void widen(const struct pb_between *bw, struct judged *j)
{
	double c = bw->sd * bw->sd * (1.0 / j->la.boots + 1.0 / j->lb.boots);
	double var[2] = { j->se_w * j->se_w, c }, df[2] = { j->df_w, bw->df }, t;

	j->se = sqrt(var[0] + var[1]);
	j->df = pb_satterthwaite(var, df, 2);
	if (isnan(j->df))
		return;
	t = pb_t95(j->df);
	j->r.ratio = exp(j->d);
	j->r.lo = exp(j->d - t * j->se);
	j->r.hi = exp(j->d + t * j->se);
	j->r.p = pb_t_pvalue(j->d / j->se, j->df);
	j->r.df = j->df;
	j->rank = false;
	j->widened = true;
}

static bool one_boot(const struct judged *j)
{
	return j->la.boots < 2 || j->lb.boots < 2;
}

/*
 * cell against base at the test's unit: the runs' values aggregated to
 * their boots' (invocations') geometric means when every cell of the
 * table has runs (pb_cmp_between), else the repeats of single runs; then
 * the Hodges-Lehmann ratio with its interval and Mann-Whitney's p, or the
 * ratio of their means with its interval and Welch's p (for rates on the
 * reciprocals, the scale their mean is taken on), widened by the
 * variation between boots where a side has one boot and t has a figure.
 * 0, or -1 when untestable.
 */
static int cell_judge(const struct pb_table *t, const struct pb_cell *base,
		      const struct pb_cell *cell, struct judged *j)
{
	struct side a, b;
	int rc;

	memset(j, 0, sizeof(*j));
	j->d = j->se_w = j->df_w = j->se = j->df = NAN;
	if (side_of(t, base, &a))
		return -1;
	if (side_of(t, cell, &b)) {
		side_free(&a);
		return -1;
	}
	j->la = a.lv;
	j->lb = b.lv;
	j->on_repeats = !pb_cmp_between(t);
	j->unit = j->on_repeats ? PB_LEVEL_RUN : pb_levels_unit(&a.lv, &b.lv);
	side_at(base, &a, j->unit);
	side_at(cell, &b, j->unit);
	j->rank = by_rank(t, a.n, b.n);
	rc = j->rank ? pb_rank_test(a.v, a.n, b.v, b.n, &j->r) :
		       pb_ratio_test(a.v, a.n, b.v, b.n, t->rate, &j->r);
	log_welch(a.v, a.n, b.v, b.n, j);
	j->se = j->se_w;
	j->df = j->df_w;
	if (!rc && one_boot(j) && t->between.sd > 0 && !isnan(j->se_w))
		widen(&t->between, j);
	side_free(&a);
	side_free(&b);
	return rc;
}

/* The judged cell's levels, resolution and tipping point, into e. */
static void eval_levels(const struct pb_table *t, const struct judged *j, struct pb_eval *e)
{
	e->lv = j->lb;
	e->base_lv = j->la;
	e->unit = j->unit;
	e->on_repeats = j->on_repeats;
	e->widened = j->widened;
	e->source = j->widened ? t->between.source : NULL;
	e->stands_in = j->widened && t->between.stands_in;
	e->within = one_boot(j) && !j->widened;
	e->mde = isnan(j->se) ? NAN : pb_mde(j->se, j->df) * 100.0;
	if (e->within && e->significant)
		e->tipping = pb_tipping_cv(j->d, j->se_w, j->df_w, j->la.boots,
					   j->lb.boots) * 100.0;
}

const char *pb_cmp_error_kind(const struct pb_cell *cell)
{
	for (int i = 0; cell && i < cell->nr_marks; i++)
		if (!strcmp(cell->marks[i].severity, "error"))
			return cell->marks[i].kind;
	return cell && cell->run_error[0] ? cell->run_error : NULL;
}

/* An error finding on either side: the cell is not judged, e->not_judged says why. */
static bool not_judged(const struct pb_cell *cell, const struct pb_cell *base,
		       struct pb_eval *e)
{
	const char *kb = pb_cmp_error_kind(base), *kc = pb_cmp_error_kind(cell);

	if (kb && kc && !strcmp(kb, kc))
		snprintf(e->not_judged, sizeof(e->not_judged), "%s on both sides", kc);
	else if (kb && kc)
		snprintf(e->not_judged, sizeof(e->not_judged), "%s on this side, %s on the "
			 "baseline", kc, kb);
	else if (kb || kc)
		snprintf(e->not_judged, sizeof(e->not_judged), "%s on %s", kc ? kc : kb,
			 kc ? "this side" : "the baseline");
	return kb || kc;
}

/*
 * A tested cell's outcome: changed when significant; no change when its
 * whole interval lies inside ±mde (the resolution, so never narrower
 * than the interval reaches) and is bounded (an interval reaching below
 * -100 % or without an end bounds nothing: "no change beyond ±787 %"
 * said more than it knew); inconclusive otherwise.
 */
static const char *tested_outcome(const struct pb_eval *e)
{
	if (e->significant)
		return "changed";
	if (!isnan(e->mde) && !pb_cmp_ci_unbounded_lo(e) && !pb_cmp_ci_unbounded_hi(e) &&
	    e->ci_lo >= -e->mde && e->ci_hi <= e->mde)
		return "no-change";
	return "inconclusive";
}

/* The verdict of a cell with values and a baseline, after the test. */
static void eval_outcome(const struct pb_cell *cell, const struct pb_cell *base,
			 struct pb_eval *e)
{
	if (not_judged(cell, base, e)) {
		e->significant = false;
		e->verdict = "not-judged";
		e->outcome = "not-judged";
	} else {
		e->outcome = e->test ? tested_outcome(e) : "not-judged";
	}
}

void pb_cmp_eval(const struct pb_table *t, const struct pb_cell *cell,
		 const struct pb_cell *base, double min_change, struct pb_eval *e)
{
	struct pb_summary bs;
	struct judged j;
	const double *v;
	int n;

	memset(e, 0, sizeof(*e));
	e->change = NAN;
	e->ci_lo = e->ci_hi = NAN;
	e->p = NAN;
	e->p_adj = NAN;
	e->tipping = e->mde = NAN;
	e->verdict = "no-change";
	if (!cell || !cell->n)
		return;
	e->between = pb_cmp_between(t);
	n = pb_cmp_values(t, cell, &v);
	pb_summarize(v, n, t->rate, &e->s);
	e->outcome = "not-judged";
	if (cell == base) {
		e->is_base = true;
		e->verdict = e->outcome = "baseline";
		return;
	}
	n = base ? pb_cmp_values(t, base, &v) : 0;
	if (!base || pb_summarize(v, n, t->rate, &bs) || bs.mean == 0)
		return;
	e->has_base = true;
	e->change = (e->s.mean - bs.mean) / fabs(bs.mean) * 100.0;
	if (!cell_judge(t, base, cell, &j)) {
		e->test = j.rank ? "rank" : "welch";
		if (j.rank || j.widened)	/* the estimate its interval is of */
			e->change = (j.r.ratio - 1) * 100.0;
		e->p = j.r.p;
		e->ci_lo = (j.r.lo - 1) * 100.0;
		e->ci_hi = isinf(j.r.hi) ? INFINITY : (j.r.hi - 1) * 100.0;
	}
	e->p_adj = cell->adjusted ? cell->p_adj : e->p;
	e->significant = !isnan(e->p_adj) && e->p_adj < PB_CMP_ALPHA &&
			 fabs(e->change) > min_change;
	if (e->significant)
		e->verdict = (e->change > 0) == t->higher ? "improvement" : "regression";
	if (e->test)
		eval_levels(t, &j, e);
	if (e->within && e->significant)	/* never read as a regression */
		e->verdict = e->verdict[0] == 'r' ? "regression-within-boot" :
			     "improvement-within-boot";
	eval_outcome(cell, base, e);
}

bool pb_cmp_regressed(const struct pb_eval *e)
{
	return e->significant && !e->within && !e->not_judged[0] &&
	       !strcmp(e->verdict, "regression");
}

const char *pb_cmp_unit_name(const struct pb_eval *e)
{
	static const char *const names[] = { "boot", "invocation", "run" };

	if (e->on_repeats)
		return "repeat";
	return (unsigned int)e->unit < PB_NR_LEVELS ? names[e->unit] : "run";
}

void pb_cmp_level_words(const struct pb_eval *e, char *buf, size_t len)
{
	if (e->within)
		snprintf(buf, len, "within one boot");
	else if (e->widened)
		snprintf(buf, len, "boot level (between-%s noise from %s%s)",
			 e->stands_in ? "invocation" : "boot", e->source,
			 e->stands_in ? ", standing in for boots" : "");
	else
		snprintf(buf, len, "boot level");
}

bool pb_cmp_ci_unbounded_lo(const struct pb_eval *e)
{
	return e->ci_lo < -100;
}

bool pb_cmp_ci_unbounded_hi(const struct pb_eval *e)
{
	return isinf(e->ci_hi);
}

void pb_cmp_ci_words(const struct pb_eval *e, int digits, char *buf, size_t len)
{
	bool lo = pb_cmp_ci_unbounded_lo(e), hi = pb_cmp_ci_unbounded_hi(e);

	if (isnan(e->ci_lo) || isnan(e->ci_hi))
		snprintf(buf, len, "%s", "");
	else if (lo && hi)
		snprintf(buf, len, "[unbounded]");
	else if (lo)
		snprintf(buf, len, "[unbounded, %+.*f]", digits, e->ci_hi);
	else if (hi)
		snprintf(buf, len, "[%+.*f, unbounded]", digits, e->ci_lo);
	else
		snprintf(buf, len, "[%+.*f, %+.*f]", digits, e->ci_lo, digits, e->ci_hi);
}

void pb_cmp_qualify(const struct pb_eval *e, char *buf, size_t len)
{
	const char *within = e->within ? " within one boot a side" : "";
	char ci[64];

	if (!len)
		return;
	buf[0] = 0;
	if (e->not_judged[0])
		snprintf(buf, len, "not judged: %s", e->not_judged);
	else if (!e->test)
		return;
	else if (e->within && e->significant)
		snprintf(buf, len, "within one boot a side; holds if boots vary by less than "
			 "%.1f %%; boot each kernel twice, or run pinbench calibrate", e->tipping);
	else if (!e->significant && !strcmp(e->outcome, "no-change"))
		snprintf(buf, len, "no change beyond ±%.1f %%%s", e->mde, within);
	else if (!e->significant) {
		pb_cmp_ci_words(e, 1, ci, sizeof(ci));
		snprintf(buf, len, "inconclusive (interval %s)%s", ci, within);
	}
	else if (!isnan(e->mde))
		snprintf(buf, len, "resolves ±%.1f %%", e->mde);
}

bool pb_cmp_tally_add(struct pb_cmp_tally *ty, const struct pb_eval *e)
{
	if (!e->outcome)
		return false;
	if (!strcmp(e->outcome, "no-change")) {
		ty->no_change++;
		ty->beyond = e->mde > ty->beyond ? e->mde : ty->beyond;
	} else if (!strcmp(e->outcome, "inconclusive")) {
		ty->inconclusive++;
	} else if (!strcmp(e->outcome, "not-judged")) {
		if (!ty->not_judged++)
			snprintf(ty->why, sizeof(ty->why), "%s",
				 e->not_judged[0] ? e->not_judged : "untested");
	} else {
		return false;
	}
	return true;
}

/* "; 2 others", " 1 placement": the head of one part of a tally's words. */
static size_t tally_head(int n, bool said, char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%s %d %s", said ? ";" : "", n,
				said ? (n > 1 ? "others" : "other") :
				(n > 1 ? "placements" : "placement"));
}

size_t pb_cmp_tally_words(const struct pb_cmp_tally *ty, bool said, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = 0;
	if (off < len && ty->no_change) {
		off += tally_head(ty->no_change, said, buf + off, len - off);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off,
						": no change beyond ±%.1f %%", ty->beyond);
		said = true;
	}
	if (off < len && ty->inconclusive) {
		off += tally_head(ty->inconclusive, said, buf + off, len - off);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, " inconclusive");
		said = true;
	}
	if (off < len && ty->not_judged) {
		off += tally_head(ty->not_judged, said, buf + off, len - off);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, " not judged (%s%s)",
						ty->why, ty->not_judged > 1 ? ", ..." : "");
	}
	return off < len ? off : len ? len - 1 : 0;
}

void pb_cmp_ask_between(struct pb_cmp *c, pb_between_fn fn, void *ctx)
{
	for (int i = 0; i < c->nr_tables; i++) {
		struct pb_between *b = &c->t[i].between;

		memset(b, 0, sizeof(*b));
		b->sd = NAN;
		if (fn && fn(ctx, &c->t[i], b) != 1)
			b->sd = NAN;
	}
}

void pb_cmp_change_words(const struct pb_eval *e, bool no_correction, char *buf, size_t len)
{
	const char *k = no_correction ? "p" : "q";
	char ci[64];
	size_t off;

	pb_cmp_ci_words(e, 2, ci, sizeof(ci));
	off = (size_t)snprintf(buf, len, "%+.2f %%%s%s", e->change, ci[0] ? " " : "", ci);
	if (off < len && !isnan(e->p_adj))
		snprintf(buf + off, len - off, e->p_adj < 0.001 ? ", %s < 0.001" : ", %s=%.3f",
			 k, e->p_adj);
}

void pb_cmp_count_tests(const struct pb_cmp *c, int base_group, int *rank, int *welch)
{
	*rank = *welch = 0;
	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		const struct pb_cell *base = pb_cmp_base(c, t, base_group);
		struct pb_eval e;

		for (int k = 0; k < t->nr_cells; k++) {
			pb_cmp_eval(t, &t->cells[k], base, PB_CMP_MIN_CHG, &e);
			if (e.test)
				*(!strcmp(e.test, "rank") ? rank : welch) += 1;
		}
	}
}

struct ptest {
	double		p;
	struct pb_cell	*cell;
};

static int ptest_cmp(const void *a, const void *b)
{
	double x = ((const struct ptest *)a)->p, y = ((const struct ptest *)b)->p;

	return x < y ? -1 : x > y;
}

/* Every testable cell with its raw p; returns how many, -1 on no memory. */
static int collect_tests(struct pb_cmp *c, int base_group, struct ptest **out)
{
	struct ptest *v = NULL, *nv;
	struct judged jd;
	int i, j, n = 0, cap = 0;

	for (i = 0; i < c->nr_tables; i++) {
		const struct pb_cell *base = pb_cmp_base(c, &c->t[i], base_group);

		for (j = 0; j < c->t[i].nr_cells; j++) {
			struct pb_cell *cell = &c->t[i].cells[j];

			cell->adjusted = false;
			if (!base || cell == base || cell_judge(&c->t[i], base, cell, &jd))
				continue;
			nv = pb_grow(v, n, &cap, sizeof(*v));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
			v[n].p = jd.r.p;
			v[n++].cell = cell;
		}
	}
	*out = v;
	return n;
}

void pb_cmp_adjust(struct pb_cmp *c, int base_group, bool correct)
{
	struct ptest *v = NULL;
	double run = 1, x;
	int i, m;

	if (!c->order)
		pb_cmp_order(c, false);
	m = collect_tests(c, base_group, &v);
	c->nr_tests = m > 0 ? m : 0;
	if (m <= 0)
		return;
	qsort(v, (size_t)m, sizeof(*v), ptest_cmp);
	for (i = m - 1; i >= 0; i--) {
		x = correct ? v[i].p * m / (i + 1) : v[i].p;
		run = x < run ? x : run;
		v[i].cell->p_adj = correct ? run : v[i].p;
		v[i].cell->adjusted = true;
	}
	free(v);
}
