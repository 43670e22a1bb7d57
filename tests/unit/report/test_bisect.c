// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bisect.c - bisect-check's rule (report/bisect.c), every exit
 * branch with recorded figures: a cell's call from its three evaluations
 * (the gap bad against good, the new run against each side), the cells
 * combined, the line that says it; then the cells made from result files
 * by compare's own verdicts (one boot a side, within it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs_fixture.h"
#include "report/bisect.h"
#include "report/compare.h"

static char tmpdir[256];

/* An evaluation as compare records it: change and interval (percent), significance. */
static struct pb_eval ev(double change, double lo, double hi, bool significant, bool within)
{
	struct pb_eval e = { .change = change, .ci_lo = lo, .ci_hi = hi, .p = NAN,
			     .significant = significant, .within = within, .mde = 2.6 };

	e.test = "welch";
	return e;
}

/*
 * A cell: the gap of pipe rtt between a good and a bad kernel (+11.8 %,
 * [+9.1, +14.5], at the boot level), and the new run's figures against
 * good (g) and bad (b).
 */
static struct pb_bisect_cell cell(struct pb_eval g, struct pb_eval b)
{
	struct pb_bisect_cell c = { .name = "pingpong rtt same-cpu" };

	c.gap = ev(11.8, 9.1, 14.5, true, false);
	c.good = g;
	c.bad = b;
	return c;
}

/* recorded: a run like the bad kernel, like the good one, and the rest */
#define LIKE_BAD	cell(ev(12.2, 9.5, 14.9, true, false), ev(0.4, -2.2, 3.0, false, false))
#define LIKE_GOOD	cell(ev(-0.3, -2.8, 2.3, false, false), \
			     ev(-10.8, -13.1, -8.4, true, false))
#define BETWEEN		cell(ev(5.9, 3.3, 8.6, true, false), ev(-5.3, -7.7, -2.8, true, false))
#define NEITHER		cell(ev(5.9, -4.1, 16.8, false, false), \
			     ev(-5.3, -14.2, 4.6, false, false))

static int judge(const struct pb_bisect_cell *v, int n, struct pb_bisect_verdict *r,
		 char *line, size_t len)
{
	pb_bisect_rule(v, n, r);
	pb_bisect_words(v, r, line, len);
	return r->exit;
}

static void test_bad(void **state)
{
	struct pb_bisect_cell v[] = { LIKE_BAD };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_BAD);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_BAD);
	assert_int_equal(r.cell, 0);
	assert_string_equal(line, "bad: +12.2 % [+9.5, +14.9] from good, +0.4 % [-2.2, +3.0] "
			    "from bad (pingpong rtt same-cpu; gap +11.8 %; boot level)");
}

static void test_good(void **state)
{
	struct pb_bisect_cell v[] = { LIKE_GOOD, LIKE_GOOD };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_GOOD);
	assert_int_equal(judge(v, 2, &r, line, sizeof(line)), PB_BISECT_GOOD);
	assert_int_equal(r.judged, 2);
	assert_string_equal(line, "good: -0.3 % [-2.8, +2.3] from good, -10.8 % [-13.1, -8.4] "
			    "from bad (pingpong rtt same-cpu; gap +11.8 %; boot level; all 2 "
			    "judged cells good)");
}

/* A gap the data does not resolve: 125, with the gap and its resolution said. */
static void test_no_gap(void **state)
{
	struct pb_bisect_cell v[] = { LIKE_BAD };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	v[0].gap = ev(0.8, -3.1, 4.9, false, false);
	v[0].gap.widened = true;
	v[0].gap.mde = 5.2;
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_NO_GAP);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_int_equal(r.judged, 0);
	assert_string_equal(line, "cannot tell: good and bad do not differ resolvably here (gap "
			    "+0.8 % [-3.1, +4.9], resolves ±5.2 %, boot level by the noise "
			    "profile) (pingpong rtt same-cpu)");
}

/* Differs from both, between them: a partial change, 125. */
static void test_between(void **state)
{
	struct pb_bisect_cell v[] = { BETWEEN };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_BETWEEN);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_non_null(strstr(line, "cannot tell: between good and bad: +5.9 %"));
}

/* Differs from both, beyond bad: 125, not bad (it is not like bad either). */
static void test_both(void **state)
{
	struct pb_bisect_cell v[] = { cell(ev(25.0, 22.1, 27.9, true, false),
					   ev(11.8, 9.2, 14.4, true, false)) };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_BOTH);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_non_null(strstr(line, "cannot tell: differs from both good and bad"));
}

