// SPDX-License-Identifier: GPL-2.0-only
/*
 * counters.c - events through libpfm4, software events and tracepoints;
 * passes that fit the core PMU; groups opened per task or CPU; reads,
 * deltas and honest scaling.  The one module that calls perf_event_open.
 */
#include "sys/counters.h"
#include "sys/sysfs.h"
#include "lib/anomaly.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <perfmon/pfmlib_perf_event.h>

#define PB_READ_FORMAT	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)
#define PB_FALLBACK_GENERIC	4	/* core PMU unknown to libpfm4 */

static long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				int cpu, int group_fd, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static ssize_t sys_read_fd(int fd, void *buf, size_t len)
{
	return read(fd, buf, len);
}

long (*pb_perf_event_open)(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags) = sys_perf_event_open;
ssize_t (*pb_counters_read_fd)(int fd, void *buf, size_t len) = sys_read_fd;

/* ---- libpfm4, sysroot, small files ---- */

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_ret;

static void pfm_init_once(void)
{
	pfm_ret = pfm_initialize();
}

int pb_counters_init(char *err, size_t len)
{
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_ret == PFM_SUCCESS)
		return 0;
	snprintf(err, len, "libpfm4: cannot initialise: %s", pfm_strerror(pfm_ret));
	return -1;
}

/* First line of a /proc or /sys file into buf: 0, or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	if (pb_sys_read(buf, len, "%s", path) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_int(const char *path, int dflt)
{
	char buf[64];

	if (read_line(path, buf, sizeof(buf)))
		return dflt;
	return atoi(buf);
}


static bool cpu_has_flag(const char *flag)
{
	char flags[4096], *tok, *save = NULL;

	if (pb_cpuinfo_field("flags", flags, sizeof(flags)))
		return false;
	for (tok = strtok_r(flags, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, flag))
			return true;
	return false;
}

/* ---- the core PMU ---- */

static bool find_core_pmu(pfm_pmu_info_t *out)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS)
			continue;
		if (info.is_present && info.type == PFM_PMU_TYPE_CORE) {
			*out = info;
			return true;
		}
	}
	return false;
}

