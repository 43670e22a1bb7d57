// SPDX-License-Identifier: GPL-2.0-only
/*
 * derived.c - figures derived from one window's counts: IPC, per-op
 * counts, effective clock.  A figure whose input is missing (not
 * supported, not counted, in another pass) is left out, never 0.
 */
#include "sys/derived.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The first counted event of this type and config: its index, or -1. */
static int find_attr(const struct pb_evlist *l, const struct pb_count *c, uint32_t type,
		     uint64_t config)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (l->ev[i].attr.type == type && l->ev[i].attr.config == config &&
		    c[i].status == PB_CNT_OK)
			return i;
	return -1;
}

static int find_name(const struct pb_evlist *l, const struct pb_count *c, const char *name)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->ev[i].name, name) && c[i].status == PB_CNT_OK)
			return i;
	return -1;
}

/* Wakeups done by the task: sched_waking (always in the waker's context), else sched_wakeup. */
static int wakeups(const struct pb_evlist *l, const struct pb_count *c)
{
	int i = find_name(l, c, "sched:sched_waking");

	return i >= 0 ? i : find_name(l, c, "sched:sched_wakeup");
}

static void add(struct pb_figures *f, const char *name, double v, const char *unit)
{
	struct pb_figure *fig;

	if (f->nr >= PB_MAX_FIGURES || !isfinite(v))
		return;
	fig = &f->v[f->nr++];
	snprintf(fig->name, sizeof(fig->name), "%s", name);
	snprintf(fig->unit, sizeof(fig->unit), "%s", unit);
	fig->value = v;
}

static void add_per_op(struct pb_figures *f, const struct pb_count *c, int i,
		       const char *name, double ops, const char *unit)
{
	if (i >= 0 && ops > 0)
		add(f, name, pb_count_scaled(&c[i]) / ops, unit);
}

/* Two events measured by one group read: same pass, both hardware or both not. */
static bool same_read(const struct pb_evlist *l, int a, int b)
{
	return a >= 0 && b >= 0 && l->ev[a].pass == l->ev[b].pass &&
	       l->ev[a].hw == l->ev[b].hw;
}

static void derive_clock(const struct pb_evlist *l, const struct pb_count *c, int cyc,
			 double nominal_mhz, struct pb_figures *f)
{
	int tclk = find_attr(l, c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	int ref = find_attr(l, c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES);

	if (cyc >= 0 && tclk >= 0 && l->ev[cyc].pass == l->ev[tclk].pass && c[tclk].value)
		add(f, "effective-GHz", pb_count_scaled(&c[cyc]) / (double)c[tclk].value,
		    "GHz");
	if (same_read(l, cyc, ref) && nominal_mhz > 0 && c[ref].value)
		add(f, "ref-GHz", (double)c[cyc].value / (double)c[ref].value *
		    nominal_mhz / 1000.0, "GHz");
}

void pb_derive(const struct pb_evlist *l, const struct pb_count *c, double ops,
	       double nominal_mhz, struct pb_figures *f)
{
	int cyc = find_attr(l, c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	int ins = find_attr(l, c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);

	memset(f, 0, sizeof(*f));
	if (same_read(l, cyc, ins) && c[cyc].value)
		add(f, "IPC", (double)c[ins].value / (double)c[cyc].value, "");
	add_per_op(f, c, cyc, "cycles/op", ops, "");
	add_per_op(f, c, ins, "instructions/op", ops, "");
	add_per_op(f, c, find_attr(l, c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES),
		   "context-switches/op", ops, "");
	add_per_op(f, c, wakeups(l, c), "wakeups/op", ops, "");
	add_per_op(f, c, find_attr(l, c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS),
		   "cpu-migrations/op", ops, "");
	add_per_op(f, c, find_attr(l, c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS),
		   "page-faults/op", ops, "");
	add_per_op(f, c, find_attr(l, c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK),
		   "task-clock/op", ops, "ns");
	derive_clock(l, c, cyc, nominal_mhz, f);
}

json_t *pb_figures_json(const struct pb_figures *f)
{
	json_t *o = json_object();
	int i;

	for (i = 0; o && i < f->nr; i++)
		json_object_set_new(o, f->v[i].name, json_real(f->v[i].value));
	return o;
}

