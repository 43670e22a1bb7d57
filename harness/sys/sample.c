// SPDX-License-Identifier: GPL-2.0-only
/*
 * sample.c - sampling a task with perf_event_open: the event, the ring,
 * its records.  See sample.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "sys/counters.h"
#include "sys/sample.h"
#include "lib/clock.h"
#include "lib/util.h"
#include "sys/sysfs.h"

#define RING_PAGES	64	/* data pages of the ring: 256 KiB */

struct pb_sampler {
	int				fd, clock_fd;
	struct perf_event_mmap_page	*meta;
	size_t				map_len;
	char				*data;
	uint64_t			data_size;
	uint64_t			samples, lost;
	uint64_t			clock0, clock1;
};

static void attr_of(struct perf_event_attr *a, bool hw, bool kernel, uint64_t period)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	a->config = hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = period;
	a->sample_type = PB_SAMPLE_TYPE;
	a->disabled = 1;
	a->exclude_kernel = !kernel;
	a->exclude_hv = 1;
	a->sample_max_stack = PB_SAMPLE_DEPTH;
	a->wakeup_events = 1 << 20;	/* the caller drains: no wake-ups */
}

/* Whether the kernel opens this sampling event on the calling task: 0 or errno. */
static int try_open(bool hw, bool kernel)
{
	struct perf_event_attr a;
	long fd;

	attr_of(&a, hw, kernel, 1000000);
	fd = pb_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno ? errno : EINVAL;
	close((int)fd);
	return 0;
}

static bool refused(int e)
{
	return e == EACCES || e == EPERM;
}

static void paranoid_text(char *buf, size_t len)
{
	long v;

	if (pb_sys_read_long(&v, "/proc/sys/kernel/perf_event_paranoid"))
		snprintf(buf, len, "perf_event_paranoid unreadable");
	else
		snprintf(buf, len, "perf_event_paranoid=%ld", v);
}

/* The period for window_s seconds: ns (software), or cycles counted as if at 1 GHz. */
static uint64_t period_for(double window_s)
{
	long max_rate = 0;
	double per_s = PB_SAMPLE_TARGET / (window_s > 0 ? window_s : 1);

	if (per_s > PB_SAMPLE_MAX_HZ)
		per_s = PB_SAMPLE_MAX_HZ;

	if (!pb_sys_read_long(&max_rate, "/proc/sys/kernel/perf_event_max_sample_rate") &&
	    max_rate > 0 && per_s > max_rate / 2)
		per_s = max_rate / 2;
	if (per_s < 1)
		per_s = 1;
	return (uint64_t)(1e9 / per_s) ? (uint64_t)(1e9 / per_s) : 1;
}

int pb_sample_choose(struct pb_sample_event *ev, double window_s, char *err, size_t len)
{
	char par[64];
	int e;

	memset(ev, 0, sizeof(*ev));
	ev->hw = !try_open(true, true) || !try_open(true, false);
	snprintf(ev->name, sizeof(ev->name), "%s", ev->hw ? "cycles" : "cpu-clock");
	ev->kernel = true;
	e = try_open(ev->hw, true);
	if (refused(e)) {
		ev->kernel = false;
		paranoid_text(par, sizeof(par));
		snprintf(ev->note, sizeof(ev->note), "%s refuses kernel samples (%s): user "
			 "frames only", par, strerror(e));
		e = try_open(ev->hw, false);
	}
	if (e) {
		paranoid_text(par, sizeof(par));
		snprintf(err, len, "sampling %s refused: %s (%s)", ev->name, strerror(e), par);
		return -1;
	}
	ev->period = period_for(window_s);
	return 0;
}

