// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_show.c - what `pinbench run` and `bench` print (run.h): the plan of
 * --dry-run, the progress line, the summary table at the end (with -v the
 * tables as jobs end too), the CSV rows, the lock and save messages, the
 * exit code; the run engine's callbacks (core/execute.h).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "cli/run.h"
#include "cli/say.h"
#include "core/plan.h"
#include "report/result.h"
#include "sys/fold.h"
#include "stats/stopping.h"
#include "lib/clock.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* Refused events, said once per run. */
static void say_unsupported(const struct pb_result *r, char (*said)[96], int *nsaid)
{
	for (int e = 0; e < r->evl.nr; e++) {
		const struct pb_event *ev = &r->evl.ev[e];
		int k;

		if (!ev->status)
			continue;
		for (k = 0; k < *nsaid; k++)
			if (!strcmp(said[k], ev->name))
				break;
		if (k < *nsaid || *nsaid >= 64)
			continue;
		snprintf(said[(*nsaid)++], 96, "%s", ev->name);
		pb_say(stderr, "pinbench: %s: %s\n", ev->name, ev->reason);
	}
}

/* "pingpong same-cpu, pingpong same-core (round 2)": results [from, to) */
static void list_results(const struct pb_run *run, int from, int to, char *buf, size_t len)
{
	size_t off = 0;

	*buf = 0;
	for (int i = from; i < to && off < len; i++) {
		const struct pb_result *r = &run->results[i];
		char round[24] = "";

		if (r->round)
			snprintf(round, sizeof(round), " (round %d)", r->round);
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s%s", i > from ? ", " : "",
					r->job->name, r->placement, round);
	}
	if (off >= len && len > 4)
		snprintf(buf + len - 4, 4, "...");
	pb_str_clean(buf);
}

/*
 * The last save failed: say once what the file kept (an earlier save of
 * this run, which says finished: null: its first `saved` results) and what
 * is lost.
 */
static void say_lost(const struct pb_saver *sv, const struct pb_run *run, int saved)
{
	char kept[512], lost[512];

	list_results(run, saved, run->nr, lost, sizeof(lost));
	if (!sv->claimed || !saved) {
		pb_say(stderr, "pinbench: results not saved: %s (%d job result%s lost: %s)\n",
		       sv->err, run->nr, run->nr == 1 ? "" : "s", lost);
		return;
	}
	list_results(run, 0, saved, kept, sizeof(kept));
	pb_say(stderr, "pinbench: results saved only in part: %s keeps %d of %d job results "
	       "(%s) as the run stood then (its finished is null); lost: %s: %s\n", sv->path,
	       saved, run->nr, kept, lost, sv->err);
}

void run_print_plan(const struct pb_topo *t, const struct pb_jobset *js, FILE *f)
{
	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];
		char reason[256];

		char count[64] = "", err[PB_ERR_MAX];
		struct pb_evlist ev;
		long ops;
		double cs = pb_job_count_window(j, &ops);
		bool first = !pb_evlist_build(&ev, j->events, err, sizeof(err)) &&
			     pb_job_counts_first(j, &ev);

		if (strcmp(j->events, "none") && !j->counting_inline)
			snprintf(count, sizeof(count), ", each counter pass 1 x %g %s%s",
				 ops ? (double)ops : cs, ops ? "ops" : "s",
				 first ? " in the warm-up" : "");
		if (j->loops)
			fprintf(f, "%s (%s): %d x %ld ops%s%s", j->name, j->bench->name,
				j->repeats, j->loops, count, j->threads ? ", threads" : "");
		else
			fprintf(f, "%s (%s): %d x %g s%s%s", j->name, j->bench->name,
				j->repeats, j->duration, count, j->threads ? ", threads" : "");
		if (j->rounds > 1)
			fprintf(f, ", %d rounds (shuffled)", j->rounds);
		fputc('\n', f);
		for (int p = 0; p < (j->nr_placements ? j->nr_placements : 1); p++) {
			const char *pl = j->nr_placements ? j->placements[p] : NULL;
			int *cpus, n = pb_plan_cpus(t, j, pl, &cpus, reason, sizeof(reason));

			fprintf(f, "  %-12s ", pl ? pl : "cpus");
			if (n <= 0 && pl)
				fprintf(f, "skipped: %s", reason);
			for (int k = 0; k < n; k++)
				fprintf(f, "%s%d", k ? "," : "", cpus[k]);
			fputc('\n', f);
			free(cpus);
		}
	}
}

