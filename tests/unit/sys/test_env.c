// SPDX-License-Identifier: GPL-2.0-only
/* Environment collection under fake roots, per-CPU busy time, job checks. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sys/env.h"
#include "checks/envcheck.h"
#include "sys/others.h"
#include "anomaly_fixture.h"
#include "fs_fixture.h"

/* tests/sysroot/<name>, from the repo root or from tests/ */
static void use_root(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/sysroot/%s", name);
	if (access(path, F_OK))
		snprintf(path, sizeof(path), "sysroot/%s", name);
	setenv(PB_SYSROOT_ENV, path, 1);
}

static void collect(const char *name, struct pb_env *e)
{
	char err[128];

	use_root(name);
	assert_int_equal(pb_env_collect(e, err, sizeof(err)), 0);
}

static const struct pb_check *find_check(const struct pb_check *c, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return &c[i];
	fail_msg("no check %s", name);
	return NULL;
}

static void test_sys_path(void **state)
{
	char buf[256];
	long v;

	(void)state;
	setenv(PB_SYSROOT_ENV, "/x/y", 1);
	assert_int_equal(pb_sys_path(buf, sizeof(buf), "/proc/%s", "stat"), 0);
	assert_string_equal(buf, "/x/y/proc/stat");
	assert_int_equal(pb_sys_path(buf, 8, "/proc/%s", "stat"), -1);
	unsetenv(PB_SYSROOT_ENV);
	assert_int_equal(pb_sys_path(buf, sizeof(buf), "/sys/%d", 3), 0);
	assert_string_equal(buf, "/sys/3");
	use_root("good");
	assert_int_equal(pb_sys_read(buf, sizeof(buf), "/proc/sys/kernel/nmi_watchdog"), 1);
	assert_string_equal(buf, "0");
	assert_int_equal(pb_sys_read(buf, sizeof(buf), "/proc/no/such/file"), -1);
	assert_int_equal(pb_sys_read_long(&v, "/sys/bus/event_source/devices/cpu/type"), 0);
	assert_int_equal(v, 4);
	assert_int_equal(pb_sys_read_long(&v, "/proc/cmdline"), -1);	/* not a number */
}

static void test_cpulist(void **state)
{
	int c[16];

	(void)state;
	assert_int_equal(pb_cpulist_parse("0-3,8,10-11\n", c, 16), 7);
	assert_int_equal(c[3], 3);
	assert_int_equal(c[4], 8);
	assert_int_equal(c[6], 11);
	assert_int_equal(pb_cpulist_parse("", c, 16), 0);
	assert_int_equal(pb_cpulist_parse("3-1", c, 16), -1);
	assert_int_equal(pb_cpulist_parse("0-20", c, 16), -1);
	assert_int_equal(pb_cpulist_parse("1,x", c, 16), -1);
}

static void test_collect_good(void **state)
{
	struct pb_check c[16];
	struct pb_env e;
	int i, n;

	(void)state;
	collect("good", &e);
	assert_int_equal(e.nr_cpus, 2);
	assert_int_equal(e.cpu[1].cpu, 1);
	assert_string_equal(e.governor, "performance");
	assert_string_equal(e.driver, "intel_pstate");
	assert_int_equal(e.min_khz, 2000000);
	assert_int_equal(e.max_khz, 3000000);
	assert_int_equal(e.no_turbo, 1);
	assert_int_equal(e.boost, PB_ENV_UNKNOWN);
	assert_int_equal(e.nmi_watchdog, 0);
	assert_true(e.paranoid_known);
	assert_int_equal(e.paranoid, 0);
	assert_int_equal(e.pmu, 1);
	assert_string_equal(e.pmu_name, "cpu");
	assert_int_equal(e.hypervisor, 0);
	assert_string_equal(e.smt_control, "off");
	assert_int_equal(e.smt_active, 0);
	assert_string_equal(e.isolated, "1");
	assert_string_equal(e.cmd_isolcpus, "1");
	assert_string_equal(e.cmd_nohz_full, "1");
	assert_non_null(strstr(e.model, "E5450"));
	assert_int_equal(pb_env_throttle_total(&e), 0);
	assert_non_null(strstr(e.tracefs, "sysroot/good/sys/kernel/tracing/events"));
	n = pb_env_checks(&e, false, c, 16);
	assert_int_equal(n, 9);
	assert_string_equal(c[8].name, "tracepoints");
	for (i = 0; i < n; i++) {
		assert_int_equal(c[i].status, PB_CHECK_OK);
		assert_string_equal(c[i].fix, "");
	}
	pb_env_free(&e);
}

