// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probe, the nominal clock and the checks on recorded figures: the
 * 2009 E5450 (3.00 GHz rated, 2.0 GHz counted, getppid loop 0.818 s ->
 * 1.122 s), drift and low clocks.
 */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "env.h"
#include "probe.h"
#include "anomaly_fixture.h"

static void test_nominal_from_model(void **state)
{
	double mhz = 0;

	(void)state;
	assert_int_equal(pb_nominal_from_model("Intel(R) Xeon(R) CPU E5450  @ 3.00GHz", &mhz), 0);
	assert_true(fabs(mhz - 3000) < 1e-9);
	assert_int_equal(pb_nominal_from_model("Some CPU @ 2400 MHz", &mhz), 0);
	assert_true(fabs(mhz - 2400) < 1e-9);
	assert_int_equal(pb_nominal_from_model("AMD EPYC 7B13 64-Core Processor", &mhz), -1);
	assert_int_equal(pb_nominal_from_model("Intel(R) Xeon(R) Processor", &mhz), -1);
	assert_int_equal(pb_nominal_from_model("odd @ fast", &mhz), -1);
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_nominal_sources(void **state)
{
	char dir[] = "/tmp/pb-probe-XXXXXX", cmd[64];
	struct pb_nominal n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "proc/cpuinfo", "processor\t: 0\nmodel name\t: X CPU @ 3.00GHz\n"
		   "flags\t\t: fpu tsc constant_tsc\n");
	setenv(PB_SYSROOT_ENV, dir, 1);
	assert_int_equal(pb_nominal_detect(0, &n), 0);
	assert_string_equal(n.source, "model-name");
	assert_true(fabs(n.mhz - 3000) < 1e-9);
	/* base_frequency comes first */
	write_file(dir, "sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "2100000\n");
	assert_int_equal(pb_nominal_detect(0, &n), 0);
	assert_string_equal(n.source, "base_frequency");
	assert_true(fabs(n.mhz - 2100) < 1e-9);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	unsetenv(PB_SYSROOT_ENV);
}

/* This machine: some source must answer (on x86-64: at least the TSC). */
static void test_nominal_this_machine(void **state)
{
	struct pb_nominal n;
	json_t *j;

	(void)state;
	unsetenv(PB_SYSROOT_ENV);
	assert_int_equal(pb_nominal_detect(0, &n), 0);
	assert_true(n.mhz > 100 && n.mhz < 10000);
	assert_string_not_equal(n.source, "unknown");
	j = pb_nominal_json(&n);
	assert_string_equal(json_string_value(json_object_get(j, "source")), n.source);
	json_decref(j);
}

static void test_drift(void **state)
{
	struct pb_anomalies a = { 0 };

	(void)state;
	assert_false(pb_check_drift(0, 3000, 2950, &a));	/* -1.7 % */
	assert_false(pb_check_drift(0, 3000, 3090, &a));	/* +3.0 % */
	assert_false(pb_check_drift(0, 0, 2000, &a));		/* unknown */
	assert_true(pb_check_drift(2, 3000, 2850, &a));		/* -5 % */
	assert_true(pb_check_drift(2, 2000, 3000, &a));		/* +50 % */
	assert_int_equal(a.nr, 2);
	assert_true(has_kind(&a, "frequency-drift", PB_SEV_WARN));
	assert_non_null(strstr(a.v[0].message, "3000 MHz before"));
	assert_non_null(strstr(a.v[0].message, "2850 MHz after"));
	assert_non_null(strstr(a.v[0].message, "-5.0 %"));
	pb_anomalies_free(&a);
}

static void test_low(void **state)
{
	struct pb_nominal nom = { 3000, "model-name" };
	struct pb_anomalies a = { 0 };

	(void)state;
	assert_false(pb_check_low(0, 2700, &nom, &a));	/* exactly 10 % */
	assert_false(pb_check_low(0, 4000, &nom, &a));	/* turbo */
	assert_false(pb_check_low(0, 0, &nom, &a));
	assert_true(pb_check_low(1, 2600, &nom, &a));
	assert_true(has_kind(&a, "frequency-low", PB_SEV_WARN));
	pb_anomalies_free(&a);
	assert_true(pb_check_low(1, 2000, &nom, &a));	/* the 2009 E5450 */
	assert_true(has_kind(&a, "frequency-low", PB_SEV_ERROR));
	assert_non_null(strstr(a.v[0].message, "33.3 % below"));
	assert_non_null(strstr(a.v[0].message, "model-name"));
	pb_anomalies_free(&a);
}

static void test_clock_verdict(void **state)
{
	/* 2009: 160.7e9 cycles over 8 CPUs' 80,320 ms; probe says 3.0 GHz */
	struct pb_clock_fig f = { .cpu = 0, .nominal_mhz = 3000, .probe_mhz = 3000,
				  .cycles = 160.7e9, .task_ns = 80.32e9 };
	struct pb_anomalies a = { 0 };
	double eff;

	(void)state;
	assert_int_equal(pb_check_clock(&f, &a, &eff), PB_CLOCK_COUNTS_WRONG);
	assert_true(fabs(eff - 2000.75) < 1);
	assert_true(has_kind(&a, "counter-clock-mismatch", PB_SEV_ERROR));
	assert_non_null(strstr(a.v[0].message, "the counts are wrong"));
	assert_non_null(strstr(a.v[0].message, "2001 MHz (cycles/task-clock), the probe 3000"));
	pb_anomalies_free(&a);
	/* the machine really slowed down: the probe agrees with the counts */
	f.probe_mhz = 2010;
	assert_int_equal(pb_check_clock(&f, &a, &eff), PB_CLOCK_CHANGED);
	assert_int_equal(a.nr, 0);
	assert_non_null(strstr(pb_clock_verdict_str(PB_CLOCK_CHANGED), "clock changed"));
	/* all agree */
	f.cycles = 2.99e9 * 80.32;
	f.probe_mhz = 3000;
	assert_int_equal(pb_check_clock(&f, &a, &eff), PB_CLOCK_OK);
	/* ref-cycles say otherwise: cycles / ref * nominal = 2400 */
	f.ref_cycles = f.cycles / 0.8;
	assert_int_equal(pb_check_clock(&f, &a, &eff), PB_CLOCK_COUNTS_WRONG);
	assert_non_null(strstr(a.v[0].message, "ref-cycles"));
	pb_anomalies_free(&a);
	/* no probe, no verdict */
	f.probe_mhz = 0;
	assert_int_equal(pb_check_clock(&f, &a, NULL), PB_CLOCK_UNKNOWN);
	assert_int_equal(a.nr, 0);
}

static void test_observer(void **state)
{
	struct pb_anomalies a = { 0 };

	(void)state;
	assert_false(pb_check_observer(0, 0.818, 0.850, &a));	/* +3.9 % */
	assert_false(pb_check_observer(0, 0.818, 0.700, &a));	/* faster */
	assert_false(pb_check_observer(0, 0, 1.0, &a));
	assert_true(pb_check_observer(3, 0.818, 1.122, &a));	/* 2009 */
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "observer-effect", PB_SEV_ERROR));
	assert_non_null(strstr(a.v[0].message, "0.818 s"));
	assert_non_null(strstr(a.v[0].message, "1.122 s"));
	assert_non_null(strstr(a.v[0].message, "+37.2 %"));
	pb_anomalies_free(&a);
	assert_true(pb_check_observer(0, 1.0, 1.08, &a));	/* +8 %: warn */
	assert_true(has_kind(&a, "observer-effect", PB_SEV_WARN));
	pb_anomalies_free(&a);
}

