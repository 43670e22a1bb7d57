// SPDX-License-Identifier: GPL-2.0-only
/*
 * udpping - UDP ping-pong over loopback: the client sends `size` bytes,
 * the echo server sends them back; the metric is the round-trip time
 * (µs RTT; sockperf and qperf print one-way latency, RTT/2).
 *
 * A lost datagram never hangs the run: the client's receive times out
 * (timeout_ms), counts "lost" and starts the next round trip.  Every
 * request carries a sequence tag (netutil.h) so a late reply to an earlier
 * request is counted "stale" and dropped, never taken for the answer.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bench.h"
#include "net/netutil.h"
#include "common/netkeys.h"
#include "common/udp.h"

enum { CLIENT, SERVER };

struct udpping_opts {
	int	family;		/* index into "4|6" */
	long	size;
	int	poll;
	long	busy_poll;
	int	connected;
	long	timeout_ms;
	long	drop_every;
};

struct udpping_shared {
	int			fd[2];		/* client, server */
	struct sockaddr_storage	addr[2];
	socklen_t		alen[2];
	bool			peer_server;	/* pinbench server: unconnected, replies to the sender */
};

static const struct pb_key udpping_keys[] = {
	PB_NETKEY_FAMILY(struct udpping_opts),
	{ .name = "size", .type = PB_T_INT, .def = "1", .min = 1, .max = PB_UDP_MAX6,
	  .off = offsetof(struct udpping_opts, size),
	  .help = "payload bytes per datagram (IPv4 up to 65507, IPv6 up to 65527)" },
	{ .name = "poll", .type = PB_T_BOOL, .def = "0",
	  .off = offsetof(struct udpping_opts, poll),
	  .help = "poll() for POLLIN before each receive, on both ends" },
	PB_NETKEY_BUSY_POLL(struct udpping_opts,
		"SO_BUSY_POLL usec on both sockets; the job fails if the kernel refuses "
		"(loopback has no NAPI context to spin on)"),
	{ .name = "connected", .type = PB_T_BOOL, .def = "0",
	  .off = offsetof(struct udpping_opts, connected),
	  .help = "connect() both sockets and use send/recv instead of sendto/recvfrom" },
	PB_NETKEY_TIMEOUT_MS(struct udpping_opts,
		"receive timeout: a reply later than this counts as lost"),
	PB_NETKEY_DROP_EVERY(struct udpping_opts,
		"test only: the server drops every K-th datagram (0: none)"),
	{ .name = NULL },
};

static int udpping_check(const void *opts, int nr_instances, char *err)
{
	const struct udpping_opts *o = opts;
	int fam = pb_family_of(o->family);

	(void)nr_instances;
	if (o->size > pb_net_udp_max(fam)) {
		snprintf(err, PB_ERR_MAX, "size=%ld is over the largest UDP payload over "
			 "IPv%d (%ld bytes)", o->size, fam, pb_net_udp_max(fam));
		return -1;
	}
	return 0;
}

static void close_fds(struct udpping_shared *sh)
{
	for (int i = 0; i < 2; i++) {
		if (sh->fd[i] >= 0)
			close(sh->fd[i]);
		sh->fd[i] = -1;
	}
}

static struct udpping_shared *shared_new(void)
{
	struct udpping_shared *sh = calloc(1, sizeof(*sh));

	if (sh)
		sh->fd[0] = sh->fd[1] = -1;
	return sh;
}

/* Only the client times out: the server waits, the stop interrupts it. */
static int socket_opts(const struct udpping_opts *o, int fd, int role, char *err)
{
	if (pb_net_busy_poll(fd, o->busy_poll, err, PB_ERR_MAX))
		return -1;
	if (role != CLIENT)
		return 0;
	return pb_net_rcvtimeo(fd, o->timeout_ms, err, PB_ERR_MAX);
}

static int make_sockets(const struct udpping_opts *o, struct udpping_shared *sh,
			char *err)
{
	int fam = pb_family_of(o->family);

	for (int i = 0; i < 2; i++) {
		sh->fd[i] = pb_net_bound(fam, SOCK_DGRAM, &sh->addr[i], &sh->alen[i],
					 err, PB_ERR_MAX);
		if (sh->fd[i] < 0 || socket_opts(o, sh->fd[i], i, err))
			return -1;
	}
	if (!o->connected)
		return 0;
	for (int i = 0; i < 2; i++) {
		if (connect(sh->fd[i], (struct sockaddr *)&sh->addr[!i], sh->alen[!i]) < 0) {
			int e = errno;

			snprintf(err, PB_ERR_MAX, "connect UDP socket: %s", strerror(e));
			return -1;
		}
	}
	return 0;
}

static int udpping_setup(struct pb_setup_ctx *s)
{
	struct udpping_shared *sh = shared_new();

	if (!sh)
		return pb_setup_fail(s, ENOMEM, "udpping state");
	if (make_sockets(s->opts, sh, s->err)) {
		close_fds(sh);
		free(sh);
		return -1;
	}
	s->shared = sh;
	return 0;
}

static int peer_done(struct pb_peer_ctx *p, struct udpping_shared *sh, int rc)
{
	if (rc) {
		close_fds(sh);
		free(sh);
		return -1;
	}
	p->shared = sh;
	return 0;
}

/* Either side of pinbench server: the family fits the address; fresh state. */
static struct udpping_shared *peer_begin(struct pb_peer_ctx *p)
{
	const struct udpping_opts *o = p->opts;
	struct udpping_shared *sh;