static void test_governor_tree(void **state)
{
	struct pb_anomalies a = { 0 };
	struct pb_check c[16];
	const struct pb_check *g;
	struct pb_env e;
	int n;

	(void)state;
	collect("governor", &e);
	assert_string_equal(e.governor, "powersave");
	n = pb_env_checks(&e, true, c, 16);
	g = find_check(c, n, "governor");
	assert_int_equal(g->status, PB_CHECK_FAIL);
	assert_non_null(strstr(g->figure, "powersave"));
	assert_non_null(strstr(g->fix, "cpupower frequency-set -g performance"));
	pb_env_anomalies(&e, true, &a);
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "env-governor", PB_SEV_ERROR));
	pb_anomalies_free(&a);
	pb_env_free(&e);
}

static void test_throttling_tree(void **state)
{
	struct pb_check c[16];
	const struct pb_check *t;
	struct pb_env e;
	int n;

	(void)state;
	collect("throttling", &e);
	assert_int_equal(e.cpu[0].core_throttle, 17);
	assert_int_equal(e.cpu[0].pkg_throttle, 5);
	assert_int_equal(pb_env_throttle_total(&e), 22);
	n = pb_env_checks(&e, true, c, 16);
	t = find_check(c, n, "throttling");
	assert_int_equal(t->status, PB_CHECK_WARN);
	assert_non_null(strstr(t->figure, "22"));
	assert_non_null(strstr(t->figure, "cpu0"));
	pb_env_free(&e);
}

static void test_watchdog_tree(void **state)
{
	struct pb_check c[16];
	const struct pb_check *w;
	struct pb_env e;
	int n;

	(void)state;
	collect("watchdog", &e);
	assert_int_equal(e.nmi_watchdog, 1);
	n = pb_env_checks(&e, true, c, 16);
	w = find_check(c, n, "nmi_watchdog");
	assert_int_equal(w->status, PB_CHECK_WARN);
	assert_string_equal(w->fix, "echo 0 > /proc/sys/kernel/nmi_watchdog");
	pb_env_free(&e);
}

static void test_paranoid_tree(void **state)
{
	struct pb_check c[16];
	const struct pb_check *p;
	struct pb_env e;
	int n;

	(void)state;
	collect("paranoid", &e);
	assert_int_equal(e.paranoid, 3);
	n = pb_env_checks(&e, false, c, 16);
	p = find_check(c, n, "perf_event_paranoid");
	assert_int_equal(p->status, PB_CHECK_FAIL);
	assert_non_null(strstr(p->figure, "every perf_event_open"));
	n = pb_env_checks(&e, true, c, 16);
	p = find_check(c, n, "perf_event_paranoid");
	assert_int_equal(p->status, PB_CHECK_OK);
	assert_non_null(strstr(pb_paranoid_words(2), "kernel"));
	assert_non_null(strstr(pb_paranoid_words(1), "CPU-wide"));
	pb_env_free(&e);
}

