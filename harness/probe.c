// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - PMU-free frequency probe, nominal clock, observer loop.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "env.h"
#include "probe.h"

#define PROBE_RUNS	7
#define CHAIN_LEN	1000		/* instructions per loop iteration */
#define ADD_ITERS	1000		/* 1e6 cycles: ~0.3 ms at 3 GHz */
#define IMUL_ITERS	334		/* 3 cycles each: ~1e6 cycles */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Run fn(arg) in a thread pinned to cpu (-1: unpinned).  0, or an errno. */
static int run_pinned(int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t set;
	int r;

	r = pthread_attr_init(&attr);
	if (r)
		return r;
	if (cpu >= 0) {
		if (cpu >= CPU_SETSIZE) {
			pthread_attr_destroy(&attr);
			return EINVAL;
		}
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		r = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (!r)
		r = pthread_create(&t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (r)
		return r;
	return pthread_join(t, NULL);
}

struct probe_arg {
	int	cpu;
	int	ran_on;
	double	add_ns, imul_ns;	/* best run */
	bool	pinned_ok;
};

#if defined(__x86_64__)
bool pb_probe_available(void)
{
	return true;
}

static __attribute__((noinline)) uint64_t add_chain(uint64_t iters)
{
	uint64_t x = 0, one = 1;

	while (iters--)
		asm volatile(".rept 1000\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
	return x;
}

static __attribute__((noinline)) uint64_t imul_chain(uint64_t iters)
{
	uint64_t x = 1, one = 1;

	while (iters--)
		asm volatile(".rept 1000\n\timulq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
	return x;
}

static double time_chain(uint64_t (*chain)(uint64_t), uint64_t iters)
{
	double t0 = now_ns();

	chain(iters);
	return now_ns() - t0;
}

static void *probe_thread(void *v)
{
	struct probe_arg *p = v;
	int i;

	p->add_ns = p->imul_ns = INFINITY;
	time_chain(add_chain, ADD_ITERS);	/* warm-up: caches, clock ramp */
	time_chain(imul_chain, IMUL_ITERS);
	for (i = 0; i < PROBE_RUNS; i++) {
		p->add_ns = fmin(p->add_ns, time_chain(add_chain, ADD_ITERS));
		p->imul_ns = fmin(p->imul_ns, time_chain(imul_chain, IMUL_ITERS));
	}
	p->ran_on = sched_getcpu();
	return NULL;
}

static int nominal_cpuid(double *mhz)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 0x16)
		return -1;
	__cpuid_count(0x16, 0, a, b, c, d);
	(void)b;
	(void)c;
	(void)d;
	if (!(a & 0xffff))
		return -1;
	*mhz = a & 0xffff;
	return 0;
}

static int nominal_tsc(double *mhz)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	double t0, t1, c0, c1;

	c0 = __rdtsc();
	t0 = now_ns();
	c0 = (c0 + __rdtsc()) / 2;
	nanosleep(&ts, NULL);
	c1 = __rdtsc();
	t1 = now_ns();
	c1 = (c1 + __rdtsc()) / 2;
	if (t1 <= t0 || c1 <= c0)
		return -1;
	*mhz = (c1 - c0) / (t1 - t0) * 1000;
	return 0;
}
#else
bool pb_probe_available(void)
{
	return false;
}

static void *probe_thread(void *v)
{
	struct probe_arg *p = v;

	p->add_ns = p->imul_ns = 0;
	p->ran_on = sched_getcpu();
	return NULL;
}

static int nominal_cpuid(double *mhz)
{
	(void)mhz;
	return -1;
}

static int nominal_tsc(double *mhz)
{
	(void)mhz;
	return -1;
}
#endif

int pb_probe_cpu(int cpu, struct pb_probe *p, char *err, size_t len)
{
	struct probe_arg arg = { .cpu = cpu, .ran_on = -1 };
	int r;

	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	if (!pb_probe_available()) {
		snprintf(err, len, "no frequency probe on this architecture");
		return -1;
	}
	r = run_pinned(cpu, probe_thread, &arg);
	if (r) {
		snprintf(err, len, "probe on cpu %d: %s", cpu, strerror(r));
		return -1;
	}
	if (cpu >= 0 && arg.ran_on != cpu) {
		snprintf(err, len, "probe pinned to cpu %d ran on cpu %d", cpu, arg.ran_on);
		return -1;
	}
	p->add_mhz = (double)ADD_ITERS * CHAIN_LEN / arg.add_ns * 1000;
	p->imul_mhz = 3.0 * IMUL_ITERS * CHAIN_LEN / arg.imul_ns * 1000;
	p->mhz = p->add_mhz;
	p->spread = fabs(p->add_mhz - p->imul_mhz) / fmax(p->add_mhz, p->imul_mhz);
	return 0;
}

json_t *pb_probe_json(const struct pb_probe *p)
{
	return json_pack("{s:i,s:f,s:f,s:f,s:f}", "cpu", p->cpu, "mhz", p->mhz,
			 "add_mhz", p->add_mhz, "imul_mhz", p->imul_mhz, "spread", p->spread);
}

/* ---- nominal ---- */

int pb_nominal_from_model(const char *model, double *mhz)
{
	const char *at = strrchr(model, '@');
	char *end;
	double v;

	if (!at)
		return -1;
	v = strtod(at + 1, &end);
	if (end == at + 1 || v <= 0)
		return -1;
	while (*end == ' ')
		end++;
	if (!strncasecmp(end, "GHz", 3))
		*mhz = v * 1000;
	else if (!strncasecmp(end, "MHz", 3))
		*mhz = v;
	else
		return -1;
	return 0;
}

/* "model name" of /proc/cpuinfo, and whether the TSC is constant */
static void cpuinfo_facts(char *model, size_t len, bool *constant_tsc)
{
	char path[4096], line[4096];
	FILE *f;

	model[0] = '\0';
	*constant_tsc = false;
	if (pb_sys_path(path, sizeof(path), "/proc/cpuinfo") < 0)
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "model name", 10) && !model[0])
			snprintf(model, len, "%s", colon + 1);
		if (!strncmp(line, "flags", 5)) {
			*constant_tsc = strstr(colon, " constant_tsc") != NULL;
			break;
		}
	}
	fclose(f);
}

