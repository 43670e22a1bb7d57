// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_resultload.c - result files read whole in blocks up to a cap
 * (pb_read_all: a file, a pipe, the cap itself and one byte over it),
 * parse errors that name line and column but quote none of the file,
 * and what the schema forbids refused with its JSON path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/file.h"
#include "report/resultload.h"

/* A temporary file of n bytes, pattern 'a'..'z'; its fd at offset 0. */
static int tmp_file(size_t n)
{
	char path[] = "/tmp/pb-resultload-XXXXXX";
	int fd = mkstemp(path);
	char *b = malloc(n + 1);

	assert_true(fd >= 0);
	assert_non_null(b);
	unlink(path);
	for (size_t i = 0; i < n; i++)
		b[i] = (char)('a' + i % 26);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	free(b);
	return fd;
}

static void test_read_all(void **state)
{
	size_t n = 0, sizes[] = { 0, 1, 65535, 65536, 65537, 300000 };
	char *buf = NULL;
	int fd;

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		fd = tmp_file(sizes[i]);
		assert_int_equal(pb_read_all(fd, 1 << 20, &buf, &n), 0);
		assert_int_equal(n, sizes[i]);
		assert_int_equal(buf[n], '\0');
		if (n)
			assert_int_equal(buf[n - 1], 'a' + (n - 1) % 26);
		free(buf);
		close(fd);
	}
	/* the cap itself is read, one byte more is refused, and nothing kept */
	fd = tmp_file(100000);
	assert_int_equal(pb_read_all(fd, 100000, &buf, &n), 0);
	assert_int_equal(n, 100000);
	free(buf);
	close(fd);
	fd = tmp_file(100001);
	buf = NULL;
	assert_int_equal(pb_read_all(fd, 100000, &buf, &n), -1);
	assert_int_equal(errno, EFBIG);
	assert_null(buf);
	close(fd);
}

/* A pipe has no size to start from: grown block by block, still capped. */
static void test_read_pipe(void **state)
{
	static char block[200000];
	size_t n = 0;
	char *buf;
	int p[2];
	pid_t pid;

	(void)state;
	memset(block, 'x', sizeof(block));
	for (int cap = 0; cap < 2; cap++) {
		assert_int_equal(pipe(p), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			close(p[0]);
			_exit(write(p[1], block, sizeof(block)) == sizeof(block) ? 0 : 1);
		}
		close(p[1]);
		if (cap) {
			assert_int_equal(pb_read_all(p[0], 150000, &buf, &n), -1);
			assert_int_equal(errno, EFBIG);
		} else {
			assert_int_equal(pb_read_all(p[0], 1 << 20, &buf, &n), 0);
			assert_int_equal(n, sizeof(block));
			free(buf);
		}
		close(p[0]);
		waitpid(pid, NULL, 0);
	}
}

static void parse_bad(const char *text, const char *expect)
{
	char err[512] = "";
	json_t *root = pb_result_parse("f.json", text, strlen(text), err, sizeof(err));

	if (root || strcmp(err, expect))
		fail_msg("%s\n  gave: %s\n  want: %s", text, root ? "a root" : err, expect);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_bad("{\"schema\": \"SECRET-1\n",
		  "f.json: cannot read: unexpected newline (line 1, column 20)");
	parse_bad("{\"schema\": SECRETWORD}",
		  "f.json: cannot read: invalid token (line 1, column 21)");
	parse_bad("", "f.json: cannot read: '[' or '{' expected near end of file (line 1, column 0)");
	parse_bad("[]", "f.json: not a pinbench result: the top level is an array, want an object");
}

#define HEAD	"{\"schema\": \"pinbench-result/1\", "
#define JOB	"{\"name\": \"j\", \"status\": \"ok\", \"metric\": {\"better\": \"lower\"}"

