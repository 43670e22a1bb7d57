/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * env.h - the machine's state as it bears on measurements: cpufreq,
 * boost, thermal throttling, the NMI watchdog, perf_event_paranoid, the
 * PMU, SMT, isolated CPUs, the kernel command line, CPU vulnerabilities
 * and their mitigations, microcode, THP; per-CPU busy time.  The checks that turn them
 * into verdicts and anomalies are checks/envcheck.h.
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

/*
 * Parse a cpulist ("0-3,8,10-11", a trailing newline as sysfs writes it)
 * into cpus[max] in its order: how many, or -1 when malformed or over max.
 * The one parser of CPU sets (sysfs, /proc status, server --cpus); not
 * hwloc_bitmap_list_sscanf, which takes "0,1\n" as 0, "5\n", "3-1" and
 * "3a" as no CPU, "0x10" as 16 and "010" as 8, and does not return on "-3".
 */
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

/* /sys/devices/system/cpu/vulnerabilities/<name>: its text */
struct pb_env_vuln {
	char	name[64];
	char	text[256];
};

#define PB_ENV_CMDLINE	4096

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
	bool	sys_kernel;		/* /sys/kernel is there (else: tracefs unknown) */
	char	cmdline[PB_ENV_CMDLINE];/* /proc/cmdline, when cmdline_known */
	struct pb_env_vuln *vuln;	/* [nr_vuln], in name order */
	int	nr_vuln;
	bool	vuln_known;		/* the vulnerabilities folder exists */
	char	microcode[PB_ENV_STR];	/* cpuinfo "microcode" of the first CPU, or "" */
	char	microcode_version[PB_ENV_STR]; /* cpu0/microcode/version, or "" */
	char	thp_enabled[PB_ENV_STR];	/* the [choice] of .../enabled, or "" */
	char	thp_defrag[PB_ENV_STR];		/* the [choice] of .../defrag, or "" */
	char	cpuidle_driver[PB_ENV_STR];	/* cpuidle/current_driver, "none", or "" */
	char	cpuidle_governor[PB_ENV_STR];	/* cpuidle/current_governor(_ro), or "" */
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

/*
 * This boot's id (/proc/sys/kernel/random/boot_id, through the sysroot)
 * into buf: 0, or -1 and buf "" when it is missing or not hex digits and
 * dashes.  A kernel booted again gets a new one.
 */
#define PB_BOOT_ID_LEN	64
int pb_boot_id(char *buf, size_t len);

/* CAP_PERFMON or CAP_SYS_ADMIN in this process' effective set (or euid 0). */
bool pb_perf_privileged(void);

/*
 * Per-CPU busy time from /proc/stat and thermal throttle counters, for
 * the CPUs a job uses, taken before and after it.  CPU -1 is the
 * machine's total (the "cpu" line; its throttle counts unknown).
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

#endif
