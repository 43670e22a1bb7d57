/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - the clock, measured without a PMU and without trusting
 * /proc/cpuinfo; the nominal clock and where it came from; the observer
 * reference loop; and the checks on those figures.
 *
 * The probe runs a dependent chain of register adds (one cycle each) and
 * a dependent chain of imuls (three cycles each) in a thread pinned to
 * the CPU, timed with CLOCK_MONOTONIC_RAW, best of several short runs
 * (about 5 ms in all).  Two chains with different latencies agreeing
 * means the figure is the core clock, not an artefact of one instruction.
 * On other architectures than x86-64 the probe returns -1 ("unknown").
 */
#ifndef PINBENCH_PROBE_H
#define PINBENCH_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "anomaly.h"

struct pb_probe {
	int	cpu;		/* the CPU probed (-1: wherever the caller ran) */
	double	add_mhz;	/* from the add chain */
	double	imul_mhz;	/* from the imul chain */
	double	mhz;		/* the probe's figure: add_mhz */
	double	spread;		/* |add - imul| / max(add, imul), a fraction */
};

/* True when this build has a probe (x86-64). */
bool pb_probe_available(void);
/* Probe cpu (-1: the calling thread's CPU, unpinned).  0, or -1 with err. */
int pb_probe_cpu(int cpu, struct pb_probe *p, char *err, size_t len);
json_t *pb_probe_json(const struct pb_probe *p);

struct pb_nominal {
	double	mhz;		/* 0 when unknown */
	char	source[32];	/* "base_frequency", "model-name", "cpuid-0x16", "tsc", "unknown" */
};

/*
 * The nominal clock of cpu, from the first source available: cpufreq
 * base_frequency (kHz), the "@ x.xxGHz" of the model name, CPUID leaf
 * 0x16 (EAX, when non-zero), the TSC rate measured against
 * CLOCK_MONOTONIC_RAW over 10 ms when the TSC is constant.  The two files
 * are read under $PINBENCH_SYSROOT.  Returns 0, or -1 when unknown.
 */
int pb_nominal_detect(int cpu, struct pb_nominal *n);
/* "Intel(R) Xeon(R) CPU E5450 @ 3.00GHz" -> 3000: 0, or -1 when absent. */
int pb_nominal_from_model(const char *model, double *mhz);
json_t *pb_nominal_json(const struct pb_nominal *n);

/*
 * Checks on figures (probe MHz, counts); each adds an anomaly when it
 * flags and returns true.  0 or a negative figure means unknown: no flag.
 */
#define PB_DRIFT_MAX	0.03	/* after vs before */
#define PB_LOW_MAX	0.10	/* probe below nominal */
#define PB_MISMATCH_MAX	0.05	/* counters' effective clock vs probe */
#define PB_OBSERVER_MAX	0.05	/* reference loop slower at the end */

/* frequency-drift (warn) when after differs from before by more than 3 %. */
bool pb_check_drift(int cpu, double before_mhz, double after_mhz, struct pb_anomalies *a);
/* frequency-low (warn; error beyond 25 %) when the probe is > 10 % below nominal. */
bool pb_check_low(int cpu, double probe_mhz, const struct pb_nominal *nom,
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
const char *pb_clock_verdict_str(enum pb_clock_verdict v);	/* a sentence */

/*
 * Observer effect: time PB_OBSERVER_CALLS getppid() calls on cpu (-1:
 * unpinned), best of 3.  0 with *seconds, or -1 with err.
 */
#define PB_OBSERVER_CALLS	200000
int pb_observer_time(int cpu, double *seconds, char *err, size_t len);
/* observer-effect when end is more than 5 % slower than start (warn; error beyond 20 %). */
bool pb_check_observer(int cpu, double start_s, double end_s, struct pb_anomalies *a);

#endif
