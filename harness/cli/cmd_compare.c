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
#include "cli/say.h"
#include "cli/noise_arg.h"
#include "cli/opts.h"
#include "core/jobfile.h"
#include "report/compare.h"
#include "report/fleet.h"
#include "lib/util.h"

static const char compare_usage[] =
	"usage: pinbench compare [OPTIONS] PATH...\n"
	"Compare result files (or folders of them, recursively): one table per job and\n"
	"placement, a row per label, the change against a baseline and its significance.\n"
	"  --group-by label|kernel|host|peer|class  rows are labels (default), kernels,\n"
	"                                 hosts, the hosts of the pinbench server peer, or\n"
	"                                 host classes (CPU model and topology)\n"
	"  --by-class                     many machines: one comparison per host class\n"
	"                                 (CPU model and topology), never two classes in\n"
	"                                 one table, then the fleet summary: per class the\n"
	"                                 cells that regressed (text or markdown)\n"
	"  --order version|given          order rows as versions (default) or as read\n"
	"  --baseline LABEL               compare against LABEL (default: the first row)\n"
	"  --min-change PCT               noise floor for a significant change, 0..1000\n"
	"                                 (default 1)\n"
	"  --format text|markdown|csv|json\n"
	"  --no-correction                judge each cell on its own p (default: p adjusted\n"
	"                                 for the number of comparisons, Benjamini-Hochberg)\n"
	"  --profiles                     where the change went (profile=on results) for\n"
	"                                 every cell, not only the significant ones\n"
	"  --test auto|rank|welch         rank: the Hodges-Lehmann ratio and Mann-Whitney's\n"
	"                                 test; welch: the ratio of means and Welch's t-test;\n"
	"                                 auto (default): rank with 5 or more values a side\n"
	"  --fail-on-regression           exit 1 when a significant regression is found\n"
	"  --allow-different KEY[,KEY]    compare results whose workload KEYs differ\n"
	"                                 (otherwise an error, exit 2)\n"
	"  --noise FILE                   the noise profile (pinbench calibrate) for the\n"
	"                                 variation between boots (default: the newest of\n"
	"                                 the results' host class in the folders given)\n"
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
	pb_say(stderr, "pinbench compare: bad value '%s'\n", arg);
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


/* --order, --format and --test: a name from a list */
static int opt_choice(void *ctx, const struct pb_opt *o, const char *arg)
{
	static const char *const fmts[] = { "text", "markdown", "csv", "json" };
	static const char *const orders[] = { "version", "given" };
	struct pb_cmp_opts *co = ctx;
	bool fmt = !strcmp(o->name, "format"), test = !strcmp(o->name, "test");
	int x = test ? pb_cmp_test_parse(arg) : fmt ? parse_enum(arg, fmts, 4) :
		parse_enum(arg, orders, 2);

	if (x < 0)
		return bad_value(arg);
	if (test)
		co->test = (enum pb_cmp_test)x;
	else if (fmt)
		co->format = (enum pb_cmp_format)x;
	else
		co->order_given = x == 1;
	return PB_OPTS_OK;
}

static int opt_min_change(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_cmp_opts *co = ctx;

	return pb_opt_double("compare", o->name, arg, 0, PB_MIN_CHANGE_MAX, &co->min_change);
}

/* PB_OPTS_OK, or the status with the usage or a message printed */
static int compare_opts(int argc, char **argv, struct pb_cmp_opts *o, bool *fail,
			bool *by_class, const char **noise)
{
	const struct pb_opt t[] = {
		{ "group-by", 0, true, NULL, NULL, opt_group },
		{ "order", 0, true, NULL, NULL, opt_choice },
		{ "baseline", 0, true, NULL, &o->baseline, NULL },
		{ "min-change", 0, true, NULL, NULL, opt_min_change },
		{ "format", 0, true, NULL, NULL, opt_choice },
		{ "fail-on-regression", 0, false, fail, NULL, NULL },
		{ "by-class", 0, false, by_class, NULL, NULL },
		{ "no-correction", 0, false, &o->no_correction, NULL, NULL },
		{ "profiles", 0, false, &o->all_profiles, NULL, NULL },
		{ "test", 0, true, NULL, NULL, opt_choice },
		{ "allow-different", 0, true, NULL, &o->allow_different, NULL },
		{ "noise", 0, PB_ARG_PATH, NULL, noise, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	int rc;

	rc = pb_opts_usage(pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), o, NULL), compare_usage);
	if (rc)
		return rc;
	if (o->allow_different && pb_cli_allow_check(o->allow_different, "compare"))
		return PB_OPTS_FAILED;
	if (optind < argc)
		return pb_opts_paths(argc, argv, optind, "a result file or folder");
	pb_say(stderr, "pinbench compare: no result files given\n%s", compare_usage);
	return PB_OPTS_FAILED;
}

