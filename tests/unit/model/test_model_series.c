/*
 * test_model_series.c - an op's output over the steps (model_series.h) on
 * a fake dump: one point per step and host by the reader's step, the
 * step's last row for a loop, input rows and other slots left out, rows
 * without a step one point each, ops of the same name in other graphs
 * joining unless they share a step, --host, fields a mode lacks, the
 * default fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "model/model_series.h"
#include "tests/unit/helpers/fake_model.h"

/* A float32 tensor of n copies of v (l2norm v * sqrt(n)). */
static struct td_summary
filled(float v, int64_t n)
{
	float x[8];
	struct td_summary s;

	for (int64_t i = 0; i < n; i++)
		x[i] = v;
	td_summarize_raw(DTYPE_FLOAT32, x, n, &s);
	return s;
}

static void
test_fields_have_names(void **state)
{
	(void)state;
	assert_string_equal(model_series_field_name(SERIES_L2NORM), "l2norm");
	assert_string_equal(model_series_field_name(SERIES_INF), "inf");
	assert_null(model_series_field_name(SERIES_FIELD_COUNT));
	assert_int_equal(model_series_field_find("abs_mean"), SERIES_ABS_MEAN);
	assert_int_equal(model_series_field_find("speed"), -1);
}

static void
test_values_the_mode_lacks_are_unknown(void **state)
{
	struct td_summary h = fake_full_health(4, 1, 2, 3);    /* no mean, no l2norm */
	double v;

	(void)state;
	assert_false(model_series_value(&h, SERIES_MEAN, &v));
	assert_false(model_series_value(&h, SERIES_L2NORM, &v));
	assert_true(model_series_value(&h, SERIES_NAN, &v));
	assert_true(v == 3);
	assert_true(model_series_value(&h, SERIES_INF, &v));
	assert_true(v == 3);                                    /* -inf 1 + +inf 2 */
}

/* Steps 0..3 of op w (value step + 1, 4 elements) on host h1, step 2 run
 * twice (values 10 then 3: the last is the point); w's input row and its
 * slot 1 in every step; step 1 also on host h2 (value 7); two rows of w
 * without a step. */
static struct fake *
script(void)
{
	struct fake *f = fake_new();
	struct td_summary s;

	fake_file(f, 1, "f1", "h1");
	fake_file(f, 2, "f2", "h2");
	fake_op(f, "G", "w", "MatMul", NULL, NULL);
	for (int step = 0; step < 4; step++) {
		s = filled(9, 4);
		fake_trace_ex(f, 1, "G", "w", 0, 10 * step, &s, -1, true);    /* an input row */
		fake_step(f, step);
		if (step == 2) {
			s = filled(10, 4);
			fake_trace(f, 1, "G", "w", 0, 10 * step + 1, &s);
			fake_step(f, step);
		}
		s = filled((float)step + 1, 4);
		fake_trace(f, 1, "G", "w", 0, 10 * step + 2, &s);
		fake_step(f, step);
		s = filled(100, 4);
		fake_trace(f, 1, "G", "w", 1, 10 * step + 3, &s);
		fake_step(f, step);
		if (step == 1) {
			s = filled(7, 4);
			fake_trace(f, 2, "G", "w", 0, 10 * step + 4, &s);
			fake_step(f, step);
		}
	}
	for (int k = 0; k < 2; k++) {
		s = filled(50, 4);
		fake_trace(f, 1, "G", "w", 0, 100 + k, &s);
	}
	return f;
}

