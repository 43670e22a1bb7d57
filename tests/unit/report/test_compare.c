// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare.c - compare, plot and nightly on result files made by the
 * seeded generator (tests/tools/genresults.c): version order, pooling,
 * missing cells, metric direction, exit codes, golden outputs, the trust
 * test (A/A and a 5 % shift), plot files, the nightly run.
 *
 * UPDATE_GOLDEN=1 rewrites tests/golden/compare-*.{txt,md,csv} and
 * tests/golden/plot-*.{gp,dat}.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "skip.h"
#include "golden.h"
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "report/compare.h"
#include "report/nightly.h"

#define GENRESULTS_NO_MAIN
#include "tools/genresults.c"

static char tmpdir[256];

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

/* A path in the test folder, valid until the 8th call after. */
static char *tmpdir_file(const char *name)
{
	static char bufs[8][512];
	static int k;

	k = (k + 1) % 8;
	path_in(bufs[k], sizeof(bufs[k]), name);
	return bufs[k];
}

static void gen(const struct gen_spec *s, const char *name)
{
	char path[512], err[640];

	path_in(path, sizeof(path), name);
	assert_int_equal(gen_write(s, path, err, sizeof(err)), 0);
}

/* Run a command with stdout in a file; returns its exit code, *out its output. */
static int run_cmd(int (*fn)(int, char **), char **out, int argc, ...)
{
	char *argv[32], path[512];
	int fd, saved, rc, i;
	va_list ap;
	FILE *f;
	long n;

	va_start(ap, argc);
	for (i = 0; i < argc && i < 31; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[i] = NULL;
	path_in(path, sizeof(path), "stdout.txt");
	fflush(stdout);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	assert_true(fd >= 0);
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	rc = fn(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*out = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(*out, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return rc;
}

static void load(struct pb_cmp *c, const char *name)
{
	char path[512], err[512];

	path_in(path, sizeof(path), name);
	assert_int_equal(pb_cmp_load(c, path, err, sizeof(err)), 0);
}

static const struct pb_table *table(const struct pb_cmp *c, const char *job, const char *pl)
{
	int i;

	for (i = 0; i < c->nr_tables; i++)
		if (!strcmp(c->t[i].job, job) && !strcmp(c->t[i].placement, pl))
			return &c->t[i];
	fail_msg("no table %s %s", job, pl);
	return NULL;
}

/* ---- version order ---- */

static void test_version_order(void **state)
{
	static const char *const asc[] = {
		"2.6.9", "2.6.22", "2.6.29", "2.6.30-rc2", "2.6.30-rc3", "2.6.30", "2.6.30.1",
		"5.10.0-rc1", "5.10.0", "6.1.0-17-amd64", "6.1.0-18-amd64", "6.10",
	};
	int n = (int)(sizeof(asc) / sizeof(asc[0])), i, j;

	(void)state;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			assert_int_equal(pb_version_cmp(asc[i], asc[j]), i < j ? -1 : i > j);
}

static void test_order_given_and_version(void **state)
{
	struct gen_spec s;
	struct pb_cmp c = { 0 };
	static const char *const labels[] = { "2.6.30", "2.6.9", "2.6.30-rc2", "2.6.22" };
	char name[32];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		gen_defaults(&s);
		s.label = labels[i];
		s.seed = (uint64_t)i + 1;
		snprintf(name, sizeof(name), "o%d.json", i);
		gen(&s, name);
		load(&c, name);
	}
	pb_cmp_order(&c, false);
	assert_string_equal(c.groups[c.order[0]], "2.6.9");
	assert_string_equal(c.groups[c.order[1]], "2.6.22");
	assert_string_equal(c.groups[c.order[2]], "2.6.30-rc2");
	assert_string_equal(c.groups[c.order[3]], "2.6.30");
	pb_cmp_order(&c, true);
	for (i = 0; i < 4; i++)
		assert_string_equal(c.groups[c.order[i]], labels[i]);
	pb_cmp_free(&c);
}

/* ---- pooling, missing cells, direction ---- */

static void test_pooling(void **state)
{
	struct gen_spec s;
	struct pb_cmp c = { 0 };
	const struct pb_cell *cell;

	(void)state;
	gen_defaults(&s);
	s.label = "6.1";
	s.rmin = s.rmax = 3;
	gen(&s, "p1.json");
	s.seed = 2;
	s.rmin = s.rmax = 5;
	gen(&s, "p2.json");
	load(&c, "p1.json");
	load(&c, "p2.json");
	assert_int_equal(c.nr_groups, 1);
	assert_int_equal(c.nr_files, 2);
	cell = pb_cmp_cell(table(&c, "pingpong", "same-cpu"), 0);
	assert_non_null(cell);
	assert_int_equal(cell->n, 8);
	pb_cmp_free(&c);
}

/* ---- file identity, unusable files ---- */

static void mkdir_in(const char *name)
{
	char path[512];

	path_in(path, sizeof(path), name);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void symlink_in(const char *target, const char *name)
{
	char path[512];

	path_in(path, sizeof(path), name);
	assert_int_equal(symlink(target, path), 0);
}

/*
 * One file counts once however it is reached: twice on the line, through
 * a symlink or a hard link, or through two folders that link to each
 * other (symlinked folders are not walked).
 */
static void write_in(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	path_in(path, sizeof(path), name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool skipped_has(const struct pb_cmp *c, const char *name, const char *why)
{
	for (int i = 0; i < c->nr_skipped; i++)
		if (strstr(c->skipped[i], name) && strstr(c->skipped[i], why))
			return true;
	return false;
}

static void test_file_identity(void **state)
{
	struct pb_cmp c = { 0 };
	const struct pb_cell *cell;
	char a[512], b[512];
	struct gen_spec s;

	(void)state;
	mkdir_in("id-a");
	mkdir_in("id-b");
	gen_defaults(&s);
	s.label = "7.0";
	gen(&s, "id-a/r.json");
	s.label = "7.1";
	s.seed = 2;
	s.shift = 0.02;
	gen(&s, "id-b/r.json");
	symlink_in("../id-b", "id-a/to-b");
	symlink_in("../id-a", "id-b/to-a");
	symlink_in("../id-b", "id-a/linked.json");	/* a folder named *.json */
	symlink_in("r.json", "id-a/again.json");
	path_in(a, sizeof(a), "id-a/r.json");
	path_in(b, sizeof(b), "id-a/hard.json");
	assert_int_equal(link(a, b), 0);
	load(&c, "id-a");
	load(&c, "id-b");
	load(&c, "id-a/r.json");
	load(&c, "id-a/r.json");
	load(&c, "id-b/to-a/again.json");
	load(&c, "id-a/to-b");
	assert_int_equal(c.nr_files, 2);
	assert_int_equal(c.nr_groups, 2);
	/* a folder's symlinked file is not followed (named on the line, it is) */
	assert_int_equal(c.nr_skipped, 1);
	assert_true(skipped_has(&c, "id-a/again.json", "a symbolic link, not followed"));
	cell = pb_cmp_cell(table(&c, "pingpong", "same-cpu"), pb_cmp_find_group(&c, "7.0"));
	assert_non_null(cell);
	assert_int_equal(cell->n, 4);
	cell = pb_cmp_cell(table(&c, "pingpong", "same-cpu"), pb_cmp_find_group(&c, "7.1"));
	assert_int_equal(cell->n, 4);
	pb_cmp_free(&c);
}

/*
 * In a folder, a truncated or corrupt file, a FIFO, a dangling symlink
 * and another schema are skipped and noted; named on the line, each is
 * an error naming it.  A FIFO never blocks the reader (alarm: a hang
 * fails the test instead of stalling it).
 */
static void test_unusable_files(void **state)
{
	struct pb_cmp c = { 0 };
	char path[512], err[512];
	struct gen_spec s;
	const char *bad[] = { "u/trunc.json", "u/fifo.json", "u/dangling.json",
			      "u/other.json", "u/empty.json" };

	(void)state;
	mkdir_in("u");
	gen_defaults(&s);
	s.label = "8.0";
	gen(&s, "u/good.json");
	write_in("u/trunc.json", "{\"schema\": \"pinbench-result/1\", \"jobs\": [{\"na");
	write_in("u/empty.json", "");
	write_in("u/notes.txt", "not json, not *.json: not read");
	path_in(path, sizeof(path), "u/fifo.json");
	assert_int_equal(mkfifo(path, 0644), 0);
	symlink_in("nowhere.json", "u/dangling.json");
	s.schema = "other/1";
	gen(&s, "u/other.json");
	alarm(60);
	load(&c, "u");
	assert_int_equal(c.nr_files, 1);
	assert_int_equal(c.nr_skipped, 5);
	assert_true(skipped_has(&c, "u/trunc.json", "cannot read"));
	assert_true(skipped_has(&c, "u/empty.json", "cannot read"));
	assert_true(skipped_has(&c, "u/fifo.json", "not a regular file (a FIFO)"));
	assert_true(skipped_has(&c, "u/dangling.json", "a symbolic link, not followed"));
	assert_true(skipped_has(&c, "u/other.json", "not a pinbench result"));
	pb_cmp_free(&c);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path_in(path, sizeof(path), bad[i]);
		err[0] = '\0';
		assert_int_equal(pb_cmp_load(&c, path, err, sizeof(err)), -1);
		assert_non_null(strstr(err, bad[i]));
		assert_int_equal(c.nr_files, 0);
		pb_cmp_free(&c);
	}
	assert_int_equal(pb_cmp_load(&c, "/dev/null", err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/null: not a regular file (a character device)");
	pb_cmp_free(&c);
	alarm(0);
}

/*
 * A file that is JSON but not a result as the loader reads it: the error
 * names the field and says what is wrong with it (issue 11: a wrong-typed
 * jobs said "schema pinbench-result/1, want pinbench-result/1").
 */
static void test_wrong_types(void **state)
{
	static const struct {
		const char *json, *why;
	} cases[] = {
		{ "[]", "the top level is an array, want an object" },
		{ "{\"jobs\": []}", "no schema, want \"pinbench-result/1\"" },
		{ "{\"schema\": 1, \"jobs\": []}",
		  "schema is a number, want the string \"pinbench-result/1\"" },
		{ "{\"schema\": null, \"jobs\": []}",
		  "schema is null, want the string \"pinbench-result/1\"" },
		{ "{\"schema\": \"other/1\", \"jobs\": []}",
		  "schema \"other/1\", want \"pinbench-result/1\"" },
		{ "{\"schema\": \"pinbench-result/1\"}", "no jobs, want an array" },
		{ "{\"schema\": \"pinbench-result/1\", \"jobs\": {}}",
		  "jobs is an object, want an array" },
		{ "{\"schema\": \"pinbench-result/1\", \"jobs\": 3}",
		  "jobs is a number, want an array" },
		{ "{\"schema\": \"pinbench-result/1\", \"jobs\": \"x\"}",
		  "jobs is a string, want an array" },
		{ "{\"schema\": \"pinbench-result/1\", \"jobs\": null}",
		  "jobs is null, want an array" },
		{ "{\"schema\": \"pinbench-result/1\", \"jobs\": [{}, true]}",
		  "jobs[1] is a boolean, want an object" },
	};
	char path[512], err[512], want[700];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pb_cmp c = { 0 };

		write_in("typed.json", cases[i].json);
		path_in(path, sizeof(path), "typed.json");
		err[0] = '\0';
		assert_int_equal(pb_cmp_load(&c, path, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "%s: not a pinbench result: %s", path, cases[i].why);
		assert_string_equal(err, want);
		assert_int_equal(c.nr_files, 0);
		pb_cmp_free(&c);
	}
}

static void test_missing_and_skipped(void **state)
{
	struct gen_spec s;
	struct pb_cmp c = { 0 };
	struct pb_cmp_opts o = { .min_change = 1 };
	const struct pb_table *t;
	char *out = NULL, err[256];
	size_t len = 0;
	FILE *f;

	(void)state;
	gen_defaults(&s);
	s.label = "5.0";
	gen(&s, "m1.json");
	s.label = "5.1";
	s.drop = "stream:same-core";
	s.skip = "pingpong:same-core";
	gen(&s, "m2.json");
	load(&c, "m1.json");
	load(&c, "m2.json");
	pb_cmp_order(&c, false);
	t = table(&c, "stream", "same-core");
	assert_null(pb_cmp_cell(t, pb_cmp_find_group(&c, "5.1")));
	t = table(&c, "pingpong", "same-core");
	assert_string_equal(pb_cmp_cell(t, pb_cmp_find_group(&c, "5.1"))->status, "skipped");
	f = open_memstream(&out, &len);
	assert_int_equal(pb_cmp_report(&c, &o, f, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(out, "skipped: no SMT siblings"));
	assert_non_null(strstr(out, "—  —"));	/* the missing cell's Average, Stddev */
	free(out);
	pb_cmp_free(&c);
}

/* PREFIX1.json (label 4.0) and PREFIX2.json (4.1, +5 %), loaded into c and ordered. */
static void load_shifted(struct pb_cmp *c, const char *prefix)
{
	struct gen_spec s;
	char a[64], b[64];

	snprintf(a, sizeof(a), "%s1.json", prefix);
	snprintf(b, sizeof(b), "%s2.json", prefix);
	gen_defaults(&s);
	s.label = "4.0";
	gen(&s, a);
	s.label = "4.1";
	s.seed = 9;
	s.shift = 0.05;
	gen(&s, b);
	load(c, a);
	load(c, b);
	pb_cmp_order(c, false);
}

/* lower is better: +5 % is a regression; higher is better: an improvement. */
static void test_direction(void **state)
{
	struct pb_cmp c = { 0 };
	struct pb_eval e;
	const struct pb_table *t;

	(void)state;
	load_shifted(&c, "d");
	t = table(&c, "pingpong", "same-cpu");
	assert_false(t->higher);
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_base(&c, t, -1), 1.0, &e);
	assert_true(e.significant);
	/* one boot a side, no between-boot figure: never plain "regression" */
	assert_string_equal(e.verdict, "regression-within-boot");
	assert_false(pb_cmp_regressed(&e));
	assert_true(e.change > 3 && e.change < 7);
	t = table(&c, "stream", "same-cpu");
	assert_true(t->higher);
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_base(&c, t, -1), 1.0, &e);
	assert_true(e.significant);
	assert_string_equal(e.verdict, "improvement-within-boot");
	/* A noise floor above the change silences it. */
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_base(&c, t, -1), 10.0, &e);
	assert_false(e.significant);
	assert_string_equal(e.verdict, "no-change");
	pb_cmp_free(&c);
}

/* ---- exit codes ---- */

/* The k-th boot of label (seed seed + k, a file of its own, name fmt % k); its name. */
static const char *gen_boot(struct gen_spec *s, const char *fmt, int k, const char *label,
			    uint64_t seed, double shift)
{
	static char name[64];

	s->label = label;
	s->seed = seed + (uint64_t)k;
	s->shift = shift;
	snprintf(name, sizeof(name), fmt, k);
	gen(s, name);
	return name;
}

static void test_exit_codes(void **state)
{
	char a[512], b[512], bad[512], *out;
	struct gen_spec s;
	FILE *f;

	(void)state;
	gen_defaults(&s);
	s.label = "3.0";
	gen(&s, "e1.json");
	s.label = "3.1";
	s.seed = 5;
	s.shift = 0.05;
	gen(&s, "e2.json");
	path_in(a, sizeof(a), "e1.json");
	path_in(b, sizeof(b), "e2.json");
	/* One boot a side: changed within its boot, never a regression for the exit code. */
	assert_int_equal(run_cmd(cmd_compare, &out, 4, "compare", "--fail-on-regression",
				 a, b), 0);
	assert_non_null(strstr(out, "changed within its boot"));
	assert_null(strstr(out, " regression"));
	free(out);
	/* Three boots a side (a folder each): a regression at the boot level. */
	mkdir_in("ea");
	mkdir_in("eb");
	for (int k = 0; k < 3; k++) {
		gen_boot(&s, "ea/%d.json", k, "3.0", 60, 0);
		gen_boot(&s, "eb/%d.json", k, "3.1", 70, 0.05);
	}
	path_in(a, sizeof(a), "ea");
	path_in(b, sizeof(b), "eb");
	assert_int_equal(run_cmd(cmd_compare, &out, 3, "compare", a, b), 0);
	assert_non_null(strstr(out, "regression (boot level), resolves ±"));
	free(out);
	assert_int_equal(run_cmd(cmd_compare, &out, 4, "compare", "--fail-on-regression",
				 a, b), 1);
	free(out);
	path_in(a, sizeof(a), "e1.json");
	path_in(b, sizeof(b), "e2.json");
	/* Against itself: no regression, exit 0 even with --fail-on-regression. */
	assert_int_equal(run_cmd(cmd_compare, &out, 4, "compare", "--fail-on-regression",
				 a, a), 0);
	free(out);
	assert_int_equal(run_cmd(cmd_compare, &out, 5, "compare", "--baseline", "9.9", a, b), 2);
	free(out);
	assert_int_equal(run_cmd(cmd_compare, &out, 3, "compare", a, "/nonexistent.json"), 2);
	free(out);
	s.schema = "something-else/1";
	gen(&s, "wrong.json");
	path_in(bad, sizeof(bad), "wrong.json");
	assert_int_equal(run_cmd(cmd_compare, &out, 2, "compare", bad), 2);
	free(out);
	path_in(bad, sizeof(bad), "garbage.json");
	f = fopen(bad, "w");
	fputs("{ not json", f);
	fclose(f);
	assert_int_equal(run_cmd(cmd_compare, &out, 2, "compare", bad), 2);
	free(out);
	assert_int_equal(run_cmd(cmd_compare, &out, 3, "compare", "--format", "xml", a), 2);
	free(out);
}

static void test_json_format(void **state)
{
	char a[512], b[512], *out;
	struct gen_spec s;
	json_t *root, *r;
	size_t i;
	int sig = 0;

	(void)state;
	gen_defaults(&s);
	s.label = "3.0";
	gen(&s, "j1.json");
	s.label = "3.1";
	s.seed = 5;
	s.shift = 0.05;
	gen(&s, "j2.json");
	path_in(a, sizeof(a), "j1.json");
	path_in(b, sizeof(b), "j2.json");
	assert_int_equal(run_cmd(cmd_compare, &out, 5, "compare", "--format", "json", b, a), 0);
	root = json_loads(out, 0, NULL);
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(root, "results")), 8);
	json_array_foreach(json_object_get(root, "results"), i, r) {
		assert_non_null(json_object_get(r, "label"));
		assert_non_null(json_object_get(r, "mean"));
		assert_string_equal(json_string_value(json_object_get(r, "baseline")), "3.0");
		sig += json_is_true(json_object_get(r, "significant"));
	}
	assert_int_equal(sig, 4);
	json_decref(root);
	free(out);
}

/* ---- trust ---- */

/* Cells of b flagged against a: 10 jobs x 4 placements, 4-10 repeats, CV 1 %. */
static int flagged(uint64_t seed_a, uint64_t seed_b, double shift, bool correct, int *cells)
{
	struct pb_cmp c = { 0 };
	struct gen_spec s;
	struct pb_eval e;
	int i, n = 0;

	gen_defaults(&s);
	s.jobs = 10;
	s.placements = 4;
	s.rmin = 4;
	s.rmax = 10;
	s.label = "A";
	s.seed = seed_a;
	gen(&s, "trust-a.json");
	s.label = "B";
	s.seed = seed_b;
	s.shift = shift;
	gen(&s, "trust-b.json");
	load(&c, "trust-a.json");
	load(&c, "trust-b.json");
	pb_cmp_order(&c, true);
	pb_cmp_adjust(&c, 0, correct);
	assert_int_equal(c.nr_tests, c.nr_tables);
	for (i = 0; i < c.nr_tables; i++) {
		pb_cmp_eval(&c.t[i], pb_cmp_cell(&c.t[i], 1), pb_cmp_cell(&c.t[i], 0),
			    PB_CMP_MIN_CHG, &e);
		n += e.significant;
	}
	*cells = c.nr_tables;
	pb_cmp_free(&c);
	return n;
}

/*
 * A/A: 20 pairs of result sets with the same true means.  With the
 * adjustment (the default) every pair is quiet in >= 95 % of its 40 cells;
 * cell by cell (--no-correction) the aggregate still is.
 */
static void test_trust_aa(void **state)
{
	int pair, cells, total = 0, flags = 0, raw = 0, worst = 0, f;

	(void)state;
	for (pair = 0; pair < 20; pair++) {
		uint64_t a = 1000 + 2 * (uint64_t)pair, b = a + 1;

		f = flagged(a, b, 0, true, &cells);
		assert_int_equal(cells, 40);
		total += cells;
		flags += f;
		worst = f > worst ? f : worst;
		assert_true((cells - f) * 100 >= 95 * cells);
		raw += flagged(a, b, 0, false, &cells);
	}
	assert_true((total - raw) * 100 >= 95 * total);
	printf("# A/A adjusted: %d of %d cells flagged (%.1f %% quiet), worst pair %d of 40;"
	       " cell by cell: %d flagged (%.1f %% quiet)\n", flags, total,
	       100.0 * (total - flags) / total, worst, raw, 100.0 * (total - raw) / total);
}

/* A 5 % shift, either way, is flagged in every cell. */
static void test_trust_shift(void **state)
{
	int pair, cells, f;

	(void)state;
	for (pair = 0; pair < 10; pair++) {
		uint64_t a = 2000 + 2 * (uint64_t)pair, b = a + 1;

		f = flagged(a, b, 0.05, true, &cells);
		assert_int_equal(f, cells);
		f = flagged(a, b, -0.05, true, &cells);
		assert_int_equal(f, cells);
	}
}

/* ---- runs as the units ---- */

/*
 * runs files per label, each with the fraction off[i] added: runs that
 * differ from one another by more than their repeats do, the usual case
 * between invocations (and boots) on a real machine.
 */
static void gen_runs(const char *label, uint64_t seed, const double *off, int runs,
		     double shift)
{
	struct gen_spec s;
	char name[64];

	for (int i = 0; i < runs; i++) {
		gen_defaults(&s);
		s.jobs = 1;
		s.placements = 1;
		s.label = label;
		s.seed = seed + (uint64_t)i;
		s.shift = shift + off[i];
		snprintf(name, sizeof(name), "runs-%s-%d.json", label, i);
		gen(&s, name);
	}
}

static void load_runs(struct pb_cmp *c, const char *label, int runs)
{
	char name[64];

	for (int i = 0; i < runs; i++) {
		snprintf(name, sizeof(name), "runs-%s-%d.json", label, i);
		load(c, name);
	}
}

/* Label la's na runs files and lb's nb, loaded into c in that order: pingpong/same-cpu. */
static const struct pb_table *load_pair(struct pb_cmp *c, const char *la, int na,
					const char *lb, int nb)
{
	load_runs(c, la, na);
	load_runs(c, lb, nb);
	pb_cmp_order(c, true);
	return table(c, "pingpong", "same-cpu");
}

/*
 * Runs 4 % apart and repeats 1 % apart: tested on the runs, a 1.5 % change
 * is within the noise, and its interval (from the runs' variance) is wider
 * than what one run per label, tested on its repeats, would claim.
 */
static void test_runs_are_units(void **state)
{
	const double off[] = { 0, 0.04, -0.04 };
	const struct pb_table *t;
	struct pb_cmp c = { 0 };
	struct pb_eval e, one;
	char *out;

	(void)state;
	gen_runs("A", 500, off, 3, 0);
	gen_runs("B", 600, off, 3, 0.015);
	t = load_pair(&c, "A", 3, "B", 3);
	assert_true(pb_cmp_between(t));
	assert_int_equal(pb_cmp_cell(t, 0)->nu, 3);
	assert_int_equal(pb_cmp_cell(t, 0)->n, 12);
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_cell(t, 0), PB_CMP_MIN_CHG, &e);
	assert_true(e.between);
	assert_int_equal(e.s.n, 3);
	assert_true(e.change > 0.5 && e.change < 2.5);
	assert_true(e.ci_lo < 0 && e.ci_hi > e.change);
	assert_false(e.significant);
	pb_cmp_free(&c);
	memset(&c, 0, sizeof(c));
	load(&c, "runs-A-1.json");
	load(&c, "runs-B-1.json");
	pb_cmp_order(&c, true);
	t = table(&c, "pingpong", "same-cpu");
	assert_false(pb_cmp_between(t));
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_cell(t, 0), PB_CMP_MIN_CHG, &one);
	assert_false(one.between);
	assert_int_equal(one.s.n, 4);
	assert_true(one.ci_hi - one.ci_lo < e.ci_hi - e.ci_lo);
	pb_cmp_free(&c);
	/* the text says what was tested, and the table shows the runs */
	assert_int_equal(run_cmd(cmd_compare, &out, 7, "compare", "--baseline", "A",
				 tmpdir_file("runs-A-0.json"), tmpdir_file("runs-A-1.json"),
				 tmpdir_file("runs-A-2.json"), tmpdir_file("runs-B-0.json")), 0);
	assert_non_null(strstr(out, "tested on the repeats of single runs"));
	free(out);
}