/* The run's own anomalies (warn and error), a line each wrapped at 100 columns. */
static void print_run_anomalies(const struct pb_run *run, FILE *f)
{
	char line[sizeof(run->anomalies.v[0].message) + sizeof(run->anomalies.v[0].advice) + 64];
	bool head = false;

	for (int k = 0; k < run->anomalies.nr; k++) {
		const struct pb_anomaly *a = &run->anomalies.v[k];

		if (a->sev == PB_SEV_INFO)
			continue;
		if (!head)
			fprintf(f, "\nrun:\n");
		head = true;
		snprintf(line, sizeof(line), "  [%s] %s: %s%s%s", pb_sev_name(a->sev), a->kind,
			 a->message, *a->advice ? " -- " : "", a->advice);
		pb_text_wrapped(line, f);
	}
}

/* "45 s", "2 min 05 s", "1 h 20 min". */
void run_dur_text(double s, char *buf, size_t len)
{
	long x = s > 0 ? (long)(s + 0.5) : 0;

	if (x < 120)
		snprintf(buf, len, "%ld s", x);
	else if (x < 3600)
		snprintf(buf, len, "%ld min %02ld s", x / 60, x % 60);
	else
		snprintf(buf, len, "%ld h %02ld min", x / 3600, (x % 3600 + 30) / 60);
}

/*
 * Which window of the job runs (the w-th, from 0): "repeat 2 of 3" of the
 * timing pass, "counter pass 1 of 2" after it (or before it, in the
 * warm-up: counts_first); counting=inline: "counter pass 1 of 2, repeat 2
 * of 3".
 */
static void window_text(const struct pb_progress *pg, int w, char *buf, size_t len)
{
	int r = pg->repeats > 0 ? pg->repeats : 1, pass;

	if (pg->timing && pg->counts_first) {	/* a window a pass, then the metric's */
		if (w < pg->passes)
			snprintf(buf, len, "counter pass %d of %d (warm-up)", w + 1, pg->passes);
		else
			snprintf(buf, len, "repeat %d of %d", w - pg->passes + 1 < r ?
				 w - pg->passes + 1 : r, r);
		return;
	}
	if (pg->timing && w < r) {		/* the metric's windows, then a window a pass */
		snprintf(buf, len, "repeat %d of %d", w + 1, r);
		return;
	}
	if (pg->timing) {
		pass = w - r;
		snprintf(buf, len, "counter pass %d of %d", pass < pg->passes ? pass + 1 :
			 pg->passes, pg->passes);
		return;
	}
	pass = w / r;		/* counting=inline: pass 0 is the metric's */
	snprintf(buf, len, "counter pass %d of %d, repeat %d of %d",
		 pass < pg->passes ? pass + 1 : pg->passes, pg->passes, w % r + 1, r);
}

/*
 * The progress line on stderr, when it is a terminal: "job 2 of 6: pipe
 * same-cpu: counter pass 1 of 1, repeat 2 of 3; about 1 min 20 s left",
 * the time left being what is planned for the rest of this job (at least
 * 0) and for the jobs after it.
 */
static void show_progress(const struct pb_progress *pg, const char *job, const char *pl,
			  int done, int total)
{
	static int tty = -1;
	char win[96], left[32], round[32] = "";
	double job_left = pg->job_s - (pb_mono_s() - pg->started);

	if (tty < 0)
		tty = isatty(2);
	if (!tty)
		return;
	if (done < 0) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	window_text(pg, done < total ? done : total - 1, win, sizeof(win));
	run_dur_text((job_left > 0 ? job_left : 0) + pg->rest_s, left, sizeof(left));
	if (pg->rounds > 1)
		snprintf(round, sizeof(round), "round %d of %d, ", pg->round, pg->rounds);
	fputs("\r\033[K", stderr);	/* the one escape: ours, on a terminal */
	pb_say(stderr, "%sjob %d of %d: %s %s: %s; about %s left", round, pg->job, pg->jobs, job,
	       pl, win, left);
}

/*
 * --dry-run: the planned wall time of js; its seconds, or -1 when its
 * events do not build (run_check() has said why already).
 */