/*
 * The probe's own stability on this machine: two quiet probes of the same
 * CPU agree within 3 %.  The machine is shared: up to 4 attempts.
 */
static void test_probe_stability(void **state)
{
	struct pb_probe p1, p2;
	char err[256];
	double d = 1;
	int cpu = sched_getcpu(), tries;
	json_t *j;

	(void)state;
	if (!pb_probe_available())
		skip();
	for (tries = 0; tries < 4 && d > 0.03; tries++) {
		assert_int_equal(pb_probe_cpu(cpu, &p1, err, sizeof(err)), 0);
		assert_int_equal(pb_probe_cpu(cpu, &p2, err, sizeof(err)), 0);
		d = fabs(p1.mhz - p2.mhz) / fmax(p1.mhz, p2.mhz);
		print_message("# cpu%d probe %.0f / %.0f MHz, spread %.2f %%, "
			      "add vs imul %.2f %%\n", cpu, p1.mhz, p2.mhz, 100 * d,
			      100 * p1.spread);
	}
	assert_true(d <= 0.03);
	assert_int_equal(p1.cpu, cpu);
	assert_true(p1.mhz > 100 && p1.mhz < 10000);
	assert_true(p1.imul_mhz > 100 && p1.spread >= 0 && p1.spread < 1);
	j = pb_probe_json(&p1);
	assert_true(json_real_value(json_object_get(j, "mhz")) == p1.mhz);
	json_decref(j);
}

static void test_probe_bad_cpu(void **state)
{
	struct pb_probe p;
	char err[256] = "";
	double s;

	(void)state;
	if (!pb_probe_available())
		skip();
	assert_int_equal(pb_probe_cpu(100000, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "100000"));
	assert_int_equal(pb_observer_time(100000, &s, err, sizeof(err)), -1);
}

static void test_observer_time(void **state)
{
	char err[256];
	double s = 0;

	(void)state;
	assert_int_equal(pb_observer_time(sched_getcpu(), &s, err, sizeof(err)), 0);
	assert_true(s > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nominal_from_model),
		cmocka_unit_test(test_nominal_sources),
		cmocka_unit_test(test_nominal_this_machine),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_low),
		cmocka_unit_test(test_clock_verdict),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_probe_stability),
		cmocka_unit_test(test_probe_bad_cpu),
		cmocka_unit_test(test_observer_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
