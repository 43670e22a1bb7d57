// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_compare.c - `pinbench compare [OPTIONS] PATH...`: its options,
 * usage and exit code; the comparison itself is report/compare.c's.
 * Also the loading of PATH... that compare and plot share.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/opts.h"
#include "report/compare.h"

static const char compare_usage[] =
	"usage: pinbench compare [OPTIONS] PATH...\n"
	"Compare result files (or folders of them, recursively): one table per job and\n"
	"placement, a row per label, the change against a baseline and its significance.\n"
	"  --group-by label|kernel|host|peer  rows are labels (default), kernels, hosts,\n"
	"                                 or the hosts of the pinbench server peer\n"
	"  --order version|given          order rows as versions (default) or as read\n"
	"  --baseline LABEL               compare against LABEL (default: the first row)\n"
	"  --min-change PCT               noise floor for a significant change (default 1)\n"
	"  --format text|markdown|csv|json\n"
	"  --no-correction                judge each cell on its own p (default: p adjusted\n"
	"                                 for the number of comparisons, Benjamini-Hochberg)\n"
	"  --fail-on-regression           exit 1 when a significant regression is found\n"
	"  --allow-different KEY[,KEY]    compare results whose workload KEYs differ\n"
	"                                 (otherwise an error, exit 2)\n"
	"  -h, --help\n";

static int parse_enum(const char *arg, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

static int bad_value(const char *arg)
{
	fprintf(stderr, "pinbench compare: bad value '%s'\n", arg);
	return PB_OPTS_USAGE;
}

static int opt_group(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_cmp_opts *co = ctx;
	int x = pb_cmp_group_parse(arg);

	(void)o;
	if (x < 0)
		return bad_value(arg);
	co->by = (enum pb_cmp_group)x;
	return PB_OPTS_OK;
}

/* --order and --format: a name from a list */
static int opt_choice(void *ctx, const struct pb_opt *o, const char *arg)
{
	static const char *const fmts[] = { "text", "markdown", "csv", "json" };
	static const char *const orders[] = { "version", "given" };
	struct pb_cmp_opts *co = ctx;
	bool fmt = !strcmp(o->name, "format");
	int x = fmt ? parse_enum(arg, fmts, 4) : parse_enum(arg, orders, 2);

	if (x < 0)
		return bad_value(arg);
	if (fmt)
		co->format = (enum pb_cmp_format)x;
	else
		co->order_given = x == 1;
	return PB_OPTS_OK;
}

static int opt_min_change(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_cmp_opts *co = ctx;
	char *end;

	(void)o;
	co->min_change = strtod(arg, &end);
	if (end == arg || *end || co->min_change < 0)
		return bad_value(arg);
	return PB_OPTS_OK;
}

/* PB_OPTS_OK, or the status with the usage or a message printed */
static int compare_opts(int argc, char **argv, struct pb_cmp_opts *o, bool *fail)
{
	const struct pb_opt t[] = {
		{ "group-by", 0, true, NULL, NULL, opt_group },
		{ "order", 0, true, NULL, NULL, opt_choice },
		{ "baseline", 0, true, NULL, &o->baseline, NULL },
		{ "min-change", 0, true, NULL, NULL, opt_min_change },
		{ "format", 0, true, NULL, NULL, opt_choice },
		{ "fail-on-regression", 0, false, fail, NULL, NULL },
		{ "no-correction", 0, false, &o->no_correction, NULL, NULL },
		{ "allow-different", 0, true, NULL, &o->allow_different, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	int rc;

	rc = pb_opts_usage(pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), o, NULL), compare_usage);
	if (rc)
		return rc;
	if (optind < argc)
		return PB_OPTS_OK;
	fprintf(stderr, "pinbench compare: no result files given\n%s", compare_usage);
	return PB_OPTS_FAILED;
}

int pb_cli_load(struct pb_cmp *c, char **paths, int n, const char *who)
{
	char err[512];
	int i, rc;

	rc = pb_cmp_load_all(c, paths, n, err, sizeof(err));
	for (i = 0; i < c->nr_skipped; i++)
		fprintf(stderr, "pinbench %s: skipping %s\n", who, c->skipped[i]);
	if (rc)
		fprintf(stderr, "pinbench %s: %s\n", who, err);
	return rc ? 2 : 0;
}

int cmd_compare(int argc, char **argv)
{
	struct pb_cmp_opts o = { .min_change = PB_CMP_MIN_CHG };
	struct pb_cmp c = { 0 };
	bool fail = false;
	char err[512];
	int rc, n;

	rc = compare_opts(argc, argv, &o, &fail);
	if (rc)
		return pb_opts_exit(rc);
	c.by = o.by;
	rc = pb_cli_load(&c, argv + optind, argc - optind, "compare");
	if (!rc && pb_cmp_comparable(&c, o.allow_different, err, sizeof(err))) {
		fprintf(stderr, "pinbench compare: %s\n", err);
		rc = 2;
	}
	if (!rc) {
		pb_cmp_order(&c, o.order_given);
		n = pb_cmp_report(&c, &o, stdout, err, sizeof(err));
		fflush(stdout);
		if (n < 0)
			fprintf(stderr, "pinbench compare: %s\n", err);
		rc = n < 0 ? 2 : fail && n > 0 ? 1 : 0;
	}
	pb_cmp_free(&c);
	return rc;
}
