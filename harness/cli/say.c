// SPDX-License-Identifier: GPL-2.0-only
/* say.c - messages with the input they quote made safe to print: see say.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

static int say_width(FILE *f)
{
	struct winsize ws;

	if (isatty(fileno(f)) && !ioctl(fileno(f), TIOCGWINSZ, &ws) && ws.ws_col &&
	    ws.ws_col < PB_SAY_WIDTH)
		return ws.ws_col;
	return PB_SAY_WIDTH;
}

void pb_say_wrapped(FILE *f, const char *head, const char *s)
{
	int at = 0, room;
	const char *brk;

	for (const char *p = head; *p; p++)
		at += ((unsigned char)*p & 0xc0) != 0x80;	/* UTF-8: a column each */
	room = say_width(f) - at;
	pb_say(f, "%s", head);
	while ((brk = pb_wrap_at(s, room))) {
		pb_say(f, "%.*s\n%*s", (int)(brk - s), s, at, "");
		s = brk + strspn(brk, " ");
	}
	pb_say(f, "%s\n", s);
}
