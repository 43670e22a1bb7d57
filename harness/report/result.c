// SPDX-License-Identifier: GPL-2.0-only
/*
 * result.c - a run's results as JSON (pinbench-result/1).  See result.h;
 * the schema is documented in doc/pinbench-results.5.scd.  The text
 * tables are table.c; writing the file is lib/file.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/util.h"
#include "report/result.h"
#include "sys/fold.h"
#include "sys/sysfs.h"
#include "stats/stopping.h"

static const char *const status_names[] = {
	[PB_OK] = "ok", [PB_SKIPPED] = "skipped", [PB_FAILED] = "failed",
	[PB_INTERRUPTED] = "interrupted",
};

const char *pb_status_name(enum pb_status s)
{
	return status_names[s];
}

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jmhz(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

static json_t *jstr_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static void cpu_model(char *buf, size_t len)
{
	if (pb_cpuinfo_field("model name", buf, len))
		snprintf(buf, len, "unknown");
}

/* MemTotal of /proc/meminfo, kB (a report's machine line), or null. */
static json_t *memory_kb(void)
{
	char buf[256], num[32];
	const char *m;
	long kb;

	if (pb_sys_read(buf, sizeof(buf), "/proc/meminfo") < 0 || !(m = strstr(buf, "MemTotal:")))
		return json_null();
	m += strlen("MemTotal:");
	m += strspn(m, " \t");
	snprintf(num, sizeof(num), "%.*s", (int)strspn(m, "0123456789"), m);
	if (pb_parse_long(num, 1, LONG_MAX, &kb))
		return json_null();
	return json_integer(kb);
}

json_t *pb_host_json(const struct pb_topo *t)
{
	struct utsname u;
	char host[256] = "", model[256];

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	cpu_model(model, sizeof(model));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:n, s:o}",
			 "hostname", host, "kernel", u.release,
			 "kernel_version", u.version, "machine", u.machine,
			 "cpu_model", model, "nominal_mhz",
			 "topology", pb_topo_summary_json(t));
}

json_t *pb_job_params_json(const struct pb_job *j)
{
	json_t *o = json_object();

	for (int i = 0; i < j->nr_kv; i++)
		json_object_set_new(o, j->kv[i].key, json_string(j->kv[i].val));
	return o;
}

static json_t *cpus_json(const struct pb_result *r)
{
	const struct pb_bench *b = r->job->bench;
	json_t *a = json_array();

	for (int i = 0; i < r->nr_tasks; i++) {
		const struct pb_task *t = &r->tasks[i];
		json_t *seen = json_array();

		for (int k = 0; k < 2; k++)
			if (t->seen[k] >= 0 && (k == 0 || t->seen[1] != t->seen[0]))
				json_array_append_new(seen, json_integer(t->seen[k]));
		json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:o}",
			"role", b->roles[t->role], "instance", t->instance,
			"planned", t->planned, "seen", seen));
	}
	return a;
}

static json_t *counters_json(const struct pb_result *r, const struct pb_rep *rep)
{
	json_t *o = json_object();

	for (int k = 0; k < r->nr_groups; k++) {
		json_t *g = json_object();

		for (int e = 0; e < r->evl.nr; e++)
			json_object_set_new(g, r->evl.ev[e].name,
				pb_count_json(&r->evl.ev[e],
					      &rep->counts[(size_t)k * r->evl.nr + e]));
		json_object_set_new(o, r->group_names[k], g);
	}
	return o;
}

/* count, mean, min, "p50" ... (the job's percentiles=), max: µs */
static json_t *latency_json(const struct pb_job *j, const struct pb_hist *h)
{
	json_t *o;
	char name[32];

	if (!h || !h->count)
		return json_null();
	o = json_pack("{s:I, s:f, s:f}", "count", (json_int_t)h->count,
		      "mean", pb_hist_mean(h) / 1e3, "min", h->min / 1e3);
	for (int i = 0; i < j->nr_pct; i++) {
		snprintf(name, sizeof(name), "p%g", j->pct[i]);
		json_object_set_new(o, name, json_real(pb_hist_quantile(h, j->pct[i] / 100) / 1e3));
	}
	json_object_set_new(o, "max", json_real(h->max / 1e3));
	return o;
}

/* {"<group>": {figures}, ..., "total": {figures}} over window rep (-1: all counted) */
static json_t *derived_json(const struct pb_result *r, int rep, double nominal_mhz)
{
	struct pb_figures f;
	json_t *o = json_object();

	for (int k = -1; k < r->nr_groups; k++) {
		pb_result_figures(r, k, rep, nominal_mhz, &f);
		if (f.nr)
			json_object_set_new(o, k < 0 ? "total" : r->group_names[k],
					    pb_figures_json(&f));
	}
	return o;
}

