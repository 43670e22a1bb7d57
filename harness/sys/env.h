/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.h - the machine's state as it bears on measurements: cpufreq,
 * boost, thermal throttling, the NMI watchdog, perf_event_paranoid, the
 * PMU, SMT, isolated CPUs; per-CPU busy time; and the checks that turn
 * them into anomalies.
 *
 * Every /proc and /sys read goes through sys/sysfs.h (the sysroot).
 */
#ifndef PINBENCH_ENV_H
#define PINBENCH_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "lib/anomaly.h"
#include "sys/sysfs.h"

#define PB_ENV_UNKNOWN	(-1)		/* for every long/int field below */
#define PB_ENV_STR	32

/* Parse a cpulist ("0-3,8,10-11") into cpus[max]: how many, or -1. */
int pb_cpulist_parse(const char *s, int *cpus, int max);

struct pb_env_cpu {
	int	cpu;
	char	governor[PB_ENV_STR];	/* "" unknown */
	char	driver[PB_ENV_STR];	/* "" unknown */
	long	min_khz, max_khz;	/* scaling_min/max_freq, or -1 */
	long	base_khz;		/* base_frequency, or -1 */
	long	core_throttle;		/* thermal_throttle/core_throttle_count, or -1 */
	long	pkg_throttle;		/* .../package_throttle_count, or -1 */
};

struct pb_env {
	int			nr_cpus;	/* online CPUs */
	struct pb_env_cpu	*cpu;		/* [nr_cpus] */
	/* the common value when every CPU agrees, "mixed", or "" unknown */
	char	governor[PB_ENV_STR];
	char	driver[PB_ENV_STR];
	long	min_khz, max_khz;		/* common value, or -1 (mixed/unknown) */
	int	boost;			/* cpufreq/boost: 1, 0 or -1 */
	int	no_turbo;		/* intel_pstate/no_turbo: 1, 0 or -1 */
	int	nmi_watchdog;		/* 1, 0 or -1 */
	bool	paranoid_known;
	int	paranoid;		/* perf_event_paranoid (may be -1) */
	int	pmu;			/* a core PMU is registered: 1, 0, -1 */
	char	pmu_name[PB_ENV_STR];	/* "cpu", "cpu_core+cpu_atom" */
	int	hypervisor;		/* cpuinfo "hypervisor" flag: 1, 0, -1 */
	char	smt_control[PB_ENV_STR];/* "on", "off", "notsupported", "" */
	int	smt_active;		/* 1, 0 or -1 */
	char	isolated[128];		/* /sys/devices/system/cpu/isolated */
	char	nohz_full[128];		/* /sys/devices/system/cpu/nohz_full */
	char	cmd_isolcpus[128];	/* isolcpus= of /proc/cmdline */
	char	cmd_nohz_full[128];	/* nohz_full= of /proc/cmdline */
	bool	cmdline_known;
	bool	isolated_known;		/* the isolated file exists */
	char	model[128];		/* cpuinfo "model name", or "" */
	char	tracefs[256];		/* readable tracefs events folder, or "" */
};

/* Collect everything; never fails for a missing file.  0, or -1 (ENOMEM). */
int pb_env_collect(struct pb_env *e, char *err, size_t len);
void pb_env_free(struct pb_env *e);
/* The environment as stored with every run (unknown values are null). */
json_t *pb_env_json(const struct pb_env *e);
/* What a perf_event_paranoid level forbids unprivileged users, in words. */
const char *pb_paranoid_words(int level);
/* Sum of all throttle counters (core + package), or -1 when none known. */
long pb_env_throttle_total(const struct pb_env *e);

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
/* CAP_PERFMON or CAP_SYS_ADMIN in this process' effective set (or euid 0). */
bool pb_perf_privileged(void);

/*
 * Per-CPU busy time from /proc/stat and thermal throttle counters, for
 * the CPUs a job uses, taken before and after it.
 */
struct pb_cpustat {
	int		cpu;
	bool		known;		/* the CPU's /proc/stat line was found */
	uint64_t	busy_ns;	/* user+nice+system+irq+softirq */
	uint64_t	idle_ns;	/* idle+iowait */
	uint64_t	steal_ns;
	uint64_t	irq_ns;		/* irq+softirq (also in busy_ns) */
	long		core_throttle;	/* or -1 */
	long		pkg_throttle;	/* or -1 */
};

/* Snapshot cpus[n] into out[n].  0, or -1 when /proc/stat is unreadable. */
int pb_cpustat_snapshot(const int *cpus, int n, struct pb_cpustat *out);
/* Same, from the text of a /proc/stat (tests). */
int pb_cpustat_parse(const char *procstat, const int *cpus, int n,
		     struct pb_cpustat *out);

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

/* cv (a fraction, as in struct pb_summary) > 2 %: noisy, warn, with the CV. */
#define PB_CV_NOISY	0.02
bool pb_check_cv(double cv, struct pb_anomalies *a);
/*
 * A pinned role (name, instance) planned on cpu ran on seen[n] (from
 * sched_getcpu() samples): any other CPU is a migration, error.
 */
bool pb_check_migration(const char *role, int instance, int planned,
			const int *seen, int n, struct pb_anomalies *a);

#endif
