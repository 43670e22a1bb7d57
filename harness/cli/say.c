// SPDX-License-Identifier: GPL-2.0-only
/* say.c - messages with the input they quote made safe to print: see say.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/say.h"
#include "lib/util.h"

void pb_say(FILE *f, const char *fmt, ...)
{
	char small[1024], *s = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		s = malloc((size_t)n + 1);
		if (!s) {
			s = small;	/* out of memory: the message cut short */
		} else {
			va_start(ap, fmt);
			vsnprintf(s, (size_t)n + 1, fmt, ap);
			va_end(ap);
		}
	}
	pb_text_clean(s);
	fputs(s, f);
	if (s != small)
		free(s);
}
