/*
 * test_model_where.c - filters with a `where` condition over a fake dump:
 * unknown rows counted apart (a health summary has no mean), op fields
 * decided without decoding rows, roles, summary fields computed from
 * values, executions matched through their outputs, and bad conditions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "model/model.h"
#include "model/analysis/model_where.h"
#include "tests/unit/helpers/fake_model.h"

/* A full summary computed from values, as readers do for stored tensors. */
static struct td_summary
from_values(const float *v, int64_t n)
{
	struct td_summary s;

	td_summarize_raw(DTYPE_FLOAT32, v, n, &s);
	return s;
}

/* rows: 0 w/kernel (VariableV2, values {-2, 2, 0, 4})
 *       1 dense/MatMul (health: 4 elements, no nan)
 *       2 gradients/dense/MatMul_grad/MatMul (values {1e-10, -1e-10})
 *       3 dense/Relu (health: 1 nan)
 *       4 dense/MatMul (values {3e4, 3e4}) */
static struct fake *
script(void)
{
	static const float w[] = { -2, 2, 0, 4 }, g[] = { 1e-10f, -1e-10f }, big[] = { 3e4f, 3e4f };
	struct fake *f = fake_new();
	struct td_summary sw = from_values(w, 4), sg = from_values(g, 2), sb = from_values(big, 2);
	struct td_summary ok = fake_full_health(4, 0, 0, 0), nan = fake_full_health(4, 0, 0, 1);

	fake_file(f, 1, "f1", "a");
	fake_graph(f, "G", "train", NULL);
	fake_op(f, "G", "w/kernel", "VariableV2", NULL, NULL);
	fake_op(f, "G", "dense/MatMul", "MatMul", NULL, NULL);
	fake_op(f, "G", "gradients/dense/MatMul_grad/MatMul", "MatMul", NULL, NULL);
	fake_op(f, "G", "dense/Relu", "Relu", NULL, NULL);
	fake_trace(f, 1, "G", "w/kernel", 0, 1, &sw);
	fake_trace(f, 1, "G", "dense/MatMul", 0, 2, &ok);
	fake_trace(f, 1, "G", "gradients/dense/MatMul_grad/MatMul", 0, 3, &sg);
	fake_trace(f, 1, "G", "dense/Relu", 0, 4, &nan);
	fake_trace(f, 1, "G", "dense/MatMul", 0, 5, &sb);
	fake_exec(f, 1, "MatMul", NULL, "a", 6, &ok, 1);
	fake_exec(f, 1, "Relu", NULL, "a", 7, &nan, 1);
	return f;
}

static struct model_filter *
where(struct model *m, const char *text)
{
	struct model_filter_spec spec = {.where = text, .graph = -1, .execution = -1};
	struct model_filter *fl = NULL;
	char err[512];

	if (model_filter_new(m, &spec, &fl, err, sizeof err) != TD_OK)
		fail_msg("%s: %s", text, err);
	return fl;
}

static void
expect(struct model *m, const char *text, uint64_t matched, uint64_t unknown, int64_t first)
{
	struct model_filter *fl = where(m, text);

	if (model_filter_count(m, fl, TABLE_TRACES) != matched ||
	    model_filter_unknown(m, fl, TABLE_TRACES) != unknown ||
	    model_filter_nth(m, fl, TABLE_TRACES, 0) != first)
		fail_msg("%s: matched %llu unknown %llu first %lld", text,
			 (unsigned long long)model_filter_count(m, fl, TABLE_TRACES),
			 (unsigned long long)model_filter_unknown(m, fl, TABLE_TRACES),
			 (long long)model_filter_nth(m, fl, TABLE_TRACES, 0));
	model_filter_free(fl);
}