/* A result of label A whose job j ran at same-cpu in rounds 1 and 2 ("LEVELS" fills the rest). */
#define LEVELS_JOB(r, v)	"{\"name\": \"j\", \"placement\": \"same-cpu\", " \
	"\"status\": \"ok\", \"round\": " #r ", \"metric\": {\"name\": \"rtt\", " \
	"\"unit\": \"ns\", \"better\": \"lower\"}, " \
	"\"repeats\": [{\"value\": " #v "}, {\"value\": " #v "}]}"
#define LEVELS(head)	"{\"schema\": \"pinbench-result/1\", \"label\": \"A\", " head \
	"\"jobs\": [" LEVELS_JOB(1, 10) ", " LEVELS_JOB(2, 12) "]}"

/*
 * Each run of a cell keeps its file's boot and invocation and its own
 * round; a file that names neither (older) leaves them "".
 */
static void test_levels_kept(void **state)
{
	const struct pb_cmp_level *lv;
	const struct pb_table *t;
	struct pb_cmp c = { 0 };

	(void)state;
	write_in("lv1.json", LEVELS("\"boot_id\": \"b-1\", \"invocation\": \"0f0f\", "));
	write_in("lv2.json", LEVELS("\"boot_id\": null, "));
	load(&c, "lv1.json");
	load(&c, "lv2.json");
	t = table(&c, "j", "same-cpu");
	assert_int_equal(pb_cmp_cell(t, 0)->nu, 4);
	lv = pb_cmp_cell(t, 0)->lv;
	assert_string_equal(lv[0].boot, "b-1");
	assert_string_equal(lv[0].invocation, "0f0f");
	assert_int_equal(lv[0].round, 1);
	assert_int_equal(lv[0].repeats, 2);
	assert_string_equal(lv[1].boot, "b-1");
	assert_string_equal(lv[1].invocation, "0f0f");
	assert_int_equal(lv[1].round, 2);
	assert_string_equal(lv[2].boot, "");
	assert_string_equal(lv[2].invocation, "");
	assert_int_equal(lv[3].round, 2);
	pb_cmp_free(&c);
}

