/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * file.h - mkdir -p and atomic saves (file.c).
 */
#ifndef PINBENCH_FILE_H
#define PINBENCH_FILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Write text and a newline to path atomically: a temporary file in the same
 * folder, fsync, then rename over path (claim false) or link to path only
 * if no file has that name (claim true: -EEXIST when one has), and fsync
 * of the folder.  -1 with err naming the step and the error that failed.
 */
int pb_file_save(const char *path, const char *text, bool claim, char *err, size_t len);
/*
 * For a file another program writes (gnuplot's image): a temporary file
 * beside path, made here (O_EXCL, so never a name someone planted), its
 * name into tmp: the fd, or -1 with err.  pb_file_commit() then fsyncs and
 * closes fd and renames tmp over path (a symlink there is replaced, not
 * followed): 0, or -1 with err and tmp removed.  fd is closed either way.
 */
int pb_file_temp(const char *path, char *tmp, size_t tlen, char *err, size_t len);
int pb_file_commit(int fd, const char *tmp, const char *path, char *err, size_t len);
/*
 * pb_file_save() of name in the folder open as dfd (name has no '/'; its
 * temporary file is made there too): no symlink on the way is followed.
 * The messages call the file shown.
 */
int pb_file_save_at(int dfd, const char *name, const char *shown, const char *text, bool claim,
		    char *err, size_t len);
/*
 * The folder dir/name (name has no '/'), made if absent, opened without
 * following a symlink at name: a file descriptor, or -1 with errno (ELOOP
 * when name is a symlink).
 */
int pb_subdir_open(const char *dir, const char *name);
/*
 * Read all of fd (a regular file) into *buf, NUL-terminated, in blocks:
 * 0 with *n its length (free *buf), -1 with errno (EFBIG: more than cap
 * bytes; nothing is kept).
 */
int pb_read_all(int fd, size_t cap, char **buf, size_t *n);
/* mkdir -p */
int pb_mkdirs(const char *path);

#endif