static void set_nominal(struct pb_nominal *n, double mhz, const char *src)
{
	n->mhz = mhz;
	snprintf(n->source, sizeof(n->source), "%s", src);
}

int pb_nominal_detect(int cpu, struct pb_nominal *n)
{
	char model[256];
	bool constant_tsc;
	double mhz;
	long khz;

	set_nominal(n, 0, "unknown");
	if (!pb_sys_read_long(&khz, "/sys/devices/system/cpu/cpu%d/cpufreq/base_frequency",
			      cpu < 0 ? 0 : cpu) && khz > 0) {
		set_nominal(n, khz / 1000.0, "base_frequency");
		return 0;
	}
	cpuinfo_facts(model, sizeof(model), &constant_tsc);
	if (!pb_nominal_from_model(model, &mhz)) {
		set_nominal(n, mhz, "model-name");
		return 0;
	}
	if (!nominal_cpuid(&mhz)) {
		set_nominal(n, mhz, "cpuid-0x16");
		return 0;
	}
	if (constant_tsc && !nominal_tsc(&mhz)) {
		set_nominal(n, round(mhz), "tsc");
		return 0;
	}
	return -1;
}

json_t *pb_nominal_json(const struct pb_nominal *n)
{
	return json_pack("{s:o,s:s}", "mhz", n->mhz > 0 ? json_real(n->mhz) : json_null(),
			 "source", n->source);
}

/* ---- checks on figures ---- */

bool pb_check_drift(int cpu, double before_mhz, double after_mhz, struct pb_anomalies *a)
{
	double d;

	if (before_mhz <= 0 || after_mhz <= 0)
		return false;
	d = (after_mhz - before_mhz) / before_mhz;
	if (fabs(d) <= PB_DRIFT_MAX)
		return false;
	pb_anomaly_add(a, "frequency-drift", PB_SEV_WARN,
		       "set the performance governor, disable turbo (pinbench doctor)",
		       "cpu%d clock %.0f MHz before the job, %.0f MHz after (%+.1f %%)",
		       cpu, before_mhz, after_mhz, 100 * d);
	return true;
}

bool pb_check_low(int cpu, double probe_mhz, const struct pb_nominal *nom,
		  struct pb_anomalies *a)
{
	double below;

	if (probe_mhz <= 0 || !nom || nom->mhz <= 0)
		return false;
	below = 1 - probe_mhz / nom->mhz;
	if (below <= PB_LOW_MAX)
		return false;
	pb_anomaly_add(a, "frequency-low", below > 0.25 ? PB_SEV_ERROR : PB_SEV_WARN,
		       "check the governor, power limits and throttling (pinbench doctor)",
		       "cpu%d runs at %.0f MHz, %.1f %% below its nominal %.0f MHz (%s)",
		       cpu, probe_mhz, 100 * below, nom->mhz, nom->source);
	return true;
}

