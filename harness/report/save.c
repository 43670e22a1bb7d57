// SPDX-License-Identifier: GPL-2.0-only
/*
 * save.c - a run's result file, saved atomically after every job (save.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/save.h"
#include "lib/file.h"

/* "peer" of each job that ran across hosts: the other host's facts. */
static void add_peers(const struct pb_run *run, json_t *j)
{
	json_t *jobs = json_object_get(j, "jobs");

	for (int i = 0; i < run->nr && i < (int)json_array_size(jobs); i++) {
		const struct pb_result *r = &run->results[i];
		const char *addr = pb_job_get(r->job, "peer");

		if (!addr)
			continue;
		json_object_set_new(json_array_get(jobs, i), "peer", r->has_peer ?
			json_pack("{s:s, s:s, s:s, s:s, s:i, s:I}", "address", addr,
				  "hostname", r->peer.hostname, "kernel", r->peer.kernel,
				  "cpu_model", r->peer.cpu_model, "cpu", r->peer.cpu,
				  "ops", (json_int_t)r->peer_ops) :
			json_pack("{s:s, s:n, s:n, s:n, s:n}", "address", addr, "hostname",
				  "kernel", "cpu_model", "cpu"));
	}
}

int pb_saver_init(struct pb_saver *sv, const char *outdir, const char *label,
		  const char *started, const char *base)
{
	char ts[32];
	int k = 0, e;

	for (const char *p = started; *p && k < (int)sizeof(ts) - 1; p++)
		if (*p != '-' && *p != ':')
			ts[k++] = *p;	/* 2026-12-01T12:00:00Z -> 20261201T120000Z */
	ts[k] = 0;
	memset(sv, 0, sizeof(*sv));
	/* the caller made sure that these fit */
	snprintf(sv->stem, sizeof(sv->stem), "%s-%s", ts, base);
	snprintf(sv->dir, sizeof(sv->dir), "%s/%s", outdir, label);
	sv->dfd = pb_subdir_open(outdir, label);
	if (sv->dfd >= 0)
		return 0;
	e = errno;
	snprintf(sv->err, sizeof(sv->err), e == ELOOP ? "%s: a symbolic link: results are "
		 "not written through one" : "cannot open %s: %s", sv->dir, strerror(e));
	return -1;
}

/* The first save: the first free name of stem[-N].json, claimed. */
static int save_claim(struct pb_saver *sv, const char *s)
{
	int rc = -EEXIST;

	for (int n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(sv->name, sizeof(sv->name), "%s.json", sv->stem);
		else
			snprintf(sv->name, sizeof(sv->name), "%s-%d.json", sv->stem, n);
		snprintf(sv->path, sizeof(sv->path), "%s/%s", sv->dir, sv->name);
		rc = pb_file_save_at(sv->dfd, sv->name, sv->path, s, true, sv->err,
				     sizeof(sv->err));
		if (rc != -EEXIST)
			break;
	}
	if (rc == -EEXIST)
		snprintf(sv->err, sizeof(sv->err), "cannot create %s: 999 names taken",
			 sv->path);
	sv->claimed = !rc;
	return rc;
}

int pb_saver_save(struct pb_saver *sv, const struct pb_run *run, char **text)
{
	json_t *j = pb_run_json(run);
	sigset_t block, old;
	char *s;
	int rc = -1;

	add_peers(run, j);
	s = json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(j);
	if (!s) {
		snprintf(sv->err, sizeof(sv->err), "cannot write %s.json: %s", sv->stem,
			 strerror(ENOMEM));
		return -1;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (sv->claimed)
		rc = pb_file_save_at(sv->dfd, sv->name, sv->path, s, false, sv->err,
				     sizeof(sv->err));
	else
		rc = save_claim(sv, s);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!rc)
		*sv->err = 0;
	if (text)
		*text = s;
	else
		free(s);
	return rc ? -1 : 0;
}

void pb_saver_close(struct pb_saver *sv)
{
	if (sv->dfd >= 0)
		close(sv->dfd);
	sv->dfd = -1;
}
