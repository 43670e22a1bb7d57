/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export.h - result files as what labs and CI systems read: LAVA test
 * cases (lava-test-case commands or LAVA_SIGNAL_TESTCASE lines), KTAP v1
 * (kselftest, KernelCI) and JUnit XML (Jenkins, GitLab); each job x
 * placement one test case, judged against a baseline with compare's
 * statistics (report/compare.h).  The engine behind `pinbench export`.
 */
#ifndef PINBENCH_EXPORT_H
#define PINBENCH_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"

enum pb_exp_format { PB_EXP_LAVA, PB_EXP_LAVA_SIGNAL, PB_EXP_KTAP, PB_EXP_JUNIT };

/* "lava", "lava-signal", "ktap", "junit" -> enum pb_exp_format; -1 when unknown. */
int pb_exp_format_parse(const char *s);

struct pb_exp_opts {
	enum pb_exp_format	format;
	int			cur;		/* the group of the results exported */
	int			base;		/* the baseline's group, or -1: none */
	const char		*base_name;	/* how messages name the baseline */
	double			min_change;	/* percent, as compare's --min-change */
	bool			no_correction;	/* plain per-cell p (default: BH-adjusted q) */
};

/* What was written: test cases by result. */
struct pb_exp_counts {
	int	pass, fail, skip;
};

/*
 * Write c's group o->cur as test cases, in table order: per job x
 * placement one case (pass; skip with the reason when the placement could
 * not be offered; fail when the job failed or was interrupted, or when a
 * baseline is given and compare finds a significant regression against
 * it), its mean and unit as the measurement; per anomaly of severity error
 * one more, failed, case, and per run-wide one (c->run_errors) a failed
 * "pinbench-run" / "environment" / KIND case.  With a baseline LAVA gets
 * a NAME.change case more (the change in %), KTAP and JUnit the change and
 * its interval in the message and properties.  Runs pb_cmp_adjust().  0, or -1 with err
 * set (out of memory).
 */
int pb_export(struct pb_cmp *c, const struct pb_exp_opts *o, FILE *out,
	      struct pb_exp_counts *n, char *err, size_t len);

#endif
