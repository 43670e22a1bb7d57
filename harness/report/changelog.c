// SPDX-License-Identifier: GPL-2.0-only
/*
 * changelog.c - `pinbench report`: the comparison of two groups as a
 * changelog: a header as LKP's (each side's kernel, commit and dates, the
 * machine), each job's parameters and the job file, a compact table as
 * mmtests' compare-kernels (a row per cell and side: Min, Mean or Hmean,
 * Stddev, CoeffVar, Max, the change and its mark), the verdict lines,
 * environment differences, anomalies and the commands that reproduce the
 * runs, in Markdown or in 72 columns.
 *
 * One precision rule for every measured figure: a cell's Min, Mean, Stddev
 * and Max, both sides, in one form, its last digit the spread's first
 * significant one (lib/numfmt.h); percentages with two decimals.  Per-op
 * counter figures and percentiles are not tested and are left out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anomaly.h"
#include "lib/numfmt.h"
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

void pb_changelog_wrap(FILE *f, const char *s, const char *first, const char *rest, int width)
{
	wrap(f, s, first, rest, width);
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

/* A cell's words in a verdict line: "same-cpu +1.70 % [...], q=0.003, slower, resolves ±0.9 %" */
static void cell_words(const struct pb_table *t, const struct pb_eval *e,
		       const struct pb_changelog *o, char *buf, size_t len)
{
	char ch[160], q[300];

	pb_cmp_qualify(e, q, sizeof(q));
	if (!e->significant) {
		snprintf(buf, len, "%s %s", t->placement, q[0] ? q : "not significant");
		return;
	}
	pb_cmp_change_words(e, o->cmp->no_correction, ch, sizeof(ch));
	snprintf(buf, len, "%s %s, %s%s%s", t->placement, ch,
		 (e->change > 0) == t->higher ? "faster" : "slower",
		 q[0] ? (e->within ? "; " : ", ") : "", q);
}

/*
 * The verdict, a line per job ("pipe rtt: same-cpu +1.70 % [+0.90, +2.50],
 * q=0.003, slower, resolves ±0.9 %; same-core no change beyond ±1.2 %"),
 * the words of each cell compare_eval.c's; Markdown list items (md) or text
 * wrapped at PB_CHANGELOG_WIDTH.  pb_cmp_adjust() must have run.  Returns
 * the number of significant regressions.
 */
static int pb_changelog_verdicts(const struct pb_cmp *c, const struct pb_changelog *o, bool md,
				 FILE *f)
{
	bool *done = calloc(c->nr_tables ? c->nr_tables : 1, sizeof(*done));
	int regressions = 0;

	if (!done)
		return 0;
	for (int i = 0; i < c->nr_tables; i++) {
		char line[4096], words[600];
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
			cell_words(t, &e, o, words, sizeof(words));
			if (off < sizeof(line))
				off += (size_t)snprintf(line + off, sizeof(line) - off, "%s %s",
							said ? ";" : "", words);
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
				 within == said ? "all" : "some");
		if (md)
			fprintf(f, "- %s\n", line);
		else
			wrap(f, line, "  ", "    ", PB_CHANGELOG_WIDTH);
	}
	free(done);
	return regressions;
}

/* ---- the header: each side's kernel, commit, dates; the machine ---- */

/* The strings of array a joined with ", " after buf's text. */
static void join(json_t *a, char *buf, size_t len)
{
	size_t off = strlen(buf), i;
	json_t *v;

	json_array_foreach(a, i, v)
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
						json_string_value(v));
}

/*
 * The commit a kernel release names (scripts/setlocalversion's
 * "6.2.0-rc1-00012-gabcdef123456"): its hex digits into buf; false when
 * it names none.
 */
static bool release_commit(const char *rel, char *buf, size_t len)
{
	for (const char *g = rel ? strstr(rel, "-g") : NULL; g; g = strstr(g + 1, "-g")) {
		size_t n = strspn(g + 2, "0123456789abcdef");

		if (n >= 7 && (!g[2 + n] || strchr("-+", g[2 + n]))) {
			snprintf(buf, len, "%.*s", (int)n, g + 2);
			return true;
		}
	}
	return false;
}

