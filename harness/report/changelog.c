// SPDX-License-Identifier: GPL-2.0-only
/*
 * changelog.c - `pinbench report`: the comparison of two groups as a
 * changelog: verdict lines, tables, environment differences, anomalies and
 * the commands that reproduce the runs, in Markdown or in 72 columns.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anomaly.h"
#include "report/changelog.h"

/* Write s wrapped between words at width, the first line after first, the rest after rest. */
static void wrap(FILE *f, const char *s, const char *first, const char *rest, int width)
{
	int col = fprintf(f, "%s", first), ind = (int)strlen(rest);
	bool start = true;

	while (*s) {
		const char *w = s;
		int n;

		while (*w == ' ')
			w++;
		n = (int)strcspn(w, " ");
		if (!n)
			break;
		if (!start && col + 1 + n > width) {
			fprintf(f, "\n%s", rest);
			col = ind;
			start = true;
		}
		col += fprintf(f, "%s%.*s", start ? "" : " ", n, w);
		start = false;
		s = w + n;
	}
	fputc('\n', f);
}

/* "+1.7 % [+0.9, +2.5]" */
static void change_text(const struct pb_eval *e, char *buf, size_t len)
{
	if (isnan(e->ci_lo))
		snprintf(buf, len, "%+.1f %%", e->change);
	else if (isinf(e->ci_hi) || isinf(e->ci_lo))
		snprintf(buf, len, "%+.1f %% [%+.1f, +inf]", e->change,
			 isinf(e->ci_lo) ? -100.0 : e->ci_lo);
	else
		snprintf(buf, len, "%+.1f %% [%+.1f, %+.1f]", e->change, e->ci_lo, e->ci_hi);
}

static void p_text(const struct pb_changelog *o, double p, char *buf, size_t len)
{
	const char *k = o->cmp->no_correction ? "p" : "q";

	if (isnan(p))
		snprintf(buf, len, "%s n/a", k);
	else if (p < 0.001)
		snprintf(buf, len, "%s < 0.001", k);
	else
		snprintf(buf, len, "%s=%.3f", k, p);
}

/* What cell `cur` of t says against `base`; false when either has no values. */
static bool judge(const struct pb_cmp *c, const struct pb_table *t,
		  const struct pb_changelog *o, struct pb_eval *e)
{
	const struct pb_cell *b = pb_cmp_cell(t, o->base), *n = pb_cmp_cell(t, o->cur);

	(void)c;
	if (!b || !b->n || !n || !n->n)
		return false;
	pb_cmp_eval(t, n, b, o->cmp->min_change, e);
	return e->has_base;
}

/* The tables of job `job` (by name) from table i on. */
static bool same_job(const struct pb_table *a, const struct pb_table *b)
{
	return !strcmp(a->job, b->job) && !strcmp(a->metric, b->metric);
}

/*
 * The verdict, a line per job ("pipe rtt: same-cpu +1.7 % [+0.9, +2.5],
 * q=0.003, slower; 3 others unchanged"), Markdown list items (md) or
 * text wrapped at PB_CHANGELOG_WIDTH.  pb_cmp_adjust() must have run.
 * Returns the number of significant regressions.
 */
static int pb_changelog_verdicts(const struct pb_cmp *c, const struct pb_changelog *o, bool md,
				 FILE *f)
{
	bool *done = calloc(c->nr_tables ? c->nr_tables : 1, sizeof(*done));
	int regressions = 0;

	if (!done)
		return 0;
	for (int i = 0; i < c->nr_tables; i++) {
		char line[2048], ch[96], p[32], q[300];
		int missing = 0, within = 0, said = 0;
		struct pb_cmp_tally ty = { 0 };	/* the cells not changed, by outcome */
		size_t off;

		if (done[i])
			continue;
		off = (size_t)snprintf(line, sizeof(line), "%s%s%s %s:", md ? "**" : "",
				       c->t[i].job, md ? "**" : "", c->t[i].metric);
		for (int k = i; k < c->nr_tables; k++) {
			const struct pb_table *t = &c->t[k];
			struct pb_eval e;

			if (done[k] || !same_job(&c->t[i], t))
				continue;
			done[k] = true;
			if (!judge(c, t, o, &e)) {
				missing++;
				continue;
			}
			within += !e.between;
			if (pb_cmp_tally_add(&ty, &e))
				continue;
			regressions += pb_cmp_regressed(&e);
			change_text(&e, ch, sizeof(ch));
			p_text(o, e.p_adj, p, sizeof(p));
			pb_cmp_qualify(&e, q, sizeof(q));
			if (off < sizeof(line))
				off += (size_t)snprintf(line + off, sizeof(line) - off,
					"%s %s %s, %s, %s%s%s", said ? ";" : "", t->placement,
					ch, p, (e.change > 0) == t->higher ? "faster" : "slower",
					q[0] ? (e.within ? "; " : ", ") : "", q);
			said++;
		}
		int unchanged = ty.no_change + ty.inconclusive + ty.not_judged;

		if (off < sizeof(line))
			off += pb_cmp_tally_words(&ty, said, line + off, sizeof(line) - off);
		if (off < sizeof(line) && missing)
			off += (size_t)snprintf(line + off, sizeof(line) - off, "%s %d not compared "
				"(no values on one side)", said || unchanged ? ";" : "", missing);
		if (off < sizeof(line) && within)
			snprintf(line + off, sizeof(line) - off, " (%s: one run a side, the "
				 "intervals leave the variation between runs out)",
				 within == said + unchanged ? "all" : "some");
		if (md)
			fprintf(f, "- %s\n", line);
		else
			wrap(f, line, "  ", "    ", PB_CHANGELOG_WIDTH);
	}
	free(done);
	return regressions;
}

