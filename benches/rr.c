// SPDX-License-Identifier: GPL-2.0-only
/*
 * rr - netperf-style request/response (TCP_RR, UDP_RR) over loopback:
 * the client sends `request` bytes, the server answers with `response`
 * bytes, one transaction at a time, in `streams` independent pairs.  The
 * metric is transactions per second summed over the streams.
 *
 * Unlike netperf's UDP_RR, a lost datagram does not stop the run: as in
 * udpping, the receive times out, "lost" is counted and the next
 * transaction starts; late replies are recognised by their sequence tag.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/bench.h"
#include "net/netutil.h"
#include "common/netkeys.h"
#include "common/udp.h"
#include "lib/clock.h"

enum { CLIENT, SERVER };
enum { TCP, UDP };

#define RR_MAX_BYTES	(1L << 20)

struct rr_opts {
	int	proto;
	int	family;		/* index into "4|6" */
	long	request;
	long	response;
	long	streams;
	int	nodelay;
	long	busy_poll;
	long	timeout_ms;
	long	drop_every;
};

struct rr_shared {
	int	nr;
	int	lfd;		/* TCP listener, or -1 */
	int	(*fd)[2];	/* per stream: client end, server end */
	bool	peer_server;	/* pinbench server: UDP sockets unconnected */
};

static const struct pb_key rr_keys[] = {
	{ .name = "proto", .type = PB_T_ENUM, .def = "tcp", .choices = "tcp|udp",
	  .off = offsetof(struct rr_opts, proto),
	  .help = "tcp (netperf TCP_RR) or udp (UDP_RR)" },
	PB_NETKEY_FAMILY(struct rr_opts),
	{ .name = "request", .type = PB_T_INT, .def = "1", .min = 1, .max = RR_MAX_BYTES,
	  .off = offsetof(struct rr_opts, request),
	  .help = "request bytes (UDP: up to 65507 over IPv4, 65527 over IPv6)" },
	{ .name = "response", .type = PB_T_INT, .def = "1", .min = 1, .max = RR_MAX_BYTES,
	  .off = offsetof(struct rr_opts, response),
	  .help = "response bytes (UDP: up to 65507 over IPv4, 65527 over IPv6)" },
	{ .name = "streams", .type = PB_T_INT, .def = "1", .min = 1, .max = 1024,
	  .off = offsetof(struct rr_opts, streams),
	  .help = "independent client/server pairs, each placed by the placement" },
	{ .name = "nodelay", .type = PB_T_BOOL, .def = "1",
	  .off = offsetof(struct rr_opts, nodelay),
	  .help = "TCP_NODELAY on both ends (tcp only)" },
	PB_NETKEY_BUSY_POLL(struct rr_opts,
		"SO_BUSY_POLL usec on every socket; the job fails if the kernel refuses"),
	PB_NETKEY_TIMEOUT_MS(struct rr_opts,
		"udp: a response later than this counts as lost"),
	PB_NETKEY_DROP_EVERY(struct rr_opts,
		"test only (udp): the server drops every K-th request (0: none)"),
	{ .name = NULL },
};

/* Descriptors a job needs: two per stream, the listener, and some slack. */
static rlim_t fds_needed(int nr_instances)
{
	return 2 * (rlim_t)nr_instances + 64;
}

/* The hard RLIMIT_NOFILE must fit the streams (setup raises the soft one). */
static int fds_check(int nr_instances, char *err)
{
	unsigned long long need = fds_needed(nr_instances);
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_max == RLIM_INFINITY ||
	    need <= rl.rlim_max)
		return 0;
	snprintf(err, PB_ERR_MAX, "streams=%d needs about %llu descriptors, over the "
		 "hard RLIMIT_NOFILE of %llu by %llu", nr_instances, need,
		 (unsigned long long)rl.rlim_max, need - (unsigned long long)rl.rlim_max);
	return -1;
}

