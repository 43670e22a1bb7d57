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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/doctor.h"
#include "cli/cmds.h"
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
		"or gives the verdict on a perf stat output (text or -x, CSV; FILE - is stdin).\n"
		"  --user           judge perf_event_paranoid for an unprivileged user\n"
		"  --nominal-mhz N  the nominal clock of the machine the output came from\n"
		"                   (default: this machine's, when the output is from here)\n"
		"Exit: 0 nothing failed (perf stat: nothing flagged), 1 failed or flagged,\n"
		"2 usage error.  $%s moves the /proc and /sys roots.\n", PB_SYSROOT_ENV);
}

/* 0, 1 (--help), or -1 with a message printed */
static int parse_args(int argc, char **argv, struct pb_doctor_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "--user")) {
			o->user = true;
			continue;
		}
		if (strcmp(a, "--format") && strcmp(a, "--perf-stat") &&
		    strcmp(a, "--nominal-mhz")) {
			fprintf(stderr, "pinbench doctor: unknown argument '%s'\n", a);
			return -1;
		}
		if (!val) {
			fprintf(stderr, "pinbench doctor: %s needs a value\n", a);
			return -1;
		}
		i++;
		if (!strcmp(a, "--perf-stat")) {
			o->perf_stat = val;
		} else if (!strcmp(a, "--format")) {
			if (strcmp(val, "text") && strcmp(val, "json")) {
				fprintf(stderr, "pinbench doctor: --format text|json, "
					"not '%s'\n", val);
				return -1;
			}
			o->json = !strcmp(val, "json");
		} else {
			errno = 0;
			o->nominal_mhz = strtod(val, &end);
			if (errno || *end || end == val || !(o->nominal_mhz > 0) ||
			    o->nominal_mhz > 1e6) {
				fprintf(stderr, "pinbench doctor: --nominal-mhz wants MHz > 0, "
					"not '%s'\n", val);
				return -1;
			}
		}
	}
	if (o->nominal_mhz > 0 && !o->perf_stat) {
		fprintf(stderr, "pinbench doctor: --nominal-mhz goes with --perf-stat\n");
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
		fprintf(stderr, "pinbench doctor: %s\n", err);
		return 2;
	}
	if (o.perf_stat)
		r = pb_doctor_perf_stat(&o, stdout, err, 320);
	else
		r = pb_doctor_machine(&o, stdout, err, 256);
	if (r < 0)
		fprintf(stderr, "pinbench doctor: %s\n", err);
	/* a perf stat output that cannot be read is a usage error; a failed check run is not */
	return r >= 0 ? r : o.perf_stat ? 2 : 1;
}
