/*
 * test_model_watch.c - watches over a fake dump: named conditions and their
 * parameters, errors, the recommended set, step conditions against the same
 * tensor's previous step (by the reader's step; values before statistics;
 * one tensor per host),
 * unknown rows counted apart, the dump's overflow records, the budgeted run.
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
#include "tests/unit/helpers/fake_model.h"

/* The fake dump, fully indexed. */
static struct model *
open_watched(struct fake *f)
{
	struct model *m = fake_model_open(f, NULL);

	model_wait(m);
	return m;
}

static struct td_summary
values(const float *v, int64_t n)
{
	struct td_summary s;

	td_summarize_raw(DTYPE_FLOAT32, v, n, &s);
	return s;
}

/* Two steps of: a weight w (step 0 {1, -1}, step 1 the same), a weight v
 * (doubles), a gradient g ({1e-12, -1e-12}, then health only: no mean),
 * an activation r with one NaN (health).  Rows: step 0 = 0..3, step 1 =
 * 4..7; and an overflow record on execution 0. */
static struct fake *
script(void)
{
	static const float w[] = { 1, -1 }, v0[] = { 1, 2 }, v1[] = { 2, 4 }, g[] = { 1e-12f, -1e-12f };
	struct fake *f = fake_new();
	struct td_summary sw = values(w, 2), sv0 = values(v0, 2), sv1 = values(v1, 2), sg = values(g, 2);
	struct td_summary health = fake_full_health(2, 0, 0, 0), nan = fake_full_health(2, 0, 0, 1);

	fake_file(f, 1, "f1", "rank_0");
	fake_graph(f, "G", "train", NULL);
	fake_op(f, "G", "w/kernel", "VariableV2", NULL, NULL);
	fake_op(f, "G", "v/kernel", "VariableV2", NULL, NULL);
	fake_op(f, "G", "gradients/MatMul_grad/MatMul", "MatMul", NULL, NULL);
	fake_op(f, "G", "dense/Relu", "Relu", NULL, NULL);
	for (int step = 0; step < 2; step++) {
		fake_trace(f, 1, "G", "w/kernel", 0, 1 + step * 10, &sw);
		fake_step(f, step);
		fake_trace(f, 1, "G", "v/kernel", 0, 2 + step * 10, step ? &sv1 : &sv0);
		fake_step(f, step);
		fake_trace(f, 1, "G", "gradients/MatMul_grad/MatMul", 0, 3 + step * 10, step ? &health : &sg);
		fake_step(f, step);
		fake_trace(f, 1, "G", "dense/Relu", 0, 4 + step * 10, &nan);
		fake_step(f, step);
	}
	fake_exec(f, 1, "Train", NULL, "rank_0", 30, &health, 1);
	fake_overflow(f, "dense/Relu", 0, "overflow status 0x800");
	return f;
}

/* Runs every watch to the end, a few rows at a time. */
static void
run(struct model *m, struct model_watch_run *r)
{
	int calls = 0;

	model_watch_run_init(r, -1);
	while (!model_watch_run_step(m, r, 3))
		assert_true(++calls < 100);
	assert_true(calls >= 2);         /* the budget holds */
}

static size_t
hits_of(struct model *m, const struct model_watch_run *r, const char *name, uint64_t *rows, size_t max)
{
	struct model_watch w;
	size_t n = 0;

	for (size_t i = 0; i < r->nhits; i++) {
		assert_true(model_watch_at(m, r->hits[i].watch, &w));
		if (!strcmp(w.name, name) && n < max)
			rows[n++] = r->hits[i].index;
	}
	return n;
}

