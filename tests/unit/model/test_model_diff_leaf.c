/*
 * test_model_diff_leaf.c - pairing two models by a map's leaf rules
 * (reader_ops.map_leaf, model_diff_leaf.c): a leaf the map names pairs with
 * the golden leaf it names, whatever its op and slot; the other rows keep
 * their op's pairing; a leaf named to a golden leaf that does not exist is
 * only in B; without leaf rules the pairs are the ones by op and slot.
 * The fake reader's rows have no "slot:" detail line: their labels are
 * "input.N" / "output.N".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_diff.h"
#include "tests/unit/helpers/fake_model.h"

/* The test's map: "{op}.{label}" -> golden leaf, from a NULL-ended list
 * of pairs; with rules false, a map without leaf rules. */
static const char *const *rules_now;

static bool
test_map_leaf(const struct reader_map *map, const char *op, const char *leaf, char *buf,
	      size_t len)
{
	char key[256];
	size_t k, n;

	(void)map;
	if (!rules_now)
		return false;
	if (!op)
		return true;
	n = (size_t)snprintf(key, sizeof key, "%s.%s", op, leaf ? leaf : "");
	for (k = 0; rules_now[k]; k += 2)
		if (leaf ? !strcmp(rules_now[k], key) : !strncmp(rules_now[k], key, n)) {
			if (leaf)
				snprintf(buf, len, "%s", rules_now[k + 1]);
			return true;
		}
	return false;
}

static struct reader_ops leaf_ops;

static struct model *
open_leaf(struct fake *f)
{
	struct model_options o = { .no_thread = true };
	struct model *m = NULL;
	char err[256];

	leaf_ops = fake_reader_ops;
	leaf_ops.map_leaf = test_map_leaf;
	fake_use(f);
	assert_int_equal(model_open_with(&leaf_ops, "fake", &o, &m, err, sizeof err), TD_OK);
	return m;
}

/* Rows of op name: its outputs 0..n-1, the mean of slot k ids[k]. */
static void
op_rows(struct fake *f, const char *name, const double *ids, int n)
{
	int k;

	fake_op(f, "g", name, "Op", NULL, NULL);
	for (k = 0; k < n; k++) {
		struct td_summary s = fake_full_health(4, 0, 0, 0);

		s.known |= SUM_MEAN;
		s.mean = ids[k];
		fake_trace(f, 1, "g", name, (uint32_t)k, k, &s);
	}
}

static double
mean_of(struct model *m, uint64_t row)
{
	struct model_trace t;

	assert_int_equal(model_trace_get(m, row, &t), TD_OK);
	return t.summary.mean;
}

struct two {
	struct fake *fa, *fb;
	struct model *a, *b;
};

/* A: "add.0" (means 1, 2) and "mul.0" (3, 4); B: "fused.0" (2, 1, 9)
 * and "mul.0" (4, 3): B's fused outputs are A's add outputs swapped, plus
 * one A lacks, and B's mul lists A's mul outputs swapped. */
static void
two_open(struct two *t)
{
	static const double add[] = { 1, 2 }, mul[] = { 3, 4 }, fused[] = { 2, 1, 9 },
			    bmul[] = { 4, 3 };

	t->fa = fake_new(), t->fb = fake_new();
	op_rows(t->fa, "add.0", add, 2);
	op_rows(t->fa, "mul.0", mul, 2);
	op_rows(t->fb, "fused.0", fused, 3);
	op_rows(t->fb, "mul.0", bmul, 2);
	t->a = open_leaf(t->fa), t->b = open_leaf(t->fb);
}

static void
two_close(struct two *t)
{
	model_close(t->a), model_close(t->b);
	fake_free(t->fa), fake_free(t->fb);
}

/* The diff of t under rules (NULL: a map without leaf rules). */
static struct model_diff *
diff_with(struct two *t, const char *const *rules)
{
	struct model_diff_options o;
	struct model_diff *d = NULL;
	char err[256];

	rules_now = rules;
	model_diff_options_init(&o);
	o.map = (const struct reader_map *)&o;  /* opaque: the hooks never read it */
	assert_int_equal(model_diff_new(t->a, t->b, &o, &d, err, sizeof err), TD_OK);
	return d;
}

