// SPDX-License-Identifier: GPL-2.0-only
/*
 * flame.c - a differential flame graph, written here (no script): the
 * new side's stacks as a tree, each node its time per op (inclusive, the
 * frame's width) and its own time per op on both sides (the colour).
 * Frames narrower than a tenth of a pixel are left out.  See flame.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame.h"

#define PAD	10
#define ROW	16		/* a frame's height and its gap */
#define TOP	92		/* the heading and the legend above the frames */
#define CHAR_W	7.2		/* monospace 12 px */

struct node {
	char		*name;
	double		cur, base;		/* inclusive ns/op */
	double		cur_self, base_self;	/* own ns/op */
	struct node	*kids;
	int		nr, cap;
};

static struct node *kid(struct node *n, const char *name, size_t len)
{
	struct node *k;

	for (int i = 0; i < n->nr; i++)
		if (strlen(n->kids[i].name) == len && !strncmp(n->kids[i].name, name, len))
			return &n->kids[i];
	if (n->nr == n->cap) {
		int cap = n->cap ? 2 * n->cap : 4;

		k = realloc(n->kids, (size_t)cap * sizeof(*k));
		if (!k)
			return NULL;
		n->kids = k;
		n->cap = cap;
	}
	k = &n->kids[n->nr];
	memset(k, 0, sizeof(*k));
	if (!(k->name = strndup(name, len)))
		return NULL;
	n->nr++;
	return k;
}

/* Add ns of stack ("a;b;c") to the tree, on the new side (cur) or the base. */
static int insert(struct node *n, const char *s, double ns, bool cur)
{
	for (;;) {
		size_t len = strcspn(s, ";");

		*(cur ? &n->cur : &n->base) += ns;
		if (!*s)
			break;
		if (!(n = kid(n, s, len)))
			return -1;
		s += len + (s[len] == ';');
	}
	*(cur ? &n->cur_self : &n->base_self) += ns;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct node *)a)->name, ((const struct node *)b)->name);
}

/* Sort the frames by name (as flamegraph.pl does); the depth and largest own change. */
static int settle(struct node *n, double *max)
{
	int d = 0;

	if (n->cur > 0 && fabs(n->cur_self - n->base_self) > *max)
		*max = fabs(n->cur_self - n->base_self);
	if (n->nr)	/* a leaf has no array (qsort's is declared non-null) */
		qsort(n->kids, (size_t)n->nr, sizeof(*n->kids), by_name);
	for (int i = 0; i < n->nr; i++) {
		int k = settle(&n->kids[i], max) + 1;

		d = k > d ? k : d;
	}
	return d;
}

static void drop(struct node *n)
{
	for (int i = 0; i < n->nr; i++)
		drop(&n->kids[i]);
	free(n->kids);
	free(n->name);
}

static void esc(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++)
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc((unsigned char)s[i] < 0x20 ? '?' : s[i], f);	/* not XML */
		}
}

void pb_flame_colour(double delta, double max, char *buf, size_t len)
{
	double ratio = max > 0 ? fabs(delta) / max : 0;
	int c = 225 - (int)lround(195 * (ratio > 1 ? 1 : ratio));

	if (delta > 0)
		snprintf(buf, len, "rgb(255,%d,%d)", c, c);
	else if (delta < 0)
		snprintf(buf, len, "rgb(%d,%d,255)", c, c);
	else
		snprintf(buf, len, "rgb(224,224,224)");
}

struct draw {
	FILE		*f;
	double		scale, max;
	int		depth;
	char		path[4096];
};

