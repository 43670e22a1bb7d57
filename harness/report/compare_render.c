// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_render.c - a comparison as text, markdown, csv or JSON: one table per job x
 * placement with a row per group, the change and its significance,
 * anomaly marks and their legend, per-op counter figures side by side.
 * The options and exit code of `pinbench compare` are cli/cmd_compare.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "lib/anomaly.h"
#include "lib/numfmt.h"
#include "report/compare.h"
#include "lib/schema.h"
#include "lib/util.h"
#include "stats/stats.h"

/* ---- text grids (text and markdown tables) ---- */

#define GRID_COLS	16

struct grid {
	int	ncols;
	char	*head[GRID_COLS];
	bool	right[GRID_COLS];
	char	**cell;		/* nrows * ncols */
	int	nrows, cap;
	bool	oom;
};

/* Display width of UTF-8 text: code points. */
static int u8width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static void grid_col(struct grid *g, const char *head, bool right)
{
	if (g->ncols >= GRID_COLS)
		return;
	g->head[g->ncols] = strdup(head);
	g->oom |= !g->head[g->ncols];
	g->right[g->ncols++] = right;
}

/* Start a row; its cells are NULL (printed empty) until set. */
static char **grid_row(struct grid *g)
{
	char **c = pb_grow(g->cell, g->nrows * g->ncols, &g->cap, sizeof(*c));
	int i;

	while (c && g->cap < (g->nrows + 1) * g->ncols) {
		g->cell = c;
		c = pb_grow(g->cell, g->cap, &g->cap, sizeof(*c));
	}
	if (!c) {
		g->oom = true;
		return NULL;
	}
	g->cell = c;
	for (i = 0; i < g->ncols; i++)
		c[g->nrows * g->ncols + i] = NULL;
	return &c[g->nrows++ * g->ncols];
}

