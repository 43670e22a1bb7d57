/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resultload.h - a result file read whole, in blocks, up to a size cap,
 * parsed and checked against pinbench-result/1 (resultload.c): what every
 * reader of result files (compare, export, report, nightly) loads through.
 */
#ifndef PINBENCH_RESULTLOAD_H
#define PINBENCH_RESULTLOAD_H

#include <stddef.h>
#include <jansson.h>

/*
 * The largest result file read: 64 MiB, about five times the largest
 * genresults makes (64 jobs x 4 placements x 100 repeats with latency and
 * derived figures: 13.5 MB).
 */
#define PB_RESULT_MAX_BYTES	(64UL << 20)

/*
 * Parse n bytes of buf (the file name): its root, checked against the
 * schema (pb_result_check), or NULL with err "NAME: cannot read: REASON
 * (line L, column C)" or "NAME: not a pinbench result: WHY".  No message
 * quotes the file's content.
 */
json_t *pb_result_parse(const char *name, const char *buf, size_t n, char *err, size_t len);
/*
 * Read fd whole (name for messages; at most PB_RESULT_MAX_BYTES: "NAME:
 * N bytes or more, over the cap of 64 MiB for a result file") and parse
 * it.  The caller closes fd.
 */
json_t *pb_result_loadfd(int fd, const char *name, char *err, size_t len);

#endif
