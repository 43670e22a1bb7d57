// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_util.c - the small helpers: run labels (what --label accepts; every
 * kernel release format uname -r gives must pass, since it is the default)
 * pb_open_regular (only regular files, never blocking) and pb_wrap_at; a
 * spin's steps on the ticks (pb_ticks_step: its own, away on its CPU, or
 * another task's slice); qsort()'s comparison of doubles.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/util.h"

static void label_ok(const char *label)
{
	char err[256] = "";

	if (pb_label_check(label, err, sizeof(err)))
		fail_msg("label '%s' refused: %s", label, err);
}

static void label_bad(const char *label, const char *expect)
{
	char err[256] = "";

	assert_int_equal(pb_label_check(label, err, sizeof(err)), -1);
	assert_string_equal(err, expect);
}

/* Kernel releases as distributions and self-built kernels name them. */
static void test_label_releases(void **state)
{
	static const char *const releases[] = {
		"6.1.0-17-amd64", "5.15.0-1049-azure", "6.8.0-rc3+", "4.19.0-rt-amd64",
		"5.14.0-362.8.1.el9_3.x86_64", "6.6.7-arch1-1", "6.1.55-v8+",
		"2.6.32-754.el6.x86_64", "6.5.0-0.deb12.4-cloud-amd64", "5.10.0~rc1",
		"6.7.0-rc1-next-20231120", "6.9.0-gentoo-dist", "6.2.0+20230301@build",
		"4.4.302-lts,x:1",
		/* the longest uname -r: 64 characters */
		"6.10.0-12345-gabcdef0123456789abcdef0123456789abcdef0123456789a",
		NULL
	};
	char longest[PB_LABEL_MAX + 1];

	(void)state;
	for (int i = 0; releases[i]; i++)
		label_ok(releases[i]);
	memset(longest, 'x', PB_LABEL_MAX);
	longest[PB_LABEL_MAX] = '\0';
	label_ok(longest);
	label_ok("...");
	label_ok(".hidden");
	label_ok("a..b");
}

static void test_label_refused(void **state)
{
	char too_long[PB_LABEL_MAX + 2];

	(void)state;
	label_bad("", "'': empty (only letters, digits and . _ - + , : @ ~)");
	label_bad(".", "'.': not a folder name");
	label_bad("..", "'..': not a folder name");
	label_bad("../x", "'../x': '/' is not allowed (only letters, digits and . _ - + , : @ ~)");
	label_bad("a/b", "'a/b': '/' is not allowed (only letters, digits and . _ - + , : @ ~)");
	label_bad("a b", "'a b': ' ' is not allowed (only letters, digits and . _ - + , : @ ~)");
	label_bad("a`id`", "'a`id`': '`' is not allowed (only letters, digits and . _ - + , : @ ~)");
	label_bad("$(id)", "'$(id)': '$' is not allowed (only letters, digits and . _ - + , : @ ~)");
	/* control characters are not printed raw, even in the message */
	label_bad("x\033[2Jy", "'x?[2Jy': byte 0x1b is not allowed (only letters, digits and "
		  ". _ - + , : @ ~)");
	label_bad("x\ny", "'x?y': byte 0x0a is not allowed (only letters, digits and "
		  ". _ - + , : @ ~)");
	label_bad("caf\xc3\xa9", "'caf\xc3\xa9': byte 0xc3 is not allowed (only letters, digits "
		  "and . _ - + , : @ ~)");
	memset(too_long, 'x', PB_LABEL_MAX + 1);
	too_long[PB_LABEL_MAX + 1] = '\0';
	assert_int_equal(pb_label_check(too_long, NULL, 0), -1);
	{
		char err[256];

		assert_int_equal(pb_label_check(too_long, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "': 101 characters, at most 100"));
	}
}

