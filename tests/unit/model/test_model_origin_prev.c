/*
 * test_model_origin_prev.c - the origins' "latest earlier row of this op
 * and slot" from a walk of the rows in order (octx_prev_of_op,
 * model/analysis/model_origin_prev.c) against the scan back it replaces
 * (model_trace_of_op): the same answer for every question, whatever the
 * order they come in (row after row, a few rows apart, far apart so the
 * walk starts again, backwards, at random), on rows of interleaved ops
 * with several slots (one past what a flag byte holds), input rows and
 * ops that stop appearing.  And a row's host read a window of rows at a
 * time (octx_row_host) against model_trace_keys' host, on rows of files
 * of two hosts and of none, in order, backwards and past the rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_origins_ctx.h"
#include "tests/unit/helpers/fake_model.h"
#include "tests/unit/helpers/xorshift.h"

#define NOPS 6
#define NROWS 6000

static const char *const names[NOPS] = { "a", "b", "c", "d", "e", "once" };
static const uint32_t slots[] = { 0, 1, 2, 20 };

static uint64_t rng = 88172645463325252ull;

static uint64_t
next_rand(void)
{
	return xorshift64(&rng);
}

/* Rows of ops a..e in a shuffled order, each with a slot of slots[],
 * one row in eight an input row; "once" only in the first rows. */
static struct model *
script(struct fake **out)
{
	struct fake *f = *out = fake_new();
	struct td_summary s = fake_full_health(4, 0, 0, 0);

	fake_graph(f, "g", "g", NULL);
	for (int k = 0; k < NOPS; k++)
		fake_op(f, "g", names[k], "Relu", NULL, NULL);
	for (int r = 0; r < NROWS; r++) {
		uint64_t x = next_rand();
		const char *op = r < 40 && x % 3 == 0 ? "once" : names[x % (NOPS - 1)];
		uint32_t slot = slots[(x >> 8) % 4];
		bool input = (x >> 16) % 8 == 0;

		fake_trace_ex(f, 1, "g", op, slot, 1.0 + r, &s, -1, input);
	}
	return fake_model_open(f, NULL);
}

/* Asks every op and slot at row i, in c and by the scan. */
static void
ask_all(struct octx *c, uint64_t i)
{
	for (uint32_t op = 0; op < NOPS + 1; op++)
		for (size_t k = 0; k < sizeof slots / sizeof *slots; k++) {
			int64_t want = model_trace_of_op(c->m, op, slots[k], i, -1);

			assert_int_equal(octx_prev_of_op(c, op, slots[k], i), want);
		}
}

/* Asks the op and slot of row i itself (as previous_same does). */
static void
ask_own(struct octx *c, uint64_t i)
{
	uint32_t f, op = model_trace_op_flags(c->m, i, &f);
	uint32_t slot = model_trace_slot(c->m, i);

	assert_int_equal(octx_prev_of_op(c, op, slot, i), model_trace_of_op(c->m, op, slot, i, -1));
}

static void
test_prev_row_after_row_is_the_scans(void **state)
{
	struct fake *fk;
	struct model *m = script(&fk);
	struct octx c = { .m = m };

	(void)state;
	assert_int_equal(model_trace_count(m), NROWS);
	for (uint64_t i = 0; i < NROWS; i++) {
		ask_own(&c, i);
		ask_own(&c, i);         /* asked again, as explaining it does */
		if (i % 97 == 0)
			ask_all(&c, i);
	}
	octx_done(&c);
	model_close(m);
	fake_free(fk);
}

static void
test_prev_far_apart_and_backwards_is_the_scans(void **state)
{
	struct fake *fk;
	struct model *m = script(&fk);
	struct octx c = { .m = m };

	(void)state;
	for (uint64_t i = 5; i < NROWS; i += 700)       /* each past the walk's credit */
		ask_all(&c, i);
	for (uint64_t i = NROWS; i-- > 0; i = i > 37 ? i - 37 : 0)     /* backwards */
		ask_own(&c, i);
	for (uint64_t i = 3000; i < 3400; i += 3) {     /* dense, then a jump, then dense */
		ask_own(&c, i);
		if (i == 3201)
			ask_all(&c, 5900);
	}
	for (int k = 0; k < 2000; k++)                  /* anywhere */
		ask_own(&c, next_rand() % NROWS);
	octx_done(&c);
	model_close(m);
	fake_free(fk);
}

/* Dense questions interleaved with a path walked back (classify of
 * earlier rows), as an origins run with explanations asks. */
static void
test_prev_with_paths_walked_back_is_the_scans(void **state)
{
	struct fake *fk;
	struct model *m = script(&fk);
	struct octx c = { .m = m };

	(void)state;
	for (uint64_t i = 100; i < NROWS; i += 1 + next_rand() % 300) {
		ask_own(&c, i);
		for (uint64_t b = i; b > i - 50 && b > 0; b -= 7)
			ask_own(&c, b);
		ask_own(&c, i);
	}
	octx_done(&c);
	model_close(m);
	fake_free(fk);
}

static void
test_row_host_is_the_keys_host(void **state)
{
	struct fake *fk = fake_new(), *f = fk;
	struct td_summary s = fake_full_health(4, 0, 0, 0);
	struct model *m;
	struct octx c;
	uint64_t n;

	(void)state;
	fake_file(f, 1, "a", "host-a");
	fake_file(f, 2, "b", "host-b");
	fake_file(f, 3, "c", NULL);
	fake_graph(f, "g", "g", NULL);
	fake_op(f, "g", "x", "Relu", NULL, NULL);
	for (int r = 0; r < 1500; r++)      /* files in runs of 1 to 200 rows */
		fake_trace(f, 1 + (uint32_t)(r / (1 + r % 200 / 40)) % 3, "g", "x", 0, 1.0 + r, &s);
	m = fake_model_open(f, NULL);
	n = model_trace_count(m);
	c = (struct octx){ .m = m };
	for (uint64_t pass = 0; pass < 3; pass++)
		for (uint64_t k = 0; k < n + 300; k++) {
			uint64_t i = pass == 0 ? k : pass == 1 ? n + 299 - k : next_rand() % (n + 300);
			struct model_row_keys key;

			model_trace_keys(m, &i, 1, &key);
			assert_int_equal(octx_row_host(&c, i), key.host);
		}
	octx_done(&c);
	model_close(m);
	fake_free(fk);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prev_row_after_row_is_the_scans),
		cmocka_unit_test(test_prev_far_apart_and_backwards_is_the_scans),
		cmocka_unit_test(test_prev_with_paths_walked_back_is_the_scans),
		cmocka_unit_test(test_row_host_is_the_keys_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
