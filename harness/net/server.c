// SPDX-License-Identifier: GPL-2.0-only
/*
 * server.c - `pinbench server`: the far end of udpping and rr across two
 * hosts.  It listens on a control port (loopback unless --bind names an
 * address), forks a session per client up to --max-sessions, and in the
 * session runs the workload's server role, pinned to the CPU the client
 * asked for, on data sockets of its own (port 0 on the bind address).
 * Nothing from the network is executed or opened: a session only picks
 * a workload from the table and parses its keys through the key table.
 * Its options and usage are cli/cmd_server.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/roles.h"
#include "net/netutil.h"
#include "net/proto.h"
#include "net/server.h"
#include "lib/clock.h"

#define HANDSHAKE_MS	10000	/* HELLO, the data connections, a frame once begun */
#define IDLE_S		30	/* --idle-timeout default */
#define IDLE_POLL_MS	1000	/* how often a session looks at its replies */
#define LOG_BURST	10	/* log lines of one kind a second; the rest summed up */
#define LOG_KINDS	32

struct srv {
	char			bind[128];
	int			port;
	cpu_set_t		cpus;
	int			max_sessions;
	int			session_timeout;	/* s */
	int			idle_timeout;		/* s */
	struct sockaddr_storage	addr;			/* bound control address */
	socklen_t		alen;
	int			lfd;
	pid_t			*kids;
};

struct srole {
	pthread_t		th;
	struct pb_role		r;
	struct pb_role_ctx	c;
	int			seen[2];
	int			done;
	int			failed;
	char			err[PB_ERR_MAX];
};

struct session {
	const struct srv	*s;
	int			id;
	int			fd;
	char			from[80];
	struct sockaddr_storage	peer;
	const struct pb_bench	*b;
	void			*opts;
	int			nr;
	int			cpu;
	long			max_s;
	long			idle_ms;
	uint16_t		ports[PB_PEER_MAX_INSTANCES];
	struct pb_setup_ctx	setup;
	struct pb_slot		*slots;
	struct pb_topo		*topo;		/* to pin the roles */
	struct srole		*roles;
	volatile int		stop;
	char			params[2048];
};

static volatile sig_atomic_t got_stop, got_chld;

static void on_stop(int sig)
{
	(void)sig;
	got_stop = 1;
}

static void on_chld(int sig)
{
	(void)sig;
	got_chld = 1;
}

/* ------------------------------------------------------------- log */

/*
 * The log is rate limited per kind of line (the format of the slog()
 * call): LOG_BURST lines a second, then one "suppressed N similar lines"
 * summary, so that 10,000 tiny connections do not make 10,000 lines.  The
 * counts are in shared memory: the listener and every session process
 * (forked, so a format has the same address in all of them) count together.
 */
struct log_kind {
	const char	*fmt;
	time_t		sec;		/* the second being counted */
	int		lines;		/* printed in it */
	long		suppressed;	/* since the last summary */
	char		first[256];	/* the first of those */
};

struct log_shm {
	pthread_mutex_t	lock;		/* process-shared, robust */
	struct log_kind	kind[LOG_KINDS];
};

static struct log_shm *logs;	/* NULL: every line printed */
static FILE *log_out;		/* the command's (pb_server_opts.log), or NULL */

static void log_print(time_t t, const char *text)
{
	char ts[32];
	struct tm tm;

	if (!log_out)
		return;
	gmtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(log_out, "pinbench server: %s %s\n", ts, text);
}

static void log_init(void)
{
	struct log_shm *l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t a;
	int rc;

	if (l == MAP_FAILED)
		return;
	pthread_mutexattr_init(&a);
	rc = pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED) ||
	     pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST) ||
	     pthread_mutex_init(&l->lock, &a);
	pthread_mutexattr_destroy(&a);
	if (rc)
		munmap(l, sizeof(*l));
	else
		logs = l;
}

static int log_lock(void)
{
	int r = pthread_mutex_lock(&logs->lock);

	if (r == EOWNERDEAD)	/* a session killed while logging: the counts still hold */
		r = pthread_mutex_consistent(&logs->lock);
	return r;
}

