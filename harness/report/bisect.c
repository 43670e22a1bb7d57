// SPDX-License-Identifier: GPL-2.0-only
/*
 * bisect.c - the verdict of `pinbench bisect-check`: each cell's call
 * from compare's own evaluations (the gap bad against good, the new run
 * against each side), the calls combined into git bisect run's exit code,
 * and the one line that says why.  No I/O: the results are loaded and the
 * line printed by cli/cmd_bisect.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/bisect.h"
#include "report/compare.h"

/* Is x on the side of zero that the gap g is? */
static bool towards(double x, double g)
{
	return (x > 0) == (g > 0);
}

static bool finding(const struct pb_bisect_cell *c)
{
	return c->finding[0] || c->gap.not_judged[0] || c->good.not_judged[0] ||
	       c->bad.not_judged[0];
}

enum pb_bisect_call pb_bisect_call(const struct pb_bisect_cell *c)
{
	bool dg = c->good.significant, db = c->bad.significant;
	bool to_bad = towards(c->good.change, c->gap.change);
	bool to_good = !towards(c->bad.change, c->gap.change);

	if (c->failed)
		return PB_CALL_FAILED;
	if (finding(c))
		return PB_CALL_FINDING;
	if (!c->gap.significant)
		return PB_CALL_NO_GAP;
	if (dg && db)
		return to_bad && to_good ? PB_CALL_BETWEEN : PB_CALL_BOTH;
	if (db)
		return to_good ? PB_CALL_GOOD : PB_CALL_OUTSIDE;
	if (dg)
		return to_bad ? PB_CALL_BAD : PB_CALL_OUTSIDE;
	return PB_CALL_NEITHER;
}

static void decided(struct pb_bisect_verdict *r, int exit, int cell, enum pb_bisect_call call)
{
	r->exit = exit;
	r->cell = cell;
	r->call = call;
}

void pb_bisect_rule(const struct pb_bisect_cell *v, int n, struct pb_bisect_verdict *r)
{
	int bad = -1, good = -1, other = -1;

	decided(r, PB_BISECT_SKIP, n > 0 ? 0 : -1, PB_CALL_NO_GAP);
	r->judged = 0;
	for (int i = 0; i < n; i++) {
		enum pb_bisect_call c = pb_bisect_call(&v[i]);

		if (c == PB_CALL_FAILED) {
			decided(r, PB_BISECT_SKIP, i, c);
			return;
		}
		if (c == PB_CALL_NO_GAP)
			continue;
		r->judged++;
		if (c == PB_CALL_BAD && bad < 0)
			bad = i;
		else if (c == PB_CALL_GOOD && good < 0)
			good = i;
		else if (c != PB_CALL_GOOD && c != PB_CALL_BAD && other < 0)
			other = i;
	}
	if (!r->judged)
		return;
	if (bad >= 0)
		decided(r, PB_BISECT_BAD, bad, PB_CALL_BAD);
	else if (other < 0)
		decided(r, PB_BISECT_GOOD, good, PB_CALL_GOOD);
	else
		decided(r, PB_BISECT_SKIP, other, pb_bisect_call(&v[other]));
}

/* "+11.8 % [+9.1, +14.5]"; "+0.4 % (untested)" */
static void figure(const struct pb_eval *e, char *buf, size_t len)
{
	if (isnan(e->change))
		snprintf(buf, len, "no figure");
	else if (isnan(e->ci_lo))
		snprintf(buf, len, "%+.1f %% (untested)", e->change);
	else if (isinf(e->ci_hi))
		snprintf(buf, len, "%+.1f %% [%+.1f, +inf]", e->change, e->ci_lo);
	else
		snprintf(buf, len, "%+.1f %% [%+.1f, %+.1f]", e->change, e->ci_lo, e->ci_hi);
}

/* The level a verdict rests on, short: "boot level", "boot level by the noise profile"... */
static const char *level(const struct pb_eval *e)
{
	if (e->within)
		return "within one boot";
	if (e->widened)
		return e->stands_in ? "boot level by the noise profile's invocations" :
		       "boot level by the noise profile";
	return "boot level";
}

static const char *const call_words[] = {
	[PB_CALL_GOOD]		= "good",
	[PB_CALL_BAD]		= "bad",
	[PB_CALL_BETWEEN]	= "cannot tell: between good and bad",
	[PB_CALL_BOTH]		= "cannot tell: differs from both good and bad",
	[PB_CALL_NEITHER]	= "cannot tell: resolves neither good nor bad",
	[PB_CALL_OUTSIDE]	= "cannot tell: differs from one side, away from the other",
};

