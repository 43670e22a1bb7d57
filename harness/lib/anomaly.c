// SPDX-License-Identifier: GPL-2.0-only
/*
 * anomaly.c - the table of anomaly kinds, and a growing list of anomalies.
 *
 * Strings are truncated to their fields and kept valid UTF-8 (a sequence
 * cut by truncation is dropped, stray bytes become '?'), so that the JSON
 * encoder, which insists on UTF-8, never refuses them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anomaly.h"

static const char *const sev_names[] = {
	[PB_SEV_INFO]	= "info",
	[PB_SEV_WARN]	= "warn",
	[PB_SEV_ERROR]	= "error",
};

#define K(id, nm, mk, sv, mean) [id] = { .name = nm, .mark = mk, .sev = sv, .meaning = mean }
const struct pb_anomaly_kind_info pb_anomaly_kinds[PB_AN_NR] = {
	K(PB_AN_COUNTER_MULTIPLEXED, "counter-multiplexed", "M", PB_SEV_WARN,
	  "a counter ran for only part of its enabled time (warn < 99 %, error < 50 %): its value is an estimate"),
	K(PB_AN_FREQUENCY_DRIFT, "frequency-drift", "D", PB_SEV_WARN,
	  "the PMU-free clock probe of a CPU differs by more than 3 % before vs after the job (10 % on a virtual machine: below, a note), and every one of five re-probes over 1 s confirms the change"),
	K(PB_AN_FREQUENCY_LOW, "frequency-low", "L", PB_SEV_WARN,
	  "the probe is more than 10 % below the nominal clock, and the re-probes confirm it"),
	K(PB_AN_COUNTER_CLOCK_MISMATCH, "counter-clock-mismatch", "C", PB_SEV_ERROR,
	  "cycles / task-clock disagrees with the probe by more than 5 %: the counts are wrong, not the clock"),
	K(PB_AN_OBSERVER_EFFECT, "observer-effect", "O", PB_SEV_WARN,
	  "a fixed getppid() loop took more than 5 % (20 % on a virtual machine) more of its own CPU time at the end of the run than at its start, and so does every re-timing, every 0.25 s for up to 5 s: measuring changed the machine; only a warning when other tasks kept the machine half a CPU busy or more meanwhile (their load may be the cause)"),
	K(PB_AN_NOISY_NEIGHBOR, "noisy-neighbor", "N", PB_SEV_WARN,
	  "other tasks ran more than 5 % of the job's CPUs' time during its metric windows (warn; error above 20 %); the message names the task that ran most"),
	K(PB_AN_NOISY, "noisy", "V", PB_SEV_WARN,
	  "the repeats disagree more than their own slices say they should: the machine changed under the run. The repeats' CV is tested against the CV each repeat's slices predict (batch means of 10), by an F test at p < 0.001, and more than 1 % of it must be unexplained; with a repeat too short for 20 slices, a CV above 2 %"),
	K(PB_AN_MIGRATION, "migration", "G", PB_SEV_ERROR,
	  "a pinned role was seen on a CPU it was not pinned to. A role whose CPU is taken away mid-run (offlined, or gone from the cpuset, so that its affinity is no longer that CPU alone) fails the job at the end of that window, the reason naming the CPU"),
	K(PB_AN_THROTTLING, "throttling", "T", PB_SEV_ERROR,
	  "a thermal throttle counter rose during the job"),
	K(PB_AN_LOST, "lost", "X", PB_SEV_WARN,
	  "datagrams were lost (UDP workloads); the metric leaves out the waits, the loss: line below the table says how many"),
	K(PB_AN_SHARED_CPUS, "shared-cpus", "S", PB_SEV_WARN,
	  "the lock of one of the job's CPUs was held by another process (named) when it began (see --wait)"),
	K(PB_AN_STALL, "stall", NULL, PB_SEV_ERROR,
	  "a window with no operation: no value, out of the summary"),
	K(PB_AN_OUTLIER_SLICES, "outlier-slices", NULL, PB_SEV_WARN,
	  "more than 20 % of a repeat's slices are outliers (see below)"),
	K(PB_AN_CPU_STEAL, "cpu-steal", NULL, PB_SEV_WARN,
	  "the hypervisor's steal time was more than 5 % of the job's CPU time"),
	K(PB_AN_ENV, "env-", NULL, PB_SEV_WARN,
	  "an environment check (governor, boost, SMT, ...) warned, or failed (error)"),
	K(PB_AN_COUNTER_NOT_COUNTED, "counter-not-counted", NULL, PB_SEV_WARN,
	  "a pasted perf stat event was never scheduled on a counter (<not counted>)"),
	K(PB_AN_COUNTER_UNSUPPORTED, "counter-unsupported", NULL, PB_SEV_WARN,
	  "the kernel refused a pasted perf stat event (<not supported>)"),
	K(PB_AN_COUNTER_VARIANCE, "counter-variance", NULL, PB_SEV_WARN,
	  "a pasted perf stat's run-to-run variance is above 5 %: the runs disagree"),
	K(PB_AN_CLOCK_INCONSISTENT, "clock-inconsistent", NULL, PB_SEV_WARN,
	  "perf's own GHz figure on a pasted cycles line and cycles / task-clock differ by more than 5 %"),
	K(PB_AN_INTERVAL_FLAGGED, "interval-flagged", NULL, PB_SEV_WARN,
	  "intervals of a pasted perf stat -I were flagged, at the worst severity among them"),
	K(PB_AN_EFFECTIVE_CLOCK, "effective-clock", NULL, PB_SEV_INFO,
	  "a pasted perf stat's effective clock, the nominal clock being unknown"),
	K(PB_AN_PROBE_DISTURBED, "probe-disturbed", NULL, PB_SEV_INFO,
	  "a clock probe was disturbed, and no clock verdict is drawn from it (below)"),
};
#undef K

/* Length of the UTF-8 sequence starting with byte c; 0 if c cannot start one. */
static int utf8_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/*
 * Do the len - 1 bytes after s[0] continue it?  Also rejects overlong forms
 * and surrogates (which the JSON encoder refuses) when s[1] is there.
 */
