// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - result files as LAVA test cases, KTAP v1 and JUnit XML
 * (report/export.h): the cases (job x placement, and the anomalies of
 * severity error) judged against an optional baseline, then written in
 * the format asked for.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "report/compare.h"
#include "report/export.h"
#include "lib/util.h"

/* One test case. */
struct xcase {
	const struct pb_table	*t;
	const struct pb_cell	*cell;
	const struct pb_mark	*mark;		/* an error anomaly's own case */
	struct pb_eval		e;
	const char		*result;	/* "pass", "fail", "skip" */
	const char		*kind;		/* JUnit: "regression", "failed", ... or NULL */
	bool			error;		/* JUnit <error>: the job did not measure */
	bool			value;		/* e.s.mean is the measurement */
	char			msg[768];
};

struct xctx {
	const struct pb_cmp	*c;
	const struct pb_exp_opts *o;
	FILE			*f;
	struct xcase		*v;
	int			n, cap;
	struct pb_mark		*run;		/* the run-wide anomalies of severity error */
};

/* Where run-wide anomalies (environment checks, the observer effect) are filed. */
static const struct pb_table run_table = { .job = "pinbench-run", .placement = "environment" };

int pb_exp_format_parse(const char *s)
{
	static const char *const names[] = { "lava", "lava-signal", "ktap", "junit" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

static struct xcase *add_case(struct xctx *x, const struct pb_table *t,
			      const struct pb_cell *cell)
{
	struct xcase *v = pb_grow(x->v, x->n, &x->cap, sizeof(*v));

	if (!v)
		return NULL;
	x->v = v;
	v = &v[x->n++];
	memset(v, 0, sizeof(*v));
	v->t = t;
	v->cell = cell;
	v->result = "pass";
	return v;
}

/* The case of one job x placement: what the cell says, against the baseline. */
static void judge(struct xctx *x, struct xcase *k)
{
	const struct pb_cell *cell = k->cell, *base = NULL;
	const struct pb_exp_opts *o = x->o;
	char ch[160], q[300];

	if (o->base >= 0)
		base = pb_cmp_base(x->c, k->t, o->base);
	pb_cmp_eval(k->t, cell, base, o->min_change, &k->e);
	if (!cell->n) {
		bool skipped = !strcmp(cell->status, "skipped");

		k->result = skipped ? "skip" : "fail";
		k->kind = skipped ? NULL : "failed";
		k->error = !skipped;
		snprintf(k->msg, sizeof(k->msg), "%s%s%s", skipped ? "" : cell->status,
			 skipped || !cell->reason[0] ? "" : ": ", cell->reason[0] ? cell->reason :
			 skipped ? "skipped" : "");
		return;
	}
	k->value = true;
	if (k->e.has_base && !isnan(k->e.change)) {
		pb_cmp_change_words(&k->e, o->no_correction, ch, sizeof(ch));
		pb_cmp_qualify(&k->e, q, sizeof(q));
		bool within = k->e.within && k->e.significant;

		snprintf(k->msg, sizeof(k->msg), "%s: %s against %s%s%s%s",
			 within ? "changed within its boot, not a failure" : k->e.verdict, ch,
			 o->base_name ? o->base_name : "the baseline",
			 k->e.within || !k->e.test ? "" : "; at the boot level",
			 q[0] ? "; " : "", q);
	}
	if (cell->interrupted) {
		k->result = "fail";
		k->kind = "interrupted";
		snprintf(k->msg, sizeof(k->msg), "interrupted: only some repeats finished");
	} else if (pb_cmp_regressed(&k->e)) {
		k->result = "fail";
		k->kind = "regression";
	}
}

/* The error case of mark a (of a cell, or run-wide). */
static int error_case(struct xctx *x, const struct pb_table *t, const struct pb_cell *cell,
		      const struct pb_mark *a)
{
	struct xcase *k = add_case(x, t, cell);

	if (!k)
		return -1;
	k->mark = a;
	k->result = "fail";
	k->kind = "anomaly";
	snprintf(k->msg, sizeof(k->msg), "%s: %s", a->kind, a->message);
	return 0;
}

static int collect_run(struct xctx *x)
{
	json_t *errs = x->c->run_errors ? x->c->run_errors[x->o->cur] : NULL, *a;
	size_t i;

	x->run = calloc(json_array_size(errs) + 1, sizeof(*x->run));
	if (!x->run)
		return -1;
	json_array_foreach(errs, i, a) {
		struct pb_mark *m = &x->run[i];

		snprintf(m->kind, sizeof(m->kind), "%s",
			 json_string_value(json_object_get(a, "kind")) ?: "unknown");
		snprintf(m->severity, sizeof(m->severity), "error");
		snprintf(m->message, sizeof(m->message), "%s",
			 json_string_value(json_object_get(a, "message")) ?: "");
		if (error_case(x, &run_table, NULL, m))
			return -1;
	}
	return 0;
}

static int collect(struct xctx *x)
{
	for (int i = 0; i < x->c->nr_tables; i++) {
		const struct pb_table *t = &x->c->t[i];
		const struct pb_cell *cell = pb_cmp_cell(t, x->o->cur);
		struct xcase *k;

		if (!cell)
			continue;	/* the baseline's alone */
		if (!(k = add_case(x, t, cell)))
			return -1;
		judge(x, k);
		for (int m = 0; m < cell->nr_marks; m++)
			if (!strcmp(cell->marks[m].severity, "error") &&
			    error_case(x, t, cell, &cell->marks[m]))
				return -1;
	}
	return collect_run(x);
}

/* ---- LAVA ---- */

/* A LAVA test case id: letters, digits, '.', '_', '-' (no space, '=' or '/'). */
static void lava_word(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s && o + 1 < len; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == 0xc2 && (unsigned char)s[1] == 0xb5) {	/* µ */
			buf[o++] = 'u';
			s++;
		} else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || strchr("._-", ch) || ch == '/' ||
			   ch == '%') {
			buf[o++] = (char)ch;
		} else if (ch < 0x80 || (ch & 0xc0) == 0xc0) {
			buf[o++] = '_';
		}
	}
	buf[o] = 0;
}

