/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schema.h - the names and versions of every machine-readable output:
 * the result file (written by result.c, required by compare_load.c),
 * compare's, doctor's (machine and perf stat), topo's and list's JSON,
 * calibrate's noise profile (report/noise.c), a campaign's state
 * (report/campaign_state.c).
 * Their one definition; schemas/<name>-<version>.schema.json describes
 * each.  A version only adds fields; removing or changing one is a new
 * version.
 */
#ifndef PINBENCH_SCHEMA_H
#define PINBENCH_SCHEMA_H

#define PB_SCHEMA		"pinbench-result/1"
#define PB_SCHEMA_COMPARE	"pinbench-compare/1"
#define PB_SCHEMA_DOCTOR	"pinbench-doctor/1"
#define PB_SCHEMA_PERF_STAT	"pinbench-perf-stat/1"
#define PB_SCHEMA_TOPO		"pinbench-topo/1"
#define PB_SCHEMA_LIST		"pinbench-list/1"
#define PB_SCHEMA_NOISE		"pinbench-noise/1"
#define PB_SCHEMA_CAMPAIGN	"pinbench-campaign/1"

#endif
