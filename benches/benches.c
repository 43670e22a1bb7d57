// SPDX-License-Identifier: GPL-2.0-only
/* benches.c - the table of workloads, one line each in benches.h. */
#include <stddef.h>

#include "core/bench.h"
#include "benches.h"

#define PB_DECLARE(n)	extern const struct pb_bench pb_bench_##n;
#define PB_ENTRY(n)	&pb_bench_##n,

PB_BENCHES(PB_DECLARE)

static const struct pb_bench *const table[] = {
	PB_BENCHES(PB_ENTRY)
	NULL
};

/*
 * Handed to core before main(), so that core names nothing of this layer;
 * the Makefile links benches/ into every program for it (an archive
 * would leave this file out, as nothing refers to it).
 */
static void __attribute__((constructor)) register_benches(void)
{
	pb_benches = table;
}
