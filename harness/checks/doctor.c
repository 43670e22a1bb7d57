// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor.c - the checks behind `pinbench doctor` (its options, usage and
 * exit codes are cli/cmd_doctor.c's): this machine's measurement traps,
 * each ok / warn / fail / skip with its figure and a one-line fix, or the
 * verdict on someone else's perf stat output; either as text or JSON, to
 * the FILE the caller hands in.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anomaly.h"
#include "lib/schema.h"
#include "checks/doctor.h"
#include "sys/env.h"
#include "checks/envcheck.h"
#include "checks/clockcheck.h"
#include "checks/perfstat.h"
#include "sys/probe.h"

#define DOCTOR_MAX_CHECKS	16
#define PROBE_AGREE		0.03	/* two probes of one CPU */

/* ---- this machine ---- */

struct cpu_probes {
	int		cpu;
	bool		ok;
	struct pb_probe	p[2];
	char		err[128];
};

static void add_check(struct pb_check *c, int *n, const char *name,
		      enum pb_check_status st, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void add_check(struct pb_check *c, int *n, const char *name,
		      enum pb_check_status st, const char *fix, const char *fmt, ...)
{
	struct pb_check *k;
	va_list ap;

	if (*n >= DOCTOR_MAX_CHECKS)
		return;
	k = &c[(*n)++];
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->status = st;
	snprintf(k->fix, sizeof(k->fix), "%s", st >= PB_CHECK_WARN ? fix : "");
	va_start(ap, fmt);
	vsnprintf(k->figure, sizeof(k->figure), fmt, ap);
	va_end(ap);
}

static double pair_spread(const struct cpu_probes *cp)
{
	return fabs(cp->p[0].mhz - cp->p[1].mhz) / fmax(cp->p[0].mhz, cp->p[1].mhz);
}

static double pair_mhz(const struct cpu_probes *cp)
{
	return (cp->p[0].mhz + cp->p[1].mhz) / 2;
}

static void probe_all(struct cpu_probes *cp, int n)
{
	int i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 2 && !cp[i].err[0]; k++)
			if (pb_probe_cpu(cp[i].cpu, &cp[i].p[k], cp[i].err, sizeof(cp[i].err)))
				break;
	for (i = 0; i < n; i++)
		cp[i].ok = !cp[i].err[0];
}

static void check_stability(const struct cpu_probes *cp, int n, struct pb_check *c, int *nc)
{
	const struct cpu_probes *worst = NULL;
	double agree = 0;
	int i, nd = 0, np = 0;

	for (i = 0; i < n; i++) {
		if (!cp[i].ok)
			continue;
		np += 2;
		nd += cp[i].p[0].disturbed + cp[i].p[1].disturbed;
		if (!worst || pair_spread(&cp[i]) > pair_spread(worst))
			worst = &cp[i];
		agree = fmax(agree, fmax(cp[i].p[0].spread, cp[i].p[1].spread));
	}
	if (!worst) {
		add_check(c, nc, "probe-stability", PB_CHECK_SKIP, "", "no probe: %s",
			  n ? cp[0].err : "no CPU");
		return;
	}
	add_check(c, nc, "probe-stability",
		  pair_spread(worst) > PROBE_AGREE || nd ? PB_CHECK_WARN : PB_CHECK_OK,
		  "quiet the machine (other load, governor) and run doctor again",
		  "two probes per CPU agree within %.1f %% (worst cpu%d: %.0f vs %.0f MHz); "
		  "add vs imul chains within %.1f %%; %d of %d probes disturbed",
		  100 * pair_spread(worst), worst->cpu, worst->p[0].mhz, worst->p[1].mhz,
		  100 * agree, nd, np);
}

static void check_vs_nominal(const struct cpu_probes *cp, int n, const struct pb_nominal *nom,
			     struct pb_check *c, int *nc)
{
	const struct cpu_probes *low = NULL;
	double d;
	int i;

