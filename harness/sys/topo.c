// SPDX-License-Identifier: GPL-2.0-only
/*
 * topo.c - machine topology and placements, through hwloc.
 *
 * At load time every usable PU (allowed by the cgroup cpuset and, on this
 * machine, by the calling thread's affinity) is recorded with dense ids
 * of its core, package, last-level cache and NUMA node.  Placements are
 * then answered from that flat table; hwloc is asked only for the cache
 * shared by two PUs.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hwloc.h>

#include "sys/topo.h"
#include "lib/util.h"

struct pb_pu {
	int		os;	/* OS index */
	int		core;	/* core id (unique), never -1 */
	int		pkg;	/* package order, 0 .. packages-1 */
	int		llc;	/* last-level cache id, -1 when none */
	int		node;	/* NUMA node id, -1 when none */
	int		rank;	/* position among its core's PUs, by OS index */
	hwloc_obj_t	obj;
};

struct pb_topo {
	hwloc_topology_t	topo;
	bool			this_system;
	char			source[256];
	struct pb_topo_summary	sum;
	int			nr;		/* usable PUs */
	struct pb_pu		*pus;		/* in logical (tree) order */
	int			*by_os;		/* indexes into pus, by OS index */
	int			nr_core_ids;	/* core ids are < this */
	int			max_cache;	/* most caches two cores can share */
	int			max_rank;
	hwloc_bitmap_t		usable;
	int			xml_fd;		/* an XML file's, until loaded; else -1 */
	/* the topology's, usable or not: more than sum's when affinity cuts */
	int			all_cores, all_packages, all_nodes, all_pus;
};

const char *const pb_pair_placements[] = {
	"same-cpu", "same-core", "same-socket", "diff-socket",
	"same-llc", "diff-llc", "diff-node", NULL
};

const char *const pb_worker_placements[] = { "compact", "scatter", NULL };

enum pb_rel {
	REL_SAME_CPU, REL_SAME_CORE, REL_SAME_SOCKET, REL_DIFF_SOCKET,
	REL_SAME_LLC, REL_DIFF_LLC, REL_DIFF_NODE,
};

