/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * invocation.h - the id of this invocation of pinbench (one `pinbench
 * run` or `pinbench bench`): the level between the boot and the run.
 * Every result file an invocation writes, and every round in it, carries
 * the same id; the next invocation draws another.
 */
#ifndef PINBENCH_INVOCATION_H
#define PINBENCH_INVOCATION_H

#define PB_INVOCATION_LEN	33	/* 32 hex digits and the '\0' */

/* 128 random bits as 32 hex digits, drawn on the first call of the process. */
const char *pb_invocation_id(void);

#endif
