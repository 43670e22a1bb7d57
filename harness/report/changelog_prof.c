// SPDX-License-Identifier: GPL-2.0-only
/*
 * changelog_prof.c - the report's "Where the change went": for each
 * significant cell whose both sides carry profile passes (profile=on),
 * per role the change of its time per op and the five functions whose own
 * time per op changed most (compare_prof.c's figures), the event, and for
 * a software event where interrupts-off time lands; each (cell, role) a
 * differential flame graph (flame.c) handed to the caller to save.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/changelog.h"
#include "report/flame.h"

#define TOP	5	/* functions per role */
#define FN_W	23	/* the function's columns in the text form */

/* Table k's cell, both sides profiled and the change significant. */
static bool explained(const struct pb_cmp *c, const struct pb_changelog *o, int k)
{
	const struct pb_table *t = &c->t[k];
	const struct pb_cell *b = pb_cmp_cell(t, o->base), *n = pb_cmp_cell(t, o->cur);
	struct pb_eval e;

	if (!b || !n || !b->n || !n->n || !b->prof || !n->prof)
		return false;
	pb_cmp_eval(t, n, b, o->cmp->min_change, &e);
	return e.has_base && e.significant;
}

/* Whether table k is the first of its job x placement explained (one profile each). */
static bool first_explained(const struct pb_cmp *c, const struct pb_changelog *o, int k)
{
	if (!explained(c, o, k))
		return false;
	for (int j = 0; j < k; j++)
		if (!strcmp(c->t[j].job, c->t[k].job) &&
		    !strcmp(c->t[j].placement, c->t[k].placement) && explained(c, o, j))
			return false;
	return true;
}

/* A (cell, role)'s flame graph file name: "flame-JOB-PLACEMENT-ROLE.svg". */
static void flame_name(const struct pb_table *t, const char *role, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "flame-%s-%s-%s.svg", t->job, t->placement, role);
	for (i = 0; buf[i]; i++)
		if (!strchr("._+-", buf[i]) && !(buf[i] >= '0' && buf[i] <= '9') &&
		    !(buf[i] >= 'a' && buf[i] <= 'z') && !(buf[i] >= 'A' && buf[i] <= 'Z'))
			buf[i] = '_';
}

static void ns_words(double ns, bool sign, char *buf, size_t len)
{
	if (fabs(ns) >= 1000)
		snprintf(buf, len, sign ? "%+.2f µs" : "%.2f µs", ns / 1e3);
	else
		snprintf(buf, len, sign ? "%+.0f ns" : "%.0f ns", ns);
}

/* "+180 ns ± 10 ns" */
static void change_words(const struct pb_prof_row *r, char *buf, size_t len)
{
	char chg[32], err[32];

	ns_words(r->change, true, chg, sizeof(chg));
	ns_words(r->err, false, err, sizeof(err));
	snprintf(buf, len, "%s ± %s", chg, err);
}

/* s right-aligned in width columns (UTF-8: a column per character). */
static void right(FILE *f, const char *s, int width)
{
	int cols = 0;

	for (const char *p = s; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	fprintf(f, "%*s%s", width > cols ? width - cols : 0, "", s);
}

static void fn_row(const struct pb_prof_row *r, bool md, FILE *f)
{
	char b[32], n[32], chg[80];

	ns_words(r->base, false, b, sizeof(b));
	ns_words(r->cur, false, n, sizeof(n));
	change_words(r, chg, sizeof(chg));
	if (md) {
		fprintf(f, "| `%s` | %s | %s | %s |\n", r->fn, b, n, chg);
		return;
	}
	if (strlen(r->fn) > FN_W)
		fprintf(f, "    %.*s..", FN_W - 2, r->fn);
	else
		fprintf(f, "    %-*s", FN_W, r->fn);
	fputc(' ', f);	/* a blank between columns however wide a figure */
	right(f, b, 9);
	fputs(" → ", f);
	right(f, n, 9);
	fputc(' ', f);
	right(f, chg, 20);
	fputc('\n', f);
}

static void role_part(const struct pb_cmp *c, const struct pb_changelog *o, int k,
		      const char *role, bool md, FILE *f)
{
	const struct pb_table *t = &c->t[k];
	const struct pb_cell *b = pb_cmp_cell(t, o->base), *n = pb_cmp_cell(t, o->cur);
	const char *event = json_string_value(json_object_get(n->prof, "event"));
	struct pb_prof_row rows[TOP], total;
	char line[1024], chg[80], bt[32], nt[32], name[256];
	int nr = pb_cmp_prof_top(b, n, role, rows, TOP, &total);

	if (!nr)
		return;
	change_words(&total, chg, sizeof(chg));
	ns_words(total.base, false, bt, sizeof(bt));
	ns_words(total.cur, false, nt, sizeof(nt));
	flame_name(t, role, name, sizeof(name));
	snprintf(line, sizeof(line), "%s%s %s%s, %s: %s per op (%s → %s, %s%s%s%s). The "
		 "functions whose own time per op changed most:", md ? "**" : "", t->job,
		 t->placement, md ? "**" : "", role, chg, bt, nt,
		 event ? event : "event not recorded", md && o->flames ? "; [flame graph](" : "",
		 md && o->flames ? name : "", md && o->flames ? ")" : "");
	if (md) {
		fprintf(f, "%s\n\n| Function | base | new | Change |\n|---|--:|--:|--:|\n", line);
	} else {
		pb_changelog_wrap(f, line, "  ", "  ", PB_CHANGELOG_WIDTH);
	}
	for (int i = 0; i < nr; i++)
		fn_row(&rows[i], md, f);
	fputc('\n', f);
}

/* How much slower each side's profiled windows ran than its metric's repeats. */
static void slower_part(const struct pb_cmp *c, const struct pb_changelog *o, int k, bool md,
			FILE *f)
{
	const struct pb_table *t = &c->t[k];
	char words[400], line[600];

	pb_cmp_prof_slower_words(pb_cmp_cell(t, o->base), pb_cmp_cell(t, o->cur),
				 c->groups[o->base], c->groups[o->cur], words, sizeof(words));
	if (!*words)
		return;
	snprintf(line, sizeof(line), "%s%s %s%s: %s.", md ? "*" : "", t->job, t->placement,
		 md ? "*" : "", words);
	if (md)
		fprintf(f, "%s\n\n", line);
	else {
		pb_changelog_wrap(f, line, "  ", "  ", PB_CHANGELOG_WIDTH);
		fputc('\n', f);
	}
}

/* "6.2.0-rc1 (6.2.0-rc1-00012-g1a2b3c4d5e6f)": a side's name and kernels */
static void side_words(const struct pb_cmp *c, int g, char *buf, size_t len)
{
	json_t *rel = json_object_get(c->about ? c->about[g] : NULL, "kernels"), *v;
	size_t off = (size_t)snprintf(buf, len, "%s", c->groups[g]), i;

	json_array_foreach(rel, i, v)
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : " (",
						json_string_value(v));
	if (json_array_size(rel) && off < len)
		snprintf(buf + off, len - off, ")");
}

