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
 *
 * Why 0666 and not 0644: a record write lock (F_WRLCK) needs a file
 * opened for writing, so with 0644 only the file's creator could lock it
 * and a second user's run would not be kept apart.  flock() works on a
 * read-only file, but it names no holder (F_GETLK does not see it), and
 * 0644 would not stop anyone from holding a lock either: a local user can
 * flock a file they can only read.  Advisory locks are cooperation; what
 * keeps a hostile holder harmless is naming it as it is (its pid, command
 * and user, pb_cpu_holder_text) and `run --wait`'s time limit.  A lock
 * file is never followed through a symlink (O_NOFOLLOW).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cpulock.h"
#include "sys/sysfs.h"
#include "lib/util.h"

/* $PINBENCH_LOCK_DIR, else /run/lock, else /tmp. */
static const char *pb_cpulock_dir(void)
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
		int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);

		if (fd >= 0 || errno != ENOENT)
			return fd;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
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

/* The holder's command name and owner, from /proc/PID (unknown: "", -1). */
static void describe(struct pb_cpu_holder *h)
{
	char status[4096], *uid;

	h->uid = -1;
	h->comm[0] = '\0';
	if (h->pid <= 0)
		return;
	if (pb_sys_read(h->comm, sizeof(h->comm), "/proc/%d/comm", h->pid) < 0)
		h->comm[0] = '\0';
	pb_str_clean(h->comm);	/* a process names itself: ESC and all */
	if (pb_sys_read(status, sizeof(status), "/proc/%d/status", h->pid) < 0)
		return;
	uid = strstr(status, "\nUid:");
	if (uid)
		h->uid = strtol(uid + 5, NULL, 10);
}

void pb_cpu_holder_text(const struct pb_cpu_holder *h, char *buf, size_t len)
{
	char user[64] = "";
	struct passwd pw, *got = NULL;
	char pwbuf[1024];

	if (h->pid <= 0) {
		snprintf(buf, len, "a process of another pid namespace");
		return;
	}
	if (h->uid >= 0 && !getpwuid_r((uid_t)h->uid, &pw, pwbuf, sizeof(pwbuf), &got) && got)
		snprintf(user, sizeof(user), "user %s", got->pw_name);
	else if (h->uid >= 0)
		snprintf(user, sizeof(user), "uid %ld", h->uid);
	pb_str_clean(user);
	if (h->comm[0] && user[0])
		snprintf(buf, len, "pid %d (%s, %s)", h->pid, h->comm, user);
	else if (h->comm[0] || user[0])
		snprintf(buf, len, "pid %d (%s)", h->pid, h->comm[0] ? h->comm : user);
	else
		snprintf(buf, len, "pid %d", h->pid);
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
			if (*nheld < max) {
				held[*nheld] = (struct pb_cpu_holder){ .cpu = sorted[i], .pid = pid };
				describe(&held[(*nheld)++]);
			}
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
