// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_bisect.c - `pinbench bisect-check`, the check a `git bisect run`
 * script calls on the booted kernel: its options, usage, the one line it
 * prints and its exit code (0 like good, 1 like bad, 125 cannot tell, 2
 * usage).  The run is cmd_run.c's (run_bisect), the verdict
 * report/bisect.c's.
 */
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/noise_arg.h"
#include "cli/opts.h"
#include "cli/say.h"
#include "core/runner.h"
#include "lib/util.h"
#include "report/bisect.h"
#include "report/compare.h"

static const char bisect_usage[] =
	"usage: pinbench bisect-check --good DIR --bad DIR [OPTIONS] JOBFILE\n"
	"       pinbench bisect-check --good DIR --bad DIR [OPTIONS] --result FILE...\n"
	"Run JOBFILE on the booted kernel (or judge result FILEs) against the good and\n"
	"bad results (folders as pinbench run -o leaves them) and print one line: exit\n"
	"0 like good, 1 like bad, 125 cannot tell (a failed job, an error finding, or\n"
	"good and bad do not differ resolvably), 2 usage: for git bisect run.\n"
	"  --good DIR                     results of the good kernel(s)\n"
	"  --bad DIR                      results of the bad kernel(s)\n"
	"  --noise FILE                   the noise profile (pinbench calibrate) for the\n"
	"                                 variation between boots (default: the newest of\n"
	"                                 the results' host class in DIRs)\n"
	"  -o, --output DIR               where the run is saved (default\n"
	"                                 $PINBENCH_RESULTS/bisect, else results/bisect)\n"
	"  -l, --label TEXT               the run's label (default: the kernel release)\n"
	"  --result                       judge the result FILEs given; run nothing\n"
	"  --allow-different KEY[,KEY]    judge results whose workload KEYs differ\n"
	"  --min-change PCT               noise floor for a significant change, 0..1000\n"
	"                                 (default 1)\n"
	"  -h, --help\n";

struct bisect_opts {
	const char	*good, *bad, *noise, *out, *label, *allow;
	bool		result;
	double		min_change;
	char		outbuf[PATH_MAX];
};

static int opt_min_change(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct bisect_opts *b = ctx;

	return pb_opt_double("bisect-check", o->name, arg, 0, PB_MIN_CHANGE_MAX, &b->min_change);
}

/* PB_OPTS_OK, or the status with the usage or a message printed */
static int bisect_opts(int argc, char **argv, struct bisect_opts *o)
{
	const struct pb_opt t[] = {
		{ "good", 0, PB_ARG_PATH, NULL, &o->good, NULL },
		{ "bad", 0, PB_ARG_PATH, NULL, &o->bad, NULL },
		{ "noise", 0, PB_ARG_PATH, NULL, &o->noise, NULL },
		{ "output", 'o', PB_ARG_PATH, NULL, &o->out, NULL },
		{ "label", 'l', true, NULL, &o->label, NULL },
		{ "result", 0, false, &o->result, NULL, NULL },
		{ "allow-different", 0, true, NULL, &o->allow, NULL },
		{ "min-change", 0, true, NULL, NULL, opt_min_change },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	char err[PB_LABEL_MAX + 200];
	int rc = pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), o, NULL);

	if (rc == PB_OPTS_OK && (!o->good || !o->bad || optind >= argc ||
				 (!o->result && optind != argc - 1)))
		rc = PB_OPTS_USAGE;
	if (rc)
		return pb_opts_usage(rc, bisect_usage);
	if (o->result && (o->out || o->label)) {
		pb_say(stderr, "pinbench bisect-check: --result runs nothing: no -o or --label\n");
		return PB_OPTS_FAILED;
	}
	if (o->label && pb_label_check(o->label, err, sizeof(err))) {
		pb_say(stderr, "pinbench bisect-check: --label %s\n", err);
		return PB_OPTS_FAILED;
	}
	if (o->allow && pb_cli_allow_check(o->allow, "bisect-check"))
		return PB_OPTS_FAILED;
	return pb_opts_paths(argc, argv, optind, o->result ? "a result file" : "the job file");
}

