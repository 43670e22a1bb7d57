/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols.h - names for sampled addresses: the kernel's from
 * /proc/kallsyms (modules' included), read under $PINBENCH_SYSROOT; user
 * space's through elfutils' libdwfl on the process's maps.  An address
 * without a name is counted, never dropped: its frame is "[unknown]"
 * (kernel: "[kernel]" when kptr_restrict hides every address).
 */
#ifndef PINBENCH_SYMBOLS_H
#define PINBENCH_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pb_sample;

struct pb_ksyms;
/*
 * The text symbols of kallsyms, or NULL (unreadable; or every address 0,
 * as kptr_restrict or perf_event_paranoid makes it for this reader): note
 * says which, with the settings read.
 */
struct pb_ksyms *pb_ksyms_load(char *note, size_t len);
/* The function holding addr, or NULL (below the first, or far past the last). */
const char *pb_ksyms_find(const struct pb_ksyms *k, uint64_t addr);
void pb_ksyms_free(struct pb_ksyms *k);

struct pb_usyms;
/* User symbols of process pid (its maps read now), or NULL. */
struct pb_usyms *pb_usyms_open(pid_t pid);
void pb_usyms_free(struct pb_usyms *u);

/* Frames of one sample that had no name, by side. */
struct pb_unresolved {
	uint64_t	kernel, user, frames;
};

/*
 * The sample's stack, root first, frames joined by ';' (a ';' or a space
 * in a name becomes '_'), into buf; k or u may be NULL (every such frame
 * unresolved).  Frames are counted into *un.
 */
void pb_stack_text(const struct pb_sample *s, const struct pb_ksyms *k, struct pb_usyms *u,
		   char *buf, size_t len, struct pb_unresolved *un);

#endif
