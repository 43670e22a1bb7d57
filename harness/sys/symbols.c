// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols.c - kernel symbols from kallsyms, user symbols through
 * libdwfl, a sample's stack as text.  See symbols.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>

#include "sys/sample.h"
#include "sys/symbols.h"
#include "sys/sysfs.h"

/* A name further than this past the symbol found is no function of it. */
#define KSYM_SPAN_MAX	(1u << 20)

struct ksym {
	uint64_t	addr;
	char		*name;
};

struct pb_ksyms {
	struct ksym	*s;
	size_t		nr, cap;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One kallsyms line: "ADDR TYPE NAME[\t[MODULE]]"; text symbols only. */
static int ksym_line(struct pb_ksyms *k, const char *line, uint64_t *nonzero)
{
	char type, name[256];
	uint64_t addr;
	struct ksym *n;

	if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3 ||
	    !strchr("tTwW", type))
		return 0;
	*nonzero += addr != 0;
	if (k->nr == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 4096;
		n = realloc(k->s, k->cap * sizeof(*n));
		if (!n)
			return -1;
		k->s = n;
	}
	k->s[k->nr].addr = addr;
	k->s[k->nr].name = strdup(name);
	return k->s[k->nr++].name ? 0 : -1;
}

static void hidden_note(char *note, size_t len)
{
	long kr = -1, par = -1;

	pb_sys_read_long(&kr, "/proc/sys/kernel/kptr_restrict");
	pb_sys_read_long(&par, "/proc/sys/kernel/perf_event_paranoid");
	snprintf(note, len, "kernel symbols hidden: /proc/kallsyms shows every address as 0 "
		 "to this reader (kptr_restrict=%ld, perf_event_paranoid=%ld): kernel frames are "
		 "[kernel]", kr, par);
}

struct pb_ksyms *pb_ksyms_load(char *note, size_t len)
{
	struct pb_ksyms *k = calloc(1, sizeof(*k));
	char path[4096], line[512];
	uint64_t nonzero = 0;
	FILE *f;

	note[0] = '\0';
	if (!k || pb_sys_path(path, sizeof(path), "/proc/kallsyms") ||
	    !(f = fopen(path, "re"))) {
		snprintf(note, len, "kernel symbols: /proc/kallsyms unreadable (%s): kernel "
			 "frames are [unknown]", strerror(k ? errno : ENOMEM));
		free(k);
		return NULL;
	}
	while (fgets(line, sizeof(line), f))
		if (ksym_line(k, line, &nonzero))
			break;
	fclose(f);
	if (!nonzero) {
		hidden_note(note, len);
		pb_ksyms_free(k);
		return NULL;
	}
	qsort(k->s, k->nr, sizeof(*k->s), ksym_cmp);
	return k;
}

const char *pb_ksyms_find(const struct pb_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k ? k->nr : 0;

	while (lo < hi) {	/* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - k->s[lo - 1].addr >= KSYM_SPAN_MAX)
		return NULL;
	return k->s[lo - 1].name;
}

void pb_ksyms_free(struct pb_ksyms *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nr; i++)
		free(k->s[i].name);
	free(k->s);
	free(k);
}

/* ---------------------------------------------------------------- user */

struct pb_usyms {
	Dwfl	*dwfl;
};

/*
 * Names come from each file's own symbol tables (.symtab, else .dynsym):
 * no search for separate debug files, which costs seconds a pass and
 * names no more functions than the tables do.
 */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = no_debuginfo,
};

struct pb_usyms *pb_usyms_open(pid_t pid)
{
	struct pb_usyms *u = calloc(1, sizeof(*u));
	char path[4096];
	FILE *f = NULL;

	if (!u || pb_sys_path(path, sizeof(path), "/proc/%d/maps", (int)pid) ||
	    !(f = fopen(path, "re")) || !(u->dwfl = dwfl_begin(&proc_callbacks)))
		goto fail;
	dwfl_report_begin(u->dwfl);
	if (dwfl_linux_proc_maps_report(u->dwfl, f) ||
	    dwfl_report_end(u->dwfl, NULL, NULL))
		goto fail;
	fclose(f);
	return u;
fail:
	if (f)
		fclose(f);
	if (u && u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
	return NULL;
}

static const char *pb_usyms_find(struct pb_usyms *u, uint64_t addr)
{
	Dwfl_Module *m = u ? dwfl_addrmodule(u->dwfl, addr) : NULL;

	return m ? dwfl_module_addrname(m, addr) : NULL;
}

void pb_usyms_free(struct pb_usyms *u)
{
	if (!u)
		return;
	dwfl_end(u->dwfl);
	free(u);
}

/* ---------------------------------------------------------------- stacks */

static size_t put_frame(char *buf, size_t len, size_t at, const char *name)
{
	if (at && at + 1 < len)
		buf[at++] = ';';
	for (; *name && at + 1 < len; name++)
		buf[at++] = *name == ';' || *name == ' ' ? '_' : *name;
	buf[at < len ? at : len - 1] = '\0';
	return at;
}

void pb_stack_text(const struct pb_sample *s, const struct pb_ksyms *k, struct pb_usyms *u,
		   char *buf, size_t len, struct pb_unresolved *un)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = s->nr - 1; i >= 0; i--) {
		/* a caller's frame is its return address: look up the call */
		uint64_t pc = s->pc[i] - (i > 0);
		const char *name = s->kernel[i] ? pb_ksyms_find(k, pc) : pb_usyms_find(u, pc);

		un->frames++;
		if (!name) {
			name = s->kernel[i] && !k ? "[kernel]" : "[unknown]";
			if (s->kernel[i])
				un->kernel++;
			else
				un->user++;
		}
		at = put_frame(buf, len, at, name);
	}
	if (!s->nr)
		put_frame(buf, len, 0, "[no stack]");
}