/* "lost", "loss_rate" of the metric's windows (rep -1) or one window, into o. */
static void loss_json(const struct pb_result *r, int rep, json_t *o)
{
	uint64_t lost, ops;

	if (!pb_result_loss(r, rep, &lost, &ops))
		return;
	json_object_set_new(o, "lost", json_integer((json_int_t)lost));
	json_object_set_new(o, "loss_rate", jreal(pb_loss_rate(lost, ops)));
}

/* {"n", "outliers", "median", "trimmed"[, "p50"]}: the window's slices, as metric values. */
static json_t *slices_json(const struct pb_bench *b, const struct pb_rep *rep)
{
	json_t *o = json_pack("{s:i, s:i, s:o, s:o}", "n", rep->nslices,
			      "outliers", rep->outliers, "median", jreal(rep->slice_median),
			      "trimmed", jreal(rep->slice_trimmed));

	if (b->latency)
		json_object_set_new(o, "p50", jreal(rep->p50));
	return o;
}

static json_t *rep_json(const struct pb_result *r, int i, double nominal_mhz)
{
	const struct pb_bench *b = r->job->bench;
	const struct pb_rep *rep = &r->reps[i];
	double busy = rep->elapsed_s - rep->wait_s;
	json_t *o = json_pack("{s:o, s:I, s:f, s:f, s:f, s:b, s:o, s:b}",
			      "value", jreal(rep->value), "ops", (json_int_t)rep->ops,
			      "start_s", rep->start_s, "elapsed_s", rep->elapsed_s,
			      "ops_per_s", busy > 0 ? rep->ops / busy : 0.0,
			      "stall", rep->stall,
			      "pass", rep->pass >= 0 ? json_integer(rep->pass) : json_null(),
			      "in_summary", rep->in_summary);

	for (int k = 0; k < PB_MAX_AUX; k++)
		if (b->aux_names[k])
			json_object_set_new(o, b->aux_names[k],
					    json_integer((json_int_t)rep->aux[k]));
	if (pb_bench_lost_aux(b) >= 0) {
		loss_json(r, i, o);
		json_object_set_new(o, "lost_wait_s", json_real(rep->wait_s));
	}
	json_object_set_new(o, "mean_value", jreal(rep->mean_value));
	json_object_set_new(o, "estimator",
			    json_string(pb_estimator_names[r->job->estimator]));
	json_object_set_new(o, "slices", slices_json(b, rep));
	if (b->latency)
		json_object_set_new(o, "latency", latency_json(r->job, rep->lat));
	if (r->nr_tasks > 1 && rep->task_ops) {
		json_t *a = json_array();

		for (int i = 0; i < r->nr_tasks; i++)
			json_array_append_new(a, json_integer((json_int_t)rep->task_ops[i]));
		json_object_set_new(o, "task_ops", a);
	}
	if (rep->pass < 0)
		return o;
	json_object_set_new(o, "counters", counters_json(r, rep));
	json_object_set_new(o, "derived", derived_json(r, i, nominal_mhz));
	return o;
}

static json_t *summary_json(const struct pb_result *r)
{
	const struct pb_summary *s = &r->summary;
	json_t *o;

	if (!r->nr_reps || !s->n || (r->status != PB_OK && r->status != PB_INTERRUPTED))
		return json_null();
	/* an unbounded CI (few, noisy rates) is written as null */
	o = json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:[o, o], s:s}",
		      "n", s->n, "mean", s->mean, "stddev", s->stddev,
		      "min", s->min, "median", s->median, "max", s->max,
		      "cv", s->cv, "ci95", jreal(s->ci_lo), jreal(s->ci_hi),
		      "mean_kind", r->metric.rate ? "harmonic" : "arithmetic");
	if (r->job->bench->latency) {
		struct pb_hist *all = malloc(sizeof(*all));

		if (all) {
			pb_hist_init(all);
			for (int i = 0; i < r->nr_reps; i++)
				if (r->reps[i].in_summary && r->reps[i].lat)
					pb_hist_merge(all, r->reps[i].lat);
			json_object_set_new(o, "latency", latency_json(r->job, all));
			free(all);
		}
	}
	return o;
}

/* Per role instance ops/s over the metric's windows: min and max (fairness). */
int pb_instance_rates(const struct pb_result *r, double *min, double *max)
{
	int n = 0;

	*min = INFINITY;
	*max = 0;
	double *rates = calloc(r->nr_reps ? r->nr_reps : 1, sizeof(*rates));

	/* per window, then the harmonic mean: as the summary averages rates */
	for (int i = 0; rates && i < r->nr_tasks; i++) {
		int k = 0;

		for (int w = 0; w < r->nr_reps; w++)
			if (r->reps[w].in_summary && !r->reps[w].stall && r->reps[w].task_ops &&
			    r->reps[w].elapsed_s > 0)
				rates[k++] = r->reps[w].task_ops[i] / r->reps[w].elapsed_s;
		if (!k)
			continue;
		*min = fmin(*min, pb_harmonic_mean(rates, k));
		*max = fmax(*max, pb_harmonic_mean(rates, k));
		n++;
	}
	free(rates);
	return n;
}

