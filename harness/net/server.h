/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * server.h - `pinbench server`'s engine (net/server.c): what it listens
 * on and offers, and the loop that serves until SIGINT or SIGTERM.
 */
#ifndef PINBENCH_SERVER_H
#define PINBENCH_SERVER_H

#include <sched.h>
#include <stdio.h>
#include <stddef.h>

struct pb_server_opts {
	char		bind[128];	/* the control address */
	int		port;		/* 0: any */
	cpu_set_t	cpus;		/* CPUs a client may ask for */
	int		max_sessions;	/* 1..64 */
	int		session_timeout;/* s */
	int		idle_timeout;	/* s */
	FILE		*log;		/* where the log lines go; NULL: nowhere */
};

/* 127.0.0.1, PB_SERVER_PORT, this process's CPUs, 4 sessions, 3600 s, 30 s, no log */
void pb_server_defaults(struct pb_server_opts *o);
/*
 * Listen and serve until SIGINT or SIGTERM, logging to o->log: 0, -2 with
 * err when o->bind is not an address (a usage error), or -1 with err set
 * when it cannot listen (err may be "" when out of memory).
 */
int pb_server_run(const struct pb_server_opts *o, char *err, size_t len);

#endif