/* Label B's runs (offsets off, shifted) against A's 3 runs: is it significant? */
static bool runs_flagged(uint64_t seed, const double *off, double shift, double *ci_lo)
{
	struct pb_cmp c = { 0 };
	const struct pb_table *t;
	struct pb_eval e;

	gen_runs("B", seed, off, 3, shift);
	t = load_pair(&c, "A", 3, "B", 3);
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_cell(t, 0), PB_CMP_MIN_CHG, &e);
	pb_cmp_free(&c);
	*ci_lo = e.ci_lo;
	return e.significant;
}

/*
 * The A/A false-alarm rate and the power, with runs as the units: 3 runs a
 * label, runs 2 % apart (CV between runs), repeats 1 %.  Over 100 A/A pairs
 * at most 8 flag (5 % expected); a 10 % change is found in every pair.
 */
static void test_runs_trust(void **state)
{
	int aa = 0, found = 0;
	double lo;

	(void)state;
	for (int pair = 0; pair < 100; pair++) {
		double off[3];

		for (int k = 0; k < 3; k++)
			off[k] = 0.02 * ((double)((pair * 7 + k * 13) % 11) / 5.0 - 1);
		gen_runs("A", 3000 + 10 * (uint64_t)pair, off, 3, 0);
		off[0] = -off[0];
		aa += runs_flagged(5000 + 10 * (uint64_t)pair, off, 0, &lo);
		found += runs_flagged(5000 + 10 * (uint64_t)pair, off, 0.10, &lo) && lo > 0;
	}
	printf("# runs as units: A/A %d of 100 pairs flagged; a 10 %% change found in %d of 100\n",
	       aa, found);
	assert_true(aa <= 8);
	assert_int_equal(found, 100);
}

