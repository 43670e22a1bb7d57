// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_history.c - a results history as nightly reads it: runs (files,
 * and rounds inside a file), history order, which jobs give a run mean,
 * the values each run keeps for the plot, the between-run CV pooled over
 * kernels against figures worked out by hand, and a step named by its
 * kernel and direction.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include <jansson.h>

#include "report/history.h"

#define NEAR(a, b, eps)	assert_true(fabs((a) - (b)) <= (eps))

/* A job entry of cell pingpong/same-cpu (lower is better) with mean v. */
static json_t *job(double v, int round)
{
	json_t *j = json_pack("{s:s, s:s, s:s, s:{s:s}, s:{s:f}}", "name", "pingpong",
			      "placement", "same-cpu", "status", "ok", "metric", "better", "lower",
			      "summary", "mean", v);

	if (round)
		json_object_set_new(j, "round", json_integer(round));
	return j;
}

static bool judged;	/* what add() passes on */

static void add(struct pb_history *h, const char *path, const char *label,
		const char *started, json_t *jobs)
{
	json_t *root = json_pack("{s:s, s:s, s:s, s:o}", "schema", "pinbench-result/1",
				 "label", label, "started", started, "jobs", jobs);

	assert_int_equal(pb_history_add(h, path, root, judged), 0);
	json_decref(root);
}

static double value_at(const struct pb_history *h, const struct pb_history_cell *c, int i,
		       const char **label)
{
	*label = h->runs[c->pt[i].run].label;
	return c->pt[i].v;
}

/* Run i of label lab[i] with mean v[i], one a day from 2026-01-01. */
static void add_runs(struct pb_history *h, const char *const *lab, const double *v, int n)
{
	char path[32], when[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%d.json", i);
		snprintf(when, sizeof(when), "2026-01-%02dT00:00:00Z", i + 1);
		add(h, path, lab[i], when, json_pack("[o]", job(v[i], 0)));
	}
}

/* The history of runs lab[i] with means v[i], analysed: its one cell. */
static struct pb_history_cell *noise_of(struct pb_history *h, const char *const *lab,
					const double *v, int n)
{
	add_runs(h, lab, v, n);
	assert_int_equal(pb_history_analyse(h), 0);
	return pb_history_find(h, "pingpong", "same-cpu");
}

static void test_order_and_rounds(void **state)
{
	struct pb_history h = { 0 };
	struct pb_history_cell *c;
	const char *l;

	(void)state;
	/* added out of order: 6.10 before 6.9, a later start before an earlier one */
	add(&h, "b.json", "6.10", "2026-01-05T00:00:00Z", json_pack("[o]", job(4, 0)));
	add(&h, "a.json", "6.9", "2026-01-03T00:00:00Z", json_pack("[o]", job(3, 0)));
	add(&h, "c.json", "6.9", "2026-01-01T00:00:00Z",
	    json_pack("[o, o]", job(1, 1), job(2, 2)));
	assert_int_equal(h.nr_runs, 4);	/* the two rounds of c.json are two runs */
	assert_int_equal(pb_history_analyse(&h), 0);
	c = pb_history_find(&h, "pingpong", "same-cpu");
	assert_non_null(c);
	assert_int_equal(c->n, 4);
	NEAR(value_at(&h, c, 0, &l), 1, 0);
	assert_string_equal(l, "6.9");
	NEAR(value_at(&h, c, 1, &l), 2, 0);
	NEAR(value_at(&h, c, 2, &l), 3, 0);
	NEAR(value_at(&h, c, 3, &l), 4, 0);
	assert_string_equal(l, "6.10");
	pb_history_free(&h);
}

/* Failed jobs give no mean; without a summary, the metric's repeats do. */
static void test_run_means(void **state)
{
	struct pb_history h = { 0 };
	struct pb_history_cell *c;
	json_t *failed = job(99, 0), *bare = job(0, 0);

	(void)state;
	json_object_set_new(failed, "status", json_string("failed"));
	json_object_del(bare, "summary");
	json_object_set_new(bare, "repeats", json_pack("[{s:f}, {s:f}, {s:f, s:b}, {s:n}]",
			    "value", 10.0, "value", 12.0, "value", 100.0, "in_summary", 0,
			    "value"));
	add(&h, "f.json", "6.1", "", json_pack("[o]", failed));
	add(&h, "r.json", "6.1", "", json_pack("[o]", bare));
	assert_int_equal(pb_history_analyse(&h), 0);
	c = pb_history_find(&h, "pingpong", "same-cpu");
	assert_non_null(c);
	assert_int_equal(c->n, 1);
	NEAR(c->pt[0].v, 11.0, 1e-12);
	/* the plot's dots: the values in the summary, the left-out and null ones not */
	assert_int_equal(c->pt[0].nv, 2);
	NEAR(c->pt[0].val[0], 10.0, 1e-12);
	NEAR(c->pt[0].val[1], 12.0, 1e-12);
	assert_true(isnan(c->cv));	/* one run of one kernel: no A/A */
	assert_int_equal(c->aa_runs, 0);
	pb_history_free(&h);
}

