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

/* The width cli's wrapped text keeps to: 100 columns, or f's terminal's when narrower. */
#define PB_SAY_WIDTH	100

/*
 * head, then s wrapped at spaces to that width, each line after the
 * first indented to where s began: "software events: a b c\n                 d e".
 */
void pb_say_wrapped(FILE *f, const char *head, const char *s);

#endif
