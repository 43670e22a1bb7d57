// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - the engine of `pinbench plot` (cli/cmd_plot.c): the comparison
 * as pictures, through gnuplot, under a caption naming the kernels and the
 * machine.  Per job, two panels side by side: the mean per label with its
 * 95 % confidence bars and each run as a dot, a series per placement (log
 * y when the values span LOG_RATIO times), and the forest of changes:
 * each cell's change against the baseline in % with its interval, coloured
 * by compare's verdict (within one boot apart).  Per sweep (job names
 * "X/threads=N"), throughput against threads with the baseline's
 * linear-scaling line (log-log when wide), significant changes labelled;
 * per latency workload, the percentiles.  Cells with an anomaly of
 * severity error (one their verdict cannot stand on) are ringed.  The
 * ranges, ticks and SI labels are set here; FILE.dat and FILE.gp are kept
 * beside the image; FILE.gp loads the templates in plot/.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report/compare.h"
#include "report/history.h"
#include "report/plot.h"
#include "stats/stats.h"
#include "lib/file.h"
#include "lib/util.h"

#define PLOT_TIMEOUT_S	60
#define PANEL_W		800	/* each panel readable on its own at 800 x 500 */
#define PANEL_H		500
#define KEY_COLS	3	/* the key's columns (common.gp: maxcols) */
#define KEY_ROW		0.06	/* of the panel's height, a row of the key */
#define LABEL_ROOM	0.10	/* ... and above the bars, for the % labels */
#define LOG_RATIO	8	/* a means panel whose values span this factor: log y */
#define TITLE_W		88	/* a panel's subtitle wrapped at this many characters */
#define CAPTION_H	40	/* pixels above the panels for the caption */

struct plotter {
	struct pb_cmp		*c;
	int			base_group;	/* -1: the first label with values */
	FILE			*dat;
	FILE			*gp;		/* the panels (a memory stream) */
	const char		*datname;	/* basename of the .dat */
	int			index;		/* next data block */
	int			panels;
};

/* A panel's y extent: the bars, the linear line. */
struct extent {
	double	lo, hi;
	double	pos_lo;		/* the lowest bound above 0, for a log axis */
	double	mean_lo, mean_hi;	/* the means drawn: a log axis by their span */
	bool	any, any_pos, any_mean;
};

/*
 * A string from result data as a gnuplot string literal.  gnuplot runs
 * backquoted text as a shell command inside double quotes, never inside
 * single quotes, where the only special character is the quote itself
 * (doubled).  A control character (a newline would end the command) is
 * dropped for '?'.
 */
static void gp_strn(FILE *f, const char *s, size_t n, bool tic)
{
	fputc('\'', f);
	for (; n && *s; s++, n--) {
		unsigned char ch = *s;

		if (ch == '\'')
			fputs("''", f);
		else if (ch == '%' && tic)
			fputs("%%", f);
		else
			fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, f);
	}
	fputc('\'', f);
}

static void gp_str(FILE *f, const char *s)
{
	gp_strn(f, s, strlen(s), false);
}

/*
 * s as a gnuplot string expression of lines at most width characters
 * ('a'."\n".'b'), broken after a space where there is one; for a tic
 * label (tic), its % doubled (gnuplot formats the tic's value with it).
 * Returns how many lines.
 */
static int gp_wrapped(FILE *f, const char *s, size_t width, bool tic)
{
	size_t n = strlen(s), cut;
	int lines = 1;

	while (n > width) {
		for (cut = width; cut > 0 && s[cut] != ' '; cut--)
			;
		cut = cut ? cut : width;
		gp_strn(f, s, cut, tic);
		fputs(".\"\\n\".", f);
		for (; s[cut] == ' '; cut++)
			;
		s += cut;
		n -= cut;
		lines++;
	}
	gp_strn(f, s, n, tic);
	return lines;
}

/* A string as a column header of the .dat: double quotes, none inside. */
static void dat_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = *s;

		fputc(ch == '"' ? '\'' : ch == '\\' ? '/' : ch < 0x20 || ch == 0x7f ? '?' : ch, f);
	}
	fputc('"', f);
}

static void extent_add(struct extent *x, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi))
		return;
	x->lo = x->any && x->lo < lo ? x->lo : lo;
	x->hi = x->any && x->hi > hi ? x->hi : hi;
	x->any = true;
	lo = lo > 0 ? lo : hi;
	if (lo > 0) {
		x->pos_lo = x->any_pos && x->pos_lo < lo ? x->pos_lo : lo;
		x->any_pos = true;
	}
}

/*
 * A mean drawn: the means' span picks a log axis, whatever the intervals
 * (an interval of three runs reaching below 0 must not squash a 4 µs
 * same-cpu mean onto the axis beside a 150 µs cross-CPU one).
 */
static void extent_mean(struct extent *x, double m)
{
	if (!isfinite(m) || m <= 0)
		return;
	x->mean_lo = x->any_mean && x->mean_lo < m ? x->mean_lo : m;
	x->mean_hi = x->any_mean && x->mean_hi > m ? x->mean_hi : m;
	x->any_mean = true;
	if (!x->any_pos || m < x->pos_lo)
		x->pos_lo = m;
	x->any_pos = true;
}

/*
 * The point of a cell: compare's evaluation against the table's baseline
 * (the same mean, interval, change and significance compare reports).
 * false when the cell has no values.
 */
static bool cell_point(const struct plotter *p, const struct pb_table *t,
		       const struct pb_cell *cell, struct pb_eval *e)
{
	if (!cell || !cell->n)
		return false;
	pb_cmp_eval(t, cell, pb_cmp_base(p->c, t, p->base_group), PB_CMP_MIN_CHG, e);
	return true;
}

/* The upper end of a point's bar in the .dat: 1e300 for an unbounded interval. */
static double bar_hi(const struct pb_eval *e)
{
	return isfinite(e->s.ci_hi) ? e->s.ci_hi : 1e300;
}

/*
 * Does the cell carry an anomaly of severity error, one its verdict
 * cannot stand on?  Only those are ringed: a warning is in compare's table.
 */
static bool cell_error(const struct pb_cell *cell)
{
	int i;

	for (i = 0; i < cell->nr_marks; i++)
		if (!strcmp(cell->marks[i].severity, "error"))
			return true;
	return false;
}

/* A ring round the point at x, y when the cell carries an error; *marked: one was drawn. */
static void ring_mark(struct plotter *p, const struct pb_cell *cell, double x, double y,
		      bool *marked)
{
	if (!cell_error(cell))
		return;
	fprintf(p->gp, "set label \"\" at %.6g,%.10g point pt 6 ps 2.6 lc rgb \"black\" front\n",
		x, y);
	*marked = true;
}

/*
 * A sweep point's marks, as labels of the panel: its change in % above the
 * bar when significant (in the series' colour), and ring_mark().  lift:
 * how many labels are already above this x (a sweep's series share their
 * x), a line each.
 */
static void point_marks(struct plotter *p, const struct pb_cell *cell, const struct pb_eval *e,
			double x, int series, int lift, bool *marked)
{
	if (e->significant)
		fprintf(p->gp, "set label \"%+.1f %%\" at %.6g,%.10g center offset 0,%.1f "
			"tc ls %d front\n", e->change, x,
			isfinite(e->s.ci_hi) ? e->s.ci_hi : e->s.mean, 0.9 + 1.1 * lift,
			series % 8 + 1);
	ring_mark(p, cell, x, e->s.mean, marked);
}

static void block_head(struct plotter *p, const char *series, const char *extra)
{
	if (p->index)
		fputs("\n\n", p->dat);
	fputs("\"x\" ", p->dat);
	dat_str(p->dat, series);
	fprintf(p->dat, "%s\n", extra);
	p->index++;
}

