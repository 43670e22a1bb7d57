// SPDX-License-Identifier: GPL-2.0-only
/*
 * proto.c - the control protocol of `pinbench server`: frames, their
 * validation, the parameter agreement, addresses.  See proto.h.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/jobfile.h"
#include "net/proto.h"
#include "sys/sysfs.h"
#include "lib/util.h"
#include "lib/clock.h"

static const char *const msg_names[] = {
	[PB_MSG_HELLO] = "HELLO", [PB_MSG_READY] = "READY", [PB_MSG_ERROR] = "ERROR",
	[PB_MSG_STOP] = "STOP", [PB_MSG_BYE] = "BYE",
};

const char *pb_msg_name(int type)
{
	return type >= PB_MSG_HELLO && type <= PB_MSG_MAX ? msg_names[type] : "?";
}

void pb_msg_init(struct pb_msg *m, int type)
{
	m->type = type;
	m->nr = 0;
}

static bool key_ok(const char *k, size_t n)
{
	if (n < 1 || n > PB_PROTO_KEY_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') ||
		      k[i] == '_' || k[i] == '.'))
			return false;
	return true;
}

static bool val_ok(const char *v, size_t n)
{
	if (n > PB_PROTO_VAL_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || (unsigned char)v[i] > 0x7e)
			return false;
	return true;
}

const char *pb_msg_get(const struct pb_msg *m, const char *key)
{
	for (int i = 0; i < m->nr; i++)
		if (!strcmp(m->kv[i].key, key))
			return m->kv[i].val;
	return NULL;
}

int pb_msg_add(struct pb_msg *m, const char *key, const char *fmt, ...)
{
	struct pb_msg_kv *kv;
	va_list ap;
	int n;

	if (m->nr >= PB_PROTO_MAX_KV || !key_ok(key, strlen(key)) || pb_msg_get(m, key))
		return -1;
	kv = &m->kv[m->nr];
	va_start(ap, fmt);
	n = vsnprintf(kv->val, sizeof(kv->val), fmt, ap);
	va_end(ap);
	if (n < 0 || n > PB_PROTO_VAL_MAX || !val_ok(kv->val, (size_t)n))
		return -1;
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	m->nr++;
	return 0;
}

int pb_msg_long(const struct pb_msg *m, const char *key, long min, long max,
		long *out, char *err, size_t len)
{
	const char *v = pb_msg_get(m, key);
	char *end;
	long x;

	if (!v)
		return pb_errf(err, len, 0, "%s: missing", key);
	errno = 0;
	x = strtol(v, &end, 10);
	/* strtol takes leading spaces and '+': a peer's " 0" is not a number */
	if (!isdigit((unsigned char)v[v[0] == '-']) || *end || errno)
		return pb_errf(err, len, 0, "%s: '%s' is not an integer", key, v);
	if (x < min || x > max)
		return pb_errf(err, len, 0, "%s: %ld is out of range %ld..%ld", key, x, min, max);
	*out = x;
	return 0;
}