static void test_mixed_tree(void **state)
{
	struct pb_check c[16];
	struct pb_env e;
	json_t *j;
	int n;

	(void)state;
	collect("mixed", &e);
	assert_string_equal(e.governor, "mixed");
	assert_int_equal(e.max_khz, PB_ENV_UNKNOWN);
	assert_int_equal(e.min_khz, 2000000);
	assert_int_equal(e.pmu, 0);
	assert_string_equal(e.nohz_full, "");	/* "(null)" means none */
	n = pb_env_checks(&e, true, c, 16);
	assert_int_equal(find_check(c, n, "governor")->status, PB_CHECK_WARN);
	assert_non_null(strstr(find_check(c, n, "governor")->figure, "schedutil on 1"));
	assert_int_equal(find_check(c, n, "boost")->status, PB_CHECK_WARN);
	assert_int_equal(find_check(c, n, "pmu")->status, PB_CHECK_WARN);
	assert_int_equal(find_check(c, n, "isolation")->status, PB_CHECK_WARN);
	assert_int_equal(find_check(c, n, "smt")->status, PB_CHECK_OK);
	j = pb_env_json(&e);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(j, "cpufreq"), "governor")), "mixed");
	assert_int_equal(json_array_size(json_object_get(json_object_get(j, "cpufreq"),
							 "per_cpu")), 2);
	assert_false(json_is_true(json_object_get(json_object_get(j, "pmu"), "present")));
	json_decref(j);
	pb_env_free(&e);
}

static void test_empty_tree(void **state)
{
	struct pb_check c[16];
	struct pb_env e;
	json_t *j;
	int i, n;

	(void)state;
	collect("empty", &e);	/* nothing there: unknown, never an error */
	assert_int_equal(e.nr_cpus, 0);
	assert_int_equal(e.nmi_watchdog, PB_ENV_UNKNOWN);
	assert_false(e.paranoid_known);
	assert_int_equal(e.pmu, PB_ENV_UNKNOWN);
	assert_int_equal(pb_env_throttle_total(&e), PB_ENV_UNKNOWN);
	n = pb_env_checks(&e, false, c, 16);
	for (i = 0; i < n; i++)
		assert_int_equal(c[i].status, PB_CHECK_SKIP);
	j = pb_env_json(&e);
	assert_true(json_is_null(json_object_get(j, "nmi_watchdog")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "perf_event_paranoid"),
						 "level")));
	/* missing files are null, not errors */
	assert_true(json_is_null(json_object_get(j, "cmdline")));
	assert_true(json_is_null(json_object_get(j, "vulnerabilities")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "microcode"), "cpuinfo")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "thp"), "enabled")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "smt"), "control")));
	json_decref(j);
	pb_env_free(&e);
}

static void test_env_json_good(void **state)
{
	struct pb_env e;
	json_t *j, *pp;

	(void)state;
	collect("good", &e);
	j = pb_env_json(&e);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(j, "cpufreq"), "governor")), "performance");
	assert_null(json_object_get(json_object_get(j, "cpufreq"), "per_cpu"));
	pp = json_object_get(j, "perf_event_paranoid");
	assert_int_equal(json_integer_value(json_object_get(pp, "level")), 0);
	assert_int_equal(json_array_size(json_object_get(j, "thermal_throttle")), 2);
	assert_true(json_is_false(json_object_get(j, "nmi_watchdog")));
	json_decref(j);
	pb_env_free(&e);
}

static const char *jpath_str(json_t *j, const char *a, const char *b)
{
	json_t *v = json_object_get(j, a);

	return json_string_value(b ? json_object_get(v, b) : v);
}

