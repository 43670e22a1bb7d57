// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report.c - `pinbench report BASELINE NEW [-o DIR]`: two sides'
 * result files (or folders) into report.md, report.txt and the plot
 * (report.png, report.svg) in DIR; the text goes to stdout too.  The
 * report itself is report/changelog.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/noise_arg.h"
#include "cli/opts.h"
#include "lib/file.h"
#include "report/changelog.h"
#include "report/plot.h"

static const char report_usage[] =
	"usage: pinbench report [OPTIONS] BASELINE NEW\n"
	"BASELINE and NEW are result files or folders of them (a label's folder, say):\n"
	"each side's kernel, date and machine, the jobs' keys and job file, a compact\n"
	"table (Min, Mean, Stddev, CoeffVar, Max, change), the verdict per job, the\n"
	"environment differences, the anomaly legend and the command lines to\n"
	"reproduce, as DIR/report.md (to paste into a changelog), DIR/report.txt\n"
	"(72 columns, for an email; also on stdout) and the plot DIR/report.png and\n"
	"DIR/report.svg (with gnuplot).  Cells profiled on both sides (--profile) add\n"
	"where the change went and a flame graph per role, DIR/flame-*.svg.\n"
	"  -o, --output DIR               where (default report-NEW-vs-BASELINE)\n"
	"  --min-change PCT               noise floor of a significant change, 0..1000\n"
	"                                 (default 1)\n"
	"  --no-correction                judge each cell on its own p\n"
	"  --allow-different KEY[,KEY]    compare results whose workload KEYs differ\n"
	"  --no-plot                      no plot\n"
	"  --noise FILE                   the noise profile (pinbench calibrate) for the\n"
	"                                 variation between boots (default: the newest of\n"
	"                                 the results' host class in BASELINE's or NEW's folder)\n"
	"  -h, --help\n"
	"exit: 0 written, 2 usage or unreadable results\n";

struct report_opts {
	struct pb_cmp_opts	cmp;
	const char		*out;
	const char		*noise;
	bool			no_plot;
};

static int opt_min_change(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct report_opts *r = ctx;

	return pb_opt_double("report", o->name, arg, 0, PB_MIN_CHANGE_MAX, &r->cmp.min_change);
}

/*
 * The name of one side: its only label, or its labels joined with "+";
 * 0, or 2 with the error said.
 */
static int side_name(char *path, char *buf, size_t len)
{
	struct pb_cmp c = { .by = PB_GROUP_LABEL };
	size_t off = 0;
	int rc = pb_cli_load(&c, &path, 1, "report");

	buf[0] = 0;
	for (int i = 0; !rc && i < c.nr_groups && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "+" : "", c.groups[i]);
	pb_cmp_free(&c);
	return rc;
}

