// SPDX-License-Identifier: GPL-2.0-only
/*
 * execute.c - the run engine (execute.h): every cell of a job file's plan,
 * round by round, in each round's order; a failed job does not stop the
 * others; the run is saved after each cell, so a crash loses at most the
 * cell in flight.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/execute.h"
#include "checks/clockcheck.h"
#include "checks/envcheck.h"
#include "sys/env.h"
#include "stats/stopping.h"
#include "lib/clock.h"

void pb_run_free(struct pb_run *run)
{
	for (int i = 0; i < run->nr; i++)
		pb_result_free(&run->results[i]);
	free(run->results);
	run->results = NULL;
	run->nr = 0;
	json_decref(run->environment);
	run->environment = NULL;
	pb_anomalies_free(&run->anomalies);
	free(run->until.cells);
	run->until.cells = NULL;
	run->until.nr = 0;
}

/* The first CPU the run will use: where the observer loop runs. */
static int first_cpu(const struct pb_topo *t, const struct pb_jobset *js)
{
	char reason[256];

	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];

		for (int p = 0; p < (j->nr_placements ? j->nr_placements : 1); p++) {
			int *cpus, n = pb_plan_cpus(t, j, j->nr_placements ? j->placements[p] :
						    NULL, &cpus, reason, sizeof(reason));
			int c = n > 0 ? cpus[0] : -1;

			free(cpus);
			if (c >= 0)
				return c;
		}
	}
	return -1;
}

/* What is recorded once per run: levels, environment, nominal clock, observer start. */
static void run_begin(struct pb_run *run, const struct pb_jobset *js)
{
	struct pb_env env;
	char err[256];

	pb_boot_id(run->boot_id, sizeof(run->boot_id));
	snprintf(run->invocation, sizeof(run->invocation), "%s", pb_invocation_id());
	run->obs_cpu = first_cpu(run->topo, js);
	pb_nominal_detect(run->obs_cpu >= 0 ? run->obs_cpu : 0, &run->nominal);
	if (!pb_env_collect(&env, err, sizeof(err))) {
		run->environment = pb_env_json(&env);
		pb_env_anomalies(&env, pb_perf_privileged(), &run->anomalies);
		pb_env_free(&env);
	}
	if (run->obs_cpu >= 0 &&
	    pb_observer_time(run->obs_cpu, &run->obs_start_s, err, sizeof(err)))
		run->obs_cpu = -1;
}

static void run_end(struct pb_run *run)
{
	double again[PB_OBSERVER_RETRIES], limit, busy = -1, t0;
	struct pb_cpustat s0, s1;
	int all = -1, nr = 0;
	char err[256];

	if (run->obs_cpu < 0)
		return;
	if (pb_observer_time(run->obs_cpu, &run->obs_end_s, err, sizeof(err))) {
		run->obs_end_s = 0;
		return;
	}
	limit = run->obs_start_s * (1 + pb_observer_max(&run->nominal));
	if (run->obs_end_s > limit) {	/* re-timed, and how busy the machine was meanwhile */
		t0 = pb_mono_s();
		pb_cpustat_snapshot(&all, 1, &s0);
		nr = pb_observer_confirm(run->obs_cpu, again, PB_OBSERVER_RETRIES,
					 PB_OBSERVER_STEP_S, limit);
		pb_cpustat_snapshot(&all, 1, &s1);
		if (s0.known && s1.known && s1.busy_ns >= s0.busy_ns && pb_mono_s() > t0)
			busy = (double)(s1.busy_ns - s0.busy_ns) / ((pb_mono_s() - t0) * 1e9);
	}
	pb_check_observer(run->obs_cpu, run->obs_start_s, run->obs_end_s, again, nr, busy,
			  &run->nominal, &run->anomalies);
}

/*
 * Wait (o->wait) until CPUs w names are free, trying again every 100 ms,
 * at most o->wait_s: 0 (taken, or still held: *nheld), or -EINTR.
 */
static int lock_wait(const struct pb_exec_opts *o, const struct pb_exec_ops *ops,
		     const struct pb_job *j, const struct pb_where *w, struct pb_cpulock *l,
		     struct pb_cpu_holder *held, int *nheld, char *err, size_t len)
{
	double end = pb_mono_s() + o->wait_s;
	int rc = 0;