static const char *unit_text(const char *unit)
{
	return !strcmp(unit, "us") ? "µs" : unit;
}

/* One table in 72 columns: a row per side, the change on the new side's. */
static void text_table(const struct pb_cmp *c, const struct pb_table *t,
		       const struct pb_changelog *o, FILE *f)
{
	const int groups[2] = { o->base, o->cur };
	char head[512];
	struct pb_eval e;
	bool judged = judge(c, t, o, &e);

	snprintf(head, sizeof(head), "%s %s (%s, %s is better), %s", t->job, t->metric,
		 unit_text(t->unit), t->higher ? "higher" : "lower", t->placement);
	wrap(f, head, "", "  ", PB_CHANGELOG_WIDTH);
	char row[512], ch[96], p[32], q[300];

	for (int k = 0; k < 2; k++) {
		const struct pb_cell *cell = pb_cmp_cell(t, groups[k]);
		struct pb_summary s;
		const double *v;
		int n;

		if (!cell || !cell->n) {
			snprintf(row, sizeof(row), "  %-24.24s %s%s%s", c->groups[groups[k]],
				 cell ? cell->status : "missing", cell && cell->reason[0] ?
				 ": " : "", cell ? cell->reason : "");
			wrap(f, row, "", "    ", PB_CHANGELOG_WIDTH);
			continue;
		}
		n = pb_cmp_values(t, cell, &v);
		pb_summarize(v, n, t->rate, &s);
		fprintf(f, "  %-24.24s %3d %-7s mean %10.4g  sd %9.3g\n", c->groups[groups[k]], n,
			pb_cmp_between(t) ? "runs" : "repeats", s.mean, s.stddev);
	}
	if (judged) {
		change_text(&e, ch, sizeof(ch));
		p_text(o, e.p_adj, p, sizeof(p));
		pb_cmp_qualify(&e, q, sizeof(q));
		snprintf(row, sizeof(row), "change %s, %s%s%s%s%s", ch, p,
			 e.significant ? ": " : "",
			 !e.significant ? "" : (e.change > 0) == t->higher ? "faster" : "slower",
			 q[0] ? (e.significant && !e.within ? ", " : "; ") : "", q);
		wrap(f, row, "  ", "    ", PB_CHANGELOG_WIDTH);
	}
}

/* Where anomaly kind showed: "pipe same-cpu: L, M; ...", and one of its messages. */
static void kind_cells(const struct pb_cmp *c, const struct pb_changelog *o, const char *kind,
		       char *line, size_t len, char *example, size_t elen)
{
	size_t off = strlen(line);

	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		bool said = false;

		for (int k = 0; k < t->nr_cells; k++) {
			const struct pb_cell *cell = &t->cells[k];

			if (cell->group != o->base && cell->group != o->cur)
				continue;
			for (int m = 0; m < cell->nr_marks && off < len; m++) {
				if (strcmp(cell->marks[m].kind, kind))
					continue;
				if (said)
					off += (size_t)snprintf(line + off, len - off, ", %s",
								c->groups[cell->group]);
				else
					off += (size_t)snprintf(line + off, len - off, "%s %s %s: %s",
						line[off - 1] == ':' ? "" : ";", t->job, t->placement,
						c->groups[cell->group]);
				if (!example[0])
					snprintf(example, elen, "%s", cell->marks[m].message);
				said = true;
			}
		}
	}
}

