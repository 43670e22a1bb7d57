/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opts.h - a command's options as one table, parsed through getopt_long
 * (so permutation, --name=value and unique abbreviations behave as they
 * always have).  Each row sets a flag, keeps a value, or calls a handler;
 * the usage texts stay hand-written beside their tables.
 */
#ifndef PINBENCH_OPTS_H
#define PINBENCH_OPTS_H

#include <stdbool.h>

/* What pb_opts_parse() and a handler return. */
enum {
	PB_OPTS_OK = 0,		/* go on; after the parse: optind is the first operand */
	PB_OPTS_HELP,		/* -h/--help: the caller prints usage to stdout, exits 0 */
	PB_OPTS_USAGE,		/* bad usage: the caller prints usage to stderr, exits 2 */
	PB_OPTS_FAILED,		/* bad usage already said: exit 2 */
	PB_OPTS_UNKNOWN,	/* pb_opts_words(): argv[*at] is no option of the table */
	PB_OPTS_NOVALUE,	/* pb_opts_words(): argv[*at] wants a value and is last */
};

struct pb_opt;
typedef int (*pb_opt_fn)(void *ctx, const struct pb_opt *o, const char *arg);

/*
 * A row's arg: false (a flag, harmless to repeat), or true (takes a value,
 * given once: a repeat is refused), or one of these.
 */
enum {
	PB_ARG_PATH = 3,	/* a value given once, a path: an empty one is refused */
	PB_ARG_MULTI = 5,	/* a value that may be given again (--set KEY=VALUE) */
};

struct pb_opt {
	const char	*name;		/* the long name, or NULL */
	int		key;		/* the short letter, or 0 */
	int		arg;		/* takes a value: true, PB_ARG_PATH, PB_ARG_MULTI */
	bool		*flag;		/* set to true when given, or */
	const char	**str;		/* takes the value, or */
	pb_opt_fn	fn;		/* is called: PB_OPTS_OK, or stop with its status */
};

/* A handler for -h/--help. */
int pb_opt_help(void *ctx, const struct pb_opt *o, const char *arg);
/*
 * The value of option --name of pinbench cmd as a decimal number in
 * min..max (pb_parse_double()): PB_OPTS_OK with *v set, or PB_OPTS_FAILED
 * with a message naming the option and the value printed.
 */
int pb_opt_double(const char *cmd, const char *name, const char *arg, double min, double max,
		  double *v);
/* --min-change PCT: the noise floor of a significant change, in percent. */
#define PB_MIN_CHANGE_MAX	1000.0

/*
 * Parse argv[1..] against the table t of n rows; lead is put before the
 * short letters of getopt's optstring ("" or ":" or "+").  Returns
 * PB_OPTS_OK with optind at the first operand, PB_OPTS_USAGE for what
 * getopt refused (it has said why unless lead holds ':'; *bad is then
 * the '?' or ':' it returned), PB_OPTS_FAILED for a value given twice or
 * an empty path (said, as "pinbench <argv[0]>: ..."), or a handler's status.
 */
int pb_opts_parse(int argc, char **argv, const char *lead, const struct pb_opt *t, int n,
		  void *ctx, int *bad);

/*
 * The strict parse of a command that has always taken whole words only:
 * every argv[1..] must be "--name" or "-k" of a row, exactly (no
 * abbreviations, no "--name=value", no operands), and a row's value is
 * the next word, whatever it is.  Rows are applied in order; returns
 * PB_OPTS_OK, a handler's status, PB_OPTS_FAILED as pb_opts_parse(), or
 * PB_OPTS_UNKNOWN / PB_OPTS_NOVALUE with *at the index of the word.
 */
int pb_opts_words(int argc, char **argv, const struct pb_opt *t, int n, void *ctx, int *at);

/*
 * Operands argv[from..argc-1] that are paths: PB_OPTS_OK, or PB_OPTS_FAILED
 * with the first empty one said (what: "a result file", "a job file"...).
 */
int pb_opts_paths(int argc, char **argv, int from, const char *what);

/*
 * Print usage for a parse's status: to stdout for PB_OPTS_HELP, to stderr
 * for PB_OPTS_USAGE.  Returns the status.
 */
int pb_opts_usage(int status, const char *usage);
/* A command's exit code for a status other than PB_OPTS_OK: 0 for help, or 2. */
static inline int pb_opts_exit(int status)
{
	return status == PB_OPTS_HELP ? 0 : 2;
}

#define PB_OPTS_N(t)	((int)(sizeof(t) / sizeof((t)[0])))

#endif