static int name_index(const char *const *names, const char *name)
{
	int i;

	for (i = 0; name && names[i]; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

int pb_placement_kind(const char *name)
{
	if (name_index(pb_pair_placements, name) >= 0)
		return PB_PLACE_PAIR;
	if (name_index(pb_worker_placements, name) >= 0)
		return PB_PLACE_WORKERS;
	return -1;
}

/* ---- loading ---- */

/*
 * An XML file: opened here only when it is a regular file (a FIFO would
 * block hwloc's open, and is no topology), and hwloc reads what was opened.
 */
static int set_xml(struct pb_topo *t, const char *path, char *err, size_t len)
{
	char why[PATH_MAX + 64], fdpath[64];
	struct stat st;

	snprintf(t->source, sizeof(t->source), "XML file %s", path);
	t->xml_fd = pb_open_regular(path, &st, why, sizeof(why));
	if (t->xml_fd < 0) {
		snprintf(err, len, "cannot read topology file %s", why);
		return -1;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", t->xml_fd);
	if (hwloc_topology_set_xml(t->topo, fdpath) == 0)
		return 0;
	snprintf(err, len, "cannot read hwloc XML file '%s': %s", path,
		 strerror(errno));
	return -1;
}

/*
 * The PUs a synthetic description makes: the product of its levels'
 * counts ("pack:2 core:4 pu:2" is 16), attributes in (...) and memory
 * children in [...] aside; a level without a number counts 1 (hwloc says
 * what is wrong with it).  Saturates at PB_TOPO_MAX_PUS + 1.
 */
unsigned long pb_topo_synthetic_pus(const char *spec)
{
	unsigned long pus = 1, n;
	const char *p = spec, *tok;
	int depth = 0;
	char *end;

	while (*p) {
		if (*p == '(' || *p == '[') {
			depth++;
			p++;
			continue;
		}
		if (*p == ')' || *p == ']') {
			depth -= depth > 0;
			p++;
			continue;
		}
		if (depth || isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		tok = p;	/* a level: "type:N", "N", "type" */
		while (*p && !isspace((unsigned char)*p) && *p != '(' && *p != '[' && *p != ':')
			p++;
		if (*p == ':')
			tok = ++p;
		if (isdigit((unsigned char)*tok)) {
			errno = 0;
			n = strtoul(tok, &end, 10);
			if (errno || (n && pus > (PB_TOPO_MAX_PUS + 1) / n))
				return PB_TOPO_MAX_PUS + 1;
			pus *= n;
			p = end;
		}
		while (*p && !isspace((unsigned char)*p) && *p != '(' && *p != '[')
			p++;
	}
	return pus > PB_TOPO_MAX_PUS ? PB_TOPO_MAX_PUS + 1 : pus;
}

static int set_source(struct pb_topo *t, const char *spec, char *err, size_t len)
{
	struct stat st;

	if (!spec) {
		t->this_system = true;
		snprintf(t->source, sizeof(t->source), "this machine");
		return 0;
	}
	errno = 0;
	/* a file, or a path (a FIFO, a folder): not a synthetic description */
	if (stat(spec, &st) == 0 && (!S_ISDIR(st.st_mode) || strchr(spec, '/')))
		return set_xml(t, spec, err, len);
	if (strchr(spec, '/') || strstr(spec, ".xml")) {
		snprintf(err, len, "cannot read topology file '%s': %s", spec,
			 errno ? strerror(errno) : "not a regular file");
		return -1;
	}
	if (pb_topo_synthetic_pus(spec) > PB_TOPO_MAX_PUS) {
		snprintf(err, len, "synthetic topology '%s': more than %d PUs (the product of "
			 "its counts), the most pinbench plans on", spec, PB_TOPO_MAX_PUS);
		return -1;
	}
	snprintf(t->source, sizeof(t->source), "synthetic \"%s\"", spec);
	if (hwloc_topology_set_synthetic(t->topo, spec) == 0)
		return 0;
	snprintf(err, len, "invalid synthetic topology '%s': %s (expected an hwloc "
		 "description such as \"pack:2 core:4 pu:2\" or an XML file)",
		 spec, strerror(errno));
	return -1;
}

/*
 * The usable PUs: allowed ones, and on this machine those we may run on
 * (or those of the list only, as if this process were bound to them).
 */
static int find_usable(struct pb_topo *t, const char *only)
{
	hwloc_bitmap_t bind = hwloc_bitmap_alloc();
	int got = -1;

	t->usable = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(t->topo));
	if (!bind || !t->usable) {
		hwloc_bitmap_free(bind);
		return -1;
	}
	if (only)
		got = hwloc_bitmap_list_sscanf(bind, only);
	else if (t->this_system)
		got = hwloc_get_cpubind(t->topo, bind, HWLOC_CPUBIND_THREAD);
	if (got == 0 && hwloc_bitmap_intersects(bind, t->usable))
		hwloc_bitmap_and(t->usable, t->usable, bind);
	else if (only)
		hwloc_bitmap_zero(t->usable);
	hwloc_bitmap_free(bind);
	return 0;
}

static int nr_of(hwloc_topology_t topo, hwloc_obj_type_t type, int none)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);

	return n > 0 ? n : none;
}

/* What the topology has, usable or not (affinity may leave us less). */
static void count_all(struct pb_topo *t)
{
	t->all_pus = nr_of(t->topo, HWLOC_OBJ_PU, t->sum.pus);
	t->all_cores = nr_of(t->topo, HWLOC_OBJ_CORE, t->all_pus);
	t->all_packages = nr_of(t->topo, HWLOC_OBJ_PACKAGE, 1);
	t->all_nodes = nr_of(t->topo, HWLOC_OBJ_NUMANODE, 1);
}

/* Type of the last-level cache: the highest cache level present. */
static hwloc_obj_type_t llc_type(hwloc_topology_t topo)
{
	static const hwloc_obj_type_t types[] = {
		HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
		HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE,
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (hwloc_get_nbobjs_by_type(topo, types[i]) > 0)
			return types[i];
	return HWLOC_OBJ_TYPE_MAX;
}

static int ancestor_index(hwloc_topology_t topo, hwloc_obj_t pu,
			  hwloc_obj_type_t type)
{
	hwloc_obj_t o;

	if (type == HWLOC_OBJ_TYPE_MAX)
		return -1;
	o = hwloc_get_ancestor_obj_by_type(topo, type, pu);
	return o ? (int)o->logical_index : -1;
}

static int numa_index(hwloc_topology_t topo, hwloc_obj_t pu)
{
	hwloc_obj_t n = NULL;

	while ((n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, n)))
		if (n->cpuset && hwloc_bitmap_isset(n->cpuset, pu->os_index))
			return (int)n->logical_index;
	return -1;
}

/* Number of data caches above obj (obj included). */
static int caches_above(hwloc_obj_t o)
{
	int n = 0;

	for (; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			n++;
	return n;
}

static void fill_pu(struct pb_topo *t, struct pb_pu *p, hwloc_obj_t pu,
		    hwloc_obj_type_t llc)
{
	int ncores = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE);
	hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->topo,
							  HWLOC_OBJ_CORE, pu);
	int c;

	p->os = (int)pu->os_index;
	p->obj = pu;
	p->core = core ? (int)core->logical_index : ncores + (int)pu->logical_index;
	p->pkg = ancestor_index(t->topo, pu, HWLOC_OBJ_PACKAGE);
	p->llc = ancestor_index(t->topo, pu, llc);
	p->node = numa_index(t->topo, pu);
	if (p->core + 1 > t->nr_core_ids)
		t->nr_core_ids = p->core + 1;
	c = caches_above(core ? core->parent : pu->parent);
	if (c > t->max_cache)
		t->max_cache = c;
}

