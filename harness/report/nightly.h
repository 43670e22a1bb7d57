/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nightly.h - the steps of `pinbench nightly` (report/nightly.c): run a
 * job file into a history folder, find the newest earlier kernel that ran
 * it, and write the report.
 */
#ifndef PINBENCH_NIGHTLY_H
#define PINBENCH_NIGHTLY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pb_nightly_opts {
	const char	*jobfile;
	const char	*history;
	char		label[128];	/* "": pb_nightly_run() puts the kernel release */
	double		min_change;
	const char	*noise;		/* --noise FILE; NULL: the newest in history */
	bool		plot;
	bool		quiet;		/* -q: cli prints only a regression or a failure */
	/*
	 * The job file's run into history/label (cli's: the run engine with
	 * run's options and printing): its exit code, 0, 1 or 2.  Called in a
	 * child process; ctx is the caller's.
	 */
	int		(*run)(const struct pb_nightly_opts *n);
	void		*ctx;
};

/* A list of file paths. */
struct pb_paths {
	char	**v;
	int	n;
};

/* What a nightly run found. */
struct pb_nightly {
	struct pb_paths	before;		/* the history's result files before the run */
	struct pb_paths	now;		/* those the run wrote */
	struct pb_paths	prev;		/* those of the kernel to compare with */
	struct pb_paths	skipped;	/* "PATH: why" of files that could not be read */
	struct pb_paths	series;		/* every earlier file of this job file, any label */
	int		same;		/* how many of them are this label's (A/A) */
	char		best[128];	/* the kernel to compare with, "" none */
	int		run_rc;		/* pinbench run's exit code */
	char		*run_out;	/* quiet: what pinbench run wrote to stdout, or NULL */
	char		*run_err;	/* ... and to stderr */
	int		regressions;	/* after pb_nightly_report(): significant ones
					 * beyond the noise floor, change points included */
	int		cp_regressions;	/* of which change points at this kernel */
	int		signal;		/* SIGINT, SIGTERM or SIGHUP received (passed on
					 * to pinbench run, waited for), or 0 */
};

/*
 * Run the job file into the history and find what to compare with: 0, or
 * -1 with err set (err may be "" when out of memory).  st is to be freed
 * with pb_nightly_free() either way.  A folder of the history that is a
 * symlink (DIR/<label>) is refused: nightly writes through none.
 * SIGINT, SIGTERM and SIGHUP are caught from here on: passed on to
 * pinbench run, which is waited for; st->signal says which came (0 then,
 * st->now what the run saved, perhaps nothing).
 */
int pb_nightly_run(struct pb_nightly_opts *n, struct pb_nightly *st, char *err, size_t len);
/*
 * Write the night's report-<UTC date-time>.md (and its .png, .gp, .dat)
 * beside the new result, under a name no file has yet (a second night of
 * a kernel keeps the first's report), and make report.md (report.png,
 * .gp, .dat) hard links to them, renamed into place (a symlink planted at
 * a name is replaced, not followed); the text report, "verdict: ..." and
 * "report: PATH (also report.md)" to out: 0, or -1 with err set.  After a signal, no plot; st->signal is updated.
 * A regression is a significant change against the newest earlier kernel
 * that is larger than the cell's noise floor (max(min_change, 2 x the
 * between-run CV the history's A/A runs show)), or a change point at this
 * kernel, in the worse direction, larger than that floor.
 */
int pb_nightly_report(const struct pb_nightly_opts *n, struct pb_nightly *st, FILE *out,
		      char *err, size_t len);
void pb_nightly_free(struct pb_nightly *st);

#endif
