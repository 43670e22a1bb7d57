// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_counters.c - the counters module: names (software, tracepoints,
 * libpfm4), passes against forced PMU models (skl, a 4-counter AMD),
 * groups and reads through a fake kernel (recorded read() buffers),
 * honest scaling and its anomalies, JSON, derived figures, and the real
 * kernel: software events and tracepoints counting, cycles refused where
 * it has no PMU and counted where it has one.  A real-kernel test this
 * process may not run (perf_event_paranoid, no tracefs and not root) is a
 * skip that says why.
 *
 * Forced PMU models need their own process (libpfm4 initialises once):
 * those groups run in forked children.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "skip.h"

#include "sys/counters.h"
#include "sys/derived.h"
#include "lib/anomaly.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <perfmon/pfmlib_perf_event.h>

/* ---- a fake sysroot ---- */

static char sysroot[64];

static void put_file(const char *rel, const char *text)
{
	char path[256], dir[256], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", sysroot, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (s = dir + strlen(sysroot) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(dir, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sysroot_make(int watchdog, int paranoid)
{
	char buf[32];

	snprintf(sysroot, sizeof(sysroot), "/tmp/pbct.XXXXXX");
	assert_non_null(mkdtemp(sysroot));
	snprintf(buf, sizeof(buf), "%d\n", watchdog);
	put_file("/proc/sys/kernel/nmi_watchdog", buf);
	snprintf(buf, sizeof(buf), "%d\n", paranoid);
	put_file("/proc/sys/kernel/perf_event_paranoid", buf);
	put_file("/proc/cpuinfo", "vendor_id\t: GenuineIntel\ncpu family\t: 6\n"
		 "model\t\t: 85\nflags\t\t: fpu tsc hypervisor\n");
	setenv("PINBENCH_SYSROOT", sysroot, 1);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static void sysroot_drop(void)
{
	unsetenv("PINBENCH_SYSROOT");
	if (sysroot[0])
		nftw(sysroot, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	sysroot[0] = '\0';
}

/* ---- a fake kernel ---- */

struct fake_ev {
	struct perf_event_attr	attr;
	pid_t			pid;
	int			cpu;
	int			group_fd;
	int			fd;
};

static struct fake_ev fk[64];
static int fk_nr;
static int (*fk_policy)(const struct perf_event_attr *a, int group_fd);

static long fake_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		      unsigned long flags)
{
	int e = fk_policy ? fk_policy(attr, group_fd) : 0;
	int fd;

	(void)flags;
	if (e) {
		errno = e;
		return -1;
	}
	fd = eventfd(0, EFD_CLOEXEC);
	if (fd >= 0 && fk_nr < 64)
		fk[fk_nr++] = (struct fake_ev){ *attr, pid, cpu, group_fd, fd };
	return fd;
}

struct fake_buf {
	int		fd;
	uint64_t	b[3 + 2 * PB_MAX_EVENTS];
	size_t		len;
};

static struct fake_buf fb[8];
static int fb_nr;

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	int i;

	for (i = 0; i < fb_nr; i++) {
		if (fb[i].fd != fd)
			continue;
		if (len < fb[i].len)
			break;
		memcpy(buf, fb[i].b, fb[i].len);
		return (ssize_t)fb[i].len;
	}
	errno = EBADF;
	return -1;
}

/* A group read buffer for leader fd: n values, ids 0 (mapped by order). */
static void fake_buf_set(int fd, uint64_t te, uint64_t tr, int n, const uint64_t *v)
{
	struct fake_buf *f = &fb[fb_nr++];
	int k;

	f->fd = fd;
	f->b[0] = (uint64_t)n;
	f->b[1] = te;
	f->b[2] = tr;
	for (k = 0; k < n; k++) {
		f->b[3 + 2 * k] = v[k];
		f->b[4 + 2 * k] = 0;
	}
	f->len = (3 + 2 * (size_t)n) * 8;
}

static bool is_hw_attr(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_RAW ||
	       a->type == PERF_TYPE_HW_CACHE;
}

static int policy_no_pmu(const struct perf_event_attr *a, int group_fd)
{
	(void)group_fd;
	return is_hw_attr(a) ? ENOENT : 0;
}

static int policy_all_refused(const struct perf_event_attr *a, int group_fd)
{
	(void)a;
	(void)group_fd;
	return EACCES;
}

static int policy_eacces(const struct perf_event_attr *a, int group_fd)
{
	(void)group_fd;
	return is_hw_attr(a) ? EACCES : 0;
}

static int policy_eopnotsupp(const struct perf_event_attr *a, int group_fd)
{
	(void)group_fd;
	return is_hw_attr(a) ? EOPNOTSUPP : 0;
}

/* The kernel cannot schedule instructions together with the group. */
static int policy_group_full(const struct perf_event_attr *a, int group_fd)
{
	return group_fd >= 0 && a->type == PERF_TYPE_HARDWARE &&
	       a->config == PERF_COUNT_HW_INSTRUCTIONS ? EINVAL : 0;
}

static int fake_setup(void **state)
{
	(void)state;
	pb_perf_event_open = fake_open;
	pb_counters_read_fd = fake_read;
	fk_policy = NULL;
	fk_nr = 0;
	fb_nr = 0;
	return 0;
}

/* The real syscall and read, saved before any test swaps them. */
static long (*real_open)(struct perf_event_attr *, pid_t, int, int, unsigned long);
static ssize_t (*real_read)(int, void *, size_t);

static int real_setup(void **state)
{
	(void)state;
	pb_perf_event_open = real_open;
	pb_counters_read_fd = real_read;
	return 0;
}

static int restore(void **state)
{
	(void)state;
	pb_perf_event_open = real_open;
	pb_counters_read_fd = real_read;
	sysroot_drop();
	return 0;
}

/* ---- helpers ---- */

static int ev_index(const struct pb_evlist *l, const char *name)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->ev[i].name, name))
			return i;
	return -1;
}

static void build_ok(struct pb_evlist *l, const char *spec)
{
	char err[256] = "";
	int ret = pb_evlist_build(l, spec, err, sizeof(err));

	if (ret)
		fail_msg("pb_evlist_build(%s): %s", spec ? spec : "default", err);
}

static int fake_find(uint32_t type, uint64_t config)
{
	int i;

	for (i = 0; i < fk_nr; i++)
		if (fk[i].attr.type == type && fk[i].attr.config == config)
			return i;
	return -1;
}

