// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_udp_serve.c - the UDP server end of `pinbench server` answers only
 * its session's client: pb_udp_serve() with c->client set, on real
 * loopback sockets within one thread.  127.0.0.2 plays another host (all
 * of 127.0.0.0/8 is local); no timing assertions.
 */
#include <arpa/inet.h>
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
#include "net/netutil.h"
#include "common/udp.h"

#define REQ	8
#define RESP	64

struct sv {
	int			fd;		/* the server's data socket */
	struct sockaddr_storage	addr;		/* its address */
	socklen_t		alen;
	struct sockaddr_storage	client;		/* the control connection's peer */
	struct pb_slot		slot;
	volatile int		stop;
	char			err[PB_ERR_MAX];
	struct pb_role_ctx	c;
	char			buf[RESP];
	struct pb_udp_end	e;
};

static void in4(struct sockaddr_storage *ss, const char *ip, int port)
{
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)port);
	assert_int_equal(inet_pton(AF_INET, ip, &a->sin_addr), 1);
}

static int sv_setup_family(void **state, int family)
{
	struct sv *t = calloc(1, sizeof(*t));
	char err[PB_ERR_MAX];

	if (!t)
		return -1;
	t->fd = pb_net_bound(family, SOCK_DGRAM, &t->addr, &t->alen, err, sizeof(err));
	if (t->fd < 0 || pb_net_rcvtimeo(t->fd, 1, err, sizeof(err))) {
		if (t->fd >= 0)
			close(t->fd);
		free(t);
		return -1;
	}
	/* the client's host is loopback; the control connection's port is another */
	pb_net_loopback(family, &t->client, &(socklen_t){ 0 });
	pb_net_set_port(&t->client, 9);
	t->c = (struct pb_role_ctx){ .role = 1, .slot = &t->slot, .stopflag = &t->stop,
				     .err = t->err, .client = (struct sockaddr *)&t->client };
	t->e = (struct pb_udp_end){ .fd = t->fd, .timeout_ms = -1, .req = REQ, .resp = RESP,
				    .taglen = REQ, .buf = t->buf };
	*state = t;
	return 0;
}

static int sv_setup(void **state)
{
	return sv_setup_family(state, 4);
}

static int sv_teardown(void **state)
{
	struct sv *t = *state;

	if (t) {
		close(t->fd);
		free(t);
	}
	return 0;
}

/* A UDP socket bound to ip (port 0, or port). */
static int sender_at(const char *ip, int port)
{
	struct sockaddr_storage ss;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	in4(&ss, ip, port);
	assert_int_equal(bind(fd, (struct sockaddr *)&ss, sizeof(struct sockaddr_in)), 0);
	assert_int_equal(pb_net_rcvtimeo(fd, 1, NULL, 0), 0);
	return fd;
}

static void send_to_server(struct sv *t, int fd, size_t n)
{
	char b[RESP] = { 0 };

	pb_seq_put(b, n, 1);
	assert_int_equal(sendto(fd, b, n, 0, (struct sockaddr *)&t->addr, t->alen), (ssize_t)n);
}

/* The size of the reply fd has waiting, 0 for none. */
static size_t reply_size(int fd)
{
	char b[RESP * 2];
	ssize_t r = recv(fd, b, sizeof(b), MSG_DONTWAIT);

	return r > 0 ? (size_t)r : 0;
}

static int local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);

	assert_int_equal(getsockname(fd, (struct sockaddr *)&ss, &l), 0);
	return pb_net_port(&ss);
}

