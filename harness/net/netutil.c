// SPDX-License-Identifier: GPL-2.0-only
/*
 * netutil.c - socket helpers for the network workloads.  See netutil.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "net/netutil.h"
#include "lib/util.h"

int pb_net_af(int family)
{
	if (family == 4)
		return AF_INET;
	if (family == 6)
		return AF_INET6;
	return -1;
}

long pb_net_udp_max(int family)
{
	if (family == 4)
		return PB_UDP_MAX4;
	if (family == 6)
		return PB_UDP_MAX6;
	return 0;
}

int pb_net_loopback(int family, struct sockaddr_storage *ss, socklen_t *alen)
{
	memset(ss, 0, sizeof(*ss));
	if (family == 4) {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*alen = sizeof(*a);
		return 0;
	}
	if (family == 6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		*alen = sizeof(*a);
		return 0;
	}
	return -1;
}

int pb_net_bound(int family, int type, struct sockaddr_storage *ss,
		 socklen_t *alen, char *err, size_t len)
{
	const char *what = type == SOCK_STREAM ? "TCP" : "UDP";
	int fd;

	if (pb_net_loopback(family, ss, alen))
		return pb_errf(err, len, 0, "family=%d: expected 4 or 6", family);
	fd = socket(pb_net_af(family), type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pb_errf(err, len, errno, "%s socket (IPv%d)", what, family);
	if (bind(fd, (struct sockaddr *)ss, *alen) < 0) {
		pb_errf(err, len, errno, "bind %s socket to %s", what,
		     family == 4 ? "127.0.0.1" : "[::1] (is IPv6 disabled?)");
		close(fd);
		return -1;
	}
	if (getsockname(fd, (struct sockaddr *)ss, alen) < 0) {
		pb_errf(err, len, errno, "getsockname");
		close(fd);
		return -1;
	}
	return fd;
}

static const char *busy_poll_hint(int e)
{
	switch (e) {
	case EPERM:
	case EACCES:
		return " (raising it above net.core.busy_read needs CAP_NET_ADMIN)";
	case ENOPROTOOPT:
		return " (kernel built without CONFIG_NET_RX_BUSY_POLL)";
	default:
		return "";
	}
}

int pb_net_busy_poll(int fd, long usec, char *err, size_t len)
{
	int v = (int)usec, got = -1;
	socklen_t gl = sizeof(got);

	if (usec <= 0)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &v, sizeof(v)) < 0) {
		int e = errno;

		return pb_errf(err, len, 0, "SO_BUSY_POLL=%ld refused by the kernel: %s%s",
			    usec, strerror(e), busy_poll_hint(e));
	}
	if (getsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &got, &gl) < 0 || got != v)
		return pb_errf(err, len, 0, "SO_BUSY_POLL=%ld refused by the kernel: "
			    "it reads back as %d", usec, got);
	return 0;
}

int pb_net_rcvtimeo(int fd, long ms, char *err, size_t len)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return pb_errf(err, len, errno, "SO_RCVTIMEO=%ld ms", ms);
	return 0;
}

int pb_net_nodelay(int fd, int on, char *err, size_t len)
{
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) < 0)
		return pb_errf(err, len, errno, "TCP_NODELAY=%d", on);
	return 0;
}

int pb_net_tcp_pair(int lfd, int family, int fds[2], char *err, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t alen = sizeof(ss);
	int c;

	fds[0] = fds[1] = -1;
	if (getsockname(lfd, (struct sockaddr *)&ss, &alen) < 0)
		return pb_errf(err, len, errno, "getsockname of the listening socket");
	c = socket(pb_net_af(family), SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0)
		return pb_errf(err, len, errno, "TCP socket (IPv%d)", family);
	/* loopback: the handshake completes in connect(), before accept() */
	if (connect(c, (struct sockaddr *)&ss, alen) < 0) {
		pb_errf(err, len, errno, "TCP connect over loopback (IPv%d)", family);
		close(c);
		return -1;
	}
	fds[1] = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fds[1] < 0) {
		pb_errf(err, len, errno, "TCP accept");
		close(c);
		return -1;
	}
	fds[0] = c;
	return 0;
}

