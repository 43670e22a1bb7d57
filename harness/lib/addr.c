// SPDX-License-Identifier: GPL-2.0-only
/*
 * addr.c - "HOST", "HOST:PORT", "[V6]:PORT" as text: what peer= and
 * `pinbench server --bind` accept, checked without a name lookup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/addr.h"
#include "lib/util.h"

static int port_parse(const char *s, int *port, char *err, size_t len)
{
	char *end;
	long p;

	errno = 0;
	p = strtol(s, &end, 10);
	if (!*s || *end || errno || p < 1 || p > 65535)
		return pb_errf(err, len, 0, "port '%s': expected 1..65535", s);
	*port = (int)p;
	return 0;
}

static int host_set(const char *s, size_t n, char *host, size_t hlen, char *err, size_t len)
{
	if (!n)
		return pb_errf(err, len, 0, "no host");
	if (n >= hlen)
		return pb_errf(err, len, 0, "host name too long");
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '.' || s[i] == '-' || s[i] == ':' || s[i] == '%' ||
		      (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z')))
			return pb_errf(err, len, 0, "host '%.*s': unexpected character '%c'",
				    (int)n, s, s[i]);
	snprintf(host, hlen, "%.*s", (int)n, s);
	return 0;
}

int pb_peer_addr_parse(const char *s, int def, char *host, size_t hlen, int *port,
		       char *err, size_t len)
{
	const char *c;

	*port = def;
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');

		if (!rb)
			return pb_errf(err, len, 0, "'%s': no closing ']'", s);
		if (rb[1] && (rb[1] != ':' || port_parse(rb + 2, port, err, len)))
			return rb[1] == ':' ? -1 : pb_errf(err, len, 0, "'%s': expected [V6]:PORT", s);
		return host_set(s + 1, (size_t)(rb - s - 1), host, hlen, err, len);
	}
	c = strchr(s, ':');
	if (c && strchr(c + 1, ':'))	/* a bare IPv6 address */
		return host_set(s, strlen(s), host, hlen, err, len);
	if (c && port_parse(c + 1, port, err, len))
		return -1;
	return host_set(s, c ? (size_t)(c - s) : strlen(s), host, hlen, err, len);
}
