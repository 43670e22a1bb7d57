// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_eval.c - the statistics of a comparison: each cell against the baseline
 * (Welch's t-test, the noise floor), p-values adjusted over the report
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
#include "report/schema.h"
#include "lib/util.h"
#include "checks/stats.h"

/* ---- evaluation ---- */

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

/*
 * Welch's test of cell against base.  For rates (harmonic means) on the
 * reciprocals, the scale their mean is taken on.  0, or -1 when untestable.
 */
static int cell_welch(const struct pb_table *t, const struct pb_cell *base,
		      const struct pb_cell *cell, double *p)
{
	double tt, df, *ra, *rb;
	int i, rc = -1;

	if (!t->rate)
		return pb_welch(base->v, base->n, cell->v, cell->n, &tt, &df, p);
	ra = malloc((size_t)(base->n + 1) * sizeof(*ra));
	rb = malloc((size_t)(cell->n + 1) * sizeof(*rb));
	for (i = 0; ra && rb && i < base->n; i++)
		ra[i] = base->v[i] ? 1 / base->v[i] : 0;
	for (i = 0; ra && rb && i < cell->n; i++)
		rb[i] = cell->v[i] ? 1 / cell->v[i] : 0;
	if (ra && rb)
		rc = pb_welch(ra, base->n, rb, cell->n, &tt, &df, p);
	free(ra);
	free(rb);
	return rc;
}

void pb_cmp_eval(const struct pb_table *t, const struct pb_cell *cell,
		 const struct pb_cell *base, double min_change, struct pb_eval *e)
{
	struct pb_summary bs;

	memset(e, 0, sizeof(*e));
	e->change = NAN;
	e->p = NAN;
	e->p_adj = NAN;
	e->verdict = "no-change";
	if (!cell || !cell->n)
		return;
	pb_summarize(cell->v, cell->n, t->rate, &e->s);
	if (cell == base) {
		e->is_base = true;
		e->verdict = "baseline";
		return;
	}
	if (!base || pb_summarize(base->v, base->n, t->rate, &bs) || bs.mean == 0)
		return;
	e->has_base = true;
	e->change = (e->s.mean - bs.mean) / fabs(bs.mean) * 100.0;
	if (cell_welch(t, base, cell, &e->p))
		e->p = NAN;
	e->p_adj = cell->adjusted ? cell->p_adj : e->p;
	e->significant = !isnan(e->p_adj) && e->p_adj < PB_CMP_ALPHA &&
			 fabs(e->change) > min_change;
	if (e->significant)
		e->verdict = (e->change > 0) == t->higher ? "improvement" : "regression";
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
	double p;
	int i, j, n = 0, cap = 0;

	for (i = 0; i < c->nr_tables; i++) {
		const struct pb_cell *base = pb_cmp_base(c, &c->t[i], base_group);

		for (j = 0; j < c->t[i].nr_cells; j++) {
			struct pb_cell *cell = &c->t[i].cells[j];

			cell->adjusted = false;
			if (!base || cell == base || cell_welch(&c->t[i], base, cell, &p))
				continue;
			nv = pb_grow(v, n, &cap, sizeof(*v));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
			v[n].p = p;
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
