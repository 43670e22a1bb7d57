// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare_prof.c - where a change went: a cell's profile passes
 * (profile=on results) as each function's own time per op, the mean over
 * the runs, the change against the baseline and its Poisson error, the
 * functions that changed most first and the role's total.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

/* A result's job with one role's folded stacks, each sample per ns/op. */
static json_t *job_of(const char *folded, double per)
{
	return json_pack("{s:{s:b, s:s, s:[{s:s, s:f, s:s}]}}", "profile", "sampled", 1,
			 "event", "cpu-clock", "roles", "role", "reader",
			 "ns_per_op_per_sample", per, "folded", folded);
}

static void add(struct pb_cell *cell, const char *folded, double per)
{
	json_t *j = job_of(folded, per);

	assert_int_equal(pb_cmp_add_profile(cell, j), 0);
	json_decref(j);
}

static void test_change_and_error(void **state)
{
	struct pb_cell base = { 0 }, cell = { 0 };
	struct pb_prof_row rows[5], total;
	int n;

	(void)state;
	/* base: 100 samples of 2 ns/op each, 64 of them in schedule */
	add(&base, "main;read;schedule 64\nmain;read;pipe_read 36\n", 2);
	/* two runs: spin appears, 100 + 300 samples of it at 1 ns/op */
	add(&cell, "main;read;schedule 128\nmain;spin 100\n", 1);
	add(&cell, "main;read;schedule 128\nmain;spin 300\n[other stacks] 16\n", 1);
	assert_string_equal(pb_cmp_prof_role(&base, 0), "reader");
	assert_null(pb_cmp_prof_role(&base, 1));
	n = pb_cmp_prof_top(&base, &cell, "reader", rows, 5, &total);
	assert_int_equal(n, 4);
	/* spin: 0 -> (100 + 300) / 2 = 200 ns/op, error sqrt(400) / 2 = 10 */
	assert_string_equal(rows[0].fn, "spin");
	assert_float_equal(rows[0].base, 0, 1e-9);
	assert_float_equal(rows[0].cur, 200, 1e-9);
	assert_float_equal(rows[0].change, 200, 1e-9);
	assert_float_equal(rows[0].err, 10, 1e-9);
	/* pipe_read: 72 -> 0, error 2 sqrt(36) = 12 */
	assert_string_equal(rows[1].fn, "pipe_read");
	assert_float_equal(rows[1].change, -72, 1e-9);
	assert_float_equal(rows[1].err, 12, 1e-9);
	/* schedule: 128 -> 128: no change, error sqrt(4 * 64 + 256 / 4) */
	assert_string_equal(rows[3].fn, "schedule");
	assert_float_equal(rows[3].change, 0, 1e-9);
	assert_float_equal(rows[3].err, sqrt(4.0 * 64 + 256.0 / 4), 1e-9);
	/* the role: 200 -> 128 + 200 + 8 = 336 ns/op */
	assert_float_equal(total.base, 200, 1e-9);
	assert_float_equal(total.cur, 336, 1e-9);
	assert_float_equal(total.change, 136, 1e-9);
	/* the whole stacks, the mean over the runs: what the flame graph draws */
	json_t *st = pb_cmp_prof_stacks(&cell, "reader");

	assert_float_equal(json_number_value(json_object_get(st, "main;spin")), 200, 1e-9);
	assert_float_equal(json_number_value(json_object_get(st, "main;read;schedule")), 128,
			   1e-9);
	assert_float_equal(json_number_value(json_object_get(st, "[other stacks]")), 8, 1e-9);
	assert_int_equal(json_object_size(st), 3);
	json_decref(st);
	json_decref(base.prof);
	json_decref(cell.prof);
}

static void test_not_sampled(void **state)
{
	struct pb_cell cell = { 0 };
	json_t *j = json_pack("{s:{s:b}}", "profile", "sampled", 0);

	(void)state;
	assert_int_equal(pb_cmp_add_profile(&cell, j), 0);
	assert_null(cell.prof);
	json_decref(j);
}

/* A run's job with "slower" in its profile, as run records it (NAN: absent). */
static void add_slower(struct pb_cell *cell, double slower)
{
	json_t *j = job_of("main;read 10\n", 1.0);

	if (!isnan(slower))
		json_object_set_new(json_object_get(j, "profile"), "slower", json_real(slower));
	assert_int_equal(pb_cmp_add_profile(cell, j), 0);
	json_decref(j);
}

/*
 * How much slower the profiled windows ran: the mean over the runs that
 * recorded it (a run without it, an older file, left out), said per side,
 * "faster" for a negative figure, nothing when neither side has it.
 */
static void test_slower(void **state)
{
	struct pb_cell base = { 0 }, cell = { 0 }, none = { 0 };
	char buf[400];

	(void)state;
	add_slower(&base, 0.8);
	add_slower(&base, NAN);
	add_slower(&base, 0.6);
	add_slower(&cell, -0.1);
	add_slower(&none, NAN);
	assert_float_equal(pb_cmp_prof_slower(&base), 0.7, 1e-12);
	assert_float_equal(pb_cmp_prof_slower(&cell), -0.1, 1e-12);
	assert_true(isnan(pb_cmp_prof_slower(&none)));
	pb_cmp_prof_slower_words(&base, &cell, "A", "B", buf, sizeof(buf));
	assert_string_equal(buf, "the profiled windows ran 70 % slower (A) and 10 % faster (B) "
			    "than the metric's repeats: the times per op are those windows'");
	pb_cmp_prof_slower_words(&none, &base, "A", "B", buf, sizeof(buf));
	assert_string_equal(buf, "the profiled windows ran 70 % slower (B) than the metric's "
			    "repeats (A: not recorded): the times per op are those windows'");
	pb_cmp_prof_slower_words(&none, &none, "A", "B", buf, sizeof(buf));
	assert_string_equal(buf, "");
	json_decref(base.prof);
	json_decref(cell.prof);
	json_decref(none.prof);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_change_and_error),
		cmocka_unit_test(test_not_sampled),
		cmocka_unit_test(test_slower),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