	for (i = 0; i < n; i++)
		if (cp[i].ok && (!low || pair_mhz(&cp[i]) < pair_mhz(low)))
			low = &cp[i];
	if (!low || nom->mhz <= 0) {
		add_check(c, nc, "probe-vs-nominal", PB_CHECK_SKIP, "", "%s",
			  low ? "nominal clock unknown" : "no probe");
		return;
	}
	d = pair_mhz(low) / nom->mhz - 1;
	add_check(c, nc, "probe-vs-nominal", d < -0.25 ? PB_CHECK_FAIL :
		  d < -PB_LOW_MAX ? PB_CHECK_WARN : PB_CHECK_OK,
		  "cpupower frequency-set -g performance; check power limits and throttling",
		  "slowest cpu%d %.0f MHz vs nominal %.0f MHz (%s): %+.1f %%%s", low->cpu,
		  pair_mhz(low), nom->mhz, nom->source, 100 * d,
		  d > PB_LOW_MAX ? " (boost/turbo above nominal)" : "");
}

static void check_throttle_now(const struct pb_cpustat *b, const struct pb_cpustat *a, int n,
			       struct pb_check *c, int *nc)
{
	long delta = 0;
	bool known = false;
	int i;

	for (i = 0; i < n; i++) {
		if (b[i].core_throttle >= 0 && a[i].core_throttle >= 0) {
			known = true;
			delta += a[i].core_throttle - b[i].core_throttle;
		}
		if (b[i].pkg_throttle >= 0 && a[i].pkg_throttle >= 0) {
			known = true;
			delta += a[i].pkg_throttle - b[i].pkg_throttle;
		}
	}
	add_check(c, nc, "throttling-now", !known ? PB_CHECK_SKIP :
		  delta > 0 ? PB_CHECK_FAIL : PB_CHECK_OK,
		  "the CPUs throttle under a few ms of load: fix cooling before measuring",
		  known ? "%ld throttle events while doctor probed" : "unknown%.0ld", delta);
}

static void print_checks(FILE *out, const struct pb_check *c, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fprintf(out, "  %-5s %-20s %s\n", pb_check_status_name(c[i].status), c[i].name,
		       c[i].figure);
		if (c[i].fix[0])
			fprintf(out, "        fix: %s\n", c[i].fix);
	}
}

static json_t *checks_json(const struct pb_check *c, int n)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n && arr; i++)
		json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s}", "name", c[i].name,
						     "status", pb_check_status_name(c[i].status),
						     "figure", c[i].figure, "fix", c[i].fix));
	return arr;
}

static json_t *probes_json(const struct cpu_probes *cp, int n)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n && arr; i++)
		json_array_append_new(arr, cp[i].ok ?
			json_pack("{s:i,s:[o,o],s:f}", "cpu", cp[i].cpu,
				  "probes", pb_probe_json(&cp[i].p[0]), pb_probe_json(&cp[i].p[1]),
				  "spread", pair_spread(&cp[i])) :
			json_pack("{s:i,s:s}", "cpu", cp[i].cpu, "error", cp[i].err));
	return arr;
}

