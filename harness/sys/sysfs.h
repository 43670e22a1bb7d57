/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysfs.h - the one reader of /proc and /sys, under $PINBENCH_SYSROOT
 * (see sysfs.c).
 */
#ifndef PINBENCH_SYSFS_H
#define PINBENCH_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PB_SYSROOT_ENV	"PINBENCH_SYSROOT"

/* $PINBENCH_SYSROOT, or "" */
const char *pb_sys_root(void);
/* buf = root + formatted path ("/sys/..."): 0, or -1 when it does not fit */
int pb_sys_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Read a whole (small) file under the root into buf, trailing newlines
 * removed.  Returns its length, or -1 when missing or unreadable.
 */
int pb_sys_read(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* First integer of the file: 0, or -1 when missing or not a number. */
int pb_sys_read_long(long *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The value of the first /proc/cpuinfo line whose key is key ("model
 * name", "flags", "cpu family"), into buf: 0, or -1 when there is none.
 */
int pb_cpuinfo_field(const char *key, char *buf, size_t len);
/* Is flag one of the words of a cpuinfo "flags" value? */
bool pb_cpuinfo_flag(const char *flags, const char *flag);

#endif