static void put_be(uint8_t *p, uint32_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint32_t get_be(const uint8_t *p, int n)
{
	uint32_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

long pb_proto_encode(const struct pb_msg *m, uint8_t *buf, size_t cap)
{
	size_t off = PB_PROTO_HDR;

	if (cap < PB_PROTO_HDR || m->type < PB_MSG_HELLO || m->type > PB_MSG_MAX)
		return -1;
	for (int i = 0; i < m->nr; i++) {
		int n = snprintf((char *)buf + off, cap - off, "%s=%s\n",
				 m->kv[i].key, m->kv[i].val);

		if (n < 0 || (size_t)n >= cap - off)
			return -1;
		off += (size_t)n;
	}
	if (off - PB_PROTO_HDR > PB_PROTO_MAX_BODY)
		return -1;
	memcpy(buf, PB_PROTO_MAGIC, 4);
	put_be(buf + 4, PB_PROTO_VERSION, 2);
	put_be(buf + 6, (uint32_t)m->type, 2);
	put_be(buf + 8, (uint32_t)(off - PB_PROTO_HDR), 4);
	return (long)off;
}

/* Check a header: 0 with *type and *blen, or -1 with the reason in err. */
static int pb_proto_header(const uint8_t *hdr, int *type, uint32_t *blen, char *err, size_t len)
{
	uint32_t ver = get_be(hdr + 4, 2), t = get_be(hdr + 6, 2), n = get_be(hdr + 8, 4);

	if (memcmp(hdr, PB_PROTO_MAGIC, 4))
		return pb_errf(err, len, 0, "bad magic (not a pinbench control connection)");
	if (ver != PB_PROTO_VERSION)
		return pb_errf(err, len, 0, "protocol version %u, this end speaks %d", ver,
			    PB_PROTO_VERSION);
	if (t < PB_MSG_HELLO || t > PB_MSG_MAX)
		return pb_errf(err, len, 0, "unknown message type %u", t);
	if (n > PB_PROTO_MAX_BODY)
		return pb_errf(err, len, 0, "message of %u bytes is over the limit of %d", n,
			    PB_PROTO_MAX_BODY);
	*type = (int)t;
	*blen = n;
	return 0;
}

static int body_line(const char *s, size_t n, struct pb_msg *m, int line,
		     char *err, size_t len)
{
	const char *eq = memchr(s, '=', n);
	size_t kl, vl;

	if (!eq)
		return pb_errf(err, len, 0, "line %d: no '='", line);
	kl = (size_t)(eq - s);
	vl = n - kl - 1;
	if (!key_ok(s, kl))
		return pb_errf(err, len, 0, "line %d: bad key (1..%d of a-z 0-9 _ .)", line,
			    PB_PROTO_KEY_MAX);
	if (!val_ok(eq + 1, vl))
		return pb_errf(err, len, 0, "line %d: bad value (printable ASCII, at most %d bytes)",
			    line, PB_PROTO_VAL_MAX);
	if (m->nr >= PB_PROTO_MAX_KV)
		return pb_errf(err, len, 0, "more than %d fields", PB_PROTO_MAX_KV);
	snprintf(m->kv[m->nr].key, sizeof(m->kv[0].key), "%.*s", (int)kl, s);
	if (pb_msg_get(m, m->kv[m->nr].key))
		return pb_errf(err, len, 0, "line %d: duplicate key '%s'", line, m->kv[m->nr].key);
	memcpy(m->kv[m->nr].val, eq + 1, vl);
	m->kv[m->nr].val[vl] = 0;
	m->nr++;
	return 0;
}

int pb_proto_body(const char *body, size_t n, struct pb_msg *m, char *err, size_t len)
{
	size_t off = 0;
	int line = 1;

	m->nr = 0;
	while (off < n) {
		const char *nl = memchr(body + off, '\n', n - off);

		if (!nl)
			return pb_errf(err, len, 0, "line %d: not terminated by a newline", line);
		if (body_line(body + off, (size_t)(nl - body - off), m, line, err, len))
			return -1;
		off = (size_t)(nl - body) + 1;
		line++;
	}
	return 0;
}

int pb_proto_decode(const uint8_t *buf, size_t n, struct pb_msg *m, char *err, size_t len)
{
	uint32_t blen;
	int type;

	if (n < PB_PROTO_HDR)
		return pb_errf(err, len, 0, "truncated header (%zu of %d bytes)", n, PB_PROTO_HDR);
	if (pb_proto_header(buf, &type, &blen, err, len))
		return -1;
	if (n != PB_PROTO_HDR + (size_t)blen)
		return pb_errf(err, len, 0, "frame of %zu bytes, header says %u", n,
			    PB_PROTO_HDR + blen);
	m->type = type;
	return pb_proto_body((const char *)buf + PB_PROTO_HDR, blen, m, err, len);
}

int pb_proto_send(int fd, const struct pb_msg *m, char *err, size_t len)
{
	uint8_t *buf = malloc(PB_PROTO_HDR + PB_PROTO_MAX_BODY + 1);
	long n = buf ? pb_proto_encode(m, buf, PB_PROTO_HDR + PB_PROTO_MAX_BODY + 1) : -1;
	long off = 0;
	int rc = 0;

	if (n < 0)
		rc = pb_errf(err, len, 0, "cannot frame %s", pb_msg_name(m->type));
	while (!rc && off < n) {
		ssize_t w = send(fd, buf + off, (size_t)(n - off), MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = pb_errf(err, len, 0, "send %s: %s", pb_msg_name(m->type),
				  strerror(errno));
		else
			off += w;
	}
	free(buf);
	return rc;
}

/* Read exactly n bytes by the deadline: 0, or -1 with the reason. */
static int read_full(int fd, uint8_t *buf, size_t n, double deadline, const char *what,
		     char *err, size_t len)
{
	size_t off = 0;

	while (off < n) {
		int left = (int)(deadline - pb_mono_ms());
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (left <= 0)
			return pb_errf(err, len, 0, "timed out waiting for the %s (%zu of %zu bytes)",
				    what, off, n);
		if (poll(&p, 1, left) < 0) {
			if (errno == EINTR)
				return pb_errf(err, len, 0, "interrupted");
			return pb_errf(err, len, 0, "poll: %s", strerror(errno));
		}
		if (!p.revents)
			continue;
		r = recv(fd, buf + off, n - off, 0);
		if (r < 0 && errno == EINTR)
			return pb_errf(err, len, 0, "interrupted");
		if (r < 0)
			return pb_errf(err, len, 0, "recv: %s", strerror(errno));
		if (r == 0)
			return pb_errf(err, len, 0, "connection closed%s", off || strcmp(what, "header") ?
				    " in the middle of a message" : "");
		off += (size_t)r;
	}
	return 0;
}

int pb_proto_recv(int fd, struct pb_msg *m, int timeout_ms, char *err, size_t len)
{
	double deadline = pb_mono_ms() + timeout_ms;
	uint8_t hdr[PB_PROTO_HDR];
	char *body;
	uint32_t blen;
	int type, rc;

	if (read_full(fd, hdr, sizeof(hdr), deadline, "header", err, len) ||
	    pb_proto_header(hdr, &type, &blen, err, len))
		return -1;
	body = malloc(blen ? blen : 1);
	if (!body)
		return pb_errf(err, len, 0, "out of memory");
	rc = read_full(fd, (uint8_t *)body, blen, deadline, "body", err, len);
	if (!rc) {
		m->type = type;
		rc = pb_proto_body(body, blen, m, err, len);
	}
	free(body);
	return rc;
}

/* ------------------------------------------------------ parameters */

uint64_t pb_params_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

int pb_params_from_msg(const struct pb_bench *b, const struct pb_msg *m, void *opts,
		       char *err, size_t len)
{
	char e[PB_ERR_MAX];

	memset(opts, 0, b->opts_size);
	for (const struct pb_key *k = b->keys; k && k->name; k++)
		if (k->def && pb_key_parse(k, k->def, opts, e, sizeof(e)))
			return pb_errf(err, len, 0, "default of %s", e);
	for (int i = 0; i < m->nr; i++) {
		const struct pb_key *k;

		if (strncmp(m->kv[i].key, "p.", 2))
			continue;
		k = pb_key_find(b->keys, m->kv[i].key + 2);
		if (!k)
			return pb_errf(err, len, 0, "bench %s has no key '%s'", b->name,
				    m->kv[i].key + 2);
		if (k->flags & PB_KEY_HIDDEN)
			return pb_errf(err, len, 0, "bench %s: key '%s' is for tests only and is "
				    "not accepted from the network", b->name, k->name);
		if (pb_key_parse(k, m->kv[i].val, opts, e, sizeof(e)))
			return pb_errf(err, len, 0, "%s", e);
	}
	return 0;
}

/* ---------------------------------------------------- addresses */

int pb_peer_resolve(const char *host, int port, bool passive, struct sockaddr_storage *ss,
		    socklen_t *alen, char *err, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = passive ? AI_PASSIVE : 0 }, *res = NULL;
	char ps[16];
	int rc;

	snprintf(ps, sizeof(ps), "%d", port);
	rc = getaddrinfo(host, ps, &hints, &res);
	if (rc || !res)
		return pb_errf(err, len, 0, "cannot resolve '%s': %s", host,
			    rc ? gai_strerror(rc) : "no address");
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*alen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

void pb_sockaddr_text(const struct sockaddr *sa, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(s->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(s->sin6_port));
	} else {
		snprintf(buf, len, "?");
	}
}

/* Printable ASCII only: host facts travel in the protocol. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

void pb_host_facts(char *host, size_t hl, char *kernel, size_t kl, char *model, size_t ml)
{
	struct utsname u;

	snprintf(host, hl, "unknown");
	snprintf(kernel, kl, "unknown");
	snprintf(model, ml, "unknown");
	if (!uname(&u)) {
		snprintf(host, hl, "%s", u.nodename);
		snprintf(kernel, kl, "%s", u.release);
	}
	if (pb_cpuinfo_field("model name", model, ml))
		snprintf(model, ml, "unknown");
	printable(host);
	printable(kernel);
	printable(model);
}
