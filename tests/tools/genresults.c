// SPDX-License-Identifier: GPL-2.0-only
/*
 * genresults.c - make pinbench-result/1 files with seeded noise, for the
 * compare, plot and nightly tests (fixtures are generated, never written
 * by hand).  The true mean of every job x placement cell depends only on
 * the job and the placement, so two seeds make an A/A pair; --shift moves
 * every value by a percentage.
 *
 * Standalone: cc -o genresults tests/tools/genresults.c \
 *		$(pkg-config --cflags --libs jansson) -lm
 * The unit tests include this file with GENRESULTS_NO_MAIN defined.
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#define GEN_MAX_JOBS	64

struct gen_spec {
	uint64_t	seed;
	const char	*label;
	const char	*kernel;	/* NULL: the label */
	const char	*hostname;
	const char	*schema;	/* NULL: pinbench-result/1 */
	const char	*config;	/* the job file; NULL: configs/gen.ini */
	int		jobs;		/* 1 .. GEN_MAX_JOBS, alternately pingpong and stream */
	int		placements;	/* 1 .. 4 */
	int		rmin, rmax;	/* repeats per cell, drawn in [rmin, rmax] */
	double		cv;		/* noise, a fraction of the mean */
	double		shift;		/* a fraction added to every value */
	double		ctx_shift;	/* a fraction added to the context switches per op */
	double		spread;		/* each placement's values this many times the one
					 * before; 0: 5 % apart */
	const char	*skip;		/* "JOB:PLACEMENT" reported skipped */
	const char	*drop;		/* "JOB:PLACEMENT" left out */
	const char	*anomaly;	/* "KIND:JOB:PLACEMENT" */
	const char	*severity;	/* of that anomaly; NULL: warn */
	const char	*fail;		/* "JOB:PLACEMENT" reported failed */
	const char	*cpu_model;	/* NULL: "generated" */
	const char	*topology;	/* "PACKAGES:CORES:PUS", or NULL: none recorded */
	const char	*run_error;	/* a run-wide anomaly of severity error: its kind */
	bool		derived;	/* write the "derived" per-op object */
	bool		latency;	/* add a latency job (udp-rr) */
	bool		sweep;		/* add a thread sweep (scale/threads=1,2,4,8) */
	bool		old;		/* as an older writer: no topology, boot or invocation */
	const char	*boot;		/* boot_id (hex); NULL: one boot per seed */
	const char	*params;	/* more workload keys on every job, "poll=1 busy_poll=50" */
	const char	*config_text;	/* the job file's text ("config_text"); NULL: none */
	long		memory_kb;	/* host.memory_kb; 0: none recorded */
};

static const char *const gen_placements[] = {
	"same-cpu", "same-core", "same-socket", "diff-socket"
};

struct gen_rng {
	uint64_t	s;
};

