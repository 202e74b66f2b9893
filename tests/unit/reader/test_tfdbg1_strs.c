/*
 * test_tfdbg1_strs.c - the tfdbg v1 reader's string pool: interned names
 * are one copy each, copies and names keep their address while the arena
 * grows past many chunks, and strings longer than a chunk fit; a file's
 * path kept as directory + base name gives back the same bytes, the base
 * dropped only when the dump name's fields spell it (FORMAT.md §9).
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

static void
test_tfdbg1_strs_intern_one_copy_per_name(void **state)
{
	struct tfdbg1_strs s = { 0 };
	char buf[32];
	const char *a, *b, *c;

	(void)state;
	a = tfdbg1_strs_intern(&s, "dense/MatMul");
	snprintf(buf, sizeof buf, "dense/%s", "MatMul");
	b = tfdbg1_strs_intern(&s, buf);
	c = tfdbg1_strs_intern(&s, "dense/MatMu");
	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, buf);
	assert_ptr_not_equal(a, c);
	assert_string_equal(c, "dense/MatMu");
	assert_string_equal(tfdbg1_strs_intern(&s, ""), "");
	assert_null(tfdbg1_strs_intern(&s, NULL));
	assert_int_equal(s.nnames, 3);
	tfdbg1_strs_done(&s);
	assert_int_equal(s.nnames, 0);
	tfdbg1_strs_done(NULL);
}

static void
test_tfdbg1_strs_addresses_survive_growth(void **state)
{
	enum { N = 20000 };
	struct tfdbg1_strs s = { 0 };
	const char **copies = calloc(N, sizeof(*copies));
	const char **names = calloc(N, sizeof(*names));
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "run_%zu/_tfdbg_device_/x_0_DebugIdentity_%zu", i, i);

		copies[i] = tfdbg1_strs_copy(&s, buf, (size_t)n - 3);  /* a prefix: NUL added */
		names[i] = tfdbg1_strs_intern(&s, buf + 4 + (i % 7));
	}
	assert_true(s.bytes > 2 * 64 * 1024);   /* several chunks */
	for (i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "run_%zu/_tfdbg_device_/x_0_DebugIdentity_%zu", i, i);

		assert_int_equal(strlen(copies[i]), (size_t)n - 3);
		assert_memory_equal(copies[i], buf, (size_t)n - 3);
		assert_string_equal(names[i], buf + 4 + (i % 7));
		assert_ptr_equal(tfdbg1_strs_intern(&s, buf + 4 + (i % 7)), names[i]);
	}
	tfdbg1_strs_done(&s);
	free(copies);
	free(names);
}

static void
test_tfdbg1_strs_string_longer_than_a_chunk(void **state)
{
	struct tfdbg1_strs s = { 0 };
	size_t len = 200 * 1024;
	char *big = malloc(len + 1);
	const char *small, *copy;

	(void)state;
	memset(big, 'a', len);
	big[len] = '\0';
	small = tfdbg1_strs_copy(&s, "x", 1);
	copy = tfdbg1_strs_intern(&s, big);
	assert_int_equal(strlen(copy), len);
	assert_string_equal(small, "x");
	assert_string_equal(tfdbg1_strs_copy(&s, "yz", 2), "yz");
	assert_ptr_equal(tfdbg1_strs_intern(&s, big), copy);
	tfdbg1_strs_done(&s);
	free(big);
}

/* Sets f's path from path, checks what was kept and the path given back. */
static void
check_path(struct tfdbg1_strs *s, struct tfdbg1_file *f, const char *path, bool base_kept)
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
	struct tfdbg1_strs s = { 0 };
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
	f.collision = 2;
	check_path(&s, &f, "/d/dense/MatMul_0_DebugIdentity_1600000000123456-2", false);
	check_path(&s, &f, "MatMul_0_DebugIdentity_1600000000123456-2", false);
	assert_null(f.dir);
	f.role = TFDBG1_GRAPH;
	check_path(&s, &f, "/d/run_1_0/_tfdbg_graph_abc_1600000000", true);
	check_path(&s, &f, "r2000", true);
	check_path(&s, &f, "r2000/", true);
	tfdbg1_strs_done(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg1_strs_intern_one_copy_per_name),
		cmocka_unit_test(test_tfdbg1_strs_addresses_survive_growth),
		cmocka_unit_test(test_tfdbg1_strs_string_longer_than_a_chunk),
		cmocka_unit_test(test_tfdbg1_file_path_round_trips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