/* "1 package, 2 cores, 2 PUs, Intel Xeon @ 2.80GHz, 24 GB" from a result's host object. */
static void machine_line(json_t *host, char *buf, size_t len)
{
	static const char *const keys[] = { "packages", "cores", "pus" };
	static const char *const words[] = { "package", "core", "PU" };
	const char *model = json_string_value(json_object_get(host, "cpu_model"));
	double mhz = json_number_value(json_object_get(host, "nominal_mhz"));
	double kb = json_number_value(json_object_get(host, "memory_kb"));
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < 3 && off < len; i++) {
		json_t *v = json_object_get(json_object_get(host, "topology"), keys[i]);
		long long n = json_integer_value(v);

		if (json_is_integer(v))
			off += (size_t)snprintf(buf + off, len - off, "%s%lld %s%s",
						off ? ", " : "", n, words[i], n == 1 ? "" : "s");
	}
	if (off < len && model && strcmp(model, "unknown"))
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", model);
	if (off < len && mhz > 0 && !(model && strchr(model, '@')))
		off += (size_t)snprintf(buf + off, len - off, " @ %.2fGHz", mhz / 1000);
	if (off < len && kb > 0)	/* MemTotal: what the kernel has, shown as LKP's "GB" */
		snprintf(buf + off, len - off, "%s%.0f GB", off ? ", " : "", kb / (1024.0 * 1024));
	if (!buf[0])
		snprintf(buf, len, "not recorded");
}

/* "2026-01-01 00:00 to 00:01 UTC" from the side's earliest start and latest end. */
static void dates(json_t *about, char *buf, size_t len)
{
	const char *a = json_string_value(json_object_get(about, "started"));
	const char *b = json_string_value(json_object_get(about, "finished"));

	if (!a || strlen(a) < 16) {
		snprintf(buf, len, "not recorded");
		return;
	}
	if (!b || strlen(b) < 16)
		snprintf(buf, len, "%.10s %.5s UTC, unfinished", a, a + 11);
	else if (!strncmp(a, b, 10))
		snprintf(buf, len, "%.10s %.5s to %.5s UTC", a, a + 11, b + 11);
	else
		snprintf(buf, len, "%.10s %.5s to %.10s %.5s UTC", a, a + 11, b, b + 11);
}

/* One "key: value" line of the header: a Markdown list item, or indented text. */
static void head_line(FILE *f, bool md, const char *key, const char *value)
{
	char line[1024];

	if (md) {
		fprintf(f, "- %s: %s\n", key, value);
		return;
	}
	snprintf(line, sizeof(line), "%s: %s", key, value);
	wrap(f, line, "  ", "    ", PB_CHANGELOG_WIDTH);
}

/* One side: its name, kernel (release, version), commit where the release names one, dates. */
static void side_head(const struct pb_cmp *c, int g, const char *role, bool md, FILE *f)
{
	json_t *about = c->about ? c->about[g] : NULL, *rel = json_object_get(about, "kernels");
	char buf[512] = "", commit[64];
	size_t i;
	json_t *v;

	fprintf(f, md ? "**%s**: %s\n\n" : "%s: %s\n", role, c->groups[g]);
	join(rel, buf, sizeof(buf));
	if (json_array_size(json_object_get(about, "versions"))) {
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (");
		join(json_object_get(about, "versions"), buf, sizeof(buf));
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ")");
	}
	head_line(f, md, "kernel", buf[0] ? buf : "not recorded");
	json_array_foreach(rel, i, v)
		if (release_commit(json_string_value(v), commit, sizeof(commit))) {
			snprintf(buf, sizeof(buf), "%s (from the release %s)", commit,
				 json_string_value(v));
			head_line(f, md, "commit", buf);
		}
	dates(about, buf, sizeof(buf));
	head_line(f, md, "date", buf);
	machine_line(json_object_get(about, "machine"), buf, sizeof(buf));
	head_line(f, md, "machine", buf);
	fputc('\n', f);
}

/* ---- the jobs: parameters, the job file ---- */

/* "bench=pipe poll=1 busy_poll=50": the job's keys but its placement. */
static void params_text(json_t *params, char *buf, size_t len)
{
	const char *k;
	size_t off = 0;
	json_t *v;

	buf[0] = 0;
	json_object_foreach(params, k, v)
		if (off < len && strcmp(k, "placement") && json_is_string(v))
			off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "",
						k, json_string_value(v));
}

