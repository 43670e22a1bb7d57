// SPDX-License-Identifier: GPL-2.0-only
/*
 * result.c - results as JSON and text.  See result.h; the JSON schema is
 * documented in README.md ("Result files").
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

#include "report/result.h"
#include "sys/sysfs.h"

static const char *const status_names[] = {
	[PB_OK] = "ok", [PB_SKIPPED] = "skipped", [PB_FAILED] = "failed",
	[PB_INTERRUPTED] = "interrupted",
};

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

static json_t *params_json(const struct pb_job *j)
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

static json_t *latency_json(const struct pb_hist *h)
{
	if (!h || !h->count)
		return json_null();
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			 "count", (json_int_t)h->count,
			 "mean", pb_hist_mean(h) / 1e3,
			 "min", h->min / 1e3,
			 "p50", pb_hist_quantile(h, 0.50) / 1e3,
			 "p90", pb_hist_quantile(h, 0.90) / 1e3,
			 "p99", pb_hist_quantile(h, 0.99) / 1e3,
			 "p99.9", pb_hist_quantile(h, 0.999) / 1e3,
			 "max", h->max / 1e3);
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

static json_t *rep_json(const struct pb_result *r, int i, double nominal_mhz)
{
	const struct pb_bench *b = r->job->bench;
	const struct pb_rep *rep = &r->reps[i];
	double busy = rep->elapsed_s - rep->wait_s;
	json_t *o = json_pack("{s:o, s:I, s:f, s:f, s:b, s:o, s:b}",
			      "value", jreal(rep->value), "ops", (json_int_t)rep->ops,
			      "elapsed_s", rep->elapsed_s,
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
	if (b->latency)
		json_object_set_new(o, "latency", latency_json(rep->lat));
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
			json_object_set_new(o, "latency", latency_json(all));
			free(all);
		}
	}
	return o;
}

/* Per role instance ops/s over the metric's windows: min and max (fairness). */
static int instance_rates(const struct pb_result *r, double *min, double *max)
{
	int n = 0;

	*min = INFINITY;
	*max = 0;
	for (int i = 0; i < r->nr_tasks; i++) {
		double ops = 0, t = 0;

		for (int w = 0; w < r->nr_reps; w++)
			if (r->reps[w].in_summary && r->reps[w].task_ops) {
				ops += r->reps[w].task_ops[i];
				t += r->reps[w].elapsed_s;
			}
		if (t <= 0)
			continue;
		*min = fmin(*min, ops / t);
		*max = fmax(*max, ops / t);
		n++;
	}
	return n;
}

/* Each counter pass: its events and what it cost against the metric's repeats. */
static json_t *passes_json(const struct pb_result *r)
{
	json_t *v = json_array();
	char names[512];

	for (int p = 0; r->evl.nr && p < r->evl.nr_passes; p++) {
		double pr, mr;
		bool known = !pb_result_pass_rate(r, p, &pr, &mr);

		pb_evlist_pass_names(&r->evl, p, names, sizeof(names));
		json_array_append_new(v, json_pack("{s:i, s:s, s:o, s:o, s:o}", "pass", p,
			"events", names, "ops_per_s", known ? json_real(pr) : json_null(),
			"metric_ops_per_s", known ? json_real(mr) : json_null(),
			"slower", known ? json_real(1 - pr / mr) : json_null()));
	}
	return v;
}

json_t *pb_result_json(const struct pb_result *r, double nominal_mhz)
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
		"params", params_json(j),
		"metric", "name", r->metric.name, "unit", r->metric.unit,
		"better", r->metric.lower_better ? "lower" : "higher",
		"cpus", cpus_json(r), "repeats", reps,
		"summary", summary_json(r),
		"anomalies", pb_anomalies_json(&r->anomalies),
		"wall_s", r->wall_s);
	json_object_set_new(o, "clock", clk);
	loss_json(r, -1, o);
	if (r->job->bench->shape == PB_SHAPE_WORKERS &&
	    (r->status == PB_OK || r->status == PB_INTERRUPTED)) {
		double mn, mx;

		if (instance_rates(r, &mn, &mx))
			json_object_set_new(o, "per_instance", json_pack("{s:f, s:f}",
					    "min_ops_per_s", mn, "max_ops_per_s", mx));
	}
	json_object_set_new(o, "derived", derived_json(r, -1, nominal_mhz));
	json_object_set_new(o, "passes", passes_json(r));
	json_object_set_new(o, "events", pb_evlist_json(&r->evl));
	json_object_set_new(o, "other_busy_frac",
			    r->other_frac >= 0 ? json_real(r->other_frac) : json_null());
	return o;
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
	o = json_pack("{s:s, s:{s:s, s:s}, s:o, s:s, s:s, s:o, s:s, s:o, s:o}",
		      "schema", PB_SCHEMA, "tool", "name", "pinbench",
		      "version", PB_VERSION, "host", host,
		      "started", run->started, "label", run->label,
		      "config", jstr_or_null(run->config),
		      "cmdline", run->cmdline, "jobs", jobs,
		      "anomalies", pb_anomalies_json(&run->anomalies));
	json_object_set_new(o, "finished", jstr_or_null(run->finished));
	json_object_set_new(o, "jobs_planned", json_integer(run->planned));
	if (run->obs_cpu >= 0)
		json_object_set_new(o, "observer", json_pack("{s:i, s:i, s:o, s:o}",
			"cpu", run->obs_cpu, "calls", PB_OBSERVER_CALLS,
			"start_s", jreal(run->obs_start_s), "end_s", jreal(run->obs_end_s)));
	return o;
}