static int one_flame(const struct pb_cmp *c, const struct pb_changelog *o,
		     const struct pb_table *t, const char *role,
		     int (*put)(const char *name, const char *svg, void *ctx), void *ctx)
{
	const struct pb_cell *b = pb_cmp_cell(t, o->base), *n = pb_cmp_cell(t, o->cur);
	char what[400], bw[300], nw[300], name[256];
	struct pb_flame fl = { .what = what, .base = bw, .cur = nw };
	char *svg;
	int rc;

	snprintf(what, sizeof(what), "%s %s, %s", t->job, t->placement, role);
	side_words(c, o->base, bw, sizeof(bw));
	side_words(c, o->cur, nw, sizeof(nw));
	fl.event = json_string_value(json_object_get(n->prof, "event"));
	fl.base_stacks = pb_cmp_prof_stacks(b, role);
	fl.cur_stacks = pb_cmp_prof_stacks(n, role);
	svg = fl.base_stacks && fl.cur_stacks ? pb_flame_svg(&fl) : NULL;
	json_decref(fl.base_stacks);
	json_decref(fl.cur_stacks);
	if (!svg)
		return -1;
	flame_name(t, role, name, sizeof(name));
	rc = put(name, svg, ctx);
	free(svg);
	return rc;
}

void pb_changelog_profiles(const struct pb_cmp *c, const struct pb_changelog *o, bool md,
			   FILE *f)
{
	bool said = false, soft = false;
	const char *role;
	char legend[1024];

	for (int k = 0; k < c->nr_tables; k++) {
		const struct pb_cell *b = pb_cmp_cell(&c->t[k], o->base);
		const char *ev;

		if (!first_explained(c, o, k))
			continue;
		if (!said)
			fputs(md ? "## Where the change went\n\n" : "Where the change went:\n\n", f);
		said = true;
		ev = json_string_value(json_object_get(pb_cmp_cell(&c->t[k], o->cur)->prof,
						       "event"));
		soft |= ev && (!strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock"));
		for (int i = 0; (role = pb_cmp_prof_role(b, i)); i++)
			role_part(c, o, k, role, md, f);
		slower_part(c, o, k, md, f);
	}
	if (!said)
		return;
	snprintf(legend, sizeof(legend), "From the profile passes (profile=on): a function's "
		 "own time per op is its samples as the stack's leaf, converted by the role's "
		 "task-clock (less what its samples cost) and ops in the same window, the mean "
		 "over a side's runs; ± the sampling error of the counts (Poisson).%s", soft ? " cpu-clock is a software "
		 "event: time in interrupts-off regions is charged where interrupts are "
		 "re-enabled, not where it was spent." : "");
	if (md)
		fprintf(f, "%s\n\n", legend);
	else
		pb_changelog_wrap(f, legend, "", "", PB_CHANGELOG_WIDTH);
}

int pb_changelog_flames(struct pb_cmp *c, const struct pb_changelog *o,
			int (*put)(const char *name, const char *svg, void *ctx), void *ctx)
{
	const char *role;
	int rc = 0;

	pb_cmp_ask_between(c, o->cmp->between, o->cmp->between_ctx);
	pb_cmp_adjust(c, o->base, !o->cmp->no_correction);
	for (int k = 0; k < c->nr_tables && !rc; k++) {
		const struct pb_table *t = &c->t[k];
		const struct pb_cell *b = pb_cmp_cell(t, o->base);

		if (!first_explained(c, o, k))
			continue;
		for (int i = 0; !rc && (role = pb_cmp_prof_role(b, i)); i++)
			rc = one_flame(c, o, t, role, put, ctx);
	}
	return rc;
}
