/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - the clock, measured without a PMU and without trusting
 * /proc/cpuinfo; the nominal clock and where it came from; the observer
 * reference loop.  The verdicts on those figures are checks/clockcheck.h.
 *
 * The probe runs a dependent chain of register adds (one cycle each) and
 * a dependent chain of imuls (three cycles each) in a child process
 * pinned to the CPU (a process, not a thread: see run_pinned() in
 * probe.c), timed with CLOCK_MONOTONIC_RAW: many short samples back to
 * back (tens of ms in all), summarised by their medians.  Two chains with
 * different latencies agreeing means the figure is the core clock, not an
 * artefact of one instruction.  A shared or virtual machine disturbs the
 * probe (the vCPU descheduled, a neighbour on the core): samples that
 * disagree, or time the probe spent off its CPU, make it "disturbed", and
 * no clock verdict is drawn from a disturbed probe.  A clock change is
 * only claimed once re-probes over a few hundred ms confirm it.
 * On other architectures than x86-64 the probe returns -1 ("unknown").
 */
#ifndef PINBENCH_PROBE_H
#define PINBENCH_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "lib/anomaly.h"

#define PB_PROBE_SAMPLES	96	/* samples in one probe, back to back */
/*
 * Samples' IQR / median above this: disturbed.  The median of 96 samples
 * is known to about a tenth of their IQR (1.25 x IQR / 1.35 / sqrt(96)):
 * 0.5 % at 5 %, well inside the 3 % a drift is judged by.  A VM's host
 * jitters its short samples by 2-3 % (IQR) for minutes at a time; at 2 %
 * its probes were disturbed in such stretches, each costing a second of
 * re-probes, with nothing wrong in their medians.
 */
#define PB_PROBE_DISP_MAX	0.05
#define PB_PROBE_OFF_MAX	0.05	/* share of the probe's time not on the CPU */

struct pb_probe {
	int	cpu;		/* the CPU probed (-1: wherever the caller ran) */
	double	add_mhz;	/* median of the add chain's samples */
	double	imul_mhz;	/* median of the imul chain's samples */
	double	mhz;		/* the probe's figure: add_mhz */
	double	spread;		/* |add - imul| / max(add, imul), a fraction */
	int	nr_samples;
	double	disp;		/* (q75 - q25) / median of the add samples */
	double	off_cpu;	/* 1 - its CPU time / wall time over the probe */
	double	steal_irq;	/* the CPU's steal + irq + softirq time / wall time */
	double	wall_s;		/* how long the probe took */
	bool	disturbed;	/* samples disagree, or the probe lost the CPU */
};

/* True when this build has a probe (x86-64), or readings are injected. */
bool pb_probe_available(void);
/*
 * Probe cpu (-1: the calling thread's CPU, unpinned): PB_PROBE_SAMPLES
 * samples of each chain back to back (tens of milliseconds), their
 * medians, their dispersion and the time the probe was not on the CPU.
 * 0, or -1 with err.
 *
 * Test seam: when $PINBENCH_PROBE_FILE names a file, its readings stand
 * in for the chains (see pb_probe_inject_parse()).
 */
int pb_probe_cpu(int cpu, struct pb_probe *p, char *err, size_t len);
/*
 * Probe n CPUs at once, each in its own pinned child: p[i] and rc[i] (0,
 * or -1 when that probe failed) as pb_probe_cpu() gives them.  The caller
 * keeps SMT siblings out of one call: two chains on one core would share
 * it.  Injected readings are taken in turn, in cpu[] order.
 */
void pb_probe_cpus(const int *cpu, int n, struct pb_probe *p, int *rc);
/*
 * The same, right after a probe of these CPUs: without the 10 ms warm-up,
 * which the probe before was (16 ms of a job's fixed cost).
 */
void pb_probe_cpus_again(const int *cpu, int n, struct pb_probe *p, int *rc);
/*
 * The figures of one probe from its samples (MHz of each add and imul
 * sample, n of them), the share of its time off the CPU and the share
 * stolen or spent in interrupts: medians, dispersion, disturbed.
 */
void pb_probe_summarise(struct pb_probe *p, const double *add_mhz, const double *imul_mhz,
			int n, double off_cpu, double steal_irq);
/* Why p is disturbed, as a phrase ("samples disagree by 7.1 % (IQR), ..."). */
void pb_probe_why(const struct pb_probe *p, char *buf, size_t len);
json_t *pb_probe_json(const struct pb_probe *p);

