// SPDX-License-Identifier: GPL-2.0-only
/*
 * history.c - a results history as evidence: every run's mean per job x
 * placement, the runs in history order, each cell's between-run noise
 * from the kernels that ran more than once (A/A pairs) and the change
 * points of its series (report/changepoint.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/between.h"
#include "report/history.h"
#include "stats/stats.h"
#include "lib/util.h"

static const char *jstr(json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

/* The run of path (and round): its index, or -1 when out of memory. */
static int get_run(struct pb_history *h, const char *path, int round, json_t *root, bool judged)
{
	struct pb_history_run *r;
	int i;

	for (i = 0; i < h->nr_runs; i++)
		if (h->runs[i].round == round && !strcmp(h->runs[i].file, path))
			return i;
	r = pb_grow(h->runs, h->nr_runs, &h->cap_runs, sizeof(*r));
	if (!r)
		return -1;
	h->runs = r;
	r = &h->runs[h->nr_runs];
	memset(r, 0, sizeof(*r));
	r->file = strdup(path);
	if (!r->file)
		return -1;
	snprintf(r->label, sizeof(r->label), "%s", jstr(root, "label", "?"));
	pb_str_clean(r->label);
	snprintf(r->started, sizeof(r->started), "%s", jstr(root, "started", ""));
	r->round = round;
	r->judged = judged;
	return h->nr_runs++;
}

struct pb_history_cell *pb_history_find(struct pb_history *h, const char *job, const char *placement)
{
	int i;

	for (i = 0; i < h->nr_cells; i++)
		if (!strcmp(h->cells[i].job, job) && !strcmp(h->cells[i].placement, placement))
			return &h->cells[i];
	return NULL;
}

static struct pb_history_cell *get_cell(struct pb_history *h, json_t *job)
{
	const char *name = jstr(job, "name", "?"), *pl = jstr(job, "placement", "-");
	struct pb_history_cell *c = pb_history_find(h, name, pl);
	json_t *metric = json_object_get(job, "metric");

	if (c)
		return c;
	c = pb_grow(h->cells, h->nr_cells, &h->cap_cells, sizeof(*c));
	if (!c)
		return NULL;
	h->cells = c;
	c = &h->cells[h->nr_cells++];
	memset(c, 0, sizeof(*c));
	snprintf(c->job, sizeof(c->job), "%s", name);
	snprintf(c->placement, sizeof(c->placement), "%s", pl);
	pb_str_clean(c->job);
	pb_str_clean(c->placement);
	c->higher = !strcmp(jstr(metric, "better", "lower"), "higher");
	snprintf(c->metric, sizeof(c->metric), "%s", jstr(metric, "name", ""));
	snprintf(c->unit, sizeof(c->unit), "%s", jstr(metric, "unit", ""));
	pb_str_clean(c->metric);
	pb_str_clean(c->unit);
	c->cv = NAN;
	return c;
}

/*
 * An ok job's mean: the summary's, else that of its metric repeats; false:
 * none.  Its repeats' values in the summary go to p (p->val NULL when out
 * of memory: the plot goes without them).
 */
static bool job_mean(json_t *job, double *mean, struct pb_history_point *p)
{
	json_t *m = json_object_get(json_object_get(job, "summary"), "mean"), *r, *v;
	json_t *reps = json_object_get(job, "repeats");
	double sum = 0;
	size_t i;

	p->val = NULL;
	p->nv = 0;
	if (strcmp(jstr(job, "status", "ok"), "ok"))
		return false;
	p->val = malloc((json_array_size(reps) + 1) * sizeof(double));
	json_array_foreach(reps, i, r) {
		v = json_object_get(r, "value");
		if (json_is_false(json_object_get(r, "in_summary")) || !json_is_number(v) ||
		    !isfinite(json_number_value(v)))
			continue;
		sum += json_number_value(v);
		if (p->val)
			p->val[p->nv] = json_number_value(v);
		p->nv++;
	}
	p->nv = p->val ? p->nv : 0;
	*mean = json_is_number(m) ? json_number_value(m) : p->nv ? sum / p->nv : 0;
	if (json_is_number(m) ? isfinite(*mean) : p->nv > 0)
		return true;
	free(p->val);
	p->val = NULL;
	p->nv = 0;
	return false;
}

