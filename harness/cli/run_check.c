// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_check.c - what `pinbench run` and `bench` check before anything
 * runs (run.h): event names, cpus= against this machine, the results
 * folder.  A mistake there is exit 2 with a message, by --dry-run too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/run.h"
#include "cli/say.h"
#include "lib/file.h"

/* Where a job's key was set: "FILE:LINE", "--events", or "default". */
static void key_origin(const struct pb_job *j, const char *key, char *buf, size_t len)
{
	for (int i = 0; i < j->nr_kv; i++) {
		const struct pb_kv *kv = &j->kv[i];

		if (strcmp(kv->key, key))
			continue;
		if (kv->line > 0)
			snprintf(buf, len, "%s:%d", kv->origin, kv->line);
		else
			snprintf(buf, len, "%s", kv->origin);
		return;
	}
	snprintf(buf, len, "%s:%d", j->file ? j->file : "command line", j->line);
}

/*
 * System wide (counters=cpu) task-clock counts nothing: no task context.
 * What perf stat -a shows instead is cpu-clock.
 */
static void cpu_clock_for_task_clock(struct pb_evlist *l)
{
	for (int e = 0; e < l->nr; e++) {
		struct pb_event *ev = &l->ev[e];

		if (strcmp(ev->name, "task-clock") || ev->attr.type != PERF_TYPE_SOFTWARE)
			continue;
		ev->attr.config = PERF_COUNT_SW_CPU_CLOCK;
		snprintf(ev->name, sizeof(ev->name), "cpu-clock");
	}
}

/* Event names are checked before anything runs (limits: by the job loader). */
int run_check_events(struct pb_jobset *js, struct pb_evlist *evl)
{
	char err[PB_ERR_MAX], where[PATH_MAX];

	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];

		if (pb_evlist_build(&evl[i], j->events, err, sizeof(err))) {
			key_origin(j, "events", where, sizeof(where));
			pb_say(stderr, "pinbench: %s: job '%s': events: %s\n", where, j->name, err);
			return 2;
		}
		if (j->counters_cpu)
			cpu_clock_for_task_clock(&evl[i]);
	}
	return 0;
}

/*
 * cpus= naming a CPU pinbench cannot use here is an error, not a skip: a
 * typo in a nightly job file must not pass as ok.  "Here" is what the
 * topology offers: this machine's CPUs that pinbench's affinity and
 * cpuset allow (under `taskset -c 0`, only CPU 0), or --topology's.
 */
static int check_cpus(const struct pb_topo *t, const struct pb_jobset *js)
{
	char where[PATH_MAX], allowed[256];

	for (int i = 0; i < js->nr; i++) {
		const struct pb_job *j = &js->jobs[i];

		for (int k = 0; !j->nr_placements && k < j->nr_cpus; k++) {
			int cpu = j->cpus[k];

			if (pb_topo_has_cpu(t, cpu))
				continue;
			key_origin(j, "cpus", where, sizeof(where));
			pb_topo_cpus_text(t, allowed, sizeof(allowed));
			pb_say(stderr, "pinbench: %s: job '%s': cpus: CPU %d is not available to "
				"pinbench (%s; allowed: %s)\n", where, j->name, cpu,
				pb_topo_cpu_exists(t, cpu) ? "offline, or outside its CPU affinity "
				"or cpuset" : "no such CPU", allowed);
			return 2;
		}
	}
	return 0;
}

/* DIR/<label> is a symlink (planted, maybe): nothing is written through it. */
static int label_is_link(const struct run_opts *o, const char *dir)
{
	pb_say(stderr, "pinbench: -o %s: %s is a symbolic link: results are not written "
	       "through one (remove it, or choose another --label)\n", o->outdir, dir);
	return 2;
}

/*
 * The results folder DIR/<label>: a real run creates it before anything
 * runs (so that a run never ends unable to save); --dry-run leaves nothing
 * behind but checks that it could: in the deepest folder that exists, a
 * folder can be made (and is removed at once).  DIR/<label> must not be a
 * symlink (the saves open it without following one, too).
 */
static int check_outdir(const struct run_opts *o)
{
	char dir[PATH_MAX], probe[PATH_MAX + 32], *slash;
	struct stat st;
	int e, fd;

	/* room for "/<timestamp>-<job file, 127 at most>-999.json" (struct saver) */
	if (snprintf(dir, sizeof(dir), "%s/%s", o->outdir, o->label) >=
	    (int)sizeof(dir) - 300) {
		pb_say(stderr, "pinbench: -o %s: path too long\n", o->outdir);
		return 2;
	}
	if (!o->dry_run) {
		fd = pb_mkdirs(o->outdir) ? -1 : pb_subdir_open(o->outdir, o->label);
		if (fd < 0 && errno == ELOOP)
			return label_is_link(o, dir);
		if (fd < 0) {
			e = errno;
			pb_say(stderr, "pinbench: -o %s: cannot create %s: %s\n", o->outdir,
				dir, strerror(e));
			return 2;
		}
		close(fd);
		snprintf(probe, sizeof(probe), "%s/.pinbench-probe.XXXXXX", dir);
		fd = mkostemp(probe, O_CLOEXEC);	/* can a result be written there? */
		if (fd >= 0) {
			close(fd);
			unlink(probe);
			return 0;
		}
		e = errno;
		pb_say(stderr, "pinbench: -o %s: cannot write in %s: %s\n", o->outdir, dir,
			strerror(e));
		return 2;
	}
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		return label_is_link(o, dir);
	while (stat(dir, &st)) {	/* up to the deepest folder that exists */
		if (errno != ENOENT || !strcmp(dir, "."))
			goto bad;
		slash = strrchr(dir, '/');
		if (!slash)		/* a relative path: the current folder */
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			slash[1] = 0;
		else
			*slash = 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		goto bad;
	}
	snprintf(probe, sizeof(probe), "%s/.pinbench-dry-run.%d", dir, (int)getpid());
	if (!mkdir(probe, 0700) && !rmdir(probe))
		return 0;
bad:
	e = errno;
	pb_say(stderr, "pinbench: -o %s: cannot create the results folder %s/%s (%s: %s)\n",
		o->outdir, o->outdir, o->label, dir, strerror(e));
	return 2;
}

/*
 * What a run checks before anything runs, for a run and --dry-run alike:
 * event names (libpfm4), cpus= against this machine, the results folder.
 * The job loader has checked keys, values, placements and limits.
 */
int run_check(const struct run_opts *o, const struct pb_topo *t,
		     struct pb_jobset *sets, int n)
{
	int rc = 0;

	for (int i = 0; !rc && i < n; i++) {
		struct pb_evlist *evl = calloc(sets[i].nr, sizeof(*evl));

		rc = evl ? run_check_events(&sets[i], evl) : 2;
		free(evl);
		if (!rc)
			rc = check_cpus(t, &sets[i]);
	}
	return rc ? rc : check_outdir(o);
}
