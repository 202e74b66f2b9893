/*
 * test_model_intern.c - the string table (model/model_intern.c): strings
 * appended without a lookup and indexed at once, as a persistent index's
 * load does (intern_append, intern_index), give the same ids to lookups
 * and adds as strings interned one by one, and two ids of one string are
 * refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/model_internal.h"

#define MANY 70000      /* more than a radix digit's and a string chunk's worth */

static void
name_of(char *buf, size_t size, uint32_t i)
{
	snprintf(buf, size, "op/%u/%s", i, i % 3 ? "MatMul" : "x");
}

static void
test_intern_index_finds_every_string(void **state)
{
	struct intern in;
	char buf[64];
	uint32_t i;

	(void)state;
	intern_init(&in);
	for (i = 1; i < MANY; i++) {
		name_of(buf, sizeof buf, i);
		assert_int_equal(intern_append(&in, buf, strlen(buf)), i);
	}
	assert_true(intern_index(&in));
	assert_int_equal(intern_find(&in, ""), 0);
	for (i = 1; i < MANY; i++) {
		name_of(buf, sizeof buf, i);
		assert_int_equal(intern_find(&in, buf), i);
		assert_int_equal(intern_add(&in, buf), i);         /* known: its id */
		assert_string_equal(intern_str(&in, i), buf);
	}
	assert_int_equal(intern_find(&in, "op/absent"), NO_ID);
	assert_int_equal(intern_add(&in, "op/absent"), MANY); /* new: the next id */
	assert_int_equal(intern_find(&in, "op/absent"), MANY);
	intern_done(&in);
}

static void
test_intern_index_refuses_a_twin(void **state)
{
	struct intern in;
	char buf[64];
	uint32_t i;

	(void)state;
	intern_init(&in);
	for (i = 1; i < 1000; i++) {
		name_of(buf, sizeof buf, i);
		intern_append(&in, buf, strlen(buf));
	}
	name_of(buf, sizeof buf, 517);
	intern_append(&in, buf, strlen(buf));
	assert_false(intern_index(&in));
	intern_done(&in);
}

/* id 0 is "": another "" is a twin too. */
static void
test_intern_index_refuses_a_second_empty_string(void **state)
{
	struct intern in;

	(void)state;
	intern_init(&in);
	intern_append(&in, "a", 1);
	intern_append(&in, "", 0);
	assert_false(intern_index(&in));
	intern_done(&in);
}

/* intern_reserve: the strings appended after it lie in the one block it
 * made, in order, as long as they fit; one that does not fit goes to a
 * block of its own and is still found by its id and by a lookup. */
static void
test_intern_reserve_holds_the_strings_that_follow(void **state)
{
	static struct intern in;        /* zeroed, as the model's (xcalloc) */
	char buf[64];
	size_t need = 0;
	const char *first, *last;
	uint32_t i;

	(void)state;
	intern_init(&in);
	for (i = 1; i < MANY; i++) {
		name_of(buf, sizeof buf, i);
		need += strlen(buf) + 1;
	}
	intern_reserve(&in, need);
	for (i = 1; i < MANY; i++) {
		name_of(buf, sizeof buf, i);
		assert_int_equal(intern_append(&in, buf, strlen(buf)), i);
	}
	first = intern_str(&in, 1);
	last = intern_str(&in, MANY - 1);
	/* one run of bytes, each string right after the one before */
	assert_ptr_equal(last + strlen(last) + 1, first + need);
	assert_int_equal(intern_append(&in, "past the reserved bytes", 23), MANY);
	assert_true(intern_index(&in));
	for (i = 1; i < MANY; i += 997) {
		name_of(buf, sizeof buf, i);
		assert_int_equal(intern_find(&in, buf), i);
	}
	assert_int_equal(intern_find(&in, "past the reserved bytes"), MANY);
	assert_string_equal(intern_str(&in, MANY), "past the reserved bytes");
	intern_done(&in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern_index_finds_every_string),
		cmocka_unit_test(test_intern_index_refuses_a_twin),
		cmocka_unit_test(test_intern_index_refuses_a_second_empty_string),
		cmocka_unit_test(test_intern_reserve_holds_the_strings_that_follow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
