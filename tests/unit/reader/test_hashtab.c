/*
 * test_hashtab.c - the foundation's hash table: both faces with many keys,
 * forced collisions, growth from empty and from a sized init, iteration,
 * and the string hash's stability.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reader/base/hashtab.h"

#define NKEYS 200000

/* Entries for the id face: strings numbered by their index. */
struct names {
	char (*s)[32];
	size_t n;
};

static bool
names_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct names *v = ctx;

	assert_true(id < v->n);
	return strcmp(v->s[id], key) == 0;
}

static void
names_make(struct names *v, size_t n)
{
	size_t i;

	v->s = calloc(n, sizeof(*v->s));
	assert_non_null(v->s);
	v->n = n;
	for (i = 0; i < n; i++)
		snprintf(v->s[i], sizeof(v->s[i]), "op/%zu/name", i);
}

static void
test_hashtab_finds_every_string_id_across_growth(void **state)
{
	struct hashtab t = {0};
	struct names v;
	size_t i;

	(void)state;
	names_make(&v, NKEYS);
	for (i = 0; i < NKEYS; i++) {
		uint32_t h = hashtab_str_hash(v.s[i]);

		assert_int_equal(hashtab_find(&t, h, names_eq, &v, v.s[i]), HASHTAB_NONE);
		hashtab_add(&t, h, (uint32_t)i);
	}
	assert_int_equal(t.n, NKEYS);
	assert_true(t.cap >= 2 * NKEYS);
	assert_int_equal(t.cap & (t.cap - 1), 0);
	for (i = 0; i < NKEYS; i++)
		assert_int_equal(hashtab_find(&t, hashtab_str_hash(v.s[i]), names_eq, &v, v.s[i]), i);
	assert_int_equal(hashtab_find(&t, hashtab_str_hash("op/x"), names_eq, &v, "op/x"),
	                 HASHTAB_NONE);
	hashtab_done(&t);
	assert_null(t.slots);
	assert_int_equal(t.cap, 0);
	free(v.s);
}

/* Every key under one hash: the probe run must still tell them apart by
 * the callback, and an absent key must end at the run's empty slot. */
static void
test_hashtab_tells_apart_keys_of_one_hash(void **state)
{
	struct hashtab t = {0};
	struct names v;
	size_t i;

	(void)state;
	names_make(&v, 1000);
	for (i = 0; i < v.n; i++)
		hashtab_add(&t, 7, (uint32_t)i);
	for (i = 0; i < v.n; i++)
		assert_int_equal(hashtab_find(&t, 7, names_eq, &v, v.s[i]), i);
	assert_int_equal(hashtab_find(&t, 7, names_eq, &v, "absent"), HASHTAB_NONE);
	/* a different hash never calls the callback on these ids */
	assert_int_equal(hashtab_find(&t, 8, names_eq, &v, v.s[3]), HASHTAB_NONE);
	hashtab_done(&t);
	free(v.s);
}

static void
test_hashtab_init_sizes_without_growing(void **state)
{
	struct hashtab t;
	struct hashtab_slot *first;
	uint32_t i;

	(void)state;
	hashtab_init(&t, 512);
	assert_int_equal(t.cap, 1024);
	first = t.slots;
	for (i = 0; i < 512; i++)
		hashtab_add(&t, i * 2654435761u, i);
	assert_ptr_equal(t.slots, first);       /* 512 of 1024: no growth yet */
	hashtab_add(&t, 1, 512);
	assert_int_equal(t.cap, 2048);
	hashtab_done(&t);
	hashtab_init(&t, 0);
	assert_int_equal(t.cap, 16);
	hashtab_done(&t);
	hashtab_done(NULL);
}

static void
test_hashtab_next_visits_each_id_once(void **state)
{
	struct hashtab t = {0};
	unsigned char *seen = calloc(5000, 1);
	size_t pos = 0, count = 0;
	uint32_t id;

	(void)state;
	assert_false(hashtab_next(&t, &pos, &id));      /* empty, unallocated */
	for (id = 0; id < 5000; id++)
		hashtab_add(&t, id % 97, id);
	while (hashtab_next(&t, &pos, &id)) {
		assert_true(id < 5000);
		assert_int_equal(seen[id]++, 0);
		count++;
	}
	assert_int_equal(count, 5000);
	hashtab_done(&t);
	free(seen);
}

