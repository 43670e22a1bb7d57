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

/*
 * cell against base, on the runs or on the repeats (pb_cmp_values): the
 * Hodges-Lehmann ratio with its interval and Mann-Whitney's p, or the
 * ratio of their means with its interval and Welch's p (for rates on the
 * reciprocals, the scale their mean is taken on).  *rank says which.  0,
 * or -1 when untestable.
 */
static int cell_test(const struct pb_table *t, const struct pb_cell *base,
		     const struct pb_cell *cell, struct pb_ratio *r, bool *rank)
{
	const double *a, *b;
	int na = pb_cmp_values(t, base, &a), nb = pb_cmp_values(t, cell, &b);

	*rank = by_rank(t, na, nb);
	return *rank ? pb_rank_test(a, na, b, nb, r) : pb_ratio_test(a, na, b, nb, t->rate, r);
}

void pb_cmp_eval(const struct pb_table *t, const struct pb_cell *cell,
		 const struct pb_cell *base, double min_change, struct pb_eval *e)
{
	struct pb_summary bs;
	struct pb_ratio rt;
	const double *v;
	bool rank;
	int n;

	memset(e, 0, sizeof(*e));
	e->change = NAN;
	e->ci_lo = e->ci_hi = NAN;
	e->p = NAN;
	e->p_adj = NAN;
	e->verdict = "no-change";
	if (!cell || !cell->n)
		return;
	e->between = pb_cmp_between(t);
	n = pb_cmp_values(t, cell, &v);
	pb_summarize(v, n, t->rate, &e->s);
	if (cell == base) {
		e->is_base = true;
		e->verdict = "baseline";
		return;
	}
	n = base ? pb_cmp_values(t, base, &v) : 0;
	if (!base || pb_summarize(v, n, t->rate, &bs) || bs.mean == 0)
		return;
	e->has_base = true;
	e->change = (e->s.mean - bs.mean) / fabs(bs.mean) * 100.0;
	if (!cell_test(t, base, cell, &rt, &rank)) {
		e->test = rank ? "rank" : "welch";
		if (rank)	/* the estimate its interval is of */
			e->change = (rt.ratio - 1) * 100.0;
		e->p = rt.p;
		e->ci_lo = (rt.lo - 1) * 100.0;
		e->ci_hi = isinf(rt.hi) ? INFINITY : (rt.hi - 1) * 100.0;
	}
	e->p_adj = cell->adjusted ? cell->p_adj : e->p;
	e->significant = !isnan(e->p_adj) && e->p_adj < PB_CMP_ALPHA &&
			 fabs(e->change) > min_change;
	if (e->significant)
		e->verdict = (e->change > 0) == t->higher ? "improvement" : "regression";
}

void pb_cmp_change_words(const struct pb_eval *e, bool no_correction, char *buf, size_t len)
{
	const char *k = no_correction ? "p" : "q";
	size_t off;

	off = (size_t)snprintf(buf, len, "%+.2f %%", e->change);
	if (off < len && !isnan(e->ci_lo) && isinf(e->ci_hi))
		off += (size_t)snprintf(buf + off, len - off, " [%+.2f, +inf]", e->ci_lo);
	else if (off < len && !isnan(e->ci_lo))
		off += (size_t)snprintf(buf + off, len - off, " [%+.2f, %+.2f]", e->ci_lo,
					e->ci_hi);
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
	struct pb_ratio rt;
	bool rank;
	int i, j, n = 0, cap = 0;

	for (i = 0; i < c->nr_tables; i++) {
		const struct pb_cell *base = pb_cmp_base(c, &c->t[i], base_group);

		for (j = 0; j < c->t[i].nr_cells; j++) {
			struct pb_cell *cell = &c->t[i].cells[j];

			cell->adjusted = false;
			if (!base || cell == base || cell_test(&c->t[i], base, cell, &rt, &rank))
				continue;
			nv = pb_grow(v, n, &cap, sizeof(*v));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
			v[n].p = rt.p;
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
