// SPDX-License-Identifier: GPL-2.0-only
/*
 * profile.c - the profile pass: sample, symbolise, fold.  See profile.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/profile.h"
#include "sys/fold.h"
#include "lib/clock.h"

#define DRAIN_S		0.01	/* the rings are read this often */

/* The samples of one task, kept until the window is over. */
struct task_buf {
	struct pb_sampler	*s;
	struct pb_sample	*smp;
	size_t			n, cap;
	uint64_t		ops0;
	int			role;
	struct pb_usyms		*u;		/* its process's symbols */
	bool			u_owned;	/* this task's to free */
};

/* A pass between its window and its folding. */
struct pb_prof_run {
	struct task_buf	*b;
	int		n;
	double		spent;		/* seconds so far */
};

static void keep(const struct pb_sample *s, void *arg)
{
	struct task_buf *b = arg;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 1024;
		struct pb_sample *m = realloc(b->smp, cap * sizeof(*m));

		if (!m)
			return;		/* out of memory: the sample is not kept */
		b->smp = m;
		b->cap = cap;
	}
	b->smp[b->n++] = *s;
}

static void note_add(struct pb_profile *p, const char *text)
{
	size_t at = strlen(p->note);

	if (*text)
		snprintf(p->note + at, sizeof(p->note) - at, "%s%s", at ? "; " : "", text);
}

static int open_all(const struct pb_prof_task *t, int n, struct task_buf *b,
		    struct pb_profile *p)
{
	char err[256];

	for (int i = 0; i < n; i++) {
		b[i].s = pb_sampler_open(&p->ev, t[i].tid, err, sizeof(err));
		if (!b[i].s) {
			note_add(p, err);
			return -1;
		}
	}
	return 0;
}

/* The window: every sampler on, the rings drained while it lasts. */
static int sample_window(const struct pb_prof_task *t, int n, struct task_buf *b,
			 int (*nap)(void *, double), void *arg, struct pb_profile *p)
{
	double t0, end;
	int rc = 0;

	for (int i = 0; i < n; i++)
		b[i].ops0 = __atomic_load_n(t[i].ops, __ATOMIC_RELAXED);
	for (int i = 0; i < n; i++)
		pb_sampler_start(b[i].s);
	t0 = pb_mono_s();
	end = t0 + p->window_s;
	while (!rc && pb_mono_s() < end) {
		double left = end - pb_mono_s();

		rc = nap(arg, left < DRAIN_S ? (left > 0 ? left : 0) : DRAIN_S);
		for (int i = 0; i < n; i++)
			pb_sampler_drain(b[i].s, keep, &b[i]);
	}
	for (int i = 0; i < n; i++)
		pb_sampler_stop(b[i].s);
	p->window_s = pb_mono_s() - t0;
	for (int i = 0; i < n; i++) {
		struct pb_prof_role *r = &p->role[t[i].role];
		uint64_t samples, lost, clk;

		pb_sampler_drain(b[i].s, keep, &b[i]);
		pb_sampler_totals(b[i].s, &samples, &lost, &clk);
		r->tasks++;
		r->samples += samples;
		r->lost += lost;
		r->task_clock_ns += clk;
		r->ops += __atomic_load_n(t[i].ops, __ATOMIC_RELAXED) - b[i].ops0;
		if (t[i].primary)
			p->ops += __atomic_load_n(t[i].ops, __ATOMIC_RELAXED) - b[i].ops0;
	}
	return rc;
}

/* One role's samples as bounded folded text. */
static void fold_role(struct pb_prof_run *run, int role, const struct pb_ksyms *k,
		      struct pb_prof_role *r)
{
	struct pb_fold f = { 0 };
	char stack[8192];
	char *text;

	for (int i = 0; i < run->n; i++) {
		struct task_buf *b = &run->b[i];

		for (size_t s = 0; b->role == role && s < b->n; s++) {
			pb_stack_text(&b->smp[s], k, b->u, stack, sizeof(stack), &r->un);
			if (pb_fold_add(&f, stack, 1))
				break;
		}
	}
	pb_fold_bound(&f, PB_FOLD_COVER);
	text = pb_fold_text(&f, sizeof(r->folded));
	snprintf(r->folded, sizeof(r->folded), "%s", text ? text : "");
	r->rest_stacks = f.rest_stacks;
	free(text);
	pb_fold_free(&f);
}

/* Each task's process's maps, read while it runs: one reading per process. */
static void open_usyms(const struct pb_prof_task *t, struct pb_prof_run *run)
{
	for (int i = 0; i < run->n; i++) {
		run->b[i].role = t[i].role;
		for (int k = 0; k < i && !run->b[i].u; k++)
			if (t[k].pid == t[i].pid)
				run->b[i].u = run->b[k].u;
		if (!run->b[i].u) {
			run->b[i].u = pb_usyms_open(t[i].pid);
			run->b[i].u_owned = true;
		}
	}
}

struct pb_prof_run *pb_profile_sample(const struct pb_prof_task *t, int n, int nr_roles,
				      double window_s, int (*nap)(void *arg, double s),
				      void *arg, struct pb_profile *p, int *rc)
{
	struct pb_prof_run *run = calloc(1, sizeof(*run));
	double t0 = pb_mono_s();
	char err[256];

	*rc = 0;
	memset(p, 0, sizeof(*p));
	p->nr_roles = nr_roles < PB_PROF_ROLES ? nr_roles : PB_PROF_ROLES;
	p->window_s = window_s;
	if (!run || !(run->b = calloc(n, sizeof(*run->b)))) {
		free(run);
		note_add(p, "out of memory");
		return NULL;
	}
	run->n = n;
	if (pb_sample_choose(&p->ev, window_s, err, sizeof(err))) {
		note_add(p, err);
		goto out;
	}
	note_add(p, p->ev.note);
	if (open_all(t, n, run->b, p))
		goto out;
	*rc = sample_window(t, n, run->b, nap, arg, p);
	p->done = !*rc;
	if (p->done)
		open_usyms(t, run);
out:
	for (int i = 0; i < n; i++) {
		pb_sampler_close(run->b[i].s);
		run->b[i].s = NULL;
	}
	run->spent = pb_mono_s() - t0;
	return run;
}

void pb_profile_fold(struct pb_prof_run *run, struct pb_profile *p)
{
	double t0 = pb_mono_s();
	struct pb_ksyms *k = NULL;
	char err[256];

	if (!run)
		return;
	if (p->done) {
		k = pb_ksyms_load(err, sizeof(err));
		note_add(p, err);
	}
	for (int role = 0; p->done && role < p->nr_roles; role++)
		fold_role(run, role, k, &p->role[role]);
	if (p->done)
		p->sample_cost_ns = pb_sample_cost_ns(&p->ev);
	for (int i = 0; i < run->n; i++) {
		if (run->b[i].u_owned)
			pb_usyms_free(run->b[i].u);
		free(run->b[i].smp);
	}
	pb_ksyms_free(k);
	p->wall_s = run->spent + (pb_mono_s() - t0);
	free(run->b);
	free(run);
}

uint64_t pb_prof_net_clock(const struct pb_profile *p, const struct pb_prof_role *r)
{
	double cost = p->sample_cost_ns * (double)(r->samples + r->lost);

	return cost < (double)r->task_clock_ns ? r->task_clock_ns - (uint64_t)cost : 0;
}
