// SPDX-License-Identifier: GPL-2.0-only
/*
 * analysis.c - what a finished job's windows say: counts summed over the
 * windows that counted, a counter pass's speed against the metric's,
 * datagrams lost, derived per-op figures; and the verdicts on them
 * (time-shared counters, counters against the probe, loss, stalls,
 * run-to-run variation), through checks/.  runner.c runs the job; this
 * reads what it left.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/runner.h"
#include "stats/robust.h"

double pb_loss_rate(uint64_t lost, uint64_t ops)
{
	return lost + ops ? (double)lost / (double)(lost + ops) : NAN;
}

bool pb_result_loss(const struct pb_result *r, int rep, uint64_t *lost, uint64_t *ops)
{
	int k = pb_bench_lost_aux(r->job->bench);

	*lost = *ops = 0;
	if (k < 0)
		return false;
	for (int i = 0; i < r->nr_reps; i++)
		if (rep < 0 ? r->reps[i].in_summary : i == rep) {
			*lost += r->reps[i].aux[k];
			*ops += r->reps[i].ops;
		}
	return true;
}

int pb_result_counts(const struct pb_result *r, int g, int rep,
		     struct pb_count *acc, double *ops)
{
	int n = 0;

	pb_counts_zero(&r->evl, acc);
	*ops = 0;
	for (int i = 0; i < r->nr_reps; i++) {
		const struct pb_rep *p = &r->reps[i];

		if (p->pass < 0 || (rep >= 0 && i != rep) || !p->counts)
			continue;
		for (int k = 0; k < r->nr_groups; k++)
			if (g < 0 || k == g)
				pb_counts_add(&r->evl, acc, p->counts + (size_t)k * r->evl.nr);
		*ops += p->ops;
		n++;
	}
	return n;
}

int pb_result_pass_rate(const struct pb_result *r, int pass, double *pass_rate,
			double *metric_rate)
{
	double po = 0, pt = 0, mo = 0, mt = 0;

	for (int i = 0; i < r->nr_reps; i++) {
		const struct pb_rep *p = &r->reps[i];

		if (p->in_summary && p->pass < 0) {
			mo += p->ops;
			mt += p->elapsed_s;
		} else if (p->pass == pass) {
			po += p->ops;
			pt += p->elapsed_s;
		}
	}
	if (pt <= 0 || mt <= 0 || po <= 0 || mo <= 0)
		return -1;
	*pass_rate = po / pt;
	*metric_rate = mo / mt;
	return 0;
}

int pb_result_profile_rate(const struct pb_result *r, double *prof_rate, double *metric_rate)
{
	const struct pb_profile *p = r->profile;
	double mo = 0, mt = 0;

	for (int i = 0; i < r->nr_reps; i++)
		if (r->reps[i].in_summary) {
			mo += r->reps[i].ops;
			mt += r->reps[i].elapsed_s;
		}
	if (!p || !p->done || !p->ops || p->window_s <= 0 || mo <= 0 || mt <= 0)
		return -1;
	*prof_rate = p->ops / p->window_s;
	*metric_rate = mo / mt;
	return 0;
}

void pb_result_figures(const struct pb_result *r, int g, int rep, double nominal_mhz,
		       struct pb_figures *f)
{
	struct pb_count acc[PB_MAX_EVENTS];
	double ops;

	f->nr = 0;
	if (pb_result_counts(r, g, rep, acc, &ops))
		pb_derive(&r->evl, acc, ops, nominal_mhz, f);
}

static double count_of(const struct pb_evlist *l, const struct pb_count *c,
		       const char *name)
{
	for (int e = 0; e < l->nr; e++)
		if (!strcmp(l->ev[e].name, name) && c[e].status == PB_CNT_OK)
			return pb_count_scaled(&c[e]);
	return 0;
}

/* Time-shared counters per group, and the counters' clock against the probe. */
static void counter_checks(const struct pb_nominal *nom, struct pb_result *r)
{
	struct pb_count acc[PB_MAX_EVENTS];
	struct pb_clock_fig fig = { .cpu = -1, .nominal_mhz = nom ? nom->mhz : 0 };
	double ops, probe = 0;
	int np = 0;

	for (int k = 0; k < r->nr_groups; k++)
		if (pb_result_counts(r, k, -1, acc, &ops))
			pb_counts_check(&r->evl, acc, r->group_names[k], &r->anomalies);
	if (!pb_result_counts(r, -1, -1, acc, &ops))
		return;
	fig.cycles = count_of(&r->evl, acc, "cycles");
	fig.ref_cycles = count_of(&r->evl, acc, "ref-cycles");
	fig.task_ns = count_of(&r->evl, acc, "task-clock");
	for (int i = 0; i < r->nr_clocks; i++)
		if (r->clocks[i].after.mhz > 0 && !r->clocks[i].after.disturbed) {
			probe += r->clocks[i].after.mhz;
			np++;
		}
	fig.probe_mhz = np ? probe / np : 0;
	if (fig.cycles > 0)
		pb_check_clock(&fig, &r->anomalies, NULL);
}

