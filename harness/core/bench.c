// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench.c - the harness side of the workload interface: latency timing,
 * failure reasons, shared memory, and the workload table lookup.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/bench.h"
#include "stats/hist.h"
#include "lib/util.h"
#include "sys/sysfs.h"

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
	uint64_t t0 = ts_ns(&c->lat_t0), now, busy;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	now = ts_ns(&t1);
	/* the op owns the time since the previous attempt ended */
	busy = __atomic_load_n(&c->slot->busy_ns, __ATOMIC_RELAXED);
	busy += now - (c->lat_mark && c->lat_mark <= t0 ? c->lat_mark : t0);
	__atomic_store_n(&c->slot->busy_ns, busy, __ATOMIC_RELAXED);
	c->lat_mark = now;
	if (w < 0 || w >= c->nr_windows || !c->hist)
		return;
	pb_hist_add(c->hist[w], now - t0);
}

void pb_lat_lost(struct pb_role_ctx *c)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	c->lat_mark = ts_ns(&t1);
}

int pb_bench_lost_aux(const struct pb_bench *b)
{
	if (b->lost_counter < PB_AUX_ID(0) || b->lost_counter > PB_AUX_ID(PB_MAX_AUX - 1))
		return -1;
	return b->lost_counter - PB_AUX_ID(0);
}

long pb_bench_reply_timeout_ms(const struct pb_bench *b, const void *opts)
{
	return b->reply_timeout_ms ? b->reply_timeout_ms(opts) : 0;
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

const struct pb_bench *const *pb_benches;

const struct pb_bench *pb_bench_find(const char *name)
{
	for (int i = 0; pb_benches && pb_benches[i]; i++)
		if (!strcmp(pb_benches[i]->name, name))
			return pb_benches[i];
	return NULL;
}

bool pb_bench_peer_capable(const struct pb_bench *b)
{
	return b && b->peer_listen && b->peer_connect;
}

bool pb_bench_keeps_latency(const struct pb_bench *b)
{
	return b && b->latency;
}

void pb_benches_with(const struct pb_bench *const *tab,
		     bool (*has)(const struct pb_bench *b), char *buf, size_t len)
{
	int nr = 0, i, k = 0;
	size_t n = 0;

	for (i = 0; tab && tab[i]; i++)
		nr += has(tab[i]);
	snprintf(buf, len, "%s", nr ? "" : "none");
	for (i = 0; tab && tab[i] && n < len; i++) {
		if (!has(tab[i]))
			continue;
		k++;
		n += snprintf(buf + n, len - n, "%s%s", k == 1 ? "" : k == nr ? " and " : ", ",
			      tab[i]->name);
	}
}

long pb_sysctl_long(const char *name)
{
	long v;

	return pb_sys_read_long(&v, "/proc/sys/%s", name) ? -1 : v;
}

static __attribute__((noinline)) void spin_loops(uint64_t n)
{
	while (n--)
		asm volatile("" : "+r"(n));	/* a loop the compiler keeps */
}

static double spin_ns_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A busy wait on the clock cannot be shorter than two clock reads (tens
 * of ns on a VM: a "+2 %" of a 2.3 µs round trip came out +3.5 %), so the
 * spin is a count of loop iterations, at a rate timed once per process at
 * the first call: the 90th percentile of the rates of 128 runs of 32 k
 * iterations (10-30 µs each, 1-4 ms in all).  A role calibrates while the
 * job process and its probes start on its CPU: on a VM the loop's rate
 * there moved by 2x from one 80 µs run to the next (interruptions of about
 * 25 µs), and the best of four runs of 1 M iterations came out up to 30 %
 * below the rate the spin then ran at (a 200 µs spin took 140 µs).  Many
 * short runs see clean stretches; a high percentile rather than the best
 * one, because a noisy host's loop also has moments well above its usual
 * rate (the best of 128 made the same spin 280 µs).  A CPU slower than
 * that makes the spin longer, not shorter.
 */
void pb_test_spin_ns(long ns)
{
	static double loops_per_ns;	/* a race between threads stores the same */
	enum { RUNS = 128 };
	const uint64_t n = 1 << 15;

	if (ns <= 0)
		return;
	if (!loops_per_ns) {
		double rate[RUNS];

		for (int k = 0; k < RUNS; k++) {
			double t0 = spin_ns_now(), t;

			spin_loops(n);
			t = spin_ns_now() - t0;
			rate[k] = t > 0 ? n / t : 0;
		}
		qsort(rate, RUNS, sizeof(rate[0]), cmp_double);
		loops_per_ns = rate[RUNS * 9 / 10] > 0 ? rate[RUNS * 9 / 10] : 1;
	}
	spin_loops((uint64_t)(ns * loops_per_ns + 0.5));
}
