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
#include <errno.h>
#include <signal.h>
#include <sys/single_threaded.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "sys/env.h"
#include "sys/probe.h"
#include "checks/clockcheck.h"
#include "anomaly_fixture.h"
#include "fs_fixture.h"

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

static void test_nominal_sources(void **state)
{
	char dir[] = "/tmp/pb-probe-XXXXXX", cmd[64];
	struct pb_nominal n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fixture_write(dir, "proc/cpuinfo", "processor\t: 0\nmodel name\t: X CPU @ 3.00GHz\n"
		   "flags\t\t: fpu tsc constant_tsc\n");
	setenv(PB_SYSROOT_ENV, dir, 1);
	assert_int_equal(pb_nominal_detect(0, &n), 0);
	assert_string_equal(n.source, "model-name");
	assert_true(fabs(n.mhz - 3000) < 1e-9);
	assert_false(n.guest);
	/* base_frequency comes first; the hypervisor flag makes a guest */
	fixture_write(dir, "sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "2100000\n");
	fixture_write(dir, "proc/cpuinfo", "processor\t: 0\nmodel name\t: X CPU @ 3.00GHz\n"
		   "flags\t\t: fpu tsc constant_tsc hypervisor\n");
	assert_int_equal(pb_nominal_detect(0, &n), 0);
	assert_string_equal(n.source, "base_frequency");
	assert_true(fabs(n.mhz - 2100) < 1e-9);
	assert_true(n.guest);
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

/* A probe read as n samples of mhz (with a few off by jitter), from the summariser. */
static struct pb_probe probe_of(int cpu, double mhz, double jitter, double off)
{
	double v[PB_PROBE_SAMPLES];
	struct pb_probe p = { .cpu = cpu };

	for (int i = 0; i < PB_PROBE_SAMPLES; i++)
		v[i] = mhz * (1 + jitter * ((i % 4) - 1.5) / 1.5);
	pb_probe_summarise(&p, v, v, PB_PROBE_SAMPLES, off, 0);
	return p;
}

static struct pb_confirm confirm_of(double mhz, int clean)
{
	struct pb_confirm c = { .nr = PB_CONFIRM_PROBES, .nr_clean = clean, .span_s = 0.42 };

	for (int i = 0; i < PB_CONFIRM_PROBES; i++)
		c.mhz[i] = mhz;
	c.median = clean >= 3 ? mhz : 0;
	c.lo = c.hi = c.median;
	return c;
}

static const struct pb_anomaly *find_kind(const struct pb_anomalies *a, const char *kind)
{
	for (int i = 0; i < a->nr; i++)
		if (!strcmp(a->v[i].kind, kind))
			return &a->v[i];
	return NULL;
}

static void test_probe_summary(void **state)
{
	double v[PB_PROBE_SAMPLES];
	struct pb_probe p;
	char why[200];

	(void)state;
	p = probe_of(0, 3000, 0.001, 0);		/* steady */
	assert_true(fabs(p.mhz - 3000) < 5);
	assert_false(p.disturbed);
	assert_int_equal(p.nr_samples, PB_PROBE_SAMPLES);
	/* a vCPU stall slows three samples: the median does not move */
	for (int i = 0; i < PB_PROBE_SAMPLES; i++)
		v[i] = i < 3 ? 1200 : 3000;
	pb_probe_summarise(&p, v, v, PB_PROBE_SAMPLES, 0, 0);
	assert_true(fabs(p.mhz - 3000) < 1e-9);
	assert_false(p.disturbed);
	/* a host that jitters short samples by +-3 %: the median stands, not disturbed */
	for (int i = 0; i < PB_PROBE_SAMPLES; i++)
		v[i] = 3000 * (1 + 0.03 * ((i * 37 % 96) / 47.5 - 1));
	pb_probe_summarise(&p, v, v, PB_PROBE_SAMPLES, 0, 0);
	assert_true(p.disp > 0.02 && p.disp < 0.05);
	assert_true(fabs(p.mhz - 3000) < 3000 * 0.002);
	assert_false(p.disturbed);
	/* half the samples slow: they disagree, the probe is disturbed */
	for (int i = 0; i < PB_PROBE_SAMPLES; i++)
		v[i] = i % 2 ? 1500 : 3000;
	pb_probe_summarise(&p, v, v, PB_PROBE_SAMPLES, 0, 0);
	assert_true(p.disturbed);
	assert_true(p.disp > 0.4);
	/* agreeing samples, but the probe was off its CPU 30 % of the time */
	p = probe_of(0, 3000, 0, 0.30);
	assert_true(p.disturbed);
	pb_probe_why(&p, why, sizeof(why));
	assert_non_null(strstr(why, "30.0 % of its"));
	/* steal during the probe */
	for (int i = 0; i < PB_PROBE_SAMPLES; i++)
		v[i] = 3000;
	pb_probe_summarise(&p, v, v, PB_PROBE_SAMPLES, 0, 0.2);
	assert_true(p.disturbed);
}

/* Steady: no verdict, no note. */
static void test_judge_steady(void **state)
{
	struct pb_nominal nom = { 3000, "model-name", false };
	struct pb_clock_obs o = { .cpu = 1 };
	struct pb_anomalies a = { 0 };

	(void)state;
	o.before = probe_of(1, 3000, 0.001, 0);
	o.after = probe_of(1, 2960, 0.001, 0);		/* -1.3 % */
	o.closed = probe_of(1, 3050, 0.001, 0);
	assert_false(pb_clock_suspect(&o, &nom));
	assert_false(pb_judge_clock(&o, &nom, &a));
	assert_int_equal(a.nr, 0);
	/* turbo above nominal is not low */
	o.before = o.after = o.closed = probe_of(1, 3700, 0.001, 0);
	assert_false(pb_clock_suspect(&o, &nom));
	assert_false(pb_judge_clock(&o, &nom, &a));
	assert_int_equal(a.nr, 0);
}

/* The 2009 E5450: 3.00 GHz before, 2.0 GHz after, and it stays. */
static void test_judge_sticky(void **state)
{
	struct pb_nominal nom = { 3000, "model-name", false };
	struct pb_clock_obs o = { .cpu = 0 };
	struct pb_anomalies a = { 0 };
	const struct pb_anomaly *d, *l;

	(void)state;
	o.before = probe_of(0, 3000, 0.001, 0);
	o.after = o.closed = probe_of(0, 2000, 0.001, 0);
	assert_true(pb_clock_suspect(&o, &nom));
	o.confirm = confirm_of(2000, 5);
	assert_true(pb_judge_clock(&o, &nom, &a));
	d = find_kind(&a, "frequency-drift");
	l = find_kind(&a, "frequency-low");
	assert_non_null(d);
	assert_non_null(l);
	assert_int_equal(d->sev, PB_SEV_WARN);
	assert_non_null(strstr(d->message, "3000 MHz before the job, 2000 MHz after (-33.3 %)"));
	assert_non_null(strstr(d->message, "persisted over 5 re-probes across 0.4 s (2000-2000 MHz)"));
	assert_int_equal(l->sev, PB_SEV_ERROR);	/* beyond 25 % */
	assert_non_null(strstr(l->message, "runs at 2000 MHz, 33.3 % below its nominal 3000 MHz "
				"(model-name)"));
	assert_null(find_kind(&a, "probe-disturbed"));
	pb_anomalies_free(&a);
	/* 12 % low: a warning */
	o.after = o.closed = probe_of(0, 2640, 0.001, 0);
	o.confirm = confirm_of(2640, 4);
	assert_true(pb_judge_clock(&o, &nom, &a));
	assert_true(has_kind(&a, "frequency-low", PB_SEV_WARN));
	pb_anomalies_free(&a);
}

/* A probe that read low once, and re-probes back at the old clock. */
static void test_judge_transient(void **state)
{
	struct pb_nominal nom = { 2100, "tsc", false };
	struct pb_clock_obs o = { .cpu = 0 };
	struct pb_anomalies a = { 0 };
	const struct pb_anomaly *p;

	(void)state;
	/* the figures: 1247 MHz before (undetected), 2763 after */
	o.before = probe_of(0, 2763, 0.001, 0);
	o.after = o.closed = probe_of(0, 1779, 0.001, 0);
	assert_true(pb_clock_suspect(&o, &nom));
	o.confirm = confirm_of(2760, 5);
	assert_false(pb_judge_clock(&o, &nom, &a));
	assert_null(find_kind(&a, "frequency-drift"));
	assert_null(find_kind(&a, "frequency-low"));
	p = find_kind(&a, "probe-disturbed");
	assert_non_null(p);
	assert_int_equal(p->sev, PB_SEV_INFO);
	assert_non_null(strstr(p->message, "2763 MHz before the job and 1779 MHz after"));
	assert_non_null(strstr(p->message, "5 re-probes across 0.4 s read 2760 MHz"));
	pb_anomalies_free(&a);
	/* a host clock that wanders: most re-probes low, one back at before */
	o.before = probe_of(0, 3694, 0.001, 0);
	o.after = o.closed = probe_of(0, 3563, 0.001, 0);	/* -3.5 % */
	o.confirm = confirm_of(3560, 5);
	o.confirm.hi = 3690;
	assert_false(pb_judge_clock(&o, &nom, &a));
	assert_null(find_kind(&a, "frequency-drift"));
	assert_non_null(find_kind(&a, "probe-disturbed"));
	pb_anomalies_free(&a);
	/* a low clock the re-probes do not all confirm is no L either */
	o.before = probe_of(0, 1500, 0.001, 0);
	o.after = o.closed = probe_of(0, 1500, 0.001, 0);
	o.confirm = confirm_of(1500, 5);
	o.confirm.hi = 2000;					/* back above 90 % of 2100 */
	assert_false(pb_judge_clock(&o, &nom, &a));
	assert_null(find_kind(&a, "frequency-low"));
	pb_anomalies_free(&a);
	o.before = probe_of(0, 2763, 0.001, 0);
	o.after = o.closed = probe_of(0, 1779, 0.001, 0);
	/* re-probes that are all disturbed: no figure, no verdict */
	o.confirm = confirm_of(1000, 1);
	assert_false(pb_judge_clock(&o, &nom, &a));
	assert_null(find_kind(&a, "frequency-drift"));
	assert_null(find_kind(&a, "frequency-low"));
	assert_non_null(strstr(find_kind(&a, "probe-disturbed")->message,
			       "no undisturbed figure (1 of 5)"));
	pb_anomalies_free(&a);
	/* without re-probes (none taken) nothing is claimed either */
	memset(&o.confirm, 0, sizeof(o.confirm));
	assert_false(pb_judge_clock(&o, &nom, &a));
	pb_anomalies_free(&a);
}

/*
 * A guest: the host owns the clock.  This machine's figures: 3577 MHz
 * before a job and 3759 after (+5.1 %), lasting over a second, is a note
 * (info, no mark, no re-probe); the 2009 drop (-33 %) is still D.  The
 * observer effect is marked from 20 %: +15 % is nothing, +37 % is O.
 */
static void test_judge_guest(void **state)
{
	struct pb_nominal guest = { 2096, "tsc", true }, metal = { 2096, "tsc", false };
	struct pb_clock_obs o = { .cpu = 0 };
	struct pb_anomalies a = { 0 };
	const struct pb_anomaly *d;

	(void)state;
	o.before = probe_of(0, 3577, 0.001, 0);
	o.after = probe_of(0, 3759, 0.001, 0);
	assert_true(pb_clock_suspect(&o, &metal));
	assert_false(pb_clock_suspect(&o, &guest));	/* no second of re-probes */
	assert_false(pb_judge_clock(&o, &guest, &a));
	d = find_kind(&a, "frequency-drift");
	assert_non_null(d);
	assert_int_equal(d->sev, PB_SEV_INFO);
	assert_non_null(strstr(d->message, "3577 MHz before the job, 3759 MHz after (+5.1 %)"));
	pb_anomalies_free(&a);
	/* the same change confirmed on bare metal is D */
	o.confirm = confirm_of(3759, 5);
	assert_true(pb_judge_clock(&o, &metal, &a));
	assert_true(has_kind(&a, "frequency-drift", PB_SEV_WARN));
	pb_anomalies_free(&a);
	/* on a guest, beyond 10 % and confirmed: D */
	o.before = probe_of(0, 3000, 0.001, 0);
	o.after = probe_of(0, 2000, 0.001, 0);
	o.confirm = confirm_of(2000, 5);
	assert_true(pb_clock_suspect(&o, &guest));
	assert_true(pb_judge_clock(&o, &guest, &a));
	assert_true(has_kind(&a, "frequency-drift", PB_SEV_WARN));
	pb_anomalies_free(&a);
	/* the observer effect on a guest */
	assert_false(pb_check_observer(0, 0.0200, 0.0230, NULL, 0, -1, &guest, &a));	/* +15 % */
	assert_int_equal(a.nr, 0);
	assert_true(pb_check_observer(0, 0.0200, 0.0230, NULL, 0, -1, &metal, &a));
	pb_anomalies_free(&a);
	assert_true(pb_check_observer(3, 0.818, 1.122, NULL, 0, -1, &guest, &a));	/* 2009 */
	assert_true(has_kind(&a, "observer-effect", PB_SEV_ERROR));
	pb_anomalies_free(&a);
}

/* Disturbed probes: a note with the figures, no verdict from them. */
static void test_judge_disturbed(void **state)
{
	struct pb_nominal nom = { 3000, "model-name", false };
	struct pb_clock_obs o = { .cpu = 2 };
	struct pb_anomalies a = { 0 };
	const struct pb_anomaly *p;

	(void)state;
	o.before = probe_of(2, 1247, 0, 0.55);		/* half the time off the CPU */
	o.after = o.closed = probe_of(2, 3000, 0.001, 0);
	assert_false(pb_clock_suspect(&o, &nom));	/* before cannot be judged */
	assert_false(pb_judge_clock(&o, &nom, &a));
	assert_int_equal(a.nr, 1);
	p = &a.v[0];
	assert_string_equal(p->kind, "probe-disturbed");
	assert_int_equal(p->sev, PB_SEV_INFO);
	assert_non_null(strstr(p->message, "cpu2 probe before the job read 1247 MHz"));
	assert_non_null(strstr(p->message, "55.0 % of its"));
	pb_anomalies_free(&a);
	/* a disturbed after probe asks for re-probes; they decide low */
	o.before = probe_of(2, 2000, 0.001, 0);
	o.after = probe_of(2, 1000, 0.3, 0);
	o.closed.mhz = 0;
	assert_true(o.after.disturbed);
	assert_true(pb_clock_suspect(&o, &nom));
	o.confirm = confirm_of(2000, 5);
	assert_true(pb_judge_clock(&o, &nom, &a));	/* 2000 vs 3000: still low */
	assert_true(has_kind(&a, "frequency-low", PB_SEV_ERROR));
	assert_null(find_kind(&a, "frequency-drift"));	/* no drift from a disturbed probe */
	pb_anomalies_free(&a);
}

/* The figures reach the JSON: each probe, which were disturbed, the re-probes. */
static void test_clock_obs_json(void **state)
{
	struct pb_clock_obs o = { .cpu = 3 };
	json_t *j, *r;

	(void)state;
	o.before = probe_of(3, 3000, 0, 0);
	o.after = probe_of(3, 2000, 0, 0.5);
	o.confirm = confirm_of(2990, 5);
	j = pb_clock_obs_json(&o);
	assert_int_equal(json_integer_value(json_object_get(j, "cpu")), 3);
	assert_true(fabs(json_real_value(json_object_get(j, "before_mhz")) - 3000) < 1e-6);
	assert_true(json_is_null(json_object_get(j, "closed_mhz")));
	assert_int_equal(json_array_size(json_object_get(j, "disturbed")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(j, "disturbed"), 0)),
			    "after");
	r = json_object_get(j, "reprobe");
	assert_true(fabs(json_real_value(json_object_get(r, "median_mhz")) - 2990) < 1e-6);
	assert_int_equal(json_array_size(json_object_get(r, "mhz")), PB_CONFIRM_PROBES);
	json_decref(j);
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
	double again[] = { 1.12, 1.13, 1.12, 1.11, 1.12 };
	double back[] = { 0.82, 0.83, 0.81, 0.82, 0.90 };

	(void)state;
	assert_false(pb_check_observer(0, 0.818, 0.850, NULL, 0, -1, NULL, &a));	/* +3.9 % */
	assert_false(pb_check_observer(0, 0.818, 0.700, NULL, 0, -1, NULL, &a));	/* faster */
	assert_false(pb_check_observer(0, 0, 1.0, NULL, 0, -1, NULL, &a));
	assert_true(pb_check_observer(3, 0.818, 1.122, NULL, 0, -1, NULL, &a));	/* 2009 */
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "observer-effect", PB_SEV_ERROR));
	assert_non_null(strstr(a.v[0].message, "0.818 s"));
	assert_non_null(strstr(a.v[0].message, "1.122 s"));
	assert_non_null(strstr(a.v[0].message, "+37.2 %"));
	pb_anomalies_free(&a);
	assert_true(pb_check_observer(0, 1.0, 1.08, NULL, 0, -1, NULL, &a));	/* +8 %: warn */
	assert_true(has_kind(&a, "observer-effect", PB_SEV_WARN));
	pb_anomalies_free(&a);
	/* 2009 again, confirmed by re-timings: still flagged, and says so */
	assert_true(pb_check_observer(3, 0.818, 1.122, again, 5, -1, NULL, &a));
	assert_true(has_kind(&a, "observer-effect", PB_SEV_ERROR));
	assert_non_null(strstr(a.v[0].message, "confirmed by re-timings"));
	pb_anomalies_free(&a);
	/* a slow end the re-timings do not confirm: a note, not O */
	assert_false(pb_check_observer(3, 0.818, 1.122, back, 5, -1, NULL, &a));
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "probe-disturbed", PB_SEV_INFO));
	assert_non_null(strstr(a.v[0].message, "0.810 s (median 0.820 s) over 5 re-timings"));
	pb_anomalies_free(&a);
	/*
	 * Confirmed, but other tasks kept the machine busy while it was
	 * re-timed (a build began during the run): a warning naming their
	 * load, never an error.  Below half a CPU, or unknown, it decides
	 * nothing.
	 */
	assert_true(pb_check_observer(3, 0.818, 1.122, again, 5, 1.6, NULL, &a));
	assert_true(has_kind(&a, "observer-effect", PB_SEV_WARN));
	assert_non_null(strstr(a.v[0].message, "other tasks kept 1.6 CPUs busy meanwhile"));
	assert_non_null(strstr(a.v[0].advice, "their load may be the cause"));
	pb_anomalies_free(&a);
	assert_true(pb_check_observer(3, 0.818, 1.122, again, 5, 0.5, NULL, &a));
	assert_true(has_kind(&a, "observer-effect", PB_SEV_WARN));
	pb_anomalies_free(&a);
	assert_true(pb_check_observer(3, 0.818, 1.122, again, 5, 0.45, NULL, &a));
	assert_true(has_kind(&a, "observer-effect", PB_SEV_ERROR));
	assert_null(strstr(a.v[0].message, "other tasks"));
	pb_anomalies_free(&a);
	/* no re-timing (nothing known of the meantime): the end alone, busy or not */
	assert_true(pb_check_observer(3, 0.818, 1.122, NULL, 0, 1.6, NULL, &a));
	assert_true(has_kind(&a, "observer-effect", PB_SEV_ERROR));
	pb_anomalies_free(&a);
}

