/*
 * test_values.c - element tools of the tensor command and view: value
 * ranges (tfdbg's -r syntax, inclusive, NaN in none), value queries,
 * element coordinates both ways, and the percentiles of a slice (numpy's
 * default linear method: np.percentile(np.arange(1, 101), [1, 25, 50, 75,
 * 99]) is 1.99, 25.75, 50.5, 75.25, 99.01).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/values.h"

static void
test_ranges_parse_list_and_single(void **state)
{
	struct value_ranges r;
	char err[128];

	(void)state;
	assert_true(value_ranges_parse("[[-inf, -1], [1, inf]]", &r, err, sizeof err));
	assert_int_equal(r.n, 2);
	assert_true(isinf(r.lo[0]) && r.lo[0] < 0);
	assert_true(r.hi[0] == -1 && r.lo[1] == 1 && isinf(r.hi[1]));
	assert_true(value_ranges_parse("[0,0]", &r, err, sizeof err));
	assert_int_equal(r.n, 1);
}

static void
test_ranges_are_inclusive_and_skip_nan(void **state)
{
	struct value_ranges r;
	char err[128];

	(void)state;
	assert_true(value_ranges_parse("[[-inf,-1],[1,inf]]", &r, err, sizeof err));
	assert_true(value_ranges_contains(&r, -1));
	assert_true(value_ranges_contains(&r, 1));
	assert_true(value_ranges_contains(&r, -INFINITY));
	assert_false(value_ranges_contains(&r, 0.5));
	assert_false(value_ranges_contains(&r, NAN));
}

static void
test_ranges_bad_text_says_why(void **state)
{
	struct value_ranges r;
	char err[128];

	(void)state;
	assert_false(value_ranges_parse("[[1,0]]", &r, err, sizeof err));
	assert_non_null(strstr(err, "low bound"));
	assert_false(value_ranges_parse("[[1,]]", &r, err, sizeof err));
	assert_false(value_ranges_parse("[[1,2]", &r, err, sizeof err));
	assert_false(value_ranges_parse("1,2", &r, err, sizeof err));
	assert_false(value_ranges_parse("[[1,2]] x", &r, err, sizeof err));
}

static void
test_query_words_and_numbers(void **state)
{
	struct value_query q;

	(void)state;
	assert_true(value_query_parse("NaN", &q));
	assert_true(value_query_match(&q, NAN));
	assert_false(value_query_match(&q, 0));
	assert_true(value_query_parse("-inf", &q));
	assert_true(value_query_match(&q, -INFINITY));
	assert_false(value_query_match(&q, INFINITY));
	assert_true(value_query_parse("inf", &q));
	assert_true(value_query_match(&q, -INFINITY) && value_query_match(&q, INFINITY));
	assert_true(value_query_parse("nonfinite", &q));
	assert_true(value_query_match(&q, NAN) && !value_query_match(&q, 1));
	assert_true(value_query_parse("-3.46068", &q));
	assert_true(value_query_match(&q, -3.4606817));     /* as printed, 6 digits */
	assert_false(value_query_match(&q, -3.4607817));
	assert_false(value_query_parse("dense.*", &q));     /* a regex, not a value */
}

static void
test_coords_both_ways(void **state)
{
	int64_t dims[2] = { 8, 10 }, idx;
	struct td_tensor t = { .dtype = DTYPE_FLOAT32, .rank = 2, .dims = dims, .n = 80 };
	struct strbuf sb = { 0 };
	char err[128];

	(void)state;
	value_coords(&t, 37, &sb);
	assert_string_equal(sb.buf, "[3,7]");
	assert_true(value_coords_parse(&t, "[3,7]", &idx, err, sizeof err));
	assert_int_equal(idx, 37);
	assert_true(value_coords_parse(&t, "@[-1, -1]", &idx, err, sizeof err));
	assert_int_equal(idx, 79);
	assert_false(value_coords_parse(&t, "[8,0]", &idx, err, sizeof err));
	assert_non_null(strstr(err, "out of bounds"));
	assert_false(value_coords_parse(&t, "[3]", &idx, err, sizeof err));
	assert_false(value_coords_parse(&t, "[3,7,1]", &idx, err, sizeof err));
	strbuf_done(&sb);
}

static void
test_percentiles_linear_like_numpy(void **state)
{
	struct td_summary s = { 0 };
	enum td_status st;
	int64_t dims[1] = { 101 };
	struct td_tensor *t = td_tensor_new(DTYPE_FLOAT64, 1, dims, &st);
	double *x = t->data;

	(void)state;
	for (int i = 0; i < 100; i++)
		x[99 - i] = i + 1;          /* 100..1, unsorted on purpose */
	x[100] = NAN;                   /* not finite: left out */
	assert_true(td_tensor_percentiles(t, NULL, &s));
	assert_true(s.known & SUM_PERCENTILES);
	assert_float_equal(s.pct[0], 1.99, 1e-9);
	assert_float_equal(s.pct[1], 25.75, 1e-9);
	assert_float_equal(s.pct[2], 50.5, 1e-9);
	assert_float_equal(s.pct[3], 75.25, 1e-9);
	assert_float_equal(s.pct[4], 99.01, 1e-9);
	td_tensor_free(t);
}

static void
test_percentiles_of_a_slice_and_of_nothing(void **state)
{
	struct td_summary s = { 0 };
	struct td_slice sl;
	struct td_slice_view v;
	enum td_status st;
	int64_t dims[2] = { 2, 3 };
	struct td_tensor *t = td_tensor_new(DTYPE_FLOAT32, 2, dims, &st);
	float *x = t->data;
	char err[64];

	(void)state;
	for (int i = 0; i < 6; i++)
		x[i] = (float)i;            /* [[0 1 2] [3 4 5]] */
	assert_int_equal(td_slice_parse("[:, 2]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_slice_view(t, &sl, &v, err, sizeof err), TD_OK);
	assert_int_equal(td_slice_view_index(&v, 1), 5);
	assert_true(td_tensor_percentiles(t, &v, &s));
	assert_float_equal(s.pct[2], 3.5, 1e-9);            /* median of 2 and 5 */
	for (int i = 0; i < 6; i++)
		x[i] = NAN;
	memset(&s, 0, sizeof s);
	assert_false(td_tensor_percentiles(t, NULL, &s));
	assert_false(s.known & SUM_PERCENTILES);
	td_tensor_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges_parse_list_and_single),
		cmocka_unit_test(test_ranges_are_inclusive_and_skip_nan),
		cmocka_unit_test(test_ranges_bad_text_says_why),
		cmocka_unit_test(test_query_words_and_numbers),
		cmocka_unit_test(test_coords_both_ways),
		cmocka_unit_test(test_percentiles_linear_like_numpy),
		cmocka_unit_test(test_percentiles_of_a_slice_and_of_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
