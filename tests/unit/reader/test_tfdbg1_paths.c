/*
 * test_tfdbg1_paths.c - a tfdbg v1 file's path kept as directory + base
 * name gives back the same bytes, the base dropped only when the dump
 * name's fields spell it (FORMAT.md §9).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tfdbg1/tfdbg1_internal.h"

/* Sets f's path from path, checks what was kept and the path given back. */
static void
check_path(struct td_strpool *s, struct tfdbg1_file *f, const char *path, bool base_kept)
{
	char *back;

	tfdbg1_file_set_path(s, f, path);
	assert_int_equal(f->base != NULL, base_kept);
	back = tfdbg1_file_path(f);
	assert_string_equal(back, path);
	free(back);
}

static void
test_tfdbg1_file_path_round_trips(void **state)
{
	struct td_strpool s = { 0 };
	struct tfdbg1_file f = { 0 }, g;

	(void)state;
	f.role = TFDBG1_DUMP;
	f.node = "dense/MatMul";
	f.debug_op = "DebugIdentity";
	f.slot = 0;
	f.timestamp = 1600000000123456u;
	check_path(&s, &f, "/d/run_1_0/_tfdbg_device_,job_a/dense/MatMul_0_DebugIdentity_1600000000123456",
		   false);
	g = f;
	check_path(&s, &g, "/d/run_2_1/_tfdbg_device_,job_a/dense/MatMul_0_DebugIdentity_1600000000123456",
		   false);
	assert_string_equal(g.dir, "/d/run_2_1/_tfdbg_device_,job_a/dense");
	/* the fields do not spell these: the base name is kept */
	check_path(&s, &f, "/d/dense/MatMul_00_DebugIdentity_1600000000123456", true);
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentity_1600000000123456-0", true);
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentity_1600000000123457", true);
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentity_160000000012345", true);
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentity_1600000000123456x", true);
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentityX_1600000000123456", true);
	check_path(&s, &f, "/d/dense/MatMul_10_DebugIdentity_1600000000123456", true);
	check_path(&s, &f, "/d/dense/MatMu_0_DebugIdentity_1600000000123456", true);
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentity_", true);
	check_path(&s, &f, "/d/dense/MatMul", true);
	f.slot = 10;
	f.timestamp = 0;
	check_path(&s, &f, "/d/dense/MatMul_10_DebugIdentity_0", false);
	check_path(&s, &f, "/d/dense/MatMul_1_DebugIdentity_0", true);
	f.slot = 0;
	f.timestamp = 1600000000123456u;
	f.collision = 2;
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentity_1600000000123456-2", false);
	check_path(&s, &f, "MatMul_0_DebugIdentity_1600000000123456-2", false);
	check_path(&s, &f, "MatMul_0_DebugIdentity_1600000000123456-3", true);
	check_path(&s, &f, "MatMul_0_DebugIdentity_1600000000123456-2-", true);
	check_path(&s, &f, "MatMul_0_DebugIdentity_1600000000123456", true);
	assert_null(f.dir);
	f.role = TFDBG1_GRAPH;
	check_path(&s, &f, "/d/run_1_0/_tfdbg_graph_abc_1600000000", true);
	check_path(&s, &f, "r2000", true);
	check_path(&s, &f, "r2000/", true);
	td_strpool_done(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg1_file_path_round_trips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
