// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_proto.c - the control protocol of `pinbench server`: framing
 * round trips, every error path of the header and body parser, the
 * parameter agreement through the workloads' key tables, peer addresses,
 * a frame received in pieces over a socketpair, and the client's watch
 * on its control connection between READY and STOP.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/bench.h"
#include "net/proto.h"

#define FRAME_MAX	(PB_PROTO_HDR + PB_PROTO_MAX_BODY + 1)

static struct pb_msg *new_msg(int type)
{
	struct pb_msg *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	pb_msg_init(m, type);
	return m;
}

/* A raw frame: header fields as given, body as given. */
static size_t raw(uint8_t *buf, const char *magic, int ver, int type, uint32_t blen,
		  const char *body, size_t n)
{
	memcpy(buf, magic, 4);
	buf[4] = (uint8_t)(ver >> 8);
	buf[5] = (uint8_t)ver;
	buf[6] = (uint8_t)(type >> 8);
	buf[7] = (uint8_t)type;
	buf[8] = (uint8_t)(blen >> 24);
	buf[9] = (uint8_t)(blen >> 16);
	buf[10] = (uint8_t)(blen >> 8);
	buf[11] = (uint8_t)blen;
	memcpy(buf + PB_PROTO_HDR, body, n);
	return PB_PROTO_HDR + n;
}

static void expect_error(const uint8_t *buf, size_t n, const char *needle)
{
	struct pb_msg *m = new_msg(0);
	char err[256] = "";

	assert_int_equal(pb_proto_decode(buf, n, m, err, sizeof(err)), -1);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not say '%s'", err, needle);
	free(m);
}

static void expect_body_error(const char *body, const char *needle)
{
	uint8_t *buf = malloc(FRAME_MAX + 64);
	size_t n;

	assert_non_null(buf);
	n = raw(buf, PB_PROTO_MAGIC, PB_PROTO_VERSION, PB_MSG_HELLO, (uint32_t)strlen(body),
		body, strlen(body));
	expect_error(buf, n, needle);
	free(buf);
}

/* ---------------------------------------------------------- frames */

static void test_round_trip(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_READY), *d = new_msg(0);
	uint8_t buf[FRAME_MAX];
	char err[256];
	long n;

	(void)state;
	assert_int_equal(pb_msg_add(m, "ports", "%d,%d", 1000, 1001), 0);
	assert_int_equal(pb_msg_add(m, "cpu_model", "%s", "Some CPU @ 2.0GHz = fast"), 0);
	assert_int_equal(pb_msg_add(m, "p.size", "%s", ""), 0);
	n = pb_proto_encode(m, buf, sizeof(buf));
	assert_true(n > PB_PROTO_HDR);
	assert_memory_equal(buf, "PBSV", 4);
	assert_int_equal(pb_proto_decode(buf, (size_t)n, d, err, sizeof(err)), 0);
	assert_int_equal(d->type, PB_MSG_READY);
	assert_int_equal(d->nr, 3);
	assert_string_equal(pb_msg_get(d, "ports"), "1000,1001");
	assert_string_equal(pb_msg_get(d, "cpu_model"), "Some CPU @ 2.0GHz = fast");
	assert_string_equal(pb_msg_get(d, "p.size"), "");
	assert_null(pb_msg_get(d, "missing"));
	free(m);
	free(d);
}

static void test_empty_body(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_STOP), *d = new_msg(0);
	uint8_t buf[64];
	char err[256];
	long n;

	(void)state;
	n = pb_proto_encode(m, buf, sizeof(buf));
	assert_int_equal(n, PB_PROTO_HDR);
	assert_int_equal(pb_proto_decode(buf, (size_t)n, d, err, sizeof(err)), 0);
	assert_int_equal(d->type, PB_MSG_STOP);
	assert_int_equal(d->nr, 0);
	free(m);
	free(d);
}

