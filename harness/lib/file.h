/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * file.h - mkdir -p and atomic saves (file.c).
 */
#ifndef PINBENCH_FILE_H
#define PINBENCH_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/*
 * Write text and a newline to path atomically: a temporary file in the same
 * folder, fsync, then rename over path (claim false) or link to path only
 * if no file has that name (claim true: -EEXIST when one has), and fsync
 * of the folder.  -1 with err naming the step and the error that failed.
 */
int pb_file_save(const char *path, const char *text, bool claim, char *err, size_t len);
/* pb_file_save(path, j as indented JSON, false, ...). */
int pb_json_write_atomic(const char *path, json_t *j, char *err, size_t len);
/*
 * Read all of fd (a regular file) into *buf, NUL-terminated, in blocks:
 * 0 with *n its length (free *buf), -1 with errno (EFBIG: more than cap
 * bytes; nothing is kept).
 */
int pb_read_all(int fd, size_t cap, char **buf, size_t *n);
/* mkdir -p */
int pb_mkdirs(const char *path);

#endif