static void job_params(const struct pb_cmp *c, bool md, FILE *f)
{
	char line[2048], keys[1800];

	fputs(md ? "## Jobs\n\n" : "Jobs:\n", f);
	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		bool seen = false;

		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(c->t[k].job, t->job);
		if (seen)
			continue;
		params_text(t->params, keys, sizeof(keys));
		if (md) {
			fprintf(f, "- **%s**: `%s`%s%s\n", t->job, keys, t->differs[0] ?
				"; differs: " : "", t->differs);
			continue;
		}
		if (snprintf(line, sizeof(line), "%s: %s%s%s", t->job, keys,
			     t->differs[0] ? "; differs: " : "", t->differs) >= (int)sizeof(line))
			strcpy(line + sizeof(line) - 4, "...");	/* cut, and said */
		wrap(f, line, "  ", "    ", PB_CHANGELOG_WIDTH);
	}
	fputc('\n', f);
}

/* A job file's text, as a Markdown code block or indented; true when recorded. */
static bool config_text(json_t *cfg, const char *whose, bool md, FILE *f)
{
	const char *path = json_string_value(json_object_get(cfg, "path"));
	const char *text = json_string_value(json_object_get(cfg, "text"));
	char line[1024];

	if (!text && md) {
		fprintf(f, "Job file `%s` (%s): its text is not in the result files.\n\n", path,
			whose);
		return false;
	}
	if (!text) {
		snprintf(line, sizeof(line), "Job file %s (%s): its text is not in the result "
			 "files.", path, whose);
		wrap(f, line, "", "  ", PB_CHANGELOG_WIDTH);
		return false;
	}
	/* indented: in Markdown too, a code block no line of the file can end */
	fprintf(f, md ? "Job file `%s` (%s):\n\n" : "Job file %s (%s):\n", path, whose);
	for (const char *l = text; *l; ) {
		size_t n = strcspn(l, "\n");

		fprintf(f, "%s%.*s\n", n ? "    " : "", (int)n, l);
		l += n + (l[n] == '\n');
	}
	fputs(md ? "\n" : "", f);
	return true;
}

/* Each side's job files: once when both sides ran the same. */
static void job_files(const struct pb_cmp *c, const struct pb_changelog *o, bool md, FILE *f)
{
	json_t *a = c->about ? json_object_get(c->about[o->base], "configs") : NULL;
	json_t *b = c->about ? json_object_get(c->about[o->cur], "configs") : NULL, *v;
	bool same = json_equal(a, b);
	char whose[300];
	size_t i;

	for (int k = 0; k < (same ? 1 : 2); k++) {
		snprintf(whose, sizeof(whose), "%s", same ? "both sides" :
			 c->groups[k ? o->cur : o->base]);
		json_array_foreach(k ? b : a, i, v)
			config_text(v, whose, md, f);
		if (!json_array_size(k ? b : a))
			fprintf(f, "%s: no job file recorded.\n%s", whose, md ? "\n" : "");
	}
	if (!md)
		fputc('\n', f);
}

/* ---- the compact table ---- */

static const char *unit_text(const char *unit)
{
	return !strcmp(unit, "us") ? "µs" : unit;
}

/* The two sides' summaries of t, false where a side has no values. */
struct side_sum {
	struct pb_summary	s;
	int			n;
	bool			ok;
};

static void sides_of(const struct pb_table *t, const struct pb_changelog *o,
		     struct side_sum sd[2], struct pb_numfmt *nf)
{
	const int groups[2] = { o->base, o->cur };

	*nf = (struct pb_numfmt)PB_NUMFMT_NONE;
	for (int k = 0; k < 2; k++) {
		const struct pb_cell *cell = pb_cmp_cell(t, groups[k]);
		const double *v;
		struct pb_numfmt one;

		sd[k].ok = cell && cell->n;
		if (!sd[k].ok)
			continue;
		sd[k].n = pb_cmp_values(t, cell, &v);
		sd[k].ok = !pb_summarize(v, sd[k].n, t->rate, &sd[k].s);
		if (!sd[k].ok)
			continue;
		pb_numfmt_pick(&one, sd[k].s.mean, sd[k].s.stddev);
		pb_numfmt_join(nf, &one);
	}
}

/* "+3.92% *": the change and its mark; "" on the baseline or when not judged. */
static void change_mark(const struct pb_eval *e, bool judged, char *buf, size_t len)
{
	if (!judged || isnan(e->change))
		snprintf(buf, len, "%s", judged ? "n/a" : "");
	else
		snprintf(buf, len, "%+.2f%%%s", e->change, !e->significant ? "" :
			 e->within ? " w" : " *");
}

