// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_plot.c - `pinbench plot PATH... -o FILE.png|FILE.svg`: its options,
 * usage and exit code; the pictures are report/plot.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "report/plot.h"

static const char plot_usage[] =
	"usage: pinbench plot [OPTIONS] PATH... -o FILE.png|FILE.svg\n"
	"Plot result files (or folders of them) with gnuplot; FILE.dat and FILE.gp\n"
	"are kept beside the image.  Per job the means with each run as a dot, and\n"
	"each change against the baseline with its interval, coloured when compare\n"
	"calls it significant; cells with an error anomaly ringed; the kernels and\n"
	"machine in the caption.  Where the results' machines differ (mitigations,\n"
	"cmdline, CPU model, ...) goes to stderr, as compare prints it.\n"
	"  -o FILE                        the image (.png or .svg)\n"
	"  --group-by label|kernel|host|peer  series by label (default), kernel, host or peer\n"
	"  --order version|given          label order (default: as versions)\n"
	"  --baseline LABEL               changes against LABEL (default: the first)\n"
	"  --allow-different KEY[,KEY]    plot results whose workload KEYs differ\n"
	"                                 (otherwise an error, exit 2)\n"
	"  -h, --help\n";

struct plot_opts {
	const char	*out;
	const char	*allow;		/* --allow-different */
	const char	*baseline;
	struct pb_cmp	*c;
	bool		given;
};

static int opt_group(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct plot_opts *p = ctx;
	int x = pb_cmp_group_parse(arg);

	(void)o;
	if (x < 0)
		return PB_OPTS_USAGE;
	p->c->by = (enum pb_cmp_group)x;
	return PB_OPTS_OK;
}

static int opt_order(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct plot_opts *p = ctx;

	(void)o;
	if (strcmp(arg, "given") && strcmp(arg, "version"))
		return PB_OPTS_USAGE;
	p->given = !strcmp(arg, "given");
	return PB_OPTS_OK;
}

/* -o's folder exists: PB_OPTS_OK, or PB_OPTS_FAILED said (a usage error, not a failure) */
static int out_folder(const char *out)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(out, '/');
	struct stat st;
	int e;

	if (!slash)
		return PB_OPTS_OK;
	snprintf(dir, sizeof(dir), "%.*s", slash == out ? 1 : (int)(slash - out), out);
	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		return PB_OPTS_OK;
	e = stat(dir, &st) ? errno : ENOTDIR;
	pb_say(stderr, "pinbench plot: -o %s: the folder %s: %s\n", out, dir, strerror(e));
	return PB_OPTS_FAILED;
}

/* PB_OPTS_OK, or the status with the usage or a message printed */
static int plot_opts(int argc, char **argv, struct plot_opts *p)
{
	const struct pb_opt t[] = {
		{ "output", 'o', PB_ARG_PATH, NULL, &p->out, NULL },
		{ "group-by", 0, true, NULL, NULL, opt_group },
		{ "order", 0, true, NULL, NULL, opt_order },
		{ "allow-different", 0, true, NULL, &p->allow, NULL },
		{ "baseline", 0, true, NULL, &p->baseline, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	int rc;

	rc = pb_opts_usage(pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), p, NULL), plot_usage);
	if (rc)
		return rc;
	if (p->allow && pb_cli_allow_check(p->allow, "plot"))
		return PB_OPTS_FAILED;
	if (optind < argc && p->out)
		return out_folder(p->out) ? PB_OPTS_FAILED :
		       pb_opts_paths(argc, argv, optind, "a result file or folder");
	pb_say(stderr, "pinbench plot: %s\n%s", p->out ? "no result files given" :
		"-o FILE.png|FILE.svg is required", plot_usage);
	return PB_OPTS_FAILED;
}

/* Where the series' machines differ, as compare says it, on stderr: not in the picture. */
static void plot_env_diffs(const struct pb_cmp *c)
{
	json_t *d = pb_cmp_env_diffs(c);

	pb_cmp_env_print(stderr, d, false);
	json_decref(d);
}

int cmd_plot(int argc, char **argv)
{
	struct pb_cmp c = { 0 };
	struct plot_opts p = { .c = &c };
	char err[PATH_MAX + 128];
	int rc;

	rc = plot_opts(argc, argv, &p);
	if (rc)
		return pb_opts_exit(rc);
	rc = pb_cli_load(&c, argv + optind, argc - optind, "plot");
	if (!rc && pb_cmp_comparable(&c, p.allow, err, sizeof(err))) {
		pb_say(stderr, "pinbench plot: %s\n", err);
		rc = 2;
	}
	if (!rc) {
		pb_cmp_order(&c, p.given);
		plot_env_diffs(&c);
		rc = pb_plot_write(&c, p.baseline, p.out, err, sizeof(err));
		if (rc)
			pb_say(stderr, "pinbench plot: %s\n", err);
		else
			pb_say(stdout, "%s\n", p.out);
		rc = rc == -2 ? 2 : rc ? 1 : 0;
	}
	pb_cmp_free(&c);
	return rc;
}
