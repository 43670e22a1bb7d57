// SPDX-License-Identifier: GPL-2.0-only
/*
 * pinbench - microbenchmarks for kernel developers, pinned by topology.
 *
 * main.c - the command dispatch: the table below names each command and
 * its cli/cmd_*.c entry point.  Only main() exits.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/say.h"

static const struct {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*help;
} commands[] = {
	{ "run",     cmd_run,     "run job files" },
	{ "bench",   cmd_bench,   "run one workload ad hoc; keys as in a job section" },
	{ "list",    cmd_list,    "workloads: keys (type, default, range, help) and metric" },
	{ "topo",    cmd_topo,    "what each placement resolves to here (or on --topology SPEC)" },
	{ "events",  cmd_events,  "PMUs and events libpfm4 knows here" },
	{ "doctor",  cmd_doctor,  "check this machine (or a perf stat output) for measurement traps" },
	{ "compare", cmd_compare, "compare result files across kernels" },
	{ "plot",    cmd_plot,    "plot result files with gnuplot" },
	{ "report",  cmd_report,  "two kernels' results as a changelog: verdict, tables, plot" },
	{ "export",  cmd_export,  "result files as LAVA test cases, KTAP or JUnit XML for labs and CI" },
	{ "calibrate", cmd_calibrate, "this machine's noise for a job file: a noise profile" },
	{ "nightly", cmd_nightly, "run, store by kernel, compare with the previous kernel" },
	{ "campaign", cmd_campaign, "compare kernels across reboots: A B B A, one run per boot" },
	{ "bisect-check", cmd_bisect, "git bisect run's check: good (0), bad (1), can't tell (125)" },
	{ "server",  cmd_server,  "the far end of udpping and rr across two hosts (peer=HOST)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: pinbench COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-12s  %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n  -h, --help     this text\n  -V, --version  the version\n"
		"\n'pinbench COMMAND --help' for a command's options; the manual\n"
		"is 'man pinbench' and 'man pinbench-COMMAND' (from the source tree,\n"
		"after make: 'man ./doc/pinbench.1'), the tour is in README.md.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pinbench %s\n", PB_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	pb_say(stderr, "pinbench: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