double run_print_planned(const struct pb_topo *t, struct pb_jobset *js, FILE *f)
{
	struct pb_evlist *evl = calloc(js->nr ? js->nr : 1, sizeof(*evl));
	char d[32];
	int cells;
	double sum;
	bool prof = false;

	if (!evl || run_check_events(js, evl)) {
		free(evl);
		return -1;
	}
	for (int i = 0; i < js->nr; i++)
		prof |= js->jobs[i].profile;
	sum = pb_plan_s(t, js, evl, &cells);
	run_dur_text(sum, d, sizeof(d));
	fprintf(f, "planned wall time: %s (%d job run%s: warm-up + repeats x duration, a "
		"short window per counter pass not in the warm-up,%s + %.1f s each)\n", d, cells,
		cells == 1 ? "" : "s", prof ? " the profile pass and its folding," : "",
		PB_JOB_OVERHEAD_S);
	free(evl);
	return sum;
}

/* --dry-run with rounds: the order each round will run in, from the seed. */
void run_print_order(const struct pb_jobset *js, unsigned long seed, FILE *f)
{
	struct pb_plan_cell *cells, *order;
	uint64_t rng = seed;
	int nr, rounds = pb_plan_cells(js, &cells, &nr);

	order = calloc(nr ? nr : 1, sizeof(*order));
	if (rounds > 1 && cells && order) {
		fprintf(f, "order (seed %lu):\n", seed);
		for (int r = 1; r <= rounds; r++) {
			int n = pb_plan_round(js, cells, nr, r, rounds, &rng, order);

			fprintf(f, "  round %d:", r);
			for (int k = 0; k < n; k++) {
				const char *pl = pb_cell_placement(js, order[k]);

				fprintf(f, " %s/%s", js->jobs[order[k].job].name, pl ? pl : "cpus");
			}
			fputc('\n', f);
		}
	}
	free(cells);
	free(order);
}

void run_print_until(const struct run_opts *o, FILE *f)
{
	char d[32];

	if (o->until_frac <= 0)
		return;
	run_dur_text(o->budget_s, d, sizeof(d));
	fprintf(f, "until: after the planned rounds, whole rounds (each shuffled) until every "
		"cell's mean over its rounds is known to +-%g %% (95 %%: a %g %% t interval, "
		"at least %d rounds), or until a next round would end %s after the start\n",
		o->until_frac * 100, 100 * (1 - PB_STOP_ALPHA), PB_STOP_MIN_N, d);
}

/* --until: one line a cell, what came of the rule. */
static void print_until(const struct pb_run *run, FILE *f)
{
	const struct pb_until *u = &run->until;
	static const struct { const char *why, *text; } whys[] = {
		{ "budget", "the budget was spent" }, { "stopped", "the run was stopped" },
		{ "failed", "its last run failed" }, { "skipped", "skipped on this machine" },
	};

	fprintf(f, "\nuntil +-%g %%: %d round%s planned, %d added\n", u->target * 100,
		u->planned, u->planned == 1 ? "" : "s", run->rounds - u->planned);
	for (int i = 0; i < u->nr; i++) {
		const struct pb_until_cell *c = &u->cells[i];
		const char *why = c->why;
		char hw[32] = "no interval";

		for (size_t k = 0; k < sizeof(whys) / sizeof(whys[0]); k++)
			if (why && !strcmp(why, whys[k].why))
				why = whys[k].text;
		if (!isnan(c->halfwidth))
			snprintf(hw, sizeof(hw), "+-%.1f %%", c->halfwidth * 100);
		fprintf(f, "  %s %s: %s %s after %d round%s%s%s\n",
			c->job, c->pl,
			c->reached ? "reached" : "not reached,", hw, c->runs,
			c->runs == 1 ? "" : "s", why ? ": " : "", why ? why : "");
	}
}

static int result_order(const void *a, const void *b)
{
	const struct pb_result *x = a, *y = b;
	int c;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	c = strcmp(x->placement, y->placement);
	return c ? c : x->round - y->round;
}

