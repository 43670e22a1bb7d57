// SPDX-License-Identifier: GPL-2.0-only
/*
 * peer.c - the client side of the control protocol: HELLO, READY (and
 * the parameter agreement), STOP, BYE.  See proto.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/jobfile.h"
#include "net/proto.h"
#include "lib/util.h"
#include "lib/clock.h"

#define PEER_CONNECT_S	10	/* connect and each answer, seconds */

static int dial(struct pb_peer *p, const char *address, char *err, size_t len)
{
	struct timeval tv = { .tv_sec = PEER_CONNECT_S };
	char host[128], e[PB_ERR_MAX];
	int port;

	if (pb_peer_addr_parse(address, PB_SERVER_PORT, host, sizeof(host), &port,
			       e, sizeof(e)) ||
	    pb_peer_resolve(host, port, false, &p->addr, &p->alen, e, sizeof(e)))
		return pb_errf(err, len, 0, "peer %s: %s", address, e);
	p->fd = socket(p->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->fd < 0)
		return pb_errf(err, len, 0, "peer %s: socket: %s", address, strerror(errno));
	setsockopt(p->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(p->fd, (struct sockaddr *)&p->addr, p->alen) < 0) {
		int e2 = errno;

		close(p->fd);
		p->fd = -1;
		return pb_errf(err, len, 0, "peer %s: connect: %s%s", address, strerror(e2),
			    e2 == ECONNREFUSED ? " (is `pinbench server` running there, "
			    "listening on that address?)" : "");
	}
	return 0;
}

/*
 * Is k a test-only key left at its default?  Such a key stays out of
 * HELLO: the server refuses test-only keys, and takes the default anyway.
 */
static bool hidden_default(const struct pb_key *k, const char *v, void *scratch)
{
	char e[PB_ERR_MAX], d[PB_STR_MAX + 32];

	if (!(k->flags & PB_KEY_HIDDEN) || !k->def ||
	    pb_key_parse(k, k->def, scratch, e, sizeof(e)))
		return false;
	pb_params_key_text(k, scratch, d, sizeof(d));
	return !strcmp(v, d);
}

static int hello(struct pb_peer *p, struct pb_msg *m, const struct pb_bench *b,
		 const void *opts, int nr, int cpu, double max_s, char *err, size_t len)
{
	void *scratch;
	int rc = 0;

	pb_msg_init(m, PB_MSG_HELLO);
	if (pb_msg_add(m, "bench", "%s", b->name) || pb_msg_add(m, "cpu", "%d", cpu) ||
	    pb_msg_add(m, "instances", "%d", nr) || pb_msg_add(m, "max_s", "%.0f", max_s + 1))
		return pb_errf(err, len, 0, "HELLO: too many fields");
	scratch = calloc(1, b->opts_size ? b->opts_size : 1);
	if (!scratch)
		return pb_errf(err, len, 0, "out of memory");
	for (const struct pb_key *k = b->keys; !rc && k && k->name; k++) {
		char key[PB_PROTO_KEY_MAX + 8], v[PB_STR_MAX + 32];

		pb_params_key_text(k, opts, v, sizeof(v));
		if (hidden_default(k, v, scratch))
			continue;
		snprintf(key, sizeof(key), "p.%s", k->name);
		if (pb_msg_add(m, key, "%s", v))
			rc = pb_errf(err, len, 0, "HELLO: key %s", k->name);
	}
	free(scratch);
	return rc ? rc : pb_proto_send(p->fd, m, err, len);
}

static int ports_parse(struct pb_peer *p, const char *s, int nr, char *err, size_t len)
{
	p->nr_ports = 0;
	while (s && *s && p->nr_ports < PB_PEER_MAX_INSTANCES) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s || v < 1 || v > 65535 || (*end && *end != ','))
			return pb_errf(err, len, 0, "READY: bad ports '%s'", s);
		p->ports[p->nr_ports++] = (uint16_t)v;
		s = *end ? end + 1 : end;
	}
	if (p->nr_ports != nr)
		return pb_errf(err, len, 0, "READY: %d ports for %d instances", p->nr_ports, nr);
	return 0;
}

