// SPDX-License-Identifier: GPL-2.0-only
/* test_checks.c - pb_job_checks(): every check of a job, in its order. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/runner.h"

/*
 * A job of two windows, the second with no operation, whose one task was
 * pinned to cpu 0 and seen on cpu 1: migration (a task's check) comes
 * before stall (a window's), both errors; without the CPUs' times the
 * neighbours are not judged (other_frac -1).
 */
static void test_order(void **state)
{
	static const char *const roles[] = { "client", "server" };
	struct pb_task task = { .role = 1, .instance = 0, .planned = 0, .seen = { 0, 1 } };
	struct pb_rep reps[2] = {
		{ .ops = 1000, .elapsed_s = 0.01, .pass = -1, .in_summary = true },
		{ .ops = 0, .elapsed_s = 0.01, .pass = -1, .in_summary = true },
	};
	struct pb_job_seen seen = { .nr_cpus = 1, .cs_s = 0.02, .roles = roles };
	struct pb_bench bench = { .name = "test" };	/* no "lost" aux */
	struct pb_job job = { .bench = &bench };
	struct pb_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.job = &job;
	r.tasks = &task;
	r.nr_tasks = 1;
	r.reps = reps;
	r.nr_reps = 2;
	r.other_frac = 0.5;
	pb_job_checks(&seen, NULL, &r);
	assert_int_equal(r.anomalies.nr, 2);
	assert_string_equal(r.anomalies.v[0].kind, "migration");
	assert_int_equal(r.anomalies.v[0].sev, PB_SEV_ERROR);
	assert_non_null(strstr(r.anomalies.v[0].message, "server#0 was pinned to cpu 0"));
	assert_string_equal(r.anomalies.v[1].kind, "stall");
	assert_int_equal(r.anomalies.v[1].sev, PB_SEV_ERROR);
	assert_non_null(strstr(r.anomalies.v[1].message, "window 2:"));
	assert_true(r.other_frac == -1);
	pb_anomalies_free(&r.anomalies);
}

static bool has_noisy(const struct pb_result *r, const char *says)
{
	for (int i = 0; i < r->anomalies.nr; i++)
		if (!strcmp(r->anomalies.v[i].kind, "noisy"))
			return !says || strstr(r->anomalies.v[i].message, says);
	return false;
}

/*
 * V judges the metric's repeats only, each against its slices: three
 * repeats 100, 100.2, 99.9 whose slices predict 0.1 % are steady though a
 * counter pass beside them ran at 160; a third repeat at 110 is a step
 * (F on 2 and 27 df: three repeats, nine batch df each).
 */
static void test_repeats(void **state)
{
	struct pb_rep reps[4] = {
		{ .value = 100, .ops = 1000, .pass = -1, .in_summary = true },
		{ .value = 100.2, .ops = 1000, .pass = -1, .in_summary = true },
		{ .value = 99.9, .ops = 1000, .pass = -1, .in_summary = true },
		{ .value = 160, .ops = 1000, .pass = 0, .in_summary = false },
	};
	struct pb_job_seen seen = { 0 };
	struct pb_bench bench = { .name = "test" };
	struct pb_job job = { .bench = &bench };
	struct pb_result r;

	(void)state;
	for (int i = 0; i < 4; i++) {
		reps[i].slice_rse = 0.001;
		reps[i].slice_df = 9;
	}
	memset(&r, 0, sizeof(r));
	r.job = &job;
	r.reps = reps;
	r.nr_reps = 4;
	r.status = PB_OK;
	r.summary.n = 3;
	pb_job_checks(&seen, NULL, &r);
	assert_false(has_noisy(&r, NULL));
	pb_anomalies_free(&r.anomalies);
	reps[2].value = 110;
	pb_job_checks(&seen, NULL, &r);
	assert_true(has_noisy(&r, "on 2 and 27 df"));
	pb_anomalies_free(&r.anomalies);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_repeats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
