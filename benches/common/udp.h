/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udp.h - the role side of the network workloads (udpping, rr), in
 * loop(): one end of a UDP request/response exchange, the client's round
 * trip and the server's serve loop, datagram and stream I/O that stops
 * with the harness's stop.  The socket helpers are net/netutil.h's.
 */
#ifndef PINBENCH_BENCHES_UDP_H
#define PINBENCH_BENCHES_UDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "net/netutil.h"

struct pb_role_ctx;

/*
 * Role I/O results: PB_IO_OK, PB_IO_TIMEOUT (the receive timeout passed),
 * PB_IO_STOP (interrupted by the harness's stop), or -1 after pb_fail().
 */
enum { PB_IO_STOP = 0, PB_IO_OK = 1, PB_IO_TIMEOUT = 2 };

/* Aux counters of the UDP round trip (the workloads name them). */
enum { PB_AUX_LOST, PB_AUX_STALE };

/* One end of a UDP request/response exchange. */
struct pb_udp_end {
	int			fd;
	const struct sockaddr	*peer;		/* client, unconnected: the server */
	socklen_t		peerlen;
	bool			connected;	/* send/recv, not sendto/recvfrom */
	bool			poll;		/* poll() for POLLIN before receiving */
	int			timeout_ms;	/* receive timeout (loss); -1: none */
	long			drop_every;	/* server: drop every K-th request */
	size_t			req, resp;	/* request and response bytes */
	size_t			taglen;		/* sequence tag bytes */
	uint64_t		seq;		/* client: last request sent */
	uint64_t		rx;		/* server: requests received */
	char			*buf;		/* max(req, resp) bytes */
	bool			locked;		/* server, two hosts: answers lock only */
	struct sockaddr_storage	lock;
};

/*
 * Client: one round trip, timed with pb_lat_begin/end and counted with
 * pb_op() when the matching reply comes back; a timeout counts
 * PB_AUX_LOST and closes the attempt with pb_lat_lost() (the wait is no
 * round trip), a reply to another request PB_AUX_STALE (and is dropped).
 * PB_IO_OK (done or lost), PB_IO_STOP, or -1.
 */
int pb_udp_round_trip(struct pb_role_ctx *c, struct pb_udp_end *e);
/*
 * Server: receive one request and answer with e->resp bytes carrying the
 * request's tag (unless drop_every says drop).  Counts pb_op() per reply.
 * With c->client (pinbench server), only the client is answered: the first
 * datagram of e->req bytes from the client's host locks the end to its
 * address and port (the socket is connected to it, so the kernel drops
 * the others); anything else, of another size or from elsewhere, is
 * dropped without a reply.
 */
int pb_udp_serve(struct pb_role_ctx *c, struct pb_udp_end *e);
/* Stream socket: move all len bytes (read or write), 1 / PB_IO_STOP / -1. */
int pb_net_xfer(struct pb_role_ctx *c, int fd, char *buf, size_t len, bool wr);

#endif