/*
 * Kernel A: 100, 102 (CV 1.41421 / 101 = 0.0140021); kernel B: 50, 50, 53
 * (mean 51, sd sqrt(3), CV 0.0339618); kernel C: 70, once (no A/A).
 * Pooled: sqrt((1 * 0.0140021^2 + 2 * 0.0339618^2) / 3) = 0.0288838.
 */
static void test_pooled_noise(void **state)
{
	const char *lab[] = { "6.1", "6.1", "6.2", "6.2", "6.2", "6.3" };
	const double v[] = { 100, 102, 50, 50, 53, 70 };
	struct pb_history h = { 0 };
	struct pb_history_cell *c;

	(void)state;
	c = noise_of(&h, lab, v, 6);
	NEAR(c->cv, 0.0288838, 1e-6);
	assert_int_equal(c->aa_runs, 5);
	assert_int_equal(c->aa_kernels, 2);
	pb_history_free(&h);

	/* a third run of 6.1 far off, the one being judged: not its own noise */
	add_runs(&h, lab, v, 6);
	judged = true;
	add(&h, "tonight.json", "6.1", "2026-01-09T00:00:00Z", json_pack("[o]", job(150, 0)));
	judged = false;
	assert_int_equal(pb_history_analyse(&h), 0);
	c = pb_history_find(&h, "pingpong", "same-cpu");
	assert_int_equal(c->n, 7);
	NEAR(c->cv, 0.0288838, 1e-6);
	assert_int_equal(c->aa_runs, 5);
	pb_history_free(&h);
}

/*
 * Four kernels twice each; 6.4's pair holds a bad night (80, 120: CV 28 %,
 * over 3 times the median, 1.05 %): left out.  6.1: 100, 101 (CV
 * 0.7036 %), 6.2: 50, 51 (1.4002 %), 6.3: 70, 70.7 (0.7036 %): pooled
 * sqrt((0.7036^2 + 1.4002^2 + 0.7036^2) / 3) = 0.99174 %.
 */
static void test_bad_pair(void **state)
{
	const char *lab[] = { "6.1", "6.1", "6.2", "6.2", "6.3", "6.3", "6.4", "6.4" };
	const double v[] = { 100, 101, 50, 51, 70, 70.7, 80, 120 };
	struct pb_history h = { 0 };
	struct pb_history_cell *c;

	(void)state;
	c = noise_of(&h, lab, v, 8);
	NEAR(c->cv, 0.0099174, 1e-6);
	assert_int_equal(c->aa_runs, 6);
	assert_int_equal(c->aa_kernels, 3);
	assert_int_equal(c->aa_dropped, 1);
	pb_history_free(&h);
}

/* 6 nights at 10, then 6 at 11 from 6.7 on: a +10 % step, a regression (lower is better). */
static void test_step(void **state)
{
	const double noise[] = { 0.01, -0.02, 0.015, 0, -0.01, 0.02 };
	struct pb_history h = { 0 };
	struct pb_history_cell *c;
	char path[32], label[16], when[32];
	int i;

	(void)state;
	for (i = 0; i < 12; i++) {
		snprintf(path, sizeof(path), "%d.json", i);
		snprintf(label, sizeof(label), "6.%d", i + 1);
		snprintf(when, sizeof(when), "2026-01-%02dT00:00:00Z", i + 1);
		add(&h, path, label, when,
		    json_pack("[o]", job((i < 6 ? 10 : 11) + noise[i % 6], 0)));
	}
	assert_int_equal(pb_history_analyse(&h), 0);
	c = pb_history_find(&h, "pingpong", "same-cpu");
	assert_int_equal(c->nr_steps, 1);
	assert_int_equal(c->steps[0].at, 6);
	assert_string_equal(c->steps[0].label, "6.7");
	assert_true(c->steps[0].regression);
	NEAR(c->steps[0].change, 10.0, 0.5);
	assert_int_equal(h.cp.min_size, PB_CP_MIN_SIZE);
	assert_true(h.cp.seed == PB_CP_SEED);
	pb_history_free(&h);
}

/*
 * The bad-night rule from 3 kernels on: 6.1 (CV 0.7036 %), 6.2 (1.4002 %)
 * and 6.4's bad pair (28.3 %, over 3 times the median 1.4002 %): dropped,
 * the floor from the other two, sqrt((0.7036^2 + 1.4002^2) / 2) = 1.10807 %.
 */
static void test_bad_pair_three(void **state)
{
	const char *lab[] = { "6.1", "6.1", "6.2", "6.2", "6.4", "6.4" };
	const double v[] = { 100, 101, 50, 51, 80, 120 };
	struct pb_history h = { 0 };
	struct pb_history_cell *c;

	(void)state;
	c = noise_of(&h, lab, v, 6);
	NEAR(c->cv, 0.0110807, 1e-6);
	assert_int_equal(c->aa_kernels, 2);
	assert_int_equal(c->aa_dropped, 1);
	pb_history_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_rounds),
		cmocka_unit_test(test_run_means),
		cmocka_unit_test(test_pooled_noise),
		cmocka_unit_test(test_bad_pair),
		cmocka_unit_test(test_bad_pair_three),
		cmocka_unit_test(test_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
