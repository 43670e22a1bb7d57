// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_export.c - pinbench export's cases (report/export.c) on result
 * files made by the seeded generator: an A/A pair passes, a 5 % shift
 * fails the cells that got worse only, skipped and failed jobs and error
 * anomalies become their own results, LAVA names and units are words
 * LAVA's parser takes, and the counts agree with what is written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs_fixture.h"
#include "report/compare.h"
#include "report/export.h"

#define GENRESULTS_NO_MAIN
#include "tools/genresults.c"

static char tmpdir[256];

static char *gen_file(const struct gen_spec *s, const char *name)
{
	static char bufs[4][512];
	static int k;
	char err[640];

	k = (k + 1) % 4;
	snprintf(bufs[k], sizeof(bufs[k]), "%s/%s", tmpdir, name);
	assert_int_equal(gen_write(s, bufs[k], err, sizeof(err)), 0);
	return bufs[k];
}

/* Export path (against base, or NULL) in format f; the text, to free. */
static char *export(const char *path, const char *base, enum pb_exp_format f,
		    struct pb_exp_counts *n)
{
	struct pb_exp_opts o = { .format = f, .base = -1, .min_change = PB_CMP_MIN_CHG };
	struct pb_cmp c = { .by = PB_GROUP_LABEL };
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *m;

	c.force_group = "results";
	assert_int_equal(pb_cmp_load(&c, path, err, sizeof(err)), 0);
	if (base) {
		c.force_group = "baseline";
		assert_int_equal(pb_cmp_load(&c, base, err, sizeof(err)), 0);
		o.base = pb_cmp_find_group(&c, "baseline");
		o.base_name = "6.1";
	}
	c.force_group = NULL;
	pb_cmp_order(&c, true);
	o.cur = pb_cmp_find_group(&c, "results");
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(pb_export(&c, &o, m, n, err, sizeof(err)), 0);
	fclose(m);
	pb_cmp_free(&c);
	return buf;
}

/*
 * A folder tag of three boots of s (a generated file is a boot of its own:
 * seeds s->seed, + 10, + 20): a change counts as a regression at the
 * boot level only.  Its path (static, two in turn); *files, the files'.
 */
static char *gen_boots(struct gen_spec *s, const char *tag, char files[3][300])
{
	static char dirs[2][280];
	static int k;
	char name[64];

	k = !k;
	snprintf(dirs[k], sizeof(dirs[k]), "%s/%s", tmpdir, tag);
	assert_int_equal(mkdir(dirs[k], 0755), 0);
	for (int i = 0; i < 3; i++, s->seed += 10) {
		snprintf(name, sizeof(name), "%s/%d.json", tag, i);
		snprintf(files[i], 300, "%s", gen_file(s, name));
	}
	return dirs[k];
}

