// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_file.c - a file another program writes (gnuplot's image), through
 * pb_file_temp() and pb_file_commit(): the temporary file is new and
 * ours; the commit replaces a symlink at the name rather than writing
 * through it; a failed commit leaves no temporary file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"

struct scratch {
	char	dir[64];
	char	path[128];	/* dir/out.png */
	char	victim[128];	/* dir/victim */
};

static int setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	snprintf(s->dir, sizeof(s->dir), "/tmp/pb-test-file.XXXXXX");
	if (!mkdtemp(s->dir))
		return -1;
	snprintf(s->path, sizeof(s->path), "%s/out.png", s->dir);
	snprintf(s->victim, sizeof(s->victim), "%s/victim", s->dir);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct scratch *s = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
	if (system(cmd))
		return -1;
	free(s);
	return 0;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void expect(const char *path, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, text);
}

/* How many names dir holds ("." and ".." left out). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/* A symlink planted at the name is replaced; what it points to is untouched. */
static void test_commit_replaces_symlink(void **state)
{
	struct scratch *s = *state;
	char tmp[PATH_MAX], err[256] = "";
	struct stat st;
	int fd;

	put(s->victim, "precious");
	assert_int_equal(symlink(s->victim, s->path), 0);
	fd = pb_file_temp(s->path, tmp, sizeof(tmp), err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(strncmp(tmp, s->path, strlen(s->path)), 0);
	assert_int_equal(write(fd, "image", 5), 5);
	assert_int_equal(pb_file_commit(fd, tmp, s->path, err, sizeof(err)), 0);
	expect(s->victim, "precious");
	assert_int_equal(lstat(s->path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0644);
	expect(s->path, "image");
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(entries(s->dir), 2);
}

/* A commit that cannot rename (a folder has the name) says so and leaves nothing. */
static void test_commit_fails_clean(void **state)
{
	struct scratch *s = *state;
	char tmp[PATH_MAX], err[256] = "";
	int fd;

	assert_int_equal(mkdir(s->path, 0755), 0);
	fd = pb_file_temp(s->path, tmp, sizeof(tmp), err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(pb_file_commit(fd, tmp, s->path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot rename to"));
	assert_non_null(strstr(err, s->path));
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(entries(s->dir), 1);
}

/* No folder to make the temporary file in: -1 naming it. */
static void test_temp_no_folder(void **state)
{
	struct scratch *s = *state;
	char tmp[PATH_MAX], err[256] = "", path[160];

	snprintf(path, sizeof(path), "%s/none/out.png", s->dir);
	assert_int_equal(pb_file_temp(path, tmp, sizeof(tmp), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot create"));
	assert_non_null(strstr(err, "No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commit_replaces_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commit_fails_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_temp_no_folder, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