/* A tick step of 1, 2 or 5 times a power of ten, about span / 5. */
static double nice_step(double span)
{
	double raw = span / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

/* The share of a panel's height kept above the data: the key's rows and the % labels. */
static double headroom(int entries)
{
	double f = LABEL_ROOM + KEY_ROW * ((entries + KEY_COLS - 1) / KEY_COLS);

	return f > 0.6 ? 0.6 : f;
}

/*
 * The y axis of a linear panel: the extent with room below (never under 0
 * for values that are not negative) and headroom() above for a key of
 * entries; ticks every nice step; from 10 000 up labelled with the SI
 * prefix of the top (7.0 M), as many decimals as the step needs.  ybar, the top of the data, is
 * where an unbounded bar ends (marked with an arrow by the templates).
 */
static void y_axis(struct plotter *p, const struct extent *x, bool from_zero, int entries)
{
	static const char *const si[] = { "", "k", "M", "G", "T" };
	double lo = x->lo, hi = x->hi, span = hi - lo, step, top, prefix, v, f = headroom(entries);
	int dec, k, i;

	if (span <= 0)
		span = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1;
	lo = from_zero ? 0 : lo - 0.08 * span;
	if (x->lo >= 0 && lo < 0)
		lo = 0;
	hi = (hi - lo * f) / (1 - f);
	step = nice_step(hi - lo);
	lo = floor(lo / step) * step;
	fprintf(p->gp, "set yrange [%.10g:%.10g]\nybot = -1e300\nybar = %.10g\n", lo, hi, x->hi);
	top = fabs(hi) > fabs(lo) ? fabs(hi) : fabs(lo);
	if (top < 1e4) {
		fprintf(p->gp, "set ytics %.10g\nset format y \"%%g\"\n", step);
		return;
	}
	/* one prefix for the axis (0.5 M, 1.0 M; not 500.0 k, 1.0 M) */
	k = (int)floor(log10(top) / 3);
	k = k > 4 ? 4 : k;
	prefix = pow(1000, k);
	dec = (int)ceil(-log10(step / prefix) - 1e-9);
	dec = dec < 0 ? 0 : dec > 3 ? 3 : dec;
	fputs("set ytics (", p->gp);
	for (i = 0, v = lo; v <= hi + step / 2 && i < 40; i++, v = lo + i * step) {
		if (fabs(v) < step / 2)
			fprintf(p->gp, "%s\"0\" 0", i ? ", " : "");
		else
			fprintf(p->gp, "%s\"%.*f %s\" %.10g", i ? ", " : "", dec, v / prefix,
				si[k], v);
	}
	fputs(")\nset format y \"%g\"\n", p->gp);
}

static void call_panel(struct plotter *p, const char *tmpl, int first, int n,
		       const char *title, const char *ylabel, const char *xlabel)
{
	fprintf(p->gp, "call plotdir.\"/%s\" ", tmpl);
	gp_str(p->gp, p->datname);
	fprintf(p->gp, " \"%d\" \"%d\" ", first, n);
	gp_str(p->gp, title);
	if (ylabel) {
		fputc(' ', p->gp);
		gp_str(p->gp, ylabel);
	}
	if (xlabel) {
		fputc(' ', p->gp);
		gp_str(p->gp, xlabel);
	}
	fputc('\n', p->gp);
	p->panels++;
}

/* The name the panel's title gives the baseline: the first label's, or --baseline's. */
static const char *base_name_of(const struct plotter *p)
{
	const struct pb_cmp *c = p->c;

	return p->base_group >= 0 ? c->groups[p->base_group] :
	       c->nr_groups ? c->groups[c->order[0]] : "";
}

/*
 * A panel's title (job, metric, what, which way is better) into buf, and
 * its second line, what is drawn (sub), as the gnuplot variable subtitle
 * (the templates join them), wrapped to fit the panel.
 */
static void panel_title(struct plotter *p, const struct pb_table *t, const char *what,
			const char *sub, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s %s (%s is better)", t->sweep_base[0] ? t->sweep_base : t->job,
		 t->metric, what, t->higher ? "higher" : "lower");
	fputs("subtitle = ", p->gp);
	gp_wrapped(p->gp, sub, TITLE_W, false);
	fputc('\n', p->gp);
}

static const char *unit_of(const struct pb_table *t)
{
	return !strcmp(t->unit, "us") ? "µs" : t->unit;
}

static bool seen_before(const struct pb_cmp *c, int ti, bool sweep)
{
	const struct pb_table *t = &c->t[ti];
	int i;

	for (i = 0; i < ti; i++)
		if (sweep ? !strcmp(c->t[i].sweep_base, t->sweep_base)
			  : !strcmp(c->t[i].job, t->job))
			return true;
	return false;
}

/*
 * The labels of a means panel as x tics, each wrapped to its share of the
 * panel's width (a host class's name takes lines, never the next panel),
 * the bottom margin holding their lines (means.gp resets it).
 */
static void label_tics(struct plotter *p)
{
	const struct pb_cmp *c = p->c;
	size_t w = c->nr_groups ? 76 / (size_t)c->nr_groups : 76;
	int i, lines = 1, l;

	fputs("set xtics (", p->gp);
	for (i = 0; i < c->nr_groups; i++) {
		fputs(i ? ", " : "", p->gp);
		l = gp_wrapped(p->gp, c->groups[c->order[i]], w < 10 ? 10 : w, true);
		lines = l > lines ? l : lines;
		fprintf(p->gp, " %d", i);
	}
	fprintf(p->gp, ")\nset xtics norotate\nset xrange [-0.5:%d.5]\n", c->nr_groups - 1);
	if (lines > 1)
		fprintf(p->gp, "set bmargin %d\n", lines + 2);
}

/*
 * A series' runs (each run's mean) as dots right of its bars (x + dot),
 * spread a little so that equal values stay apart: one data block.
 */
static void runs_block(struct plotter *p, const struct pb_table *t, double dx, double dot,
		       struct extent *ext)
{
	const struct pb_cmp *c = p->c;
	struct pb_eval e;
	int i, k;

	block_head(p, "runs", "");
	for (i = 0; i < c->nr_groups; i++) {
		const struct pb_cell *cell = pb_cmp_cell(t, c->order[i]);

		if (!cell_point(p, t, cell, &e))
			continue;
		for (k = 0; k < cell->nu; k++) {
			fprintf(p->dat, "%.6g %.10g\n", i + dx + dot + 0.02 * (k % 3),
				cell->u[k]);
			extent_add(ext, cell->u[k], cell->u[k]);
		}
		if (!cell->nu)
			fprintf(p->dat, "%.6g %.10g\n", i + dx + dot, e.s.mean);
	}
}

/*
 * One series (a placement) of a means panel, its points beside the other
 * series' (offset dx) at each label, then its runs: false when it has no
 * values.
 */
static bool means_series(struct plotter *p, const struct pb_table *t, double dx, double dot,
			 struct extent *ext, bool *marked)
{
	const struct pb_cmp *c = p->c;
	struct pb_eval e;
	bool head = false;
	int i;

	for (i = 0; i < c->nr_groups; i++) {
		const struct pb_cell *cell = pb_cmp_cell(t, c->order[i]);

		if (!cell_point(p, t, cell, &e))
			continue;
		if (!head)
			block_head(p, t->placement, " \"lo\" \"hi\"");
		head = true;
		fprintf(p->dat, "%.6g %.10g %.10g %.10g\n", i + dx, e.s.mean, e.s.ci_lo,
			bar_hi(&e));
		extent_add(ext, e.s.ci_lo, isfinite(e.s.ci_hi) ? e.s.ci_hi : e.s.mean);
		extent_mean(ext, e.s.mean);
		ring_mark(p, cell, i + dx, e.s.mean, marked);
	}
	if (head)
		runs_block(p, t, dx, dot, ext);
	return head;
}

