/*
 * test_model_tree.c - recursive input / consumer trees (model_tree,
 * model_tree_children): depth, pre-order, control edges both ways, rows
 * linked by time order, repeats not expanded twice, health of rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"

/* a -> b=Exp(a) -> c=Add(b, a); d=NoOp(^c); rows a0 b1 c2 (c: Inf) */
static struct fake *
diamond(void)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0);
	struct td_summary bad = fake_full_health(4, 0, 0, 1);

	fake_graph(f, "g", "main", NULL);
	fake_op(f, "g", "a", "Placeholder", NULL, NULL);
	fake_op(f, "g", "b", "Exp", (const char *[]){"a:0", NULL}, NULL);
	fake_op(f, "g", "c", "Add", (const char *[]){"b:0", "a:0", NULL}, NULL);
	fake_op(f, "g", "d", "NoOp", NULL, NULL);
	fake_op_control(f, "c");
	fake_trace(f, 1, "g", "a", 0, 1, &ok);
	fake_trace(f, 1, "g", "b", 0, 2, &ok);
	fake_trace(f, 1, "g", "c", 0, 3, &bad);
	return f;
}

static void
test_tree_inputs_preorder_with_depth_and_repeat(void **state)
{
	struct fake *f = diamond();
	struct model *m = fake_model_open(f, NULL);
	struct model_tree_node *v;
	bool trunc;
	size_t n;

	(void)state;
	n = model_tree(m, (uint32_t)model_op_find(m, "c", NULL), 2, TREE_INPUTS, 5, &v, &trunc);
	assert_false(trunc);
	assert_int_equal(n, 3);                 /* b, b's input a, then a again */
	assert_string_equal(v[0].op_name, "b");
	assert_int_equal(v[0].depth, 1);
	assert_int_equal(v[0].trace_index, 1);
	assert_int_equal(v[0].health, HEALTH_FINITE);
	assert_string_equal(v[1].op_name, "a");
	assert_int_equal(v[1].depth, 2);
	assert_int_equal(v[1].parent, 0);
	assert_int_equal(v[1].trace_index, 0);
	assert_false(v[1].repeat);
	assert_string_equal(v[2].op_name, "a");
	assert_int_equal(v[2].depth, 1);
	assert_true(v[2].repeat);               /* listed above: not expanded again */
	free(v);
	n = model_tree(m, (uint32_t)model_op_find(m, "c", NULL), 2, TREE_INPUTS, 1, &v, &trunc);
	assert_int_equal(n, 2);                 /* depth 1 only */
	free(v);
	model_close(m);
	fake_free(f);
}

static void
test_tree_control_edges_both_ways(void **state)
{
	struct fake *f = diamond();
	struct model *m = fake_model_open(f, NULL);
	struct model_tree_node *v;
	struct model_op o;
	bool trunc;
	size_t n;

	(void)state;
	assert_true(model_op_get(m, (uint32_t)model_op_find(m, "d", NULL), &o));
	assert_int_equal(o.ncontrol_inputs, 1);
	assert_string_equal(o.control_inputs[0].op_name, "c");
	n = model_tree(m, o.id, -1, TREE_INPUTS, 2, &v, &trunc);
	assert_int_equal(n, 3);                 /* ^c, then c's inputs b and a */
	assert_true(v[0].control);
	assert_string_equal(v[0].op_name, "c");
	assert_int_equal(v[0].trace_index, 2);  /* d has no row: c's latest */
	assert_int_equal(v[0].health, HEALTH_NONFINITE);
	assert_false(v[1].control);
	assert_int_equal(v[1].depth, 2);
	free(v);
	n = model_tree(m, (uint32_t)model_op_find(m, "c", NULL), 2, TREE_CONSUMERS, 3, &v, &trunc);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].op_name, "d");
	assert_true(v[0].control);
	assert_int_equal(v[0].trace_index, -1); /* d never ran as a row */
	free(v);
	n = model_tree(m, (uint32_t)model_op_find(m, "a", NULL), 0, TREE_CONSUMERS, 3, &v, &trunc);
	assert_int_equal(n, 4);                 /* b, b->c, c->^d, then c again */
	assert_string_equal(v[0].op_name, "b");
	assert_int_equal(v[0].trace_index, 1);
	assert_string_equal(v[1].op_name, "c");
	assert_int_equal(v[1].depth, 2);
	assert_string_equal(v[2].op_name, "d");
	assert_int_equal(v[2].depth, 3);
	assert_true(v[3].repeat);
	free(v);
	model_close(m);
	fake_free(f);
}