int pb_mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* write(2) all of buf; 0, or -1 with errno from the call that failed. */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (!w) {
			errno = EIO;
			return -1;
		}
		buf += w;
		n -= w;
	}
	return 0;
}

/* fsync of the folder that holds path: the rename or link is on disk too. */
static int sync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd, rc;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		slash[1] = 0;
	else
		*slash = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	if (rc && (errno == EINVAL || errno == EROFS))
		rc = 0;		/* a folder that cannot be synced (some file systems) */
	close(fd);
	return rc;
}

int pb_file_save(const char *path, const char *text, bool claim, char *err, size_t len)
{
	char tmp[PATH_MAX];
	const char *what = "write";
	int fd, rc = 0, e;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, len, "cannot create %s: %s", tmp, strerror(e));
		return -1;
	}
	fchmod(fd, 0644);
	if (write_all(fd, text, strlen(text)) || write_all(fd, "\n", 1))
		rc = -1;
	if (!rc && fsync(fd))
		rc = -1, what = "fsync";
	e = errno;
	if (close(fd) && !rc)
		rc = -1, what = "close", e = errno;
	if (!rc && claim) {		/* the name is ours only if nobody has it */
		if (link(tmp, path)) {
			e = errno;
			rc = e == EEXIST ? -EEXIST : -1;
			what = "create";
		}
	} else if (!rc && rename(tmp, path)) {
		e = errno;
		rc = -1;
		what = "rename to";
	}
	unlink(tmp);		/* gone after a rename; the link keeps the data */
	if (!rc && sync_dir_of(path)) {
		e = errno;
		rc = -1;
		what = "fsync the folder of";
	}
	if (rc == -1)
		snprintf(err, len, "cannot %s %s: %s", what, path, strerror(e));
	return rc;
}

int pb_json_write_atomic(const char *path, json_t *j, char *err, size_t len)
{
	char *text = json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	int rc;

	if (!text) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(ENOMEM));
		return -1;
	}
	rc = pb_file_save(path, text, false, err, len);
	free(text);
	return rc;
}

/* ---------------------------------------------------------------- text */