/* Locked: the summary of k's suppressed lines, if any. */
static void log_summary(struct log_kind *k, time_t t)
{
	char text[sizeof(k->first) + 64];

	if (!k->suppressed)
		return;
	snprintf(text, sizeof(text), "suppressed %ld similar line%s (the first: %s)",
		 k->suppressed, k->suppressed > 1 ? "s" : "", k->first);
	log_print(t, text);
	k->suppressed = 0;
}

/*
 * The summaries of the kinds whose second is over (all: every one).  Are
 * lines still waiting for theirs?
 */
static bool log_flush(bool all)
{
	time_t t = time(NULL);
	bool waiting = false;

	if (!logs || log_lock())
		return false;
	for (int i = 0; i < LOG_KINDS; i++) {
		struct log_kind *k = &logs->kind[i];

		if (all || k->sec != t)
			log_summary(k, t);
		waiting |= k->suppressed > 0;
	}
	pthread_mutex_unlock(&logs->lock);
	return waiting;
}

static void __attribute__((format(printf, 1, 2))) slog(const char *fmt, ...)
{
	struct log_kind *k = NULL;
	time_t t = time(NULL);
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!logs || log_lock())
		return log_print(t, text);
	for (int i = 0; i < LOG_KINDS && !k; i++)
		if (logs->kind[i].fmt == fmt || !logs->kind[i].fmt)
			k = &logs->kind[i];
	if (k && !k->fmt)
		k->fmt = fmt;
	if (k && k->sec != t) {
		log_summary(k, t);
		k->sec = t;
		k->lines = 0;
	}
	if (!k || k->lines++ < LOG_BURST)
		log_print(t, text);
	else if (!k->suppressed++)
		snprintf(k->first, sizeof(k->first), "%.*s", (int)sizeof(k->first) - 1, text);
	pthread_mutex_unlock(&logs->lock);
}

/* --------------------------------------------------------- options */

void pb_server_defaults(struct pb_server_opts *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->bind, sizeof(o->bind), "127.0.0.1");
	o->port = PB_SERVER_PORT;
	o->max_sessions = 4;
	o->session_timeout = 3600;
	o->idle_timeout = IDLE_S;
	sched_getaffinity(0, sizeof(o->cpus), &o->cpus);
}

/* ---------------------------------------------------- a session's roles */

static void *role_thread(void *arg)
{
	pb_role_run(arg);
	return NULL;
}

static int roles_start(struct session *x)
{
	char err[PB_ERR_MAX];

	if (pb_topo_load(&x->topo, NULL, err, sizeof(err))) {
		slog("session %d (%s): %s", x->id, x->from, err);
		return -1;
	}
	x->slots = aligned_alloc(64, x->nr * sizeof(*x->slots));
	x->roles = calloc(x->nr, sizeof(*x->roles));
	if (!x->slots || !x->roles)
		return -1;
	memset(x->slots, 0, x->nr * sizeof(*x->slots));
	for (int i = 0; i < x->nr; i++) {
		struct srole *r = &x->roles[i];

		x->slots[i].window = -1;
		r->c = (struct pb_role_ctx){ .role = 1, .instance = i, .nr_instances = x->nr,
			.cpu = x->cpu, .opts = x->opts, .shared = x->setup.shared,
			.slot = &x->slots[i], .client = (struct sockaddr *)&x->peer,
			.stopflag = &x->stop, .err = r->err };
		r->r = (struct pb_role){ .topo = x->topo, .bench = x->b, .c = &r->c,
			.seen = r->seen, .failed = &r->failed, .done = &r->done };
		if (pthread_create(&r->th, NULL, role_thread, &r->r)) {
			x->nr = i;
			return -1;
		}
	}
	return 0;
}

static bool role_running(void *arg, int i)
{
	struct session *x = arg;

	if (__atomic_load_n(&x->roles[i].done, __ATOMIC_ACQUIRE))
		return false;
	pthread_kill(x->roles[i].th, SIGUSR1);
	return true;
}

static void roles_give_up(void *arg)
{
	struct session *x = arg;

	slog("session %d: a role did not stop within 5 s; exiting", x->id);
}