static void grid_free(struct grid *g)
{
	int i;

	for (i = 0; i < g->ncols; i++)
		free(g->head[i]);
	for (i = 0; i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	free(g->cell);
	memset(g, 0, sizeof(*g));
}

static void grid_widths(const struct grid *g, int *w)
{
	int i, j, x;

	for (j = 0; j < g->ncols; j++) {
		w[j] = u8width(g->head[j]);
		for (i = 0; i < g->nrows; i++) {
			const char *s = g->cell[i * g->ncols + j];

			x = s ? u8width(s) : 0;
			w[j] = x > w[j] ? x : w[j];
		}
	}
}

/* The longest line the text form of g would print. */
static int grid_width(const struct grid *g)
{
	int w[GRID_COLS], j, sum = 0;

	grid_widths(g, w);
	for (j = 0; j < g->ncols; j++)
		sum += w[j] + (j ? 2 : 0);
	return sum;
}

static void put_cell(FILE *f, const char *s, int width, bool right, bool last)
{
	int pad = width - u8width(s ? s : "");

	if (right)
		fprintf(f, "%*s", pad > 0 ? pad : 0, "");
	fputs(s ? s : "", f);
	if (!right && !last)
		fprintf(f, "%*s", pad > 0 ? pad : 0, "");
}

/* One text line, cut at PB_CMP_WIDTH characters as a last resort. */
static void grid_line(FILE *f, const struct grid *g, char *const *row, const int *w)
{
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int j, cw = 0;

	if (!m)
		return;
	for (j = 0; j < g->ncols; j++) {
		if (j)
			fputs("  ", m);
		put_cell(m, row[j], w[j], g->right[j], j == g->ncols - 1);
	}
	fclose(m);
	for (p = buf; *p && (cw < PB_CMP_WIDTH || ((unsigned char)*p & 0xc0) == 0x80); p++)
		cw += ((unsigned char)*p & 0xc0) != 0x80;
	*p = 0;
	while (p > buf && p[-1] == ' ')
		*--p = 0;
	fprintf(f, "%s\n", buf);
	free(buf);
}

static void grid_print_text(FILE *f, const struct grid *g)
{
	int w[GRID_COLS], i;

	grid_widths(g, w);
	grid_line(f, g, g->head, w);
	for (i = 0; i < g->nrows; i++)
		grid_line(f, g, &g->cell[i * g->ncols], w);
}

void pb_cmp_md_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

static void grid_print_md(FILE *f, const struct grid *g)
{
	int i, j;

	fputs("|", f);
	for (j = 0; j < g->ncols; j++)
		pb_cmp_md_cell(f, g->head[j]);
	fputs("\n|", f);
	for (j = 0; j < g->ncols; j++)
		fputs(g->right[j] ? " ---: |" : " --- |", f);
	fputc('\n', f);
	for (i = 0; i < g->nrows; i++) {
		fputs("|", f);
		for (j = 0; j < g->ncols; j++)
			pb_cmp_md_cell(f, g->cell[i * g->ncols + j]);
		fputc('\n', f);
	}
}

/* ---- report ---- */

struct rctx {
	const struct pb_cmp		*c;
	const struct pb_cmp_opts	*o;
	FILE				*f;
	int				base_group;	/* -1: first row */
	int				regressions;
	bool				md;
	json_t				*json;		/* PB_FMT_JSON: the results array */
	json_t				*env;		/* PB_FMT_JSON: the environment's */
};

static const char *unit_text(const char *unit)
{
	return !strcmp(unit, "us") ? "µs" : unit;
}

static void title_text(const struct pb_table *t, bool cpus, char *buf, size_t len)
{
	int off;

	off = snprintf(buf, len, "%s %s (%s%s%s is better) — %s", t->job, t->metric,
		       unit_text(t->unit), t->unit[0] ? ", " : "", t->higher ? "higher" : "lower",
		       t->placement);
	if (cpus && t->cpus[0] && off > 0 && (size_t)off < len)
		snprintf(buf + off, len - (size_t)off, " [CPUs %s]", t->cpus);
}

/* "p=0.012", or "q=0.048" when adjusted over the report (a BH q-value). */
static char *p_text(double p, bool adjusted)
{
	const char *k = adjusted ? "q" : "p";

	if (isnan(p))
		return xprintf("%s n/a", k);
	if (p < 0.001)
		return xprintf("%s<0.001", k);
	return xprintf("%s=%.3f", k, p);
}

/*
 * Decimals of the change and its interval, the same for both: the
 * interval's half-width to two significant digits, 0 to 2 decimals
 * ("+2.9% [+1.5, +4.4]", "+0.07% [-0.15, +0.29]", "+12% [-3, +27]").
 */
static int change_dec(const struct pb_eval *e)
{
	double hw = (e->ci_hi - e->ci_lo) / 2;
	int d;

	if (!isfinite(hw) || hw <= 0)
		return 1;
	d = 1 - (int)floor(log10(hw));
	return d < 0 ? 0 : d > 2 ? 2 : d;
}

/* " [+0.9, +2.5]": the change's 95 % interval (pb_cmp_ci_words). */
static char *ci_text(const struct pb_eval *e, int d)
{
	char ci[64];

	pb_cmp_ci_words(e, d, ci, sizeof(ci));
	return xprintf("%s%s", ci[0] ? " " : "", ci);
}

static char *change_text(const struct rctx *r, const struct pb_cell *cell,
			 const struct pb_eval *e, int d)
{
	char *p, *s, *ci;

	const char *note = cell && cell->interrupted ? " (interrupted)" : "";

	if (!cell || !cell->n) {
		if (cell && strcmp(cell->status, "missing"))
			return xprintf("%s%s%s", cell->status,
				       cell->reason[0] && strcmp(cell->reason, cell->status) ?
				       ": " : "", strcmp(cell->reason, cell->status) ?
				       cell->reason : "");
		return strdup("—");
	}
	if (e->is_base)
		return xprintf("base%s", note);
	if (!e->has_base)
		return xprintf("—%s", note);
	p = p_text(e->p_adj, !r->o->no_correction);
	ci = ci_text(e, d);
	if (!p || !ci) {
		free(p);
		free(ci);
		return NULL;
	}
	if (e->significant && e->within)
		s = xprintf(r->md ? "*%+.*f%%%s %s changed within its boot*%s" :
			    "%+.*f%%%s %s changed within its boot%s", d, e->change, ci, p, note);
	else if (e->significant)
		s = xprintf(r->md ? "**%+.*f%%%s %s %s** (boot level), resolves ±%.1f%%%s" :
			    "%+.*f%%%s %s %s (boot level), resolves ±%.1f%%%s", d, e->change, ci,
			    p, e->verdict, e->mde, note);
	else if (e->not_judged[0])	/* no q: nothing is judged on it */
		s = xprintf("%+.*f%%%s, not judged: %s%s", d, e->change, ci, e->not_judged, note);
	else if (e->test && !strcmp(e->outcome, "inconclusive"))
		s = xprintf("%+.*f%%%s %s, inconclusive%s", d, e->change, ci, p, note);
	else if (!isnan(e->mde))
		s = xprintf("%+.*f%%%s %s, no change beyond ±%.1f%%%s", d, e->change, ci, p,
			    e->mde, note);
	else
		s = xprintf("%+.*f%%%s %s%s", d, e->change, ci, p, note);
	free(p);
	free(ci);
	return s;
}

static char *label_text(const struct pb_cmp *c, int g, const struct pb_cell *cell)
{
	char marks[40] = "";
	size_t off = 0;
	int i;

	for (i = 0; cell && i < cell->nr_marks && off + 4 < sizeof(marks); i++) {
		const char *m = pb_anomaly_mark(cell->marks[i].kind);

		m = m && *m ? m : "?";
		if (!strstr(marks, m))
			off += (size_t)snprintf(marks + off, sizeof(marks) - off, "%s", m);
	}
	return xprintf("%s%s%s", c->groups[g], off ? " " : "", marks);
}

static void fill_row(const struct rctx *r, const struct pb_table *t, struct grid *gr,
		     int g, const struct pb_cell *base, bool compact, int ntests,
		     const struct pb_numfmt *nf, int cdec)
{
	const struct pb_cell *cell = pb_cmp_cell(t, g);
	char **row = grid_row(gr);
	const double *v = NULL;
	struct pb_eval e;
	char buf[PB_NUM_LEN];
	int i, n = 0, col = 0;

	if (!row)
		return;
	pb_cmp_eval(t, cell, base, r->o->min_change, &e);
	if (cell)
		n = pb_cmp_values(t, cell, &v);
	row[col++] = label_text(r->c, g, cell);
	if (compact)
		row[col++] = cell && cell->n ? xprintf("%d", n) : strdup("—");
	for (i = 0; !compact && i < ntests; i++, col++)
		if (cell && i < n)
			row[col] = strdup(pb_numfmt_str(nf, v[i], NULL, buf, sizeof(buf)));
	if (cell && cell->n) {
		row[col++] = strdup(pb_numfmt_str(nf, e.s.mean, NULL, buf, sizeof(buf)));
		row[col++] = strdup(pb_num_spread(e.s.stddev, NULL, buf, sizeof(buf)));
	} else {
		row[col++] = strdup("—");
		row[col++] = strdup("—");
	}
	row[col] = change_text(r, cell, &e, cdec);
}

/* The most values a cell of t shows (runs or repeats). */
static int table_maxn(const struct pb_table *t)
{
	const double *v;
	int i, n, maxn = 0;

	for (i = 0; i < t->nr_cells; i++) {
		n = pb_cmp_values(t, &t->cells[i], &v);
		maxn = n > maxn ? n : maxn;
	}
	return maxn;
}

/* The first column's head: what the rows are grouped by ("Label", "Kernel", ...). */
static const char *group_head(const struct pb_cmp *c)
{
	static const char *const heads[] = {
		[PB_GROUP_LABEL] = "Label", [PB_GROUP_KERNEL] = "Kernel",
		[PB_GROUP_HOST] = "Host", [PB_GROUP_PEER] = "Peer", [PB_GROUP_CLASS] = "Class",
	};

	return (unsigned int)c->by < sizeof(heads) / sizeof(heads[0]) ? heads[c->by] : "Label";
}

/*
 * One form for the table's figures (the tests, the means): the digits the
 * most precise row's stddev supports, the prefix of the largest mean; and
 * the decimals of the changes, the widest interval's (change_dec()), so
 * that no change shows more digits than its interval supports.
 */
static void table_form(const struct rctx *r, const struct pb_table *t,
		       const struct pb_cell *base, struct pb_numfmt *nf, int *cdec)
{
	struct pb_numfmt one;
	struct pb_eval e;
	int i;

	*nf = (struct pb_numfmt)PB_NUMFMT_NONE;
	*cdec = 2;
	for (i = 0; i < t->nr_cells; i++) {
		if (!t->cells[i].n)
			continue;
		pb_cmp_eval(t, &t->cells[i], base, r->o->min_change, &e);
		pb_numfmt_pick(&one, e.s.mean, e.s.stddev);
		pb_numfmt_join(nf, &one);
		if (e.has_base && !e.is_base && change_dec(&e) < *cdec)
			*cdec = change_dec(&e);
	}
	if (nf->last == PB_NUMFMT_NONE_LAST)
		pb_numfmt_sig(nf, 0, PB_NUM_DIGITS);
}

static void build_grid(const struct rctx *r, const struct pb_table *t, struct grid *gr,
		       bool compact)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	int i, ntests = table_maxn(t), cdec;
	struct pb_numfmt nf;
	bool runs = pb_cmp_between(t);
	char head[24];

	table_form(r, t, base, &nf, &cdec);
	grid_col(gr, group_head(r->c), false);
	if (compact)
		grid_col(gr, runs ? "runs" : "n", true);
	for (i = 0; !compact && i < ntests; i++) {
		snprintf(head, sizeof(head), runs ? "Run %d" : "Test %d", i + 1);
		grid_col(gr, head, true);
	}
	grid_col(gr, "Average", true);
	grid_col(gr, "Stddev", true);
	grid_col(gr, "Change", false);
	for (i = 0; i < r->c->nr_groups; i++)
		fill_row(r, t, gr, r->c->order[i], base, compact, ntests, &nf, cdec);
}