static bool same_means_job(const struct pb_table *a, const struct pb_table *b)
{
	return !b->sweep_base[0] && !strcmp(a->job, b->job);
}

/* Start a pair of panels (a job's means and changes) on a row of its own. */
static void row_start(struct plotter *p)
{
	if (p->panels % 2 == 0)
		return;
	fputs("set multiplot next\n", p->gp);
	p->panels++;
}

static void log_axis(struct plotter *p, const struct extent *x, int entries, bool labels);
static int forest_count(struct plotter *p, int ti);

/*
 * A job's means: linear y, or log y when its means span LOG_RATIO and
 * more (9 µs same-cpu beside 250 µs cross-socket); an interval reaching 0
 * then stops at the axis' foot.  true when drawn.
 */
static bool means_panel(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	const struct pb_table *t0 = &c->t[ti];
	int i, first = p->index, n = 0, series = 0;
	struct extent ext = { 0 };
	char title[400], ylabel[120];
	bool marked = false, logy;
	double w;

	for (i = ti; i < c->nr_tables; i++)
		series += same_means_job(t0, &c->t[i]);
	/* the series side by side at a label, within 0.6 of its slot */
	w = series > 1 ? 0.6 / series : 0;
	fputs("unset label\n", p->gp);
	for (i = ti; i < c->nr_tables; i++)
		if (same_means_job(t0, &c->t[i]))
			n += means_series(p, &c->t[i], w * (n - (series - 1) / 2.0),
					  w ? w * 0.3 : 0.08, &ext, &marked);
	if (!n)
		return false;
	if (forest_count(p, ti))	/* a forest beside it: the pair on a row */
		row_start(p);
	label_tics(p);
	logy = ext.any_mean && ext.mean_hi / ext.mean_lo >= LOG_RATIO;
	if (logy)
		log_axis(p, &ext, n + marked + 1, true);
	else
		y_axis(p, &ext, false, n + marked + 1);
	fprintf(p->gp, "marked = %d\nlogy = %d\n", marked, logy);
	panel_title(p, t0, "per label", logy ? "mean and 95% CI, dots: runs; log scale" :
		    "mean and 95% CI, dots: runs", title, sizeof(title));
	snprintf(ylabel, sizeof(ylabel), "%s (%s)", t0->metric, unit_of(t0));
	call_panel(p, "means.gp", first, n, title, ylabel, NULL);
	return true;
}

/* A row of a forest panel: a cell's change against the baseline. */
struct frow {
	const struct pb_table	*t;
	int			group;
	struct pb_eval		e;
	bool			ring;
};

/*
 * The category of a row (forest.gp's arrays, from 0): not significant,
 * regression, improvement, and those two within one boot a side.
 */
static int forest_cat(const struct pb_eval *e)
{
	static const char *const v[] = { "regression", "improvement", "regression-within-boot",
					 "improvement-within-boot" };
	size_t i;

	for (i = 0; e->significant && e->verdict && i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(e->verdict, v[i]))
			return (int)i + 1;
	return 0;
}

/* The rows of the job of table ti, placement by placement, the baseline's left out. */
static int forest_rows(struct plotter *p, int ti, struct frow *rows)
{
	const struct pb_cmp *c = p->c;
	int i, g, n = 0;

	for (i = ti; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];

		if (!same_means_job(&c->t[ti], t))
			continue;
		for (g = 0; g < c->nr_groups; g++) {
			const struct pb_cell *cell = pb_cmp_cell(t, c->order[g]);
			struct frow *r = &rows[n];

			if (!cell_point(p, t, cell, &r->e) || !r->e.has_base || r->e.is_base ||
			    !isfinite(r->e.change))
				continue;
			r->t = t;
			r->group = c->order[g];
			r->ring = cell_error(cell);
			n++;
		}
	}
	return n;
}

/* How many rows the forest of the job of table ti has (0: none, one label). */
static int forest_count(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	struct frow *rows = malloc((size_t)c->nr_tables * (size_t)c->nr_groups * sizeof(*rows));
	int n = rows ? forest_rows(p, ti, rows) : 0;

	free(rows);
	return n;
}

/* A bound of an interval in the .dat: clipped to the axis, the change when there is none. */
static double forest_end(double v, double change, double lo, double hi)
{
	return isnan(v) ? change : v < lo ? lo : v > hi ? hi : v;
}

/*
 * The x axis of a forest: 0, every change and bound, a little room; an
 * unbounded end (pb_cmp_ci_words: infinite, or below -100 %) is left out,
 * its bar clipped at the axis under an arrow.
 */
static void forest_range(const struct frow *rows, int n, double *lo, double *hi)
{
	double span;
	int i;

	*lo = *hi = 0;
	for (i = 0; i < n; i++) {
		const struct pb_eval *e = &rows[i].e;
		double v[3] = { e->change, pb_cmp_ci_unbounded_lo(e) ? NAN : e->ci_lo,
				pb_cmp_ci_unbounded_hi(e) ? NAN : e->ci_hi };

		for (int k = 0; k < 3; k++) {
			if (!isfinite(v[k]))
				continue;
			*lo = v[k] < *lo ? v[k] : *lo;
			*hi = v[k] > *hi ? v[k] : *hi;
		}
	}
	span = *hi - *lo < 2 ? 2 : *hi - *lo;
	*lo -= 0.08 * span;
	*hi += 0.08 * span;
}

/* The x tics of a forest: every nice step, signed ("+2", "-4"), 0 plain. */
static void forest_xtics(FILE *f, double lo, double hi)
{
	double step = nice_step(hi - lo), v;
	int i, k0 = (int)ceil(lo / step - 1e-9);

	fputs("set xtics (", f);
	for (i = 0; (v = (k0 + i) * step) <= hi + 1e-9 * step && i < 40; i++) {
		if (fabs(v) < step / 2)
			fprintf(f, "%s\"0\" 0", i ? ", " : "");
		else
			fprintf(f, "%s\"%+g\" %.10g", i ? ", " : "", v, v);
	}
	fputs(")\n", f);
}

/* The rows as y tics (group and placement) and their changes as y2 tics. */
static void forest_tics(struct plotter *p, const struct frow *rows, int n)
{
	char name[300], ci[64];
	int i;

	fputs("set ytics (", p->gp);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s %s", p->c->groups[rows[i].group],
			 rows[i].t->placement);
		fputs(i ? ", " : "", p->gp);
		gp_wrapped(p->gp, name, 32, true);
		fprintf(p->gp, " %d", i);
	}
	fputs(")\nset y2tics (", p->gp);
	for (i = 0; i < n; i++) {
		pb_cmp_ci_words(&rows[i].e, 1, ci, sizeof(ci));
		fprintf(p->gp, "%s\"%+.1f %%%%%s%s\" %d", i ? ", " : "", rows[i].e.change,
			ci[0] ? " " : "", ci, i);
	}
	fprintf(p->gp, ")\nset yrange [%d.5:-0.5]\nset y2range [%d.5:-0.5]\n", n - 1, n - 1);
}