static int cmp_os(const void *a, const void *b, void *arg)
{
	const struct pb_pu *pus = arg;

	return pus[*(const int *)a].os - pus[*(const int *)b].os;
}

/* Rank each PU within its core; count distinct cores and SMT. */
static void rank_pus(struct pb_topo *t)
{
	int i, j;

	for (i = 0; i < t->nr; i++) {
		struct pb_pu *p = &t->pus[i];

		p->rank = 0;
		for (j = 0; j < t->nr; j++)
			if (t->pus[j].core == p->core && t->pus[j].os < p->os)
				p->rank++;
		if (p->rank > t->max_rank)
			t->max_rank = p->rank;
		if (p->rank == 0)
			t->sum.cores++;
	}
	t->sum.smt = t->max_rank > 0;
}

/* Count the distinct non-negative values of one int member of the PUs. */
static int count_ids(const struct pb_topo *t, size_t off)
{
	int i, j, n = 0;

	for (i = 0; i < t->nr; i++) {
		int v = *(const int *)((const char *)&t->pus[i] + off);

		for (j = 0; j < i; j++)
			if (*(const int *)((const char *)&t->pus[j] + off) == v)
				break;
		if (v >= 0 && j == i)
			n++;
	}
	return n;
}

/* Packages renumbered 0.. in order of first appearance (-1 -> one package). */
static int remap_packages(struct pb_topo *t)
{
	int i, j, n = 0;
	int *map = malloc((size_t)t->nr * sizeof(*map));

	if (!map)
		return -1;
	for (i = 0; i < t->nr; i++) {
		int id = t->pus[i].pkg;

		for (j = 0; j < n && map[j] != id; j++)
			;
		if (j == n)
			map[n++] = id;
		t->pus[i].pkg = j;
	}
	free(map);
	t->sum.packages = n;
	return 0;
}