static uint64_t gen_next(struct gen_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double gen_uniform(struct gen_rng *r)
{
	return ((double)(gen_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box-Muller). */
static double gen_normal(struct gen_rng *r)
{
	double u = gen_uniform(r), v = gen_uniform(r);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

static double gen_round(double x, double scale)
{
	return round(x * scale) / scale;
}

static void gen_job_name(int j, char *buf, size_t len)
{
	const char *kind = j % 2 ? "stream" : "pingpong";

	if (j < 2)
		snprintf(buf, len, "%s", kind);
	else
		snprintf(buf, len, "%s-%d", kind, j);
}

static bool gen_match(const char *spec, const char *job, const char *pl)
{
	char want[256];

	if (!spec)
		return false;
	snprintf(want, sizeof(want), "%s:%s", job, pl);
	return !strcmp(spec, want);
}

static json_t *gen_counters(struct gen_rng *r, double per_op, double ops)
{
	double half = per_op * ops / 2 * (1 + 0.002 * gen_normal(r));

	return json_pack("{s:{s:{s:I, s:I, s:I}}, s:{s:{s:I, s:I, s:I}}}",
			 "writer/0", "context-switches", "value", (json_int_t)half,
			 "enabled_ns", (json_int_t)1000000000, "running_ns", (json_int_t)1000000000,
			 "reader/0", "context-switches", "value", (json_int_t)half,
			 "enabled_ns", (json_int_t)1000000000, "running_ns", (json_int_t)1000000000);
}

static json_t *gen_latency(double scale)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f}", "p50", gen_round(20 * scale, 100),
			 "p90", gen_round(24 * scale, 100), "p99", gen_round(31 * scale, 100),
			 "p99.9", gen_round(45 * scale, 100), "max", gen_round(90 * scale, 100));
}

/* One job object: values around mean * (1 + shift). */
static json_t *gen_job(const struct gen_spec *s, struct gen_rng *r, const char *name,
		       const char *pl, int pi, double mean, bool higher, const char *unit)
{
	int n = s->rmin + (int)(gen_next(r) % (uint64_t)(s->rmax - s->rmin + 1)), i;
	double ctx = 2.0 * (1 + s->ctx_shift), sum = 0, ss = 0, v;
	json_t *job, *reps = json_array(), *cpus;

	for (i = 0; i < n; i++) {
		double ops = 100000;

		v = gen_round(mean * (1 + s->shift) * (1 + s->cv * gen_normal(r)), 1e4);
		sum += v;
		ss += v * v;
		json_array_append_new(reps, json_pack("{s:f, s:f, s:f, s:o}", "value", v,
				"ops", ops, "elapsed_s", 1.0, "counters", gen_counters(r, ctx, ops)));
	}
	cpus = json_pack("[{s:s, s:i, s:i, s:[i]}, {s:s, s:i, s:i, s:[i]}]",
			 "role", "writer", "instance", 0, "planned", 0, "seen", 0,
			 "role", "reader", "instance", 0, "planned", pi, "seen", pi);
	job = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s}, s:{s:s, s:s, s:s}, s:o, s:o}",
			"name", name, "bench", "pipe", "placement", pl, "status", "ok",
			"reason", "", "params", "bench", "pipe", "repeats", "4",
			"metric", "name", higher ? "throughput" : "rtt", "unit", unit,
			"better", higher ? "higher" : "lower", "cpus", cpus, "repeats", reps);
	json_object_set_new(job, "summary", json_pack("{s:i, s:f}", "n", n, "mean", sum / n));
	json_object_set_new(job, "anomalies", json_array());
	if (s->derived)
		json_object_set_new(job, "derived", json_pack("{s:{s:f}, s:{s:f}}",
				"total", "context-switches/op", ctx,
				"writer/0", "context-switches/op", ctx / 2));
	(void)ss;
	return job;
}

static void gen_mark(const struct gen_spec *s, json_t *job, const char *name, const char *pl)
{
	char kind[64], where[200];
	const char *colon;

	if (!s->anomaly || !(colon = strchr(s->anomaly, ':')))
		return;
	snprintf(kind, sizeof(kind), "%.*s", (int)(colon - s->anomaly), s->anomaly);
	snprintf(where, sizeof(where), "%s:%s", name, pl);
	if (strcmp(colon + 1, where))
		return;
	json_array_append_new(json_object_get(job, "anomalies"), json_pack("{s:s, s:s, s:s}",
			"kind", kind, "severity", s->severity ? s->severity : "warn",
			"message", "injected by genresults"));
}

static void gen_skipped(json_t *job)
{
	json_object_set_new(job, "status", json_string("skipped"));
	json_object_set_new(job, "reason", json_string("no SMT siblings"));
	json_object_set_new(job, "repeats", json_array());
	json_object_del(job, "derived");
	json_object_set_new(job, "summary", json_pack("{s:i}", "n", 0));
}

static void gen_failed(json_t *job)
{
	json_object_set_new(job, "status", json_string("failed"));
	json_object_set_new(job, "reason", json_string("watchdog: no progress for 13 s"));
	json_object_set_new(job, "repeats", json_array());
	json_object_del(job, "derived");
	json_object_set_new(job, "summary", json_null());
}

static void gen_pair_jobs(const struct gen_spec *s, struct gen_rng *r, json_t *jobs)
{
	char name[64];
	int j, p;

	for (j = 0; j < s->jobs; j++) {
		gen_job_name(j, name, sizeof(name));
		for (p = 0; p < s->placements; p++) {
			const char *pl = gen_placements[p];
			double m = (j % 2 ? 1500.0 + 100 * j : 80.0 + 5 * j) *
				   (s->spread > 0 ? pow(s->spread, p) : 1 + 0.05 * p);
			json_t *job;

			if (gen_match(s->drop, name, pl))
				continue;
			job = gen_job(s, r, name, pl, p, m, j % 2, j % 2 ? "MB/s" : "us");
			if (gen_match(s->skip, name, pl))
				gen_skipped(job);
			if (gen_match(s->fail, name, pl))
				gen_failed(job);
			gen_mark(s, job, name, pl);
			json_array_append_new(jobs, job);
		}
	}
}