/* The results as groups good, bad, new: 0, or 2 said. */
static int bisect_load(struct pb_cmp *c, const struct bisect_opts *o, char **files, int n)
{
	const char *groups[2] = { "good", "bad" }, *dirs[2] = { o->good, o->bad };
	char err[PATH_MAX + 256];

	for (int i = 0; i < 2 + n; i++) {
		int before = c->nr_files;

		c->force_group = i < 2 ? groups[i] : "new";
		if (pb_cmp_load(c, i < 2 ? dirs[i] : files[i - 2], err, sizeof(err))) {
			pb_say(stderr, "pinbench bisect-check: %s\n", err);
			return 2;
		}
		if (i < 2 && c->nr_files == before) {
			pb_say(stderr, "pinbench bisect-check: --%s %s: no result file\n",
			       groups[i], dirs[i]);
			return 2;
		}
	}
	for (int i = 0; i < c->nr_skipped; i++)
		pb_say(stderr, "pinbench bisect-check: skipping %s\n", c->skipped[i]);
	if (pb_cmp_comparable(c, o->allow, err, sizeof(err))) {
		pb_say(stderr, "pinbench bisect-check: %s\n", err);
		return 2;
	}
	return 0;
}

/* The verdict of the loaded results: its exit code, the line printed. */
static int bisect_judge(struct pb_cmp *c, const struct bisect_opts *o)
{
	char *dirs[2] = { (char *)o->good, (char *)o->bad }, line[1024];
	struct pb_cmp_opts co = { 0 };
	struct pb_cli_noise nz = { 0 };
	struct pb_bisect_cell *v = NULL;
	struct pb_bisect_verdict r;
	int n, rc = pb_cli_noise(o->noise, dirs, 2, c, &nz, &co, "bisect-check");

	if (!rc && nz.line[0])
		pb_say(stderr, "pinbench bisect-check: %s\n", nz.line);
	if (!rc) {
		pb_cmp_ask_between(c, co.between, co.between_ctx);
		n = pb_bisect_cells(c, pb_cmp_find_group(c, "good"), pb_cmp_find_group(c, "bad"),
				    pb_cmp_find_group(c, "new"), o->min_change, &v);
		if (n < 0) {
			pb_say(stderr, "pinbench bisect-check: out of memory\n");
			rc = 2;
		} else if (!n) {
			pb_say(stderr, "pinbench bisect-check: no job and placement of the new "
			       "results is in both %s and %s\n", o->good, o->bad);
			rc = 2;
		} else {
			pb_bisect_rule(v, n, &r);
			pb_bisect_words(v, &r, line, sizeof(line));
			pb_say(stdout, "%s\n", line);
			rc = r.exit;
		}
	}
	free(v);
	pb_noise_free(&nz.p);
	return rc;
}

/* Run the job file: 0 with saved set, or the exit code with the line said. */
static int bisect_run(struct bisect_opts *o, const char *jobfile, char *saved, size_t len)
{
	int rc;

	if (!o->out) {
		snprintf(o->outbuf, sizeof(o->outbuf), "%s/bisect", pb_cli_results_dir());
		o->out = o->outbuf;
	}
	rc = run_bisect(jobfile, o->out, o->label, saved, len);
	if (saved[0])
		pb_say(stderr, "pinbench bisect-check: the run is saved in %s\n", saved);
	if (pb_interrupted) {
		pb_say(stdout, "cannot tell: interrupted (exit 130 stops git bisect run)\n");
		return 130;
	}
	if (rc == 2)
		return 2;
	if (!saved[0]) {
		pb_say(stdout, "cannot tell: the run saved no result (pinbench run exit %d)\n",
		       rc);
		return PB_BISECT_SKIP;
	}
	return 0;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o = { .min_change = PB_CMP_MIN_CHG };
	struct pb_cmp c = { .by = PB_GROUP_LABEL };
	char saved[PATH_MAX], *one = saved;
	int rc = bisect_opts(argc, argv, &o);

	if (rc)
		return pb_opts_exit(rc);
	if (!o.result && (rc = bisect_run(&o, argv[optind], saved, sizeof(saved))))
		return rc;
	rc = o.result ? bisect_load(&c, &o, argv + optind, argc - optind) :
			bisect_load(&c, &o, &one, 1);
	if (!rc)
		rc = bisect_judge(&c, &o);
	pb_cmp_free(&c);
	return rc;
}