static int utf8_ok(const unsigned char *s, int len)
{
	int i;

	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (len < 2)
		return 1;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f))
		return 0;
	return !((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f));
}

/*
 * Make s valid UTF-8 in place: a sequence cut at the end (truncation) is
 * dropped, any other invalid byte becomes '?'.
 */
static void utf8_fix(char *str)
{
	unsigned char *s = (unsigned char *)str;
	size_t i = 0, n = strlen(str);
	int len;

	while (i < n) {
		len = utf8_len(s[i]);
		if (len > 1 && i + len > n && utf8_ok(s + i, n - i)) {
			s[i] = '\0';	/* cut short by truncation */
			return;
		}
		if (len == 0 || i + len > n || !utf8_ok(s + i, len)) {
			s[i++] = '?';
			continue;
		}
		i += len;
	}
}

/* Room for nr + 1 entries; capacity is implicit: 8, 16, 32, ... */
static int grow(struct pb_anomalies *a)
{
	struct pb_anomaly *v;
	int cap = 8;

	while (cap < a->nr)
		cap *= 2;
	if (a->v && a->nr < cap)
		return 0;
	if (a->v)
		cap *= 2;
	v = realloc(a->v, cap * sizeof(*v));
	if (!v)
		return -1;
	a->v = v;
	return 0;
}

/* On allocation failure the anomaly is dropped (the call cannot fail). */
static void vadd(struct pb_anomalies *a, enum pb_anomaly_kind kind, const char *sub,
		 enum pb_sev sev, const char *advice, const char *fmt, va_list ap)
{
	const char *name = (unsigned int)kind < PB_AN_NR ? pb_anomaly_kinds[kind].name : NULL;
	struct pb_anomaly *e;

	if (grow(a))
		return;
	e = &a->v[a->nr++];
	memset(e, 0, sizeof(*e));
	snprintf(e->kind, sizeof(e->kind), "%s%s", name ? name : "unknown", sub ? sub : "");
	e->sev = sev == PB_SEV_DEFAULT && name ? pb_anomaly_kinds[kind].sev : sev;
	snprintf(e->advice, sizeof(e->advice), "%s", advice ? advice : "");
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	utf8_fix(e->kind);
	utf8_fix(e->advice);
	utf8_fix(e->message);
}

void pb_anomaly_add(struct pb_anomalies *a, enum pb_anomaly_kind kind, enum pb_sev sev,
		    const char *advice, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(a, kind, NULL, sev, advice, fmt, ap);
	va_end(ap);
}

void pb_anomaly_add_env(struct pb_anomalies *a, const char *check, enum pb_sev sev,
			const char *advice, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(a, PB_AN_ENV, check, sev, advice, fmt, ap);
	va_end(ap);
}

void pb_anomalies_free(struct pb_anomalies *a)
{
	free(a->v);
	a->v = NULL;
	a->nr = 0;
}

const char *pb_sev_name(enum pb_sev sev)
{
	if ((unsigned int)sev >= sizeof(sev_names) / sizeof(sev_names[0]))
		return "unknown";
	return sev_names[sev];
}

json_t *pb_anomalies_json(const struct pb_anomalies *a)
{
	json_t *arr = json_array(), *o;
	int i;

	if (!arr)
		return NULL;
	for (i = 0; a && i < a->nr; i++) {
		o = json_pack("{s:s, s:s, s:s, s:s}",
			      "kind", a->v[i].kind,
			      "severity", pb_sev_name(a->v[i].sev),
			      "message", a->v[i].message,
			      "advice", a->v[i].advice);
		if (!o || json_array_append_new(arr, o))
			goto fail;
	}
	return arr;
fail:
	json_decref(arr);
	return NULL;
}

const char *pb_anomaly_mark(const char *kind)
{
	int i;

	for (i = 0; kind && i < PB_AN_NR; i++)
		if (pb_anomaly_kinds[i].mark && !strcmp(kind, pb_anomaly_kinds[i].name))
			return pb_anomaly_kinds[i].mark;
	return "!";
}
