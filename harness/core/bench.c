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
#include "lib/clock.h"
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

/* The spin of pb_test_spin_ns(), a function of its own for profiles to name. */
static __attribute__((noinline)) void spin_until(uint64_t left, uint64_t gap)
{
	uint64_t away = 0;

	pb_ticks_spin(left, gap, UINT64_MAX, &away);
}

/*
 * A spin of ns nanoseconds on the CPU, read off the TSC: its cost per op
 * is the same when a noisy host makes the CPU slower, as a count of loop
 * iterations' is not (one timed at a rate once made a 20 µs spin cost
 * 28 µs when the host ran this guest slower; a VM's loop rate moves by
 * 1.5x with what shares its core).  Time away from the loop (a step
 * between two reads over 1 µs: an interrupt, preemption, the host's
 * steal) does not count, so the spin function's own time per op is ns, as
 * a profile sees it, and the op's wall time grows by what interrupted it,
 * as real code's would.  Not clock_gettime() in the loop: two of its
 * reads are tens of ns on a VM, which made a "+2 %" of a 2.3 µs round
 * trip +3.5 %; a TSC read is about 12 ns here.
 */
void pb_test_spin_ns(long ns)
{
	double tpn;

	if (ns <= 0)
		return;
	tpn = pb_ticks_per_ns();
	spin_until((uint64_t)(ns * tpn + 0.5), (uint64_t)(1000 * tpn + 0.5));
}
