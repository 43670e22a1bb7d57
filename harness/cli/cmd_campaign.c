// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_campaign.c - `pinbench campaign init|step|status|abort|report`: a
 * kernel comparison across real reboots, one run of the job file per boot
 * in an A B B A order.  What a step decides is core/campaign.c's; the
 * state file is report/campaign_state.c's; this file reads the running
 * kernel, runs the job (as `pinbench run` does), the switch command and
 * systemctl, and prints.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "cli/opts.h"
#include "cli/run.h"
#include "cli/say.h"
#include "core/campaign.h"
#include "core/runner.h"
#include "lib/file.h"
#include "lib/util.h"
#include "report/campaign_state.h"
#include "sys/env.h"
#include "sys/sysfs.h"

static const char campaign_usage[] =
"usage: pinbench campaign init NAME --kernel K=IMAGE[,initrd=FILE][,cmdline=STR|,append=STR]\n"
"                              [--kernel ...] --job FILE --boots N [OPTIONS]\n"
"       pinbench campaign step|status|abort [--state DIR]\n"
"       pinbench campaign report [--state DIR] [-o DIR]\n"
"\n"
"  --kernel K=IMAGE,...   a kernel: its name K (the results label), its bzImage,\n"
"                         initrd=FILE, cmdline=STR (the whole command line) or\n"
"                         append=STR (added to this boot's /proc/cmdline)\n"
"  --job FILE             the job file each boot runs as one block\n"
"  --boots N              boots per kernel (2 kernels, --boots 2: A B B A)\n"
"  --order abba|random    the boot order (default abba); random: shuffled, balanced\n"
"  --seed S               the seed of --order random (default: drawn, and saved)\n"
"  --state DIR            the campaign's folder (default\n"
"                         /var/lib/pinbench/campaigns/NAME, or under\n"
"                         $PINBENCH_CAMPAIGNS; step, status, abort and report\n"
"                         default to the one init made current)\n"
"  --results DIR          the results folder (default DIR/results)\n"
"  --switch CMD           how a step boots the next kernel, a shell command with\n"
"                         {image} {initrd} {initrd_opt} {cmdline} {kernel} (default:\n"
"                         kexec -l {image} {initrd_opt} --append={cmdline} &&\n"
"                         systemctl kexec)\n"
"  --no-unit              do not enable pinbench-campaign.service: the machine's\n"
"                         own boot script runs 'pinbench campaign step'\n"
"  --tries N              runs a boot may begin before the campaign stops (1..10,\n"
"                         default 2)\n"
"  -o, --output DIR       report: where (default DIR/report)\n"
"  -h, --help             this text\n"
"\nexit: 0 done, measured or nothing to do, 2 usage error, 3 the campaign stopped\n";

#define CAMP_EXIT_STOPPED	3
#define CAMP_UNIT		"pinbench-campaign.service"
#define CAMP_REBOOT_S		60.0	/* the reboot allowance of the plan */
#define CAMP_FREE_MIN		(16UL << 20)	/* free bytes init wants */

struct camp_opts {
	const char	*kernels[PB_CAMP_KERNELS_MAX];
	int		nr_kernels;
	const char	*job, *boots, *order, *seed, *state, *results, *sw, *tries, *out;
	bool		no_unit;
};

static int opt_kernel(void *ctx, const struct pb_opt *o, const char *arg)
{
	struct camp_opts *co = ctx;

	(void)o;
	if (co->nr_kernels == PB_CAMP_KERNELS_MAX) {
		pb_say(stderr, "pinbench campaign: more than %d --kernel\n", PB_CAMP_KERNELS_MAX);
		return PB_OPTS_FAILED;
	}
	co->kernels[co->nr_kernels++] = arg;
	return PB_OPTS_OK;
}

/* The campaigns' folder: $PINBENCH_CAMPAIGNS, else /var/lib/pinbench/campaigns. */
static const char *camp_root(void)
{
	const char *d = getenv("PINBENCH_CAMPAIGNS");

	return d && *d ? d : "/var/lib/pinbench/campaigns";
}

/* The state folder: --state, else the one `current` names: 0, or -1 (none). */
static int camp_dir(const struct camp_opts *co, char *dir, size_t len)
{
	char path[PATH_MAX], *nl;
	FILE *f;

	if (co->state) {
		snprintf(dir, len, "%s", co->state);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/current", camp_root());
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(dir, (int)len, f))
		dir[0] = 0;
	fclose(f);
	nl = strchr(dir, '\n');
	if (nl)
		*nl = 0;
	return dir[0] ? 0 : -1;
}

