// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - a run's results as text: one table per job (a row per
 * placement), per-op counters, latency percentiles, loss, the anomaly
 * legend, and the scaling tables of sweeps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "lib/util.h"
#include "report/result.h"
#include "stats/levels.h"

static void print_header(const struct pb_result *r, FILE *f)
{
	const struct pb_job *j = r->job;
	const struct pb_bench *b = j->bench;
	char keys[256] = "", note[64];
	size_t n = 0;

	for (int k = 0; b->keys[k].name; k++) {
		const char *v = pb_job_get(j, b->keys[k].name);
		bool noted = v && b->key_note && j->opts &&
			     b->key_note(j->opts, b->keys[k].name, note, sizeof(note));

		if (v && n < sizeof(keys))
			n += snprintf(keys + n, sizeof(keys) - n, "%s%s=%s%s%s%s",
				      n ? " " : "", b->keys[k].name, v, noted ? " (" : "",
				      noted ? note : "", noted ? ")" : "");
	}
	fprintf(f, "\n%s: %s %s (%s, %s is better)\n", j->name, b->name,
		r->metric.name, r->metric.unit, r->metric.lower_better ? "lower" : "higher");
	if (j->loops)
		fprintf(f, "  %s%s%d x %ld ops, %s\n", keys, *keys ? "; " : "", j->repeats,
			j->loops, j->threads ? "threads" : "processes");
	else
		fprintf(f, "  %s%s%d x %g s, %s\n", keys, *keys ? "; " : "", j->repeats,
			j->duration, j->threads ? "threads" : "processes");
}

static void cpus_text(const struct pb_result *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < r->nr_tasks && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%d", i ? "," : "", r->tasks[i].planned);
	if (!r->nr_tasks)
		snprintf(buf, len, "-");
}

static void print_row(const struct pb_result *r, int width, int reps, FILE *f)
{
	char cpus[64], marks[16] = "", b1[PB_NUM_LEN], b2[PB_NUM_LEN];
	struct pb_numfmt nf;
	int nm = 0;

	cpus_text(r, cpus, sizeof(cpus));
	fprintf(f, "%-13s %-*s", r->placement, width, cpus);
	if (r->status == PB_SKIPPED || (r->status != PB_OK && !r->nr_reps)) {
		if (!strcmp(r->reason, pb_status_name(r->status)))
			fprintf(f, " %s\n", r->reason);
		else
			fprintf(f, " %s: %s\n", pb_status_name(r->status), r->reason);
		return;
	}
	/* the tests and the mean: the digits the stddev supports */
	pb_numfmt_pick(&nf, r->summary.mean, r->summary.n > 1 ? r->summary.stddev : NAN);
	for (int i = 0, shown = 0; shown < reps; i++) {
		if (i < r->nr_reps && !r->reps[i].in_summary)
			continue;
		if (i < r->nr_reps && r->reps[i].stall)
			fprintf(f, " %9s", "stall");
		else if (i < r->nr_reps)
			fprintf(f, " %9s", pb_numfmt_str(&nf, r->reps[i].value, NULL, b1,
							  sizeof(b1)));
		else
			fprintf(f, " %9s", "-");
		shown++;
	}
	for (int i = 0; i < r->anomalies.nr && nm < 8; i++) {
		const char *m = pb_anomaly_mark(r->anomalies.v[i].kind);

		if (!strstr(marks, m) && r->anomalies.v[i].sev != PB_SEV_INFO)
			nm += snprintf(marks + nm, sizeof(marks) - nm, "%s", m);
	}
	pb_numfmt_str(&nf, r->summary.mean, NULL, b1, sizeof(b1));
	pb_num_spread(r->summary.n > 1 ? r->summary.stddev : NAN, NULL, b2, sizeof(b2));
	if (r->status == PB_OK)
		fprintf(f, " %10s %9s %s\n", b1, b2, marks);
	else if (r->status == PB_INTERRUPTED && r->summary.n)
		fprintf(f, " %10s %9s %s%sinterrupted (%d finished)\n", b1, b2, marks,
			*marks ? " " : "", r->summary.n);
	else
		fprintf(f, "  %s: %s\n", pb_status_name(r->status), r->reason);
}