/* A baseline (seeds 1, 11, 21) and a second kernel (2, 12, 22) moved by shift, 8 repeats. */
static void gen_pair(double shift, const char *tag, char **a, char **b)
{
	char name[64], files[3][300];
	struct gen_spec s;

	gen_defaults(&s);
	s.rmin = s.rmax = 8;
	snprintf(name, sizeof(name), "%s-1", tag);
	*a = gen_boots(&s, name, files);
	s.seed = 2;
	s.shift = shift;
	snprintf(name, sizeof(name), "%s-2", tag);
	*b = gen_boots(&s, name, files);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

static void test_formats(void **state)
{
	(void)state;
	assert_int_equal(pb_exp_format_parse("lava"), PB_EXP_LAVA);
	assert_int_equal(pb_exp_format_parse("lava-signal"), PB_EXP_LAVA_SIGNAL);
	assert_int_equal(pb_exp_format_parse("ktap"), PB_EXP_KTAP);
	assert_int_equal(pb_exp_format_parse("junit"), PB_EXP_JUNIT);
	assert_int_equal(pb_exp_format_parse("tap"), -1);
}

/* Two seeds of the same means: nothing fails, every case has its figure. */
static void test_aa_passes(void **state)
{
	struct pb_exp_counts n;
	char *a, *b, *out;

	(void)state;
	gen_pair(0, "aa", &a, &b);
	out = export(b, a, PB_EXP_KTAP, &n);
	assert_int_equal(n.pass, 4);
	assert_int_equal(n.fail + n.skip, 0);
	assert_int_equal(count(out, "not ok"), 0);
	/* KTAP v1: the plan right after the version line */
	assert_true(!strncmp(out, "KTAP version 1\n1..4\n# pinbench export: against ", 47));
	assert_non_null(strstr(out, "ok 1 pingpong/same-cpu # "));
	assert_non_null(strstr(out, "no-change: "));
	free(out);
}

/* +5 %: the rtt (lower is better) regressed, the throughput improved. */
static void test_shift_fails_regressions(void **state)
{
	struct pb_exp_counts n;
	char *a, *b, *out;

	(void)state;
	gen_pair(0.05, "sh", &a, &b);
	out = export(b, a, PB_EXP_LAVA, &n);
	assert_int_equal(n.fail, 2);
	assert_int_equal(n.pass, 2);
	assert_non_null(strstr(out, "lava-test-case pingpong.same-cpu --result fail "
			       "--measurement "));
	assert_non_null(strstr(out, "lava-test-case pingpong.same-cpu.change --result fail "
			       "--measurement 5."));
	assert_non_null(strstr(out, "lava-test-case stream.same-cpu --result pass"));
	assert_non_null(strstr(out, "--units %\n"));
	assert_non_null(strstr(out, "echo '<LAVA_SIGNAL_STARTTC pingpong.same-cpu>'\n"
			       "echo 'pingpong.same-cpu: regression: +5."));
	assert_null(strstr(out, "\n# pingpong"));
	free(out);
	out = export(b, a, PB_EXP_JUNIT, &n);
	assert_int_equal(count(out, "<failure type=\"regression\" message=\"regression: +"), 2);
	assert_int_equal(count(out, "against 6.1; at the boot level; resolves ±"), 2);
	assert_non_null(strstr(out, "<property name=\"same-cpu.verdict\" value=\"improvement\"/>"));
	/* the figures are the testsuite's properties: a testcase has none (junit-10.xsd) */
	assert_int_equal(count(out, "<properties>"), count(out, "<testsuite "));
	assert_int_equal(count(out, "        <property"), 0);
	assert_non_null(strstr(out, "failures=\"2\" errors=\"0\" skipped=\"0\""));
	free(out);
	/* no baseline: nothing to regress against */
	out = export(b, NULL, PB_EXP_KTAP, &n);
	assert_int_equal(n.fail, 0);
	assert_null(strstr(out, "change"));
	free(out);
}

static void test_skip_fail_anomaly(void **state)
{
	struct gen_spec s;
	struct pb_exp_counts n;
	char *p, *out;

	(void)state;
	gen_defaults(&s);
	s.skip = "pingpong:same-core";
	s.fail = "stream:same-cpu";
	s.anomaly = "counter-multiplexed:stream:same-core";
	s.severity = "error";
	p = gen_file(&s, "sfa.json");
	out = export(p, NULL, PB_EXP_KTAP, &n);
	assert_int_equal(n.pass, 2);
	assert_int_equal(n.skip, 1);
	assert_int_equal(n.fail, 2);
	assert_non_null(strstr(out, "\n1..5\n"));
	assert_non_null(strstr(out, "ok 2 pingpong/same-core # SKIP no SMT siblings\n"));
	assert_non_null(strstr(out, "not ok 3 stream/same-cpu # failed: watchdog: no "
			       "progress for 13 s\n"));
	assert_non_null(strstr(out, "ok 4 stream/same-core # "));
	assert_non_null(strstr(out, "not ok 5 stream/same-core/counter-multiplexed # "
			       "counter-multiplexed: injected by genresults\n"));
	free(out);
	out = export(p, NULL, PB_EXP_JUNIT, &n);
	assert_non_null(strstr(out, "<skipped message=\"no SMT siblings\"/>"));
	assert_non_null(strstr(out, "<error type=\"failed\" message=\"failed: watchdog"));
	assert_non_null(strstr(out, "name=\"same-core/counter-multiplexed\" time=\"0.000\">\n"
			       "      <failure type=\"anomaly\""));
	free(out);
	/* a run-wide error: a case of its own */
	s.run_error = "env-governor";
	p = gen_file(&s, "sfa-run.json");
	out = export(p, NULL, PB_EXP_KTAP, &n);
	assert_int_equal(n.fail, 3);
	assert_non_null(strstr(out, "not ok 6 pinbench-run/environment/env-governor # "
			       "env-governor: injected run-wide\n"));
	free(out);
	out = export(p, NULL, PB_EXP_LAVA, &n);
	assert_non_null(strstr(out, "lava-test-case pinbench-run.environment.env-governor "
			       "--result fail\n"));
	free(out);
	s.run_error = NULL;
	/* a warning is a mark, not a case */
	s.severity = "warn";
	p = gen_file(&s, "sfa-warn.json");
	out = export(p, NULL, PB_EXP_LAVA_SIGNAL, &n);
	assert_int_equal(n.fail, 1);
	assert_null(strstr(out, "counter-multiplexed"));
	assert_non_null(strstr(out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pingpong.same-core "
			       "RESULT=skip>\n"));
	assert_non_null(strstr(out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=stream.same-cpu "
			       "RESULT=fail>\n"));
	free(out);
}

/*
 * +5 % with an error finding on the new kernel's pingpong same-cpu runs:
 * that cell is not judged (no regression case), its value case says so in
 * the words compare uses, and the finding is its error case.
 */
static void test_not_judged(void **state)
{
	char name[64], files[3][300], *a, *b, *out;
	struct pb_exp_counts n;
	struct gen_spec s;

	(void)state;
	gen_defaults(&s);
	s.rmin = s.rmax = 8;
	a = gen_boots(&s, "nj-1", files);
	s.seed = 2;
	s.shift = 0.05;
	s.anomaly = "noisy-neighbor:pingpong:same-cpu";
	s.severity = "error";
	snprintf(name, sizeof(name), "nj-2");
	b = gen_boots(&s, name, files);
	out = export(b, a, PB_EXP_JUNIT, &n);
	assert_int_equal(count(out, "<failure type=\"regression\""), 1);
	assert_non_null(strstr(out, "<property name=\"same-cpu.verdict\" value=\"not-judged\"/>"));
	assert_non_null(strstr(out, "<failure type=\"anomaly\" message=\"noisy-neighbor: "));
	free(out);
	out = export(b, a, PB_EXP_KTAP, &n);
	assert_non_null(strstr(out, " us, not-judged: +5."));
	assert_non_null(strstr(out, "against 6.1; not judged: noisy-neighbor on this side\n"));
	free(out);
}

/* Job names with '/' and '=', units with 'µ': words LAVA's signal parser splits right. */
static void test_lava_words(void **state)
{
	struct gen_spec s;
	struct pb_exp_counts n;
	char *p, *out, *line;

	(void)state;
	gen_defaults(&s);
	s.jobs = 0;
	s.sweep = true;
	p = gen_file(&s, "sweep.json");
	out = export(p, NULL, PB_EXP_LAVA_SIGNAL, &n);
	assert_int_equal(n.pass, 4);
	assert_non_null(strstr(out, "TEST_CASE_ID=scale_threads_4.compact RESULT=pass "
			       "MEASUREMENT="));
	assert_non_null(strstr(out, " UNITS=ops/s>\n"));
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		/* LAVA: each word KEY=VALUE with exactly one '=' */
		char *w, *save, buf[512];

		snprintf(buf, sizeof(buf), "%s", line + strlen("<LAVA_SIGNAL_TESTCASE "));
		buf[strlen(buf) - 1] = 0;
		for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
			assert_int_equal(count(w, "="), 1);
	}
	free(out);
}