static int rr_check(const void *opts, int nr_instances, char *err)
{
	const struct rr_opts *o = opts;
	int fam = pb_family_of(o->family);
	long max = pb_net_udp_max(fam);

	if (fds_check(nr_instances, err))
		return -1;
	if (o->proto == TCP && o->drop_every) {
		snprintf(err, PB_ERR_MAX, "drop_every=%ld needs proto=udp: TCP does not "
			 "lose data", o->drop_every);
		return -1;
	}
	if (o->proto != UDP || (o->request <= max && o->response <= max))
		return 0;
	snprintf(err, PB_ERR_MAX, "%s=%ld is over the largest UDP payload over IPv%d "
		 "(%ld bytes)", o->request > max ? "request" : "response",
		 o->request > max ? o->request : o->response, fam, max);
	return -1;
}

static void close_all(struct rr_shared *sh)
{
	for (int i = 0; i < sh->nr; i++)
		for (int k = 0; k < 2; k++)
			if (sh->fd[i][k] >= 0)
				close(sh->fd[i][k]);
	if (sh->lfd >= 0)
		close(sh->lfd);
	free(sh->fd);
	free(sh);
}

static int listener(const struct rr_opts *o, struct rr_shared *sh, char *err)
{
	struct sockaddr_storage ss;
	socklen_t alen;

	sh->lfd = pb_net_bound(pb_family_of(o->family), SOCK_STREAM, &ss, &alen, err,
			       PB_ERR_MAX);
	if (sh->lfd < 0)
		return -1;
	if (listen(sh->lfd, 16) < 0) {
		int e = errno;

		snprintf(err, PB_ERR_MAX, "listen: %s", strerror(e));
		return -1;
	}
	return 0;
}

/* UDP: only the client times out; the stop interrupts the server's wait. */
static int stream_opts(const struct rr_opts *o, int fd, int role, char *err)
{
	if (pb_net_busy_poll(fd, o->busy_poll, err, PB_ERR_MAX))
		return -1;
	if (o->proto == TCP)
		return pb_net_nodelay(fd, o->nodelay, err, PB_ERR_MAX);
	if (role != CLIENT)
		return 0;
	return pb_net_rcvtimeo(fd, o->timeout_ms, err, PB_ERR_MAX);
}

static int make_stream(const struct rr_opts *o, struct rr_shared *sh, int i,
		       char *err)
{
	int fam = pb_family_of(o->family);
	int r = o->proto == TCP ? pb_net_tcp_pair(sh->lfd, fam, sh->fd[i], err, PB_ERR_MAX)
				: pb_net_udp_pair(fam, sh->fd[i], err, PB_ERR_MAX);

	if (r)
		return -1;
	for (int k = 0; k < 2; k++)
		if (stream_opts(o, sh->fd[i][k], k, err))
			return -1;
	return 0;
}

/* Raise the job process's soft RLIMIT_NOFILE when the streams need it. */
static int fds_room(struct pb_setup_ctx *s)
{
	rlim_t need = fds_needed(s->nr_instances);
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= need)
		return 0;
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need ? rl.rlim_max : need;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return pb_setup_fail(s, errno, "raising RLIMIT_NOFILE to %llu for %d streams",
				     (unsigned long long)rl.rlim_cur, s->nr_instances);
	return 0;
}

static int rr_setup(struct pb_setup_ctx *s)
{
	const struct rr_opts *o = s->opts;
	struct rr_shared *sh;

	if (fds_room(s))
		return -1;
	sh = calloc(1, sizeof(*sh));
	if (!sh)
		return pb_setup_fail(s, ENOMEM, "rr state");
	sh->lfd = -1;
	sh->fd = malloc(s->nr_instances * sizeof(*sh->fd));
	if (!sh->fd) {
		free(sh);
		return pb_setup_fail(s, ENOMEM, "rr state");
	}
	if (o->proto == TCP && listener(o, sh, s->err))
		goto fail;
	for (int i = 0; i < s->nr_instances; i++) {
		sh->fd[i][0] = sh->fd[i][1] = -1;
		sh->nr = i + 1;
		if (make_stream(o, sh, i, s->err))
			goto fail;
	}
	s->shared = sh;
	return 0;
fail:
	close_all(sh);
	return -1;
}

static struct rr_shared *shared_new(int nr)
{
	struct rr_shared *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	sh->lfd = -1;
	sh->fd = malloc(nr * sizeof(*sh->fd));
	if (!sh->fd) {
		free(sh);
		return NULL;
	}
	for (int i = 0; i < nr; i++)
		sh->fd[i][0] = sh->fd[i][1] = -1;
	sh->nr = nr;
	return sh;
}

