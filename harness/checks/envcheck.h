/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * envcheck.h - verdicts on the machine's state: over a job's windows, and
 * the environment checks of `pinbench doctor` (see envcheck.c).
 */
#ifndef PINBENCH_ENVCHECK_H
#define PINBENCH_ENVCHECK_H

#include <stdbool.h>

#include "lib/anomaly.h"
#include "sys/env.h"

/* One line of `pinbench doctor`. */
enum pb_check_status { PB_CHECK_OK, PB_CHECK_SKIP, PB_CHECK_WARN, PB_CHECK_FAIL };

struct pb_check {
	char			name[32];	/* "governor" */
	enum pb_check_status	status;
	char			figure[200];	/* "powersave on cpu0-7 (intel_pstate)" */
	char			fix[200];	/* one-line fix, "" when ok */
};

const char *pb_check_status_name(enum pb_check_status s);	/* "ok", ... */
/*
 * The environment checks (governor, boost, throttling, nmi_watchdog,
 * perf_event_paranoid, PMU, SMT, isolation) into out[max]: how many.
 * privileged: the caller may count anything (root, CAP_PERFMON).
 */
int pb_env_checks(const struct pb_env *e, bool privileged, struct pb_check *out, int max);
/* The warn/fail checks as anomalies (kind "env-<check name>"). */
void pb_env_anomalies(const struct pb_env *e, bool privileged, struct pb_anomalies *a);
/*
 * Noisy neighbours, steal and throttling over a job's metric windows.
 *
 * others: what other tasks ran on the job's n CPUs (others.h; NULL when
 * unknown), as a fraction of elapsed_s * n CPUs:
 *	> 5 %  noisy-neighbor, warn
 *	> 20 % noisy-neighbor, error
 * naming the task that ran most.  Steal time (/proc/stat) above 5 % of the
 * CPUs' time and more than 3 clock ticks per CPU: cpu-steal, warn.  Any
 * throttle counter that increased: throttling, error.  The other-task
 * fraction goes to *other_frac (-1 when unknown).
 */
#define PB_NEIGHBOR_WARN	0.05
#define PB_NEIGHBOR_ERROR	0.20
#define PB_NEIGHBOR_TICKS	3
struct pb_others_delta;
void pb_check_job_cpus(const struct pb_cpustat *before, const struct pb_cpustat *after,
		       int n, double elapsed_s, const struct pb_others_delta *others,
		       struct pb_anomalies *a, double *other_frac);

/*
 * The fallback of pb_check_repeats, for repeats without enough slices:
 * cv (a fraction, as in struct pb_summary) > 2 %: noisy, warn, with the CV.
 */
#define PB_CV_NOISY	0.02
bool pb_check_cv(double cv, struct pb_anomalies *a);
/*
 * One repeat of the metric: its value, and the relative standard error of
 * its mean that its own slices predict (stats/robust.h, pb_batch_rse) with
 * that estimate's degrees of freedom (0: no slices to tell).
 */
struct pb_repeat_noise {
	double	value;
	double	rse;
	int	df;
};
/*
 * Did the machine change under the run?  The k repeats' relative variance
 * (CV^2) against the pooled variance their slices predict for one repeat
 * (the mean of rse^2): F = CV^2 / mean(rse^2) on k - 1 and sum(df) degrees
 * of freedom.  noisy, warn, when p < PB_NOISY_ALPHA and the CV beyond what
 * the slices explain, sqrt(CV^2 - mean(rse^2)), is above PB_NOISY_EXCESS.
 * A repeat without slices (df 0): pb_check_cv on the repeats' CV instead.
 * k < 2: nothing to judge.
 */
#define PB_NOISY_ALPHA	0.001
#define PB_NOISY_EXCESS	0.01
bool pb_check_repeats(const struct pb_repeat_noise *r, int k, struct pb_anomalies *a);
/*
 * A pinned role (name, instance) planned on cpu ran on seen[n] (from
 * sched_getcpu() samples): any other CPU is a migration, error.
 */
bool pb_check_migration(const char *role, int instance, int planned,
			const int *seen, int n, struct pb_anomalies *a);

#endif