	if (ops->waiting)
		ops->waiting(ops->ctx, j, &held[0], o->wait_s);
	while (!rc && *nheld && !pb_interrupted && pb_mono_s() < end) {
		pb_cpulock_release(l);
		usleep(100 * 1000);
		rc = pb_cpulock_take(l, w->cpus, w->n, held, 8, nheld, err, len);
	}
	if (pb_interrupted) {
		pb_cpulock_release(l);
		return -EINTR;
	}
	return rc;
}

/*
 * Lock the CPUs of job j at w, as the plan resolved them (see cpulock.h).
 * Without o->wait, CPUs another process holds (another pinbench
 * measuring) go into held[] and to ops->shared; with it, lock_wait().  A
 * lock folder that cannot be used goes to ops->unlocked.  0, -EINTR when
 * a wait was interrupted, -ETIMEDOUT with why when the CPUs were still
 * held at the limit.
 */
static int lock_job(const struct pb_exec_opts *o, const struct pb_exec_ops *ops,
		    const struct pb_job *j, const struct pb_where *w, struct pb_cpulock *l,
		    struct pb_cpu_holder *held, int *nheld, char *why, size_t wlen)
{
	char err[PATH_MAX + 64], who[128];
	int rc;

	*nheld = 0;
	memset(l, 0, sizeof(*l));
	if (w->n <= 0)
		return 0;
	rc = pb_cpulock_take(l, w->cpus, w->n, held, 8, nheld, err, sizeof(err));
	if (!rc && *nheld && o->wait) {
		rc = lock_wait(o, ops, j, w, l, held, nheld, err, sizeof(err));
		if (!rc && *nheld) {
			pb_cpulock_release(l);
			pb_cpu_holder_text(&held[0], who, sizeof(who));
			snprintf(why, wlen, "CPU %d still held by %s after --wait-timeout %g s",
				 held[0].cpu, who, o->wait_s);
			rc = -ETIMEDOUT;
		}
	}
	if (rc == -1 && ops->unlocked)
		ops->unlocked(ops->ctx, err);
	for (int k = 0; rc >= -1 && ops->shared && k < *nheld; k++)
		ops->shared(ops->ctx, j, &held[k]);
	return rc < -1 ? rc : 0;
}

/* The job shared its CPUs with another pinbench: say so in the result. */
static void mark_shared(struct pb_result *r, const struct pb_cpu_holder *held, int nheld)
{
	char cpus[128] = "", who[128];
	size_t k = 0;

	if (!nheld)
		return;
	for (int i = 0; i < nheld && k < sizeof(cpus); i++)
		k += snprintf(cpus + k, sizeof(cpus) - k, "%s%d", i ? "," : "", held[i].cpu);
	pb_cpu_holder_text(&held[0], who, sizeof(who));
	pb_anomaly_add(&r->anomalies, PB_AN_SHARED_CPUS, PB_SEV_DEFAULT,
		       "run one pinbench at a time on these CPUs (pinbench run --wait)",
		       "the lock of CPU %s was held by %s when this job began", cpus, who);
}

/* r: job j at w did not run: stopped (rc -EINTR) or its CPUs still held (why). */
static void not_run(const struct pb_job *j, const struct pb_where *w,
		    const struct pb_evlist *evl, int rc, const char *why, struct pb_result *r)
{
	memset(r, 0, sizeof(*r));
	r->job = j;
	r->evl = *evl;
	r->other_frac = -1;
	if (j->bench->metric_for)	/* a saved job names its metric */
		j->bench->metric_for(j->opts, &r->metric);
	else
		r->metric = j->bench->metric;
	snprintf(r->placement, sizeof(r->placement), "%s", w->pl ? w->pl : "cpus");
	r->status = rc == -EINTR ? PB_INTERRUPTED : PB_FAILED;
	snprintf(r->reason, sizeof(r->reason), "%s", rc == -EINTR ?
		 "interrupted while waiting for its CPUs" : why);
}

