// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_export.c - `pinbench export --format lava|lava-signal|ktap|junit
 * [--baseline PATH] PATH...`: its options, usage, output file and exit
 * code; the cases and formats are report/export.c's.
 */
#include <errno.h>
#include <getopt.h>
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
#include "report/export.h"

static const char export_usage[] =
	"usage: pinbench export --format FORMAT [OPTIONS] PATH...\n"
	"Result files (or folders of them) as test cases a lab or CI system reads: one\n"
	"per job x placement (its mean and unit as the measurement), skipped where the\n"
	"machine could not offer the placement, failed where the job failed or, with a\n"
	"baseline, regressed significantly; one more, failed, per anomaly of severity\n"
	"error.\n"
	"  --format lava         lava-test-case command lines (run them under LAVA)\n"
	"           lava-signal  <LAVA_SIGNAL_TESTCASE ...> lines (print them under LAVA)\n"
	"           ktap         KTAP version 1 (kselftest, KernelCI)\n"
	"           junit        JUnit XML (Jenkins, GitLab): a testsuite per job\n"
	"  --baseline PATH                judge against these results (file or folder)\n"
	"  --min-change PCT               noise floor of a significant change, 0..1000\n"
	"                                 (default 1)\n"
	"  --no-correction                judge each case on its own p (default: q,\n"
	"                                 adjusted for the number of cases)\n"
	"  --allow-different KEY[,KEY]    compare results whose workload KEYs differ\n"
	"  --noise FILE                   the noise profile (pinbench calibrate) for the\n"
	"                                 variation between boots, so that one boot a side\n"
	"                                 is judged at the boot level (default: the newest\n"
	"                                 of the results' host class in the folders given)\n"
	"  -o, --output FILE              write FILE (atomically) instead of stdout\n"
	"  -h, --help\n"
	"exit: 0 written (failed cases are in the output), 2 usage or unreadable results\n";

struct export_opts {
	struct pb_exp_opts	x;
	const char		*format, *baseline, *out, *allow, *noise;
	bool			no_correction;
};

static int opt_min_change(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct export_opts *e = ctx;

	return pb_opt_double("export", o->name, arg, 0, PB_MIN_CHANGE_MAX, &e->x.min_change);
}

static int export_opts(int argc, char **argv, struct export_opts *e)
{
	const struct pb_opt t[] = {
		{ "format", 0, true, NULL, &e->format, NULL },
		{ "baseline", 0, true, NULL, &e->baseline, NULL },
		{ "min-change", 0, true, NULL, NULL, opt_min_change },
		{ "no-correction", 0, false, &e->no_correction, NULL, NULL },
		{ "allow-different", 0, true, NULL, &e->allow, NULL },
		{ "noise", 0, PB_ARG_PATH, NULL, &e->noise, NULL },
		{ "output", 'o', PB_ARG_PATH, NULL, &e->out, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	int rc, f;

	rc = pb_opts_usage(pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), e, NULL),
			   export_usage);
	if (rc)
		return rc;
	if (!e->format) {
		pb_say(stderr, "pinbench export: no --format given (lava, lava-signal, ktap or "
			"junit)\n");
		return PB_OPTS_FAILED;
	}
	f = pb_exp_format_parse(e->format);
	if (f < 0) {
		pb_say(stderr, "pinbench export: unknown format '%s': want lava, lava-signal, "
			"ktap or junit\n", e->format);
		return PB_OPTS_FAILED;
	}
	e->x.format = (enum pb_exp_format)f;
	e->x.no_correction = e->no_correction;
	if (e->allow && pb_cli_allow_check(e->allow, "export"))
		return PB_OPTS_FAILED;
	if (optind < argc)
		return pb_opts_paths(argc, argv, optind, "a result file or folder");
	pb_say(stderr, "pinbench export: no result files given\n%s", export_usage);
	return PB_OPTS_FAILED;
}

/* Write to -o FILE atomically, or stdout; 0, or 2 with the error said. */
static int emit(struct pb_cmp *c, const struct export_opts *e)
{
	char err[PATH_MAX + 128], *buf = NULL;
	struct pb_exp_counts n;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f) {
		pb_say(stderr, "pinbench export: %s\n", strerror(errno));
		return 2;
	}
	rc = pb_export(c, &e->x, f, &n, err, sizeof(err));
	fclose(f);
	if (rc) {
		pb_say(stderr, "pinbench export: %s\n", err);
		free(buf);
		return 2;
	}
	if (!e->out) {
		fputs(buf, stdout);
		fflush(stdout);
	} else {
		if (len && buf[len - 1] == '\n')
			buf[len - 1] = 0;	/* pb_file_save adds it */
		rc = pb_file_save(e->out, buf, false, err, sizeof(err));
		if (rc)
			pb_say(stderr, "pinbench export: %s\n", err);
	}
	free(buf);
	if (!rc)
		pb_say(stderr, "pinbench export: %d passed, %d failed, %d skipped%s%s\n",
			n.pass, n.fail, n.skip, e->out ? ": " : "", e->out ? e->out : "");
	return rc ? 2 : 0;
}

/*
 * Results of several labels are pooled into one set of cases: said, since
 * a lab exports one run (or one label's folder) at a time.
 */
static void warn_labels(char **paths, int n)
{
	struct pb_cmp c = { .by = PB_GROUP_LABEL };
	char err[512], list[256] = "";
	size_t off = 0;

	if (!pb_cmp_load_all(&c, paths, n, err, sizeof(err)) && c.nr_groups > 1) {
		for (int i = 0; i < c.nr_groups && off < sizeof(list); i++)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
						i ? ", " : "", c.groups[i]);
		pb_say(stderr, "pinbench export: warning: the results hold %d labels (%s), "
			"pooled as one: export one label's results at a time\n", c.nr_groups,
			list);
	}
	pb_cmp_free(&c);
}

/*
 * The noise profile for the variation between boots (--noise, or the
 * newest of the results' class in the folders of the results and the
 * baseline): with it, one boot a side is judged at the boot level, and a
 * regression beyond it fails.  Said on stderr when one is used.
 */
static int export_noise(struct pb_cmp *c, const struct export_opts *e, char **paths, int n,
			struct pb_cli_noise *nz)
{
	struct pb_cmp_opts o = { 0 };
	char **all = calloc((size_t)n + 1, sizeof(*all));
	int rc;

	if (!all) {
		pb_say(stderr, "pinbench export: %s\n", strerror(ENOMEM));
		return 2;
	}
	memcpy(all, paths, (size_t)n * sizeof(*all));
	all[n] = (char *)e->baseline;
	rc = pb_cli_noise(e->noise, all, n + 1, c, nz, &o, "export");
	free(all);
	if (rc)
		return rc;
	if (nz->line[0])
		pb_say(stderr, "pinbench export: %s\n", nz->line);
	if (o.between)
		pb_cmp_ask_between(c, o.between, o.between_ctx);
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct export_opts e = { .x = { .min_change = PB_CMP_MIN_CHG, .base = -1 } };
	struct pb_cmp c = { .by = PB_GROUP_LABEL };
	struct pb_cli_noise nz = { 0 };
	char err[512];
	int rc;

	rc = export_opts(argc, argv, &e);
	if (rc)
		return pb_opts_exit(rc);
	c.force_group = "results";
	rc = pb_cli_load(&c, argv + optind, argc - optind, "export");
	if (!rc)
		warn_labels(argv + optind, argc - optind);
	if (!rc && e.baseline) {
		c.force_group = "baseline";
		rc = pb_cli_load(&c, (char **)&e.baseline, 1, "export");
		if (!rc && c.nr_groups != 2) {
			pb_say(stderr, "pinbench export: --baseline %s: no result files there "
				"but those given as results\n", e.baseline);
			rc = 2;
		}
		e.x.base = 1;
		e.x.base_name = e.baseline;
	}
	c.force_group = NULL;
	if (!rc && e.baseline && pb_cmp_comparable(&c, e.allow, err, sizeof(err))) {
		pb_say(stderr, "pinbench export: %s\n", err);
		rc = 2;
	}
	if (!rc && e.baseline)
		rc = export_noise(&c, &e, argv + optind, argc - optind, &nz);
	if (!rc) {
		pb_cmp_order(&c, true);
		e.x.cur = pb_cmp_find_group(&c, "results");
		rc = emit(&c, &e);
	}
	pb_noise_free(&nz.p);
	pb_cmp_free(&c);
	return rc;
}