static int peer_done(struct pb_peer_ctx *p, struct rr_shared *sh, int rc)
{
	if (rc) {
		close_all(sh);
		return -1;
	}
	p->shared = sh;
	return 0;
}

/* Either side of pinbench server: the family fits the address; fresh state. */
static struct rr_shared *peer_begin(struct pb_peer_ctx *p)
{
	const struct rr_opts *o = p->opts;
	struct rr_shared *sh;

	if (pb_net_family_check(pb_family_of(o->family), p->addr, p->err, PB_ERR_MAX))
		return NULL;
	sh = shared_new(p->nr_instances);
	if (!sh)
		snprintf(p->err, PB_ERR_MAX, "rr state: out of memory");
	return sh;
}

/* Server: TCP, one listener for every stream; UDP, a socket per stream. */
static int rr_peer_listen(struct pb_peer_ctx *p)
{
	const struct rr_opts *o = p->opts;
	struct sockaddr_storage ss;
	struct rr_shared *sh;
	socklen_t sl;
	int rc = 0;

	sh = peer_begin(p);
	if (!sh)
		return -1;
	sh->peer_server = true;
	if (o->proto == TCP) {
		sh->lfd = pb_net_bound_at(p->addr, p->alen, SOCK_STREAM, &ss, &sl, p->err,
					  PB_ERR_MAX);
		rc = sh->lfd < 0;
		if (!rc && listen(sh->lfd, p->nr_instances) < 0) {
			snprintf(p->err, PB_ERR_MAX, "listen: %s", strerror(errno));
			rc = 1;
		}
		for (int i = 0; !rc && i < p->nr_instances; i++)
			p->ports[i] = (uint16_t)pb_net_port(&ss);
		return peer_done(p, sh, rc);
	}
	for (int i = 0; !rc && i < p->nr_instances; i++) {
		int fd = pb_net_bound_at(p->addr, p->alen, SOCK_DGRAM, &ss, &sl, p->err,
					 PB_ERR_MAX);

		sh->fd[i][SERVER] = fd;
		rc = fd < 0 || stream_opts(o, fd, SERVER, p->err);
		p->ports[i] = (uint16_t)pb_net_port(&ss);
	}
	return peer_done(p, sh, rc);
}

/* One connection from the client's host within the deadline; others are closed. */
static int accept_one(struct pb_peer_ctx *p, int lfd, double deadline_ms)
{
	for (;;) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		int fd, left;

		left = (int)(deadline_ms - pb_mono_ms());
		if (left <= 0 || pb_net_wait_in(lfd, left) <= 0) {
			snprintf(p->err, PB_ERR_MAX, "no data connection from the client "
				 "within %d ms", p->timeout_ms);
			return -1;
		}
		fd = accept4(lfd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (!p->client || pb_net_same_host((struct sockaddr *)&from, p->client))
			return fd;
		close(fd);	/* not the client's host */
	}
}

static int rr_peer_accept(struct pb_peer_ctx *p)
{
	const struct rr_opts *o = p->opts;
	struct rr_shared *sh = p->shared;
	double deadline;

	if (o->proto != TCP)
		return 0;
	deadline = pb_mono_ms() + p->timeout_ms;
	for (int i = 0; i < sh->nr; i++) {
		sh->fd[i][SERVER] = accept_one(p, sh->lfd, deadline);
		if (sh->fd[i][SERVER] < 0 || stream_opts(o, sh->fd[i][SERVER], SERVER, p->err))
			return -1;
	}
	return 0;
}

/* Client: a connected socket per stream to the server's data ports. */
static int rr_peer_connect(struct pb_peer_ctx *p)
{
	const struct rr_opts *o = p->opts;
	struct rr_shared *sh;
	int rc = 0;

	sh = peer_begin(p);
	if (!sh)
		return -1;
	for (int i = 0; !rc && i < p->nr_instances; i++) {
		int fd = pb_net_connect_to(p->addr, p->alen, p->ports[i],
					   o->proto == TCP ? SOCK_STREAM : SOCK_DGRAM,
					   10000, p->err, PB_ERR_MAX);

		sh->fd[i][CLIENT] = fd;
		rc = fd < 0 || stream_opts(o, fd, CLIENT, p->err);
	}
	return peer_done(p, sh, rc);
}

