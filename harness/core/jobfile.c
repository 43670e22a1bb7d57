// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobfile.c - fio-style INI job files: read, inherit, override, validate,
 * expand sweeps.
 *
 * Syntax, as implemented:
 *  - A job file is a regular file (not a FIFO, a device or a folder) of at
 *    most 1 MiB; a line is at most 4096 bytes (the newline not counted); a
 *    NUL byte is an error; a UTF-8 byte order mark at the start is skipped.
 *  - A line whose first non-blank character is '#' or ';' is a comment.
 *    Trailing comments are NOT stripped: "size = 64 # bytes" has the value
 *    "64 # bytes" (an error, with a hint), because '#' and ';' may be part
 *    of a value (event strings).
 *  - "[name]" starts a section; "[global]" (at most once, before the first
 *    job) holds keys every job inherits.  Section names: 1..63 letters,
 *    digits and "_-.:+@".  A name twice is an error.
 *  - "key = value": blanks around key and value are trimmed.  A key twice
 *    in one section is an error.  A key before any section is an error.
 *  - Integers: decimal, optionally with a binary suffix K, M or G
 *    (x 1024, 1024^2, 1024^3): "size=64K" is 65536.  Lower-case suffixes
 *    are refused (is "k" 1000 or 1024?).
 *  - Booleans: 0|1|yes|no|true|false|on|off (any case).
 *  - A PB_KEY_SWEEP key given as a list "1,2,4" expands the job into one
 *    job per value, named "SECTION/KEY=VALUE"; "all" is 1, 2, 4, ... up to
 *    the number of CPUs, and that number itself (a scaling curve that
 *    stays short on big machines).  One sweep key per job.
 *  - Precedence: default < [global] < job section < command line.
 *    cpus= replaces placement= unless placement= was given at a later
 *    level (e.g. --placement on the command line over a file's cpus=).
 *  - A command-line override naming a key that a job's workload does not
 *    have is ignored for that job; it is an error when no job has it.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jobfile.h"
#include "lib/addr.h"
#include "sys/topo.h"
#include "lib/util.h"

#define SEC_NAME_MAX	63
#define CPU_NR_MAX	65536	/* highest CPU number accepted, exclusive */
#define CPUS_MAX	4096	/* CPUs in one cpus= list */
#define SWEEP_MAX	1024	/* values in one sweep */
#define JOB_FILE_MAX	(1 << 20)	/* bytes in a job file */
#define JOB_LINE_MAX	4096	/* bytes in one line of it, the newline not counted */

/* Test hooks: the unit tests swap in fake workloads. */
const struct pb_bench *(*pb_jobfile_find_bench)(const char *name) = pb_bench_find;
const struct pb_bench *const *pb_jobfile_benches;	/* NULL: pb_benches */

#define PAIR_DEFAULT	"same-cpu,same-core,same-socket,diff-socket"
#define WORKERS_DEFAULT	"compact"

const char *const pb_estimator_names[] = {
	[PB_EST_MEDIAN] = "median", [PB_EST_TRIMMED] = "trimmed", [PB_EST_MEAN] = "mean",
	[PB_EST_P50] = "p50",
};

/* Layers, lowest precedence first. */
enum { L_DEFAULT, L_GLOBAL, L_SECTION, L_OVERRIDE };

/* One key = value from a file or the command line. */
struct ent {
	char		*key;
	char		*val;
	const char	*origin;	/* file path, "--set"..., or NULL (ad hoc) */
	int		line;		/* > 0: a file line */
	int		layer;
};

struct section {
	char		*name;
	int		line;
	struct ent	*e;
	int		nr;
};

struct ini {
	const char	*path;
	struct section	global;
	struct section	*jobs;
	int		nr_jobs;
};

struct ctx {
	const char	*path;
	struct section	over;		/* the overrides */
	bool		*used;		/* per override: some job has the key */
	int		nr_cpus;
};

/* The effective entries of one job, one per key. */
struct eff {
	const struct ent	**e;
	int			nr;
};

/* ---------------------------------------------------------------- */
/* Errors */

/*
 * "FILE:LINE: [KEY: ]msg" for a file, "--set KEY: msg" (or "--repeats: msg"
 * when the origin is the key's own option) for an option, "ORIGIN: [KEY: ]msg"
 * for another origin ("command line"), "[KEY: ]msg" without one.
 */
static int where_fail(char *err, size_t len, const char *origin, int line,
		      const char *key, bool with_key, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
static int where_fail(char *err, size_t len, const char *origin, int line,
		      const char *key, bool with_key, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (line > 0)
		n = snprintf(err, len, "%s:%d: %s%s", origin, line,
			     with_key ? key : "", with_key ? ": " : "");
	else if (origin && !strncmp(origin, "--", 2) && !strcmp(origin + 2, key))
		n = snprintf(err, len, "%s: ", origin);
	else if (origin && origin[0] == '-')
		n = snprintf(err, len, "%s %s: ", origin, key);
	else if (origin)
		n = snprintf(err, len, "%s: %s%s", origin, with_key ? key : "",
			     with_key ? ": " : "");
	else if (with_key)
		n = snprintf(err, len, "%s: ", key);
	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - n, fmt, ap);
		va_end(ap);
	}
	pb_str_clean(err);	/* the job file's text, quoted */
	return -1;
}

#define ENT_FAIL(err, len, e, wk, ...) \
	where_fail(err, len, (e)->origin, (e)->line, (e)->key, wk, __VA_ARGS__)

static int oom(char *err, size_t len)
{
	return pb_errf(err, len, 0, "out of memory");
}

/* ---------------------------------------------------------------- */
/* Values */

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