/* One clipped end for forest.gp: its row, an arrow from x0 to the axis end x1, its category. */
static void clip_add(char (*clip)[256], int row, double x0, double x1, int cat)
{
	size_t at[4];

	for (int k = 0; k < 4; k++)
		at[k] = strlen(clip[k]);
	snprintf(clip[0] + at[0], 256 - at[0], " %d", row);
	snprintf(clip[1] + at[1], 256 - at[1], " %.6g", x0);
	snprintf(clip[2] + at[2], 256 - at[2], " %.6g", x1);
	snprintf(clip[3] + at[3], 256 - at[3], " %d", cat);
}

/*
 * The arrows of the rows whose interval is unbounded (pb_cmp_ci_words),
 * as forest.gp's clip_row, clip_from, clip_to and clip_cat: none written
 * when no row is clipped.
 */
static void forest_clips(struct plotter *p, const struct frow *rows, int n, double lo,
			 double hi)
{
	static const char *const name[4] = { "clip_row", "clip_from", "clip_to", "clip_cat" };
	char clip[4][256] = { "" };
	double len = 0.05 * (hi - lo);

	for (int i = 0; i < n && strlen(clip[1]) < 200; i++) {
		if (pb_cmp_ci_unbounded_lo(&rows[i].e))
			clip_add(clip, i, lo + len, lo, forest_cat(&rows[i].e));
		if (pb_cmp_ci_unbounded_hi(&rows[i].e))
			clip_add(clip, i, hi - len, hi, forest_cat(&rows[i].e));
	}
	for (int k = 0; clip[0][0] && k < 4; k++)
		fprintf(p->gp, "%s = \"%s\"\n", name[k], clip[k] + 1);
}

/*
 * The forest of a job: per cell its change against the baseline in %, with
 * its 95 % interval (clipped to the axis when unbounded), a zero line,
 * coloured by compare's verdict; the change in words on the right.
 */
static void forest_panel(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	struct frow *rows = malloc((size_t)c->nr_tables * (size_t)c->nr_groups * sizeof(*rows));
	bool seen[5] = { false }, marked = false;
	char title[400], sub[400], cats[16] = "";
	double lo, hi;
	int i, n, cat;

	n = rows ? forest_rows(p, ti, rows) : 0;
	if (!n) {
		free(rows);
		return;
	}
	forest_range(rows, n, &lo, &hi);
	fputs("unset label\n", p->gp);
	block_head(p, "change", " \"lo\" \"hi\" \"cat\" \"ring\"");
	for (i = 0; i < n; i++) {
		const struct pb_eval *e = &rows[i].e;

		cat = forest_cat(e);
		seen[cat] = true;
		marked |= rows[i].ring;
		fprintf(p->dat, "%d %.6g %.6g %.6g %d %d\n", i, e->change,
			forest_end(e->ci_lo, e->change, lo, hi),
			forest_end(e->ci_hi, e->change, lo, hi), cat, rows[i].ring);
	}
	for (i = 0; i < 5; i++)
		if (seen[i])
			snprintf(cats + strlen(cats), sizeof(cats) - strlen(cats), "%s%d",
				 cats[0] ? " " : "", i);
	forest_tics(p, rows, n);
	forest_xtics(p->gp, lo, hi);
	fprintf(p->gp, "set xrange [%.6g:%.6g]\nmarked = %d\ncats = \"%s\"\n", lo, hi, marked,
		cats);
	forest_clips(p, rows, n, lo, hi);
	snprintf(sub, sizeof(sub), "against %s, 95%% CI; coloured: significant (q < %.2g, "
		 "over %.0f %%)", base_name_of(p), PB_CMP_ALPHA, PB_CMP_MIN_CHG);
	panel_title(p, rows[0].t, "change", sub, title, sizeof(title));
	call_panel(p, "forest.gp", p->index - 1, n, title, "change (%)", NULL);
	free(rows);
}

/* Log-scale ticks 1, 2, 5, 10, 20, ... over [lo, hi]; over 3 decades 1, 10, 100, ... */
static void log_tics(FILE *f, double lo, double hi)
{
	static const double m[] = { 1, 2, 5 };
	int k, sep = 0, per = hi / lo > 1e3 ? 1 : 3;
	double d;

	fputs("set ytics (", f);
	for (d = pow(10, floor(log10(lo))); d <= hi * 10; d *= 10)
		for (k = 0; k < per; k++)
			if (d * m[k] >= lo && d * m[k] <= hi)
				fprintf(f, "%s%.10g", sep++ ? ", " : "", d * m[k]);
	fputs(")\n", f);
}

/*
 * The y axis of a log panel (latency, a wide sweep): room below the lowest
 * positive bound, and above for a key of entries (and the % labels when
 * labels); 1-2-5 ticks, SI prefixes from 10 000 up.  ybot, the bottom, is
 * where a bar reaching 0 ends.
 */
static void log_axis(struct plotter *p, const struct extent *x, int entries, bool labels)
{
	double lo, hi, f = headroom(entries) - (labels ? 0 : LABEL_ROOM);

	if (!x->any_pos)
		return;
	lo = x->pos_lo / 1.25;
	hi = x->hi * 1.1;
	hi = exp((log(hi) - f * log(lo)) / (1 - f));
	fprintf(p->gp, "set yrange [%.10g:%.10g]\nybot = %.10g\nybar = %.10g\n", lo, hi, lo,
		x->hi);
	log_tics(p->gp, lo, hi);
	fputs(hi < 1e4 ? "set format y \"%g\"\n" : "set format y \"%.0s %c\"\n", p->gp);
}

static void latency_panel(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	int i, g, k, first = p->index, n = 0;
	struct extent ext = { 0 };
	char series[200], title[300];
	double v;

	for (i = ti; i < c->nr_tables; i++) {
		const struct pb_table *t = &c->t[i];

		if (t->sweep_base[0] || strcmp(t->job, c->t[ti].job))
			continue;
		for (g = 0; g < c->nr_groups; g++) {
			const struct pb_cell *cell = pb_cmp_cell(t, c->order[g]);

			if (!cell || cell->lat_w <= 0)
				continue;
			snprintf(series, sizeof(series), "%s %s", c->groups[cell->group],
				 t->placement);
			block_head(p, series, "");
			for (k = 0; k < PB_LAT_N; k++) {
				v = cell->lat[k] / cell->lat_w;
				fprintf(p->dat, "%d %.10g\n", k, v);
				if (v > 0)
					extent_add(&ext, v, v);
			}
			n++;
		}
	}
	if (!n)
		return;
	fputs("unset label\n", p->gp);
	log_axis(p, &ext, n, false);
	snprintf(title, sizeof(title), "%s: latency percentiles (lower is better)",
		 c->t[ti].job);
	call_panel(p, "latency.gp", first, n, title, NULL, NULL);
}

static int cmp_x(const void *a, const void *b)
{
	double x = (*(const struct pb_table *const *)a)->sweep_x;
	double y = (*(const struct pb_table *const *)b)->sweep_x;

	return x < y ? -1 : x > y;
}

/*
 * One series of a sweep: a placement and a label, its points in x order;
 * the linear column (its first point times x / x0) is drawn for the
 * baseline's series.
 */
/* The labels already above each x of a sweep panel. */
struct stack {
	double	x[32];
	int	n[32];
	int	nr;
};

static int stack_lift(struct stack *st, double x, bool add)
{
	int i;

	for (i = 0; i < st->nr && st->x[i] != x; i++)
		;
	if (i == st->nr) {
		if (st->nr == 32)
			return 0;
		st->x[st->nr] = x;
		st->n[st->nr++] = 0;
	}
	return add ? st->n[i]++ : st->n[i];
}

/*
 * Where a sweep's series stand beside each other at one x: series k of n
 * at x + off * step, or x * step^off on a log axis, off within +-0.15 of
 * the closest two x (step: their difference, or ratio).
 */