/* The anomaly marks of the two sides: a line per kind, where it was and an example. */
static void text_anomalies(const struct pb_cmp *c, const struct pb_changelog *o, FILE *f)
{
	char kinds[32][32], line[2048], example[256];
	int nk = 0;

	for (int i = 0; i < c->nr_tables; i++)
		for (int k = 0; k < c->t[i].nr_cells; k++)
			for (int m = 0; m < c->t[i].cells[k].nr_marks; m++) {
				const struct pb_mark *mk = &c->t[i].cells[k].marks[m];
				int q = 0;

				while (q < nk && strcmp(kinds[q], mk->kind))
					q++;
				if (q == nk && nk < 32 && strcmp(mk->severity, "info"))
					snprintf(kinds[nk++], sizeof(kinds[0]), "%s", mk->kind);
			}
	if (nk)
		fputs("\nAnomalies (marks of pinbench run; pinbench-marks(7)):\n", f);
	for (int q = 0; q < nk; q++) {
		const char *sym = pb_anomaly_mark(kinds[q]);

		snprintf(line, sizeof(line), "%s %s:", sym && *sym ? sym : "?", kinds[q]);
		example[0] = 0;
		kind_cells(c, o, kinds[q], line, sizeof(line), example, sizeof(example));
		wrap(f, line, "  ", "    ", PB_CHANGELOG_WIDTH);
		if (example[0]) {
			snprintf(line, sizeof(line), "e.g. %s", example);
			wrap(f, line, "    ", "      ", PB_CHANGELOG_WIDTH);
		}
	}
}

static void reproduce(const struct pb_cmp *c, const struct pb_changelog *o, bool md, FILE *f)
{
	const int groups[2] = { o->base, o->cur };

	fputs(md ? "\n## Reproduce\n\n" : "\nReproduce:\n", f);
	for (int k = 0; k < 2; k++) {
		json_t *cmds = c->cmds ? c->cmds[groups[k]] : NULL, *v;
		size_t i;

		if (md)
			fprintf(f, "%s (on its kernel):\n\n```\n", c->groups[groups[k]]);
		else
			fprintf(f, "  %s (on its kernel):\n", c->groups[groups[k]]);
		json_array_foreach(cmds, i, v)
			if (md)
				fprintf(f, "%s\n", json_string_value(v));
			else
				wrap(f, json_string_value(v), "    ", "      ", PB_CHANGELOG_WIDTH);
		if (!json_array_size(cmds))
			fputs(md ? "(no command line recorded)\n" : "    (no command line recorded)\n", f);
		if (md)
			fputs("```\n\n", f);
	}
}

static void text_env(const struct pb_cmp *c, FILE *f)
{
	json_t *diffs = pb_cmp_env_diffs(c), *d;
	size_t i;

	if (json_array_size(diffs))
		fputs("\nEnvironment differences:\n", f);
	json_array_foreach(diffs, i, d) {
		const char *m = json_string_value(json_object_get(d, "message"));

		if (m)
			wrap(f, m, "  ", "    ", PB_CHANGELOG_WIDTH);
	}
	json_decref(diffs);
}

int pb_changelog_write(struct pb_cmp *c, const struct pb_changelog *o, bool md, FILE *f,
		       char *err, size_t len)
{
	struct pb_cmp_opts co = *o->cmp;
	int regressions, rank, welch;

	co.baseline = c->groups[o->base];
	co.format = PB_FMT_MARKDOWN;
	pb_cmp_ask_between(c, co.between, co.between_ctx);
	pb_cmp_adjust(c, o->base, !co.no_correction);
	fprintf(f, "%spinbench: %s against %s\n\n", md ? "# " : "", c->groups[o->cur],
		c->groups[o->base]);
	if (o->noise)
		fprintf(f, "%s\n\n", o->noise);
	if (md)
		fputs("## Verdict\n\n", f);
	regressions = pb_changelog_verdicts(c, o, md, f);
	if (md) {
		fputs("\n## Tables\n\n", f);
		if (pb_cmp_report(c, &co, f, err, len) < 0)
			return -1;
		if (o->png)
			fprintf(f, "## Plot\n\n![%s against %s](%s)%s%s%s\n", c->groups[o->cur],
				c->groups[o->base], o->png, o->svg ? " ([SVG](" : "",
				o->svg ? o->svg : "", o->svg ? "))" : "");
	} else {
		pb_cmp_count_tests(c, o->base, &rank, &welch);
		if (rank && welch)	/* 72 columns */
			fputs("\nChange: with 5 or more runs a side, the Hodges-Lehmann ratio (the\n"
			      "median of the ratios of every pair of runs) with its 95 % interval\n"
			      "(Moses), tested by Mann-Whitney; with fewer, the ratio of the means\n"
			      "with its 95 % interval (Fieller), tested by Welch's t-test.\n", f);
		else if (rank)
			fputs("\nChange: the Hodges-Lehmann ratio (the median of the ratios of every\n"
			      "pair of runs) with its 95 % interval (Moses), tested by Mann-Whitney.\n",
			      f);
		else
			fputs("\nChange: the ratio of the means with its 95 % interval (Fieller),\n"
			      "tested by Welch's t-test.\n", f);
		fprintf(f, "%s; significant\nbelow 0.05 and beyond %.2g %%.\n",
			co.no_correction ? "p: the test's p, cell by cell" :
			"q: p adjusted over the report (Benjamini-Hochberg)", co.min_change);
		text_env(c, f);
		for (int i = 0; i < c->nr_tables; i++) {
			fputc('\n', f);
			text_table(c, &c->t[i], o, f);
		}
		text_anomalies(c, o, f);
	}
	reproduce(c, o, md, f);
	return regressions;
}