static void gen_extra_jobs(const struct gen_spec *s, struct gen_rng *r, json_t *jobs)
{
	char name[64], th[16];
	json_t *job;
	int t;

	for (t = 1; s->sweep && t <= 8; t *= 2) {
		snprintf(name, sizeof(name), "scale/threads=%d", t);
		snprintf(th, sizeof(th), "%d", t);
		job = gen_job(s, r, name, "compact", 0, 1e6 * pow(t, 0.8), true, "ops/s");
		json_object_set_new(json_object_get(job, "params"), "threads", json_string(th));
		json_object_set_new(json_object_get(job, "metric"), "name", json_string("ops"));
		json_array_append_new(jobs, job);
	}
	if (s->latency) {
		job = gen_job(s, r, "udp-rr", "same-socket", 1, 25.0, false, "us");
		json_object_set_new(json_object_get(job, "summary"), "latency",
				    gen_latency(1 + s->shift));
		json_array_append_new(jobs, job);
	}
}

/* Student's t, two-sided 95 %, for df 1 .. 10; 1.96 beyond. */
static double gen_t95(int df)
{
	static const double t[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
				    2.306, 2.262, 2.228 };

	return df >= 1 && df <= 10 ? t[df - 1] : 1.96;
}

static int gen_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A summary of the repeats' values, every field pinbench writes. */
static json_t *gen_summary(json_t *job, json_t *old)
{
	const char *unit = json_string_value(json_object_get(json_object_get(job, "metric"),
							     "unit"));
	json_t *reps = json_object_get(job, "repeats"), *o;
	double v[256], sum = 0, ss = 0, mean, sd, half;
	size_t l = unit ? strlen(unit) : 0, i;
	int n = 0;

	json_array_foreach(reps, i, o)
		if (n < 256)
			sum += (v[n++] = json_number_value(json_object_get(o, "value")));
	if (!n)
		return json_null();
	mean = sum / n;
	for (i = 0; i < (size_t)n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	half = gen_t95(n - 1) * sd / sqrt(n);
	qsort(v, (size_t)n, sizeof(*v), gen_cmp);
	o = json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:[f, f], s:s}", "n", n, "mean", mean,
		      "stddev", sd, "min", v[0], "median", n % 2 ? v[n / 2] :
		      (v[n / 2 - 1] + v[n / 2]) / 2, "max", v[n - 1], "cv", mean ? sd / mean : 0,
		      "ci95", mean - half, mean + half, "mean_kind",
		      l >= 2 && !strcmp(unit + l - 2, "/s") ? "harmonic" : "arithmetic");
	if (o && json_object_get(old, "latency"))
		json_object_set(o, "latency", json_object_get(old, "latency"));
	return o;
}

/*
 * Every field a pinbench-result/1 file of this version has, so that the
 * fixtures pass schemas/pinbench-result-1.schema.json (tests/e2e/schemas.sh):
 * neutral values where the generator has nothing to say.
 */
static void gen_complete(const struct gen_spec *s, json_t *root)
{
	json_t *host = json_object_get(root, "host"), *jobs = json_object_get(root, "jobs");
	json_t *job, *r, *a, *lat;
	size_t i, k;

	json_object_set_new(host, "nominal", json_pack("{s:n, s:s}", "mhz", "source", "unknown"));
	if (!s->old)
		json_object_set_new(host, "topology", json_pack("{s:i, s:i, s:i, s:i, s:i, s:b}",
				    "packages", 1, "cores", 4, "pus", 4, "llcs", 1,
				    "numa_nodes", 1, "smt", 0));
	if (!s->old) {
		char id[40];

		snprintf(id, sizeof(id), "%016llx", (unsigned long long)s->seed);
		json_object_set_new(root, "boot_id", json_string(s->boot ? s->boot : id));
		snprintf(id, sizeof(id), "%032llx", (unsigned long long)s->seed);
		json_object_set_new(root, "invocation", json_string(id));
	}
	json_object_set_new(root, "finished", json_string("2026-01-01T00:01:00Z"));
	json_object_set_new(root, "jobs_planned", json_integer((json_int_t)json_array_size(jobs)));
	json_object_set_new(root, "rounds", json_integer(1));
	json_object_set_new(root, "seed", json_null());
	json_object_set_new(root, "anomalies", json_array());
	json_array_foreach(jobs, i, job) {
		double wall = 0;

		json_array_foreach(json_object_get(job, "repeats"), k, r) {
			double ops = json_number_value(json_object_get(r, "ops"));
			double el = json_number_value(json_object_get(r, "elapsed_s"));

			wall += el;
			json_object_set_new(r, "ops_per_s", json_real(el > 0 ? ops / el : 0));
			json_object_set_new(r, "stall", json_false());
			/* counted in the metric's windows, as counting=inline does */
			json_object_set_new(r, "pass", json_object_get(r, "counters") ?
					    json_integer(0) : json_null());
			json_object_set_new(r, "in_summary", json_true());
		}
		json_array_foreach(json_object_get(job, "anomalies"), k, a)
			if (!json_object_get(a, "advice"))
				json_object_set_new(a, "advice", json_string(""));
		lat = json_object_get(json_object_get(job, "summary"), "latency");
		if (lat && !json_object_get(lat, "count")) {
			double p50 = json_number_value(json_object_get(lat, "p50"));

			json_object_set_new(lat, "count", json_integer(100000));
			json_object_set_new(lat, "mean", json_real(gen_round(p50 * 1.05, 100)));
			json_object_set_new(lat, "min", json_real(gen_round(p50 * 0.8, 100)));
		}
		json_object_set_new(job, "summary", gen_summary(job, json_object_get(job, "summary")));
		json_object_set_new(job, "round", json_integer(1));
		json_object_set_new(job, "events", json_array());
		json_object_set_new(job, "passes", json_array());
		json_object_set_new(job, "clock", json_array());
		json_object_set_new(job, "other_busy_frac", json_null());
		json_object_set_new(job, "wall_s", json_real(wall + 0.5));
	}
}