static void test_encode_limits(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_HELLO);
	uint8_t small[PB_PROTO_HDR + 4];
	char big[PB_PROTO_VAL_MAX + 2];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	assert_int_equal(pb_msg_add(m, "k", "%s", big), -1);		/* value too long */
	assert_int_equal(pb_msg_add(m, "Bad", "1"), -1);		/* upper case key */
	assert_int_equal(pb_msg_add(m, "", "1"), -1);			/* empty key */
	assert_int_equal(pb_msg_add(m, "k", "a\nb"), -1);		/* newline in value */
	assert_int_equal(pb_msg_add(m, "k", "1"), 0);
	assert_int_equal(pb_msg_add(m, "k", "2"), -1);			/* duplicate */
	assert_int_equal(pb_proto_encode(m, small, sizeof(small)), -1);	/* no room */
	for (int i = 1; i < PB_PROTO_MAX_KV; i++) {
		char key[16];

		snprintf(key, sizeof(key), "k%d", i);
		assert_int_equal(pb_msg_add(m, key, "%d", i), 0);
	}
	assert_int_equal(pb_msg_add(m, "one_more", "1"), -1);		/* full */
	m->type = 99;
	assert_int_equal(pb_proto_encode(m, (uint8_t *)big, sizeof(big)), -1);
	free(m);
}

/* Every header error. */
static void test_header_errors(void **state)
{
	uint8_t buf[64];
	size_t n;

	(void)state;
	n = raw(buf, PB_PROTO_MAGIC, 1, PB_MSG_STOP, 0, "", 0);
	expect_error(buf, 5, "truncated header");
	expect_error(buf, 0, "truncated header");
	n = raw(buf, "HTTP", 1, PB_MSG_STOP, 0, "", 0);
	expect_error(buf, n, "bad magic");
	n = raw(buf, PB_PROTO_MAGIC, 2, PB_MSG_STOP, 0, "", 0);
	expect_error(buf, n, "protocol version 2");
	n = raw(buf, PB_PROTO_MAGIC, 1, 0, 0, "", 0);
	expect_error(buf, n, "unknown message type 0");
	n = raw(buf, PB_PROTO_MAGIC, 1, PB_MSG_MAX + 1, 0, "", 0);
	expect_error(buf, n, "unknown message type");
	n = raw(buf, PB_PROTO_MAGIC, 1, PB_MSG_STOP, PB_PROTO_MAX_BODY + 1, "", 0);
	expect_error(buf, n, "over the limit");
	n = raw(buf, PB_PROTO_MAGIC, 1, PB_MSG_STOP, 0xffffffffu, "", 0);
	expect_error(buf, n, "over the limit");
	n = raw(buf, PB_PROTO_MAGIC, 1, PB_MSG_HELLO, 10, "a=1\n", 4);
	expect_error(buf, n, "header says");		/* truncated body */
	n = raw(buf, PB_PROTO_MAGIC, 1, PB_MSG_HELLO, 2, "a=1\n", 4);
	expect_error(buf, n, "header says");		/* trailing bytes */
}

/* Every body error. */
static void test_body_errors(void **state)
{
	char lines[PB_PROTO_MAX_KV * 8 + 16] = "", longval[PB_PROTO_VAL_MAX + 8];
	size_t off = 0;

	(void)state;
	expect_body_error("a=1", "not terminated");
	expect_body_error("novalue\n", "no '='");
	expect_body_error("\n", "no '='");
	expect_body_error("=1\n", "bad key");
	expect_body_error("Key=1\n", "bad key");
	expect_body_error("a b=1\n", "bad key");
	expect_body_error("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=1\n", "bad key");	/* 33 bytes */
	expect_body_error("a=\x01\n", "bad value");
	expect_body_error("a=\xff\n", "bad value");
	expect_body_error("a=1\r\n", "bad value");
	expect_body_error("a=1\nb=2\na=3\n", "line 3: duplicate key 'a'");
	memset(longval, 'v', sizeof(longval));
	snprintf(longval, sizeof(longval), "a=%0*d\n", PB_PROTO_VAL_MAX + 1, 0);
	expect_body_error(longval, "bad value");
	for (int i = 0; i <= PB_PROTO_MAX_KV; i++)
		off += snprintf(lines + off, sizeof(lines) - off, "k%d=1\n", i);
	expect_body_error(lines, "more than");
}

