/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * remote.h - what the runner knows of a job's far end (peer=HOST): the
 * control connection's state, the facts the server sent, and the client
 * operations the runner calls through a table, so that core does not
 * include net/.  The client itself is net/peer.c (pb_peer_ops); the
 * command installs it with pb_runner_set_remote() before running jobs.
 */
#ifndef PINBENCH_REMOTE_H
#define PINBENCH_REMOTE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/bench.h"

struct pb_peer_info {
	char	address[128];		/* as given: HOST[:PORT] */
	char	hostname[65];
	char	kernel[65];
	char	cpu_model[128];
	int	cpu;			/* the server role's CPU there */
};

struct pb_peer {
	int			fd;		/* control connection, -1 closed */
	struct sockaddr_storage	addr;		/* the server (port: control) */
	socklen_t		alen;
	uint16_t		ports[PB_PEER_MAX_INSTANCES];
	int			nr_ports;
	struct pb_peer_info	info;
};

/* The client side of a session, as net/proto.h describes each call. */
struct pb_remote_ops {
	/* HELLO for bench b, READY back: 0, or -1 with the reason */
	int	(*open)(struct pb_peer *p, const char *address, const struct pb_bench *b,
			const void *opts, int nr, int cpu, double max_s, char *err,
			size_t len);
	/* s seconds of quiet from the server: 0, or -1 with what happened */
	int	(*watch)(struct pb_peer *p, double s, char *err, size_t len);
	/* STOP, BYE (the server's ops), close: 0, or -1 with the server's error */
	int	(*close)(struct pb_peer *p, uint64_t *ops, char *err, size_t len);
};

#endif
