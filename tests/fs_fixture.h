/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the unit tests that build fake /proc and /sys trees in a
 * temporary folder (tests/test_env.c, tests/test_probe.c), and those
 * that write result files in one (test_export.c, test_verdict.c).
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

/* A fresh folder dir[256] named for tag in $TMPDIR (or /tmp): 0, or -1 (a group setup). */
static inline int fixture_tmpdir(char *dir, const char *tag)
{
	snprintf(dir, 256, "%s/pb-%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag);
	return mkdtemp(dir) ? 0 : -1;
}

/* The folder and all in it gone: 0, or -1 (a group teardown). */
static inline int fixture_tmpdir_remove(const char *dir)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

#endif /* PB_TESTS_FS_FIXTURE_H */