/* The table, Test columns only when they fit in PB_CMP_WIDTH (and n <= 8). */
static void table_grid(struct rctx *r, const struct pb_table *t, struct grid *gr)
{
	if (table_maxn(t) <= 8) {
		build_grid(r, t, gr, false);
		if (r->md || grid_width(gr) <= PB_CMP_WIDTH)
			return;
		grid_free(gr);
	}
	build_grid(r, t, gr, true);
}

/* The i-th per-op or latency figure of a cell: false past the last. */
static bool fig_at(const struct pb_cell *cell, int i, char *name, size_t len, double *v)
{
	if (i < cell->nr_figs) {
		snprintf(name, len, "%s", cell->figs[i].name);
		*v = cell->figs[i].sum / cell->figs[i].weight;
		return true;
	}
	i -= cell->nr_figs;
	if (cell->lat_w <= 0 || i >= PB_LAT_N)
		return false;
	snprintf(name, len, "latency %s (µs)", pb_lat_names[i]);
	*v = cell->lat[i] / cell->lat_w;
	return true;
}

static bool fig_find(const struct pb_cell *cell, const char *name, double *v)
{
	char n2[96];
	int i;

	for (i = 0; fig_at(cell, i, n2, sizeof(n2), v); i++)
		if (!strcmp(n2, name))
			return true;
	return false;
}

/* "+1.5%", "-20.0%"; a change that rounds to zero is "+0.0%", never "-0.0%". */
static char *pct_text(double x)
{
	double r = round(x * 10) / 10;

	return xprintf("%+.1f%%", r == 0 ? 0.0 : r);
}

/* The unit of a per-op figure, from its name (the result files give none). */
static const char *fig_unit(const char *name)
{
	size_t n = strlen(name);

	if (n >= 13 && !strcmp(name + n - 13, "task-clock/op"))
		return "ns";
	if ((n >= 3 && !strcmp(name + n - 3, "GHz")) || (n >= 7 && !strcmp(name + n - 7, "GHz-ref")))
		return "GHz";
	return NULL;
}

/* The grid's rows: the figures of each label's cell the baseline also has, not 0 on both. */
static bool fig_row(const struct pb_cell *base, const struct pb_cell *cell, int k, char *name,
		    size_t len, double *v, double *bv)
{
	return fig_at(cell, k, name, len, v) && fig_find(base, name, bv) && (*bv != 0 || *v != 0);
}