/*
 * Six runs a label, 1 % apart, and a host that throws one of B's runs off
 * by 25 %: by default (auto: five runs or more a side) compare tests
 * them by ranks and finds the 4 % change; the ratio of means with Welch's
 * test (--test welch) is carried off by the one run and finds nothing.
 */
static void test_runs_rank(void **state)
{
	const double off[] = { 0, 0.01, -0.01, 0.005, -0.005, 0.002 };
	const double offb[] = { 0, 0.01, -0.01, 0.005, -0.005, 0.25 };
	const struct pb_table *t;
	struct pb_eval e, w;
	char *out, p[12][512];

	(void)state;
	gen_runs("RA", 700, off, 6, 0);
	gen_runs("RB", 800, offb, 6, 0.04);
	for (int k = 0; k < 2; k++) {
		struct pb_cmp c = { .test = k ? PB_TEST_WELCH : PB_TEST_AUTO };

		load_runs(&c, "RA", 6);
		load_runs(&c, "RB", 6);
		pb_cmp_order(&c, true);
		t = table(&c, "pingpong", "same-cpu");
		pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_cell(t, 0), PB_CMP_MIN_CHG, k ? &w : &e);
		pb_cmp_free(&c);
	}
	assert_string_equal(e.test, "rank");
	assert_true(e.significant);
	/* +4.1 % [+2.4, +26.8]: the thrown-off run widens the interval's top only */
	assert_true(e.change > 3 && e.change < 5.5 && e.ci_lo > 1 && e.ci_hi > 10);
	assert_string_equal(w.test, "welch");
	assert_false(w.significant);
	assert_true(w.change > e.change + 2);
	/* the legend says how, and json which test each row had */
	for (int i = 0; i < 12; i++) {
		char name[64];

		snprintf(name, sizeof(name), "runs-R%c-%d.json", i < 6 ? 'A' : 'B', i % 6);
		path_in(p[i], sizeof(p[i]), name);
	}
	assert_int_equal(run_cmd(cmd_compare, &out, 15, "compare", "--baseline", "RA", p[0], p[1],
				 p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11]), 0);
	assert_non_null(strstr(out, "Hodges-Lehmann"));
	assert_non_null(strstr(out, "Mann-Whitney"));
	free(out);
	assert_int_equal(run_cmd(cmd_compare, &out, 8, "compare", "--format", "json", "--test",
				 "welch", tmpdir_file("runs-RA-0.json"), tmpdir_file("runs-RA-1.json"),
				 tmpdir_file("runs-RB-0.json"), tmpdir_file("runs-RB-1.json")), 0);
	assert_non_null(strstr(out, "\"test\": \"welch\""));
	assert_null(strstr(out, "\"test\": \"rank\""));
	free(out);
}

/*
 * The rank test's A/A false alarms and power on runs as units: 8 runs a
 * label, 1 % apart, and in every label one run thrown off by 10-30 %
 * either way, as a noisy host does.  Over 100 A/A pairs at most 8 flag
 * (2 did); a 5 % change is found in at least 75 (83 were), where the
 * ratio of means with Welch's test finds far fewer (33).  A run thrown
 * off on the wrong side costs the rank test a whole row of pairs: it is
 * robust, not blind to it.
 */