static int report_machine(FILE *out, const struct pb_doctor_opts *o, const struct pb_env *e,
			  const struct pb_nominal *nom, const struct cpu_probes *cp,
			  const struct pb_check *c, int nc)
{
	int i, cnt[4] = { 0 };

	for (i = 0; i < nc; i++)
		cnt[c[i].status]++;
	if (o->json) {
		json_t *j = json_pack("{s:s,s:o,s:o,s:o,s:o,s:{s:i,s:i,s:i,s:i}}",
				      "schema", PB_SCHEMA_DOCTOR,
				      "checks", checks_json(c, nc),
				      "environment", pb_env_json(e),
				      "nominal", pb_nominal_json(nom),
				      "probes", probes_json(cp, e->nr_cpus),
				      "summary", "ok", cnt[PB_CHECK_OK], "warn", cnt[PB_CHECK_WARN],
				      "fail", cnt[PB_CHECK_FAIL], "skip", cnt[PB_CHECK_SKIP]);

		if (j)
			json_dumpf(j, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
		fprintf(out, "\n");
		json_decref(j);
	} else {
		fprintf(out, "pinbench doctor: %d CPUs%s%s%s%s\n", e->nr_cpus, e->model[0] ? ", " : "",
		       e->model, *pb_sys_root() ? ", sysroot " : "", pb_sys_root());
		print_checks(out, c, nc);
		fprintf(out, "%d ok, %d warn, %d fail, %d skip\n", cnt[PB_CHECK_OK],
		       cnt[PB_CHECK_WARN], cnt[PB_CHECK_FAIL], cnt[PB_CHECK_SKIP]);
	}
	return cnt[PB_CHECK_FAIL] ? 1 : 0;
}

int pb_doctor_machine(const struct pb_doctor_opts *o, FILE *out, char *err, size_t len)
{
	struct pb_check c[DOCTOR_MAX_CHECKS];
	struct pb_cpustat *before = NULL, *after = NULL;
	struct cpu_probes *cp = NULL;
	struct pb_nominal nom;
	struct pb_env e;
	int *cpus = NULL;
	int i, nc, r = -1;

	if (pb_env_collect(&e, err, len))
		return -1;
	nc = pb_env_checks(&e, !o->user && pb_perf_privileged(), c, DOCTOR_MAX_CHECKS);
	cp = calloc(e.nr_cpus + 1, sizeof(*cp));
	cpus = calloc(e.nr_cpus + 1, sizeof(*cpus));
	before = calloc(e.nr_cpus + 1, sizeof(*before));
	after = calloc(e.nr_cpus + 1, sizeof(*after));
	if (!cp || !cpus || !before || !after) {
		snprintf(err, len, "out of memory");
		goto done;
	}
	for (i = 0; i < e.nr_cpus; i++)
		cp[i].cpu = cpus[i] = e.cpu[i].cpu;
	pb_nominal_detect(e.nr_cpus ? cpus[0] : -1, &nom);
	pb_cpustat_snapshot(cpus, e.nr_cpus, before);
	probe_all(cp, e.nr_cpus);
	pb_cpustat_snapshot(cpus, e.nr_cpus, after);
	check_throttle_now(before, after, e.nr_cpus, c, &nc);
	check_stability(cp, e.nr_cpus, c, &nc);
	check_vs_nominal(cp, e.nr_cpus, &nom, c, &nc);
	r = report_machine(out, o, &e, &nom, cp, c, nc);
done:
	free(cp);
	free(cpus);
	free(before);
	free(after);
	pb_env_free(&e);
	return r;
}

/* ---- someone else's perf stat ---- */

static void print_events(FILE *out, const struct pb_perfstat *ps)
{
	static const char *const st[] = { "", "<not counted>", "<not supported>" };
	int i;

	fprintf(out, "  %-28s %22s %9s%s\n", "event", "value", "counted",
		ps->has_variance ? "   +- runs" : "");
	for (i = 0; i < ps->nr; i++) {
		const struct pb_ps_event *e = &ps->ev[i];
		char val[48], pct[16] = "-", var[24] = "";

		if (e->status == PB_PS_OK) {
			snprintf(val, sizeof(val), "%.*f%s%s", e->value == floor(e->value) ? 0 : 2,
				 e->value, e->unit[0] ? " " : "", e->unit);
			snprintf(pct, sizeof(pct), "%.2f%%", e->pct);
		} else {
			snprintf(val, sizeof(val), "%s", st[e->status]);
		}
		if (ps->has_variance && (isnan(e->variance) || e->status != PB_PS_OK))
			snprintf(var, sizeof(var), "  %9s", "-");
		else if (ps->has_variance)
			snprintf(var, sizeof(var), "  %8.2f%%", e->variance);
		fprintf(out, "  %-28s %22s %9s%s%s\n", e->name, val, pct, var,
			e->status == PB_PS_OK && e->pct < 100 ? "  time-shared" : "");
	}
}

static void print_anomalies(FILE *out, const struct pb_anomalies *a)
{
	int i;

	for (i = 0; i < a->nr; i++) {
		fprintf(out, "  %-5s %s: %s\n", pb_sev_name(a->v[i].sev), a->v[i].kind,
			a->v[i].message);
		if (a->v[i].advice[0])
			fprintf(out, "        advice: %s\n", a->v[i].advice);
	}
}

/* One line per interval: its end, its verdict, its clock, what it flagged. */
static void print_intervals(FILE *out, const struct pb_perfstat *ps,
			    const struct pb_ps_verdict *v)
{
	int i, k;

	fprintf(out, "intervals: %d, %.3f s to %.3f s (%d flagged, %d counted nothing)\n",
		ps->nr_iv, ps->iv[0].t, ps->iv[ps->nr_iv - 1].t, v->nr_iv_flagged, v->nr_iv_idle);
	for (i = 0; i < ps->nr_iv; i++) {
		struct pb_anomalies ia = { 0 };
		struct pb_ps_verdict iv;
		bool idle = pb_perfstat_check_interval(ps, i, v, &ia, &iv);
		int w = pb_perfstat_worst(&ia);

		fprintf(out, "  %12.6f s  %-7s", ps->iv[i].t,
			idle ? "idle" : w >= PB_SEV_WARN ? "flagged" : "ok");
		if (idle)
			fprintf(out, "  every event <not counted> or <not supported>");
		if (iv.eff_mhz > 0)
			fprintf(out, "  %.2f GHz", iv.eff_mhz / 1000);
		for (k = 0; k < ia.nr; k++)
			if (ia.v[k].sev >= PB_SEV_WARN)
				fprintf(out, "  %s %s", pb_sev_name(ia.v[k].sev), ia.v[k].kind);
		fprintf(out, "\n");
		pb_anomalies_free(&ia);
	}
}

#define HERE	"this host's, "	/* how pb_perfstat_check names this host's nominal */

/* Which nominal the clock was judged against, and what to do when it was this host's. */
static void print_clock(FILE *out, const struct pb_ps_verdict *v)
{
	if (v->eff_mhz <= 0) {
		fprintf(out, "effective clock unknown (no counted cycles): no clock verdict\n");
		return;
	}
	fprintf(out, "effective clock %.2f GHz", v->eff_mhz / 1000);
	if (v->paste_mhz > 0)
		fprintf(out, " (perf's own figure: %.3f GHz)", v->paste_mhz / 1000);
	if (v->nominal_mhz <= 0)
		fprintf(out, "; nominal unknown: pass --nominal-mhz for the machine the paste "
			"came from\n");
	else if (v->nominal_here)
		fprintf(out, "\njudged against this host's nominal %.2f GHz (%s); pass "
			"--nominal-mhz for the machine the paste came from\n",
			v->nominal_mhz / 1000, strncmp(v->nominal_src, HERE, strlen(HERE)) ?
			v->nominal_src : v->nominal_src + strlen(HERE));
	else
		fprintf(out, "; nominal %.2f GHz (%s)\n", v->nominal_mhz / 1000, v->nominal_src);
}

static void print_perfstat(FILE *out, const char *path, const struct pb_perfstat *ps,
			   const struct pb_ps_verdict *v, const struct pb_anomalies *a)
{
	fprintf(out, "perf stat output %s (%s", path, pb_perfstat_format_name(ps->format));
	if (ps->sep)
		fprintf(out, ", separator '%s'", ps->sep == '\t' ? "\\t" : (char[]){ ps->sep, 0 });
	fprintf(out, ", %d events", ps->nr);
	if (ps->runs)
		fprintf(out, ", %d runs", ps->runs);
	else if (ps->has_variance)
		fprintf(out, ", -r runs");
	if (ps->nr_iv)
		fprintf(out, ", %d intervals; below %s", ps->nr_iv,
			ps->perf_summary ? "perf's --summary" : "their sum");
	if (ps->elapsed_s >= 0)
		fprintf(out, ", %.3f s elapsed", ps->elapsed_s);
	if (!isnan(ps->elapsed_var))
		fprintf(out, " +- %.2f %%", ps->elapsed_var);
	fprintf(out, ")\n");
	print_events(out, ps);
	print_clock(out, v);
	if (ps->nr_iv)
		print_intervals(out, ps, v);
	print_anomalies(out, a);
	fprintf(out, "verdict: %s\n",
		pb_perfstat_worst(a) >= PB_SEV_WARN ? "flagged" : "nothing flagged");
}

int pb_doctor_perf_stat(const struct pb_doctor_opts *o, FILE *out, char *err, size_t len)
{
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;
	int r;

	if (pb_perfstat_load(o->perf_stat, &ps, err, len))
		return -1;
	pb_perfstat_check(&ps, o->nominal_mhz, true, &a, &v);
	r = pb_perfstat_worst(&a) >= PB_SEV_WARN ? 1 : 0;
	if (o->json) {
		json_t *ps_j = pb_perfstat_json(&ps, &v);
		json_t *j = json_pack("{s:s}", "schema", PB_SCHEMA_PERF_STAT);

		if (j && (!ps_j || json_object_update(j, ps_j))) {
			json_decref(j);
			j = NULL;
		}
		json_decref(ps_j);
		if (j) {
			json_object_set_new(j, "anomalies", pb_anomalies_json(&a));
			json_object_set_new(j, "flagged", json_boolean(r));
			json_dumpf(j, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
		}
		fprintf(out, "\n");
		json_decref(j);
	} else {
		print_perfstat(out, o->perf_stat, &ps, &v, &a);
	}
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
	return r;
}