static void
test_one_point_per_step_and_host(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_series s;
	int64_t op = model_op_find(m, "w", NULL);

	(void)state;
	model_wait(m);
	assert_true(op >= 0);
	assert_int_equal(model_series_get(m, (uint32_t)op, 0, NULL, &s), TD_OK);
	/* steps 0, 1 (h1), 1 (h2), 2, 3, then the two rows without a step */
	assert_int_equal(s.n, 7);
	assert_int_equal(s.nhosts, 2);
	const int64_t steps[] = { 0, 1, 1, 2, 3, -1, -1 };
	const double l2[] = { 2, 4, 14, 6, 8, 100, 100 };      /* value * sqrt(4) */
	for (size_t i = 0; i < s.n; i++) {
		assert_int_equal(s.points[i].step, steps[i]);
		assert_true(s.points[i].known & (1u << SERIES_L2NORM));
		assert_true(fabs(s.points[i].v[SERIES_L2NORM] - l2[i]) < 1e-9);
		assert_false(s.points[i].nonfinite);
	}
	assert_string_equal(s.points[1].host, "h1");
	assert_string_equal(s.points[2].host, "h2");
	/* step 2 ran twice: its last row (value 3), counted */
	assert_int_equal(s.points[3].rows_in_step, 2);
	assert_int_equal(s.points[0].rows_in_step, 1);
	model_series_done(&s);

	/* slot 1 is its own series; --host keeps one host */
	assert_int_equal(model_series_get(m, (uint32_t)op, 1, NULL, &s), TD_OK);
	assert_int_equal(s.n, 4);
	model_series_done(&s);
	assert_int_equal(model_series_get(m, (uint32_t)op, 0, "h2", &s), TD_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.points[0].step, 1);
	model_series_done(&s);
	assert_int_equal(model_series_get(m, (uint32_t)op, 0, "nowhere", &s), TD_OK);
	assert_int_equal(s.n, 0);
	model_series_done(&s);
	assert_int_equal(model_series_get(m, 9999, 0, NULL, &s), TD_ERR_RANGE);
	model_close(m);
	fake_free(f);
}

/* Each step in a graph of its own (runs of a session), each with an op
 * "loss"; and a second "loss" in graph X that runs in the same steps as
 * R0's: another op of the same name, not a step of this one. */
static void
test_same_name_ops_join_unless_they_share_a_step(void **state)
{
	struct fake *f = fake_new();
	struct model *m;
	struct model_series s;
	struct td_summary v;
	char g[16];

	(void)state;
	fake_file(f, 1, "f1", "h");
	for (int step = 0; step < 3; step++) {
		snprintf(g, sizeof g, "R%d", step);
		fake_graph(f, g, g, NULL);
		fake_op(f, g, "loss", "Mean", NULL, NULL);
		v = filled((float)(3 - step), 1);
		fake_trace(f, 1, g, "loss", 0, step * 10, &v);
		fake_step(f, step);
	}
	fake_graph(f, "X", "X", NULL);
	fake_op(f, "X", "loss", "Mean", NULL, NULL);
	v = filled(1000, 1);
	fake_trace(f, 1, "X", "loss", 0, 1, &v);
	fake_step(f, 0);
	m = fake_model_open(f, NULL);
	model_wait(m);
	int64_t op = model_op_find(m, "loss", "R0");
	assert_true(op >= 0);
	assert_int_equal(model_series_get(m, (uint32_t)op, 0, NULL, &s), TD_OK);
	assert_int_equal(s.n, 3);
	for (size_t i = 0; i < s.n; i++) {
		assert_int_equal(s.points[i].step, (int64_t)i);
		assert_true(s.points[i].v[SERIES_MEAN] == 3.0 - (double)i);
		assert_int_equal(s.points[i].rows_in_step, 1);
	}
	model_series_done(&s);
	model_close(m);
	fake_free(f);
}

static void
test_default_fields_are_those_recorded(void **state)
{
	struct fake *f = fake_new();
	struct model *m;
	struct model_series s;
	struct td_summary h = fake_full_health(4, 0, 1, 0);
	enum model_series_field fields[SERIES_FIELD_COUNT];

	(void)state;
	fake_file(f, 1, "f1", "h");
	fake_op(f, "G", "a", "Log", NULL, NULL);
	fake_trace(f, 1, "G", "a", 0, 1, &h);
	fake_step(f, 0);
	m = fake_model_open(f, NULL);
	model_wait(m);
	assert_int_equal(model_series_get(m, 0, 0, NULL, &s), TD_OK);
	assert_int_equal(s.n, 1);
	assert_true(s.points[0].nonfinite);
	/* health counts only: nan and inf of the preferred seven */
	assert_int_equal(model_series_default_fields(&s, fields, SERIES_FIELD_COUNT), 2);
	assert_int_equal(fields[0], SERIES_NAN);
	assert_int_equal(fields[1], SERIES_INF);
	model_series_done(&s);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_have_names),
		cmocka_unit_test(test_values_the_mode_lacks_are_unknown),
		cmocka_unit_test(test_one_point_per_step_and_host),
		cmocka_unit_test(test_same_name_ops_join_unless_they_share_a_step),
		cmocka_unit_test(test_default_fields_are_those_recorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