/* Stop and join the roles; the first failure in err.  Ops of all of them. */
static uint64_t roles_stop(struct session *x, char *err, size_t len)
{
	uint64_t ops = 0;

	pb_roles_stop(&(struct pb_roles_stop){ .stopflag = &x->stop, .nr = x->nr,
		.running = role_running, .give_up = roles_give_up, .arg = x });
	for (int i = 0; i < x->nr; i++) {
		pthread_join(x->roles[i].th, NULL);
		ops += x->slots[i].ops;
		if (x->roles[i].failed && !*err)
			snprintf(err, len, "server/%d: %.200s", i,
				 x->roles[i].err[0] ? x->roles[i].err : "failed");
	}
	return ops;
}

/* Replies the roles have sent so far. */
static uint64_t roles_ops(const struct session *x)
{
	uint64_t n = 0;

	for (int i = 0; x->slots && i < x->nr; i++)
		n += __atomic_load_n(&x->slots[i].ops, __ATOMIC_RELAXED);
	return n;
}

/* -------------------------------------------------------- a session */

static void send_error(struct session *x, const char *why)
{
	struct pb_msg *m = malloc(sizeof(*m));
	char e[PB_ERR_MAX];

	if (!m)
		return;
	pb_msg_init(m, PB_MSG_ERROR);
	pb_msg_add(m, "reason", "%.400s", why);
	pb_proto_send(x->fd, m, e, sizeof(e));
	free(m);
}

static void refuse(struct session *x, const char *why)
{
	slog("session %d (%s): refused: %s", x->id, x->from, why);
	send_error(x, why);
}

static const char *const hello_fields[] = { "bench", "cpu", "instances", "max_s", NULL };

static int hello_fields_check(const struct pb_msg *m, char *err, size_t len)
{
	for (int i = 0; i < m->nr; i++) {
		int k;

		if (!strncmp(m->kv[i].key, "p.", 2))
			continue;
		for (k = 0; hello_fields[k]; k++)
			if (!strcmp(m->kv[i].key, hello_fields[k]))
				break;
		if (!hello_fields[k]) {
			snprintf(err, len, "HELLO: unknown field '%s'", m->kv[i].key);
			return -1;
		}
	}
	return 0;
}

/*
 * --idle-timeout, or twice the workload's reply timeout when that is longer: the
 * client's wait for a lost reply must not look like a silent client.
 */
static long idle_ms(const struct session *x)
{
	long ms = x->s->idle_timeout * 1000L, t = pb_bench_reply_timeout_ms(x->b, x->opts);

	return 2 * t > ms ? 2 * t : ms;
}

static int hello_check(struct session *x, const struct pb_msg *m, char *err, size_t len)
{
	const char *name = pb_msg_get(m, "bench");
	char e[PB_ERR_MAX] = "", can[128];
	long cpu, nr;

	if (m->type != PB_MSG_HELLO)
		return snprintf(err, len, "expected HELLO, got %s", pb_msg_name(m->type)), -1;
	if (hello_fields_check(m, err, len))
		return -1;
	x->b = name ? pb_bench_find(name) : NULL;
	if (!pb_bench_peer_capable(x->b)) {
		pb_benches_with(pb_benches, pb_bench_peer_capable, can, sizeof(can));
		return snprintf(err, len, "bench '%.64s' cannot run across hosts (%s can)",
				name ? name : "(none)", can), -1;
	}
	if (pb_msg_long(m, "cpu", 0, CPU_SETSIZE - 1, &cpu, err, len) ||
	    pb_msg_long(m, "instances", 1, PB_PEER_MAX_INSTANCES, &nr, err, len) ||
	    pb_msg_long(m, "max_s", 1, 10L * 86400, &x->max_s, err, len))
		return -1;
	if (!CPU_ISSET(cpu, &x->s->cpus))
		return snprintf(err, len, "CPU %ld is not offered by this server (--cpus)",
				cpu), -1;
	if (x->max_s > x->s->session_timeout)
		return snprintf(err, len, "the job may take up to %ld s, over this server's "
				"--session-timeout of %d s", x->max_s, x->s->session_timeout), -1;
	x->cpu = (int)cpu;
	x->nr = (int)nr;
	x->opts = calloc(1, x->b->opts_size ? x->b->opts_size : 1);
	if (!x->opts || pb_params_from_msg(x->b, m, x->opts, err, len))
		return x->opts ? -1 : (snprintf(err, len, "out of memory"), -1);
	if (pb_params_instances(x->b, x->opts) != nr)
		return snprintf(err, len, "instances=%ld but the parameters ask for %ld", nr,
				pb_params_instances(x->b, x->opts)), -1;
	if (x->b->check && x->b->check(x->opts, x->nr, e))
		return snprintf(err, len, "%s", e), -1;
	x->idle_ms = idle_ms(x);
	return 0;
}