static void test_neither(void **state)
{
	struct pb_bisect_cell v[] = { NEITHER };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_NEITHER);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_non_null(strstr(line, "cannot tell: resolves neither good nor bad"));
}

/*
 * Differs from one side only, away from the other: faster than good and
 * not resolved from it is not "like good" when it is off bad the wrong way
 * (and off good away from bad is not "like bad").
 */
static void test_outside(void **state)
{
	struct pb_bisect_cell v[] = { cell(ev(-3.0, -9.0, 3.0, false, false),
					   ev(+3.0, 1.0, 5.0, true, false)),
				      cell(ev(-4.0, -6.0, -2.0, true, false),
					   ev(-5.0, -12.0, 2.0, false, false)) };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_OUTSIDE);
	assert_int_equal(pb_bisect_call(&v[1]), PB_CALL_OUTSIDE);
	assert_int_equal(judge(v, 2, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_non_null(strstr(line, "away from the other"));
}

/* A gap the other way (bad faster): like bad is faster than good. */
static void test_gap_down(void **state)
{
	struct pb_bisect_cell v[] = { cell(ev(-9.0, -11.0, -7.0, true, false),
					   ev(0.5, -1.5, 2.5, false, false)) };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	v[0].gap = ev(-9.5, -11.2, -7.8, true, false);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_BAD);
	v[0].good = ev(0.5, -1.5, 2.5, false, false);
	v[0].bad = ev(10.8, 8.6, 13.0, true, false);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_GOOD);
}