/* "k=v k=v" set in every job's params. */
static void gen_params(const char *kv, json_t *jobs)
{
	char buf[256], *save, *w;
	json_t *job;
	size_t i;

	json_array_foreach(jobs, i, job) {
		snprintf(buf, sizeof(buf), "%s", kv);
		for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(w, '=');

			if (!eq)
				continue;
			*eq = 0;
			json_object_set_new(json_object_get(job, "params"), w, json_string(eq + 1));
		}
	}
}

static json_t *gen_result(const struct gen_spec *s)
{
	struct gen_rng r = { s->seed };
	json_t *root, *jobs = json_array();

	gen_pair_jobs(s, &r, jobs);
	gen_extra_jobs(s, &r, jobs);
	root = json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s, s:s, s:s, s:s, s:n}, s:s, s:s, "
			 "s:s, s:s, s:o}",
			 "schema", s->schema ? s->schema : "pinbench-result/1",
			 "tool", "name", "pinbench", "version", "genresults",
			 "host", "hostname", s->hostname ? s->hostname : "gen-host",
			 "kernel", s->kernel ? s->kernel : s->label, "kernel_version", "#1 SMP",
			 "machine", "x86_64", "cpu_model", s->cpu_model ? s->cpu_model : "generated",
			 "nominal_mhz",
			 "started", "2026-01-01T00:00:00Z", "label", s->label,
			 "config", s->config ? s->config : "configs/gen.ini", "cmdline", "genresults", "jobs", jobs);
	if (root)
		gen_complete(s, root);
	if (root && s->run_error)
		json_array_append_new(json_object_get(root, "anomalies"),
				      json_pack("{s:s, s:s, s:s}", "kind", s->run_error,
						"severity", "error", "message", "injected run-wide"));
	if (root && s->params)
		gen_params(s->params, json_object_get(root, "jobs"));
	if (root && s->memory_kb)
		json_object_set_new(json_object_get(root, "host"), "memory_kb",
				    json_integer(s->memory_kb));
	if (root && s->config_text)
		json_object_set_new(root, "config_text", json_string(s->config_text));
	if (root && s->topology) {
		int pk = 0, co = 0, pu = 0;

		sscanf(s->topology, "%d:%d:%d", &pk, &co, &pu);
		json_object_set_new(json_object_get(root, "host"), "topology",
				    json_pack("{s:i, s:i, s:i, s:i, s:i, s:b}", "packages", pk,
					      "cores", co, "pus", pu, "llcs", pk, "numa_nodes", pk,
					      "smt", pu > co));
	}
	return root;
}

/* Write the result file; 0, or -1 with err set. */
static int gen_write(const struct gen_spec *s, const char *path, char *err, size_t len)
{
	json_t *root;
	int rc;

	if (s->jobs < 0 || s->jobs > GEN_MAX_JOBS || s->placements < 1 || s->placements > 4 ||
	    s->rmin < 1 || s->rmax < s->rmin || !s->label) {
		snprintf(err, len, "bad generator spec");
		return -1;
	}
	root = gen_result(s);
	if (!root) {
		snprintf(err, len, "cannot build the result");
		return -1;
	}
	rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (rc)
		snprintf(err, len, "%s: cannot write", path);
	return rc ? -1 : 0;
}