static const struct pb_figure *figure(const struct pb_figures *f, const char *name)
{
	for (int i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

#define TEXT_WIDTH	100	/* the legend's lines, wrapped at spaces */

void pb_text_wrapped(const char *s, FILE *f)
{
	int room = TEXT_WIDTH;
	const char *brk;

	while ((brk = pb_wrap_at(s, room))) {
		fprintf(f, "%.*s\n    ", (int)(brk - s), s);
		s = brk + strspn(brk, " ");
		room = TEXT_WIDTH - 4;
	}
	fprintf(f, "%s\n", s);
}

/*
 * Where the per-op figures come from: the counter passes, each with how
 * much slower it ran than the metric's own repeats (a per-task counter
 * costs every context switch), so task-clock/op can be read against it.
 */
static void print_pass_cost(const struct pb_result *r, FILE *f)
{
	char names[512], b1[PB_NUM_LEN + 8], b2[PB_NUM_LEN + 8], line[768];

	for (int p = 0; p < r->evl.nr_passes; p++) {
		double pr, mr;

		pb_evlist_pass_names(&r->evl, p, names, sizeof(names));
		if (pb_result_pass_rate(r, p, &pr, &mr))
			snprintf(line, sizeof(line), "  %-13s counter pass %d of %d (%s): the "
				 "metric's own repeats", r->placement, p + 1, r->evl.nr_passes,
				 names);
		else
			snprintf(line, sizeof(line), "  %-13s counter pass %d of %d (%s): %s, "
				 "%.1f %% %s than the metric's repeats (%s)", r->placement, p + 1,
				 r->evl.nr_passes, names, pb_num_sig(pr, 3, "ops/s", b1, sizeof(b1)),
				 100 * fabs(1 - pr / mr), pr <= mr ? "slower" : "faster",
				 pb_num_sig(mr, 3, "ops/s", b2, sizeof(b2)));
		pb_text_wrapped(line, f);
	}
}

/*
 * One form for a per-op figure in every placement of the job: the unit
 * from its largest total (task-clock/op in µs from 10000 ns on) and four
 * significant digits of that total for all its numbers, so that a column
 * never holds "6402 ns" above "52.75 µs".  Returns the unit's divisor.
 */
static double figure_form(const struct pb_run *run, int from, int to,
			  const struct pb_figure *fig, const char **unit, struct pb_numfmt *nf)
{
	struct pb_count acc[PB_MAX_EVENTS];
	struct pb_figures tot;
	double big = 0, div, ops;

	for (int i = from; i < to; i++) {
		const struct pb_result *r = &run->results[i];
		const struct pb_figure *x;

		if (r->status == PB_SKIPPED || !pb_result_counts(r, -1, -1, acc, &ops))
			continue;
		pb_result_figures(r, -1, -1, run->nominal.mhz, &tot);
		if ((x = figure(&tot, fig->name)))
			big = fmax(big, fabs(x->value));
	}
	*unit = fig->unit;
	div = pb_num_time_scale(big, unit);
	pb_numfmt_sig(nf, big / div, 4);
	return div;
}

/*
 * Per-op counter figures under the table: a row per figure, the total
 * and then each role instance (or CPU) in columns, the unit at the end.
 */
static void print_per_op(const struct pb_run *run, int from, int to, const struct pb_result *r,
			 FILE *f)
{
	struct pb_count acc[PB_MAX_EVENTS];
	struct pb_figures tot, *g;
	int ng = r->nr_groups > 8 ? 0 : r->nr_groups;
	char b[PB_NUM_LEN];
	double ops;

	if (r->status == PB_SKIPPED || !pb_result_counts(r, -1, -1, acc, &ops))
		return;
	pb_result_figures(r, -1, -1, run->nominal.mhz, &tot);
	if (!tot.nr)
		return;
	g = calloc(ng ? ng : 1, sizeof(*g));
	if (!g)
		return;
	print_pass_cost(r, f);
	fprintf(f, "  %-13s %-22s %12s", r->placement, "per op", "total");
	for (int k = 0; k < ng; k++) {
		pb_result_figures(r, k, -1, run->nominal.mhz, &g[k]);
		fprintf(f, " %12s", r->group_names[k]);
	}
	fputc('\n', f);
	for (int i = 0; i < tot.nr; i++) {
		struct pb_numfmt nf;
		const char *unit;
		double div = figure_form(run, from, to, &tot.v[i], &unit, &nf);

		fprintf(f, "  %-13s %-22s %12s", "", tot.v[i].name,
			pb_numfmt_str(&nf, tot.v[i].value / div, NULL, b, sizeof(b)));
		for (int k = 0; k < ng; k++) {
			const struct pb_figure *x = figure(&g[k], tot.v[i].name);

			fprintf(f, " %12s", x ? pb_numfmt_str(&nf, x->value / div, NULL, b,
							     sizeof(b)) : "-");
		}
		fprintf(f, "%s%s\n", *unit ? " " : "", unit);
	}
	free(g);
}

/*
 * A latency in µs from ns, to three significant digits and never in
 * exponent form: the histogram's buckets are a few per cent wide, so
 * "3547.14" claimed digits it does not have (and ran lines past 100).
 */
static const char *lat_us(double ns, char *buf)
{
	double us = ns / 1e3;
	int dec = us > 0 ? 2 - (int)floor(log10(us)) : 2;

	snprintf(buf, 32, "%.*f", dec > 0 ? dec : 0, us);
	return buf;
}

/* Latency workloads: percentiles per placement over the metric's windows. */
static void print_latency(const struct pb_result *r, FILE *f)
{
	struct pb_hist *all;
	char num[32];

	if (!r->job->bench->latency || r->status == PB_SKIPPED || !r->nr_reps)
		return;
	all = malloc(sizeof(*all));
	if (!all)
		return;
	pb_hist_init(all);
	for (int i = 0; i < r->nr_reps; i++)
		if (r->reps[i].in_summary && r->reps[i].lat)
			pb_hist_merge(all, r->reps[i].lat);
	if (all->count) {
		fprintf(f, "  %-13s latency µs:", r->placement);
		for (int i = 0; i < r->job->nr_pct; i++)
			fprintf(f, " p%g %s ", r->job->pct[i],
				lat_us(pb_hist_quantile(all, r->job->pct[i] / 100), num));
		fprintf(f, " max %s  (%llu ops)\n", lat_us(all->max, num),
			(unsigned long long)all->count);
	}
	free(all);
}

/* Workloads that count lost datagrams: the loss, when there was some. */
static void print_loss(const struct pb_result *r, FILE *f)
{
	uint64_t lost, ops;
	double wait = 0;

	if (r->status == PB_SKIPPED || !pb_result_loss(r, -1, &lost, &ops) || !lost)
		return;
	for (int i = 0; i < r->nr_reps; i++)
		if (r->reps[i].in_summary)
			wait += r->reps[i].wait_s;
	fprintf(f, "  %-13s loss: %llu of %llu round trips lost (%.3g %%); %.3f s waiting for "
		"them excluded from %s\n", r->placement, (unsigned long long)lost,
		(unsigned long long)(lost + ops), 100 * pb_loss_rate(lost, ops), wait,
		r->metric.name);
}

static void print_legend(const struct pb_run *run, int from, int to, FILE *f)
{
	char line[sizeof(((struct pb_anomaly *)0)->message) +
		  sizeof(((struct pb_anomaly *)0)->advice) + 128];

	for (int i = from; i < to; i++) {
		const struct pb_result *r = &run->results[i];

		for (int k = 0; k < r->anomalies.nr; k++) {
			const struct pb_anomaly *a = &r->anomalies.v[k];

			if (a->sev == PB_SEV_INFO)
				continue;
			snprintf(line, sizeof(line), "  %s %s [%s] %s: %s%s%s",
				 pb_anomaly_mark(a->kind), r->placement, pb_sev_name(a->sev),
				 a->kind, a->message, *a->advice ? " -- " : "", a->advice);
			pb_text_wrapped(line, f);
		}
	}
}

static void print_job(const struct pb_run *run, int from, int to, FILE *f)
{
	int reps = 0, width = 4;
	char cpus[64];

	for (int i = from; i < to; i++) {
		const struct pb_result *r = &run->results[i];

		int n = 0;

		for (int k = 0; k < r->nr_reps; k++)
			n += r->reps[k].in_summary;
		if (n > reps)
			reps = n;
		cpus_text(r, cpus, sizeof(cpus));
		if ((int)strlen(cpus) > width)
			width = strlen(cpus);
	}
	print_header(&run->results[from], f);
	fprintf(f, "%-13s %-*s", "Placement", width, "CPUs");
	for (int i = 0; i < reps; i++) {
		char h[24];

		snprintf(h, sizeof(h), "Test %d", i + 1);
		fprintf(f, " %9s", h);
	}
	fprintf(f, " %10s %9s\n", "Average", "Stddev");
	for (int i = from; i < to; i++)
		print_row(&run->results[i], width, reps, f);
	for (int i = from; i < to; i++) {
		print_latency(&run->results[i], f);
		print_loss(&run->results[i], f);
	}
	print_legend(run, from, to, f);
	for (int i = from; i < to; i++)
		print_per_op(run, from, to, &run->results[i], f);
}

/* "scale/threads=4" -> key "threads", prefix length 5; 0 when not a sweep job. */
static int sweep_split(const char *name, char *key, size_t len)
{
	const char *slash = strrchr(name, '/'), *eq;

	if (!slash || !(eq = strchr(slash, '=')))
		return 0;
	snprintf(key, len, "%.*s", (int)(eq - slash - 1), slash + 1);
	return slash - name;
}

static void print_sweep(const struct pb_run *run, int from, int to, const char *key,
			FILE *f)
{
	const struct pb_result *first = &run->results[from];
	char b1[PB_NUM_LEN], b2[PB_NUM_LEN], b3[PB_NUM_LEN];
	double base = 0, base_n = 0;
	struct pb_numfmt nf;

	fprintf(f, "\n%.*s: %s (%s) by %s, efficiency against linear: ops(N) / (N x ops(1))\n",
		sweep_split(first->job->name, (char[64]){ 0 }, 64), first->job->name,
		first->metric.name, first->metric.unit, key);
	fprintf(f, "%-13s %8s %14s %14s %14s %11s\n", "Placement", key, first->metric.unit,
		"min/instance", "max/instance", "efficiency");
	for (int i = from; i < to; i++) {
		const struct pb_result *r = &run->results[i];
		const char *v = pb_job_get(r->job, key);
		double n = v ? atof(v) : 0, mn, mx;

		if (r->status != PB_OK || n <= 0) {
			fprintf(f, "%-13s %8s %s: %s\n", r->placement, v ? v : "?",
				pb_status_name(r->status), r->reason);
			continue;
		}
		if (!base || strcmp(r->placement, run->results[i - 1].placement)) {
			base = r->summary.mean;	/* the first (smallest) count of this placement */
			base_n = n;
		}
		if (!pb_instance_rates(r, &mn, &mx))
			mn = mx = NAN;
		pb_numfmt_pick(&nf, r->summary.mean, r->summary.n > 1 ? r->summary.stddev : NAN);
		fprintf(f, "%-13s %8s %14s %14s %14s %10.1f%%\n", r->placement, v,
			pb_numfmt_str(&nf, r->summary.mean, NULL, b1, sizeof(b1)),
			pb_numfmt_str(&nf, mn, NULL, b2, sizeof(b2)),
			pb_numfmt_str(&nf, mx, NULL, b3, sizeof(b3)),
			100 * r->summary.mean / (n / base_n * base));
	}
}

/* After the last job of a sweep (same section, a swept key), its scaling table. */
void pb_run_print_sweeps(const struct pb_run *run, FILE *f)
{
	char key[64], key2[64];
	int i = 0;

	while (i < run->nr) {
		const char *name = run->results[i].job->name;
		int plen = sweep_split(name, key, sizeof(key)), j = i + 1;

		while (plen && j < run->nr) {
			const char *n2 = run->results[j].job->name;

			if (sweep_split(n2, key2, sizeof(key2)) != plen ||
			    strncmp(name, n2, plen) || strcmp(key, key2))
				break;
			j++;
		}
		if (plen && run->results[j - 1].job != run->results[i].job) {
			/* order by placement, then by the swept value (job order) */
			for (int p = i; p < j; p++) {
				int seen = 0;

				for (int q = i; q < p; q++)
					seen |= !strcmp(run->results[q].placement,
							run->results[p].placement);
				if (seen)
					continue;
				struct pb_run view = *run;
				struct pb_result *sel = calloc(j - i, sizeof(*sel));
				int n = 0;

				if (!sel)
					return;
				for (int q = i; q < j; q++)
					if (!strcmp(run->results[q].placement, run->results[p].placement))
						sel[n++] = run->results[q];
				view.results = sel;
				view.nr = n;
				print_sweep(&view, 0, n, key, f);
				free(sel);
			}
		}
		i = j;
	}
}

void pb_run_print_text(const struct pb_run *run, FILE *f)
{
	int from = 0;

	for (int i = 1; i <= run->nr; i++) {
		if (i < run->nr && run->results[i].job == run->results[from].job)
			continue;
		print_job(run, from, i, f);
		from = i;
	}
}

/*
 * rounds > 1: per job and placement, each round's mean is one value (an
 * execution, the unit of independent evidence); their mean, CV and 95 %
 * interval.
 */
static int placement_index(const struct pb_result *r)
{
	for (int p = 0; p < r->job->nr_placements; p++)
		if (!strcmp(r->job->placements[p], r->placement))
			return p;
	return 0;
}

/* Job file order: the jobs are one array; placements in the job's order. */
static int cell_order(const void *a, const void *b)
{
	const struct pb_result *x = *(const struct pb_result *const *)a;
	const struct pb_result *y = *(const struct pb_result *const *)b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return placement_index(x) - placement_index(y);
}

/*
 * The smallest change, in percent, that another run like this one (as many
 * rounds, the same spread) could show against it: 95 % two-sided, 80 %
 * power, on the rounds' log means (pb_mde, df 2(n - 1)).  NAN under two.
 */
static double rounds_mde(const double *v, int n)
{
	double m = 0, ss = 0;

	if (n < 2)
		return NAN;
	for (int i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		m += log(v[i]) / n;
	}
	for (int i = 0; i < n; i++)
		ss += (log(v[i]) - m) * (log(v[i]) - m);
	return 100 * pb_mde(sqrt(ss / (n - 1)) * sqrt(2.0 / n), 2.0 * (n - 1));
}

void pb_run_print_rounds(const struct pb_run *run, FILE *f)
{
	double *v = malloc((size_t)(run->rounds > 0 ? run->rounds : 1) * sizeof(*v));
	bool *done = calloc(run->nr ? run->nr : 1, sizeof(*done));
	const struct pb_result **first = calloc(run->nr ? run->nr : 1, sizeof(*first));
	int nf = 0;

	if (!v || !done || !first)
		goto out;
	fprintf(f, "\nbetween rounds: each round's mean is one value; their mean, CV and 95 %% "
		"interval; Resolves:\nthe smallest change another run like this could show "
		"(95 %%, 80 %% power; one invocation:\ninvocations and boots vary more, "
		"pinbench calibrate measures them)\n%-24s %-13s %6s %12s %8s %9s  %s\n", "Job",
		"Placement", "Rounds", "Mean", "CV", "Resolves", "95 % CI");
	for (int i = 0; i < run->nr; i++) {
		for (int k = 0; k < nf && !done[i]; k++)
			done[i] = first[k]->job == run->results[i].job &&
				  !strcmp(first[k]->placement, run->results[i].placement);
		if (!done[i])
			first[nf++] = &run->results[i];
	}
	qsort(first, (size_t)nf, sizeof(*first), cell_order);
	for (int i = 0; i < nf; i++) {
		const struct pb_result *r = first[i];
		char b1[PB_NUM_LEN], b2[PB_NUM_LEN], b3[PB_NUM_LEN];
		struct pb_numfmt nf;
		struct pb_summary s;
		int n = 0, of = 0;
		double mde;

		for (int k = 0; k < run->nr; k++) {
			const struct pb_result *q = &run->results[k];

			if (q->job != r->job || strcmp(q->placement, r->placement))
				continue;
			of++;
			if (q->summary.n && n < run->rounds &&
			    (q->status == PB_OK || q->status == PB_INTERRUPTED))
				v[n++] = q->summary.mean;
		}
		fprintf(f, "%-24s %-13s %3d/%-2d", r->job->name, r->placement, n, of);
		if (!n || pb_summarize(v, n, r->metric.rate, &s)) {
			fprintf(f, " %12s\n", "-");
			continue;
		}
		pb_numfmt_pick(&nf, s.mean, n > 1 ? s.stddev : NAN);
		fprintf(f, " %12s %7.2f%%", pb_numfmt_str(&nf, s.mean, NULL, b1, sizeof(b1)),
			100 * s.cv);
		mde = rounds_mde(v, n);
		if (isnan(mde))
			snprintf(b1, sizeof(b1), "-");
		else
			snprintf(b1, sizeof(b1), "±%.1f%%", mde);
		fprintf(f, " %*s", isnan(mde) ? 9 : 10, b1);	/* ± is two bytes */
		if (n > 1)
			fprintf(f, "  [%s, %s] %s\n", pb_numfmt_str(&nf, s.ci_lo, NULL, b2, sizeof(b2)),
				pb_numfmt_str(&nf, s.ci_hi, NULL, b3, sizeof(b3)), r->metric.unit);
		else
			fprintf(f, "  - (one round)\n");
	}
out:
	free(v);
	free(done);
	free(first);
}

/* s in a column w characters wide (UTF-8: µ and ± are one), left or right. */
static void put_col(FILE *f, const char *s, int w, bool left)
{
	int n = 0;

	for (const char *p = s; *p; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;
	if (left)
		fprintf(f, "%s%*s", s, n < w ? w - n : 0, "");
	else
		fprintf(f, "%*s%s", n < w ? w - n : 0, "", s);
}

/* One row of the summary: a job at a placement, over its rounds. */
struct sum_row {
	const struct pb_result	*r;		/* its first result */
	char			value[PB_NUM_LEN], ci[2 * PB_NUM_LEN + 8], over[40];
	char			res[16], marks[24], what[PB_ERR_MAX + 32];
	bool			error;		/* an error-severity anomaly on it */
};

static bool same_cell(const struct pb_result *a, const struct pb_result *b)
{
	return a->job == b->job && !strcmp(a->placement, b->placement);
}

/* q's marks (warn and error) added to w's, and whether one is an error. */
static void add_marks(const struct pb_result *q, struct sum_row *w)
{
	size_t nm = strlen(w->marks);

	for (int k = 0; k < q->anomalies.nr; k++) {
		const struct pb_anomaly *a = &q->anomalies.v[k];
		const char *m = pb_anomaly_mark(a->kind);

		if (a->sev == PB_SEV_INFO)
			continue;
		w->error |= a->sev == PB_SEV_ERROR;
		if (!strstr(w->marks, m) && nm + strlen(m) < 8)
			nm += snprintf(w->marks + nm, sizeof(w->marks) - nm, "%s", m);
	}
}

/* The marks of a cell's results; " error" after them when one is an error. */
static void cell_marks(const struct pb_run *run, const struct pb_result *r, struct sum_row *w)
{
	size_t nm;

	for (int i = 0; i < run->nr; i++)
		if (same_cell(&run->results[i], r))
			add_marks(&run->results[i], w);
	nm = strlen(w->marks);
	if (w->error)
		snprintf(w->marks + nm, sizeof(w->marks) - nm, "%serror", nm ? " " : "");
}

/*
 * A cell's figure: with more than one round the mean of its rounds' means
 * and their interval (and what another run like it resolves), else the
 * mean of its repeats and theirs.
 */
static void cell_figure(const struct pb_run *run, const struct pb_result *r, double *v,
			struct sum_row *w)
{
	struct pb_summary s;
	struct pb_numfmt nf;
	char b1[PB_NUM_LEN], b2[PB_NUM_LEN];
	const struct pb_result *ok = NULL;
	int n = 0, of = 0;
	double mde = NAN;

	for (int i = 0; i < run->nr; i++) {
		const struct pb_result *q = &run->results[i];

		if (!same_cell(q, r))
			continue;
		of++;
		if (q->summary.n && (q->status == PB_OK || q->status == PB_INTERRUPTED)) {
			v[n++] = q->summary.mean;
			ok = q;
		}
	}
	if (!ok) {
		snprintf(w->what, sizeof(w->what), "%s: %s", pb_status_name(r->status), r->reason);
		if (!strcmp(r->reason, pb_status_name(r->status)))
			snprintf(w->what, sizeof(w->what), "%s", r->reason);
		return;
	}
	if (of > 1) {
		pb_summarize(v, n, r->metric.rate, &s);
		snprintf(w->over, sizeof(w->over), "%d/%d rounds", n, of);
		mde = rounds_mde(v, n);
	} else {
		s = ok->summary;
		snprintf(w->over, sizeof(w->over), "%d repeat%s", s.n, s.n == 1 ? "" : "s");
	}
	pb_numfmt_pick(&nf, s.mean, s.n > 1 ? s.stddev : NAN);
	pb_numfmt_str(&nf, s.mean, NULL, w->value, sizeof(w->value));
	snprintf(w->ci, sizeof(w->ci), "-");
	if (s.n > 1)
		snprintf(w->ci, sizeof(w->ci), "[%s, %s]",
			 pb_numfmt_str(&nf, s.ci_lo, NULL, b1, sizeof(b1)),
			 pb_numfmt_str(&nf, s.ci_hi, NULL, b2, sizeof(b2)));
	snprintf(w->res, sizeof(w->res), "-");
	if (!isnan(mde))
		snprintf(w->res, sizeof(w->res), "±%.1f%%", mde);
}

/* The cells of a run, a row each, in job-file order; their number. */
static int summary_rows(const struct pb_run *run, struct sum_row *rows, double *v)
{
	const struct pb_result **first = calloc(run->nr ? run->nr : 1, sizeof(*first));
	int n = 0;

	if (!first)
		return 0;
	for (int i = 0; i < run->nr; i++) {
		int k = 0;

		while (k < n && !same_cell(first[k], &run->results[i]))
			k++;
		if (k == n)
			first[n++] = &run->results[i];
	}
	qsort(first, (size_t)n, sizeof(*first), cell_order);
	for (int i = 0; i < n; i++) {
		rows[i] = (struct sum_row){ .r = first[i] };
		cell_figure(run, first[i], v, &rows[i]);
		cell_marks(run, first[i], &rows[i]);
	}
	free(first);
	return n;
}

/* The cell's first error-severity anomaly, said on a line of its own. */
static void say_untrusted(const struct pb_run *run, const struct sum_row *w, FILE *f)
{
	char line[sizeof(((struct pb_anomaly *)0)->message) + 256];

	for (int i = 0; i < run->nr; i++) {
		const struct pb_result *q = &run->results[i];

		for (int k = 0; same_cell(q, w->r) && k < q->anomalies.nr; k++) {
			const struct pb_anomaly *a = &q->anomalies.v[k];

			if (a->sev != PB_SEV_ERROR)
				continue;
			snprintf(line, sizeof(line), "  %s %s: not to be trusted: %s (error): %s",
				 q->job->name, q->placement, a->kind, a->message);
			pb_text_wrapped(line, f);
			return;
		}
	}
}

/* "marks: N noisy-neighbor, T throttling" of the marks in the rows, wrapped. */
static void summary_legend(const struct pb_run *run, FILE *f)
{
	char line[1024] = "", seen[64] = "";
	size_t n = 0;

	for (int i = 0; i < run->nr; i++) {
		const struct pb_result *q = &run->results[i];

		for (int k = 0; k < q->anomalies.nr && n < sizeof(line); k++) {
			const struct pb_anomaly *a = &q->anomalies.v[k];
			char key[40];

			snprintf(key, sizeof(key), "|%s", a->kind);
			if (a->sev == PB_SEV_INFO || strstr(seen, key) ||
			    strlen(seen) + strlen(key) >= sizeof(seen))
				continue;
			strcat(seen, key);
			n += snprintf(line + n, sizeof(line) - n, "%s%s %s", n ? ", " : "marks: ",
				      pb_anomaly_mark(a->kind), a->kind);
		}
	}
	if (n && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, " (the detail: -v, or the result file)");
	if (n)
		pb_text_wrapped(line, f);
}

int pb_run_untrusted(const struct pb_run *run)
{
	int n = 0;

	for (int i = 0; i < run->nr; i++) {
		struct sum_row w = { .r = &run->results[i] };

		add_marks(&run->results[i], &w);
		n += w.error;
	}
	return n;
}

void pb_run_print_summary(const struct pb_run *run, FILE *f)
{
	struct sum_row *rows = calloc(run->nr ? run->nr : 1, sizeof(*rows));
	double *v = malloc((size_t)(run->nr ? run->nr : 1) * sizeof(*v));
	int n, wj = 3, wc = 7, wo = 4;

	if (!rows || !v)
		goto out;
	n = summary_rows(run, rows, v);
	for (int i = 0; i < n; i++) {
		if ((int)strlen(rows[i].r->job->name) > wj)
			wj = strlen(rows[i].r->job->name);
		if ((int)strlen(rows[i].ci) > wc)
			wc = strlen(rows[i].ci);
		if ((int)strlen(rows[i].over) > wo)
			wo = strlen(rows[i].over);
	}
	fprintf(f, "\nsummary: the mean of the repeats, or of the rounds' means with more than "
		"one round;\nits 95 %% interval; Resolves: the smallest change another run "
		"like it could show\n");
	fprintf(f, "%-*s %-13s %10s %-5s %-*s %-*s %9s  %s\n", wj, "Job", "Placement", "Value",
		"Unit", wc, "95 % CI", wo, "Over", "Resolves", "Marks");
	for (int i = 0; i < n; i++) {
		const struct sum_row *w = &rows[i];

		if (*w->what) {		/* skipped, failed: why, wrapped */
			char line[sizeof(w->what) + 160];

			snprintf(line, sizeof(line), "%-*s %-13s %s", wj, w->r->job->name,
				 w->r->placement, w->what);
			pb_text_wrapped(line, f);
			continue;
		}
		fprintf(f, "%-*s %-13s ", wj, w->r->job->name, w->r->placement);
		put_col(f, w->value, 10, false);
		fputc(' ', f);
		put_col(f, w->r->metric.unit, 5, true);
		fprintf(f, " %-*s %-*s ", wc, w->ci, wo, w->over);
		put_col(f, w->res, 9, false);
		fprintf(f, "%s%s\n", *w->marks ? "  " : "", w->marks);
	}
	for (int i = 0; i < n; i++)
		if (rows[i].error)
			say_untrusted(run, &rows[i], f);
	summary_legend(run, f);
out:
	free(rows);
	free(v);
}

/* A CSV field: as it is, or quoted with its quotes doubled when it needs it. */
static void csv_field(const char *s, FILE *f)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++)
		fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
	fputc('"', f);
}

/* A number in full (%.17g), or nothing when there is none. */
static void csv_num(double x, bool has, FILE *f)
{
	fputc(',', f);
	if (has && isfinite(x))
		fprintf(f, "%.17g", x);
}

void pb_run_print_csv(const struct pb_run *run, FILE *f)
{
	fputs("job,bench,placement,round,status,metric,unit,n,mean,stddev,ci95_lo,ci95_hi,"
	      "min,max,marks,error,reason\n", f);
	for (int i = 0; i < run->nr; i++) {
		const struct pb_result *r = &run->results[i];
		const struct pb_summary *s = &r->summary;
		struct sum_row w = { .r = r };
		bool has = s->n > 0;

		add_marks(r, &w);
		csv_field(r->job->name, f);
		fputc(',', f);
		csv_field(r->job->bench->name, f);
		fputc(',', f);
		csv_field(r->placement, f);
		fprintf(f, ",%d,%s,", r->round ? r->round : 1, pb_status_name(r->status));
		csv_field(r->metric.name, f);
		fputc(',', f);
		csv_field(r->metric.unit, f);
		fprintf(f, ",%d", s->n);
		csv_num(s->mean, has, f);
		csv_num(s->stddev, s->n > 1, f);
		csv_num(s->ci_lo, s->n > 1, f);
		csv_num(s->ci_hi, s->n > 1, f);
		csv_num(s->min, has, f);
		csv_num(s->max, has, f);
		fprintf(f, ",%s,%d,", w.marks, w.error);
		csv_field(r->status == PB_OK ? "" : r->reason, f);
		fputc('\n', f);
	}
}
