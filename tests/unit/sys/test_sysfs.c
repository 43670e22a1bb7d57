// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sysfs.c - the one /proc and /sys reader: cpuinfo fields by their
 * exact key, flags as words, and every user of the CPU model (the result
 * file's host, the server's host facts, the environment) and a workload's
 * kernel limits reading them under $PINBENCH_SYSROOT, not this machine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fs_fixture.h"
#include "net/proto.h"
#include "report/result.h"
#include "sys/env.h"
#include "sys/sysfs.h"

#define MODEL	"Fake CPU 9000 @ 2.00GHz"

static char root[64];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/pinbench-sysfs.XXXXXX");
	assert_non_null(mkdtemp(root));
	fixture_write(root, "proc/cpuinfo",
		      "processor\t: 0\n"
		      "vendor_id\t: FakeIntel\n"
		      "cpu family\t: 6\n"
		      "model\t\t: 85\n"
		      "model name\t: " MODEL "\n"
		      "flags\t\t: fpu tsc_known_freq hypervisor constant_tsc\n"
		      "\n"
		      "processor\t: 1\n"
		      "model name\t: Another CPU\n");
	setenv(PB_SYSROOT_ENV, root, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	unsetenv(PB_SYSROOT_ENV);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_cpuinfo_fields(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(pb_cpuinfo_field("model", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "85");		/* not "model name" */
	assert_int_equal(pb_cpuinfo_field("model name", buf, sizeof(buf)), 0);
	assert_string_equal(buf, MODEL);	/* the first CPU's */
	assert_int_equal(pb_cpuinfo_field("cpu family", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "6");
	assert_int_equal(pb_cpuinfo_field("bogomips", buf, sizeof(buf)), -1);
	assert_int_equal(pb_cpuinfo_field("flags", buf, sizeof(buf)), 0);
	assert_true(pb_cpuinfo_flag(buf, "hypervisor"));
	assert_true(pb_cpuinfo_flag(buf, "fpu"));
	assert_true(pb_cpuinfo_flag(buf, "constant_tsc"));
	assert_false(pb_cpuinfo_flag(buf, "tsc"));	/* a word, not a substring */
	assert_false(pb_cpuinfo_flag(buf, "known"));
}

/* Every place that names the CPU model reads the sysroot's. */
static void test_model_everywhere(void **state)
{
	char host[64], kernel[64], model[128], err[256];
	struct pb_topo *t;
	struct pb_env e;
	json_t *h;

	(void)state;
	pb_host_facts(host, sizeof(host), kernel, sizeof(kernel), model, sizeof(model));
	assert_string_equal(model, MODEL);
	assert_int_equal(pb_topo_load(&t, "pack:1 core:2 pu:1", err, sizeof(err)), 0);
	h = pb_host_json(t);
	assert_string_equal(json_string_value(json_object_get(h, "cpu_model")), MODEL);
	json_decref(h);
	pb_topo_free(t);
	assert_int_equal(pb_env_collect(&e, err, sizeof(err)), 0);
	assert_string_equal(e.model, MODEL);
	assert_int_equal(e.hypervisor, 1);
	pb_env_free(&e);
}

/* A workload's kernel limits come from the tree too. */
static void test_sysctl(void **state)
{
	(void)state;
	fixture_write(root, "proc/sys/fs/nr_open", "4242\n");
	assert_int_equal(pb_sysctl_long("fs/nr_open"), 4242);
	assert_int_equal(pb_sysctl_long("fs/epoll/max_user_watches"), -1);
}

/* No cpuinfo in the tree: unknown, never this machine's. */
static void test_missing_is_unknown(void **state)
{
	char host[64], kernel[64], model[128], cmd[160];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm %s/proc/cpuinfo", root);
	assert_int_equal(system(cmd), 0);
	pb_host_facts(host, sizeof(host), kernel, sizeof(kernel), model, sizeof(model));
	assert_string_equal(model, "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cpuinfo_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_model_everywhere, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_is_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysctl, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
