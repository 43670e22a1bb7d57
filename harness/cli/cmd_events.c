// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_events.c - "pinbench events [PATTERN]": the PMUs libpfm4 detects,
 * their counters, whether this machine has a usable core PMU (and why
 * not), software events, tracepoints, and the events matching PATTERN.
 */
#include "cli/cmds.h"
#include "cli/say.h"
#include "cli/opts.h"
#include "sys/counters.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>

static const char events_usage[] =
	"usage: pinbench events [PATTERN]\n"
	"\n"
	"List the PMUs libpfm4 detects with their generic and fixed counter\n"
	"counts, whether this machine has a usable core PMU (and why not), the\n"
	"software events, tracepoints, and the PMU events whose name matches\n"
	"PATTERN: a case-insensitive substring, or a glob with * ? [ ].\n"
	"Use the names in events= (job files) and --events:\n"
	"generic (cycles, instructions), PMU-specific (INST_RETIRED:ANY_P:u),\n"
	"software (task-clock) and tracepoints (sched:sched_wakeup).\n"
	"\n"
	"  -h, --help    this text\n";

static bool match(const char *pat, const char *s)
{
	if (!pat)
		return true;
	if (strpbrk(pat, "*?["))
		return !fnmatch(pat, s, FNM_CASEFOLD);
	return strcasestr(s, pat) != NULL;
}

static bool pmu_info(pfm_pmu_t p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info(p, info) == PFM_SUCCESS && info->is_present;
}

static const char *pmu_type_name(pfm_pmu_type_t t)
{
	switch (t) {
	case PFM_PMU_TYPE_CORE:		return "core";
	case PFM_PMU_TYPE_UNCORE:	return "uncore";
	case PFM_PMU_TYPE_OS_GENERIC:	return "os";
	default:			return "?";
	}
}

static void print_pmus(void)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;
	int w = 14;	/* the name column: as wide as the longest name here */

	pfm_for_all_pmus(p)
		if (pmu_info(p, &info) && info.name && (int)strlen(info.name) > w)
			w = strlen(info.name);
	printf("PMUs detected by libpfm4:\n");
	pfm_for_all_pmus(p) {
		if (!pmu_info(p, &info))
			continue;
		printf("  %-*s %-7s generic %2d  fixed %d  %4d events  %s\n", w,
		       info.name ? info.name : "?", pmu_type_name(info.type), info.num_cntrs,
		       info.num_fixed_cntrs, info.nevents, info.desc ? info.desc : "");
	}
}

static void print_core(void)
{
	struct pb_pmu_desc d;
	char line[512];

	pb_core_pmu(&d);
	if (d.usable) {
		snprintf(line, sizeof(line), "%s (%s): %d generic counters per pass%s, %d fixed",
			 d.name, d.desc, d.generic,
			 d.nmi_watchdog ? " (one taken by the NMI watchdog)" : "", d.fixed);
		pb_say_wrapped(stdout, "core PMU: ", line);
		return;
	}
	pb_say_wrapped(stdout, "core PMU: none here: ", d.why);
	pb_say_wrapped(stdout, "  ", "hardware events (cycles, instructions, ...) are reported "
		       "\"not supported\"; software events and tracepoints still count");
}

static void print_software(const char *pat)
{
	const char *name;
	char list[1024];
	size_t off = 0;

	list[0] = '\0';
	for (int i = 0; (name = pb_sw_event_name(i)); i++)
		if (match(pat, name) && off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
						off ? " " : "", name);
	pb_say_wrapped(stdout, "software events: ", off ? list : "(none matching)");
}

static void print_tracepoint_sys(const char *dir, const char *sys, const char *pat)
{
	char path[768], name[520];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, sys);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(name, sizeof(name), "%s:%s", sys, de->d_name);
		if (match(pat, name))
			printf("  %s\n", name);
	}
	closedir(d);
}

static void print_tracepoints(const char *pat)
{
	char dir[512], line[600];
	struct dirent *de;
	DIR *d;

	if (!pb_tracefs_events(dir, sizeof(dir))) {
		printf("tracepoints: tracefs not readable "
		       "(mount -t tracefs nodev /sys/kernel/tracing)\n");
		return;
	}
	snprintf(line, sizeof(line), "%s%s", dir,
		 pat ? "" : " (give a PATTERN to list them, e.g. sched:)");
	pb_say_wrapped(stdout, "tracepoints: readable in ", line);
	if (!pat || !(d = opendir(dir)))
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && de->d_type == DT_DIR)
			print_tracepoint_sys(dir, de->d_name, pat);
	closedir(d);
}

/* The event's umasks, " A B C", into buf; true when one matches pat. */
static bool umasks(int idx, const pfm_event_info_t *ei, const char *pat, char *buf,
		   size_t len)
{
	size_t off = 0;
	bool hit = false;
	int j;

	buf[0] = '\0';
	for (j = 0; j < ei->nattrs && off < len; j++) {
		pfm_event_attr_info_t ai;
		char full[320];

		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, j, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		snprintf(full, sizeof(full), "%s:%s", ei->name, ai.name);
		hit |= pat && match(pat, full);
		off += (size_t)snprintf(buf + off, len - off, " %s", ai.name);
	}
	return hit;
}

static int print_pmu_events(const pfm_pmu_info_t *info, const char *pat)
{
	char full[256], um[8192], head[300];
	int idx, n = 0;

	for (idx = info->first_event; idx != -1; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t ei;
		bool hit;

		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
			continue;
		snprintf(full, sizeof(full), "%s::%s", info->name, ei.name);
		hit = umasks(idx, &ei, pat, um, sizeof(um)) || match(pat, full) ||
		      match(pat, ei.name);
		if (!hit)
			continue;
		if (strlen(full) > 40)	/* a long name on its own line: the column stays */
			printf("  %s\n", full);
		snprintf(head, sizeof(head), "  %-40s ", strlen(full) > 40 ? "" : full);
		pb_say_wrapped(stdout, head, ei.desc ? ei.desc : "");
		if (um[0])
			pb_say_wrapped(stdout, "      umasks: ", um + 1);
		n++;
	}
	return n;
}

static void print_events(const char *pat)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;
	int n = 0;

	pb_say(stdout, "PMU events%s%s%s:\n", pat ? " matching \"" : "", pat ? pat : "",
	       pat ? "\"" : "");
	pfm_for_all_pmus(p)
		if (pmu_info(p, &info))
			n += print_pmu_events(&info, pat);
	if (!n)
		printf("  (none)\n");
}

int cmd_events(int argc, char **argv)
{
	static const struct pb_opt t[] = {
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	const char *pat = NULL;
	char err[256];
	int rc;

	rc = pb_opts_usage(pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), NULL, NULL),
			   events_usage);
	if (rc)
		return pb_opts_exit(rc);
	if (argc - optind > 1) {
		pb_say(stderr, "pinbench events: one PATTERN at most\n%s", events_usage);
		return 2;
	}
	if (optind < argc)
		pat = argv[optind];
	if (pb_counters_init(err, sizeof(err))) {
		pb_say(stderr, "pinbench events: %s\n", err);
		return 1;
	}
	print_pmus();
	print_core();
	print_software(pat);
	print_tracepoints(pat);
	print_events(pat);
	return 0;
}
