/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner.h - runs one job at one placement.
 *
 * The main process forks a job process (its own process group) per job
 * and placement; the job process makes the workload's shared state,
 * starts the role instances (processes or threads), each pinned inside
 * itself, opens the counters, opens the start gate, waits out the
 * warm-up and takes one measurement window per repeat, then stops the
 * roles.  Results come back through shared memory.  The main process
 * is the watchdog: a job far over its expected time is killed and marked
 * failed; so is one whose job process dies.
 *
 * With peer=HOST[:PORT] (udpping, rr) only the client role runs here, one
 * task per instance, pinned to the first CPU of each pair of the
 * placement (or to cpus=, one per client); the job process holds the
 * control connection to `pinbench server` (proto.h) from before the
 * roles start until after they stop, and watches it through the warm-up
 * and the windows: when it closes (the server's session died) or the
 * server speaks before STOP, the job fails at once.
 */
#ifndef PINBENCH_RUNNER_H
#define PINBENCH_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/anomaly.h"
#include "core/bench.h"
#include "sys/counters.h"
#include "sys/derived.h"
#include "stats/hist.h"
#include "sys/env.h"
#include "checks/envcheck.h"
#include "checks/clockcheck.h"
#include "core/jobfile.h"
#include "core/plan.h"
#include "core/profile.h"
#include "sys/probe.h"
#include "core/remote.h"
#include "stats/stats.h"
#include "sys/topo.h"

/*
 * PB_INTERRUPTED: stopped by the user (SIGINT/SIGTERM); the windows that
 * finished are kept, and so is the summary of the metric's finished repeats.
 */
enum pb_status { PB_OK, PB_SKIPPED, PB_FAILED, PB_INTERRUPTED };

struct pb_task {
	int	role;
	int	instance;
	int	planned;		/* CPU */
	int	seen[2];		/* sched_getcpu() at start and end, -1 unknown */
};

/*
 * One window.  With datagrams lost (the workload's .lost_counter), the time the
 * primary role spent waiting for replies that never came (wait_s, per
 * instance on average) is no round trip: value comes from the ops over
 * elapsed_s - wait_s.  A window with no completed op has no value (stall):
 * it stays out of the summary.
 */
struct pb_rep {
	double		value;		/* NAN when stall */
	uint64_t	ops;
	double		elapsed_s;
	double		wait_s;		/* waiting for lost replies, excluded */
	bool		stall;		/* no op completed */
	int		pass;		/* counter pass, -1: no counters open */
	bool		in_summary;	/* one of the metric's repeats */
	double		start_s;	/* when it began: seconds after the roles started */
	uint64_t	aux[PB_MAX_AUX];
	struct pb_count	*counts;	/* [nr_groups][evl.nr] */
	struct pb_hist	*lat;		/* merged latency of the primary role, or NULL */
	uint64_t	*task_ops;	/* [nr_tasks] */
	/*
	 * The slices of the window (a sample of the primary role's ops every
	 * ~duration/50, at least 10 ms): value is the job's estimator of them
	 * (estimator=), mean_value the plain ops over elapsed_s - wait_s.
	 * Each is a metric value (the rate turned into the metric's unit).
	 */
	double		mean_value;	/* NAN when stall */
	int		nslices;
	int		outliers;	/* slices with no op or far off the median */
	double		slice_median;	/* at the median slice rate; NAN unknown */
	double		slice_trimmed;	/* at the trimmed mean of the slice rates */
	double		slice_rse;	/* its mean rate's relative SE, by batch means; NAN */
	int		slice_df;	/* that SE's degrees of freedom; 0: unknown */
	double		p50;		/* at the median latency (latency workloads), or NAN */
};


struct pb_result {
	const struct pb_job	*job;
	int			round;		/* 1-based: which execution of the job file */
	char			placement[32];	/* "cpus" when cpus= was given */
	enum pb_status		status;
	char			reason[PB_ERR_MAX];
	struct pb_metric	metric;
	struct pb_task		*tasks;
	int			nr_tasks;
	struct pb_rep		*reps;
	int			nr_reps;
	struct pb_summary	summary;
	struct pb_anomalies	anomalies;
	struct pb_evlist	evl;		/* with what the kernel refused */
	bool			counts_first;	/* the counter passes ran in the warm-up */
	int			nr_groups;	/* counter groups: tasks, or CPUs */
	char			(*group_names)[32];
	double			wall_s;		/* the whole job, start to end */
	struct pb_clock_obs	*clocks;	/* one per distinct CPU */
	int			nr_clocks;
	double			other_frac;	/* others' share of the CPUs, -1 unknown */
	/* peer=HOST: the server role ran there (tasks[] are the clients only) */
	bool			has_peer;	/* the peer answered READY */
	struct pb_peer_info	peer;
	uint64_t		peer_ops;	/* replies the peer's server roles sent */
	struct pb_profile	*profile;	/* profile=on (done: its window ran), or NULL */
};

/* A stop requested by the user (SIGINT/SIGTERM): kill the running job. */
extern volatile int pb_interrupted;
/*
 * Progress while a job runs, for the caller to show: the runner calls
 * show() (when not NULL) each time a window ends, with the job's and its
 * placement's names, and done = -1 once the job is over.
 */
struct pb_progress {
	void	(*show)(const struct pb_progress *pg, const char *job, const char *placement,
			int done, int total);
	int	job, jobs;	/* "job N of M" */
	int	round, rounds;	/* "round N of M" (rounds > 1) */
	/*
	 * What the windows are, for show() to name them: repeats windows of
	 * the timing pass (when timing), then repeats of each of passes
	 * counter passes.  And for the ETA: this job's planned seconds
	 * (pb_job_expected_s() plus the per-job overhead), the run's after
	 * it, and when this job began (pb_mono_s()).  All set by the caller.
	 */
	int	repeats, passes;
	bool	timing;
	bool	counts_first;	/* the passes' windows come first (in the warm-up) */
	double	job_s, rest_s, started;
};

double pb_job_expected_s(const struct pb_job *j, const struct pb_evlist *evl);
/*
 * Whether the counter passes run at the end of the warm-up, before the
 * metric's windows, instead of after them: with counting=separate, when
 * their windows are timed (not loops=) and together take at most half the
 * warm-up.  The metric then gets its whole warm-up (the roles keep running
 * through the passes) and the passes cost no wall time; the passes get
 * what is left of the warm-up before them, at least as long as they are.
 */
bool pb_job_counts_first(const struct pb_job *j, const struct pb_evlist *evl);

/*
 * The client for jobs with peer= (net/peer.c's pb_peer_ops); without it
 * such a job fails.
 */
void pb_runner_set_remote(const struct pb_remote_ops *ops);

/*
 * Run job j where w says (core/plan.h: its placement resolved), filling
 * r: skipped or failed at once when w has no CPUs.  The topology t is this machine's.  evl is the job's
 * resolved event list; nom the nominal clock.  The checks that need the
 * job's figures run here and land in r->anomalies: clock drift and low
 * clock (probe before, after, and after the counters are closed), noisy
 * neighbours (/proc/stat of the job's CPUs against its own task-clock),
 * migrations, run-to-run variation.
 */
void pb_run_job(const struct pb_topo *t, const struct pb_job *j,
		const struct pb_where *w, const struct pb_evlist *evl,
		const struct pb_nominal *nom, const struct pb_progress *pg,
		struct pb_result *r);
void pb_result_free(struct pb_result *r);
/* What the supervisor saw of a job besides its result, for pb_job_checks(). */
struct pb_job_seen {
	const struct pb_cpustat		*cs_before, *cs_after;	/* NULL: not taken */
	int				nr_cpus;		/* in cs_before/after */
	double				cs_s;			/* between them */
	const struct pb_others_delta	*others;		/* NULL: not taken */
	const char *const		*roles;			/* by pb_task.role */
};

/*
 * Every check of a finished job, in this order (analysis.c), each adding
 * to r->anomalies: the clock of each CPU (r->clocks[], re-probes done:
 * frequency-drift, frequency-low, probe-disturbed); the job's CPUs
 * (noisy-neighbor, cpu-steal); each task's CPUs (migration); then the
 * windows: lost, outlier-slices, stall, noisy; time-shared counters
 * (counter-multiplexed); the counters' clock against the probe
 * (counter-clock-mismatch).  Not here: the run-wide ones, the
 * environment's (env-*) and the observer's (observer-effect), and
 * shared-cpus, which the caller that took the job's CPU locks adds.
 */
void pb_job_checks(const struct pb_job_seen *s, const struct pb_nominal *nom,
		   struct pb_result *r);

/*
 * Counts of group g (-1: every group) summed over the windows that
 * counted (rep -1: all of them; else that window only) into acc[evl.nr];
 * *ops gets the ops of those windows.  Returns the number of windows.
 */
int pb_result_counts(const struct pb_result *r, int g, int rep,
		     struct pb_count *acc, double *ops);
/*
 * What a counter pass cost: ops/s over its windows (pass >= 0) and over
 * the metric's own repeats.  0, or -1 when either is unknown (no such
 * pass; counting=inline, where the metric's repeats are pass 0 itself).
 */
int pb_result_pass_rate(const struct pb_result *r, int pass, double *pass_rate,
			double *metric_rate);
/*
 * What the profile pass cost: ops/s in its window, and over the metric's
 * repeats (those in the summary).  0, or -1 when either is unknown (no
 * profile window ran, no ops in it).  Sampling a task slows what it does
 * (each context switch moves its sampling events); the profile's per-op
 * figures are its window's.
 */
int pb_result_profile_rate(const struct pb_result *r, double *prof_rate, double *metric_rate);
/*
 * Datagrams lost and ops completed over the metric's windows (rep -1) or
 * window rep; false when the workload counts no loss.  loss_rate is
 * lost / (lost + ops).
 */
bool pb_result_loss(const struct pb_result *r, int rep, uint64_t *lost, uint64_t *ops);
double pb_loss_rate(uint64_t lost, uint64_t ops);
/* Per-op figures of group g (-1: total), as pb_result_counts sums them. */
void pb_result_figures(const struct pb_result *r, int g, int rep, double nominal_mhz,
		       struct pb_figures *f);

#endif