/* A side's row: md a table row, else 72 columns. */
static void side_row(const char *pl, const char *side,
		     const struct side_sum *sd, const struct pb_numfmt *nf, double scale,
		     const char *change, bool md, FILE *f)
{
	char mn[PB_NUM_LEN], me[PB_NUM_LEN], s[PB_NUM_LEN], mx[PB_NUM_LEN], cv[32];

	pb_numfmt_str(nf, sd->s.min / scale, NULL, mn, sizeof(mn));
	pb_numfmt_str(nf, sd->s.mean / scale, NULL, me, sizeof(me));
	pb_numfmt_str(nf, sd->s.stddev / scale, NULL, s, sizeof(s));
	pb_numfmt_str(nf, sd->s.max / scale, NULL, mx, sizeof(mx));
	snprintf(cv, sizeof(cv), "%.2f%%", sd->s.cv * 100);
	if (md) {
		fputc('|', f);
		pb_cmp_md_cell(f, pl);
		pb_cmp_md_cell(f, side);
		fprintf(f, " %d | %s | %s | %s | %s | %s | %s |\n", sd->n, mn, me, s, cv, mx,
			change);
	} else
		fprintf(f, "    %-5s %3d %9s %9s %9s %8s %9s%s%s\n", side, sd->n, mn, me, s, cv,
			mx, change[0] ? " " : "", change);
}

/* A side without values: its status and why. */
static void side_missing(const struct pb_table *t, const char *side, int g, bool md, FILE *f)
{
	const struct pb_cell *cell = pb_cmp_cell(t, g);
	char why[200];

	snprintf(why, sizeof(why), "%s%s%s", cell ? cell->status : "missing",
		 cell && cell->reason[0] ? ": " : "", cell ? cell->reason : "");
	if (md) {
		fputc('|', f);
		pb_cmp_md_cell(f, t->placement);
		pb_cmp_md_cell(f, side);
		fputs(" 0 |", f);
		pb_cmp_md_cell(f, why);
		fputs(" | | | | |\n", f);
	} else
		fprintf(f, "    %-5s   0 %.60s\n", side, why);
}

/* The scale of a job's figures (ns shown as µs or ms) from its largest mean. */
static double job_scale(const struct pb_cmp *c, int i, const struct pb_changelog *o,
			const char **unit)
{
	double big = 0;

	*unit = unit_text(c->t[i].unit);
	for (int k = i; k < c->nr_tables; k++) {
		struct side_sum sd[2];
		struct pb_numfmt nf;

		if (!same_job(&c->t[i], &c->t[k]))
			continue;
		sides_of(&c->t[k], o, sd, &nf);
		for (int s = 0; s < 2; s++)
			if (sd[s].ok && fabs(sd[s].s.mean) > big)
				big = fabs(sd[s].s.mean);
	}
	return pb_num_time_scale(big, unit);
}

/* The rows of one cell, both sides. */
static void cell_rows(const struct pb_cmp *c, const struct pb_table *t,
		      const struct pb_changelog *o, double scale, bool md, FILE *f)
{
	const int groups[2] = { o->base, o->cur };
	struct side_sum sd[2];
	struct pb_numfmt nf;
	struct pb_eval e;
	bool judged = judge(c, t, o, &e);
	char change[48];

	sides_of(t, o, sd, &nf);
	if (!md)
		fprintf(f, "  %s\n", t->placement);
	for (int k = 0; k < 2; k++) {
		const char *side = md ? c->groups[groups[k]] : k ? "new" : "base";

		change_mark(&e, judged && k, change, sizeof(change));
		if (sd[k].ok)
			side_row(t->placement, side, &sd[k], &nf, scale, change, md, f);
		else
			side_missing(t, side, groups[k], md, f);
	}
}

/* The job's title and column heads. */
static void table_head(const struct pb_table *t, const char *unit, bool md, FILE *f)
{
	const char *mean = t->rate ? "Hmean" : "Mean";

	if (md) {
		fprintf(f, "**%s** %s, %s, %s is better\n\n", t->job, t->metric, unit,
			t->higher ? "higher" : "lower");
		fprintf(f, "| Placement | Side | n | Min | %s | Stddev | CoeffVar | Max "
			"| Change |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n", mean);
		return;
	}
	fprintf(f, "%s %s, %s, %s is better\n", t->job, t->metric, unit,
		t->higher ? "higher" : "lower");
	fprintf(f, "          %3s %9s %9s %9s %8s %9s %s\n", "n", "Min", mean, "Stddev",
		"CoeffVar", "Max", "Change");
}