int pb_history_add(struct pb_history *h, const char *path, json_t *root, bool judged)
{
	struct pb_history_point *p, pt;
	struct pb_history_cell *c;
	json_t *job, *rd;
	double mean;
	size_t i;
	int run;

	json_array_foreach(json_object_get(root, "jobs"), i, job) {
		if (!json_is_object(job) || !job_mean(job, &mean, &pt))
			continue;
		rd = json_object_get(job, "round");
		run = get_run(h, path, json_is_integer(rd) && json_integer_value(rd) > 0 ?
			      (int)json_integer_value(rd) : 0, root, judged);
		c = run < 0 ? NULL : get_cell(h, job);
		p = c ? pb_grow(c->pt, c->n, &c->cap, sizeof(*p)) : NULL;
		if (!p) {
			free(pt.val);
			return -1;
		}
		c->pt = p;
		pt.run = run;
		pt.v = mean;
		c->pt[c->n++] = pt;
	}
	return 0;
}

/* History order: kernel version, start time, file, round. */
static int run_cmp(const void *a, const void *b, void *ctx)
{
	const struct pb_history_run *runs = ctx;
	const struct pb_history_run *x = &runs[*(const int *)a], *y = &runs[*(const int *)b];
	int r = pb_version_cmp(x->label, y->label);

	if (!r)
		r = strcmp(x->label, y->label);
	if (!r)
		r = strcmp(x->started, y->started);
	if (!r)
		r = strcmp(x->file, y->file);
	return r ? r : x->round - y->round;
}

static int point_cmp(const void *a, const void *b, void *ctx)
{
	const int *rank = ctx;

	return rank[((const struct pb_history_point *)a)->run] -
	       rank[((const struct pb_history_point *)b)->run];
}