static void rr_teardown(struct pb_setup_ctx *s)
{
	if (s->shared)
		close_all(s->shared);
	s->shared = NULL;
}

static int rr_init(struct pb_role_ctx *c)
{
	const struct rr_opts *o = c->opts;
	const struct rr_shared *sh = c->shared;
	size_t cap = (size_t)(o->request > o->response ? o->request : o->response);
	struct pb_udp_end *e = calloc(1, sizeof(*e) + cap);

	if (!e)
		return pb_fail(c, ENOMEM, "buffer of %zu bytes", cap);
	*e = (struct pb_udp_end){
		.fd = sh->fd[c->instance][c->role], .connected = !sh->peer_server,
		.timeout_ms = c->role == CLIENT ? (int)o->timeout_ms : -1,
		.drop_every = o->drop_every,
		.req = (size_t)o->request, .resp = (size_t)o->response,
		.taglen = pb_seq_taglen((size_t)(o->request < o->response ?
						  o->request : o->response)),
		.buf = (char *)(e + 1),
	};
	c->priv = e;
	return 0;
}

static void rr_fini(struct pb_role_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* One TCP transaction, client or server side. */
static int tcp_transaction(struct pb_role_ctx *c, struct pb_udp_end *e)
{
	int r;

	if (c->role == SERVER) {
		r = pb_net_xfer(c, e->fd, e->buf, e->req, false);
		if (r == PB_IO_OK)
			r = pb_net_xfer(c, e->fd, e->buf, e->resp, true);
		if (r == PB_IO_OK)
			pb_op(c);	/* the server's count: replies sent */
		return r;
	}
	pb_lat_begin(c);
	r = pb_net_xfer(c, e->fd, e->buf, e->req, true);
	if (r == PB_IO_OK)
		r = pb_net_xfer(c, e->fd, e->buf, e->resp, false);
	if (r == PB_IO_OK) {
		pb_lat_end(c);
		pb_op(c);
	}
	return r;
}

static int rr_loop(struct pb_role_ctx *c)
{
	const struct rr_opts *o = c->opts;
	struct pb_udp_end *e = c->priv;
	int r = PB_IO_OK;

	while (r == PB_IO_OK && !pb_stop(c)) {
		if (o->proto == TCP)
			r = tcp_transaction(c, e);
		else if (c->role == CLIENT)
			r = pb_udp_round_trip(c, e);
		else
			r = pb_udp_serve(c, e);
	}
	return r < 0 ? -1 : 0;
}

/* timeout_ms: how long the client waits for a reply before counting it lost. */
static long rr_reply_timeout_ms(const void *opts)
{
	return ((const struct rr_opts *)opts)->timeout_ms;
}

static double rr_value(const void *opts, uint64_t ops, double elapsed,
		       int nr_instances)
{
	(void)opts;
	(void)nr_instances;
	return elapsed > 0 ? ops / elapsed : 0;
}

const struct pb_bench pb_bench_rr = {
	.name		= "rr",
	.summary	= "netperf-style request/response (TCP_RR, UDP_RR) over loopback, "
			  "transactions/s over all streams",
	.shape		= PB_SHAPE_PAIR,
	.roles		= { "client", "server" },
	.instances_key	= "streams",
	.keys		= rr_keys,
	.opts_size	= sizeof(struct rr_opts),
	.metric		= { "transactions", "trans/s", false, true },
	.primary_role	= CLIENT,
	.latency	= true,
	.aux_names	= { [PB_AUX_LOST] = "lost", [PB_AUX_STALE] = "stale" },
	.lost_counter	= PB_AUX_ID(PB_AUX_LOST),
	.reply_timeout_ms = rr_reply_timeout_ms,
	.check		= rr_check,
	.setup		= rr_setup,
	.init		= rr_init,
	.loop		= rr_loop,
	.fini		= rr_fini,
	.teardown	= rr_teardown,
	.peer_listen	= rr_peer_listen,
	.peer_accept	= rr_peer_accept,
	.peer_connect	= rr_peer_connect,
	.value		= rr_value,
};