int pb_net_udp_pair(int family, int fds[2], char *err, size_t len)
{
	struct sockaddr_storage a[2];
	socklen_t al[2];

	fds[0] = pb_net_bound(family, SOCK_DGRAM, &a[0], &al[0], err, len);
	if (fds[0] < 0)
		return -1;
	fds[1] = pb_net_bound(family, SOCK_DGRAM, &a[1], &al[1], err, len);
	if (fds[1] < 0)
		goto fail;
	for (int i = 0; i < 2; i++) {
		if (connect(fds[i], (struct sockaddr *)&a[!i], al[!i]) < 0) {
			pb_errf(err, len, errno, "connect UDP socket");
			goto fail;
		}
	}
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
	return -1;
}

int pb_net_wait_in(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -1;
	if (n > 0 && (p.revents & (POLLERR | POLLNVAL)) && !(p.revents & POLLIN)) {
		errno = p.revents & POLLNVAL ? EBADF : EIO;
		return -1;
	}
	return n > 0;
}

int pb_net_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return -1;
}

void pb_net_set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
}

bool pb_net_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

int pb_net_family_check(int family, const struct sockaddr *a, char *err, size_t len)
{
	int got = a->sa_family == AF_INET ? 4 : a->sa_family == AF_INET6 ? 6 : 0;

	if (got == family)
		return 0;
	return pb_errf(err, len, 0, "family=%d asks for IPv%d but the peer address is %s",
		    family, family, got ? (got == 4 ? "IPv4" : "IPv6") : "not IP");
}

int pb_net_bound_at(const struct sockaddr *a, socklen_t alen, int type,
		    struct sockaddr_storage *ss, socklen_t *sslen, char *err, size_t len)
{
	const char *what = type == SOCK_STREAM ? "TCP" : "UDP";
	int one = 1, fd;

	if (alen > sizeof(*ss))
		return pb_errf(err, len, 0, "address too long");
	memcpy(ss, a, alen);
	*sslen = alen;
	pb_net_set_port(ss, 0);
	fd = socket(a->sa_family, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pb_errf(err, len, errno, "%s socket", what);
	if (type == SOCK_STREAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)ss, *sslen) < 0 ||
	    getsockname(fd, (struct sockaddr *)ss, sslen) < 0) {
		pb_errf(err, len, errno, "bind %s data socket", what);
		close(fd);
		return -1;
	}
	return fd;
}

int pb_net_connect_to(const struct sockaddr *a, socklen_t alen, int port, int type,
		      int timeout_ms, char *err, size_t len)
{
	struct timeval tv = { .tv_sec = timeout_ms / 1000,
			      .tv_usec = (timeout_ms % 1000) * 1000 }, zero = { 0 };
	struct sockaddr_storage ss;
	int fd;

	if (alen > sizeof(ss))
		return pb_errf(err, len, 0, "address too long");
	memcpy(&ss, a, alen);
	pb_net_set_port(&ss, port);
	fd = socket(a->sa_family, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pb_errf(err, len, errno, "%s socket", type == SOCK_STREAM ? "TCP" : "UDP");
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&ss, alen) < 0) {
		pb_errf(err, len, errno, "connect to the peer's data port %d", port);
		close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &zero, sizeof(zero));
	return fd;
}

size_t pb_seq_taglen(size_t len)
{
	return len < sizeof(uint64_t) ? len : sizeof(uint64_t);
}

void pb_seq_put(void *buf, size_t len, uint64_t seq)
{
	unsigned char *b = buf;
	size_t n = pb_seq_taglen(len);

	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seq >> (8 * i));
}

enum pb_seq_verdict pb_seq_check(const void *buf, size_t n, size_t want,
				 size_t taglen, uint64_t seq)
{
	const unsigned char *b = buf;

	if (n != want || taglen > n)
		return PB_SEQ_STALE;
	for (size_t i = 0; i < taglen && i < sizeof(seq); i++)
		if (b[i] != (unsigned char)(seq >> (8 * i)))
			return PB_SEQ_STALE;
	return PB_SEQ_MATCH;
}

bool pb_drop_due(uint64_t *count, long every)
{
	++*count;
	return every > 0 && *count % (uint64_t)every == 0;
}
