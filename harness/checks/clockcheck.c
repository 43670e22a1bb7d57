// SPDX-License-Identifier: GPL-2.0-only
/*
 * clockcheck.c - verdicts on clock figures (sys/probe.h gathers them):
 * drift and low clock from the probes around a job and their re-probes,
 * counters that disagree with the probe, the observer effect of a run.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks/clockcheck.h"
#include "stats/stats.h"

static bool usable(const struct pb_probe *p)
{
	return p->mhz > 0 && !p->disturbed;
}

static double rel(double x, double ref)
{
	return (x - ref) / ref;
}

static bool below_nominal(double mhz, const struct pb_nominal *nom)
{
	return mhz > 0 && nom && nom->mhz > 0 && 1 - mhz / nom->mhz > PB_LOW_MAX;
}

static double drift_max(const struct pb_nominal *nom)
{
	return nom && nom->guest ? PB_DRIFT_GUEST_MAX : PB_DRIFT_MAX;
}

/* The undisturbed reading after the job that differs from before by more than max, or NULL. */
static const struct pb_probe *drift_probe(const struct pb_clock_obs *o, double max)
{
	if (!usable(&o->before))
		return NULL;
	if (usable(&o->after) && fabs(rel(o->after.mhz, o->before.mhz)) > max)
		return &o->after;
	if (usable(&o->closed) && fabs(rel(o->closed.mhz, o->before.mhz)) > max)
		return &o->closed;
	return NULL;
}

bool pb_clock_suspect(const struct pb_clock_obs *o, const struct pb_nominal *nom)
{
	return drift_probe(o, drift_max(nom)) ||
	       (usable(&o->after) && below_nominal(o->after.mhz, nom)) ||
	       (o->after.mhz > 0 && o->after.disturbed);
}

/* "2998 MHz" or "no undisturbed figure" */
static const char *confirm_str(const struct pb_confirm *c, char *buf, size_t len)
{
	if (c->median > 0)
		snprintf(buf, len, "%.0f MHz", c->median);
	else
		snprintf(buf, len, "no undisturbed figure (%d of %d)", c->nr_clean, c->nr);
	return buf;
}

static void judge_disturbed(const struct pb_clock_obs *o, struct pb_anomalies *a)
{
	static const char *const when[] = { "before the job", "after the job",
					    "after the counters closed" };
	const struct pb_probe *p[] = { &o->before, &o->after, &o->closed };
	char why[200];

	for (int i = 0; i < 3; i++) {
		if (!p[i]->mhz || !p[i]->disturbed)
			continue;
		pb_probe_why(p[i], why, sizeof(why));
		pb_anomaly_add(a, PB_AN_PROBE_DISTURBED, PB_SEV_DEFAULT,
			       "a shared or busy machine: no clock verdict is drawn from it",
			       "cpu%d probe %s read %.0f MHz, disturbed: %s", o->cpu, when[i],
			       p[i]->mhz, why);
	}
}

static bool judge_drift(const struct pb_clock_obs *o, const struct pb_nominal *nom,
			struct pb_anomalies *a)
{
	double max = drift_max(nom);
	const struct pb_probe *x = drift_probe(o, max);
	const struct pb_confirm *c = &o->confirm;
	double d, dc;
	char cs[64];

	if (!x) {
		x = max > PB_DRIFT_MAX ? drift_probe(o, PB_DRIFT_MAX) : NULL;
		if (x)		/* a guest's host clock, below what it is marked from */
			pb_anomaly_add(a, PB_AN_FREQUENCY_DRIFT, PB_SEV_INFO,
				       "a virtual machine's host clock moves with the host's load; "
				       "not re-probed",
				       "cpu%d clock %.0f MHz before the job, %.0f MHz after (%+.1f %%) "
				       "on a guest, marked only beyond %.0f %%", o->cpu, o->before.mhz,
				       x->mhz, 100 * rel(x->mhz, o->before.mhz), 100 * max);
		return false;
	}
	d = rel(x->mhz, o->before.mhz);
	/* the re-probe nearest to before, on the side of the change */
	dc = c->median > 0 ? rel(d < 0 ? c->hi : c->lo, o->before.mhz) : 0;
	if (c->median > 0 && fabs(dc) > max && dc * d > 0) {
		pb_anomaly_add(a, PB_AN_FREQUENCY_DRIFT, PB_SEV_DEFAULT,
			       "set the performance governor, disable turbo (pinbench doctor)",
			       "cpu%d clock %.0f MHz before the job, %.0f MHz after (%+.1f %%); "
			       "the change persisted over %d re-probes across %.1f s (%.0f-%.0f MHz)",
			       o->cpu, o->before.mhz, x->mhz, 100 * d, c->nr_clean, c->span_s,
			       c->lo, c->hi);
		return true;
	}
	pb_anomaly_add(a, PB_AN_PROBE_DISTURBED, PB_SEV_DEFAULT,
		       "a transient disturbance (vCPU descheduled, host contention), not a "
		       "clock change",
		       "cpu%d probe read %.0f MHz before the job and %.0f MHz after (%+.1f %%), "
		       "but %d re-probes across %.1f s read %s", o->cpu, o->before.mhz, x->mhz,
		       100 * d, c->nr, c->span_s, confirm_str(c, cs, sizeof(cs)));
	return false;
}