static void
test_leaf_rules_pair_named_leaves_across_ops_and_slots(void **state)
{
	static const char *const rules[] = {
		"fused.0.output.0", "add.0.output.1", "fused.0.output.1", "add.0.output.0",
		"fused.0.output.2", "add.0.output.7",       /* no such golden leaf */
		"mul.0.output.0", "mul.0.output.1", "mul.0.output.1", "mul.0.output.0", NULL
	};
	struct two t;
	struct model_diff *d;
	struct model_diff_counts c;
	uint64_t k, ra, rb;

	(void)state;
	two_open(&t);
	d = diff_with(&t, rules);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 4);
	assert_int_equal(c.only_a, 0);
	assert_int_equal(c.only_b, 1);          /* fused.0.output.2 */
	for (k = 0; k < c.aligned; k++) {
		assert_true(model_diff_rows(d, k, &ra, &rb));
		assert_true(mean_of(t.a, ra) == mean_of(t.b, rb));
	}
	model_diff_free(d);
	two_close(&t);
}

static void
test_leaves_a_map_does_not_name_keep_their_pairs(void **state)
{
	static const char *const rules[] = { "fused.0.output.1", "add.0.output.0", NULL };
	struct two t;
	struct model_diff *d;
	struct model_diff_counts c;
	uint64_t ra, rb;

	(void)state;
	two_open(&t);
	d = diff_with(&t, rules);
	model_diff_counts(d, &c);
	/* fused.0.output.1 -> add.0.output.0; mul by slot (4-3, 3-4) */
	assert_int_equal(c.aligned, 3);
	assert_int_equal(c.only_a, 1);
	assert_int_equal(c.only_b, 2);
	assert_true(model_diff_rows(d, 0, &ra, &rb));
	assert_true(mean_of(t.a, ra) == 1 && mean_of(t.b, rb) == 1);
	assert_true(model_diff_rows(d, 1, &ra, &rb));
	assert_true(mean_of(t.a, ra) == 3 && mean_of(t.b, rb) == 4);
	model_diff_free(d);
	two_close(&t);
}

static void
test_without_leaf_rules_rows_pair_by_op_and_slot(void **state)
{
	struct two t;
	struct model_diff *d;
	struct model_diff_counts c;

	(void)state;
	two_open(&t);
	d = diff_with(&t, NULL);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 2);         /* mul's slots, swapped values */
	assert_int_equal(c.only_a, 2);
	assert_int_equal(c.only_b, 3);
	model_diff_free(d);
	two_close(&t);
}

/* Rows of op name (declared once) in steps 0 and 1: output k of step s
 * has mean ids[k] + 10 * s. */
static void
op_steps(struct fake *f, const char *name, const double *ids, int n)
{
	int k, st;

	fake_op(f, "g", name, "Op", NULL, NULL);
	for (st = 0; st < 2; st++)
		for (k = 0; k < n; k++) {
			struct td_summary s = fake_full_health(4, 0, 0, 0);

			s.known |= SUM_MEAN;
			s.mean = ids[k] + 10 * st;
			fake_trace(f, 1, "g", name, (uint32_t)k, st * n + k, &s);
			fake_step(f, st);
		}
}

static void
test_leaf_rules_hold_for_every_step_of_an_op(void **state)
{
	static const double add[] = { 1, 2 }, fused[] = { 2, 1 };
	static const char *const rules[] = {
		"fused.0.output.0", "add.0.output.1", "fused.0.output.1", "add.0.output.0", NULL
	};
	struct two t;
	struct model_diff *d;
	struct model_diff_counts c;
	uint64_t k, ra, rb;

	(void)state;
	t.fa = fake_new(), t.fb = fake_new();
	op_steps(t.fa, "add.0", add, 2);
	op_steps(t.fb, "fused.0", fused, 2);
	t.a = open_leaf(t.fa), t.b = open_leaf(t.fb);
	d = diff_with(&t, rules);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 4);
	assert_int_equal(c.only_a + c.only_b, 0);
	for (k = 0; k < c.aligned; k++) {
		assert_true(model_diff_rows(d, k, &ra, &rb));
		assert_true(mean_of(t.a, ra) == mean_of(t.b, rb));
	}
	model_diff_free(d);
	two_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaf_rules_pair_named_leaves_across_ops_and_slots),
		cmocka_unit_test(test_leaves_a_map_does_not_name_keep_their_pairs),
		cmocka_unit_test(test_without_leaf_rules_rows_pair_by_op_and_slot),
		cmocka_unit_test(test_leaf_rules_hold_for_every_step_of_an_op),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
