/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result.h - a run's results as JSON (pinbench-result/1, result.c) and
 * as text tables (table.c).
 */
#ifndef PINBENCH_RESULT_H
#define PINBENCH_RESULT_H

#include <stdio.h>
#include <jansson.h>

#include "core/execute.h"
#include "core/runner.h"
#include "lib/file.h"
#include "lib/schema.h"

json_t *pb_run_json(const struct pb_run *run);
/*
 * Per role instance ops/s over the metric's windows (the harmonic mean of
 * its windows' rates, as the summary averages rates): how many, min and max.
 */
int pb_instance_rates(const struct pb_result *r, double *min, double *max);
/* "ok", "skipped", "failed", "interrupted" */
const char *pb_status_name(enum pb_status s);
/* The host object: hostname, kernel, ..., topology. */
json_t *pb_host_json(const struct pb_topo *t);
/* A job's workload keys as a result file's "params": {"key": "value"}. */
json_t *pb_job_params_json(const struct pb_job *j);
/* Text tables: one per job, a row per placement, per-op counters below. */
void pb_run_print_text(const struct pb_run *run, FILE *f);
/* Scaling tables of sweep jobs ("SECTION/threads=N"): value, per-instance min/max, efficiency. */
void pb_run_print_sweeps(const struct pb_run *run, FILE *f);
/* rounds > 1: per job and placement, the rounds' means summarised. */
void pb_run_print_rounds(const struct pb_run *run, FILE *f);
/*
 * The summary of a run: a row per job x placement in job-file order (its
 * value and unit, 95 % interval, over how many repeats or rounds, what
 * another run like it resolves, its marks), a line for each figure an
 * error-severity anomaly makes untrustworthy, the marks' names.
 */
void pb_run_print_summary(const struct pb_run *run, FILE *f);
/* How many results carry an error-severity anomaly (their figure is not to be trusted). */
int pb_run_untrusted(const struct pb_run *run);
/* s and a newline, wrapped at spaces to 100 columns, the lines after the first indented by 4. */
void pb_text_wrapped(const char *s, FILE *f);
/* One CSV row per job x placement x round, after a header. */
void pb_run_print_csv(const struct pb_run *run, FILE *f);

#endif