/* The tables of results [from, to), in job order (a shuffled round too). */
static void print_results(const struct run_opts *o, const struct pb_run *run, int from,
			  int to)
{
	struct pb_run view = *run;
	struct pb_result *sel;

	if (o->quiet || o->json || o->csv || !o->verbose || to <= from)
		return;
	sel = malloc((size_t)(to - from) * sizeof(*sel));
	if (!sel)
		return;
	memcpy(sel, run->results + from, (size_t)(to - from) * sizeof(*sel));
	if (run->rounds > 1) {
		qsort(sel, (size_t)(to - from), sizeof(*sel), result_order);
		printf("\nround %d of %d\n", sel[0].round, run->rounds);
	}
	view.results = sel;
	view.nr = to - from;
	pb_run_print_text(&view, stdout);
	fflush(stdout);
	free(sel);
}

static void say_waiting(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h,
			double limit_s)
{
	char who[128];

	(void)ctx;
	pb_cpu_holder_text(h, who, sizeof(who));
	pb_say(stderr, "pinbench: %s: waiting for CPU %d, held by %s (at most %g s: "
	       "--wait-timeout)\n", j->name, h->cpu, who, limit_s);
}

static void say_shared(void *ctx, const struct pb_job *j, const struct pb_cpu_holder *h)
{
	char who[128];

	(void)ctx;
	pb_cpu_holder_text(h, who, sizeof(who));
	pb_say(stderr, "pinbench: %s: CPU %d is held by %s; running anyway "
	       "(--wait waits)\n", j->name, h->cpu, who);
}

/* A lock folder that cannot be used: said once per pinbench. */
static void say_unlocked(void *ctx, const char *err)
{
	static bool said;

	(void)ctx;
	if (!said)
		pb_say(stderr, "pinbench: %s; runs are not kept apart\n", err);
	said = true;
}

static void show_job(void *ctx, const struct pb_run *run)
{
	struct run_show *x = ctx;

	say_unsupported(&run->results[run->nr - 1], x->said, &x->nsaid);
}

static void show_results(void *ctx, const struct pb_run *run, int from, int to)
{
	struct run_show *x = ctx;

	print_results(x->o, run, from, to);
}

/* A role of the profile pass: its samples and its top function per op. */
static void print_prof_role(const struct pb_result *r, int i, FILE *f)
{
	const struct pb_profile *p = r->profile;
	const struct pb_prof_role *pr = &p->role[i];
	struct pb_fold fold = { 0 };
	char top[128] = "", per[96] = "";
	uint64_t n = 0;
	double err, ns;

	if (!pb_fold_parse(&fold, pr->folded))
		n = pb_fold_top_self(&fold, top, sizeof(top));
	ns = pb_fold_ns_per_op(n, pr->samples, pb_prof_net_clock(p, pr), p->ops, &err);
	if (n && isfinite(ns))
		snprintf(per, sizeof(per), ns >= 1000 ? ", %.1f +- %.1f µs/op" :
			 ", %.0f +- %.0f ns/op", ns >= 1000 ? ns / 1e3 : ns,
			 ns >= 1000 ? err / 1e3 : err);
	pb_say(f, "  %-8s %llu samples (%llu lost), %llu of %llu frames unresolved%s%s",
	       r->job->bench->roles[i], (unsigned long long)pr->samples,
	       (unsigned long long)pr->lost,
	       (unsigned long long)(pr->un.kernel + pr->un.user),
	       (unsigned long long)pr->un.frames, n ? "; top self: " : "", top);
	if (n)
		pb_say(f, " %.0f %%%s", 100.0 * n / pr->samples, per);
	pb_say(f, "\n");
	pb_fold_free(&fold);
}

/* What the samples cost the sampled tasks, taken out of the per-op figures. */
static void print_prof_cost(const struct pb_profile *p, FILE *f)
{
	double clk = 0, n = 0;

	for (int i = 0; i < p->nr_roles; i++) {
		clk += p->role[i].task_clock_ns;
		n += p->role[i].samples + p->role[i].lost;
	}
	if (clk > 0)
		pb_say(f, "  sampling cost: %.1f µs a sample, %.0f %% of the sampled CPU time, "
		       "taken out of the per-op figures\n", p->sample_cost_ns / 1e3,
		       fmin(100, 100 * n * p->sample_cost_ns / clk));
}

/*
 * How fast the profiled window ran against the metric's repeats: sampling
 * slows what it samples, and the per-op figures are that window's.
 */