static void test_runs_rank_trust(void **state)
{
	int aa = 0, found = 0, welch = 0;

	(void)state;
	for (int pair = 0; pair < 100; pair++) {
		double oa[8], ob[8];
		struct pb_cmp c[3] = { { 0 }, { 0 }, { .test = PB_TEST_WELCH } };
		struct pb_eval e[3];

		for (int k = 0; k < 8; k++) {
			oa[k] = 0.01 * ((double)((pair * 7 + k * 13) % 11) / 5.0 - 1);
			ob[k] = 0.01 * ((double)((pair * 5 + k * 17) % 11) / 5.0 - 1);
		}
		oa[pair % 8] += (pair % 2 ? 1 : -1) * (0.10 + 0.002 * pair);
		ob[(pair * 5 + 3) % 8] += (pair % 3 ? 1 : -1) * (0.30 - 0.002 * pair);
		gen_runs("TA", 9000 + 10 * (uint64_t)pair, oa, 8, 0);
		for (int s = 0; s < 3; s++) {
			const struct pb_table *t;

			gen_runs("TB", 11000 + 10 * (uint64_t)pair, ob, 8, s ? 0.05 : 0);
			load_runs(&c[s], "TA", 8);
			load_runs(&c[s], "TB", 8);
			pb_cmp_order(&c[s], true);
			t = table(&c[s], "pingpong", "same-cpu");
			pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_cell(t, 0), PB_CMP_MIN_CHG, &e[s]);
			assert_string_equal(e[s].test, s == 2 ? "welch" : "rank");
			pb_cmp_free(&c[s]);
		}
		aa += e[0].significant;
		found += e[1].significant && e[1].ci_lo > 0;
		welch += e[2].significant && e[2].ci_lo > 0;
	}
	printf("# rank test, 8 runs a label, one thrown off: A/A %d of 100 flagged; "
	       "a 5 %% change found in %d of 100 (Welch: %d)\n", aa, found, welch);
	assert_true(aa <= 8);
	assert_true(found >= 75);
	assert_true(found > welch + 30);
}

/* ---- golden outputs ---- */

/* The fixture set of the golden files; tests/e2e/compare.sh makes the same. */
static void golden_fixtures(void)
{
	struct gen_spec s;

	gen_defaults(&s);
	s.derived = true;
	s.label = "2.6.29";
	s.seed = 11;
	gen(&s, "g/f1.json");
	s.label = "2.6.30-rc2";	/* two files, pooled */
	s.seed = 12;
	s.rmin = s.rmax = 2;
	s.shift = 0.03;
	s.ctx_shift = -0.2;
	s.anomaly = "noisy:stream:same-cpu";
	gen(&s, "g/f2.json");
	s.seed = 13;
	s.anomaly = NULL;
	gen(&s, "g/f3.json");
	s.label = "2.6.30";
	s.seed = 14;
	s.rmin = s.rmax = 4;
	s.shift = -0.02;
	s.ctx_shift = 0;
	s.drop = "stream:same-core";
	s.skip = "pingpong:same-core";
	gen(&s, "g/f4.json");
	gen_defaults(&s);
	s.label = "2.6.22";
	s.seed = 15;
	gen(&s, "g/f5.json");
}

/* A file's text, without the lines that start with skip (NULL: none). */
static char *text_of(const char *path, const char *skip)
{
	char line[4096], *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r"), *m;

	if (!f)
		fail_msg("%s: missing (run from the top folder; UPDATE_GOLDEN=1 makes it)", path);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	while (fgets(line, sizeof(line), f))
		if (!skip || strncmp(line, skip, strlen(skip)))
			fputs(line, m);
	fclose(f);
	fclose(m);
	return buf;
}

static void golden_check(const char *fmt, const char *file)
{
	char dir[512], *out;

	path_in(dir, sizeof(dir), "g");
	assert_int_equal(run_cmd(cmd_compare, &out, 6, "compare", "--format", fmt,
				 "--baseline", "2.6.29", dir), 0);
	golden_match(out, file);
	free(out);
}

static void test_golden(void **state)
{
	char dir[512];

	(void)state;
	path_in(dir, sizeof(dir), "g");
	mkdir(dir, 0755);
	golden_fixtures();
	golden_check("text", "tests/golden/compare-text.txt");
	golden_check("markdown", "tests/golden/compare-markdown.md");
	golden_check("csv", "tests/golden/compare-csv.csv");
}

/* Text lines at most 100 characters, also with long labels and many repeats. */
static void test_text_width(void **state)
{
	char dir[512], *out, *line, *save;
	struct gen_spec s;
	int w, longest = 0;

	(void)state;
	path_in(dir, sizeof(dir), "w");
	mkdir(dir, 0755);
	gen_defaults(&s);
	s.derived = true;
	s.latency = true;
	s.sweep = true;
	s.rmin = 7;
	s.rmax = 12;
	s.label = "6.1.0-18-cloud-amd64-with-a-long-name";
	gen(&s, "w/1.json");
	s.label = "6.1.0-19-cloud-amd64-with-a-long-name";
	s.seed = 3;
	s.anomaly = "frequency-drift:pingpong:same-cpu";
	gen(&s, "w/2.json");
	assert_int_equal(run_cmd(cmd_compare, &out, 2, "compare", dir), 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p;

		for (w = 0, p = line; *p; p++)
			w += ((unsigned char)*p & 0xc0) != 0x80;
		longest = w > longest ? w : longest;
	}
	assert_true(longest <= PB_CMP_WIDTH);
	assert_true(longest > 60);
	free(out);
}

/*
 * Info findings (a disturbed probe, a guest's clock note) carry no mark in
 * compare's tables, as in run's: a mark on every row of a VM says nothing.
 */
static void test_info_no_mark(void **state)
{
	char dir[512], *out;
	struct gen_spec s;

	(void)state;
	path_in(dir, sizeof(dir), "info");
	mkdir(dir, 0755);
	gen_defaults(&s);
	s.jobs = 1;
	s.placements = 1;
	s.label = "A";
	s.anomaly = "probe-disturbed:pingpong:same-cpu";
	s.severity = "info";
	gen(&s, "info/a.json");
	s.label = "B";
	s.seed = 2;
	s.anomaly = "frequency-drift:pingpong:same-cpu";
	s.severity = NULL;	/* warn */
	gen(&s, "info/b.json");
	assert_int_equal(run_cmd(cmd_compare, &out, 2, "compare", dir), 0);
	assert_null(strstr(out, "probe-disturbed"));
	assert_non_null(strstr(out, "frequency-drift"));
	assert_non_null(strstr(out, "B D "));
	assert_null(strstr(out, "A !"));
	free(out);
}

/* Set figures and an anomaly in every job of a generated file. */
static void doctor_file(const char *name, double task_clock, const char *message)
{
	char path[512];
	json_t *root, *job;
	size_t i;

	path_in(path, sizeof(path), name);
	root = json_load_file(path, 0, NULL);
	assert_non_null(root);
	json_array_foreach(json_object_get(root, "jobs"), i, job) {
		json_t *tot = json_object_get(json_object_get(job, "derived"), "total");

		if (tot) {
			json_object_set_new(tot, "cpu-migrations/op", json_real(0));
			json_object_set_new(tot, "task-clock/op", json_real(task_clock));
		}
		if (message)
			json_array_append_new(json_object_get(job, "anomalies"),
					      json_pack("{s:s, s:s, s:s}", "kind", "cpu-steal",
							"severity", "warn", "message", message));
	}
	assert_int_equal(json_dump_file(root, path, JSON_INDENT(1)), 0);
	json_decref(root);
}

/*
 * Labels a (kernel 6.1) and b (6.2) in folder sub (its path into dir), with
 * counter figures, task-clock/op ta and tb; b's jobs with an anomaly saying
 * msg when it is not NULL.
 */
static void gen_pair(struct gen_spec *s, const char *sub, double ta, double tb, const char *msg,
		     char *dir, size_t len)
{
	char name[256];

	path_in(dir, len, sub);
	mkdir(dir, 0755);
	s->derived = true;
	s->label = "a";
	s->kernel = "6.1";
	snprintf(name, sizeof(name), "%s/a.json", sub);
	gen(s, name);
	doctor_file(name, ta, NULL);
	s->label = "b";
	s->kernel = "6.2";
	s->seed = 5;
	snprintf(name, sizeof(name), "%s/b.json", sub);
	gen(s, name);
	doctor_file(name, tb, msg);
}

/*
 * The first column named after the grouping; per-op rows only where a
 * figure is not zero, task-clock/op with its unit in its name; anomaly lines wrapped
 * at a space, never cut mid-figure.
 */