static void test_schema(void **state)
{
	char err[512] = "";
	json_t *root;
	const char *good = HEAD "\"label\": \"6.1\", \"rounds\": 1, \"anomalies\": [], "
			   "\"boot_id\": \"0b-1\", \"invocation\": null, \"jobs\": ["
			   JOB ", \"round\": 1, \"summary\": null, \"repeats\": "
			   "[{\"value\": 0, \"in_summary\": true, \"latency\": null}]}]}";

	(void)state;
	root = pb_result_parse("f.json", good, strlen(good), err, sizeof(err));
	if (!root)
		fail_msg("%s", err);
	json_decref(root);
	parse_bad(HEAD "\"jobs\": [" JOB ", \"repeats\": [{\"value\": -1}]}]}",
		  "f.json: not a pinbench result: jobs[0].repeats[0].value: negative, want 0 or more");
	parse_bad(HEAD "\"jobs\": [" JOB ", \"repeats\": [{}, {\"ops\": \"9\"}]}]}",
		  "f.json: not a pinbench result: jobs[0].repeats[1].ops: a string, want a number");
	parse_bad(HEAD "\"jobs\": [{\"name\": \"j\", \"metric\": {\"better\": \"up\"}}]}",
		  "f.json: not a pinbench result: jobs[0].metric.better: another string, "
		  "want \"lower\" or \"higher\"");
	parse_bad(HEAD "\"jobs\": [" JOB "}, " JOB ", \"status\": 3}]}",
		  "f.json: not a pinbench result: jobs[1].status: a number, want \"ok\", "
		  "\"skipped\", \"failed\" or \"interrupted\"");
	parse_bad(HEAD "\"jobs\": [" JOB ", \"round\": -3}]}",
		  "f.json: not a pinbench result: jobs[0].round: below 1, want 1 or more");
	parse_bad(HEAD "\"jobs\": [{\"status\": \"ok\"}]}",
		  "f.json: not a pinbench result: jobs[0].name: missing, want a string");
	parse_bad(HEAD "\"label\": \"\", \"jobs\": []}",
		  "f.json: not a pinbench result: label: empty, want a string");
	parse_bad(HEAD "\"anomalies\": [{\"kind\": \"k\", \"severity\": \"bad\"}], \"jobs\": []}",
		  "f.json: not a pinbench result: anomalies[0].severity: another string, "
		  "want \"info\", \"warn\" or \"error\"");
	parse_bad(HEAD "\"jobs\": [" JOB ", \"anomalies\": [1]}]}",
		  "f.json: not a pinbench result: jobs[0].anomalies: item 0 is a number, "
		  "want an object");
	parse_bad(HEAD "\"jobs\": [" JOB ", \"summary\": {\"n\": 2, \"stddev\": -1}}]}",
		  "f.json: not a pinbench result: jobs[0].summary.stddev: negative, want 0 or more");
	parse_bad(HEAD "\"jobs\": [" JOB ", \"summary\": {\"latency\": {\"p99\": -2}}}]}",
		  "f.json: not a pinbench result: jobs[0].summary.latency.p99: negative, "
		  "want 0 or more");
	/* a stalled window's latency is null (the saver writes it): read; a string is not */
	parse_bad(HEAD "\"jobs\": [" JOB ", \"repeats\": [{\"latency\": \"x\"}]}]}",
		  "f.json: not a pinbench result: jobs[0].repeats[0].latency: a string, "
		  "want an object or null");
	parse_bad(HEAD "\"jobs\": [" JOB ", \"params\": {\"size\": 64}}]}",
		  "f.json: not a pinbench result: jobs[0].params: a value is a number, "
		  "want a string");
	parse_bad(HEAD "\"boot_id\": 7, \"jobs\": []}",
		  "f.json: not a pinbench result: boot_id: a number, want a string or null");
	parse_bad(HEAD "\"invocation\": \"\", \"jobs\": []}",
		  "f.json: not a pinbench result: invocation: empty, want a string");
	parse_bad(HEAD "\"host\": {\"kernel\": 6}, \"jobs\": []}",
		  "f.json: not a pinbench result: host.kernel: a number, want a string");
}

/* pb_result_loadfd: over the cap, the file and the cap named. */
static void test_loadfd_cap(void **state)
{
	char err[256] = "";
	int fd = tmp_file(16);

	(void)state;
	assert_int_equal(ftruncate(fd, (off_t)PB_RESULT_MAX_BYTES + 1), 0);
	assert_null(pb_result_loadfd(fd, "big.json", err, sizeof(err)));
	assert_string_equal(err, "big.json: over 64 MiB, the cap for a result file");
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_all),
		cmocka_unit_test(test_read_pipe),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_loadfd_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
