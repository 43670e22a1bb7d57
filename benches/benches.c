// SPDX-License-Identifier: GPL-2.0-only
/* benches.c - the table of workloads, one line each in benches.h. */
#include <stddef.h>

#include "core/bench.h"
#include "benches.h"

#define PB_DECLARE(n)	extern const struct pb_bench pb_bench_##n;
#define PB_ENTRY(n)	&pb_bench_##n,

PB_BENCHES(PB_DECLARE)

const struct pb_bench *const pb_benches[] = {
	PB_BENCHES(PB_ENTRY)
	NULL
};
