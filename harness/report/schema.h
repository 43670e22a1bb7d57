/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schema.h - the name of the result file format, written by result.c and
 * required by the loader in compare_load.c: its one definition.
 */
#ifndef PINBENCH_SCHEMA_H
#define PINBENCH_SCHEMA_H

#define PB_SCHEMA	"pinbench-result/1"

#endif
