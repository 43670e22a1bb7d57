// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_verdict.c - the level a compare verdict rests on, hand-computed:
 * two boots x three runs a side (Welch on the boots' means), one boot a
 * side without a source (within its boot, the tipping point), one boot
 * with a figure for the variation between boots (the widened interval),
 * the resolution, and the seed's 2009 table (4 runs a kernel, one boot
 * each, +2 % with a 0.05-0.2 % spread).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs_fixture.h"
#include "report/compare.h"
#include "report/plot.h"
#include "stats/levels.h"
#include "stats/stats.h"

static char tmpdir[256];

/* A result file of one boot: label's runs (a round each, one repeat), lower is better. */
static void write_boot(const char *name, const char *label, const char *boot,
		       const double *v, int n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\": \"pinbench-result/1\", \"label\": \"%s\", \"boot_id\": \"%s\", "
		"\"invocation\": \"%032x\", \"jobs\": [", label, boot, (unsigned int)n);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"name\": \"j\", \"placement\": \"same-cpu\", \"status\": \"ok\", "
			"\"round\": %d, \"metric\": {\"name\": \"rtt\", \"unit\": \"ns\", "
			"\"better\": \"lower\"}, \"repeats\": [{\"value\": %.10g}]}",
			i ? ", " : "", i + 1, v[i]);
	fputs("]}\n", f);
	fclose(f);
}

/*
 * A file of one boot and one run of value v, with a finding of kind and
 * severity on its job (where "job") or run-wide (where "run").
 */
static void write_finding(const char *name, const char *label, const char *boot, double v,
			  const char *where, const char *kind, const char *sev)
{
	char path[512], finding[256];
	FILE *f;

	snprintf(finding, sizeof(finding), "\"anomalies\": [{\"kind\": \"%s\", "
		 "\"severity\": \"%s\", \"message\": \"75.5 %%\"}], ", kind, sev);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\": \"pinbench-result/1\", \"label\": \"%s\", \"boot_id\": \"%s\", "
		"%s\"jobs\": [{\"name\": \"j\", \"placement\": \"same-cpu\", \"status\": \"ok\", "
		"%s\"round\": 1, \"metric\": {\"name\": \"rtt\", \"unit\": \"ns\", "
		"\"better\": \"lower\"}, \"repeats\": [{\"value\": %.10g}]}]}\n", label, boot,
		!strcmp(where, "run") ? finding : "", !strcmp(where, "job") ? finding : "", v);
	fclose(f);
}