/* Each counter pass: its events and what it cost against the metric's repeats. */
static json_t *passes_json(const struct pb_result *r)
{
	json_t *v = json_array();
	char names[512];

	for (int p = 0; r->evl.nr && p < r->evl.nr_passes; p++) {
		double pr, mr, secs = 0;
		bool known = !pb_result_pass_rate(r, p, &pr, &mr);
		int n = 0;

		for (int i = 0; i < r->nr_reps; i++)
			if (r->reps[i].pass == p) {
				secs += r->reps[i].elapsed_s;
				n++;
			}
		pb_evlist_pass_names(&r->evl, p, names, sizeof(names));
		json_array_append_new(v, json_pack("{s:i, s:s, s:b, s:i, s:f, s:o, s:o, s:o}",
			"pass", p, "events", names, "in_warmup", r->counts_first,
			"windows", n, "elapsed_s", secs,
			"ops_per_s", known ? json_real(pr) : json_null(),
			"metric_ops_per_s", known ? json_real(mr) : json_null(),
			"slower", known ? json_real(1 - pr / mr) : json_null()));
	}
	return v;
}

/* One role of the profile pass: its folded stacks and what they convert by. */
static json_t *prof_role_json(const struct pb_result *r, int i)
{
	const struct pb_prof_role *pr = &r->profile->role[i];
	double per = pb_fold_ns_per_op(1, pr->samples, pb_prof_net_clock(r->profile, pr),
				       r->profile->ops, NULL);

	return json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:o, s:{s:I, s:I, s:I}, s:i, s:s}",
		"role", r->job->bench->roles[i], "tasks", pr->tasks,
		"samples", (json_int_t)pr->samples, "lost", (json_int_t)pr->lost,
		"ops", (json_int_t)pr->ops, "task_clock_ns", (json_int_t)pr->task_clock_ns,
		"ns_per_op_per_sample", jreal(per),
		"unresolved", "kernel", (json_int_t)pr->un.kernel,
		"user", (json_int_t)pr->un.user, "frames", (json_int_t)pr->un.frames,
		"other_stacks", pr->rest_stacks, "folded", pr->folded);
}

/* The profile pass (profile=on): null when the job did not ask for one. */
static json_t *profile_json(const struct pb_result *r)
{
	const struct pb_profile *p = r->profile;
	json_t *roles = json_array();
	double pr, mr;
	bool known;

	if (!p)
		return json_null();
	known = !pb_result_profile_rate(r, &pr, &mr);
	for (int i = 0; p->done && i < p->nr_roles; i++)
		json_array_append_new(roles, prof_role_json(r, i));
	return json_pack("{s:b, s:o, s:b, s:b, s:I, s:f, s:f, s:f, s:I, s:o, s:o, s:o, s:o, "
		"s:o, s:o}",
		"sampled", p->done, "event", p->done ? json_string(p->ev.name) : json_null(),
		"software", !p->ev.hw, "kernel", p->ev.kernel, "period", (json_int_t)p->ev.period,
		"window_s", p->window_s, "wall_s", p->wall_s, "sample_cost_ns", p->sample_cost_ns,
		"ops", (json_int_t)p->ops,
		"ops_per_s", known ? json_real(pr) : json_null(),
		"metric_ops_per_s", known ? json_real(mr) : json_null(),
		"slower", known ? json_real(1 - pr / mr) : json_null(),
		"note", jstr_or_null(p->note),
		"attribution", p->done && !p->ev.hw ? json_string(PB_PROF_SW_NOTE) : json_null(),
		"roles", roles);
}