static void
test_trace_health(void **state)
{
	struct fake *f = diamond();
	struct model *m = fake_model_open(f, NULL);

	(void)state;
	assert_int_equal(model_trace_health(m, 0), HEALTH_FINITE);
	assert_int_equal(model_trace_health(m, 2), HEALTH_NONFINITE);
	assert_int_equal(model_trace_health(m, -1), HEALTH_UNKNOWN);
	assert_int_equal(model_trace_health(m, 99), HEALTH_UNKNOWN);
	assert_string_equal(model_health_name(HEALTH_NONFINITE), "nonfinite");
	model_close(m);
	fake_free(f);
}

/* model_trace_op_flags: a row's op and flags from its flag byte alone, the
 * same as the decoded row says (the tree's and the analysis floor's scans). */
static void
test_trace_op_flags(void **state)
{
	struct fake *f = diamond();
	struct td_summary ok = fake_full_health(4, 0, 0, 0);
	struct model *m;
	uint32_t fl;
	uint64_t i;

	(void)state;
	fake_trace_ex(f, 1, "g", "a", 0, 4, &ok, -1, true);     /* row 3: an input row of a */
	m = fake_model_open(f, NULL);
	assert_int_equal(model_trace_count(m), 4);
	assert_int_equal(model_trace_op_flags(m, 0, &fl), (uint32_t)model_op_find(m, "a", NULL));
	assert_int_equal(fl, 0);
	assert_int_equal(model_trace_op_flags(m, 2, &fl), (uint32_t)model_op_find(m, "c", NULL));
	assert_int_equal(fl & (ROW_NONFINITE | ROW_INPUT), ROW_NONFINITE);
	assert_int_equal(model_trace_op_flags(m, 3, &fl), (uint32_t)model_op_find(m, "a", NULL));
	assert_int_equal(fl & (ROW_NONFINITE | ROW_INPUT), ROW_INPUT);
	for (i = 0; i < 4; i++) {
		struct model_trace t;

		assert_int_equal(model_trace_get(m, i, &t), TD_OK);
		assert_int_equal(model_trace_op_flags(m, i, &fl), t.op);
		assert_int_equal(fl, t.flags);
	}
	model_close(m);
	fake_free(f);
}

/* model_trace_summary and model_trace_names: the condition language's
 * view of a row (model/analysis/model_where.c) is the decoded row's. */
static void
test_trace_summary_and_names(void **state)
{
	struct fake *f = diamond();
	struct model *m = fake_model_open(f, NULL);
	const char *name, *type, *host;
	struct td_summary s;
	uint32_t fv = 1234;
	uint64_t i;

	(void)state;
	model_trace_summary(m, 2, &s, &fv);
	assert_int_equal(s.elements, 4);
	assert_int_equal(s.nan, 1);             /* the fixture's c: one NaN */
	assert_int_equal(s.pos_inf, 0);
	model_trace_names(m, 2, &name, &type, &host);
	assert_string_equal(name, "c");
	assert_string_equal(type, "Add");
	for (i = 0; i < 3; i++) {
		struct model_trace t;

		assert_int_equal(model_trace_get(m, i, &t), TD_OK);
		model_trace_summary(m, i, &s, &fv);
		assert_memory_equal(&s, &t.summary, sizeof(s));
		assert_int_equal(fv, t.from_values);
		model_trace_names(m, i, &name, &type, &host);
		assert_string_equal(name, t.op_name);
		assert_string_equal(type, t.op_type);
		assert_string_equal(host, t.host);
	}
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_inputs_preorder_with_depth_and_repeat),
		cmocka_unit_test(test_tree_control_edges_both_ways),
		cmocka_unit_test(test_trace_health),
		cmocka_unit_test(test_trace_op_flags),
		cmocka_unit_test(test_trace_summary_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
