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
};

/* $PINBENCH_LOCK_DIR, else /run/lock, else /tmp. */
const char *pb_cpulock_dir(void);

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

#endif