/* The gap not resolved: its figure, resolution and level. */
static void gap_words(const struct pb_bisect_cell *c, char *buf, size_t len)
{
	char g[96], res[48];

	figure(&c->gap, g, sizeof(g));
	if (isnan(c->gap.mde))
		snprintf(res, sizeof(res), "untested");
	else
		snprintf(res, sizeof(res), "resolves ±%.1f %%", c->gap.mde);
	snprintf(buf, len, "cannot tell: good and bad do not differ resolvably here (gap %s, "
		 "%s, %s) (%s)", g, res, level(&c->gap), c->name);
}

void pb_bisect_words(const struct pb_bisect_cell *v, const struct pb_bisect_verdict *r,
		     char *buf, size_t len)
{
	const struct pb_bisect_cell *c = r->cell >= 0 ? &v[r->cell] : NULL;
	char g[96], b[96], all[48] = "";

	if (!c) {
		snprintf(buf, len, "cannot tell: no job and placement in both good and bad");
	} else if (r->call == PB_CALL_NO_GAP) {
		gap_words(c, buf, len);
	} else if (r->call == PB_CALL_FAILED) {
		snprintf(buf, len, "cannot tell: a job failed (%s: %s)", c->name, c->status);
	} else if (r->call == PB_CALL_FINDING) {
		snprintf(buf, len, "cannot tell: an error finding (%s) (%s)", c->finding[0] ?
			 c->finding : c->gap.not_judged[0] ? c->gap.not_judged :
			 c->good.not_judged[0] ? c->good.not_judged : c->bad.not_judged,
			 c->name);
	} else {
		figure(&c->good, g, sizeof(g));
		figure(&c->bad, b, sizeof(b));
		if (r->exit == PB_BISECT_GOOD && r->judged > 1)
			snprintf(all, sizeof(all), "; all %d judged cells good", r->judged);
		snprintf(buf, len, "%s: %s from good, %s from bad (%s; gap %+.1f %%; %s%s)",
			 call_words[r->call], g, b, c->name, c->gap.change, level(&c->good), all);
	}
}

/* cell against base in a table of the two alone: compare of those two groups. */
static void eval_pair(const struct pb_table *t, const struct pb_cell *cell,
		      const struct pb_cell *base, double min_change, struct pb_eval *e)
{
	struct pb_cell two[2] = { *base, *cell };
	struct pb_table tv = *t;

	two[0].adjusted = two[1].adjusted = false;	/* each cell on its own p */
	tv.cells = two;
	tv.nr_cells = 2;
	pb_cmp_eval(&tv, &two[1], &two[0], min_change, e);
	if (e->source)
		e->source = t->between.source;
}

/* The first error finding of the three sides: "KIND in SIDE", or "". */
static void finding_of(const struct pb_cell *const side[3], char *buf, size_t len)
{
	static const char *const names[3] = { "good", "bad", "the new run" };

	buf[0] = 0;
	for (int i = 0; i < 3; i++) {
		const char *k = pb_cmp_error_kind(side[i]);

		if (k) {
			snprintf(buf, len, "%s in %s", k, names[i]);
			return;
		}
	}
}

static void cell_of(const struct pb_table *t, const struct pb_cell *const side[3],
		    double min_change, struct pb_bisect_cell *bc)
{
	snprintf(bc->name, sizeof(bc->name), "%s %s %s", t->job, t->metric, t->placement);
	bc->failed = !side[2]->n;
	snprintf(bc->status, sizeof(bc->status), "%s", side[2]->status);
	finding_of(side, bc->finding, sizeof(bc->finding));
	eval_pair(t, side[1], side[0], min_change, &bc->gap);
	eval_pair(t, side[2], side[0], min_change, &bc->good);
	eval_pair(t, side[2], side[1], min_change, &bc->bad);
}

int pb_bisect_cells(const struct pb_cmp *c, int good, int bad, int new_group,
		    double min_change, struct pb_bisect_cell **out)
{
	struct pb_bisect_cell *v = calloc((size_t)(c->nr_tables ? c->nr_tables : 1), sizeof(*v));
	int n = 0;

	if (!v)
		return -1;
	for (int i = 0; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];
		const struct pb_cell *side[3] = { pb_cmp_cell(t, good), pb_cmp_cell(t, bad),
						  pb_cmp_cell(t, new_group) };

		if (side[0] && side[0]->n && side[1] && side[1]->n && side[2])
			cell_of(t, side, min_change, &v[n++]);
	}
	*out = v;
	return n;
}
