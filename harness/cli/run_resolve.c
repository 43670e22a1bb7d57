// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_resolve.c - `pinbench run --dry-run` with a noise profile (--noise
 * FILE, or the newest of this host's class in the results folder): per
 * job x placement, what the job file will resolve between two kernels
 * booted once each, what more rounds could give at best, and how many
 * boots a kernel --min-change takes (report/noise.h's pb_noise_plan).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run.h"
#include "cli/say.h"
#include "core/plan.h"
#include "report/noise.h"
#include "report/result.h"

int run_noise_open(const struct run_opts *o, const struct pb_topo *t, struct pb_noise *p,
		   FILE *f)
{
	json_t *host = pb_host_json(t);
	char line[1024];
	int rc;

	if (!host)
		return 2;
	rc = pb_noise_pick_host(o->noise, o->outdir, host, p, line, sizeof(line));
	json_decref(host);
	if (rc == -2) {
		pb_say(stderr, "pinbench: --noise %s\n", line);
		return 2;
	}
	if (rc == 0 && o->min_change_s)
		fprintf(f, "resolution: no noise profile of this host class in %s (pinbench "
			"calibrate makes one; or --noise FILE)\n", o->outdir);
	else if (rc != 0)
		fprintf(f, "resolution, %s\n", line);
	if (rc == -1)
		pb_noise_free(p);
	return 0;
}

/* One cell's lines. */
static void print_cell(const struct pb_noise_plan *r, const char *job, const char *pl,
		       int rounds, double min_change, double boot_s, FILE *f)
{
	char d[32];

	fprintf(f, "  %s %s: one boot a kernel, %d round%s: resolves ±%.1f %%\n", job, pl, rounds,
		rounds == 1 ? "" : "s", 100 * r->mde_one);
	if (r->sd_run > 0)
		fprintf(f, "    more rounds a boot: ±%.1f %% at best\n", 100 * r->floor);
	else
		fprintf(f, "    more rounds a boot: not known (the profile has one run an "
			"invocation: calibrate with rounds=2)\n");
	fprintf(f, "    ±%.1f %% (--min-change): ", 100 * min_change);
	if (r->boots == 1) {
		fprintf(f, "one boot a kernel does\n");
		return;
	}
	if (!r->boots) {
		fprintf(f, "not within %d boots a kernel\n", PB_PLAN_MAX_BOOTS);
		return;
	}
	run_dur_text(r->boots * boot_s, d, sizeof(d));
	fprintf(f, "%d boots a kernel, a run each (%s of runs, and the reboots): ±%.1f %%\n",
		r->boots, d, 100 * r->mde_boots);
}

void run_print_resolution(const struct pb_jobset *js, const struct pb_noise *p,
			  double min_change, double boot_s, FILE *f)
{
	struct pb_plan_cell *cells;
	bool stands_in = false;
	int nr;

	if (!p->root)
		return;
	pb_plan_cells(js, &cells, &nr);
	for (int i = 0; cells && i < nr; i++) {
		const struct pb_job *j = &js->jobs[cells[i].job];
		const char *pl = pb_cell_placement(js, cells[i]);
		json_t *params = pb_job_params_json(j);
		int rounds = j->rounds > 0 ? j->rounds : 1, rc;
		struct pb_noise_plan r;
		char why[256];

		pl = pl ? pl : "cpus";	/* as the result file names it */
		rc = pb_noise_plan(p, j->name, pl, params, rounds, min_change, &r, why, sizeof(why));
		json_decref(params);
		if (rc > 0) {
			print_cell(&r, j->name, pl, rounds, min_change, boot_s, f);
			stands_in |= r.stands_in;
		} else if (rc < 0) {
			fprintf(f, "  %s %s: the profile's keys differ (%s): calibrate this job "
				"file\n", j->name, pl, why);
		} else {
			fprintf(f, "  %s %s: not in the profile: calibrate this job file\n", j->name,
				pl);
		}
	}
	if (stands_in)
		fprintf(f, "  (one boot measured: the variation between invocations stands in for "
			"boots; boot effects such\n  as memory layout are not in it)\n");
	free(cells);
}
