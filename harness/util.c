// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "util.h"

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
