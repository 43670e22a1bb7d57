/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keys.h - a workload's key table (struct pb_key, core/bench.h): parse,
 * format, describe, count instances.  The one home of these for job files
 * and the control protocol alike.
 */
#ifndef PINBENCH_KEYS_H
#define PINBENCH_KEYS_H

#include <stddef.h>

#include "core/bench.h"

/* The key called name in a NULL-terminated table, or NULL. */
const struct pb_key *pb_key_find(const struct pb_key *keys, const char *name);
/* A row's parse step (struct pb_key's .parse). */
typedef int pb_key_parse_fn(const struct pb_key *k, const char *text, void *dst,
			    char *prob, size_t len);
/*
 * The parse step of a row without its own: text into the field at k->off
 * by k's type, range and choices (a hint when a trailing comment is the
 * likely fault).
 */
pb_key_parse_fn pb_key_typed;
/* k's parse step: its .parse, else pb_key_typed. */
pb_key_parse_fn *pb_key_parser(const struct pb_key *k);
/*
 * Parse text into the typed field of key k inside opts (k's parse step):
 * 0, or -1 with what is wrong with the value in prob (no key name: the
 * caller says where).
 */
int pb_key_check(const struct pb_key *k, const char *text, void *opts,
		 char *prob, size_t len);
/* Parse text into the typed field of key k inside opts: 0, or -1 with err. */
int pb_key_parse(const struct pb_key *k, const char *text, void *opts,
		 char *err, size_t len);
/* Format a key's type and range for `pinbench list` ("int 1..65507", "pingpong|stream"). */
void pb_key_describe(const struct pb_key *k, char *buf, size_t len);
/* One key's value in opts as text (enum: the choice's name). */
void pb_params_key_text(const struct pb_key *k, const void *opts, char *buf, size_t len);
/* Every key of b as "k=v;k=v" in table order, from opts (what two hosts agree on). */
void pb_params_canon(const struct pb_bench *b, const void *opts, char *buf, size_t len);
/* The instance count opts ask for: the int key b->instances_key names, else 1. */
long pb_params_instances(const struct pb_bench *b, const void *opts);

#endif
