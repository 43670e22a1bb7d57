/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result.h - a run's results as JSON (pinbench-result/1) and as text
 * tables, and the atomic write of the result file.
 */
#ifndef PINBENCH_RESULT_H
#define PINBENCH_RESULT_H

#include <stdio.h>
#include <jansson.h>

#include "core/runner.h"
#include "report/schema.h"

struct pb_run {
	const char		*label;
	const char		*config;	/* job file, or NULL */
	char			*cmdline;
	char			started[32];	/* ISO-8601 UTC */
	char			finished[32];	/* ISO-8601 UTC, "" while running */
	int			planned;	/* results the run will have when done */
	const struct pb_topo	*topo;
	json_t			*environment;	/* or NULL */
	struct pb_nominal	nominal;
	struct pb_anomalies	anomalies;	/* of the run as a whole */
	int			obs_cpu;	/* observer reference loop, -1 not run */
	double			obs_start_s, obs_end_s;
	struct pb_result	*results;
	int			nr;
};

json_t *pb_run_json(const struct pb_run *run);
json_t *pb_result_json(const struct pb_result *r, double nominal_mhz);
/* The host object: hostname, kernel, ..., topology. */
json_t *pb_host_json(const struct pb_topo *t);
/*
 * Write text and a newline to path atomically: a temporary file in the same
 * folder, fsync, then rename over path (claim false) or link to path only
 * if no file has that name (claim true: -EEXIST when one has), and fsync
 * of the folder.  -1 with err naming the step and the error that failed.
 */
int pb_file_save(const char *path, const char *text, bool claim, char *err, size_t len);
/* pb_file_save(path, j as indented JSON, false, ...). */
int pb_json_write_atomic(const char *path, json_t *j, char *err, size_t len);
/* mkdir -p */
int pb_mkdirs(const char *path);

/* Text tables: one per job, a row per placement, per-op counters below. */
void pb_run_print_text(const struct pb_run *run, FILE *f);
/* Scaling tables of sweep jobs ("SECTION/threads=N"): value, per-instance min/max, efficiency. */
void pb_run_print_sweeps(const struct pb_run *run, FILE *f);

#endif
