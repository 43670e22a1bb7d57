// SPDX-License-Identifier: GPL-2.0-only
/*
 * others.c - other tasks' CPU time on a job's CPUs.  See others.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/env.h"
#include "sys/others.h"

#define MAX_CPUS	4096

static bool is_ours(pid_t pid, const pid_t *ours, int nours)
{
	for (int i = 0; i < nours; i++)
		if (ours[i] == pid)
			return true;
	return false;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* The share of a task's allowed CPUs (among online[]) that are the job's. */
static double share_of(const char *status, const int *cpus, int n, const bool *online)
{
	static int allowed[MAX_CPUS];
	const char *l = strstr(status, "Cpus_allowed_list:");
	int na, in = 0, on = 0;

	if (!l)
		return 0;
	l += strlen("Cpus_allowed_list:");
	while (*l == ' ' || *l == '\t')
		l++;
	{
		char list[1024];

		snprintf(list, sizeof(list), "%.*s", (int)strcspn(l, "\n"), l);
		na = pb_cpulist_parse(list, allowed, MAX_CPUS);
	}
	for (int i = 0; i < na; i++) {
		if (online && (allowed[i] < 0 || allowed[i] >= MAX_CPUS || !online[allowed[i]]))
			continue;
		on++;
		for (int k = 0; k < n; k++)
			if (cpus[k] == allowed[i]) {
				in++;
				break;
			}
	}
	return on ? (double)in / on : 0;
}

static int add_task(struct pb_others *s, const struct pb_others_task *t)
{
	if (s->nr == s->cap) {
		int cap = s->cap ? 2 * s->cap : 256;
		void *v = realloc(s->t, cap * sizeof(*s->t));

		if (!v)
			return -1;
		s->t = v;
		s->cap = cap;
	}
	s->t[s->nr++] = *t;
	return 0;
}

static void scan_process(struct pb_others *s, pid_t pid, const int *cpus, int n,
			 const bool *online)
{
	char path[4096], buf[4096];
	struct dirent *e;
	DIR *d;

	if (pb_sys_path(path, sizeof(path), "/proc/%d/task", (int)pid) < 0)
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		struct pb_others_task t = { .pid = pid };
		unsigned long long run;

		if (!all_digits(e->d_name))
			continue;
		t.tid = atoi(e->d_name);
		if (pb_sys_read(buf, sizeof(buf), "/proc/%d/task/%d/schedstat", (int)pid,
				(int)t.tid) <= 0 || sscanf(buf, "%llu", &run) != 1)
			continue;
		t.run_ns = run;
		if (pb_sys_read(buf, sizeof(buf), "/proc/%d/task/%d/status", (int)pid,
				(int)t.tid) <= 0)
			continue;
		t.share = share_of(buf, cpus, n, online);
		if (t.share > 0 && add_task(s, &t))
			break;
	}
	closedir(d);
}

static int cmp_tid(const void *a, const void *b)
{
	const struct pb_others_task *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

int pb_others_snapshot(const int *cpus, int n, const pid_t *ours, int nours,
		       struct pb_others *s)
{
	static bool online[MAX_CPUS];
	static int list[MAX_CPUS];
	char path[4096], buf[4096];
	bool have_online = false;
	struct dirent *e;
	DIR *d;

	s->nr = 0;
	if (pb_sys_read(buf, sizeof(buf), "/sys/devices/system/cpu/online") > 0) {
		int k = pb_cpulist_parse(buf, list, MAX_CPUS);

		memset(online, 0, sizeof(online));
		for (int i = 0; i < k; i++)
			if (list[i] >= 0 && list[i] < MAX_CPUS)
				online[list[i]] = have_online = true;
	}
	if (pb_sys_path(path, sizeof(path), "/proc") < 0)
		return -1;
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		pid_t pid;

		if (!all_digits(e->d_name))
			continue;
		pid = atoi(e->d_name);
		if (!is_ours(pid, ours, nours))
			scan_process(s, pid, cpus, n, have_online ? online : NULL);
	}
	closedir(d);
	if (s->nr)	/* none (a sysroot's /proc with no process): s->t is NULL */
		qsort(s->t, s->nr, sizeof(*s->t), cmp_tid);
	return 0;
}

void pb_others_free(struct pb_others *s)
{
	free(s->t);
	memset(s, 0, sizeof(*s));
}

static const struct pb_others_task *find(const struct pb_others *s, pid_t tid)
{
	struct pb_others_task key = { .tid = tid };

	return s->nr ? bsearch(&key, s->t, s->nr, sizeof(*s->t), cmp_tid) : NULL;
}

void pb_others_diff(const struct pb_others *before, const struct pb_others *after,
		    double span_ns, struct pb_others_delta *d)
{
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < after->nr; i++) {
		const struct pb_others_task *a = &after->t[i], *b = find(before, a->tid);
		double ran;

		if (b && b->pid == a->pid)
			ran = a->run_ns > b->run_ns ? (double)(a->run_ns - b->run_ns) : 0;
		else
			ran = a->run_ns < span_ns ? (double)a->run_ns : span_ns;
		ran *= a->share;
		d->ns += ran;
		if (ran > d->top_ns) {
			d->top_ns = ran;
			d->top_pid = a->pid;
		}
	}
	if (d->top_pid &&
	    pb_sys_read(d->top_comm, sizeof(d->top_comm), "/proc/%d/comm", (int)d->top_pid) < 0)
		d->top_comm[0] = '\0';
	for (char *c = d->top_comm; *c; c++)	/* a name is anyone's choice */
		if (!isprint((unsigned char)*c) || *c == '"' || *c == '\\')
			*c = '?';
}