static int build_pus(struct pb_topo *t)
{
	hwloc_obj_type_t llc = llc_type(t->topo);
	hwloc_obj_t pu = NULL;
	int i;

	t->nr = hwloc_bitmap_weight(t->usable);
	if (t->nr <= 0)
		return -1;
	t->pus = calloc((size_t)t->nr, sizeof(*t->pus));
	t->by_os = malloc((size_t)t->nr * sizeof(*t->by_os));
	if (!t->pus || !t->by_os)
		return -1;
	i = 0;
	while ((pu = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_PU, pu)))
		if (hwloc_bitmap_isset(t->usable, pu->os_index) && i < t->nr)
			fill_pu(t, &t->pus[i++], pu, llc);
	t->nr = i;
	for (i = 0; i < t->nr; i++)
		t->by_os[i] = i;
	qsort_r(t->by_os, (size_t)t->nr, sizeof(*t->by_os), cmp_os, t->pus);
	rank_pus(t);
	t->sum.pus = t->nr;
	t->sum.llcs = count_ids(t, offsetof(struct pb_pu, llc));
	t->sum.numa_nodes = count_ids(t, offsetof(struct pb_pu, node));
	return t->nr > 0 ? remap_packages(t) : -1;
}

int pb_topo_load(struct pb_topo **tp, const char *spec, char *err, size_t len)
{
	return pb_topo_load_only(tp, spec, NULL, err, len);
}

int pb_topo_load_only(struct pb_topo **tp, const char *spec, const char *only,
		      char *err, size_t len)
{
	struct pb_topo *t = calloc(1, sizeof(*t));

	*tp = NULL;
	if (!t || hwloc_topology_init(&t->topo) < 0) {
		snprintf(err, len, "cannot initialise hwloc: %s", strerror(errno));
		free(t);
		return -1;
	}
	t->xml_fd = -1;
	if (set_source(t, spec, err, len) < 0)
		goto fail;
	if (hwloc_topology_load(t->topo) < 0) {
		snprintf(err, len, "cannot load the topology of %s: %s",
			 t->source, strerror(errno));
		goto fail;
	}
	if (t->xml_fd >= 0)
		close(t->xml_fd);
	t->xml_fd = -1;
	if (find_usable(t, only) < 0 || build_pus(t) < 0) {
		snprintf(err, len, "no usable CPUs in %s", t->source);
		goto fail;
	}
	count_all(t);
	*tp = t;
	return 0;
fail:
	pb_topo_free(t);
	return -1;
}

void pb_topo_free(struct pb_topo *t)
{
	if (!t)
		return;
	if (t->xml_fd >= 0)
		close(t->xml_fd);
	hwloc_bitmap_free(t->usable);
	free(t->pus);
	free(t->by_os);
	hwloc_topology_destroy(t->topo);
	free(t);
}

bool pb_topo_is_this_system(const struct pb_topo *t)
{
	return t->this_system;
}

void pb_topo_summary(const struct pb_topo *t, struct pb_topo_summary *s)
{
	*s = t->sum;
}

int pb_topo_nr_cpus(const struct pb_topo *t)
{
	return t->nr;
}

bool pb_topo_has_cpu(const struct pb_topo *t, int cpu)
{
	return cpu >= 0 && hwloc_bitmap_isset(t->usable, (unsigned int)cpu);
}

int pb_topo_core_of(const struct pb_topo *t, int cpu)
{
	for (int i = 0; i < t->nr; i++)
		if (t->pus[i].os == cpu)
			return t->pus[i].core;
	return -1;
}

int pb_topo_core_batches(const struct pb_topo *t, const int *cpus, int n, int *batch)
{
	int nb = 0;

	for (int i = 0; i < n; i++) {
		int core = pb_topo_core_of(t, cpus[i]), b = 0;

		if (core < 0) {		/* not in the topology: a batch of its own */
			batch[i] = nb++;
			continue;
		}
		for (int j = 0; j < i; j++)	/* the first batch with no PU of its core */
			if (batch[j] == b && pb_topo_core_of(t, cpus[j]) == core) {
				b++;
				j = -1;
			}
		batch[i] = b;
		if (b >= nb)
			nb = b + 1;
	}
	return nb;
}

bool pb_topo_cpu_exists(const struct pb_topo *t, int cpu)
{
	hwloc_const_bitmap_t all = hwloc_topology_get_complete_cpuset(t->topo);

	return cpu >= 0 && all && hwloc_bitmap_isset(all, (unsigned int)cpu);
}