/* A disabled, user-only event of type/config on this task: the fd, or -1 (errno). */
static long open_on_self(__u32 type, __u64 config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return pb_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Does the kernel accept a user-only cycles event on this task? 0 or errno. */
static int probe_cycles(void)
{
	long fd = open_on_self(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	if (fd < 0)
		return errno ? errno : ENOENT;
	close((int)fd);
	return 0;
}

int pb_counters_hold(void)
{
	long fd = open_on_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);

	return fd < 0 ? -1 : (int)fd;
}

static void cpu_model_str(char *buf, size_t len)
{
	char vendor[64] = "?", family[16] = "?", model[16] = "?";

	pb_cpuinfo_field("vendor_id", vendor, sizeof(vendor));
	pb_cpuinfo_field("cpu family", family, sizeof(family));
	pb_cpuinfo_field("model", model, sizeof(model));
	snprintf(buf, len, "%s family %s model %s", vendor, family, model);
}

static void pmu_why(struct pb_pmu_desc *d, int probe_err)
{
	char model[128];

	cpu_model_str(model, sizeof(model));
	if (cpu_has_flag("hypervisor"))
		snprintf(d->why, sizeof(d->why),
			 "virtualised: the hypervisor exposes no PMU (%s%s)",
			 d->known ? "libpfm4 sees " : "",
			 d->known ? d->name : model);
	else if (!d->known)
		snprintf(d->why, sizeof(d->why),
			 "unknown CPU model: libpfm4 has no core PMU for %s", model);
	else
		snprintf(d->why, sizeof(d->why),
			 "the kernel has no PMU driver for %s (%s)", d->name,
			 strerrorname_np(probe_err) ? strerrorname_np(probe_err) : "?");
}

int pb_core_pmu(struct pb_pmu_desc *d)
{
	pfm_pmu_info_t info;
	char err[128];
	int probe;

	memset(d, 0, sizeof(*d));
	d->nmi_watchdog = read_int("/proc/sys/kernel/nmi_watchdog", 0) == 1;
	d->generic = PB_FALLBACK_GENERIC;
	if (!pb_counters_init(err, sizeof(err)) && find_core_pmu(&info)) {
		d->known = true;
		snprintf(d->name, sizeof(d->name), "%s", info.name);
		snprintf(d->desc, sizeof(d->desc), "%s", info.desc ? info.desc : "");
		d->generic = info.num_cntrs;
		d->fixed = info.num_fixed_cntrs;
	}
	if (d->nmi_watchdog && d->generic > 1)
		d->generic--;
	probe = probe_cycles();
	d->usable = d->known && (!probe || probe == EACCES || probe == EPERM);
	if (!d->usable)
		pmu_why(d, probe);
	return d->usable;
}

/* ---- resolving names ---- */

static const struct sw_name {
	const char	*name;
	unsigned	config;
} sw_names[] = {
	{ "task-clock",		PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock",		PERF_COUNT_SW_CPU_CLOCK },
	{ "context-switches",	PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs",			PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",	PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations",		PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults",	PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults",		PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults",	PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults",	PERF_COUNT_SW_PAGE_FAULTS_MAJ },
};

static bool resolve_sw(struct pb_event *ev)
{
	size_t i;

	for (i = 0; i < sizeof(sw_names) / sizeof(sw_names[0]); i++) {
		if (strcmp(ev->name, sw_names[i].name))
			continue;
		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = sw_names[i].config;
		return true;
	}
	return false;
}

static const char *const tracefs_roots[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

/* Tracepoint id of "sys:name" from tracefs: >= 0, or -1. */
static long long tracepoint_id(const char *name)
{
	char sys[64], path[256], buf[32];
	const char *colon = strchr(name, ':');
	size_t i;

	if (!colon || (size_t)(colon - name) >= sizeof(sys) || strchr(colon + 1, ':'))
		return -1;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
	if (strchr(sys, '/') || strchr(colon + 1, '/'))
		return -1;
	for (i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs_roots[i], sys,
			 colon + 1);
		if (!read_line(path, buf, sizeof(buf)))
			return atoll(buf);
	}
	return -1;
}

const char *pb_tracefs_events(char *buf, size_t len)
{
	char path[256], id[32];
	size_t i;

	for (i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", tracefs_roots[i]);
		if (read_line(path, id, sizeof(id)))
			continue;
		snprintf(path, sizeof(path), "%s/events", tracefs_roots[i]);
		return pb_sys_path(buf, len, "%s", path) ? NULL : buf;
	}
	return NULL;
}

static bool tracefs_readable(void)
{
	char buf[512];

	return pb_tracefs_events(buf, sizeof(buf)) != NULL;
}

const char *pb_sw_event_name(int i)
{
	if (i < 0 || (size_t)i >= sizeof(sw_names) / sizeof(sw_names[0]))
		return NULL;
	return sw_names[i].name;
}

/* "sys:name", all lower case: could be a tracepoint, not a PMU event. */
static bool looks_like_tracepoint(const char *name)
{
	const char *colon = strchr(name, ':');
	const char *s;

	if (!colon || colon == name || !colon[1] || strchr(colon + 1, ':'))
		return false;
	for (s = name; *s; s++)
		if (s != colon && !islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_')
			return false;
	return true;
}

static bool resolve_tracepoint(struct pb_event *ev)
{
	long long id = tracepoint_id(ev->name);

	if (id < 0)
		return false;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)id;
	return true;
}

/* Intel fixed counters: cycles, instructions, ref-cycles (and raw forms). */
static bool fixed_capable(const struct perf_event_attr *a)
{
	uint64_t c = a->config & 0xffff;

	if (a->type == PERF_TYPE_HARDWARE)
		return a->config == PERF_COUNT_HW_CPU_CYCLES ||
		       a->config == PERF_COUNT_HW_INSTRUCTIONS ||
		       a->config == PERF_COUNT_HW_REF_CPU_CYCLES;
	if (a->type == PERF_TYPE_RAW)
		return c == 0x003c || c == 0x00c0 || c == 0x0300;
	return false;
}

static bool attr_is_hw(const struct perf_event_attr *a, int pmu_type)
{
	if (a->type == PERF_TYPE_SOFTWARE || a->type == PERF_TYPE_TRACEPOINT)
		return false;
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW || pmu_type == PFM_PMU_TYPE_CORE ||
	       a->type >= PERF_TYPE_MAX;
}

static int pfm_pmu_type_of(int idx)
{
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS ||
	    pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS)
		return -1;
	return pi.type;
}

/* 0; 1 not found by libpfm4; -1 other libpfm4 error (err set). */
static int resolve_pfm(struct pb_event *ev, char *err, size_t len)
{
	pfm_perf_encode_arg_t arg;
	int ret;

	memset(&arg, 0, sizeof(arg));
	arg.attr = &ev->attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(ev->name, PFM_PLM0 | PFM_PLM3,
					PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret == PFM_ERR_NOTFOUND)
		return 1;
	if (ret != PFM_SUCCESS) {
		snprintf(err, len, "event '%s': %s", ev->name, pfm_strerror(ret));
		return -1;
	}
	ev->hw = attr_is_hw(&ev->attr, pfm_pmu_type_of(arg.idx));
	return 0;
}

static void set_refused(struct pb_event *ev, int err, const char *why)
{
	ev->status = err;
	snprintf(ev->reason, sizeof(ev->reason), "%s", why);
}

static int resolve_event(struct pb_event *ev, char *err, size_t len)
{
	int ret;

	memset(&ev->attr, 0, sizeof(ev->attr));
	if (resolve_sw(ev) || resolve_tracepoint(ev))
		return 0;
	ret = resolve_pfm(ev, err, len);
	if (ret <= 0)
		return ret;
	if (looks_like_tracepoint(ev->name) && !tracefs_readable()) {
		set_refused(ev, ENOENT, "not supported: tracefs not readable "
			    "(mount -t tracefs nodev /sys/kernel/tracing)");
		return 0;
	}
	snprintf(err, len, "unknown event '%s' (see pinbench events)", ev->name);
	return -1;
}

/* ---- passes ---- */

struct pass_room {
	int	generic;
	bool	fixed_used[3];		/* cycles, instructions, ref-cycles */
};

static int fixed_slot(const struct perf_event_attr *a)
{
	uint64_t c = a->config & 0xffff;

	if (a->type == PERF_TYPE_HARDWARE)
		return a->config == PERF_COUNT_HW_CPU_CYCLES ? 0 :
		       a->config == PERF_COUNT_HW_INSTRUCTIONS ? 1 : 2;
	return c == 0x003c ? 0 : c == 0x00c0 ? 1 : 2;
}

/* Take a counter for ev in room r: true when it fits. */
static bool pass_take(struct pass_room *r, const struct pb_event *ev,
		      const struct pb_pmu_desc *pmu)
{
	int s = ev->fixed ? fixed_slot(&ev->attr) : -1;

	if (s >= 0 && s < pmu->fixed) {
		if (!r->fixed_used[s]) {
			r->fixed_used[s] = true;
			return true;
		}
		if (s == 2)		/* ref-cycles: its fixed counter only */
			return false;
	}
	if (r->generic <= 0)
		return false;
	r->generic--;
	return true;
}

static void split_passes(struct pb_evlist *l, const struct pb_pmu_desc *pmu)
{
	struct pass_room room[PB_MAX_EVENTS];
	int i, p;

	l->nr_passes = 1;
	for (p = 0; p < PB_MAX_EVENTS; p++)
		room[p] = (struct pass_room){ .generic = pmu->generic > 0 ? pmu->generic : 1 };
	for (i = 0; i < l->nr; i++) {
		struct pb_event *ev = &l->ev[i];

		ev->pass = 0;
		ev->fixed = ev->hw && pmu->fixed > 0 && fixed_capable(&ev->attr);
		if (!ev->hw)
			continue;
		for (p = 0; p < PB_MAX_EVENTS - 1; p++)
			if (pass_take(&room[p], ev, pmu))
				break;
		ev->pass = p;	/* an event no pass can take gets one alone */
		if (p + 1 > l->nr_passes)
			l->nr_passes = p + 1;
	}
}

/* ---- building the list ---- */

static int evlist_add(struct pb_evlist *l, const char *name, size_t n, char *err,
		      size_t len)
{
	struct pb_event *ev;

	while (n && isspace((unsigned char)*name)) {
		name++;
		n--;
	}
	while (n && isspace((unsigned char)name[n - 1]))
		n--;
	if (!n) {
		snprintf(err, len, "events: empty event name");
		return -1;
	}
	if (l->nr >= PB_MAX_EVENTS) {
		snprintf(err, len, "events: more than %d events", PB_MAX_EVENTS);
		return -1;
	}
	if (n >= sizeof(ev->name)) {
		snprintf(err, len, "events: name too long: '%.*s'", (int)n, name);
		return -1;
	}
	ev = &l->ev[l->nr++];
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%.*s", (int)n, name);
	return resolve_event(ev, err, len);
}

static int evlist_default(struct pb_evlist *l, const struct pb_pmu_desc *pmu, char *err,
			  size_t len)
{
	static const char *const sw[] = {
		"task-clock", "context-switches", "cpu-migrations", "page-faults",
	};
	static const char *const tp[] = { "sched:sched_wakeup", "sched:sched_waking" };
	static const char *const hw[] = {
		"cycles", "instructions", "ref-cycles", "cache-misses", "branch-misses",
	};
	size_t i;

	for (i = 0; i < sizeof(sw) / sizeof(sw[0]); i++)
		if (evlist_add(l, sw[i], strlen(sw[i]), err, len))
			return -1;
	/*
	 * sched_wakeup fires where the wakeup completes: for a remote wakeup
	 * (ttwu wake list) in the other CPU's context, so a per-task count
	 * misses it.  sched_waking always fires in the waker: wakeups/op
	 * comes from it (doc/measurements.md).
	 */
	for (i = 0; i < sizeof(tp) / sizeof(tp[0]); i++)
		if (tracepoint_id(tp[i]) >= 0 && evlist_add(l, tp[i], strlen(tp[i]), err, len))
			return -1;
	if (!pmu->usable)
		return 0;
	for (i = 0; i < sizeof(hw) / sizeof(hw[0]); i++) {
		if (!strcmp(hw[i], "ref-cycles") && pmu->fixed <= 0)
			continue;	/* no fixed reference-cycles counter (AMD) */
		if (!evlist_add(l, hw[i], strlen(hw[i]), err, len))
			continue;
		l->nr--;	/* "where supported": this PMU has no such event */
	}
	return 0;
}

int pb_evlist_build(struct pb_evlist *l, const char *spec, char *err, size_t len)
{
	struct pb_pmu_desc pmu;
	const char *s, *comma;

	memset(l, 0, sizeof(*l));
	l->nr_passes = 1;
	if (pb_counters_init(err, len))
		return -1;
	pb_core_pmu(&pmu);
	if (spec && !strcmp(spec, "none"))
		return 0;
	if (!spec || !*spec) {
		if (evlist_default(l, &pmu, err, len))
			return -1;
	} else {
		for (s = spec; ; s = comma + 1) {
			comma = strchr(s, ',');
			if (evlist_add(l, s, comma ? (size_t)(comma - s) : strlen(s), err, len))
				return -1;
			if (!comma)
				break;
		}
	}
	split_passes(l, &pmu);
	return 0;
}

void pb_evlist_pass_names(const struct pb_evlist *l, int pass, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < l->nr && off < len; i++) {
		if (l->ev[i].pass != pass)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
					l->ev[i].name);
	}
}

