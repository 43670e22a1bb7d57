// SPDX-License-Identifier: GPL-2.0-only
/*
 * env.c - environment collection under a movable /proc and /sys root (cpufreq,
 * PMU, SMT, isolation, the kernel command line, vulnerabilities, microcode,
 * THP) and per-CPU busy time; what is made of them is checks/envcheck.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/counters.h"
#include "sys/env.h"
#include "sys/others.h"
#include "lib/util.h"

int pb_boot_id(char *buf, size_t len)
{
	int n = pb_sys_read(buf, len, "/proc/sys/kernel/random/boot_id");

	if (n > 0 && (size_t)n < len - 1 && strspn(buf, "0123456789abcdefABCDEF-") == (size_t)n)
		return 0;
	if (len)
		*buf = '\0';
	return -1;
}

int pb_cpulist_parse(const char *s, int *cpus, int max)
{
	int n = 0;

	while (*s) {
		char *end;
		long a, b;

		while (*s == ',' || isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		a = strtol(s, &end, 10);
		if (end == s || a < 0)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		for (; a <= b; a++) {
			if (n >= max)
				return -1;
			cpus[n++] = (int)a;
		}
		if (*s && *s != ',' && !isspace((unsigned char)*s))
			return -1;
	}
	return n;
}

static long read_long_or_unknown(const char *fmt, int cpu)
{
	long v;

	return pb_sys_read_long(&v, fmt, cpu) ? PB_ENV_UNKNOWN : v;
}

static void collect_cpu(struct pb_env_cpu *c, int cpu)
{
	const char *cf = "/sys/devices/system/cpu/cpu%d/cpufreq/";
	char path[128];

	c->cpu = cpu;
	snprintf(path, sizeof(path), "%sscaling_governor", cf);
	if (pb_sys_read(c->governor, sizeof(c->governor), path, cpu) < 0)
		c->governor[0] = '\0';
	snprintf(path, sizeof(path), "%sscaling_driver", cf);
	if (pb_sys_read(c->driver, sizeof(c->driver), path, cpu) < 0)
		c->driver[0] = '\0';
	snprintf(path, sizeof(path), "%sscaling_min_freq", cf);
	c->min_khz = read_long_or_unknown(path, cpu);
	snprintf(path, sizeof(path), "%sscaling_max_freq", cf);
	c->max_khz = read_long_or_unknown(path, cpu);
	snprintf(path, sizeof(path), "%sbase_frequency", cf);
	c->base_khz = read_long_or_unknown(path, cpu);
	c->core_throttle = read_long_or_unknown(
		"/sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count", cpu);
	c->pkg_throttle = read_long_or_unknown(
		"/sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count", cpu);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* cpuN directories under the root, when there is no "online" file */
static int scan_cpu_dirs(int *cpus, int max)
{
	char path[4096];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	if (pb_sys_path(path, sizeof(path), "/sys/devices/system/cpu") < 0)
		return -1;
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)) && n < max) {
		char *end;
		long v;

		if (strncmp(d->d_name, "cpu", 3) || !isdigit((unsigned char)d->d_name[3]))
			continue;
		v = strtol(d->d_name + 3, &end, 10);
		if (!*end)
			cpus[n++] = (int)v;
	}
	closedir(dir);
	qsort(cpus, n, sizeof(*cpus), cmp_int);
	return n;
}

#define PB_ENV_MAX_CPUS	8192

static int online_cpus(int **out)
{
	char buf[4096];
	int *cpus = malloc(PB_ENV_MAX_CPUS * sizeof(*cpus));
	int n = -1;

	if (!cpus)
		return -1;
	if (pb_sys_read(buf, sizeof(buf), "/sys/devices/system/cpu/online") > 0)
		n = pb_cpulist_parse(buf, cpus, PB_ENV_MAX_CPUS);
	if (n <= 0)
		n = scan_cpu_dirs(cpus, PB_ENV_MAX_CPUS);
	if (n <= 0 && !*pb_sys_root()) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		for (n = 0; n < c && n < PB_ENV_MAX_CPUS; n++)
			cpus[n] = n;
	}
	if (n < 0)
		n = 0;
	*out = cpus;
	return n;
}