static double off_by(double x, double ref)
{
	return fabs(x - ref) / ref;
}

enum pb_clock_verdict pb_check_clock(const struct pb_clock_fig *f, struct pb_anomalies *a,
				     double *eff_mhz)
{
	double eff = f->cycles > 0 && f->task_ns > 0 ? f->cycles / f->task_ns * 1000 : 0;
	double eff_ref = f->cycles > 0 && f->ref_cycles > 0 && f->nominal_mhz > 0 ?
			 f->cycles / f->ref_cycles * f->nominal_mhz : 0;
	bool bad = false;

	if (eff_mhz)
		*eff_mhz = eff;
	if (f->probe_mhz <= 0 || (eff <= 0 && eff_ref <= 0))
		return PB_CLOCK_UNKNOWN;
	bad = (eff > 0 && off_by(eff, f->probe_mhz) > PB_MISMATCH_MAX) ||
	      (eff_ref > 0 && off_by(eff_ref, f->probe_mhz) > PB_MISMATCH_MAX);
	if (bad) {
		char ref[64] = "";

		if (eff_ref > 0)
			snprintf(ref, sizeof(ref), " and %.0f MHz (cycles/ref-cycles)", eff_ref);
		pb_anomaly_add(a, "counter-clock-mismatch", PB_SEV_ERROR,
			       "check cycles' running/enabled ratio and free counters "
			       "(nmi_watchdog); do not trust cycle counts of this run",
			       "cpu%d: counters give %.0f MHz (cycles/task-clock)%s, the probe "
			       "%.0f MHz: the counts are wrong, not the clock", f->cpu, eff, ref,
			       f->probe_mhz);
		return PB_CLOCK_COUNTS_WRONG;
	}
	if (f->nominal_mhz > 0 && f->probe_mhz < f->nominal_mhz * (1 - PB_LOW_MAX))
		return PB_CLOCK_CHANGED;
	return PB_CLOCK_OK;
}

const char *pb_clock_verdict_str(enum pb_clock_verdict v)
{
	switch (v) {
	case PB_CLOCK_OK:
		return "the counters, the probe and the nominal clock agree";
	case PB_CLOCK_COUNTS_WRONG:
		return "the counts are wrong: the counters' clock disagrees with the probe";
	case PB_CLOCK_CHANGED:
		return "the clock changed: counters and probe agree, below the nominal clock";
	default:
		return "unknown: not enough figures (cycles, task-clock, probe)";
	}
}

/* ---- observer effect ---- */

struct observer_arg {
	double	best_ns;
	int	ran_on;
};

static void *observer_thread(void *v)
{
	struct observer_arg *o = v;
	int run, i;

	o->best_ns = INFINITY;
	for (run = 0; run < 3; run++) {
		double t0 = now_ns();

		for (i = 0; i < PB_OBSERVER_CALLS; i++)
			syscall(SYS_getppid);
		o->best_ns = fmin(o->best_ns, now_ns() - t0);
	}
	o->ran_on = sched_getcpu();
	return NULL;
}

int pb_observer_time(int cpu, double *seconds, char *err, size_t len)
{
	struct observer_arg o = { .ran_on = -1 };
	int r = run_pinned(cpu, observer_thread, &o);

	if (r) {
		snprintf(err, len, "reference loop on cpu %d: %s", cpu, strerror(r));
		return -1;
	}
	if (cpu >= 0 && o.ran_on != cpu) {
		snprintf(err, len, "reference loop pinned to cpu %d ran on cpu %d", cpu, o.ran_on);
		return -1;
	}
	*seconds = o.best_ns / 1e9;
	return 0;
}

bool pb_check_observer(int cpu, double start_s, double end_s, struct pb_anomalies *a)
{
	double slower;

	if (start_s <= 0 || end_s <= 0)
		return false;
	slower = end_s / start_s - 1;
	if (slower <= PB_OBSERVER_MAX)
		return false;
	pb_anomaly_add(a, "observer-effect", slower > 0.20 ? PB_SEV_ERROR : PB_SEV_WARN,
		       "measuring changed the machine: check dmesg and the clock (pinbench "
		       "doctor); a reboot may restore it",
		       "reference loop (%d getppid() on cpu%d) took %.3f s at the start, "
		       "%.3f s at the end (%+.1f %%)", PB_OBSERVER_CALLS, cpu, start_s, end_s,
		       100 * slower);
	return true;
}