static void print_header(const struct pb_result *r, FILE *f)
{
	const struct pb_job *j = r->job;
	const struct pb_bench *b = j->bench;
	char keys[256] = "";
	size_t n = 0;

	for (int k = 0; b->keys[k].name; k++) {
		const char *v = pb_job_get(j, b->keys[k].name);

		if (v && n < sizeof(keys))
			n += snprintf(keys + n, sizeof(keys) - n, "%s%s=%s",
				      n ? " " : "", b->keys[k].name, v);
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
	char cpus[64], marks[16] = "";
	int nm = 0;

	cpus_text(r, cpus, sizeof(cpus));
	fprintf(f, "%-13s %-*s", r->placement, width, cpus);
	if (r->status == PB_SKIPPED || (r->status != PB_OK && !r->nr_reps)) {
		if (!strcmp(r->reason, status_names[r->status]))
			fprintf(f, " %s\n", r->reason);
		else
			fprintf(f, " %s: %s\n", status_names[r->status], r->reason);
		return;
	}
	for (int i = 0, shown = 0; shown < reps; i++) {
		if (i < r->nr_reps && !r->reps[i].in_summary)
			continue;
		if (i < r->nr_reps && r->reps[i].stall)
			fprintf(f, " %9s", "stall");
		else if (i < r->nr_reps)
			fprintf(f, " %9.4g", r->reps[i].value);
		else
			fprintf(f, " %9s", "-");
		shown++;
	}
	for (int i = 0; i < r->anomalies.nr && nm < 8; i++) {
		const char *m = pb_anomaly_mark(r->anomalies.v[i].kind);

		if (!strstr(marks, m) && r->anomalies.v[i].sev != PB_SEV_INFO)
			nm += snprintf(marks + nm, sizeof(marks) - nm, "%s", m);
	}
	if (r->status == PB_OK)
		fprintf(f, " %10.4f %9.4f %s\n", r->summary.mean, r->summary.stddev, marks);
	else if (r->status == PB_INTERRUPTED && r->summary.n)
		fprintf(f, " %10.4f %9.4f %s%sinterrupted (%d finished)\n", r->summary.mean,
			r->summary.stddev, marks, *marks ? " " : "", r->summary.n);
	else
		fprintf(f, "  %s: %s\n", status_names[r->status], r->reason);
}

static const struct pb_figure *figure(const struct pb_figures *f, const char *name)
{
	for (int i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

/*
 * Where the per-op figures come from: the counter passes, each with how
 * much slower it ran than the metric's own repeats (a per-task counter
 * costs every context switch), so task-clock/op can be read against it.
 */
static void print_pass_cost(const struct pb_result *r, FILE *f)
{
	char names[512];

	for (int p = 0; p < r->evl.nr_passes; p++) {
		double pr, mr;

		pb_evlist_pass_names(&r->evl, p, names, sizeof(names));
		if (pb_result_pass_rate(r, p, &pr, &mr))
			fprintf(f, "  %-13s counter pass %d (%s): the metric's own repeats\n",
				r->placement, p, names);
		else
			fprintf(f, "  %-13s counter pass %d (%s): %.4g ops/s, %.1f %% %s than "
				"the metric's repeats (%.4g ops/s)\n", r->placement, p, names, pr,
				100 * fabs(1 - pr / mr), pr <= mr ? "slower" : "faster", mr);
	}
}

/*
 * Per-op counter figures under the table: a row per figure, the total
 * and then each role instance (or CPU) in columns.
 */
static void print_per_op(const struct pb_result *r, double nominal_mhz, FILE *f)
{
	struct pb_count acc[PB_MAX_EVENTS];
	struct pb_figures tot, *g;
	int ng = r->nr_groups > 8 ? 0 : r->nr_groups;
	double ops;

	if (r->status == PB_SKIPPED || !pb_result_counts(r, -1, -1, acc, &ops))
		return;
	pb_result_figures(r, -1, -1, nominal_mhz, &tot);
	if (!tot.nr)
		return;
	g = calloc(ng ? ng : 1, sizeof(*g));
	if (!g)
		return;
	print_pass_cost(r, f);
	fprintf(f, "  %-13s %-22s %12s", r->placement, "per op", "total");
	for (int k = 0; k < ng; k++) {
		pb_result_figures(r, k, -1, nominal_mhz, &g[k]);
		fprintf(f, " %12s", r->group_names[k]);
	}
	fputc('\n', f);
	for (int i = 0; i < tot.nr; i++) {
		fprintf(f, "  %-13s %-22s %12.4g", "", tot.v[i].name, tot.v[i].value);
		for (int k = 0; k < ng; k++) {
			const struct pb_figure *x = figure(&g[k], tot.v[i].name);

			if (x)
				fprintf(f, " %12.4g", x->value);
			else
				fprintf(f, " %12s", "-");
		}
		fprintf(f, " %s\n", tot.v[i].unit);
	}
	free(g);
}

/* Latency workloads: percentiles per placement over the metric's windows. */
static void print_latency(const struct pb_result *r, FILE *f)
{
	struct pb_hist *all;

	if (!r->job->bench->latency || r->status == PB_SKIPPED || !r->nr_reps)
		return;
	all = malloc(sizeof(*all));
	if (!all)
		return;
	pb_hist_init(all);
	for (int i = 0; i < r->nr_reps; i++)
		if (r->reps[i].in_summary && r->reps[i].lat)
			pb_hist_merge(all, r->reps[i].lat);
	if (all->count)
		fprintf(f, "  %-13s latency us: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f"
			"  (%llu ops)\n", r->placement, pb_hist_quantile(all, 0.5) / 1e3,
			pb_hist_quantile(all, 0.9) / 1e3, pb_hist_quantile(all, 0.99) / 1e3,
			pb_hist_quantile(all, 0.999) / 1e3, all->max / 1e3,
			(unsigned long long)all->count);
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
	for (int i = from; i < to; i++) {
		const struct pb_result *r = &run->results[i];

		for (int k = 0; k < r->anomalies.nr; k++) {
			const struct pb_anomaly *a = &r->anomalies.v[k];

			if (a->sev == PB_SEV_INFO)
				continue;
			fprintf(f, "  %s %s [%s] %s: %s%s%s\n", pb_anomaly_mark(a->kind),
				r->placement, pb_sev_name(a->sev), a->kind, a->message,
				*a->advice ? " -- " : "", a->advice);
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
		print_per_op(&run->results[i], run->nominal.mhz, f);
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
	double base = 0, base_n = 0;

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
				status_names[r->status], r->reason);
			continue;
		}
		if (!base || strcmp(r->placement, run->results[i - 1].placement)) {
			base = r->summary.mean;	/* the first (smallest) count of this placement */
			base_n = n;
		}
		if (!instance_rates(r, &mn, &mx))
			mn = mx = NAN;
		fprintf(f, "%-13s %8s %14.4g %14.4g %14.4g %10.1f%%\n", r->placement, v,
			r->summary.mean, mn, mx, 100 * r->summary.mean / (n / base_n * base));
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
