// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_net.c - the network workloads' pure parts (sequence tags, loss
 * injection, UDP size limits, key checks) and the UDP round trip's loss
 * and stale-reply accounting, driven on a real loopback socket pair
 * within one thread (no timing assertions).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <cmocka.h>

#include "core/bench.h"
#include "core/jobfile.h"
#include "net/netutil.h"
#include "common/udp.h"

/* ------------------------------------------------------------ tags */

static void test_taglen(void **state)
{
	(void)state;
	assert_int_equal(pb_seq_taglen(1), 1);
	assert_int_equal(pb_seq_taglen(7), 7);
	assert_int_equal(pb_seq_taglen(8), 8);
	assert_int_equal(pb_seq_taglen(65507), 8);
}

static void test_seq_roundtrip(void **state)
{
	static const uint64_t seqs[] = { 0, 1, 255, 256, 0x1234567890abcdefull, ~0ull };
	unsigned char buf[16];

	(void)state;
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		memset(buf, 0xee, sizeof(buf));
		pb_seq_put(buf, sizeof(buf), seqs[i]);
		assert_int_equal(buf[8], 0xee);	/* only the tag is written */
		assert_int_equal(pb_seq_check(buf, 16, 16, 8, seqs[i]), PB_SEQ_MATCH);
		assert_int_equal(pb_seq_check(buf, 16, 16, 8, seqs[i] + 1), PB_SEQ_STALE);
		assert_int_equal(pb_seq_check(buf, 16, 16, 8, seqs[i] - 1), PB_SEQ_STALE);
	}
}

static void test_seq_little_endian(void **state)
{
	unsigned char buf[4] = { 0 };

	(void)state;
	pb_seq_put(buf, 4, 0x0a0b0c0dull);
	assert_int_equal(buf[0], 0x0d);
	assert_int_equal(buf[3], 0x0a);
}

static void test_seq_one_byte(void **state)
{
	unsigned char b = 0;

	(void)state;
	pb_seq_put(&b, 1, 0x1ff);
	assert_int_equal(b, 0xff);
	assert_int_equal(pb_seq_check(&b, 1, 1, 1, 0x1ff), PB_SEQ_MATCH);
	assert_int_equal(pb_seq_check(&b, 1, 1, 1, 0x200), PB_SEQ_STALE);
	/* one byte of tag: only the sequence modulo 256 is told apart */
	assert_int_equal(pb_seq_check(&b, 1, 1, 1, 0xff), PB_SEQ_MATCH);
}

static void test_seq_wrong_size(void **state)
{
	unsigned char buf[8];

	(void)state;
	pb_seq_put(buf, 8, 42);
	assert_int_equal(pb_seq_check(buf, 7, 8, 8, 42), PB_SEQ_STALE);
	assert_int_equal(pb_seq_check(buf, 9, 8, 8, 42), PB_SEQ_STALE);
	assert_int_equal(pb_seq_check(buf, 8, 8, 8, 42), PB_SEQ_MATCH);
}

static void test_drop_due(void **state)
{
	uint64_t n = 0;
	int dropped = 0, pattern = 0;

	(void)state;
	for (int i = 1; i <= 30; i++) {
		bool d = pb_drop_due(&n, 3);

		dropped += d;
		if (d)
			pattern |= (i % 3 == 0) ? 0 : 1;
	}
	assert_int_equal(n, 30);
	assert_int_equal(dropped, 10);
	assert_int_equal(pattern, 0);	/* exactly the 3rd, 6th, ... */
	n = 0;
	for (int i = 0; i < 10; i++)
		assert_false(pb_drop_due(&n, 0));
	assert_int_equal(n, 10);
	n = 0;
	assert_true(pb_drop_due(&n, 1));
}