/*
 * One form for every figure of this name in the grid, both sides: the unit
 * (nanoseconds in µs or ms when the largest is 10000 ns or more) and three
 * significant digits of the largest, so a column holds one unit and one
 * precision per figure: "task-clock/op (µs)  9.9 → 12.0".
 */
static void fig_form(const struct rctx *r, const struct pb_table *t, const char *name,
		     char *label, size_t len, double *div, struct pb_numfmt *nf)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group), *cell;
	const char *unit = fig_unit(name);
	double big = 0, v, bv;
	char n2[96];

	for (int i = 0; i < r->c->nr_groups; i++) {
		cell = pb_cmp_cell(t, r->c->order[i]);
		for (int k = 0; cell && cell != base && fig_at(cell, k, n2, sizeof(n2), &v); k++)
			if (!strcmp(n2, name) && fig_row(base, cell, k, n2, sizeof(n2), &v, &bv))
				big = fmax(big, fmax(fabs(v), fabs(bv)));
	}
	*div = pb_num_time_scale(big, &unit);
	pb_numfmt_sig(nf, big / *div, 3);
	snprintf(label, len, "%s%s%s%s", name, unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
}

/*
 * One line per (label, figure) the baseline also has, where either is not
 * zero: "1.11 → 0.89", change.
 */
static void figures_grid(const struct rctx *r, const struct pb_table *t, struct grid *gr)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group), *cell;
	char name[96], label[112], buf[PB_NUM_LEN];
	struct pb_numfmt nf;
	double v, bv, div;
	int i, k;

	grid_col(gr, r->md ? group_head(r->c) : "", false);
	grid_col(gr, "Per op", false);
	grid_col(gr, "base", true);
	grid_col(gr, "", false);
	grid_col(gr, "", true);
	grid_col(gr, "Change", true);
	for (i = 0; base && i < r->c->nr_groups; i++) {
		cell = pb_cmp_cell(t, r->c->order[i]);
		if (!cell || cell == base || !cell->n)
			continue;
		for (k = 0; fig_at(cell, k, name, sizeof(name), &v); k++) {
			char **row;

			if (!fig_row(base, cell, k, name, sizeof(name), &v, &bv) ||
			    !(row = grid_row(gr)))
				continue;
			fig_form(r, t, name, label, sizeof(label), &div, &nf);
			row[0] = strdup(r->c->groups[cell->group]);
			row[1] = strdup(label);
			row[2] = strdup(pb_numfmt_str(&nf, bv / div, NULL, buf, sizeof(buf)));
			row[3] = strdup("→");
			row[4] = strdup(pb_numfmt_str(&nf, v / div, NULL, buf, sizeof(buf)));
			row[5] = bv != 0 ? pct_text((v - bv) / fabs(bv) * 100) : strdup("—");
		}
	}
}

static void put_line(const struct rctx *r, const char *s);

/* A heading line, then the grid. */
static void print_section(const struct rctx *r, const char *line, const struct grid *gr)
{
	put_line(r, line);
	if (r->md)
		grid_print_md(r->f, gr);
	else
		grid_print_text(r->f, gr);
}

static void print_figures(const struct rctx *r, const struct pb_table *t)
{
	struct grid gr = { 0 };

	figures_grid(r, t, &gr);
	if (gr.nrows) {
		const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
		char line[300];

		snprintf(line, sizeof(line), "\nPer-op counters against %s:%s",
			 r->c->groups[base->group], r->md ? "\n" : "");
		print_section(r, line, &gr);
	}
	grid_free(&gr);
}

/* ---- where a change went: the profile passes ---- */

#define PROF_TOP	5	/* functions per role */

static char *ns_text(double ns, bool sign)
{
	const char *fmt = fabs(ns) >= 1000 ? (sign ? "%+.2f µs" : "%.2f µs") :
			  (sign ? "%+.0f ns" : "%.0f ns");

	return xprintf(fmt, fabs(ns) >= 1000 ? ns / 1e3 : ns);
}

static void prof_row(const struct rctx *r, struct grid *gr, const struct pb_cell *cell,
		     const char *role, const struct pb_prof_row *p)
{
	char **row = grid_row(gr);
	char *chg, *err;

	if (!row)
		return;
	chg = ns_text(p->change, true);
	err = ns_text(p->err, false);
	row[0] = strdup(r->c->groups[cell->group]);
	row[1] = strdup(role);
	row[2] = strdup(p->fn);
	row[3] = ns_text(p->base, false);
	row[4] = strdup("→");
	row[5] = ns_text(p->cur, false);
	row[6] = xprintf("%s ± %s", chg, err);
	free(chg);
	free(err);
}

/*
 * A significant cell with profiles on both sides: its roles' top changes
 * into gr; true when it has any.
 */
static bool prof_cell(const struct rctx *r, const struct pb_table *t,
		      const struct pb_cell *base, const struct pb_cell *cell, struct grid *gr)
{
	struct pb_prof_row rows[PROF_TOP], total;
	struct pb_eval e;
	const char *role;
	bool any = false;

	if (!cell->prof || !base->prof)
		return false;
	pb_cmp_eval(t, cell, base, r->o->min_change, &e);
	if (!e.significant && !r->o->all_profiles)
		return false;
	for (int i = 0; (role = pb_cmp_prof_role(base, i)); i++) {
		int n = pb_cmp_prof_top(base, cell, role, rows, PROF_TOP, &total);

		if (!n)
			continue;
		snprintf(total.fn, sizeof(total.fn), "(all)");
		prof_row(r, gr, cell, role, &total);
		for (int k = 0; k < n; k++)
			prof_row(r, gr, cell, role, &rows[k]);
		any = true;
	}
	return any;
}

