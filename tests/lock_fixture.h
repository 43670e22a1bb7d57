/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the unit tests that need another process holding CPU locks
 * (tests/unit/sys/test_cpulock.c, tests/unit/core/test_execute.c).
 */
#ifndef PB_TESTS_LOCK_FIXTURE_H
#define PB_TESTS_LOCK_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sys/cpulock.h"

/* A fresh lock folder dir[64] (named for the test), in $PINBENCH_LOCK_DIR. */
static inline void lock_dir_make(char *dir, const char *test)
{
	snprintf(dir, 64, "/tmp/pinbench-%s.XXXXXX", test);
	assert_non_null(mkdtemp(dir));
	setenv("PINBENCH_LOCK_DIR", dir, 1);
}

/* The lock folder gone, and $PINBENCH_LOCK_DIR. */
static inline void lock_dir_remove(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	unsetenv("PINBENCH_LOCK_DIR");
}

/* A child that holds the locks of cpus[n] until *go is written to; its pid. */
static inline pid_t lock_holder(const int *cpus, int n, int *go)
{
	int p[2], q[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct pb_cpu_holder held[4];
		struct pb_cpulock l;
		int nheld;
		char err[256];

		if (pb_cpulock_take(&l, cpus, n, held, 4, &nheld, err, sizeof(err)) || nheld)
			_exit(1);
		if (write(q[1], "x", 1) != 1 || read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	close(q[1]);
	assert_int_equal(read(q[0], &c, 1), 1);	/* it holds them */
	close(q[0]);
	*go = p[1];
	return pid;
}

#endif /* PB_TESTS_LOCK_FIXTURE_H */
