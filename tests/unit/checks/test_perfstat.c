// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat output in every form perf writes (text, -x SEP, -j; -I and -r
 * in each): the 2009 E5450 report (160.7e9 cycles over 8 CPUs' 80,320 ms,
 * time-shared at 66.67 %, rated 3.00 GHz), this machine's real outputs
 * (perf 6.1 on a KVM guest without a PMU: <not supported> cycles), the
 * shapes of perf 4.19, 5.10 and a newer 6.x, and edge cases.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sys/env.h"
#include "checks/perfstat.h"

static void load(const char *name, struct pb_perfstat *ps)
{
	char path[256], err[256];

	snprintf(path, sizeof(path), "tests/perfstat/%s", name);
	if (access(path, F_OK))
		snprintf(path, sizeof(path), "perfstat/%s", name);
	if (pb_perfstat_load(path, ps, err, sizeof(err)))
		fail_msg("%s", err);
}

static const struct pb_anomaly *find_kind(const struct pb_anomalies *a, const char *kind)
{
	int i;

	for (i = 0; i < a->nr; i++)
		if (!strcmp(a->v[i].kind, kind))
			return &a->v[i];
	return NULL;
}

static void check_2009(const char *file, bool csv, const char *clock)
{
	const struct pb_ps_event *cyc, *clk;
	const struct pb_anomaly *low, *mux;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;

	load(file, &ps);
	assert_int_equal(ps.csv, csv);
	assert_int_equal(ps.nr, 8);
	cyc = pb_perfstat_find(&ps, "cycles");
	assert_non_null(cyc);
	assert_true(cyc->value == 160712346421.0);
	assert_true(fabs(cyc->pct - 66.67) < 1e-9);
	clk = pb_perfstat_find(&ps, clock);
	assert_non_null(clk);
	assert_string_equal(clk->unit, "msec");
	assert_true(fabs(clk->value - 80320.45) < 0.5);
	assert_true(clk->pct == 100);
	assert_int_equal(pb_perfstat_check(&ps, 3000, false, &a, &v), 0);
	assert_true(fabs(v.eff_mhz - 2000.9) < 0.5);
	assert_int_equal(v.nr_multiplexed, 4);
	mux = find_kind(&a, "counter-multiplexed");
	assert_non_null(mux);
	assert_int_equal(mux->sev, PB_SEV_WARN);
	assert_non_null(strstr(mux->message, "cycles 66.67 %"));
	low = find_kind(&a, "frequency-low");
	assert_non_null(low);
	assert_int_equal(low->sev, PB_SEV_ERROR);
	assert_non_null(strstr(low->message, "2.00 GHz"));
	assert_non_null(strstr(low->message, "3.00 GHz (given)"));
	assert_non_null(strstr(low->message, "time-shared"));
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

static void test_2009_text(void **state)
{
	(void)state;
	check_2009("e5450-2009-text.txt", false, "cpu-clock");
}

static void test_2009_csv(void **state)
{
	(void)state;
	check_2009("e5450-2009-csv.txt", true, "cpu-clock");
}

static void test_2009_original_layout(void **state)
{
	struct pb_perfstat ps;

	(void)state;
	load("e5450-2009-orig.txt", &ps);
	assert_true(fabs(ps.elapsed_s - 10.040123456) < 1e-9);
	pb_perfstat_free(&ps);
	check_2009("e5450-2009-orig.txt", false, "task-clock");
}

/* This machine's own output: no PMU, so cycles is <not supported>. */
static void test_this_host(void **state)
{
	static const char *const files[] = { "thishost-text.txt", "thishost-csv.txt" };
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct pb_anomalies a = { 0 };
		struct pb_ps_verdict v;
		struct pb_perfstat ps;
		const struct pb_anomaly *u;

		load(files[i], &ps);
		assert_int_equal(ps.nr, 3);
		assert_int_equal(ps.csv, i == 1);
		assert_int_equal(pb_perfstat_find(&ps, "cycles")->status, PB_PS_NOT_SUPPORTED);
		assert_int_equal(pb_perfstat_find(&ps, "task-clock")->status, PB_PS_OK);
		pb_perfstat_check(&ps, 3000, false, &a, &v);
		assert_true(v.eff_mhz == 0);
		u = find_kind(&a, "counter-unsupported");
		assert_non_null(u);
		assert_string_equal(strstr(u->message, ": ") + 2, "cycles");
		assert_int_equal(a.nr, 1);
		pb_anomalies_free(&a);
		pb_perfstat_free(&ps);
	}
}