/* Run one job at one placement (w) into r, its CPUs locked meanwhile. */
static void run_one(const struct pb_exec_opts *o, const struct pb_exec_ops *ops,
		    const struct pb_topo *t, const struct pb_job *j, const struct pb_where *w,
		    const struct pb_evlist *evl, const struct pb_nominal *nom,
		    const struct pb_progress *pg, struct pb_result *r)
{
	struct pb_cpu_holder held[8];
	struct pb_cpulock l;
	char why[sizeof(r->reason)];
	int nheld, rc = lock_job(o, ops, j, w, &l, held, &nheld, why, sizeof(why));

	if (rc == -EINTR || rc == -ETIMEDOUT) {
		not_run(j, w, evl, rc, why, r);
		return;
	}
	(ops->run_job ? ops->run_job : pb_run_job)(t, j, w, evl, nom, pg, r);
	pb_cpulock_release(&l);
	mark_shared(r, held, nheld);
}

/* Is there anything to keep: a job that ended, or a repeat that finished? */
static bool worth_saving(const struct pb_run *run)
{
	for (int i = 0; i < run->nr; i++)
		if (run->results[i].status != PB_INTERRUPTED || run->results[i].nr_reps)
			return true;
	return false;
}

/* Save the run as it stands: 0, or -1 (st->saved: what the file still has). */
static int save(const struct pb_exec_ops *ops, const struct pb_run *run, bool last,
		struct pb_exec_status *st)
{
	if (ops->save(ops->ctx, run, last))
		return -1;
	st->saved = run->nr;
	return 0;
}

/* Did the stop cut anything: a job in flight, or jobs not run? */
static bool run_cut(const struct pb_run *run)
{
	if (run->nr < run->planned)
		return true;
	for (int i = 0; i < run->nr; i++)
		if (run->results[i].status == PB_INTERRUPTED)
			return true;
	return false;
}

/* The state of a run between its cells. */
struct exec {
	const struct pb_exec_opts	*o;
	const struct pb_exec_ops	*ops;
	const struct pb_jobset		*js;
	const struct pb_evlist		*evl;
	struct pb_run			*run;
	struct pb_exec_status		*st;
	double				rest_s;	/* planned seconds of the cells not begun */
	bool				multi;	/* rounds: more than one, or --until */
	double				start;	/* pb_mono_s() at the start */
	/* cells this machine skips: "job N of M" counts the others */
	int				skips;	/* planned so far (until's rounds too) */
	int				skipped;	/* begun so far */
	int				skips_round;	/* in one round of every cell */
};

/* Run cell c of round `round` into the run's next result, and save. */
static void run_cell(struct exec *x, struct pb_plan_cell c, int round)
{
	const struct pb_job *j = &x->js->jobs[c.job];
	struct pb_run *run = x->run;
	struct pb_result *r = &run->results[run->nr++];
	const struct pb_evlist *ev = &x->evl[c.job];
	struct pb_where w;
	struct pb_progress pg;

	pb_plan_where(run->topo, j, pb_cell_placement(x->js, c), &w);
	x->skipped += w.n <= 0;
	pg = (struct pb_progress){ .show = x->ops->progress, .job = run->nr - x->skipped,
				   .jobs = run->planned - x->skips, .round = round, .rounds = run->rounds,
				   .repeats = j->repeats, .timing = !ev->nr || !j->counting_inline,
				   .passes = ev->nr ? (ev->nr_passes > 0 ? ev->nr_passes : 1) : 0,
				   .counts_first = pb_job_counts_first(j, ev),
				   .job_s = pb_where_s(j, &w, ev), .started = pb_mono_s() };
	x->rest_s -= pg.job_s;
	pg.rest_s = x->rest_s > 0 ? x->rest_s : 0;
	run_one(x->o, x->ops, run->topo, j, &w, ev, &run->nominal, &pg, r);
	pb_where_free(&w);
	r->round = x->multi ? round : 0;
	x->st->failed |= r->status == PB_FAILED;
	if (worth_saving(run))	/* a failure: the next save tries again */
		save(x->ops, run, false, x->st);
	if (x->ops->job_done)
		x->ops->job_done(x->ops->ctx, run);
}