static void
test_where_unknown_rows_are_counted_apart(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);

	(void)state;
	/* rows 1 and 3 carry counts only: mean is unknown there */
	expect(m, "mean > 0", 2, 2, 0);
	expect(m, "not mean > 0", 1, 2, 2);
	/* true or unknown is true; the nan row matches through its count */
	expect(m, "mean > 0 or nan > 0", 3, 1, 0);
	expect(m, "nan > 0", 1, 0, 3);
	expect(m, "nan == 0 and elements == 4", 2, 0, 0);
	model_close(m);
	fake_free(f);
}

static void
test_where_summary_fields_from_values(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);

	(void)state;
	expect(m, "abs_mean == 2", 1, 2, 0);
	expect(m, "abs_mean > 1e3", 1, 2, 4);
	expect(m, "zero_fraction == 0.25", 1, 2, 0);
	expect(m, "zero_fraction == 0", 2, 2, 2);
	expect(m, "l2norm > 4.89 and l2norm < 4.9", 1, 2, 0);
	expect(m, "std == 0", 1, 2, 4);
	expect(m, "max_abs >= 4 and max_abs < 5", 1, 2, 0);
	expect(m, "dtype == \"float32\" and dtype_max > 3e38", 5, 0, 0);
	model_close(m);
	fake_free(f);
}

static void
test_where_op_fields_need_no_decoding(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	uint64_t before = fake_decodes(f);

	(void)state;
	expect(m, "type ~ \"^Mat\" and op ~ \"^dense\"", 2, 0, 1);
	expect(m, "role == \"gradient\"", 1, 0, 2);
	expect(m, "role == \"weight\" or role == \"activation\"", 2, 0, 0);
	expect(m, "type == \"Conv2D\" and mean > 0", 0, 0, -1);
	assert_int_equal(fake_decodes(f), before);
	/* the op part prunes: only the two MatMul rows of dense are decoded */
	expect(m, "op == \"dense/MatMul\" and mean > 1", 1, 1, 4);
	assert_true(fake_decodes(f) - before <= 2);
	model_close(m);
	fake_free(f);
}

static void
test_where_roles_from_names_and_types(void **state)
{
	(void)state;
	assert_int_equal(model_role_of("dense/kernel", "VariableV2"), ROLE_WEIGHT);
	assert_int_equal(model_role_of("dense/kernel/read", "Identity"), ROLE_WEIGHT);
	assert_int_equal(model_role_of("MatMul/ReadVariableOp", "ReadVariableOp"), ROLE_WEIGHT);
	assert_int_equal(model_role_of("conv1.weight", "Parameter"), ROLE_WEIGHT);
	assert_int_equal(model_role_of("data-1", "Parameter"), ROLE_NONE);
	assert_int_equal(model_role_of("gradients/Relu_grad/ReluGrad", "ReluGrad"), ROLE_GRADIENT);
	assert_int_equal(model_role_of("Gradients/Default/network/conv1/Conv2DBackpropFilter-op7",
				       "Conv2DBackpropFilter"), ROLE_GRADIENT);
	assert_int_equal(model_role_of("loss/Log_grad", "Mul"), ROLE_GRADIENT);
	assert_int_equal(model_role_of("dense/Relu", "Relu"), ROLE_ACTIVATION);
	assert_int_equal(model_role_of("Default/relu-ReLU/ReLU-op12", "ReLU"), ROLE_ACTIVATION);
	assert_int_equal(model_role_of("dense/MatMul", "MatMul"), ROLE_NONE);
	assert_int_equal(model_role_of("graded/x", "Add"), ROLE_NONE);
	assert_string_equal(model_role_name(ROLE_GRADIENT), "gradient");
	assert_string_equal(model_role_name(ROLE_NONE), "");
}

/* where_op_with keeps an op's role for the next condition: each answer
 * is where_op's, the role worked out at the first condition that reads
 * it (and not before), for ops of every role and a forward call (whose
 * rows may state their own: decided later). */