/* The injected-readings seam: its parser, and pb_probe_cpu consuming it. */
static void test_probe_inject(void **state)
{
	struct pb_inject_line l[8];
	char err[128], path[] = "/tmp/pb-inject-XXXXXX";
	struct pb_probe p, ps[3];
	int fd, cpus[] = { 0, 7, 3 }, rc[3];

	(void)state;
	assert_int_equal(pb_probe_inject_parse("# c\n0: 3000 3010 2990\n\n1: 2000 off=0.5\n"
					       "*: 2500 steal=0.1\n", l, 8, err, sizeof(err)), 3);
	assert_int_equal(l[0].cpu, 0);
	assert_int_equal(l[0].n, 3);
	assert_true(fabs(l[1].off_cpu - 0.5) < 1e-9);
	assert_int_equal(l[2].cpu, -1);
	assert_true(fabs(l[2].steal_irq - 0.1) < 1e-9);
	assert_int_equal(pb_probe_inject_parse("0: 3000\nx: 1\n", l, 8, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2"));
	assert_int_equal(pb_probe_inject_parse("0: fast\n", l, 8, err, sizeof(err)), -1);
	assert_int_equal(pb_probe_inject_parse("0: 3000 off=2\n", l, 8, err, sizeof(err)), -1);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, "0: 3000\n0: 2000\n7: 1500 off=0.4\n", 32) == 32);
	close(fd);
	setenv(PB_PROBE_ENV, path, 1);
	assert_true(pb_probe_available());
	assert_int_equal(pb_probe_cpu(0, &p, err, sizeof(err)), 0);
	assert_true(fabs(p.mhz - 3000) < 1e-9);
	assert_int_equal(pb_probe_cpu(0, &p, err, sizeof(err)), 0);
	assert_true(fabs(p.mhz - 2000) < 1e-9);
	assert_int_equal(pb_probe_cpu(0, &p, err, sizeof(err)), 0);	/* sticks */
	assert_true(fabs(p.mhz - 2000) < 1e-9);
	assert_int_equal(pb_probe_cpu(7, &p, err, sizeof(err)), 0);
	assert_true(p.disturbed);
	assert_int_equal(pb_probe_cpu(3, &p, err, sizeof(err)), -1);	/* no reading */
	assert_non_null(strstr(err, "cpu 3"));
	/* several CPUs in one call: each gets its own reading, cpu 3 fails alone */
	pb_probe_cpus(cpus, 3, ps, rc);
	assert_int_equal(rc[0], 0);
	assert_int_equal(ps[0].cpu, 0);
	assert_true(fabs(ps[0].mhz - 2000) < 1e-9);
	assert_int_equal(rc[1], 0);
	assert_int_equal(ps[1].cpu, 7);
	assert_true(fabs(ps[1].mhz - 1500) < 1e-9 && ps[1].disturbed);
	assert_int_equal(rc[2], -1);
	unsetenv(PB_PROBE_ENV);
	unlink(path);
}

