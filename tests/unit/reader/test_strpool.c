/*
 * test_strpool.c - the readers' string pool (reader/base/strpool.h):
 * interned strings are one copy each with insertion numbers, copies and
 * strings keep their address while the arena grows past many chunks,
 * strings longer than a chunk fit, and a pool that is never used or holds
 * one short string costs little.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/strpool.h"

static void
test_strpool_intern_one_copy_per_name(void **state)
{
	struct td_strpool s = { 0 };
	char buf[32];
	const char *a, *b, *c;

	(void)state;
	a = td_strpool_add(&s, "dense/MatMul");
	snprintf(buf, sizeof buf, "dense/%s", "MatMul");
	b = td_strpool_add(&s, buf);
	c = td_strpool_add(&s, "dense/MatMu");
	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, buf);
	assert_ptr_not_equal(a, c);
	assert_string_equal(c, "dense/MatMu");
	assert_string_equal(td_strpool_add(&s, ""), "");
	assert_null(td_strpool_add(&s, NULL));
	assert_int_equal(s.n, 3);
	td_strpool_done(&s);
	assert_int_equal(s.n, 0);
	td_strpool_done(NULL);
}

static void
test_strpool_addresses_survive_growth(void **state)
{
	enum { N = 20000 };
	struct td_strpool s = { 0 };
	const char **copies = calloc(N, sizeof(*copies));
	const char **names = calloc(N, sizeof(*names));
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "run_%zu/_tfdbg_device_/x_0_DebugIdentity_%zu", i, i);

		copies[i] = td_strpool_copy(&s, buf, (size_t)n - 3);  /* a prefix: NUL added */
		names[i] = td_strpool_add(&s, buf + 4 + (i % 7));
	}
	assert_true(s.bytes > 4 * 64 * 1024);   /* several chunks */
	for (i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "run_%zu/_tfdbg_device_/x_0_DebugIdentity_%zu", i, i);

		assert_int_equal(strlen(copies[i]), (size_t)n - 3);
		assert_memory_equal(copies[i], buf, (size_t)n - 3);
		assert_string_equal(names[i], buf + 4 + (i % 7));
		assert_ptr_equal(td_strpool_add(&s, buf + 4 + (i % 7)), names[i]);
	}
	td_strpool_done(&s);
	free(copies);
	free(names);
}

static void
test_strpool_string_longer_than_a_chunk(void **state)
{
	struct td_strpool s = { 0 };
	size_t len = 200 * 1024;
	char *big = malloc(len + 1);
	const char *small, *copy;

	(void)state;
	memset(big, 'a', len);
	big[len] = '\0';
	small = td_strpool_copy(&s, "x", 1);
	copy = td_strpool_add(&s, big);
	assert_int_equal(strlen(copy), len);
	assert_string_equal(small, "x");
	assert_string_equal(td_strpool_copy(&s, "yz", 2), "yz");
	assert_ptr_equal(td_strpool_add(&s, big), copy);
	td_strpool_done(&s);
	free(big);
}

static void
test_strpool_ids_in_insertion_order(void **state)
{
	struct td_strpool s = { 0 };
	bool added;

	(void)state;
	assert_int_equal(td_strpool_find(&s, "a"), -1);
	assert_int_equal(td_strpool_id(&s, "a", &added), 0);
	assert_true(added);
	assert_int_equal(td_strpool_id(&s, "bb", &added), 1);
	assert_true(added);
	assert_int_equal(td_strpool_id(&s, "a", &added), 0);
	assert_false(added);
	assert_ptr_equal(td_strpool_add_len(&s, "bbc", 2), s.strs[1]);
	assert_int_equal(td_strpool_find(&s, "bb"), 1);
	assert_int_equal(td_strpool_find(&s, "b"), -1);
	assert_int_equal(td_strpool_find(&s, ""), -1);
	assert_int_equal(s.n, 2);
	td_strpool_done(&s);
}

/* Readers keep many small pools (a rank's iteration texts, unreadable
 * directories): one short string must not cost a 64 KiB chunk. */
static void
test_strpool_small_pool_is_small(void **state)
{
	struct td_strpool s = { 0 };

	(void)state;
	td_strpool_add(&s, "rank_0");
	assert_true(s.bytes < 1024);
	td_strpool_done(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strpool_intern_one_copy_per_name),
		cmocka_unit_test(test_strpool_addresses_survive_growth),
		cmocka_unit_test(test_strpool_string_longer_than_a_chunk),
		cmocka_unit_test(test_strpool_ids_in_insertion_order),
		cmocka_unit_test(test_strpool_small_pool_is_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
