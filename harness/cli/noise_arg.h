/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise_arg.h - --noise FILE of compare and report: the noise profile
 * they use for the variation between boots (cmd_compare.c).
 */
#ifndef PINBENCH_NOISE_ARG_H
#define PINBENCH_NOISE_ARG_H

#include "report/compare.h"
#include "report/noise.h"

/*
 * The noise profile for results c (report/noise.h's pb_noise_pick): --noise
 * given, or the newest in the folders among paths; set as o's between
 * callback when there is one (refused too: the tables say why), the header
 * line in nz->line ("" none).  0, or 2 with a given file's error said.
 * pb_noise_free(&nz->p) after.
 */
struct pb_cli_noise {
	struct pb_noise		p;
	struct pb_noise_ctx	x;
	char			line[1024];
};
int pb_cli_noise(const char *given, char **paths, int n, const struct pb_cmp *c,
		 struct pb_cli_noise *nz, struct pb_cmp_opts *o, const char *who);

#endif