/*
 * Real probes of every CPU this test may use, at once: each on its own
 * CPU with figures a clock can have, a CPU that does not exist fails
 * alone, the caller stays single-threaded and no child is left.
 */
static void test_probe_cpus_real(void **state)
{
	int cpu[5], rc[5], n = 0;
	struct pb_probe p[5];
	cpu_set_t set;

	(void)state;
	if (!pb_probe_available()) {
		print_message("# skip: no frequency probe on this architecture\n");
		skip();
	}
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int c = 0; c < CPU_SETSIZE && n < 4; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	cpu[n++] = 100000;
	pb_probe_cpus(cpu, n, p, rc);
	for (int i = 0; i < n - 1; i++) {
		print_message("# cpu%d probe %.0f MHz, IQR %.2f %%\n", cpu[i], p[i].mhz,
			      100 * p[i].disp);
		assert_int_equal(rc[i], 0);
		assert_int_equal(p[i].cpu, cpu[i]);
		assert_int_equal(p[i].nr_samples, PB_PROBE_SAMPLES);
		assert_true(p[i].mhz > 10 && p[i].mhz < 100000);
		assert_true(p[i].wall_s > 0 && p[i].off_cpu >= 0 && p[i].off_cpu <= 1);
	}
	assert_int_equal(rc[n - 1], -1);
	assert_true(__libc_single_threaded);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);	/* every child reaped */
	assert_int_equal(errno, ECHILD);
}