void pb_topo_cpus_text(const struct pb_topo *t, char *buf, size_t len)
{
	if (hwloc_bitmap_list_snprintf(buf, len, t->usable) < 0 && len)
		snprintf(buf, len, "?");
}

int pb_topo_bind_thread(const struct pb_topo *t, int cpu)
{
	hwloc_bitmap_t set;
	int ret = 0;

	if (!pb_topo_has_cpu(t, cpu))
		return -EINVAL;
	if (!t->this_system)
		return -ENOSYS;
	set = hwloc_bitmap_alloc();
	if (!set)
		return -ENOMEM;
	hwloc_bitmap_only(set, (unsigned int)cpu);
	if (hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD) < 0)
		ret = errno ? -errno : -EINVAL;
	hwloc_bitmap_free(set);
	return ret;
}

/* ---- pair placements ---- */

struct pair_search {
	const struct pb_topo	*t;
	enum pb_rel		rel;
	bool			*pu_used;	/* by index into t->pus */
	bool			*core_used;	/* by core id */
	int			free_cores;	/* cores with no PU used yet */
};

static bool rel_ok(enum pb_rel r, const struct pb_pu *a, const struct pb_pu *b)
{
	switch (r) {
	case REL_SAME_CPU:
		return a == b;
	case REL_SAME_CORE:
		return a != b && a->core == b->core;
	case REL_SAME_SOCKET:
		return a->pkg == b->pkg && a->core != b->core;
	case REL_DIFF_SOCKET:
		return a->pkg != b->pkg;
	case REL_SAME_LLC:
		return a->llc >= 0 && a->llc == b->llc && a->core != b->core;
	case REL_DIFF_LLC:
		return a->pkg == b->pkg && a->llc >= 0 && b->llc >= 0 &&
		       a->llc != b->llc;
	case REL_DIFF_NODE:
		return a->node >= 0 && b->node >= 0 && a->node != b->node;
	}
	return false;
}

/* Caches two PUs share, at most t->max_cache (beyond that all are equal). */
static int shared_caches(const struct pb_topo *t, const struct pb_pu *a,
			 const struct pb_pu *b)
{
	hwloc_obj_t o = hwloc_get_common_ancestor_obj(t->topo, a->obj, b->obj);
	int n = caches_above(o);

	return n < t->max_cache ? n : t->max_cache;
}

static bool prefers_cache(enum pb_rel r)
{
	return r == REL_SAME_SOCKET || r == REL_SAME_LLC;
}

/*
 * Lower is better: first the cores already used by earlier pairs, then
 * (same-socket, same-llc) the caches the two ends do not share.
 */
static int pair_cost(const struct pair_search *s, const struct pb_pu *a,
		     const struct pb_pu *b)
{
	int used = s->core_used[a->core];
	int miss = 0;

	if (b->core != a->core)
		used += s->core_used[b->core];
	if (prefers_cache(s->rel))
		miss = s->t->max_cache - shared_caches(s->t, a, b);
	return used * (s->t->max_cache + 1) + miss;
}

/* The lowest cost a pair could have now: stop searching when reached. */
static int floor_cost(const struct pair_search *s)
{
	int one_core = s->rel == REL_SAME_CPU || s->rel == REL_SAME_CORE;
	int used = 0;

	if (s->free_cores < (one_core ? 1 : 2))
		used = (one_core ? 1 : 2) - s->free_cores;
	return used * (s->t->max_cache + 1);
}

/* Best free pair (indexes into t->pus), lowest OS indexes first. */
static bool find_pair(const struct pair_search *s, int *ia, int *ib)
{
	const struct pb_topo *t = s->t;
	int i, j, best = INT_MAX, floor = floor_cost(s);

	for (i = 0; i < t->nr && best > floor; i++) {
		int a = t->by_os[i];

		if (s->pu_used[a])
			continue;
		for (j = i; j < t->nr && best > floor; j++) {
			int b = t->by_os[j];
			int cost;

			if (s->pu_used[b] || !rel_ok(s->rel, &t->pus[a], &t->pus[b]))
				continue;
			cost = pair_cost(s, &t->pus[a], &t->pus[b]);
			if (cost < best) {
				best = cost;
				*ia = a;
				*ib = b;
			}
		}
	}
	return best < INT_MAX;
}