struct dodge {
	bool	logx;
	double	step;
	int	n;
};

static double dodged(const struct dodge *d, double x, int k)
{
	double per = d->n > 1 ? (0.3 / d->n < 0.05 ? 0.3 / d->n : 0.05) : 0;
	double off = per * (k - (d->n - 1) / 2.0);

	return d->logx ? x * pow(d->step, off) : x + d->step * off;
}

static bool sweep_series(struct plotter *p, const struct pb_table **pts, int npts, int g,
			 int series, const struct dodge *dg, struct extent *ext,
			 struct stack *st, bool *marked)
{
	double x0 = 0, y0 = 0, lin, x;
	struct pb_eval e;
	char name[200];
	bool head = false;
	int i;

	for (i = 0; i < npts; i++) {
		const struct pb_cell *cell = pb_cmp_cell(pts[i], g);

		if (!cell_point(p, pts[i], cell, &e))
			continue;
		if (!head) {
			snprintf(name, sizeof(name), "%s %s", p->c->groups[g],
				 pts[i]->placement);
			block_head(p, name, " \"lo\" \"hi\" \"linear\"");
			x0 = pts[i]->sweep_x;
			y0 = e.s.mean;
		}
		head = true;
		lin = x0 > 0 ? y0 * pts[i]->sweep_x / x0 : e.s.mean;
		x = dodged(dg, pts[i]->sweep_x, series);
		fprintf(p->dat, "%.10g %.10g %.10g %.10g %.10g\n", x, e.s.mean, e.s.ci_lo,
			bar_hi(&e), lin);
		extent_add(ext, e.s.ci_lo, isfinite(e.s.ci_hi) ? e.s.ci_hi : e.s.mean);
		/* whichever series' line is drawn (the baseline's, else the first) fits */
		extent_add(ext, lin, lin);
		point_marks(p, cell, &e, x, series, stack_lift(st, pts[i]->sweep_x, e.significant),
			    marked);
	}
	return head;
}

/*
 * The swept values as x tics (1, 2, 4, 8 threads), a value too close to
 * the last labelled one (1, 2, 4 of 1 .. 12) ticked without a label; room
 * at both ends for the bars.  A sweep over 16 times its first value and
 * more is drawn log-log (true returned).  *step: the closest two values'
 * difference (log-log: ratio).
 */
static bool sweep_tics(struct plotter *p, const struct pb_table *t0, double *step)
{
	const struct pb_cmp *c = p->c;
	double *xs, pad, near, last = 0;
	int i, j, n = 0;
	bool logx;

	xs = malloc((size_t)c->nr_tables * sizeof(*xs));
	if (!xs)
		return false;
	for (i = 0; i < c->nr_tables; i++) {
		bool dup = false;

		if (strcmp(c->t[i].sweep_base, t0->sweep_base))
			continue;
		for (j = 0; j < n; j++)
			dup |= xs[j] == c->t[i].sweep_x;
		if (!dup)
			xs[n++] = c->t[i].sweep_x;
	}
	qsort(xs, (size_t)n, sizeof(*xs), pb_cmp_double);
	/* 1 .. 16 threads and wider: log-log, where linear scaling is a slope of 1 */
	logx = n > 2 && xs[0] > 0 && xs[n - 1] / xs[0] >= 16;
	*step = logx ? 2 : 1;
	for (i = 1; i < n; i++) {
		double d = logx ? xs[i] / xs[i - 1] : xs[i] - xs[i - 1];

		*step = i == 1 || d < *step ? d : *step;
	}
	near = n && xs[n - 1] > xs[0] ? 0.05 * (xs[n - 1] - xs[0]) : 0.5;
	pad = near > 0.25 * *step ? near : 0.25 * *step;	/* the dodged bars inside */
	fputs("set xtics (", p->gp);
	for (i = 0; i < n; i++) {
		bool label = !i || logx || xs[i] - last >= 0.9 * near;

		fputs(i ? ", \"" : "\"", p->gp);
		if (label)
			fprintf(p->gp, "%g", xs[i]);
		fprintf(p->gp, "\" %.10g", xs[i]);
		last = label ? xs[i] : last;
	}
	fputs(")\nset xtics norotate\n", p->gp);
	if (logx)
		fprintf(p->gp, "set logscale xy\nset xrange [%.10g:%.10g]\n", xs[0] / 1.25,
			xs[n - 1] * 1.25);
	else
		fprintf(p->gp, "unset logscale\nset xrange [%.10g:%.10g]\n", n ? xs[0] - pad : 0,
			n ? xs[n - 1] + pad : 1);
	free(xs);
	return logx;
}

/* Is t the first table of its sweep and placement? */
static bool first_of_placement(const struct pb_cmp *c, int ti, int i)
{
	for (int j = ti; j < i; j++)
		if (!strcmp(c->t[j].sweep_base, c->t[i].sweep_base) &&
		    !strcmp(c->t[j].placement, c->t[i].placement))
			return false;
	return true;
}

/* The series of a sweep: placements x groups with values. */
static int sweep_count(const struct pb_cmp *c, int ti)
{
	const struct pb_table *t0 = &c->t[ti];
	int i, j, g, n = 0;

	for (i = ti; i < c->nr_tables; i++) {
		if (strcmp(c->t[i].sweep_base, t0->sweep_base) || !first_of_placement(c, ti, i))
			continue;
		for (g = 0; g < c->nr_groups; g++) {
			bool any = false;

			for (j = i; j < c->nr_tables && !any; j++) {
				const struct pb_cell *cell = pb_cmp_cell(&c->t[j], g);

				any = !strcmp(c->t[j].sweep_base, t0->sweep_base) &&
				      !strcmp(c->t[j].placement, c->t[i].placement) &&
				      cell && cell->n;
			}
			n += any;
		}
	}
	return n;
}

static void sweep_panel(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	const struct pb_table *t0 = &c->t[ti], **pts;
	int i, j, g, npts, first = p->index, n = 0;
	char title[400], ylabel[120], linear[256] = "", what[64], more[600];
	struct extent ext = { 0 };
	struct stack st = { .nr = 0 };
	struct dodge dg = { .n = sweep_count(c, ti) };
	int first_group = 0;
	bool marked = false;
	size_t off = 0;

	if (!dg.n)
		return;
	pts = malloc((size_t)c->nr_tables * sizeof(*pts));
	if (!pts)
		return;
	fputs("unset label\n", p->gp);
	dg.logx = sweep_tics(p, t0, &dg.step);
	for (i = ti; i < c->nr_tables; i++) {
		if (strcmp(c->t[i].sweep_base, t0->sweep_base) || !first_of_placement(c, ti, i))
			continue;
		for (npts = 0, j = i; j < c->nr_tables; j++)
			if (!strcmp(c->t[j].sweep_base, t0->sweep_base) &&
			    !strcmp(c->t[j].placement, c->t[i].placement))
				pts[npts++] = &c->t[j];
		qsort(pts, (size_t)npts, sizeof(*pts), cmp_x);
		for (g = 0; g < c->nr_groups; g++) {
			int gi = c->order[g];

			if (!sweep_series(p, pts, npts, gi, n, &dg, &ext, &st, &marked))
				continue;
			if (!n)
				first_group = gi;
			if ((p->base_group < 0 ? g == 0 : gi == p->base_group) &&
			    off + 8 < sizeof(linear))
				off += (size_t)snprintf(linear + off, sizeof(linear) - off,
							"%s%d", off ? " " : "", n);
			n++;
		}
	}
	free(pts);
	if (!n)
		return;
	if (dg.logx) {
		log_axis(p, &ext, n + marked + 1, true);
	} else {
		ext.lo = 0;
		y_axis(p, &ext, true, n + marked + 1);
	}
	/* a baseline without this sweep: the first series' line */
	if (!off)
		snprintf(linear, sizeof(linear), "0");
	fprintf(p->gp, "marked = %d\nlinear = \"%s\"\n", marked, linear);
	snprintf(what, sizeof(what), "against %s", t0->sweep_key);
	snprintf(more, sizeof(more), "mean and 95%% CI; labels: significant change against %s; "
		 "dashed: %s's linear scaling", base_name_of(p),
		 off ? base_name_of(p) : c->groups[first_group]);
	panel_title(p, t0, what, more, title, sizeof(title));
	snprintf(ylabel, sizeof(ylabel), "%s (%s)", t0->metric, unit_of(t0));
	call_panel(p, "sweep.gp", first, n, title, ylabel, t0->sweep_key);
}

