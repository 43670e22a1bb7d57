/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clock.h - the clocks the harness reads: CLOCK_MONOTONIC in seconds or
 * milliseconds (deadlines, windows, timeouts) and CLOCK_MONOTONIC_RAW in
 * nanoseconds (the clock probe: no NTP slewing inside a sample); and the
 * spin clock, ticks (the TSC on x86, else CLOCK_MONOTONIC's ns).
 */
#ifndef PINBENCH_CLOCK_H
#define PINBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static inline double pb_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline double pb_mono_ms(void)
{
	return pb_mono_s() * 1e3;
}

static inline double pb_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The spin clock: the TSC on x86 (about 12 ns a read on a VM, no call), else ns. */
static inline uint64_t pb_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/*
 * One step of a spin on the ticks: d ticks between two reads.  Up to gap
 * it is the loop's own, taken off *left; longer, up to cap, it is time the
 * task spent elsewhere and kept on CPU (an interrupt, the host's steal),
 * added to *away; longer than cap (another task's time slice), neither.
 */
static inline void pb_ticks_step(uint64_t d, uint64_t gap, uint64_t cap, uint64_t *left,
				 uint64_t *away)
{
	if (d <= gap)
		*left = d >= *left ? 0 : *left - d;
	else if (d <= cap)
		*away += d;
}

/*
 * Spin until left ticks have passed in the loop itself, each step taken
 * as pb_ticks_step() says (cap UINT64_MAX: every step over gap is away).
 */
static inline void pb_ticks_spin(uint64_t left, uint64_t gap, uint64_t cap, uint64_t *away)
{
	uint64_t t = pb_ticks(), now;

	while (left) {
		now = pb_ticks();
		pb_ticks_step(now - t, gap, cap, &left, away);
		t = now;
	}
}

/*
 * Ticks per ns, timed at the first call in the process against
 * CLOCK_MONOTONIC_RAW over 5 ms (both clocks of the wall: a slow moment of
 * the CPU does not bias it; each end read between two clock reads at most
 * 2 µs apart, so within 0.1 %); about 1 off x86.
 */
double pb_ticks_per_ns(void);

#endif