static void test_body_limits_ok(void **state)
{
	char body[PB_PROTO_VAL_MAX + 64];
	struct pb_msg *m = new_msg(0);
	char err[256];

	(void)state;
	snprintf(body, sizeof(body), "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=%0*d\n",
		 PB_PROTO_VAL_MAX, 7);
	assert_int_equal(pb_proto_body(body, strlen(body), m, err, sizeof(err)), 0);
	assert_int_equal(strlen(pb_msg_get(m, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")),
			 PB_PROTO_VAL_MAX);
	free(m);
}

static void test_msg_long(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_HELLO);
	char err[256];
	long v = -1;

	(void)state;
	pb_msg_add(m, "cpu", "3");
	pb_msg_add(m, "neg", "-1");
	pb_msg_add(m, "junk", "3x");
	pb_msg_add(m, "empty", "%s", "");
	pb_msg_add(m, "huge", "99999999999999999999999");
	pb_msg_add(m, "space", " 0");
	pb_msg_add(m, "plus", "+1");
	pb_msg_add(m, "minus", "- 1");
	assert_int_equal(pb_msg_long(m, "cpu", 0, 10, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 3);
	assert_int_equal(pb_msg_long(m, "cpu", 0, 2, &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(pb_msg_long(m, "neg", 0, 2, &v, err, sizeof(err)), -1);
	assert_int_equal(pb_msg_long(m, "junk", 0, 9, &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not an integer"));
	assert_int_equal(pb_msg_long(m, "empty", 0, 9, &v, err, sizeof(err)), -1);
	assert_int_equal(pb_msg_long(m, "huge", 0, 9, &v, err, sizeof(err)), -1);
	/* strtol would take these: a peer's "cpu= 0" is refused, not read as 0 */
	assert_int_equal(pb_msg_long(m, "space", 0, 9, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "space: ' 0' is not an integer");
	assert_int_equal(pb_msg_long(m, "plus", 0, 9, &v, err, sizeof(err)), -1);
	assert_int_equal(pb_msg_long(m, "minus", -9, 9, &v, err, sizeof(err)), -1);
	pb_msg_add(m, "negok", "-3");
	assert_int_equal(pb_msg_long(m, "negok", -9, 9, &v, err, sizeof(err)), 0);
	assert_int_equal(v, -3);
	assert_int_equal(pb_msg_long(m, "absent", 0, 9, &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing"));
	free(m);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(pb_msg_name(PB_MSG_HELLO), "HELLO");
	assert_string_equal(pb_msg_name(PB_MSG_BYE), "BYE");
	assert_string_equal(pb_msg_name(0), "?");
	assert_string_equal(pb_msg_name(77), "?");
}

/* ------------------------------------------------------ parameters */

static void test_params_udpping(void **state)
{
	const struct pb_bench *b = pb_bench_find("udpping");
	struct pb_msg *m = new_msg(PB_MSG_HELLO);
	void *opts = calloc(1, b->opts_size), *o2 = calloc(1, b->opts_size);
	char canon[1024], canon2[1024], err[256];

	(void)state;
	assert_true(pb_bench_peer_capable(b));
	pb_msg_add(m, "bench", "udpping");
	pb_msg_add(m, "p.size", "64");
	pb_msg_add(m, "p.family", "6");
	assert_int_equal(pb_params_from_msg(b, m, opts, err, sizeof(err)), 0);
	pb_params_canon(b, opts, canon, sizeof(canon));
	assert_non_null(strstr(canon, "family=6;size=64;"));
	assert_non_null(strstr(canon, "timeout_ms=100"));	/* a default */
	assert_int_equal(pb_params_instances(b, opts), 1);
	/* the same text parses to the same options: both ends agree */
	pb_msg_init(m, PB_MSG_HELLO);
	pb_msg_add(m, "p.timeout_ms", "100");
	pb_msg_add(m, "p.family", "6");
	pb_msg_add(m, "p.size", "64");
	assert_int_equal(pb_params_from_msg(b, m, o2, err, sizeof(err)), 0);
	pb_params_canon(b, o2, canon2, sizeof(canon2));
	assert_string_equal(canon, canon2);
	assert_true(pb_params_hash(canon) == pb_params_hash(canon2));
	assert_true(pb_params_hash(canon) != pb_params_hash("family=4"));
	free(opts);
	free(o2);
	free(m);
}

static void test_params_errors(void **state)
{
	const struct pb_bench *b = pb_bench_find("rr");
	struct pb_msg *m = new_msg(PB_MSG_HELLO);
	void *opts = calloc(1, b->opts_size);
	char err[256];

	(void)state;
	pb_msg_add(m, "p.nosuch", "1");
	assert_int_equal(pb_params_from_msg(b, m, opts, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no key 'nosuch'"));
	pb_msg_init(m, PB_MSG_HELLO);
	pb_msg_add(m, "p.streams", "0");			/* under the key's range */
	assert_int_equal(pb_params_from_msg(b, m, opts, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "streams"));
	pb_msg_init(m, PB_MSG_HELLO);
	pb_msg_add(m, "p.proto", "sctp");			/* not a choice */
	assert_int_equal(pb_params_from_msg(b, m, opts, err, sizeof(err)), -1);
	pb_msg_init(m, PB_MSG_HELLO);
	pb_msg_add(m, "p.request", "2G");			/* over 1M */
	assert_int_equal(pb_params_from_msg(b, m, opts, err, sizeof(err)), -1);
	pb_msg_init(m, PB_MSG_HELLO);
	pb_msg_add(m, "p.streams", "8");
	pb_msg_add(m, "bench", "rr");				/* not a p. field: ignored here */
	assert_int_equal(pb_params_from_msg(b, m, opts, err, sizeof(err)), 0);
	assert_int_equal(pb_params_instances(b, opts), 8);
	assert_false(pb_bench_peer_capable(pb_bench_find("pipe")));
	assert_false(pb_bench_peer_capable(NULL));
	free(opts);
	free(m);
}

/* Every test-only key of a workload that runs across hosts: refused, named. */
static void test_params_test_only(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_HELLO);
	char err[256], key[PB_PROTO_KEY_MAX + 1];
	int hidden = 0;

	(void)state;
	for (int i = 0; pb_benches[i]; i++) {
		const struct pb_bench *b = pb_benches[i];
		void *opts;

		if (!pb_bench_peer_capable(b))
			continue;
		opts = calloc(1, b->opts_size);
		assert_non_null(opts);
		for (const struct pb_key *k = b->keys; k->name; k++) {
			if (!(k->flags & PB_KEY_HIDDEN))
				continue;
			hidden++;
			snprintf(key, sizeof(key), "p.%s", k->name);
			pb_msg_init(m, PB_MSG_HELLO);
			/* at its default too: the network has no business with it */
			assert_int_equal(pb_msg_add(m, key, "%s", k->def ? k->def : ""), 0);
			err[0] = 0;
			assert_int_equal(pb_params_from_msg(b, m, opts, err, sizeof(err)), -1);
			if (!strstr(err, k->name) || !strstr(err, "for tests only"))
				fail_msg("%s %s: '%s'", b->name, k->name, err);
		}
		free(opts);
	}
	assert_true(hidden >= 2);	/* udpping's and rr's drop_every at least */
	free(m);
}

/* ------------------------------------------------------- addresses */

static void test_addr_parse(void **state)
{
	char host[128], err[256];
	int port;

	(void)state;
	assert_int_equal(pb_peer_addr_parse("192.0.2.2", 7543, host, sizeof(host), &port,
					    err, sizeof(err)), 0);
	assert_string_equal(host, "192.0.2.2");
	assert_int_equal(port, 7543);
	assert_int_equal(pb_peer_addr_parse("box-1.example:9000", 7543, host, sizeof(host),
					    &port, err, sizeof(err)), 0);
	assert_string_equal(host, "box-1.example");
	assert_int_equal(port, 9000);
	assert_int_equal(pb_peer_addr_parse("[2001:db8::1]:80", 7543, host, sizeof(host),
					    &port, err, sizeof(err)), 0);
	assert_string_equal(host, "2001:db8::1");
	assert_int_equal(port, 80);
	assert_int_equal(pb_peer_addr_parse("::1", 7543, host, sizeof(host), &port,
					    err, sizeof(err)), 0);
	assert_string_equal(host, "::1");
	assert_int_equal(port, 7543);
}

static void test_addr_errors(void **state)
{
	static const char *const bad[] = {
		"", ":80", "host:", "host:0", "host:65536", "host:8x", "[::1", "[::1]x",
		"[::1]:", "ho st", "host;rm", "[]:80",
	};
	char host[128], err[256];
	int port;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!pb_peer_addr_parse(bad[i], 7543, host, sizeof(host), &port, err,
					sizeof(err)))
			fail_msg("'%s' parsed", bad[i]);
	assert_int_equal(pb_peer_addr_parse("abcdefgh", 1, host, 4, &port, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "too long"));
}

/* ------------------------------------------------- over a socket */

static void test_recv_in_pieces(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_BYE), *d = new_msg(0);
	uint8_t buf[FRAME_MAX];
	char err[256];
	int sv[2];
	long n;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pb_msg_add(m, "ops", "12345");
	n = pb_proto_encode(m, buf, sizeof(buf));
	for (long i = 0; i < n; i++)			/* one byte at a time */
		assert_int_equal(write(sv[0], buf + i, 1), 1);
	assert_int_equal(pb_proto_recv(sv[1], d, 1000, err, sizeof(err)), 0);
	assert_int_equal(d->type, PB_MSG_BYE);
	assert_string_equal(pb_msg_get(d, "ops"), "12345");
	/* half a frame, then the writer goes away */
	assert_int_equal(write(sv[0], buf, 7), 7);
	close(sv[0]);
	assert_int_equal(pb_proto_recv(sv[1], d, 1000, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "closed in the middle"));
	close(sv[1]);
	free(m);
	free(d);
}

static void test_recv_timeout(void **state)
{
	struct pb_msg *d = new_msg(0);
	char err[256];
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], "PBS", 3), 3);	/* a stalled peer */
	assert_int_equal(pb_proto_recv(sv[1], d, 50, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "timed out"));
	close(sv[0]);
	close(sv[1]);
	free(d);
}

/* A client's control connection: our end sv[1] of a pair, the server at 127.0.0.1:7543. */
static void peer_pair(struct pb_peer *p, int sv[2])
{
	struct sockaddr_in *a = (struct sockaddr_in *)&p->addr;

	memset(p, 0, sizeof(*p));
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	p->fd = sv[1];
	a->sin_family = AF_INET;
	a->sin_port = htons(7543);
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	p->alen = sizeof(*a);
	snprintf(p->info.address, sizeof(p->info.address), "127.0.0.1:7543");
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Between READY and STOP: a quiet server is waited out; a dead or talking one is not. */
static void test_peer_watch(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_ERROR);
	struct pb_peer p;
	uint8_t buf[FRAME_MAX];
	char err[256];
	double t0;
	int sv[2];
	long n;

	(void)state;
	peer_pair(&p, sv);
	t0 = mono_s();
	assert_int_equal(pb_peer_watch(&p, 0.05, err, sizeof(err)), 0);
	assert_true(mono_s() - t0 >= 0.05);
	assert_int_equal(p.fd, sv[1]);
	close(sv[0]);				/* the session process dies */
	t0 = mono_s();
	assert_int_equal(pb_peer_watch(&p, 10, err, sizeof(err)), -1);
	assert_true(mono_s() - t0 < 5);
	assert_string_equal(err, "the peer's session ended (connection closed by 127.0.0.1:7543)");
	assert_int_equal(p.fd, -1);		/* closed: no STOP to send */
	assert_int_equal(pb_peer_watch(&p, 0.01, err, sizeof(err)), -1);

	peer_pair(&p, sv);			/* the server hangs up, saying why */
	pb_msg_add(m, "reason", "idle: no request answered for 3 s");
	n = pb_proto_encode(m, buf, sizeof(buf));
	assert_int_equal(write(sv[0], buf, n), n);
	assert_int_equal(pb_peer_watch(&p, 10, err, sizeof(err)), -1);
	assert_string_equal(err, "the peer ended the session (127.0.0.1:7543: "
			    "idle: no request answered for 3 s)");
	assert_int_equal(p.fd, -1);
	close(sv[0]);

	peer_pair(&p, sv);			/* anything else out of turn */
	pb_msg_init(m, PB_MSG_READY);
	n = pb_proto_encode(m, buf, sizeof(buf));
	assert_int_equal(write(sv[0], buf, n), n);
	assert_int_equal(pb_peer_watch(&p, 10, err, sizeof(err)), -1);
	assert_string_equal(err, "the peer sent READY before STOP (127.0.0.1:7543)");
	close(sv[0]);
	free(m);
}

/* DEL (0x7f) is not printable: refused in a value by the parser and the builder. */
static void test_value_del(void **state)
{
	struct pb_msg *m = new_msg(PB_MSG_HELLO);

	(void)state;
	expect_body_error("a=\x7f\n", "bad value");
	expect_body_error("a=x\x7fy\n", "bad value");
	assert_int_equal(pb_msg_add(m, "k", "%s", "\x7f"), -1);
	assert_int_equal(pb_msg_add(m, "k", "%s", "~"), 0);	/* 0x7e is */
	assert_string_equal(pb_msg_get(m, "k"), "~");
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_empty_body),
		cmocka_unit_test(test_encode_limits),
		cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_body_errors),
		cmocka_unit_test(test_body_limits_ok),
		cmocka_unit_test(test_value_del),
		cmocka_unit_test(test_msg_long),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_params_udpping),
		cmocka_unit_test(test_params_errors),
		cmocka_unit_test(test_params_test_only),
		cmocka_unit_test(test_addr_parse),
		cmocka_unit_test(test_addr_errors),
		cmocka_unit_test(test_recv_in_pieces),
		cmocka_unit_test(test_recv_timeout),
		cmocka_unit_test(test_peer_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
