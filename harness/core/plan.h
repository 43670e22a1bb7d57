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

#include "core/jobfile.h"
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

#endif
