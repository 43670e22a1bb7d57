// SPDX-License-Identifier: GPL-2.0-only
/*
 * invocation.c - one id per invocation, from getrandom(2); where that is
 * missing, from the clock, the pid and the address of the id, mixed.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "core/invocation.h"

/* splitmix64: a step of the fallback's mixing */
static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void draw(uint64_t bits[2])
{
	struct timespec ts;
	uint64_t x;

	if (getrandom(bits, 2 * sizeof(bits[0]), 0) == 2 * sizeof(bits[0]))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	x ^= (uint64_t)getpid() << 40 ^ (uint64_t)(uintptr_t)bits;
	bits[0] = mix(&x);
	bits[1] = mix(&x);
}

const char *pb_invocation_id(void)
{
	static char id[PB_INVOCATION_LEN];

	if (!id[0]) {
		uint64_t bits[2];

		draw(bits);
		snprintf(id, sizeof(id), "%016llx%016llx", (unsigned long long)bits[0],
			 (unsigned long long)bits[1]);
	}
	return id;
}