/* Datagrams the workload counted as lost (its .lost_counter), over the metric's windows. */
static void lost_check(struct pb_result *r)
{
	uint64_t lost, ops;

	if (pb_result_loss(r, -1, &lost, &ops) && lost)
		pb_anomaly_add(&r->anomalies, PB_AN_LOST, PB_SEV_DEFAULT,
			"the metric covers completed round trips only, without the waits for lost replies",
			"%llu datagrams lost against %llu round trips",
			(unsigned long long)lost, (unsigned long long)ops);
}

/*
 * The metric's repeats with more than OUTLIER_SHARE of their slices
 * outliers (empty, or far off the median rate: stats/robust.h).
 */
#define OUTLIER_SHARE	0.20

static void outlier_check(struct pb_result *r)
{
	int n = 0, worst = -1;

	for (int i = 0; i < r->nr_reps; i++) {
		const struct pb_rep *p = &r->reps[i];

		if (!p->in_summary || !p->nslices || p->outliers <= OUTLIER_SHARE * p->nslices)
			continue;
		n++;
		if (worst < 0 || (double)p->outliers / p->nslices >
		    (double)r->reps[worst].outliers / r->reps[worst].nslices)
			worst = i;
	}
	if (n)
		pb_anomaly_add(&r->anomalies, PB_AN_OUTLIER_SLICES, PB_SEV_DEFAULT,
			"a stalled vCPU or a burst of preemption: look for other tasks or host steal "
			"time on these CPUs; the median and trimmed estimators leave most of it out",
			"%d repeat%s with over %.0f %% outlier slices (no op, or beyond %g MADs of "
			"the median rate); repeat %d: %d of %d", n, n > 1 ? "s" : "",
			100 * OUTLIER_SHARE, PB_OUTLIER_MADS, worst + 1, r->reps[worst].outliers,
			r->reps[worst].nslices);
}

/* The metric's repeats against what their slices predict (checks/envcheck.h). */
static void repeats_check(struct pb_result *r)
{
	struct pb_repeat_noise *v = calloc(r->nr_reps, sizeof(*v));
	int k = 0;

	if (!v)
		return;
	for (int i = 0; i < r->nr_reps; i++) {
		const struct pb_rep *p = &r->reps[i];

		if (!p->in_summary || isnan(p->value))
			continue;
		v[k++] = (struct pb_repeat_noise){ .value = p->value, .rse = p->slice_rse,
						   .df = p->slice_df };
	}
	pb_check_repeats(v, k, &r->anomalies);
	free(v);
}

void pb_job_checks(const struct pb_job_seen *s, const struct pb_nominal *nom,
		   struct pb_result *r)
{
	struct pb_anomalies *a = &r->anomalies;

	for (int i = 0; i < r->nr_clocks; i++)
		pb_judge_clock(&r->clocks[i], nom, a);
	r->other_frac = -1;
	if (s->cs_before && s->cs_after && r->nr_reps)
		pb_check_job_cpus(s->cs_before, s->cs_after, s->nr_cpus, s->cs_s, s->others, a,
				  &r->other_frac);
	for (int i = 0; i < r->nr_tasks; i++) {
		const struct pb_task *t = &r->tasks[i];
		int seen[2], n = 0;

		for (int k = 0; k < 2; k++)
			if (t->seen[k] >= 0)
				seen[n++] = t->seen[k];
		pb_check_migration(s->roles[t->role], t->instance, t->planned, seen, n, a);
	}
	lost_check(r);
	outlier_check(r);
	for (int i = 0; i < r->nr_reps; i++)
		if (!r->reps[i].ops)
			pb_anomaly_add(a, PB_AN_STALL, PB_SEV_DEFAULT,
				"look for a CPU hog or real-time task on these CPUs, or host steal time",
				"window %d: no operation completed in %.3f s", i + 1,
				r->reps[i].elapsed_s);
	if (r->status == PB_OK && r->summary.n > 1)
		repeats_check(r);
	counter_checks(nom, r);
}
