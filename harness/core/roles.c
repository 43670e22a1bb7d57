// SPDX-License-Identifier: GPL-2.0-only
/*
 * roles.c - the one role lifecycle, the runner's and the server's: pin,
 * init, gate, loop, fini; the SIGUSR1 stop and its 5 s limit.  See roles.h.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/roles.h"
#include "lib/clock.h"

#define STOP_POLL_NS	2000000		/* 2 ms between SIGUSR1s */
#define STOP_LIMIT_S	5

void pb_role_run(const struct pb_role *r)
{
	const struct pb_bench *b = r->bench;
	struct pb_role_ctx *c = r->c;
	int rc;

	rc = pb_topo_bind_thread(r->topo, c->cpu);
	r->seen[0] = sched_getcpu();
	if (rc) {
		snprintf(c->err, PB_ERR_MAX, "cannot pin to CPU %d: %s (%s)", c->cpu,
			 strerror(-rc), strerrorname_np(-rc) ? strerrorname_np(-rc) : "?");
		*r->failed = 1;
	} else if (r->seen[0] != c->cpu) {
		snprintf(c->err, PB_ERR_MAX, "pinned to CPU %d but running on CPU %d",
			 c->cpu, r->seen[0]);
		*r->failed = 1;
	} else if (b->init && b->init(c)) {
		*r->failed = 1;
	}
	if (r->ready)
		r->ready(r->arg);
	if (*r->failed)
		goto out;
	if (r->gate)
		r->gate(r->arg);
	if (!__atomic_load_n(c->stopflag, __ATOMIC_RELAXED) && b->loop(c))
		*r->failed = 1;
	r->seen[1] = sched_getcpu();
	if (b->fini)
		b->fini(c);
out:
	__atomic_store_n(r->done, 1, __ATOMIC_RELEASE);
}

static void on_sigusr1(int sig)
{
	(void)sig;	/* interrupts blocking calls; roles then see the stop flag */
}

void pb_roles_catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };	/* no SA_RESTART */

	sigaction(SIGUSR1, &sa, NULL);
}

void pb_roles_stop(const struct pb_roles_stop *s)
{
	double deadline = pb_mono_s() + STOP_LIMIT_S;
	bool all;

	__atomic_store_n(s->stopflag, 1, __ATOMIC_RELEASE);
	do {
		all = true;
		for (int i = 0; i < s->nr; i++)
			if (s->running(s->arg, i))
				all = false;
		if (!all) {
			struct timespec nap = { 0, STOP_POLL_NS };

			while (nanosleep(&nap, &nap) < 0 && errno == EINTR)
				;
		}
	} while (!all && pb_mono_s() < deadline);
	if (!all) {
		s->give_up(s->arg);
		_exit(1);
	}
}
