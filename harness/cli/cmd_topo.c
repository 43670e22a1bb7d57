// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_topo.c - `pinbench topo`: the topology and what each placement
 * resolves to, on this machine or on an hwloc synthetic / XML topology.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>

#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "lib/schema.h"
#include "sys/topo.h"

struct topo_opts {
	const char	*spec;
	bool		json;
	bool		help;
};

static void topo_usage(FILE *f)
{
	fprintf(f,
		"usage: pinbench topo [--topology SPEC] [--format text|json] [-q]\n"
		"\n"
		"Print the packages, cores, PUs, last-level caches and NUMA nodes,\n"
		"then what each placement resolves to (CPUs as OS indexes) or why\n"
		"it is skipped.  Pair placements show one pair; compact and scatter\n"
		"show the order in which workers would be placed on every CPU.\n"
		"\n"
		"  --topology SPEC      an hwloc synthetic description such as\n"
		"                       \"pack:2 core:4 pu:2\" (at most 4096 PUs), or an\n"
		"                       hwloc XML file (default: this machine)\n"
		"  --format text|json   output format (default text)\n"
		"  -q                   quiet (accepted, no effect)\n"
		"  -h, --help           this help\n");
}

static int bad_usage(const char *what, const char *arg)
{
	pb_say(stderr, "pinbench topo: %s%s%s\n", what, arg ? " " : "", arg ? arg : "");
	pb_say(stderr, "Try 'pinbench topo --help'.\n");
	return 2;
}

static int unknown_option(const char *arg)
{
	char opt[3] = { '-', (char)optopt, '\0' };

	return bad_usage("unknown option", optopt ? opt : arg);
}

static int opt_format(void *ctx, const struct pb_opt *opt, const char *arg)
{
	struct topo_opts *o = ctx;

	(void)opt;
	if (strcmp(arg, "text") && strcmp(arg, "json")) {
		bad_usage("unknown format (text or json):", arg);
		return PB_OPTS_FAILED;
	}
	o->json = !strcmp(arg, "json");
	return PB_OPTS_OK;
}

static int topo_parse(int argc, char **argv, struct topo_opts *o)
{
	const struct pb_opt t[] = {
		{ "topology", 0, PB_ARG_PATH, NULL, &o->spec, NULL },
		{ "format", 0, true, NULL, NULL, opt_format },
		{ NULL, 'q', false, NULL, NULL, NULL },		/* accepted, no effect */
		{ "help", 'h', false, &o->help, NULL, NULL },
	};
	int bad = 0;

	switch (pb_opts_parse(argc, argv, ":", t, PB_OPTS_N(t), o, &bad)) {
	case PB_OPTS_OK:
		break;
	case PB_OPTS_USAGE:
		if (bad == ':')
			return bad_usage("option needs an argument:", argv[optind - 1]);
		return unknown_option(argv[optind - 1]);
	default:
		return 2;
	}
	if (optind < argc)
		return bad_usage("unexpected argument", argv[optind]);
	return 0;
}

static int topo_output(const struct pb_topo *t, bool json)
{
	json_t *root, *body;
	int ret;

	if (!json) {
		pb_topo_print(t, stdout);
		return 0;
	}
	root = json_pack("{s:s}", "schema", PB_SCHEMA_TOPO);
	body = pb_topo_report_json(t);
	if (root && (!body || json_object_update(root, body))) {
		json_decref(root);
		root = NULL;
	}
	json_decref(body);
	if (!root) {
		pb_say(stderr, "pinbench topo: out of memory\n");
		return 1;
	}
	ret = json_dumpf(root, stdout, JSON_INDENT(2));
	json_decref(root);
	if (ret < 0) {
		pb_say(stderr, "pinbench topo: cannot write the JSON report\n");
		return 1;
	}
	fputc('\n', stdout);
	return 0;
}

int cmd_topo(int argc, char **argv)
{
	struct topo_opts o = { NULL, false, false };
	struct pb_topo *t;
	char err[512];
	int ret;

	ret = topo_parse(argc, argv, &o);
	if (ret)
		return ret;
	if (o.help) {
		topo_usage(stdout);
		return 0;
	}
	if (pb_topo_load(&t, o.spec, err, sizeof(err)) < 0) {
		pb_say(stderr, "pinbench topo: %s\n", err);
		return o.spec ? 2 : 1;
	}
	ret = topo_output(t, o.json);
	pb_topo_free(t);
	if (fflush(stdout) == EOF && !ret) {
		pb_say(stderr, "pinbench topo: cannot write to stdout\n");
		ret = 1;
	}
	return ret;
}