static void
test_hashtab_str_hash_is_stable(void **state)
{
	char a[40], b[40];

	(void)state;
	/* the persistent index holds keys made with it (problem keys): the
	 * values must not move.  Expected values from a Python model of the
	 * function (64-bit words little-endian, then the tail word). */
	assert_int_equal(hashtab_str_hash(""), 0xdf442d22u);
	assert_int_equal(hashtab_str_hash("a"), 0xbb22dc3au);
	assert_int_equal(hashtab_str_hash("MatMul"), 0xd75dc544u);
	assert_int_equal(hashtab_str_hash("model/dense_1/BiasAdd:0"), 0x3580cd58u);
	assert_int_equal(hashtab_str_hash("0123456789abcdef"), 0xa101991eu);
	/* the tail (len % 8) and the length both count */
	memset(a, 'x', sizeof(a));
	memcpy(b, a, sizeof(b));
	a[17] = b[17] = '\0';
	assert_int_equal(hashtab_str_hash(a), hashtab_str_hash(b));
	b[16] = 'y';
	assert_int_not_equal(hashtab_str_hash(a), hashtab_str_hash(b));
	a[16] = '\0';
	b[16] = 'x';
	b[17] = '\0';
	assert_int_not_equal(hashtab_str_hash(a), hashtab_str_hash(b));
	assert_int_not_equal(hashtab_str_hash("ab"), hashtab_str_hash("ba"));
	/* a name inside a longer string hashes as the name alone */
	assert_int_equal(hashtab_mem_hash("model/dense_1/BiasAdd:0 tail", 23), 0x3580cd58u);
	assert_int_equal(hashtab_mem_hash("MatMul:1", 6), 0xd75dc544u);
	assert_int_equal(hashtab_mem_hash("x", 0), 0xdf442d22u);
}

static void
test_hashtab_u64_puts_gets_many_keys(void **state)
{
	struct hashtab_u64 t = {0};
	uint64_t k, v, *slot;

	(void)state;
	assert_false(hashtab_u64_get(&t, 1, &v));       /* empty, unallocated */
	assert_null(hashtab_u64_slot(&t, 1));
	for (k = 0; k < NKEYS; k++) {
		/* keys that differ only in high bits, and key 0 */
		slot = hashtab_u64_put(&t, k << 40 | (k & 3), 0);
		assert_int_equal(*slot, 0);
		*slot = k + 1;
	}
	assert_int_equal(t.n, NKEYS);
	for (k = 0; k < NKEYS; k++) {
		assert_true(hashtab_u64_get(&t, k << 40 | (k & 3), &v));
		assert_int_equal(v, k + 1);
	}
	assert_false(hashtab_u64_get(&t, 5, NULL));
	/* put on a present key returns its slot and keeps its value */
	slot = hashtab_u64_put(&t, 7ull << 40 | 3, 99);
	assert_int_equal(*slot, 8);
	(*slot)++;
	assert_int_equal(*hashtab_u64_slot(&t, 7ull << 40 | 3), 9);
	assert_int_equal(t.n, NKEYS);
	hashtab_u64_done(&t);
	assert_null(t.keys);
	hashtab_u64_done(NULL);
}

static void
test_hashtab_u64_grows_from_64_at_half(void **state)
{
	struct hashtab_u64 t = {0};
	uint64_t k;

	(void)state;
	hashtab_u64_put(&t, 1, 0);
	assert_int_equal(t.cap, 64);
	for (k = 2; k <= 32; k++)
		hashtab_u64_put(&t, k, 0);
	assert_int_equal(t.cap, 64);            /* 32 of 64 */
	hashtab_u64_put(&t, 33, 0);
	assert_int_equal(t.cap, 128);
	hashtab_u64_done(&t);
}

static void
test_hashtab_u64_init_sizes_without_growing(void **state)
{
	static const size_t ns[] = { 0, 1, 32, 33, 1000, 1024, 1025 };
	struct hashtab_u64 t;
	uint64_t *first, v;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		hashtab_u64_init(&t, ns[i]);
		first = t.keys;
		for (k = 0; k < ns[i]; k++)
			*hashtab_u64_put(&t, k * 0x9e3779b97f4a7c15ULL + 1, 0) = k;
		assert_ptr_equal(t.keys, first);        /* never grown */
		assert_true(t.cap >= 2 * ns[i] && t.cap <= 4 * ns[i] + 64);
		for (k = 0; k < ns[i]; k++) {
			assert_true(hashtab_u64_get(&t, k * 0x9e3779b97f4a7c15ULL + 1, &v));
			assert_int_equal(v, k);
		}
		hashtab_u64_done(&t);
	}
}

static void
test_hashtab_u64_next_gives_each_pair_once(void **state)
{
	struct hashtab_u64 t = {0};
	size_t pos = 0, count = 0;
	uint64_t k, v, sum = 0;

	(void)state;
	for (k = 1; k <= 3000; k++)
		*hashtab_u64_put(&t, k * 1000003, 0) = k;
	while (hashtab_u64_next(&t, &pos, &k, &v)) {
		assert_int_equal(k, v * 1000003);
		sum += v;
		count++;
	}
	assert_int_equal(count, 3000);
	assert_int_equal(sum, 3000u * 3001u / 2);
	pos = 0;
	assert_true(hashtab_u64_next(&t, &pos, NULL, NULL));
	hashtab_u64_done(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hashtab_finds_every_string_id_across_growth),
		cmocka_unit_test(test_hashtab_tells_apart_keys_of_one_hash),
		cmocka_unit_test(test_hashtab_init_sizes_without_growing),
		cmocka_unit_test(test_hashtab_next_visits_each_id_once),
		cmocka_unit_test(test_hashtab_str_hash_is_stable),
		cmocka_unit_test(test_hashtab_u64_puts_gets_many_keys),
		cmocka_unit_test(test_hashtab_u64_grows_from_64_at_half),
		cmocka_unit_test(test_hashtab_u64_init_sizes_without_growing),
		cmocka_unit_test(test_hashtab_u64_next_gives_each_pair_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