/*
 * The real probe on this machine: it takes its samples on the CPU it was
 * pinned to and gives figures a clock can have.  Whether two probes agree
 * depends on how busy the host is, so that is doctor's figure, not a test.
 */
static void test_probe_real(void **state)
{
	struct pb_probe p;
	char err[256];
	int cpu = sched_getcpu();
	json_t *j;

	(void)state;
	if (!pb_probe_available()) {
		print_message("# skip: no frequency probe on this architecture\n");
		skip();
	}
	assert_int_equal(pb_probe_cpu(cpu, &p, err, sizeof(err)), 0);
	print_message("# cpu%d probe %.0f MHz, IQR %.2f %%, off-CPU %.1f %%, add vs imul %.2f %%\n",
		      cpu, p.mhz, 100 * p.disp, 100 * p.off_cpu, 100 * p.spread);
	assert_int_equal(p.cpu, cpu);
	assert_int_equal(p.nr_samples, PB_PROBE_SAMPLES);
	assert_true(p.mhz > 10 && p.mhz < 100000);
	assert_true(p.imul_mhz > 10 && p.spread >= 0 && p.spread < 1);
	assert_true(p.wall_s > 0 && p.off_cpu >= 0 && p.off_cpu <= 1);
	j = pb_probe_json(&p);
	assert_true(json_real_value(json_object_get(j, "mhz")) == p.mhz);
	assert_true(json_is_boolean(json_object_get(j, "disturbed")));
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

/* Threads: of /proc/self/status (0 when unreadable). */
static int threads_now(void)
{
	char line[256];
	int n = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * The probe and the observer loop run in a child process: the caller
 * stays single-threaded (glibc then takes the plain read/write path in it
 * and in every process it forks, the roles among them), the child is
 * reaped, and the figures are still the CPU's own.
 */
static void test_probe_no_thread(void **state)
{
	struct pb_probe p;
	char err[256];
	int cpu = sched_getcpu();
	double s = 0;

	(void)state;
	assert_true(__libc_single_threaded);
	assert_int_equal(pb_observer_time(cpu, &s, err, sizeof(err)), 0);
	assert_true(s > 0 && s < 10);
	if (pb_probe_available()) {
		assert_int_equal(pb_probe_cpu(cpu, &p, err, sizeof(err)), 0);
		assert_int_equal(p.cpu, cpu);
		assert_true(p.mhz > 10 && p.mhz < 100000);
		assert_true(p.wall_s > 0 && p.off_cpu >= 0 && p.off_cpu <= 1);
	}
	assert_true(__libc_single_threaded);
	assert_int_equal(threads_now(), 1);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);	/* no child left, no zombie */
	assert_int_equal(errno, ECHILD);
}

/* A child of pid other than not, from /proc/PID/task/PID/children; 0 none, -1 no file. */
static pid_t child_of(pid_t pid, pid_t not)
{
	char path[64];
	int c, found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (!found && fscanf(f, "%d", &c) == 1)
		if (c != not)
			found = c;
	fclose(f);
	return found;
}

/* A child killed by a signal is an error that names the signal. */
static void test_observer_killed(void **state)
{
	pid_t me = getpid(), helper, victim;
	char err[256] = "";
	int rc = 0, status, cpu = sched_getcpu();
	double s;

	(void)state;
	if (child_of(me, 0) < 0) {
		print_message("# skip: no /proc/PID/task/PID/children here\n");
		skip();
	}
	helper = fork();
	assert_true(helper >= 0);
	if (!helper) {	/* kill the first child of the test process that is not us */
		for (int i = 0; i < 200000; i++) {
			victim = child_of(me, getpid());
			if (victim > 0) {
				kill(victim, SIGTERM);
				_exit(0);
			}
			usleep(50);
		}
		_exit(1);
	}
	/* until the helper caught one (each loop is over in a fraction of a second) */
	for (int i = 0; i < 20 && !rc; i++)
		rc = pb_observer_time(cpu, &s, err, sizeof(err));
	assert_int_equal(waitpid(helper, &status, 0), helper);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "killed by signal 15"));
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/*
 * The fastest re-timing decides, not their median: +20 % at the end, the
 * fastest re-timing +2 % (inside 5 %), their median +15 %: a transient.
 */
