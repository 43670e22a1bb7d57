// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_profile.c - the profile pass's arithmetic in core: a role's
 * task-clock less what its samples cost, before samples turn into ns per
 * op (a sample's cost is charged where it lands, so left in it would
 * swell every function's share by the same factor).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>

#include "core/profile.h"
#include "sys/fold.h"

static void test_net_clock(void **state)
{
	struct pb_profile p = { .sample_cost_ns = 20000 };
	struct pb_prof_role r = { .samples = 1900, .lost = 100, .task_clock_ns = 1000000000ull };

	(void)state;
	/* 2000 samples (lost ones too) of 20 µs: 40 ms of 1 s */
	assert_int_equal(pb_prof_net_clock(&p, &r), 960000000ull);
	/* 1000 ops: a sample stands for 960 ms / 1900 / 1000 */
	assert_float_equal(pb_fold_ns_per_op(1, r.samples, pb_prof_net_clock(&p, &r), 1000, NULL),
			   960000000.0 / 1900 / 1000, 1e-6);
	p.sample_cost_ns = 0;
	assert_int_equal(pb_prof_net_clock(&p, &r), 1000000000ull);
	/* a cost above the clock (a cost timed on a noisier moment): nothing left, not a wrap */
	p.sample_cost_ns = 600000;
	assert_int_equal(pb_prof_net_clock(&p, &r), 0);
	p.sample_cost_ns = 500000;
	assert_int_equal(pb_prof_net_clock(&p, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_net_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