static void print_profiles(const struct rctx *r, const struct pb_table *t)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	const char *heads[] = { "", "Role", "Own time per op", "base", "", "", "Change" };
	const char *event;
	struct grid gr = { 0 };
	char line[400], words[400], *notes = NULL;
	size_t nlen = 0;
	FILE *nf = open_memstream(&notes, &nlen);

	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		grid_col(&gr, i || !r->md ? heads[i] : group_head(r->c), i >= 3 && i != 4);
	for (int i = 0; base && i < r->c->nr_groups; i++) {
		const struct pb_cell *cell = pb_cmp_cell(t, r->c->order[i]);

		if (!cell || cell == base || !cell->n || !prof_cell(r, t, base, cell, &gr))
			continue;
		pb_cmp_prof_slower_words(base, cell, r->c->groups[base->group],
					 r->c->groups[cell->group], words, sizeof(words));
		if (nf && *words)
			fprintf(nf, "%s%s: %s\n", r->md ? "\n" : "  ", r->c->groups[cell->group],
				words);
	}
	if (nf)
		fclose(nf);
	if (gr.nrows) {
		event = json_string_value(json_object_get(base->prof, "event"));
		snprintf(line, sizeof(line), "\nWhere the change went, against %s "
			 "(profile pass, %s; the functions whose own time per op changed most, ± the sampling error "
			 "of the counts)%s%s", r->c->groups[base->group], event ? event : "?",
			 event && !strcmp(event, "cpu-clock") ? ": cpu-clock is a software "
			 "event, time with interrupts off is charged where they are enabled "
			 "again" : "", r->md ? "\n" : "");
		print_section(r, line, &gr);
		for (char *l = notes, *e; l && *l; l = e + 1) {
			e = strchr(l, '\n');
			*e = '\0';
			put_line(r, l);
		}
	}
	free(notes);
	grid_free(&gr);
}

/*
 * Print s; in text form wrapped at spaces to PB_CMP_WIDTH characters, the
 * lines after the first indented as s is, plus two.  A word longer than a
 * line is left whole: a figure is never cut.
 */
static void put_line(const struct rctx *r, const char *s)
{
	int indent = (int)strspn(s, " ") + 2, room = PB_CMP_WIDTH;
	const char *brk;

	while (!r->md && (brk = pb_wrap_at(s, room))) {
		fprintf(r->f, "%.*s\n%*s", (int)(brk - s), s, indent, "");
		s = brk + strspn(brk, " ");
		room = PB_CMP_WIDTH - indent;
	}
	fprintf(r->f, "%s\n", s);
}

static void print_legend(const struct rctx *r, const struct pb_table *t)
{
	const struct pb_cell *cell;
	char line[512];
	int i, k;
	bool first = true;

	for (i = 0; i < r->c->nr_groups; i++) {
		cell = pb_cmp_cell(t, r->c->order[i]);
		for (k = 0; cell && k < cell->nr_marks; k++) {
			const struct pb_mark *m = &cell->marks[k];
			const char *mk = pb_anomaly_mark(m->kind);

			if (first)
				fputs("\nAnomalies:\n", r->f);
			first = false;
			snprintf(line, sizeof(line), "%s%s %s: %s (%s)%s%s", r->md ? "- " : "  ",
				 mk && *mk ? mk : "?", r->c->groups[cell->group], m->kind,
				 m->severity, m->message[0] ? ": " : "", m->message);
			put_line(r, line);
		}
	}
}

/* A table with no values at all: one line. */
static bool print_empty(const struct rctx *r, const struct pb_table *t, const char *title)
{
	const char *why = "no values";
	int i;

	for (i = 0; i < t->nr_cells; i++) {
		if (t->cells[i].n)
			return false;
		if (strcmp(t->cells[i].status, "missing"))
			why = t->cells[i].reason[0] ? t->cells[i].reason : t->cells[i].status;
	}
	fprintf(r->f, r->md ? "### %s\n\nNo values: %s.\n\n" : "%s\n  no values: %s\n\n",
		title, why);
	return true;
}

/* A change within one boot a side, its tipping point on a line of its own in text. */
static void print_within(const struct rctx *r, const char *item, const char *group,
			 const struct pb_eval *e, char *q)
{
	char *advice = r->md ? NULL : strstr(q, "; holds if"), ci[64];

	if (advice)
		*advice = 0;
	pb_cmp_ci_words(e, 1, ci, sizeof(ci));
	fprintf(r->f, "%s%s: %+.1f %% %s %s%s\n", item, group, e->change, ci, q,
		advice ? ";" : "");
	if (advice)
		fprintf(r->f, "  %s\n", advice + 2);
}

/*
 * Under a table, what each tested cell's verdict rests on when that is not
 * plainly the boots: a change within one boot a side with its tipping
 * point, or the figure an interval was widened by.
 */