/* The common string of every CPU, "mixed", or "" when none is known. */
static void summarise_str(char *dst, size_t len, const struct pb_env *e, size_t off)
{
	const char *first = NULL;
	int i;

	dst[0] = '\0';
	for (i = 0; i < e->nr_cpus; i++) {
		const char *s = (const char *)&e->cpu[i] + off;

		if (!first) {
			first = s;
		} else if (strcmp(first, s)) {
			snprintf(dst, len, "mixed");
			return;
		}
	}
	if (first)
		snprintf(dst, len, "%s", first);
}

static long summarise_long(const struct pb_env *e, size_t off)
{
	long v = PB_ENV_UNKNOWN;
	int i;

	for (i = 0; i < e->nr_cpus; i++) {
		long x = *(const long *)((const char *)&e->cpu[i] + off);

		if (i == 0)
			v = x;
		else if (x != v)
			return PB_ENV_UNKNOWN;
	}
	return v;
}

static int read_flag(const char *path)
{
	long v;

	if (pb_sys_read_long(&v, "%s", path))
		return PB_ENV_UNKNOWN;
	return v != 0;
}

static bool pmu_has_type(const char *name)
{
	long t;

	return !pb_sys_read_long(&t, "/sys/bus/event_source/devices/%s/type", name);
}

static void collect_pmu(struct pb_env *e)
{
	char path[4096];
	bool core = pmu_has_type("cpu_core"), atom = pmu_has_type("cpu_atom");

	e->pmu_name[0] = '\0';
	if (pmu_has_type("cpu"))
		snprintf(e->pmu_name, sizeof(e->pmu_name), "cpu");
	else if (core || atom)
		snprintf(e->pmu_name, sizeof(e->pmu_name), "%s%s%s", core ? "cpu_core" : "",
			 core && atom ? "+" : "", atom ? "cpu_atom" : "");
	if (e->pmu_name[0])
		e->pmu = 1;
	else if (!pb_sys_path(path, sizeof(path), "/sys/bus/event_source/devices") &&
		 !access(path, F_OK))
		e->pmu = 0;
	else
		e->pmu = PB_ENV_UNKNOWN;
}

/* "model name" and the "hypervisor" flag of the first CPU in /proc/cpuinfo */
static void collect_cpuinfo(struct pb_env *e)
{
	char flags[4096];

	if (pb_cpuinfo_field("model name", e->model, sizeof(e->model)))
		e->model[0] = '\0';
	e->hypervisor = PB_ENV_UNKNOWN;
	if (!pb_cpuinfo_field("flags", flags, sizeof(flags)))
		e->hypervisor = pb_cpuinfo_flag(flags, "hypervisor");
}

/* the value of key= on the kernel command line, or "" */
static void cmdline_value(const char *cmdline, const char *key, char *dst, size_t len)
{
	size_t kl = strlen(key);
	const char *p = cmdline;

	dst[0] = '\0';
	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(dst, len, "%.*s", (int)strcspn(p + kl + 1, " \n"), p + kl + 1);
			return;
		}
		p = strchr(p, ' ');
	}
}

static void collect_tracefs(struct pb_env *e)
{
	char path[512];
	struct stat st;

	if (!pb_tracefs_events(e->tracefs, sizeof(e->tracefs)))
		e->tracefs[0] = '\0';
	e->sys_kernel = !pb_sys_path(path, sizeof(path), "/sys/kernel") && !stat(path, &st);
}

