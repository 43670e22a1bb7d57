/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clockcheck.h - verdicts on clock figures: frequency-drift, frequency-low,
 * probe-disturbed, counter-clock-mismatch, observer-effect (clockcheck.c).
 */
#ifndef PINBENCH_CLOCKCHECK_H
#define PINBENCH_CLOCKCHECK_H

#include <stdbool.h>

#include "lib/anomaly.h"
#include "sys/probe.h"

/*
 * Checks on figures (probe MHz, counts); each adds an anomaly when it
 * flags and returns true.  0 or a negative figure means unknown: no flag.
 */
#define PB_DRIFT_MAX	0.03	/* after vs before */
#define PB_LOW_MAX	0.10	/* probe below nominal */
#define PB_MISMATCH_MAX	0.05	/* counters' effective clock vs probe */
#define PB_OBSERVER_MAX	0.05	/* reference loop slower at the end */
/*
 * On a guest (struct pb_nominal's guest) the host owns the clock and its
 * speed moves with its own load, job to job and over minutes (figures:
 * doc/measurements.md).  There a drift is marked from 10 % and the
 * observer effect from 20 % (the 2009 report is 33 % and 37 %); a smaller
 * drift is a note (info), not re-probed.
 */
#define PB_DRIFT_GUEST_MAX	0.10
#define PB_OBSERVER_GUEST_MAX	0.20

/*
 * Do these probes need re-probes before a verdict: before and after (or
 * closed) differ by more than PB_DRIFT_MAX (PB_DRIFT_GUEST_MAX on a
 * guest), after is more than PB_LOW_MAX below nominal, or the after
 * probes are disturbed?
 */
bool pb_clock_suspect(const struct pb_clock_obs *o, const struct pb_nominal *nom);
/*
 * The clock verdicts of one CPU, each only from undisturbed probes:
 *  - frequency-drift (warn): before and after differ by more than 3 % (10
 *    % on a guest), and the re-probes confirm the change: every undisturbed
 *    one differs from before by more than that the same way (a clock that
 *    wanders, as a virtual machine's host clock does, often comes back
 *    within a second); a change the re-probes do not confirm is
 *    probe-disturbed (info); on a guest, a change between 3 and 10 % is
 *    frequency-drift (info), a note with its figures and no mark;
 *  - frequency-low (warn; error beyond 25 %): after (or, when after is
 *    disturbed, the re-probes) more than 10 % below nominal, and every
 *    undisturbed re-probe too;
 *  - probe-disturbed (info): a disturbed probe, with its figures, or a
 *    suspicion the re-probes did not confirm.
 * Returns true when D or L was raised.
 */
bool pb_judge_clock(const struct pb_clock_obs *o, const struct pb_nominal *nom,
		    struct pb_anomalies *a);

enum pb_clock_verdict {
	PB_CLOCK_UNKNOWN,	/* not enough figures */
	PB_CLOCK_OK,		/* counters, probe and nominal agree */
	PB_CLOCK_COUNTS_WRONG,	/* counters disagree with the probe */
	PB_CLOCK_CHANGED,	/* counters agree with the probe, both below nominal */
};

/* The figures of one job (or CPU) for the clock verdict. */
struct pb_clock_fig {
	int	cpu;		/* or -1 */
	double	nominal_mhz;	/* 0 unknown */
	double	probe_mhz;	/* probe during/after the job, 0 unknown */
	double	cycles;		/* counted cycles, scaled; 0 unknown */
	double	ref_cycles;	/* 0 unknown */
	double	task_ns;	/* task-clock of the tasks that counted cycles; 0 unknown */
};

/*
 * Effective clocks from counters: cycles / task-clock, and cycles /
 * ref-cycles * nominal.  Either more than 5 % away from the probe:
 * counter-clock-mismatch (error), "the counts are wrong".  Counters that
 * agree with a probe more than 10 % below nominal: "the clock changed"
 * (the frequency-low anomaly is pb_check_low's).  The cycles/task-clock
 * figure goes to *eff_mhz when not NULL (0 when unknown).
 */
enum pb_clock_verdict pb_check_clock(const struct pb_clock_fig *f, struct pb_anomalies *a,
				     double *eff_mhz);

/*
 * observer-effect when end is more than 5 % slower than start (20 % on a
 * guest, nom->guest; nom may be NULL) (warn; error beyond 20 %) and the
 * re-timings again[nr] confirm it (their median: the change claimed); one
 * within the limit makes it probe-disturbed (info).  nr 0: no re-timing,
 * end alone decides.  The re-timings: every PB_OBSERVER_STEP_S for up to
 * PB_OBSERVER_RETRIES, stopping at the first within the limit.  A KVM
 * guest's loop moves by 1.5x between phases of its host lasting seconds:
 * re-timed over 1 s, 2-4 % of runs there claimed an observer effect; over
 * up to 5 s, under 0.1 %, at about 0.15 s a run (doc/measurements.md).
 * A change that lasts (the 2009 one lasted until a reboot) is still
 * claimed, 5 s later.  busy_cpus: the machine's busy time while it was
 * re-timed, in CPUs (negative: unknown).  From PB_OBSERVER_BUSY_CPUS the
 * slowdown may be a neighbour's load that began during the run (it shares
 * the host's core, caches and memory with the loop), not measuring: a
 * warning that says so, never an error.  With a load that was there from
 * the start, a real observer effect is a warning too.
 */
#define PB_OBSERVER_RETRIES	21
#define PB_OBSERVER_STEP_S	0.25
#define PB_OBSERVER_BUSY_CPUS	0.5
double pb_observer_max(const struct pb_nominal *nom);
bool pb_check_observer(int cpu, double start_s, double end_s, const double *again, int nr,
		       double busy_cpus, const struct pb_nominal *nom, struct pb_anomalies *a);

#endif