/* Mean and sample variance of a kernel's runs pt[i..j) that are not judged: how many. */
static int kernel_runs(const struct pb_history *h, const struct pb_history_cell *c, int i,
		       int j, double *mean, double *var)
{
	double sum = 0, ss = 0;
	int q, k = 0;

	for (q = i; q < j; q++)
		if (!h->runs[c->pt[q].run].judged) {
			sum += c->pt[q].v;
			k++;
		}
	*mean = k ? sum / k : 0;
	for (q = i; q < j; q++)
		if (!h->runs[c->pt[q].run].judged)
			ss += (c->pt[q].v - *mean) * (c->pt[q].v - *mean);
	*var = k > 1 ? ss / (k - 1) : 0;
	return k;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The cell's between-run CV, pooled over the kernels that ran it twice or
 * more (the run being judged left out: it is not its own noise).  With
 * three such kernels or more, one whose CV is over PB_HISTORY_BAD_CV times
 * their median is left out (a bad night in an A/A pair), so that one night
 * does not widen the floor of every night after it.
 */
static int cell_noise(const struct pb_history *h, struct pb_history_cell *c)
{
	double acc = 0, m, var, med = 0, *cv = malloc((size_t)(c->n + 1) * 2 * sizeof(double));
	int i, j, k, nk = 0, df = 0;

	if (!cv)
		return -1;
	for (i = 0; i < c->n; i = j) {	/* cv[2q]: a kernel's CV, cv[2q + 1]: its runs */
		const char *label = h->runs[c->pt[i].run].label;

		for (j = i; j < c->n && !strcmp(h->runs[c->pt[j].run].label, label); j++)
			;
		k = kernel_runs(h, c, i, j, &m, &var);
		if (k < 2 || m == 0)
			continue;
		cv[2 * nk] = sqrt(var) / fabs(m);
		cv[2 * nk++ + 1] = k;
	}
	if (nk >= 3) {
		double *s = cv + 2 * nk;	/* 3 nk <= 3 n / 2 doubles used */

		for (i = 0; i < nk; i++)
			s[i] = cv[2 * i];
		qsort(s, (size_t)nk, sizeof(*s), dbl_cmp);
		med = nk % 2 ? s[nk / 2] : (s[nk / 2 - 1] + s[nk / 2]) / 2;
	}
	for (i = 0; i < nk; i++) {
		k = (int)cv[2 * i + 1];
		if (med > 0 && cv[2 * i] > PB_HISTORY_BAD_CV * med) {
			c->aa_dropped++;
			continue;
		}
		acc += (k - 1) * cv[2 * i] * cv[2 * i];
		df += k - 1;
		c->aa_runs += k;
		c->aa_kernels++;
	}
	c->cv = df ? sqrt(acc / df) : NAN;
	free(cv);
	return 0;
}

static int cell_steps(const struct pb_history *h, struct pb_history_cell *c)
{
	struct pb_cp cp[PB_HISTORY_MAX_STEPS];
	size_t nx = c->n > 0 ? (size_t)c->n : 1;
	double *x = malloc(nx * sizeof(*x)), before, after;
	int i, k, lo, hi;

	if (!x)
		return -1;
	for (i = 0; i < c->n; i++)
		x[i] = c->pt[i].v;
	k = pb_changepoints(x, c->n, &h->cp, cp, PB_HISTORY_MAX_STEPS);
	k = k > PB_HISTORY_MAX_STEPS ? PB_HISTORY_MAX_STEPS : k;
	for (i = 0; i < k; i++) {
		struct pb_history_step *s = &c->steps[i];

		lo = i ? cp[i - 1].index : 0;
		hi = i + 1 < k ? cp[i + 1].index : c->n;
		/* the step's size from the medians: one bad night does not inflate it */
		before = pb_median(x + lo, cp[i].index - lo);
		after = pb_median(x + cp[i].index, hi - cp[i].index);
		s->at = cp[i].index;
		s->p = cp[i].p;
		s->change = before ? (after - before) / fabs(before) * 100 : 0;
		s->regression = s->change != 0 && (s->change > 0) != c->higher;
		snprintf(s->label, sizeof(s->label), "%s", h->runs[c->pt[s->at].run].label);
	}
	c->nr_steps = k < 0 ? 0 : k;
	free(x);
	return k < 0 ? -1 : 0;
}

int pb_history_analyse(struct pb_history *h)
{
	int *order = malloc((size_t)(h->nr_runs + 1) * sizeof(int));
	int *rank = malloc((size_t)(h->nr_runs + 1) * sizeof(int));
	int i, rc = order && rank ? 0 : -1;

	if (!h->cp.min_size)
		h->cp = (struct pb_cp_opts){ PB_CP_MIN_SIZE, PB_CP_PERMUTATIONS, PB_CP_ALPHA,
					     PB_CP_SEED };
	for (i = 0; !rc && i < h->nr_runs; i++)
		order[i] = i;
	if (!rc)
		qsort_r(order, (size_t)h->nr_runs, sizeof(int), run_cmp, h->runs);
	for (i = 0; !rc && i < h->nr_runs; i++)
		rank[order[i]] = i;
	for (i = 0; !rc && i < h->nr_cells; i++) {
		struct pb_history_cell *c = &h->cells[i];

		qsort_r(c->pt, (size_t)c->n, sizeof(*c->pt), point_cmp, rank);
		c->aa_runs = c->aa_kernels = c->aa_dropped = 0;
		rc = cell_noise(h, c) || cell_steps(h, c) ? -1 : 0;
	}
	free(order);
	free(rank);
	return rc;
}

void pb_history_free(struct pb_history *h)
{
	int i;

	for (i = 0; i < h->nr_runs; i++)
		free(h->runs[i].file);
	for (i = 0; i < h->nr_cells; i++) {
		for (int k = 0; k < h->cells[i].n; k++)
			free(h->cells[i].pt[k].val);
		free(h->cells[i].pt);
	}
	free(h->runs);
	free(h->cells);
	memset(h, 0, sizeof(*h));
}

int pb_history_between(void *ctx, const struct pb_table *t, struct pb_between *b)
{
	struct pb_history_cell *hc = pb_history_find(ctx, t->job, t->placement);
	int df = hc ? hc->aa_runs - hc->aa_kernels : 0;

	b->sd = NAN;
	b->df = 0;
	b->stands_in = false;
	b->source[0] = 0;
	if (!hc || !(hc->cv > 0) || df < 1)
		return 0;
	b->sd = hc->cv;
	b->df = df;
	snprintf(b->source, sizeof(b->source),
		 "the A/A history, %d nights, %d df", hc->aa_runs, df);
	return 1;
}
