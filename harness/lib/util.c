// SPDX-License-Identifier: GPL-2.0-only
/* util.c - labels, control characters, regular files: see util.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

int pb_verrf(char *err, size_t len, int e, const char *fmt, va_list ap)
{
	int n;

	if (!len)
		return -1;
	n = vsnprintf(err, len, fmt, ap);
	if (e && n >= 0 && (size_t)n < len)
		snprintf(err + n, len - n, ": %s", strerror(e));
	return -1;
}

int pb_errf(char *err, size_t len, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_verrf(err, len, e, fmt, ap);
	va_end(ap);
	return -1;
}

bool pb_str_clean(char *s)
{
	bool changed = false;

	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c == 0x7f) {
			*s = '?';
			changed = true;
		}
	}
	return changed;
}

int pb_label_check(const char *label, char *err, size_t len)
{
	const char *how = "only letters, digits and . _ - + , : @ ~";
	size_t n = strlen(label);
	char shown[PB_LABEL_MAX + 4];
	const char *p;

	snprintf(shown, sizeof(shown), "%.*s%s", PB_LABEL_MAX, label, n > PB_LABEL_MAX ? "..." : "");
	pb_str_clean(shown);
	if (!n)
		return pb_errf(err, len, 0, "'': empty (%s)", how);
	if (n > PB_LABEL_MAX)
		return pb_errf(err, len, 0, "'%s': %zu characters, at most %d", shown, n,
			       PB_LABEL_MAX);
	if (!strcmp(label, ".") || !strcmp(label, ".."))
		return pb_errf(err, len, 0, "'%s': not a folder name", label);
	for (p = label; *p; p++) {
		unsigned char c = *p;

		if ((c < 0x80 && isalnum(c)) || (c && strchr(PB_LABEL_CHARS, c)))
			continue;
		if (c >= 0x20 && c < 0x7f)
			return pb_errf(err, len, 0, "'%s': '%c' is not allowed (%s)", shown, c, how);
		return pb_errf(err, len, 0, "'%s': byte 0x%02x is not allowed (%s)", shown, c, how);
	}
	return 0;
}

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

int pb_open_regular(const char *path, struct stat *st, char *err, size_t len)
{
	return pb_open_file(path, true, st, err, len);
}

int pb_open_file(const char *path, bool follow, struct stat *st, char *err, size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		      (follow ? 0 : O_NOFOLLOW));

	if (fd < 0 && errno == ELOOP && !follow)
		return pb_errf(err, len, 0, "%s: a symbolic link, not followed", path);
	if (fd < 0)
		return pb_errf(err, len, errno, "%s", path);
	if (fstat(fd, st)) {
		pb_errf(err, len, errno, "%s", path);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		pb_errf(err, len, 0, "%s: not a regular file (%s)", path, file_kind(st->st_mode));
		close(fd);
		return -1;
	}
	return fd;
}

void *pb_grow(void *p, int nr, int *cap, size_t size)
{
	void *np;
	int ncap;

	if (nr < *cap)
		return p;
	ncap = *cap ? *cap * 2 : 8;
	np = realloc(p, (size_t)ncap * size);
	if (!np)
		return NULL;
	*cap = ncap;
	return np;
}

const char *pb_wrap_at(const char *s, int room)
{
	const char *p, *brk = NULL;
	int w = 0;

	for (p = s; *p; p++) {
		if (*p == ' ' && p > s) {
			if (w > room)	/* a word longer than the line ends here */
				return brk ? brk : p;
			brk = p;
		}
		w += ((unsigned char)*p & 0xc0) != 0x80;
	}
	return w > room ? brk : NULL;
}
