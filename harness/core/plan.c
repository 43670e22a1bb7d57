// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan.c - a job's placement resolved to CPUs, once for everyone (see
 * plan.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/plan.h"

int pb_plan_nr_cpus(const struct pb_job *j)
{
	bool pair = j->bench->shape == PB_SHAPE_PAIR && !pb_job_get(j, "peer");

	return pair ? 2 * j->nr_instances : j->nr_instances;
}

/* cpus=: as given (the loader matched their count), each one usable here. */
static int given_cpus(const struct pb_topo *t, const struct pb_job *j, int *cpus,
		      char *reason, size_t len)
{
	int n = pb_plan_nr_cpus(j);

	for (int i = 0; i < n; i++) {
		cpus[i] = i < j->nr_cpus ? j->cpus[i] : -1;
		if (!pb_topo_has_cpu(t, cpus[i])) {	/* the CLI says so first */
			snprintf(reason, len, "CPU %d is not available to pinbench", cpus[i]);
			return -1;
		}
	}
	return n;
}

/* A placement: its pairs or workers; with peer=, the first end of each pair. */
static int placed_cpus(const struct pb_topo *t, const struct pb_job *j, const char *pl,
		       int *cpus, char *reason, size_t len)
{
	int n = pb_plan_nr_cpus(j), rc;
	int *all = cpus;

	if (pb_job_get(j, "peer") && j->bench->shape == PB_SHAPE_PAIR) {
		all = calloc(2 * (size_t)j->nr_instances, sizeof(*all));
		if (!all) {
			snprintf(reason, len, "%s", strerror(ENOMEM));
			return -1;
		}
	}
	rc = pb_place(t, pl, j->nr_instances, all, reason, len);
	for (int i = 0; !rc && all != cpus && i < n; i++)
		cpus[i] = all[2 * i];
	if (all != cpus)
		free(all);
	return rc ? (rc < 0 ? -1 : 0) : n;
}

int pb_plan_cpus(const struct pb_topo *t, const struct pb_job *j, const char *pl,
		 int **cpus, char *reason, size_t len)
{
	int n = pb_plan_nr_cpus(j), rc;

	*cpus = calloc(n > 0 ? n : 1, sizeof(**cpus));
	if (!*cpus) {
		snprintf(reason, len, "%s", strerror(ENOMEM));
		return -1;
	}
	rc = pl ? placed_cpus(t, j, pl, *cpus, reason, len) :
		  given_cpus(t, j, *cpus, reason, len);
	if (rc <= 0) {
		free(*cpus);
		*cpus = NULL;
	}
	return rc;
}
