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

/* fsync of the folder that holds path: the rename or link is on disk too. */
static int sync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd, rc;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		slash[1] = 0;
	else
		*slash = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	if (rc && (errno == EINVAL || errno == EROFS))
		rc = 0;		/* a folder that cannot be synced (some file systems) */
	close(fd);
	return rc;
}

int pb_file_save(const char *path, const char *text, bool claim, char *err, size_t len)
{
	char tmp[PATH_MAX];
	const char *what = "write";
	int fd, rc = 0, e;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, len, "cannot create %s: %s", tmp, strerror(e));
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
		if (link(tmp, path)) {
			e = errno;
			rc = e == EEXIST ? -EEXIST : -1;
			what = "create";
		}
	} else if (!rc && rename(tmp, path)) {
		e = errno;
		rc = -1;
		what = "rename to";
	}
	unlink(tmp);		/* gone after a rename; the link keeps the data */
	if (!rc && sync_dir_of(path)) {
		e = errno;
		rc = -1;
		what = "fsync the folder of";
	}
	if (rc == -1)
		snprintf(err, len, "cannot %s %s: %s", what, path, strerror(e));
	return rc;
}

int pb_json_write_atomic(const char *path, json_t *j, char *err, size_t len)
{
	char *text = json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	int rc;

	if (!text) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(ENOMEM));
		return -1;
	}
	rc = pb_file_save(path, text, false, err, len);
	free(text);
	return rc;
}
