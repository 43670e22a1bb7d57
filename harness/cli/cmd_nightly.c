// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_nightly.c - `pinbench nightly JOBFILE --history DIR`: its options,
 * usage, messages and exit code; the steps (run, find the earlier kernel,
 * report) are report/nightly.c's.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "lib/util.h"
#include "report/compare.h"
#include "report/nightly.h"
#include "report/noise.h"

static const char nightly_usage[] =
	"usage: pinbench nightly JOBFILE --history DIR [OPTIONS]\n"
	"Run JOBFILE into DIR/<kernel release>/, compare with the newest earlier kernel\n"
	"in DIR that ran the same job file, judge against the noise the history's A/A\n"
	"runs show and its change points, write the night's report-<UTC date-time>.md\n"
	"and its plot of the history beside the result (report.md, report.png: the\n"
	"newest night's).  Exit 0 no regression, 1 a regression, 3 a job failed or\n"
	"nightly was stopped (SIGINT, SIGTERM, SIGHUP: passed on to pinbench run),\n"
	"2 usage.\n"
	"  --history DIR        the results history (required)\n"
	"  --label TEXT         this run's label (default: the kernel release)\n"
	"  --min-change PCT     noise floor for a significant change, 0..1000\n"
	"                       (default 1)\n"
	"  --no-plot            no plot\n"
	"  --noise FILE         the noise profile (pinbench calibrate) for the variation\n"
	"                       between boots (default: the newest of the host class in\n"
	"                       DIR)\n"
	"  -q                   print nothing unless there is a regression, a failure\n"
	"                       or an error (then all of it, pinbench run's output too)\n"
	"  --repeats N, --duration SEC, --placement LIST, --set KEY=VALUE\n"
	"                       passed on to pinbench run (-q too)\n"
	"  -h, --help\n";

/* -q, --repeats, --duration, --placement, --set: passed on to the run */
static int opt_forward(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_nightly_opts *n = ctx;
	struct run_nightly *rn = n->ctx;

	if (!o->name)
		n->quiet = true;
	if (rn->words + 2 > (int)(2 * sizeof(rn->fwd) / sizeof(rn->fwd[0]))) {
		pb_say(stderr, "pinbench nightly: too many options\n");
		return PB_OPTS_USAGE;
	}
	rn->fwd[rn->nr].name = o->name;
	rn->fwd[rn->nr++].arg = o->arg ? arg : NULL;
	rn->words += o->arg ? 2 : 1;
	return PB_OPTS_OK;
}

static int opt_label(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_nightly_opts *n = ctx;
	char err[PB_LABEL_MAX + 200];

	(void)o;
	if (pb_label_check(arg, err, sizeof(err))) {
		pb_say(stderr, "pinbench nightly: --label %s\n", err);
		return PB_OPTS_FAILED;
	}
	snprintf(n->label, sizeof(n->label), "%s", arg);
	return PB_OPTS_OK;
}

static int opt_no_plot(void *ctx, const struct pb_opt *o, const char *arg)
{
	(void)o;
	(void)arg;
	((struct pb_nightly_opts *)ctx)->plot = false;
	return PB_OPTS_OK;
}

static int opt_min_change(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_nightly_opts *n = ctx;

	return pb_opt_double("nightly", o->name, arg, 0, PB_MIN_CHANGE_MAX, &n->min_change);
}

/* --noise FILE: a profile that can be read, before anything runs */
static int opt_noise(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_noise p;
	char err[PATH_MAX + 128];

	(void)o;
	if (pb_noise_load(arg, &p, err, sizeof(err))) {
		pb_say(stderr, "pinbench nightly: --noise %s\n", err);
		return PB_OPTS_FAILED;
	}
	pb_noise_free(&p);
	((struct pb_nightly_opts *)ctx)->noise = arg;
	return PB_OPTS_OK;
}

