/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * proto.h - the control protocol between `pinbench run` (peer=HOST) and
 * `pinbench server`, and the client side of it (peer.c).
 *
 * A frame is a 12-byte header and a text body:
 *
 *	"PBSV"  magic, 4 bytes
 *	u16     protocol version (PB_PROTO_VERSION), big endian
 *	u16     message type (enum pb_msg_type), big endian
 *	u32     body length, big endian, at most PB_PROTO_MAX_BODY
 *	body    lines "key=value\n": key [a-z0-9_.], 1..PB_PROTO_KEY_MAX
 *	        bytes, unique; value printable ASCII, at most PB_PROTO_VAL_MAX
 *	        bytes; at most PB_PROTO_MAX_KV lines
 *
 * The client sends HELLO (bench, cpu, instances, max_s, p.KEY=VALUE for
 * every workload key but the test-only ones, which the server refuses);
 * the server answers READY (ports, host facts, the
 * effective parameters "params" and their hash) or ERROR (reason); at
 * the end the client sends STOP and the server answers BYE (ops, and
 * error when a server role failed).  Anything else closes the session.
 */
#ifndef PINBENCH_PROTO_H
#define PINBENCH_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/bench.h"
#include "core/keys.h"
#include "core/remote.h"
#include "lib/addr.h"

#define PB_PROTO_MAGIC		"PBSV"
#define PB_PROTO_VERSION	1
#define PB_PROTO_HDR		12
#define PB_PROTO_MAX_BODY	8192
#define PB_PROTO_MAX_KV		64
#define PB_PROTO_KEY_MAX	32
#define PB_PROTO_VAL_MAX	512


enum pb_msg_type {
	PB_MSG_HELLO = 1,
	PB_MSG_READY,
	PB_MSG_ERROR,
	PB_MSG_STOP,
	PB_MSG_BYE,
	PB_MSG_MAX = PB_MSG_BYE,
};

struct pb_msg_kv {
	char	key[PB_PROTO_KEY_MAX + 1];
	char	val[PB_PROTO_VAL_MAX + 1];
};

struct pb_msg {
	int			type;
	int			nr;
	struct pb_msg_kv	kv[PB_PROTO_MAX_KV];
};

/* The name of a message type ("HELLO"), or "?". */
const char *pb_msg_name(int type);
void pb_msg_init(struct pb_msg *m, int type);
/* Append key=value (printf); -1 when full, a bad key or a bad value. */
int pb_msg_add(struct pb_msg *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The value of key, or NULL. */
const char *pb_msg_get(const struct pb_msg *m, const char *key);
/* An integer field in min..max: 0, or -1 with "KEY: ..." in err. */
int pb_msg_long(const struct pb_msg *m, const char *key, long min, long max,
		long *out, char *err, size_t len);

/* Frame m into buf (cap bytes): the frame's length, or -1 when it does not fit. */
long pb_proto_encode(const struct pb_msg *m, uint8_t *buf, size_t cap);
/* Parse a body of n bytes into m (m->type is left alone): 0, or -1. */
int pb_proto_body(const char *body, size_t n, struct pb_msg *m, char *err, size_t len);
/* A whole frame of exactly n bytes: 0, or -1 with the reason.  The fuzzer's entry. */
int pb_proto_decode(const uint8_t *buf, size_t n, struct pb_msg *m, char *err, size_t len);

/* Send m on a stream socket: 0, or -1. */
int pb_proto_send(int fd, const struct pb_msg *m, char *err, size_t len);
/*
 * Receive one frame within timeout_ms (the whole frame, however it is
 * split): 0, or -1 with the reason (timed out, closed, malformed).
 */
int pb_proto_recv(int fd, struct pb_msg *m, int timeout_ms, char *err, size_t len);

/* ------------------------------------------------------ parameters */

/* FNV-1a 64 of s. */
uint64_t pb_params_hash(const char *s);
/*
 * HELLO's p.KEY fields into opts (defaults first, then pb_key_parse): 0 or
 * -1.  A test-only key (PB_KEY_HIDDEN) is refused, whatever its value.
 */
int pb_params_from_msg(const struct pb_bench *b, const struct pb_msg *m, void *opts,
		       char *err, size_t len);

/* ---------------------------------------------------- addresses */

/* Resolve host:port (numeric or a name) into ss. */
int pb_peer_resolve(const char *host, int port, bool passive, struct sockaddr_storage *ss,
		    socklen_t *alen, char *err, size_t len);
/* "addr:port" / "[addr]:port" of ss. */
void pb_sockaddr_text(const struct sockaddr *sa, char *buf, size_t len);
/* This host's facts for READY and for the result: hostname, kernel, CPU model. */
void pb_host_facts(char *host, size_t hl, char *kernel, size_t kl, char *model, size_t ml);

/* ------------------------------------------------ the client side */

/*
 * Between READY and STOP the server says nothing: wait s seconds watching
 * the control connection.  0 when it stayed quiet; -1 when the server's
 * session ended (connection closed or reset: its process died) or it
 * spoke (an ERROR's reason), with what happened in err, the connection
 * closed then.
 */
int pb_peer_watch(struct pb_peer *p, double s, char *err, size_t len);
/* open, watch and close, for pb_runner_set_remote(). */
extern const struct pb_remote_ops pb_peer_ops;

#endif