static void
test_where_op_with_keeps_the_role(void **state)
{
	static const char *const ops[][2] = {
		{ "dense/kernel", "VariableV2" }, { "gradients/Relu_grad/ReluGrad", "ReluGrad" },
		{ "dense/Relu", "Relu" }, { "dense/MatMul", "MatMul" },
		{ "Module.fc1.Linear.forward.0", "Module.fc1.Linear" },
		{ "Functional.linear.0.backward", "Functional.linear" },
	};
	static const char *const conds[] = {
		"type ~ \"Mat\"", "role == \"weight\"", "role == \"gradient\" or max > 1",
		"not (role == \"activation\") and op ~ \"dense\"", "role == \"\"",
	};
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		struct where_op_ctx c = { .name = ops[i][0], .type = ops[i][1] };

		for (size_t j = 0; j < sizeof conds / sizeof conds[0]; j++) {
			struct expr *e;

			assert_int_equal(expr_parse(conds[j], &e, err, sizeof err), TD_OK);
			assert_int_equal(where_op_with(e, &c), where_op(e, NULL, ops[i][0], ops[i][1]));
			/* the first condition reads no role: none worked out yet */
			assert_true(c.role_done == (j > 0));
			expr_free(e);
		}
	}
}

/* where_exec_in: one execution row read once for several conditions
 * gives where_exec's answer to each, and decodes its outputs only when
 * a condition reaches a summary field (then once). */
static void
test_where_exec_in_reads_a_row_once(void **state)
{
	static const char *const conds[] = {
		"type ~ \"o\"", "role == \"\"", "host == \"a\"", "nan > 0", "mean > 0",
		"nan > 0 or type == \"x\"", "not (nan > 0)",
	};
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	char err[128];

	(void)state;
	for (uint64_t j = 0; j < model_execution_count(m); j++) {
		struct where_exec_row w;

		where_exec_row_init(&w, m, j);
		assert_true(w.ok);
		for (size_t k = 0; k < sizeof conds / sizeof conds[0]; k++) {
			struct expr *e;

			assert_int_equal(expr_parse(conds[k], &e, err, sizeof err), TD_OK);
			assert_int_equal(where_exec_in(&w, e), where_exec(m, e, j));
			/* the first three read no summary field */
			assert_true(w.outputs_done == (k >= 3));
			expr_free(e);
		}
		where_exec_row_done(&w);
	}
	model_close(m);
	fake_free(f);
}

static void
test_where_executions_match_through_outputs(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter *fl = where(m, "nan > 0");

	(void)state;
	assert_int_equal(model_filter_count(m, fl, TABLE_EXECUTIONS), 1);
	assert_int_equal(model_filter_nth(m, fl, TABLE_EXECUTIONS, 0), 1);
	model_filter_free(fl);
	fl = where(m, "mean > 0");
	assert_int_equal(model_filter_count(m, fl, TABLE_EXECUTIONS), 0);
	assert_int_equal(model_filter_unknown(m, fl, TABLE_EXECUTIONS), 2);
	assert_string_equal(model_filter_describe(fl), "where=mean > 0");
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_where_bad_condition_names_the_column(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter_spec spec = {.where = "mean > 0 and meen < 1", .graph = -1,
					 .execution = -1};
	struct model_filter *fl = NULL;
	char err[512];

	(void)state;
	assert_int_equal(model_filter_new(m, &spec, &fl, err, sizeof err), TD_ERR_ARGS);
	assert_null(fl);
	assert_string_equal(err, "where \"mean > 0 and meen < 1\": column 14: unknown field \"meen\"; did you mean mean?");
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where_unknown_rows_are_counted_apart),
		cmocka_unit_test(test_where_summary_fields_from_values),
		cmocka_unit_test(test_where_op_fields_need_no_decoding),
		cmocka_unit_test(test_where_roles_from_names_and_types),
		cmocka_unit_test(test_where_op_with_keeps_the_role),
		cmocka_unit_test(test_where_exec_in_reads_a_row_once),
		cmocka_unit_test(test_where_executions_match_through_outputs),
		cmocka_unit_test(test_where_bad_condition_names_the_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
