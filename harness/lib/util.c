// SPDX-License-Identifier: GPL-2.0-only
/* util.c - labels, control characters, regular files: see util.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/util.h"

int pb_verrf(char *err, size_t len, int e, const char *fmt, va_list ap)
{
	int n;

	if (!len)
		return -1;
	n = vsnprintf(err, len, fmt, ap);
	if (e && n >= 0 && (size_t)n < len)
		snprintf(err + n, len - n, ": %s", strerror(e));
	pb_str_clean(err);	/* a message quotes input */
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

/*
 * The one cleaning of text that quotes input: a C0 control (but those in
 * keep), DEL, or a C1 control written in UTF-8 (0xc2 0x80..0x9f, which
 * some terminals obey like ESC [) becomes '?'.
 */
static bool clean(char *s, const char *keep)
{
	bool changed = false;

	for (; s && *s; s++) {
		unsigned char c = *s;

		if ((c < 0x20 && !strchr(keep, c)) || c == 0x7f) {
			*s = '?';
			changed = true;
		} else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
			   (unsigned char)s[1] <= 0x9f) {
			s[0] = s[1] = '?';
			s++;
			changed = true;
		}
	}
	return changed;
}

bool pb_str_clean(char *s)
{
	return clean(s, "");
}

bool pb_text_clean(char *s)
{
	return clean(s, "\n\t");
}

const char *pb_str_shown(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (!len)
		return "";
	if (n < len)
		memcpy(buf, s, n + 1);
	else if (len < 4)
		buf[0] = 0;
	else
		snprintf(buf, len, "%.*s...", (int)(len - 4), s);
	pb_str_clean(buf);
	return buf;
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

int pb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
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

static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

size_t pb_num_span(const char *s)
{
	size_t i = 0, d, f = 0, e;

	if (s[i] == '+' || s[i] == '-')
		i++;
	d = digits(s + i);
	i += d;
	if (s[i] == '.') {
		f = digits(s + i + 1);
		i += 1 + f;
	}
	if (!d && !f)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		e = s[i + 1] == '+' || s[i + 1] == '-' ? 2 : 1;
		if (digits(s + i + e))
			i += e + digits(s + i + e);
	}
	return i;
}

int pb_parse_double(const char *s, double min, double max, double *v)
{
	size_t n = pb_num_span(s);
	double x;

	if (!n || s[n])
		return PB_NUM_SYNTAX;
	x = strtod(s, NULL);	/* the grammar above is all decimal: no locale, no hex */
	if (!isfinite(x))
		return PB_NUM_RANGE;	/* 1e309 */
	if (!(x >= min && x <= max))
		return PB_NUM_RANGE;
	*v = x;
	return 0;
}

int pb_parse_long(const char *s, long min, long max, long *v)
{
	size_t i = s[0] == '+' || s[0] == '-';
	long x;

	if (!digits(s + i) || s[i + digits(s + i)])
		return PB_NUM_SYNTAX;
	errno = 0;
	x = strtol(s, NULL, 10);
	if (errno || x < min || x > max)
		return PB_NUM_RANGE;
	*v = x;
	return 0;
}

/* A tick count and the ns it was read at, between two ns reads at most 2 µs apart. */
static void ticks_stamp(uint64_t *tick, double *ns)
{
	double a = 0, b = 0;

	for (int tries = 0; tries < 16; tries++) {
		a = pb_raw_ns();
		*tick = pb_ticks();
		b = pb_raw_ns();
		if (b - a < 2000)
			break;
	}
	*ns = (a + b) / 2;
}

double pb_ticks_per_ns(void)
{
	static double rate;	/* a race between threads stores the same */
	uint64_t k0, k1;
	double t0, t1;

	if (rate)
		return rate;
	ticks_stamp(&k0, &t0);
	while (pb_raw_ns() < t0 + 5e6)
		;
	ticks_stamp(&k1, &t1);
	rate = k1 > k0 && t1 > t0 ? (k1 - k0) / (t1 - t0) : 1;
	return rate;
}