/* Only regular files; a FIFO or a device is refused without blocking. */
static void test_open_regular(void **state)
{
	char dir[] = "/tmp/pb-util-XXXXXX", path[64], err[256];
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "abc", 3), 3);
	close(fd);
	fd = pb_open_regular(path, &st, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(st.st_size, 3);
	close(fd);
	unlink(path);
	assert_int_equal(pb_open_regular(path, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/f: No such file or directory"));
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(60);
	assert_int_equal(pb_open_regular(path, &st, err, sizeof(err)), -1);
	alarm(0);
	assert_non_null(strstr(err, "/f: not a regular file (a FIFO)"));
	unlink(path);
	assert_int_equal(pb_open_regular("/dev/null", &st, err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/null: not a regular file (a character device)");
	assert_int_equal(pb_open_regular(dir, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ": not a regular file (a directory)"));
	rmdir(dir);
}

/* Lines end at spaces, within room; a word longer than a line is kept whole. */
static void test_wrap_at(void **state)
{
	const char *s = "other tasks ran 43.9 % of the time (0.527 s of 1.200 s)";
	const char *b;

	(void)state;
	assert_null(pb_wrap_at(s, 100));
	assert_null(pb_wrap_at("", 10));
	b = pb_wrap_at(s, 40);
	assert_non_null(b);
	assert_int_equal(b - s, 34);	/* "... 43.9 % of the time" fits, "(0.527" does not */
	assert_int_equal(*b, ' ');
	b = pb_wrap_at("µµµµ µµ", 5);	/* code points, not bytes */
	assert_non_null(b);
	assert_string_equal(b, " µµ");
	b = pb_wrap_at("averyveryverylongword and more", 5);
	assert_string_equal(b, " and more");
}

static void test_parse_double(void **state)
{
	static const char *const syntax[] = {
		"", " 5", "5 ", "0x10", "0x1p3", "inf", "-inf", "nan", "NAN", "infinity",
		"1e", "1e+", ".", "-", "+", "1,5", "5%", "1.2.3", "--1", "\t1", "1\n",
	};
	double v = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
		assert_int_equal(pb_parse_double(syntax[i], -1e9, 1e9, &v), PB_NUM_SYNTAX);
		assert_true(v == 7);	/* untouched */
	}
	assert_int_equal(pb_parse_double("1e309", 0, HUGE_VAL, &v), PB_NUM_RANGE);
	assert_int_equal(pb_parse_double("-1e309", -HUGE_VAL, 0, &v), PB_NUM_RANGE);
	assert_int_equal(pb_parse_double("-1", 0, 1000, &v), PB_NUM_RANGE);
	assert_int_equal(pb_parse_double("1000.5", 0, 1000, &v), PB_NUM_RANGE);
	assert_true(v == 7);
	assert_int_equal(pb_parse_double("1000", 0, 1000, &v), 0);
	assert_true(v == 1000);
	assert_int_equal(pb_parse_double("0.5", 0, 1, &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(pb_parse_double(".5", 0, 1, &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(pb_parse_double("5.", 0, 10, &v), 0);
	assert_true(v == 5);
	assert_int_equal(pb_parse_double("+2.5e-1", 0, 1, &v), 0);
	assert_true(v == 0.25);
	assert_int_equal(pb_parse_double("-3E2", -1000, 0, &v), 0);
	assert_true(v == -300);
	assert_int_equal(pb_num_span("12.5ms"), 4);
	assert_int_equal(pb_num_span("0x10"), 1);
	assert_int_equal(pb_num_span("e5"), 0);
}

static void test_parse_long(void **state)
{
	static const char *const syntax[] = { "", " 1", "1 ", "0x10", "1.5", "1e3", "+", "-", "1K" };
	long v = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++)
		assert_int_equal(pb_parse_long(syntax[i], -100, 100, &v), PB_NUM_SYNTAX);
	assert_int_equal(pb_parse_long("99999999999999999999", 0, LONG_MAX, &v), PB_NUM_RANGE);
	assert_int_equal(pb_parse_long("101", -100, 100, &v), PB_NUM_RANGE);
	assert_int_equal(pb_parse_long("-101", -100, 100, &v), PB_NUM_RANGE);
	assert_int_equal(v, 7);
	assert_int_equal(pb_parse_long("-100", -100, 100, &v), 0);
	assert_int_equal(v, -100);
	assert_int_equal(pb_parse_long("+42", -100, 100, &v), 0);
	assert_int_equal(v, 42);
}

static void test_clean(void **state)
{
	char s[] = "a\033]0;x\007b\r\n\tc\x7f\xc2\x9b" "2J\xc2\xa0" "d";
	char t[] = "l1\n\tl2\033[2J\r\n";

	(void)state;
	assert_true(pb_str_clean(s));
	assert_string_equal(s, "a?]0;x?b???c???2J\xc2\xa0" "d");	/* NBSP is no control */
	assert_true(pb_text_clean(t));
	assert_string_equal(t, "l1\n\tl2?[2J?\n");
	assert_false(pb_str_clean(s));
}

static void test_str_shown(void **state)
{
	char buf[8];

	(void)state;
	assert_string_equal(pb_str_shown("a\033[2J", buf, sizeof(buf)), "a?[2J");
	assert_string_equal(pb_str_shown("abcdefghij", buf, sizeof(buf)), "abcd...");
	assert_string_equal(pb_str_shown("abcdefg", buf, sizeof(buf)), "abcdefg");
}

/*
 * A spin's steps: up to gap its own (taken off what is left, never below
 * zero), over gap up to cap away on its CPU (an interrupt: counted), over
 * cap another task's slice (a hog sharing the CPU: neither).
 */
static void test_ticks_step(void **state)
{
	static const uint64_t d[] = { 50, 1000, 1001, 20000, 250000, 250001, 3000000, 200 };
	uint64_t left = 1200, away = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]) - 1; i++)
		pb_ticks_step(d[i], 1000, 250000, &left, &away);
	assert_int_equal(left, 150);
	assert_int_equal(away, 1001 + 20000 + 250000);
	pb_ticks_step(d[7], 1000, 250000, &left, &away);	/* past the end: 0, not a wrap */
	assert_int_equal(left, 0);
	pb_ticks_step(3000000, 1000, UINT64_MAX, &left, &away);	/* no cap: all away */
	assert_int_equal(away, 1001 + 20000 + 250000 + 3000000);
}

/* qsort()'s comparison of doubles: ascending, equal ones 0, no int truncation */
static void test_cmp_double(void **state)
{
	double v[] = { 0.25, -1e300, 0.5, 0.25, 1e-9, 0 };
	double a = 0.4, b = 0.6;

	(void)state;
	qsort(v, 6, sizeof(*v), pb_cmp_double);
	assert_true(v[0] == -1e300 && v[1] == 0 && v[2] == 1e-9 && v[3] == 0.25 &&
		    v[4] == 0.25 && v[5] == 0.5);
	assert_int_equal(pb_cmp_double(&a, &b), -1);
	assert_int_equal(pb_cmp_double(&b, &a), 1);
	assert_int_equal(pb_cmp_double(&a, &a), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_releases),
		cmocka_unit_test(test_label_refused),
		cmocka_unit_test(test_open_regular),
		cmocka_unit_test(test_wrap_at),
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_parse_long),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_str_shown),
		cmocka_unit_test(test_ticks_step),
		cmocka_unit_test(test_cmp_double),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
