// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan.c - what a run will do, before it does it: each job's placement
 * resolved to CPUs (once for everyone, see plan.h), the cells of the run
 * and their order round by round, the seconds they are planned to take.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/plan.h"
#include "core/runner.h"

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

const char *pb_cell_placement(const struct pb_jobset *js, struct pb_plan_cell c)
{
	const struct pb_job *j = &js->jobs[c.job];

	return j->nr_placements ? j->placements[c.pl] : NULL;
}

/* How many placements job j runs at: 1 with cpus=. */
static int nr_places(const struct pb_job *j)
{
	return j->nr_placements ? j->nr_placements : 1;
}

int pb_plan_cells(const struct pb_jobset *js, struct pb_plan_cell **cells, int *nr)
{
	int n = 0, rounds = 1;

	for (int i = 0; i < js->nr; i++)
		n += nr_places(&js->jobs[i]);
	*nr = 0;
	*cells = calloc(n ? n : 1, sizeof(**cells));
	if (!*cells)
		return 1;
	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];

		for (int p = 0; p < nr_places(j); p++)
			(*cells)[(*nr)++] = (struct pb_plan_cell){ i, p };
		if (j->rounds > rounds)
			rounds = j->rounds;
	}
	return rounds;
}

/* splitmix64: a small, good generator whose whole state is the seed. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int pb_plan_round(const struct pb_jobset *js, const struct pb_plan_cell *cells, int nr,
		  int round, int rounds, uint64_t *rng, struct pb_plan_cell *order)
{
	int n = 0;

	for (int c = 0; c < nr; c++)
		if (js->jobs[cells[c].job].rounds >= round)
			order[n++] = cells[c];
	for (int i = n - 1; rounds > 1 && i > 0; i--) {
		int k = (int)(rng_next(rng) % (uint64_t)(i + 1));
		struct pb_plan_cell tmp = order[i];

		order[i] = order[k];
		order[k] = tmp;
	}
	return n;
}

void pb_plan_where(const struct pb_topo *t, const struct pb_job *j, const char *pl,
		   struct pb_where *w)
{
	w->pl = pl;
	w->reason[0] = '\0';
	w->n = pb_plan_cpus(t, j, pl, &w->cpus, w->reason, sizeof(w->reason));
}

void pb_where_free(struct pb_where *w)
{
	free(w->cpus);
	w->cpus = NULL;
}

double pb_where_s(const struct pb_job *j, const struct pb_where *w,
		  const struct pb_evlist *evl)
{
	return w->n <= 0 && w->pl ? 0 : pb_job_expected_s(j, evl) + PB_JOB_OVERHEAD_S;
}

double pb_plan_cell_s(const struct pb_topo *t, const struct pb_job *j, const char *pl,
		      const struct pb_evlist *evl)
{
	struct pb_where w;
	double s;

	pb_plan_where(t, j, pl, &w);
	s = pb_where_s(j, &w, evl);
	pb_where_free(&w);
	return s;
}

double pb_plan_s(const struct pb_topo *t, const struct pb_jobset *js,
		 const struct pb_evlist *evl, int *runs)
{
	double sum = 0;

	if (runs)
		*runs = 0;
	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];
		int rounds = j->rounds > 1 ? j->rounds : 1;

		for (int p = 0; p < nr_places(j); p++) {
			double s = pb_plan_cell_s(t, j, pb_cell_placement(js,
						  (struct pb_plan_cell){ i, p }), &evl[i]);

			sum += rounds * s;
			if (runs)
				*runs += rounds * (s > 0);
		}
	}
	return sum;
}