static void test_families(void **state)
{
	struct sockaddr_storage ss;
	socklen_t len;

	(void)state;
	assert_int_equal(pb_net_af(4), AF_INET);
	assert_int_equal(pb_net_af(6), AF_INET6);
	assert_int_equal(pb_net_af(5), -1);
	assert_int_equal(pb_net_udp_max(4), 65507);
	assert_int_equal(pb_net_udp_max(6), 65527);
	assert_int_equal(pb_net_udp_max(0), 0);
	assert_int_equal(pb_net_loopback(4, &ss, &len), 0);
	assert_int_equal(len, sizeof(struct sockaddr_in));
	assert_int_equal(((struct sockaddr_in *)&ss)->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	assert_int_equal(pb_net_loopback(6, &ss, &len), 0);
	assert_int_equal(len, sizeof(struct sockaddr_in6));
	assert_int_equal(pb_net_loopback(7, &ss, &len), -1);
}

/* ------------------------------------------------------ key checks */

/* The workload's options from its defaults plus "key=value" overrides. */
static void *opts_of(const struct pb_bench *b, const char *const *over)
{
	void *o = calloc(1, b->opts_size);
	char err[256];

	assert_non_null(o);
	for (const struct pb_key *k = b->keys; k->name; k++)
		assert_int_equal(pb_key_parse(k, k->def, o, err, sizeof(err)), 0);
	for (; over && *over; over++) {
		const char *eq = strchr(*over, '=');
		const struct pb_key *k = b->keys;

		assert_non_null(eq);
		while (k->name && strncmp(k->name, *over, eq - *over))
			k++;
		assert_non_null(k->name);
		assert_int_equal(pb_key_parse(k, eq + 1, o, err, sizeof(err)), 0);
	}
	return o;
}

static int check(const char *bench, const char *const *over, char *err)
{
	const struct pb_bench *b = pb_bench_find(bench);
	void *o;
	int r;

	assert_non_null(b);
	o = opts_of(b, over);
	err[0] = 0;
	r = b->check(o, 1, err);
	free(o);
	return r;
}

static void test_udpping_check(void **state)
{
	const char *const big4[] = { "size=65508", NULL };
	const char *const max4[] = { "size=65507", NULL };
	const char *const big6[] = { "family=6", "size=65508", NULL };
	char err[PB_ERR_MAX];

	(void)state;
	assert_int_equal(check("udpping", NULL, err), 0);
	assert_int_equal(check("udpping", max4, err), 0);
	assert_int_equal(check("udpping", big4, err), -1);
	assert_non_null(strstr(err, "65507"));
	assert_non_null(strstr(err, "IPv4"));
	assert_int_equal(check("udpping", big6, err), 0);
}

static void test_rr_check(void **state)
{
	const char *const udp_big[] = { "proto=udp", "response=70000", NULL };
	const char *const tcp_big[] = { "proto=tcp", "response=70000", NULL };
	const char *const udp6[] = { "proto=udp", "family=6", "request=65527", NULL };
	const char *const tcp_drop[] = { "proto=tcp", "drop_every=3", NULL };
	const char *const udp_drop[] = { "proto=udp", "drop_every=3", NULL };
	char err[PB_ERR_MAX];

	(void)state;
	assert_int_equal(check("rr", udp_big, err), -1);
	assert_non_null(strstr(err, "response=70000"));
	assert_int_equal(check("rr", tcp_big, err), 0);
	assert_int_equal(check("rr", udp6, err), 0);
	assert_int_equal(check("rr", tcp_drop, err), -1);
	assert_non_null(strstr(err, "proto=udp"));
	assert_int_equal(check("rr", udp_drop, err), 0);
}

/* ------------------------------------- round trip on real sockets */

struct rt {
	int		fds[2];		/* client, server: connected UDP pair */
	struct pb_slot	slot;
	volatile int	stop;
	char		err[PB_ERR_MAX];
	struct pb_role_ctx c;
	char		cbuf[8], sbuf[8];
	struct pb_udp_end client, server;
};

static int rt_setup(void **state)
{
	struct rt *t = calloc(1, sizeof(*t));
	char err[PB_ERR_MAX];

	if (!t || pb_net_udp_pair(4, t->fds, err, sizeof(err))) {
		free(t);
		return -1;
	}
	t->c = (struct pb_role_ctx){ .slot = &t->slot, .stopflag = &t->stop,
				     .err = t->err, .nr_windows = 0 };
	t->client = (struct pb_udp_end){ .fd = t->fds[0], .connected = true,
		.timeout_ms = 1, .req = 8, .resp = 8, .taglen = 8, .buf = t->cbuf };
	t->server = t->client;
	t->server.fd = t->fds[1];
	t->server.buf = t->sbuf;
	if (pb_net_rcvtimeo(t->fds[0], 1, err, sizeof(err)) ||
	    pb_net_rcvtimeo(t->fds[1], 1, err, sizeof(err))) {
		close(t->fds[0]);
		close(t->fds[1]);
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int rt_teardown(void **state)
{
	struct rt *t = *state;

	close(t->fds[0]);
	close(t->fds[1]);
	free(t);
	return 0;
}

/* The server socket answers with a datagram tagged seq. */
static void reply(struct rt *t, uint64_t seq)
{
	char b[8];

	pb_seq_put(b, sizeof(b), seq);
	assert_int_equal(send(t->fds[1], b, sizeof(b), 0), 8);
}

static void test_rt_lost(void **state)
{
	struct rt *t = *state;

	/* nobody answers: times out, counts lost, no op */
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);
	assert_int_equal(t->slot.aux[PB_AUX_LOST], 1);
	assert_int_equal(t->slot.ops, 0);
	assert_int_equal(t->client.seq, 1);
	/* the request did reach the server's socket */
	assert_int_equal(pb_udp_serve(&t->c, &t->server), PB_IO_OK);
	assert_int_equal(t->slot.ops, 1);	/* the server counts its reply */
}

/*
 * A lost round trip is no round trip: its wait (the 50 ms receive timeout)
 * is credited to no op, so the busy time of the next completed one stays
 * its own few microseconds.
 */
static void test_rt_lost_wait_not_busy(void **state)
{
	struct rt *t = *state;
	char err[PB_ERR_MAX];

	assert_int_equal(pb_net_rcvtimeo(t->fds[0], 50, err, sizeof(err)), 0);
	t->client.timeout_ms = 50;
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);	/* lost */
	assert_int_equal(t->slot.aux[PB_AUX_LOST], 1);
	assert_int_equal(t->slot.busy_ns, 0);
	reply(t, 2);
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);
	assert_int_equal(t->slot.ops, 1);
	assert_true(t->slot.busy_ns > 0);
	assert_true(t->slot.busy_ns < 20 * 1000000ull);	/* not the 50 ms wait */
	reply(t, 3);
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);
	assert_int_equal(t->slot.ops, 2);
	assert_true(t->slot.busy_ns < 20 * 1000000ull);
}

