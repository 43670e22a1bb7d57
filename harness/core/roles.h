/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * roles.h - the one lifecycle of a workload's role, for the runner's roles
 * and the server's: pin to the role's CPU through hwloc, init, wait for the
 * start, loop, fini; and stopping a set of roles: the stop flag, SIGUSR1 to
 * interrupt blocking calls, giving up after 5 s.
 */
#ifndef PINBENCH_ROLES_H
#define PINBENCH_ROLES_H

#include <stdbool.h>

#include "core/bench.h"
#include "sys/topo.h"

/* One role, as pb_role_run() runs it. */
struct pb_role {
	const struct pb_topo	*topo;
	const struct pb_bench	*bench;
	struct pb_role_ctx	*c;	/* c->cpu: where to pin; c->err: the reason */
	int			*seen;	/* [2]: sched_getcpu() before init, after the loop */
	int			*failed;
	int			*done;	/* set last, with release order */
	/* pinned and initialised, or failed: NULL, or said to whoever waits */
	void			(*ready)(void *arg);
	/* wait for the start of the loop (or the stop flag); NULL: at once */
	void			(*gate)(void *arg);
	void			*arg;
};

/*
 * Pin (a failure is "cannot pin to CPU N: Invalid argument (EINVAL)"), init,
 * ready, gate, loop unless stopped, fini.  *failed on any failure, with the
 * reason in c->err; init failing or the pin leaves fini out.
 */
void pb_role_run(const struct pb_role *r);

/* SIGUSR1 interrupts a role's blocking calls (no SA_RESTART); they then see the stop. */
void pb_roles_catch_stop(void);

/* Stopping nr roles. */
struct pb_roles_stop {
	volatile int	*stopflag;
	int		nr;
	/* role i still running?  Then it is sent SIGUSR1 (by this hook). */
	bool		(*running)(void *arg, int i);
	/* the roles did not stop within 5 s: say so; the process then _exit(1)s */
	void		(*give_up)(void *arg);
	void		*arg;
};

/*
 * Raise the stop flag and interrupt the running roles every 2 ms until
 * none runs; after 5 s, give_up() and _exit(1).
 */
void pb_roles_stop(const struct pb_roles_stop *s);

#endif
