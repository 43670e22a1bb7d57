/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * skip.h - a cmocka skip that says why: "# skip: REASON" on stdout, then
 * skip().  tests/run-tests.sh shows the reason with the skip (cmocka's own
 * TAP line names only the test).  Include after <cmocka.h>; return right
 * after the call.
 */
#ifndef PINBENCH_TESTS_SKIP_H
#define PINBENCH_TESTS_SKIP_H

#include <stdarg.h>
#include <stdio.h>

static inline void __attribute__((format(printf, 1, 2))) skip_why(const char *fmt, ...)
{
	va_list ap;

	fputs("# skip: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	skip();
}

#endif