static int setup(void **state)
{
	(void)state;
	return fixture_tmpdir(tmpdir, "export");
}

static int teardown(void **state)
{
	(void)state;
	return fixture_tmpdir_remove(tmpdir);
}

/* Rename every job "from" in result file path to "to". */
static void rename_jobs(const char *path, const char *from, const char *to)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *j;
	size_t i;

	assert_non_null(root);
	json_array_foreach(json_object_get(root, "jobs"), i, j)
		if (!strcmp(json_string_value(json_object_get(j, "name")), from))
			json_object_set_new(j, "name", json_string(to));
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

/* Set the reason of the job name at placement in result file path. */
static void set_reason(const char *path, const char *name, const char *placement,
		       const char *reason)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *j;
	size_t i;

	assert_non_null(root);
	json_array_foreach(json_object_get(root, "jobs"), i, j)
		if (!strcmp(json_string_value(json_object_get(j, "name")), name) &&
		    !strcmp(json_string_value(json_object_get(j, "placement")), placement))
			json_object_set_new(j, "reason", json_string(reason));
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

/* A result file whose pingpong cannot run same-core. */
static char *skipped_file(const char *name)
{
	struct gen_spec s;

	gen_defaults(&s);
	s.skip = "pingpong:same-core";
	return gen_file(&s, name);
}

/*
 * A skip's reason reaches LAVA as the case's log, between its STARTTC and
 * ENDTC signals, with no pattern of LAVA's in it (the loader made the line
 * break "??"); for sh, quoted.  In KTAP, on the result line.
 */