static void all_panels(struct plotter *p)
{
	const struct pb_cmp *c = p->c;
	int i;

	for (i = 0; i < c->nr_tables; i++) {
		bool sweep = c->t[i].sweep_base[0];

		if (seen_before(c, i, sweep))
			continue;
		if (sweep) {
			sweep_panel(p, i);
		} else {
			if (means_panel(p, i))
				forest_panel(p, i);
			latency_panel(p, i);
		}
	}
}

/* ---- files and gnuplot ---- */

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The plot/ templates: $PINBENCH_PLOT_DIR, beside the binary, or installed. */
static int find_plot_dir(char *buf, size_t len)
{
	static const char *const rel[] = { "plot", "../plot", "../share/pinbench/plot" };
	char exe[PATH_MAX], cand[PATH_MAX + 64], real[PATH_MAX], *slash;
	const char *env = getenv("PINBENCH_PLOT_DIR");
	ssize_t n;
	size_t i;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return is_dir(buf) ? 0 : -1;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(cand, sizeof(cand), "%s/%s", exe, rel[i]);
			if (realpath(cand, real) && is_dir(real)) {
				snprintf(buf, len, "%s", real);
				return 0;
			}
		}
	}
	snprintf(buf, len, "/usr/local/share/pinbench/plot");
	return is_dir(buf) ? 0 : -1;
}

/* gnuplot's path on PATH, or -1. */
static int find_gnuplot(char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *colon;

	for (p = path; p && *p; p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		snprintf(buf, len, "%.*s/gnuplot", colon ? (int)(colon - p) : (int)strlen(p), p);
		if (!access(buf, X_OK))
			return 0;
		if (!colon)
			break;
	}
	return -1;
}

/* The strings of a (distinct) json array joined with sep at the end of buf. */
static void join_into(char *buf, size_t len, json_t *a, const char *sep)
{
	size_t i, off = strlen(buf);
	json_t *v;

	json_array_foreach(a, i, v)
		if (json_is_string(v) && off + 1 < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? sep : "",
						json_string_value(v));
}

/*
 * The figure's caption: the kernels, the hosts and their classes (CPU
 * model; topology, "|" between two), as the results say them.
 */
static void caption(const struct pb_cmp *c, char *buf, size_t len)
{
	json_t *hosts = json_array();
	int g;
	size_t i;
	json_t *v;
	bool dup;

	for (g = 0; c->envs && g < c->nr_groups; g++) {
		json_t *h = json_object_get(c->envs[c->order ? c->order[g] : g], "hostname");

		dup = !json_is_string(h);
		json_array_foreach(hosts, i, v)
			dup |= json_equal(v, h);
		if (!dup)
			json_array_append(hosts, h);
	}
	snprintf(buf, len, "kernel%s: ", json_array_size(c->kernels) > 1 ? "s" : "");
	join_into(buf, len, c->kernels, ", ");
	snprintf(buf + strlen(buf), len - strlen(buf), "    host%s: ",
		 json_array_size(hosts) > 1 ? "s" : "");
	join_into(buf, len, hosts, ", ");
	snprintf(buf + strlen(buf), len - strlen(buf), " (");
	join_into(buf, len, c->classes, " | ");
	snprintf(buf + strlen(buf), len - strlen(buf), ")");
	json_decref(hosts);
}

static void gp_header(FILE *f, const struct plotter *p, const char *plotdir,
		      const char *image, bool svg)
{
	int cols = p->panels > 1 ? 2 : 1, rows = (p->panels + cols - 1) / cols;
	int w = PANEL_W * cols, h = PANEL_H * rows + CAPTION_H;
	char cap[2048];

	fputs("# Generated by pinbench plot; restyle freely and rerun: gnuplot THIS.gp\n"
	      "# Templates: the plot/ folder of pinbench (plotdir below).\n", f);
	fputs("plotdir = ", f);
	gp_str(f, plotdir);
	fputc('\n', f);
	if (svg)
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced background rgb 'white'\n",
			w, h);
	else
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
			"\tset terminal pngcairo size %d,%d noenhanced font \",11\"\n} else {\n"
			"\tset terminal png size %d,%d noenhanced\n}\n", w, h, w, h);
	/* pinbench has gnuplot write the image on its stdout, into a file it made */
	fputs("if (!exists(\"pinbench_stdout\")) set output ", f);
	gp_str(f, image);
	fputs("\nload plotdir.\"/common.gp\"\n", f);
	caption(p->c, cap, sizeof(cap));
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	gp_wrapped(f, cap, (size_t)cols * 90, false);
	fputs(" font \",12\"\n", f);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Run gnuplot on gp in dir, the image on its stdout (into fd), killed
 * after PLOT_TIMEOUT_S.
 */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *gp, int fd,
		       char *err, size_t len)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int status, waited;
	pid_t pid, w;

	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		unsetenv("DISPLAY");
		if (chdir(dir) == 0 && freopen("/dev/null", "r", stdin) &&
		    dup2(fd, STDOUT_FILENO) == STDOUT_FILENO)
			execl(gnuplot, "gnuplot", "-e", "pinbench_stdout = 1", gp, (char *)NULL);
		_exit(127);
	}
	for (waited = 0; (w = waitpid(pid, &status, WNOHANG)) == 0; waited++) {
		if (waited >= PLOT_TIMEOUT_S * 50) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(err, len, "gnuplot took over %d s: killed", PLOT_TIMEOUT_S);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, len, "gnuplot failed on %s/%s (exit %d)", dir, gp,
			 w > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}

struct plot_paths {
	char	dir[PATH_MAX];
	char	dat[PATH_MAX + 8];
	char	gp[PATH_MAX + 8];
	bool	svg;
};

static int plot_paths(const char *out, struct plot_paths *pp, char *err, size_t len)
{
	const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');

	if (!dot || (slash && dot < slash) || (strcmp(dot, ".png") && strcmp(dot, ".svg"))) {
		snprintf(err, len, "%s: the output must end in .png or .svg", out);
		return -1;
	}
	pp->svg = !strcmp(dot, ".svg");
	snprintf(pp->dir, sizeof(pp->dir), "%.*s", slash ? (int)(slash - out) : 1,
		 slash ? out : ".");
	if (!pp->dir[0])
		snprintf(pp->dir, sizeof(pp->dir), "/");
	snprintf(pp->dat, sizeof(pp->dat), "%.*s.dat", (int)(dot - out), out);
	snprintf(pp->gp, sizeof(pp->gp), "%.*s.gp", (int)(dot - out), out);
	return 0;
}