static bool judge_low(const struct pb_clock_obs *o, const struct pb_nominal *nom,
		      struct pb_anomalies *a)
{
	const struct pb_confirm *c = &o->confirm;
	double first = usable(&o->after) ? o->after.mhz : 0, below;
	char cs[64];

	if (first ? !below_nominal(first, nom) :
		    !(o->after.mhz > 0 && below_nominal(c->median, nom)))
		return false;
	if (!below_nominal(c->median, nom) || !below_nominal(c->hi, nom)) {
		pb_anomaly_add(a, PB_AN_PROBE_DISTURBED, PB_SEV_DEFAULT,
			       "a transient disturbance, not a lasting low clock",
			       "cpu%d probe read %.0f MHz after the job, %.1f %% below its "
			       "nominal %.0f MHz (%s), but %d re-probes across %.1f s read %s",
			       o->cpu, first, 100 * (1 - first / nom->mhz), nom->mhz,
			       nom->source, c->nr, c->span_s, confirm_str(c, cs, sizeof(cs)));
		return false;
	}
	below = 1 - c->median / nom->mhz;
	pb_anomaly_add(a, PB_AN_FREQUENCY_LOW, below > 0.25 ? PB_SEV_ERROR : PB_SEV_WARN,
		       "check the governor, power limits and throttling (pinbench doctor)",
		       "cpu%d runs at %.0f MHz, %.1f %% below its nominal %.0f MHz (%s), "
		       "over %d re-probes across %.1f s", o->cpu, c->median, 100 * below,
		       nom->mhz, nom->source, c->nr_clean, c->span_s);
	return true;
}

bool pb_judge_clock(const struct pb_clock_obs *o, const struct pb_nominal *nom,
		    struct pb_anomalies *a)
{
	bool raised;

	judge_disturbed(o, a);
	raised = judge_drift(o, nom, a);
	return judge_low(o, nom, a) || raised;
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
		pb_anomaly_add(a, PB_AN_COUNTER_CLOCK_MISMATCH, PB_SEV_DEFAULT,
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

double pb_observer_max(const struct pb_nominal *nom)
{
	return nom && nom->guest ? PB_OBSERVER_GUEST_MAX : PB_OBSERVER_MAX;
}

bool pb_check_observer(int cpu, double start_s, double end_s, const double *again, int nr,
		       double busy_cpus, const struct pb_nominal *nom, struct pb_anomalies *a)
{
	double slower, fastest, med = end_s, max = pb_observer_max(nom);
	bool busy = nr > 0 && busy_cpus >= PB_OBSERVER_BUSY_CPUS;
	char others[128] = "";

	if (start_s <= 0 || end_s <= 0)
		return false;
	slower = end_s / start_s - 1;
	if (slower <= max)
		return false;
	if (nr > 0) {
		if (nr > PB_OBSERVER_RETRIES)
			nr = PB_OBSERVER_RETRIES;
		med = pb_median(again, nr);
		fastest = again[0];
		for (int i = 1; i < nr; i++)
			fastest = again[i] < fastest ? again[i] : fastest;
		if (fastest / start_s - 1 <= max) {	/* the fastest one decides */
			pb_anomaly_add(a, PB_AN_PROBE_DISTURBED, PB_SEV_DEFAULT,
				       "a transient disturbance, not a lasting change",
				       "reference loop on cpu%d took %.3f s at the start and %.3f s "
				       "at the end (%+.1f %%), but %.3f s (median %.3f s) over %d "
				       "re-timings", cpu, start_s, end_s, 100 * slower, fastest, med, nr);
			return false;
		}
		slower = med / start_s - 1;
	}
	if (busy)
		snprintf(others, sizeof(others), "; other tasks kept %.1f CPUs busy meanwhile",
			 busy_cpus);
	pb_anomaly_add(a, PB_AN_OBSERVER_EFFECT, slower > 0.20 && !busy ? PB_SEV_ERROR : PB_SEV_WARN,
		       busy ? "the machine got slower while other tasks ran: their load may be "
		       "the cause, not measuring; run again on a quiet machine" :
		       "measuring changed the machine: check dmesg and the clock (pinbench "
		       "doctor); a reboot may restore it",
		       "reference loop (%d getppid() on cpu%d) took %.3f s at the start, "
		       "%.3f s at the end (%+.1f %%%s%s)", PB_OBSERVER_CALLS, cpu, start_s, med,
		       100 * slower, nr > 0 ? ", confirmed by re-timings" : "", others);
	return true;
}