static void test_clean(void **state)
{
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;

	(void)state;
	load("clean-text.txt", &ps);
	assert_int_equal(ps.nr, 6);
	assert_true(pb_perfstat_find(&ps, "context-switches")->value == 201337);
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	assert_true(fabs(v.eff_mhz - 2989.5) < 0.5);
	assert_int_equal(a.nr, 0);
	pb_perfstat_free(&ps);
}

/* Fully counted and still 2.0 GHz: the clock itself was low. */
static void test_slow_full(void **state)
{
	const struct pb_anomaly *low;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;

	(void)state;
	load("slow-full-csv.txt", &ps);
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	assert_int_equal(a.nr, 1);
	low = find_kind(&a, "frequency-low");
	assert_non_null(low);
	assert_non_null(strstr(low->message, "the clock itself was low"));
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

static void parse_str(const char *text, struct pb_perfstat *ps)
{
	char err[128];

	if (pb_perfstat_parse(text, ps, err, sizeof(err)))
		fail_msg("%s", err);
}

static void test_edge_lines(void **state)
{
	const struct pb_ps_event *e;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;
	char err[128];

	(void)state;
	parse_str("     <not counted>      cycles:u                          (0.00%)\n"
		  "        1,234,567      instructions:u  # 1.0 insn per cycle ( +-  0.50% )\n"
		  "  10.04 +- 0.01 seconds time elapsed  ( +-  0.1% )\n", &ps);
	e = pb_perfstat_find(&ps, "cycles");
	assert_non_null(e);
	assert_int_equal(e->status, PB_PS_NOT_COUNTED);
	e = pb_perfstat_find(&ps, "instructions");
	assert_true(e->value == 1234567 && e->pct == 100);	/* "+-" is not a share */
	assert_true(fabs(ps.elapsed_s - 10.04) < 1e-9);
	pb_perfstat_check(&ps, 0, false, &a, &v);
	assert_non_null(find_kind(&a, "counter-not-counted"));
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);

	/* hybrid PMUs: cycles summed; no nominal: reported, not judged */
	parse_str("  1,000.00 msec task-clock\n"
		  "  1,500,000,000  cpu_core/cycles/\n"
		  "    500,000,000  cpu_atom/cycles/\n", &ps);
	pb_perfstat_check(&ps, 0, false, &a, &v);
	assert_true(fabs(v.eff_mhz - 2000) < 1e-6);
	assert_int_equal(a.nr, 1);
	assert_int_equal(a.v[0].sev, PB_SEV_INFO);
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);

	/* -A per-CPU CSV rows are summed */
	parse_str("CPU0,500.00,msec,cpu-clock,500000000,100.00,1.0,CPUs utilized\n"
		  "CPU1,500.00,msec,cpu-clock,500000000,100.00,1.0,CPUs utilized\n"
		  "CPU0,1500000000,,cycles,500000000,100.00,3.0,GHz\n"
		  "CPU1,1500000000,,cycles,500000000,100.00,3.0,GHz\n", &ps);
	assert_int_equal(ps.nr, 2);
	assert_int_equal(pb_perfstat_find(&ps, "cycles")->nr, 2);
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	assert_true(fabs(v.eff_mhz - 3000) < 1e-6);
	assert_int_equal(a.nr, 0);
	pb_perfstat_free(&ps);

	assert_int_equal(pb_perfstat_parse("hello\nworld, of, text, really, yes\n", &ps, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "no perf stat counts"));
	assert_int_equal(pb_perfstat_load("/nonexistent/x", &ps, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x"));
}

/* A count is never negative (nor NaN or infinite): an error naming the line. */
static void test_bad_counts(void **state)
{
	char path[] = "/tmp/pb-perfstat-XXXXXX", err[512], want[600];
	struct pb_perfstat ps;
	FILE *f;
	int fd;

	(void)state;
	assert_int_equal(pb_perfstat_parse("  1,000.00 msec task-clock\n"
					   "  -1,500,000  cycles\n", &ps, err, sizeof(err)), -1);
	assert_string_equal(err, "line 2: cycles: negative count -1500000");
	assert_null(ps.ev);
	assert_int_equal(pb_perfstat_parse("1000.00,msec,task-clock,1000000000,100.00,,\n"
					   "\n-5,,instructions,1000000000,100.00,,\n",
					   &ps, err, sizeof(err)), -1);
	assert_string_equal(err, "line 3: instructions: negative count -5");
	assert_int_equal(pb_perfstat_parse("CPU3,-7,,cycles,500000000,100.00,,\n", &ps, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "line 1: cycles: negative count -7");
	assert_int_equal(pb_perfstat_parse("  nan  cycles\n", &ps, err, sizeof(err)), -1);
	assert_string_equal(err, "line 1: cycles: not a count nan");
	assert_int_equal(pb_perfstat_parse("inf,,cycles,1,100.00,,\n", &ps, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "line 1: cycles: not a count inf");
	/* perf's counters are 64-bit: 2^64 and more is not a count perf printed */
	assert_int_equal(pb_perfstat_parse("  10000000000000000000000000000  cycles\n", &ps,
					   err, sizeof(err)), -1);
	assert_string_equal(err, "line 1: cycles: count 1e+28 is 2^64 or more, more than "
			    "a 64-bit counter holds");
	assert_int_equal(pb_perfstat_parse("18446744073709551616,,cycles,1,100.00,,\n", &ps,
					   err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is 2^64 or more"));
	assert_int_equal(pb_perfstat_parse("1e309,,cycles,1,100.00,,\n", &ps, err,
					   sizeof(err)), -1);
	/* the largest count a u64 counter holds is one */
	parse_str("  18446744073709549568  cycles\n", &ps);
	assert_int_equal(ps.nr, 1);
	pb_perfstat_free(&ps);
	/* zero is a count; "-0" too */
	parse_str("  0  cycles\n  -0  instructions\n", &ps);
	assert_int_equal(ps.nr, 2);
	pb_perfstat_free(&ps);
	/* from a file: FILE:LINE */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("# started on today\n\n Performance counter stats for 'true':\n\n"
	      "      1.00 msec task-clock\n  -42  context-switches\n", f);
	fclose(f);
	assert_int_equal(pb_perfstat_load(path, &ps, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:6: context-switches: negative count -42", path);
	assert_string_equal(err, want);
	unlink(path);
}

/* No --nominal-mhz: this machine's nominal, with its source named. */
static void test_detected_nominal(void **state)
{
	const struct pb_anomaly *low;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;
	char root[256];
	json_t *j;

	(void)state;
	snprintf(root, sizeof(root), "%s", access("tests/sysroot/good", F_OK) ?
		 "sysroot/good" : "tests/sysroot/good");
	setenv(PB_SYSROOT_ENV, root, 1);	/* its cpuinfo: E5450 @ 3.00GHz */
	load("e5450-2009-text.txt", &ps);
	pb_perfstat_check(&ps, 0, true, &a, &v);
	unsetenv(PB_SYSROOT_ENV);
	assert_true(v.nominal_mhz == 3000);
	assert_true(v.nominal_here);
	assert_string_equal(v.nominal_src, "this host's, from model-name");
	low = find_kind(&a, "frequency-low");
	assert_non_null(low);
	assert_non_null(strstr(low->message, "model-name"));
	j = pb_perfstat_json(&ps, &v);
	assert_true(fabs(json_real_value(json_object_get(j, "effective_mhz")) - 2000.9) < 0.5);
	assert_int_equal(json_array_size(json_object_get(j, "events")), 8);
	json_decref(j);
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

static const struct pb_anomaly *must_find(const struct pb_anomalies *a, const char *kind)
{
	const struct pb_anomaly *x = find_kind(a, kind);

	if (!x)
		fail_msg("no %s anomaly", kind);
	return x;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * fmax(1, fabs(b));
}

/* perf 6.1 here, `perf stat -e task-clock,...,cycles,instructions -- sleep 0.1` */
static void test_this_host_formats(void **state)
{
	static const struct {
		const char		*file;
		enum pb_ps_format	fmt;
		char			sep;
		double			task_ms, cs;
	} t[] = {
		{ "perf61-kvm-default.txt", PB_PS_TEXT, 0, 0.81, 1 },
		{ "perf61-kvm-x-comma.txt", PB_PS_CSV, ',', 1.27, 54 },
		{ "perf61-kvm-x-semicolon.txt", PB_PS_CSV, ';', 0.71, 1 },
		{ "perf61-kvm-x-colon.txt", PB_PS_CSV, ':', 0.98, 1 },
		{ "perf61-kvm-x-tab.txt", PB_PS_CSV, '\t', 0.77, 1 },
		{ "perf61-kvm-json.txt", PB_PS_JSON, 0, 2.211213, 85 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct pb_ps_event *tc;
		struct pb_anomalies a = { 0 };
		struct pb_ps_verdict v;
		struct pb_perfstat ps;

		load(t[i].file, &ps);
		assert_int_equal(ps.nr, 6);
		assert_int_equal(ps.format, t[i].fmt);
		assert_int_equal(ps.sep, t[i].sep);
		assert_int_equal(ps.nr_iv, 0);
		assert_false(ps.has_variance);
		tc = pb_perfstat_find(&ps, "task-clock");
		assert_int_equal(tc->status, PB_PS_OK);
		assert_string_equal(tc->unit, "msec");
		assert_true(near(tc->value, t[i].task_ms));
		assert_true(near(pb_perfstat_find(&ps, "context-switches")->value, t[i].cs));
		assert_true(near(pb_perfstat_find(&ps, "page-faults")->value, 75));
		assert_int_equal(pb_perfstat_find(&ps, "cycles")->status, PB_PS_NOT_SUPPORTED);
		assert_int_equal(pb_perfstat_find(&ps, "instructions")->status,
				 PB_PS_NOT_SUPPORTED);
		pb_perfstat_check(&ps, 3000, false, &a, &v);
		assert_true(v.eff_mhz == 0);
		assert_int_equal(v.nr_unsupported, 2);
		assert_int_equal(a.nr, 1);
		assert_string_equal(strstr(a.v[0].message, ": ") + 2, "cycles, instructions");
		pb_anomalies_free(&a);
		pb_perfstat_free(&ps);
	}
}

/* -I 100 here (sleep 0.35): 4 intervals, the middle two counted nothing */
static void test_this_host_intervals(void **state)
{
	static const struct {
		const char	*file;
		double		t0, task0, task3;
	} t[] = {
		{ "perf61-kvm-I100.txt", 0.100195565, 0.76, 0.10 },
		{ "perf61-kvm-I100-x-comma.txt", 0.100171914, 0.72, 0.07 },
		{ "perf61-kvm-I100-json.txt", 0.100167207, 1.019985, 0.069794 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct pb_anomaly *x;
		struct pb_anomalies a = { 0 }, ia = { 0 };
		struct pb_ps_verdict v, iv;
		struct pb_perfstat ps;
		json_t *j, *ivs;

		load(t[i].file, &ps);
		assert_int_equal(ps.nr, 6);
		assert_int_equal(ps.nr_iv, 4);
		assert_false(ps.perf_summary);
		assert_true(near(ps.iv[0].t, t[i].t0));
		assert_int_equal(ps.iv[1].nr, 6);
		assert_int_equal(pb_perfstat_find(&ps.iv[1], "task-clock")->status,
				 PB_PS_NOT_COUNTED);
		assert_true(near(pb_perfstat_find(&ps.iv[0], "task-clock")->value, t[i].task0));
		/* the whole: counted where it was, <not counted> elsewhere adds nothing */
		assert_int_equal(pb_perfstat_find(&ps, "task-clock")->status, PB_PS_OK);
		assert_true(near(pb_perfstat_find(&ps, "task-clock")->value,
				 t[i].task0 + t[i].task3));
		assert_int_equal(pb_perfstat_find(&ps, "cycles")->nr, 4);
		pb_perfstat_check(&ps, 3000, false, &a, &v);
		assert_int_equal(v.nr_iv_idle, 2);
		assert_int_equal(v.nr_iv_flagged, 2);
		x = must_find(&a, "interval-flagged");
		assert_int_equal(x->sev, PB_SEV_WARN);
		assert_non_null(strstr(x->message, "2 of 4 intervals flagged (2 counted nothing)"));
		assert_true(pb_perfstat_check_interval(&ps, 1, &v, &ia, &iv));
		assert_int_equal(ia.nr, 0);
		assert_false(pb_perfstat_check_interval(&ps, 0, &v, &ia, &iv));
		must_find(&ia, "counter-unsupported");
		j = pb_perfstat_json(&ps, &v);
		ivs = json_object_get(j, "intervals");
		assert_int_equal(json_array_size(ivs), 4);
		assert_true(json_is_true(json_object_get(json_array_get(ivs, 1), "idle")));
		assert_true(json_is_true(json_object_get(json_array_get(ivs, 0), "flagged")));
		json_decref(j);
		pb_anomalies_free(&ia);
		pb_anomalies_free(&a);
		pb_perfstat_free(&ps);
	}
}

/* -I 100 --summary here (sleep 0.25): the whole is perf's summary, not twice it */
static void test_this_host_summary(void **state)
{
	static const struct {
		const char	*file;
		double		task, cs;
	} t[] = {
		{ "perf61-kvm-I100-summary.txt", 0.79, 1 },
		{ "perf61-kvm-I100-summary-x-comma.txt", 0.69, 1 },	/* intervals: 0.68 */
		{ "perf61-kvm-I100-summary-json.txt", 0.937110, 4 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pb_perfstat ps;

		load(t[i].file, &ps);
		assert_int_equal(ps.nr_iv, 3);
		assert_int_equal(ps.nr, 6);
		assert_true(ps.perf_summary);
		assert_true(near(pb_perfstat_find(&ps, "task-clock")->value, t[i].task));
		assert_int_equal(pb_perfstat_find(&ps, "task-clock")->nr, 1);
		assert_true(near(pb_perfstat_find(&ps, "context-switches")->value, t[i].cs));
		pb_perfstat_free(&ps);
	}
}

/* -r 3 here: the variance kept per event, task-clock's above 5 % flagged */
static void test_this_host_runs(void **state)
{
	const struct pb_anomaly *x;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;

	(void)state;
	load("perf61-kvm-r3.txt", &ps);
	assert_int_equal(ps.runs, 3);
	assert_true(ps.has_variance);
	assert_true(near(ps.elapsed_s, 0.102085));
	assert_true(near(ps.elapsed_var, 0.25));
	assert_true(near(pb_perfstat_find(&ps, "task-clock")->variance, 14.53));
	assert_true(near(pb_perfstat_find(&ps, "page-faults")->variance, 0.76));
	assert_true(isnan(pb_perfstat_find(&ps, "context-switches")->variance));
	assert_true(pb_perfstat_find(&ps, "task-clock")->pct == 100);	/* "+-" no share */
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	x = must_find(&a, "counter-variance");
	assert_int_equal(x->sev, PB_SEV_WARN);
	assert_string_equal(x->message, "run-to-run variance above 5 % over 3 runs: "
			    "task-clock +- 14.53 %");
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);

	load("perf61-kvm-r3-x-comma.txt", &ps);	/* value,unit,event,11.64%,run,pct,... */
	assert_true(ps.has_variance);
	assert_true(near(pb_perfstat_find(&ps, "task-clock")->variance, 11.64));
	assert_true(pb_perfstat_find(&ps, "task-clock")->pct == 100);
	assert_true(near(pb_perfstat_find(&ps, "task-clock")->metric, 0.008));
	assert_string_equal(pb_perfstat_find(&ps, "task-clock")->metric_unit, "CPUs utilized");
	assert_true(near(pb_perfstat_find(&ps, "page-faults")->variance, 0.44));
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	assert_non_null(strstr(must_find(&a, "counter-variance")->message, "task-clock +- 11.64 %"));
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);

	load("perf61-kvm-r3-json.txt", &ps);
	assert_int_equal(ps.format, PB_PS_JSON);
	assert_true(near(pb_perfstat_find(&ps, "context-switches")->variance, 16.67));
	assert_true(near(pb_perfstat_find(&ps, "task-clock")->variance, 4.61));
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	x = must_find(&a, "counter-variance");
	assert_string_equal(x->message, "run-to-run variance above 5 %: context-switches +- 16.67 %");
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

/* perf 4.19's text: "task-clock (msec)", "( +- 9.08% )  (66.67%)" */
static void test_perf419(void **state)
{
	const struct pb_ps_event *e;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;

	(void)state;
	load("perf419-r5-text.txt", &ps);
	assert_int_equal(ps.nr, 7);
	assert_int_equal(ps.runs, 5);
	assert_true(near(ps.elapsed_var, 0.15));
	e = pb_perfstat_find(&ps, "task-clock");
	assert_string_equal(e->name, "task-clock");
	assert_string_equal(e->unit, "msec");
	assert_true(near(e->value, 2004.18));
	assert_true(near(e->variance, 0.12));
	e = pb_perfstat_find(&ps, "cycles");
	assert_true(near(e->pct, 66.67));
	assert_true(near(e->variance, 9.08));
	assert_true(near(e->metric, 2.0));
	assert_string_equal(e->metric_unit, "GHz");
	assert_true(isnan(pb_perfstat_find(&ps, "cpu-migrations")->variance));
	assert_int_equal(pb_perfstat_find(&ps, "branches")->status, PB_PS_NOT_SUPPORTED);
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	assert_true(near(v.eff_mhz, 2000));
	assert_true(near(v.paste_mhz, 2000));
	assert_int_equal(must_find(&a, "frequency-low")->sev, PB_SEV_ERROR);
	assert_non_null(strstr(must_find(&a, "counter-variance")->message, "cycles +- 9.08 %"));
	must_find(&a, "counter-multiplexed");
	must_find(&a, "counter-unsupported");
	assert_null(find_kind(&a, "clock-inconsistent"));
	assert_int_equal(a.nr, 4);
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

/* perf 5.10's text, -r 3, every count steady and full: clean at 3.6 GHz */
static void test_perf510_clean(void **state)
{
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;

	(void)state;
	load("perf510-r3-text.txt", &ps);
	assert_int_equal(ps.runs, 3);
	assert_true(near(ps.elapsed_s, 2.0));
	assert_true(near(ps.elapsed_var, 0.62));
	assert_true(near(pb_perfstat_find(&ps, "cpu-migrations")->variance, 4.02));
	pb_perfstat_check(&ps, 3600, false, &a, &v);
	assert_true(near(v.eff_mhz, 3600));
	assert_int_equal(a.nr, 0);
	assert_false(v.nominal_here);
	pb_perfstat_free(&ps);
}

/* perf 5.10 -I 1000 -x';': the second of three seconds ran at 1.6 GHz */
static void test_interval_slow(void **state)
{
	struct pb_anomalies a = { 0 }, ia = { 0 };
	struct pb_ps_verdict v, iv;
	struct pb_perfstat ps;
	const struct pb_anomaly *x;
	int i;

	(void)state;
	load("perf510-I1000-x-semicolon.txt", &ps);
	assert_int_equal(ps.sep, ';');
	assert_int_equal(ps.nr, 2);
	assert_int_equal(ps.nr_iv, 3);
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	assert_true(fabs(v.eff_mhz - 2533.3) < 0.1);
	assert_int_equal(must_find(&a, "frequency-low")->sev, PB_SEV_WARN);	/* 15.6 % */
	x = must_find(&a, "interval-flagged");
	assert_int_equal(x->sev, PB_SEV_ERROR);
	assert_string_equal(x->message, "1 of 3 intervals flagged (0 counted nothing): "
			    "2.000 s (frequency-low)");
	for (i = 0; i < 3; i++) {
		assert_false(pb_perfstat_check_interval(&ps, i, &v, &ia, &iv));
		assert_int_equal(ia.nr, i == 1);
		assert_true(fabs(iv.eff_mhz - (i == 1 ? 1600 : 3000)) < 1);
		pb_anomalies_free(&ia);
	}
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

/* a newer perf 6.x's JSON: "metric-value" a string; <not counted> stays so */
static void test_json_other(void **state)
{
	const struct pb_ps_event *e;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;
	json_t *j, *br;

	(void)state;
	load("perf6new-r5-json.txt", &ps);
	assert_int_equal(ps.format, PB_PS_JSON);
	assert_int_equal(ps.nr, 5);
	e = pb_perfstat_find(&ps, "cycles");
	assert_true(near(e->metric, 2.0));
	assert_true(near(e->pct, 66.67));
	assert_true(near(e->variance, 12.4));
	assert_int_equal(pb_perfstat_find(&ps, "branches")->status, PB_PS_NOT_COUNTED);
	assert_int_equal(pb_perfstat_find(&ps, "ref-cycles")->status, PB_PS_NOT_SUPPORTED);
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	assert_true(near(v.eff_mhz, 2000));
	must_find(&a, "counter-not-counted");
	must_find(&a, "counter-unsupported");
	must_find(&a, "counter-variance");
	must_find(&a, "frequency-low");
	j = pb_perfstat_json(&ps, &v);
	assert_string_equal(json_string_value(json_object_get(j, "format")), "json");
	br = json_array_get(json_object_get(j, "events"), 3);
	assert_string_equal(json_string_value(json_object_get(br, "status")), "not counted");
	assert_true(json_is_null(json_object_get(br, "percent")));
	assert_true(json_is_null(json_object_get(br, "value")));
	json_decref(j);
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

/* perf's own GHz figure against cycles / task-clock: an edited paste */
static void test_clock_inconsistent(void **state)
{
	const struct pb_anomaly *x;
	struct pb_anomalies a = { 0 };
	struct pb_ps_verdict v;
	struct pb_perfstat ps;

	(void)state;
	load("edited-ghz-text.txt", &ps);
	pb_perfstat_check(&ps, 3000, false, &a, &v);
	x = must_find(&a, "clock-inconsistent");
	assert_string_equal(x->message, "perf's own figure 3.500 GHz on the cycles line disagrees "
			    "with cycles / task-clock = 2.990 GHz");
	assert_int_equal(a.nr, 1);
	pb_anomalies_free(&a);
	pb_perfstat_free(&ps);
}

static void test_separators(void **state)
{
	struct pb_perfstat ps;

	(void)state;
	/* -x'|' with -A and -I: time|CPUn|value|unit|event|... */
	parse_str("     1.000100000|CPU0|500.00|msec|cpu-clock|500000000|100.00|1.0|CPUs utilized\n"
		  "     1.000100000|CPU1|500.00|msec|cpu-clock|500000000|100.00|1.0|CPUs utilized\n"
		  "     1.000100000|CPU0|1500000000||cycles|500000000|100.00|3.0|GHz\n"
		  "     1.000100000|CPU1|<not counted>||cycles|0|0.00||\n", &ps);
	assert_int_equal(ps.sep, '|');
	assert_int_equal(ps.nr, 2);
	assert_int_equal(ps.nr_iv, 1);
	assert_true(near(pb_perfstat_find(&ps, "cpu-clock")->value, 1000));
	assert_true(near(pb_perfstat_find(&ps, "cycles")->value, 1500000000));
	assert_int_equal(pb_perfstat_find(&ps, "cycles")->nr, 2);
	pb_perfstat_free(&ps);
	/* a text file whose values hold ',' is not CSV */
	parse_str("     1,843      context-switches\n  1,234,567,890      cycles  # 1.2 GHz\n", &ps);
	assert_int_equal(ps.format, PB_PS_TEXT);
	assert_int_equal(ps.sep, 0);
	assert_true(pb_perfstat_find(&ps, "cycles")->value == 1234567890);
	pb_perfstat_free(&ps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_2009_text),
		cmocka_unit_test(test_2009_csv),
		cmocka_unit_test(test_2009_original_layout),
		cmocka_unit_test(test_this_host),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_slow_full),
		cmocka_unit_test(test_edge_lines),
		cmocka_unit_test(test_bad_counts),
		cmocka_unit_test(test_detected_nominal),
		cmocka_unit_test(test_this_host_formats),
		cmocka_unit_test(test_this_host_intervals),
		cmocka_unit_test(test_this_host_summary),
		cmocka_unit_test(test_this_host_runs),
		cmocka_unit_test(test_perf419),
		cmocka_unit_test(test_perf510_clean),
		cmocka_unit_test(test_interval_slow),
		cmocka_unit_test(test_json_other),
		cmocka_unit_test(test_clock_inconsistent),
		cmocka_unit_test(test_separators),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