/* cmdline, vulnerabilities, microcode, THP and cpuidle recorded from the fake tree */
static void test_env_json_kernel(void **state)
{
	json_t *j, *vu;
	struct pb_env e;

	(void)state;
	collect("mitigations", &e);
	assert_int_equal(e.nr_vuln, 3);
	assert_string_equal(e.vuln[0].name, "mds");	/* in name order */
	assert_string_equal(e.vuln[2].name, "spectre_v2");
	j = pb_env_json(&e);
	assert_non_null(j);
	assert_string_equal(jpath_str(j, "cmdline", NULL), "BOOT_IMAGE=/boot/vmlinuz-6.2.0 "
			    "root=/dev/vda1 ro mitigations=auto spectre_v2=retpoline quiet");
	vu = json_object_get(j, "vulnerabilities");
	assert_int_equal(json_object_size(vu), 3);
	assert_string_equal(jpath_str(vu, "spectre_v2", NULL), "Mitigation: Retpolines; "
			    "IBPB: conditional; IBRS_FW; STIBP: disabled; RSB filling");
	assert_string_equal(jpath_str(vu, "meltdown", NULL), "Mitigation: PTI");
	assert_string_equal(jpath_str(vu, "mds", NULL), "Not affected");
	assert_string_equal(jpath_str(j, "microcode", "cpuinfo"), "0x5003604");
	assert_string_equal(jpath_str(j, "microcode", "version"), "0x5003604");
	assert_string_equal(jpath_str(j, "thp", "enabled"), "madvise");
	assert_string_equal(jpath_str(j, "thp", "defrag"), "madvise");
	/* an older kernel: current_governor_ro only */
	assert_string_equal(jpath_str(j, "cpuidle", "driver"), "intel_idle");
	assert_string_equal(jpath_str(j, "cpuidle", "governor"), "menu");
	assert_string_equal(jpath_str(j, "cpufreq", "governor"), "performance");
	assert_string_equal(jpath_str(j, "smt", "control"), "on");
	assert_true(json_is_true(json_object_get(json_object_get(j, "smt"), "active")));
	json_decref(j);
	pb_env_free(&e);

	collect("good", &e);	/* a cmdline and a cpuinfo without microcode, no THP */
	j = pb_env_json(&e);
	assert_non_null(strstr(jpath_str(j, "cmdline", NULL), "isolcpus=1"));
	assert_true(json_is_null(json_object_get(j, "vulnerabilities")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "microcode"), "cpuinfo")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "microcode"), "version")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "thp"), "enabled")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "thp"), "defrag")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "cpuidle"), "driver")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "cpuidle"), "governor")));
	json_decref(j);
	pb_env_free(&e);
}

static void test_cpustat(void **state)
{
	const char *txt = "cpu  10 0 10 10 0 0 0 0\n"
			  "cpu0 100 5 50 500 2 3 1 7 0 0\n"
			  "cpu1 1 0 1 9 0 0 0 0 0 0\nintr 1\n";
	double tick = 1e9 / sysconf(_SC_CLK_TCK);
	int cpus[3] = { 1, 0, 5 }, all = -1;
	struct pb_cpustat s[3];

	(void)state;
	pb_cpustat_parse(txt, &all, 1, s);	/* -1: the machine's total line */
	assert_true(s[0].known);
	assert_int_equal(s[0].busy_ns, (uint64_t)(20 * tick));
	assert_int_equal(s[0].idle_ns, (uint64_t)(10 * tick));
	pb_cpustat_parse(txt, cpus, 3, s);
	assert_true(s[0].known && s[1].known);
	assert_false(s[2].known);
	assert_int_equal(s[1].busy_ns, (uint64_t)(159 * tick));	/* 100+5+50+3+1 */
	assert_int_equal(s[1].idle_ns, (uint64_t)(502 * tick));
	assert_int_equal(s[1].steal_ns, (uint64_t)(7 * tick));
	assert_int_equal(s[0].busy_ns, (uint64_t)(2 * tick));
	use_root("throttling");
	assert_int_equal(pb_cpustat_snapshot(cpus, 2, s), 0);
	assert_int_equal(s[1].core_throttle, 17);
	assert_int_equal(s[0].core_throttle, 0);
	assert_int_equal(s[1].busy_ns, (uint64_t)(151 * tick));
	use_root("empty");
	assert_int_equal(pb_cpustat_snapshot(cpus, 2, s), -1);
	assert_false(s[0].known);
}