static void test_skip_reasons(void **state)
{
	static const char why[] = "can't\r\n<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x RESULT=pass> #2";
	struct pb_exp_counts n;
	char *p = skipped_file("why.json"), *out;

	(void)state;
	set_reason(p, "pingpong", "same-core", why);
	out = export(p, NULL, PB_EXP_LAVA_SIGNAL, &n);
	assert_int_equal(n.skip, 1);
	assert_non_null(strstr(out, "<LAVA_SIGNAL_STARTTC pingpong.same-core>\n"
			       "pingpong.same-core: can't?\?_LAVA_SIGNAL_TESTCASE TEST_CASE_ID=x "
			       "RESULT=pass> #2\n<LAVA_SIGNAL_ENDTC pingpong.same-core>\n"
			       "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=pingpong.same-core "
			       "RESULT=skip>\n"));
	assert_int_equal(count(out, "<LAVA_SIGNAL_TESTCASE"), n.pass + n.skip);
	free(out);
	out = export(p, NULL, PB_EXP_LAVA, &n);
	assert_non_null(strstr(out, "echo '<LAVA_SIGNAL_STARTTC pingpong.same-core>'\n"
			       "echo 'pingpong.same-core: can'\\''t?\?_LAVA_SIGNAL_TESTCASE "
			       "TEST_CASE_ID=x RESULT=pass> #2'\n"
			       "echo '<LAVA_SIGNAL_ENDTC pingpong.same-core>'\n"
			       "lava-test-case pingpong.same-core --result skip\n"));
	free(out);
	out = export(p, NULL, PB_EXP_KTAP, &n);
	assert_non_null(strstr(out, "ok 2 pingpong/same-core # SKIP can't?\?<LAVA_SIGNAL_TESTCASE "
			       "TEST_CASE_ID=x RESULT=pass> _2\n"));
	free(out);
}

/* Every '&' in XML text starts one of the five entities. */
static void assert_entities(const char *s)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };

	for (s = strchr(s, '&'); s; s = strchr(s + 1, '&')) {
		bool ok = false;

		for (size_t k = 0; k < sizeof(ent) / sizeof(ent[0]); k++)
			ok |= !strncmp(s, ent[k], strlen(ent[k]));
		assert_true(ok);
	}
}

/*
 * A '#' in a job name would start a KTAP directive: '_' instead.  An '&'
 * in JUnit is "&amp;".  A failed cell is an error, not a failure: with a
 * regression beside it, failures="1" errors="1".
 */
static void test_escapes_and_counts(void **state)
{
	struct gen_spec s;
	struct pb_exp_counts n;
	char *a, *b, *out, *line, files[3][300];

	(void)state;
	gen_defaults(&s);
	s.jobs = 1;
	s.placements = 2;
	s.rmin = s.rmax = 8;
	a = gen_boots(&s, "esc-1", files);
	for (int i = 0; i < 3; i++)
		rename_jobs(files[i], "pingpong", "ping#1&2");
	s.seed = 2;
	s.shift = 0.05;
	s.fail = "pingpong:same-core";
	b = gen_boots(&s, "esc-2", files);
	for (int i = 0; i < 3; i++)
		rename_jobs(files[i], "pingpong", "ping#1&2");
	out = export(b, a, PB_EXP_KTAP, &n);
	assert_int_equal(n.fail, 2);
	line = strstr(out, "not ok 1 ");
	assert_non_null(line);
	assert_true(!strncmp(line, "not ok 1 ping_1&2/same-cpu # ", 29));
	assert_non_null(strstr(out, "not ok 2 ping_1&2/same-core # failed"));
	free(out);
	out = export(b, a, PB_EXP_JUNIT, &n);
	assert_non_null(strstr(out, "<testsuite name=\"ping#1&amp;2\""));
	assert_null(strstr(out, "#1&2"));
	assert_entities(out);
	/* skipped= on a testsuite only; time, timestamp (no zone) and hostname filled */
	assert_non_null(strstr(out, "<testsuites name=\"pinbench\" tests=\"2\" failures=\"1\" "
			       "errors=\"1\" time=\""));
	assert_int_equal(count(out, "skipped=\""), 1);
	assert_non_null(strstr(out, "tests=\"2\" failures=\"1\" errors=\"1\" skipped=\"0\" "
			       "time=\""));
	assert_non_null(strstr(out, "\" timestamp=\"2026-01-01T00:00:00\" hostname=\"gen-host\">\n"
			       "    <properties>"));
	assert_null(strstr(out, "time=\"0.000\""));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_aa_passes),
		cmocka_unit_test(test_shift_fails_regressions),
		cmocka_unit_test(test_not_judged),
		cmocka_unit_test(test_skip_fail_anomaly),
		cmocka_unit_test(test_skip_reasons),
		cmocka_unit_test(test_lava_words),
		cmocka_unit_test(test_escapes_and_counts),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
