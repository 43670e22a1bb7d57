/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netutil.h - socket helpers shared by the network workloads (udpping,
 * rr): loopback addresses for IPv4 and IPv6, bound sockets on ports the
 * kernel picks, SO_BUSY_POLL, receive timeouts, a connected TCP pair, and
 * the pure parts of UDP loss handling (sequence tags, drop injection).
 * The role side (the UDP round trip and serve loops) is workload code:
 * benches/common/udp.h.
 *
 * Helpers that can fail return -1 with a message in err (len bytes).
 */
#ifndef PINBENCH_NETUTIL_H
#define PINBENCH_NETUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Largest UDP payload: 65535 - 8 (UDP) - 20 (IPv4); IPv6: 65535 - 8. */
#define PB_UDP_MAX4	65507
#define PB_UDP_MAX6	65527

/* family 4 or 6: AF_INET or AF_INET6; anything else: -1. */
int pb_net_af(int family);
/* Largest UDP payload for family 4 or 6; 0 for anything else. */
long pb_net_udp_max(int family);
/* Loopback (127.0.0.1 or ::1), port 0.  0, or -1 for a bad family. */
int pb_net_loopback(int family, struct sockaddr_storage *ss, socklen_t *alen);

/*
 * A socket of type (SOCK_DGRAM, SOCK_STREAM) bound to loopback on a port
 * the kernel picks; the bound address in *ss.  The fd, or -1.
 */
int pb_net_bound(int family, int type, struct sockaddr_storage *ss,
		 socklen_t *alen, char *err, size_t len);

/*
 * SO_BUSY_POLL=usec (0: nothing to do), read back to be sure.  A refusal
 * is an error: "SO_BUSY_POLL=N refused by the kernel: ..." with the
 * likely cause (CAP_NET_ADMIN, CONFIG_NET_RX_BUSY_POLL).
 */
int pb_net_busy_poll(int fd, long usec, char *err, size_t len);
/* SO_RCVTIMEO of ms milliseconds (0: block). */
int pb_net_rcvtimeo(int fd, long ms, char *err, size_t len);
/* TCP_NODELAY on or off. */
int pb_net_nodelay(int fd, int on, char *err, size_t len);

/*
 * A connected TCP pair over loopback: fds[0] the connecting end, fds[1]
 * the accepted end.  lfd is a listening socket bound to loopback.
 */
int pb_net_tcp_pair(int lfd, int family, int fds[2], char *err, size_t len);
/* A pair of UDP sockets on loopback, each connected to the other. */
int pb_net_udp_pair(int family, int fds[2], char *err, size_t len);

/*
 * Wait for input on fd up to timeout_ms (-1: forever) with poll().
 * 1 ready, 0 timed out, -1 error (errno, EINTR included).
 */
int pb_net_wait_in(int fd, int timeout_ms);

/* ------------------------------------------- two hosts (pinbench server) */

/* The port of an AF_INET/AF_INET6 address (host order), or set it. */
int pb_net_port(const struct sockaddr_storage *ss);
void pb_net_set_port(struct sockaddr_storage *ss, int port);
/* Same IP address (ports ignored)? */
bool pb_net_same_host(const struct sockaddr *a, const struct sockaddr *b);
/* family= (4 or 6) against a peer address: 0, or -1 "family=4 asks for IPv4 ...". */
int pb_net_family_check(int family, const struct sockaddr *a, char *err, size_t len);
/*
 * A socket of type bound to address a with port 0 (the kernel picks);
 * the bound address in *ss.  The fd, or -1.
 */
int pb_net_bound_at(const struct sockaddr *a, socklen_t alen, int type,
		    struct sockaddr_storage *ss, socklen_t *sslen, char *err, size_t len);
/*
 * A socket of type connected to a with port port, the connect bounded by
 * timeout_ms (TCP).  The fd, or -1.
 */
int pb_net_connect_to(const struct sockaddr *a, socklen_t alen, int port, int type,
		      int timeout_ms, char *err, size_t len);

/*
 * Sequence tags: the first min(len, 8) bytes of a datagram carry the low
 * bytes of its sequence number (little endian), so a late reply to an
 * earlier request is told apart from the answer to the current one.  With
 * 1-byte datagrams the tag is the sequence number modulo 256.
 */
size_t pb_seq_taglen(size_t len);
void pb_seq_put(void *buf, size_t len, uint64_t seq);

enum pb_seq_verdict {
	PB_SEQ_MATCH,	/* the reply to this request */
	PB_SEQ_STALE,	/* another request's reply, or a wrong size: discard */
};

/*
 * Is buf (n bytes received) the reply to request seq, expected want bytes
 * long with a tag of taglen bytes?
 */
enum pb_seq_verdict pb_seq_check(const void *buf, size_t n, size_t want,
				 size_t taglen, uint64_t seq);

/*
 * Loss injection (drop_every=K): counts one received datagram in *count
 * and says whether to drop it (every K-th; K <= 0: never).
 */
bool pb_drop_due(uint64_t *count, long every);

#endif
