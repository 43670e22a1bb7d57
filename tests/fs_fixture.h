/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the unit tests that build fake /proc and /sys trees in a
 * temporary folder (tests/test_env.c, tests/test_probe.c).
 */
#ifndef PB_TESTS_FS_FIXTURE_H
#define PB_TESTS_FS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

/* Write text to dir/rel, making its folders. */
static inline void fixture_write(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#endif /* PB_TESTS_FS_FIXTURE_H */