static void collect_isolation(struct pb_env *e)
{
	const char *cmd = e->cmdline;

	e->isolated_known = pb_sys_read(e->isolated, sizeof(e->isolated),
					"/sys/devices/system/cpu/isolated") >= 0;
	if (!e->isolated_known)
		e->isolated[0] = '\0';
	if (pb_sys_read(e->nohz_full, sizeof(e->nohz_full),
			"/sys/devices/system/cpu/nohz_full") < 0)
		e->nohz_full[0] = '\0';
	if (!strcmp(e->nohz_full, "(null)"))
		e->nohz_full[0] = '\0';
	e->cmdline_known = pb_sys_read(e->cmdline, sizeof(e->cmdline), "/proc/cmdline") >= 0;
	if (!e->cmdline_known)
		e->cmdline[0] = '\0';
	cmdline_value(e->cmdline_known ? cmd : "", "isolcpus", e->cmd_isolcpus,
		      sizeof(e->cmd_isolcpus));
	cmdline_value(e->cmdline_known ? cmd : "", "nohz_full", e->cmd_nohz_full,
		      sizeof(e->cmd_nohz_full));
}

static int cmp_vuln(const void *a, const void *b)
{
	return strcmp(((const struct pb_env_vuln *)a)->name, ((const struct pb_env_vuln *)b)->name);
}

/* Every /sys/devices/system/cpu/vulnerabilities/<name>; -1 when out of memory. */
static int collect_vulns(struct pb_env *e)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	char path[4096];
	struct dirent *d;
	int cap = 0, rc = 0;
	DIR *dp;

	if (pb_sys_path(path, sizeof(path), "%s", dir) < 0 || !(dp = opendir(path)))
		return 0;
	e->vuln_known = true;
	while (!rc && (d = readdir(dp))) {
		struct pb_env_vuln *v;

		if (d->d_name[0] == '.' || strlen(d->d_name) >= sizeof(v->name))
			continue;
		v = pb_grow(e->vuln, e->nr_vuln, &cap, sizeof(*v));
		if (!v) {
			rc = -1;
			break;
		}
		e->vuln = v;
		v = &e->vuln[e->nr_vuln];
		memcpy(v->name, d->d_name, strlen(d->d_name) + 1);	/* fits: checked above */
		if (pb_sys_read(v->text, sizeof(v->text), "%s/%s", dir, d->d_name) >= 0)
			e->nr_vuln++;	/* a folder or an unreadable file: left out */
	}
	closedir(dp);
	if (e->nr_vuln)
		qsort(e->vuln, (size_t)e->nr_vuln, sizeof(*e->vuln), cmp_vuln);
	return rc;
}

/* The [bracketed] choice of a sysfs "always [madvise] never" file, or "". */
static void bracketed(char *dst, size_t len, const char *path)
{
	char buf[256], *a, *b;

	dst[0] = '\0';
	if (pb_sys_read(buf, sizeof(buf), "%s", path) < 0)
		return;
	a = strchr(buf, '[');
	b = a ? strchr(a, ']') : NULL;
	if (b) {
		a++;
		*b = '\0';
	} else {	/* one word, no choice offered */
		a = buf;
	}
	if ((size_t)snprintf(dst, len, "%s", a) >= len)
		dst[0] = '\0';	/* no kernel has such a choice: unknown, not cut */
}

/*
 * microcode (cpuinfo, cpu0/microcode/version), transparent huge pages and
 * cpuidle: the idle driver decides what a wake-up costs (a deep C-state's
 * exit, a guest's haltpoll polling before it halts).
 */
static void collect_kernel(struct pb_env *e)
{
	if (pb_cpuinfo_field("microcode", e->microcode, sizeof(e->microcode)))
		e->microcode[0] = '\0';
	if (pb_sys_read(e->microcode_version, sizeof(e->microcode_version),
			"/sys/devices/system/cpu/cpu0/microcode/version") < 0)
		e->microcode_version[0] = '\0';
	bracketed(e->thp_enabled, sizeof(e->thp_enabled),
		  "/sys/kernel/mm/transparent_hugepage/enabled");
	bracketed(e->thp_defrag, sizeof(e->thp_defrag),
		  "/sys/kernel/mm/transparent_hugepage/defrag");
	if (pb_sys_read(e->cpuidle_driver, sizeof(e->cpuidle_driver),
			"/sys/devices/system/cpu/cpuidle/current_driver") < 0)
		e->cpuidle_driver[0] = '\0';
	if (pb_sys_read(e->cpuidle_governor, sizeof(e->cpuidle_governor),
			"/sys/devices/system/cpu/cpuidle/current_governor") < 0 &&
	    pb_sys_read(e->cpuidle_governor, sizeof(e->cpuidle_governor),
			"/sys/devices/system/cpu/cpuidle/current_governor_ro") < 0)
		e->cpuidle_governor[0] = '\0';
}