	if (pb_net_family_check(pb_family_of(o->family), p->addr, p->err, PB_ERR_MAX))
		return NULL;
	sh = shared_new();
	if (!sh)
		snprintf(p->err, PB_ERR_MAX, "udpping state: out of memory");
	return sh;
}

/* Server (pinbench server): one unconnected socket on the bind address. */
static int udpping_peer_listen(struct pb_peer_ctx *p)
{
	const struct udpping_opts *o = p->opts;
	struct udpping_shared *sh = peer_begin(p);
	int rc;

	if (!sh)
		return -1;
	sh->peer_server = true;
	sh->fd[SERVER] = pb_net_bound_at(p->addr, p->alen, SOCK_DGRAM, &sh->addr[SERVER],
					 &sh->alen[SERVER], p->err, PB_ERR_MAX);
	rc = sh->fd[SERVER] < 0 || socket_opts(o, sh->fd[SERVER], SERVER, p->err);
	if (!rc)
		p->ports[0] = (uint16_t)pb_net_port(&sh->addr[SERVER]);
	return peer_done(p, sh, rc);
}

/* Client: a socket for the server's data port, connected when connected=1. */
static int udpping_peer_connect(struct pb_peer_ctx *p)
{
	const struct udpping_opts *o = p->opts;
	struct udpping_shared *sh = peer_begin(p);
	int rc;

	if (!sh)
		return -1;
	memcpy(&sh->addr[SERVER], p->addr, p->alen);
	sh->alen[SERVER] = p->alen;
	pb_net_set_port(&sh->addr[SERVER], p->ports[0]);
	if (o->connected)
		sh->fd[CLIENT] = pb_net_connect_to(p->addr, p->alen, p->ports[0], SOCK_DGRAM,
						   0, p->err, PB_ERR_MAX);
	else
		sh->fd[CLIENT] = socket(p->addr->sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sh->fd[CLIENT] < 0 && !o->connected)
		snprintf(p->err, PB_ERR_MAX, "UDP socket: %s", strerror(errno));
	rc = sh->fd[CLIENT] < 0 || socket_opts(o, sh->fd[CLIENT], CLIENT, p->err);
	return peer_done(p, sh, rc);
}

static void udpping_teardown(struct pb_setup_ctx *s)
{
	struct udpping_shared *sh = s->shared;

	if (!sh)
		return;
	close_fds(sh);
	free(sh);
	s->shared = NULL;
}

static int udpping_init(struct pb_role_ctx *c)
{
	const struct udpping_opts *o = c->opts;
	const struct udpping_shared *sh = c->shared;
	struct pb_udp_end *e = calloc(1, sizeof(*e) + o->size);

	if (!e)
		return pb_fail(c, ENOMEM, "buffer of %ld bytes", o->size);
	e->buf = (char *)(e + 1);
	e->fd = sh->fd[c->role];
	e->peer = (const struct sockaddr *)&sh->addr[SERVER];
	e->peerlen = sh->alen[SERVER];
	e->connected = o->connected && !sh->peer_server;
	e->poll = o->poll;
	e->timeout_ms = c->role == CLIENT ? (int)o->timeout_ms : -1;
	e->drop_every = o->drop_every;
	e->req = e->resp = (size_t)o->size;
	e->taglen = pb_seq_taglen((size_t)o->size);
	c->priv = e;
	return 0;
}

static void udpping_fini(struct pb_role_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

static int udpping_loop(struct pb_role_ctx *c)
{
	struct pb_udp_end *e = c->priv;
	int r = PB_IO_OK;

	while (r == PB_IO_OK && !pb_stop(c))
		r = c->role == CLIENT ? pb_udp_round_trip(c, e) : pb_udp_serve(c, e);
	return r < 0 ? -1 : 0;
}

/* timeout_ms: how long the client waits for a reply before counting it lost. */
static long udpping_reply_timeout_ms(const void *opts)
{
	return ((const struct udpping_opts *)opts)->timeout_ms;
}

static double udpping_value(const void *opts, uint64_t ops, double elapsed,
			    int nr_instances)
{
	(void)opts;
	(void)nr_instances;
	return ops ? elapsed * 1e6 / ops : 0;
}

const struct pb_bench pb_bench_udpping = {
	.name		= "udpping",
	.summary	= "UDP ping-pong round trip over loopback (µs RTT; sockperf/qperf "
			  "print one-way latency = RTT/2)",
	.shape		= PB_SHAPE_PAIR,
	.roles		= { "client", "server" },
	.keys		= udpping_keys,
	.opts_size	= sizeof(struct udpping_opts),
	.metric		= { "rtt", "µs", true, false },
	.primary_role	= CLIENT,
	.latency	= true,
	.aux_names	= { [PB_AUX_LOST] = "lost", [PB_AUX_STALE] = "stale" },
	.lost_counter	= PB_AUX_ID(PB_AUX_LOST),
	.reply_timeout_ms = udpping_reply_timeout_ms,
	.check		= udpping_check,
	.setup		= udpping_setup,
	.init		= udpping_init,
	.loop		= udpping_loop,
	.fini		= udpping_fini,
	.teardown	= udpping_teardown,
	.peer_listen	= udpping_peer_listen,
	.peer_connect	= udpping_peer_connect,
	.value		= udpping_value,
};