static json_t *pb_result_json(const struct pb_result *r, double nominal_mhz)
{
	const struct pb_job *j = r->job;
	json_t *reps = json_array();

	for (int i = 0; i < r->nr_reps; i++)
		json_array_append_new(reps, rep_json(r, i, nominal_mhz));
	json_t *clk = json_array(), *o;

	for (int i = 0; i < r->nr_clocks; i++)
		json_array_append_new(clk, pb_clock_obs_json(&r->clocks[i]));
	o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:{s:s, s:s, s:s}, s:o, s:o, s:o, s:o, s:f}",
		"name", j->name, "bench", j->bench->name, "placement", r->placement,
		"status", status_names[r->status], "reason", jstr_or_null(r->reason),
		"params", pb_job_params_json(j),
		"metric", "name", r->metric.name, "unit", r->metric.unit,
		"better", r->metric.lower_better ? "lower" : "higher",
		"cpus", cpus_json(r), "repeats", reps,
		"summary", summary_json(r),
		"anomalies", pb_anomalies_json(&r->anomalies),
		"wall_s", r->wall_s);
	json_object_set_new(o, "clock", clk);
	json_object_set_new(o, "round", json_integer(r->round > 0 ? r->round : 1));
	loss_json(r, -1, o);
	if (r->job->bench->shape == PB_SHAPE_WORKERS &&
	    (r->status == PB_OK || r->status == PB_INTERRUPTED)) {
		double mn, mx;

		if (pb_instance_rates(r, &mn, &mx))
			json_object_set_new(o, "per_instance", json_pack("{s:f, s:f}",
					    "min_ops_per_s", mn, "max_ops_per_s", mx));
	}
	json_object_set_new(o, "derived", derived_json(r, -1, nominal_mhz));
	json_object_set_new(o, "passes", passes_json(r));
	json_object_set_new(o, "events", pb_evlist_json(&r->evl));
	json_object_set_new(o, "other_busy_frac",
			    r->other_frac >= 0 ? json_real(r->other_frac) : json_null());
	if (r->profile)
		json_object_set_new(o, "profile", profile_json(r));
	return o;
}

/* --until: the rule, and per cell whether it was reached. */
static json_t *until_json(const struct pb_until *u, int rounds)
{
	json_t *cells = json_array();

	for (int i = 0; i < u->nr; i++) {
		const struct pb_until_cell *c = &u->cells[i];

		json_array_append_new(cells, json_pack("{s:s, s:s, s:i, s:o, s:b, s:o}",
			"job", c->job, "placement", c->pl, "runs", c->runs,
			"halfwidth_pct", isnan(c->halfwidth) ? json_null() :
					 json_real(c->halfwidth * 100),
			"reached", c->reached, "why", jstr_or_null(c->why)));
	}
	return json_pack("{s:f, s:f, s:i, s:f, s:i, s:i, s:s?, s:f, s:o}",
		"target_pct", u->target * 100, "budget_s", u->budget_s,
		"min_runs", PB_STOP_MIN_N, "interval_level", 1 - PB_STOP_ALPHA,
		"planned_rounds", u->planned, "added_rounds", rounds - u->planned,
		"end", u->end, "wall_s", u->wall_s, "cells", cells);
}

json_t *pb_run_json(const struct pb_run *run)
{
	json_t *jobs = json_array();
	json_t *host = pb_host_json(run->topo);

	for (int i = 0; i < run->nr; i++)
		json_array_append_new(jobs, pb_result_json(&run->results[i], run->nominal.mhz));
	json_t *o;

	if (run->environment)
		json_object_set(host, "environment", run->environment);
	json_object_set_new(host, "nominal_mhz", jmhz(run->nominal.mhz));
	json_object_set_new(host, "nominal", pb_nominal_json(&run->nominal));
	json_object_set_new(host, "memory_kb", memory_kb());
	o = json_pack("{s:s, s:{s:s, s:s}, s:o, s:s, s:s, s:o, s:s, s:o, s:o}",
		      "schema", PB_SCHEMA, "tool", "name", "pinbench",
		      "version", PB_VERSION, "host", host,
		      "started", run->started, "label", run->label,
		      "config", jstr_or_null(run->config),
		      "cmdline", run->cmdline, "jobs", jobs,
		      "anomalies", pb_anomalies_json(&run->anomalies));
	if (run->config_text)	/* the job file as the run read it, for a report */
		json_object_set_new(o, "config_text", json_string(run->config_text));
	json_object_set_new(o, "finished", jstr_or_null(run->finished));
	json_object_set_new(o, "jobs_planned", json_integer(run->planned));
	json_object_set_new(o, "rounds", json_integer(run->rounds > 0 ? run->rounds : 1));
	json_object_set_new(o, "boot_id", jstr_or_null(run->boot_id));
	json_object_set_new(o, "invocation", jstr_or_null(run->invocation));
	/* --until shuffles even one planned round */
	json_object_set_new(o, "seed", run->rounds > 1 || run->until.target > 0 ?
			    json_integer((json_int_t)run->seed) : json_null());
	if (run->until.target > 0)
		json_object_set_new(o, "until", until_json(&run->until, run->rounds));
	if (run->obs_cpu >= 0)
		json_object_set_new(o, "observer", json_pack("{s:i, s:i, s:o, s:o}",
			"cpu", run->obs_cpu, "calls", PB_OBSERVER_CALLS,
			"start_s", jreal(run->obs_start_s), "end_s", jreal(run->obs_end_s)));
	return o;
}
