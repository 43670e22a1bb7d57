// SPDX-License-Identifier: GPL-2.0-only
/*
 * envcheck.c - verdicts on the machine's state (sys/env.h): over one job
 * (noisy neighbours, steal, throttling, run-to-run variation, migrations)
 * and for `pinbench doctor` and every run's header (governor, boost,
 * throttling, watchdog, paranoid level, PMU, SMT, tracepoints,
 * isolation).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/envcheck.h"
#include "stats/stats.h"
#include "sys/counters.h"
#include "sys/others.h"

/* ---- checks over a job ---- */

static void check_throttle(const struct pb_cpustat *b, const struct pb_cpustat *e, int n,
			   struct pb_anomalies *a)
{
	char what[240];
	int i, len = 0;

	what[0] = '\0';
	for (i = 0; i < n; i++) {
		long dc = (b[i].core_throttle >= 0 && e[i].core_throttle >= 0) ?
			  e[i].core_throttle - b[i].core_throttle : 0;
		long dp = (b[i].pkg_throttle >= 0 && e[i].pkg_throttle >= 0) ?
			  e[i].pkg_throttle - b[i].pkg_throttle : 0;
		int m;

		if (dc <= 0 && dp <= 0)
			continue;
		m = snprintf(what + len, sizeof(what) - len, "%scpu%d core +%ld package +%ld",
			     len ? ", " : "", b[i].cpu, dc > 0 ? dc : 0, dp > 0 ? dp : 0);
		if (m < 0 || (size_t)m >= sizeof(what) - len)
			break;
		len += m;
	}
	if (what[0])
		pb_anomaly_add(a, PB_AN_THROTTLING, PB_SEV_DEFAULT,
			       "improve cooling or lower the load (disable turbo); rerun",
			       "thermal throttling during the job: %s", what);
}

void pb_check_job_cpus(const struct pb_cpustat *before, const struct pb_cpustat *after,
		       int n, double elapsed_s, const struct pb_others_delta *others,
		       struct pb_anomalies *a, double *other_frac)
{
	long hz = sysconf(_SC_CLK_TCK);
	double steal = 0, cap, frac, tick_ns = 1e9 / (hz > 0 ? hz : 100);
	char top[96] = "";
	int i, known = 0;

	*other_frac = -1;
	check_throttle(before, after, n, a);
	for (i = 0; i < n; i++) {
		if (!before[i].known || !after[i].known)
			continue;
		known++;
		if (after[i].steal_ns > before[i].steal_ns)
			steal += after[i].steal_ns - before[i].steal_ns;
	}
	cap = elapsed_s * n * 1e9;
	if (cap <= 0)
		return;
	if (known && steal / (cap * known / n) > PB_NEIGHBOR_WARN &&
	    steal > PB_NEIGHBOR_TICKS * tick_ns * known)
		pb_anomaly_add(a, PB_AN_CPU_STEAL, PB_SEV_DEFAULT,
			       "the hypervisor ran other guests on these CPUs: use dedicated vCPUs",
			       "steal time %.1f %% of the job's CPU time (%.3f s of %.3f s)",
			       100 * steal / (cap * known / n), steal / 1e9, cap * known / n / 1e9);
	if (!others)
		return;
	/* shares of unbound tasks are estimates: never more than the CPUs had */
	frac = others->ns < cap ? others->ns / cap : 1;
	*other_frac = frac;
	if (frac <= PB_NEIGHBOR_WARN)
		return;
	if (others->top_pid)
		snprintf(top, sizeof(top), "; most: %s (pid %d) %.3f s",
			 others->top_comm[0] ? others->top_comm : "?", (int)others->top_pid,
			 others->top_ns / 1e9);
	pb_anomaly_add(a, PB_AN_NOISY_NEIGHBOR,
		       frac > PB_NEIGHBOR_ERROR ? PB_SEV_ERROR : PB_SEV_WARN,
		       "stop other work on these CPUs, or isolate them (isolcpus=, cpusets)",
		       "other tasks ran %.1f %% of the job's %d CPUs' time in its metric "
		       "windows (%.3f s of %.3f s%s)", 100 * frac, n, others->ns / 1e9,
		       cap / 1e9, top);
}

bool pb_check_cv(double cv, struct pb_anomalies *a)
{
	if (!(cv > PB_CV_NOISY))	/* NaN too */
		return false;
	pb_anomaly_add(a, PB_AN_NOISY, PB_SEV_DEFAULT,
		       "more repeats or a longer runtime; quiet the machine (pinbench doctor)",
		       "run-to-run variation CV %.2f %% (above %.0f %%; no slices to weigh it by)",
		       100 * cv,
		       100 * PB_CV_NOISY);
	return true;
}