/* Round `round` of the run, in order[n]; stops between cells on pb_interrupted. */
static void run_round(struct exec *x, const struct pb_plan_cell *order, int n, int round)
{
	const struct pb_exec_ops *ops = x->ops;
	struct pb_run *run = x->run;
	int from = run->nr, job_from = run->nr;

	for (int k = 0; k < n && !pb_interrupted; k++) {
		run_cell(x, order[k], round);
		/* one round: each job's results once its placements are done */
		if (!x->multi && (k + 1 == n || order[k + 1].job != order[k].job)) {
			if (ops->results)
				ops->results(ops->ctx, run, job_from, run->nr);
			job_from = run->nr;
		}
	}
	if (x->multi && ops->results)
		ops->results(ops->ctx, run, from, run->nr);
}

/* The values of cell c so far (one a run that is ok) into v; *last: its last result. */
static int cell_values(const struct exec *x, struct pb_plan_cell c, double *v,
		       const struct pb_result **last)
{
	const char *pl = pb_cell_placement(x->js, c);
	const struct pb_run *run = x->run;
	int n = 0;

	*last = NULL;
	for (int i = 0; i < run->nr; i++) {
		const struct pb_result *r = &run->results[i];

		if (r->job != &x->js->jobs[c.job] || strcmp(r->placement, pl ? pl : "cpus"))
			continue;
		*last = r;
		if (r->status == PB_OK && r->summary.n > 0)
			v[n++] = r->summary.mean;
	}
	return n;
}

/*
 * The rule for every cell into run->until.cells: true when no cell
 * wants another round (each reached it, or its last run failed or was
 * skipped: more rounds would not help).
 */
static bool until_judge(struct exec *x, double *v)
{
	struct pb_until *u = &x->run->until;
	bool done = true;

	for (int i = 0; i < u->nr; i++) {
		struct pb_until_cell *uc = &u->cells[i];
		const struct pb_result *last;

		uc->runs = cell_values(x, uc->cell, v, &last);
		uc->halfwidth = pb_stop_halfwidth(v, uc->runs);
		uc->reached = pb_stop_enough(v, uc->runs, u->target);
		uc->why = NULL;
		if (uc->reached)
			continue;
		if (last && last->status == PB_SKIPPED)
			uc->why = "skipped";
		else if (last && last->status == PB_FAILED)
			uc->why = "failed";
		else
			done = false;
	}
	return done;
}

/* Room for one more round of nr cells: 0, or -1 (out of memory). */
static int until_grow(struct pb_run *run, int nr)
{
	struct pb_result *r = realloc(run->results, (run->planned + nr) * sizeof(*r));

	if (!r)
		return -1;
	memset(r + run->planned, 0, nr * sizeof(*r));
	run->results = r;
	run->planned += nr;
	return 0;
}

/*
 * --until: whole rounds after the planned ones, every cell in each (so
 * that the machine's drift meanwhile falls on every cell alike, and the
 * rounds stay blocks of the same cells), until no cell wants one more
 * or the next would end after the budget.  round_s: a round's planned
 * seconds.
 */
static void until_rounds(struct exec *x, const struct pb_plan_cell *cells, int nr,
			 struct pb_plan_cell *order, uint64_t *rng, double round_s)
{
	struct pb_until *u = &x->run->until;
	double *v = calloc(x->run->planned + 1, sizeof(*v));
	bool reached = false;

	while (v && !pb_interrupted && !(reached = until_judge(x, v))) {
		double *more;

		if (pb_mono_s() - x->start + round_s > u->budget_s)
			break;
		more = realloc(v, (x->run->planned + nr + 1) * sizeof(*v));
		if (!more)
			break;
		v = more;
		if (until_grow(x->run, nr))
			break;
		x->skips += x->skips_round;
		x->rest_s = round_s;
		x->run->rounds++;
		/* round 1 takes every cell; rounds 2: shuffled */
		run_round(x, order, pb_plan_round(x->js, cells, nr, 1, 2, rng, order),
			  x->run->rounds);
	}
	if (v)
		until_judge(x, v);
	u->end = reached ? "reached" : pb_interrupted ? "stopped" : "budget";
	for (int i = 0; i < u->nr; i++)
		if (!u->cells[i].reached && !u->cells[i].why)
			u->cells[i].why = pb_interrupted ? "stopped" : "budget";
	free(v);
}