static void load(struct pb_cmp *c, const char *name)
{
	char path[512], err[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(pb_cmp_load(c, path, err, sizeof(err)), 0);
}

/* Cell B (group 1) against A (group 0) of the one table, BH over the report. */
static void judge(struct pb_cmp *c, struct pb_eval *e)
{
	pb_cmp_order(c, true);
	pb_cmp_adjust(c, 0, true);
	pb_cmp_eval(&c->t[0], pb_cmp_cell(&c->t[0], 1), pb_cmp_cell(&c->t[0], 0),
		    PB_CMP_MIN_CHG, e);
}

/* Welch on the logs, by hand: d, its se and df. */
static void log_welch(const double *a, int na, const double *b, int nb, double *d,
		      double *se, double *df)
{
	double ma = 0, mb = 0, va = 0, vb = 0;

	for (int i = 0; i < na; i++)
		ma += log(a[i]) / na;
	for (int i = 0; i < nb; i++)
		mb += log(b[i]) / nb;
	for (int i = 0; i < na; i++)
		va += (log(a[i]) - ma) * (log(a[i]) - ma) / (na - 1) / na;
	for (int i = 0; i < nb; i++)
		vb += (log(b[i]) - mb) * (log(b[i]) - mb) / (nb - 1) / nb;
	*d = mb - ma;
	*se = sqrt(va + vb);
	*df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
}

/*
 * Two boots x three runs a side, each boot's runs x/1.01, x, 1.01 x (their
 * geometric mean x): A's boots 100 and 102, B's 110 and 106.  The unit is
 * the boot; Welch on (100, 102) against (110, 106): change 108/101 - 1,
 * t = 7 / sqrt(2/2 + 8/2), df = 25/17.  The runs (6 a side) would be
 * rank-tested, and far more significant.
 */
static void test_two_boots(void **state)
{
	static const double x[4] = { 100, 102, 110, 106 };
	static const char *const names[4] = { "a1", "a2", "b1", "b2" };
	struct pb_cmp c = { 0 };
	struct pb_eval e;
	char file[32];

	(void)state;
	for (int i = 0; i < 4; i++) {
		double v[3] = { x[i] / 1.01, x[i], x[i] * 1.01 };

		snprintf(file, sizeof(file), "%s.json", names[i]);
		write_boot(file, i < 2 ? "A" : "B", names[i], v, 3);
		load(&c, file);
	}
	judge(&c, &e);
	assert_int_equal(e.unit, PB_LEVEL_BOOT);
	assert_int_equal(e.lv.boots, 2);
	assert_int_equal(e.lv.runs, 6);
	assert_int_equal(e.base_lv.boots, 2);
	assert_string_equal(e.test, "welch");
	assert_float_equal(e.change, (108.0 / 101 - 1) * 100, 1e-6);
	assert_float_equal(e.p, pb_t_pvalue(7 / sqrt(5), 25.0 / 17), 1e-9);
	assert_false(e.within);
	assert_false(e.widened);
	pb_cmp_free(&c);
}

/* One boot a side, three runs each: A 99 100 101, B 104 105 106 (lower is better). */
static const double one_a[3] = { 99, 100, 101 }, one_b[3] = { 104, 105, 106 };

static void load_one_boot(struct pb_cmp *c)
{
	write_boot("o1.json", "A", "0a", one_a, 3);
	write_boot("o2.json", "B", "0b", one_b, 3);
	load(c, "o1.json");
	load(c, "o2.json");
}

/*
 * Without a source: significant, but only "changed within its boot": not a
 * regression, and its tipping point is pb_tipping_cv of the logs' Welch.
 */
static void test_one_boot_within(void **state)
{
	struct pb_cmp c = { 0 };
	struct pb_eval e;
	double d, se, df;
	char q[300], want[120];

	(void)state;
	load_one_boot(&c);
	judge(&c, &e);
	log_welch(one_a, 3, one_b, 3, &d, &se, &df);
	assert_int_equal(e.unit, PB_LEVEL_RUN);
	assert_true(e.significant);
	assert_string_equal(e.verdict, "regression-within-boot");
	assert_true(e.within);
	assert_false(pb_cmp_regressed(&e));
	assert_float_equal(e.tipping, pb_tipping_cv(d, se, df, 1, 1) * 100, 1e-9);
	assert_true(e.tipping > 1 && e.tipping < 4);
	pb_cmp_qualify(&e, q, sizeof(q));
	snprintf(want, sizeof(want), "within one boot a side; holds if boots vary by less than "
		 "%.1f %%; boot each kernel twice", e.tipping);
	assert_non_null(strstr(q, want));
	pb_cmp_free(&c);
}

static int between_1pc(void *ctx, const struct pb_table *t, struct pb_between *b)
{
	(void)ctx;
	(void)t;
	b->sd = 0.01;
	b->df = 10;
	snprintf(b->source, sizeof(b->source), "a test's figure");
	return 1;
}

/*
 * With a between-boot sd of 0.01 (10 df): se = sqrt(se_w^2 + 0.01^2/1 +
 * 0.01^2/1), df = (se_w^2 + 2e-4)^2 / (se_w^4/df_w + 2e-4^2/10), the
 * interval exp(d +- t se) - 1, at the boot level and a regression.
 */
static void test_one_boot_widened(void **state)
{
	struct pb_cmp c = { 0 };
	struct pb_eval e;
	double d, sw, dfw, se, df, t, w = 2 * 0.01 * 0.01;
	char lw[300];

	(void)state;
	load_one_boot(&c);
	pb_cmp_ask_between(&c, between_1pc, NULL);
	judge(&c, &e);
	log_welch(one_a, 3, one_b, 3, &d, &sw, &dfw);
	se = sqrt(sw * sw + w);
	df = (sw * sw + w) * (sw * sw + w) / (pow(sw, 4) / dfw + w * w / 10);
	t = pb_t95(df);
	assert_true(e.widened);
	assert_false(e.within);
	assert_float_equal(e.change, expm1(d) * 100, 1e-9);
	assert_float_equal(e.ci_lo, expm1(d - t * se) * 100, 1e-9);
	assert_float_equal(e.ci_hi, expm1(d + t * se) * 100, 1e-9);
	assert_float_equal(e.p, pb_t_pvalue(d / se, df), 1e-9);
	assert_float_equal(e.mde, pb_mde(se, df) * 100, 1e-9);
	assert_true(e.significant);
	assert_true(pb_cmp_regressed(&e));
	pb_cmp_level_words(&e, lw, sizeof(lw));
	assert_string_equal(lw, "boot level (between-boot noise from a test's figure)");
	pb_cmp_free(&c);
}

/* Not significant: "no change beyond ±X %", X the MDE of its se and df. */
static void test_no_change_beyond(void **state)
{
	static const double a[3][3] = { { 100, 101, 99 }, { 103, 102, 104 }, { 98, 97, 99 } };
	static const double b[3][3] = { { 101, 100, 102 }, { 99, 100, 98 }, { 103, 104, 102 } };
	struct pb_cmp c = { 0 };
	struct pb_eval e;
	double ga[3], gb[3], d, se, df;
	char q[300], want[80], file[32], boot[16];

	(void)state;
	for (int i = 0; i < 3; i++) {
		snprintf(file, sizeof(file), "na%d.json", i);
		snprintf(boot, sizeof(boot), "a%d", i);
		write_boot(file, "A", boot, a[i], 3);
		load(&c, file);
		snprintf(file, sizeof(file), "nb%d.json", i);
		snprintf(boot, sizeof(boot), "b%d", i);
		write_boot(file, "B", boot, b[i], 3);
		load(&c, file);
		ga[i] = cbrt(a[i][0] * a[i][1] * a[i][2]);
		gb[i] = cbrt(b[i][0] * b[i][1] * b[i][2]);
	}
	judge(&c, &e);
	log_welch(ga, 3, gb, 3, &d, &se, &df);
	assert_false(e.significant);
	assert_false(e.within);
	assert_float_equal(e.mde, pb_mde(se, df) * 100, 1e-9);
	pb_cmp_qualify(&e, q, sizeof(q));
	snprintf(want, sizeof(want), "no change beyond ±%.1f %%", e.mde);
	assert_string_equal(q, want);
	/* an A/A whose whole interval lies inside the resolution */
	assert_string_equal(e.outcome, "no-change");
	assert_true(e.ci_lo > -e.mde && e.ci_hi < e.mde);
	pb_cmp_free(&c);
}

/*
 * An injected +12 % the data cannot resolve: three boots a side of one run,
 * B = 1.12 x A, A's boots 6 % apart.  Not significant, and its interval
 * reaches beyond the resolution on the slower side: "inconclusive
 * (interval [a, b])", never "no change beyond", never a regression.
 */
static void test_inconclusive(void **state)
{
	static const double a[3] = { 93.5, 100, 106.5 };
	struct pb_cmp c = { 0 };
	struct pb_eval e;
	char q[300], want[120], file[32], boot[16];
	double v;

	(void)state;
	for (int i = 0; i < 3; i++) {
		snprintf(file, sizeof(file), "ia%d.json", i);
		snprintf(boot, sizeof(boot), "a%d", i);
		write_boot(file, "A", boot, &a[i], 1);
		load(&c, file);
		snprintf(file, sizeof(file), "ib%d.json", i);
		snprintf(boot, sizeof(boot), "b%d", i);
		v = a[i] * 1.12;
		write_boot(file, "B", boot, &v, 1);
		load(&c, file);
	}
	judge(&c, &e);
	assert_int_equal(e.unit, PB_LEVEL_BOOT);
	assert_float_equal(e.change, 12.0, 1e-6);
	assert_false(e.significant);
	assert_true(e.ci_lo < 0 && e.ci_hi > e.mde);
	assert_string_equal(e.outcome, "inconclusive");
	pb_cmp_qualify(&e, q, sizeof(q));
	snprintf(want, sizeof(want), "inconclusive (interval [%+.1f, %+.1f])", e.ci_lo, e.ci_hi);
	assert_string_equal(q, want);
	assert_false(pb_cmp_regressed(&e));
	pb_cmp_free(&c);
}

/* Three boots of one run a side, A's values a and B's b, judged (Welch, Fieller's interval). */
static void judge_boots(struct pb_cmp *c, struct pb_eval *e, const char *tag, const double *a,
			const double *b)
{
	char file[48], boot[16];

	for (int i = 0; i < 6; i++) {
		snprintf(file, sizeof(file), "u%s%d.json", tag, i);
		snprintf(boot, sizeof(boot), "u%s%d", tag, i);
		write_boot(file, i < 3 ? "A" : "B", boot, i < 3 ? &a[i] : &b[i - 3], 1);
		load(c, file);
	}
	judge(c, e);
}

/* The text of the file at path after its last line starting with what (NULL: none). */
static char *after_last(const char *path, const char *what, char *buf, size_t len)
{
	size_t n;
	FILE *f = fopen(path, "r");
	char *at = NULL;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	for (char *s = buf; (s = strstr(s, what)); s++)
		if (s == buf || s[-1] == '\n')
			at = s + strlen(what);
	return at;
}

/*
 * Fieller's interval of a ratio whose new side is spread from 40 to 160
 * reaches below -100 % (-149 %), one whose baseline is not bounded away from 0 has
 * no end: each says "unbounded" for such an end, in every text that gives
 * the interval; the forest clips the bar at the axis with an arrow.
 */
static void test_unbounded(void **state)
{
	static const double tight[3] = { 99, 100, 101 }, wide[3] = { 40, 100, 160 };
	static const double zero[3] = { 10, 100, 190 };
	struct pb_cmp c = { 0 }, c2 = { 0 };
	struct pb_eval e;
	char q[300], want[120], path[512], err[256], gp[16384], tpl[PATH_MAX], *at;
	double lo;

	(void)state;
	judge_boots(&c, &e, "w", tight, wide);
	assert_string_equal(e.test, "welch");
	assert_true(e.ci_lo < -100 && e.ci_lo > -200 && isfinite(e.ci_hi));
	pb_cmp_change_words(&e, false, q, sizeof(q));
	snprintf(want, sizeof(want), "[unbounded, %+.2f]", e.ci_hi);
	assert_non_null(strstr(q, want));
	/* inside its own ±mde, but unbounded below: inconclusive, not "no change beyond" */
	assert_true(e.ci_lo >= -e.mde && e.ci_hi <= e.mde);
	assert_string_equal(e.outcome, "inconclusive");
	pb_cmp_qualify(&e, q, sizeof(q));
	snprintf(want, sizeof(want), "inconclusive (interval [unbounded, %+.1f])", e.ci_hi);
	assert_string_equal(q, want);
	if (!system("command -v gnuplot >/dev/null 2>&1")) {
		assert_non_null(realpath("plot", tpl));	/* this tree's templates */
		setenv("PINBENCH_PLOT_DIR", tpl, 1);
		snprintf(path, sizeof(path), "%s/unbounded.png", tmpdir);
		assert_int_equal(pb_plot_write(&c, NULL, path, err, sizeof(err)), 0);
		snprintf(path, sizeof(path), "%s/unbounded.gp", tmpdir);
		/* the forest's axis stays above -100 %, the row's bar clipped there */
		at = after_last(path, "set xrange [", gp, sizeof(gp));
		assert_true(at && sscanf(at, "%lf", &lo) == 1 && lo > -100);
		at = after_last(path, "clip_row = ", gp, sizeof(gp));
		assert_true(at && !strncmp(at, "\"0\"\nclip_from = ", 15));
		snprintf(want, sizeof(want), "%%%% [unbounded, %+.1f]", e.ci_hi);
		assert_non_null(strstr(gp, want));
	}
	judge_boots(&c2, &e, "z", zero, tight);
	assert_true(isinf(e.ci_lo) && isinf(e.ci_hi));
	pb_cmp_change_words(&e, false, q, sizeof(q));
	assert_non_null(strstr(q, " % [unbounded], q="));
	assert_string_equal(e.outcome, "inconclusive");
	pb_cmp_free(&c);
	pb_cmp_free(&c2);
}

/* A: 100 100.5 99.5, B: 110 110.5 109.5, a boot each run; B's finding where/kind/sev. */
static void judge_finding(struct pb_cmp *c, struct pb_eval *e, const char *side,
			  const char *where, const char *sev)
{
	static const double a[3] = { 100, 100.5, 99.5 };
	char file[48], boot[16];

	for (int i = 0; i < 6; i++) {
		bool is_b = i >= 3;
		bool mine = !strcmp(side, is_b ? "B" : "A") && i % 3 == 1;

		snprintf(file, sizeof(file), "f%s%s%s%d.json", side, where, sev, i);
		snprintf(boot, sizeof(boot), "f%d", i);
		write_finding(file, is_b ? "B" : "A", boot, a[i % 3] + (is_b ? 10 : 0),
			      mine ? where : "none", "noisy-neighbor", sev);
		load(c, file);
	}
	judge(c, e);
}

/*
 * An error finding on either side's runs: the cell is not judged, says so,
 * and is never a regression; a warning leaves it judged (a regression).
 */
static void test_not_judged(void **state)
{
	struct pb_cmp c[4] = { 0 };
	struct pb_eval e;
	char q[300];

	(void)state;
	judge_finding(&c[0], &e, "B", "job", "warn");
	assert_string_equal(e.outcome, "changed");
	assert_string_equal(e.verdict, "regression");
	assert_true(pb_cmp_regressed(&e));
	assert_string_equal(e.not_judged, "");

	judge_finding(&c[1], &e, "B", "job", "error");
	assert_string_equal(e.outcome, "not-judged");
	assert_string_equal(e.verdict, "not-judged");
	assert_string_equal(e.not_judged, "noisy-neighbor on this side");
	assert_false(e.significant);
	assert_false(pb_cmp_regressed(&e));
	pb_cmp_qualify(&e, q, sizeof(q));
	assert_string_equal(q, "not judged: noisy-neighbor on this side");

	judge_finding(&c[2], &e, "A", "run", "error");	/* run-wide, on the baseline */
	assert_string_equal(e.not_judged, "noisy-neighbor on the baseline");
	assert_string_equal(e.outcome, "not-judged");
	assert_false(e.significant);
	assert_false(pb_cmp_regressed(&e));

	judge_finding(&c[3], &e, "A", "job", "error");
	assert_string_equal(e.not_judged, "noisy-neighbor on the baseline");
	for (int i = 0; i < 4; i++)
		pb_cmp_free(&c[i]);
}

/* compare's text and csv say it: the cell's Change, and the outcome columns. */
static void test_not_judged_compare(void **state)
{
	struct pb_cmp_opts o = { .format = PB_FMT_TEXT, .min_change = PB_CMP_MIN_CHG };
	struct pb_cmp c = { 0 };
	struct pb_eval e;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	judge_finding(&c, &e, "B", "job", "error");
	for (int k = 0; k < 2; k++) {
		f = open_memstream(&out, &len);
		assert_non_null(f);
		assert_int_equal(pb_cmp_report(&c, &o, f, err, sizeof(err)), 0);
		fclose(f);
		assert_non_null(strstr(out, k ? ",not-judged,noisy-neighbor on this side\n" :
				       ", not judged: noisy-neighbor on this side"));
		free(out);
		o.format = PB_FMT_CSV;
	}
	pb_cmp_free(&c);
}

/* A heading's count of the cells not changed, each outcome apart. */
static void test_tally(void **state)
{
	struct pb_cmp_tally ty = { 0 };
	struct pb_eval e = { .outcome = "no-change", .mde = 2.0 };
	char buf[200];

	(void)state;
	assert_true(pb_cmp_tally_add(&ty, &e));
	e.outcome = "inconclusive";
	assert_true(pb_cmp_tally_add(&ty, &e));
	pb_cmp_tally_words(&ty, false, buf, sizeof(buf));
	assert_string_equal(buf, " 1 placement: no change beyond ±2.0 %; 1 other inconclusive");
	e.outcome = "not-judged";
	snprintf(e.not_judged, sizeof(e.not_judged), "noisy-neighbor on this side");
	assert_true(pb_cmp_tally_add(&ty, &e));
	e.outcome = "changed";
	assert_false(pb_cmp_tally_add(&ty, &e));
	pb_cmp_tally_words(&ty, true, buf, sizeof(buf));
	assert_string_equal(buf, "; 1 other: no change beyond ±2.0 %; 1 other inconclusive; "
			    "1 other not judged (noisy-neighbor on this side)");
	ty = (struct pb_cmp_tally){ 0 };
	e.outcome = "inconclusive";
	assert_true(pb_cmp_tally_add(&ty, &e));
	pb_cmp_tally_words(&ty, false, buf, sizeof(buf));
	assert_string_equal(buf, " 1 placement inconclusive");
}

/* pb_cmp_regressed on its own: significant, at the boot level and judged. */
static void test_regressed(void **state)
{
	struct pb_eval e = { .significant = true, .verdict = "regression" };

	(void)state;
	assert_true(pb_cmp_regressed(&e));
	e.within = true;
	assert_false(pb_cmp_regressed(&e));
	e.within = false;
	snprintf(e.not_judged, sizeof(e.not_judged), "stall on the baseline");
	assert_false(pb_cmp_regressed(&e));
}

/* A kind seen as a warning in one file and an error in another is an error. */
static void test_error_outweighs(void **state)
{
	struct pb_cmp c = { 0 };

	(void)state;
	write_finding("w1.json", "A", "w1", 100, "job", "noisy-neighbor", "warn");
	write_finding("w2.json", "A", "w2", 101, "job", "noisy-neighbor", "error");
	load(&c, "w1.json");
	load(&c, "w2.json");
	assert_int_equal(c.t[0].cells[0].nr_marks, 1);
	assert_string_equal(c.t[0].cells[0].marks[0].severity, "error");
	pb_cmp_free(&c);
}

/*
 * The seed's 2009 table: 2.6.24 and 2.6.25, 4 runs each in one boot, a
 * spread of 0.05-0.2 %, 2.6.25 2 % slower.  It still stands out, as a
 * change within its boot, with its tipping point; the exit code stays 0.
 */
static void test_2009_table(void **state)
{
	static const double k24[4] = { 100.00, 100.10, 99.95, 100.05 };
	static const double k25[4] = { 102.00, 102.15, 101.95, 102.10 };
	struct pb_cmp_opts o = { .format = PB_FMT_TEXT, .min_change = PB_CMP_MIN_CHG };
	struct pb_cmp c = { 0 };
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	write_boot("k24.json", "2.6.24", "24", k24, 4);
	write_boot("k25.json", "2.6.25", "25", k25, 4);
	load(&c, "k24.json");
	load(&c, "k25.json");
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(pb_cmp_report(&c, &o, f, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(out, "changed within its boot"));
	assert_non_null(strstr(out, "2.6.25: +2.0 % [+1."));
	assert_non_null(strstr(out, "within one boot a side;\n  holds if boots vary by less "
			       "than 0."));
	assert_non_null(strstr(out, "boot each kernel twice, or run pinbench calibrate"));
	free(out);
	pb_cmp_free(&c);
}

static int setup(void **state)
{
	(void)state;
	return fixture_tmpdir(tmpdir, "verdict");
}

static int teardown(void **state)
{
	(void)state;
	return fixture_tmpdir_remove(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_boots),
		cmocka_unit_test(test_one_boot_within),
		cmocka_unit_test(test_one_boot_widened),
		cmocka_unit_test(test_no_change_beyond),
		cmocka_unit_test(test_inconclusive),
		cmocka_unit_test(test_unbounded),
		cmocka_unit_test(test_not_judged),
		cmocka_unit_test(test_error_outweighs),
		cmocka_unit_test(test_not_judged_compare),
		cmocka_unit_test(test_tally),
		cmocka_unit_test(test_regressed),
		cmocka_unit_test(test_2009_table),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
