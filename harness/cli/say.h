/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * say.h - every message cli prints to the user goes through pb_say(), so
 * that input it quotes (argv, a job file, an event name) cannot drive the
 * terminal: control characters become '?' (pb_text_clean()).
 */
#ifndef PINBENCH_SAY_H
#define PINBENCH_SAY_H

#include <stdio.h>

/* fprintf(f, fmt, ...) with the text cleaned; NL and tab are kept. */
void pb_say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
