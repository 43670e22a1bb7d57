// SPDX-License-Identifier: GPL-2.0-only
/*
 * fold.c - folded stacks: merged, bounded, as text, per op.  See fold.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/fold.h"

int pb_fold_add(struct pb_fold *f, const char *stack, uint64_t count)
{
	struct pb_fold_line *n;

	if (f->nr == f->cap) {
		int cap = f->cap ? 2 * f->cap : 256;

		n = realloc(f->l, (size_t)cap * sizeof(*n));
		if (!n)
			return -1;
		f->l = n;
		f->cap = cap;
	}
	f->l[f->nr].stack = strdup(stack);
	if (!f->l[f->nr].stack)
		return -1;
	f->l[f->nr++].count = count;
	f->total += count;
	return 0;
}

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct pb_fold_line *)a)->stack,
		      ((const struct pb_fold_line *)b)->stack);
}

/* Most samples first; equal counts by stack, so the order is stable. */
static int by_count(const void *a, const void *b)
{
	const struct pb_fold_line *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->stack, y->stack);
}

static void merge_equal(struct pb_fold *f)
{
	int n = 0;

	if (f->nr)	/* an empty window has no array (qsort's is declared non-null) */
		qsort(f->l, f->nr, sizeof(*f->l), by_stack);
	for (int i = 0; i < f->nr; i++) {
		if (n && !strcmp(f->l[n - 1].stack, f->l[i].stack)) {
			f->l[n - 1].count += f->l[i].count;
			free(f->l[i].stack);
			continue;
		}
		f->l[n++] = f->l[i];
	}
	f->nr = n;
}

/* Lines from keep on join the remainder line (which takes the slot keep). */
static void fold_rest(struct pb_fold *f, int keep)
{
	uint64_t rest = 0;
	int stacks = 0;

	if (keep >= f->nr)
		return;
	for (int i = keep; i < f->nr; i++) {
		rest += f->l[i].count;
		stacks += strcmp(f->l[i].stack, PB_FOLD_REST) ? 1 : 0;
		free(f->l[i].stack);
	}
	f->rest_stacks += stacks;
	f->l[keep].stack = strdup(PB_FOLD_REST);
	f->l[keep].count = rest;
	f->nr = f->l[keep].stack ? keep + 1 : keep;
}

void pb_fold_bound(struct pb_fold *f, double cover)
{
	uint64_t sum = 0;
	int keep = 0;

	merge_equal(f);
	if (f->nr)
		qsort(f->l, f->nr, sizeof(*f->l), by_count);
	while (keep < f->nr && sum < cover * f->total)
		sum += f->l[keep++].count;
	fold_rest(f, keep);
}

char *pb_fold_text(struct pb_fold *f, size_t max)
{
	char *out = malloc(max), num[32];
	size_t at = 0;

	if (!out || max < 64) {
		free(out);
		return NULL;
	}
	for (int i = 0; i < f->nr; i++) {
		size_t n = strlen(f->l[i].stack), k;

		k = (size_t)snprintf(num, sizeof(num), " %" PRIu64 "\n", f->l[i].count);
		/* room for this line and a remainder line after it */
		if (at + n + k + sizeof(PB_FOLD_REST) + 24 > max) {
			fold_rest(f, i);
			n = strlen(f->l[i].stack);
			k = (size_t)snprintf(num, sizeof(num), " %" PRIu64 "\n",
					     f->l[i].count);
		}
		memcpy(out + at, f->l[i].stack, n);
		memcpy(out + at + n, num, k);
		at += n + k;
	}
	out[at] = '\0';
	return out;
}

int pb_fold_parse(struct pb_fold *f, const char *text)
{
	while (*text) {
		const char *eol = strchrnul(text, '\n'), *sp = eol;
		char stack[4096];
		unsigned long long c;
		char *end;

		while (sp > text && sp[-1] != ' ')
			sp--;
		c = strtoull(sp, &end, 10);
		if (sp > text && end == eol && sp - 1 - text < (long)sizeof(stack)) {
			memcpy(stack, text, sp - 1 - text);
			stack[sp - 1 - text] = '\0';
			if (pb_fold_add(f, stack, c))
				return -1;
		}
		text = *eol ? eol + 1 : eol;
	}
	return 0;
}

void pb_fold_free(struct pb_fold *f)
{
	for (int i = 0; i < f->nr; i++)
		free(f->l[i].stack);
	free(f->l);
	memset(f, 0, sizeof(*f));
}

static const char *leaf_of(const char *stack)
{
	const char *semi = strrchr(stack, ';');

	return semi ? semi + 1 : stack;
}

uint64_t pb_fold_top_self(const struct pb_fold *f, char *name, size_t len)
{
	uint64_t best = 0;

	name[0] = '\0';
	for (int i = 0; i < f->nr; i++) {
		const char *leaf = leaf_of(f->l[i].stack);
		uint64_t n = 0;

		if (!strcmp(f->l[i].stack, PB_FOLD_REST))
			continue;
		for (int k = 0; k < f->nr; k++)	/* a few hundred lines at most */
			if (!strcmp(leaf_of(f->l[k].stack), leaf))
				n += f->l[k].count;
		if (n > best) {
			best = n;
			snprintf(name, len, "%s", leaf);
		}
	}
	return best;
}

double pb_fold_ns_per_op(uint64_t count, uint64_t samples, uint64_t task_clock_ns,
			 uint64_t ops, double *err)
{
	double per = samples && ops ? (double)task_clock_ns / samples / ops : NAN;

	if (err)
		*err = per * sqrt((double)count);
	return per * count;
}