static void test_other_host_dropped(void **state)
{
	struct sv *t = *state;
	int other = sender_at("127.0.0.2", 0);

	send_to_server(t, other, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(t->slot.ops, 0);
	assert_int_equal(reply_size(other), 0);
	assert_false(t->e.locked);
	close(other);
}

static void test_wrong_size_dropped(void **state)
{
	struct sv *t = *state;
	int a = sender_at("127.0.0.1", 0);

	/* from the client's host, but not the agreed request: no reply at all */
	send_to_server(t, a, 1);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	send_to_server(t, a, REQ + 1);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(t->slot.ops, 0);
	assert_int_equal(reply_size(a), 0);
	assert_false(t->e.locked);
	/* the agreed size is answered with the agreed response */
	send_to_server(t, a, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(t->slot.ops, 1);
	assert_int_equal(reply_size(a), RESP);
	close(a);
}

static void test_locks_to_first(void **state)
{
	struct sv *t = *state;
	int a = sender_at("127.0.0.1", 0), b = sender_at("127.0.0.1", 0);
	int other = sender_at("127.0.0.2", 0);

	send_to_server(t, a, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(reply_size(a), RESP);
	assert_true(t->e.locked);
	assert_int_equal(pb_net_port(&t->e.lock), local_port(a));
	/* another port of the client's host, another host: the kernel drops them */
	send_to_server(t, b, REQ);
	send_to_server(t, other, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(reply_size(b), 0);
	assert_int_equal(reply_size(other), 0);
	send_to_server(t, a, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(reply_size(a), RESP);
	assert_int_equal(t->slot.ops, 2);
	close(a);
	close(b);
	close(other);
}

/* Queued before the lock: still checked against it, one by one. */
static void test_queued_before_lock(void **state)
{
	struct sv *t = *state;
	int a = sender_at("127.0.0.1", 0), b = sender_at("127.0.0.1", 0);

	send_to_server(t, a, REQ);
	send_to_server(t, b, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);	/* a: locks */
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);	/* b: dropped */
	assert_int_equal(t->slot.ops, 1);
	assert_int_equal(reply_size(a), RESP);
	assert_int_equal(reply_size(b), 0);
	close(a);
	close(b);
}

/*
 * The client's socket goes away while a reply is on its way: the ICMP
 * error it causes on the connected socket is not the role's failure.
 */
static void icmp_after_lock(struct sv *t)
{
	int a = sender_at("127.0.0.1", 0), port = local_port(a);

	send_to_server(t, a, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_true(t->e.locked);
	close(a);
	a = sender_at("127.0.0.1", port);	/* the same address, a request... */
	send_to_server(t, a, REQ);
	close(a);				/* ...and gone before the reply */
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);	/* ICMP back */
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);	/* no failure */
	assert_int_equal(t->err[0], 0);
	a = sender_at("127.0.0.1", port);	/* the client again: answered */
	send_to_server(t, a, REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(reply_size(a), RESP);
	assert_int_equal(t->slot.ops, 3);
	close(a);
}

static void test_icmp_error_not_fatal(void **state)
{
	icmp_after_lock(*state);
}

static void test_icmp_error_not_fatal_poll(void **state)
{
	struct sv *t = *state;

	t->e.poll = true;
	t->e.timeout_ms = 1;
	icmp_after_lock(t);
}

/* IPv6: the same lock on [::1] (another port there is dropped). */
static void test_ipv6_lock(void **state)
{
	struct sockaddr_storage ss;
	socklen_t l;
	struct sv *t;
	char b[REQ] = { 0 };
	int a, other;

	if (sv_setup_family(state, 6)) {
		*state = NULL;
		skip();	/* no IPv6 loopback here */
	}
	t = *state;
	a = pb_net_bound(6, SOCK_DGRAM, &ss, &l, t->err, sizeof(t->err));
	other = pb_net_bound(6, SOCK_DGRAM, &ss, &l, t->err, sizeof(t->err));
	assert_true(a >= 0 && other >= 0);
	assert_int_equal(sendto(a, b, REQ, 0, (struct sockaddr *)&t->addr, t->alen), REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_true(t->e.locked);
	assert_int_equal(reply_size(a), RESP);
	assert_int_equal(sendto(other, b, REQ, 0, (struct sockaddr *)&t->addr, t->alen), REQ);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(reply_size(other), 0);
	assert_int_equal(t->slot.ops, 1);
	close(a);
	close(other);
}

/* One host (c->client NULL): any sender of any size is answered, as before. */
static void test_one_host_unchanged(void **state)
{
	struct sv *t = *state;
	int other = sender_at("127.0.0.2", 0);

	t->c.client = NULL;
	send_to_server(t, other, 1);
	assert_int_equal(pb_udp_serve(&t->c, &t->e), PB_IO_OK);
	assert_int_equal(reply_size(other), RESP);
	assert_false(t->e.locked);
	close(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_other_host_dropped, sv_setup, sv_teardown),
		cmocka_unit_test_setup_teardown(test_wrong_size_dropped, sv_setup, sv_teardown),
		cmocka_unit_test_setup_teardown(test_locks_to_first, sv_setup, sv_teardown),
		cmocka_unit_test_setup_teardown(test_queued_before_lock, sv_setup, sv_teardown),
		cmocka_unit_test_setup_teardown(test_icmp_error_not_fatal, sv_setup, sv_teardown),
		cmocka_unit_test_setup_teardown(test_icmp_error_not_fatal_poll, sv_setup,
						sv_teardown),
		cmocka_unit_test_teardown(test_ipv6_lock, sv_teardown),
		cmocka_unit_test_setup_teardown(test_one_host_unchanged, sv_setup, sv_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
