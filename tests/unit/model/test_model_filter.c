/*
 * test_model_filter.c - PCRE2 filters over traces and executions: regexes
 * on name and type, the non-finite switch, graphs with inner graphs, one
 * execution's rows, hosts, nth/rank/next, and regex errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/analysis/model_filter_priv.h"
#include "tests/unit/helpers/fake_model.h"

/* graphs: outer "model" > inner "dense_1"; "loss" separate.
 * rows: 0 dense_1/MatMul  1 dense_1/BiasAdd  2 dense_12/MatMul(nan)  3 Log(-inf)
 *       4 dense_1/MatMul  5 x (file 2, host b) */
static struct fake *
script(void)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct td_summary nan = fake_full_health(1, 0, 0, 1), inf = fake_full_health(1, 1, 0, 0);

	fake_file(f, 1, "f1", "a");
	fake_file(f, 2, "f2", "b");
	fake_graph(f, "G0", "model", NULL);
	fake_graph(f, "G1", "dense_1", "G0");
	fake_graph(f, "G2", "loss", NULL);
	fake_op(f, "G1", "dense_1/MatMul", "MatMul", NULL, NULL);
	fake_op(f, "G1", "dense_1/BiasAdd", "BiasAdd", NULL, NULL);
	fake_op(f, "G0", "dense_12/MatMul", "MatMul", NULL, NULL);
	fake_op(f, "G2", "Log", "Log", NULL, NULL);
	fake_op(f, "G2", "x", "Placeholder", NULL, NULL);
	fake_trace(f, 1, "G1", "dense_1/MatMul", 0, 1, &ok);
	fake_trace(f, 1, "G1", "dense_1/BiasAdd", 0, 1, &ok);
	fake_trace(f, 1, "G0", "dense_12/MatMul", 0, 1, &nan);
	fake_trace(f, 1, "G2", "Log", 0, 1, &inf);
	fake_trace(f, 1, "G1", "dense_1/MatMul", 0, 1, &ok);
	fake_trace(f, 2, "G2", "x", 0, 1, &ok);
	fake_exec(f, 3, "__inference_train_12", "G0", "a", 1, &ok, 1);
	fake_exec(f, 3, "MatMul", NULL, "b", 1, &nan, 1);
	fake_exec(f, 3, "Log", NULL, "a", 1, &ok, 1);
	return f;
}

static struct model_filter *
filter(struct model *m, const struct model_filter_spec *spec)
{
	struct model_filter *fl = NULL;
	char err[256];

	assert_int_equal(model_filter_new(m, spec, &fl, err, sizeof err), TD_OK);
	return fl;
}

static void
test_filter_op_regex_matches_names(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter_spec spec = {.op_regex = "^dense_[0-9]+/MatMul$", .graph = -1,
					 .execution = -1};
	struct model_filter *fl = filter(m, &spec);

	(void)state;
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 3);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 0), 0);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 1), 2);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 2), 4);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 3), -1);
	assert_int_equal(model_filter_rank(m, fl, TABLE_TRACES, 4), 2);
	assert_int_equal(model_filter_rank(m, fl, TABLE_TRACES, 3), 2);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 3, 1), 4);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 3, -1), 2);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 5, 1), -1);
	assert_true(model_filter_match(m, fl, TABLE_TRACES, 2));
	assert_false(model_filter_match(m, fl, TABLE_TRACES, 1));
	/* executions: the same regex over the op type / function name */
	assert_int_equal(model_filter_count(m, fl, TABLE_EXECUTIONS), 0);
	assert_string_equal(model_filter_describe(fl), "op=^dense_[0-9]+/MatMul$");
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_filter_type_regex_and_nonfinite(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter_spec spec = {.type_regex = "MatMul", .nonfinite = true, .graph = -1,
					 .execution = -1};
	struct model_filter *fl = filter(m, &spec);

	(void)state;
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 1);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 0), 2);
	assert_int_equal(model_filter_count(m, fl, TABLE_EXECUTIONS), 1);
	assert_int_equal(model_filter_nth(m, fl, TABLE_EXECUTIONS, 0), 1);
	assert_string_equal(model_filter_describe(fl), "type=MatMul nonfinite");
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_filter_graph_includes_inner_graphs(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter_spec spec = {.graph = model_graph_find(m, "model"), .execution = -1};
	struct model_filter *fl;

	(void)state;
	assert_int_equal(spec.graph, 0);
	fl = filter(m, &spec);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 4);  /* rows 0, 1, 2, 4 */
	assert_false(model_filter_match(m, fl, TABLE_TRACES, 3));
	assert_int_equal(model_filter_count(m, fl, TABLE_EXECUTIONS), 1); /* the function call */
	model_filter_free(fl);
	spec.graph = model_graph_find(m, "G1");
	fl = filter(m, &spec);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 3);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_filter_host(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter_spec spec = {.graph = -1, .execution = -1, .host = "b"};
	struct model_filter *fl = filter(m, &spec);

	(void)state;
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 1);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 0), 5);
	assert_int_equal(model_filter_count(m, fl, TABLE_EXECUTIONS), 1);
	assert_int_equal(model_filter_nth(m, fl, TABLE_EXECUTIONS, 0), 1);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 5, -1), 5);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 4, -1), -1);   /* back across files */
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 0, 1), 5);
	model_filter_free(fl);
	spec.host = "a";
	fl = filter(m, &spec);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 5, -1), 4);   /* one scan, two files */
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 5);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_filter_execution_restricts_to_its_rows(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_filter_spec spec = {.graph = -1, .execution = 1};
	struct model_filter *fl;
	struct model *m;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	fake_exec(f, 2, "run", NULL, "h", 1, NULL, 0);
	fake_exec(f, 2, "run", NULL, "h", 1, NULL, 0);
	fake_trace_ex(f, 1, "g", "a", 0, 1, &ok, 0, false);
	fake_trace_ex(f, 1, "g", "a", 0, 1, &ok, 1, false);
	fake_trace_ex(f, 1, "g", "a", 0, 1, &ok, 1, false);
	m = fake_model_open(f, NULL);
	fl = filter(m, &spec);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 2);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 0), 1);
	assert_int_equal(model_filter_count(m, fl, TABLE_EXECUTIONS), 1);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_filter_bad_regex_reports_pcre2_message_and_offset(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter_spec spec = {.op_regex = "dense(", .graph = -1, .execution = -1};
	struct model_filter *fl = (struct model_filter *)1;
	char err[256] = "";

	(void)state;
	assert_int_equal(model_filter_new(m, &spec, &fl, err, sizeof err), TD_ERR_REGEX);
	assert_null(fl);
	assert_non_null(strstr(err, "missing closing parenthesis"));
	assert_non_null(strstr(err, "offset 6"));
	model_close(m);
	fake_free(f);
}