static int send_ready(struct session *x, struct pb_msg *m, char *err, size_t len)
{
	char host[65], kernel[65], model[128], ports[PB_PEER_MAX_INSTANCES * 6 + 1] = "";
	size_t off = 0;

	pb_host_facts(host, sizeof(host), kernel, sizeof(kernel), model, sizeof(model));
	for (int i = 0; i < x->nr; i++)
		off += snprintf(ports + off, sizeof(ports) - off, "%s%u", i ? "," : "",
				x->ports[i]);
	pb_params_canon(x->b, x->opts, x->params, sizeof(x->params));
	pb_msg_init(m, PB_MSG_READY);
	if (pb_msg_add(m, "ports", "%s", ports) || pb_msg_add(m, "hostname", "%s", host) ||
	    pb_msg_add(m, "kernel", "%s", kernel) ||
	    pb_msg_add(m, "cpu_model", "%s", model) ||
	    pb_msg_add(m, "cpu", "%d", x->cpu) ||
	    pb_msg_add(m, "params", "%s", x->params) ||
	    pb_msg_add(m, "params_hash", "%016" PRIx64, pb_params_hash(x->params)))
		return snprintf(err, len, "READY does not fit"), -1;
	return pb_proto_send(x->fd, m, err, len);
}

/*
 * Until STOP (0), or -1 with the reason: closed, malformed, over max_s,
 * or idle (*idle): no request answered and no frame for x->idle_ms.  A
 * frame once begun must be whole within HANDSHAKE_MS.
 */
static int wait_stop(struct session *x, struct pb_msg *m, bool *idle, char *err, size_t len)
{
	double now = pb_mono_ms(), end = now + x->max_s * 1e3, last = now;
	uint64_t seen = roles_ops(x), ops;

	*idle = false;
	for (;;) {
		struct pollfd p = { .fd = x->fd, .events = POLLIN };
		double until = last + x->idle_ms < end ? last + x->idle_ms : end;
		int r;

		if (now >= end)
			return snprintf(err, len, "no STOP within the job's %ld s", x->max_s), -1;
		if (now >= last + x->idle_ms) {
			*idle = true;
			return snprintf(err, len, "idle: no request answered for %ld s",
					x->idle_ms / 1000), -1;
		}
		r = poll(&p, 1, until - now < IDLE_POLL_MS ? (int)(until - now) + 1 : IDLE_POLL_MS);
		if (r < 0 && errno != EINTR)
			return snprintf(err, len, "poll: %s", strerror(errno)), -1;
		if (r > 0)
			break;
		now = pb_mono_ms();
		ops = roles_ops(x);
		if (ops != seen) {
			seen = ops;
			last = now;
		}
	}
	if (pb_proto_recv(x->fd, m, HANDSHAKE_MS, err, len))
		return -1;
	if (m->type != PB_MSG_STOP)
		return snprintf(err, len, "expected STOP, got %s", pb_msg_name(m->type)), -1;
	return 0;
}