static void print_levels(const struct rctx *r, const struct pb_table *t)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	const char *item = r->md ? "- " : "";
	struct pb_eval e;
	char q[300], lw[300];
	bool first = true;
	int i;

	for (i = 0; i < r->c->nr_groups; i++) {
		const struct pb_cell *cell = pb_cmp_cell(t, r->c->order[i]);

		pb_cmp_eval(t, cell, base, r->o->min_change, &e);
		if (!e.test || !(e.within ? e.significant : e.widened))
			continue;
		pb_cmp_qualify(&e, q, sizeof(q));
		pb_cmp_level_words(&e, lw, sizeof(lw));
		if (r->md && first)	/* a list, not a row of the table */
			fputc('\n', r->f);
		first = false;
		if (e.within)
			print_within(r, item, r->c->groups[cell->group], &e, q);
		else
			fprintf(r->f, "%s%s: at the %s\n", item, r->c->groups[cell->group], lw);
	}
}

static void print_table(struct rctx *r, const struct pb_table *t)
{
	struct grid gr = { 0 };
	char title[400];

	title_text(t, true, title, sizeof(title));
	if (print_empty(r, t, title))
		return;
	table_grid(r, t, &gr);
	if (r->md) {
		fprintf(r->f, "### %s\n\n", title);
		grid_print_md(r->f, &gr);
	} else {
		put_line(r, title);
		grid_print_text(r->f, &gr);
	}
	grid_free(&gr);
	print_levels(r, t);
	print_figures(r, t);
	print_profiles(r, t);
	print_legend(r, t);
	fputc('\n', r->f);
}

/* ---- csv and json ---- */

/*
 * A text cell; one that starts like a formula (= + - @, tab or CR) gets a
 * leading "'", as spreadsheets expect, so that a job named
 * "=HYPERLINK(...)" stays text.
 */
static void csv_field(FILE *f, const char *s, bool last)
{
	const char *formula = *s && strchr("=+-@\t\r", *s) ? "'" : "";

	if (strpbrk(s, ",\"\n\r")) {
		fprintf(f, "\"%s", formula);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fprintf(f, "%s%s", formula, s);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double x, bool has)
{
	if (has && !isnan(x))
		fprintf(f, "%.10g", x);
	fputc(',', f);
}

static void marks_list(const struct pb_cell *cell, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; cell && i < cell->nr_marks && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
					cell->marks[i].kind);
}

/* The level a verdict rests on, for csv and json: "boot", "within-boot". */
static void level_fields(const struct pb_eval *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s", e->within ? "within-boot" : "boot");
}

static void csv_row(const struct rctx *r, const struct pb_table *t, int g)
{
	const struct pb_cell *cell = pb_cmp_cell(t, g);
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	bool has = cell && cell->n;
	struct pb_eval e;
	char buf[256];
	FILE *f = r->f;

	pb_cmp_eval(t, cell, base, r->o->min_change, &e);
	csv_field(f, t->job, false);
	csv_field(f, t->placement, false);
	csv_field(f, t->metric, false);
	csv_field(f, t->unit, false);
	csv_field(f, t->higher ? "higher" : "lower", false);
	csv_field(f, r->c->groups[g], false);
	csv_field(f, cell ? cell->status : "missing", false);
	fprintf(f, "%d,%d,%s,", cell ? cell->n : 0, cell ? cell->nu : 0,
		e.between ? "runs" : "repeats");
	csv_num(f, e.s.mean, has);
	csv_num(f, e.s.stddev, has);
	csv_num(f, e.s.ci_lo, has);
	csv_num(f, e.s.ci_hi, has);
	csv_field(f, base ? r->c->groups[base->group] : "", false);
	csv_num(f, e.change, e.has_base);
	csv_num(f, e.ci_lo, e.has_base && isfinite(e.ci_lo));
	csv_num(f, e.ci_hi, e.has_base && isfinite(e.ci_hi));
	csv_num(f, e.p, e.has_base);
	csv_num(f, e.p_adj, e.has_base);
	fprintf(f, "%s,", e.significant ? "true" : "false");
	csv_field(f, has ? e.verdict : "", false);
	marks_list(cell, buf, sizeof(buf));
	csv_field(f, buf, false);
	csv_field(f, e.test ? e.test : "", false);
	level_fields(&e, buf, sizeof(buf));
	csv_field(f, e.test ? pb_cmp_unit_name(&e) : "", false);
	csv_field(f, e.test ? buf : "", false);
	fprintf(f, "%d,%d,", e.lv.boots, e.lv.invocations);
	csv_num(f, e.tipping, e.test != NULL);
	csv_num(f, e.mde, e.test != NULL);
	fprintf(f, "%s,", e.test && e.within && e.significant ? "true" : "false");
	csv_field(f, has && e.outcome ? e.outcome : "", false);
	csv_field(f, e.not_judged, true);
}

static json_t *jnum(double x, bool has)
{
	return has && !isnan(x) ? json_real(x) : json_null();
}

static json_t *json_marks(const struct pb_cell *cell)
{
	json_t *a = json_array();
	int i;

	for (i = 0; cell && i < cell->nr_marks; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}",
				"kind", cell->marks[i].kind, "mark", pb_anomaly_mark(cell->marks[i].kind),
				"severity", cell->marks[i].severity, "message", cell->marks[i].message));
	return a;
}

static json_t *json_figs(const struct pb_cell *cell, const struct pb_cell *base)
{
	json_t *o = json_object();
	char name[96];
	double v, bv;
	int k;

	for (k = 0; cell && fig_at(cell, k, name, sizeof(name), &v); k++) {
		bool hb = base && base != cell && fig_find(base, name, &bv);

		json_object_set_new(o, name, json_pack("{s:f, s:o, s:o}", "value", v,
				"baseline", jnum(hb ? bv : NAN, hb),
				"change", jnum(hb && bv ? (v - bv) / fabs(bv) * 100 : NAN, hb)));
	}
	return o;
}

