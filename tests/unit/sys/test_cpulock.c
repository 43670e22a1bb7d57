// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cpulock.c - per-CPU advisory locks: another process's lock is seen
 * with its pid, ours are dropped when we release them or die, duplicate
 * CPUs count once, and an unusable lock folder is an error, not a hang.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/cpulock.h"
#include "lock_fixture.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	lock_dir_make(dir, "cpulock");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	lock_dir_remove(dir);
	return 0;
}

/* A child that holds CPUs 3 and 5 until told to go; its pid. */
static pid_t holder(int *go)
{
	static const int cpus[] = { 5, 3 };

	return lock_holder(cpus, 2, go);
}

static void test_held_by_another(void **state)
{
	struct pb_cpu_holder held[4];
	struct pb_cpulock l;
	int cpus[] = { 1, 3, 3, 5 }, nheld, go, status;
	char err[256], text[128], want[64];
	pid_t pid;

	(void)state;
	pid = holder(&go);
	assert_int_equal(pb_cpulock_take(&l, cpus, 4, held, 4, &nheld, err, sizeof(err)), 0);
	assert_int_equal(nheld, 2);		/* 3 once, though named twice */
	assert_int_equal(held[0].cpu, 3);
	assert_int_equal(held[0].pid, pid);
	/* named as it is: its command and its user, not "another pinbench" */
	assert_string_equal(held[0].comm, "test_cpulock");
	assert_int_equal(held[0].uid, (long)getuid());
	pb_cpu_holder_text(&held[0], text, sizeof(text));
	snprintf(want, sizeof(want), "pid %d (test_cpulock, ", pid);
	assert_memory_equal(text, want, strlen(want));
	assert_non_null(strstr(text, getuid() ? "user " : "user root)"));
	assert_int_equal(held[1].cpu, 5);
	assert_int_equal(l.nr, 1);		/* CPU 1 is ours */
	pb_cpulock_release(&l);
	assert_int_equal(write(go, "x", 1), 1);
	close(go);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	/* its locks went with it */
	assert_int_equal(pb_cpulock_take(&l, cpus, 4, held, 4, &nheld, err, sizeof(err)), 0);
	assert_int_equal(nheld, 0);
	assert_int_equal(l.nr, 3);
	pb_cpulock_release(&l);
}

/* A SIGKILLed holder leaves nothing locked. */
static void test_killed_holder_frees(void **state)
{
	struct pb_cpu_holder held[4];
	struct pb_cpulock l;
	int cpus[] = { 3 }, nheld, go;
	char err[256];
	pid_t pid;

	(void)state;
	pid = holder(&go);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(go);
	assert_int_equal(pb_cpulock_take(&l, cpus, 1, held, 4, &nheld, err, sizeof(err)), 0);
	assert_int_equal(nheld, 0);
	assert_int_equal(l.nr, 1);
	pb_cpulock_release(&l);
}

/* Unknown holders: another pid namespace, a process gone, no user name. */
static void test_holder_text(void **state)
{
	struct pb_cpu_holder h = { .cpu = 0, .pid = 0, .uid = -1 };
	char text[128];

	(void)state;
	pb_cpu_holder_text(&h, text, sizeof(text));
	assert_string_equal(text, "a process of another pid namespace");
	h.pid = 4242;
	pb_cpu_holder_text(&h, text, sizeof(text));
	assert_string_equal(text, "pid 4242");
	h.uid = 4000000000L;	/* no such user: the number */
	snprintf(h.comm, sizeof(h.comm), "python3");
	pb_cpu_holder_text(&h, text, sizeof(text));
	assert_string_equal(text, "pid 4242 (python3, uid 4000000000)");
}

/* A lock file is never followed through a symlink. */
static void test_symlink_refused(void **state)
{
	struct pb_cpu_holder held[4];
	struct pb_cpulock l;
	int cpus[] = { 2 }, nheld;
	char err[256] = "", link[128], victim[128];

	(void)state;
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(link, sizeof(link), "%s/pinbench-cpu2.lock", dir);
	fclose(fopen(victim, "w"));
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(pb_cpulock_take(&l, cpus, 1, held, 4, &nheld, err, sizeof(err)), -1);
	assert_non_null(strstr(err, link));
	assert_int_equal(l.nr, 0);
	pb_cpulock_release(&l);
}

static void test_unusable_folder(void **state)
{
	struct pb_cpu_holder held[4];
	struct pb_cpulock l;
	int cpus[] = { 0 }, nheld;
	char err[256] = "";

	(void)state;
	setenv("PINBENCH_LOCK_DIR", "/nonexistent/pinbench", 1);
	assert_int_equal(pb_cpulock_take(&l, cpus, 1, held, 4, &nheld, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/pinbench/pinbench-cpu0.lock"));
	assert_non_null(strstr(err, "No such file or directory"));
	assert_int_equal(l.nr, 0);
	pb_cpulock_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_held_by_another, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_holder_frees, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unusable_folder, setup, teardown),
		cmocka_unit_test(test_holder_text),
		cmocka_unit_test_setup_teardown(test_symlink_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