static void run_session(struct session *x, struct pb_msg *m)
{
	struct pb_peer_ctx p = { .nr_instances = x->nr, .addr = (struct sockaddr *)&x->s->addr,
		.alen = x->s->alen, .ports = x->ports, .client = (struct sockaddr *)&x->peer,
		.timeout_ms = HANDSHAKE_MS, .opts = x->opts, .err = x->setup.err };
	char err[PB_ERR_MAX] = "", rerr[PB_ERR_MAX] = "";
	uint64_t ops;
	bool idle;
	int stopped;

	if (x->b->peer_listen(&p))
		return refuse(x, x->setup.err);
	x->setup.shared = p.shared;
	if (send_ready(x, m, err, sizeof(err)))
		return slog("session %d (%s): %s", x->id, x->from, err);
	if (x->b->peer_accept && x->b->peer_accept(&p))
		return slog("session %d (%s): %s", x->id, x->from, x->setup.err);
	slog("session %d (%s): %s on CPU %d, %d instance%s: %s", x->id, x->from, x->b->name,
	     x->cpu, x->nr, x->nr > 1 ? "s" : "", x->params);
	if (roles_start(x)) {
		snprintf(rerr, sizeof(rerr), "cannot start the server roles");
		stopped = wait_stop(x, m, &idle, err, sizeof(err));
	} else {
		stopped = wait_stop(x, m, &idle, err, sizeof(err));
	}
	ops = x->roles ? roles_stop(x, rerr, sizeof(rerr)) : 0;
	if (stopped && idle) {
		char why[2 * PB_ERR_MAX + 8];	/* both reasons, whole */

		snprintf(why, sizeof(why), "%s%s%s", err, *rerr ? "; " : "", rerr);
		send_error(x, why);
	}
	if (stopped)
		return slog("session %d (%s): ended: %s (%" PRIu64 " replies)", x->id, x->from,
			    err, ops);
	pb_msg_init(m, PB_MSG_BYE);
	pb_msg_add(m, "ops", "%" PRIu64, ops);
	if (*rerr)
		pb_msg_add(m, "error", "%.400s", rerr);
	pb_proto_send(x->fd, m, err, sizeof(err));
	slog("session %d (%s): done: %" PRIu64 " replies%s%s", x->id, x->from, ops,
	     *rerr ? "; " : "", rerr);
}

static int session_main(const struct srv *s, int fd, int id,
			const struct sockaddr_storage *from)
{
	struct session x = { .s = s, .id = id, .fd = fd, .peer = *from };
	struct pb_msg *m = malloc(sizeof(*m));
	char err[PB_ERR_MAX], serr[PB_ERR_MAX] = "";
	int hs = s->session_timeout * 1000 < HANDSHAKE_MS ? s->session_timeout * 1000
							 : HANDSHAKE_MS;

	x.setup.err = serr;
	pb_sockaddr_text((const struct sockaddr *)from, x.from, sizeof(x.from));
	if (!m)
		return 1;
	if (pb_proto_recv(fd, m, hs, err, sizeof(err)))
		slog("session %d (%s): closed: %s", id, x.from, err);
	else if (hello_check(&x, m, err, sizeof(err)))
		refuse(&x, err);
	else
		run_session(&x, m);
	if (x.setup.shared && x.b->teardown)
		x.b->teardown(&x.setup);
	free(x.roles);
	free(x.slots);
	if (x.topo)
		pb_topo_free(x.topo);
	free(x.opts);
	free(m);
	close(fd);
	return 0;
}

/* --------------------------------------------------- the listener */

static int listen_on(struct srv *s, char *err, size_t len)
{
	char why[PB_ERR_MAX], where[96];
	int one = 1;

	if (pb_peer_resolve(s->bind, s->port, true, &s->addr, &s->alen, why, sizeof(why))) {
		snprintf(err, len, "--bind %s: %s", s->bind, why);
		return -2;	/* not an address: the user's to fix */
	}
	pb_sockaddr_text((struct sockaddr *)&s->addr, where, sizeof(where));
	s->lfd = socket(s->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->lfd < 0 ||
	    setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s->lfd, (struct sockaddr *)&s->addr, s->alen) ||
	    listen(s->lfd, 16) ||
	    getsockname(s->lfd, (struct sockaddr *)&s->addr, &s->alen)) {
		snprintf(err, len, "cannot listen on %s: %s", where, strerror(errno));
		if (s->lfd >= 0)
			close(s->lfd);
		return -1;
	}
	pb_sockaddr_text((struct sockaddr *)&s->addr, where, sizeof(where));
	slog("listening on %s (CPUs %d offered, at most %d sessions of at most %d s, "
	     "idle at most %d s)", where, CPU_COUNT(&s->cpus), s->max_sessions,
	     s->session_timeout, s->idle_timeout);
	return 0;
}