static const struct pb_figure *figure(const struct pb_figures *f, const char *name)
{
	int i;

	for (i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

/* ---- names ---- */

static void test_typo_is_error(void **state)
{
	struct pb_evlist l;
	char err[256] = "";

	(void)state;
	assert_int_equal(pb_evlist_build(&l, "task-clock,cyclez", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'cyclez'"));
	assert_int_equal(pb_evlist_build(&l, "task-clock,,cs", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
	assert_int_equal(pb_evlist_build(&l, "none", err, sizeof(err)), 0);
	assert_int_equal(l.nr, 0);
	assert_int_equal(l.nr_passes, 1);
}

static void test_software_names(void **state)
{
	static const struct { const char *name; unsigned config; } want[] = {
		{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
		{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	};
	struct pb_evlist l;
	size_t i;

	(void)state;
	build_ok(&l, " task-clock, cpu-clock,cs,migrations,faults,minor-faults,major-faults");
	assert_int_equal(l.nr, 7);
	assert_int_equal(l.nr_passes, 1);
	for (i = 0; i < 7; i++) {
		assert_string_equal(l.ev[i].name, want[i].name);
		assert_int_equal(l.ev[i].attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(l.ev[i].attr.config, want[i].config);
		assert_false(l.ev[i].hw);
		assert_int_equal(l.ev[i].pass, 0);
	}
}

static void test_tracepoint_without_tracefs(void **state)
{
	struct pb_evlist l;

	(void)state;
	sysroot_make(0, 2);	/* a root with no tracefs in it */
	build_ok(&l, "sched:sched_wakeup,task-clock");
	assert_int_equal(l.ev[0].status, ENOENT);
	assert_non_null(strstr(l.ev[0].reason, "tracefs not readable"));
	build_ok(&l, NULL);
	assert_int_equal(ev_index(&l, "sched:sched_wakeup"), -1);
	sysroot_drop();
}

/*
 * With a (fake) kernel that accepts cycles, the default set has hardware
 * events when libpfm4 knows this CPU's core PMU; when it does not, none,
 * and the reason says so.  (The forced models check both without this
 * CPU: the default set itself needs libpfm4's generic PMU, which a forced
 * model turns off.)
 */
static void test_default_set_with_pmu(void **state)
{
	struct pb_pmu_desc d;
	struct pb_evlist l;
	int i;

	(void)state;
	sysroot_make(0, 2);
	put_file("/proc/cpuinfo", "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
		 "flags\t\t: fpu tsc\n");
	pb_core_pmu(&d);
	build_ok(&l, NULL);
	if (!d.known) {
		assert_false(d.usable);
		assert_int_equal(ev_index(&l, "cycles"), -1);
		assert_non_null(strstr(d.why, "unknown CPU model: libpfm4 has no core PMU for "
				       "GenuineIntel family 6 model 85"));
		return;
	}
	assert_true(d.usable);
	assert_true(ev_index(&l, "cycles") > 0);
	assert_true(ev_index(&l, "instructions") > 0);
	assert_true(ev_index(&l, "cache-misses") > 0);
	assert_true(ev_index(&l, "branch-misses") > 0);
	assert_int_equal(ev_index(&l, "ref-cycles") > 0, d.fixed > 0);
	for (i = 0; i < l.nr; i++)
		assert_true(l.ev[i].hw || l.ev[i].pass == 0);
	assert_true(l.ev[ev_index(&l, "cycles")].hw);
}

static void test_default_set_here(void **state)
{
	struct pb_pmu_desc d;
	struct pb_evlist l;

	(void)state;
	build_ok(&l, NULL);
	pb_core_pmu(&d);
	assert_int_equal(ev_index(&l, "task-clock"), 0);
	assert_int_equal(ev_index(&l, "context-switches"), 1);
	assert_int_equal(ev_index(&l, "cpu-migrations"), 2);
	assert_int_equal(ev_index(&l, "page-faults"), 3);
	if (d.usable) {
		assert_true(ev_index(&l, "cycles") > 0);
	} else {
		assert_int_equal(ev_index(&l, "cycles"), -1);
		assert_true(d.why[0] != '\0');
	}
}

/* ---- the real kernel ---- */

/*
 * May this process count kernel-side software events on itself, as
 * pinbench opens them (kernel and user)?  0, or the errno with the reason
 * in why.  perf_event_paranoid >= 2 forbids it to an unprivileged user.
 */
static int counting_refused(char *why, size_t len)
{
	struct perf_event_attr a;
	char level[16] = "?";
	long fd;
	FILE *f;
	int e;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close((int)fd);
		return 0;
	}
	e = errno;
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%15s", level) != 1)
			snprintf(level, sizeof(level), "?");
		fclose(f);
	}
	snprintf(why, len, "the kernel refuses to count this process' context switches "
		 "(%s, perf_event_paranoid=%s): needs root, CAP_PERFMON or "
		 "perf_event_paranoid <= 1", strerrorname_np(e) ? strerrorname_np(e) : "?",
		 level);
	return e;
}

/* In a test on the real kernel: skip, saying why, when it may not count. */
#define NEED_COUNTING()						\
	do {							\
		char why_[256];					\
								\
		if (counting_refused(why_, sizeof(why_))) {	\
			skip_why("%s", why_);			\
			return;					\
		}						\
	} while (0)

static void do_some_work(void)
{
	struct timespec ts = { 0, 1000000 };
	size_t len = 64 * 4096, i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	assert_true(p != MAP_FAILED);
	for (i = 0; i < len; i += 4096)
		p[i] = 1;		/* page faults */
	munmap(p, len);
	nanosleep(&ts, NULL);		/* a context switch */
}

static void test_real_self(void **state)
{
	struct pb_count a[PB_MAX_EVENTS], b[PB_MAX_EVENTS], d[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_group *g;
	char err[256];
	int tc, cs, pf;

	(void)state;
	NEED_COUNTING();
	build_ok(&l, NULL);
	g = pb_group_open(&l, 0, 0, -1, true, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(pb_group_read(g, a), 0);
	do_some_work();
	assert_int_equal(pb_group_read(g, b), 0);
	pb_group_close(g);
	pb_count_delta(a, b, d, l.nr);
	tc = ev_index(&l, "task-clock");
	cs = ev_index(&l, "context-switches");
	pf = ev_index(&l, "page-faults");
	assert_int_equal(d[tc].status, PB_CNT_OK);
	assert_true(d[tc].value > 0);
	assert_int_equal(d[cs].status, PB_CNT_OK);
	assert_true(d[cs].value >= 1);
	assert_int_equal(d[pf].status, PB_CNT_OK);
	assert_true(d[pf].value >= 64);
	assert_true(d[tc].running > 0 && d[tc].running <= d[tc].enabled);
}

static void test_real_child(void **state)
{
	struct pb_count a[PB_MAX_EVENTS], b[PB_MAX_EVENTS], d[PB_MAX_EVENTS];
	int to[2], from[2], cs, tc;
	struct pb_evlist l;
	struct pb_group *g;
	char err[256], c = 'x';
	pid_t pid;

	(void)state;
	NEED_COUNTING();
	build_ok(&l, "task-clock,context-switches,cpu-migrations,page-faults");
	assert_int_equal(pipe(to), 0);
	assert_int_equal(pipe(from), 0);
	pid = fork();
	if (!pid) {
		struct timespec ts = { 0, 1000000 };

		if (read(to[0], &c, 1) == 1)
			nanosleep(&ts, NULL);
		_exit(write(from[1], &c, 1) == 1 && read(to[0], &c, 1) == 1 ? 0 : 1);
	}
	g = pb_group_open(&l, 0, pid, -1, true, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(pb_group_read(g, a), 0);
	assert_int_equal(write(to[1], &c, 1), 1);
	assert_int_equal(read(from[0], &c, 1), 1);
	assert_int_equal(pb_group_read(g, b), 0);
	assert_int_equal(write(to[1], &c, 1), 1);
	waitpid(pid, NULL, 0);
	pb_group_close(g);
	close(to[0]); close(to[1]); close(from[0]); close(from[1]);
	pb_count_delta(a, b, d, l.nr);
	tc = ev_index(&l, "task-clock");
	cs = ev_index(&l, "context-switches");
	assert_int_equal(d[tc].status, PB_CNT_OK);
	assert_true(d[tc].value > 0);
	assert_true(d[cs].value >= 1);
}

/* No PMU here (or a fake kernel without one): cycles is refused, the rest counts. */
static void check_no_pmu(bool fake)
{
	const uint64_t v0[] = { 1, 1000 }, v1[] = { 2, 2000 };
	struct pb_count a[PB_MAX_EVENTS], b[PB_MAX_EVENTS], d[PB_MAX_EVENTS];
	struct pb_figures f;
	struct pb_evlist l;
	struct pb_group *g;
	char err[256];
	json_t *j;
	int cyc;

	build_ok(&l, "task-clock,context-switches,cycles,instructions");
	cyc = ev_index(&l, "cycles");
	fk_nr = 0;
	g = pb_group_open(&l, 0, 0, -1, true, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(l.ev[cyc].status, ENOENT);
	assert_string_equal(l.ev[cyc].reason, "not supported: no PMU (ENOENT)");
	if (fake)
		fake_buf_set(fk[0].fd, 1000, 1000, 2, v0);
	assert_int_equal(pb_group_read(g, a), 0);
	do_some_work();
	if (fake) {
		fb_nr = 0;
		fake_buf_set(fk[0].fd, 2000, 2000, 2, v1);
	}
	assert_int_equal(pb_group_read(g, b), 0);
	pb_group_close(g);
	pb_count_delta(a, b, d, l.nr);
	assert_int_equal(d[cyc].status, PB_CNT_UNSUPPORTED);
	assert_int_equal(d[0].status, PB_CNT_OK);
	j = pb_count_json(&l.ev[cyc], &d[cyc]);
	assert_string_equal(json_string_value(json_object_get(j, "status")), "not supported");
	assert_string_equal(json_string_value(json_object_get(j, "reason")),
			    "not supported: no PMU (ENOENT)");
	json_decref(j);
	pb_derive(&l, d, 10, 3000, &f);
	assert_null(figure(&f, "IPC"));
	assert_null(figure(&f, "cycles/op"));
	assert_null(figure(&f, "effective-GHz"));
	assert_non_null(figure(&f, "task-clock/op"));
}

/* A PMU here: cycles and instructions count, with the software events. */
static void check_pmu_counts(void)
{
	struct pb_count a[PB_MAX_EVENTS], b[PB_MAX_EVENTS], d[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_group *g;
	char err[256];
	int cyc, ins;

	build_ok(&l, "task-clock,context-switches,cycles,instructions");
	cyc = ev_index(&l, "cycles");
	ins = ev_index(&l, "instructions");
	g = pb_group_open(&l, 0, 0, -1, true, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(l.ev[cyc].status, 0);
	assert_true(l.ev[cyc].hw);
	assert_int_equal(pb_group_read(g, a), 0);
	do_some_work();
	assert_int_equal(pb_group_read(g, b), 0);
	pb_group_close(g);
	pb_count_delta(a, b, d, l.nr);
	assert_int_equal(d[0].status, PB_CNT_OK);
	assert_int_equal(d[cyc].status, PB_CNT_OK);
	assert_true(d[cyc].value > 0);
	if (l.ev[ins].pass == l.ev[cyc].pass)
		assert_true(d[ins].value > 0);
}

/*
 * What the real kernel says to cycles on this process: "no PMU" (ENOENT)
 * where it has none, counts where it has one; both are checked, whichever
 * this machine is (the fake-kernel test covers "no PMU" everywhere).
 */
static void test_real_cycles(void **state)
{
	struct perf_event_attr a;
	long fd;
	int e;

	(void)state;
	NEED_COUNTING();
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	e = fd < 0 ? errno : 0;
	if (fd >= 0)
		close((int)fd);
	if (e == ENOENT) {
		check_no_pmu(false);
	} else if (!e) {
		check_pmu_counts();
	} else {
		skip_why("the kernel refuses cycles with %s, neither \"no PMU\" (ENOENT) "
			 "nor counting", strerrorname_np(e) ? strerrorname_np(e) : "?");
	}
}

static void test_fake_cycles_not_supported(void **state)
{
	(void)state;
	fk_policy = policy_no_pmu;
	check_no_pmu(true);
}

/* ---- tracepoints on the real kernel, tracefs mounted in a private namespace ---- */

/* 1 blocked (S), 0 not yet, -1 gone */
static int blocked(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	if (!p || p[1] != ' ')
		return -1;
	return p[2] == 'S' ? 1 : p[2] == 'Z' ? -1 : 0;
}

/* Wake a child blocked in read(): one sched_wakeup by us. */
static int wake_a_child(void)
{
	int fds[2], st;
	char c = 'x';
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid)
		_exit(read(fds[0], &c, 1) == 1 ? 0 : 1);
	while (!(st = blocked(pid)))
		sched_yield();
	if (st < 0 || write(fds[1], &c, 1) != 1)
		return -1;
	waitpid(pid, NULL, 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int tracepoint_counts(void)
{
	struct pb_count a[PB_MAX_EVENTS], b[PB_MAX_EVENTS], d[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_group *g;
	char err[256];

	if (pb_evlist_build(&l, NULL, err, sizeof(err)) || ev_index(&l, "sched:sched_wakeup") < 0 ||
	    ev_index(&l, "sched:sched_waking") < 0)
		return 10;
	if (pb_evlist_build(&l, "sched:no_such_tracepoint", err, sizeof(err)) != -1)
		return 11;
	if (pb_evlist_build(&l, "sched:sched_wakeup,sched:sched_switch,sched:sched_waking", err,
			    sizeof(err)) || l.ev[0].attr.type != PERF_TYPE_TRACEPOINT ||
	    l.ev[0].hw || l.ev[0].status)
		return 12;
	g = pb_group_open(&l, 0, 0, -1, true, err, sizeof(err));
	if (!g || pb_group_read(g, a))
		return 13;
	if (wake_a_child() || pb_group_read(g, b))
		return 14;
	pb_group_close(g);
	pb_count_delta(a, b, d, l.nr);
	if (d[0].status != PB_CNT_OK || d[0].value < 1)
		return 15;
	if (d[1].status != PB_CNT_OK || d[1].value < 1)
		return 16;
	if (d[2].status != PB_CNT_OK || d[2].value < 1)
		return 17;
	return 0;
}

/*
 * Count tracepoints on the real tracefs when it is readable here, else on
 * one mounted in a private mount namespace (root only).  77 with the
 * reason in why[256] when neither is possible.
 */
static int tracepoint_child(char *why)
{
	char root[64] = "/tmp/pbtp.XXXXXX", tr[128], buf[512];
	const char *step = "unshare(CLONE_NEWNS)";
	cpu_set_t one;
	int ret, e;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return 18;	/* the woken child inherits it: a local wakeup */
	unsetenv("PINBENCH_SYSROOT");
	if (pb_tracefs_events(buf, sizeof(buf)))
		return tracepoint_counts();
	if (!unshare(CLONE_NEWNS)) {
		step = "making / private";
		if (!mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL)) {
			step = "mkdtemp";
			if (mkdtemp(root))
				step = NULL;
		}
	}
	if (step) {
		e = errno;
		snprintf(why, 256, "tracefs is not readable here and cannot be mounted "
			 "privately: %s: %s%s", step, strerrorname_np(e) ? strerrorname_np(e) : "?",
			 e == EPERM ? " (needs root)" : "");
		return 77;
	}
	snprintf(tr, sizeof(tr), "%s/sys", root);
	mkdir(tr, 0755);
	snprintf(tr, sizeof(tr), "%s/sys/kernel", root);
	mkdir(tr, 0755);
	snprintf(tr, sizeof(tr), "%s/sys/kernel/tracing", root);
	mkdir(tr, 0755);
	if (mount("nodev", tr, "tracefs", 0, NULL)) {
		e = errno;
		snprintf(why, 256, "tracefs is not readable here and cannot be mounted: %s",
			 strerrorname_np(e) ? strerrorname_np(e) : "?");
		ret = 77;
	} else {
		setenv("PINBENCH_SYSROOT", root, 1);
		ret = tracepoint_counts();
		umount(tr);
	}
	rmdir(tr);
	snprintf(tr, sizeof(tr), "%s/sys/kernel", root);
	rmdir(tr);
	snprintf(tr, sizeof(tr), "%s/sys", root);
	rmdir(tr);
	rmdir(root);
	return ret;
}

static void test_real_tracepoints(void **state)
{
	char why[256];
	char *shared;
	int st = 0;
	pid_t pid;

	(void)state;
	NEED_COUNTING();
	shared = mmap(NULL, sizeof(why), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	assert_true(shared != MAP_FAILED);
	shared[0] = '\0';
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (!pid)
		_exit(tracepoint_child(shared));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	snprintf(why, sizeof(why), "%s", shared);
	munmap(shared, sizeof(why));
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77) {
		skip_why("%s", why);
		return;
	}
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* ---- groups through the fake kernel ---- */

static struct pb_group *open_fake4(struct pb_evlist *l, bool inherit)
{
	struct pb_group *g;
	char err[256];

	build_ok(l, "task-clock,context-switches,cycles,instructions");
	fk_nr = 0;
	g = pb_group_open(l, 0, 1234, -1, inherit, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(fk_nr, 4);
	return g;
}

/*
 * The hold: a disabled, not inherited dummy event on the calling task
 * (pid 0, any CPU), so the roles it forks count nothing; -1 when refused.
 */
static void test_counters_hold(void **state)
{
	int fd;

	(void)state;
	fd = pb_counters_hold();
	assert_true(fd >= 0);
	assert_int_equal(fk_nr, 1);
	assert_int_equal(fk[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(fk[0].attr.config, PERF_COUNT_SW_DUMMY);
	assert_true(fk[0].attr.disabled);
	assert_false(fk[0].attr.inherit);
	assert_int_equal(fk[0].pid, 0);
	assert_int_equal(fk[0].cpu, -1);
	assert_int_equal(fk[0].group_fd, -1);
	close(fd);
	fk_policy = policy_all_refused;
	assert_int_equal(pb_counters_hold(), -1);
}

static void test_group_layout(void **state)
{
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	struct pb_evlist l;
	struct pb_group *g;
	int i;

	(void)state;
	g = open_fake4(&l, true);
	/*
	 * software group led by context-switches (a task-clock leader keeps
	 * it from counting), hardware group led by cycles
	 */
	assert_int_equal(fake_find(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES), 0);
	assert_int_equal(fake_find(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), 1);
	assert_int_equal(fake_find(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), 2);
	assert_int_equal(fake_find(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK), 3);
	assert_int_equal(fk[0].group_fd, -1);
	assert_int_equal(fk[1].group_fd, -1);
	assert_int_equal(fk[2].group_fd, fk[1].fd);
	assert_int_equal(fk[3].group_fd, fk[0].fd);
	for (i = 0; i < 4; i++) {
		assert_int_equal(fk[i].attr.read_format, rf);
		assert_int_equal(fk[i].attr.disabled, 0);
		assert_int_equal(fk[i].attr.inherit, 1);
		assert_int_equal(fk[i].pid, 1234);
		assert_int_equal(fk[i].cpu, -1);
	}
	pb_group_close(g);
	fk_nr = 0;
	g = pb_group_open(&l, 0, -1, 1, true, (char[64]){ 0 }, 64);	/* counters=cpu */
	assert_non_null(g);
	assert_int_equal(fk[0].pid, -1);
	assert_int_equal(fk[0].cpu, 1);
	assert_int_equal(fk[0].attr.inherit, 0);
	pb_group_close(g);
}

static void test_group_read_scaled(void **state)
{
	const uint64_t sw[] = { 3, 500000 }, hw[] = { 2000, 4000 };
	struct pb_anomalies an = { 0 };
	struct pb_count c[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_group *g;
	char s[64];
	int i;

	(void)state;
	g = open_fake4(&l, false);
	fake_buf_set(fk[0].fd, 1000, 1000, 2, sw);	/* context-switches, task-clock */
	fake_buf_set(fk[1].fd, 3000, 2000, 2, hw);
	assert_int_equal(pb_group_read(g, c), 0);
	pb_group_close(g);
	assert_int_equal(c[0].value, 500000);	/* task-clock, mapped by slot */
	assert_int_equal(c[1].value, 3);
	assert_int_equal(c[1].running, 1000);
	assert_int_equal(c[2].value, 2000);
	assert_int_equal(c[3].value, 4000);
	assert_int_equal(c[3].enabled, 3000);
	assert_int_equal(c[3].running, 2000);
	assert_int_equal(c[2].status, PB_CNT_OK);
	assert_true(fabs(pb_count_scaled(&c[2]) - 3000.0) < 1e-9);
	pb_count_percent_str(&c[2], s, sizeof(s));
	assert_string_equal(s, "66.67 %");
	pb_counts_check(&l, c, "writer/0", &an);
	assert_int_equal(an.nr, 2);		/* cycles and instructions */
	for (i = 0; i < an.nr; i++) {
		assert_string_equal(an.v[i].kind, "counter-multiplexed");
		assert_int_equal(an.v[i].sev, PB_SEV_WARN);
		assert_non_null(strstr(an.v[i].message, "writer/0"));
		assert_non_null(strstr(an.v[i].message, "66.67 %"));
	}
	pb_anomalies_free(&an);
}

static void test_group_read_not_counted_other_pass(void **state)
{
	const uint64_t sw[] = { 0, 0 };
	struct pb_count c[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_group *g;
	char err[64];

	(void)state;
	build_ok(&l, "task-clock,context-switches,cycles");
	l.ev[2].pass = 1;	/* as if split */
	l.nr_passes = 2;
	fk_nr = 0;
	g = pb_group_open(&l, 0, 0, -1, false, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(fk_nr, 2);	/* cycles is not opened in pass 0 */
	fake_buf_set(fk[0].fd, 5000, 0, 2, sw);
	assert_int_equal(pb_group_read(g, c), 0);
	pb_group_close(g);
	assert_int_equal(c[0].status, PB_CNT_NOT_COUNTED);
	assert_int_equal(c[1].status, PB_CNT_NOT_COUNTED);
	assert_int_equal(c[2].status, PB_CNT_OTHER_PASS);
}

static void test_group_read_short_buffer(void **state)
{
	const uint64_t sw[] = { 1 };
	struct pb_count c[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_group *g;

	(void)state;
	g = open_fake4(&l, false);
	fake_buf_set(fk[0].fd, 10, 10, 1, sw);
	fb[0].len -= 8;			/* truncated */
	assert_int_equal(pb_group_read(g, c), -1);
	pb_group_close(g);
}

static void test_split_when_kernel_refuses_group(void **state)
{
	struct pb_evlist l;
	struct pb_group *g;
	char err[64];
	int ins;

	(void)state;
	fk_policy = policy_group_full;
	build_ok(&l, "cycles,instructions,cache-misses");
	assert_int_equal(l.nr_passes, 1);
	ins = ev_index(&l, "instructions");
	g = pb_group_open(&l, 0, 0, -1, false, err, sizeof(err));
	assert_non_null(g);
	pb_group_close(g);
	assert_int_equal(l.ev[ins].status, 0);
	assert_int_equal(l.ev[ins].pass, 1);
	assert_int_equal(l.nr_passes, 2);
	fk_nr = 0;
	g = pb_group_open(&l, 1, 0, -1, false, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(fk_nr, 1);
	assert_int_equal(fk[0].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(fk[0].group_fd, -1);
	pb_group_close(g);
}

static void refused_with(int (*policy)(const struct perf_event_attr *, int), int cpu,
			 const char *want)
{
	struct pb_evlist l;
	struct pb_group *g;
	char err[64];

	fk_policy = policy;
	build_ok(&l, "task-clock,cycles");
	g = pb_group_open(&l, 0, cpu >= 0 ? -1 : 0, cpu, false, err, sizeof(err));
	assert_non_null(g);
	pb_group_close(g);
	assert_int_equal(l.ev[0].status, 0);
	assert_string_equal(l.ev[1].reason, want);
}

static void test_refusal_reasons(void **state)
{
	(void)state;
	sysroot_make(0, 3);
	refused_with(policy_eacces, -1, "not permitted: perf_event_paranoid=3 (EACCES)");
	refused_with(policy_eacces, 0, "not permitted: perf_event_paranoid=3 (EACCES): "
		     "system-wide counting needs paranoid <= 0 or CAP_PERFMON");
	refused_with(policy_eopnotsupp, -1, "not supported: the PMU cannot do this (EOPNOTSUPP)");
	refused_with(policy_no_pmu, -1, "not supported: no PMU (ENOENT)");
	sysroot_drop();
}

/* ---- scaling, thresholds, sums, JSON ---- */

static void check_sev(uint64_t enabled, uint64_t running, int want_nr, enum pb_sev sev)
{
	struct pb_anomalies an = { 0 };
	struct pb_evlist l;
	struct pb_count c[PB_MAX_EVENTS];

	build_ok(&l, "task-clock");
	c[0] = (struct pb_count){ 123, enabled, running,
				  running ? PB_CNT_OK : PB_CNT_NOT_COUNTED };
	pb_counts_check(&l, c, "reader/1", &an);
	assert_int_equal(an.nr, want_nr);
	if (want_nr)
		assert_int_equal(an.v[0].sev, sev);
	pb_anomalies_free(&an);
}

static void test_multiplex_thresholds(void **state)
{
	(void)state;
	check_sev(1000, 1000, 0, 0);
	check_sev(1000, 995, 0, 0);		/* 99.5 %: fine */
	check_sev(1000, 990, 0, 0);		/* 99 %: fine */
	check_sev(1000, 980, 1, PB_SEV_WARN);	/* 98 % */
	check_sev(1000, 500, 1, PB_SEV_WARN);	/* 50 % */
	check_sev(1000, 400, 1, PB_SEV_ERROR);	/* 40 % */
	check_sev(1000, 0, 1, PB_SEV_ERROR);	/* never ran */
	check_sev(0, 0, 0, 0);			/* the task never ran: nothing to say */
}

static void test_delta_and_scaled(void **state)
{
	struct pb_count s[2] = { { 100, 1000, 1000, PB_CNT_OK }, { 7, 1000, 500, PB_CNT_OK } };
	struct pb_count e[2] = { { 400, 3000, 3000, PB_CNT_OK }, { 9, 2000, 500, PB_CNT_OK } };
	struct pb_count d[2];
	char buf[32];

	(void)state;
	pb_count_delta(s, e, d, 2);
	assert_int_equal(d[0].value, 300);
	assert_int_equal(d[0].enabled, 2000);
	assert_int_equal(d[0].running, 2000);
	assert_int_equal(d[0].status, PB_CNT_OK);
	assert_true(pb_count_scaled(&d[0]) == 300.0);
	assert_int_equal(d[1].status, PB_CNT_NOT_COUNTED);	/* running did not move */
	assert_true(isnan(pb_count_scaled(&d[1])));
	d[1] = (struct pb_count){ 10, 3, 1, PB_CNT_OK };
	assert_true(fabs(pb_count_scaled(&d[1]) - 30.0) < 1e-9);
	pb_count_percent_str(&d[1], buf, sizeof(buf));
	assert_string_equal(buf, "33.33 %");
}

static void test_counts_add(void **state)
{
	struct pb_count acc[PB_MAX_EVENTS];
	struct pb_count a[3] = { { 10, 100, 100, PB_CNT_OK }, { 1, 100, 100, PB_CNT_OK },
				 { 0, 0, 0, PB_CNT_UNSUPPORTED } };
	struct pb_count b[3] = { { 5, 50, 50, PB_CNT_OK }, { 0, 50, 0, PB_CNT_NOT_COUNTED },
				 { 0, 0, 0, PB_CNT_UNSUPPORTED } };
	struct pb_evlist l;

	(void)state;
	build_ok(&l, "task-clock,context-switches,page-faults");
	pb_counts_zero(&l, acc);
	pb_counts_add(&l, acc, a);
	pb_counts_add(&l, acc, b);
	assert_int_equal(acc[0].value, 15);
	assert_int_equal(acc[0].enabled, 150);
	assert_int_equal(acc[0].status, PB_CNT_OK);
	assert_int_equal(acc[1].status, PB_CNT_NOT_COUNTED);	/* missing in one: missing */
	assert_int_equal(acc[2].status, PB_CNT_UNSUPPORTED);
}

static void test_json_forms(void **state)
{
	struct pb_count c[4] = { { 42, 100, 100, PB_CNT_OK }, { 10, 300, 200, PB_CNT_OK },
				 { 0, 0, 0, PB_CNT_NOT_COUNTED }, { 0, 0, 0, PB_CNT_OTHER_PASS } };
	struct pb_evlist l;
	json_t *o, *e;

	(void)state;
	build_ok(&l, "task-clock,context-switches,cpu-migrations,page-faults");
	l.ev[3].pass = 2;
	o = json_object();
	assert_non_null(o);
	for (int i = 0; i < l.nr; i++)
		json_object_set_new(o, l.ev[i].name, pb_count_json(&l.ev[i], &c[i]));
	e = json_object_get(o, "task-clock");
	assert_int_equal(json_integer_value(json_object_get(e, "value")), 42);
	assert_int_equal(json_integer_value(json_object_get(e, "enabled_ns")), 100);
	assert_int_equal(json_integer_value(json_object_get(e, "running_ns")), 100);
	assert_null(json_object_get(e, "scaled"));
	e = json_object_get(o, "context-switches");
	assert_true(fabs(json_real_value(json_object_get(e, "scaled")) - 15.0) < 1e-9);
	assert_true(fabs(json_real_value(json_object_get(e, "percent")) - 66.67) < 1e-9);
	e = json_object_get(o, "cpu-migrations");
	assert_string_equal(json_string_value(json_object_get(e, "status")), "not counted");
	e = json_object_get(o, "page-faults");
	assert_string_equal(json_string_value(json_object_get(e, "status")), "other pass");
	assert_int_equal(json_integer_value(json_object_get(e, "pass")), 2);
	json_decref(o);
	o = pb_evlist_json(&l);
	assert_int_equal(json_array_size(o), 4);
	assert_string_equal(json_string_value(json_object_get(json_array_get(o, 0), "status")),
			    "ok");
	json_decref(o);
}

/* ---- derived figures ---- */

static void derive_counts(struct pb_evlist *l, struct pb_count *c)
{
	int i;

	build_ok(l, "task-clock,context-switches,cpu-migrations,page-faults,"
		 "cycles,instructions,ref-cycles,sched:sched_wakeup,sched:sched_waking");
	for (i = 0; i < l->nr; i++)
		c[i] = (struct pb_count){ 0, 1000, 1000, PB_CNT_OK };
	c[0].value = 2000000;		/* task-clock ns */
	c[1].value = 2000;
	c[2].value = 0;			/* counted: 0 is a real 0 */
	c[3].value = 10;
	c[4].value = 5000000;		/* cycles */
	c[5].value = 7500000;		/* instructions */
	c[6].value = 4000000;		/* ref-cycles */
	c[7].value = 30;		/* sched_wakeup: misses remote wakeups */
	c[8].value = 2000;		/* sched_waking */
}

static void test_derived_figures(void **state)
{
	struct pb_count c[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_figures f;
	json_t *j;

	(void)state;
	derive_counts(&l, c);
	pb_derive(&l, c, 1000, 2000, &f);
	assert_true(fabs(figure(&f, "IPC")->value - 1.5) < 1e-9);
	assert_true(fabs(figure(&f, "cycles/op")->value - 5000) < 1e-9);
	assert_true(fabs(figure(&f, "instructions/op")->value - 7500) < 1e-9);
	assert_true(fabs(figure(&f, "context-switches/op")->value - 2) < 1e-9);
	assert_true(figure(&f, "cpu-migrations/op")->value == 0.0);
	assert_true(fabs(figure(&f, "page-faults/op")->value - 0.01) < 1e-9);
	assert_true(fabs(figure(&f, "task-clock/op")->value - 2000) < 1e-9);
	assert_string_equal(figure(&f, "task-clock/op")->unit, "ns");
	assert_true(fabs(figure(&f, "effective-GHz")->value - 2.5) < 1e-9);
	assert_true(fabs(figure(&f, "ref-GHz")->value - 2.5) < 1e-9);
	assert_true(fabs(figure(&f, "wakeups/op")->value - 2) < 1e-9);	/* sched_waking */
	j = pb_figures_json(&f);
	assert_true(fabs(json_real_value(json_object_get(j, "IPC")) - 1.5) < 1e-9);
	assert_int_equal(json_object_size(j), (size_t)f.nr);
	json_decref(j);
}

static void test_derived_missing_inputs(void **state)
{
	struct pb_count c[PB_MAX_EVENTS];
	struct pb_evlist l;
	struct pb_figures f;

	(void)state;
	derive_counts(&l, c);
	pb_derive(&l, c, 1000, 0, &f);		/* nominal unknown */
	assert_null(figure(&f, "ref-GHz"));
	assert_non_null(figure(&f, "IPC"));
	c[8].status = PB_CNT_UNSUPPORTED;	/* no sched_waking: sched_wakeup */
	pb_derive(&l, c, 1000, 0, &f);
	assert_true(fabs(figure(&f, "wakeups/op")->value - 0.03) < 1e-9);
	c[7].status = PB_CNT_NOT_COUNTED;
	pb_derive(&l, c, 1000, 0, &f);
	assert_null(figure(&f, "wakeups/op"));
	l.ev[5].pass = 1;			/* instructions measured in another pass */
	c[5].status = PB_CNT_OTHER_PASS;
	pb_derive(&l, c, 1000, 2000, &f);
	assert_null(figure(&f, "IPC"));
	assert_null(figure(&f, "instructions/op"));
	assert_non_null(figure(&f, "cycles/op"));
	c[4].status = PB_CNT_UNSUPPORTED;	/* no cycles */
	pb_derive(&l, c, 1000, 2000, &f);
	assert_null(figure(&f, "cycles/op"));
	assert_null(figure(&f, "effective-GHz"));
	assert_null(figure(&f, "ref-GHz"));
	pb_derive(&l, c, 0, 2000, &f);		/* no ops: no per-op figure */
	assert_int_equal(f.nr, 0);
}

/* ---- forced PMU models (children) ---- */

static void pfm_counts(const char *name, int *generic, int *fixed)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	*generic = *fixed = -1;
	pfm_for_all_pmus(p) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.is_present &&
		    !strcmp(info.name, name)) {
			*generic = info.num_cntrs;
			*fixed = info.num_fixed_cntrs;
		}
	}
}

static void check_desc(const char *name)
{
	struct pb_pmu_desc d;
	int g, f;

	sysroot_make(0, 2);
	pb_core_pmu(&d);
	pfm_counts(name, &g, &f);
	assert_true(d.known);
	assert_string_equal(d.name, name);
	assert_int_equal(d.generic, g);
	assert_int_equal(d.fixed, f);
	assert_false(d.nmi_watchdog);
	sysroot_drop();
	sysroot_make(1, 2);
	pb_core_pmu(&d);
	assert_true(d.nmi_watchdog);
	assert_int_equal(d.generic, g - 1);
	sysroot_drop();
}

static void test_skl_desc(void **state)
{
	(void)state;
	check_desc("skl");
}

static void test_skl_encoding(void **state)
{
	struct pb_evlist l;
	char err[256];

	(void)state;
	build_ok(&l, "INST_RETIRED:ANY_P:u,INST_RETIRED:ANY_P:k,task-clock");
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_RAW);
	assert_int_equal(l.ev[0].attr.config & 0xffff, 0x00c0);
	assert_true(l.ev[0].hw);
	assert_int_equal(l.ev[0].attr.exclude_kernel, 1);
	assert_int_equal(l.ev[0].attr.exclude_user, 0);
	assert_int_equal(l.ev[1].attr.exclude_kernel, 0);
	assert_int_equal(l.ev[1].attr.exclude_user, 1);
	assert_false(l.ev[2].hw);
	assert_int_equal(pb_evlist_build(&l, "INST_RETIRED:BOGUS", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "INST_RETIRED:BOGUS"));
	assert_int_equal(pb_evlist_build(&l, "NO_SUCH_EVENT", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "NO_SUCH_EVENT"));
}

static const char skl_generic[] =
	"BR_MISP_RETIRED:ALL_BRANCHES,BR_INST_RETIRED:ALL_BRANCHES,"
	"LONGEST_LAT_CACHE:MISS,LONGEST_LAT_CACHE:REFERENCE,L2_RQSTS:MISS,"
	"MEM_INST_RETIRED:ALL_LOADS,MEM_INST_RETIRED:ALL_STORES,UOPS_ISSUED:ANY,"
	"UOPS_RETIRED:ALL,DTLB_LOAD_MISSES:MISS_CAUSES_A_WALK";

/* The first n events of a comma list, plus extra. */
static void first_n(char *buf, size_t len, const char *list, int n, const char *extra)
{
	const char *s = list;
	int i;

	for (i = 0; i < n && s; i++)
		s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL;
	snprintf(buf, len, "%.*s%s", s ? (int)(s - list - 1) : (int)strlen(list), list,
		 extra);
}

static void check_passes(const char *list, int n, const char *extra, int watchdog,
			 int want)
{
	struct pb_evlist l;
	char spec[1024];
	int i, per[PB_MAX_EVENTS] = { 0 };
	struct pb_pmu_desc d;

	first_n(spec, sizeof(spec), list, n, extra);
	sysroot_make(watchdog, 2);
	pb_core_pmu(&d);
	build_ok(&l, spec);
	sysroot_drop();
	assert_int_equal(l.nr_passes, want);
	for (i = 0; i < l.nr; i++) {
		assert_true(l.ev[i].pass < l.nr_passes);
		per[l.ev[i].pass] += l.ev[i].hw && !l.ev[i].fixed;
		if (!l.ev[i].hw)
			assert_int_equal(l.ev[i].pass, 0);
	}
	for (i = 0; i < l.nr_passes; i++)
		assert_true(per[i] <= d.generic);
	for (i = 1; i < l.nr; i++)	/* first fit keeps the order */
		if (l.ev[i].hw && l.ev[i - 1].hw && !l.ev[i].fixed && !l.ev[i - 1].fixed)
			assert_true(l.ev[i].pass >= l.ev[i - 1].pass);
}

static void test_skl_passes(void **state)
{
	struct pb_pmu_desc d;
	int g;

	(void)state;
	sysroot_make(0, 2);
	pb_core_pmu(&d);
	sysroot_drop();
	g = d.generic;
	assert_true(g >= 2 && g <= 8);
	check_passes(skl_generic, g, ",task-clock", 0, 1);
	check_passes(skl_generic, g, ",task-clock", 1, 2);	/* watchdog takes one */
	check_passes(skl_generic, g + 2, "", 0, 2);
	/* cycles and instructions take fixed counters: still one pass */
	check_passes(skl_generic, g, ",INST_RETIRED:ANY_P,CPU_CLK_UNHALTED:THREAD_P", 0, 1);
	/* a second instructions event needs a generic counter */
	check_passes(skl_generic, g, ",INST_RETIRED:ANY_P,INST_RETIRED:ANY_P:u", 0, 2);
	/* reference cycles only count on their fixed counter */
	check_passes(skl_generic, 2, ",UNHALTED_REFERENCE_CYCLES", 0, 1);
	check_passes(skl_generic, 2, ",UNHALTED_REFERENCE_CYCLES,UNHALTED_REFERENCE_CYCLES:u",
		     0, 2);
}

static const char amd_events[] =
	"CPU_CLK_UNHALTED,RETIRED_INSTRUCTIONS,RETIRED_BRANCH_INSTRUCTIONS,"
	"RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS,DATA_CACHE_ACCESSES,DATA_CACHE_MISSES";

static void test_amd_desc(void **state)
{
	(void)state;
	check_desc("amd64_fam10h_barcelona");
}

static void test_amd_passes(void **state)
{
	struct pb_evlist l;

	(void)state;
	check_passes(amd_events, 6, "", 0, 2);	/* 6 events on 4 counters */
	check_passes(amd_events, 4, "", 0, 1);
	check_passes(amd_events, 4, "", 1, 2);	/* NMI watchdog: 3 left */
	check_passes(amd_events, 6, ",task-clock,context-switches", 1, 2);
	sysroot_make(0, 2);
	build_ok(&l, amd_events);
	sysroot_drop();
	assert_int_equal(l.ev[0].pass, 0);
	assert_int_equal(l.ev[3].pass, 0);
	assert_int_equal(l.ev[4].pass, 1);
	assert_int_equal(l.ev[5].pass, 1);
	assert_false(l.ev[1].fixed);		/* no fixed counters on AMD */
}

/* A kernel that accepts cycles (fake) or has no PMU: usable, or why not. */
static void test_skl_usable(void **state)
{
	struct pb_pmu_desc d;

	(void)state;
	sysroot_make(0, 2);
	assert_true(pb_core_pmu(&d));
	assert_true(d.known && d.usable);
	assert_string_equal(d.why, "");
	fk_policy = policy_no_pmu;
	assert_false(pb_core_pmu(&d));
	assert_true(d.known);
	assert_string_equal(d.why, "virtualised: the hypervisor exposes no PMU (libpfm4 sees skl)");
	put_file("/proc/cpuinfo", "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
		 "flags\t\t: fpu tsc\n");
	assert_false(pb_core_pmu(&d));
	assert_string_equal(d.why, "the kernel has no PMU driver for skl (ENOENT)");
	fk_policy = policy_eacces;	/* paranoid: counting user space still works */
	assert_true(pb_core_pmu(&d));
	sysroot_drop();
}

static int run_skl(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_teardown(test_skl_desc, restore),
		cmocka_unit_test_teardown(test_skl_encoding, restore),
		cmocka_unit_test_teardown(test_skl_passes, restore),
		cmocka_unit_test_setup_teardown(test_skl_usable, fake_setup, restore),
	};

	return cmocka_run_group_tests_name("counters, forced skl", t, NULL, NULL);
}

static int run_amd(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_teardown(test_amd_desc, restore),
		cmocka_unit_test_teardown(test_amd_passes, restore),
	};

	return cmocka_run_group_tests_name("counters, forced amd64_fam10h_barcelona", t,
					   NULL, NULL);
}

static int forked(const char *pmu, int (*fn)(void))
{
	int st = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
		_exit(fn() ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

#define FAKE(t)	cmocka_unit_test_setup_teardown(t, fake_setup, restore)
#define REAL(t)	cmocka_unit_test_setup_teardown(t, real_setup, restore)

int main(void)
{
	const struct CMUnitTest tests[] = {
		REAL(test_typo_is_error),
		REAL(test_software_names),
		REAL(test_tracepoint_without_tracefs),
		REAL(test_default_set_here),
		FAKE(test_default_set_with_pmu),
		REAL(test_real_self),
		REAL(test_real_child),
		REAL(test_real_cycles),
		FAKE(test_fake_cycles_not_supported),
		REAL(test_real_tracepoints),
		FAKE(test_counters_hold),
		FAKE(test_group_layout),
		FAKE(test_group_read_scaled),
		FAKE(test_group_read_not_counted_other_pass),
		FAKE(test_group_read_short_buffer),
		FAKE(test_split_when_kernel_refuses_group),
		FAKE(test_refusal_reasons),
		REAL(test_multiplex_thresholds),
		REAL(test_delta_and_scaled),
		REAL(test_counts_add),
		REAL(test_json_forms),
		REAL(test_derived_figures),
		REAL(test_derived_missing_inputs),
	};
	int fails;

	real_open = pb_perf_event_open;
	real_read = pb_counters_read_fd;
	fails = forked("skl", run_skl);
	fails += forked("amd64_fam10h_barcelona", run_amd);
	fails += cmocka_run_group_tests_name("counters", tests, NULL, NULL);
	return fails ? 1 : 0;
}