/* A failed job anywhere: 125, even beside a cell like bad. */
static void test_failed(void **state)
{
	struct pb_bisect_cell v[] = { LIKE_BAD, LIKE_GOOD };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	v[1].failed = true;
	snprintf(v[1].name, sizeof(v[1].name), "other rtt same-cpu");
	snprintf(v[1].status, sizeof(v[1].status), "failed");
	assert_int_equal(judge(v, 2, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_int_equal(r.cell, 1);
	assert_string_equal(line, "cannot tell: a job failed (other rtt same-cpu: failed)");
}

/* An error finding on a side: that cell cannot tell; the rest still decide. */
static void test_finding(void **state)
{
	struct pb_bisect_cell v[] = { LIKE_GOOD, LIKE_BAD };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	snprintf(v[0].finding, sizeof(v[0].finding), "noisy-neighbor in the new run");
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_FINDING);
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_string_equal(line, "cannot tell: an error finding (noisy-neighbor in the new run) "
			    "(pingpong rtt same-cpu)");
	assert_int_equal(judge(v, 2, &r, line, sizeof(line)), PB_BISECT_BAD);
	assert_int_equal(r.cell, 1);
	v[0].finding[0] = 0;
	snprintf(v[0].gap.not_judged, sizeof(v[0].gap.not_judged), "clock on the baseline");
	assert_int_equal(pb_bisect_call(&v[0]), PB_CALL_FINDING);
}

/* Combining: any cell bad is bad; a good cell beside one that cannot tell is 125. */
static void test_combine(void **state)
{
	struct pb_bisect_cell v[] = { LIKE_GOOD, NEITHER, LIKE_BAD, LIKE_GOOD };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	v[3].gap = ev(0.2, -2.0, 2.4, false, false);	/* no gap: left out */
	assert_int_equal(judge(v, 4, &r, line, sizeof(line)), PB_BISECT_BAD);
	assert_int_equal(r.cell, 2);
	assert_int_equal(r.judged, 3);
	assert_int_equal(judge(v, 2, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_int_equal(r.cell, 1);
	v[1] = v[3];
	assert_int_equal(judge(v, 2, &r, line, sizeof(line)), PB_BISECT_GOOD);
	assert_int_equal(r.cell, 0);
	assert_int_equal(r.judged, 1);
	assert_int_equal(judge(v, 0, &r, line, sizeof(line)), PB_BISECT_SKIP);
	assert_int_equal(r.cell, -1);
}

/* A within-boot verdict says so. */
static void test_within_said(void **state)
{
	struct pb_bisect_cell v[] = { LIKE_BAD };
	struct pb_bisect_verdict r;
	char line[512];

	(void)state;
	v[0].good.within = true;
	assert_int_equal(judge(v, 1, &r, line, sizeof(line)), PB_BISECT_BAD);
	assert_non_null(strstr(line, "; within one boot)"));
}

/* ---- from result files: compare's verdicts ---- */

/* A file of one boot, n runs (a round each) of v[i] ns, job j; a failed job when n is 0. */
static void write_runs(const char *name, const char *boot, const double *v, int n,
		       const char *anomaly)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\": \"pinbench-result/1\", \"label\": \"x\", \"boot_id\": \"%s\", "
		"\"invocation\": \"%032x\", \"jobs\": [", boot, (unsigned int)n);
	if (!n)
		fputs("{\"name\": \"j\", \"placement\": \"same-cpu\", \"status\": \"failed\", "
		      "\"round\": 1, \"metric\": {\"name\": \"rtt\", \"unit\": \"ns\", "
		      "\"better\": \"lower\"}, \"repeats\": []}", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"name\": \"j\", \"placement\": \"same-cpu\", \"status\": \"ok\", "
			"%s\"round\": %d, \"metric\": {\"name\": \"rtt\", \"unit\": \"ns\", "
			"\"better\": \"lower\"}, \"repeats\": [{\"value\": %.10g}]}",
			i ? ", " : "", anomaly ? anomaly : "", i + 1, v[i]);
	fputs("]}\n", f);
	fclose(f);
}

/* good, bad and new loaded as bisect-check loads them; the rule's exit. */
static int from_files(const char *new_file, char *line, size_t len)
{
	static const char *const files[3] = { "good.json", "bad.json", NULL };
	static const char *const groups[3] = { "good", "bad", "new" };
	struct pb_cmp c = { .by = PB_GROUP_LABEL };
	struct pb_bisect_cell *v;
	struct pb_bisect_verdict r;
	char path[512], err[512];
	int n;

	for (int i = 0; i < 3; i++) {
		c.force_group = groups[i];
		snprintf(path, sizeof(path), "%s/%s", tmpdir, files[i] ? files[i] : new_file);
		assert_int_equal(pb_cmp_load(&c, path, err, sizeof(err)), 0);
	}
	pb_cmp_ask_between(&c, NULL, NULL);
	n = pb_bisect_cells(&c, 0, 1, 2, PB_CMP_MIN_CHG, &v);
	assert_int_equal(n, 1);
	pb_bisect_rule(v, n, &r);
	pb_bisect_words(v, &r, line, len);
	free(v);
	pb_cmp_free(&c);
	return r.exit;
}

static void test_files(void **state)
{
	static const double good[] = { 100.1, 99.8, 100.3, 99.9, 100.2, 100.0 };
	static const double bad[] = { 112.0, 111.7, 112.4, 111.9, 112.2, 112.1 };
	static const double mid[] = { 103.6, 103.9, 103.5, 103.6, 103.6, 103.7 };
	char line[512];

	(void)state;
	write_runs("good.json", "b-good", good, 6, NULL);
	write_runs("bad.json", "b-bad", bad, 6, NULL);
	write_runs("like-bad.json", "b-new", bad + 1, 5, NULL);
	write_runs("like-good.json", "b-new", good + 1, 5, NULL);
	write_runs("mid.json", "b-new", mid, 6, NULL);
	write_runs("failed.json", "b-new", NULL, 0, NULL);
	write_runs("noisy.json", "b-new", good, 6, "\"anomalies\": [{\"kind\": \"clock\", "
		   "\"severity\": \"error\", \"message\": \"x\"}], ");
	assert_int_equal(from_files("like-bad.json", line, sizeof(line)), PB_BISECT_BAD);
	assert_non_null(strstr(line, "(j rtt same-cpu; gap +12.0 %; within one boot)"));
	assert_int_equal(from_files("like-good.json", line, sizeof(line)), PB_BISECT_GOOD);
	/* +3.6 %: off good, and off bad too */
	assert_int_equal(from_files("mid.json", line, sizeof(line)), PB_BISECT_SKIP);
	assert_non_null(strstr(line, "between good and bad"));
	assert_int_equal(from_files("failed.json", line, sizeof(line)), PB_BISECT_SKIP);
	assert_string_equal(line, "cannot tell: a job failed (j rtt same-cpu: failed)");
	assert_int_equal(from_files("noisy.json", line, sizeof(line)), PB_BISECT_SKIP);
	assert_non_null(strstr(line, "an error finding (clock in the new run)"));
}

static int setup(void **state)
{
	(void)state;
	return fixture_tmpdir(tmpdir, "bisect");
}

static int teardown(void **state)
{
	(void)state;
	return fixture_tmpdir_remove(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_no_gap),
		cmocka_unit_test(test_between),
		cmocka_unit_test(test_both),
		cmocka_unit_test(test_neither),
		cmocka_unit_test(test_outside),
		cmocka_unit_test(test_gap_down),
		cmocka_unit_test(test_failed),
		cmocka_unit_test(test_finding),
		cmocka_unit_test(test_combine),
		cmocka_unit_test(test_within_said),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