json_t *pb_evlist_json(const struct pb_evlist *l)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; arr && i < l->nr; i++) {
		const struct pb_event *ev = &l->ev[i];
		json_t *o = json_pack("{s:s, s:i, s:b, s:s}", "name", ev->name,
				      "pass", ev->pass, "hw", ev->hw,
				      "status", ev->status ? "not supported" : "ok");

		if (o && ev->status)
			json_object_set_new(o, "reason", json_string(ev->reason));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* ---- opening groups ---- */

struct fdgroup {
	int		nr;
	int		fd[PB_MAX_EVENTS];
	int		idx[PB_MAX_EVENTS];	/* event index in the list */
	uint64_t	id[PB_MAX_EVENTS];	/* 0: unknown, map by order */
};

struct pb_group {
	struct pb_evlist	*l;
	int			pass;
	struct fdgroup		grp[2];		/* software + tracepoints, hardware */
};

static void refusal_reason(const struct pb_event *ev, int e, int cpu, char *buf,
			   size_t len)
{
	const char *name = strerrorname_np(e) ? strerrorname_np(e) : "?";

	switch (e) {
	case ENOENT:
		snprintf(buf, len, "not supported: %s (ENOENT)",
			 ev->hw ? "no PMU" : "unknown to this kernel");
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, len, "not permitted: perf_event_paranoid=%d (%s)%s",
			 read_int("/proc/sys/kernel/perf_event_paranoid", 2), name,
			 cpu >= 0 ? ": system-wide counting needs paranoid <= 0 or "
				    "CAP_PERFMON" : "");
		break;
	case EOPNOTSUPP:
		snprintf(buf, len, "not supported: the PMU cannot do this "
			 "(EOPNOTSUPP)");
		break;
	default:
		snprintf(buf, len, "not supported: %s (%s)", strerror(e), name);
	}
}

