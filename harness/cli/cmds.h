/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmds.h - the subcommands.  Each parses its own argv (argv[0] is the
 * subcommand name) through an option table (cli/opts.h) and returns the
 * process exit code: 0 ok, 1 something failed or was flagged, 2 usage
 * error.  Only main() exits.
 */
#ifndef PINBENCH_CMDS_H
#define PINBENCH_CMDS_H

#include <stddef.h>

int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_nightly(int argc, char **argv);
int cmd_server(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_bisect(int argc, char **argv);

/*
 * Shared by compare and plot (cmd_compare.c): pb_cmp_load_all(), with the
 * skipped files and any error said as "pinbench WHO: ..."; 0, or 2.
 */
struct pb_cmp;
int pb_cli_load(struct pb_cmp *c, char **paths, int n, const char *who);
/*
 * --allow-different KEY[,KEY] (cmd_compare.c): every KEY a key of some
 * workload or a common one; 0, or 2 with the valid ones said.
 */
int pb_cli_allow_check(const char *allow, const char *who);

/* "pinbench WORD...": a command line as given (cmd_run.c), to free. */
char *pb_cli_cmdline(int argc, char **argv);
/*
 * run and bench's exit when every job ran (ok or skipped) but an
 * error-severity anomaly makes a figure untrustworthy (run(1) EXIT STATUS).
 */
#define PB_EXIT_UNTRUSTED	3
/* The results folder when -o does not say: $PINBENCH_RESULTS, else "results". */
const char *pb_cli_results_dir(void);

/* Shared by nightly and run (cmd_run.c): what nightly passes on to the run. */
struct pb_nightly_opts;
struct run_nightly {
	char		*cmdline;	/* nightly's, as given: saved in the result */
	struct {
		const char	*name;	/* run's option without "--"; NULL: -q */
		const char	*arg;
	}		fwd[32];
	int		nr, words;	/* options in fwd, and their words */
};
/*
 * The job file's run as nightly asks for it (n->ctx: a struct
 * run_nightly), as `pinbench run -o HISTORY --label LABEL [OPTIONS]
 * JOBFILE` runs it: its exit code.
 */
int run_nightly(const struct pb_nightly_opts *n);
/*
 * bisect-check's run (cmd_run.c): JOBFILE as `pinbench run -q -o OUTDIR
 * --label LABEL` runs it (NULL: run's defaults), the result file's path
 * in saved ("" none); 0 (error findings too: the verdict reads them), 1
 * some job failed, it was stopped or it went wrong once running (said),
 * 2 a usage or job-file error found before anything ran (said).
 */
int run_bisect(const char *jobfile, const char *outdir, const char *label, char *saved,
	       size_t len);

/*
 * What `pinbench run --dry-run -o OUTDIR -l LABEL JOBFILE` checks (cmd_run.c),
 * saying only what is wrong: 0 with *seconds the planned wall time, or 2.
 */
int run_plan_check(const char *jobfile, const char *outdir, const char *label,
		   double *seconds);

#endif