static void gen_defaults(struct gen_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->seed = 1;
	s->label = "6.1.0";
	s->jobs = 2;
	s->placements = 2;
	s->rmin = 4;
	s->rmax = 4;
	s->cv = 0.01;
}

#ifndef GENRESULTS_NO_MAIN
static const char gen_usage[] =
	"usage: genresults -o FILE [--seed N] [--label L] [--kernel K] [--host H]\n"
	"       [--jobs N] [--placements N] [--repeats MIN[-MAX]] [--cv PCT] [--shift PCT]\n"
	"       [--ctx-shift PCT] [--skip JOB:PL] [--drop JOB:PL] [--anomaly KIND:JOB:PL]\n"
	"       [--derived] [--latency] [--sweep] [--schema S] [--config JOBFILE]\n"
	"       [--severity info|warn|error] [--fail JOB:PL] [--cpu-model M]\n"
	"       [--topology PACKAGES:CORES:PUS] [--run-error KIND] [--old] [--boot HEXID]\n"
	"       [--params 'K=V K=V'] [--config-text TEXT] [--spread X]\n";

static int gen_opt(struct gen_spec *s, int ch, const char *a, const char **out)
{
	switch (ch) {
	case 'o': *out = a; break;
	case 's': s->seed = strtoull(a, NULL, 0); break;
	case 'l': s->label = a; break;
	case 'k': s->kernel = a; break;
	case 'H': s->hostname = a; break;
	case 'j': s->jobs = atoi(a); break;
	case 'p': s->placements = atoi(a); break;
	case 'r':
		s->rmin = atoi(a);
		s->rmax = strchr(a, '-') ? atoi(strchr(a, '-') + 1) : s->rmin;
		break;
	case 'c': s->cv = atof(a) / 100; break;
	case 'S': s->shift = atof(a) / 100; break;
	case 'C': s->ctx_shift = atof(a) / 100; break;
	case 'Y': s->spread = atof(a); break;
	case 'K': s->skip = a; break;
	case 'D': s->drop = a; break;
	case 'A': s->anomaly = a; break;
	case 'd': s->derived = true; break;
	case 'L': s->latency = true; break;
	case 'W': s->sweep = true; break;
	case 'X': s->schema = a; break;
	case 'F': s->config = a; break;
	case 'V': s->severity = a; break;
	case 'B': s->fail = a; break;
	case 'M': s->cpu_model = a; break;
	case 'T': s->topology = a; break;
	case 'R': s->run_error = a; break;
	case 'O': s->old = true; break;
	case 'I': s->boot = a; break;
	case 'P': s->params = a; break;
	case 'Q': s->config_text = a; break;
	default: return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", 1, NULL, 's' }, { "label", 1, NULL, 'l' }, { "kernel", 1, NULL, 'k' },
		{ "host", 1, NULL, 'H' }, { "jobs", 1, NULL, 'j' }, { "placements", 1, NULL, 'p' },
		{ "repeats", 1, NULL, 'r' }, { "cv", 1, NULL, 'c' }, { "shift", 1, NULL, 'S' },
		{ "ctx-shift", 1, NULL, 'C' }, { "skip", 1, NULL, 'K' }, { "drop", 1, NULL, 'D' },
		{ "anomaly", 1, NULL, 'A' }, { "derived", 0, NULL, 'd' },
		{ "latency", 0, NULL, 'L' }, { "sweep", 0, NULL, 'W' }, { "schema", 1, NULL, 'X' },
		{ "config", 1, NULL, 'F' }, { "severity", 1, NULL, 'V' }, { "fail", 1, NULL, 'B' },
		{ "cpu-model", 1, NULL, 'M' }, { "topology", 1, NULL, 'T' },
		{ "run-error", 1, NULL, 'R' }, { "old", 0, NULL, 'O' },
		{ "boot", 1, NULL, 'I' }, { "params", 1, NULL, 'P' },
		{ "config-text", 1, NULL, 'Q' }, { "spread", 1, NULL, 'Y' }, { NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	struct gen_spec s;
	char err[256];
	int ch;

	gen_defaults(&s);
	while ((ch = getopt_long(argc, argv, "o:", lo, NULL)) != -1)
		if (gen_opt(&s, ch, optarg, &out)) {
			fputs(gen_usage, stderr);
			return 2;
		}
	if (!out || optind != argc) {
		fputs(gen_usage, stderr);
		return 2;
	}
	if (gen_write(&s, out, err, sizeof(err))) {
		fprintf(stderr, "genresults: %s\n", err);
		return 1;
	}
	return 0;
}
#endif