static void use_core(struct pair_search *s, int core)
{
	if (!s->core_used[core])
		s->free_cores--;
	s->core_used[core] = true;
}

static void pair_skip_reason(const struct pb_topo *t, enum pb_rel r,
			     char *reason, size_t len)
{
	const struct pb_topo_summary *s = &t->sum;
	const char *why = "no two CPUs fit";

	/* fewer usable than the machine has: say so, not "1 core per package" */
	if ((r == REL_SAME_SOCKET || r == REL_SAME_LLC) &&
	    s->cores < t->all_cores) {
		snprintf(reason, len, "%d of %d cores allowed", s->cores, t->all_cores);
		return;
	}
	if (r == REL_DIFF_SOCKET && s->packages < t->all_packages) {
		snprintf(reason, len, "%d of %d packages allowed", s->packages, t->all_packages);
		return;
	}
	if (r == REL_DIFF_NODE && s->numa_nodes < t->all_nodes) {
		snprintf(reason, len, "%d of %d NUMA nodes allowed", s->numa_nodes, t->all_nodes);
		return;
	}
	switch (r) {
	case REL_SAME_CPU:
		why = "no CPU";
		break;
	case REL_SAME_CORE:
		why = s->smt ? "no two SMT siblings" : "no SMT siblings";
		break;
	case REL_SAME_SOCKET:
		why = "1 core per package";
		break;
	case REL_DIFF_SOCKET:
		why = s->packages < 2 ? "1 package" : why;
		break;
	case REL_SAME_LLC:
		why = s->llcs ? "1 core per last-level cache" : "no cache in the topology";
		break;
	case REL_DIFF_LLC:
		why = s->llcs ? "one last-level cache per package" : "no cache in the topology";
		break;
	case REL_DIFF_NODE:
		why = s->numa_nodes < 2 ? "1 NUMA node" : why;
		break;
	}
	snprintf(reason, len, "%s", why);
}

static int place_pairs(const struct pb_topo *t, enum pb_rel rel, int n,
		       int *cpus, char *reason, size_t len)
{
	struct pair_search s = { .t = t, .rel = rel, .free_cores = t->sum.cores };
	int i, a = 0, b = 0, ret = 0;

	s.pu_used = calloc((size_t)t->nr, sizeof(*s.pu_used));
	s.core_used = calloc((size_t)t->nr_core_ids, sizeof(*s.core_used));
	if (!s.pu_used || !s.core_used) {
		snprintf(reason, len, "out of memory");
		ret = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!find_pair(&s, &a, &b))
			break;
		s.pu_used[a] = s.pu_used[b] = true;
		use_core(&s, t->pus[a].core);
		use_core(&s, t->pus[b].core);
		cpus[2 * i] = t->pus[a].os;
		cpus[2 * i + 1] = t->pus[b].os;
	}
	if (i == 0)
		pair_skip_reason(t, rel, reason, len);
	else if (i < n)
		snprintf(reason, len, "not enough CPUs for %d pairs: %d fit on %d CPUs",
			 n, i, t->nr);
	ret = i < n;
out:
	free(s.pu_used);
	free(s.core_used);
	return ret;
}

/* ---- worker placements ---- */

/* Compact: package by package; in each, first PUs of cores, then siblings. */
static int order_compact(const struct pb_topo *t, int *out)
{
	int p, r, i, k = 0;

	for (p = 0; p < t->sum.packages; p++)
		for (r = 0; r <= t->max_rank; r++)
			for (i = 0; i < t->nr; i++)
				if (t->pus[i].pkg == p && t->pus[i].rank == r)
					out[k++] = t->pus[i].os;
	return k;
}

/* Next PU of package p and rank r from *pos on, or -1. */
static int next_in(const struct pb_topo *t, int p, int r, int *pos)
{
	for (; *pos < t->nr; (*pos)++)
		if (t->pus[*pos].pkg == p && t->pus[*pos].rank == r)
			return t->pus[(*pos)++].os;
	return -1;
}