/* The levels of a tested cell (null fields when untested). */
static void json_levels(json_t *o, const struct pb_eval *e)
{
	char lw[300];

	pb_cmp_level_words(e, lw, sizeof(lw));
	json_object_set_new(o, "levels", json_pack("{s:i, s:i, s:i, s:i}", "boots", e->lv.boots,
			    "invocations", e->lv.invocations, "runs", e->lv.runs,
			    "repeats", e->lv.repeats));
	json_object_set_new(o, "tested_unit", e->test ? json_string(pb_cmp_unit_name(e)) :
			    json_null());
	json_object_set_new(o, "verdict_level", !e->test ? json_null() :
			    json_string(e->within ? "within-boot" : "boot"));
	json_object_set_new(o, "verdict_rests_on", e->test ? json_string(lw) : json_null());
	json_object_set_new(o, "between_source", e->source ? json_string(e->source) :
			    json_null());
	json_object_set_new(o, "tipping_cv", jnum(e->tipping, e->test != NULL));
	json_object_set_new(o, "resolves", jnum(e->mde, e->test != NULL));
}

static void json_row(const struct rctx *r, const struct pb_table *t, int g)
{
	const struct pb_cell *cell = pb_cmp_cell(t, g);
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	bool has = cell && cell->n;
	struct pb_eval e;
	json_t *o;

	pb_cmp_eval(t, cell, base, r->o->min_change, &e);
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:i, s:o, s:o, s:[oo]}",
		      "job", t->job, "placement", t->placement, "metric", t->metric,
		      "unit", t->unit, "better", t->higher ? "higher" : "lower",
		      "label", r->c->groups[g],
		      "baseline", base ? json_string(r->c->groups[base->group]) : json_null(),
		      "status", cell ? cell->status : "missing", "n", cell ? cell->n : 0,
		      "mean", jnum(e.s.mean, has), "stddev", jnum(e.s.stddev, has),
		      "ci95", jnum(e.s.ci_lo, has), jnum(e.s.ci_hi, has));
	if (!o)
		return;
	json_object_set_new(o, "runs", json_integer(cell ? cell->nu : 0));
	json_object_set_new(o, "tested", json_string(e.between ? "runs" : "repeats"));
	json_object_set_new(o, "change", jnum(e.change, e.has_base));
	json_object_set_new(o, "change_ci95", e.has_base && !isnan(e.ci_lo) ?
			    json_pack("[oo]", jnum(e.ci_lo, isfinite(e.ci_lo)),
				      jnum(e.ci_hi, isfinite(e.ci_hi))) : json_null());
	json_object_set_new(o, "test", e.test ? json_string(e.test) : json_null());
	json_object_set_new(o, "p", jnum(e.p, e.has_base));
	json_object_set_new(o, "p_adj", jnum(e.p_adj, e.has_base));
	json_object_set_new(o, "significant", json_boolean(e.significant));
	json_object_set_new(o, "verdict", has ? json_string(e.verdict) : json_null());
	json_object_set_new(o, "outcome", has && e.outcome ? json_string(e.outcome) : json_null());
	json_object_set_new(o, "not_judged", e.not_judged[0] ? json_string(e.not_judged) :
			    json_null());
	json_levels(o, &e);
	json_object_set_new(o, "anomalies", json_marks(cell));
	json_object_set_new(o, "per_op", json_figs(has ? cell : NULL, base));
	json_array_append_new(r->json, o);
}

/* ---- the report ---- */

static int count_regressions(const struct rctx *r, const struct pb_table *t)
{
	const struct pb_cell *base = pb_cmp_base(r->c, t, r->base_group);
	struct pb_eval e;
	int i, n = 0;

	for (i = 0; i < t->nr_cells; i++) {
		pb_cmp_eval(t, &t->cells[i], base, r->o->min_change, &e);
		n += pb_cmp_regressed(&e);
	}
	return n;
}

/*
 * What the values are: runs (a round of a file, or a file) when every
 * label has two or more, else the repeats of one run, whose interval
 * leaves out the variation between runs, the larger part on most machines.
 */
static void print_units_note(const struct rctx *r)
{
	int i, within = 0, tested = 0;
	char line[200];

	for (i = 0; i < r->c->nr_tables; i++) {
		const struct pb_table *t = &r->c->t[i];
		int k, n = 0;

		for (k = 0; k < t->nr_cells; k++)
			n += t->cells[k].n > 0;
		if (n < 2)
			continue;
		tested++;
		within += !pb_cmp_between(t);
	}
	if (!tested)
		return;
	if (!within) {
		put_line(r, "Tested on runs: each value is one run's mean (a round, or a file).");
		return;
	}
	snprintf(line, sizeof(line), "%s%d of %d tables tested on the repeats of single runs: "
		 "their intervals leave out", within == tested ? "" : "Note: ", within, tested);
	put_line(r, line);
	put_line(r, "the variation between runs; for that, two or more runs per label "
		 "(rounds=N, or more files).");
}