/* PB_OPTS_OK, or the status with the usage or a message printed */
static int nightly_opts(int argc, char **argv, struct pb_nightly_opts *n)
{
	const struct pb_opt t[] = {
		{ "history", 0, PB_ARG_PATH, NULL, &n->history, NULL },
		{ "label", 0, true, NULL, NULL, opt_label },
		{ "min-change", 0, true, NULL, NULL, opt_min_change },
		{ "no-plot", 0, false, NULL, NULL, opt_no_plot },
		{ "noise", 0, PB_ARG_PATH, NULL, &n->noise, opt_noise },
		{ "repeats", 0, true, NULL, NULL, opt_forward },
		{ "duration", 0, true, NULL, NULL, opt_forward },
		{ "placement", 0, true, NULL, NULL, opt_forward },
		{ "set", 0, PB_ARG_MULTI, NULL, NULL, opt_forward },
		{ NULL, 'q', false, NULL, NULL, opt_forward },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	int rc;

	rc = pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), n, NULL);
	if (rc == PB_OPTS_OK && (!n->history || optind != argc - 1))
		rc = PB_OPTS_USAGE;
	if (!rc)
		rc = pb_opts_paths(argc, argv, optind, "the job file");
	if (rc)
		return pb_opts_usage(rc, nightly_usage);
	n->jobfile = argv[optind];
	return PB_OPTS_OK;
}

/*
 * 0 no regression, 1 a regression, 3 a job failed or nightly was stopped
 * by a signal (it wins over 1: the report says both), 2 a usage error or
 * no report.
 */
static int nightly_exit(const struct pb_nightly *st)
{
	if (st->run_rc || st->signal)
		return 3;
	return st->regressions > 0 ? 1 : 0;
}

int cmd_nightly(int argc, char **argv)
{
	struct run_nightly rn = { .cmdline = pb_cli_cmdline(argc, argv) };
	struct pb_nightly_opts n = { .min_change = PB_CMP_MIN_CHG, .plot = true,
				     .run = run_nightly, .ctx = &rn };
	char err[PATH_MAX + 128], *qo = NULL, *qe = NULL;
	FILE *out = stdout, *warn = stderr;
	size_t qol = 0, qel = 0;
	struct pb_nightly st;
	int rc, i;

	rc = nightly_opts(argc, argv, &n);
	if (rc) {
		free(rn.cmdline);
		return pb_opts_exit(rc);
	}
	/* -q: held back, shown only when there is something to act on */
	if (n.quiet && (!(out = open_memstream(&qo, &qol)) ||
			!(warn = open_memstream(&qe, &qel)))) {
		pb_say(stderr, "pinbench nightly: out of memory\n");
		if (out)
			fclose(out);
		free(qo);
		free(rn.cmdline);
		return 2;
	}
	rc = pb_nightly_run(&n, &st, err, sizeof(err)) ? 2 : 0;
	if (rc && err[0])
		pb_say(warn, "pinbench nightly: %s\n", err);
	for (i = 0; !rc && i < st.skipped.n; i++)
		pb_say(warn, "pinbench nightly: skipping %s\n", st.skipped.v[i]);
	if (!rc && st.signal && !st.now.n) {
		pb_say(warn, "pinbench nightly: stopped by SIG%s: pinbench run was stopped "
		       "too and saved no result; nothing filed\n", sigabbrev_np(st.signal));
		rc = 3;
	}
	if (!rc && !st.best[0] && st.same)
		pb_say(out, "pinbench nightly: no earlier kernel than %s in %s: compared with "
		       "its earlier run%s (A/A)\n", n.label, n.history, st.same == 1 ? "" : "s");
	else if (!rc && !st.best[0])
		pb_say(out, "pinbench nightly: no earlier kernel than %s in %s: nothing to "
		       "compare\n", n.label, n.history);
	if (!rc && pb_nightly_report(&n, &st, out, err, sizeof(err))) {
		pb_say(warn, "pinbench nightly: %s\n", err);
		rc = 2;
	}
	if (!rc && st.signal)
		pb_say(warn, "pinbench nightly: stopped by SIG%s: pinbench run was stopped "
		       "too; what finished is filed with its report\n", sigabbrev_np(st.signal));
	if (!rc)
		rc = nightly_exit(&st);
	if (n.quiet) {
		fclose(out);
		fclose(warn);
		if (rc) {	/* a regression, a failure, an error: all of it */
			fputs(st.run_err ? st.run_err : "", stderr);
			fputs(qe, stderr);
			fputs(st.run_out ? st.run_out : "", stdout);
			fputs(qo, stdout);
		}
		free(qo);
		free(qe);
	}
	pb_nightly_free(&st);
	free(rn.cmdline);
	return rc;
}
