// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - the engine of `pinbench plot` (cli/cmd_plot.c): the comparison
 * as pictures, through gnuplot.  Per job, the mean per label with 95 %
 * confidence bars, a series per placement; per sweep (job names
 * "X/threads=N"), throughput against threads with the linear-scaling line;
 * per latency workload, the percentiles.  FILE.dat and FILE.gp are kept
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
#include "report/plot.h"
#include "checks/stats.h"

#define PLOT_TIMEOUT_S	60
#define PANEL_W		560
#define PANEL_H		380

struct plotter {
	const struct pb_cmp	*c;
	FILE			*dat;
	FILE			*gp;		/* the panels (a memory stream) */
	const char		*datname;	/* basename of the .dat */
	int			index;		/* next data block */
	int			panels;
};

/*
 * A string from result data as a gnuplot string literal.  gnuplot runs
 * backquoted text as a shell command inside double quotes, never inside
 * single quotes, where the only special character is the quote itself
 * (doubled).  A control character (a newline would end the command) is
 * dropped for '?'.
 */
/* The mean and interval a point shows: of the runs, or of the repeats (as compare tests). */
static int summary_of(const struct pb_table *t, const struct pb_cell *cell, struct pb_summary *s)
{
	const double *v;
	int n = pb_cmp_values(t, cell, &v);

	return pb_summarize(v, n, t->rate, s);
}

static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '\'')
			fputs("''", f);
		else
			fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, f);
	}
	fputc('\'', f);
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

static void block_head(struct plotter *p, const char *series, const char *extra)
{
	if (p->index)
		fputs("\n\n", p->dat);
	fputs("\"x\" ", p->dat);
	dat_str(p->dat, series);
	fprintf(p->dat, "%s\n", extra);
	p->index++;
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

/* One series (a placement) of a means panel: false when it has no values. */
static bool means_series(struct plotter *p, const struct pb_table *t)
{
	const struct pb_cmp *c = p->c;
	struct pb_summary s;
	bool head = false;
	int i;

	for (i = 0; i < c->nr_groups; i++) {
		const struct pb_cell *cell = pb_cmp_cell(t, c->order[i]);

		if (!cell || !cell->n || summary_of(t, cell, &s))
			continue;
		if (!head)
			block_head(p, t->placement, " \"lo\" \"hi\"");
		head = true;
		fprintf(p->dat, "%d %.10g %.10g %.10g\n", i, s.mean, s.ci_lo, s.ci_hi);
	}
	return head;
}

static void means_panel(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	const struct pb_table *t0 = &c->t[ti];
	int i, first = p->index, n = 0;
	char title[300], ylabel[120];

	for (i = ti; i < c->nr_tables; i++)
		if (!c->t[i].sweep_base[0] && !strcmp(c->t[i].job, t0->job))
			n += means_series(p, &c->t[i]);
	if (!n)
		return;
	fputs("set xtics (", p->gp);
	for (i = 0; i < c->nr_groups; i++) {
		fputs(i ? ", " : "", p->gp);
		gp_str(p->gp, c->groups[c->order[i]]);
		fprintf(p->gp, " %d", i);
	}
	fprintf(p->gp, ")\nset xrange [-0.5:%d.5]\n", c->nr_groups - 1);
	snprintf(title, sizeof(title), "%s: %s, mean and 95%% CI (%s is better)", t0->job,
		 t0->metric, t0->higher ? "higher" : "lower");
	snprintf(ylabel, sizeof(ylabel), "%s (%s)", t0->metric,
		 !strcmp(t0->unit, "us") ? "µs" : t0->unit);
	call_panel(p, "means.gp", first, n, title, ylabel, NULL);
}

static void latency_panel(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	int i, g, k, first = p->index, n = 0;
	char series[200], title[300];

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
			for (k = 0; k < PB_LAT_N; k++)
				fprintf(p->dat, "%d %.10g\n", k, cell->lat[k] / cell->lat_w);
			n++;
		}
	}
	if (!n)
		return;
	snprintf(title, sizeof(title), "%s: latency percentiles", c->t[ti].job);
	call_panel(p, "latency.gp", first, n, title, NULL, NULL);
}

static int cmp_x(const void *a, const void *b)
{
	double x = (*(const struct pb_table *const *)a)->sweep_x;
	double y = (*(const struct pb_table *const *)b)->sweep_x;

	return x < y ? -1 : x > y;
}

/* One series of a sweep: a placement and a label, its points in x order. */
static bool sweep_series(struct plotter *p, const struct pb_table **pts, int npts, int g)
{
	double x0 = 0, y0 = 0;
	struct pb_summary s;
	char series[200];
	bool head = false;
	int i;

	for (i = 0; i < npts; i++) {
		const struct pb_cell *cell = pb_cmp_cell(pts[i], g);

		if (!cell || !cell->n || summary_of(pts[i], cell, &s))
			continue;
		if (!head) {
			snprintf(series, sizeof(series), "%s %s", p->c->groups[g],
				 pts[i]->placement);
			block_head(p, series, " \"lo\" \"hi\" \"linear\"");
			x0 = pts[i]->sweep_x;
			y0 = s.mean;
		}
		head = true;
		fprintf(p->dat, "%.10g %.10g %.10g %.10g %.10g\n", pts[i]->sweep_x, s.mean,
			s.ci_lo, s.ci_hi, x0 > 0 ? y0 * pts[i]->sweep_x / x0 : s.mean);
	}
	return head;
}