static void fdgroup_close(struct fdgroup *fg)
{
	int k;

	for (k = fg->nr - 1; k >= 0; k--)
		close(fg->fd[k]);
	fg->nr = 0;
}

static long open_one(struct pb_event *ev, pid_t pid, int cpu, bool inherit, int group_fd)
{
	struct perf_event_attr a = ev->attr;

	a.size = sizeof(a);
	a.read_format = PB_READ_FORMAT;
	a.disabled = 0;
	a.inherit = inherit && pid >= 0;
	errno = 0;
	return pb_perf_event_open(&a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/*
 * Open event i into fg.  A sibling the kernel refuses with EINVAL/ENOSPC
 * but accepts alone cannot be scheduled with the group: it moves to the
 * next pass.  Returns 0, or -1 on a fatal error (EMFILE...).
 */
static int fdgroup_add(struct fdgroup *fg, struct pb_evlist *l, int i, pid_t pid,
		       int cpu, bool inherit)
{
	struct pb_event *ev = &l->ev[i];
	long fd = open_one(ev, pid, cpu, inherit, fg->nr ? fg->fd[0] : -1);
	int e = errno ? errno : EINVAL;

	if (fd < 0 && fg->nr && (e == EINVAL || e == ENOSPC)) {
		fd = open_one(ev, pid, cpu, inherit, -1);
		if (fd >= 0) {
			close((int)fd);
			ev->pass++;
			if (l->nr_passes < ev->pass + 1)
				l->nr_passes = ev->pass + 1;
			return 0;
		}
		e = errno ? errno : EINVAL;
	}
	if (fd < 0) {
		if (e == EMFILE || e == ENFILE || e == ENOMEM)
			return -1;
		ev->status = e;
		refusal_reason(ev, e, cpu, ev->reason, sizeof(ev->reason));
		return 0;
	}
	fg->fd[fg->nr] = (int)fd;
	fg->idx[fg->nr] = i;
	if (ioctl((int)fd, PERF_EVENT_IOC_ID, &fg->id[fg->nr]) < 0)
		fg->id[fg->nr] = 0;
	fg->nr++;
	return 0;
}

/*
 * task-clock and cpu-clock are hrtimer events of their own PMU: with one
 * of them leading the software group, a context-switches sibling never
 * counts (seen on 6.18).  So the clocks open last, as siblings.
 */
static bool is_clock(const struct pb_event *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

struct pb_group *pb_group_open(struct pb_evlist *l, int pass, pid_t pid, int cpu,
			       bool inherit, char *err, size_t len)
{
	struct pb_group *g = calloc(1, sizeof(*g));
	int i;

	if (!g) {
		snprintf(err, len, "counters: out of memory");
		return NULL;
	}
	g->l = l;
	g->pass = pass;
	for (i = 0; i < 2 * l->nr; i++) {
		struct pb_event *ev = &l->ev[i % l->nr];

		if (ev->pass != pass || ev->status || is_clock(ev) != (i >= l->nr))
			continue;
		if (fdgroup_add(&g->grp[ev->hw], l, i % l->nr, pid, cpu, inherit) < 0) {
			snprintf(err, len, "counters: opening %s: %s", ev->name,
				 strerror(errno));
			pb_group_close(g);
			return NULL;
		}
	}
	return g;
}

void pb_group_close(struct pb_group *g)
{
	if (!g)
		return;
	fdgroup_close(&g->grp[1]);
	fdgroup_close(&g->grp[0]);
	free(g);
}

/* ---- reading ---- */

/* Position of slot k's value in a group read buffer of n entries: or -1. */
static int value_pos(const struct fdgroup *fg, const uint64_t *b, uint64_t n, int k)
{
	uint64_t j;

	if (!fg->id[k])
		return (uint64_t)k < n ? k : -1;
	for (j = 0; j < n; j++)
		if (b[3 + 2 * j + 1] == fg->id[k])
			return (int)j;
	return -1;
}

static int fdgroup_read(const struct fdgroup *fg, struct pb_count *out)
{
	uint64_t b[3 + 2 * PB_MAX_EVENTS];
	ssize_t n;
	uint64_t nr;
	int k;

	if (!fg->nr)
		return 0;
	n = pb_counters_read_fd(fg->fd[0], b, sizeof(b));
	if (n < 0)
		return -1;
	if (n < 3 * 8) {
		errno = EIO;
		return -1;
	}
	nr = b[0];
	if (nr > PB_MAX_EVENTS || (size_t)n < (3 + 2 * nr) * 8) {
		errno = EIO;
		return -1;
	}
	for (k = 0; k < fg->nr; k++) {
		struct pb_count *c = &out[fg->idx[k]];
		int j = value_pos(fg, b, nr, k);

		if (j < 0)
			continue;	/* stays not counted */
		c->value = b[3 + 2 * j];
		c->enabled = b[1];
		c->running = b[2];
		c->status = c->running ? PB_CNT_OK : PB_CNT_NOT_COUNTED;
	}
	return 0;
}

int pb_group_read(struct pb_group *g, struct pb_count *out)
{
	const struct pb_evlist *l = g->l;
	int i;

	for (i = 0; i < l->nr; i++) {
		const struct pb_event *ev = &l->ev[i];

		out[i] = (struct pb_count){ .status = PB_CNT_NOT_COUNTED };
		if (ev->status)
			out[i].status = PB_CNT_UNSUPPORTED;
		else if (ev->pass != g->pass)
			out[i].status = PB_CNT_OTHER_PASS;
	}
	if (fdgroup_read(&g->grp[0], out) || fdgroup_read(&g->grp[1], out))
		return -1;
	return 0;
}

/* ---- deltas, scaling, anomalies ---- */

void pb_count_delta(const struct pb_count *start, const struct pb_count *end,
		    struct pb_count *d, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		d[i].value = end[i].value - start[i].value;
		d[i].enabled = end[i].enabled - start[i].enabled;
		d[i].running = end[i].running - start[i].running;
		d[i].status = end[i].status;
		if (d[i].status == PB_CNT_OK && !d[i].running)
			d[i].status = PB_CNT_NOT_COUNTED;
	}
}

double pb_count_scaled(const struct pb_count *c)
{
	if (c->running == c->enabled)
		return (double)c->value;
	if (!c->running)
		return NAN;
	return (double)c->value * (double)c->enabled / (double)c->running;
}

/* 100 * running / enabled (100 when enabled is 0). */
static double pb_count_percent(const struct pb_count *c)
{
	if (!c->enabled)
		return 100.0;
	return 100.0 * (double)c->running / (double)c->enabled;
}

void pb_count_percent_str(const struct pb_count *c, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f %%", pb_count_percent(c));
}

#define MUX_ADVICE "fewer events per pass; sysctl kernel.nmi_watchdog=0; " \
		   "stop other users of the PMU (perf record, pinned events)"

static void check_one(const struct pb_event *ev, const struct pb_count *c,
		      const char *who, struct pb_anomalies *a)
{
	char pct[32];
	double p;

	if (!c->enabled || c->running >= c->enabled)
		return;
	if (c->status == PB_CNT_NOT_COUNTED || !c->running) {
		pb_anomaly_add(a, PB_AN_COUNTER_MULTIPLEXED, PB_SEV_ERROR, MUX_ADVICE,
			       "%s: %s never counted: running 0 of %llu ns enabled",
			       who, ev->name, (unsigned long long)c->enabled);
		return;
	}
	if (c->status != PB_CNT_OK)
		return;
	p = pb_count_percent(c);
	if (p >= 99.0)
		return;
	pb_count_percent_str(c, pct, sizeof(pct));
	pb_anomaly_add(a, PB_AN_COUNTER_MULTIPLEXED, p < 50.0 ? PB_SEV_ERROR : PB_SEV_WARN,
		       MUX_ADVICE, "%s: %s counted %s of the time (time-shared): "
		       "%llu raw, %.0f scaled estimate", who, ev->name, pct,
		       (unsigned long long)c->value, pb_count_scaled(c));
}

void pb_counts_check(const struct pb_evlist *l, const struct pb_count *c,
		     const char *who, struct pb_anomalies *a)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (c[i].status == PB_CNT_OK || c[i].status == PB_CNT_NOT_COUNTED)
			check_one(&l->ev[i], &c[i], who, a);
}

void pb_counts_zero(const struct pb_evlist *l, struct pb_count *acc)
{
	int i;

	for (i = 0; i < l->nr; i++)
		acc[i] = (struct pb_count){ .status = PB_CNT_OK };
}

void pb_counts_add(const struct pb_evlist *l, struct pb_count *acc,
		   const struct pb_count *c)
{
	int i;

	for (i = 0; i < l->nr; i++) {
		if (acc[i].status != PB_CNT_OK)
			continue;
		if (c[i].status != PB_CNT_OK) {
			acc[i].status = c[i].status;
			continue;
		}
		acc[i].value += c[i].value;
		acc[i].enabled += c[i].enabled;
		acc[i].running += c[i].running;
	}
}

/* ---- JSON ---- */

json_t *pb_count_json(const struct pb_event *ev, const struct pb_count *c)
{
	json_t *o;

	switch (c->status) {
	case PB_CNT_UNSUPPORTED:
		return json_pack("{s:s, s:s}", "status", "not supported", "reason",
				 ev->reason[0] ? ev->reason : "refused by the kernel");
	case PB_CNT_NOT_COUNTED:
		return json_pack("{s:s}", "status", "not counted");
	case PB_CNT_OTHER_PASS:
		return json_pack("{s:s, s:i}", "status", "other pass", "pass", ev->pass);
	default:
		break;
	}
	o = json_pack("{s:I, s:I, s:I}", "value", (json_int_t)c->value,
		      "enabled_ns", (json_int_t)c->enabled,
		      "running_ns", (json_int_t)c->running);
	if (o && c->running < c->enabled) {
		json_object_set_new(o, "scaled", json_real(pb_count_scaled(c)));
		json_object_set_new(o, "percent",
				    json_real(round(pb_count_percent(c) * 100.0) / 100.0));
	}
	return o;
}

