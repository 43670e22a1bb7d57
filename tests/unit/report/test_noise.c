// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_noise.c - the noise profile (report/noise.c): the precision ->
 * blocks arithmetic, a profile built from runs against hand-computed
 * components, the fixtures of tests/noise/ loaded or refused with the
 * file and the JSON path, the newest in a folder, held to the results'
 * host class, kernel and age (fixed dates) and to a table's keys, and
 * the answer to pb_between_fn.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "report/noise.h"
#include "stats/levels.h"

#define NEAR(a, b, eps)	assert_true(fabs((a) - (b)) <= (eps))
#define GOOD	"tests/noise/good.json"
#define BOOTS	"tests/noise/boots.json"
#define CLASS	"Test CPU @ 1.00GHz; 1 package, 2 cores, 2 PUs, 1 LLC, 1 NUMA node"
#define DAY	86400

/* the profile's date, 2026-11-20T10:00:00Z */
static const time_t made = 1795168800;

static void test_blocks(void **state)
{
	(void)state;
	assert_int_equal(pb_noise_blocks(50), 9);	/* df 8: sqrt(2/8) = 0.5 */
	assert_int_equal(pb_noise_blocks(100), 3);	/* df 2: sqrt(2/2) = 1 */
	assert_int_equal(pb_noise_blocks(25), 33);	/* df 32 */
	assert_int_equal(pb_noise_blocks(20), 51);	/* df 50 */
	assert_int_equal(pb_noise_blocks(30), 24);	/* 2 / 0.09 = 22.2: df 23 */
	assert_int_equal(pb_noise_blocks(0), -1);
	assert_int_equal(pb_noise_blocks(101), -1);
	NEAR(pb_noise_rel_se(8), 0.5, 1e-12);
	NEAR(pb_noise_rel_se(pb_noise_blocks(30) - 1), 0.2949, 1e-4);
	assert_true(isnan(pb_noise_rel_se(0)));
}

/* A table of 4 runs: y = 0, .02 in invocation i1, .10, .12 in i2 (boots b1, b2 or b1 only) */
static json_t *build(bool two_boots)
{
	static const double y[4] = { 0, 0.02, 0.10, 0.12 };
	struct pb_cmp_level lv[4] = { 0 };
	double u[4];
	struct pb_cell cell = { .u = u, .nu = 4, .lv = lv };
	struct pb_table t = { .job = "pingpong", .placement = "same-cpu", .metric = "rtt",
			      .cells = &cell, .nr_cells = 1 };
	struct pb_cmp c = { .t = &t, .nr_tables = 1 };
	json_t *ids = json_pack("[s]", "b1");
	struct pb_noise_meta m = { .host_class = CLASS, .kernel = "6.1.0-test", .boot_ids = ids,
				   .date = "2026-11-20T10:00:00Z", .label = "calibrate",
				   .blocks = 2, .precision = NAN };
	json_t *p;

	t.params = json_pack("{s:s}", "size", "64");
	for (int i = 0; i < 4; i++) {
		u[i] = exp(y[i]);
		snprintf(lv[i].boot, sizeof(lv[i].boot), "%s", two_boots && i >= 2 ? "b2" : "b1");
		snprintf(lv[i].invocation, sizeof(lv[i].invocation), "i%d", 1 + i / 2);
		lv[i].round = 1 + i % 2;
	}
	p = pb_noise_build(&c, &m);
	json_decref(ids);
	json_decref(t.params);
	return p;
}

static double num(json_t *e, const char *level, const char *key)
{
	return json_number_value(json_object_get(json_object_get(json_object_get(e, "levels"),
								 level), key));
}

static void test_build(void **state)
{
	json_t *p = build(false), *e, *b;
	char err[256];

	(void)state;
	assert_non_null(p);
	assert_int_equal(pb_noise_check(p, err, sizeof(err)), 0);
	e = json_array_get(json_object_get(p, "tables"), 0);
	/* MS_run = 4 x 0.0001 / 2; MS_inv = 2 x 2 x 0.05^2 / 1; inv = (0.01 - 0.0002) / 2 */
	NEAR(num(e, "run", "sd"), sqrt(0.0002), 1e-9);
	NEAR(num(e, "run", "df"), 2, 0);
	NEAR(num(e, "invocation", "sd"), 0.07, 1e-9);
	NEAR(num(e, "invocation", "df"), 1, 0);
	assert_true(json_is_false(json_object_get(json_object_get(json_object_get(e, "levels"),
								  "boot"), "covered")));
	b = json_object_get(e, "between");
	assert_true(json_is_true(json_object_get(b, "stands_in")));
	assert_string_equal(json_string_value(json_object_get(b, "level")), "invocation");
	NEAR(json_number_value(json_object_get(b, "sd")), 0.07, 1e-9);
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "covers"), 0)),
			    "invocation");
	assert_true(json_is_false(json_object_get(json_object_get(p, "boot"), "covered")));
	json_decref(p);
}