static void
test_named_conditions_expand_with_parameters(void **state)
{
	struct fake *f = script();
	struct model *m = open_watched(f);
	struct model_watch w;
	char err[256];

	(void)state;
	model_watch_recommended(m, false);
	assert_int_equal(model_watch_count(m), 0);
	assert_int_equal(model_watch_add(m, "g", "gradient_vanishing(abs_mean_lt=1e-7, max_lt=5)", err,
					 sizeof err), TD_OK);
	assert_true(model_watch_at(m, 0, &w));
	assert_string_equal(w.name, "g");
	assert_string_equal(w.text, "gradient_vanishing(abs_mean_lt=1e-7, max_lt=5)");
	assert_non_null(strstr(w.expr, "role == \"gradient\""));
	/* the bound as typed, in its shortest form (issue 24 item 9) */
	assert_non_null(strstr(w.expr, "abs_mean < 1e-07"));
	assert_non_null(strstr(w.expr, " or max < 5"));
	/* zero_percentage_ge compares the percentage itself (exactly) */
	assert_int_equal(model_watch_add(m, "z", "tensor_all_zero(zero_percentage_ge=50)", err, sizeof err),
			 TD_OK);
	assert_true(model_watch_at(m, 1, &w));
	assert_non_null(strstr(w.expr, "zero_percentage >= 50"));
	/* replacing keeps one watch of that name */
	assert_int_equal(model_watch_add(m, "g", "nan > 0", err, sizeof err), TD_OK);
	assert_int_equal(model_watch_count(m), 2);
	assert_true(model_watch_at(m, 0, &w));
	assert_string_equal(w.expr, "nan > 0");
	assert_int_equal(model_watch_rm(m, "g"), TD_OK);
	assert_int_equal(model_watch_rm(m, "g"), TD_ERR_NOTFOUND);
	assert_int_equal(model_watch_count(m), 1);
	model_close(m);
	fake_free(f);
}

static void
test_bad_watches_say_why(void **state)
{
	struct fake *f = script();
	struct model *m = open_watched(f);
	char err[256];

	(void)state;
	assert_int_equal(model_watch_add(m, "a", "tensor_too_large", err, sizeof err), TD_ERR_ARGS);
	assert_non_null(strstr(err, "needs one of"));
	assert_int_equal(model_watch_add(m, "a", "weight_overflow(max_gt=1)", err, sizeof err), TD_ERR_ARGS);
	assert_non_null(strstr(err, "takes no parameters"));
	assert_int_equal(model_watch_add(m, "a", "gradient_vanishing(abs_mean_lt)", err, sizeof err),
			 TD_ERR_ARGS);
	assert_non_null(strstr(err, "expected name=value"));
	assert_int_equal(model_watch_add(m, "a", "gradient_vanishing(abs_mean_lt=1", err, sizeof err),
			 TD_ERR_ARGS);
	assert_int_equal(model_watch_add(m, "a", "max >", err, sizeof err), TD_ERR_ARGS);
	assert_non_null(strstr(err, "column"));
	assert_int_equal(model_watch_add(m, "a b", "nan > 0", err, sizeof err), TD_ERR_ARGS);
	assert_int_equal(model_watch_add(m, "a", "fp16_overflow_risk(factor=0.5)", err, sizeof err),
			 TD_ERR_ARGS);
	model_close(m);
	fake_free(f);
}

static void
test_recommended_set_on_by_default(void **state)
{
	struct fake *f = script();
	struct model *m = open_watched(f);
	struct model_watch w;
	struct model_condition c;
	size_t rec = 0;
	char err[256];

	(void)state;
	for (size_t i = 0; model_condition_at(i, &c); i++)
		rec += c.recommended;
	assert_true(model_watch_recommended_on(m));
	assert_int_equal(model_watch_count(m), rec);
	assert_true(model_watch_at(m, 0, &w));
	assert_true(w.recommended);
	/* a user watch survives switching the set off */
	assert_int_equal(model_watch_add(m, "mine", "nan > 0", err, sizeof err), TD_OK);
	model_watch_recommended(m, false);
	assert_int_equal(model_watch_count(m), 1);
	model_watch_recommended(m, true);
	assert_int_equal(model_watch_count(m), rec + 1);
	model_close(m);
	fake_free(f);
}

