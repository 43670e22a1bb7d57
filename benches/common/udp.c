// SPDX-License-Identifier: GPL-2.0-only
/*
 * udp.c - the role side of the network workloads: the UDP round trip and
 * serve loops, datagram and stream I/O.  See udp.h.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/bench.h"
#include "udp.h"


/* Receive one datagram (MSG_TRUNC: *n is its real length). */
static int pb_net_recv(struct pb_role_ctx *c, struct pb_udp_end *e,
		       struct sockaddr_storage *from, socklen_t *flen, size_t *n)
{
	size_t cap = e->req > e->resp ? e->req : e->resp;

	for (;;) {
		ssize_t r;

		if (e->poll) {
			int w = pb_net_wait_in(e->fd, e->timeout_ms);

			if (w == 0)
				return PB_IO_TIMEOUT;
			if (w < 0 && errno == EINTR) {
				if (pb_stop(c))
					return PB_IO_STOP;
				continue;
			}
			/* locked: a POLLERR is the ICMP error recvfrom() reports */
			if (w < 0 && !(errno == EIO && e->locked))
				return pb_fail(c, errno, "poll");
		}
		if (from)
			*flen = sizeof(*from);
		r = recvfrom(e->fd, e->buf, cap, MSG_TRUNC,
			     (struct sockaddr *)from, from ? flen : NULL);
		if (r >= 0) {
			*n = (size_t)r;
			return PB_IO_OK;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return PB_IO_TIMEOUT;
		if (errno == EINTR) {
			if (pb_stop(c))
				return PB_IO_STOP;
			continue;
		}
		if (errno == ECONNREFUSED && e->locked)
			continue;	/* an earlier reply found no socket there */
		return pb_fail(c, errno, "%s", e->connected ? "recv" : "recvfrom");
	}
}

/* Send len bytes of e->buf as one datagram (to: NULL when connected). */
static int pb_net_send(struct pb_role_ctx *c, struct pb_udp_end *e, size_t len,
		       const struct sockaddr *to, socklen_t tolen)
{
	for (;;) {
		ssize_t r = to ? sendto(e->fd, e->buf, len, 0, to, tolen)
			       : send(e->fd, e->buf, len, 0);

		if (r == (ssize_t)len)
			return PB_IO_OK;
		if (r >= 0)
			return pb_fail(c, 0, "short send: %zd of %zu bytes", r, len);
		if (errno == EINTR) {
			if (pb_stop(c))
				return PB_IO_STOP;
			continue;
		}
		if (errno == ENOBUFS || errno == EAGAIN)
			continue;	/* no room right now: try again */
		if (errno == ECONNREFUSED && e->locked)
			continue;	/* reported for an earlier reply */
		return pb_fail(c, errno, "%s of %zu bytes", to ? "sendto" : "send", len);
	}
}

int pb_udp_round_trip(struct pb_role_ctx *c, struct pb_udp_end *e)
{
	const struct sockaddr *to = e->connected ? NULL : e->peer;
	size_t n;
	int r;

	pb_seq_put(e->buf, e->taglen, ++e->seq);
	pb_lat_begin(c);
	r = pb_net_send(c, e, e->req, to, e->peerlen);
	while (r == PB_IO_OK) {
		r = pb_net_recv(c, e, NULL, NULL, &n);
		if (r == PB_IO_TIMEOUT) {
			pb_lat_lost(c);
			pb_aux_add(c, PB_AUX_LOST, 1);
			return PB_IO_OK;
		}
		if (r != PB_IO_OK)
			break;
		if (pb_seq_check(e->buf, n, e->resp, e->taglen, e->seq) == PB_SEQ_MATCH) {
			pb_lat_end(c);
			pb_op(c);
			return PB_IO_OK;
		}
		pb_aux_add(c, PB_AUX_STALE, 1);
	}
	return r;
}

/*
 * Two hosts: is this datagram (n bytes from `from`) the client's request?
 * 1 yes, 0 drop it, -1 failed.  The first of the agreed size from the
 * client's host locks the end to its address and port; connect() makes
 * the kernel drop the others, and those queued before are checked here.
 */
static int from_client(struct pb_role_ctx *c, struct pb_udp_end *e,
		       const struct sockaddr_storage *from, socklen_t flen, size_t n)
{
	const struct sockaddr *f = (const struct sockaddr *)from;

	if (n != e->req)
		return 0;
	if (e->locked)
		return pb_net_same_host(f, (struct sockaddr *)&e->lock) &&
		       pb_net_port(from) == pb_net_port(&e->lock);
	if (!pb_net_same_host(f, c->client))
		return 0;
	if (connect(e->fd, f, flen) < 0)
		return pb_fail(c, errno, "connect the UDP socket to the client");
	memcpy(&e->lock, from, flen);
	e->locked = true;
	return 1;
}

int pb_udp_serve(struct pb_role_ctx *c, struct pb_udp_end *e)
{
	struct sockaddr_storage from;
	socklen_t flen = sizeof(from);
	size_t n;
	int r;

	r = pb_net_recv(c, e, e->connected && !c->client ? NULL : &from, &flen, &n);
	if (r != PB_IO_OK)
		return r == PB_IO_TIMEOUT ? PB_IO_OK : r;
	if (c->client && (r = from_client(c, e, &from, flen, n)) != 1)
		return r < 0 ? -1 : PB_IO_OK;
	if (pb_drop_due(&e->rx, e->drop_every))
		return PB_IO_OK;
	r = pb_net_send(c, e, e->resp, e->connected ? NULL : (struct sockaddr *)&from,
			flen);
	if (r == PB_IO_OK)
		pb_op(c);
	return r;
}

int pb_net_xfer(struct pb_role_ctx *c, int fd, char *buf, size_t len, bool wr)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = wr ? send(fd, buf + done, len - done, MSG_NOSIGNAL)
			       : recv(fd, buf + done, len - done, 0);

		if (n > 0) {
			done += n;
			continue;
		}
		if (pb_stop(c))
			return PB_IO_STOP;
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return pb_fail(c, 0, "recv: end of stream: the other end is gone");
		return pb_fail(c, errno, "%s of %zu bytes", wr ? "send" : "recv", len);
	}
	return PB_IO_OK;
}