static void test_observer_fastest(void **state)
{
	struct pb_anomalies a = { 0 };
	double again[] = { 1.15, 1.15, 1.02, 1.16, 1.15 };

	(void)state;
	assert_false(pb_check_observer(1, 1.0, 1.2, again, 5, -1, NULL, &a));
	assert_int_equal(a.nr, 1);
	assert_true(has_kind(&a, "probe-disturbed", PB_SEV_INFO));
	pb_anomalies_free(&a);
}

/*
 * The re-timings stop at the first one within the limit (a transient
 * needs no more), and go on to nr while every one is beyond it (a lasting
 * change is claimed on all of them).  Real loops: any timing is above 0 s
 * and below 1000 s.
 */
static void test_observer_confirm_stops(void **state)
{
	double again[4] = { -1, -1, -1, -1 };

	(void)state;
	assert_int_equal(pb_observer_confirm(-1, again, 4, 0, 1000), 1);
	assert_true(again[0] > 0 && again[0] < 1000);
	assert_true(again[1] == -1);
	assert_int_equal(pb_observer_confirm(-1, again, 3, 0, 0), 3);
	assert_true(again[2] > 0 && again[3] == -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nominal_from_model),
		cmocka_unit_test(test_nominal_sources),
		cmocka_unit_test(test_nominal_this_machine),
		cmocka_unit_test(test_probe_summary),
		cmocka_unit_test(test_judge_steady),
		cmocka_unit_test(test_judge_sticky),
		cmocka_unit_test(test_judge_transient),
		cmocka_unit_test(test_judge_guest),
		cmocka_unit_test(test_judge_disturbed),
		cmocka_unit_test(test_clock_obs_json),
		cmocka_unit_test(test_clock_verdict),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_observer_fastest),
		cmocka_unit_test(test_observer_confirm_stops),
		cmocka_unit_test(test_probe_inject),
		cmocka_unit_test(test_probe_cpus_real),
		cmocka_unit_test(test_probe_real),
		cmocka_unit_test(test_probe_bad_cpu),
		cmocka_unit_test(test_observer_time),
		cmocka_unit_test(test_probe_no_thread),
		cmocka_unit_test(test_observer_killed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