/* The .gp: header, the panels, the end; saved atomically. */
static int write_gp(const struct plot_paths *pp, const struct plotter *p, const char *body,
		    const char *plotdir, const char *out, char *err, size_t len)
{
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	int rc;

	if (!f) {
		snprintf(err, len, "%s: %s", pp->gp, strerror(errno));
		return -1;
	}
	gp_header(f, p, plotdir, base_name(out), pp->svg);
	fputs(body, f);
	fputs("unset multiplot\nset output", f);
	rc = fclose(f) ? -1 : 0;
	if (rc)
		snprintf(err, len, "%s: out of memory", pp->gp);
	else
		rc = pb_file_save(pp->gp, text, false, err, len);
	free(text);
	return rc;
}

/* The .dat (saved atomically) and the panels' commands (*body). */
static int write_data(struct plotter *p, const struct plot_paths *pp, char **body,
		      char *err, size_t len)
{
	size_t blen = 0, dlen = 0;
	char *dat = NULL;
	int rc = 0;

	p->dat = open_memstream(&dat, &dlen);
	p->gp = open_memstream(body, &blen);
	if (!p->dat || !p->gp) {
		snprintf(err, len, "%s: %s", pp->dat, strerror(errno));
		rc = -1;
	} else {
		fprintf(p->dat, "# pinbench plot data: blocks (gnuplot index) as named in %s\n",
			base_name(pp->gp));
		all_panels(p);
	}
	if (p->gp && fclose(p->gp))
		rc = -1;
	if (p->dat && fclose(p->dat))
		rc = -1;
	if (!rc && !p->panels) {
		snprintf(err, len, "nothing to plot: no job has values");
		rc = -1;
	}
	if (!rc)
		rc = pb_file_save(pp->dat, dat, false, err, len);
	free(dat);
	return rc;
}

/*
 * The image, whole or not at all: gnuplot writes it on its stdout into a
 * temporary file beside out that pinbench made itself, which then replaces
 * out (a symlink planted there is replaced, never written through).
 */
static int plot_image(const char *gnuplot, const struct plot_paths *pp, const char *out,
		      char *err, size_t len)
{
	char tmp[PATH_MAX + 16];
	struct stat st;
	int fd = pb_file_temp(out, tmp, sizeof(tmp), err, len);

	if (fd < 0)
		return -1;
	if (run_gnuplot(gnuplot, pp->dir, base_name(pp->gp), fd, err, len))
		goto fail;
	if (fstat(fd, &st) || st.st_size == 0) {
		snprintf(err, len, "%s: gnuplot made no image", out);
		goto fail;
	}
	return pb_file_commit(fd, tmp, out, err, len);
fail:
	close(fd);
	unlink(tmp);
	return -1;
}

int pb_plot_write(struct pb_cmp *c, const char *baseline, const char *out, char *err,
		  size_t len)
{
	struct plotter p = { .c = c };
	char gnuplot[PATH_MAX], plotdir[PATH_MAX], *body = NULL;
	struct plot_paths pp;
	int rc;

	if (find_gnuplot(gnuplot, sizeof(gnuplot))) {
		snprintf(err, len, "gnuplot is not on PATH: install it (apt-get install "
			 "gnuplot-nox) to plot");
		return -2;
	}
	if (plot_paths(out, &pp, err, len))
		return -2;
	if (!c->order)
		pb_cmp_order(c, false);
	p.base_group = pb_cmp_resolve_baseline(c, baseline, err, len);
	if (p.base_group == -2)
		return -2;
	if (find_plot_dir(plotdir, sizeof(plotdir))) {
		snprintf(err, len, "the plot/ templates were not found (set PINBENCH_PLOT_DIR)");
		return -1;
	}
	/* significance as compare judges it: over every cell, adjusted */
	pb_cmp_adjust(c, p.base_group, true);
	p.datname = base_name(pp.dat);
	rc = write_data(&p, &pp, &body, err, len);
	if (!rc)
		rc = write_gp(&pp, &p, body, plotdir, out, err, len);
	free(body);
	return rc ? rc : plot_image(gnuplot, &pp, out, err, len);
}

/* ---- a history (nightly): each cell over the nights ---- */

#define HIST_W		800	/* one column: each panel 800 wide, as it is read */
#define HIST_H		420
#define HIST_MAX_TICS	16	/* kernels named on the x axis at most */

/* The x tics of a history panel: each kernel at its first run (every k-th when many). */
static void history_tics(FILE *gp, const struct pb_history *h, const struct pb_history_cell *c)
{
	int i, kernels = 0, every, k = 0, shown = 0;
	size_t chars = 0;

	for (i = 0; i < c->n; i++)
		kernels += !i || strcmp(h->runs[c->pt[i].run].label,
					h->runs[c->pt[i - 1].run].label);
	every = (kernels + HIST_MAX_TICS - 1) / HIST_MAX_TICS;
	fputs("set xtics (", gp);
	for (i = 0; i < c->n; i++) {
		const char *l = h->runs[c->pt[i].run].label;

		if (i && !strcmp(l, h->runs[c->pt[i - 1].run].label))
			continue;
		if (k++ % every)
			continue;
		fputs(shown++ ? ", " : "", gp);
		gp_str(gp, l);
		fprintf(gp, " %d", i);
		chars += strlen(l) + 2;
	}
	fprintf(gp, ")\nset xtics %s\nset xrange [-0.5:%d.5]\n",
		chars > 80 ? "rotate by -30" : "norotate", c->n - 1);
}

/* A block of the values of the runs judged (tonight's) or not: false when there are none. */
static bool history_values(struct plotter *p, const struct pb_history *h,
			   const struct pb_history_cell *c, bool judged, struct extent *ext)
{
	bool head = false;
	int i, k;

	for (i = 0; i < c->n; i++) {
		const struct pb_history_point *pt = &c->pt[i];

		if (h->runs[pt->run].judged != judged)
			continue;
		if (!head)
			block_head(p, judged ? "tonight" : "runs", " \"value\"");
		head = true;
		for (k = 0; k < pt->nv; k++) {
			fprintf(p->dat, "%d %.10g\n", i, pt->val[k]);
			extent_add(ext, pt->val[k], pt->val[k]);
		}
		if (!pt->nv)	/* a mean alone: the run's dot is its mean */
			fprintf(p->dat, "%d %.10g\n", i, pt->v);
	}
	return head;
}

/*
 * The data blocks of a cell, in the order they are drawn: the earlier
 * runs' values, the run means (a line), tonight's values.  Which were
 * written: bit 0, 1, 2; the y extent in ext.
 */
static int history_blocks(struct plotter *p, const struct pb_history *h,
			  const struct pb_history_cell *c, struct extent *ext)
{
	int i, made = history_values(p, h, c, false, ext) ? 1 : 0;

	block_head(p, "mean", " \"mean\" \"kernel\"");
	for (i = 0; i < c->n; i++) {
		fprintf(p->dat, "%d %.10g ", i, c->pt[i].v);
		dat_str(p->dat, h->runs[c->pt[i].run].label);
		fputc('\n', p->dat);
		extent_add(ext, c->pt[i].v, c->pt[i].v);
	}
	return made | 2 | (history_values(p, h, c, true, ext) ? 4 : 0);
}

/* The change points: a dashed line before the first run after each, with its size. */
static void history_steps(FILE *gp, const struct pb_history_cell *c)
{
	char text[200];
	int k;

	for (k = 0; k < c->nr_steps && k < PB_HISTORY_MAX_STEPS; k++) {
		const struct pb_history_step *s = &c->steps[k];

		fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lw 1.5 "
			"lc rgb \"%s\"\n", s->at - 0.5, s->at - 0.5,
			s->regression ? "#d62728" : "#2ca02c");
		snprintf(text, sizeof(text), "%s: %+.1f %%", s->label, s->change);
		fprintf(gp, "set label %d ", k + 1);
		gp_str(gp, text);
		fprintf(gp, " at %g, graph 0.04 offset 0.4,0 left front tc rgb \"%s\"\n",
			s->at - 0.5, s->regression ? "#d62728" : "#2ca02c");
	}
}

