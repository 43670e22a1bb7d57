/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpulock.h - per-CPU advisory locks: two pinbench runs measuring the same
 * CPU at once know it (see cpulock.c).
 */
#ifndef PINBENCH_CPULOCK_H
#define PINBENCH_CPULOCK_H

#include <stddef.h>

struct pb_cpulock {
	int	*fd;		/* lock files held */
	int	nr;
};

struct pb_cpu_holder {
	int	cpu;
	int	pid;		/* 0 when unknown (another pid namespace) */
	long	uid;		/* its owner, -1 when unknown */
	char	comm[17];	/* its command name (/proc/PID/comm, cleaned), or "" */
};

/*
 * Lock the n CPUs (duplicates and negative numbers ignored) for this
 * process, without waiting.  A CPU another process holds is left unlocked
 * and goes into held[] (at most max; *nheld says how many): the caller
 * warns, or releases and tries again later.  -1 with err when the lock
 * files cannot be used (nothing held).
 */
int pb_cpulock_take(struct pb_cpulock *l, const int *cpus, int n,
		    struct pb_cpu_holder *held, int max, int *nheld, char *err, size_t len);
void pb_cpulock_release(struct pb_cpulock *l);

/*
 * Who holds a lock, as it is: "pid 4242 (pinbench, user alice)",
 * "pid 4242 (python3, uid 1234)", "a process of another pid namespace".
 * Any local user can take a lock file, so the holder is named, never
 * assumed to be a pinbench.
 */
void pb_cpu_holder_text(const struct pb_cpu_holder *h, char *buf, size_t len);

#endif