/* Scatter: round-robin over packages; first PUs of cores, then siblings. */
static int order_scatter(const struct pb_topo *t, int *out)
{
	int *pos = malloc((size_t)t->sum.packages * sizeof(*pos));
	int p, r, cpu, k = 0;
	bool more;

	if (!pos)
		return -1;
	for (r = 0; r <= t->max_rank; r++) {
		for (p = 0; p < t->sum.packages; p++)
			pos[p] = 0;
		do {
			more = false;
			for (p = 0; p < t->sum.packages; p++) {
				cpu = next_in(t, p, r, &pos[p]);
				if (cpu >= 0) {
					out[k++] = cpu;
					more = true;
				}
			}
		} while (more);
	}
	free(pos);
	return k;
}

static int place_workers(const struct pb_topo *t, int which, int n,
			 int *cpus, char *reason, size_t len)
{
	int *order;
	int k;

	if (n > t->nr) {
		snprintf(reason, len, "%d workers, only %d CPUs", n, t->nr);
		return 1;
	}
	order = malloc((size_t)t->nr * sizeof(*order));
	if (!order) {
		snprintf(reason, len, "out of memory");
		return -1;
	}
	k = which == 0 ? order_compact(t, order) : order_scatter(t, order);
	if (k >= n)
		memcpy(cpus, order, (size_t)n * sizeof(*cpus));
	else
		snprintf(reason, len, "internal error: %d CPUs ordered of %d", k, t->nr);
	free(order);
	return k >= n ? 0 : -1;
}

int pb_place(const struct pb_topo *t, const char *placement, int n,
	     int *cpus, char *reason, size_t len)
{
	int i;

	if (len)
		reason[0] = '\0';
	if (n < 1) {
		snprintf(reason, len, "%s: bad count %d", placement, n);
		return -1;
	}
	i = name_index(pb_pair_placements, placement);
	if (i >= 0)
		return place_pairs(t, (enum pb_rel)i, n, cpus, reason, len);
	i = name_index(pb_worker_placements, placement);
	if (i >= 0)
		return place_workers(t, i, n, cpus, reason, len);
	snprintf(reason, len, "unknown placement '%s'", placement ? placement : "");
	return -1;
}

/* ---- reports ---- */

json_t *pb_topo_summary_json(const struct pb_topo *t)
{
	const struct pb_topo_summary *s = &t->sum;

	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:b}",
			 "packages", s->packages, "cores", s->cores,
			 "pus", s->pus, "llcs", s->llcs,
			 "numa_nodes", s->numa_nodes, "smt", s->smt);
}

/*
 * Resolve a placement for the report: pairs with one pair, workers over
 * every CPU.  Returns the number of CPUs in cpus, or 0 with a reason.
 */
static int report_place(const struct pb_topo *t, const char *name, int *cpus,
			char *reason, size_t len)
{
	int pair = pb_placement_kind(name) == PB_PLACE_PAIR;
	int n = pair ? 1 : t->nr;

	if (pb_place(t, name, n, cpus, reason, len) != 0)
		return 0;
	return pair ? 2 : n;
}

static void print_list(FILE *f, const int *cpus, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", cpus[i]);
}

/* "package 0: [0,1 2,3] [4,5 6,7]": cores by spaces, LLCs in brackets. */
static void print_package(const struct pb_topo *t, FILE *f, int p)
{
	const struct pb_pu *prev = NULL;
	int i;

	fprintf(f, "package %d:", p);
	for (i = 0; i < t->nr; i++) {
		const struct pb_pu *u = &t->pus[i];

		if (u->pkg != p)
			continue;
		if (prev && prev->llc != u->llc && prev->llc >= 0)
			fputc(']', f);
		if (prev && prev->core == u->core)
			fputc(',', f);
		else
			fputc(' ', f);
		if (u->llc >= 0 && (!prev || prev->llc != u->llc))
			fputc('[', f);
		fprintf(f, "%d", u->os);
		prev = u;
	}
	if (prev && prev->llc >= 0)
		fputc(']', f);
	fputc('\n', f);
}

