/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * addr.h - host and port as text (peer=HOST[:PORT], --bind), no lookup.
 */
#ifndef PINBENCH_ADDR_H
#define PINBENCH_ADDR_H

#include <stddef.h>

/*
 * "HOST", "HOST:PORT", "[V6]:PORT" or a bare IPv6 address: host and port
 * (def when absent).  0, or -1 with the reason.  No name lookup here.
 */
int pb_peer_addr_parse(const char *s, int def, char *host, size_t hlen, int *port,
		       char *err, size_t len);

#endif
