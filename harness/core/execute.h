/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * execute.h - the run engine: one job file's plan (core/plan.h) run cell
 * by cell, round by round, each cell's CPUs locked meanwhile, the run
 * saved after each cell through the caller's save().  It prints nothing
 * and picks no exit code: what happens goes to the caller's callbacks
 * (struct pb_exec_ops), what came of it to struct pb_exec_status.
 */
#ifndef PINBENCH_EXECUTE_H
#define PINBENCH_EXECUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/invocation.h"
#include "core/plan.h"
#include "core/runner.h"
#include "sys/cpulock.h"

/* run --until: what came of the rule for one cell (core/plan.h). */
struct pb_until_cell {
	struct pb_plan_cell	cell;
	const char	*job, *pl;	/* its names (the job set's): pl "cpus" with cpus= */
	int		runs;		/* values judged: the cell's results that are ok */
	double		halfwidth;	/* the rule's (stopping.h), a fraction; NAN < 2 runs */
	bool		reached;
	/* not reached: "budget", "stopped", "failed" (its last run), "skipped" */
	const char	*why;
};

/* run --until PCT[,BUDGET]: the rule and what came of it. */
struct pb_until {
	double			target;		/* relative half-width, a fraction; 0: no --until */
	double			budget_s;	/* for the run, the planned rounds included */
	int			planned;	/* rounds planned before the rule's */
	/* why no more rounds were added: "reached", "budget" or "stopped" */
	const char		*end;
	double			wall_s;		/* the run's, start to end */
	struct pb_until_cell	*cells;		/* one per cell, in file order */
	int			nr;
};

/* One execution of a job file: what its result file holds. */
struct pb_run {
	const char		*label;
	const char		*config;	/* job file, or NULL */
	const char		*config_text;	/* its text as read, or NULL */
	char			*cmdline;
	char			started[32];	/* ISO-8601 UTC */
	char			finished[32];	/* ISO-8601 UTC, "" while running */
	int			planned;	/* results the run will have when done */
	int			rounds;		/* executions of the job file (rounds=) */
	unsigned long		seed;		/* of the order's shuffle */
	char			boot_id[PB_BOOT_ID_LEN];	/* "" unknown */
	char			invocation[PB_INVOCATION_LEN];	/* "" unknown */
	const struct pb_topo	*topo;
	json_t			*environment;	/* or NULL */
	struct pb_nominal	nominal;
	struct pb_anomalies	anomalies;	/* of the run as a whole */
	int			obs_cpu;	/* observer reference loop, -1 not run */
	double			obs_start_s, obs_end_s;
	struct pb_result	*results;
	int			nr;
	struct pb_until		until;		/* target 0 without --until */
};

/* What pb_execute() frees of run: its results, environment and anomalies. */
void pb_run_free(struct pb_run *run);

/* How the CPU locks are taken; when rounds are added. */
struct pb_exec_opts {
	bool	wait;		/* CPUs another process holds: wait for them ... */
	double	wait_s;		/* ... this long at most, then the job fails */
	/*
	 * --until: after the planned rounds, whole rounds (every cell, each
	 * round shuffled) until every cell that runs has enough runs for
	 * stats/stopping.h's rule at this target (a fraction; 0: none), or
	 * until a next round would end after budget_s from the run's start.
	 */
	double	until;
	double	budget_s;
};

/*
 * What the engine tells its caller; every member may be NULL but save.
 * ctx is handed back to each.
 */
struct pb_exec_ops {
	void	*ctx;
	/* the runner's progress line, as struct pb_progress's show() */
	void	(*progress)(const struct pb_progress *pg, const char *job,
			    const char *placement, int done, int total);
	/* job j waits for CPU h->cpu (--wait), at most limit_s */
	void	(*waiting)(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h,
			   double limit_s);
	/* job j runs although h holds one of its CPUs (no --wait) */
	void	(*shared)(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h);
	/* the lock folder cannot be used (err): the job runs unlocked */
	void	(*unlocked)(void *ctx, const char *err);
	/* a cell ended: run->results[run->nr - 1] is its result */
	void	(*job_done)(void *ctx, const struct pb_run *run);
	/*
	 * Results [from, to) make a whole: in a one-round run, the placements
	 * of one job; with rounds, a round.
	 */
	void	(*results)(void *ctx, const struct pb_run *run, int from, int to);
	/* The run is over (finished is set), before its last save. */
	void	(*finished)(void *ctx, const struct pb_run *run);
	/*
	 * Save the run as it stands (atomically: a file that is whole or
	 * not there); last is the final save.  0, or -1 when it failed.
	 */
	int	(*save)(void *ctx, const struct pb_run *run, bool last);
	/* runs one cell; NULL: pb_run_job() (a seam for the tests) */
	void	(*run_job)(const struct pb_topo *t, const struct pb_job *j,
			   const struct pb_where *w, const struct pb_evlist *evl,
			   const struct pb_nominal *nom, const struct pb_progress *pg,
			   struct pb_result *r);
};

/* What came of a run. */
struct pb_exec_status {
	bool	failed;		/* some job failed */
	bool	nothing;	/* stopped before any job finished a repeat: not saved */
	bool	lost;		/* the last save failed */
	int	saved;		/* results in the file: those of the last save that worked */
	bool	cut;		/* a stop cut a job short or left jobs unrun */
};

/*
 * Run job set js (evl[i]: job i's events, built) into run (label,
 * config, cmdline, topo, seed and started set by the caller; the rest is
 * filled here; pb_run_free() it after).  The run stops between cells, and
 * a lock wait stops, once pb_interrupted is set.  0 with *st, or -1 with
 * err when it could not start (out of memory).
 */
int pb_execute(const struct pb_exec_opts *o, const struct pb_jobset *js,
	       const struct pb_evlist *evl, const struct pb_exec_ops *ops,
	       struct pb_run *run, struct pb_exec_status *st, char *err, size_t len);

#endif