static void sweep_panel(struct plotter *p, int ti)
{
	const struct pb_cmp *c = p->c;
	const struct pb_table *t0 = &c->t[ti], **pts;
	int i, j, g, npts, first = p->index, n = 0;
	char title[300], ylabel[120];

	pts = malloc((size_t)c->nr_tables * sizeof(*pts));
	if (!pts)
		return;
	for (i = ti; i < c->nr_tables; i++) {
		bool dup = false;

		if (strcmp(c->t[i].sweep_base, t0->sweep_base))
			continue;
		for (j = ti; j < i; j++)
			dup |= !strcmp(c->t[j].sweep_base, t0->sweep_base) &&
			       !strcmp(c->t[j].placement, c->t[i].placement);
		if (dup)
			continue;
		for (npts = 0, j = i; j < c->nr_tables; j++)
			if (!strcmp(c->t[j].sweep_base, t0->sweep_base) &&
			    !strcmp(c->t[j].placement, c->t[i].placement))
				pts[npts++] = &c->t[j];
		qsort(pts, (size_t)npts, sizeof(*pts), cmp_x);
		for (g = 0; g < c->nr_groups; g++)
			n += sweep_series(p, pts, npts, c->order[g]);
	}
	free(pts);
	if (!n)
		return;
	snprintf(title, sizeof(title), "%s: %s against %s, with linear scaling",
		 t0->sweep_base, t0->metric, t0->sweep_key);
	snprintf(ylabel, sizeof(ylabel), "%s (%s)", t0->metric, t0->unit);
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
			means_panel(p, i);
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

static void gp_header(FILE *f, const struct plotter *p, const char *plotdir,
		      const char *image, bool svg)
{
	int cols = p->panels > 1 ? 2 : 1, rows = (p->panels + cols - 1) / cols;
	int w = PANEL_W * cols, h = PANEL_H * rows;

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
			"\tset terminal pngcairo size %d,%d noenhanced\n} else {\n"
			"\tset terminal png size %d,%d noenhanced\n}\n", w, h, w, h);
	fputs("set output ", f);
	gp_str(f, image);
	fputs("\nload plotdir.\"/common.gp\"\n", f);
	fprintf(f, "set multiplot layout %d,%d\n", rows, cols);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Run gnuplot on gp in dir, killed after PLOT_TIMEOUT_S. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *gp,
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
		if (chdir(dir) == 0 && freopen("/dev/null", "r", stdin))
			execl(gnuplot, "gnuplot", gp, (char *)NULL);
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

/* The .gp: header, the panels, the end. */
static int write_gp(const struct plot_paths *pp, const struct plotter *p, const char *body,
		    const char *plotdir, const char *out, char *err, size_t len)
{
	FILE *f = fopen(pp->gp, "w");

	if (!f) {
		snprintf(err, len, "%s: %s", pp->gp, strerror(errno));
		return -1;
	}
	gp_header(f, p, plotdir, base_name(out), pp->svg);
	fputs(body, f);
	fputs("unset multiplot\nset output\n", f);
	if (fclose(f)) {
		snprintf(err, len, "%s: %s", pp->gp, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_data(struct plotter *p, const struct plot_paths *pp, char **body,
		      char *err, size_t len)
{
	size_t blen = 0;
	int rc = 0;

	p->dat = fopen(pp->dat, "w");
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
	if (p->dat && fclose(p->dat) && !rc) {
		snprintf(err, len, "%s: %s", pp->dat, strerror(errno));
		rc = -1;
	}
	if (!rc && !p->panels) {
		snprintf(err, len, "nothing to plot: no job has values");
		rc = -1;
	}
	return rc;
}

int pb_plot_write(const struct pb_cmp *c, const char *out, char *err, size_t len)
{
	struct plotter p = { .c = c };
	char gnuplot[PATH_MAX], plotdir[PATH_MAX], *body = NULL;
	struct plot_paths pp;
	struct stat st;
	int rc;

	if (find_gnuplot(gnuplot, sizeof(gnuplot))) {
		snprintf(err, len, "gnuplot is not on PATH: install it (apt-get install "
			 "gnuplot-nox) to plot");
		return -2;
	}
	if (plot_paths(out, &pp, err, len))
		return -2;
	if (find_plot_dir(plotdir, sizeof(plotdir))) {
		snprintf(err, len, "the plot/ templates were not found (set PINBENCH_PLOT_DIR)");
		return -1;
	}
	p.datname = base_name(pp.dat);
	rc = write_data(&p, &pp, &body, err, len);
	if (!rc)
		rc = write_gp(&pp, &p, body, plotdir, out, err, len);
	free(body);
	if (!rc)
		rc = run_gnuplot(gnuplot, pp.dir, base_name(pp.gp), err, len);
	if (!rc && (stat(out, &st) || st.st_size == 0)) {
		snprintf(err, len, "%s: gnuplot made no image", out);
		rc = -1;
	}
	return rc;
}