static void test_rt_stale_then_match(void **state)
{
	struct rt *t = *state;

	/* a late reply to request 0, then the reply to request 1 */
	reply(t, 0);
	reply(t, 1);
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);
	assert_int_equal(t->slot.aux[PB_AUX_STALE], 1);
	assert_int_equal(t->slot.aux[PB_AUX_LOST], 0);
	assert_int_equal(t->slot.ops, 1);
}

static void test_rt_stale_only_is_lost(void **state)
{
	struct rt *t = *state;

	reply(t, 7);	/* answers something else: the real reply never comes */
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);
	assert_int_equal(t->slot.aux[PB_AUX_STALE], 1);
	assert_int_equal(t->slot.aux[PB_AUX_LOST], 1);
	assert_int_equal(t->slot.ops, 0);
}

static void test_serve_drops(void **state)
{
	struct rt *t = *state;
	char b[8];
	int got = 0;

	t->server.drop_every = 3;
	for (int i = 1; i <= 6; i++) {
		pb_seq_put(b, sizeof(b), i);
		assert_int_equal(send(t->fds[0], b, sizeof(b), 0), 8);
		assert_int_equal(pb_udp_serve(&t->c, &t->server), PB_IO_OK);
	}
	assert_int_equal(t->server.rx, 6);
	assert_int_equal(t->slot.ops, 4);	/* 3rd and 6th dropped */
	while (recv(t->fds[0], b, sizeof(b), MSG_DONTWAIT) == 8) {
		got++;
		/* replies carry their request's tag */
		assert_int_not_equal(b[0] % 3, 0);
	}
	assert_int_equal(got, 4);
}

static void test_serve_timeout_is_not_error(void **state)
{
	struct rt *t = *state;

	assert_int_equal(pb_udp_serve(&t->c, &t->server), PB_IO_OK);
	assert_int_equal(t->slot.ops, 0);
	assert_int_equal(t->server.rx, 0);
}

/* poll=1: the poll() timeout counts the loss; a wrong-size reply is stale. */
static void test_rt_poll_wrong_size(void **state)
{
	struct rt *t = *state;

	assert_int_equal(send(t->fds[1], "x", 0, 0), 0);	/* an empty datagram */
	t->client.poll = true;
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);
	assert_int_equal(t->slot.aux[PB_AUX_STALE], 1);
	assert_int_equal(t->slot.aux[PB_AUX_LOST], 1);
	assert_int_equal(t->slot.ops, 0);
	/* and the next round trip, answered, completes through poll() too */
	reply(t, 2);
	assert_int_equal(pb_udp_round_trip(&t->c, &t->client), PB_IO_OK);
	assert_int_equal(t->slot.ops, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taglen),
		cmocka_unit_test(test_seq_roundtrip),
		cmocka_unit_test(test_seq_little_endian),
		cmocka_unit_test(test_seq_one_byte),
		cmocka_unit_test(test_seq_wrong_size),
		cmocka_unit_test(test_drop_due),
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_udpping_check),
		cmocka_unit_test(test_rr_check),
		cmocka_unit_test_setup_teardown(test_rt_lost, rt_setup, rt_teardown),
		cmocka_unit_test_setup_teardown(test_rt_lost_wait_not_busy, rt_setup, rt_teardown),
		cmocka_unit_test_setup_teardown(test_rt_stale_then_match, rt_setup, rt_teardown),
		cmocka_unit_test_setup_teardown(test_rt_stale_only_is_lost, rt_setup, rt_teardown),
		cmocka_unit_test_setup_teardown(test_serve_drops, rt_setup, rt_teardown),
		cmocka_unit_test_setup_teardown(test_serve_timeout_is_not_error, rt_setup,
						rt_teardown),
		cmocka_unit_test_setup_teardown(test_rt_poll_wrong_size, rt_setup, rt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
