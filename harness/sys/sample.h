/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.h - sampling one task with perf_event_open (the profile pass).
 *
 * One sampling event per role task, created disabled: cycles when the
 * core PMU counts it, else the software cpu-clock; kernel and user; with
 * PERF_SAMPLE_IP | TID | PERIOD | CALLCHAIN.  Beside it a task-clock
 * counter on the same task, read at the window's edges, so that samples
 * turn into time per op.  The samples come through the event's mmap ring,
 * drained by the caller during the window (lost records counted).
 *
 * A software event is taken by a timer interrupt: time spent with
 * interrupts off is charged to where they are enabled again.
 */
#ifndef PINBENCH_SAMPLE_H
#define PINBENCH_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PB_SAMPLE_DEPTH		64	/* frames kept per sample */
#define PB_SAMPLE_TYPE		(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | \
				 PERF_SAMPLE_CALLCHAIN)

/* One sample: frames leaf first, context markers removed. */
struct pb_sample {
	uint32_t	pid, tid;
	uint64_t	ip;
	uint64_t	period;
	int		nr;
	uint64_t	pc[PB_SAMPLE_DEPTH];
	uint8_t		kernel[PB_SAMPLE_DEPTH];	/* frame in kernel context */
};

/* The event the pass samples with, for every task of a job. */
struct pb_sample_event {
	char		name[16];	/* "cycles" or "cpu-clock" */
	bool		hw;
	bool		kernel;		/* kernel frames allowed */
	uint64_t	period;		/* events (cycles) or ns (cpu-clock) */
	char		note[200];	/* what perf_event_paranoid refused, or "" */
};

/*
 * Choose the event for windows of window_s seconds: cycles when the
 * kernel opens a sampling cycles event, else cpu-clock; a period giving
 * about PB_SAMPLE_TARGET samples of a busy task per window, at most
 * PB_SAMPLE_MAX_HZ (and half perf_event_max_sample_rate) a second: a
 * sample costs a KVM guest's task 15-25 µs (pb_sample_cost_ns()), which
 * at 20 kHz was 30-50 % of its CPU time, at 2 kHz 3-5 %.  When perf_event_paranoid
 * refuses kernel samples, user only, and note says so.  0, or -1 with
 * err (sampling refused: err names the setting).
 */
#define PB_SAMPLE_TARGET	2000
#define PB_SAMPLE_MAX_HZ	2000
int pb_sample_choose(struct pb_sample_event *ev, double window_s, char *err, size_t len);

struct pb_sampler;

/* Open ev (disabled) and a task-clock counter on task tid: NULL with err. */
struct pb_sampler *pb_sampler_open(const struct pb_sample_event *ev, pid_t tid,
				   char *err, size_t len);
/* Enable (task-clock read first) / disable (task-clock read after). */
void pb_sampler_start(struct pb_sampler *s);
void pb_sampler_stop(struct pb_sampler *s);
/* Every record in the ring so far: fn per sample; lost records counted. */
void pb_sampler_drain(struct pb_sampler *s, void (*fn)(const struct pb_sample *, void *),
		      void *arg);
/* Samples seen, samples lost, task-clock ns between start and stop. */
void pb_sampler_totals(const struct pb_sampler *s, uint64_t *samples, uint64_t *lost,
		       uint64_t *task_clock_ns);
void pb_sampler_close(struct pb_sampler *s);

/*
 * What one sample of ev costs the sampled task, in ns: the time a spin of
 * PB_COST_SPIN_NS on the calling thread spends away from its loop with a
 * sampler of ev on it (steps of 1 µs to PB_COST_GAP_MAX_NS: an interrupt,
 * not another task's time slice), less without, per sample (lost ones
 * too); the median of PB_COST_TRIES.  A software event's sample is a timer interrupt
 * and a call-chain walk: about 15 µs on a KVM guest, where a 50 µs period
 * made the sampled task's CPU time 40 % longer.  The task's task-clock
 * holds that time and its samples land where it interrupted, so the cost
 * comes out of the task-clock before samples turn into ns per op.  0 when
 * the event cannot be opened here.
 */
#define PB_COST_SPIN_NS	20e6
#define PB_COST_GAP_MAX_NS	250e3	/* a longer step away: another task's slice */
#define PB_COST_TRIES	3
double pb_sample_cost_ns(const struct pb_sample_event *ev);

/*
 * Parse one ring record (its header first, len bytes) of an event with
 * sample_type PB_SAMPLE_TYPE.  Returns PERF_RECORD_SAMPLE with *out
 * filled, PERF_RECORD_LOST with *lost set, another record's type (to
 * skip), or -1 when malformed (shorter than it says, a chain longer than
 * the record).
 */
int pb_sample_parse(const void *rec, size_t len, struct pb_sample *out, uint64_t *lost);

#endif
