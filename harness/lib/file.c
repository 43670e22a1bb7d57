// SPDX-License-Identifier: GPL-2.0-only
/*
 * file.c - files that are whole or absent: folders made as mkdir -p, and
 * atomic saves (temporary file, fsync, rename or exclusive link, fsync
 * of the folder) that say which step failed and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"

int pb_mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int pb_read_all(int fd, size_t cap, char **buf, size_t *n)
{
	size_t size = 64 * 1024, got = 0;
	struct stat st;
	char *b, *nb;
	ssize_t r;

	if (!fstat(fd, &st) && st.st_size > 0 && (uintmax_t)st.st_size < cap)
		size = (size_t)st.st_size + 1;	/* one more byte: no growth to see EOF */
	b = malloc(size + 1);
	if (!b)
		return -1;
	for (;;) {
		if (got == size) {
			if (size > cap) {
				free(b);
				errno = EFBIG;
				return -1;
			}
			size = size > cap / 2 ? cap + 1 : size * 2;
			nb = realloc(b, size + 1);
			if (!nb) {
				free(b);
				errno = ENOMEM;
				return -1;
			}
			b = nb;
		}
		r = read(fd, b + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			errno = e;
			return -1;
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	if (got > cap) {
		free(b);
		errno = EFBIG;
		return -1;
	}
	b[got] = '\0';
	*buf = b;
	*n = got;
	return 0;
}

/* write(2) all of buf; 0, or -1 with errno from the call that failed. */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (!w) {
			errno = EIO;
			return -1;
		}
		buf += w;
		n -= w;
	}
	return 0;
}

/* fsync of a folder: the rename or link is on disk too. */
static int sync_dir(int dfd)
{
	int rc = fsync(dfd);

	if (rc && (errno == EINVAL || errno == EROFS))
		rc = 0;		/* a folder that cannot be synced (some file systems) */
	return rc;
}

/* The folder path is in, opened: a file descriptor, or -1 with errno. */
static int open_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		dir[slash == path ? 1 : slash - path] = 0;
	return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* sync_dir() of the folder path is in. */
static int sync_dir_of(const char *path)
{
	int fd = open_dir_of(path), rc;

	if (fd < 0)
		return -1;
	rc = sync_dir(fd);
	close(fd);
	return rc;
}

int pb_subdir_open(const char *dir, const char *name)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, e;
	struct stat st;

	if (dfd < 0)
		return -1;
	if (mkdirat(dfd, name, 0777) && errno != EEXIST) {
		e = errno;
		close(dfd);
		errno = e;
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	if (fd < 0 && !fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		e = ELOOP;	/* Linux says ENOTDIR for a link to a folder */
	close(dfd);
	errno = e;
	return fd;
}

/* A temporary file beside name, made in dfd (a name nobody has: O_EXCL). */
static int tmp_open(int dfd, const char *name, char *tmp, size_t len)
{
	static unsigned int seq;
	int fd = -1;

	for (int i = 0; i < 100 && fd < 0; i++) {
		if (snprintf(tmp, len, "%s.tmp.%d.%u", name, (int)getpid(), seq++) >= (int)len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	return fd;
}

int pb_file_save(const char *path, const char *text, bool claim, char *err, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dfd, rc, e;

	dfd = open_dir_of(path);
	if (dfd < 0) {
		e = errno;
		snprintf(err, len, "cannot %s %s: %s", e == ENAMETOOLONG ? "write" : "create",
			 path, strerror(e));
		return -1;
	}
	rc = pb_file_save_at(dfd, slash ? slash + 1 : path, path, text, claim, err, len);
	close(dfd);
	return rc;
}

int pb_file_save_at(int dfd, const char *name, const char *shown, const char *text, bool claim,
		    char *err, size_t len)
{
	char tmp[NAME_MAX + 1];
	const char *what = "write";
	int fd, rc = 0, e;

	fd = tmp_open(dfd, name, tmp, sizeof(tmp));
	if (fd < 0) {
		e = errno;
		snprintf(err, len, "cannot create a temporary file beside %s: %s", shown,
			 strerror(e));
		return -1;
	}
	fchmod(fd, 0644);
	if (write_all(fd, text, strlen(text)) || write_all(fd, "\n", 1))
		rc = -1;
	if (!rc && fsync(fd))
		rc = -1, what = "fsync";
	e = errno;
	if (close(fd) && !rc)
		rc = -1, what = "close", e = errno;
	if (!rc && claim) {		/* the name is ours only if nobody has it */
		if (linkat(dfd, tmp, dfd, name, 0)) {
			e = errno;
			rc = e == EEXIST ? -EEXIST : -1;
			what = "create";
		}
	} else if (!rc && renameat(dfd, tmp, dfd, name)) {
		e = errno;
		rc = -1;
		what = "rename to";
	}
	unlinkat(dfd, tmp, 0);	/* gone after a rename; the link keeps the data */
	if (!rc && sync_dir(dfd)) {
		e = errno;
		rc = -1;
		what = "fsync the folder of";
	}
	if (rc == -1)
		snprintf(err, len, "cannot %s %s: %s", what, shown, strerror(e));
	return rc;
}

int pb_file_temp(const char *path, char *tmp, size_t tlen, char *err, size_t len)
{
	int fd;

	if (snprintf(tmp, tlen, "%s.tmp.XXXXXX", path) >= (int)tlen) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		snprintf(err, len, "cannot create %s: %s", tmp, strerror(errno));
	return fd;
}

int pb_file_commit(int fd, const char *tmp, const char *path, char *err, size_t len)
{
	const char *what = "fsync";
	int rc = 0, e = 0;

	fchmod(fd, 0644);
	if (fsync(fd))
		rc = -1, e = errno;
	if (close(fd) && !rc)
		rc = -1, e = errno, what = "close";
	if (!rc && rename(tmp, path))
		rc = -1, e = errno, what = "rename to";
	if (!rc && sync_dir_of(path))
		rc = -1, e = errno, what = "fsync the folder of";
	unlink(tmp);		/* gone after a rename */
	if (rc)
		snprintf(err, len, "cannot %s %s: %s", what, path, strerror(e));
	return rc;
}