static void print_prof_rate(const struct pb_result *r, FILE *f)
{
	char b1[PB_NUM_LEN + 8], b2[PB_NUM_LEN + 8], line[256];
	double pr, mr;

	if (pb_result_profile_rate(r, &pr, &mr))
		return;
	snprintf(line, sizeof(line), "its window ran %.0f %% %s than the metric's repeats (%s "
		 "against %s): the per-op figures below are that window's", 100 * fabs(1 - pr / mr),
		 pr <= mr ? "slower" : "faster", pb_num_sig(pr, 3, "ops/s", b1, sizeof(b1)),
		 pb_num_sig(mr, 3, "ops/s", b2, sizeof(b2)));
	pb_say_wrapped(f, "  ", line);
}

/* The profile passes: event, cost in wall time, each role's top function. */
static void print_profiles(const struct pb_run *run, FILE *f)
{
	for (int k = 0; k < run->nr; k++) {
		const struct pb_result *r = &run->results[k];
		const struct pb_profile *p = r->profile;

		if (!p)
			continue;
		pb_say(f, "\nprofile %s %s: %s%s%s, %.2f s of wall time (window %.2f s, "
		       "%llu ops)%s%s\n", r->job->name, r->placement, p->done ? p->ev.name : "not sampled",
		       p->done && !p->ev.kernel ? ", user only" : "",
		       p->done ? ", call chains" : "", p->wall_s, p->window_s,
		       (unsigned long long)p->ops, p->note[0] ? ": " : "", p->note);
		print_prof_rate(r, f);
		for (int i = 0; p->done && i < p->nr_roles; i++)
			print_prof_role(r, i, f);
		if (p->done)
			print_prof_cost(p, f);
		if (p->done && !p->ev.hw)
			pb_say(f, "  %s\n", PB_PROF_SW_NOTE);
	}
}

static void show_finished(void *ctx, const struct pb_run *run)
{
	struct run_show *x = ctx;

	if (x->o->quiet || x->o->json || x->o->csv)
		return;
	pb_run_print_sweeps(run, stdout);
	if (run->rounds > 1 && x->o->verbose)
		pb_run_print_rounds(run, stdout);
	if (run->until.target > 0)
		print_until(run, stdout);
	print_run_anomalies(run, stdout);
	pb_run_print_summary(run, stdout);
	print_profiles(run, stdout);
}

static int save_cb(void *ctx, const struct pb_run *run, bool last)
{
	struct run_show *x = ctx;

	return pb_saver_save(&x->sv, run, last ? &x->text : NULL);
}

void run_show_ops(struct run_show *x, struct pb_exec_ops *ops)
{
	*ops = (struct pb_exec_ops){ .ctx = x,
		.progress = x->o->quiet ? NULL : show_progress,
		.waiting = say_waiting, .shared = say_shared, .unlocked = say_unlocked,
		.job_done = show_job, .results = show_results, .finished = show_finished,
		.save = save_cb };
}

/* What the status of a run says: the last lines and the exit code. */
int run_said(const struct run_show *x, const struct pb_run *run,
		    const struct pb_exec_status *st)
{
	const struct run_opts *o = x->o;
	int rc = st->failed, bad = pb_run_untrusted(run);

	if (st->nothing) {
		pb_say(stderr, "pinbench: interrupted before any job finished a repeat; "
			"nothing saved\n");
		return 1;
	}
	if (st->lost) {
		say_lost(&x->sv, run, st->saved);
		rc = 1;
	} else if (!o->quiet) {		/* -q: nothing, the path included */
		pb_say(o->json || o->csv ? stderr : stdout, "\nresults: %s\n", x->sv.path);
	}
	if (o->json && x->text)		/* saved or not: what was asked for */
		fputs(x->text, stdout), fputc('\n', stdout);
	if (o->csv)
		pb_run_print_csv(run, stdout);
	if (bad && !rc && !st->cut && !o->judged_after) {	/* every job ran: judged here */
		pb_say(stderr, "pinbench: %d job result%s carr%s an error-severity anomaly: "
		       "not to be trusted (exit %d%s)\n", bad, bad == 1 ? "" : "s",
		       bad == 1 ? "ies" : "y", o->untrusted_exit,
		       o->untrusted_exit ? "" : ": PINBENCH_UNTRUSTED_EXIT=0");
		rc = o->untrusted_exit;
	}
	if (st->cut) {			/* saved: only if the last save worked */
		pb_say(stderr, "pinbench: interrupted%s\n", st->lost ? "" :
		       "; what finished is saved");
		rc = 1;
	}
	return rc;
}