static void lava_name(const struct xcase *k, char *buf, size_t len)
{
	char raw[512];
	char *p;

	snprintf(raw, sizeof(raw), "%s.%s%s%s", k->t->job, k->t->placement, k->mark ? "." : "",
		 k->mark ? k->mark->kind : "");
	lava_word(raw, buf, len);
	for (p = buf; *p; p++)
		if (*p == '/' || *p == '%')
			*p = '_';
}

static void lava_line(const struct xctx *x, const char *name, const char *result,
		      const double *v, const char *unit)
{
	char u[64];

	lava_word(unit ? unit : "", u, sizeof(u));
	if (x->o->format == PB_EXP_LAVA_SIGNAL) {
		fprintf(x->f, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s", name, result);
		if (v)
			fprintf(x->f, " MEASUREMENT=%.6g", *v);
		if (v && u[0])
			fprintf(x->f, " UNITS=%s", u);
		fputs(">\n", x->f);
		return;
	}
	fprintf(x->f, "lava-test-case %s --result %s", name, result);
	if (v)
		fprintf(x->f, " --measurement %.6g", *v);
	if (v && u[0])
		fprintf(x->f, " --units %s", u);
	fputc('\n', x->f);
}

/*
 * s on one line of the console, as LAVA reads it: controls are spaces and a
 * '<' that would open a LAVA pattern ("<LAVA_SIGNAL_...", "<LAVA_TEST_RUNNER
 * EXIT>") is '_'; for the shell (sh), each '\'' is closed, escaped, reopened.
 */
static void lava_text(FILE *f, const char *s, bool sh)
{
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fputc(' ', f);
		else if (*s == '<' && !strncmp(s + 1, "LAVA_", 5))
			fputc('_', f);
		else if (sh && *s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
}

/*
 * LAVA keeps no reason with a result (lava-test-case has --result,
 * --measurement and --units only) but keeps, as the case's log, the lines
 * between its STARTTC and ENDTC signals: the reason goes there.
 */
static void lava_reason(const struct xctx *x, const char *name, const char *msg)
{
	bool sh = x->o->format == PB_EXP_LAVA;
	const char *q = sh ? "echo '" : "", *e = sh ? "'\n" : "\n";

	fprintf(x->f, "%s<LAVA_SIGNAL_STARTTC %s>%s%s%s: ", q, name, e, q, name);
	lava_text(x->f, msg, sh);
	fprintf(x->f, "%s%s<LAVA_SIGNAL_ENDTC %s>%s", e, q, name, e);
}

static void write_lava(const struct xctx *x)
{
	char name[256];

	if (x->o->format == PB_EXP_LAVA)
		fprintf(x->f, "# pinbench export: %d jobs x placements and error anomalies\n",
			x->n);
	for (int i = 0; i < x->n; i++) {
		const struct xcase *k = &x->v[i];

		lava_name(k, name, sizeof(name));
		if (k->msg[0])
			lava_reason(x, name, k->msg);
		lava_line(x, name, k->result, k->value ? &k->e.s.mean : NULL, k->t->unit);
		if (!k->mark && k->e.has_base && !isnan(k->e.change)) {
			strncat(name, ".change", sizeof(name) - strlen(name) - 1);
			lava_line(x, name, strcmp(k->kind ? k->kind : "", "regression") ? "pass" :
				  "fail", &k->e.change, "%");
		}
	}
}

/* ---- KTAP v1 ---- */

/* Text for a KTAP line: no '#' (it starts the directive), no line break or other control. */
static void ktap_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '#' ? '_' : (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* KTAP v1: the version line, the plan right after it, then diagnostics and results. */
static void write_ktap(const struct xctx *x)
{
	fprintf(x->f, "KTAP version 1\n1..%d\n# pinbench export", x->n);
	if (x->o->base >= 0) {
		fputs(": against ", x->f);
		ktap_text(x->f, x->o->base_name ? x->o->base_name : "the baseline");
	}
	fputc('\n', x->f);
	for (int i = 0; i < x->n; i++) {
		const struct xcase *k = &x->v[i];

		fprintf(x->f, "%s %d ", strcmp(k->result, "fail") ? "ok" : "not ok", i + 1);
		ktap_text(x->f, k->t->job);
		fputc('/', x->f);
		ktap_text(x->f, k->t->placement);
		if (k->mark) {
			fputc('/', x->f);
			ktap_text(x->f, k->mark->kind);
		}
		if (!strcmp(k->result, "skip")) {
			fputs(" # SKIP ", x->f);
			ktap_text(x->f, k->msg);
		} else if (k->value && !k->mark) {
			fprintf(x->f, " # %.6g ", k->e.s.mean);
			ktap_text(x->f, k->t->unit);
			if (k->msg[0]) {
				fputs(", ", x->f);
				ktap_text(x->f, k->msg);
			}
		} else if (k->msg[0]) {
			fputs(" # ", x->f);
			ktap_text(x->f, k->msg);
		}
		fputc('\n', x->f);
	}
}

/* ---- JUnit XML ---- */

/*
 * The length of the well-formed UTF-8 sequence at s (shortest form, no
 * surrogate, at most U+10FFFF) with its code point in *cp, or 0.
 */
static int utf8_at(const unsigned char *s, unsigned int *cp)
{
	static const unsigned int least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	unsigned int c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (!n || s[0] >= 0xf8)
		return 0;
	c = s[0] & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* XML 1.0's Char, less CR and LF (an attribute value would lose them). */
static bool xml_char(unsigned int c)
{
	return c == '\t' || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) ||
	       (c >= 0x10000 && c <= 0x10ffff);
}

/* s escaped; a character XML 1.0 does not allow, or a byte of bad UTF-8, is '?'. */
static void xml_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int c;
	int n;

	while (*p) {
		n = utf8_at(p, &c);
		if (!n || !xml_char(c)) {
			fputc('?', f);
			p += n ? n : 1;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fwrite(p, 1, (size_t)n, f);
		}
		p += n;
	}
}

/* A testsuite's <property>: its name pre.name (a case's figure) or name. */
static void xml_prop(FILE *f, const char *pre, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void xml_prop(FILE *f, const char *pre, const char *name, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("      <property name=\"", f);
	if (pre) {
		xml_text(f, pre);
		fputc('.', f);
	}
	fprintf(f, "%s\" value=\"", name);
	xml_text(f, buf);
	fputs("\"/>\n", f);
}

/*
 * A case's figures, as properties of its testsuite named PLACEMENT.KEY: the
 * JUnit schemas (Ant's, Jenkins' junit-10.xsd) give a testcase none.
 */
static void junit_props(const struct xctx *x, const struct xcase *k)
{
	const struct pb_eval *e = &k->e;
	const char *p = k->t->placement;
	FILE *f = x->f;

	if (!k->value || k->mark)
		return;
	xml_prop(f, p, "metric", "%s", k->t->metric);
	xml_prop(f, p, "unit", "%s", k->t->unit);
	xml_prop(f, p, "better", "%s", k->t->higher ? "higher" : "lower");
	xml_prop(f, p, "mean", "%.10g", e->s.mean);
	if (e->s.n > 1)
		xml_prop(f, p, "stddev", "%.10g", e->s.stddev);
	xml_prop(f, p, "n", "%d", e->s.n);
	xml_prop(f, p, "tested", "%s", e->between ? "runs" : "repeats");
	if (k->t->cpus[0])
		xml_prop(f, p, "cpus", "%s", k->t->cpus);
	if (e->has_base && !isnan(e->change)) {
		xml_prop(f, p, "change_pct", "%.4f", e->change);
		if (!isnan(e->ci_lo)) {
			xml_prop(f, p, "change_ci95_lo", "%.4f", e->ci_lo);
			xml_prop(f, p, "change_ci95_hi", isinf(e->ci_hi) ? "inf" : "%.4f",
				 e->ci_hi);
		}
		if (!isnan(e->p)) {
			xml_prop(f, p, "p", "%.6g", e->p);
			xml_prop(f, p, "p_adj", "%.6g", e->p_adj);
		}
		xml_prop(f, p, "verdict", "%s", e->verdict);
	}
}

/* Seconds the case's jobs ran; an anomaly's case 0 (its cell's case has them). */
static double case_time(const struct xcase *k)
{
	return k->cell && !k->mark ? k->cell->wall_s : 0;
}

static void junit_case(const struct xcase *k, FILE *f)
{
	fputs("    <testcase classname=\"", f);
	xml_text(f, k->t->job);
	fputs("\" name=\"", f);
	xml_text(f, k->t->placement);
	if (k->mark) {
		fputc('/', f);
		xml_text(f, k->mark->kind);
	}
	fprintf(f, "\" time=\"%.3f\"", case_time(k));
	if (!strcmp(k->result, "skip")) {
		fputs(">\n      <skipped message=\"", f);
		xml_text(f, k->msg);
		fputs("\"/>\n    </testcase>\n", f);
	} else if (!strcmp(k->result, "fail")) {
		fprintf(f, ">\n      <%s type=\"%s\" message=\"", k->error ? "error" : "failure",
			k->kind ? k->kind : "failure");
		xml_text(f, k->msg);
		fputs("\"/>\n    </testcase>\n", f);
	} else {
		fputs("/>\n", f);
	}
}

/* "2026-01-01T00:00:00Z" as the JUnit schemas want it: no zone (it is UTC). */
static bool junit_stamp(const char *s, char *buf, size_t len)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";

	for (size_t i = 0; i < sizeof(form) - 1; i++)
		if (form[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != form[i])
			return false;
	snprintf(buf, len, "%.19s", s);
	return !s[sizeof(form) - 1];
}

static void junit_suite_head(const struct xctx *x, const char *job, const int *c, double t)
{
	json_t *env = x->c->envs ? x->c->envs[x->o->cur] : NULL;
	const char *host = json_string_value(json_object_get(env, "hostname"));
	char stamp[24];
	FILE *f = x->f;

	fputs("  <testsuite name=\"", f);
	xml_text(f, job);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"",
		c[0], c[1], c[2], c[3], t);
	if (x->c->started && junit_stamp(x->c->started[x->o->cur], stamp, sizeof(stamp)))
		fprintf(f, " timestamp=\"%s\"", stamp);
	fputs(" hostname=\"", f);
	xml_text(f, host && host[0] ? host : "unknown");
	fputs("\">\n", f);
}

static void junit_suite(const struct xctx *x, int from, const bool *done, bool *mine)
{
	const char *job = x->v[from].t->job, *host, *model;
	json_t *env = x->c->envs ? x->c->envs[x->o->cur] : NULL;
	int c[4] = { 0 };	/* tests, failures, errors, skipped */
	double t = 0;
	FILE *f = x->f;

	for (int i = from; i < x->n; i++) {
		const struct xcase *k = &x->v[i];

		mine[i] = !done[i] && !strcmp(k->t->job, job);
		if (!mine[i])
			continue;
		c[0]++;
		c[1] += !strcmp(k->result, "fail") && !k->error;
		c[2] += k->error;
		c[3] += !strcmp(k->result, "skip");
		t += case_time(k);
	}
	junit_suite_head(x, job, c, t);
	host = json_string_value(json_object_get(env, "hostname"));
	model = json_string_value(json_object_get(env, "cpu_model"));
	fputs("    <properties>\n", f);
	if (host)
		xml_prop(f, NULL, "host", "%s", host);
	if (model)
		xml_prop(f, NULL, "cpu_model", "%s", model);
	if (x->o->base >= 0)
		xml_prop(f, NULL, "baseline", "%s", x->o->base_name ? x->o->base_name :
			 x->c->groups[x->o->base]);
	for (int i = from; i < x->n; i++)
		if (mine[i])
			junit_props(x, &x->v[i]);
	fputs("    </properties>\n", f);
	for (int i = from; i < x->n; i++)
		if (mine[i])
			junit_case(&x->v[i], f);
	fputs("  </testsuite>\n", f);
}

/* A testsuite per job, in order of first appearance. */
static int write_junit(const struct xctx *x, const struct pb_exp_counts *n)
{
	bool *done = calloc((size_t)x->n + 1, sizeof(*done));
	bool *mine = calloc((size_t)x->n + 1, sizeof(*mine));
	double t = 0;
	int errors = 0;

	if (!done || !mine) {
		free(done);
		free(mine);
		return -1;
	}
	for (int i = 0; i < x->n; i++) {
		errors += x->v[i].error;
		t += case_time(&x->v[i]);
	}
	/* no skipped= here: junit-10.xsd has it on a testsuite only */
	fprintf(x->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pinbench\" "
		"tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
		x->n, n->fail - errors, errors, t);
	for (int i = 0; i < x->n; i++) {
		if (done[i])
			continue;
		junit_suite(x, i, done, mine);
		for (int k = i; k < x->n; k++)
			done[k] |= mine[k];
	}
	fputs("</testsuites>\n", x->f);
	free(done);
	free(mine);
	return 0;
}

int pb_export(struct pb_cmp *c, const struct pb_exp_opts *o, FILE *out,
	      struct pb_exp_counts *n, char *err, size_t len)
{
	struct xctx x = { .c = c, .o = o, .f = out };
	int rc = 0;

	memset(n, 0, sizeof(*n));
	if (o->base >= 0)
		pb_cmp_adjust(c, o->base, !o->no_correction);
	if (collect(&x)) {
		free(x.v);
		free(x.run);
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (int i = 0; i < x.n; i++) {
		n->pass += !strcmp(x.v[i].result, "pass");
		n->fail += !strcmp(x.v[i].result, "fail");
		n->skip += !strcmp(x.v[i].result, "skip");
	}
	if (o->format == PB_EXP_KTAP)
		write_ktap(&x);
	else if (o->format == PB_EXP_JUNIT)
		rc = write_junit(&x, n);
	else
		write_lava(&x);
	free(x.v);
	free(x.run);
	if (rc)
		snprintf(err, len, "out of memory");
	return rc;
}