/*
 * The noise floor (floor % either side) around the mean of the earlier
 * runs since the last change point: the band tonight is judged against.
 */
static bool history_band(FILE *gp, const struct pb_history *h, const struct pb_history_cell *c,
			 double floor, struct extent *ext)
{
	int i, from = c->nr_steps ? c->steps[(c->nr_steps < PB_HISTORY_MAX_STEPS ?
						c->nr_steps : PB_HISTORY_MAX_STEPS) - 1].at : 0;
	int last = from, k = 0;
	double sum = 0, m;

	if (!isfinite(floor) || floor <= 0)
		return false;
	for (i = from; i < c->n; i++)
		if (!h->runs[c->pt[i].run].judged) {
			sum += c->pt[i].v;
			last = i;
			k++;
		}
	if (!k || sum == 0)
		return false;
	m = sum / k;
	fprintf(gp, "set object 1 rect from %g, %.10g to %g, %.10g behind fc rgb \"#cfe3f3\" "
		"fs solid 0.6 noborder\n", from - 0.5, m * (1 - floor / 100), last + 0.5,
		m * (1 + floor / 100));
	extent_add(ext, m * (1 - floor / 100), m * (1 + floor / 100));
	return true;
}

static void history_panel(struct plotter *p, const struct pb_history *h,
			  const struct pb_history_cell *c, double floor)
{
	static const char *const style[] = {
		"with points pt 7 ps 0.6 lc rgb \"#7fa7cf\" title 'each value of a run'",
		"with linespoints lw 2 pt 5 ps 0.9 lc rgb \"#1f77b4\" title 'each run''s mean'",
		"with points pt 7 ps 0.8 lc rgb \"#d62728\" title 'tonight'",
	};
	struct extent ext = { 0 };
	char title[400], sub[200];
	int first, made, b, k = 0;
	bool band;

	fputs("unset label\nunset arrow\nunset object\n", p->gp);
	first = p->index;
	made = history_blocks(p, h, c, &ext);
	band = history_band(p->gp, h, c, floor, &ext);
	history_tics(p->gp, h, c);
	history_steps(p->gp, c);
	y_axis(p, &ext, false, 3);
	snprintf(title, sizeof(title), "%s %s: %s, %d run%s (%s is better)", c->job,
		 c->placement, c->metric[0] ? c->metric : "value", c->n, c->n == 1 ? "" : "s",
		 c->higher ? "higher" : "lower");
	snprintf(sub, sizeof(sub), "%s; ", c->nr_steps ? "dashed: change points" :
		 "no change point");
	if (band)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "band: ±%.1f %% noise "
			 "floor around the %s", floor, c->nr_steps ? "mean since the last" :
			 "earlier runs' mean");
	else
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "no noise floor known "
			 "(no A/A runs)");
	fputs("set title ", p->gp);
	gp_str(p->gp, title);
	fputs(".\"\\n\".", p->gp);
	gp_str(p->gp, sub);
	snprintf(title, sizeof(title), c->unit[0] ? "%s (%s)" : "%s",
		 c->metric[0] ? c->metric : "value", !strcmp(c->unit, "us") ? "µs" : c->unit);
	fputs("\nset ylabel ", p->gp);
	gp_str(p->gp, title);
	fputs("\nset xlabel 'kernel (the runs of each in the order they ran)'\nplot ", p->gp);
	for (b = 0; b < 3; b++) {
		if (!(made & 1 << b))
			continue;
		fputs(k ? ", \\\n\t" : "", p->gp);
		gp_str(p->gp, p->datname);
		fprintf(p->gp, " index %d using 1:2 %s", first + k++, style[b]);
	}
	fputc('\n', p->gp);
	p->panels++;
}

/* The terminal of a history's .gp: [0] PNG (pngcairo when there), [1] SVG; width, height. */
static const char *const hist_term[2] = {
	"\nif (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
	"\tset terminal pngcairo size %1$d,%2$d noenhanced font \",11\"\n"
	"} else {\n\tset terminal png size %1$d,%2$d noenhanced\n}\n",
	"\nset terminal svg size %1$d,%2$d dynamic noenhanced background rgb 'white'\n",
};

/* The .gp of a history: one column of panels, the image on stdout or at image. */
static int history_gp(const struct plot_paths *pp, const struct plotter *p, const char *body,
		      const char *plotdir, const char *image, char *err, size_t len)
{
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	int rc, w = HIST_W, hh = HIST_H * p->panels;

	if (!f)
		return pb_errf(err, len, errno, "%s", pp->gp);
	fputs("# Generated by pinbench nightly; restyle freely and rerun: gnuplot THIS.gp\n"
	      "plotdir = ", f);
	gp_str(f, plotdir);
	fprintf(f, hist_term[pp->svg], w, hh);
	fputs("if (!exists(\"pinbench_stdout\")) set output ", f);
	gp_str(f, image);
	fprintf(f, "\nload plotdir.\"/common.gp\"\nset key outside top center horizontal\n"
		"set multiplot layout %d,1\n%sunset multiplot\nset output", p->panels, body);
	rc = fclose(f) ? pb_errf(err, len, 0, "%s: out of memory", pp->gp) :
	     pb_file_save(pp->gp, text, false, err, len);
	free(text);
	return rc;
}

int pb_plot_history(const struct pb_history *h, const double *floor, const char *out,
		    char *err, size_t len)
{
	char gnuplot[PATH_MAX], plotdir[PATH_MAX], *body = NULL, *dat = NULL;
	size_t blen = 0, dlen = 0;
	struct plotter p = { 0 };
	struct plot_paths pp;
	int i, rc = 0;

	if (find_gnuplot(gnuplot, sizeof(gnuplot))) {
		pb_errf(err, len, 0, "gnuplot is not on PATH: install it (apt-get install "
			"gnuplot-nox) to plot");
		return -2;
	}
	if (plot_paths(out, &pp, err, len))
		return -2;
	if (find_plot_dir(plotdir, sizeof(plotdir)))
		return pb_errf(err, len, 0, "the plot/ templates were not found (set "
			       "PINBENCH_PLOT_DIR)");
	p.datname = base_name(pp.dat);
	p.dat = open_memstream(&dat, &dlen);
	p.gp = open_memstream(&body, &blen);
	if (p.dat && p.gp) {
		fprintf(p.dat, "# pinbench nightly's history: blocks (gnuplot index) as named "
			"in %s; x: the run's place in history order\n", base_name(pp.gp));
		for (i = 0; i < h->nr_cells; i++)
			if (h->cells[i].n)
				history_panel(&p, h, &h->cells[i], floor ? floor[i] : NAN);
	}
	if ((p.gp && fclose(p.gp)) || (p.dat && fclose(p.dat)) || !p.gp || !p.dat)
		rc = pb_errf(err, len, ENOMEM, "%s", pp.dat);
	if (!rc && !p.panels)
		rc = pb_errf(err, len, 0, "nothing to plot: no cell has values");
	if (!rc)
		rc = pb_file_save(pp.dat, dat, false, err, len);
	if (!rc)
		rc = history_gp(&pp, &p, body, plotdir, base_name(out), err, len);
	free(body);
	free(dat);
	return rc ? rc : plot_image(gnuplot, &pp, out, err, len);
}
