// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_doctor.c - `pinbench doctor`: its options, usage and exit codes;
 * the checks are checks/doctor.c's.
 *
 *   pinbench doctor [--format text|json] [--user]
 *	each check ok / warn / fail / skip with its figure and a one-line
 *	fix; exit 0 when nothing fails, 1 otherwise.
 *   pinbench doctor --perf-stat FILE [--nominal-mhz N] [--format text|json]
 *	exit 1 when anything is flagged at warn or above, 0 otherwise.
 * Bad usage, or a FILE that cannot be read or holds no counts: exit 2.
 */
#include <stdio.h>
#include <string.h>

#include "checks/doctor.h"
#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "sys/env.h"
#include "sys/probe.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pinbench doctor [--format text|json] [--user]\n"
		"       pinbench doctor --perf-stat FILE [--nominal-mhz N] [--format text|json]\n"
		"\n"
		"Checks this machine for measurement traps (governor, boost, throttling,\n"
		"nmi_watchdog, perf_event_paranoid, PMU, SMT, isolation, the clock probe),\n"
		"or gives the verdict on a perf stat output (FILE - is stdin): default text,\n"
		"-x SEP (any separator), -j JSON; -I intervals and -r variance in each.\n"
		"  --user           judge perf_event_paranoid for an unprivileged user\n"
		"  --nominal-mhz N  the nominal clock of the machine the output came from\n"
		"                   (default: this machine's, right only for its own output;\n"
		"                   the verdict says which was used)\n"
		"  -h, --help       this text\n"
		"Exit: 0 nothing failed (perf stat: nothing flagged), 1 failed or flagged,\n"
		"2 usage error.  $%s moves the /proc and /sys roots.\n", PB_SYSROOT_ENV);
}

static int opt_format(void *ctx, const struct pb_opt *opt, const char *val)
{
	struct pb_doctor_opts *o = ctx;

	(void)opt;
	if (strcmp(val, "text") && strcmp(val, "json")) {
		pb_say(stderr, "pinbench doctor: --format text|json, not '%s'\n", val);
		return PB_OPTS_FAILED;
	}
	o->json = !strcmp(val, "json");
	return PB_OPTS_OK;
}

static int opt_nominal(void *ctx, const struct pb_opt *opt, const char *val)
{
	struct pb_doctor_opts *o = ctx;
	int rc = pb_opt_double("doctor", opt->name, val, 0, 1e6, &o->nominal_mhz);

	if (rc == PB_OPTS_OK && !(o->nominal_mhz > 0)) {
		pb_say(stderr, "pinbench doctor: --nominal-mhz wants MHz > 0, not '%s'\n", val);
		rc = PB_OPTS_FAILED;
	}
	return rc;
}

/* 0, 1 (--help), or -1 with a message printed */
static int parse_args(int argc, char **argv, struct pb_doctor_opts *o)
{
	const struct pb_opt t[] = {
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
		{ "user", 0, false, &o->user, NULL, NULL },
		{ "format", 0, true, NULL, NULL, opt_format },
		{ "perf-stat", 0, PB_ARG_PATH, NULL, &o->perf_stat, NULL },
		{ "nominal-mhz", 0, true, NULL, NULL, opt_nominal },
	};
	int at = 0;

	memset(o, 0, sizeof(*o));
	switch (pb_opts_words(argc, argv, t, PB_OPTS_N(t), o, &at)) {
	case PB_OPTS_OK:
		break;
	case PB_OPTS_HELP:
		return 1;
	case PB_OPTS_UNKNOWN:
		pb_say(stderr, "pinbench doctor: unknown argument '%s'\n", argv[at]);
		return -1;
	case PB_OPTS_NOVALUE:
		pb_say(stderr, "pinbench doctor: %s needs a value\n", argv[at]);
		return -1;
	default:
		return -1;
	}
	if (o->nominal_mhz > 0 && !o->perf_stat) {
		pb_say(stderr, "pinbench doctor: --nominal-mhz goes with --perf-stat\n");
		return -1;
	}
	return 0;
}

int cmd_doctor(int argc, char **argv)
{
	struct pb_doctor_opts o;
	int r = parse_args(argc, argv, &o);
	char err[320];	/* the machine's messages were cut at 256, perf stat's at 320 */

	if (r) {
		usage(r > 0 ? stdout : stderr);
		return r > 0 ? 0 : 2;
	}
	if (pb_probe_inject_check(err, 256)) {
		pb_say(stderr, "pinbench doctor: %s\n", err);
		return 2;
	}
	if (o.perf_stat)
		r = pb_doctor_perf_stat(&o, stdout, err, 320);
	else
		r = pb_doctor_machine(&o, stdout, err, 256);
	if (r < 0)
		pb_say(stderr, "pinbench doctor: %s\n", err);
	/* a perf stat output that cannot be read is a usage error; a failed check run is not */
	return r >= 0 ? r : o.perf_stat ? 2 : 1;
}
