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

/*
 * Where the first line of s at most room characters (UTF-8 code points)
 * wide ends when wrapped at spaces: a space of s, or NULL when all of s
 * fits.  A word longer than room ends the line after it: never cut.
 */
const char *pb_wrap_at(const char *s, int room);

#endif
