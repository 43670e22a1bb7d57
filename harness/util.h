/* SPDX-License-Identifier: GPL-2.0-only */
/* util.h - small helpers shared across the harness. */
#ifndef PINBENCH_UTIL_H
#define PINBENCH_UTIL_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Format a message into err (len bytes), followed by ": strerror(e)" when
 * e is not 0.  Returns -1, so that "return pb_errf(...);" reports a failure.
 */
int pb_errf(char *err, size_t len, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int pb_verrf(char *err, size_t len, int e, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * Make a string from a result file or the network safe to print: every
 * control character (ESC, CR, NL, ...; DEL too) becomes '?', in place.
 * Returns true when anything changed.
 */
#include <stdbool.h>
bool pb_str_clean(char *s);

#endif
