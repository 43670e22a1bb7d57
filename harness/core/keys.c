// SPDX-License-Identifier: GPL-2.0-only
/*
 * keys.c - a workload's key table: text into typed fields (parse, with
 * ranges and choices), fields back into text (format, the canonical
 * "k=v;k=v" both hosts agree on), descriptions for `pinbench list`, and
 * the instance count the instances key asks for.  Job files (jobfile.c)
 * and the control protocol (net/proto.c) both use these; neither owns
 * them.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/keys.h"
#include "lib/util.h"

const struct pb_key *pb_key_find(const struct pb_key *keys, const char *name)
{
	for (int i = 0; keys && keys[i].name; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
}

static bool has_range(const struct pb_key *k)
{
	return k->min <= k->max;
}

static void range_text(const struct pb_key *k, char *buf, size_t len)
{
	char lo[32], hi[32];

	fmt_num(lo, sizeof(lo), k->min);
	fmt_num(hi, sizeof(hi), k->max);
	snprintf(buf, len, "%s..%s", lo, hi);
}

/* Decimal integer with an optional K, M or G (binary) suffix. */
static int parse_long(const char *s, long *out)
{
	char *end;
	long v, mul = 1;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || errno)
		return -1;
	if (*end == 'K')
		mul = 1L << 10;
	else if (*end == 'M')
		mul = 1L << 20;
	else if (*end == 'G')
		mul = 1L << 30;
	if (mul != 1)
		end++;
	if (*end || __builtin_mul_overflow(v, mul, &v))
		return -1;
	*out = v;
	return 0;
}

/* A decimal number (pb_parse_double()): no hex, inf or nan. */
static int parse_double(const char *s, double *out)
{
	return pb_parse_double(s, -HUGE_VAL, HUGE_VAL, out) ? -1 : 0;
}

static int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i]) || !strcasecmp(s, no[i])) {
			*out = !strcasecmp(s, yes[i]);
			return 0;
		}
	}
	return -1;
}

