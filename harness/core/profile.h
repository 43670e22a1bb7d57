/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile.h - the profile pass (profile=on): one window, after the
 * metric's windows and the counter passes, in which every role task is
 * sampled (sys/sample.h); then each role's samples as folded stacks
 * (sys/fold.h) with the role's ops and task-clock of that window, so that
 * samples turn into ns per op.  The metric's windows are over before it
 * opens anything: it costs them nothing, only wall time (wall_s).  The
 * naming and folding wait until the roles have stopped.
 */
#ifndef PINBENCH_PROFILE_H
#define PINBENCH_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sys/sample.h"
#include "sys/symbols.h"

#define PB_PROF_TEXT	(96 * 1024)	/* folded text per role, at most */
#define PB_PROF_ROLES	2
/* The shortest window: 2000 samples of a busy task at PB_SAMPLE_MAX_HZ. */
#define PB_PROF_MIN_S	1.0

struct pb_prof_role {
	int			tasks;		/* instances sampled */
	uint64_t		samples, lost;
	uint64_t		ops;		/* in the window */
	uint64_t		task_clock_ns;	/* summed over the instances */
	struct pb_unresolved	un;		/* frames without a name */
	int			rest_stacks;	/* stacks in the remainder line */
	char			folded[PB_PROF_TEXT];
};

/* The pass's outcome: shared memory of the job process, then the result's. */
struct pb_profile {
	bool			done;		/* the window ran */
	struct pb_sample_event	ev;
	double			window_s;	/* the sampling window */
	double			wall_s;		/* the pass: opening to folded text */
	double			sample_cost_ns;	/* what one sample cost its task */
	uint64_t		ops;		/* the metric's (primary role's) in the window */
	char			note[600];	/* refused, hidden: said, never guessed */
	int			nr_roles;
	struct pb_prof_role	role[PB_PROF_ROLES];
};

/* A role task as the job process knows it. */
struct pb_prof_task {
	pid_t		tid;
	pid_t		pid;		/* its process, for its maps */
	int		role;
	bool		primary;	/* its ops are the metric's */
	const uint64_t	*ops;		/* its ops counter (pb_slot) */
};

/*
 * The pass in two steps.  pb_profile_sample() samples the n tasks for
 * window_s seconds (nap(arg, s) sleeps and watches the job: non-zero
 * stops the pass, *rc -1) and reads each process's maps while it still
 * runs; pb_profile_fold(), once the roles have stopped and left the CPUs
 * to it, names the frames, folds each role's stacks into p and frees the
 * run, and times what a sample costs (pb_sample_cost_ns()) while the CPUs
 * are quiet.  p->note says what was refused; p->wall_s is both steps' time.
 * pb_profile_sample() returns NULL only out of memory.
 */
struct pb_prof_run;
struct pb_prof_run *pb_profile_sample(const struct pb_prof_task *t, int n, int nr_roles,
				      double window_s, int (*nap)(void *arg, double s),
				      void *arg, struct pb_profile *p, int *rc);
void pb_profile_fold(struct pb_prof_run *run, struct pb_profile *p);

/*
 * A role's task-clock in the window less what its samples cost
 * (p->sample_cost_ns each, lost ones too): the time its samples stand for.
 */
uint64_t pb_prof_net_clock(const struct pb_profile *p, const struct pb_prof_role *r);

/* The sentence every output with a software event carries. */
#define PB_PROF_SW_NOTE	"software event: samples come from a timer interrupt, so time " \
			"with interrupts off is charged where they are enabled again"

#endif