static void frame(struct draw *d, const struct node *n, double x, int level)
{
	double w = n->cur * d->scale, dx = x, chg = n->cur_self - n->base_self;
	size_t plen = strlen(d->path), fit;
	char fill[32];

	if (w < 0.1)
		return;
	if (level)	/* the root is not in the stacks */
		snprintf(d->path + plen, sizeof(d->path) - plen, "%s%s", plen ? ";" : "",
			 n->name);
	pb_flame_colour(chg, d->max, fill, sizeof(fill));
	fputs("<g><title>", d->f);
	esc(d->f, level ? d->path : n->name, sizeof(d->path));
	fprintf(d->f, "&#10;%.1f ns/op (base %.1f), own %.1f \xe2\x86\x92 %.1f ns/op (%+.1f)"
		"</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\"/>", n->cur, n->base, n->base_self, n->cur_self, chg, x,
		TOP + (d->depth - level) * ROW, w, ROW - 1, fill);
	fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;
	if (fit >= 3) {
		fprintf(d->f, "<text x=\"%.1f\" y=\"%d\">", x + 3, TOP + (d->depth - level) * ROW + 11);
		esc(d->f, n->name, strlen(n->name) <= fit ? fit : fit - 2);
		fputs(strlen(n->name) <= fit ? "" : "..", d->f);
		fputs("</text>", d->f);
	}
	fputs("</g>\n", d->f);
	for (int i = 0; i < n->nr; i++) {
		frame(d, &n->kids[i], dx, level + 1);
		dx += n->kids[i].cur * d->scale;
	}
	d->path[plen] = 0;
}

static void legend(FILE *f, double max)
{
	static const char *const what[] = { "own time per op grew", "shrank", "unchanged" };
	double sign[] = { 1, -1, 0 };
	char fill[32];
	int x = PAD;

	for (int i = 0; i < 3; i++) {
		pb_flame_colour(sign[i] * max, max, fill, sizeof(fill));
		fprintf(f, "<rect x=\"%d\" y=\"58\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"70\">%s</text>\n", x, fill, x + 18, what[i]);
		x += 18 + (int)(CHAR_W * (double)strlen(what[i])) + 20;
	}
	fprintf(f, "<text x=\"%d\" y=\"70\">(deeper: nearer the largest change, "
		"%.1f %s/op); width: the new side's time per op</text>\n", x,
		max >= 1000 ? max / 1e3 : max, max >= 1000 ? "\xc2\xb5s" : "ns");
}

static void heading(FILE *f, const struct pb_flame *fl, double w)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n",
		PB_FLAME_WIDTH, (int)w, PB_FLAME_WIDTH, (int)w);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"%d\" y=\"24\" font-size=\"17\">Where the change went: ", PAD);
	esc(f, fl->what, strlen(fl->what));
	fprintf(f, "</text>\n<text x=\"%d\" y=\"44\">", PAD);
	esc(f, fl->base, strlen(fl->base));
	fputs(" \xe2\x86\x92 ", f);
	esc(f, fl->cur, strlen(fl->cur));
	fprintf(f, "; profile pass, %s</text>\n", fl->event ? fl->event : "event not recorded");
}

char *pb_flame_svg(const struct pb_flame *fl)
{
	struct node root = { .name = strdup("all") };
	struct draw d = { .max = 0 };
	char *buf = NULL;
	size_t len = 0;
	const char *k;
	json_t *v;
	int rc = 0;

	if (!root.name)
		return NULL;
	json_object_foreach(fl->cur_stacks, k, v)
		rc |= insert(&root, k, json_number_value(v), true);
	json_object_foreach(fl->base_stacks, k, v)
		rc |= insert(&root, k, json_number_value(v), false);
	d.depth = settle(&root, &d.max);
	d.f = rc ? NULL : open_memstream(&buf, &len);
	if (d.f) {
		d.scale = root.cur > 0 ? (PB_FLAME_WIDTH - 2 * PAD) / root.cur : 0;
		heading(d.f, fl, TOP + (d.depth + 1) * ROW + PAD);
		legend(d.f, d.max);
		frame(&d, &root, PAD, 0);
		fputs("</svg>\n", d.f);
		fclose(d.f);
	}
	drop(&root);
	return buf;
}