static void test_text_forms(void **state)
{
	static const char msg[] = "stolen time: 0.121 s of 0.500 s in the repeats (24.2 %), "
		"above the 1 % a quiet guest shows; the host ran other guests' work meanwhile";
	char dir[512], *out, *line, *save;
	struct gen_spec s;
	bool whole = false;

	(void)state;
	gen_defaults(&s);
	gen_pair(&s, "forms", 12345.6, 12000, msg, dir, sizeof(dir));
	assert_int_equal(run_cmd(cmd_compare, &out, 2, "compare", dir), 0);
	assert_non_null(strstr(out, "\nLabel "));
	assert_null(strstr(out, "\nKernel "));
	assert_null(strstr(out, "cpu-migrations"));
	assert_non_null(strstr(out, "total task-clock/op (µs)      12.3  →  12.0   -2.8%"));
	assert_null(strstr(out, "…"));
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p;
		int w = 0;

		for (p = line; *p; p++)
			w += ((unsigned char)*p & 0xc0) != 0x80;
		assert_true(w <= PB_CMP_WIDTH);
		whole |= strstr(line, "0.121 s of 0.500 s") != NULL;
	}
	assert_true(whole);
	free(out);
	assert_int_equal(run_cmd(cmd_compare, &out, 4, "compare", "--group-by", "kernel", dir), 0);
	assert_non_null(strstr(out, "\nKernel "));
	free(out);
}

/*
 * A per-op figure in one unit and one precision on both sides of every
 * row, chosen from its largest value: 9876 ns against 12000 ns is 9.9 →
 * 12.0 in a "(µs)" row, never "9876 ns" beside "12.0 µs"; 1.00 → 0.80.
 */
static void test_figure_units(void **state)
{
	char dir[512], *out;
	struct gen_spec s;

	(void)state;
	gen_defaults(&s);
	s.jobs = 1;
	s.placements = 1;
	gen_pair(&s, "units", 9876, 12000, NULL, dir, sizeof(dir));
	assert_int_equal(run_cmd(cmd_compare, &out, 2, "compare", dir), 0);
	assert_non_null(strstr(out, "total task-clock/op (µs)"));
	assert_non_null(strstr(out, "9.9  →  12.0  +21.5%"));
	assert_null(strstr(out, " ns"));
	assert_null(strstr(out, " µs  →"));
	assert_null(strstr(out, "0.800"));
	free(out);
}

/* ---- plot ---- */

static bool have_gnuplot(void)
{
	return !system("command -v gnuplot >/dev/null 2>&1");
}

static void test_plot(void **state)
{
	char dir[512], png[512], svg[512], aux[520], buf[64], head[512], tpl[PATH_MAX], *out;
	struct gen_spec s;
	struct stat st;
	FILE *f;

	(void)state;
	if (!have_gnuplot()) {
		skip_why("gnuplot is not installed (tests/deps.sh installs gnuplot-nox)");
		return;
	}
	/* the templates of this tree (the test runs from its top) */
	assert_non_null(realpath("plot", tpl));
	setenv("PINBENCH_PLOT_DIR", tpl, 1);
	path_in(dir, sizeof(dir), "pl");
	mkdir(dir, 0755);
	gen_defaults(&s);
	s.latency = true;
	s.sweep = true;
	s.label = "6.1";
	gen(&s, "pl/1.json");
	s.label = "6.2";
	s.seed = 2;
	gen(&s, "pl/2.json");
	path_in(png, sizeof(png), "pl/out.png");
	path_in(svg, sizeof(svg), "pl/out.svg");
	assert_int_equal(run_cmd(cmd_plot, &out, 4, "plot", dir, "-o", png), 0);
	free(out);
	f = fopen(png, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, 8, f), 8);
	fclose(f);
	assert_memory_equal(buf, "\x89PNG\r\n\x1a\n", 8);
	snprintf(aux, sizeof(aux), "%s/out.dat", dir);
	assert_int_equal(stat(aux, &st), 0);
	snprintf(aux, sizeof(aux), "%s/out.gp", dir);
	assert_int_equal(stat(aux, &st), 0);
	assert_int_equal(run_cmd(cmd_plot, &out, 4, "plot", dir, "-o", svg), 0);
	free(out);
	f = fopen(svg, "r");
	assert_non_null(f);
	memset(head, 0, sizeof(head));
	assert_true(fread(head, 1, sizeof(head) - 1, f) > 0);
	fclose(f);
	assert_non_null(strstr(head, "\n<svg"));	/* the root element */
	assert_non_null(strstr(head, "xmlns=\"http://www.w3.org/2000/svg\""));
	assert_int_equal(run_cmd(cmd_plot, &out, 4, "plot", dir, "-o", "x.jpg"), 2);
	free(out);
}

static void test_plot_no_gnuplot(void **state)
{
	char dir[512], png[512], *out, *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	struct gen_spec s;

	(void)state;
	path_in(dir, sizeof(dir), "ng");
	mkdir(dir, 0755);
	gen_defaults(&s);
	gen(&s, "ng/1.json");
	path_in(png, sizeof(png), "ng/out.png");
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(run_cmd(cmd_plot, &out, 4, "plot", dir, "-o", png), 2);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	free(out);
}

/* How many lines of text hold s. */
static int count_lines_with(const char *text, const char *s)
{
	const char *line, *nl;
	int n = 0;

	for (line = text; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		n += memmem(line, (size_t)(nl - line), s, strlen(s)) != NULL;
		if (!*nl)
			break;
	}
	return n;
}

/*
 * A stand-in for gnuplot on PATH: it writes an image on stdout, as gnuplot
 * does when plot sets pinbench_stdout (-e), else into the file its .gp
 * names, so that what is drawn (the .gp and .dat) is checked on any machine.
 */