/* A table per job, a row per cell and side; the legend after. */
static void compact_tables(const struct pb_cmp *c, const struct pb_changelog *o, bool md,
			   FILE *f)
{
	char legend[1024];
	bool repeats = false;

	fputs(md ? "## Results\n\n" : "Results:\n\n", f);
	for (int i = 0; i < c->nr_tables; i++) {
		const char *unit;
		double scale;
		bool first = true;

		for (int k = 0; k < i && first; k++)
			first = !same_job(&c->t[k], &c->t[i]);
		if (!first)
			continue;
		scale = job_scale(c, i, o, &unit);
		table_head(&c->t[i], unit, md, f);
		for (int k = i; k < c->nr_tables; k++)
			if (same_job(&c->t[i], &c->t[k])) {
				cell_rows(c, &c->t[k], o, scale, md, f);
				repeats |= !pb_cmp_between(&c->t[k]);
			}
		fputc('\n', f);
	}
	snprintf(legend, sizeof(legend), "n: the runs of a side%s; Change: %s against %s, "
		 "* significant, w significant within one boot only (the verdict says more). "
		 "Per-op counter figures and latency percentiles are not tested and are left "
		 "out: pinbench compare and the result files have them.",
		 repeats ? " (the repeats of its run where a side has one run)" : "",
		 c->groups[o->cur], c->groups[o->base]);
	if (md)
		fprintf(f, "%s\n\n", legend);
	else
		wrap(f, legend, "", "", PB_CHANGELOG_WIDTH);
	fputs(md ? "" : "\n", f);
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
static void text_anomalies(const struct pb_cmp *c, const struct pb_changelog *o, bool md,
			   FILE *f)
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
		fputs(md ? "## Anomalies\n\nMarks of pinbench run (pinbench-marks(7)):\n\n" :
		      "\nAnomalies (marks of pinbench run; pinbench-marks(7)):\n", f);
	for (int q = 0; q < nk; q++) {
		const char *sym = pb_anomaly_mark(kinds[q]);

		snprintf(line, sizeof(line), "%s %s:", sym && *sym ? sym : "?", kinds[q]);
		example[0] = 0;
		kind_cells(c, o, kinds[q], line, sizeof(line), example, sizeof(example));
		if (md) {
			fprintf(f, "- %s%s%s%s\n", line, example[0] ? " (e.g. " : "",
				example[0] ? example : "", example[0] ? ")" : "");
			continue;
		}
		wrap(f, line, "  ", "    ", PB_CHANGELOG_WIDTH);
		if (example[0]) {
			snprintf(line, sizeof(line), "e.g. %s", example);
			wrap(f, line, "    ", "      ", PB_CHANGELOG_WIDTH);
		}
	}
}

/* Where each job file a side's commands read is: inline above, or not recorded. */
static void config_note(json_t *about, bool md, FILE *f)
{
	char line[1024];
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(about, "configs"), i, v) {
		const char *path = json_string_value(json_object_get(v, "path"));

		snprintf(line, sizeof(line), json_is_string(json_object_get(v, "text")) ?
			 "%s: the job file is under Jobs above, as the runs read it" :
			 "%s: the job file is not in the result files; the parameters under "
			 "Jobs are what the runs used", path);
		if (md)
			fprintf(f, "%s.\n\n", line);
		else
			wrap(f, line, "    ", "      ", PB_CHANGELOG_WIDTH);
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
		config_note(c->about ? c->about[groups[k]] : NULL, md, f);
	}
}

static void text_env(const struct pb_cmp *c, bool md, FILE *f)
{
	json_t *diffs = pb_cmp_env_diffs(c), *d;
	size_t i;

	if (json_array_size(diffs))
		fputs(md ? "## Environment differences\n\n" : "\nEnvironment differences:\n", f);
	if (md)
		pb_cmp_env_print(f, diffs, true);
	json_array_foreach(diffs, i, d) {
		const char *m = json_string_value(json_object_get(d, "message"));

		if (m && !md)
			wrap(f, m, "  ", "    ", PB_CHANGELOG_WIDTH);
	}
	json_decref(diffs);
}

/* How a change is tested, and what significant means. */
/*
 * The level the new side's verdicts rest on, said for every tested cell
 * (a changed cell says it beside its change; an inconclusive or
 * unchanged one otherwise would not): "Judged: 2 cells at the boot
 * level (2 boots a side or more); 1 within one boot a side."
 */
