/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * golden.h - an output held to its golden file under tests/golden/:
 * golden_match(out, file) fails the test where they differ; with
 * UPDATE_GOLDEN=1 in the environment the file is rewritten first.  Include
 * after <cmocka.h>; run the tests from the top folder.
 */
#ifndef PINBENCH_TESTS_GOLDEN_H
#define PINBENCH_TESTS_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>

/* A file's whole text (the caller frees it); the test fails when it is missing. */
static inline char *golden_text(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r"), *m;
	int ch;

	if (!f)
		fail_msg("%s: missing (run from the top folder; UPDATE_GOLDEN=1 makes it)", path);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	while ((ch = fgetc(f)) != EOF)
		fputc(ch, m);
	fclose(f);
	fclose(m);
	return buf;
}

static inline void golden_match(const char *out, const char *file)
{
	char *want;
	FILE *f;

	if (getenv("UPDATE_GOLDEN")) {
		f = fopen(file, "w");
		assert_non_null(f);
		fputs(out, f);
		fclose(f);
	}
	want = golden_text(file);
	assert_string_equal(out, want);
	free(want);
}

#endif