static void
test_step_conditions_compare_the_previous_step(void **state)
{
	struct fake *f = script();
	struct model *m = open_watched(f);
	struct model_watch_run r;
	uint64_t rows[8];
	char err[256];

	(void)state;
	model_watch_recommended(m, false);
	assert_int_equal(model_watch_add(m, "same", "weight_not_changed", err, sizeof err), TD_OK);
	assert_int_equal(model_watch_add(m, "jump", "weight_change_too_large", err, sizeof err), TD_OK);
	assert_int_equal(model_watch_add(m, "first", "first_record and role == \"weight\"", err, sizeof err),
			 TD_OK);
	assert_int_equal(model_watch_add(m, "grew", "delta_abs_mean > 1", err, sizeof err), TD_OK);
	run(m, &r);
	/* w is the same at step 1 (row 4), v doubled (row 5): ratio 1 */
	assert_int_equal(hits_of(m, &r, "same", rows, 8), 1);
	assert_int_equal(rows[0], 4);
	assert_int_equal(hits_of(m, &r, "jump", rows, 8), 1);
	assert_int_equal(rows[0], 5);
	for (size_t i = 0; i < r.nhits; i++) {
		struct model_watch w;
		assert_true(model_watch_at(m, r.hits[i].watch, &w));
		if (!strcmp(w.name, "jump")) {
			assert_non_null(r.hits[i].basis);      /* values or statistics agree */
			assert_string_equal(r.hits[i].values[0].field, "update_ratio");
			assert_true(fabs(r.hits[i].values[0].value - 1.0) < 1e-9);
		}
	}
	/* the first record of each weight, at step 0 */
	assert_int_equal(hits_of(m, &r, "first", rows, 8), 2);
	assert_int_equal(rows[0], 0);
	assert_int_equal(rows[1], 1);
	/* v's abs_mean 1.5 -> 3 */
	assert_int_equal(hits_of(m, &r, "grew", rows, 8), 1);
	assert_int_equal(rows[0], 5);
	model_watch_run_done(&r);
	model_close(m);
	fake_free(f);
}

/* "The same tensor" is the same op, slot and host: one weight traced on
 * two hosts (files rank_0 and rank_1, their rows in turns) is two
 * tensors, each with its own first record and previous step.  Rows:
 * 0 rank_0 step 0 (abs_mean 1), 1 rank_0 step 1 (1), 2 rank_1 step 0
 * (10), 3 rank_1 step 1 (10), 4 rank_0 step 2, 5 rank_1 step 2, 6 rank_0
 * step 3, 7 rank_1 step 3. */
static void
test_step_conditions_pair_rows_of_one_host(void **state)
{
	static const float small[] = { 1, -1 }, big[] = { 10, -10 };
	static const struct { uint32_t file; int64_t step; const float *v; } rows_in[] = {
		{ 1, 0, small }, { 1, 1, small }, { 2, 0, big }, { 2, 1, big }, { 1, 2, small },
		{ 2, 2, big }, { 1, 3, small }, { 2, 3, big },
	};
	struct fake *f = fake_new();
	struct model_watch_run r;
	struct model *m;
	uint64_t rows[8];
	char err[256];

	(void)state;
	fake_file(f, 1, "f1", "rank_0");
	fake_file(f, 2, "f2", "rank_1");
	fake_graph(f, "G", "train", NULL);
	fake_op(f, "G", "w/kernel", "VariableV2", NULL, NULL);
	for (size_t i = 0; i < sizeof rows_in / sizeof rows_in[0]; i++) {
		struct td_summary s = values(rows_in[i].v, 2);

		fake_trace(f, rows_in[i].file, "G", "w/kernel", 0, 1 + (double)i, &s);
		fake_step(f, rows_in[i].step);
	}
	m = open_watched(f);
	model_watch_recommended(m, false);
	assert_int_equal(model_watch_add(m, "first", "first_record", err, sizeof err), TD_OK);
	assert_int_equal(model_watch_add(m, "grew", "delta_abs_mean > 1", err, sizeof err), TD_OK);
	assert_int_equal(model_watch_add(m, "fell", "delta_abs_mean < -1", err, sizeof err), TD_OK);
	run(m, &r);
	assert_int_equal(hits_of(m, &r, "first", rows, 8), 2);
	assert_int_equal(rows[0], 0);
	assert_int_equal(rows[1], 2);
	assert_int_equal(hits_of(m, &r, "grew", rows, 8), 0);
	assert_int_equal(hits_of(m, &r, "fell", rows, 8), 0);
	model_watch_run_done(&r);
	model_close(m);
	fake_free(f);
}

static void
test_unknown_rows_are_counted_not_hit(void **state)
{
	struct fake *f = script();
	struct model *m = open_watched(f);
	struct model_watch_run r;
	uint64_t rows[8];
	char err[256];

	(void)state;
	model_watch_recommended(m, false);
	/* the gradient has a mean at step 0 (values) and none at step 1 (health) */
	assert_int_equal(model_watch_add(m, "v", "gradient_vanishing", err, sizeof err), TD_OK);
	run(m, &r);
	assert_int_equal(hits_of(m, &r, "v", rows, 8), 1);
	assert_int_equal(rows[0], 2);
	assert_int_equal(r.unknown, 1);
	assert_int_equal(r.checked, 9);     /* 8 traces, 1 execution */
	model_watch_run_done(&r);
	model_close(m);
	fake_free(f);
}

