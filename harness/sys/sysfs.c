// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs.c - the one reader of /proc and /sys: every path gets the prefix
 * $PINBENCH_SYSROOT (empty: the real roots), so that tests present fake
 * trees; /proc/cpuinfo's fields too.  A missing file means "unknown",
 * never an error.  (/proc/self, this process's own state, is read
 * directly by its users: a sysroot has no "self".)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysfs.h"

const char *pb_sys_root(void)
{
	const char *r = getenv(PB_SYSROOT_ENV);

	return r ? r : "";
}

static int sys_vpath(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = snprintf(buf, len, "%s", pb_sys_root());
	int m;

	if (n < 0 || (size_t)n >= len)
		return -1;
	m = vsnprintf(buf + n, len - n, fmt, ap);
	if (m < 0 || (size_t)m >= len - n)
		return -1;
	return 0;
}

int pb_sys_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = sys_vpath(buf, len, fmt, ap);
	va_end(ap);
	return r;
}

/* All of f (closed here; NULL: missing) into buf, trailing newlines and blanks removed. */
static int read_file(FILE *f, char *buf, size_t len)
{
	size_t n;

	if (!f)
		return -1;
	if (len == 0) {
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return (int)n;
}

/* The formatted path under the root, opened for reading, or NULL. */
static FILE *sys_vfopen(const char *fmt, va_list ap)
{
	char path[4096];

	return sys_vpath(path, sizeof(path), fmt, ap) < 0 ? NULL : fopen(path, "r");
}

int pb_sys_read(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	f = sys_vfopen(fmt, ap);
	va_end(ap);
	return read_file(f, buf, len);
}

int pb_sys_read_long(long *v, const char *fmt, ...)
{
	char buf[64], *end;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	f = sys_vfopen(fmt, ap);
	va_end(ap);
	if (read_file(f, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -1;
	return 0;
}

/* fopen(root + formatted path, "r"), or NULL. */
static FILE *pb_sys_fopen(const char *fmt, ...)
{
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	f = sys_vfopen(fmt, ap);
	va_end(ap);
	return f;
}

int pb_cpuinfo_field(const char *key, char *buf, size_t len)
{
	FILE *f = pb_sys_fopen("/proc/cpuinfo");
	size_t kl = strlen(key);
	char line[8192];
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		size_t n;

		if (!colon || strncmp(line, key, kl))
			continue;
		n = kl;		/* "model\t\t: 85" is model, "model name" is not */
		while (line + n < colon && (line[n] == ' ' || line[n] == '\t'))
			n++;
		if (line + n != colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		ret = 0;
	}
	fclose(f);
	return ret;
}

bool pb_cpuinfo_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}