static int clock_open(pid_t tid)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1 };

	return (int)pb_perf_event_open(&a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

struct pb_sampler *pb_sampler_open(const struct pb_sample_event *ev, pid_t tid,
				   char *err, size_t len)
{
	struct pb_sampler *s = calloc(1, sizeof(*s));
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	s->clock_fd = -1;
	attr_of(&a, ev->hw, ev->kernel, ev->period);
	s->fd = (int)pb_perf_event_open(&a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (s->fd < 0) {
		snprintf(err, len, "sampling task %d: %s", (int)tid, strerror(errno));
		free(s);
		return NULL;
	}
	s->map_len = (size_t)page * (RING_PAGES + 1);
	m = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (m == MAP_FAILED) {
		snprintf(err, len, "the sample ring of task %d: %s", (int)tid, strerror(errno));
		close(s->fd);
		free(s);
		return NULL;
	}
	s->meta = m;
	s->data = (char *)m + page;
	s->data_size = (uint64_t)page * RING_PAGES;
	s->clock_fd = clock_open(tid);
	return s;
}

static uint64_t clock_read(int fd)
{
	uint64_t v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

void pb_sampler_start(struct pb_sampler *s)
{
	if (s->clock_fd >= 0)
		ioctl(s->clock_fd, PERF_EVENT_IOC_ENABLE, 0);
	s->clock0 = clock_read(s->clock_fd);
	ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
}

void pb_sampler_stop(struct pb_sampler *s)
{
	ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
	s->clock1 = clock_read(s->clock_fd);
}

void pb_sampler_drain(struct pb_sampler *s, void (*fn)(const struct pb_sample *, void *),
		      void *arg)
{
	uint64_t head = __atomic_load_n(&s->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = s->meta->data_tail;
	char buf[sizeof(struct perf_event_header) + 8 * (PB_SAMPLE_DEPTH + 512)];
	struct pb_sample smp;

	while (tail + sizeof(struct perf_event_header) <= head) {
		uint64_t off = tail % s->data_size, lost = 0;
		struct perf_event_header h;
		size_t n;

		for (size_t k = 0; k < sizeof(h); k++)
			((char *)&h)[k] = s->data[(off + k) % s->data_size];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		n = h.size < sizeof(buf) ? h.size : sizeof(buf);
		for (size_t k = 0; k < n; k++)	/* a record may wrap */
			buf[k] = s->data[(off + k) % s->data_size];
		tail += h.size;
		switch (pb_sample_parse(buf, n, &smp, &lost)) {
		case PERF_RECORD_SAMPLE:
			s->samples++;
			fn(&smp, arg);
			break;
		case PERF_RECORD_LOST:
			s->lost += lost;
			break;
		default:
			break;
		}
	}
	__atomic_store_n(&s->meta->data_tail, tail, __ATOMIC_RELEASE);
}

void pb_sampler_totals(const struct pb_sampler *s, uint64_t *samples, uint64_t *lost,
		       uint64_t *task_clock_ns)
{
	*samples = s->samples;
	*lost = s->lost;
	*task_clock_ns = s->clock1 > s->clock0 ? s->clock1 - s->clock0 : 0;
}

void pb_sampler_close(struct pb_sampler *s)
{
	if (!s)
		return;
	munmap(s->meta, s->map_len);
	close(s->fd);
	if (s->clock_fd >= 0)
		close(s->clock_fd);
	free(s);
}

/* ---------------------------------------------------------------- cost */

static void count_only(const struct pb_sample *smp, void *arg)
{
	(void)smp;
	(void)arg;
}

/*
 * The ticks a spin of PB_COST_SPIN_NS of its own spent away from its loop
 * and kept on its CPU: steps over 1 µs, up to PB_COST_GAP_MAX_NS.  A longer
 * one is another task's time slice (a task sharing the CPU), left out: one
 * counted made the difference with and without a sampler noise, and its
 * median 0 µs beside a hog.
 */
static uint64_t spin_away(double tpn)
{
	uint64_t away = 0;

	pb_ticks_spin((uint64_t)(PB_COST_SPIN_NS * tpn), (uint64_t)(1000 * tpn),
		      (uint64_t)(PB_COST_GAP_MAX_NS * tpn), &away);
	return away;
}

double pb_sample_cost_ns(const struct pb_sample_event *ev)
{
	double tpn = pb_ticks_per_ns(), cost[PB_COST_TRIES];
	int n = 0;

	for (int i = 0; i < PB_COST_TRIES; i++) {
		struct pb_sampler *s;
		uint64_t samples, lost, clk, base, with;
		char err[160];

		s = pb_sampler_open(ev, 0, err, sizeof(err));
		if (!s)
			break;
		base = spin_away(tpn);
		pb_sampler_start(s);
		with = spin_away(tpn);
		pb_sampler_stop(s);
		pb_sampler_drain(s, count_only, NULL);
		pb_sampler_totals(s, &samples, &lost, &clk);
		pb_sampler_close(s);
		if (samples + lost)
			cost[n++] = with > base ? (with - base) / tpn / (samples + lost) : 0;
	}
	if (!n)
		return 0;
	qsort(cost, n, sizeof(cost[0]), pb_cmp_double);
	return cost[n / 2];
}

/* ---------------------------------------------------------------- records */

static int take_u64(const char *rec, size_t len, size_t *at, uint64_t *v)
{
	if (*at + sizeof(*v) > len)
		return -1;
	memcpy(v, rec + *at, sizeof(*v));
	*at += sizeof(*v);
	return 0;
}

/* The call chain: markers set the context of the frames after them. */
static int parse_chain(const char *rec, size_t len, size_t at, struct pb_sample *out)
{
	uint64_t nr, pc = 0;
	bool kernel = false;

	if (take_u64(rec, len, &at, &nr) || nr > (len - at) / sizeof(uint64_t))
		return -1;
	out->nr = 0;
	for (uint64_t i = 0; i < nr; i++) {
		take_u64(rec, len, &at, &pc);
		if (pc >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = pc == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (out->nr == PB_SAMPLE_DEPTH)
			continue;	/* deeper frames dropped: the leaf end is kept */
		out->kernel[out->nr] = kernel;
		out->pc[out->nr++] = pc;
	}
	return 0;
}

int pb_sample_parse(const void *rec, size_t len, struct pb_sample *out, uint64_t *lost)
{
	const struct perf_event_header *h = rec;
	const char *r = rec;
	size_t at = sizeof(*h);
	uint64_t v, id;

	if (len < sizeof(*h) || h->size > len || h->size < sizeof(*h))
		return -1;
	len = h->size;
	if (h->type == PERF_RECORD_LOST)
		return take_u64(r, len, &at, &id) || take_u64(r, len, &at, lost) ? -1 :
		       PERF_RECORD_LOST;
	if (h->type != PERF_RECORD_SAMPLE)
		return (int)h->type;
	memset(out, 0, offsetof(struct pb_sample, pc));
	if (take_u64(r, len, &at, &out->ip) || take_u64(r, len, &at, &v) ||
	    take_u64(r, len, &at, &out->period))
		return -1;
	out->pid = (uint32_t)v;
	out->tid = (uint32_t)(v >> 32);
	return parse_chain(r, len, at, out) ? -1 : PERF_RECORD_SAMPLE;
}
