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
 * Make a string from a result file, the network, a job file or argv safe
 * to print: every control character (ESC, BEL, CR, NL, ...; DEL and the C1
 * controls in UTF-8 too) becomes '?', in place.  Returns true when
 * anything changed.  pb_verrf() and pb_errf() clean the message they make.
 */
#include <stdbool.h>
bool pb_str_clean(char *s);
/* The same for a whole message of several lines: NL and tab are kept. */
bool pb_text_clean(char *s);
/*
 * s (at most len - 4 bytes of it, then "...") copied into buf and cleaned
 * as pb_str_clean() does, to quote input in a message: returns buf.
 */
const char *pb_str_shown(const char *s, char *buf, size_t len);

/*
 * Open path for reading only when it is a regular file: a FIFO, a device,
 * a socket or a directory is refused without blocking on it (O_NONBLOCK,
 * then fstat).  st gets the file's identity and size.  Returns the file
 * descriptor, or -1 with err "PATH: ..." ("not a regular file (a FIFO)").
 */
struct stat;
int pb_open_regular(const char *path, struct stat *st, char *err, size_t len);
/* pb_open_regular, and with follow false a symlink is refused, not followed. */
int pb_open_file(const char *path, bool follow, struct stat *st, char *err, size_t len);

/*
 * A run label names a folder under -o and a row of compare: 1 to
 * PB_LABEL_MAX characters among letters, digits and PB_LABEL_CHARS, not
 * "." or "..".  0, or -1 with err saying what is wrong ("'a/b': '/' is
 * not allowed ...", the label made safe to print).
 */
#define PB_LABEL_MAX	100
#define PB_LABEL_CHARS	"._-+,:@~"
int pb_label_check(const char *label, char *err, size_t len);

/*
 * Room for one more element at index nr of an array p of *cap elements of
 * size bytes (doubled when full, 8 at first): the array (perhaps moved,
 * *cap updated), or NULL when out of memory (p is still valid then).
 */
void *pb_grow(void *p, int nr, int *cap, size_t size);

/* qsort()'s comparison of two doubles, ascending (NaN equal to all). */
int pb_cmp_double(const void *a, const void *b);

/*
 * Where the first line of s at most room characters (UTF-8 code points)
 * wide ends when wrapped at spaces: a space of s, or NULL when all of s
 * fits.  A word longer than room ends the line after it: never cut.
 */
const char *pb_wrap_at(const char *s, int room);

/*
 * Numbers a user writes (options, job keys): decimal only, all of s, no
 * leading or trailing space.  A double is [+-]digits[.digits][e[+-]digits]
 * (".5" and "5." too); no hex ("0x10", "0x1p3"), no "inf" or "nan"; it must
 * be finite.  An integer is [+-]digits.  Returns 0 with *v set when the
 * value lies in min..max, PB_NUM_SYNTAX when s is no such number,
 * PB_NUM_RANGE when it is one outside min..max (*v untouched then).
 */
#define PB_NUM_SYNTAX	(-1)
#define PB_NUM_RANGE	(-2)
int pb_parse_double(const char *s, double min, double max, double *v);
int pb_parse_long(const char *s, long min, long max, long *v);
/* The length of the decimal number pb_parse_double() accepts at the start of s, or 0. */
size_t pb_num_span(const char *s);

#endif