static int active(const struct srv *s)
{
	int n = 0;

	for (int i = 0; i < s->max_sessions; i++)
		n += s->kids[i] > 0;
	return n;
}

static void reap(struct srv *s)
{
	pid_t pid;
	int st;

	got_chld = 0;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		for (int i = 0; i < s->max_sessions; i++)
			if (s->kids[i] == pid) {
				s->kids[i] = 0;
				if (WIFSIGNALED(st))
					slog("session process %d killed by signal %d", pid,
					     WTERMSIG(st));
			}
}

static void child_start(struct srv *s, const sigset_t *old)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(s->lfd);
}

static void take(struct srv *s, int id, const sigset_t *old)
{
	struct sockaddr_storage from;
	socklen_t fl = sizeof(from);
	int fd = accept4(s->lfd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC), slot;
	pid_t pid;

	if (fd < 0)
		return;
	/*
	 * A session that ended as this client came may not have been reaped:
	 * its SIGCHLD stays pending when ppoll returns for the connection.
	 */
	reap(s);
	for (slot = 0; slot < s->max_sessions && s->kids[slot] > 0; slot++)
		;
	if (slot == s->max_sessions) {
		struct session x = { .s = s, .id = id, .fd = fd };
		char why[96];

		pb_sockaddr_text((struct sockaddr *)&from, x.from, sizeof(x.from));
		snprintf(why, sizeof(why), "busy: %d sessions running (--max-sessions %d)",
			 active(s), s->max_sessions);
		refuse(&x, why);
		close(fd);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		child_start(s, old);
		_exit(session_main(s, fd, id, &from));
	}
	if (pid > 0)
		s->kids[slot] = pid;
	else
		slog("session %d: fork: %s", id, strerror(errno));
	close(fd);
}

static void serve(struct srv *s, const sigset_t *old)
{
	int id = 0;

	while (!got_stop) {
		struct pollfd p = { .fd = s->lfd, .events = POLLIN };
		struct timespec one = { 1, 0 };

		if (got_chld)
			reap(s);
		/* a second later when suppressed lines wait for their summary */
		if (ppoll(&p, 1, log_flush(false) ? &one : NULL, old) > 0)
			take(s, ++id, old);
	}
	for (int i = 0; i < s->max_sessions; i++)
		if (s->kids[i] > 0)
			kill(s->kids[i], SIGKILL);
	for (int i = 0; i < s->max_sessions; i++)
		if (s->kids[i] > 0)
			waitpid(s->kids[i], NULL, 0);
	log_flush(true);
	slog("stopped");
}

int pb_server_run(const struct pb_server_opts *o, char *err, size_t len)
{
	struct sigaction stop = { .sa_handler = on_stop }, chld = { .sa_handler = on_chld };
	struct srv s = { .lfd = -1, .port = o->port, .cpus = o->cpus,
			 .max_sessions = o->max_sessions, .session_timeout = o->session_timeout,
			 .idle_timeout = o->idle_timeout };
	sigset_t block, old;
	int rc;

	snprintf(s.bind, sizeof(s.bind), "%s", o->bind);
	s.kids = calloc(s.max_sessions, sizeof(*s.kids));
	if (!s.kids) {
		snprintf(err, len, "%s", "");	/* said nothing before either */
		return -1;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGTERM, &stop, NULL);
	sigaction(SIGCHLD, &chld, NULL);
	pb_roles_catch_stop();		/* sessions' roles */
	signal(SIGPIPE, SIG_IGN);
	log_out = o->log;
	log_init();
	rc = listen_on(&s, err, len);
	if (!rc) {
		serve(&s, &old);
		close(s.lfd);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(s.kids);
	return rc;
}
