// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_flame.c - the differential flame graph of report/flame.c from two
 * recorded folded profiles: each frame's width (the new side's time per
 * op), its colour (red grew, blue shrank, grey unchanged, deeper nearer
 * the largest change), its place, the full stack in its title, and the
 * whole SVG well-formed XML (xmllint).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/flame.h"
#include "sys/fold.h"

/* Folded text as {STACK: ns/op}, each sample per ns/op. */
static json_t *stacks_of(const char *folded, double per)
{
	struct pb_fold f = { 0 };
	json_t *o = json_object();

	assert_int_equal(pb_fold_parse(&f, folded), 0);
	for (int i = 0; i < f.nr; i++)
		json_object_set_new(o, f.l[i].stack, json_real((double)f.l[i].count * per));
	pb_fold_free(&f);
	return o;
}

/* The rect after the frame titled stack: its x, y, width and fill. */
static void rect_of(const char *svg, const char *stack, double *x, int *y, double *w,
		    char *fill)
{
	char key[256];
	const char *p;

	snprintf(key, sizeof(key), "<title>%s&#10;", stack);
	p = strstr(svg, key);
	assert_non_null(p);
	p = strstr(p, "<rect ");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "<rect x=\"%lf\" y=\"%d\" width=\"%lf\" height=\"15\" "
				"fill=\"%31[^\"]\"", x, y, w, fill), 4);
}

static char *graph(void)
{
	/* base: 100 samples of 2 ns/op; new: 590 samples of 1 ns/op */
	json_t *b = stacks_of("main;read;schedule 64\nmain;read;pipe_read 36\n", 2);
	json_t *c = stacks_of("main;read;schedule 90\nmain;read;pipe_read 100\n"
			      "main;spin 400\n", 1);
	/* \x01: a character XML cannot hold, in a name from a result file */
	struct pb_flame fl = { .what = "pipe rtt same-cpu, reader\x01", .base = "base (6.1.0)",
			       .cur = "new <rc1> & co", .event = "cpu-clock",
			       .base_stacks = b, .cur_stacks = c };
	char *svg = pb_flame_svg(&fl);

	json_decref(b);
	json_decref(c);
	assert_non_null(svg);
	return svg;
}

static void test_frames(void **state)
{
	char *svg = graph(), fill[32];
	double x, w;
	int y;

	(void)state;
	/* 590 ns/op over 1180 pixels: 2 pixels a ns; depth 3 below y 92 */
	rect_of(svg, "all", &x, &y, &w, fill);
	assert_float_equal(x, 10, 1e-9);
	assert_int_equal(y, 92 + 3 * 16);
	assert_float_equal(w, 1180, 1e-9);
	assert_string_equal(fill, "rgb(224,224,224)");
	rect_of(svg, "main", &x, &y, &w, fill);
	assert_float_equal(w, 1180, 1e-9);
	assert_string_equal(fill, "rgb(224,224,224)");	/* no own time either side */
	/* children by name: read first, then spin */
	rect_of(svg, "main;read", &x, &y, &w, fill);
	assert_float_equal(x, 10, 1e-9);
	assert_float_equal(w, 380, 1e-9);
	rect_of(svg, "main;spin", &x, &y, &w, fill);
	assert_float_equal(x, 390, 1e-9);
	assert_int_equal(y, 92 + 16);
	assert_float_equal(w, 800, 1e-9);
	assert_string_equal(fill, "rgb(255,30,30)");	/* +400, the largest: deepest red */
	rect_of(svg, "main;read;pipe_read", &x, &y, &w, fill);
	assert_float_equal(x, 10, 1e-9);
	assert_int_equal(y, 92);
	assert_float_equal(w, 200, 1e-9);
	assert_string_equal(fill, "rgb(255,211,211)");	/* 72 -> 100: +28, pale red */
	rect_of(svg, "main;read;schedule", &x, &y, &w, fill);
	assert_float_equal(x, 210, 1e-9);
	assert_float_equal(w, 180, 1e-9);
	assert_string_equal(fill, "rgb(206,206,255)");	/* 128 -> 90: -38, pale blue */
	/* the title's figures, the heading's names escaped, the legend's colours */
	assert_non_null(strstr(svg, "main;spin&#10;400.0 ns/op (base 0.0), own 0.0 "
				    "\xe2\x86\x92 400.0 ns/op (+400.0)</title>"));
	assert_non_null(strstr(svg, "base (6.1.0) \xe2\x86\x92 new &lt;rc1&gt; &amp; co; "
				    "profile pass, cpu-clock"));
	assert_non_null(strstr(svg, "fill=\"rgb(255,30,30)\"/><text x=\"28\" y=\"70\">own "
				    "time per op grew"));
	assert_non_null(strstr(svg, "fill=\"rgb(30,30,255)\"/><text"));
	assert_non_null(strstr(svg, "width=\"1200\""));
	free(svg);
}

static void test_colour(void **state)
{
	char c[32];

	(void)state;
	pb_flame_colour(5, 10, c, sizeof(c));
	assert_string_equal(c, "rgb(255,127,127)");
	pb_flame_colour(-10, 10, c, sizeof(c));
	assert_string_equal(c, "rgb(30,30,255)");
	pb_flame_colour(0, 10, c, sizeof(c));
	assert_string_equal(c, "rgb(224,224,224)");
	pb_flame_colour(1, 0, c, sizeof(c));		/* no change anywhere: palest */
	assert_string_equal(c, "rgb(255,225,225)");
}

static void test_well_formed(void **state)
{
	char path[] = "/tmp/pb-flame-XXXXXX", cmd[128], *svg = graph();
	int fd = mkstemp(path), rc;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(svg, f);
	fclose(f);
	free(svg);
	if (system("command -v xmllint >/dev/null 2>&1")) {
		unlink(path);
		skip();
	}
	snprintf(cmd, sizeof(cmd), "xmllint --noout %s", path);
	rc = system(cmd);
	unlink(path);
	assert_int_equal(rc, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_colour),
		cmocka_unit_test(test_well_formed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