/* The repeats' CV and what their slices predict of it (mean rse^2); -1 without slices. */
static int repeats_spread(const struct pb_repeat_noise *r, int k, double *cv, double *w)
{
	double m = 0, ss = 0;
	int df = 0;

	*w = 0;
	for (int i = 0; i < k; i++) {
		m += r[i].value / k;
		if (r[i].df < 1 || !(r[i].rse >= 0))
			df = -1;
		else if (df >= 0) {
			*w += r[i].rse * r[i].rse / k;
			df += r[i].df;
		}
	}
	for (int i = 0; i < k; i++)
		ss += (r[i].value - m) * (r[i].value - m);
	*cv = m > 0 ? sqrt(ss / (k - 1)) / m : NAN;
	return df;
}

bool pb_check_repeats(const struct pb_repeat_noise *r, int k, struct pb_anomalies *a)
{
	double cv, w, f, p, excess;
	int df;

	if (k < 2)
		return false;
	df = repeats_spread(r, k, &cv, &w);
	if (df < 1)
		return pb_check_cv(cv, a);
	f = w > 0 ? cv * cv / w : INFINITY;
	p = pb_f_pvalue(f, k - 1, df);
	excess = cv * cv > w ? sqrt(cv * cv - w) : 0;
	if (!(p < PB_NOISY_ALPHA) || !(excess > PB_NOISY_EXCESS))	/* NaN too */
		return false;
	pb_anomaly_add(a, PB_AN_NOISY, PB_SEV_DEFAULT,
		       "the machine changed under the run: look for other work or host steal "
		       "on these CPUs (pinbench doctor) and rerun",
		       "repeats disagree beyond their slices: CV %.2f %% where the slices predict "
		       "%.2f %% (F %.1f on %d and %d df, p %.2g), %.2f %% unexplained",
		       100 * cv, 100 * sqrt(w), f, k - 1, df, p, 100 * excess);
	return true;
}

bool pb_check_migration(const char *role, int instance, int planned,
			const int *seen, int n, struct pb_anomalies *a)
{
	char list[160];
	int i, j, len = 0;

	list[0] = '\0';
	for (i = 0; i < n; i++) {
		int m;

		if (seen[i] == planned)
			continue;
		for (j = 0; j < i && seen[j] != seen[i]; j++)
			;
		if (j < i)
			continue;	/* already listed */
		m = snprintf(list + len, sizeof(list) - len, "%s%d", len ? "," : "", seen[i]);
		if (m < 0 || (size_t)m >= sizeof(list) - len)
			break;
		len += m;
	}
	if (!list[0])
		return false;
	pb_anomaly_add(a, PB_AN_MIGRATION, PB_SEV_DEFAULT,
		       "something changed the affinity (cpuset, taskset, CPU hotplug): check it",
		       "%s#%d was pinned to cpu %d but ran on cpu %s", role, instance, planned,
		       list);
	return true;
}

/* ---- environment checks (pinbench doctor) ---- */

const char *pb_check_status_name(enum pb_check_status s)
{
	static const char *const names[] = { "ok", "skip", "warn", "fail" };

	return s <= PB_CHECK_FAIL ? names[s] : "?";
}

static void set_check(struct pb_check *c, const char *name, enum pb_check_status st,
		      const char *fix)
{
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->status = st;
	snprintf(c->fix, sizeof(c->fix), "%s", st >= PB_CHECK_WARN ? fix : "");
}

/* "mixed: performance on 6 CPUs, powersave on 2" */
static void mixed_governors(const struct pb_env *e, char *out, size_t len)
{
	size_t used = snprintf(out, len, "mixed:");
	int i, j, k;

	for (i = 0; i < e->nr_cpus && used < len; i++) {
		for (j = 0; j < i && strcmp(e->cpu[j].governor, e->cpu[i].governor); j++)
			;
		if (j < i)
			continue;	/* counted with an earlier CPU */
		for (k = 0, j = i; j < e->nr_cpus; j++)
			k += !strcmp(e->cpu[j].governor, e->cpu[i].governor);
		used += snprintf(out + used, len - used, "%s %s on %d CPU%s", i ? "," : "",
				 e->cpu[i].governor[0] ? e->cpu[i].governor : "unknown", k,
				 k > 1 ? "s" : "");
	}
}