#define PB_PROBE_ENV		"PINBENCH_PROBE_FILE"
#define PB_INJECT_MAX		256	/* probes in one file */
struct pb_inject_line {
	int	cpu;
	int	n;
	double	mhz[PB_PROBE_SAMPLES];
	double	off_cpu, steal_irq;
};
/*
 * Parse an injected probe file: one probe per line, consumed in order per
 * CPU, the last line of a CPU repeating once its lines run out:
 *	# comment
 *	CPU: MHZ [MHZ ...] [off=FRACTION] [steal=FRACTION]
 * MHZ are the samples (both chains read the same).  How many lines went to
 * out[max], or -1 with err naming the line.
 */
int pb_probe_inject_parse(const char *text, struct pb_inject_line *out, int max,
			  char *err, size_t len);
/* 0 when $PINBENCH_PROBE_FILE is unset or loads; -1 with err when it is broken. */
int pb_probe_inject_check(char *err, size_t len);

/*
 * Confirmation: a probe that suggests the clock changed is repeated
 * nr times spread over span_s before anything is claimed.
 */
#define PB_CONFIRM_PROBES	5
#define PB_CONFIRM_SPAN_S	1.0
struct pb_confirm {
	int	nr, nr_clean;		/* probes taken, undisturbed ones */
	double	mhz[PB_CONFIRM_PROBES];	/* each probe's figure, 0 failed */
	double	median;			/* of the undisturbed ones; 0 when fewer than 3 */
	double	lo, hi;			/* the lowest and highest undisturbed one */
	double	span_s;			/* first to last */
};
/*
 * The same for n CPUs at once (pb_probe_cpus() each time), c[i] for
 * cpu[i]: CPUs probed together before and after a job are re-probed
 * together, so that each re-probe sees the same number of busy cores
 * (a turbo clock depends on it), and n CPUs take one second, not n.
 */
void pb_probe_confirm_cpus(const int *cpu, int n, struct pb_confirm *c);

struct pb_nominal {
	double	mhz;		/* 0 when unknown */
	char	source[32];	/* "base_frequency", "model-name", "cpuid-0x16", "tsc", "unknown" */
	bool	guest;		/* a virtual machine (cpuinfo's hypervisor flag): the host
				 * owns the clock, and its speed moves with its load */
};

/*
 * The nominal clock of cpu, from the first source available: cpufreq
 * base_frequency (kHz), the "@ x.xxGHz" of the model name, CPUID leaf
 * 0x16 (EAX, when non-zero), the TSC rate measured against
 * CLOCK_MONOTONIC_RAW over 10 ms when the TSC is constant; and whether
 * this is a guest.  The two files are read under $PINBENCH_SYSROOT.
 * Returns 0, or -1 when the clock is unknown.
 */
int pb_nominal_detect(int cpu, struct pb_nominal *n);
/* "Intel(R) Xeon(R) CPU E5450 @ 3.00GHz" -> 3000: 0, or -1 when absent. */
int pb_nominal_from_model(const char *model, double *mhz);
json_t *pb_nominal_json(const struct pb_nominal *n);

/* The probes of one CPU around a job; a probe with mhz 0 was not taken. */
struct pb_clock_obs {
	int			cpu;
	struct pb_probe		before;		/* before the roles start */
	struct pb_probe		after;		/* roles stopped, counters still open */
	struct pb_probe		closed;		/* counters closed */
	struct pb_confirm	confirm;	/* re-probes, nr 0 when none were needed */
};

json_t *pb_clock_obs_json(const struct pb_clock_obs *o);

/*
 * Observer effect: time PB_OBSERVER_CALLS getppid() calls on cpu (-1:
 * unpinned), best of PB_OBSERVER_RUNS, in its own CPU time (a clock that
 * slowed shows; time other tasks held the CPU does not).  0 with
 * *seconds, or -1 with err.  On a noisy guest the host's drift over
 * seconds, not the loop's length, sets the timings' spread
 * (doc/measurements.md), and a change beyond 5 % (20 % on a guest) is
 * re-timed before it is claimed.
 */
#define PB_OBSERVER_CALLS	20000
#define PB_OBSERVER_RUNS	3
int pb_observer_time(int cpu, double *seconds, char *err, size_t len);
/*
 * Re-time the reference loop up to nr times, step_s apart, stopping at
 * the first timing of at most enough_s; how many succeeded (the last
 * one is the one within enough_s, if any was).
 */
int pb_observer_confirm(int cpu, double *again, int nr, double step_s, double enough_s);

#endif