int pb_cli_load(struct pb_cmp *c, char **paths, int n, const char *who)
{
	char err[512];
	int i, rc;

	rc = pb_cmp_load_all(c, paths, n, err, sizeof(err));
	for (i = 0; i < c->nr_skipped; i++)
		pb_say(stderr, "pinbench %s: skipping %s\n", who, c->skipped[i]);
	if (rc)
		pb_say(stderr, "pinbench %s: %s\n", who, err);
	return rc ? 2 : 0;
}

int pb_cli_noise(const char *given, char **paths, int n, const struct pb_cmp *c,
		 struct pb_cli_noise *nz, struct pb_cmp_opts *o, const char *who)
{
	int r = pb_noise_pick(given, paths, n, c, &nz->p, &nz->x, nz->line, sizeof(nz->line));

	if (r == -2) {
		pb_say(stderr, "pinbench %s: --noise %s\n", who, nz->line);
		return 2;
	}
	if (nz->p.root) {	/* refused too: each table says why */
		o->between = pb_noise_between;
		o->between_ctx = &nz->x;
	}
	return 0;
}

static bool is_key(const char *k, size_t n)
{
	const struct pb_key *ks;

	for (int b = -1; b < 0 || pb_benches[b]; b++)
		for (ks = b < 0 ? pb_common_keys : pb_benches[b]->keys; ks && ks->name; ks++)
			if (strlen(ks->name) == n && !strncmp(ks->name, k, n))
				return true;
	return false;
}

int pb_cli_allow_check(const char *allow, const char *who)
{
	const struct pb_key *ks;
	const char *a = allow;
	char keys[2048] = " ", pad[64];
	size_t n;

	while (a) {
		n = strcspn(a, ",");
		if (!is_key(a, n))
			break;
		a = a[n] ? a + n + 1 : NULL;
	}
	if (!a)
		return 0;
	for (int b = -1; b < 0 || pb_benches[b]; b++) {	/* each key once */
		for (ks = b < 0 ? pb_common_keys : pb_benches[b]->keys; ks && ks->name; ks++) {
			snprintf(pad, sizeof(pad), " %s ", ks->name);
			n = strlen(keys);
			if (!strstr(keys, pad) && n + strlen(pad) < sizeof(keys))
				snprintf(keys + n, sizeof(keys) - n, "%s", pad + 1);
		}
	}
	keys[strlen(keys) - 1] = 0;
	snprintf(pad, sizeof(pad), "%.*s", (int)strcspn(a, ","), a);
	pb_str_clean(pad);	/* argv: no terminal escapes */
	pb_say(stderr, "pinbench %s: --allow-different: '%s' is no key; the keys:%s\n", who,
	       pad, keys);
	return 2;
}

/* The hosts of class k: "a, b"; its files counted. */
static void class_hosts(char **paths, int n, struct pb_fleet_class *k)
{
	struct pb_cmp hc = { .by = PB_GROUP_HOST, .only_class = k->name };
	char err[512];
	size_t off = 0;

	if (!pb_cmp_load_all(&hc, paths, n, err, sizeof(err)))
		for (int i = 0; i < hc.nr_groups && off < sizeof(k->hosts); i++)
			off += (size_t)snprintf(k->hosts + off, sizeof(k->hosts) - off, "%s%s",
						i ? ", " : "", hc.groups[i]);
	k->files = hc.nr_files;
	pb_cmp_free(&hc);
}

/* One class's comparison, headed by its name and hosts; 0, or 2 with the error said. */
static int compare_class(char **paths, int n, const struct pb_cmp_opts *o, int i, int nr,
			 struct pb_fleet_class *k)
{
	struct pb_cmp cc = { .by = o->by, .only_class = k->name, .test = o->test };
	bool md = o->format == PB_FMT_MARKDOWN;
	char err[512];
	int rc = 0;

