// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat output, text and -x, CSV: the 2009 E5450 report (160.7e9
 * cycles over 8 CPUs' 80,320 ms, time-shared at 66.67 %, rated 3.00 GHz),
 * this machine's real output (<not supported> cycles), and edge cases.
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