/* The server's effective parameters must be ours, key for key. */
static int agree(const struct pb_msg *m, const struct pb_bench *b, const void *opts,
		 char *err, size_t len)
{
	char mine[2048];
	const char *theirs = pb_msg_get(m, "params"), *h = pb_msg_get(m, "params_hash");
	char hx[24];

	pb_params_canon(b, opts, mine, sizeof(mine));
	snprintf(hx, sizeof(hx), "%016" PRIx64, pb_params_hash(mine));
	if (!theirs || !h)
		return pb_errf(err, len, 0, "READY without the effective parameters");
	if (strcmp(theirs, mine) || strcmp(h, hx))
		return pb_errf(err, len, 0, "the peer's effective parameters differ from ours "
			    "(different pinbench versions?): here %s, peer %s", mine, theirs);
	return 0;
}

static int ready(struct pb_peer *p, struct pb_msg *m, const struct pb_bench *b,
		 const void *opts, int nr, int cpu, char *err, size_t len)
{
	char e[PB_ERR_MAX];
	const char *v;

	if (pb_proto_recv(p->fd, m, PEER_CONNECT_S * 1000, e, sizeof(e)))
		return pb_errf(err, len, 0, "peer %s: %s", p->info.address, e);
	if (m->type == PB_MSG_ERROR)
		return pb_errf(err, len, 0, "peer %s refused: %s", p->info.address,
			    (v = pb_msg_get(m, "reason")) ? v : "(no reason)");
	if (m->type != PB_MSG_READY)
		return pb_errf(err, len, 0, "peer %s: expected READY, got %s", p->info.address,
			    pb_msg_name(m->type));
	if (agree(m, b, opts, e, sizeof(e)) ||
	    ports_parse(p, pb_msg_get(m, "ports"), nr, e, sizeof(e)))
		return pb_errf(err, len, 0, "peer %s: %s", p->info.address, e);
	snprintf(p->info.hostname, sizeof(p->info.hostname), "%s",
		 (v = pb_msg_get(m, "hostname")) ? v : "");
	snprintf(p->info.kernel, sizeof(p->info.kernel), "%s",
		 (v = pb_msg_get(m, "kernel")) ? v : "");
	snprintf(p->info.cpu_model, sizeof(p->info.cpu_model), "%s",
		 (v = pb_msg_get(m, "cpu_model")) ? v : "");
	pb_str_clean(p->info.hostname);		/* the proto allows printable ASCII; and */
	pb_str_clean(p->info.kernel);		/* a result file is printed anywhere */
	pb_str_clean(p->info.cpu_model);
	p->info.cpu = cpu;
	return 0;
}

/*
 * Connect to the server at address (HOST[:PORT]), say HELLO for bench b
 * with opts, nr instances, the server role on cpu, for at most max_s
 * seconds; wait for READY and check that both ends agree on the
 * parameters.  0, or -1 with the reason (the server's own when it refused).
 */
static int pb_peer_open(struct pb_peer *p, const char *address, const struct pb_bench *b,
			const void *opts, int nr, int cpu, double max_s, char *err, size_t len)
{
	struct pb_msg *m = malloc(sizeof(*m));
	int rc = -1;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	snprintf(p->info.address, sizeof(p->info.address), "%s", address);
	if (!m)
		return pb_errf(err, len, 0, "out of memory");
	if (nr < 1 || nr > PB_PEER_MAX_INSTANCES)
		pb_errf(err, len, 0, "%d instances: across hosts at most %d", nr,
		     PB_PEER_MAX_INSTANCES);
	else if (!dial(p, address, err, len) &&
		 !hello(p, m, b, opts, nr, cpu, max_s, err, len) &&
		 !ready(p, m, b, opts, nr, cpu, err, len))
		rc = 0;
	free(m);
	if (rc && p->fd >= 0) {
		close(p->fd);
		p->fd = -1;
	}
	return rc;
}

/*
 * poll() says the control connection has something between READY and
 * STOP: what it said, in err.  False when nothing was there after all.
 */