	class_hosts(paths, n, k);
	printf(md ? "## host class %d of %d: %s\n\nhosts: %s\n\n" :
	       "=== host class %d of %d: %s\n    hosts: %s\n\n", i + 1, nr, k->name, k->hosts);
	if (pb_cmp_load_all(&cc, paths, n, err, sizeof(err)) ||
	    pb_cmp_comparable(&cc, o->allow_different, err, sizeof(err))) {
		pb_say(stderr, "pinbench compare: %s: %s\n", k->name, err);
		rc = 2;
	} else if (o->baseline && pb_cmp_find_group(&cc, o->baseline) < 0) {
		snprintf(k->note, sizeof(k->note), "no results grouped as %s", o->baseline);
		printf("not compared: %s\n\n", k->note);
	} else {
		pb_cmp_order(&cc, o->order_given);
		if (pb_cmp_report(&cc, o, stdout, err, sizeof(err)) < 0 ||
		    pb_fleet_collect(&cc, o, k)) {
			pb_say(stderr, "pinbench compare: %s: %s\n", k->name, err);
			rc = 2;
		}
		k->compared = true;
		printf("\n");
	}
	pb_cmp_free(&cc);
	return rc;
}

/* compare --by-class: a comparison per host class, then the fleet summary. */
static int compare_fleet(char **paths, int n, const struct pb_cmp_opts *o, bool fail)
{
	struct pb_cmp all = { .by = PB_GROUP_CLASS };
	struct pb_fleet_class *v = NULL;
	int rc, nr = 0, total = 0;

	if (o->format != PB_FMT_TEXT && o->format != PB_FMT_MARKDOWN) {
		pb_say(stderr, "pinbench compare: --by-class writes text or markdown\n");
		return 2;
	}
	rc = pb_cli_load(&all, paths, n, "compare");
	if (!rc) {
		nr = all.nr_groups;
		v = calloc((size_t)nr, sizeof(*v));
		if (!v) {
			pb_say(stderr, "pinbench compare: out of memory\n");
			rc = 2;
		}
	}
	for (int i = 0; !rc && i < nr; i++) {
		snprintf(v[i].name, sizeof(v[i].name), "%s", all.groups[i]);
		rc = compare_class(paths, n, o, i, nr, &v[i]);
	}
	if (!rc)
		total = pb_fleet_summary(stdout, v, nr, o->format == PB_FMT_MARKDOWN);
	fflush(stdout);
	for (int i = 0; v && i < nr; i++)
		free(v[i].cells);
	free(v);
	pb_cmp_free(&all);
	return rc ? rc : fail && total > 0 ? 1 : 0;
}

int cmd_compare(int argc, char **argv)
{
	struct pb_cmp_opts o = { .min_change = PB_CMP_MIN_CHG };
	struct pb_cmp c = { 0 };
	bool fail = false, by_class = false;
	const char *noise = NULL;
	struct pb_cli_noise nz = { 0 };
	char err[512];
	int rc, n;

	rc = compare_opts(argc, argv, &o, &fail, &by_class, &noise);
	if (rc)
		return pb_opts_exit(rc);
	if (by_class && noise) {	/* a profile is of one host class */
		pb_say(stderr, "pinbench compare: --noise is for one host class, not --by-class\n");
		return 2;
	}
	if (by_class)
		return compare_fleet(argv + optind, argc - optind, &o, fail);
	c.by = o.by;
	c.test = o.test;
	rc = pb_cli_load(&c, argv + optind, argc - optind, "compare");
	if (!rc && pb_cmp_comparable(&c, o.allow_different, err, sizeof(err))) {
		pb_say(stderr, "pinbench compare: %s\n", err);
		rc = 2;
	}
	if (!rc)
		rc = pb_cli_noise(noise, argv + optind, argc - optind, &c, &nz, &o, "compare");
	if (!rc && nz.line[0])	/* the header; beside a machine-readable output */
		pb_say(o.format == PB_FMT_TEXT || o.format == PB_FMT_MARKDOWN ? stdout : stderr,
		       "%s\n\n", nz.line);
	if (!rc) {
		pb_cmp_order(&c, o.order_given);
		n = pb_cmp_report(&c, &o, stdout, err, sizeof(err));
		fflush(stdout);
		if (n < 0)
			pb_say(stderr, "pinbench compare: %s\n", err);
		rc = n < 0 ? 2 : fail && n > 0 ? 1 : 0;
	}
	pb_noise_free(&nz.p);
	pb_cmp_free(&c);
	return rc;
}
