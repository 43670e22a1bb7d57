/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netkeys.h - the key rows the network workloads (udpping, rr) share:
 * family, busy_poll, timeout_ms and drop_every, one macro a row for a key
 * table, over an options struct with fields of those names (family an
 * index into "4|6", the others long); each workload words its own help.
 */
#ifndef PINBENCH_BENCHES_NETKEYS_H
#define PINBENCH_BENCHES_NETKEYS_H

#include <stddef.h>

#include "core/bench.h"

#define PB_NETKEY_FAMILY(opts)							\
	{ .name = "family", .type = PB_T_ENUM, .def = "4", .choices = "4|6",	\
	  .off = offsetof(opts, family),					\
	  .help = "IPv4 (127.0.0.1) or IPv6 (::1) loopback" }

#define PB_NETKEY_BUSY_POLL(opts, text)						\
	{ .name = "busy_poll", .type = PB_T_INT, .def = "0", .min = 0,		\
	  .max = 1000000, .off = offsetof(opts, busy_poll), .help = text }

#define PB_NETKEY_TIMEOUT_MS(opts, text)					\
	{ .name = "timeout_ms", .type = PB_T_INT, .def = "100", .min = 1,	\
	  .max = 60000, .off = offsetof(opts, timeout_ms), .help = text }

/* test only: hidden from the listing */
#define PB_NETKEY_DROP_EVERY(opts, text)					\
	{ .name = "drop_every", .type = PB_T_INT, .def = "0", .min = 0,		\
	  .max = 1000000, .off = offsetof(opts, drop_every),			\
	  .flags = PB_KEY_HIDDEN, .help = text }

/* family= (the index into "4|6") as 4 or 6. */
int pb_family_of(int family);

#endif