/* Two boots, one invocation each: the boot level is measured, nothing stands in */
static void test_build_boots(void **state)
{
	json_t *p = build(true), *e, *b;

	(void)state;
	e = json_array_get(json_object_get(p, "tables"), 0);
	b = json_object_get(e, "between");
	assert_true(json_is_false(json_object_get(b, "stands_in")));
	assert_string_equal(json_string_value(json_object_get(b, "level")), "boot");
	NEAR(json_number_value(json_object_get(b, "df")), 1, 0);
	assert_true(json_number_value(json_object_get(b, "sd")) > 0);
	json_decref(p);
}

static void test_load(void **state)
{
	struct pb_noise p;
	char err[512];

	(void)state;
	assert_int_equal(pb_noise_load(GOOD, &p, err, sizeof(err)), 0);
	assert_string_equal(p.host_class, CLASS);
	assert_string_equal(p.kernel, "6.1.0-test");
	assert_int_equal((long)p.when, (long)made);
	pb_noise_free(&p);
}

static void refused(const char *path, const char *want)
{
	struct pb_noise p;
	char err[512];

	assert_int_equal(pb_noise_load(path, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	if (!strstr(err, want))
		fail_msg("%s: got \"%s\", want \"%s\"", path, err, want);
	assert_null(p.root);
}

static void test_refused(void **state)
{
	(void)state;
	refused("tests/noise/bad-df.json", "$.tables[0].between.df is a string, want a number");
	refused("tests/noise/bad-schema.json",
		"$.schema is \"pinbench-result/1\", want \"pinbench-noise/1\"");
	refused("tests/noise/absent.json", "cannot read");
}

/* A context of these results: class, one kernel, the clock at now */
static void ctx_of(struct pb_noise_ctx *x, const struct pb_noise *p, const char *cls,
		   const char *kernel, time_t now)
{
	memset(x, 0, sizeof(*x));
	x->p = p;
	x->host_class = cls;
	x->kernels = json_pack("[s, s]", "6.2.0-other", kernel);
	x->now = now;
}

static int usable(const struct pb_noise *p, const char *cls, const char *kernel, time_t now,
		  const char *want)
{
	struct pb_noise_ctx x;
	int r;

	ctx_of(&x, p, cls, kernel, now);
	r = pb_noise_usable(&x);
	if (want && !strstr(x.why, want))
		fail_msg("got \"%s\", want \"%s\"", x.why, want);
	json_decref(x.kernels);
	return r;
}

static void test_usable(void **state)
{
	struct pb_noise p;
	char err[512];

	(void)state;
	assert_int_equal(pb_noise_load(GOOD, &p, err, sizeof(err)), 0);
	assert_int_equal(usable(&p, CLASS, "6.1.0-test", made + DAY, NULL), 1);
	assert_int_equal(usable(&p, CLASS, "6.1.0-test", made + 30 * DAY, NULL), 1);
	assert_int_equal(usable(&p, CLASS, "6.1.0-test", made + 30 * DAY + 1,
				"older than 30 days (2026-11-20T10:00:00Z)"), 0);
	assert_int_equal(usable(&p, "Other CPU; 1 package", "6.1.0-test", made,
				"of another host class (" CLASS "; the results: Other CPU"), 0);
	assert_int_equal(usable(&p, NULL, "6.1.0-test", made, "the results: several"), 0);
	assert_int_equal(usable(&p, CLASS, "6.3.0", made, "of another kernel (6.1.0-test"), 0);
	pb_noise_free(&p);
}

/* pb_noise_match of a pingpong table with these keys */
static int match(const struct pb_noise *p, const char *job, json_t *params, char *why,
		 size_t len)
{
	struct pb_table t = { .job = "pingpong", .placement = "same-cpu", .params = params };
	json_t *e = NULL;
	int r;

	snprintf(t.job, sizeof(t.job), "%s", job);
	r = pb_noise_match(p, &t, &e, why, len);
	if (r == 1)
		assert_string_equal(json_string_value(json_object_get(e, "job")), job);
	json_decref(params);
	return r;
}

static void test_match(void **state)
{
	struct pb_noise p;
	char err[512], why[160];

	(void)state;
	assert_int_equal(pb_noise_load(GOOD, &p, err, sizeof(err)), 0);
	/* how long it ran may differ */
	assert_int_equal(match(&p, "pingpong", json_pack("{s:s, s:s, s:s}", "bench", "pipe",
							  "size", "64", "duration", "1"), why,
			       sizeof(why)), 1);
	assert_int_equal(match(&p, "pingpong", json_pack("{s:s, s:s}", "bench", "pipe",
							  "size", "1"), why, sizeof(why)), -1);
	assert_string_equal(why, "size: 1 here, 64 in the profile");
	assert_int_equal(match(&p, "pingpong", json_pack("{s:s, s:s, s:s}", "bench", "pipe",
							  "size", "64", "pattern", "stream"), why,
			       sizeof(why)), -1);
	assert_string_equal(why, "pattern: stream here, absent in the profile");
	assert_int_equal(match(&p, "pingpong", json_pack("{s:s}", "bench", "pipe"), why,
			       sizeof(why)), -1);
	assert_string_equal(why, "size: absent here, 64 in the profile");
	assert_int_equal(match(&p, "other", json_pack("{s:s}", "bench", "pipe"), why,
			       sizeof(why)), 0);
	pb_noise_free(&p);
}

static int between(const char *path, const char *cls, time_t now, json_t *params,
		   struct pb_between *b)
{
	struct pb_table t = { .job = "pingpong", .placement = "same-cpu", .params = params };
	struct pb_noise_ctx x;
	struct pb_noise p;
	char err[512];
	int r;

	assert_int_equal(pb_noise_load(path, &p, err, sizeof(err)), 0);
	ctx_of(&x, &p, cls, "6.1.0-test", now);
	r = pb_noise_between(&x, &t, b);
	json_decref(x.kernels);
	json_decref(params);
	pb_noise_free(&p);
	return r;
}

/* a pipe job's keys, of this size */
static json_t *keys(const char *size)
{
	return json_pack("{s:s, s:s}", "bench", "pipe", "size", size);
}

static void test_between(void **state)
{
	struct pb_between b;

	(void)state;
	assert_int_equal(between(GOOD, CLASS, made, keys("64"), &b), 1);
	NEAR(b.sd, 0.012, 1e-12);
	NEAR(b.df, 8, 0);
	assert_true(b.stands_in);
	assert_string_equal(b.source, "noise profile " GOOD " (" CLASS ", kernel 6.1.0-test, "
			    "2026-11-20T10:00:00Z)");
	assert_int_equal(between(BOOTS, CLASS, made, keys("64"), &b), 1);
	NEAR(b.sd, 0.006, 1e-12);
	assert_false(b.stands_in);
	/* refused, said, never used */
	assert_int_equal(between(GOOD, "Other", made, keys("64"), &b), -1);
	assert_true(isnan(b.sd));
	assert_non_null(strstr(b.source, "of another host class"));
	assert_int_equal(between(GOOD, CLASS, made + 31 * DAY, keys("64"), &b), -1);
	assert_non_null(strstr(b.source, "older than 30 days"));
	assert_int_equal(between(GOOD, CLASS, made, keys("1"), &b), -1);
	assert_non_null(strstr(b.source, "other keys (size: 1 here, 64 in the profile)"));
	assert_true(isnan(b.sd));
}

/*
 * Planning a job file by a profile.  good.json: the invocations' 1.2 %
 * (df 8) stands in for boots, runs 2 % (df 9); with 4 rounds the MDE of
 * one boot a kernel is pb_plan_mde's of those figures, and its floor (rounds
 * without end) sqrt 2 x 1.2 % on df 8: expm1(3.194893 x 0.016971) = 5.572 %.
 * boots.json: boots 0.6 % (df 2) measured, so a boot's figure holds its
 * one invocation's too: sqrt(0.000036 + 0.000144) = 1.3416 %, Satterthwaite
 * 0.00018^2 / (0.000036^2 / 2 + 0.000144^2 / 8) = 10 df; floor
 * expm1((2.228139 + 0.879058) x sqrt 2 x 0.013416) = 6.073 %.
 */
static void test_plan(void **state)
{
	struct pb_noise_plan r;
	struct pb_noise p;
	char err[512], why[160];
	json_t *k = keys("64");

	(void)state;
	assert_int_equal(pb_noise_load(GOOD, &p, err, sizeof(err)), 0);
	assert_int_equal(pb_noise_plan(&p, "pingpong", "same-cpu", k, 4, 0.01, &r, why,
				       sizeof(why)), 1);
	assert_true(r.stands_in);
	NEAR(r.mde_one, pb_plan_mde(0.012, 8, 0.02, 9, 4, 1), 1e-12);
	NEAR(r.floor, 0.05572, 5e-5);
	assert_int_equal(r.boots, pb_plan_boots(0.012, 8, 0.02, 9, 4, 0.01, PB_PLAN_MAX_BOOTS));
	assert_true(r.boots > 1 && r.mde_boots <= 0.01);
	assert_true(pb_plan_mde(0.012, 8, 0.02, 9, 4, r.boots - 1) > 0.01);
	assert_int_equal(pb_noise_plan(&p, "pingpong", "same-cpu", k, 4, 10, &r, why,
				       sizeof(why)), 1);
	assert_int_equal(r.boots, 1);
	assert_int_equal(pb_noise_plan(&p, "other", "same-cpu", k, 4, 0.01, &r, why,
				       sizeof(why)), 0);
	json_decref(k);
	k = keys("1");
	assert_int_equal(pb_noise_plan(&p, "pingpong", "same-cpu", k, 4, 0.01, &r, why,
				       sizeof(why)), -1);
	assert_string_equal(why, "size: 1 here, 64 in the profile");
	json_decref(k);
	pb_noise_free(&p);
	k = keys("64");
	assert_int_equal(pb_noise_load(BOOTS, &p, err, sizeof(err)), 0);
	assert_int_equal(pb_noise_plan(&p, "pingpong", "same-cpu", k, 4, 0.01, &r, why,
				       sizeof(why)), 1);
	assert_false(r.stands_in);
	NEAR(r.sd_above, sqrt(0.00018), 1e-12);
	NEAR(r.df_above, 10, 1e-9);
	NEAR(r.floor, 0.06073, 5e-5);
	json_decref(k);
	pb_noise_free(&p);
}

/* A profile's text reaches a terminal cleaned: no escape sequence */
static void test_clean(void **state)
{
	struct pb_table t = { .job = "pingpong", .placement = "same-cpu" };
	struct pb_noise_ctx x;
	struct pb_between b;
	struct pb_noise p;
	char err[512];

	(void)state;
	assert_int_equal(pb_noise_load(GOOD, &p, err, sizeof(err)), 0);
	t.params = keys("64");
	snprintf(p.kernel, sizeof(p.kernel), "6.1\033[2J");
	ctx_of(&x, &p, CLASS, "6.1\033[2J", made);
	assert_int_equal(pb_noise_between(&x, &t, &b), 1);
	assert_null(strchr(b.source, '\033'));
	json_decref(x.kernels);
	json_decref(t.params);
	pb_noise_free(&p);
}

/* from into dir/name, of class cls and made at date when not NULL */
static void copy(const char *from, const char *dir, const char *name, const char *cls,
		 const char *date)
{
	json_t *root = json_load_file(from, 0, NULL);
	char path[512];

	assert_non_null(root);
	if (cls)
		json_object_set_new(root, "host_class", json_string(cls));
	if (date)
		json_object_set_new(root, "date", json_string(date));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

static void test_find(void **state)
{
	char dir[] = "/tmp/test_noise.XXXXXX", path[512], err[256], want[600];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pb_noise_find(dir, CLASS, path, sizeof(path), err, sizeof(err)), 0);
	copy(GOOD, dir, "noise-a-1.json", NULL, NULL);			/* 11-20 */
	copy(BOOTS, dir, "noise-a-2.json", NULL, NULL);			/* 11-25 */
	copy(BOOTS, dir, "other-name.json", NULL, "2026-11-30T00:00:00Z");	/* no profile's name */
	assert_int_equal(pb_noise_find(dir, CLASS, path, sizeof(path), err, sizeof(err)), 1);
	snprintf(want, sizeof(want), "%s/noise-a-2.json", dir);
	assert_string_equal(path, want);
	/* the newest of another class loses to an older one of this class ... */
	copy(BOOTS, dir, "noise-b-3.json", "Other CPU", "2026-11-29T00:00:00Z");
	assert_int_equal(pb_noise_find(dir, CLASS, path, sizeof(path), err, sizeof(err)), 1);
	snprintf(want, sizeof(want), "%s/noise-a-2.json", dir);
	assert_string_equal(path, want);
	/* ... and is found, to be refused by name, when none is of the class */
	assert_int_equal(pb_noise_find(dir, "Third CPU", path, sizeof(path), err, sizeof(err)), 1);
	snprintf(want, sizeof(want), "%s/noise-b-3.json", dir);
	assert_string_equal(path, want);
	for (int i = 0; i < 4; i++) {
		static const char *const n[] = { "noise-a-1.json", "noise-a-2.json",
						 "other-name.json", "noise-b-3.json" };

		snprintf(path, sizeof(path), "%s/%s", dir, n[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_build_boots),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_usable),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_between),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