static void collect_global(struct pb_env *e)
{
	long v;

	e->boost = read_flag("/sys/devices/system/cpu/cpufreq/boost");
	e->no_turbo = read_flag("/sys/devices/system/cpu/intel_pstate/no_turbo");
	e->nmi_watchdog = read_flag("/proc/sys/kernel/nmi_watchdog");
	e->paranoid_known = !pb_sys_read_long(&v, "/proc/sys/kernel/perf_event_paranoid");
	e->paranoid = e->paranoid_known ? (int)v : 0;
	if (pb_sys_read(e->smt_control, sizeof(e->smt_control),
			"/sys/devices/system/cpu/smt/control") < 0)
		e->smt_control[0] = '\0';
	e->smt_active = read_flag("/sys/devices/system/cpu/smt/active");
	collect_pmu(e);
	collect_cpuinfo(e);
	collect_isolation(e);
	collect_tracefs(e);
	collect_kernel(e);
}

int pb_env_collect(struct pb_env *e, char *err, size_t len)
{
	int *cpus = NULL;
	int i, n;

	memset(e, 0, sizeof(*e));
	n = online_cpus(&cpus);
	if (n < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	e->cpu = calloc(n ? n : 1, sizeof(*e->cpu));
	if (!e->cpu) {
		free(cpus);
		snprintf(err, len, "out of memory");
		return -1;
	}
	e->nr_cpus = n;
	for (i = 0; i < n; i++)
		collect_cpu(&e->cpu[i], cpus[i]);
	free(cpus);
	summarise_str(e->governor, sizeof(e->governor), e,
		      offsetof(struct pb_env_cpu, governor));
	summarise_str(e->driver, sizeof(e->driver), e, offsetof(struct pb_env_cpu, driver));
	e->min_khz = summarise_long(e, offsetof(struct pb_env_cpu, min_khz));
	e->max_khz = summarise_long(e, offsetof(struct pb_env_cpu, max_khz));
	collect_global(e);
	if (collect_vulns(e)) {
		pb_env_free(e);
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}

void pb_env_free(struct pb_env *e)
{
	free(e->cpu);
	e->cpu = NULL;
	e->nr_cpus = 0;
	free(e->vuln);
	e->vuln = NULL;
	e->nr_vuln = 0;
}

const char *pb_paranoid_words(int level)
{
	if (level <= -1)
		return "nothing: all events, tracepoints and CPU-wide counting allowed";
	if (level == 0)
		return "raw tracepoint access for unprivileged users";
	if (level == 1)
		return "CPU-wide (system-wide) counting for unprivileged users";
	if (level == 2)
		return "kernel-side counting and CPU-wide counting for unprivileged users";
	return "every perf_event_open for unprivileged users";
}

long pb_env_throttle_total(const struct pb_env *e)
{
	long t = PB_ENV_UNKNOWN;
	int i;

	for (i = 0; i < e->nr_cpus; i++) {
		if (e->cpu[i].core_throttle >= 0)
			t = (t < 0 ? 0 : t) + e->cpu[i].core_throttle;
		if (e->cpu[i].pkg_throttle >= 0)
			t = (t < 0 ? 0 : t) + e->cpu[i].pkg_throttle;
	}
	return t;
}

static json_t *jstr_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static json_t *jlong_or_null(long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *jbool_or_null(int v)
{
	return v >= 0 ? json_boolean(v) : json_null();
}

static json_t *per_cpu_json(const struct pb_env *e, bool strs)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < e->nr_cpus && arr; i++) {
		const struct pb_env_cpu *c = &e->cpu[i];
		json_t *o;

		if (strs)
			o = json_pack("{s:i,s:o,s:o,s:o,s:o}", "cpu", c->cpu,
				      "governor", jstr_or_null(c->governor),
				      "driver", jstr_or_null(c->driver),
				      "min_khz", jlong_or_null(c->min_khz),
				      "max_khz", jlong_or_null(c->max_khz));
		else
			o = json_pack("{s:i,s:o,s:o}", "cpu", c->cpu,
				      "core", jlong_or_null(c->core_throttle),
				      "package", jlong_or_null(c->pkg_throttle));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *env_cpufreq_json(const struct pb_env *e)
{
	json_t *o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			      "governor", jstr_or_null(e->governor),
			      "scaling_driver", jstr_or_null(e->driver),
			      "min_khz", jlong_or_null(e->min_khz),
			      "max_khz", jlong_or_null(e->max_khz),
			      "base_khz", jlong_or_null(e->nr_cpus ? e->cpu[0].base_khz : -1),
			      "boost", jbool_or_null(e->boost),
			      "intel_pstate_no_turbo", jbool_or_null(e->no_turbo));
	bool mixed = !strcmp(e->governor, "mixed") || !strcmp(e->driver, "mixed") ||
		     (e->min_khz < 0 && e->cpu && e->nr_cpus && e->cpu[0].min_khz >= 0) ||
		     (e->max_khz < 0 && e->cpu && e->nr_cpus && e->cpu[0].max_khz >= 0);

	if (o && mixed)
		json_object_set_new(o, "per_cpu", per_cpu_json(e, true));
	return o;
}

static json_t *vulns_json(const struct pb_env *e)
{
	json_t *o;

	if (!e->vuln_known)
		return json_null();
	o = json_object();
	for (int i = 0; o && i < e->nr_vuln; i++)
		json_object_set_new(o, e->vuln[i].name, json_string(e->vuln[i].text));
	return o;
}

/* What reviewers ask about first: cmdline, mitigations, microcode, THP, cpuidle. */
static void kernel_json(const struct pb_env *e, json_t *o)
{
	json_object_set_new(o, "cmdline", e->cmdline_known ? json_string(e->cmdline) :
			    json_null());
	json_object_set_new(o, "vulnerabilities", vulns_json(e));
	json_object_set_new(o, "microcode", json_pack("{s:o,s:o}",
			    "cpuinfo", jstr_or_null(e->microcode),
			    "version", jstr_or_null(e->microcode_version)));
	json_object_set_new(o, "thp", json_pack("{s:o,s:o}",
			    "enabled", jstr_or_null(e->thp_enabled),
			    "defrag", jstr_or_null(e->thp_defrag)));
	json_object_set_new(o, "cpuidle", json_pack("{s:o,s:o}",
			    "driver", jstr_or_null(e->cpuidle_driver),
			    "governor", jstr_or_null(e->cpuidle_governor)));
}

json_t *pb_env_json(const struct pb_env *e)
{
	json_t *o = json_pack("{s:s,s:i,s:o,s:o,s:o,s:o,s:{s:o,s:o},s:{s:b,s:o,s:o},"
			 "s:{s:o,s:o},s:{s:o,s:o,s:o,s:o}}",
			 "sysroot", pb_sys_root(),
			 "cpus", e->nr_cpus,
			 "model", jstr_or_null(e->model),
			 "cpufreq", env_cpufreq_json(e),
			 "thermal_throttle", per_cpu_json(e, false),
			 "nmi_watchdog", jbool_or_null(e->nmi_watchdog),
			 "perf_event_paranoid",
			 "level", e->paranoid_known ? json_integer(e->paranoid) : json_null(),
			 "forbids", e->paranoid_known ?
				 json_string(pb_paranoid_words(e->paranoid)) : json_null(),
			 "pmu", "present", e->pmu == 1,
			 "name", jstr_or_null(e->pmu_name),
			 "virtualised", jbool_or_null(e->hypervisor),
			 "smt", "control", jstr_or_null(e->smt_control),
			 "active", jbool_or_null(e->smt_active),
			 "isolation", "isolated", json_string(e->isolated),
			 "nohz_full", json_string(e->nohz_full),
			 "cmdline_isolcpus", jstr_or_null(e->cmd_isolcpus),
			 "cmdline_nohz_full", jstr_or_null(e->cmd_nohz_full));

	if (o)
		kernel_json(e, o);
	return o;
}

/* ---- per-CPU busy time ---- */

static void cpustat_line(const char *line, struct pb_cpustat *s, double ns_per_tick)
{
	unsigned long long v[8] = { 0 };

	/* user nice system idle iowait irq softirq steal */
	if (sscanf(line, "%*s %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
		return;
	s->known = true;
	s->busy_ns = (uint64_t)((v[0] + v[1] + v[2] + v[5] + v[6]) * ns_per_tick);
	s->idle_ns = (uint64_t)((v[3] + v[4]) * ns_per_tick);
	s->steal_ns = (uint64_t)(v[7] * ns_per_tick);
	s->irq_ns = (uint64_t)((v[5] + v[6]) * ns_per_tick);
}

static const char *next_line(const char *s)
{
	s = strchr(s, '\n');
	return s ? s + 1 : NULL;
}

int pb_cpustat_parse(const char *procstat, const int *cpus, int n, struct pb_cpustat *out)
{
	long hz = sysconf(_SC_CLK_TCK);
	double ns_per_tick = 1e9 / (hz > 0 ? hz : 100);
	const char *line;
	int i;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].cpu = cpus[i];
	}
	for (line = procstat; line && *line; line = next_line(line)) {
		long cpu;

		if (strncmp(line, "cpu", 3))
			continue;
		if (isdigit((unsigned char)line[3]))
			cpu = strtol(line + 3, NULL, 10);
		else if (line[3] == ' ')
			cpu = -1;	/* the machine's total */
		else
			continue;
		for (i = 0; i < n; i++)
			if (cpus[i] == cpu)
				cpustat_line(line, &out[i], ns_per_tick);
	}
	return 0;
}

int pb_cpustat_snapshot(const int *cpus, int n, struct pb_cpustat *out)
{
	size_t len = 1 << 20;		/* /proc/stat of a few thousand CPUs */
	char *buf = malloc(len);
	int i;

	if (!buf || pb_sys_read(buf, len, "/proc/stat") < 0) {
		free(buf);
		for (i = 0; i < n; i++) {
			memset(&out[i], 0, sizeof(out[i]));
			out[i].cpu = cpus[i];
			out[i].core_throttle = out[i].pkg_throttle = PB_ENV_UNKNOWN;
		}
		return -1;
	}
	pb_cpustat_parse(buf, cpus, n, out);
	free(buf);
	for (i = 0; i < n; i++) {
		if (cpus[i] < 0) {
			out[i].core_throttle = out[i].pkg_throttle = PB_ENV_UNKNOWN;
			continue;
		}
		out[i].core_throttle = read_long_or_unknown(
			"/sys/devices/system/cpu/cpu%d/thermal_throttle/core_throttle_count",
			cpus[i]);
		out[i].pkg_throttle = read_long_or_unknown(
			"/sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count",
			cpus[i]);
	}
	return 0;
}

bool pb_perf_privileged(void)
{
	char line[256];
	bool priv = geteuid() == 0;
	FILE *f = fopen("/proc/self/status", "r");	/* this process: never the sysroot */

	while (f && !priv && fgets(line, sizeof(line), f)) {
		unsigned long long cap;

		if (sscanf(line, "CapEff: %llx", &cap) == 1)
			priv = (cap >> 38 & 1) || (cap >> 21 & 1);	/* PERFMON, SYS_ADMIN */
	}
	if (f)
		fclose(f);
	return priv;
}