/* argv through execvp, stdin from /dev/null: its exit code, or 127/128+signal. */
static int spawn(char *const argv[])
{
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 127;
	if (!pid) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0)
			dup2(fd, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int systemctl(const char *verb)
{
	char *argv[] = { "systemctl", (char *)verb, CAMP_UNIT, NULL };
	int rc = spawn(argv);

	if (rc)
		pb_say(stderr, "pinbench campaign: systemctl %s %s failed (exit %d)\n", verb,
		       CAMP_UNIT, rc);
	return rc;
}

/* ---- init ---- */

/* The release the bzImage's header names: 0, or -1 (said). */
static int image_release(const char *image, char *rel, size_t len)
{
	unsigned char *buf = malloc(1 << 16);
	char err[PATH_MAX + 128];
	struct stat st;
	ssize_t n = -1;
	int fd = pb_open_regular(image, &st, err, sizeof(err)), rc = -1;

	if (fd < 0)
		pb_say(stderr, "pinbench campaign: image %s\n", err);
	else if (!buf || (n = pread(fd, buf, 1 << 16, 0)) < 0)
		pb_say(stderr, "pinbench campaign: image %s: %s\n", image, strerror(errno));
	else if (pb_camp_bzimage_release(buf, (size_t)n, rel, len, err, sizeof(err)))
		pb_say(stderr, "pinbench campaign: image %s: %s\n", image, err);
	else
		rc = 0;
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* An option of a kernel spec, "key=value" at s up to the next ',': into k. */
static int spec_opt(const char *s, size_t n, struct pb_camp_kernel *k, const char *boot,
		    bool *cmd_given)
{
	if (n > 7 && !strncmp(s, "initrd=", 7))
		return snprintf(k->initrd, sizeof(k->initrd), "%.*s", (int)n - 7, s + 7) >=
		       (int)sizeof(k->initrd) ? -1 : 0;
	if (n >= 8 && !strncmp(s, "cmdline=", 8) && !*cmd_given) {
		*cmd_given = true;
		return snprintf(k->cmdline, sizeof(k->cmdline), "%.*s", (int)n - 8, s + 8) >=
		       (int)sizeof(k->cmdline) ? -1 : 0;
	}
	if (n >= 7 && !strncmp(s, "append=", 7) && !*cmd_given) {
		char app[PB_CAMP_CMDLINE_MAX];

		*cmd_given = true;
		snprintf(app, sizeof(app), "%.*s", (int)n - 7, s + 7);
		return pb_camp_cmdline_make(boot, app, k->cmdline, sizeof(k->cmdline));
	}
	return -1;
}

/*
 * K=IMAGE[,initrd=FILE][,cmdline=STR|,append=STR] into k (cmdline= and
 * append= take the rest of the spec, commas and all): 0, or -1 (said).
 */
static int kernel_parse(const char *spec, const char *boot, struct pb_camp_kernel *k)
{
	const char *eq = strchr(spec, '='), *p, *c;
	char err[PB_LABEL_MAX + 200];
	bool cmd_given = false;

	if (!eq || eq == spec || eq - spec >= PB_CAMP_NAME_MAX)
		goto bad;
	snprintf(k->name, sizeof(k->name), "%.*s", (int)(eq - spec), spec);
	if (pb_label_check(k->name, err, sizeof(err))) {
		pb_say(stderr, "pinbench campaign: --kernel '%s': the name %s\n", spec, err);
		return -1;
	}
	p = eq + 1;
	c = strchr(p, ',');
	snprintf(k->image, sizeof(k->image), "%.*s", (int)(c ? c - p : (long)strlen(p)), p);
	if (pb_camp_cmdline_make(boot, NULL, k->cmdline, sizeof(k->cmdline)) || !k->image[0])
		goto bad;
	while (c) {
		p = c + 1;
		c = strncmp(p, "cmdline=", 8) && strncmp(p, "append=", 7) ? strchr(p, ',') : NULL;
		if (spec_opt(p, c ? (size_t)(c - p) : strlen(p), k, boot, &cmd_given))
			goto bad;
	}
	return 0;
bad:
	pb_say(stderr, "pinbench campaign: --kernel '%s': want K=IMAGE[,initrd=FILE]"
	       "[,cmdline=STR|,append=STR]\n", spec);
	return -1;
}

/* Is prog an executable on $PATH? */
static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, prog);
		if (n && !access(buf, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* path made absolute (a step runs from /): 0, or -1 when it does not fit. */
static int absolute(char *path, size_t len)
{
	char cwd[PATH_MAX], tmp[PATH_MAX];

	if (path[0] == '/' || !path[0])
		return 0;
	if (!getcwd(cwd, sizeof(cwd)) || snprintf(tmp, sizeof(tmp), "%s/%s", cwd, path) >=
	    (int)len)
		return -1;
	memcpy(path, tmp, strlen(tmp) + 1);
	return 0;
}

/* Every kernel: its image a bzImage, its initrd readable: 0, or 2 (said). */
static int kernels_check(struct pb_campaign *c)
{
	for (int i = 0; i < c->nr_kernels; i++) {
		struct pb_camp_kernel *k = &c->kernels[i];

		for (int j = 0; j < i; j++)
			if (!strcmp(c->kernels[j].name, k->name)) {
				pb_say(stderr, "pinbench campaign: --kernel %s given twice\n",
				       k->name);
				return 2;
			}
		if (absolute(k->image, sizeof(k->image)) || absolute(k->initrd, sizeof(k->initrd)))
			return 2;
		if (image_release(k->image, k->release, sizeof(k->release)))
			return 2;
		if (k->initrd[0] && access(k->initrd, R_OK)) {
			pb_say(stderr, "pinbench campaign: initrd %s of kernel %s: %s\n",
			       k->initrd, k->name, strerror(errno));
			return 2;
		}
	}
	if (strstr(c->switch_cmd, "kexec") && !on_path("kexec")) {
		pb_say(stderr, "pinbench campaign: the switch command runs kexec, and kexec is not "
		       "on PATH (install kexec-tools, or give --switch)\n");
		return 2;
	}
	return 0;
}

/* Is another campaign active (the `current` one, not ended)? 0, or 2 (said). */
static int none_active(void)
{
	struct camp_opts none = { 0 };
	struct pb_campaign *o = calloc(1, sizeof(*o));
	char dir[PB_CAMP_PATH_MAX], err[PATH_MAX + 256];
	int rc = 0;

	if (o && !camp_dir(&none, dir, sizeof(dir)) && !pb_camp_load(dir, o, err, sizeof(err))
	    && !pb_camp_ended(o)) {
		pb_say(stderr, "pinbench campaign: campaign %s (%s) is %s: abort it first "
		       "('pinbench campaign abort')\n", o->name, dir, pb_camp_state_name(o->state));
		rc = 2;
	}
	free(o);
	return rc;
}

/* The nearest folder of path that exists, has it CAMP_FREE_MIN free? 0, or 2 (said). */
static int space_check(const char *path)
{
	char d[PATH_MAX], *slash;
	struct statvfs sv;

	snprintf(d, sizeof(d), "%s", path);
	while (statvfs(d, &sv)) {
		slash = strrchr(d, '/');
		if (!slash || slash == d) {
			snprintf(d, sizeof(d), slash ? "/" : ".");
			if (!statvfs(d, &sv))
				break;
			return 0;
		}
		*slash = 0;
	}
	if ((unsigned long long)sv.f_bavail * sv.f_frsize < CAMP_FREE_MIN) {
		pb_say(stderr, "pinbench campaign: %s: less than %lu MiB free for the state and "
		       "results\n", d, CAMP_FREE_MIN >> 20);
		return 2;
	}
	return 0;
}

static int init_numbers(const struct camp_opts *co, struct pb_campaign *c, long *boots)
{
	long v;

	c->tries = PB_CAMP_TRIES_DEFAULT;
	if (co->tries && pb_parse_long(co->tries, 1, PB_CAMP_TRIES_MAX, &v)) {
		pb_say(stderr, "pinbench campaign: --tries '%s': want 1..%d\n", co->tries,
		       PB_CAMP_TRIES_MAX);
		return 2;
	}
	c->tries = co->tries ? (int)v : c->tries;
	if (!co->boots || pb_parse_long(co->boots, 1, PB_CAMP_BOOTS_MAX, boots)) {
		pb_say(stderr, "pinbench campaign: --boots '%s': want boots per kernel, 1..%d\n",
		       co->boots ? co->boots : "", PB_CAMP_BOOTS_MAX);
		return 2;
	}
	c->seed = ((unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16)) & 0xffffffffUL;
	if (co->seed && (*co->seed == '-' || *co->seed == '+' ||
			 pb_parse_long(co->seed, 0, 0xffffffffL, &v))) {
		pb_say(stderr, "pinbench campaign: --seed '%s': want 0..4294967295\n", co->seed);
		return 2;
	}
	c->seed = co->seed ? (unsigned long)v : c->seed;
	if (co->order && strcmp(co->order, "abba") && strcmp(co->order, "random")) {
		pb_say(stderr, "pinbench campaign: --order '%s': want abba or random\n", co->order);
		return 2;
	}
	c->random = co->order && !strcmp(co->order, "random");
	return 0;
}

/* The campaign from the options: 0, or 2 (said). */
static int init_build(const struct camp_opts *co, const char *name, struct pb_campaign *c,
		      char *dir, size_t dlen)
{
	char boot[PB_CAMP_CMDLINE_MAX], err[PB_LABEL_MAX + 200];
	long boots;

	if (pb_label_check(name, err, sizeof(err))) {
		pb_say(stderr, "pinbench campaign: the name %s\n", err);
		return 2;
	}
	snprintf(c->name, sizeof(c->name), "%s", name);
	if (co->nr_kernels < 2 || !co->job) {
		pb_say(stderr, "pinbench campaign init: want --kernel twice at least, --job and "
		       "--boots (see 'pinbench campaign --help')\n");
		return 2;
	}
	if (init_numbers(co, c, &boots))
		return 2;
	if (pb_sys_read(boot, sizeof(boot), "/proc/cmdline") < 0)
		boot[0] = 0;
	c->nr_kernels = co->nr_kernels;
	for (int i = 0; i < co->nr_kernels; i++)
		if (kernel_parse(co->kernels[i], boot, &c->kernels[i]))
			return 2;
	if (pb_camp_order(c, (int)boots)) {
		pb_say(stderr, "pinbench campaign: --boots %ld of %d kernels: more than %d boots\n",
		       boots, c->nr_kernels, PB_CAMP_BOOTS_MAX);
		return 2;
	}
	snprintf(c->switch_cmd, sizeof(c->switch_cmd), "%s", co->sw ? co->sw :
		 PB_CAMP_SWITCH_DEFAULT);
	snprintf(dir, dlen, "%s", co->state ? co->state : "");
	if (!co->state)
		snprintf(dir, dlen, "%s/%s", camp_root(), name);
	snprintf(c->results, sizeof(c->results), "%s", co->results ? co->results : "");
	if (!co->results && snprintf(c->results, sizeof(c->results), "%s/results", dir) >=
	    (int)sizeof(c->results)) {
		pb_say(stderr, "pinbench campaign: %s: the path is too long\n", dir);
		return 2;
	}
	if (absolute(dir, dlen) || absolute(c->results, sizeof(c->results))) {
		pb_say(stderr, "pinbench campaign: %s: the path is too long\n", dir);
		return 2;
	}
	c->unit = !co->no_unit;
	c->created = (long)time(NULL);
	return 0;
}

static void print_order(const struct pb_campaign *c, bool marks, FILE *f)
{
	pb_say(f, "order:");
	for (int i = 0; i < c->nr_order; i++) {
		enum pb_camp_outcome o = c->boots[i].outcome;
		const char *m = !marks ? "" : o == PB_BOOT_MEASURED ? "*" :
				o == PB_BOOT_FAILED ? "!" : o == PB_BOOT_MEASURING ? ">" : "";

		pb_say(f, " %s%s", c->kernels[c->order[i]].name, m);
	}
	pb_say(f, "\n");
}

static void print_plan(const struct pb_campaign *c, const char *dir, double run_s)
{
	char d[32], t[32];

	pb_say(stdout, "campaign %s: %d boots, state in %s, results in %s\n", c->name,
	       c->nr_order, dir, c->results);
	for (int i = 0; i < c->nr_kernels; i++)
		pb_say(stdout, "kernel %s: %s (%s)%s%s, cmdline '%s'\n", c->kernels[i].name,
		       c->kernels[i].image, c->kernels[i].release,
		       c->kernels[i].initrd[0] ? ", initrd " : "", c->kernels[i].initrd,
		       c->kernels[i].cmdline);
	print_order(c, false, stdout);
	if (c->random)
		pb_say(stdout, "seed: %lu\n", c->seed);
	run_dur_text(run_s, d, sizeof(d));
	run_dur_text(c->nr_order * (run_s + CAMP_REBOOT_S), t, sizeof(t));
	pb_say(stdout, "expected time: %s (%d boots x (the job's planned %s + %.0f s for a "
	       "reboot))\n", t, c->nr_order, d, CAMP_REBOOT_S);
	pb_say(stdout, "switch: %s\n", c->switch_cmd);
	pb_say(stdout, "%s\n", c->unit ? "unit: " CAMP_UNIT " enabled; the first step runs at "
	       "the next boot, or now with 'pinbench campaign step'" : "unit: not enabled "
	       "(--no-unit): run 'pinbench campaign step' at each boot");
}

/* The job file into dir/job.ini, the state, `current`: 0, or 2 (said). */
static int init_write(const struct pb_campaign *c, const char *dir, const char *job)
{
	char path[PATH_MAX], err[PATH_MAX + 256], *text = NULL;
	struct stat st;
	size_t n;
	int fd = pb_open_regular(job, &st, err, sizeof(err)), rc = 2;

	if (fd < 0 || pb_read_all(fd, 1 << 20, &text, &n)) {
		pb_say(stderr, "pinbench campaign: %s\n", fd < 0 ? err : strerror(errno));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/job.ini", dir);
	if (pb_file_save(path, text, false, err, sizeof(err)) ||
	    pb_camp_save(dir, c, err, sizeof(err))) {
		pb_say(stderr, "pinbench campaign: %s\n", err);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/current", camp_root());
	if (pb_mkdirs(camp_root()) || pb_file_save(path, dir, false, err, sizeof(err))) {
		pb_say(stderr, "pinbench campaign: %s/current: %s\n", camp_root(), err);
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(text);
	return rc;
}

/* The folders init made for a campaign it then refused, when they are empty. */
static void unmake(const char *dir, const struct pb_campaign *c)
{
	char path[PB_CAMP_PATH_MAX + PB_CAMP_NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s/%s", c->results, c->kernels[0].name);
	rmdir(path);
	rmdir(c->results);
	rmdir(dir);
}

static int init_checked(const struct camp_opts *co, const char *name)
{
	struct pb_campaign *c = calloc(1, sizeof(*c));
	char dir[PB_CAMP_PATH_MAX], path[PATH_MAX + 16];
	double run_s = 0;
	bool made;
	int rc = 2;

	if (!c || init_build(co, name, c, dir, sizeof(dir)) || kernels_check(c) ||
	    none_active())
		goto out;
	snprintf(path, sizeof(path), "%s/%s", dir, PB_CAMP_STATE_FILE);
	if (!access(path, F_OK)) {
		pb_say(stderr, "pinbench campaign: %s exists: a campaign was made there (give "
		       "another --state or NAME)\n", path);
		goto out;
	}
	if (space_check(dir) || space_check(c->results))
		goto out;
	made = access(dir, F_OK) != 0;
	if (pb_mkdirs(dir) || run_plan_check(co->job, c->results, c->kernels[0].name, &run_s)) {
		if (made)	/* what the check made, when empty */
			unmake(dir, c);
		goto out;
	}
	if (c->unit && systemctl("enable"))
		goto out;
	rc = init_write(c, dir, co->job);
	if (rc && c->unit)
		systemctl("disable");
	if (!rc)
		print_plan(c, dir, run_s);
out:
	free(c);
	return rc;
}

/* ---- step ---- */

/* The names of dir's .json files, each after a '\n' (to find the one a run adds). */
static char *json_names(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 2;
	char *s = calloc(1, 2);

	if (s)
		s[0] = '\n';
	while (s && d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char *t;

		if (l < 5 || strcmp(e->d_name + l - 5, ".json"))
			continue;
		t = realloc(s, n + l + 1);
		if (!t)
			break;
		s = t;
		snprintf(s + n - 1, l + 2, "%s\n", e->d_name);
		n += l + 1;
	}
	if (d)
		closedir(d);
	return s;
}

/* A name of after that is not one of before, as dir/name into buf. */
static void new_name(const char *dir, const char *before, const char *after, char *buf,
		     size_t len)
{
	char line[NAME_MAX + 3];

	buf[0] = 0;
	for (const char *p = after + strspn(after, "\n"); *p;) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof(line), "\n%.*s\n", (int)n, p);
		if (!strstr(before, line))
			snprintf(buf, len, "%s/%.*s", dir, (int)n, p);
		p += n + strspn(p + n, "\n");
	}
}

/* The job as `pinbench run -o RESULTS --label K DIR/job.ini`: its exit code, result into res. */
static int step_run(const struct pb_campaign *c, const char *dir, char *res, size_t len)
{
	const char *k = c->kernels[c->order[c->cur]].name;
	char job[PATH_MAX], label[PB_CAMP_PATH_MAX + PB_CAMP_NAME_MAX + 2], *before, *after;
	char *argv[] = { "run", "-o", (char *)c->results, "--label", (char *)k, job, NULL };
	int rc;

	snprintf(job, sizeof(job), "%s/job.ini", dir);
	snprintf(label, sizeof(label), "%s/%s", c->results, k);
	before = json_names(label);
	fflush(NULL);
	rc = cmd_run(6, argv);
	after = json_names(label);
	new_name(label, before ? before : "", after ? after : "", res, len);
	free(before);
	free(after);
	return rc;
}

static int save(const char *dir, const struct pb_campaign *c)
{
	char err[PATH_MAX + 256];

	if (!pb_camp_save(dir, c, err, sizeof(err)))
		return 0;
	pb_say(stderr, "pinbench campaign: %s\n", err);
	return -1;
}

/* The campaign ended: the unit disabled (when init enabled it). */
static void ended(const struct pb_campaign *c)
{
	if (c->unit)
		systemctl("disable");
}

static int report_write(const struct pb_campaign *c, const char *dir, const char *out);

/*
 * The next kernel still there as init checked it: its image readable and
 * naming the same release, its initrd readable.  0, or -1 with why.
 */
static int next_fit(const struct pb_camp_kernel *k, char *why, size_t len)
{
	char rel[PB_CAMP_RELEASE_MAX];

	if (image_release(k->image, rel, sizeof(rel)))
		snprintf(why, len, "its image %s cannot be read as a bzImage (see above)",
			 k->image);
	else if (strcmp(rel, k->release))
		snprintf(why, len, "its image %s is now release %s, not %s as at init",
			 k->image, rel, k->release);
	else if (k->initrd[0] && access(k->initrd, R_OK))
		snprintf(why, len, "its initrd %s: %s", k->initrd, strerror(errno));
	else
		return 0;
	return -1;
}

/* After the run of boot cur: record it, then switch or finish. */
static int step_after(struct pb_campaign *c, const char *dir, int run_rc, const char *res)
{
	const struct pb_camp_kernel *k;
	char cmd[4 * PB_CAMP_CMDLINE_MAX], out[PATH_MAX + 16], why[2 * PB_CAMP_PATH_MAX];
	bool ok = run_rc == 0 || run_rc == PB_EXIT_UNTRUSTED;
	int rc;

	if (pb_interrupted) {	/* Ctrl-C, or SIGTERM: no switch, the unit disabled */
		pb_say(stderr, "pinbench campaign: interrupted: the campaign stops here\n");
		ok = false;
	}

	if (pb_camp_measured(c, ok, run_rc, res[0] ? res : NULL, (long)time(NULL))) {
		k = &c->kernels[c->order[c->cur]];
		if (next_fit(k, why, sizeof(why)))
			pb_camp_switch_refused(c, why);
		else if (pb_camp_switch_cmd(c->switch_cmd, k, cmd, sizeof(cmd)))
			pb_camp_switch_failed(c, -1);
		if (save(dir, c))
			return CAMP_EXIT_STOPPED;
		if (c->state == PB_CAMP_SWITCHING) {
			pb_say(stdout, "pinbench campaign: boot %d measured; switching to kernel %s: "
			       "%s\n", c->cur, k->name, cmd);
			rc = spawn((char *[]){ "/bin/sh", "-c", cmd, NULL });
			if (!rc)
				return 0;
			pb_camp_switch_failed(c, rc);
			save(dir, c);
		}
	} else if (c->state == PB_CAMP_DONE) {
		if (save(dir, c))	/* done first: a crash in the report measures nothing again */
			return CAMP_EXIT_STOPPED;
		snprintf(out, sizeof(out), "%s/report", dir);
		rc = report_write(c, dir, out);
		pb_say(stdout, "pinbench campaign %s: done, %d boots; the report is in %s%s\n",
		       c->name, c->nr_order, out, rc ? " (not written: see above)" : "");
		ended(c);
		return 0;
	} else {
		save(dir, c);
	}
	pb_say(stderr, "pinbench campaign %s: stopped: %s\n", c->name, c->reason);
	ended(c);
	return CAMP_EXIT_STOPPED;
}

static int cmd_step(const struct camp_opts *co)
{
	struct pb_campaign *c = calloc(1, sizeof(*c));
	char dir[PB_CAMP_PATH_MAX], err[PATH_MAX + 256], why[PB_CAMP_REASON_MAX + 64];
	char id[PB_CAMP_BOOTID_MAX] = "", rel[PB_CAMP_RELEASE_MAX] = "";
	char cl[PB_CAMP_CMDLINE_MAX] = "", res[PATH_MAX];
	struct pb_camp_running r = { id, rel, cl, (long)time(NULL) };
	int rc = 2;

	if (!c)
		return 2;
	if (camp_dir(co, dir, sizeof(dir)) || (!co->state && access(dir, F_OK))) {
		pb_say(stdout, "pinbench campaign: no campaign (nothing in %s/current)\n",
		       camp_root());
		rc = 0;
		goto out;
	}
	if (pb_camp_load(dir, c, err, sizeof(err))) {
		pb_say(stderr, "pinbench campaign: %s\n", err);
		goto out;
	}
	if (pb_boot_id(id, sizeof(id)) ||
	    pb_sys_read(rel, sizeof(rel), "/proc/sys/kernel/osrelease") <= 0 ||
	    pb_sys_read(cl, sizeof(cl), "/proc/cmdline") < 0) {
		pb_say(stderr, "pinbench campaign: cannot read this boot's boot_id, osrelease or "
		       "cmdline (/proc): nothing done\n");
		goto out;
	}
	switch (pb_camp_decide(c, &r, why, sizeof(why))) {
	case PB_ACT_NONE:
		pb_say(stdout, "pinbench %s\n", why);
		rc = 0;
		break;
	case PB_ACT_STOP:
		save(dir, c);
		pb_say(stderr, "pinbench campaign %s: stopped: %s\n", c->name, why);
		ended(c);
		rc = CAMP_EXIT_STOPPED;
		break;
	default:
		pb_say(stdout, "pinbench campaign %s: %s\n", c->name, why);
		if (save(dir, c)) {
			rc = CAMP_EXIT_STOPPED;
			break;
		}
		rc = step_run(c, dir, res, sizeof(res));
		rc = step_after(c, dir, rc, res);
	}
out:
	free(c);
	return rc;
}

/* ---- status, abort, report ---- */

/* The campaign of --state or `current` into c, its folder into dir: 0, or 2 (said). */
static int load_any(const struct camp_opts *co, struct pb_campaign *c, char *dir, size_t len)
{
	char err[PATH_MAX + 256];

	if (camp_dir(co, dir, len)) {
		pb_say(stderr, "pinbench campaign: no campaign (nothing in %s/current; give "
		       "--state DIR)\n", camp_root());
		return 2;
	}
	if (pb_camp_load(dir, c, err, sizeof(err))) {
		pb_say(stderr, "pinbench campaign: %s\n", err);
		return 2;
	}
	return 0;
}

static void print_boot(const struct pb_campaign *c, int i)
{
	const struct pb_camp_boot *b = &c->boots[i];

	pb_say(stdout, "boot %d: kernel %s, boot_id %.8s, release %s, %s", i + 1,
	       c->kernels[c->order[i]].name, b->boot_id, b->release,
	       pb_camp_outcome_name(b->outcome));
	if (b->tries > 1)
		pb_say(stdout, " (%d tries)", b->tries);
	if (b->ended > b->started)
		pb_say(stdout, ", %ld s", b->ended - b->started);
	pb_say(stdout, "%s%s\n", b->result[0] ? ", " : "", b->result);
}

static int cmd_status(const struct camp_opts *co)
{
	struct pb_campaign *c = calloc(1, sizeof(*c));
	char dir[PB_CAMP_PATH_MAX];
	int rc = c ? load_any(co, c, dir, sizeof(dir)) : 2, next;

	if (rc)
		goto out;
	pb_say(stdout, "campaign: %s (%s)\nstate: %s\n", c->name, dir,
	       pb_camp_state_name(c->state));
	pb_say(stdout, "boot: %d of %d\n", c->cur + (c->cur < c->nr_order), c->nr_order);
	print_order(c, true, stdout);
	for (int i = 0; i < c->nr_order; i++)
		if (c->boots[i].outcome != PB_BOOT_NONE)
			print_boot(c, i);
	if (c->state == PB_CAMP_STOPPED)
		pb_say(stdout, "reason: %s\n", c->reason);
	next = c->cur + (c->state == PB_CAMP_RUNNING);
	if (!pb_camp_ended(c) && next < c->nr_order)
		pb_say(stdout, "next: kernel %s (boot %d)\n", c->kernels[c->order[next]].name,
		       next + 1);
	else
		pb_say(stdout, "next: none\n");
out:
	free(c);
	return rc;
}

static int cmd_abort(const struct camp_opts *co)
{
	struct pb_campaign *c = calloc(1, sizeof(*c));
	char dir[PB_CAMP_PATH_MAX];
	int rc = c ? load_any(co, c, dir, sizeof(dir)) : 2;

	if (rc)
		goto out;
	if (pb_camp_abort(c)) {
		pb_say(stdout, "pinbench campaign %s: already %s: nothing to abort\n", c->name,
		       pb_camp_state_name(c->state));
		goto out;
	}
	rc = save(dir, c) ? 2 : 0;
	if (!rc) {
		ended(c);
		pb_say(stdout, "pinbench campaign %s: aborted at boot %d of %d; this kernel stays "
		       "up\n", c->name, c->cur + 1, c->nr_order);
	}
out:
	free(c);
	return rc;
}

/* `pinbench report` of the first kernel's folder and each other's, into out. */
static int report_write(const struct pb_campaign *c, const char *dir, const char *out)
{
	char base[PATH_MAX], other[PATH_MAX], o[PATH_MAX + PB_CAMP_NAME_MAX];
	int rc = 0;

	(void)dir;
	snprintf(base, sizeof(base), "%s/%s", c->results, c->kernels[0].name);
	for (int i = 1; i < c->nr_kernels; i++) {
		char *argv[] = { "report", "-o", o, "--no-plot", base, other, NULL };
		int r;

		snprintf(other, sizeof(other), "%s/%s", c->results, c->kernels[i].name);
		snprintf(o, sizeof(o), "%s", out);
		if (c->nr_kernels > 2)
			snprintf(o, sizeof(o), "%s/%s", out, c->kernels[i].name);
		fflush(NULL);
		r = cmd_report(6, argv);
		rc = r > rc ? r : rc;
	}
	return rc;
}

static int cmd_creport(const struct camp_opts *co)
{
	struct pb_campaign *c = calloc(1, sizeof(*c));
	char dir[PB_CAMP_PATH_MAX], out[PATH_MAX + 16];
	int rc = c ? load_any(co, c, dir, sizeof(dir)) : 2;

	if (!rc) {
		snprintf(out, sizeof(out), "%s", co->out ? co->out : "");
		if (!co->out)
			snprintf(out, sizeof(out), "%s/report", dir);
		rc = report_write(c, dir, out) ? 2 : 0;
	}
	free(c);
	return rc;
}

int cmd_campaign(int argc, char **argv)
{
	struct camp_opts co = { 0 };
	const struct pb_opt t[] = {
		{ "kernel", 0, PB_ARG_MULTI, NULL, NULL, opt_kernel },
		{ "job", 0, PB_ARG_PATH, NULL, &co.job, NULL },
		{ "boots", 0, true, NULL, &co.boots, NULL },
		{ "order", 0, true, NULL, &co.order, NULL },
		{ "seed", 0, true, NULL, &co.seed, NULL },
		{ "state", 0, PB_ARG_PATH, NULL, &co.state, NULL },
		{ "results", 0, PB_ARG_PATH, NULL, &co.results, NULL },
		{ "switch", 0, true, NULL, &co.sw, NULL },
		{ "tries", 0, true, NULL, &co.tries, NULL },
		{ "no-unit", 0, false, &co.no_unit, NULL, NULL },
		{ "output", 'o', PB_ARG_PATH, NULL, &co.out, NULL },
		{ "help", 'h', false, NULL, NULL, pb_opt_help },
	};
	int st = pb_opts_parse(argc, argv, "", t, PB_OPTS_N(t), &co, NULL);
	const char *verb = optind < argc ? argv[optind] : NULL;
	bool init = verb && !strcmp(verb, "init");

	if (st != PB_OPTS_OK)
		return pb_opts_exit(pb_opts_usage(st, campaign_usage));
	if (!verb || optind + 1 + init != argc || (init && !*argv[optind + 1])) {
		pb_say(stderr, "pinbench campaign: want init NAME, step, status, abort or report "
		       "(see 'pinbench campaign --help')\n");
		return 2;
	}
	if (!init && (co.nr_kernels || co.job || co.boots || co.order || co.seed || co.results ||
		      co.sw || co.tries || co.no_unit || (co.out && strcmp(verb, "report")))) {
		pb_say(stderr, "pinbench campaign %s: takes --state%s only (the rest is init's)\n",
		       verb, strcmp(verb, "report") ? "" : " and -o");
		return 2;
	}
	if (init)
		return co.out ? 2 : init_checked(&co, argv[optind + 1]);
	if (!strcmp(verb, "step"))
		return cmd_step(&co);
	if (!strcmp(verb, "status"))
		return cmd_status(&co);
	if (!strcmp(verb, "abort"))
		return cmd_abort(&co);
	if (!strcmp(verb, "report"))
		return cmd_creport(&co);
	pb_say(stderr, "pinbench campaign: '%s': want init, step, status, abort or report\n", verb);
	return 2;
}