static void
test_overflow_records_and_hit_text(void **state)
{
	struct fake *f = script();
	struct model *m = open_watched(f);
	struct model_watch_run r;
	char err[256], text[256];
	uint64_t rows[8];

	(void)state;
	model_watch_recommended(m, false);
	assert_int_equal(model_watch_add(m, "o", "operator_overflow", err, sizeof err), TD_OK);
	assert_int_equal(model_watch_add(m, "n", "tensor_overflow", err, sizeof err), TD_OK);
	run(m, &r);
	assert_int_equal(hits_of(m, &r, "n", rows, 8), 2);  /* the Relu rows */
	assert_int_equal(rows[0], 3);
	assert_int_equal(rows[1], 7);
	model_watch_run_done(&r);
	model_watch_run_init(&r, -1);
	while (!model_watch_run_step(m, &r, 100))
		;
	for (size_t i = 0; i < r.nhits; i++) {
		struct model_watch w;
		model_watch_at(m, r.hits[i].watch, &w);
		model_watch_hit_describe(&r.hits[i], text, sizeof text);
		if (!strcmp(w.name, "o")) {
			assert_int_equal(r.hits[i].source, TABLE_EXECUTIONS);
			assert_string_equal(r.hits[i].op_name, "dense/Relu");
			assert_non_null(strstr(text, "overflow status 0x800"));
		} else if (r.hits[i].source == TABLE_TRACES) {
			assert_string_equal(text, "nan 1 > 0");
		}
	}
	model_watch_run_done(&r);
	model_close(m);
	fake_free(f);
}

/* Issue 22: zero_percentage_ge=P matches a tensor with exactly P% zeros
 * (70 * 0.01 is 0.70000000000000007, above 7/10).  Each P is tried on
 * 100 and 200 elements with P% zeros and one zero fewer; the expectation
 * is the integer test 100 * zero >= P * elements. */
static void
test_zero_percentage_compares_exactly(void **state)
{
	static const int pcts[] = { 35, 41, 47, 57, 69, 70, 82, 83, 94, 95, 100 };
	static float v[200];

	(void)state;
	for (size_t p = 0; p < sizeof pcts / sizeof *pcts; p++) {
		struct fake *f = fake_new();
		struct model *m;
		struct model_watch_run r;
		uint64_t rows[8];
		int64_t zeros[4], n[4] = { 100, 100, 200, 200 };
		char text[80], err[256];
		size_t k, nexp = 0, got;
		uint64_t expect[4];

		zeros[0] = pcts[p];
		zeros[1] = pcts[p] - 1;
		zeros[2] = 2 * pcts[p];
		zeros[3] = 2 * pcts[p] - 1;
		fake_file(f, 1, "f1", "rank_0");
		fake_graph(f, "G", "train", NULL);
		fake_op(f, "G", "t", "Relu", NULL, NULL);
		for (k = 0; k < 4; k++) {
			struct td_summary s;

			for (int64_t i = 0; i < n[k]; i++)
				v[i] = i < zeros[k] ? 0.0f : 1.0f;
			s = values(v, n[k]);
			fake_trace(f, 1, "G", "t", 0, 1 + (double)k, &s);
			if (100 * zeros[k] >= pcts[p] * n[k])
				expect[nexp++] = k;
		}
		m = open_watched(f);
		model_watch_recommended(m, false);
		snprintf(text, sizeof text, "tensor_all_zero(zero_percentage_ge=%d)", pcts[p]);
		assert_int_equal(model_watch_add(m, "z", text, err, sizeof err), TD_OK);
		model_watch_run_init(&r, -1);
		while (!model_watch_run_step(m, &r, 100))
			;
		got = hits_of(m, &r, "z", rows, 8);
		assert_int_equal(got, nexp);
		for (k = 0; k < nexp; k++)
			assert_int_equal(rows[k], expect[k]);
		model_watch_run_done(&r);
		model_close(m);
		fake_free(f);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_conditions_expand_with_parameters),
		cmocka_unit_test(test_zero_percentage_compares_exactly),
		cmocka_unit_test(test_bad_watches_say_why),
		cmocka_unit_test(test_recommended_set_on_by_default),
		cmocka_unit_test(test_step_conditions_compare_the_previous_step),
		cmocka_unit_test(test_step_conditions_pair_rows_of_one_host),
		cmocka_unit_test(test_unknown_rows_are_counted_not_hit),
		cmocka_unit_test(test_overflow_records_and_hit_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
