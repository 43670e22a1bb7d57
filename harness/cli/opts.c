// SPDX-License-Identifier: GPL-2.0-only
/*
 * opts.c - a command's option table (cli/opts.h) turned into getopt_long's
 * longopts and optstring, or matched word by word, and each option found
 * handed to its row.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cli/say.h"
#include "lib/util.h"

#define OPTS_MAX	32
#define LONG_BASE	256	/* getopt_long's value for row i: its letter, or LONG_BASE + i */

int pb_opt_double(const char *cmd, const char *name, const char *arg, double min, double max,
		  double *v)
{
	char shown[64];
	int rc = pb_parse_double(arg, min, max, v);

	if (!rc)
		return PB_OPTS_OK;
	pb_str_shown(arg, shown, sizeof(shown));
	if (rc == PB_NUM_SYNTAX)
		pb_say(stderr, "pinbench %s: --%s: '%s' is not a decimal number\n", cmd, name,
			shown);
	else
		pb_say(stderr, "pinbench %s: --%s: '%s' is out of range %g..%g\n", cmd, name,
			shown, min, max);
	return PB_OPTS_FAILED;
}

int pb_opt_help(void *ctx, const struct pb_opt *o, const char *arg)
{
	(void)ctx;
	(void)o;
	(void)arg;
	return PB_OPTS_HELP;
}

int pb_opts_usage(int status, const char *usage)
{
	if (status == PB_OPTS_HELP)
		fputs(usage, stdout);
	else if (status == PB_OPTS_USAGE)
		fputs(usage, stderr);
	return status;
}

/*
 * What every row's value must be: given once (unless PB_ARG_MULTI), and
 * not empty when it is a path.  PB_OPTS_OK, or PB_OPTS_FAILED said.
 */
static int value_ok(const char *cmd, const struct pb_opt *o, int *seen, const char *arg)
{
	char name[64];

	if (o->name && o->key)
		snprintf(name, sizeof(name), "--%s (-%c)", o->name, o->key);
	else if (o->name)
		snprintf(name, sizeof(name), "--%s", o->name);
	else
		snprintf(name, sizeof(name), "-%c", o->key);
	if (o->arg && o->arg != PB_ARG_MULTI && ++*seen > 1) {
		pb_say(stderr, "pinbench %s: %s given twice: give it once\n", cmd, name);
		return PB_OPTS_FAILED;
	}
	if (o->arg == PB_ARG_PATH && arg && !*arg) {
		pb_say(stderr, "pinbench %s: %s: an empty path\n", cmd, name);
		return PB_OPTS_FAILED;
	}
	return PB_OPTS_OK;
}

int pb_opts_paths(int argc, char **argv, int from, const char *what)
{
	for (int i = from; i < argc; i++) {
		if (!*argv[i]) {
			pb_say(stderr, "pinbench %s: %s: an empty path (argument %d)\n",
			       argv[0], what, i - from + 1);
			return PB_OPTS_FAILED;
		}
	}
	return PB_OPTS_OK;
}

static int apply(const struct pb_opt *o, void *ctx, const char *arg)
{
	if (o->flag)
		*o->flag = true;
	if (o->str)
		*o->str = arg;
	return o->fn ? o->fn(ctx, o, arg) : PB_OPTS_OK;
}

static const struct pb_opt *row_of(const struct pb_opt *t, int n, int ch)
{
	int i;

	if (ch >= LONG_BASE && ch < LONG_BASE + n)
		return &t[ch - LONG_BASE];
	for (i = 0; i < n && ch > 0; i++)
		if (t[i].key == ch)
			return &t[i];
	return NULL;
}

/*
 * What getopt would have said of the option it refused, cleaned.  A short
 * one is optopt; the word of a long one is argv[optind - 1], unless a group
 * of short ones ("-Zq") is still being read at optind.
 */
static void getopt_said(int argc, char **argv, int ch)
{
	const char *w = argv[optind - 1], *g = optind < argc ? argv[optind] : "";
	bool in_group = g[0] == '-' && g[1] && g[1] != '-' && strchr(g + 1, optopt);

	if (optopt && optopt < LONG_BASE && (w[0] != '-' || w[1] != '-' || in_group))
		pb_say(stderr, "pinbench: %s -- '%c'\n", ch == ':' ?
		       "option requires an argument" : "invalid option", optopt);
	else
		pb_say(stderr, "pinbench: option '%s' %s\n", w, ch == ':' ?
		       "requires an argument" : "is unknown, ambiguous or takes no value");
}

int pb_opts_parse(int argc, char **argv, const char *lead, const struct pb_opt *t, int n,
		  void *ctx, int *bad)
{
	struct option lo[OPTS_MAX + 1];
	char shorts[2 * OPTS_MAX + 4];
	const struct pb_opt *o;
	int i, nl = 0, ns, ch, rc = PB_OPTS_OK, seen[OPTS_MAX] = { 0 };

	if (n > OPTS_MAX)
		abort();	/* a table too long for the buffers: a bug here */
	ns = snprintf(shorts, 4, "%s", lead);
	if (!strchr(lead, ':'))
		shorts[ns++] = ':';	/* getopt quiet: its messages would quote argv raw */
	for (i = 0; i < n; i++) {
		if (t[i].name)
			lo[nl++] = (struct option){ t[i].name, t[i].arg ? required_argument :
						    no_argument, NULL,
						    t[i].key ? t[i].key : LONG_BASE + i };
		if (t[i].key) {
			shorts[ns++] = (char)t[i].key;
			if (t[i].arg)
				shorts[ns++] = ':';
		}
	}
	lo[nl] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = 0;
	optind = 0;	/* glibc: full re-initialisation */
	while (rc == PB_OPTS_OK && (ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		o = row_of(t, n, ch);
		if (!o) {
			if (bad)
				*bad = ch;
			if (!strchr(lead, ':'))
				getopt_said(argc, argv, ch);
			return PB_OPTS_USAGE;
		}
		rc = value_ok(argv[0], o, &seen[o - t], optarg);
		if (rc == PB_OPTS_OK)
			rc = apply(o, ctx, optarg);
	}
	return rc;
}

static const struct pb_opt *word_row(const struct pb_opt *t, int n, const char *w)
{
	int i;

	for (i = 0; i < n; i++)
		if ((t[i].name && w[0] == '-' && w[1] == '-' && !strcmp(w + 2, t[i].name)) ||
		    (t[i].key && w[0] == '-' && w[1] == t[i].key && !w[2]))
			return &t[i];
	return NULL;
}

int pb_opts_words(int argc, char **argv, const struct pb_opt *t, int n, void *ctx, int *at)
{
	const struct pb_opt *o;
	int i, rc = PB_OPTS_OK, seen[OPTS_MAX] = { 0 };

	if (n > OPTS_MAX)
		abort();
	for (i = 1; i < argc && rc == PB_OPTS_OK; i++) {
		*at = i;
		o = word_row(t, n, argv[i]);
		if (!o)
			return PB_OPTS_UNKNOWN;
		if (o->arg && i + 1 >= argc)
			return PB_OPTS_NOVALUE;
		rc = value_ok(argv[0], o, &seen[o - t], o->arg ? argv[i + 1] : NULL);
		if (rc == PB_OPTS_OK)
			rc = apply(o, ctx, o->arg ? argv[++i] : NULL);
	}
	return rc;
}
