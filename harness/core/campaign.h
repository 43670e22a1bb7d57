/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * campaign.h - `pinbench campaign`'s decisions (campaign.c): the boot
 * order, which boot a step expects, whether the running kernel is it, and
 * what the step does (measure, resume, switch, finish, stop and why).  No
 * I/O: the state is a struct that report/campaign_state.c loads and saves
 * and cli/cmd_campaign.c acts on.
 */
#ifndef PINBENCH_CAMPAIGN_H
#define PINBENCH_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>

#define PB_CAMP_KERNELS_MAX	8
#define PB_CAMP_BOOTS_MAX	64	/* boots in all */
#define PB_CAMP_NAME_MAX	101
#define PB_CAMP_PATH_MAX	1024
#define PB_CAMP_CMDLINE_MAX	2048
#define PB_CAMP_RELEASE_MAX	65
#define PB_CAMP_BOOTID_MAX	40
#define PB_CAMP_REASON_MAX	(PB_CAMP_CMDLINE_MAX + 512)
#define PB_CAMP_TRIES_DEFAULT	2
#define PB_CAMP_TRIES_MAX	10

enum pb_camp_state {
	PB_CAMP_PLANNED,	/* init done, no step yet */
	PB_CAMP_RUNNING,	/* a step is measuring boot `cur` */
	PB_CAMP_SWITCHING,	/* boot cur - 1 measured, the switch to cur issued */
	PB_CAMP_DONE,
	PB_CAMP_STOPPED,	/* reason says why */
	PB_CAMP_ABORTED,
};

enum pb_camp_outcome {
	PB_BOOT_NONE,		/* not reached */
	PB_BOOT_MEASURING,	/* the step began the run (a crash leaves it so) */
	PB_BOOT_MEASURED,
	PB_BOOT_FAILED,		/* the run failed */
};

struct pb_camp_kernel {
	char	name[PB_CAMP_NAME_MAX];
	char	image[PB_CAMP_PATH_MAX];
	char	initrd[PB_CAMP_PATH_MAX];	/* "" for none */
	char	cmdline[PB_CAMP_CMDLINE_MAX];
	char	release[PB_CAMP_RELEASE_MAX];	/* from the image's header */
};

struct pb_camp_boot {
	enum pb_camp_outcome	outcome;
	int			tries;		/* runs begun on this boot */
	char			boot_id[PB_CAMP_BOOTID_MAX];
	char			release[PB_CAMP_RELEASE_MAX];
	char			cmdline[PB_CAMP_CMDLINE_MAX];
	char			result[PB_CAMP_PATH_MAX];	/* the result file, or "" */
	long			started, ended;			/* Unix time; 0 unknown */
};

struct pb_campaign {
	char			name[PB_CAMP_NAME_MAX];
	enum pb_camp_state	state;
	int			nr_kernels;
	struct pb_camp_kernel	kernels[PB_CAMP_KERNELS_MAX];
	int			nr_order;
	int			order[PB_CAMP_BOOTS_MAX];	/* kernel index per boot */
	struct pb_camp_boot	boots[PB_CAMP_BOOTS_MAX];	/* one per order slot */
	int			cur;		/* the slot the campaign is at */
	int			tries;		/* runs a boot may begin (--tries) */
	bool			random;		/* --order random */
	unsigned long		seed;
	bool			unit;		/* the systemd unit was enabled */
	char			switch_cmd[PB_CAMP_PATH_MAX];
	char			results[PB_CAMP_PATH_MAX];
	char			reason[PB_CAMP_REASON_MAX];	/* stopped: why */
	long			created;
};

/* The running kernel as a step sees it. */
struct pb_camp_running {
	const char	*boot_id;
	const char	*release;	/* osrelease */
	const char	*cmdline;	/* /proc/cmdline */
	long		now;
};

enum pb_camp_act {
	PB_ACT_NONE,	/* nothing to do: why says (done, aborted, stopped before) */
	PB_ACT_MEASURE,	/* a new boot: run the job (the state was updated: save it first) */
	PB_ACT_RESUME,	/* the same boot again: run the job once more (updated: save first) */
	PB_ACT_STOP,	/* the state is now stopped with its reason: save it */
};

const char *pb_camp_state_name(enum pb_camp_state s);
int pb_camp_state_parse(const char *s, enum pb_camp_state *v);
const char *pb_camp_outcome_name(enum pb_camp_outcome o);
int pb_camp_outcome_parse(const char *s, enum pb_camp_outcome *v);
/* done, stopped or aborted: no step does anything any more */
bool pb_camp_ended(const struct pb_campaign *c);

/*
 * The boot order of c->nr_kernels kernels booted `boots` times each into
 * c->order and c->nr_order: abba (rounds alternately forward and
 * backward: A B B A A B ...), or with c->random a balanced order
 * shuffled from c->seed (the same seed, the same order).  0, or -1 when
 * there are too many boots (more than PB_CAMP_BOOTS_MAX) or none.
 */
int pb_camp_order(struct pb_campaign *c, int boots);

/*
 * Does the command line have the token set of want (order and repeats
 * aside, BOOT_IMAGE= and initrd= left out on both sides)?
 */
bool pb_camp_cmdline_same(const char *have, const char *want);
/*
 * base (a /proc/cmdline) without its BOOT_IMAGE= and initrd= tokens, and
 * append after it when not NULL, into buf: 0, or -1 when it does not fit.
 */
int pb_camp_cmdline_make(const char *base, const char *append, char *buf, size_t len);

/*
 * The kernel release of a bzImage from its first n bytes: the setup
 * header's "HdrS" at 0x202, the version string the 16-bit pointer at
 * 0x20E names (plus 0x200), its first word.  0, or -1 with err.
 */
int pb_camp_bzimage_release(const unsigned char *img, size_t n, char *rel, size_t len,
			    char *err, size_t elen);

/*
 * What a step does on the running kernel r: the state is updated for the
 * action (a new boot recorded as measuring, a resume counted, a stop
 * with its reason) and why says it in a line.
 */
enum pb_camp_act pb_camp_decide(struct pb_campaign *c, const struct pb_camp_running *r,
				char *why, size_t len);
/*
 * The run of the current boot ended (ok: it measured; result: its file,
 * or NULL; rc its exit code).  Returns true when a switch is to be issued
 * (the state is switching, to c->order[c->cur]), false when the campaign
 * ended (done after the last boot, or stopped: the run failed).
 */
bool pb_camp_measured(struct pb_campaign *c, bool ok, int rc, const char *result, long now);
/* The switch command failed (rc): the campaign stops. */
void pb_camp_switch_failed(struct pb_campaign *c, int rc);
/* The next kernel is not fit to boot (why: its image gone or changed): stopped. */
void pb_camp_switch_refused(struct pb_campaign *c, const char *why);
/* abort: 0, or -1 when the campaign had ended already (nothing changed). */
int pb_camp_abort(struct pb_campaign *c);

/*
 * The switch command for kernel k: tmpl with {image}, {initrd},
 * {initrd_opt} (--initrd=FILE or nothing), {cmdline} and {kernel}
 * expanded, each shell-quoted.  0, or -1 when it does not fit in len.
 */
int pb_camp_switch_cmd(const char *tmpl, const struct pb_camp_kernel *k, char *buf, size_t len);
#define PB_CAMP_SWITCH_DEFAULT \
	"kexec -l {image} {initrd_opt} --append={cmdline} && systemctl kexec"

#endif