/* two CPUs over 1 s: others ran others_s (< 0: unknown); cpu3 throttle count after */
static void job(double others_s, long thr_after, struct pb_anomalies *a, double *frac)
{
	struct pb_cpustat before[2] = {
		{ .cpu = 2, .known = true, .core_throttle = 4, .pkg_throttle = -1 },
		{ .cpu = 3, .known = true, .core_throttle = 4, .pkg_throttle = -1 },
	};
	struct pb_others_delta d = { .ns = others_s * 1e9, .top_pid = 4242,
				     .top_ns = others_s * 1e9 * 0.9, .top_comm = "hog" };
	struct pb_cpustat after[2];

	after[0] = before[0];
	after[1] = before[1];
	after[1].core_throttle = thr_after;
	pb_check_job_cpus(before, after, 2, 1.0, others_s >= 0 ? &d : NULL, a, frac);
}

static void test_noisy_neighbor(void **state)
{
	struct pb_anomalies a = { 0 };
	double frac;

	(void)state;
	job(0, 4, &a, &frac);		/* nobody else ran */
	assert_int_equal(a.nr, 0);
	assert_true(frac >= 0 && frac < 0.001);
	job(0.2, 4, &a, &frac);		/* 0.2 s of 2 s: 10 % */
	assert_true(fabs(frac - 0.10) < 1e-6);
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "noisy-neighbor", PB_SEV_WARN));
	assert_non_null(strstr(a.v[0].message, "10.0 %"));
	assert_non_null(strstr(a.v[0].message, "most: hog (pid 4242) 0.180 s"));
	pb_anomalies_free(&a);
	job(1.0, 4, &a, &frac);		/* 50 % */
	assert_true(has_kind(&a, "noisy-neighbor", PB_SEV_ERROR));
	pb_anomalies_free(&a);
	job(-1, 4, &a, &frac);		/* others unknown: no verdict */
	assert_int_equal(a.nr, 0);
	assert_true(frac < 0);
	job(0.04, 4, &a, &frac);	/* 2 % of the time */
	assert_int_equal(a.nr, 0);
	job(0, 9, &a, &frac);		/* cpu3 throttled 5 times */
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "throttling", PB_SEV_ERROR));
	assert_non_null(strstr(a.v[0].message, "cpu3 core +5"));
	pb_anomalies_free(&a);
}