static void check_governor(const struct pb_env *e, struct pb_check *c)
{
	const char *g = e->governor, *drv = e->driver[0] ? e->driver : "unknown driver";
	enum pb_check_status st = PB_CHECK_WARN;

	if (!g[0])
		st = PB_CHECK_SKIP;
	else if (!strcmp(g, "performance"))
		st = PB_CHECK_OK;
	else if (!strcmp(g, "powersave") && !strcmp(e->driver, "acpi-cpufreq"))
		st = PB_CHECK_FAIL;	/* acpi-cpufreq powersave = minimum clock */
	set_check(c, "governor", st, "cpupower frequency-set -g performance");
	if (st == PB_CHECK_SKIP)
		snprintf(c->figure, sizeof(c->figure), "unknown (no cpufreq: a VM, or disabled)");
	else if (!strcmp(g, "mixed"))
		mixed_governors(e, c->figure, sizeof(c->figure));
	else
		snprintf(c->figure, sizeof(c->figure), "%s on %d CPUs (%s)%s", g, e->nr_cpus,
			 drv, st == PB_CHECK_FAIL ? ": the clock is held at its minimum" :
			 st == PB_CHECK_WARN ? ": the clock follows the load" : "");
}

static void check_boost(const struct pb_env *e, struct pb_check *c)
{
	if (e->no_turbo >= 0) {
		set_check(c, "boost", e->no_turbo ? PB_CHECK_OK : PB_CHECK_WARN,
			  "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
		snprintf(c->figure, sizeof(c->figure), "%s (intel_pstate no_turbo=%d)%s",
			 e->no_turbo ? "off" : "on", e->no_turbo,
			 e->no_turbo ? "" : ": the clock depends on load and temperature");
	} else if (e->boost >= 0) {
		set_check(c, "boost", e->boost ? PB_CHECK_WARN : PB_CHECK_OK,
			  "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
		snprintf(c->figure, sizeof(c->figure), "%s (cpufreq boost=%d)%s",
			 e->boost ? "on" : "off", e->boost,
			 e->boost ? ": the clock depends on load and temperature" : "");
	} else {
		set_check(c, "boost", PB_CHECK_SKIP, "");
		snprintf(c->figure, sizeof(c->figure), "unknown (no boost or no_turbo control)");
	}
}

static void check_throttling(const struct pb_env *e, struct pb_check *c)
{
	long total = pb_env_throttle_total(e), worst = 0;
	int i, wcpu = -1;

	for (i = 0; i < e->nr_cpus; i++) {
		long t = (e->cpu[i].core_throttle > 0 ? e->cpu[i].core_throttle : 0) +
			 (e->cpu[i].pkg_throttle > 0 ? e->cpu[i].pkg_throttle : 0);

		if (t > worst) {
			worst = t;
			wcpu = e->cpu[i].cpu;
		}
	}
	set_check(c, "throttling", total < 0 ? PB_CHECK_SKIP : total ? PB_CHECK_WARN : PB_CHECK_OK,
		  "check cooling and fans; pinbench flags throttling that happens during a job");
	if (total < 0)
		snprintf(c->figure, sizeof(c->figure), "unknown (no thermal_throttle counters)");
	else if (total)
		snprintf(c->figure, sizeof(c->figure),
			 "%ld throttle events since boot (most on cpu%d: %ld)", total, wcpu, worst);
	else
		snprintf(c->figure, sizeof(c->figure), "0 throttle events since boot");
}

static void check_watchdog(const struct pb_env *e, struct pb_check *c)
{
	set_check(c, "nmi_watchdog", e->nmi_watchdog < 0 ? PB_CHECK_SKIP :
		  e->nmi_watchdog ? PB_CHECK_WARN : PB_CHECK_OK,
		  "echo 0 > /proc/sys/kernel/nmi_watchdog");
	snprintf(c->figure, sizeof(c->figure), "%s", e->nmi_watchdog < 0 ? "unknown" :
		 e->nmi_watchdog ? "on: it holds a hardware counter on every CPU" : "off");
}

static void check_paranoid(const struct pb_env *e, bool priv, struct pb_check *c)
{
	enum pb_check_status st;

	if (!e->paranoid_known) {
		set_check(c, "perf_event_paranoid", PB_CHECK_SKIP, "");
		snprintf(c->figure, sizeof(c->figure), "unknown");
		return;
	}
	st = priv || e->paranoid <= 0 ? PB_CHECK_OK :
	     e->paranoid >= 3 ? PB_CHECK_FAIL : PB_CHECK_WARN;
	set_check(c, "perf_event_paranoid", st,
		  "echo 0 > /proc/sys/kernel/perf_event_paranoid (or run with CAP_PERFMON)");
	snprintf(c->figure, sizeof(c->figure), "%d: forbids %s%s", e->paranoid,
		 pb_paranoid_words(e->paranoid), priv ? " (you are privileged)" : "");
}

static void check_pmu(const struct pb_env *e, struct pb_check *c)
{
	const char *virt = e->hypervisor == 1 ? "virtualised" :
			   e->hypervisor == 0 ? "bare metal" : "virtualisation unknown";

	set_check(c, "pmu", e->pmu < 0 ? PB_CHECK_SKIP : e->pmu ? PB_CHECK_OK : PB_CHECK_WARN,
		  "enable the guest PMU (QEMU/KVM: -cpu host,pmu=on); "
		  "the probe stands in meanwhile");
	if (e->pmu < 0)
		snprintf(c->figure, sizeof(c->figure), "unknown (no /sys/bus/event_source)");
	else if (e->pmu)
		snprintf(c->figure, sizeof(c->figure), "%s (%s)", e->pmu_name, virt);
	else
		snprintf(c->figure, sizeof(c->figure),
			 "none (%s): no cycles or instructions, software events only", virt);
}

static void check_smt(const struct pb_env *e, struct pb_check *c)
{
	set_check(c, "smt", e->smt_control[0] ? PB_CHECK_OK : PB_CHECK_SKIP, "");
	if (!e->smt_control[0])
		snprintf(c->figure, sizeof(c->figure), "unknown");
	else
		snprintf(c->figure, sizeof(c->figure), "control %s, %s%s", e->smt_control,
			 e->smt_active == 1 ? "active" : e->smt_active == 0 ? "inactive" :
			 "activity unknown", e->smt_active == 1 ?
			 ": keep other work off the siblings of measured CPUs" : "");
}

static void check_tracepoints(const struct pb_env *e, struct pb_check *c)
{
	if (!e->tracefs[0] && !e->sys_kernel) {	/* no /sys/kernel: can't tell */
		set_check(c, "tracepoints", PB_CHECK_SKIP, "");
		snprintf(c->figure, sizeof(c->figure), "unknown");
		return;
	}
	set_check(c, "tracepoints", e->tracefs[0] ? PB_CHECK_OK : PB_CHECK_WARN,
		  "mount -t tracefs nodev /sys/kernel/tracing");
	if (e->tracefs[0])
		snprintf(c->figure, sizeof(c->figure), "%.150s readable: wakeups/op counted",
			 e->tracefs);
	else
		snprintf(c->figure, sizeof(c->figure),
			 "tracefs not mounted or not readable: no sched tracepoints, no wakeups/op");
}

static void check_isolation(const struct pb_env *e, struct pb_check *c)
{
	const char *iso = e->isolated[0] ? e->isolated : e->cmd_isolcpus;
	const char *nohz = e->nohz_full[0] ? e->nohz_full : e->cmd_nohz_full;

	if (!e->isolated_known && !e->cmdline_known) {
		set_check(c, "isolation", PB_CHECK_SKIP, "");
		snprintf(c->figure, sizeof(c->figure), "unknown");
		return;
	}
	set_check(c, "isolation", iso[0] || nohz[0] ? PB_CHECK_OK : PB_CHECK_WARN,
		  "boot with isolcpus=N-M nohz_full=N-M (or use a cpuset) and place jobs there");
	if (iso[0] || nohz[0])
		snprintf(c->figure, sizeof(c->figure), "isolcpus %.80s, nohz_full %.80s",
			 iso[0] ? iso : "none", nohz[0] ? nohz : "none");
	else
		snprintf(c->figure, sizeof(c->figure),
			 "no isolated CPUs: other tasks may run on measured CPUs");
}

int pb_env_checks(const struct pb_env *e, bool privileged, struct pb_check *out, int max)
{
	struct pb_check c[9];
	int i, n = 0;

	memset(c, 0, sizeof(c));
	check_governor(e, &c[n++]);
	check_boost(e, &c[n++]);
	check_throttling(e, &c[n++]);
	check_watchdog(e, &c[n++]);
	check_paranoid(e, privileged, &c[n++]);
	check_pmu(e, &c[n++]);
	check_smt(e, &c[n++]);
	check_isolation(e, &c[n++]);
	check_tracepoints(e, &c[n++]);
	for (i = 0; i < n && i < max; i++)
		out[i] = c[i];
	return i;
}

void pb_env_anomalies(const struct pb_env *e, bool privileged, struct pb_anomalies *a)
{
	struct pb_check c[9];
	int i, n = pb_env_checks(e, privileged, c, 9);

	for (i = 0; i < n; i++) {
		if (c[i].status < PB_CHECK_WARN)
			continue;
		pb_anomaly_add_env(a, c[i].name,
				   c[i].status == PB_CHECK_FAIL ? PB_SEV_ERROR : PB_SEV_WARN,
				   c[i].fix, "%s: %s", c[i].name, c[i].figure);
	}
}
