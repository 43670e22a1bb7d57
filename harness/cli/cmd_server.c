// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_server.c - `pinbench server [OPTIONS]`: its options, usage and exit
 * code; the listener and the sessions are net/server.c's.
 */
#include <getopt.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "net/server.h"
#include "sys/env.h"
#include "lib/util.h"

static const char server_help[] =
"usage: pinbench server [OPTIONS]\n"
"\n"
"The far end of udpping and rr across two hosts: run a job with peer=HOST[:PORT]\n"
"on the other host.\n"
"\n"
"      --bind ADDR           listen on ADDR (default 127.0.0.1; name an address\n"
"                            to be reachable from the network)\n"
"      --port PORT           control port (default 7543; 0: any, printed)\n"
"      --cpus LIST           CPUs a client may ask for (default: all of this machine)\n"
"      --max-sessions N      sessions at a time, 1..64 (default 4)\n"
"      --session-timeout SEC longest session, 1..86400 s (default 3600)\n"
"      --idle-timeout SEC    hang up on a session that has had no request answered\n"
"                            for SEC s, 1..3600 (default 30; at least twice the\n"
"                            job's timeout_ms)\n"
"  -h, --help                this text\n"
"\nexit: 0 stopped by SIGINT/SIGTERM, 1 cannot listen, 2 usage error\n";

static int num(const char *s, long min, long max, long *out)
{
	return pb_parse_long(s, min, max, out) ? -1 : 0;
}

/* "0,2-3" into set; every CPU must be one this process may run on. */
static int cpus_parse(const char *s, cpu_set_t *set, char *err, size_t len)
{
	static int list[CPU_SETSIZE];
	int n = pb_cpulist_parse(s, list, CPU_SETSIZE);
	cpu_set_t here;

	CPU_ZERO(set);
	if (n <= 0 || sched_getaffinity(0, sizeof(here), &here)) {
		snprintf(err, len, "--cpus '%s': expected CPUs like 0,2-3", s);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (list[i] >= CPU_SETSIZE || !CPU_ISSET(list[i], &here)) {
			snprintf(err, len, "--cpus: CPU %d is not available here", list[i]);
			return -1;
		}
		CPU_SET(list[i], set);
	}
	return 0;
}

static int bad_value(const struct pb_opt *o, const char *arg)
{
	pb_say(stderr, "pinbench server: --%s '%s': bad value (see --help)\n", o->name, arg);
	return PB_OPTS_FAILED;
}

static int opt_bind(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_server_opts *so = ctx;

	if (snprintf(so->bind, sizeof(so->bind), "%s", arg) >= (int)sizeof(so->bind))
		return bad_value(o, arg);
	return PB_OPTS_OK;
}

/* --port, --max-sessions, --session-timeout, --idle-timeout: a number in range */
static int opt_num(void *ctx, const struct pb_opt *o, const char *arg)
{
	static const struct {
		const char	*name;
		long		min, max;
		size_t		off;
	} nums[] = {
		{ "port", 0, 65535, offsetof(struct pb_server_opts, port) },
		{ "max-sessions", 1, 64, offsetof(struct pb_server_opts, max_sessions) },
		{ "session-timeout", 1, 86400, offsetof(struct pb_server_opts, session_timeout) },
		{ "idle-timeout", 1, 3600, offsetof(struct pb_server_opts, idle_timeout) },
	};
	size_t i;
	long v;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!strcmp(o->name, nums[i].name))
			break;
	if (i == sizeof(nums) / sizeof(nums[0]) || num(arg, nums[i].min, nums[i].max, &v))
		return bad_value(o, arg);
	*(int *)((char *)ctx + nums[i].off) = (int)v;
	return PB_OPTS_OK;
}

static int opt_cpus(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct pb_server_opts *so = ctx;
	char err[256];

	(void)o;
	if (cpus_parse(arg, &so->cpus, err, sizeof(err))) {
		pb_say(stderr, "pinbench server: %s\n", err);
		return PB_OPTS_FAILED;
	}
	return PB_OPTS_OK;
}

/* -1 to go on, or the exit code */
static int server_opts(int argc, char **argv, struct pb_server_opts *o)
{
	static const struct pb_opt t[] = {
		{ "bind", 0, true, NULL, NULL, opt_bind },
		{ "port", 0, true, NULL, NULL, opt_num },
		{ "cpus", 0, true, NULL, NULL, opt_cpus },
		{ "max-sessions", 0, true, NULL, NULL, opt_num },
		{ "session-timeout", 0, true, NULL, NULL, opt_num },
		{ "idle-timeout", 0, true, NULL, NULL, opt_num },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};

	pb_server_defaults(o);
	o->log = stderr;
	switch (pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), o, NULL)) {
	case PB_OPTS_OK:
		break;
	case PB_OPTS_HELP:
		fputs(server_help, stdout);
		return 0;
	case PB_OPTS_USAGE:
		pb_say(stderr, "pinbench server: see 'pinbench server --help'\n");
		return 2;
	default:
		return 2;
	}
	if (optind < argc) {
		pb_say(stderr, "pinbench server: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return -1;
}

int cmd_server(int argc, char **argv)
{
	struct pb_server_opts o;
	char err[512];
	int rc = server_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	rc = pb_server_run(&o, err, sizeof(err));
	if (rc) {
		if (err[0])
			pb_say(stderr, "pinbench server: %s\n", err);
		return rc == -2 ? 2 : 1;
	}
	return 0;
}