static void fake_gnuplot(char *bindir, size_t len)
{
	char path[600];
	FILE *f;

	snprintf(bindir, len, "%s/fakebin", tmpdir);
	mkdir(bindir, 0755);
	snprintf(path, sizeof(path), "%s/gnuplot", bindir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nfor gp; do :; done\n"
	      "case \"$*\" in *pinbench_stdout*) printf x; exit 0 ;; esac\n"
	      "f=$(sed -n \"s/^.*set output '\\(.*\\)'$/\\1/p\" \"$gp\")\n"
	      "printf x > \"$f\"\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

/*
 * The golden plot's fixtures: three labels, a warning on 6.2's stream
 * same-cpu and an error on 6.3's pingpong same-core, a sweep, a latency job.
 */
static void plot_fixtures(const char *sub)
{
	char name[64];
	struct gen_spec s;

	gen_defaults(&s);
	s.latency = true;
	s.sweep = true;
	s.label = "6.1";
	s.seed = 1;
	snprintf(name, sizeof(name), "%s/1.json", sub);
	gen(&s, name);
	s.label = "6.2";
	s.seed = 2;
	s.shift = 0.04;
	s.anomaly = "noisy:stream:same-cpu";
	snprintf(name, sizeof(name), "%s/2.json", sub);
	gen(&s, name);
	s.label = "6.3";
	s.seed = 3;
	s.shift = -0.02;
	s.anomaly = "noisy:pingpong:same-core";
	s.severity = "error";
	snprintf(name, sizeof(name), "%s/3.json", sub);
	gen(&s, name);
}

/*
 * Plot dir into dir/NAME.png with the fake gnuplot, with option opt val
 * when opt is not NULL (--baseline 6.2); 0 or plot's exit code.
 */
static int plot_fake(const char *dir, const char *name, const char *opt, const char *val,
		     char **gp, char **dat)
{
	char bin[520], png[600], path[600], tpl[PATH_MAX], *oldpath, *out;
	int rc;

	assert_non_null(realpath("plot", tpl));
	setenv("PINBENCH_PLOT_DIR", tpl, 1);
	fake_gnuplot(bin, sizeof(bin));
	oldpath = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	snprintf(path, sizeof(path), "%s:%s", bin, oldpath);
	setenv("PATH", path, 1);
	snprintf(png, sizeof(png), "%s/%s.png", dir, name);
	if (opt)
		rc = run_cmd(cmd_plot, &out, 6, "plot", opt, val, dir, "-o", png);
	else
		rc = run_cmd(cmd_plot, &out, 4, "plot", dir, "-o", png);
	setenv("PATH", oldpath, 1);
	free(oldpath);
	free(out);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/%s.gp", dir, name);
	*gp = text_of(path, "plotdir = ");	/* the only line that names this machine */
	snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
	*dat = text_of(path, NULL);
	return 0;
}

/*
 * The rows of a .dat with fields numbers (a forest's: 6; a means
 * series': 4) whose field col (from 1) is not "0": the forest's
 * significant rows with 6, 5.
 */
static int dat_rows(const char *dat, int fields, int col, bool nonzero)
{
	const char *line, *nl;
	char buf[256];
	double v[8];
	int n = 0, k;

	for (line = dat; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		snprintf(buf, sizeof(buf), "%.*s", (int)(nl - line), line);
		k = sscanf(buf, "%lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6]);
		if (k == fields && (nonzero ? v[col - 1] != 0 : v[col - 1] < 0))
			n++;
		if (!*nl)
			break;
	}
	return n;
}

/*
 * What is drawn, against tests/golden/plot-kernels.{gp,dat} (UPDATE_GOLDEN=1
 * rewrites them): per job the means with the runs as dots and the forest
 * of changes beside it, on a row of their own; every coloured forest row
 * and every sweep % label is a change compare calls significant; a ring
 * only on the cell with an error anomaly (the warning is not ringed); the
 * caption names kernels and host; no placeholder; the sweep's ticks at 1,
 * 2, 4, 8 threads and SI axis; --baseline moves the changes; an unknown
 * one is exit 2.
 */
static void test_plot_golden(void **state)
{
	char dir[512], *gp, *dat, *gp2, *dat2, *cmp, *p;
	int nlabels = 0;

	(void)state;
	path_in(dir, sizeof(dir), "pg");
	mkdir(dir, 0755);
	plot_fixtures("pg");
	assert_int_equal(plot_fake(dir, "kernels", NULL, NULL, &gp, &dat), 0);
	golden_match(gp, "tests/golden/plot-kernels.gp");
	golden_match(dat, "tests/golden/plot-kernels.dat");
	assert_null(strstr(gp, "yerrorlines"));
	assert_null(strstr(gp, "x.x"));
	assert_non_null(strstr(gp, "set multiplot layout 5,2 title 'kernels: 6.1, 6.2, 6.3    "
			       "host: gen-host ("));
	assert_non_null(strstr(gp, "call plotdir.\"/means.gp\" 'kernels.dat' \"0\" \"2\" "
			       "'pingpong: rtt per label (lower is better)'"));
	assert_non_null(strstr(gp, "call plotdir.\"/forest.gp\" 'kernels.dat' \"4\" \"4\" "
			       "'pingpong: rtt change (lower is better)'"));
	/* udp-rr's pair starts a row: the sweep's slot beside it is skipped */
	assert_non_null(strstr(gp, "set multiplot next\n"));
	assert_non_null(strstr(gp, "set ytics ('6.2 same-cpu' 0, '6.3 same-cpu' 1, "
			       "'6.2 same-core' 2, '6.3 same-core' 3)"));
	assert_non_null(strstr(gp, "set xtics ('6.1' 0, '6.2' 1, '6.3' 2)"));
	assert_non_null(strstr(gp, "set xtics (\"1\" 1, \"2\" 2, \"4\" 4, \"8\" 8)"));
	assert_non_null(strstr(gp, "set ytics (\"0\" 0, \"2 M\" 2000000, \"4 M\" 4000000"));
	assert_non_null(strstr(gp, "logy = 0"));
	/* the ring: 6.3's pingpong same-core (error), at x 2 + 0.15; not 6.2's warning */
	assert_non_null(strstr(gp, "set label \"\" at 2.15,"));
	assert_null(strstr(gp, "set label \"\" at 0.85,"));
	assert_non_null(strstr(gp, "marked = 1"));
	/* every coloured row and % label is a change compare calls significant, against 6.1 */
	assert_int_equal(run_cmd(cmd_compare, &cmp, 4, "compare", "--format", "csv", dir), 0);
	for (p = gp; (p = strstr(p, "set label \"")) != NULL; p++)
		nlabels += p[11] == '+' || p[11] == '-';
	nlabels += dat_rows(dat, 6, 5, true);
	assert_true(dat_rows(dat, 6, 5, true) > 0);
	assert_int_equal(nlabels, count_lines_with(cmp, ",true,"));
	free(cmp);
	/* no bar below 0: every lo of a means series is >= 0 */
	assert_int_equal(dat_rows(dat, 4, 3, false), 0);
	assert_int_equal(plot_fake(dir, "b62", "--baseline", "6.2", &gp2, &dat2), 0);
	assert_non_null(strstr(gp2, "subtitle = 'against 6.2, 95% CI"));
	assert_string_not_equal(gp, gp2);
	free(gp2);
	free(dat2);
	assert_int_equal(plot_fake(dir, "bx", "--baseline", "6.9", &gp2, &dat2), 2);
	free(gp);
	free(dat);
}

/* The .gp of plot_fake() on dir, no option, which must succeed. */
static char *plot_gp(const char *dir, const char *name)
{
	char *gp, *dat;

	assert_int_equal(plot_fake(dir, name, NULL, NULL, &gp, &dat), 0);
	free(dat);
	return gp;
}

/* A fresh folder sub of the test folder into dir, and s at its defaults. */
static void plot_dir(char *dir, size_t len, const char *sub, struct gen_spec *s)
{
	path_in(dir, len, sub);
	mkdir(dir, 0755);
	gen_defaults(s);
}

/*
 * Placements a decade and more apart (9 µs beside 250 µs): the means on a
 * log y axis, where both are read; 5 % apart: linear.  One label: the
 * means alone, packed two a row.
 */
static void test_plot_log_axis(void **state)
{
	char dir[512], *gp;
	struct gen_spec s;
	int k;

	(void)state;
	plot_dir(dir, sizeof(dir), "plog", &s);
	s.jobs = 1;
	s.placements = 2;
	s.spread = 28;
	for (k = 0; k < 2; k++) {
		s.label = k ? "6.2" : "6.1";
		s.seed = (uint64_t)k + 1;
		s.shift = 0.05 * k;
		gen(&s, k ? "plog/2.json" : "plog/1.json");
	}
	gp = plot_gp(dir, "log");
	assert_non_null(strstr(gp, "logy = 1\n"));
	assert_non_null(strstr(gp, "log scale"));
	assert_null(strstr(gp, "logy = 0"));
	free(gp);
	/* one label, three jobs: no forest, so no slot is left empty beside a panel */
	plot_dir(dir, sizeof(dir), "pone", &s);
	s.jobs = 3;
	gen(&s, "pone/1.json");
	gp = plot_gp(dir, "one");
	assert_null(strstr(gp, "forest.gp"));
	assert_null(strstr(gp, "set multiplot next"));
	assert_non_null(strstr(gp, "set multiplot layout 2,2 "));
	free(gp);
}

/*
 * --group-by class: the labels are host classes ("CPU model; topology"),
 * wrapped onto lines of their share of the panel, never rotated into the
 * next panel, the bottom margin holding them; the subtitle naming the
 * baseline class wrapped too.
 */
static void test_plot_class(void **state)
{
	char dir[512], *gp, *dat;
	struct gen_spec s;

	(void)state;
	plot_dir(dir, sizeof(dir), "pcl", &s);
	s.cpu_model = "Intel(R) Xeon(R) Platinum 8280 CPU @ 2.70GHz";
	s.topology = "2:56:112";
	gen(&s, "pcl/1.json");
	s.cpu_model = "AMD EPYC 7763 64-Core Processor";
	s.seed = 2;
	gen(&s, "pcl/2.json");
	assert_int_equal(plot_fake(dir, "class", "--group-by", "class", &gp, &dat), 0);
	assert_null(strstr(gp, "rotate by"));
	assert_non_null(strstr(gp, "set xtics ('AMD EPYC 7763 64-Core Processor; 2'.\"\\n\"."
			       "'packages, 56 cores"));
	assert_non_null(strstr(gp, "set bmargin 5\n"));	/* three lines of labels */
	assert_non_null(strstr(gp, "subtitle = 'against AMD EPYC 7763 64-Core Processor; 2 "));
	assert_non_null(strstr(gp, "'.\"\\n\".'"));
	free(gp);
	free(dat);
}

/* ---- nightly ---- */

static void fake_run_script(const char *script)
{
	FILE *f = fopen(script, "w");

	assert_non_null(f);
	/* a stand-in for the run: STANDIN DIR LABEL JOBFILE */
	fputs("#!/bin/sh\nmkdir -p \"$1/$2\" && cp \"$NIGHTLY_FIXTURE\" "
	      "\"$1/$2/$(date +%s%N)-quick.json\"\n", f);
	fclose(f);
	chmod(script, 0755);
}

static int nightly_in(const char *history, const char *label, const char *fixture,
		      char **out)
{
	char hist[512], fx[512];

	path_in(hist, sizeof(hist), history);
	path_in(fx, sizeof(fx), fixture);
	setenv("NIGHTLY_FIXTURE", fx, 1);
	return run_cmd(cmd_nightly, out, 7, "nightly", "configs/quick.ini", "--history", hist,
		       "--label", label, "--no-plot");
}

static int nightly(const char *label, const char *fixture, char **out)
{
	return nightly_in("hist", label, fixture, out);
}

static char *slurp(const char *name)
{
	char path[512], *buf;
	long n;
	FILE *f;

	path_in(path, sizeof(path), name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void test_nightly(void **state)
{
	char script[512], dir[512], *out, *md;
	struct gen_spec s;
	int rc;

	(void)state;
	path_in(script, sizeof(script), "fake-run.sh");
	fake_run_script(script);
	setenv("PINBENCH_RUN_STANDIN", script, 1);
	gen_defaults(&s);
	s.config = "configs/quick.ini";
	s.label = "6.1.0-17-amd64";
	gen(&s, "n17.json");
	s.label = "6.1.0-18-amd64";
	s.seed = 3;
	s.shift = 0.05;
	gen(&s, "n18.json");
	s.label = "6.1.0-16-amd64";
	s.seed = 4;
	s.shift = 0;
	gen(&s, "n16.json");

	/*
	 * One night a kernel is one boot a side: without A/A nights the +5 %
	 * is only a change within its boot, never nightly's 1.
	 */
	assert_int_equal(nightly_in("hist1", "6.1.0-17-amd64", "n17.json", &out), 0);
	free(out);
	assert_int_equal(nightly_in("hist1", "6.1.0-18-amd64", "n18.json", &out), 0);
	assert_non_null(strstr(out, "changed within its boot, not a regression"));
	assert_non_null(strstr(out, "holds if boots vary by less than"));
	free(out);
	assert_int_equal(nightly("6.1.0-17-amd64", "n17.json", &out), 0);
	assert_non_null(strstr(out, "no earlier kernel"));
	free(out);
	/* Three more nights of 6.1.0-17 (A/A): the variation between boots. */
	for (int k = 0; k < 3; k++) {
		assert_int_equal(nightly("6.1.0-17-amd64",
					 gen_boot(&s, "n17-%d.json", k, "6.1.0-17-amd64", 40, 0),
					 &out), 0);
		free(out);
	}
	s.label = "6.1.0-18-amd64";
	s.seed = 3;
	s.shift = 0.05;
	gen(&s, "n18.json");
	assert_int_equal(nightly("6.1.0-18-amd64", "n18.json", &out), 1);
	assert_non_null(strstr(out, "regression at the boot level (A/A noise)"));
	free(out);
	md = slurp("hist/6.1.0-18-amd64/report.md");
	assert_non_null(strstr(md, "compared with: **6.1.0-17-amd64**"));
	assert_non_null(strstr(md, "regression"));
	free(md);
	/* An older kernel than all: nothing earlier. */
	assert_int_equal(nightly("6.1.0-16-amd64", "n16.json", &out), 0);
	assert_non_null(strstr(out, "no earlier kernel"));
	free(out);
	/*
	 * An earlier result whose jobs is not an array: skipped, and said,
	 * naming the field; the report is still made against 6.1.0-18 (issue
	 * 11: nightly took it, then failed on it with a schema message).
	 */
	path_in(dir, sizeof(dir), "hist/6.1.0-19-amd64");
	mkdir(dir, 0755);
	write_in("hist/6.1.0-19-amd64/typed-quick.json",
		 "{\"schema\": \"pinbench-result/1\", \"label\": \"6.1.0-19-amd64\", "
		 "\"config\": \"configs/quick.ini\", \"jobs\": {}}");
	s.label = "6.1.0-20-amd64";
	s.seed = 5;
	gen(&s, "n20.json");
	rc = nightly("6.1.0-20-amd64", "n20.json", &out);
	assert_true(rc == 0 || rc == 1);	/* a report made, with or without a regression */
	free(out);
	md = slurp("hist/6.1.0-20-amd64/report.md");
	assert_non_null(strstr(md, "compared with: **6.1.0-18-amd64**"));
	assert_non_null(strstr(md, "6.1.0-19-amd64/typed-quick.json: not a pinbench result: "
				   "jobs is an object, want an array"));
	free(md);
	unsetenv("PINBENCH_RUN_STANDIN");
}

/* A `pinbench run` that cannot start: the real reason, from the engine, not the child. */
static void test_nightly_cannot_run(void **state)
{
	struct pb_nightly_opts n = { .jobfile = "configs/quick.ini" };
	struct pb_nightly st;
	char hist[512], err[512] = "";

	(void)state;
	path_in(hist, sizeof(hist), "hist-norun");
	n.history = hist;
	snprintf(n.label, sizeof(n.label), "6.1.0");
	setenv("PINBENCH_RUN_STANDIN", "/nonexistent/pinbench", 1);
	assert_int_equal(pb_nightly_run(&n, &st, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run /nonexistent/pinbench: No such file or directory");
	pb_nightly_free(&st);
	unsetenv("PINBENCH_RUN_STANDIN");
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/pb-compare-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

/*
 * The noise floor is a strict bound: a change equal to min_change is no
 * change.  The +5 % of test_direction, with the floor set to exactly it.
 */
static void test_floor_equal(void **state)
{
	struct pb_cmp c = { 0 };
	const struct pb_table *t;
	struct pb_eval e;

	(void)state;
	load_shifted(&c, "fe");
	t = table(&c, "pingpong", "same-cpu");
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_base(&c, t, -1), 1.0, &e);
	assert_true(e.significant);
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_base(&c, t, -1), fabs(e.change), &e);
	assert_false(e.significant);
	assert_string_equal(e.verdict, "no-change");
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_base(&c, t, -1), fabs(e.change) * 0.999, &e);
	assert_true(e.significant);
	pb_cmp_free(&c);
}

/* auto ranks only when both sides have PB_RANK_MIN runs: 8 against 3 is Welch's. */
static void test_auto_both_sides(void **state)
{
	const double off[] = { 0, 0.01, -0.01, 0.005, -0.005, 0.002, -0.002, 0.003 };
	struct pb_cmp c = { 0 };
	const struct pb_table *t;
	struct pb_eval e;

	(void)state;
	gen_runs("WA", 900, off, 8, 0);
	gen_runs("WB", 950, off, 3, 0.04);
	t = load_pair(&c, "WA", 8, "WB", 3);
	assert_int_equal(pb_cmp_cell(t, 0)->nu, 8);
	assert_int_equal(pb_cmp_cell(t, 1)->nu, 3);
	pb_cmp_eval(t, pb_cmp_cell(t, 1), pb_cmp_cell(t, 0), PB_CMP_MIN_CHG, &e);
	assert_string_equal(e.test, "welch");
	pb_cmp_eval(t, pb_cmp_cell(t, 0), pb_cmp_cell(t, 1), PB_CMP_MIN_CHG, &e);
	assert_string_equal(e.test, "welch");
	pb_cmp_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_order),
		cmocka_unit_test(test_order_given_and_version),
		cmocka_unit_test(test_pooling),
		cmocka_unit_test(test_file_identity),
		cmocka_unit_test(test_unusable_files),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_missing_and_skipped),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_floor_equal),
		cmocka_unit_test(test_auto_both_sides),
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_json_format),
		cmocka_unit_test(test_trust_aa),
		cmocka_unit_test(test_trust_shift),
		cmocka_unit_test(test_runs_are_units),
		cmocka_unit_test(test_levels_kept),
		cmocka_unit_test(test_runs_trust),
		cmocka_unit_test(test_runs_rank),
		cmocka_unit_test(test_info_no_mark),
		cmocka_unit_test(test_runs_rank_trust),
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_text_forms),
		cmocka_unit_test(test_figure_units),
		cmocka_unit_test(test_plot),
		cmocka_unit_test(test_plot_no_gnuplot),
		cmocka_unit_test(test_plot_golden),
		cmocka_unit_test(test_plot_log_axis),
		cmocka_unit_test(test_plot_class),
		cmocka_unit_test(test_nightly),
		cmocka_unit_test(test_nightly_cannot_run),
	};

	/* PB_TEST_FILTER: run only the tests it matches (tests/mutate.sh) */
	if (getenv("PB_TEST_FILTER"))
		cmocka_set_test_filter(getenv("PB_TEST_FILTER"));
	return cmocka_run_group_tests(tests, setup, teardown);
}
