// SPDX-License-Identifier: GPL-2.0-only
/*
 * proto_fuzz.c - libFuzzer target for the control-message parser of
 * `pinbench server` (proto.c): any bytes go through pb_proto_decode; a
 * frame that parses is encoded again and must decode to the same fields,
 * and HELLO's workload fields go through the key tables as the server does.
 *
 * clang -fsanitize=fuzzer,address -Iharness -Ibenches ... (tests/e2e/fuzz.sh)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/proto.h"

static void check_params(const struct pb_msg *m)
{
	const char *name = pb_msg_get(m, "bench");
	const struct pb_bench *b = name ? pb_bench_find(name) : NULL;
	char err[256], canon[2048];
	void *opts;

	if (!pb_bench_peer_capable(b))
		return;
	opts = calloc(1, b->opts_size);
	if (opts && !pb_params_from_msg(b, m, opts, err, sizeof(err))) {
		pb_params_canon(b, opts, canon, sizeof(canon));
		(void)pb_params_hash(canon);
		(void)pb_params_instances(b, opts);
	}
	free(opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pb_msg m, d;
	static uint8_t buf[PB_PROTO_HDR + PB_PROTO_MAX_BODY + 1];
	char err[256];
	long n;

	if (pb_proto_decode(data, size, &m, err, sizeof(err)))
		return 0;
	n = pb_proto_encode(&m, buf, sizeof(buf));
	if (n < 0 || pb_proto_decode(buf, (size_t)n, &d, err, sizeof(err)))
		abort();	/* what parsed must frame and parse again */
	if (d.type != m.type || d.nr != m.nr)
		abort();
	for (int i = 0; i < m.nr; i++)
		if (strcmp(m.kv[i].key, d.kv[i].key) || strcmp(m.kv[i].val, d.kv[i].val))
			abort();
	if (m.type == PB_MSG_HELLO)
		check_params(&m);
	return 0;
}