static void task(const char *dir, int pid, int tid, unsigned long long run_ns,
		 const char *allowed)
{
	char rel[128], text[128];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", pid, tid);
	snprintf(text, sizeof(text), "%llu 1000 3\n", run_ns);
	fixture_write(dir, rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/status", pid, tid);
	snprintf(text, sizeof(text), "Name:\tx\nCpus_allowed_list:\t%s\nvoluntary: 1\n", allowed);
	fixture_write(dir, rel, text);
}

/*
 * A fake /proc of five processes on a 4-CPU machine, the job on CPUs 1,2:
 * a hog pinned to CPU 2 counts in full, a daemon allowed everywhere for
 * half (2 of its 4 CPUs), a kworker of CPU 3 not at all, our own process
 * not at all, a task born in the span with its run time.
 */
/* The boot id: read through the sysroot, trailing newline dropped; missing or not an id: "". */
static void test_boot_id(void **state)
{
	char dir[] = "/tmp/pb-boot-XXXXXX", cmd[64], id[PB_BOOT_ID_LEN] = "x";

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv(PB_SYSROOT_ENV, dir, 1);
	assert_int_equal(pb_boot_id(id, sizeof(id)), -1);
	assert_string_equal(id, "");
	fixture_write(dir, "proc/sys/kernel/random/boot_id",
		      "6d1f0c2e-77aa-4b5e-9c1d-0123456789ab\n");
	assert_int_equal(pb_boot_id(id, sizeof(id)), 0);
	assert_string_equal(id, "6d1f0c2e-77aa-4b5e-9c1d-0123456789ab");
	/* longer than the buffer: cut, so not taken */
	assert_int_equal(pb_boot_id(id, 8), -1);
	assert_string_equal(id, "");
	fixture_write(dir, "proc/sys/kernel/random/boot_id", "0b1e, not an id\n");
	assert_int_equal(pb_boot_id(id, sizeof(id)), -1);
	assert_string_equal(id, "");
	unsetenv(PB_SYSROOT_ENV);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_others(void **state)
{
	char dir[] = "/tmp/pb-others-XXXXXX", cmd[64];
	struct pb_others b = { 0 }, e = { 0 };
	struct pb_others_delta d;
	int cpus[] = { 1, 2 };
	pid_t ours[] = { 50 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	fixture_write(dir, "sys/devices/system/cpu/online", "0-3\n");
	fixture_write(dir, "proc/10/comm", "hog\n");
	task(dir, 10, 10, 1000000000ULL, "2");
	task(dir, 20, 20, 5000000000ULL, "0-3");
	task(dir, 20, 21, 100, "0-3");
	task(dir, 30, 30, 7000000000ULL, "3");
	task(dir, 50, 50, 9000000000ULL, "1");
	setenv(PB_SYSROOT_ENV, dir, 1);
	assert_int_equal(pb_others_snapshot(cpus, 2, ours, 1, &b), 0);
	assert_int_equal(b.nr, 3);	/* 10, 20, 21: 30 has no share, 50 is ours */
	task(dir, 10, 10, 1800000000ULL, "2");		/* +0.8 s */
	task(dir, 20, 20, 5200000000ULL, "0-3");	/* +0.2 s, half of it here */
	task(dir, 30, 30, 9000000000ULL, "3");		/* elsewhere */
	task(dir, 50, 50, 9900000000ULL, "1");		/* ours */
	task(dir, 60, 60, 50000000ULL, "1-2");		/* new: 0.05 s */
	assert_int_equal(pb_others_snapshot(cpus, 2, ours, 1, &e), 0);
	pb_others_diff(&b, &e, 1e9, &d);
	assert_true(fabs(d.ns - (0.8e9 + 0.1e9 + 0.05e9)) < 1);
	assert_int_equal(d.top_pid, 10);
	assert_true(fabs(d.top_ns - 0.8e9) < 1);
	assert_string_equal(d.top_comm, "hog");
	pb_others_free(&b);
	pb_others_free(&e);
	/* no /proc: unknown */
	use_root("empty");
	assert_int_equal(pb_others_snapshot(cpus, 2, ours, 1, &b), -1);
	pb_others_free(&b);
	unsetenv(PB_SYSROOT_ENV);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_cv_and_migration(void **state)
{
	struct pb_anomalies a = { 0 };
	int seen_ok[] = { 1, 1, 1 }, seen_bad[] = { 1, 0, 0, 2 };

	(void)state;
	assert_false(pb_check_cv(0.019, &a));
	assert_false(pb_check_cv(NAN, &a));
	assert_true(pb_check_cv(0.034, &a));
	assert_int_equal(a.nr, 1);
	assert_string_equal(a.v[0].kind, "noisy");
	assert_non_null(strstr(a.v[0].message, "3.40 %"));
	pb_anomalies_free(&a);
	assert_false(pb_check_migration("client", 0, 1, seen_ok, 3, &a));
	assert_true(pb_check_migration("client", 2, 1, seen_bad, 4, &a));
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "migration", PB_SEV_ERROR));
	assert_non_null(strstr(a.v[0].message, "client#2"));
	assert_non_null(strstr(a.v[0].message, "cpu 0,2"));
	pb_anomalies_free(&a);
}

struct hog {
	int		cpu;
	double		seconds;
	volatile int	ran_on;
};

static void *hog_thread(void *v)
{
	struct hog *h = v;
	struct timespec t0, t;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(h->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return NULL;
	h->ran_on = sched_getcpu();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < h->seconds);
	return NULL;
}

/*
 * Real /proc: a CPU hog thread pinned to a "job" CPU, in a process that is
 * not the job's, is somebody else's run time.
 */
static void test_real_hog(void **state)
{
	struct pb_anomalies a = { 0 };
	struct pb_cpustat b, e;
	struct pb_others ob = { 0 }, oe = { 0 };
	struct pb_others_delta d;
	struct hog h = { .cpu = sched_getcpu(), .seconds = 0.4, .ran_on = -1 };
	struct timespec t0, t1;
	pthread_t t;
	struct timespec nap = { 0, 50 * 1000 * 1000 }, span = { 0, 300 * 1000 * 1000 };
	pid_t none = 0;
	double frac, el;

	(void)state;
	unsetenv(PB_SYSROOT_ENV);

	/* the hog runs 0.4 s; the span, 0.3 s of it, while both snapshots see it */
	assert_int_equal(pthread_create(&t, NULL, hog_thread, &h), 0);
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pb_cpustat_snapshot(&h.cpu, 1, &b), 0);
	assert_int_equal(pb_others_snapshot(&h.cpu, 1, &none, 1, &ob), 0);
	nanosleep(&span, NULL);
	assert_int_equal(pb_others_snapshot(&h.cpu, 1, &none, 1, &oe), 0);
	assert_int_equal(pb_cpustat_snapshot(&h.cpu, 1, &e), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(t, NULL);
	assert_int_equal(h.ran_on, h.cpu);
	el = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	pb_others_diff(&ob, &oe, el * 1e9, &d);
	pb_check_job_cpus(&b, &e, 1, el, &d, &a, &frac);
	print_message("# hog on cpu%d: other tasks' share %.1f %%\n", h.cpu, 100 * frac);
	assert_true(frac > PB_NEIGHBOR_WARN);
	assert_true(has_kind(&a, "noisy-neighbor", PB_SEV_WARN) ||
		    has_kind(&a, "noisy-neighbor", PB_SEV_ERROR));
	assert_true(d.top_pid > 0 && d.top_ns > 0);	/* ours, or another hog (CI runs one) */
	pb_anomalies_free(&a);
	pb_others_free(&ob);
	pb_others_free(&oe);
}

/*
 * cpu-steal at the 5 % threshold: 2 CPUs over 1 s, steal of 6 % and 4 %
 * of it (0.12 s and 0.08 s, both above the floor of 3 ticks a CPU).
 */
static void test_steal_threshold(void **state)
{
	struct pb_cpustat before[2] = {
		{ .cpu = 0, .known = true, .core_throttle = -1, .pkg_throttle = -1 },
		{ .cpu = 1, .known = true, .core_throttle = -1, .pkg_throttle = -1 },
	};
	struct pb_cpustat after[2];
	struct pb_anomalies a = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	double frac;

	(void)state;
	assert_true(0.08e9 > PB_NEIGHBOR_TICKS * 2 * 1e9 / (hz > 0 ? hz : 100));
	after[0] = before[0];
	after[1] = before[1];
	after[1].steal_ns = 120000000;	/* 6 % */
	pb_check_job_cpus(before, after, 2, 1.0, NULL, &a, &frac);
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "cpu-steal", PB_SEV_WARN));
	assert_non_null(strstr(a.v[0].message, "6.0 %"));
	pb_anomalies_free(&a);
	after[1].steal_ns = 80000000;	/* 4 % */
	pb_check_job_cpus(before, after, 2, 1.0, NULL, &a, &frac);
	assert_int_equal(a.nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sys_path),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_collect_good),
		cmocka_unit_test(test_governor_tree),
		cmocka_unit_test(test_throttling_tree),
		cmocka_unit_test(test_watchdog_tree),
		cmocka_unit_test(test_paranoid_tree),
		cmocka_unit_test(test_mixed_tree),
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_env_json_good),
		cmocka_unit_test(test_env_json_kernel),
		cmocka_unit_test(test_cpustat),
		cmocka_unit_test(test_noisy_neighbor),
		cmocka_unit_test(test_others),
		cmocka_unit_test(test_boot_id),
		cmocka_unit_test(test_cv_and_migration),
		cmocka_unit_test(test_real_hog),
		cmocka_unit_test(test_steal_threshold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
