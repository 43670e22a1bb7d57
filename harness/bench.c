// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench.c - the harness side of the workload interface: latency timing,
 * failure reasons, shared memory, and the workload table lookup.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"
#include "hist.h"
#include "util.h"

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ull + (uint64_t)t->tv_nsec;
}

void pb_lat_begin(struct pb_role_ctx *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->lat_t0);
}

void pb_lat_end(struct pb_role_ctx *c)
{
	struct timespec t1;
	int w = __atomic_load_n(&c->slot->window, __ATOMIC_RELAXED);

	if (w < 0 || w >= c->nr_windows || !c->hist)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pb_hist_add(c->hist[w], ts_ns(&t1) - ts_ns(&c->lat_t0));
}

int pb_fail(struct pb_role_ctx *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_verrf(c->err, PB_ERR_MAX, err, fmt, ap);
	va_end(ap);
	return -1;
}

int pb_setup_fail(struct pb_setup_ctx *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_verrf(s->err, PB_ERR_MAX, err, fmt, ap);
	va_end(ap);
	return -1;
}

void *pb_shm_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void pb_shm_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

const struct pb_bench *pb_bench_find(const char *name)
{
	for (int i = 0; pb_benches[i]; i++)
		if (!strcmp(pb_benches[i]->name, name))
			return pb_benches[i];
	return NULL;
}