/* A folder name from a group name: letters, digits and ._+- kept, the rest '_'. */
static void safe_name(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (strchr("._+-", s[i]) || (s[i] >= '0' && s[i] <= '9') ||
			  (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')) ?
			 s[i] : '_';
	buf[i] = 0;
}

/* Render into memory, then save atomically; 0, or 2 with the error said. */
static int save(struct pb_cmp *c, const struct pb_changelog *cl, bool md, const char *path,
		char **text)
{
	char err[PATH_MAX + 128], *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int rc;

	if (!f) {
		pb_say(stderr, "pinbench report: %s\n", strerror(errno));
		return 2;
	}
	rc = pb_changelog_write(c, cl, md, f, err, sizeof(err));
	fclose(f);
	if (rc < 0) {
		pb_say(stderr, "pinbench report: %s\n", err);
		free(buf);
		return 2;
	}
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;		/* pb_file_save adds it */
	if (pb_file_save(path, buf, false, err, sizeof(err))) {
		pb_say(stderr, "pinbench report: %s\n", err);
		free(buf);
		return 2;
	}
	if (text)
		*text = buf;
	else
		free(buf);
	return 0;
}

static int plots(struct pb_cmp *c, const char *dir, struct pb_changelog *cl)
{
	static char png[PATH_MAX + 16], svg[PATH_MAX + 16];
	char err[PATH_MAX + 128];
	int r;

	snprintf(png, sizeof(png), "%s/report.png", dir);
	snprintf(svg, sizeof(svg), "%s/report.svg", dir);
	r = pb_plot_write(c, c->groups[cl->base], png, err, sizeof(err));
	if (!r)
		r = pb_plot_write(c, c->groups[cl->base], svg, err, sizeof(err));
	if (r) {
		pb_say(stderr, "pinbench report: no plot: %s\n", r == -2 ?
			"gnuplot is not installed (apt-get install gnuplot-nox)" : err);
		return r == -2 ? 0 : 2;
	}
	cl->png = "report.png";
	cl->svg = "report.svg";
	return 0;
}

/* The report's folder, and the flame graphs saved in it. */
struct flame_out {
	const char	*dir;
	int		n;
};

/* Save a flame graph in the report's folder (ctx): 0, or 2 with the error said. */
static int put_flame(const char *name, const char *svg, void *ctx)
{
	struct flame_out *o = ctx;
	char path[PATH_MAX + 300], err[PATH_MAX + 400], *text = strdup(svg);
	size_t n = text ? strlen(text) : 0;

	if (!text) {
		pb_say(stderr, "pinbench report: %s\n", strerror(ENOMEM));
		return 2;
	}
	if (n && text[n - 1] == '\n')
		text[n - 1] = 0;	/* pb_file_save adds it */
	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	n = (size_t)pb_file_save(path, text, false, err, sizeof(err));
	free(text);
	if (n)
		pb_say(stderr, "pinbench report: %s\n", err);
	else
		o->n++;
	return n ? 2 : 0;
}

/* The differential flame graphs beside the report, linked from report.md */
static int flames(struct pb_cmp *c, struct flame_out *o, struct pb_changelog *cl)
{
	int rc = pb_changelog_flames(c, cl, put_flame, o);

	if (rc < 0)
		pb_say(stderr, "pinbench report: flame graphs: %s\n", strerror(ENOMEM));
	cl->flames = !rc;
	return rc ? 2 : 0;
}

/* The noise profile: --noise, or the newest in BASELINE's, NEW's or their parents' folder */
static int report_noise(const char *given, char **paths, const struct pb_cmp *c,
			struct pb_cli_noise *nz, struct pb_cmp_opts *o)
{
	char up[2][PATH_MAX], *dirs[4] = { paths[0], paths[1], up[0], up[1] };

	for (int k = 0; k < 2; k++) {
		snprintf(up[k], sizeof(up[k]), "%s", paths[k]);
		dirs[2 + k] = dirname(up[k]);
	}
	return pb_cli_noise(given, dirs, 4, c, nz, o, "report");
}

int cmd_report(int argc, char **argv)
{
	struct report_opts r = { .cmp = { .min_change = PB_CMP_MIN_CHG } };
	const struct pb_opt t[] = {
		{ "output", 'o', PB_ARG_PATH, NULL, &r.out, NULL },
		{ "min-change", 0, true, NULL, NULL, opt_min_change },
		{ "no-correction", 0, false, &r.cmp.no_correction, NULL, NULL },
		{ "allow-different", 0, true, NULL, &r.cmp.allow_different, NULL },
		{ "no-plot", 0, false, &r.no_plot, NULL, NULL },
		{ "noise", 0, PB_ARG_PATH, NULL, &r.noise, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	char names[2][256], dir[PATH_MAX], path[PATH_MAX + 16], err[512], a[128], b[128];
	struct flame_out fo = { .dir = dir };
	struct pb_changelog cl = { .cmp = &r.cmp };
	struct pb_cmp c = { .by = PB_GROUP_LABEL };
	struct pb_cli_noise nz = { 0 };
	char *text = NULL;
	int rc;

	rc = pb_opts_usage(pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), &r, NULL),
			   report_usage);
	if (rc)
		return pb_opts_exit(rc);
	if (argc - optind != 2) {
		pb_say(stderr, "pinbench report: want BASELINE and NEW, got %d path%s\n%s",
			argc - optind, argc - optind == 1 ? "" : "s", report_usage);
		return 2;
	}
	if (pb_opts_paths(argc, argv, optind, "BASELINE and NEW") ||
	    (r.cmp.allow_different && pb_cli_allow_check(r.cmp.allow_different, "report")))
		return 2;
	for (int k = 0; k < 2; k++)
		if (side_name(argv[optind + k], names[k], sizeof(names[k])))
			return 2;
	if (!strcmp(names[0], names[1]))	/* A/A: one label both sides */
		snprintf(names[1] + strlen(names[1]), sizeof(names[1]) - strlen(names[1]),
			 " (new)");
	for (int k = 0; k < 2 && !rc; k++) {
		c.force_group = names[k];
		rc = pb_cli_load(&c, &argv[optind + k], 1, "report");
	}
	c.force_group = NULL;
	if (!rc && c.nr_groups != 2) {
		pb_say(stderr, "pinbench report: BASELINE and NEW are the same files\n");
		rc = 2;
	}
	if (!rc && pb_cmp_comparable(&c, r.cmp.allow_different, err, sizeof(err))) {
		pb_say(stderr, "pinbench report: %s\n", err);
		rc = 2;
	}
	if (!rc)
		rc = report_noise(r.noise, argv + optind, &c, &nz, &r.cmp);
	if (rc)
		goto out;
	cl.noise = nz.line[0] ? nz.line : NULL;
	pb_cmp_order(&c, true);
	cl.base = pb_cmp_find_group(&c, names[0]);
	cl.cur = pb_cmp_find_group(&c, names[1]);
	safe_name(names[0], a, sizeof(a));
	safe_name(names[1], b, sizeof(b));
	if (r.out)
		snprintf(dir, sizeof(dir), "%s", r.out);
	else
		snprintf(dir, sizeof(dir), "report-%s-vs-%s", b, a);
	if (pb_mkdirs(dir)) {
		pb_say(stderr, "pinbench report: %s: %s\n", dir, strerror(errno));
		rc = 2;
		goto out;
	}
	/* the figure judged as the report is: between boots by the noise profile */
	pb_cmp_ask_between(&c, r.cmp.between, r.cmp.between_ctx);
	if (!r.no_plot)
		rc = plots(&c, dir, &cl);
	if (!rc)
		rc = flames(&c, &fo, &cl);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	if (!rc)
		rc = save(&c, &cl, true, path, NULL);
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	if (!rc)
		rc = save(&c, &cl, false, path, &text);
	if (!rc) {
		printf("%s\n", text);
		pb_say(stderr, "report: %s/report.md, %s/report.txt", dir, dir);
		if (cl.png)
			pb_say(stderr, ", %s/report.png, %s/report.svg", dir, dir);
		if (fo.n)
			pb_say(stderr, ", %d flame graph%s (%s/flame-*.svg)", fo.n,
			       fo.n > 1 ? "s" : "", dir);
		pb_say(stderr, "\n");
	}
out:
	free(text);
	pb_noise_free(&nz.p);
	pb_cmp_free(&c);
	return rc;
}
