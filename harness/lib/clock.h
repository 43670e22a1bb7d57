/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clock.h - the clocks the harness reads: CLOCK_MONOTONIC in seconds or
 * milliseconds (deadlines, windows, timeouts) and CLOCK_MONOTONIC_RAW in
 * nanoseconds (the clock probe: no NTP slewing inside a sample).
 */
#ifndef PINBENCH_CLOCK_H
#define PINBENCH_CLOCK_H

#include <time.h>

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

#endif