/* run->until for the cells of the plan: 0, or -1 (out of memory). */
static int until_init(const struct pb_exec_opts *o, const struct pb_jobset *js,
		      struct pb_run *run, const struct pb_plan_cell *cells, int nr)
{
	struct pb_until *u = &run->until;

	memset(u, 0, sizeof(*u));
	if (o->until <= 0)
		return 0;
	u->cells = calloc(nr ? nr : 1, sizeof(*u->cells));
	if (!u->cells)
		return -1;
	u->target = o->until;
	u->budget_s = o->budget_s;
	u->planned = run->rounds;
	u->nr = nr;
	for (int c = 0; c < nr; c++) {
		const char *pl = pb_cell_placement(js, cells[c]);

		u->cells[c] = (struct pb_until_cell){ .cell = cells[c], .halfwidth = NAN,
			.job = js->jobs[cells[c].job].name, .pl = pl ? pl : "cpus" };
	}
	return 0;
}

/* Finish the run: the observer, finished, the last save. */
static void run_close(struct exec *x)
{
	struct pb_run *run = x->run;
	time_t now = time(NULL);
	struct tm tm;

	run_end(run);
	gmtime_r(&now, &tm);
	strftime(run->finished, sizeof(run->finished), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (x->ops->finished)
		x->ops->finished(x->ops->ctx, run);
	x->st->nothing = !worth_saving(run);
	if (!x->st->nothing)
		x->st->lost = save(x->ops, run, true, x->st) != 0;
	x->st->cut = run_cut(run);
}

/* The planned seconds of one round of every cell. */
static double round_s(const struct pb_jobset *js, const struct pb_topo *t,
		      const struct pb_evlist *evl)
{
	double s = 0;
	struct pb_plan_cell *cells;
	int nr = 0;

	pb_plan_cells(js, &cells, &nr);
	for (int c = 0; cells && c < nr; c++)
		s += pb_plan_cell_s(t, &js->jobs[cells[c].job], pb_cell_placement(js, cells[c]),
				    &evl[cells[c].job]);
	free(cells);
	return s;
}

int pb_execute(const struct pb_exec_opts *o, const struct pb_jobset *js,
	       const struct pb_evlist *evl, const struct pb_exec_ops *ops,
	       struct pb_run *run, struct pb_exec_status *st, char *err, size_t len)
{
	struct exec x = { .o = o, .ops = ops, .js = js, .evl = evl, .run = run, .st = st };
	struct pb_plan_cell *cells = NULL, *order = NULL;
	uint64_t rng = run->seed;
	int nr_cells = 0;

	memset(st, 0, sizeof(*st));
	run->rounds = pb_plan_cells(js, &cells, &nr_cells);
	for (int c = 0; c < nr_cells; c++) {
		const struct pb_job *j = &js->jobs[cells[c].job];
		struct pb_where w;

		run->planned += j->rounds;
		pb_plan_where(run->topo, j, pb_cell_placement(js, cells[c]), &w);
		x.skips += w.n <= 0 ? j->rounds : 0;
		x.skips_round += w.n <= 0;
		pb_where_free(&w);
	}
	run->results = calloc(run->planned ? run->planned : 1, sizeof(*run->results));
	order = calloc(nr_cells ? nr_cells : 1, sizeof(*order));
	if (!run->results || !order || !cells || until_init(o, js, run, cells, nr_cells)) {
		free(cells);
		free(order);
		snprintf(err, len, "%s", strerror(ENOMEM));
		return -1;
	}
	x.start = pb_mono_s();
	x.multi = run->rounds > 1 || o->until > 0;
	run_begin(run, js);
	x.rest_s = pb_plan_s(run->topo, js, evl, NULL);
	/* with --until, even one planned round is shuffled: rounds will follow */
	for (int round = 1; round <= run->rounds && !pb_interrupted; round++)
		run_round(&x, order, pb_plan_round(js, cells, nr_cells, round,
						   x.multi ? run->rounds + 1 : 1, &rng, order),
			  round);
	if (o->until > 0)
		until_rounds(&x, cells, nr_cells, order, &rng, round_s(js, run->topo, evl));
	run->until.wall_s = pb_mono_s() - x.start;
	run_close(&x);
	free(cells);
	free(order);
	return 0;
}