static void levels_said(struct pb_cmp *c, const struct pb_changelog *o, char *buf, size_t len)
{
	int boot = 0, widened = 0, within = 0, least = 0;
	size_t n;

	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		const struct pb_cell *cell = pb_cmp_cell(t, o->cur);
		struct pb_eval e;
		int b;

		if (!cell)
			continue;
		pb_cmp_eval(t, cell, pb_cmp_base(c, t, o->base), o->cmp->min_change, &e);
		if (!e.test || e.not_judged[0])
			continue;
		b = e.lv.boots < e.base_lv.boots ? e.lv.boots : e.base_lv.boots;
		if (e.within)
			within++;
		else if (e.widened)
			widened++;
		else if (boot++ == 0 || b < least)
			least = b;
	}
	buf[0] = 0;
	if (!boot && !widened && !within)
		return;
	n = snprintf(buf, len, " Judged:");
	if (boot && n < len)
		n += snprintf(buf + n, len - n, " %d cell%s at the boot level (%d boots a side or "
			      "more)%s", boot, boot == 1 ? "" : "s", least,
			      widened || within ? ";" : ".");
	if (widened && n < len)
		n += snprintf(buf + n, len - n, " %d at the boot level by the noise profile's "
			      "variation between boots%s", widened, within ? ";" : ".");
	if (within && n < len)
		snprintf(buf + n, len - n, " %d within one boot a side (a kernel is replicated "
			 "only by booting it again: boot each twice or more, or give a noise "
			 "profile).", within);
}

static void method(struct pb_cmp *c, const struct pb_changelog *o, bool md, FILE *f)
{
	int rank, welch;
	char text[1024], lv[400];

	pb_cmp_count_tests(c, o->base, &rank, &welch);
	levels_said(c, o, lv, sizeof(lv));
	snprintf(text, sizeof(text), "Change: %s; %s; significant below 0.05 and beyond %.2g %%.%s",
		 rank && welch ? "with 5 or more runs a side, the Hodges-Lehmann ratio (the "
		 "median of the ratios of every pair of runs) with its 95 % interval (Moses), "
		 "tested by Mann-Whitney; with fewer, the ratio of the means with its 95 % "
		 "interval (Fieller), tested by Welch's t-test" : rank ? "the Hodges-Lehmann "
		 "ratio (the median of the ratios of every pair of runs) with its 95 % interval "
		 "(Moses), tested by Mann-Whitney" : "the ratio of the means with its 95 % "
		 "interval (Fieller), tested by Welch's t-test",
		 o->cmp->no_correction ? "p: the test's p, cell by cell" :
		 "q: p adjusted over the report (Benjamini-Hochberg)", o->cmp->min_change, lv);
	if (md)
		fprintf(f, "\n%s\n\n", text);
	else {
		fputc('\n', f);
		wrap(f, text, "", "", PB_CHANGELOG_WIDTH);
	}
}

int pb_changelog_write(struct pb_cmp *c, const struct pb_changelog *o, bool md, FILE *f,
		       char *err, size_t len)
{
	int regressions;

	(void)err;
	(void)len;
	pb_cmp_ask_between(c, o->cmp->between, o->cmp->between_ctx);
	pb_cmp_adjust(c, o->base, !o->cmp->no_correction);
	fprintf(f, "%spinbench: %s against %s\n\n", md ? "# " : "", c->groups[o->cur],
		c->groups[o->base]);
	if (o->noise)
		fprintf(f, "%s\n\n", o->noise);
	if (md)
		fputs("## Kernels\n\n", f);
	side_head(c, o->base, "baseline", md, f);
	side_head(c, o->cur, "new", md, f);
	job_params(c, md, f);
	job_files(c, o, md, f);
	compact_tables(c, o, md, f);
	fputs(md ? "## Verdict\n\n" : "Verdict:\n", f);
	regressions = pb_changelog_verdicts(c, o, md, f);
	method(c, o, md, f);
	pb_changelog_profiles(c, o, md, f);
	text_env(c, md, f);
	text_anomalies(c, o, md, f);
	if (md && o->png)
		fprintf(f, "%s## Plot\n\n![%s against %s](%s)%s%s%s\n", md ? "\n" : "",
			c->groups[o->cur], c->groups[o->base], o->png, o->svg ? " ([SVG](" : "",
			o->svg ? o->svg : "", o->svg ? "))" : "");
	reproduce(c, o, md, f);
	return regressions;
}
