/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.h - what cmd_run.c (options, the commands) shares with run_check.c
 * (what is checked before anything runs) and run_show.c (what a run and
 * its plan print).
 */
#ifndef PINBENCH_CLI_RUN_H
#define PINBENCH_CLI_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "core/execute.h"
#include "core/jobfile.h"
#include "report/save.h"

struct run_opts {
	const char	*outdir;
	bool		json;
	bool		csv;		/* --format csv */
	bool		verbose;	/* -v: every table as jobs end, the detail */
	bool		quiet;
	bool		dry_run;
	bool		wait;		/* for CPUs another process holds */
	const char	*wait_timeout;	/* --wait-timeout, or NULL */
	double		wait_s;		/* how long --wait waits at most */
	const char	*label;
	const char	*topology;
	const char	*seed;		/* --seed, or NULL: one is drawn */
	const char	*until;		/* --until PCT[,BUDGET], or NULL */
	double		until_frac;	/* its PCT / 100; 0 without --until */
	double		budget_s;	/* its BUDGET, or UNTIL_BUDGET_S */
	int		untrusted_exit;	/* PINBENCH_UNTRUSTED_EXIT: 3, or 0 */
	bool		judged_after;	/* the caller judges the findings (bisect-check):
					 * no exit code said for them */
	const char	*noise;		/* --noise FILE (--dry-run), or NULL */
	const char	*min_change_s;	/* --min-change PCT (--dry-run), or NULL */
	double		min_change;	/* its PCT / 100; PB_CMP_MIN_CHG / 100 */
	unsigned long	seed_value;
	struct pb_kv	*over;
	int		nr_over;
	char		*cmdline;
	char		kernel[65];
	bool		started;	/* every check passed: the jobs began to run */
	char		*saved;		/* not NULL: the result file's path, "" none */
	size_t		saved_len;
};

/* Event names of js into evl[js->nr]: 0, or 2 (said). */
int run_check_events(struct pb_jobset *js, struct pb_evlist *evl);
/*
 * What a run checks before anything runs, for a run and --dry-run alike:
 * event names (libpfm4), cpus= against this machine, the results folder.
 * 0, or 2 (said).
 */
int run_check(const struct run_opts *o, const struct pb_topo *t, struct pb_jobset *sets,
	      int n);

/* --dry-run: the plan, the order of each round, the planned wall time. */
void run_print_plan(const struct pb_topo *t, const struct pb_jobset *js, FILE *f);
void run_print_order(const struct pb_jobset *js, unsigned long seed, FILE *f);
double run_print_planned(const struct pb_topo *t, struct pb_jobset *js, FILE *f);
/* --dry-run with --until: the rule, one line. */
void run_print_until(const struct run_opts *o, FILE *f);
/*
 * --dry-run with a noise profile (run_resolve.c): open it (--noise, or the
 * newest of this host's class in the results folder) and say which, or
 * why one is refused: 0 (p->root NULL when none is used), or 2 (said).
 */
struct pb_noise;
int run_noise_open(const struct run_opts *o, const struct pb_topo *t, struct pb_noise *p,
		   FILE *f);
/* Per job x placement: what one boot a kernel resolves, and --min-change takes. */
void run_print_resolution(const struct pb_jobset *js, const struct pb_noise *p,
			  double min_change, double boot_s, FILE *f);
/* "45 s", "2 min 05 s", "1 h 20 min". */
void run_dur_text(double s, char *buf, size_t len);

/* What the engine's callbacks (struct pb_exec_ops) of one job file need. */
struct run_show {
	const struct run_opts	*o;
	struct pb_saver		sv;
	char			*text;		/* the last save's JSON, for --format json */
	char			said[64][96];	/* refused events said so far */
	int			nsaid;
};

/* ops: the engine's callbacks, printing as x->o asks. */
void run_show_ops(struct run_show *x, struct pb_exec_ops *ops);
/* What the status of a run says: its last lines; returns the exit code. */
int run_said(const struct run_show *x, const struct pb_run *run,
	     const struct pb_exec_status *st);

#endif