static bool peer_spoke(struct pb_peer *p, char *err, size_t len)
{
	char where[96], e[PB_ERR_MAX];
	struct pb_msg *m;
	const char *v;
	char c;
	ssize_t n = recv(p->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	int e2 = errno;

	if (n < 0 && (e2 == EAGAIN || e2 == EWOULDBLOCK || e2 == EINTR))
		return false;
	pb_sockaddr_text((struct sockaddr *)&p->addr, where, sizeof(where));
	if (n == 0) {
		pb_errf(err, len, 0, "the peer's session ended (connection closed by %s)", where);
		return true;
	}
	if (n < 0 && e2 == ECONNRESET) {
		pb_errf(err, len, 0, "the peer's session ended (connection reset by %s)", where);
		return true;
	}
	if (n < 0) {
		pb_errf(err, len, e2, "the peer's session ended (control connection to %s)",
			where);
		return true;
	}
	m = malloc(sizeof(*m));
	if (!m)
		pb_errf(err, len, 0, "peer %s spoke before STOP (out of memory to read it)",
			where);
	else if (pb_proto_recv(p->fd, m, PEER_CONNECT_S * 1000, e, sizeof(e)))
		pb_errf(err, len, 0, "the peer's session ended (%s: %s)", where, e);
	else if (m->type == PB_MSG_ERROR)
		pb_errf(err, len, 0, "the peer ended the session (%s: %s)", where,
			(v = pb_msg_get(m, "reason")) ? v : "no reason");
	else
		pb_errf(err, len, 0, "the peer sent %s before STOP (%s)",
			pb_msg_name(m->type), where);
	free(m);
	return true;
}

int pb_peer_watch(struct pb_peer *p, double s, char *err, size_t len)
{
	double end = pb_mono_s() + s;

	if (p->fd < 0)
		return pb_errf(err, len, 0, "peer: no control connection");
	for (;;) {
		struct pollfd pf = { .fd = p->fd, .events = POLLIN | POLLRDHUP };
		double left = end - pb_mono_s();
		struct timespec ts;
		int r;

		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		r = ppoll(&pf, 1, &ts, NULL);
		if (r < 0 && errno != EINTR)
			return pb_errf(err, len, errno, "peer %s: poll", p->info.address);
		if (r > 0 && peer_spoke(p, err, len))
			break;
	}
	close(p->fd);
	p->fd = -1;
	return -1;
}

/* STOP, wait for BYE (server ops in *ops), close.  0, or -1 with the server's error. */
static int pb_peer_close(struct pb_peer *p, uint64_t *ops, char *err, size_t len)
{
	struct pb_msg *m = malloc(sizeof(*m));
	char e[PB_ERR_MAX];
	const char *v;
	int rc = -1;

	*ops = 0;
	if (p->fd < 0 || !m) {
		free(m);
		return pb_errf(err, len, 0, "peer: no control connection");
	}
	pb_msg_init(m, PB_MSG_STOP);
	if (pb_proto_send(p->fd, m, e, sizeof(e)) ||
	    pb_proto_recv(p->fd, m, PEER_CONNECT_S * 1000, e, sizeof(e)))
		pb_errf(err, len, 0, "peer %s at the end: %s", p->info.address, e);
	else if (m->type != PB_MSG_BYE)
		pb_errf(err, len, 0, "peer %s at the end: expected BYE, got %s: %s", p->info.address,
		     pb_msg_name(m->type), pb_msg_get(m, "reason") ? pb_msg_get(m, "reason") : "");
	else if ((v = pb_msg_get(m, "error")))
		pb_errf(err, len, 0, "peer %s: %s", p->info.address, v);
	else
		rc = 0;
	if (!rc && (v = pb_msg_get(m, "ops")))
		*ops = strtoull(v, NULL, 10);
	close(p->fd);
	p->fd = -1;
	free(m);
	return rc;
}

const struct pb_remote_ops pb_peer_ops = {
	.open	= pb_peer_open,
	.watch	= pb_peer_watch,
	.close	= pb_peer_close,
};