static void print_header(const struct rctx *r)
{
	const char *by = r->c->by == PB_GROUP_HOST ? "host" : r->c->by == PB_GROUP_PEER ?
			 "peer" : r->c->by == PB_GROUP_KERNEL ? "kernel" : "label";
	const char *pname;
	char line[400];
	int rank, welch;

	snprintf(line, sizeof(line), "%s%d result file%s, %d %s%s; baseline: %s",
		 r->md ? "" : "pinbench compare: ", r->c->nr_files, r->c->nr_files == 1 ? "" : "s",
		 r->c->nr_groups, by, r->c->nr_groups == 1 ? "" : "s",
		 r->base_group >= 0 ? r->c->groups[r->base_group] : "the first row");
	put_line(r, line);
	pb_cmp_count_tests(r->c, r->base_group, &rank, &welch);
	if (rank && welch) {
		snprintf(line, sizeof(line), "Change: with %d or more values a side, the "
			 "Hodges-Lehmann ratio (the median of the", PB_RANK_MIN);
		put_line(r, line);
		put_line(r, "ratios of every pair of values) with its 95 % interval [lo, hi] "
			 "(Moses), tested by Mann-Whitney;");
		put_line(r, "with fewer, the ratio of means with its 95 % interval (Fieller), "
			 "tested by Welch's t-test;");
		pname = "each test's p";
	} else if (rank) {
		put_line(r, "Change: the Hodges-Lehmann ratio (the median of the ratios of every "
			 "pair of values)");
		put_line(r, "with its 95 % interval [lo, hi] (Moses), tested by Mann-Whitney;");
		pname = "Mann-Whitney's p";
	} else {
		put_line(r, "Change: the ratio of means with its 95 % interval [lo, hi] (Fieller);");
		pname = "Welch's p";
	}
	snprintf(line, sizeof(line), "significant: %s < %.2f and |change| > %.2g %%;",
		 r->o->no_correction ? (rank ? pname : "Welch's t-test p") : "q", PB_CMP_ALPHA,
		 r->o->min_change);
	put_line(r, line);
	if (r->o->no_correction)
		snprintf(line, sizeof(line), "p as tested, cell by cell (%d comparisons).",
			 r->c->nr_tests);
	else
		snprintf(line, sizeof(line), "q: %s adjusted for the %d comparisons of "
			 "this report (Benjamini-Hochberg).", pname, r->c->nr_tests);
	put_line(r, line);
	print_units_note(r);
	fputc('\n', r->f);
}

/*
 * Where the groups' machines differ (compare_env.c), above the tables: lines
 * in text and markdown, environment_differences in json, nothing in csv
 * (its rows are data only).
 */
static void print_env_diffs(struct rctx *r)
{
	json_t *d = r->o->format == PB_FMT_CSV ? NULL : pb_cmp_env_diffs(r->c);

	if (r->o->format == PB_FMT_JSON)
		r->env = d ? d : json_array();
	else if (d)
		pb_cmp_env_print(r->f, d, r->md);
	if (r->o->format != PB_FMT_JSON)
		json_decref(d);
}

int pb_cmp_resolve_baseline(const struct pb_cmp *c, const char *name, char *err, size_t len)
{
	size_t off;
	int g, i;

	if (!name)
		return -1;
	g = pb_cmp_find_group(c, name);
	if (g >= 0)
		return g;
	off = (size_t)snprintf(err, len, "baseline '%s' not found; have:", name);
	for (i = 0; i < c->nr_groups && off < len; i++)
		off += (size_t)snprintf(err + off, len - off, " %s", c->groups[c->order[i]]);
	return -2;
}

int pb_cmp_report(struct pb_cmp *c, const struct pb_cmp_opts *o, FILE *out,
		  char *err, size_t len)
{
	struct rctx r = { .c = c, .o = o, .f = out, .md = o->format == PB_FMT_MARKDOWN };
	int i, g;

	if (!c->order)
		pb_cmp_order(c, o->order_given);
	r.base_group = pb_cmp_resolve_baseline(c, o->baseline, err, len);
	if (r.base_group == -2)
		return -1;
	pb_cmp_ask_between(c, o->between, o->between_ctx);
	pb_cmp_adjust(c, r.base_group, !o->no_correction);
	if (o->format == PB_FMT_JSON)
		r.json = json_array();
	if (o->format == PB_FMT_CSV)
		fputs("job,placement,metric,unit,better,label,status,n,runs,tested,mean,stddev,"
		      "ci95_lo,ci95_hi,baseline,change_pct,change_ci95_lo,change_ci95_hi,p,p_adj,"
		      "significant,verdict,anomalies,test,tested_unit,verdict_level,boots,"
		      "invocations,tipping_cv,resolves,within_boot,outcome,not_judged\n", out);
	if (o->format == PB_FMT_TEXT || r.md)
		print_header(&r);
	print_env_diffs(&r);
	for (i = 0; i < c->nr_tables; i++) {
		r.regressions += count_regressions(&r, &c->t[i]);
		if (o->format == PB_FMT_TEXT || r.md)
			print_table(&r, &c->t[i]);
		for (g = 0; g < c->nr_groups && !r.md && o->format != PB_FMT_TEXT; g++) {
			if (o->format == PB_FMT_CSV)
				csv_row(&r, &c->t[i], c->order[g]);
			else
				json_row(&r, &c->t[i], c->order[g]);
		}
	}
	if (r.json) {
		json_t *root = json_pack("{s:s, s:s, s:s, s:f, s:f, s:i, s:o}",
					 "schema", PB_SCHEMA_COMPARE, "group_by", pb_cmp_group_names[c->by],
					 "correction", o->no_correction ? "none" : "benjamini-hochberg",
					 "alpha", PB_CMP_ALPHA, "min_change", o->min_change,
					 "regressions", r.regressions, "results", r.json);

		json_object_set_new(root, "environment_differences", r.env);

		json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
			   JSON_REAL_PRECISION(10));
		fputc('\n', out);
		json_decref(root);
	}
	return r.regressions;
}
