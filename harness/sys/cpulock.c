// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpulock.c - one pinbench measuring a CPU at a time, or at least knowing.
 *
 * Each CPU has a lock file, <dir>/pinbench-cpu<N>.lock, and a job holds an
 * exclusive POSIX record lock on the files of its CPUs while it runs.  The
 * kernel drops the locks when the process ends, however it ends, so a
 * crashed run never leaves a CPU locked.  Record locks (not flock) because
 * F_GETLK names the holder's pid.  The files are created mode 0666 so that
 * every user's runs share them; in a sticky folder (/run/lock) another
 * user's file is opened without O_CREAT (fs.protected_regular).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cpulock.h"

const char *pb_cpulock_dir(void)
{
	const char *d = getenv("PINBENCH_LOCK_DIR");
	struct stat st;

	if (d && *d)
		return d;
	if (!stat("/run/lock", &st) && S_ISDIR(st.st_mode))
		return "/run/lock";
	return "/tmp";
}

static int open_lock_file(const char *path)
{
	for (int tries = 0; tries < 4; tries++) {
		int fd = open(path, O_RDWR | O_CLOEXEC);

		if (fd >= 0 || errno != ENOENT)
			return fd;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0) {
			fchmod(fd, 0666);	/* whatever the umask: every user's runs */
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Who holds fd's lock: its pid, 0 when nobody does any more (or unknown). */
static int holder(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_GETLK, &fl) || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid > 0 ? fl.l_pid : 0;
}

/* Lock fd: 0, 1 held by another (pid in *pid), or -1. */
static int lock_one(int fd, int *pid)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	for (int tries = 0; tries < 4; tries++) {
		if (!fcntl(fd, F_SETLK, &fl))
			return 0;
		if (errno != EAGAIN && errno != EACCES)
			return -1;
		*pid = holder(fd);
		if (*pid)
			return 1;
	}
	return 1;		/* taken and freed faster than we could look */
}

int pb_cpulock_take(struct pb_cpulock *l, const int *cpus, int n,
		    struct pb_cpu_holder *held, int max, int *nheld, char *err, size_t len)
{
	const char *dir = pb_cpulock_dir();
	char path[PATH_MAX];
	int *sorted, rc = 0;

	memset(l, 0, sizeof(*l));
	*nheld = 0;
	if (n <= 0)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	l->fd = malloc(n * sizeof(*l->fd));
	if (!sorted || !l->fd) {
		free(sorted);
		free(l->fd);
		l->fd = NULL;
		snprintf(err, len, "CPU locks: %s", strerror(ENOMEM));
		return -1;
	}
	memcpy(sorted, cpus, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_int);	/* one order: no deadlock */
	for (int i = 0; i < n && !rc; i++) {
		int fd, pid = 0, got;

		if (sorted[i] < 0 || (i && sorted[i] == sorted[i - 1]))
			continue;
		snprintf(path, sizeof(path), "%s/pinbench-cpu%d.lock", dir, sorted[i]);
		fd = open_lock_file(path);
		if (fd < 0) {
			snprintf(err, len, "cannot open the CPU lock %s: %s", path,
				 strerror(errno));
			rc = -1;
			break;
		}
		got = lock_one(fd, &pid);
		if (got < 0) {
			snprintf(err, len, "cannot lock %s: %s", path, strerror(errno));
			close(fd);
			rc = -1;
			break;
		}
		if (got == 1) {
			if (*nheld < max)
				held[(*nheld)++] = (struct pb_cpu_holder){ sorted[i], pid };
			close(fd);
			continue;
		}
		l->fd[l->nr++] = fd;
	}
	free(sorted);
	if (rc)
		pb_cpulock_release(l);
	return rc;
}

void pb_cpulock_release(struct pb_cpulock *l)
{
	for (int i = 0; i < l->nr; i++)
		close(l->fd[i]);	/* closing drops this process's record lock */
	free(l->fd);
	memset(l, 0, sizeof(*l));
}
