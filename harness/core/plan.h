/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan.h - where a job runs: the one place a job's placement (or its
 * cpus=) becomes CPUs.  --dry-run's plan, the progress line's planned
 * seconds, the CPU locks and the runner all ask here, so what is printed,
 * locked and pinned is the same list.
 */
#ifndef PINBENCH_PLAN_H
#define PINBENCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "core/jobfile.h"
#include "sys/counters.h"
#include "sys/topo.h"

/*
 * The CPUs job j pins on this host: both ends of each pair, or one per
 * worker; with peer=, only the client of each pair (its server runs on
 * the peer, on peer_cpu=).
 */
int pb_plan_nr_cpus(const struct pb_job *j);

/*
 * Job j at placement pl (NULL: its cpus=) as CPUs in role order, into
 * *cpus (to free; NULL unless it returns > 0).  With peer=, the first end
 * of each of the placement's pairs.  Returns pb_plan_nr_cpus(j); 0 when
 * this machine cannot offer the placement (skipped: reason says why); -1
 * when the job cannot run here (reason says why: a cpus= CPU the topology
 * does not offer, an unknown placement, out of memory).
 */
int pb_plan_cpus(const struct pb_topo *t, const struct pb_job *j, const char *pl,
		 int **cpus, char *reason, size_t len);

/* Job j at one placement, resolved once: what is locked, pinned and timed. */
struct pb_where {
	const char	*pl;		/* the placement, NULL with cpus= */
	int		*cpus;		/* n of them, role order; NULL unless n > 0 */
	int		n;		/* as pb_plan_cpus() returns */
	char		reason[256];	/* why not, when n <= 0 */
};

/* w: job j at placement pl (pb_plan_cpus()); pb_where_free() it after. */
void pb_plan_where(const struct pb_topo *t, const struct pb_job *j, const char *pl,
		   struct pb_where *w);
void pb_where_free(struct pb_where *w);

/* One job at one placement: a cell of the plan. */
struct pb_plan_cell {
	int	job;	/* in the job set */
	int	pl;	/* in the job's placements (0 with cpus=) */
};

/* Cell c's placement name, NULL with cpus=. */
const char *pb_cell_placement(const struct pb_jobset *js, struct pb_plan_cell c);

/*
 * Every job x placement in file order into *cells (to free; NULL when out
 * of memory); returns the rounds of the run: the most any job takes part in.
 */
int pb_plan_cells(const struct pb_jobset *js, struct pb_plan_cell **cells, int *nr);

/*
 * The cells of round `round` (those of jobs with rounds >= round) into
 * order[] (room for nr): in file order with one round, shuffled
 * (Fisher-Yates, from *rng) with more, so that a slow drift of the machine
 * spreads over every cell.  Returns how many.
 */
int pb_plan_round(const struct pb_jobset *js, const struct pb_plan_cell *cells, int nr,
		  int round, int rounds, uint64_t *rng, struct pb_plan_cell *order);

/*
 * What one job x placement adds to a run's wall time besides its warm-up
 * and windows: forking the job and its roles, the clock probes before and
 * after, the checks; measured (doc/measurements.md).
 */
#define PB_JOB_OVERHEAD_S	0.7

/* The planned seconds of job j at w: 0 when this machine skips it. */
double pb_where_s(const struct pb_job *j, const struct pb_where *w,
		  const struct pb_evlist *evl);
/* The same at placement pl. */
double pb_plan_cell_s(const struct pb_topo *t, const struct pb_job *j, const char *pl,
		      const struct pb_evlist *evl);
/*
 * The planned seconds of every job x placement x round of js (evl[i]: job
 * i's events); *runs (when not NULL) gets how many of those will run here.
 */
double pb_plan_s(const struct pb_topo *t, const struct pb_jobset *js,
		 const struct pb_evlist *evl, int *runs);

#endif