const char *pb_job_get(const struct pb_job *j, const char *key)
{
	for (int i = 0; i < j->nr_kv; i++)
		if (!strcmp(j->kv[i].key, key))
			return j->kv[i].val;
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Key tables */

static const struct pb_key *common_key(const char *name)
{
	return pb_key_find(pb_common_keys, name);
}

/* A workload key (the common keys take precedence over a clash). */
static const struct pb_key *bench_key(const struct pb_bench *b, const char *name)
{
	return common_key(name) ? NULL : pb_key_find(b->keys, name);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), row[PB_STR_MAX + 1];

	if (n > PB_STR_MAX || m > PB_STR_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[m];
}

static void closest(const struct pb_key *keys, const char *name,
		    const char **best, size_t *dist)
{
	for (int i = 0; keys && keys[i].name; i++) {
		size_t d = edit_distance(name, keys[i].name);

		if (keys[i].flags & PB_KEY_HIDDEN)
			continue;
		if (d < *dist) {
			*dist = d;
			*best = keys[i].name;
		}
	}
}

/* " (did you mean 'size'?)" or "" */
static void suggest(const struct pb_bench *b, const char *name, char *buf, size_t len)
{
	const char *best = NULL;
	size_t dist = SIZE_MAX;

	closest(pb_common_keys, name, &best, &dist);
	closest(b->keys, name, &best, &dist);
	if (best && dist <= 2 && dist < strlen(name))
		snprintf(buf, len, " (did you mean '%s'?)", best);
	else
		snprintf(buf, len, "%s", "");
}

static void known_benches(char *buf, size_t len)
{
	const struct pb_bench *const *b = pb_jobfile_benches ? pb_jobfile_benches : pb_benches;
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; b && b[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", b[i]->name);
}

static void placement_names(enum pb_place_kind kind, char *buf, size_t len)
{
	const char *const *names = kind == PB_PLACE_PAIR ? pb_pair_placements
							 : pb_worker_placements;
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; names[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", names[i]);
}

/* ---------------------------------------------------------------- */
/* Reading the file */

static int sec_add(struct section *s, const char *key, const char *val,
		   const char *origin, int line, int layer)
{
	struct ent *e = realloc(s->e, (s->nr + 1) * sizeof(*e));

	if (!e)
		return -1;
	s->e = e;
	e += s->nr;
	e->key = strdup(key);
	e->val = strdup(val);
	e->origin = origin;
	e->line = line;
	e->layer = layer;
	if (!e->key || !e->val) {
		free(e->key);
		free(e->val);
		return -1;
	}
	s->nr++;
	return 0;
}

static void sec_free(struct section *s)
{
	for (int i = 0; i < s->nr; i++) {
		free(s->e[i].key);
		free(s->e[i].val);
	}
	free(s->e);
	free(s->name);
}

static void ini_free(struct ini *ini)
{
	sec_free(&ini->global);
	for (int i = 0; i < ini->nr_jobs; i++)
		sec_free(&ini->jobs[i]);
	free(ini->jobs);
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > SEC_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.:+@", *s))
			return false;
	return true;
}

static int ini_global(struct ini *ini, struct section **cur, int line,
		      char *err, size_t len)
{
	if (ini->global.line)
		return pb_errf(err, len, 0, "%s:%d: section [global] already at line %d",
			    ini->path, line, ini->global.line);
	if (ini->nr_jobs)
		return pb_errf(err, len, 0, "%s:%d: [global] must come before the first job "
			    "section ([%s] at line %d)", ini->path, line,
			    ini->jobs[0].name, ini->jobs[0].line);
	ini->global.name = strdup("global");
	if (!ini->global.name)
		return oom(err, len);
	ini->global.line = line;
	*cur = &ini->global;
	return 0;
}

static int ini_job(struct ini *ini, const char *name, int line)
{
	struct section *s = realloc(ini->jobs, (ini->nr_jobs + 1) * sizeof(*s));

	if (!s)
		return -1;
	ini->jobs = s;
	s += ini->nr_jobs;
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->line = line;
	if (!s->name)
		return -1;
	ini->nr_jobs++;
	return 0;
}

static int ini_header(struct ini *ini, struct section **cur, char *s, int line,
		      char *err, size_t len)
{
	size_t n = strlen(s);
	char *name;

	if (s[n - 1] != ']')
		return pb_errf(err, len, 0, "%s:%d: expected ']' at the end of '%s'",
			    ini->path, line, s);
	s[n - 1] = '\0';
	name = trim(s + 1);
	if (!valid_name(name))
		return pb_errf(err, len, 0, "%s:%d: bad section name '%s' (1 to %d letters, "
			    "digits or _-.:+@)", ini->path, line, name, SEC_NAME_MAX);
	if (!strcmp(name, "global"))
		return ini_global(ini, cur, line, err, len);
	for (int i = 0; i < ini->nr_jobs; i++)
		if (!strcmp(ini->jobs[i].name, name))
			return pb_errf(err, len, 0, "%s:%d: section [%s] already at line %d",
				    ini->path, line, name, ini->jobs[i].line);
	if (ini_job(ini, name, line))
		return oom(err, len);
	*cur = &ini->jobs[ini->nr_jobs - 1];
	return 0;
}

static int ini_keyval(struct ini *ini, struct section *cur, char *s, int line,
		      char *err, size_t len)
{
	char *eq = strchr(s, '='), *key, *val;
	int layer = cur == &ini->global ? L_GLOBAL : L_SECTION;

	if (!eq)
		return pb_errf(err, len, 0, "%s:%d: expected 'key = value' or '[section]', "
			    "got '%s'", ini->path, line, s);
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (!*key)
		return pb_errf(err, len, 0, "%s:%d: missing key before '='", ini->path, line);
	if (!cur)
		return pb_errf(err, len, 0, "%s:%d: key '%s' outside a section (put it under "
			    "[global] or a [job])", ini->path, line, key);
	for (int i = 0; i < cur->nr; i++)
		if (!strcmp(cur->e[i].key, key))
			return pb_errf(err, len, 0, "%s:%d: %s: already set at line %d",
				    ini->path, line, key, cur->e[i].line);
	if (sec_add(cur, key, val, ini->path, line, layer))
		return oom(err, len);
	return 0;
}

static int ini_line(struct ini *ini, struct section **cur, char *s, int line,
		    char *err, size_t len)
{
	if (!*s || *s == '#' || *s == ';')
		return 0;
	if (*s == '[')
		return ini_header(ini, cur, s, line, err, len);
	return ini_keyval(ini, *cur, s, line, err, len);
}

/*
 * The lines of a job file's text (n bytes, any bytes): a UTF-8 byte order
 * mark at the start is skipped; a NUL byte or a line longer than
 * JOB_LINE_MAX is an error naming the line.
 */
static int ini_parse(struct ini *ini, const char *text, size_t n, char *err, size_t len)
{
	const char *p = text, *end = text + n;
	struct section *cur = NULL;
	char buf[JOB_LINE_MAX + 1];
	int line = 0, rc = 0;

	if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (!rc && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);

		line++;
		if (l > JOB_LINE_MAX)
			return pb_errf(err, len, 0, "%s:%d: line longer than %d bytes",
				       ini->path, line, JOB_LINE_MAX);
		if (memchr(p, '\0', l))
			return pb_errf(err, len, 0, "%s:%d: a NUL byte in the line (not a text "
				       "file?)", ini->path, line);
		memcpy(buf, p, l);
		buf[l] = '\0';
		rc = ini_line(ini, &cur, trim(buf), line, err, len);
		p += l + 1;
	}
	if (!rc && !ini->nr_jobs)
		rc = pb_errf(err, len, 0, "%s: no job section%s", ini->path,
			  ini->global.line ? " (only [global])" : " (empty file?)");
	return rc;
}

/*
 * A job file's text: a regular file (a FIFO, a device or a folder is
 * refused without blocking on it) of at most JOB_FILE_MAX bytes, counted
 * as read (a file may grow, /proc files say 0).  *text is malloc'd.
 */
static int read_job_file(const char *path, char **text, size_t *n, char *err, size_t len)
{
	struct stat st;
	size_t got = 0;
	ssize_t r = 0;
	char *buf;
	int fd;

	fd = pb_open_regular(path, &st, err, len);
	if (fd < 0)
		return -1;
	buf = st.st_size <= JOB_FILE_MAX ? malloc(JOB_FILE_MAX + 1) : NULL;
	while (buf && got <= JOB_FILE_MAX) {
		r = read(fd, buf + got, JOB_FILE_MAX + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (st.st_size > JOB_FILE_MAX || got > JOB_FILE_MAX) {
		free(buf);
		return pb_errf(err, len, 0, "%s: larger than %d bytes (not a job file?)", path,
			       JOB_FILE_MAX);
	}
	if (!buf)
		return oom(err, len);
	if (r < 0) {
		pb_errf(err, len, errno, "%s: read error", path);
		free(buf);
		return -1;
	}
	*text = buf;
	*n = got;
	return 0;
}

/* pinbench bench NAME: one job named after the bench, no file. */
static int ini_adhoc(struct ini *ini, const char *bench, char *err, size_t len)
{
	if (!bench || !*bench)
		return pb_errf(err, len, 0, "no job file and no bench given");
	if (ini_job(ini, bench, 0) ||
	    sec_add(&ini->jobs[0], "bench", bench, NULL, 0, L_SECTION))
		return oom(err, len);
	return 0;
}

/* ---------------------------------------------------------------- */
/* One job */

static const struct ent *eff_get(const struct eff *f, const char *key)
{
	for (int i = 0; i < f->nr; i++)
		if (!strcmp(f->e[i]->key, key))
			return f->e[i];
	return NULL;
}

static void eff_set(struct eff *f, const struct ent *e)
{
	for (int i = 0; i < f->nr; i++) {
		if (!strcmp(f->e[i]->key, e->key)) {
			f->e[i] = e;
			return;
		}
	}
	f->e[f->nr++] = e;
}

static void eff_del(struct eff *f, int i)
{
	memmove(&f->e[i], &f->e[i + 1], (f->nr - i - 1) * sizeof(f->e[0]));
	f->nr--;
}

static int eff_build(const struct ctx *c, const struct ini *ini,
		     const struct section *sec, struct eff *f)
{
	f->nr = 0;
	f->e = malloc((ini->global.nr + sec->nr + c->over.nr + 1) * sizeof(*f->e));
	if (!f->e)
		return -1;
	for (int i = 0; i < ini->global.nr; i++)
		eff_set(f, &ini->global.e[i]);
	for (int i = 0; i < sec->nr; i++)
		eff_set(f, &sec->e[i]);
	for (int i = 0; i < c->over.nr; i++)
		eff_set(f, &c->over.e[i]);
	return 0;
}

static int find_bench(const struct ctx *c, const struct section *sec,
		      const struct eff *f, const struct pb_bench **bp,
		      char *err, size_t len)
{
	const struct ent *e = eff_get(f, "bench");
	char known[512];

	if (!e)
		return pb_errf(err, len, 0, "%s:%d: job '%s': no bench= key",
			    c->path, sec->line, sec->name);
	*bp = pb_jobfile_find_bench(e->val);
	if (*bp)
		return 0;
	known_benches(known, sizeof(known));
	return ENT_FAIL(err, len, e, false, "unknown bench '%s' (known: %s)",
			e->val, known);
}

/* Every override of this key (the last one wins, all are "used"). */
static void mark_used(struct ctx *c, const char *key)
{
	for (int i = 0; i < c->over.nr; i++)
		if (!strcmp(c->over.e[i].key, key))
			c->used[i] = true;
}

/* Every key known; overrides unknown to this workload dropped. */
static int check_keys(struct ctx *c, const struct pb_bench *b, struct eff *f,
		      char *err, size_t len)
{
	char hint[96];

	for (int i = 0; i < f->nr; i++) {
		const struct ent *e = f->e[i];
		bool known = common_key(e->key) || bench_key(b, e->key);

		if (e->layer == L_OVERRIDE) {
			if (known)
				mark_used(c, e->key);
			else
				eff_del(f, i--);
			continue;
		}
		if (known)
			continue;
		suggest(b, e->key, hint, sizeof(hint));
		return ENT_FAIL(err, len, e, false, "unknown key '%s' for bench %s%s",
				e->key, b->name, hint);
	}
	return 0;
}

static bool is_list(const char *s)
{
	return strchr(s, ',') || !strcmp(s, "all");
}

/* The sweep key's entry, or NULL; an error for two. */
static int find_sweep(const struct pb_bench *b, const struct eff *f,
		      const struct ent **sweep, char *err, size_t len)
{
	*sweep = NULL;
	for (int i = 0; i < f->nr; i++) {
		const struct pb_key *k = bench_key(b, f->e[i]->key);

		if (!k || !(k->flags & PB_KEY_SWEEP) || k->type != PB_T_INT ||
		    !is_list(f->e[i]->val))
			continue;
		if (*sweep)
			return ENT_FAIL(err, len, f->e[i], true, "only one sweep key "
					"per job ('%s' is already a list)",
					(*sweep)->key);
		*sweep = f->e[i];
	}
	return 0;
}

static int sweep_one(const struct pb_key *k, const struct ent *e, const char *text,
		     long *vals, int *nr, char *err, size_t len)
{
	struct pb_key one = *k;		/* parsed into v, not into options */
	char prob[256];
	long v;

	one.off = 0;
	if (*nr >= SWEEP_MAX)
		return ENT_FAIL(err, len, e, true, "more than %d values", SWEEP_MAX);
	if (pb_key_check(&one, text, &v, prob, sizeof(prob)))
		return ENT_FAIL(err, len, e, true, "%s", prob);
	for (int i = 0; i < *nr; i++)
		if (vals[i] == v)
			return ENT_FAIL(err, len, e, true, "value %ld given twice", v);
	vals[(*nr)++] = v;
	return 0;
}

/* "all": 1, 2, 4, ... below nr_cpus, then nr_cpus. */
static int sweep_all(const struct pb_key *k, const struct ent *e, int nr_cpus,
		     long *vals, int *nr, char *err, size_t len)
{
	char text[32];

	if (nr_cpus < 1)
		return ENT_FAIL(err, len, e, true, "'all' but the number of CPUs "
				"is unknown");
	for (long v = 1; ; v *= 2) {
		if (v > nr_cpus)
			v = nr_cpus;
		snprintf(text, sizeof(text), "%ld", v);
		if (sweep_one(k, e, text, vals, nr, err, len))
			return -1;
		if (v == nr_cpus)
			return 0;
	}
}

/* The values of a sweep entry, in order. */
static int sweep_values(const struct pb_key *k, const struct ent *e, int nr_cpus,
			long *vals, int *nr, char *err, size_t len)
{
	char *copy, *p, *tok;
	int rc = 0;

	*nr = 0;
	if (!strcmp(e->val, "all"))
		return sweep_all(k, e, nr_cpus, vals, nr, err, len);
	copy = strdup(e->val);
	if (!copy)
		return oom(err, len);
	for (p = copy; !rc && (tok = strsep(&p, ",")); )
		rc = sweep_one(k, e, trim(tok), vals, nr, err, len);
	free(copy);
	return rc;
}

static int kv_add(struct pb_job *j, const char *key, const char *val,
		  const char *origin, int line)
{
	struct pb_kv *kv = realloc(j->kv, (j->nr_kv + 1) * sizeof(*kv));

	if (!kv)
		return -1;
	j->kv = kv;
	kv += j->nr_kv;
	kv->key = strdup(key);
	kv->val = strdup(val);
	kv->origin = strdup(origin ? origin : "command line");
	kv->line = line;
	if (!kv->key || !kv->val || !kv->origin) {
		free(kv->key);
		free(kv->val);
		free(kv->origin);
		return -1;
	}
	j->nr_kv++;
	return 0;
}

/* The sweep being expanded: its entry and this job's value. */
struct sweep {
	const struct ent	*e;
	char			val[32];
};

static int kv_key(struct pb_job *j, const struct pb_key *k, const struct eff *f,
		  const struct sweep *sw, const char *def)
{
	const struct ent *e = eff_get(f, k->name);

	if (!e && (!def || (k->flags & PB_KEY_HIDDEN)))
		return 0;
	if (!e)
		return kv_add(j, k->name, def, "default", 0);
	return kv_add(j, k->name, sw->e == e ? sw->val : e->val, e->origin, e->line);
}

/* Does cpus= replace placement=? */
static bool cpus_win(const struct eff *f)
{
	const struct ent *cpus = eff_get(f, "cpus"), *pl = eff_get(f, "placement");

	return cpus && (!pl || cpus->layer >= pl->layer);
}

/* j->kv: common keys in table order, then the workload's. */
static int kv_fill(struct pb_job *j, const struct eff *f, const struct sweep *sw)
{
	const struct pb_key *k;
	bool pair = j->bench->shape == PB_SHAPE_PAIR;

	for (k = pb_common_keys; k->name; k++) {
		const char *def = k->def;

		if (!strcmp(k->name, "bench"))
			def = j->bench->name;
		if (!strcmp(k->name, "placement")) {
			if (cpus_win(f))
				continue;
			def = pair ? PAIR_DEFAULT : WORKERS_DEFAULT;
		}
		if (!strcmp(k->name, "cpus") && !cpus_win(f))
			continue;
		if (!strcmp(k->name, "profile") && !eff_get(f, "profile"))
			continue;	/* the params of a job without it stay as they were */
		if (kv_key(j, k, f, sw, def))
			return -1;
	}
	for (k = j->bench->keys; k && k->name; k++)
		if (!common_key(k->name) && kv_key(j, k, f, sw, k->def))
			return -1;
	return 0;
}

/* ---------------------------------------------------------------- */
/* The common keys: a row each, its parse step and its verify step */

/* The common key rows' dst: the job, and the typed fields copied into it. */
struct common {
	struct pb_job	*job;
	long		rounds;
	long		repeats;
	double		warmup;
	double		duration;
	long		loops;
	int		tasks;
	double		timeout;
	int		counters;
	int		counting;
	double		count_duration;
	int		profile;
	int		estimator;
	long		peer_cpu;
};

static struct pb_job *dst_job(const void *dst)
{
	return ((const struct common *)dst)->job;
}

/* The workloads a message may name, the test table included. */
static const struct pb_bench *const *bench_table(void)
{
	return pb_jobfile_benches ? pb_jobfile_benches : pb_benches;
}

/* bench=: read before every other key, to know the workload (find_bench). */
static int parse_bench(const struct pb_key *k, const char *text, void *dst,
		       char *prob, size_t len)
{
	(void)k, (void)text, (void)dst, (void)prob, (void)len;
	return 0;
}

static int parse_placements(const struct pb_key *k, const char *text, void *dst,
			    char *prob, size_t len)
{
	struct pb_job *j = dst_job(dst);
	enum pb_place_kind want = j->bench->shape == PB_SHAPE_PAIR ?
				  PB_PLACE_PAIR : PB_PLACE_WORKERS;
	char *copy = strdup(text), *p = copy, *tok, names[256];
	int rc = 0;

	(void)k;
	if (!copy)
		return oom(prob, len);
	placement_names(want, names, sizeof(names));
	while (!rc && (tok = strsep(&p, ","))) {
		int kind = pb_placement_kind(tok = trim(tok));

		if (j->nr_placements >= PB_MAX_PLACEMENTS)
			rc = pb_errf(prob, len, 0, "more than %d placements", PB_MAX_PLACEMENTS);
		else if (kind < 0)
			rc = pb_errf(prob, len, 0, "unknown placement '%s' (bench %s takes: %s)",
				     tok, j->bench->name, names);
		else if (kind != (int)want)
			rc = pb_errf(prob, len, 0, "'%s' is a %s placement; bench %s takes: %s",
				     tok, kind == PB_PLACE_PAIR ? "pair" : "worker",
				     j->bench->name, names);
		else
			snprintf(j->placements[j->nr_placements++],
				 sizeof(j->placements[0]), "%s", tok);
	}
	free(copy);
	return rc;
}

/* "N" or "A-B" appended to j->cpus. */
static int cpus_item(struct pb_job *j, const char *s)
{
	long a, b;
	char *end;
	int *c;

	if (!isdigit((unsigned char)*s))
		return -1;
	a = b = strtol(s, &end, 10);
	if (*end == '-') {
		s = end + 1;
		if (!isdigit((unsigned char)*s))
			return -1;
		b = strtol(s, &end, 10);
	}
	if (*end || a > b || b >= CPU_NR_MAX || j->nr_cpus + (b - a + 1) > CPUS_MAX)
		return -1;
	c = realloc(j->cpus, (j->nr_cpus + (b - a + 1)) * sizeof(*c));
	if (!c)
		return -1;
	j->cpus = c;
	for (long v = a; v <= b; v++)
		j->cpus[j->nr_cpus++] = (int)v;
	return 0;
}

static int parse_cpus(const struct pb_key *k, const char *text, void *dst,
		      char *prob, size_t len)
{
	char *copy = strdup(text), *p = copy, *tok;
	int rc = 0;

	(void)k;
	if (!copy)
		return oom(prob, len);
	while (!rc && (tok = strsep(&p, ",")))
		if (cpus_item(dst_job(dst), tok = trim(tok)))
			rc = pb_errf(prob, len, 0, "'%s' is not a CPU number or range (0..%d, "
				     "A-B, at most %d CPUs)", tok, CPU_NR_MAX - 1, CPUS_MAX);
	free(copy);
	return rc;
}

static int pct_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* percentiles=50,99,99.99: up to PB_MAX_PCT, each in (0, 100); sorted, once each. */
static int parse_pct(const struct pb_key *k, const char *text, void *dst,
		     char *prob, size_t len)
{
	struct pb_job *j = dst_job(dst);
	char *copy = strdup(text), *p = copy, *tok;
	int rc = 0, n = 0;
	double v[PB_MAX_PCT];

	(void)k;
	if (!copy)
		return oom(prob, len);
	while (!rc && (tok = strsep(&p, ","))) {
		tok = trim(tok);
		double x = 0;

		if (pb_parse_double(tok, 0, 100, &x) || !(x > 0 && x < 100))
			rc = pb_errf(prob, len, 0, "'%s' is not a percentile above 0 and below "
				     "100 (50, 99.9, 99.99)", tok);
		else if (n == PB_MAX_PCT)
			rc = pb_errf(prob, len, 0, "at most %d percentiles", PB_MAX_PCT);
		else
			v[n++] = x;
	}
	free(copy);
	if (rc)
		return rc;
	qsort(v, (size_t)n, sizeof(*v), pct_cmp);
	j->nr_pct = 0;
	for (int i = 0; i < n; i++)
		if (!j->nr_pct || v[i] != j->pct[j->nr_pct - 1])
			j->pct[j->nr_pct++] = v[i];
	return 0;
}

static int parse_events(const struct pb_key *k, const char *text, void *dst,
			char *prob, size_t len)
{
	struct pb_job *j = dst_job(dst);

	(void)k;
	if (strlen(text) >= sizeof(j->events))
		return pb_errf(prob, len, 0, "too long (at most %zu characters)",
			       sizeof(j->events) - 1);
	snprintf(j->events, sizeof(j->events), "%s", text);
	return 0;
}

/* estimator=: p50 only for a workload that keeps per-op latency. */
static int parse_estimator(const struct pb_key *k, const char *text, void *dst,
			   char *prob, size_t len)
{
	const struct common *cm = dst;
	char who[128];

	if (pb_key_typed(k, text, dst, prob, len))
		return -1;
	if (cm->estimator != PB_EST_P50 || pb_bench_keeps_latency(cm->job->bench))
		return 0;
	pb_benches_with(bench_table(), pb_bench_keeps_latency, who, sizeof(who));
	return pb_errf(prob, len, 0, "p50 needs per-message latency, which bench %s does not "
		       "keep (%s do)", cm->job->bench->name, who);
}

/* peer=HOST[:PORT]: a workload that can run across hosts, an address that parses. */
static int parse_peer(const struct pb_key *k, const char *text, void *dst,
		      char *prob, size_t len)
{
	const struct pb_bench *b = dst_job(dst)->bench;
	char host[128], why[PB_ERR_MAX], who[128];
	int port;

	(void)k;
	if (!pb_bench_peer_capable(b)) {
		pb_benches_with(bench_table(), pb_bench_peer_capable, who, sizeof(who));
		return pb_errf(prob, len, 0, "bench %s cannot run across hosts (%s can)",
			       b->name, who);
	}
	if (pb_peer_addr_parse(text, PB_SERVER_PORT, host, sizeof(host), &port,
			       why, sizeof(why)))
		return pb_errf(prob, len, 0, "%s (expected HOST[:PORT])", why);
	return 0;
}

static int job_fail(const struct pb_job *j, char *err, size_t len, const char *msg);

static const struct pb_kv *job_kv(const struct pb_job *j, const char *key)
{
	const struct pb_kv *kv = NULL;

	for (int i = 0; i < j->nr_kv; i++)
		if (!strcmp(j->kv[i].key, key))
			kv = &j->kv[i];
	return kv;
}

/*
 * peer= an IP address of the other family than family= (4 when not set):
 * the run could only fail, so it is refused here, --dry-run included.  A
 * host name is left to the run, which looks it up.  Cited at family= when
 * it was given, else at peer=.
 */
static int verify_peer(const struct pb_key *k, const void *dst, struct pb_key_fault *f)
{
	const struct pb_job *j = dst_job(dst);
	const struct pb_kv *fam = job_kv(j, "family"), *peer = job_kv(j, k->name);
	bool deflt = !fam || (fam->line <= 0 && !strcmp(fam->origin, "default"));
	char host[128], prob[PB_ERR_MAX], buf[sizeof(struct in6_addr)];
	int port, want = fam && !strcmp(fam->val, "6") ? 6 : 4, got;

	if (!bench_key(j->bench, "family") ||
	    pb_peer_addr_parse(peer->val, PB_SERVER_PORT, host, sizeof(host), &port,
			       prob, sizeof(prob)))
		return 0;
	got = inet_pton(AF_INET, host, buf) == 1 ? 4 : inet_pton(AF_INET6, host, buf) == 1 ? 6 : 0;
	if (!got || got == want)
		return 0;
	f->key = deflt ? peer->key : fam->key;
	f->named = true;
	return pb_errf(f->msg, sizeof(f->msg), 0, "family=%d%s asks for IPv%d but peer=%s is "
		       "an IPv%d address", want, deflt ? " (the default)" : "", want,
		       peer->val, got);
}

/* peer_cpu= is the CPU of the server role on the peer: it needs peer=. */
static int verify_peer_cpu(const struct pb_key *k, const void *dst, struct pb_key_fault *f)
{
	(void)k;
	if (job_kv(dst_job(dst), "peer"))
		return 0;
	return pb_errf(f->msg, sizeof(f->msg), 0, "peer_cpu needs peer=HOST[:PORT]");
}

const struct pb_key pb_common_keys[] = {
	{ .name = "bench", .type = PB_T_STR, .def = NULL, PB_NO_RANGE,
	  .help = "workload to run (see `pinbench list`)", .parse = parse_bench },
	{ .name = "placement", .type = PB_T_STR, .def = PAIR_DEFAULT, PB_NO_RANGE,
	  .help = "placements, comma separated; the job runs once per placement"
		  " (workers: default compact)", .parse = parse_placements },
	{ .name = "cpus", .type = PB_T_STR, .def = NULL, PB_NO_RANGE,
	  .help = "explicit CPUs, one per role instance in role order"
		  " (\"0,1\", \"0-3\"); replaces placement", .parse = parse_cpus },
	{ .name = "rounds", .type = PB_T_INT, .def = "1", 1, 1000,
	  .help = "executions of the job file: round 1 of every job and placement, then"
		  " round 2, ..., each in fresh processes, in an order shuffled per round",
	  .off = offsetof(struct common, rounds) },
	{ .name = "repeats", .type = PB_T_INT, .def = "4", 1, 1000,
	  .help = "measurements per placement",
	  .off = offsetof(struct common, repeats) },
	{ .name = "warmup", .type = PB_T_DOUBLE, .def = "1", 0, 3600,
	  .help = "seconds of warm-up before the first measurement",
	  .off = offsetof(struct common, warmup) },
	{ .name = "duration", .type = PB_T_DOUBLE, .def = "5", 0.001, 86400,
	  .help = "seconds per measurement (when loops=0)",
	  .off = offsetof(struct common, duration) },
	{ .name = "loops", .type = PB_T_INT, .def = "0", 0, 1e12,
	  .help = "operations per measurement; 0: use duration",
	  .off = offsetof(struct common, loops) },
	{ .name = "tasks", .type = PB_T_ENUM, .def = "processes", PB_NO_RANGE,
	  .choices = "processes|threads",
	  .help = "run role instances as processes or threads",
	  .off = offsetof(struct common, tasks) },
	{ .name = "timeout", .type = PB_T_DOUBLE, .def = "0", 0, 86400,
	  .help = "watchdog in seconds for the whole job; 0: automatic, 3 x each phase"
		  " + 10 s without progress",
	  .off = offsetof(struct common, timeout) },
	{ .name = "percentiles", .type = PB_T_STR, .def = PB_PCT_DEFAULT, PB_NO_RANGE,
	  .help = "latency percentiles reported (latency workloads), comma separated, each"
		  " above 0 and below 100 (99.99 too); min and max always",
	  .parse = parse_pct },
	{ .name = "events", .type = PB_T_STR, .def = "", PB_NO_RANGE,
	  .help = "counter events, comma separated; empty: the default set",
	  .parse = parse_events },
	{ .name = "counters", .type = PB_T_ENUM, .def = "task", PB_NO_RANGE,
	  .choices = "task|cpu",
	  .help = "count per task or per CPU",
	  .off = offsetof(struct common, counters) },
	{ .name = "counting", .type = PB_T_ENUM, .def = "separate", PB_NO_RANGE,
	  .choices = "separate|inline",
	  .help = "separate: the metric's repeats run without counters, then each counter"
		  " pass runs one short window (count_duration); inline: count during the"
		  " metric's repeats",
	  .off = offsetof(struct common, counting) },
	{ .name = "count_duration", .type = PB_T_DOUBLE, .def = "0", 0, 86400,
	  .help = "counting=separate: seconds of the one window of each counter pass;"
		  " 0: a tenth of duration, at least 0.2 s and at most duration"
		  " (with loops: a tenth of loops)",
	  .off = offsetof(struct common, count_duration) },
	{ .name = "profile", .type = PB_T_ENUM, .def = "off", PB_NO_RANGE,
	  .choices = "off|on",
	  .help = "on: after the metric's windows and the counter passes, one window"
		  " sampling each role's tasks (call chains, kernel and user), stored as"
		  " folded stacks per role",
	  .off = offsetof(struct common, profile) },
	{ .name = "estimator", .type = PB_T_ENUM, .def = "mean", PB_NO_RANGE,
	  .choices = "median|trimmed|mean|p50",
	  .help = "a repeat's value from its slices: median of the slice rates, 10 % trimmed"
		  " mean, the plain mean of the window, or the median latency (p50: udpping, rr)",
	  .off = offsetof(struct common, estimator), .parse = parse_estimator },
	{ .name = "peer", .type = PB_T_STR, .def = NULL, PB_NO_RANGE,
	  .help = "HOST[:PORT] of a `pinbench server`: the server role runs there, the"
		  " client here (udpping, rr; default port 7543)",
	  .parse = parse_peer, .verify = verify_peer },
	{ .name = "peer_cpu", .type = PB_T_INT, .def = NULL, 0, CPU_NR_MAX - 1,
	  .help = "with peer: the CPU of the server role on the peer (default 0)",
	  .off = offsetof(struct common, peer_cpu), .verify = verify_peer_cpu },
	{ .name = NULL }
};

/* Across hosts a session has at most PB_PEER_MAX_INSTANCES. */
static int check_peer_instances(struct pb_job *j, char *err, size_t len)
{
	char msg[160];

	if (!job_kv(j, "peer") || j->nr_instances <= PB_PEER_MAX_INSTANCES)
		return 0;
	snprintf(msg, sizeof(msg), "%d instances: across hosts at most %d",
		 j->nr_instances, PB_PEER_MAX_INSTANCES);
	return job_fail(j, err, len, msg);
}

/* Every key of the job through its row's parse step (text kept in kv). */
static int parse_rows(struct pb_job *j, const struct pb_key *(*row)(const struct pb_bench *b,
								    const char *name),
		      void *dst, char *err, size_t len)
{
	char prob[JOB_LINE_MAX + 256];

	for (int i = 0; i < j->nr_kv; i++) {
		const struct pb_kv *kv = &j->kv[i];
		const struct pb_key *k = row(j->bench, kv->key);

		if (k && pb_key_check(k, kv->val, dst, prob, sizeof(prob)))
			return where_fail(err, len, kv->origin, kv->line, kv->key,
					  true, "%s", prob);
	}
	return 0;
}

/* The rows of keys that have a verify step, for each key set in the job. */
static int verify_rows(const struct pb_job *j, const struct pb_key *keys,
		       const void *dst, char *err, size_t len)
{
	for (const struct pb_key *k = keys; k && k->name; k++) {
		struct pb_key_fault f = { .key = k->name };
		const struct pb_kv *at;

		if (!k->verify || (keys != pb_common_keys && common_key(k->name)) ||
		    !job_kv(j, k->name) || !k->verify(k, dst, &f))
			continue;
		at = job_kv(j, f.key) ? job_kv(j, f.key) : job_kv(j, k->name);
		return where_fail(err, len, at->origin, at->line, at->key, !f.named,
				  "%s", f.msg);
	}
	return 0;
}

static const struct pb_key *common_row(const struct pb_bench *b, const char *name)
{
	(void)b;
	return common_key(name);
}

static int parse_common(struct pb_job *j, struct common *cm, char *err, size_t len)
{
	char prob[256];

	memset(cm, 0, sizeof(*cm));
	cm->job = j;
	parse_pct(NULL, PB_PCT_DEFAULT, cm, prob, sizeof(prob));
	if (parse_rows(j, common_row, cm, err, len))
		return -1;
	j->rounds = (int)cm->rounds;
	j->repeats = (int)cm->repeats;
	j->warmup = cm->warmup;
	j->duration = cm->duration;
	j->loops = cm->loops;
	j->threads = cm->tasks == 1;
	j->timeout = cm->timeout;
	j->counters_cpu = cm->counters;
	j->counting_inline = cm->counting == 1;
	j->count_duration = cm->count_duration;
	j->profile = cm->profile == 1;
	j->estimator = cm->estimator;
	j->peer_cpu = (int)cm->peer_cpu;		/* 0 when not given */
	return 0;
}

double pb_job_count_window(const struct pb_job *j, long *ops)
{
	*ops = 0;
	if (j->count_duration > 0)
		return j->count_duration;
	if (j->loops) {
		*ops = j->loops / PB_COUNT_SHARE > 0 ? j->loops / PB_COUNT_SHARE : 1;
		return 0;
	}
	if (j->duration / PB_COUNT_SHARE > PB_COUNT_MIN_S)
		return j->duration / PB_COUNT_SHARE;
	return j->duration < PB_COUNT_MIN_S ? j->duration : PB_COUNT_MIN_S;
}

static int parse_opts(struct pb_job *j, char *err, size_t len)
{
	const struct pb_bench *b = j->bench;
	char prob[256];

	j->opts = calloc(1, b->opts_size ? b->opts_size : 1);
	if (!j->opts)
		return oom(err, len);
	for (const struct pb_key *k = b->keys; k && k->name; k++)
		if (k->def && !common_key(k->name) &&
		    pb_key_check(k, k->def, j->opts, prob, sizeof(prob)))
			return pb_errf(err, len, 0, "bench %s: default %s: %s", b->name,
				    k->name, prob);
	return parse_rows(j, bench_key, j->opts, err, len);
}

/* "FILE:LINE: job 'x': msg", or "job 'x': msg" ad hoc. */
static int job_fail(const struct pb_job *j, char *err, size_t len, const char *msg)
{
	if (!j->file)
		return pb_errf(err, len, 0, "job '%s': %s", j->name, msg);
	return pb_errf(err, len, 0, "%s:%d: job '%s': %s", j->file, j->line, j->name, msg);
}

static int instances(struct pb_job *j, char *err, size_t len)
{
	const struct pb_bench *b = j->bench;
	const struct pb_key *k;
	char msg[128];
	long n;

	j->nr_instances = 1;
	if (!b->instances_key)
		return 0;
	k = pb_key_find(b->keys, b->instances_key);
	if (!k || k->type != PB_T_INT)
		return pb_errf(err, len, 0, "bench %s: instances key '%s' is not an int key",
			    b->name, b->instances_key);
	n = pb_params_instances(b, j->opts);
	if (n < 1 || n > CPUS_MAX) {
		snprintf(msg, sizeof(msg), "%s=%ld: need 1..%d instances", k->name,
			 n, CPUS_MAX);
		return job_fail(j, err, len, msg);
	}
	j->nr_instances = (int)n;
	return 0;
}

static int check_cpus(struct pb_job *j, char *err, size_t len)
{
	bool peer = pb_job_get(j, "peer") != NULL;
	bool pair = j->bench->shape == PB_SHAPE_PAIR && !peer;
	int need = pair ? 2 * j->nr_instances : j->nr_instances;
	const struct pb_kv *kv = NULL;
	char why[96];

	if (!j->cpus || j->nr_cpus == need)
		return 0;
	for (int i = 0; i < j->nr_kv; i++)
		if (!strcmp(j->kv[i].key, "cpus"))
			kv = &j->kv[i];
	if (pair)
		snprintf(why, sizeof(why), "2 x %d pair%s", j->nr_instances,
			 j->nr_instances > 1 ? "s" : "");
	else if (peer)
		snprintf(why, sizeof(why), "with peer=, one per client: %d",
			 j->nr_instances);
	else
		snprintf(why, sizeof(why), "%d worker%s", j->nr_instances,
			 j->nr_instances > 1 ? "s" : "");
	return where_fail(err, len, kv->origin, kv->line, kv->key, true,
			  "%d CPU%s given, job '%s' (bench %s) needs %d: one per role "
			  "instance (%s)", j->nr_cpus, j->nr_cpus > 1 ? "s" : "",
			  j->name, j->bench->name, need, why);
}

static int bench_check(struct pb_job *j, char *err, size_t len)
{
	char msg[PB_ERR_MAX] = "";

	if (!j->bench->check || !j->bench->check(j->opts, j->nr_instances, msg))
		return 0;
	return job_fail(j, err, len, msg);
}

static struct pb_job *job_new(struct pb_jobset *js)
{
	struct pb_job *j = realloc(js->jobs, (js->nr + 1) * sizeof(*j));

	if (!j)
		return NULL;
	js->jobs = j;
	j += js->nr++;
	memset(j, 0, sizeof(*j));
	return j;
}

static int job_build(const struct ctx *c, const struct section *sec,
		     const struct pb_bench *b, const struct eff *f,
		     const struct sweep *sw, struct pb_jobset *js,
		     char *err, size_t len)
{
	struct pb_job *j = job_new(js);
	struct common cm;

	if (!j)
		return oom(err, len);
	if (sw->e)
		snprintf(j->name, sizeof(j->name), "%s/%s=%s", sec->name,
			 sw->e->key, sw->val);
	else
		snprintf(j->name, sizeof(j->name), "%s", sec->name);
	j->bench = b;
	j->line = sec->line;
	if ((c->path && !(j->file = strdup(c->path))) || kv_fill(j, f, sw))
		return oom(err, len);
	if (parse_common(j, &cm, err, len) || parse_opts(j, err, len) ||
	    instances(j, err, len) || check_cpus(j, err, len) ||
	    verify_rows(j, pb_common_keys, &cm, err, len) ||
	    verify_rows(j, b->keys, j->opts, err, len) || check_peer_instances(j, err, len))
		return -1;
	return bench_check(j, err, len);
}

static int job_expand(const struct ctx *c, const struct section *sec,
		      const struct pb_bench *b, const struct eff *f,
		      struct pb_jobset *js, char *err, size_t len)
{
	struct sweep sw = { 0 };
	long vals[SWEEP_MAX];
	int nr;

	if (find_sweep(b, f, &sw.e, err, len))
		return -1;
	if (!sw.e)
		return job_build(c, sec, b, f, &sw, js, err, len);
	if (sweep_values(bench_key(b, sw.e->key), sw.e, c->nr_cpus, vals, &nr,
			 err, len))
		return -1;
	for (int i = 0; i < nr; i++) {
		snprintf(sw.val, sizeof(sw.val), "%ld", vals[i]);
		if (job_build(c, sec, b, f, &sw, js, err, len))
			return -1;
	}
	return 0;
}

static int load_section(struct ctx *c, const struct ini *ini,
			const struct section *sec, struct pb_jobset *js,
			char *err, size_t len)
{
	const struct pb_bench *b = NULL;
	struct eff f;
	int rc;

	if (eff_build(c, ini, sec, &f))
		return oom(err, len);
	rc = find_bench(c, sec, &f, &b, err, len);
	if (!rc)
		rc = check_keys(c, b, &f, err, len);
	if (!rc)
		rc = job_expand(c, sec, b, &f, js, err, len);
	free(f.e);
	return rc;
}

/* ---------------------------------------------------------------- */
/* The set */

static int ctx_init(struct ctx *c, const char *path, const struct pb_kv *over,
		    int nr_over, int nr_cpus)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->nr_cpus = nr_cpus;
	c->used = calloc(nr_over + 1, sizeof(*c->used));
	if (!c->used)
		return -1;
	for (int i = 0; i < nr_over; i++)
		if (sec_add(&c->over, over[i].key, over[i].val, over[i].origin,
			    over[i].line, L_OVERRIDE))
			return -1;
	return 0;
}

static void ctx_free(struct ctx *c)
{
	sec_free(&c->over);
	free(c->used);
}

/* Is job i the first of the set with its workload? */
static bool first_of_bench(const struct pb_jobset *js, int i)
{
	for (int k = 0; k < i; k++)
		if (js->jobs[k].bench == js->jobs[i].bench)
			return false;
	return true;
}

/* "bench pipe" or "benches pipe, rr": the workloads of the set. */
static void bench_names(const struct pb_jobset *js, char *buf, size_t len)
{
	size_t n;
	int nr = 0;

	for (int i = 0; i < js->nr; i++)
		nr += first_of_bench(js, i);
	n = snprintf(buf, len, "%s", nr > 1 ? "benches " : "bench ");
	for (int i = 0, k = 0; i < js->nr && n < len; i++)
		if (first_of_bench(js, i))
			n += snprintf(buf + n, len - n, "%s%s", k++ ? ", " : "",
				      js->jobs[i].bench->name);
}

/* An override that no job's workload has. */
static int check_unused(const struct ctx *c, const struct pb_jobset *js,
			char *err, size_t len)
{
	char hint[96] = "", names[256];

	for (int i = 0; i < c->over.nr; i++) {
		const struct ent *e = &c->over.e[i];

		if (c->used[i] || !js->nr)
			continue;
		for (int k = 0; k < js->nr && !hint[0]; k++)
			suggest(js->jobs[k].bench, e->key, hint, sizeof(hint));
		bench_names(js, names, sizeof(names));
		return ENT_FAIL(err, len, e, false, "unknown key '%s' for %s%s",
				e->key, names, hint);
	}
	return 0;
}

/* A job file's text (path NULL: the ad-hoc job of adhoc_bench). */
static int jobs_load(const char *path, const char *text, size_t n, const char *adhoc_bench,
		     const struct pb_kv *over, int nr_over, int nr_cpus,
		     struct pb_jobset *js, char *err, size_t len)
{
	struct ini ini = { .path = path };
	struct ctx c;
	int rc;

	memset(js, 0, sizeof(*js));
	if (ctx_init(&c, path, over, nr_over, nr_cpus))
		rc = oom(err, len);
	else if (path)
		rc = ini_parse(&ini, text, n, err, len);
	else
		rc = ini_adhoc(&ini, adhoc_bench, err, len);
	for (int i = 0; !rc && i < ini.nr_jobs; i++)
		rc = load_section(&c, &ini, &ini.jobs[i], js, err, len);
	if (!rc)
		rc = check_unused(&c, js, err, len);
	ini_free(&ini);
	ctx_free(&c);
	if (rc)
		pb_jobset_free(js);
	return rc;
}

int pb_jobs_load(const char *path, const char *adhoc_bench,
		 const struct pb_kv *over, int nr_over, int nr_cpus,
		 struct pb_jobset *js, char *err, size_t len)
{
	char *text = NULL;
	size_t n = 0;
	int rc;

	memset(js, 0, sizeof(*js));
	if (path && read_job_file(path, &text, &n, err, len))
		return -1;
	rc = jobs_load(path, text, n, adhoc_bench, over, nr_over, nr_cpus, js, err, len);
	if (!rc && text)	/* the result file records it; a job file holds no NUL */
		js->text = strndup(text, n);
	free(text);
	return rc;
}

int pb_jobs_load_text(const char *name, const char *text, size_t n,
		      const struct pb_kv *over, int nr_over, int nr_cpus,
		      struct pb_jobset *js, char *err, size_t len)
{
	return jobs_load(name, text, n, NULL, over, nr_over, nr_cpus, js, err, len);
}

void pb_jobset_free(struct pb_jobset *js)
{
	for (int i = 0; i < js->nr; i++) {
		struct pb_job *j = &js->jobs[i];

		for (int k = 0; k < j->nr_kv; k++) {
			free(j->kv[k].key);
			free(j->kv[k].val);
			free(j->kv[k].origin);
		}
		free(j->kv);
		free(j->cpus);
		free(j->opts);
		free(j->file);
	}
	free(js->jobs);
	free(js->text);
	js->jobs = NULL;
	js->text = NULL;
	js->nr = 0;
}