/* Index of s in "a|b|c", or -1. */
static int parse_enum(const char *choices, const char *s)
{
	size_t n = strlen(s);
	int i = 0;

	for (const char *p = choices; p; i++) {
		const char *bar = strchr(p, '|');
		size_t m = bar ? (size_t)(bar - p) : strlen(p);

		if (m == n && !strncmp(p, s, n))
			return i;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

static int out_of_range(const struct pb_key *k, double v)
{
	return has_range(k) && (v < k->min || v > k->max);
}

static int int_problem(const struct pb_key *k, const char *text, void *field,
		       char *prob, size_t len)
{
	char range[80];
	long l;

	if (parse_long(text, &l))
		return pb_errf(prob, len, 0, "'%s' is not an integer%s", text,
			    strchr(text, 'k') ? " (suffixes: K M G = x1024)" : "");
	range_text(k, range, sizeof(range));
	if (out_of_range(k, (double)l))
		return pb_errf(prob, len, 0, "'%s' is out of range %s", text, range);
	memcpy(field, &l, sizeof(l));
	return 0;
}

static int double_problem(const struct pb_key *k, const char *text, void *field,
			  char *prob, size_t len)
{
	char range[80];
	double d;

	if (parse_double(text, &d))
		return pb_errf(prob, len, 0, "'%s' is not a number", text);
	range_text(k, range, sizeof(range));
	if (out_of_range(k, d))
		return pb_errf(prob, len, 0, "'%s' is out of range %s", text, range);
	memcpy(field, &d, sizeof(d));
	return 0;
}

/* The problem with text as a value of k's type and range (no key name), or 0. */
static int value_problem(const struct pb_key *k, const char *text, void *opts,
			 char *prob, size_t len)
{
	char *field = (char *)opts + k->off;
	int i;

	switch (k->type) {
	case PB_T_INT:
		return int_problem(k, text, field, prob, len);
	case PB_T_DOUBLE:
		return double_problem(k, text, field, prob, len);
	case PB_T_BOOL:
		if (parse_bool(text, &i))
			return pb_errf(prob, len, 0, "'%s' is not a boolean "
				    "(0|1|yes|no|true|false|on|off)", text);
		memcpy(field, &i, sizeof(i));
		return 0;
	case PB_T_ENUM:
		i = parse_enum(k->choices, text);
		if (i < 0)
			return pb_errf(prob, len, 0, "'%s' is not one of %s", text, k->choices);
		memcpy(field, &i, sizeof(i));
		return 0;
	case PB_T_STR:
		if (strlen(text) >= PB_STR_MAX)
			return pb_errf(prob, len, 0, "'%.24s...' is too long (at most %d characters)",
				    text, PB_STR_MAX - 1);
		snprintf(field, PB_STR_MAX, "%s", text);
		return 0;
	}
	return pb_errf(prob, len, 0, "unknown type %d", (int)k->type);
}

/* value_problem(), plus a hint when a trailing comment is the likely cause. */
int pb_key_typed(const struct pb_key *k, const char *text, void *dst,
		 char *prob, size_t len)
{
	size_t n;

	if (len > PB_ERR_MAX)
		len = PB_ERR_MAX;	/* a value's problem fits any caller's buffer */
	if (!value_problem(k, text, dst, prob, len))
		return 0;
	n = strlen(prob);
	if (strpbrk(text, "#;") && n < len)
		snprintf(prob + n, len - n, " (comments must be on a line of their own)");
	return -1;
}

pb_key_parse_fn *pb_key_parser(const struct pb_key *k)
{
	return k->parse ? k->parse : pb_key_typed;
}

int pb_key_check(const struct pb_key *k, const char *text, void *opts,
		 char *prob, size_t len)
{
	return pb_key_parser(k)(k, text, opts, prob, len);
}

int pb_key_parse(const struct pb_key *k, const char *text, void *opts,
		 char *err, size_t len)
{
	char prob[256];

	if (!pb_key_check(k, text, opts, prob, sizeof(prob)))
		return 0;
	return pb_errf(err, len, 0, "%s: %s", k->name, prob);
}

void pb_key_describe(const struct pb_key *k, char *buf, size_t len)
{
	static const char *const names[] = {
		[PB_T_INT] = "int", [PB_T_DOUBLE] = "double",
		[PB_T_BOOL] = "bool", [PB_T_STR] = "string",
	};
	char range[80] = "";

	if ((k->type == PB_T_INT || k->type == PB_T_DOUBLE) && has_range(k)) {
		range[0] = ' ';
		range_text(k, range + 1, sizeof(range) - 1);
	}
	if (k->type == PB_T_ENUM)
		snprintf(buf, len, "%s", k->choices);
	else if (k->type <= PB_T_STR)
		snprintf(buf, len, "%s%s%s", names[k->type], range,
			 k->flags & PB_KEY_SWEEP ? " (list or all)" : "");
	else
		snprintf(buf, len, "?");
}

void pb_params_key_text(const struct pb_key *k, const void *opts, char *buf, size_t len)
{
	const char *p = (const char *)opts + k->off;
	long l;
	double d;
	int i;

	switch (k->type) {
	case PB_T_INT:
		memcpy(&l, p, sizeof(l));
		snprintf(buf, len, "%ld", l);
		break;
	case PB_T_DOUBLE:
		memcpy(&d, p, sizeof(d));
		snprintf(buf, len, "%.17g", d);
		break;
	case PB_T_BOOL:
		memcpy(&i, p, sizeof(i));
		snprintf(buf, len, "%d", i);
		break;
	case PB_T_ENUM: {
		const char *c = k->choices;

		memcpy(&i, p, sizeof(i));
		for (int n = 0; c && n < i; n++)
			c = strchr(c, '|') ? strchr(c, '|') + 1 : NULL;
		snprintf(buf, len, "%.*s", c ? (int)strcspn(c, "|") : 1, c ? c : "?");
		break;
	}
	default:
		snprintf(buf, len, "%.*s", PB_STR_MAX, p);
	}
}

void pb_params_canon(const struct pb_bench *b, const void *opts, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (const struct pb_key *k = b->keys; k && k->name && off < len; k++) {
		char v[PB_STR_MAX + 32];
		int n;

		pb_params_key_text(k, opts, v, sizeof(v));
		n = snprintf(buf + off, len - off, "%s%s=%s", off ? ";" : "", k->name, v);
		if (n < 0)
			return;
		off += (size_t)n;
	}
}

long pb_params_instances(const struct pb_bench *b, const void *opts)
{
	const struct pb_key *k = b->instances_key ? pb_key_find(b->keys, b->instances_key) : NULL;
	long n;

	if (!k || k->type != PB_T_INT)
		return 1;
	memcpy(&n, (const char *)opts + k->off, sizeof(n));
	return n;
}