static void
test_filter_counts_grow_with_rows_and_filled_ops(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_filter_spec spec = {.type_regex = "^Log$", .graph = -1, .execution = -1};
	struct model_filter *fl;
	struct model *m;

	(void)state;
	fake_trace(f, 1, "g", "lg", 0, 1, &ok);         /* op not described yet */
	m = fake_model_open(f, NULL);
	fl = filter(m, &spec);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 0);
	fake_op(f, "g", "lg", "Log", NULL, NULL);
	fake_trace(f, 1, "g", "lg", 0, 2, &ok);
	model_refresh(m);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 2);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

/* UBSan: a filter made after a placeholder was filled reset its (still
 * unallocated) counts with memset(NULL, 0, 0). */
static void
test_filter_made_after_a_fill_counts_right(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_filter_spec spec = {.type_regex = "^Log$", .graph = -1, .execution = -1};
	struct model_filter *fl;
	struct model *m;

	(void)state;
	fake_trace(f, 1, "g", "lg", 0, 1, &ok);         /* placeholder op */
	fake_op(f, "g", "lg", "Log", NULL, NULL);       /* filled in the same pass */
	m = fake_model_open(f, NULL);
	fl = filter(m, &spec);
	assert_true(model_filter_match(m, fl, TABLE_TRACES, 0));
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 1);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

/* A listing asks the filter row after row (nth, match, next): with no op
 * filled or added since, the ops are not walked again (a walk per row
 * over 200,000 msprobe ops made `traces --where` quadratic in the rows
 * shown), and the answers are those of the first walk. */
static void
test_filter_walks_the_ops_once_when_nothing_changes(void **state)
{
	struct fake *f = fake_new();
	struct model_filter_spec spec = {.nonfinite = true, .graph = -1, .execution = -1,
					 .where = "op ~ 'syn'"};
	struct model_filter *fl;
	struct model *m;
	uint64_t walks, n;

	(void)state;
	fake_synth(f, 20000, 7);
	m = fake_model_open(f, NULL);
	model_wait(m);
	fl = filter(m, &spec);
	n = model_filter_count(m, fl, TABLE_TRACES);
	assert_int_equal(n, 20000 / 7);
	walks = fl->op_walks;
	assert_true(walks >= 1);
	for (uint64_t k = 0; k < n; k++) {
		int64_t j = model_filter_nth(m, fl, TABLE_TRACES, k);

		assert_int_equal(j, 6 + 7 * (int64_t)k);
		assert_true(model_filter_match(m, fl, TABLE_TRACES, (uint64_t)j));
		assert_false(model_filter_match(m, fl, TABLE_TRACES, (uint64_t)j - 1));
		assert_int_equal(model_filter_rank(m, fl, TABLE_TRACES, (uint64_t)j), k);
	}
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), n);
	assert_int_equal(fl->op_walks, walks);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_filter_over_a_million_rows_by_chunks(void **state)
{
	struct fake *f = fake_new();
	struct model_filter_spec spec = {.nonfinite = true, .graph = -1, .execution = -1};
	struct model_filter *fl;
	struct model *m;
	uint64_t k;

	(void)state;
	fake_synth(f, 1000000, 7);
	m = fake_model_open(f, NULL);
	fl = filter(m, &spec);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 142857);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 100000), 700006);
	for (k = 100001; k < 100050; k++)       /* stepping from the last answer */
		assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, k), 6 + 7 * (int64_t)k);
	for (k = 100048; k > 99990; k -= 3)
		assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, k), 6 + 7 * (int64_t)k);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 142856), 999998);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 142857), -1);
	assert_int_equal(model_filter_rank(m, fl, TABLE_TRACES, 700006), 100000);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 700007, 1), 700013);
	assert_int_equal(model_filter_next(m, fl, TABLE_TRACES, 700005, -1), 699999);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_op_regex_matches_names),
		cmocka_unit_test(test_filter_type_regex_and_nonfinite),
		cmocka_unit_test(test_filter_graph_includes_inner_graphs),
		cmocka_unit_test(test_filter_host),
		cmocka_unit_test(test_filter_execution_restricts_to_its_rows),
		cmocka_unit_test(test_filter_bad_regex_reports_pcre2_message_and_offset),
		cmocka_unit_test(test_filter_counts_grow_with_rows_and_filled_ops),
		cmocka_unit_test(test_filter_made_after_a_fill_counts_right),
		cmocka_unit_test(test_filter_over_a_million_rows_by_chunks),
		cmocka_unit_test(test_filter_walks_the_ops_once_when_nothing_changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
