// SPDX-License-Identifier: GPL-2.0-only
/*
 * failpin.c - an LD_PRELOAD shim for tests: sched_setaffinity() to a
 * single CPU (a pin: what hwloc_set_cpubind() asks for a role) fails with
 * EINVAL, as it does for a CPU that is offline or outside the cpuset;
 * any other mask is passed to the kernel.  A failed pin is then seen on
 * any machine, without taking a CPU away.
 *   cc -shared -fPIC -o failpin.so tests/tools/failpin.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	if (set && CPU_COUNT_S(size, set) == 1) {
		errno = EINVAL;
		return -1;
	}
	return (int)syscall(SYS_sched_setaffinity, pid, size, set);
}