static void print_nodes(const struct pb_topo *t, FILE *f)
{
	int *cpus = malloc((size_t)t->nr * sizeof(*cpus));
	hwloc_obj_t node = NULL;
	int i, k;

	while (cpus && (node = hwloc_get_next_obj_by_type(t->topo,
						HWLOC_OBJ_NUMANODE, node))) {
		for (i = 0, k = 0; i < t->nr; i++)
			if (t->pus[t->by_os[i]].node == (int)node->logical_index)
				cpus[k++] = t->pus[t->by_os[i]].os;
		if (!k)
			continue;
		fprintf(f, "NUMA node %u: ", node->logical_index);
		print_list(f, cpus, k);
		fputc('\n', f);
	}
	free(cpus);
}

static void print_header(const struct pb_topo *t, FILE *f)
{
	const struct pb_topo_summary *s = &t->sum;
	int p;

	fprintf(f, "topology: %s\n", t->source);
	if (s->pus < t->all_pus)
		fprintf(f, "allowed: CPUs %d of %d (affinity or cpuset); what follows is of "
			"those\n", s->pus, t->all_pus);
	fprintf(f, "packages %d, cores %d, PUs %d, LLCs %d, NUMA nodes %d, SMT %s\n",
		s->packages, s->cores, s->pus, s->llcs, s->numa_nodes,
		s->smt ? "yes" : "no");
	for (p = 0; p < s->packages; p++)
		print_package(t, f, p);
	if (s->numa_nodes > 1)
		print_nodes(t, f);
	fprintf(f, "(CPUs are OS indexes; cores apart by spaces, SMT siblings "
		"by commas%s)\n", s->llcs ? ", [ ] one last-level cache" : "");
}

static void print_placements(const struct pb_topo *t, FILE *f,
			     const char *const *names, int *cpus)
{
	char reason[256];
	int i, n;

	for (i = 0; names[i]; i++) {
		n = report_place(t, names[i], cpus, reason, sizeof(reason));
		fprintf(f, "%-12s ", names[i]);
		if (n)
			print_list(f, cpus, n);
		else
			fprintf(f, "skipped: %s", reason);
		fputc('\n', f);
	}
}

void pb_topo_print(const struct pb_topo *t, FILE *f)
{
	int *cpus = malloc((size_t)(t->nr + 2) * sizeof(*cpus));

	print_header(t, f);
	if (!cpus)
		return;
	fprintf(f, "\n%-12s %s\n", "placement", "CPUs");
	print_placements(t, f, pb_pair_placements, cpus);
	print_placements(t, f, pb_worker_placements, cpus);
	free(cpus);
}

static json_t *placement_json(const struct pb_topo *t, const char *name, int *cpus)
{
	char reason[256];
	json_t *list;
	int i, n;

	n = report_place(t, name, cpus, reason, sizeof(reason));
	if (!n)
		return json_pack("{s:s, s:n, s:s}", "name", name, "cpus",
				 "reason", reason);
	list = json_array();
	for (i = 0; list && i < n; i++)
		json_array_append_new(list, json_integer(cpus[i]));
	return json_pack("{s:s, s:o, s:n}", "name", name, "cpus", list, "reason");
}

static int add_placements(const struct pb_topo *t, json_t *arr,
			  const char *const *names, int *cpus)
{
	int i;

	for (i = 0; names[i]; i++)
		if (json_array_append_new(arr, placement_json(t, names[i], cpus)))
			return -1;
	return 0;
}

json_t *pb_topo_report_json(const struct pb_topo *t)
{
	int *cpus = malloc((size_t)(t->nr + 2) * sizeof(*cpus));
	json_t *arr = json_array();
	json_t *root = NULL;

	if (!cpus || !arr ||
	    add_placements(t, arr, pb_pair_placements, cpus) < 0 ||
	    add_placements(t, arr, pb_worker_placements, cpus) < 0) {
		json_decref(arr);
		goto out;
	}
	root = json_pack("{s:o, s:o}", "placements", arr,
			 "topology", pb_topo_summary_json(t));
out:
	free(cpus);
	return root;
}
