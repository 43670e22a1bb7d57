/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hist.h - log-linear latency histogram (HDR style), fixed size, no
 * allocation after creation, safe to place in shared memory.
 * Values in nanoseconds; relative error of a quantile below 1 %.
 */
#ifndef PINBENCH_HIST_H
#define PINBENCH_HIST_H

#include <stdint.h>

#define PB_HIST_SUB_BITS	7			/* 128 sub-buckets per power of two */
#define PB_HIST_SUB		(1u << PB_HIST_SUB_BITS)
#define PB_HIST_MAGS		40			/* up to 2^(40+7) ns */
#define PB_HIST_BUCKETS		(PB_HIST_SUB * (PB_HIST_MAGS + 1))

struct pb_hist {
	uint64_t	count;
	uint64_t	sum;		/* ns */
	uint64_t	min, max;	/* ns, exact */
	uint32_t	b[PB_HIST_BUCKETS];
};

void pb_hist_init(struct pb_hist *h);
void pb_hist_add(struct pb_hist *h, uint64_t ns);
void pb_hist_merge(struct pb_hist *dst, const struct pb_hist *src);
/* The q-quantile (0 <= q <= 1), in ns, as a bucket midpoint clamped to [min, max]; 0 when empty. */
double pb_hist_quantile(const struct pb_hist *h, double q);
double pb_hist_mean(const struct pb_hist *h);

#endif
